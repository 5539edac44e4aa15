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
 *   messages), ratio, ratio_lo, ratio_hi (reproduced over committed,
 *   stats_ratio_ci at 95 %) and coverage (the interval's, below 0.95 with
 *   too few repetitions). */
char *compare_header(void);

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
 * status ok count.  Returns false with IPCLAB_ERROR_INPUT when a table
 * lacks a column. */
bool compare_cells(const char *name, const Table *committed, const Table *reproduced, GString *out,
                   GError **error);

/* Appends to OUT a LaTeX tabular of the two machines side by side, from
 * COMMITTED and REPRODUCED (two meta.ini): CPU, CPUs, SMT, governor,
 * boost, clock source, hypervisor, container, kernel, memory, library and
 * daemon versions, compiler, the ipclab commit, environment, profile,
 * start and load.  A key a file lacks shows as "--".  Returns false with
 * ERROR when a file cannot be read. */
bool compare_machines(const char *committed, const char *reproduced, GString *out, GError **error);
