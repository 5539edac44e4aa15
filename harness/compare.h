/* compare.h: a reproduction (make reproduce's build/repro/) beside the
 * committed data, for the reviewer's report. */
#pragma once

#include <glib.h>
#include <stdbool.h>

#include "samples.h"

/* The header of compare_cells' TSV, with its newline (newly allocated):
 *   experiment, the axes of a cell but count and duration_ns (a profile
 *   changes how much is measured, not what) and machine (if any: a
 *   reproduction runs elsewhere), n_committed, n_reproduced,
 *   committed_ns_per_msg, reproduced_ns_per_msg (medians of the
 *   repetitions' elapsed_ns / messages), ratio, ratio_lo, ratio_hi
 *   (reproduced over committed, stats_ratio_ci at 95 %) and coverage
 *   (the interval's, below 0.95 with too few repetitions). */
char *compare_header(void);

/* Appends to OUT one TSV row per cell of experiment NAME found in
 * COMMITTED or REPRODUCED (two samples.tsv read with table_read), in the
 * order of their first row in COMMITTED, then those only in REPRODUCED.
 * Only rows with status ok count; a cell with none on a side has "-" for
 * that side and the ratio.  Returns false with IPCLAB_ERROR_INPUT when a
 * table lacks a column. */
bool compare_cells(const char *name, const Table *committed, const Table *reproduced, GString *out,
                   GError **error);

/* Appends to OUT a LaTeX tabular of the two machines side by side, from
 * COMMITTED and REPRODUCED (two meta.ini): CPU, CPUs, SMT, governor,
 * boost, clock source, hypervisor, container, kernel, memory, library and
 * daemon versions, compiler, the ipclab commit, environment, profile,
 * start and load.  A key a file lacks shows as "--".  Returns false with
 * ERROR when a file cannot be read. */
bool compare_machines(const char *committed, const char *reproduced, GString *out, GError **error);
