/* columns.h: the one schema of ipclab's data files.
 *
 * Every column of samples.tsv (one row per repetition) and of the summary
 * (`ipclab summarize`, one row per cell) is one row of column_table (an
 * axis's from its row in axes-table.h, the axis registry): its
 * name as in the header, what kind of column it is, its unit, a label for
 * axes, legends and table heads, and, for an axis, the key that selectors
 * use.  The samples writer and reader, the summary, `ipclab verify` and
 * the renderer all take their columns from here; `ipclab columns` prints
 * the table for scripts and docs.
 *
 * The rows of measured and derived quantities are also the metric
 * registry (metrics.h): which way is better, whether claims may use one
 * and under what name, and how a derived one is computed from the
 * columns of samples.tsv.
 *
 * Adding a measured column: its field in Sample (sample.h), one row here
 * with that field (FIELD in columns.c) and its ColumnId, and the code that
 * measures it (runner.c); samples.tsv then writes and reads it.  Adding a metric derived from
 * samples.tsv: its row (with `from` and `compute`) and its ColumnId; the
 * summary, `ipclab verify` and claims take it from there.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "axes-table.h"

typedef enum {
        COLUMN_ID,        /* cell, rep: which measurement a row is */
        COLUMN_AXIS,      /* env, transport, ..., duration_ns: what varied */
        COLUMN_MEASURED,  /* a samples.tsv value: elapsed_ns, lat_p50_ns, ... */
        COLUMN_SUMMARY,   /* only in the summary: n, throughput_MiBps, ..._lo/_hi */
} ColumnKind;

/* Column flags. */
enum {
        COLUMN_IN_SAMPLES = 1 << 0,  /* a column of samples.tsv */
        COLUMN_IN_SUMMARY = 1 << 1,  /* a column of the summary */
        COLUMN_HAS_CI = 1 << 2,      /* the summary also has NAME_lo and NAME_hi:
                                      * a 95 % interval for the median */
        COLUMN_ABSENT_ZERO = 1 << 3, /* "-" in an ok repetition is a part the cell
                                      * does not have (no server, no bus): 0 */
        COLUMN_MEAN = 1 << 4,        /* the summary gives the mean over the
                                      * repetitions, not the median */
        COLUMN_POSITIVE = 1 << 5,    /* a summary value <= 0 is none ("-") */
        COLUMN_OPTIONAL = 1 << 6,    /* a Sample's number the runner measures where
                                      * it can, SAMPLE_NONE ("-") where it cannot */
        COLUMN_WORD = 1 << 7,        /* a measured column written as a word, not a
                                      * number: no field of a Sample holds it */
};

/* Which way a metric is better. */
typedef enum {
        BETTER_NONE,      /* not compared (counts, text, ids, axes) */
        BETTER_LOWER,     /* times, latencies, CPU per message */
        BETTER_HIGHER,    /* throughputs, rates */
} ColumnBetter;

/* The index of each row of column_table, for code that fills a column
 * (column_table[COL_SIZE_B] is size_B).  The columns of samples.tsv come
 * in this order; the axes' come from their rows in axes-table.h. */
typedef enum {
        COL_EXPERIMENT,
        COL_CELL,
        COL_REP,
#define COLUMN_ID_OF_AXIS_(id, ...) COL_##id,
        IPCLAB_AXES(COLUMN_ID_OF_AXIS_)   /* COL_ENV ... COL_DURATION_NS */
#undef COLUMN_ID_OF_AXIS_
        COL_STATUS,
        COL_ELAPSED_NS,
        COL_CLIENT_CPU_NS,
        COL_SERVER_CPU_NS,
        COL_BUS_CPU_NS,
        COL_MESSAGES,
        COL_BYTES_B,
        COL_LAT_N,
        COL_LAT_MIN_NS,
        COL_LAT_P50_NS,
        COL_LAT_P90_NS,
        COL_LAT_P99_NS,
        COL_LAT_P999_NS,
        COL_LAT_MAX_NS,
        COL_FIXED_NS,
        COL_PLACEMENT,
        COL_CLIENT_ON_CPU,
        COL_SERVER_ON_CPU,
        COL_BUS_ON_CPU,
        COL_MIGRATIONS,
        COL_WHY,
        COL_N,
        COL_FAILED,
        COL_THROUGHPUT_MIBPS,
        COL_RATE_PER_S,
        COL_CPU_NS_PER_MSG,
        COL_MEMCPY_MIBPS,
        COL_THROUGHPUT_MIBPS_HMEAN,
        COL_RATE_PER_S_HMEAN,
        COL_POOLED_P50_NS,
        COL_POOLED_P90_NS,
        COL_POOLED_P99_NS,
        COL_POOLED_P999_NS,
        COL_POOLED_MAX_NS,
        COL_FIXED_SHARE,
        COL_PLACEMENT_MODES,
        COL_N_COLUMNS
} ColumnId;

typedef struct {
        const char *name;   /* as in the header: "size_B", "lat_p50_ns" */
        ColumnKind kind;
        const char *unit;   /* "B", "ns", "MiB/s", "1/s", "" when none */
        const char *label;  /* for axes, legends, table heads: "message size",
                             * "round-trip latency, median" */
        const char *key;    /* axes only: the selector key ("size" for size_B,
                             * "duration" for duration_ns); NULL otherwise */
        unsigned flags;     /* COLUMN_IN_SAMPLES, COLUMN_IN_SUMMARY, COLUMN_HAS_CI
                             * (the summary has NAME_lo and NAME_hi),
                             * COLUMN_ABSENT_ZERO */

        /* Metrics (measured and derived quantities; zero for the rest):
         * the metric registry is these fields of the rows (metrics.h reads
         * them). */
        ColumnBetter better;   /* lower or higher is better */
        const char *claim;     /* the name a claim's metric= gives it
                                * ("throughput"), NULL: claims may not use it */
        const char *patterns;  /* claims: the patterns whose cells measure it,
                                * comma-separated ("oneway,roundtrip"); NULL:
                                * every cell */
        const char *cells;     /* claims: those cells, for messages ("only
                                * round-trip cells"); NULL: "every cell" */
        ColumnId from[4];      /* a derived metric: the samples.tsv columns it
                                * is computed from, ended by 0 (none: a
                                * measured column, its own value) */
        double (*compute)(const double *from);   /* a derived metric's value
                                * for one repetition from FROM's numbers
                                * (in from[] order), NAN when it has none */
        const char *format;    /* how the summary writes it (printf, one
                                * double); NULL: "%.6g" */
        size_t sample;         /* a measured number: where a Sample holds it
                                * (FIELD(elapsed_ns) in columns.c: its offset); 0:
                                * none (a Sample's status is at 0) */
} Column;


extern const Column column_table[];      /* terminated by { NULL } */

/* The column called NAME, or NULL if none.  NAME_lo and NAME_hi are not
 * rows of their own: see column_find_interval(). */
const Column *column_find(const char *name);
/* The axis whose selector key or column name is KEY ("size" or "size_B"),
 * or NULL when KEY names no axis. */
const Column *column_find_key(const char *key);
/* The column whose interval bound NAME is ("lat_p50_ns_lo" gives
 * lat_p50_ns, *UPPER false), or NULL when NAME is no such bound (its
 * column has no COLUMN_HAS_CI). */
const Column *column_find_interval(const char *name, int *upper);

/* "; did you mean 'NAME'?" for NAME, a column (or an axis's key) that
 * is none: the closest column name or axis key (only axes when
 * AXES_ONLY), or "" when none is close (suggest.h).  Newly allocated. */
char *column_hint(const char *name, bool axes_only);

/* "lower", "higher" or "-" (BETTER_NONE). */
const char *column_better_name(ColumnBetter better);

/* "id", "axis", "measured" or "summary". */
const char *column_kind_name(ColumnKind kind);
