/* stats.c: pure statistics (see stats.h). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>

static int cmp_u64(const void *a, const void *b)
{
        uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
        return (x > y) - (x < y);
}

static int cmp_double(const void *a, const void *b)
{
        double x = *(const double *) a, y = *(const double *) b;
        return (x > y) - (x < y);
}

void stats_sort_u64(uint64_t *v, size_t n)
{
        qsort(v, n, sizeof *v, cmp_u64);
}

void stats_sort_double(double *v, size_t n)
{
        qsort(v, n, sizeof *v, cmp_double);
}

static size_t nearest_rank(size_t n, double q)
{
        double r = ceil(q * (double) n);
        size_t k = r < 1 ? 1 : (size_t) r;
        return (k > n ? n : k) - 1;
}

uint64_t stats_quantile_u64(const uint64_t *sorted, size_t n, double q)
{
        return n ? sorted[nearest_rank(n, q)] : 0;
}

double stats_quantile_double(const double *sorted, size_t n, double q)
{
        return n ? sorted[nearest_rank(n, q)] : 0;
}

double stats_median(const double *sorted, size_t n)
{
        if (!n)
                return 0;
        if (n % 2)
                return sorted[n / 2];
        return (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/* P(X <= k) for X ~ Binomial(n, 1/2), summed in log space so that large n
 * neither overflows nor underflows. */
static double binom_half_cdf(size_t n, size_t k)
{
        double sum = 0;
        double ln2n = (double) n * log(2.0);

        for (size_t i = 0; i <= k && i <= n; i++)
                sum += exp(lgamma((double) n + 1) - lgamma((double) i + 1) -
                           lgamma((double) (n - i) + 1) - ln2n);
        return sum > 1 ? 1 : sum;
}

double stats_median_ci(const double *sorted, size_t n, double level, double *lo, double *hi)
{
        double alpha = 1 - level;

        if (!n) {
                *lo = *hi = 0;
                return 0;
        }
        /* The interval [x(j), x(n-j+1)] (1-based) covers the median with
         * probability 1 - 2 P(X <= j-1).  Take the largest j that still
         * reaches LEVEL. */
        size_t j = 0;
        for (size_t cand = 1; cand <= (n + 1) / 2; cand++) {
                if (2 * binom_half_cdf(n, cand - 1) <= alpha)
                        j = cand;
                else
                        break;
        }
        if (j == 0) {
                *lo = sorted[0];
                *hi = sorted[n - 1];
                return 1 - 2 * binom_half_cdf(n, 0);
        }
        *lo = sorted[j - 1];
        *hi = sorted[n - j];
        return 1 - 2 * binom_half_cdf(n, j - 1);
}

double stats_mean(const double *v, size_t n)
{
        double s = 0;

        for (size_t i = 0; i < n; i++)
                s += v[i];
        return n ? s / (double) n : 0;
}

double stats_harmonic_mean(const double *v, size_t n)
{
        double s = 0;

        for (size_t i = 0; i < n; i++) {
                if (v[i] <= 0)
                        return 0;
                s += 1 / v[i];
        }
        return n ? (double) n / s : 0;
}

double stats_stddev(const double *v, size_t n)
{
        if (n < 2)
                return 0;
        double m = stats_mean(v, n), s = 0;
        for (size_t i = 0; i < n; i++)
                s += (v[i] - m) * (v[i] - m);
        return sqrt(s / (double) (n - 1));
}
