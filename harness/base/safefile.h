/* safefile.h: files ipclab did not write itself, opened as what they must
 * be: experiment files, samples.tsv, meta.ini, latencies.tsv.gz,
 * published files, resume files, summaries, a target's results.
 *
 * A file is read only when it is a regular file (not a FIFO, a device, a
 * socket or a directory: looked at before it is opened, so nothing waits
 * for a writer and no device is read) of at most the size stated for its
 * kind, and when its path, every symbolic link in it resolved, stays in
 * its tree: the working directory for a relative path that does not lead
 * out with "..", else the directory the path names the file in.  A study
 * cloned with a link data/published/x.tsv -> /etc/passwd, or data ->
 * /home, is refused naming the link; a path typed on the command line,
 * ../elsewhere/data/e or /tmp/r/e, is the user's own choice.  Reads go
 * up to the size limit and no further, even from a file that grows.
 * Errors are IPCLAB_ERROR_INPUT and name the file.
 */
#pragma once

#include <glib.h>

/* The largest file of each kind ipclab reads.  Each is far more than any
 * real one (the largest here: a 2 KiB experiment file, a 350 KiB
 * samples.tsv, an 8 KiB meta.ini, a 4 MiB latencies.tsv.gz that inflates
 * to 23 MiB) and far less than a runaway generator or a device would hand
 * over. */
#define SAFEFILE_MAX_EXPERIMENT ((guint64) 1 << 20)   /* an experiment file: 1 MiB */
#define SAFEFILE_MAX_META ((guint64) 1 << 20)         /* a meta.ini: 1 MiB */
#define SAFEFILE_MAX_TABLE ((guint64) 64 << 20)       /* samples.tsv, a summary, a published file, a resume
                                                       * file, `ipclab latency` output: 64 MiB */
#define SAFEFILE_MAX_LATENCY ((guint64) 64 << 20)     /* latencies.tsv.gz as stored: 64 MiB (latency.h
                                                       * bounds what it inflates to: 512 MiB) */
#define SAFEFILE_MAX_LOG ((guint64) 16 << 20)         /* a console log or a task's log: 16 MiB */
#define SAFEFILE_MAX_LINE ((gsize) 1 << 20)           /* one line of a table: 1 MiB */

/* Opens PATH for reading as described above, WHAT naming its kind in
 * messages ("a samples.tsv"), MAX its largest size; *SIZE (when not NULL)
 * gets its size.  Returns the fd (O_CLOEXEC, blocking) or -1 with ERROR. */
int safefile_open(const char *path, const char *what, guint64 max, guint64 *size, GError **error);

/* PATH's bytes, NUL-terminated, *LEN (when not NULL) their number, opened
 * by safefile_open().  NULL with ERROR. */
char *safefile_read(const char *path, const char *what, guint64 max, gsize *len, GError **error);

/* PATH as a key file (meta.ini), read by safefile_read() with
 * SAFEFILE_MAX_META.  NULL with ERROR naming PATH. */
GKeyFile *safefile_key_file(const char *path, GError **error);

/* A file read line by line, never whole: for tables, whose size is
 * bounded by MAX but whose lines are handled one at a time. */
typedef struct SafeLines SafeLines;

/* Opens PATH (safefile_open) for safefile_lines_next(). */
SafeLines *safefile_lines_open(const char *path, const char *what, guint64 max, GError **error);
/* The next line, without its newline, NUL-terminated, valid until the
 * next call; *LEN its length.  NULL at the end (ERROR unset) or with
 * ERROR "PATH:LINE: ...": a line longer than SAFEFILE_MAX_LINE, a NUL
 * byte, or a read error.  A last line without a newline is a line. */
const char *safefile_lines_next(SafeLines *l, gsize *len, GError **error);
/* The number of the line last returned, from 1. */
guint safefile_lines_number(const SafeLines *l);
void safefile_lines_close(SafeLines *l);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(SafeLines, safefile_lines_close)

/* TEXT (LEN bytes) read from outside, as it may reach a terminal: every
 * control character but newline and tab (an escape sequence could
 * rewrite the screen, retitle the window or answer for us), every C1
 * control and every byte that is not UTF-8 as '?'.  Newly allocated. */
char *safefile_terminal_text(const char *text, gsize len);

/* "3.1 MiB", "512 KiB", "200 bytes": SIZE for a message. */
char *safefile_format_size(guint64 size);
