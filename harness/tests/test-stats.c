/* test-stats.c: statistics against values computed independently.
 *
 * Expected values come from the definitions, worked by hand and with exact
 * binomial sums in Python (math.comb(n, k) / 2**n): nearest-rank quantiles
 * (the smallest value with at least q*n values at or below it); the
 * order statistics of the median's confidence interval (n = 10: ranks 2
 * and 9, coverage 1 - 2 P(X <= 1) = 0.978516; n = 20: ranks 6 and 15,
 * coverage 1 - 2 P(X <= 5) = 0.958611); the sample standard deviation of
 * 2,4,4,4,5,5,7,9 is sqrt(32/7) = 2.138090. */
#include <errno.h>
#include <glib.h>
#include <math.h>

#include "stats.h"

static void test_quantiles(void)
{
        uint64_t v[100];

        for (int i = 0; i < 100; i++)
                v[i] = (uint64_t) (100 - i);   /* 100 .. 1, unsorted */
        stats_sort_u64(v, 100);
        g_assert_cmpuint(v[0], ==, 1);
        g_assert_cmpuint(stats_quantile_u64(v, 100, 0.50), ==, 50);
        g_assert_cmpuint(stats_quantile_u64(v, 100, 0.90), ==, 90);
        g_assert_cmpuint(stats_quantile_u64(v, 100, 0.99), ==, 99);
        g_assert_cmpuint(stats_quantile_u64(v, 100, 0.999), ==, 100);
        g_assert_cmpuint(stats_quantile_u64(v, 100, 0.001), ==, 1);
        g_assert_cmpuint(stats_quantile_u64(v, 0, 0.5), ==, 0);

        double d[] = { 3, 1, 2 };
        stats_sort_double(d, 3);
        g_assert_cmpfloat(stats_quantile_double(d, 3, 0.5), ==, 2);
        g_assert_cmpfloat(stats_quantile_double(d, 3, 0.34), ==, 2);
        g_assert_cmpfloat(stats_quantile_double(d, 3, 0.33), ==, 1);
}

static void test_median(void)
{
        double odd[] = { 1, 2, 3, 4, 100 };
        double even[] = { 1, 2, 3, 4 };

        g_assert_cmpfloat(stats_median(odd, 5), ==, 3);
        g_assert_cmpfloat(stats_median(even, 4), ==, 2.5);
        g_assert_cmpfloat(stats_median(even, 0), ==, 0);
}

/* The coverage stated for a median's interval, and intervals apart: what
 * declared numbers (numbers.h) say of "the fastest" and of two cells. */
static void test_intervals(void)
{
        g_assert_cmpfloat(stats_median_ci_level(6, 0.95), ==, 0.95);
        g_assert_cmpfloat(stats_median_ci_level(30, 0.95), ==, 0.95);
        g_assert_cmpfloat(stats_median_ci_level(3, 0.95), ==, 0.75);
        g_assert_cmpfloat(stats_median_ci_level(5, 0.95), ==, 0.9375);
        g_assert_cmpfloat(stats_median_ci_level(0, 0.95), ==, 0);

        g_assert_true(stats_intervals_disjoint(1, 2, 3, 4));
        g_assert_true(stats_intervals_disjoint(3, 4, 1, 2));
        g_assert_false(stats_intervals_disjoint(1, 3, 2, 4));
        g_assert_false(stats_intervals_disjoint(1, 2, 2, 3));   /* touching */
        g_assert_false(stats_intervals_disjoint(1, NAN, 3, 4)); /* unknown */

        double lo[] = { 1, 5, 4.5, 10 }, hi[] = { 2, 6, 5.5, 11 };
        g_assert_true(stats_interval_apart(lo, hi, 4, 0));
        g_assert_false(stats_interval_apart(lo, hi, 4, 1));     /* overlaps [4.5, 5.5] */
        g_assert_true(stats_interval_apart(lo, hi, 4, 3));
        g_assert_false(stats_interval_apart(lo, hi, 4, 4));     /* no such interval */
        g_assert_true(stats_interval_apart(lo, hi, 1, 0));      /* alone */
}

static void test_median_ci(void)
{
        double v[20], lo, hi;

        for (int i = 0; i < 20; i++)
                v[i] = i + 1;
        double cov = stats_median_ci(v, 10, 0.95, &lo, &hi);
        g_assert_cmpfloat(lo, ==, 2);
        g_assert_cmpfloat(hi, ==, 9);
        g_assert_cmpfloat_with_epsilon(cov, 0.978516, 1e-6);

        cov = stats_median_ci(v, 20, 0.95, &lo, &hi);
        g_assert_cmpfloat(lo, ==, 6);
        g_assert_cmpfloat(hi, ==, 15);
        g_assert_cmpfloat_with_epsilon(cov, 0.958611, 1e-6);

        /* n = 6: [x1, x6] covers with 1 - 2/64 = 0.96875. */
        cov = stats_median_ci(v, 6, 0.95, &lo, &hi);
        g_assert_cmpfloat(lo, ==, 1);
        g_assert_cmpfloat(hi, ==, 6);
        g_assert_cmpfloat_with_epsilon(cov, 0.96875, 1e-9);

        /* n = 5 cannot reach 95%: [min, max] with 1 - 2/32 = 0.9375. */
        cov = stats_median_ci(v, 5, 0.95, &lo, &hi);
        g_assert_cmpfloat(lo, ==, 1);
        g_assert_cmpfloat(hi, ==, 5);
        g_assert_cmpfloat_with_epsilon(cov, 0.9375, 1e-9);
        g_assert_cmpfloat(cov, <, 0.95);

        /* A large n stays finite and symmetric: n = 1000 gives ranks 469
         * and 532, since P(X <= 468) = 0.023146 <= 0.025 < P(X <= 469) =
         * 0.026839 (summed exactly with Python's math.comb). */
        static double big[1000];
        for (int i = 0; i < 1000; i++)
                big[i] = i + 1;
        cov = stats_median_ci(big, 1000, 0.95, &lo, &hi);
        g_assert_cmpfloat(lo, ==, 469);
        g_assert_cmpfloat(hi, ==, 532);
        g_assert_cmpfloat(cov, >=, 0.95);
}

/* Rates: total work over total time.  Count-boxed: every repetition moves
 * 1000 messages, in 1, 2 and 4 s: 3000 / 7 s, which is the harmonic mean of
 * 1000, 500 and 250 per s (3 / (1/1000 + 1/500 + 1/250)).  Duration-boxed
 * (issue 9, finding 3): 500 ms windows that moved 100, 150 and 200 MiB are
 * 450 MiB / 1.5 s = 300 MiB/s, while the harmonic mean of 200, 300 and 400
 * MiB/s is 276.9: not total over total. */
static void test_pooled_rate(void)
{
        double msgs[] = { 1000, 1000, 1000 }, secs[] = { 1, 2, 4 };
        double rates[] = { 1000, 500, 250 };
        double hmean = 3 / (1 / rates[0] + 1 / rates[1] + 1 / rates[2]);

        g_assert_cmpfloat_with_epsilon(stats_pooled_rate(msgs, secs, 3), 3000.0 / 7, 1e-9);
        g_assert_cmpfloat_with_epsilon(stats_pooled_rate(msgs, secs, 3), hmean, 1e-9);

        double mib[] = { 100, 150, 200 }, win[] = { 0.5, 0.5, 0.5 };
        g_assert_cmpfloat_with_epsilon(stats_pooled_rate(mib, win, 3), 300, 1e-9);
        g_assert_cmpfloat(fabs(stats_pooled_rate(mib, win, 3) - 3 / (1 / 200.0 + 1 / 300.0 + 1 / 400.0)),
                          >, 20);
        double zero[] = { 0, 0 };
        g_assert_cmpfloat(stats_pooled_rate(mib, zero, 2), ==, 0);
        g_assert_cmpfloat(stats_pooled_rate(mib, win, 0), ==, 0);
}

static void test_means(void)
{
        double rates[] = { 1, 2, 4 };
        double sd[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

        g_assert_cmpfloat_with_epsilon(stats_mean(rates, 3), 7.0 / 3, 1e-12);
        g_assert_cmpfloat_with_epsilon(stats_stddev(sd, 8), 2.138090, 1e-6);
        g_assert_cmpfloat(stats_stddev(sd, 1), ==, 0);
}

/* ---- Random numbers, ratios, their intervals ---------------------------
 *
 * SplitMix64's first outputs from seed 1234567 are the published reference
 * values (6457827717110365317, 3203168211198807973, ...); the others were
 * computed by an independent Python 3 implementation of the contract in
 * stats.h (integers masked to 64 bits).
 *
 * Mann-Whitney: the counts of U for 3 and 3 values are the coefficients of
 * the Gaussian binomial [6, 3]: 1 1 2 3 3 3 3 2 1 1 (sum 20 = C(6, 3)); for
 * 6 and 6 the first seven are 1 1 2 3 5 7 11 (partitions of u into at most
 * 6 parts of at most 6), of C(12, 6) = 924: P(U <= 5) = 19/924, P(U <= 6)
 * = 30/924, so the 95% interval takes k = 6, coverage 1 - 38/924. */
static void test_rng(void)
{
        static const uint64_t ref[] = {
                UINT64_C(6457827717110365317), UINT64_C(3203168211198807973),
                UINT64_C(9817491932198370423), UINT64_C(4593380528125082431),
                UINT64_C(16408922859458223821),
        };
        StatsRng rng;

        stats_rng_init(&rng, 1234567);
        for (size_t i = 0; i < G_N_ELEMENTS(ref); i++)
                g_assert_cmpuint(stats_rng_next(&rng), ==, ref[i]);
        stats_rng_init(&rng, 0);
        g_assert_cmpuint(stats_rng_next(&rng), ==, UINT64_C(16294208416658607535));

        static const uint64_t below10[] = { 3, 1, 8, 4, 0, 2, 5, 8, 5, 4 };
        stats_rng_init(&rng, 42);
        for (size_t i = 0; i < G_N_ELEMENTS(below10); i++)
                g_assert_cmpuint(stats_rng_below(&rng, 10), ==, below10[i]);

        /* n = 2^63 + 1 rejects about half the draws (four of the first
         * five from seed 42), so this checks the rejection too. */
        static const uint64_t below_big[] = {
                UINT64_C(4456085495900499604), UINT64_C(6792609088808213253),
                UINT64_C(5545679290133000099), UINT64_C(2185608355395893165),
        };
        stats_rng_init(&rng, 42);
        for (size_t i = 0; i < G_N_ELEMENTS(below_big); i++)
                g_assert_cmpuint(stats_rng_below(&rng, (UINT64_C(1) << 63) + 1), ==, below_big[i]);
        g_assert_cmpuint(stats_rng_below(&rng, 0), ==, 0);
        for (int i = 0; i < 1000; i++)
                g_assert_cmpuint(stats_rng_below(&rng, 1), ==, 0);
}

static void test_geometric_mean(void)
{
        double v[] = { 1, 2, 4, 8 };
        double bad[] = { 1, 0, 4 };

        g_assert_cmpfloat_with_epsilon(stats_geometric_mean(v, 4), 2 * G_SQRT2, 1e-12);
        g_assert_cmpfloat_with_epsilon(stats_geometric_mean(v, 1), 1, 1e-15);
        g_assert_cmpfloat(stats_geometric_mean(v, 0), ==, 0);
        g_assert_cmpfloat(stats_geometric_mean(bad, 3), ==, 0);
        /* Equal values come back exactly (exp(log(8)) would be 7.999...). */
        double eights[] = { 8, 8, 8 };
        g_assert_cmpfloat(stats_geometric_mean(eights, 3), ==, 8);
}

static void test_mann_whitney(void)
{
        g_assert_cmpfloat_with_epsilon(stats_mann_whitney_cdf(3, 3, 0), 1.0 / 20, 1e-12);
        g_assert_cmpfloat_with_epsilon(stats_mann_whitney_cdf(3, 3, 3), 7.0 / 20, 1e-12);
        g_assert_cmpfloat_with_epsilon(stats_mann_whitney_cdf(3, 3, 8), 19.0 / 20, 1e-12);
        g_assert_cmpfloat(stats_mann_whitney_cdf(3, 3, 9), ==, 1);
        g_assert_cmpfloat_with_epsilon(stats_mann_whitney_cdf(6, 6, 5), 19.0 / 924, 1e-12);
        g_assert_cmpfloat_with_epsilon(stats_mann_whitney_cdf(6, 6, 6), 30.0 / 924, 1e-12);
        /* Symmetric in N and M; 2 and 5 values: C(7, 2) = 21 ways, U <= 1
         * in 2 of them. */
        g_assert_cmpfloat_with_epsilon(stats_mann_whitney_cdf(2, 5, 1), 2.0 / 21, 1e-12);
        g_assert_cmpfloat_with_epsilon(stats_mann_whitney_cdf(5, 2, 1), 2.0 / 21, 1e-12);
        g_assert_cmpfloat(stats_mann_whitney_cdf(0, 5, 1), ==, 0);
}

static void test_ratio_ci(void)
{
        double r, lo, hi, cov;

        /* Constant cells: the ratio and its interval are exact. */
        double c100[] = { 100, 100, 100, 100 }, c200[] = { 200, 200, 200, 200 };
        g_assert_cmpint(stats_ratio_ci(c200, 4, c100, 4, 0.95, &r, &lo, &hi, &cov), ==, 0);
        g_assert_cmpfloat(r, ==, 2);
        g_assert_cmpfloat(lo, ==, 2);
        g_assert_cmpfloat(hi, ==, 2);
        g_assert_cmpfloat(cov, >=, 0.95);

        /* 6 and 6: the 36 ratios a[j] / b[i] sorted; k = 6, so the 6th
         * smallest and the 6th largest; the estimate is the geometric mean
         * of the 18th and 19th.  Worked here: a = 2 * b * (1 + small), so
         * every ratio is known. */
        double b[] = { 100, 110, 120, 130, 140, 150 };
        double a[] = { 200, 220, 240, 260, 280, 300 };
        g_assert_cmpint(stats_ratio_ci(a, 6, b, 6, 0.95, &r, &lo, &hi, &cov), ==, 0);
        double all[36];
        for (int j = 0; j < 6; j++)
                for (int i = 0; i < 6; i++)
                        all[j * 6 + i] = a[j] / b[i];
        stats_sort_double(all, 36);
        g_assert_cmpfloat(lo, ==, all[5]);
        g_assert_cmpfloat(hi, ==, all[30]);
        g_assert_cmpfloat_with_epsilon(r, sqrt(all[17] * all[18]), 1e-12);
        g_assert_cmpfloat_with_epsilon(r, 2, 1e-12);
        g_assert_cmpfloat_with_epsilon(cov, 1 - 38.0 / 924, 1e-12);

        /* 3 and 3 cannot reach 95%: [min, max], coverage 1 - 2/20. */
        g_assert_cmpint(stats_ratio_ci(a, 3, b, 3, 0.95, &r, &lo, &hi, &cov), ==, 0);
        g_assert_cmpfloat(lo, ==, 200.0 / 120);
        g_assert_cmpfloat(hi, ==, 240.0 / 100);
        g_assert_cmpfloat_with_epsilon(cov, 0.9, 1e-12);

        /* Bad input leaves the outputs alone. */
        double zero[] = { 1, 0 };
        r = lo = hi = cov = -1;
        g_assert_cmpint(stats_ratio_ci(a, 0, b, 6, 0.95, &r, &lo, &hi, &cov), ==, -EINVAL);
        g_assert_cmpint(stats_ratio_ci(zero, 2, b, 6, 0.95, &r, &lo, &hi, &cov), ==, -EINVAL);
        g_assert_cmpint(stats_ratio_ci(a, 5, b, 6, 1.0, &r, &lo, &hi, &cov), ==, -EINVAL);
        g_assert_cmpfloat(r, ==, -1);
        g_assert_cmpfloat(cov, ==, -1);
}

/* ---- Coverage, simulated (issue 9: repetitions) --------------------------
 *
 * Timings with lognormal noise of sigma 0.2 and a known true ratio; over
 * TRIALS seeded trials, how often the interval `ipclab verify` uses
 * (stats_ratio_ci, one per pair; for a claim over several pairs the
 * Bonferroni-combined interval of verify.h) contains the truth.  Also the
 * old method (a percentile bootstrap of the ratio of medians): at 3 and 3
 * it covers about 90% (while calling itself 95%); at 6 and 6 about 96%. */
#define TRIALS 4000
#define SIGMA 0.2

/* A standard normal deviate (Box-Muller, the cosine half). */
static double normal(StatsRng *rng)
{
        double u1 = ((double) (stats_rng_next(rng) >> 11) + 1) / 9007199254740993.0;
        double u2 = (double) (stats_rng_next(rng) >> 11) / 9007199254740992.0;
        return sqrt(-2 * log(u1)) * cos(2 * G_PI * u2);
}

static void lognormal(StatsRng *rng, double scale, double *v, size_t n)
{
        for (size_t i = 0; i < n; i++)
                v[i] = scale * exp(SIGMA * normal(rng));
}

static void test_coverage_one_pair(void)
{
        StatsRng rng;
        double a[64], b[64];
        static const size_t reps[] = { 6, 7, 10 };

        stats_rng_init(&rng, 9);
        for (size_t k = 0; k < G_N_ELEMENTS(reps); k++) {
                size_t n = reps[k], hit = 0;
                for (int t = 0; t < TRIALS; t++) {
                        double r, lo, hi, cov;
                        lognormal(&rng, 1300, a, n);   /* true ratio 1.3 */
                        lognormal(&rng, 1000, b, n);
                        g_assert_cmpint(stats_ratio_ci(a, n, b, n, 0.95, &r, &lo, &hi, &cov), ==, 0);
                        g_assert_cmpfloat(cov, >=, 0.95);
                        hit += lo <= 1.3 && 1.3 <= hi;
                }
                double c = (double) hit / TRIALS;
                if (g_test_verbose())
                        g_printerr("# %zu and %zu repetitions: coverage %.4f\n", n, n, c);
                g_assert_cmpfloat(c, >=, 0.94);
        }
}

/* A claim over six pairs (six sizes, say), true ratios 1.1 .. 1.6: the
 * claim's interval is the geometric mean of the pairs' intervals taken at
 * level 1 - 0.05 / 6 (verify.h); it must cover the geometric mean of the
 * true ratios.  And each pair's own 95% interval, which decides "holds",
 * must cover its truth. */
static void test_coverage_claim(void)
{
        StatsRng rng;
        enum { PAIRS = 6, N = 6 };
        double truth[PAIRS], log_truth = 0;
        size_t hit = 0, pair_hit = 0;

        for (int p = 0; p < PAIRS; p++) {
                truth[p] = 1.1 + 0.1 * p;
                log_truth += log(truth[p]) / PAIRS;
        }
        stats_rng_init(&rng, 10);
        for (int t = 0; t < TRIALS; t++) {
                double los[PAIRS], his[PAIRS];
                for (int p = 0; p < PAIRS; p++) {
                        double a[N], b[N], r, cov, lo, hi;
                        lognormal(&rng, 1000 * truth[p], a, N);
                        lognormal(&rng, 1000, b, N);
                        g_assert_cmpint(stats_ratio_ci(a, N, b, N, 1 - 0.05 / PAIRS, &r, &los[p], &his[p],
                                                       &cov), ==, 0);
                        g_assert_cmpfloat(cov, >=, 1 - 0.05 / PAIRS);
                        g_assert_cmpint(stats_ratio_ci(a, N, b, N, 0.95, &r, &lo, &hi, &cov), ==, 0);
                        pair_hit += lo <= truth[p] && truth[p] <= hi;
                }
                double lo = log(stats_geometric_mean(los, PAIRS)), hi = log(stats_geometric_mean(his, PAIRS));
                hit += lo <= log_truth + 1e-12 && log_truth <= hi + 1e-12;
        }
        double c = (double) hit / TRIALS, pc = (double) pair_hit / (TRIALS * PAIRS);
        if (g_test_verbose())
                g_printerr("# claim over %d pairs of %d and %d: coverage %.4f; its pairs %.4f\n", PAIRS,
                           N, N, c, pc);
        g_assert_cmpfloat(c, >=, 0.94);
        g_assert_cmpfloat(pc, >=, 0.94);
}

/* The old interval, for the record: a percentile bootstrap (2000
 * resamples) of the ratio of medians, written out here as verify used it.
 * Not asserted to pass: asserted to fall short, which is why it went. */
static double median_of(double *v, size_t n)
{
        stats_sort_double(v, n);
        return stats_median(v, n);
}

static double old_bootstrap_coverage(StatsRng *rng, StatsRng *boot, size_t n, int trials)
{
        enum { B = 2000 };
        size_t hit = 0;
        double a[16], b[16], s[16], rep[B];

        for (int t = 0; t < trials; t++) {
                lognormal(rng, 1300, a, n);
                lognormal(rng, 1000, b, n);
                for (int k = 0; k < B; k++) {
                        for (size_t i = 0; i < n; i++)
                                s[i] = a[stats_rng_below(boot, n)];
                        double ma = median_of(s, n);
                        for (size_t i = 0; i < n; i++)
                                s[i] = b[stats_rng_below(boot, n)];
                        rep[k] = ma / median_of(s, n);
                }
                stats_sort_double(rep, B);
                hit += rep[50] <= 1.3 && 1.3 <= rep[B - 51];
        }
        return (double) hit / trials;
}

static void test_coverage_old_bootstrap(void)
{
        StatsRng rng, boot;

        if (!g_test_slow() && !g_test_verbose()) {
                g_test_skip("slow: run with -m slow or --verbose");
                return;
        }
        stats_rng_init(&rng, 11);
        stats_rng_init(&boot, 12);
        double c3 = old_bootstrap_coverage(&rng, &boot, 3, 2000);
        double c6 = old_bootstrap_coverage(&rng, &boot, 6, 2000);
        g_printerr("# old bootstrap: coverage %.4f at 3 and 3, %.4f at 6 and 6\n", c3, c6);
        /* Three repetitions, as shipped before: short of 95%, and the
         * bootstrap does not say so (the exact interval does: 90%). */
        g_assert_cmpfloat(c3, <, 0.94);
}

/* repeat=auto (stats_auto_done) with repeat=6, ci_target 20%, at most 30
 * repetitions: each of the two cells stops on its own; the claim's
 * interval on what they gathered must still cover.  Without the
 * confirmation batch (stopping at the first narrow interval) the same
 * simulation is printed for comparison. */
static size_t auto_sample(StatsRng *rng, double scale, double *v, bool confirm)
{
        size_t narrowed = 0, n = 0;

        while (n < 30) {
                lognormal(rng, scale, &v[n], 1);
                n++;
                if (stats_auto_done(v, n, 6, 0.2, &narrowed, NULL))
                        break;
                if (!confirm && narrowed)
                        break;
        }
        return n;
}

static void test_coverage_auto(void)
{
        StatsRng rng;
        size_t hit[2] = { 0 }, total_n[2] = { 0 };

        for (int confirm = 0; confirm < 2; confirm++) {
                stats_rng_init(&rng, 13);
                for (int t = 0; t < TRIALS; t++) {
                        double a[30], b[30], r, lo, hi, cov;
                        size_t na = auto_sample(&rng, 1300, a, confirm);
                        size_t nb = auto_sample(&rng, 1000, b, confirm);
                        total_n[confirm] += na + nb;
                        g_assert_cmpint(stats_ratio_ci(a, na, b, nb, 0.95, &r, &lo, &hi, &cov), ==, 0);
                        hit[confirm] += lo <= 1.3 && 1.3 <= hi;
                }
        }
        double c = (double) hit[1] / TRIALS;
        if (g_test_verbose())
                g_printerr("# repeat=auto: coverage %.4f with the confirmation batch (%.1f reps a cell), "
                           "%.4f stopping at the first narrow interval (%.1f)\n", c,
                           total_n[1] / (2.0 * TRIALS), (double) hit[0] / TRIALS, total_n[0] / (2.0 * TRIALS));
        g_assert_cmpfloat(c, >=, 0.94);

        /* The rule itself: narrow at the 6th value, done at the 12th. */
        double flat[12] = { 100, 100, 100, 100, 100, 100, 300, 1, 300, 1, 300, 1 };
        size_t narrowed = 0;
        for (size_t n = 1; n <= 11; n++)
                g_assert_false(stats_auto_done(flat, n, 6, 0.05, &narrowed, NULL));
        g_assert_cmpuint(narrowed, ==, 6);
        g_assert_true(stats_auto_done(flat, 12, 6, 0.05, &narrowed, NULL));
}

/* What the exact interval can reach, and the repetitions a level needs:
 * 1 - 2/C(2n, n) (C(6,3) = 20, C(8,4) = 70, C(12,6) = 924, C(14,7) =
 * 3432), checked against stats_ratio_ci's own coverage. */
static void test_ratio_ci_reach(void)
{
        g_assert_cmpfloat_with_epsilon(stats_ratio_ci_reach(3, 3), 0.9, 1e-12);
        g_assert_cmpfloat_with_epsilon(stats_ratio_ci_reach(4, 4), 1 - 2.0 / 70, 1e-12);
        g_assert_cmpfloat_with_epsilon(stats_ratio_ci_reach(6, 6), 1 - 2.0 / 924, 1e-12);
        g_assert_cmpfloat_with_epsilon(stats_ratio_ci_reach(5, 6), 1 - 2.0 / 462, 1e-12);
        g_assert_cmpfloat(stats_ratio_ci_reach(0, 6), ==, 0);
        g_assert_cmpuint(stats_ratio_ci_reps(0.95), ==, 4);
        g_assert_cmpuint(stats_ratio_ci_reps(1 - 0.05 / 9), ==, 6);
        g_assert_cmpuint(stats_ratio_ci_reps(1 - 0.05 / 27), ==, 7);
        g_assert_cmpuint(stats_ratio_ci_reps(1 - 0.05 / 85), ==, 7);
        g_assert_cmpuint(stats_ratio_ci_reps(1 - 0.05 / 86), ==, 8);
        g_assert_cmpuint(stats_ratio_ci_reps(1.5), ==, 0);
        /* The interval itself reaches exactly that with k = 1. */
        double a[7] = { 1, 2, 3, 4, 5, 6, 7 }, b[7] = { 2, 3, 4, 5, 6, 7, 8 }, r, lo, hi, cov;
        for (size_t n = 2; n <= 7; n++) {
                g_assert_cmpint(stats_ratio_ci(a, n, b, n, 1 - 1e-9, &r, &lo, &hi, &cov), ==, 0);
                g_assert_cmpfloat_with_epsilon(cov, stats_ratio_ci_reach(n, n), 1e-12);
        }
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        g_test_add_func("/stats/quantiles", test_quantiles);
        g_test_add_func("/stats/median", test_median);
        g_test_add_func("/stats/median-ci", test_median_ci);
        g_test_add_func("/stats/intervals", test_intervals);
        g_test_add_func("/stats/means", test_means);
        g_test_add_func("/stats/rng", test_rng);
        g_test_add_func("/stats/geometric-mean", test_geometric_mean);
        g_test_add_func("/stats/pooled-rate", test_pooled_rate);
        g_test_add_func("/stats/mann-whitney", test_mann_whitney);
        g_test_add_func("/stats/ratio-ci", test_ratio_ci);
        g_test_add_func("/stats/ratio-ci-reach", test_ratio_ci_reach);
        g_test_add_func("/stats/coverage-one-pair", test_coverage_one_pair);
        g_test_add_func("/stats/coverage-claim", test_coverage_claim);
        g_test_add_func("/stats/coverage-auto", test_coverage_auto);
        g_test_add_func("/stats/coverage-old-bootstrap", test_coverage_old_bootstrap);
        return g_test_run();
}
