/* compare.h: a reproduction (make reproduce's build/repro/) beside the
 * committed data, for the reviewer's report. */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "samples.h"

/* The header of compare_cells' TSV, with its newline (newly allocated):
 *   experiment, every axis of a cell (as samples.tsv has them),
 *   n_committed, n_reproduced, committed_ns_per_msg,
 *   reproduced_ns_per_msg (medians of the repetitions' elapsed_ns /
 *   messages), ratio, ratio_lo, ratio_hi, coverage (reproduced over
 *   committed with its interval at 95 % and the coverage it reaches),
 *   fail_lo, fail_hi, fail_coverage (the interval at 1 - 0.05/K, K the
 *   cells of the experiment compared) and change: slower, faster, within
 *   or "-" (compare_change_name).  The ratio and both intervals are a
 *   claim's pair statistics (verify_pair_intervals, verify.h); "reproduced"
 *   is the newer run (a reproduction, or the current run against one kept
 *   in history), "committed" the older. */
char *compare_header(void);

typedef enum {
        COMPARE_UNDECIDED,  /* "-": the interval at 1 - 0.05/K reaches past
                             * the threshold, or cannot reach that level
                             * (too few repetitions) */
        COMPARE_SLOWER,     /* that interval lies wholly above 1 + T: a
                             * regression beyond the threshold */
        COMPARE_FASTER,     /* ... wholly below 1 / (1 + T) */
        COMPARE_WITHIN,     /* ... wholly within [1 / (1 + T), 1 + T] (T > 0) */
        COMPARE_N_CHANGES,
} CompareChange;

/* "-", "slower", "faster", "within". */
const char *compare_change_name(CompareChange c);

/* What compare_cells found, over every experiment it is called for. */
typedef struct {
        double fail_above;     /* T, the threshold: 0.10 for 10 %; 0 none */
        guint cells;           /* cells compared (both sides measured) */
        guint changes[COMPARE_N_CHANGES];
        GPtrArray *regressions;   /* char *: each cell slower beyond T > 0,
                                   * "EXP: AXES: RATIO [LO, HI] COV times ..." */
} CompareTally;

/* Appends to OUT one TSV row per cell of experiment NAME found in
 * COMMITTED or REPRODUCED (two samples.tsv read with table_read), in the
 * order of their first row in COMMITTED, then those only in REPRODUCED.
 * A committed cell is set beside the reproduced cell with the same value
 * in every axis; failing that, beside the one reproduced cell left that
 * differs from it only in count, duration_ns or machine, when exactly one
 * is left on each side among the cells that agree on every other axis (a
 * profile's counts, the reviewer's machine): such an axis reads
 * "COMMITTED/REPRODUCED".  Cells are never pooled: a cell without a
 * partner has "-" for the other side and the ratio.  Only rows with
 * status ok count.  TALLY (or NULL) gets what was found against its
 * threshold.  Returns false with IPCLAB_ERROR_INPUT when a table lacks a
 * column. */
bool compare_cells(const char *name, const Table *committed, const Table *reproduced, CompareTally *tally,
                   GString *out, GError **error);

/* Appends to OUT a LaTeX tabular of the two machines side by side, from
 * COMMITTED and REPRODUCED (two meta.ini): CPU, CPUs, SMT, governor,
 * boost, clock source, hypervisor, container, kernel, page-table
 * isolation, PCID, CPU mitigations, memory, library and daemon versions,
 * compiler, the ipclab commit, environment, profile, start and load.  A
 * key a file lacks shows as "--" (compare_machine_fact()).  Returns false
 * with ERROR when a file cannot be read. */
bool compare_machines(const char *committed, const char *reproduced, GString *out, GError **error);

/* Do the meta.ini A and B describe one machine: no fact of its
 * [machine] that both record differs (compare_machines' rows of it: the
 * CPU, how many online, SMT, governor, boost, clock source, hypervisor,
 * container, kernel, page-table isolation, PCID, mitigations, memory; a
 * fact one of them was written before recording says nothing)?
 * Software and the run are not the machine. */
bool compare_same_machine(GKeyFile *a, GKeyFile *b);

/* GROUP.KEY of the meta.ini KF as a reader is shown it (unescaped), or
 * "--": [machine NAME] stands in for a missing [machine], and data written
 * before page_table_isolation was recorded says what its kernel command
 * line forced, or that it forced nothing.  Free with g_free(). */
char *compare_machine_fact(GKeyFile *kf, const char *group, const char *key);
