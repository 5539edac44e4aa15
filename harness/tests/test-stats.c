/* test-stats.c: statistics against values computed independently.
 *
 * Expected values come from the definitions, worked by hand and with exact
 * binomial sums in Python (math.comb(n, k) / 2**n): nearest-rank quantiles
 * (the smallest value with at least q*n values at or below it); the
 * order statistics of the median's confidence interval (n = 10: ranks 2
 * and 9, coverage 1 - 2 P(X <= 1) = 0.978516; n = 20: ranks 6 and 15,
 * coverage 1 - 2 P(X <= 5) = 0.958611); the sample standard deviation of
 * 2,4,4,4,5,5,7,9 is sqrt(32/7) = 2.138090. */
#include <glib.h>

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

int main(int argc, char **argv)
{
        g_test_init(&argc, &argv, NULL);
        g_test_add_func("/stats/quantiles", test_quantiles);
        g_test_add_func("/stats/median", test_median);
        g_test_add_func("/stats/median-ci", test_median_ci);
        g_test_add_func("/stats/means", test_means);
        return g_test_run();
}
