/* progress.h: what a run says while it goes, wherever it runs: progress
 * ("running on ssh://x", "merged in data/x", "12 rows in data/x"),
 * warnings, the output a target's run sends back as it comes, and the
 * status line a run keeps up to date on a terminal.  Nothing below cli/
 * prints: the command line sets where it goes (progress_set); while
 * unset, it is dropped. */
#pragma once

#include <glib.h>

typedef enum {
        PROGRESS_TEXT,    /* whole lines, but for a target's output as it comes */
        PROGRESS_STATUS,  /* the status line, replacing the one shown: one
                           * line without its newline, or "" to clear it */
        PROGRESS_KEEP,    /* the status line shown stays; what follows goes
                           * below it (TEXT is "") */
} ProgressKind;

/* Gets LEN bytes of TEXT of KIND; DATA as given to progress_set(). */
typedef void (*ProgressFn)(ProgressKind kind, const char *text, gsize len, gpointer data);

/* Sends what is said to FN (NULL: nowhere). */
void progress_set(ProgressFn fn, gpointer data);
/* Says one line: "ipclab: " FORMAT "\n". */
void progress_say(const char *format, ...) G_GNUC_PRINTF(1, 2);
/* Passes on LEN bytes of TEXT as they are (a target's output, already
 * made safe for a terminal). */
void progress_forward(const char *text, gsize len);
/* Shows LINE as the status line (one line, no newline), or clears it
 * (NULL).  Where it goes decides whether there is one (a terminal). */
void progress_status(const char *line);
/* Leaves the status line as it is: what is said next goes below it. */
void progress_keep_status(void);
