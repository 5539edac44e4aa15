/* history.h: earlier runs of an experiment, kept when a rerun replaces
 * them.
 *
 * DIR/<experiment>/ is always the current run, replaced whole.  When a run
 * replaces it, the previous one is not removed: it is moved whole, by
 * renames only, to DIR/.history/<experiment>/<run-id>/, RUN-ID the time it
 * started as its meta.ini records it ("20261202T061031Z"; "-2", "-3"
 * after it when two runs started in the same second).  The newest
 * history_get_keep() runs (HISTORY_KEEP_DEFAULT unless `ipclab run --keep
 * N` says otherwise; 0 keeps none) of each experiment are kept, the older
 * ones removed.  The directory starts with a dot, so nothing that reads
 * DIR/<experiment>/ (make, summarize, verify, compare DATA REPRO) sees it,
 * and a repository ignores it with one line (.history/).
 *
 * A crash between the two renames (the new run swapped in, the old one
 * not yet moved) leaves the old run in the staging directory
 * DIR/.<experiment>.new/; the next run keeps it in history instead of
 * removing it (history_keep_leftover). */
#pragma once

#include <glib.h>
#include <stdbool.h>

#define HISTORY_DIR ".history"
#define HISTORY_KEEP_DEFAULT 5

/* How many earlier runs of an experiment are kept (for this process). */
void history_set_keep(guint keep);
guint history_get_keep(void);

/* Replaces FINAL with STAGING (a directory, in one step, as
 * samples_replace_dir does) and keeps the FINAL it replaces, when it was
 * a run (it has a meta.ini), in history, then prunes that history to
 * history_get_keep() runs.  Returns 0, or -errno with FINAL unchanged.
 * When the old run cannot be moved into history (a full disk, a
 * read-only .history), FINAL is the new run all the same, the old one
 * waits in FINAL's staging directory DIR/.<experiment>.new/ (moved there
 * from STAGING when that is another directory), where the next run finds
 * it (history_keep_leftover), and the return is 1. */
int history_replace_dir(const char *staging, const char *final);

/* STAGING, a directory an earlier run of FINAL left behind: when it holds
 * a whole run (samples.tsv and meta.ini), kept in history; else removed.
 * Returns 0 or -errno. */
int history_keep_leftover(const char *staging, const char *final);

/* The history of FINAL (DIR/<experiment>): DIR/.history/<experiment>.
 * Newly allocated. */
char *history_dir_of(const char *final);

/* The run ids kept for FINAL, oldest first (a new array of new strings;
 * empty when there are none). */
GPtrArray *history_list(const char *final);
