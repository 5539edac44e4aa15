/* summarize.h: per-cell statistics of a results directory's samples.tsv,
 * the summary that `ipclab summarize` prints (TSV, one row per cell).
 *
 * The summary's columns are the schema's (columns.h) that have
 * COLUMN_IN_SUMMARY, with NAME_lo and NAME_hi beside those with
 * COLUMN_HAS_CI: medians over the repetitions with a distribution-free
 * 95 % interval (stats_median_ci), means for CPU times, rates pooled
 * over all repetitions (stats_pooled_rate), and, when DIR holds
 * latencies.tsv.gz, the percentiles of every message of the cell pooled
 * into one histogram (pooled_p50_ns ...: latency_pool, exact merging),
 * beside lat_p50_ns ..., the medians of each repetition's percentile;
 * where the repetitions ran (placement: their one mode or "mixed", and
 * placement_modes, the count of each: placement.h) and the median of
 * their one-message windows (fixed_ns) and of those over their windows
 * (fixed_share), "-" for data written before those columns.
 * A latencies.tsv.gz that cannot be read is an error (naming it).
 * Nothing here prints.
 */
#pragma once

#include <glib.h>

#include "columns.h"
#include "placement-modes.h"
#include "samples.h"

/* One statistic of a cell; NAN where the summary has "-". */
typedef struct {
        double value;
        double lo, hi;       /* the interval, for columns with COLUMN_HAS_CI */
} SummaryStat;

/* One cell: the rows of samples.tsv with the same axis values. */
typedef struct {
        char **first;        /* its first row (borrowed from the Summary's samples) */
        guint n;             /* repetitions measured */
        guint failed;        /* repetitions that failed */
        SummaryStat stat[COL_N_COLUMNS];   /* by ColumnId, for summary columns */
        char *memcpy_MiBps;  /* meta.ini's memcpy bound for its size, as written
                              * there, or NULL */
        PlacementCount placement;   /* its ok repetitions by placement */
} SummaryCell;

typedef struct {
        char *experiment;    /* the directory's name */
        char *path;          /* its samples.tsv, for messages */
        Table *samples;      /* its samples.tsv */
        int axis_col[COL_N_COLUMNS];       /* by ColumnId: the column in samples, or -1 */
        GPtrArray *cells;    /* SummaryCell *, in the order of their first rows */
} Summary;

/* Reads DIR/samples.tsv (and DIR/meta.ini's [bounds] or [bounds ENV]
 * groups, when there is one) and computes the statistics of every cell.
 * NULL with ERROR set (IPCLAB_ERROR_INPUT, naming the file) when the file
 * cannot be read or lacks a column. */
Summary *summary_load(const char *dir, GError **error);
/* The same with every cell's repetitions split by their placement
 * column (placement.h): a cell whose repetitions ran same and split
 * becomes two rows, each with its mode in `placement`, so that a figure
 * can draw the modes apart.  Cells of one mode are as summary_load()
 * gives them. */
Summary *summary_load_by_placement(const char *dir, GError **error);
void summary_free(Summary *summary);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Summary, summary_free)

/* The summary's header line, with its newline. */
const char *summary_header(void);

/* Appends the header and one line per cell of SUMMARY to OUT. */
void summary_format(const Summary *summary, GString *out);

/* summary_load and summary_format in one: appends DIR's summary to OUT.
 * Returns 0, or -EINVAL with ERROR set as summary_load sets it. */
int summarize_dir(const char *dir, GString *out, GError **error);
/* The same, split by placement (summary_load_by_placement). */
int summarize_dir_by_placement(const char *dir, GString *out, GError **error);

/* "transport=pipe,size=64,...": C's axes that are not "-", by their
 * selector keys.  Newly allocated. */
char *summary_cell_describe(const Summary *summary, const SummaryCell *cell);

/* The cells of DIR/samples.tsv whose ok repetitions ran in more than one
 * placement, each described as "transport=pipe,size=64,...: same:3,split:4"
 * (the axes that are not "-"), appended to WARNINGS (newly allocated
 * strings).  A samples.tsv from before the placement column has none.
 * FALSE with ERROR set as summary_load sets it. */
gboolean summary_mixed_placements(const char *dir, GPtrArray *warnings, GError **error);
