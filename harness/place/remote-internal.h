/* remote-internal.h: what tool.c gives remote.c (SSH) and slurm.c: starting
 * a tool, following its output, and reading what it said. */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "untar.h"

/* What the run script puts before each line of the target's resume file
 * that it copies to stderr as the file grows (see remote.c: run_script). */
#define REMOTE_PARTIAL_MARK "ipclab-partial: "
/* ... and before each line of its resume file of latencies. */
#define REMOTE_PARTIAL_LAT_MARK "ipclab-partial-latencies: "

/* Letters and digits, or one of EXTRA, throughout S. */
gboolean remote_all_of(const char *s, const char *extra);

/* Spawns ARGV with stdin IN_FD and stdout OUT_FD (-1: a pipe returned in
 * *OUT_PIPE when OUT_PIPE is set, else /dev/null) and stderr a pipe
 * returned in *ERR_PIPE (spawn.h).  Returns the pid, or -1 with ERROR. */
GPid remote_spawn(const char *const *argv, int in_fd, int out_fd, int *out_pipe, int *err_pipe, GError **error);
/* Reaps PID: its exit status, 128 + the signal that ended it, or -errno. */
int remote_wait_exit(GPid pid);

typedef struct {
        int out;           /* stdout pipe to read into OUT_TEXT, or -1 */
        int err;           /* stderr pipe: forwarded to ours and to LOG */
        GString *out_text;
        GString *log;      /* all of stderr */
        int *stop_fd;      /* closed (and set to -1) when we are interrupted */
        GPid pid;          /* killed REMOTE_STOP_GRACE_S after that */
        bool forward;      /* copy stderr to ours as it comes */
        GString *partial;  /* when set: stderr lines marked REMOTE_PARTIAL_MARK
                            * are the target's resume file, kept here (from
                            * its last header line on), not shown */
        GString *partial_lat;   /* the same for the target's resume file of
                                 * latencies (REMOTE_PARTIAL_LAT_MARK) */
        GString *line;     /* with PARTIAL: an incomplete line of stderr */
        Untar *untar;      /* when set: OUT is a tar stream, unpacked here;
                            * on a refusal OUT is closed, PID killed and
                            * the reason kept in UNTAR_ERROR */
        GError *untar_error;
} Pump;

/* Follows P's pipes until both end (tool.c says what each does);
 * returns whether we were interrupted meanwhile. */
bool remote_pump(Pump *p);

/* The last line of TEXT (from elsewhere) that says something, for an
 * error message: as safefile_terminal_text() makes it, at most 300 bytes. */
char *remote_last_line(const char *text);
