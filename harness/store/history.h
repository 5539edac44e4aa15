/* history.h: earlier runs of an experiment, kept when a rerun replaces
 * them.
 *
 * DIR/<experiment>/ is always the current run, replaced whole.  When a run
 * replaces it, the previous one is not lost; where it goes is the user's
 * choice (`ipclab run --history`):
 *
 * - dir (the default): it is moved whole, by renames only, to
 *   DIR/.history/<experiment>/<run-id>/.  The directory starts with a
 *   dot, so nothing that reads DIR/<experiment>/ (make, summarize,
 *   verify, compare DATA REPRO) sees it, and a repository ignores it with
 *   one line (.history/).
 * - git: its files become a commit, at their paths in the git repository
 *   DIR is in (DIR/<experiment>/...), on the ref
 *   refs/ipclab/history/<experiment>/<run-id>.  The commit is made with an
 *   index of its own and holds nothing but those files; the user's
 *   branch, index and working tree are untouched (`git log` shows none of
 *   it; `git checkout REF -- DIR/<experiment>` brings a run back).  git
 *   is run from argv, within a time limit (spawn_command(), which an
 *   interrupt does not cut short: a commit under way is finished).
 * - none: it is removed.
 *
 * RUN-ID is the time the run started as its meta.ini records it
 * ("20261202T061031Z"; "-2", "-3" after it when two runs started in the
 * same second).  Of each experiment, the newest runs kept are at most
 * --keep N (HISTORY_KEEP_DEFAULT; 0 keeps none) and at most --keep-size
 * SIZE together (the sizes of their files; no limit by default): older
 * ones are removed first; the current run never is.
 *
 * A crash between the two renames (the new run swapped in, the old one
 * not yet kept) leaves the old run in the staging directory
 * DIR/.<experiment>.new/; the next run keeps it in history instead of
 * removing it (history_keep_leftover). */
#pragma once

#include <glib.h>
#include <stdbool.h>

#define HISTORY_DIR ".history"
#define HISTORY_KEEP_DEFAULT 5
#define HISTORY_GIT_REFS "refs/ipclab/history/"

/* Where and how many earlier runs this process keeps, for results in
 * OUT_DIR: MODE "dir", "git" or "none" (NULL: dir), at most KEEP runs
 * and at most KEEP_SIZE ("200MiB", as an experiment file's sizes; NULL:
 * no limit) per experiment.  FALSE with IPCLAB_ERROR_INPUT naming the
 * option on a bad value, and for git when OUT_DIR is in no git
 * repository or git cannot be run. */
bool history_configure(const char *mode, guint keep, const char *keep_size, const char *out_dir, GError **error);

/* Replaces FINAL with STAGING (a directory, in one step, as
 * samples_replace_dir does) and keeps the FINAL it replaces, when it was
 * a run (it has a meta.ini), in history, then prunes that history to its
 * limits.  Returns 0, or -errno with FINAL unchanged.  When the old run
 * cannot be kept (a full disk, a read-only .history, git failing), FINAL
 * is the new run all the same, the old one waits in FINAL's staging
 * directory DIR/.<experiment>.new/ (moved there from STAGING when that
 * is another directory), where the next run finds it
 * (history_keep_leftover), and the return is 1. */
int history_replace_dir(const char *staging, const char *final);

/* STAGING, a directory an earlier run of FINAL left behind: when it holds
 * a whole run (samples.tsv and meta.ini), kept in history; else removed.
 * Returns 0 or -errno. */
int history_keep_leftover(const char *staging, const char *final);

/* The history directory of FINAL (DIR/<experiment>):
 * DIR/.history/<experiment>.  Newly allocated. */
char *history_dir_of(const char *final);

/* The run ids kept for FINAL, oldest first, in its history directory and
 * as git commits (a new array of new strings; empty when there are
 * none).  An id in both is listed once: the directory's. */
GPtrArray *history_list(const char *final);

/* Run ID of FINAL as a directory to read: *DIR in its history directory,
 * or, for a run kept as a git commit, in a new temporary directory
 * *TMP it is checked out into (the caller removes it with
 * samples_remove_dir; NULL when none was made).  Returns 0 or -errno
 * (-ENOENT: no such run). */
int history_open(const char *final, const char *id, char **dir, char **tmp);
