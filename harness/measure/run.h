/* run.h: one experiment, from its validated file to DIR/<experiment>/. */
#pragma once

#include <glib.h>
#include <signal.h>
#include <stdbool.h>

#include "experiment.h"

enum {
        RUN_OK = 0,            /* every repetition measured */
        RUN_FAILED = 1,        /* some repetitions failed; recorded as such */
        RUN_ERROR = -1,        /* nothing written; ERROR says why */
        RUN_INTERRUPTED = 130, /* SIGINT or SIGTERM: data unchanged, resumable */
};

/* Runs EXP and replaces OUT_DIR/<experiment>/ (samples.tsv,
 * latencies.tsv.gz, meta.ini) in one step when it is done, the run it
 * replaces kept in OUT_DIR/.history/ (history.h; so do the merges
 * below).  RESUME
 * continues from the repetitions in OUT_DIR/.<experiment>.partial.tsv
 * (and their latencies in .<experiment>.partial-latencies.tsv).  ARGV is recorded in meta.ini.
 * Says its progress, warnings and status line through progress.h;
 * prints nothing.  Returns one of the RUN_ values. */
int run_experiment(const Experiment *exp, const char *out_dir, bool resume,
                   const char *const *argv, GError **error);

/* Merges the results DIRS[i]/<experiment>/ (NULL-terminated) into one
 * OUT_DIR/<experiment>/, replaced in one step: every row of every
 * samples.tsv (the env and machine columns tell them apart), and one
 * meta.ini with the first one's groups as they are and the others' as
 * "<group> LABEL", plus [run] envs or machines, the labels in order.
 * MACHINES: each is one machine, its LABEL the name its meta.ini records
 * ([run] machine), its [machine NAME] group kept as it is; two of one name
 * are an error (IPCLAB_ERROR_INPUT).  Otherwise LABELS are environment
 * names.  Console logs are kept as console-LABEL[-REST].log.  Returns
 * RUN_OK with *MERGED (when MERGED is set; g_free) the labels merged,
 * as [run] lists them, or RUN_ERROR with ERROR. */
int run_merge(const Experiment *exp, const char *out_dir, const char *const *dirs, const char *const *labels,
              bool machines, char **merged, GError **error);

/* Makes OUT_DIR usable for results (created when missing; a file, a
 * directory we cannot write: IPCLAB_ERROR_INPUT) and takes its lock,
 * OUT_DIR/.ipclab.lock, for one run at a time: when another run holds it,
 * fails with IPCLAB_ERROR_INPUT naming that run (pid and command).  ARGV
 * is recorded in the lock file for the next one to name.  Returns the
 * lock's fd, or -1 with ERROR.  A run inside a container or VM
 * (IPCLAB_ENV_BACKEND set) works for the host's run, which holds the
 * lock: it takes none and returns INT_MAX. */
int run_lock_out(const char *out_dir, const char *const *argv, GError **error);
/* Releases the lock taken by run_lock_out() and removes the lock file. */
void run_unlock_out(const char *out_dir, int fd);

/* "350 ms", "12.5 s", "3 min 20 s", "1.5 h". */
/* The files a run keeps in its output directory DIR until it ends, for
 * --resume: WHICH 0 is DIR/.NAME.partial.tsv (the finished rows), 1
 * DIR/.NAME.partial-latencies.tsv (their latencies).  Whoever carries a
 * resumable run elsewhere (a container, an SSH target) carries all
 * RUN_N_PARTIALS of them. */
#define RUN_N_PARTIALS 2
char *run_partial_path(const char *dir, const char *name, guint which);

void run_format_duration(char *buf, size_t len, double seconds);

/* TEXT (LEN bytes), a resume file WHICH (as run_partial_path()) of EXP
 * that came from elsewhere (a target), with only what --resume would
 * read: the header of this version of EXP, then every row that is what
 * this build writes for a cell of EXP (samples_parse_row) in one of its
 * environments on one machine, once; or the latencies' rows that parse,
 * of those environments and valid machine names.  NULL when it is not a
 * resume file of EXP at all.  What is carried back to a target for
 * --resume is this, never the file as it came. */
char *run_partial_checked(const Experiment *exp, guint which, const char *text, gsize len);
