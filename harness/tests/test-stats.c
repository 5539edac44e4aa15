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

static void test_means(void)
{
        double rates[] = { 1, 2, 4 };
        double sd[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

        g_assert_cmpfloat_with_epsilon(stats_mean(rates, 3), 7.0 / 3, 1e-12);
        g_assert_cmpfloat_with_epsilon(stats_harmonic_mean(rates, 3), 3 / 1.75, 1e-12);
        double with_zero[] = { 1, 0 };
        g_assert_cmpfloat(stats_harmonic_mean(with_zero, 2), ==, 0);
        g_assert_cmpfloat_with_epsilon(stats_stddev(sd, 8), 2.138090, 1e-6);
        g_assert_cmpfloat(stats_stddev(sd, 1), ==, 0);
}

/* ---- Bootstrap ratios (stats_rng_*, stats_bootstrap_*) ------------------
 *
 * SplitMix64's first outputs from seed 1234567 are the published reference
 * values (6457827717110365317, 3203168211198807973, ...).  Every other
 * expected value below was computed by an independent Python 3
 * implementation of the contract in stats.h, written from the comments
 * alone (integers masked to 64 bits; medians with sorted(); the geometric
 * mean as math.exp(sum(log r) / n); k = floor(B * (1 - level) / 2)):
 *
 *   def below(rng, n):
 *       t = (2**64 - n) % n
 *       while (r := rng.next()) < t: pass
 *       return r % n
 *   for b in range(B):
 *       m = [median([g[below(rng, len(g))] for _ in g]) for g in groups]
 *       rep.append(gm([m[i] / m[j] for i, j in pairs]))
 *   rep.sort(); lo, hi = rep[k], rep[B - 1 - k]
 */
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

static void test_bootstrap_ratio(void)
{
        double a[] = { 210, 190, 205, 220, 200 };
        double b[] = { 100, 104, 98, 101, 99, 103 };
        double r, lo, hi;

        /* Point: 205 / 100.5; interval from the Python reference. */
        g_assert_cmpint(stats_bootstrap_ratio_ci(a, 5, b, 6, 2000, 0.95, 1, &r, &lo, &hi), ==, 0);
        g_assert_cmpfloat_with_epsilon(r, 205 / 100.5, 1e-12);
        g_assert_cmpfloat_with_epsilon(lo, 1.881188118811881, 1e-12);
        g_assert_cmpfloat_with_epsilon(hi, 2.189054726368159, 1e-12);
        g_assert_cmpfloat(lo, <=, r);
        g_assert_cmpfloat(r, <=, hi);

        /* B = 10, level 0.8: k = 1, the 2nd smallest and 2nd largest. */
        g_assert_cmpint(stats_bootstrap_ratio_ci(a, 5, b, 6, 10, 0.8, 5, &r, &lo, &hi), ==, 0);
        g_assert_cmpfloat_with_epsilon(lo, 1.9607843137254901, 1e-12);
        g_assert_cmpfloat_with_epsilon(hi, 2.0689655172413794, 1e-12);

        /* Deterministic: the same seed gives the same interval, another
         * seed (almost surely) another one. */
        double lo2, hi2;
        g_assert_cmpint(stats_bootstrap_ratio_ci(a, 5, b, 6, 2000, 0.95, 1, &r, &lo2, &hi2), ==, 0);
        g_assert_cmpfloat(lo2, ==, 1.881188118811881);
        g_assert_cmpfloat(hi2, ==, 2.189054726368159);

        /* Constant cells: the ratio and its interval are exact. */
        double c100[] = { 100, 100, 100 }, c200[] = { 200, 200, 200, 200 };
        g_assert_cmpint(stats_bootstrap_ratio_ci(c200, 4, c100, 3, 2000, 0.95, 7, &r, &lo, &hi), ==, 0);
        g_assert_cmpfloat(r, ==, 2);
        g_assert_cmpfloat(lo, ==, 2);
        g_assert_cmpfloat(hi, ==, 2);

        /* Bad input leaves the outputs alone. */
        double zero[] = { 1, 0 };
        r = lo = hi = -1;
        g_assert_cmpint(stats_bootstrap_ratio_ci(a, 0, b, 6, 2000, 0.95, 1, &r, &lo, &hi), ==, -EINVAL);
        g_assert_cmpint(stats_bootstrap_ratio_ci(zero, 2, b, 6, 2000, 0.95, 1, &r, &lo, &hi), ==, -EINVAL);
        g_assert_cmpint(stats_bootstrap_ratio_ci(a, 5, b, 6, 0, 0.95, 1, &r, &lo, &hi), ==, -EINVAL);
        g_assert_cmpint(stats_bootstrap_ratio_ci(a, 5, b, 6, 2000, 1.0, 1, &r, &lo, &hi), ==, -EINVAL);
        g_assert_cmpfloat(r, ==, -1);
        g_assert_cmpfloat(lo, ==, -1);
}

static void test_bootstrap_geomean(void)
{
        double g0[] = { 100, 101, 99, 102 }, g1[] = { 200, 210, 190, 205 };
        double g2[] = { 50, 52, 49 }, g3[] = { 150, 160, 140 };
        const StatsGroup groups[] = { { g0, 4 }, { g1, 4 }, { g2, 3 }, { g3, 3 } };
        const size_t num[] = { 1, 3 }, den[] = { 0, 2 };
        double r, lo, hi;

        /* Pairs 202.5/100.5 and 150/50: geometric mean sqrt(2.0149 * 3). */
        g_assert_cmpint(stats_bootstrap_geomean_ratio_ci(groups, 4, num, den, 2, 2000, 0.95, 99,
                                                         &r, &lo, &hi), ==, 0);
        g_assert_cmpfloat_with_epsilon(r, sqrt(202.5 / 100.5 * 3), 1e-12);
        g_assert_cmpfloat_with_epsilon(r, 2.4586126411866887, 1e-12);
        g_assert_cmpfloat_with_epsilon(lo, 2.3089613164809264, 1e-12);
        g_assert_cmpfloat_with_epsilon(hi, 2.5808089192406802, 1e-12);

        /* Never an average of ratios: 2 and 8 give 4, not 5. */
        double one[] = { 1 }, two[] = { 2 }, eight[] = { 8 };
        const StatsGroup g2x[] = { { one, 1 }, { two, 1 }, { eight, 1 } };
        const size_t n2[] = { 1, 2 }, d2[] = { 0, 0 };
        g_assert_cmpint(stats_bootstrap_geomean_ratio_ci(g2x, 3, n2, d2, 2, 100, 0.95, 1,
                                                         &r, &lo, &hi), ==, 0);
        g_assert_cmpfloat_with_epsilon(r, 4, 1e-12);
        g_assert_cmpfloat_with_epsilon(lo, 4, 1e-12);

        const size_t out_of_range[] = { 4 };
        g_assert_cmpint(stats_bootstrap_geomean_ratio_ci(groups, 4, out_of_range, den, 1, 2000, 0.95, 1,
                                                         &r, &lo, &hi), ==, -EINVAL);
        g_assert_cmpint(stats_bootstrap_geomean_ratio_ci(groups, 4, num, den, 0, 2000, 0.95, 1,
                                                         &r, &lo, &hi), ==, -EINVAL);
}

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        g_test_add_func("/stats/quantiles", test_quantiles);
        g_test_add_func("/stats/median", test_median);
        g_test_add_func("/stats/median-ci", test_median_ci);
        g_test_add_func("/stats/means", test_means);
        g_test_add_func("/stats/rng", test_rng);
        g_test_add_func("/stats/geometric-mean", test_geometric_mean);
        g_test_add_func("/stats/bootstrap-ratio", test_bootstrap_ratio);
        g_test_add_func("/stats/bootstrap-geomean", test_bootstrap_geomean);
        return g_test_run();
}
