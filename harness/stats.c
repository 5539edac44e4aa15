/* stats.c: pure statistics (see stats.h). */
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- Bootstrap ratios --------------------------------------------------- */

void stats_rng_init(StatsRng *rng, uint64_t seed)
{
        rng->state = seed;
}

uint64_t stats_rng_next(StatsRng *rng)
{
        uint64_t z = (rng->state += UINT64_C(0x9e3779b97f4a7c15));

        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        return z ^ (z >> 31);
}

uint64_t stats_rng_below(StatsRng *rng, uint64_t n)
{
        if (!n)
                return 0;
        /* (2^64 - n) mod n, computed in 64 bits. */
        uint64_t threshold = (0 - n) % n;
        for (;;) {
                uint64_t r = stats_rng_next(rng);
                if (r >= threshold)
                        return r % n;
        }
}

double stats_geometric_mean(const double *v, size_t n)
{
        double s = 0;
        bool equal = true;

        if (!n)
                return 0;
        for (size_t i = 0; i < n; i++) {
                if (!(v[i] > 0) || !isfinite(v[i]))
                        return 0;
                s += log(v[i]);
                equal &= v[i] == v[0];
        }
        /* exp(log(8)) is 7.999...: keep exact what can be exact. */
        return equal ? v[0] : exp(s / (double) n);
}

/* The median of N values V drawn with replacement into SCRATCH. */
static double resampled_median(const double *v, size_t n, StatsRng *rng, double *scratch)
{
        for (size_t i = 0; i < n; i++)
                scratch[i] = v[stats_rng_below(rng, n)];
        stats_sort_double(scratch, n);
        return stats_median(scratch, n);
}

/* The geometric mean of the pair ratios of the medians MED; BUF holds
 * N_PAIRS ratios. */
static double geomean_of_ratios(const double *med, const size_t *num, const size_t *den,
                                size_t n_pairs, double *buf)
{
        for (size_t p = 0; p < n_pairs; p++)
                buf[p] = med[num[p]] / med[den[p]];
        return stats_geometric_mean(buf, n_pairs);
}

int stats_bootstrap_geomean_ratio_ci(const StatsGroup *groups, size_t n_groups,
                                     const size_t *num, const size_t *den, size_t n_pairs,
                                     unsigned resamples, double level, uint64_t seed,
                                     double *ratio, double *lo, double *hi)
{
        size_t max_n = 0;

        if (!n_pairs || !resamples || !(level > 0 && level < 1))
                return -EINVAL;
        for (size_t p = 0; p < n_pairs; p++)
                if (num[p] >= n_groups || den[p] >= n_groups)
                        return -EINVAL;
        for (size_t g = 0; g < n_groups; g++) {
                if (!groups[g].n)
                        return -EINVAL;
                for (size_t i = 0; i < groups[g].n; i++)
                        if (!(groups[g].v[i] > 0) || !isfinite(groups[g].v[i]))
                                return -EINVAL;
                if (groups[g].n > max_n)
                        max_n = groups[g].n;
        }

        double *med = malloc(n_groups * sizeof *med);
        double *scratch = malloc(max_n * sizeof *scratch);
        double *rep = malloc(resamples * sizeof *rep);
        double *ratios = malloc(n_pairs * sizeof *ratios);
        int r = 0;
        if (!med || !scratch || !rep || !ratios) {
                r = -ENOMEM;
                goto out;
        }

        for (size_t g = 0; g < n_groups; g++) {
                memcpy(scratch, groups[g].v, groups[g].n * sizeof *scratch);
                stats_sort_double(scratch, groups[g].n);
                med[g] = stats_median(scratch, groups[g].n);
        }
        double point = geomean_of_ratios(med, num, den, n_pairs, ratios);

        StatsRng rng;
        stats_rng_init(&rng, seed);
        for (unsigned b = 0; b < resamples; b++) {
                for (size_t g = 0; g < n_groups; g++)
                        med[g] = resampled_median(groups[g].v, groups[g].n, &rng, scratch);
                rep[b] = geomean_of_ratios(med, num, den, n_pairs, ratios);
        }
        stats_sort_double(rep, resamples);
        /* The rank of the lower bound, guarded against 0.025 * 2000 coming
         * out as 49.999... */
        size_t k = (size_t) floor((double) resamples * (1 - level) / 2 + 1e-9);
        if (k >= resamples)
                k = resamples - 1;
        *ratio = point;
        *lo = rep[k];
        *hi = rep[resamples - 1 - k];
out:
        free(med);
        free(scratch);
        free(rep);
        free(ratios);
        return r;
}

int stats_bootstrap_ratio_ci(const double *num, size_t n_num, const double *den, size_t n_den,
                             unsigned resamples, double level, uint64_t seed,
                             double *ratio, double *lo, double *hi)
{
        const StatsGroup groups[] = { { num, n_num }, { den, n_den } };
        const size_t pn = 0, pd = 1;

        return stats_bootstrap_geomean_ratio_ci(groups, 2, &pn, &pd, 1, resamples, level, seed,
                                                ratio, lo, hi);
}
