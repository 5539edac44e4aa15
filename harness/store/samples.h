/* samples.h: raw sample files (samples.tsv), read and written whole.
 *
 * samples.tsv has one header line naming every column with its unit, then
 * one row per repetition of each cell: the cell's axes, then what was
 * measured.  "-" marks a value that does not apply or was not measured.
 * Files are only ever replaced whole (temp file, fsync, rename).
 */
#pragma once

#include <glib.h>

#include "dir.h"
#include "experiment.h"
#include "sample.h"
#include "table.h"

/* The header line, with its newline: the names of the columns of the
 * schema (columns.h) that samples.tsv has, in the schema's order. */
const char *samples_header(void);

/* Appends one row for repetition REP of CELL, measured in environment
 * ENV on MACHINE (meta_machine_name()), to OUT. */
void samples_append_row(GString *out, const char *env, const char *machine, const Cell *cell,
                        guint rep, const Sample *s);

/* Reads back ROW (one line of samples.tsv, without its newline) as
 * written for environment ENV on MACHINE: the cell it names must be one of CELLS
 * (by index, with the same axes), its repetition below MAX_REP, and every
 * field what samples_append_row() writes for it (numbers where numbers
 * go, "-" where nothing was measured).  Fills *CELL, *REP and *S and
 * returns TRUE, or returns FALSE with *WHY saying what is wrong. */
gboolean samples_parse_row(const char *row, const char *env, const char *machine, GPtrArray *cells,
                           guint max_rep, const Cell **cell, guint *rep, Sample *s, char **why);

/* The fields of ROW (a line of samples.tsv as this build writes it) that
 * say which cell it is of, less env and machine: the axes a Cell has,
 * tab-separated.  NULL when ROW has not the fields samples_header()
 * names.  Rows of one cell, and samples_append_row()'s row of that cell,
 * give the same. */
char *samples_cell_axes(const char *row);

/* The cell ROW of T (a table samples_table_read() gave) is of: every
 * axis a Cell has read from its column (axis_cell_read(); its transport
 * points into ROW).  FALSE when a column is missing or holds none of its
 * axis's values. */
gboolean samples_row_cell(const Table *t, char **row, Cell *cell);

/* Writes LEN bytes of DATA to PATH atomically: a temp file beside it,
 * fsync, rename, fsync of the directory.  Returns 0 or -errno; on failure
 * PATH is untouched and no temp file is left. */
int samples_write_atomic(const char *path, const char *data, size_t len);

/* Replaces directory FINAL by directory STAGING in one step (as
 * samples_replace_dir) and leaves the old FINAL, whole, in STAGING.
 * Returns 1 when there was an old FINAL (now STAGING), 0 when there was
 * none, or -errno; on failure FINAL is untouched. */
int samples_swap_dir(const char *staging, const char *final);

/* Replaces directory FINAL by directory STAGING in one step (renameat2
 * RENAME_EXCHANGE where the file system has it), then removes the old
 * contents.  Returns 0 or -errno; on failure FINAL is untouched. */
int samples_replace_dir(const char *staging, const char *final);

/* Reads samples.tsv at PATH like table_read(), and checks every field by
 * its column's name (columns.h), as samples_append_row() writes it: the
 * cell, the repetition and every number a whole number up to 2^53 (no
 * sign, no exponent, no hexadecimal), "-" where a number may be missing;
 * status ok or failed, an ok row with an elapsed time above 0 and its
 * latency percentiles in order; axis values names (letters, digits, '.',
 * '_', '-', '+') or numbers, machine names by machine_name_valid();
 * a column it does not know, text without control characters.  A
 * repetition (env, machine, cell, rep and axes) given twice is an error
 * too.  Every error names the file, the line and the column.  One written before the machine column (all
 * of one machine, then) gets it, after env, each row's value the host
 * name its meta.ini names (up to the first dot), or "-" without one; one written before the roles column gets it, after
 * cpus, as "processes" (every cell forked both roles then): old data
 * reads like new. */
Table *samples_table_read(const char *path, GError **error);

/* Whether every cell index of T (samples.tsv at PATH) has one set of axes
 * on each machine in each environment, as it must for its latencies
 * (latencies.tsv.gz names cells by index) to be its own.  FALSE with
 * ERROR naming the line. */
gboolean samples_check_cells(const Table *t, const char *path, GError **error);

/* The share of ROW's window that is its fixed part, fixed_ns / elapsed_ns,
 * from the columns FIXED and ELAPSED (-1 in data older than them); NAN
 * where the row has no fixed part ("-"), a column is missing or the
 * window is not positive.  *FIXED_NS, when not NULL, gets fixed_ns (NAN
 * likewise). */
double samples_fixed_share(char **row, int fixed, int elapsed, double *fixed_ns);

/* The names of the axis columns, in order, NULL-terminated: rows with the
 * same values in these columns belong to the same cell.  The axes of the
 * column schema (columns.h) that samples.tsv has; samples_axis_columns[i]
 * reads as it did when this was an array. */
const char *const *samples_axis_names(void);
#define samples_axis_columns (samples_axis_names())
