/* hist.h: latency histograms with a bounded relative error.
 *
 * Log-linear buckets, as HdrHistogram made standard: values below 256 ns
 * have a bucket each (exact); above, every power of two is cut into 128
 * buckets of equal width, so a bucket's width is at most 1/128 of its lower
 * bound and its midpoint is within 0.4 % of any value in it.  The range is
 * 0 ns to HIST_MAX_NS (about 2.4 hours); larger values are counted in the
 * last bucket and flagged as clamped.  Counts are exact; the minimum and
 * maximum recorded are kept exactly.  Pure code: no I/O beyond formatting
 * into a GString.  In store because its buckets are the rows of
 * latencies.tsv.gz (latency.h); the runner records into it.
 */
#pragma once

#include <glib.h>
#include <stdint.h>

#define HIST_SUB_BITS 7                         /* 128 buckets per power of two */
#define HIST_EXACT ((guint64) 2 << HIST_SUB_BITS)   /* 256: below it, one value a bucket */
#define HIST_TOP_BIT 42                          /* the highest power of two covered */
#define HIST_MAX_NS (((guint64) 2 << HIST_TOP_BIT) - 1)
#define HIST_BUCKETS (((HIST_TOP_BIT - HIST_SUB_BITS) << HIST_SUB_BITS) + HIST_EXACT)

typedef struct {
        guint64 count[HIST_BUCKETS];
        guint64 n;              /* values recorded */
        guint64 min, max;       /* exact; 0 when n == 0 */
        guint64 clamped;        /* values above HIST_MAX_NS, counted in the last bucket */
} Hist;

/* The bucket of V: no division; one comparison for the clamp. */
static inline guint hist_index(guint64 v)
{
        v = v > HIST_MAX_NS ? HIST_MAX_NS : v;
        guint e = 63u - (guint) __builtin_clzll(v | (HIST_EXACT - 1));   /* >= HIST_SUB_BITS */
        guint shift = e - HIST_SUB_BITS;
        return (shift << HIST_SUB_BITS) + (guint) (v >> shift);
}

void hist_init(Hist *h);
void hist_record(Hist *h, guint64 v);
/* Records the N values of V (any order). */
void hist_record_all(Hist *h, const guint64 *v, size_t n);
/* The smallest and largest value that fall in bucket IDX. */
void hist_bucket_bounds(guint idx, guint64 *lo, guint64 *hi);
/* Adds FROM's counts to INTO: the histogram of the union. */
void hist_merge(Hist *into, const Hist *from);
/* The nearest-rank Q-quantile (0 <= Q <= 1; 0 is the minimum), as the
 * midpoint of its bucket, within [min, max]; 0 when empty. */
guint64 hist_quantile(const Hist *h, double q);
/* Appends one line per non-empty bucket: PREFIX, lower bound, upper bound
 * and count, tab-separated. */
void hist_append_tsv(GString *out, const char *prefix, const Hist *h);
/* Adds the count of a bucket read back from a file: the bucket must be one
 * of ours (LO and HI its exact bounds).  FALSE when it is not. */
gboolean hist_add_bucket(Hist *h, guint64 lo, guint64 hi, guint64 count);
/* Sorts the N values of V (nanoseconds) in increasing order: for exact
 * percentiles (stats_sort_u64) and for latencies.tsv.gz's raw rows, one
 * per distinct value (latency.h). */
void hist_sort_values(guint64 *v, size_t n);
