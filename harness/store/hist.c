/* hist.c: latency histograms with a bounded relative error (see hist.h). */
#include "hist.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void hist_init(Hist *h)
{
        memset(h, 0, sizeof *h);
}

void hist_record(Hist *h, guint64 v)
{
        h->count[hist_index(v)]++;
        h->clamped += v > HIST_MAX_NS;
        h->min = h->n ? MIN(h->min, v) : v;
        h->max = MAX(h->max, v);
        h->n++;
}

void hist_record_all(Hist *h, const guint64 *v, size_t n)
{
        for (size_t i = 0; i < n; i++)
                hist_record(h, v[i]);
}

void hist_bucket_bounds(guint idx, guint64 *lo, guint64 *hi)
{
        if (idx < HIST_EXACT) {
                *lo = *hi = idx;
                return;
        }
        guint shift = (idx >> HIST_SUB_BITS) - 1;
        guint64 sub = idx - ((guint64) shift << HIST_SUB_BITS);
        *lo = sub << shift;
        *hi = ((sub + 1) << shift) - 1;
}

void hist_merge(Hist *into, const Hist *from)
{
        if (!from->n)
                return;
        for (guint i = 0; i < HIST_BUCKETS; i++)
                into->count[i] += from->count[i];
        into->min = into->n ? MIN(into->min, from->min) : from->min;
        into->max = MAX(into->max, from->max);
        into->n += from->n;
        into->clamped += from->clamped;
}

guint64 hist_quantile(const Hist *h, double q)
{
        if (!h->n)
                return 0;
        if (q <= 0)
                return h->min;
        double r = ceil(q * (double) h->n);
        guint64 rank = r < 1 ? 1 : (r > (double) h->n ? h->n : (guint64) r);
        guint64 seen = 0;
        for (guint i = 0; i < HIST_BUCKETS; i++) {
                seen += h->count[i];
                if (seen >= rank) {
                        guint64 lo, hi;
                        hist_bucket_bounds(i, &lo, &hi);
                        guint64 mid = lo + (hi - lo) / 2;
                        return CLAMP(mid, h->min, h->max);
                }
        }
        return h->max;
}

void hist_append_tsv(GString *out, const char *prefix, const Hist *h)
{
        for (guint i = 0; i < HIST_BUCKETS; i++) {
                if (!h->count[i])
                        continue;
                guint64 lo, hi;
                hist_bucket_bounds(i, &lo, &hi);
                g_string_append_printf(out, "%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\n", prefix, lo, hi,
                                       h->count[i]);
        }
}

gboolean hist_add_bucket(Hist *h, guint64 lo, guint64 hi, guint64 count)
{
        if (lo > HIST_MAX_NS || hi < lo || !count)
                return FALSE;
        guint idx = hist_index(lo);
        guint64 blo, bhi;
        hist_bucket_bounds(idx, &blo, &bhi);
        if (blo != lo || bhi != hi)
                return FALSE;
        h->count[idx] += count;
        /* The exact extremes are not in the file: the bucket bounds are. */
        h->min = h->n ? MIN(h->min, lo) : lo;
        h->max = MAX(h->max, hi);
        h->n += count;
        return TRUE;
}

static int cmp_u64(const void *a, const void *b)
{
        guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
        return (x > y) - (x < y);
}

void hist_sort_values(guint64 *v, size_t n)
{
        qsort(v, n, sizeof *v, cmp_u64);
}
