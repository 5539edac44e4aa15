/* test-hist.c: latency histograms against exact values.
 *
 * Bucket bounds are checked for every bucket (contiguous, each value maps
 * back to its own bucket, width at most 1/128 of the lower bound above the
 * exact range); the relative error of a bucket's midpoint against the value
 * recorded, over log-uniform values from 1 ns to HIST_MAX_NS; merging two
 * histograms against the histogram of the union; nearest-rank quantiles
 * against a sorted array of the same values; and the TSV round trip. */
#include <glib.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "hist.h"
#include "stats.h"

static void test_bounds(void)
{
        guint64 prev_hi = 0;

        for (guint i = 0; i < HIST_BUCKETS; i++) {
                guint64 lo, hi;
                hist_bucket_bounds(i, &lo, &hi);
                if (i > 0 && lo != prev_hi + 1)
                        g_test_fail_printf("bucket %u starts at %" PRIu64 ", the last ended at %" PRIu64, i, lo,
                                           prev_hi);
                if (hist_index(lo) != i || hist_index(hi) != i)
                        g_test_fail_printf("bucket %u: [%" PRIu64 ", %" PRIu64 "] maps to %u and %u", i, lo, hi,
                                           hist_index(lo), hist_index(hi));
                if (lo >= HIST_EXACT && (double) (hi - lo + 1) > (double) lo / 128.0)
                        g_test_fail_printf("bucket %u: width %" PRIu64 " over 1/128 of %" PRIu64, i, hi - lo + 1, lo);
                if (lo < HIST_EXACT && lo != hi)
                        g_test_fail_printf("bucket %u below %" PRIu64 " is not exact", i, (guint64) HIST_EXACT);
                prev_hi = hi;
        }
        g_assert_cmpuint(prev_hi, ==, HIST_MAX_NS);
        g_assert_cmpuint(hist_index(HIST_MAX_NS + 12345), ==, HIST_BUCKETS - 1);
}

static guint64 log_uniform(StatsRng *rng, double lo, double hi)
{
        double u = (double) stats_rng_next(rng) / 18446744073709551616.0;
        return (guint64) exp(log(lo) + u * (log(hi) - log(lo)));
}

static void test_relative_error(void)
{
        StatsRng rng;
        double worst = 0;
        Hist *h = g_new(Hist, 1);

        stats_rng_init(&rng, 1);
        for (int i = 0; i < 200000; i++) {
                guint64 v = log_uniform(&rng, 1, (double) HIST_MAX_NS);
                hist_init(h);
                hist_record(h, v + 1);   /* not min = max: the midpoint, unclamped, */
                hist_record(h, 0);       /* lies in [0, max] */
                h->max = HIST_MAX_NS;
                guint64 got = hist_quantile(h, 1.0);
                double err = fabs((double) got - (double) (v + 1)) / (double) (v + 1);
                worst = MAX(worst, err);
        }
        g_test_message("worst relative error of a bucket midpoint: %.5f", worst);
        g_assert_cmpfloat(worst, <=, 0.01);
        g_assert_cmpfloat(worst, <=, 1.0 / 256 + 1e-9);
        g_free(h);
}

static void test_merge(void)
{
        StatsRng rng;
        Hist *a = g_new(Hist, 1), *b = g_new(Hist, 1), *u = g_new(Hist, 1);

        stats_rng_init(&rng, 2);
        hist_init(a);
        hist_init(b);
        hist_init(u);
        for (int i = 0; i < 50000; i++) {
                guint64 v = log_uniform(&rng, 100, 1e9);
                hist_record(i % 3 ? a : b, v);
                hist_record(u, v);
        }
        hist_merge(a, b);
        g_assert_cmpuint(a->n, ==, u->n);
        g_assert_cmpuint(a->min, ==, u->min);
        g_assert_cmpuint(a->max, ==, u->max);
        for (guint i = 0; i < HIST_BUCKETS; i++)
                if (a->count[i] != u->count[i])
                        g_test_fail_printf("bucket %u: merged %" PRIu64 ", union %" PRIu64, i, a->count[i],
                                           u->count[i]);
        g_free(a);
        g_free(b);
        g_free(u);
}

static void test_quantiles(void)
{
        StatsRng rng;
        const size_t n = 100000;
        g_autofree guint64 *v = g_new(guint64, n);
        Hist *h = g_new(Hist, 1);
        const double qs[] = { 0, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999, 0.99999, 1 };

        stats_rng_init(&rng, 3);
        hist_init(h);
        for (size_t i = 0; i < n; i++) {
                /* A latency-like shape: a body near 5 us, a long tail. */
                v[i] = 5000 + (i % 97 == 0 ? log_uniform(&rng, 1e3, 1e8) : log_uniform(&rng, 1, 3000));
                hist_record(h, v[i]);
        }
        stats_sort_u64(v, n);
        g_assert_cmpuint(hist_quantile(h, 0), ==, v[0]);
        g_assert_cmpuint(hist_quantile(h, 1), ==, v[n - 1]);
        for (size_t k = 0; k < G_N_ELEMENTS(qs); k++) {
                guint64 exact = qs[k] > 0 ? stats_quantile_u64(v, n, qs[k]) : v[0];
                guint64 got = hist_quantile(h, qs[k]);
                double err = fabs((double) got - (double) exact) / (double) exact;
                if (err > 0.01)
                        g_test_fail_printf("q=%g: histogram %" PRIu64 ", sorted array %" PRIu64 " (%.4f)", qs[k], got,
                                           exact, err);
        }
        Hist *e = g_new(Hist, 1);
        hist_init(e);
        g_assert_cmpuint(hist_quantile(e, 0.5), ==, 0);
        g_free(e);
        g_free(h);
}

static void test_tsv_round_trip(void)
{
        Hist *h = g_new(Hist, 1), *back = g_new(Hist, 1);
        g_autoptr(GString) out = g_string_new(NULL);

        hist_init(h);
        hist_init(back);
        for (guint64 v = 1; v < 10000000; v = v * 3 / 2 + 1)
                hist_record(h, v);
        hist_record(h, 7);
        hist_append_tsv(out, "3\t1", h);
        g_auto(GStrv) lines = g_strsplit(out->str, "\n", -1);
        guint rows = 0;
        for (guint i = 0; lines[i] && *lines[i]; i++, rows++) {
                guint cell, rep;
                guint64 lo, hi, count;
                g_assert_cmpint(sscanf(lines[i], "%u\t%u\t%" SCNu64 "\t%" SCNu64 "\t%" SCNu64, &cell, &rep, &lo, &hi,
                                       &count), ==, 5);
                g_assert_cmpuint(cell, ==, 3);
                g_assert_true(hist_add_bucket(back, lo, hi, count));
        }
        g_assert_cmpuint(back->n, ==, h->n);
        for (guint i = 0; i < HIST_BUCKETS; i++)
                g_assert_cmpuint(back->count[i], ==, h->count[i]);
        g_assert_false(hist_add_bucket(back, 300, 302, 1));      /* not a bucket: 300 and 301 are */
        g_assert_false(hist_add_bucket(back, 301, 302, 1));      /* nor this, across two */
        g_assert_false(hist_add_bucket(back, 256, 257, 0));      /* an empty count */
        g_assert_false(hist_add_bucket(back, HIST_MAX_NS + 1, HIST_MAX_NS + 2, 1));
        g_assert_true(hist_add_bucket(back, 256, 257, 1));
        g_free(h);
        g_free(back);
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        g_test_add_func("/hist/bounds", test_bounds);
        g_test_add_func("/hist/relative-error", test_relative_error);
        g_test_add_func("/hist/merge", test_merge);
        g_test_add_func("/hist/quantiles", test_quantiles);
        g_test_add_func("/hist/tsv-round-trip", test_tsv_round_trip);
        return g_test_run();
}
