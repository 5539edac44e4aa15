/* stats.c: pure statistics (see stats.h). */
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

#define MAX_D(a, b) ((a) > (b) ? (a) : (b))
#define MIN_D(a, b) ((a) < (b) ? (a) : (b))

static int cmp_double(const void *a, const void *b)
{
        double x = *(const double *) a, y = *(const double *) b;
        return (x > y) - (x < y);
}

void stats_sort_u64(uint64_t *v, size_t n)
{
        hist_sort_values(v, n);
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

bool stats_quantile_supported(double n, double q)
{
        if (q <= 0 || q >= 1 || q == 0.5)
                return n >= 1;
        return n * fmin(q, 1 - q) >= STATS_TAIL_MIN * (1 - 1e-9);
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
         * reaches LEVEL: P(X <= j-1) summed once, term by term as
         * binom_half_cdf() sums it (the same values), so that the search
         * takes time linear in N, not quadratic. */
        size_t j = 0;
        double cdf = 0, cdf_j = 0, ln2n = (double) n * log(2.0);
        for (size_t cand = 1; cand <= (n + 1) / 2; cand++) {
                size_t i = cand - 1;
                cdf += exp(lgamma((double) n + 1) - lgamma((double) i + 1) - lgamma((double) (n - i) + 1) - ln2n);
                if (2 * MIN_D(cdf, 1) > alpha)
                        break;
                j = cand;
                cdf_j = MIN_D(cdf, 1);
        }
        if (j == 0) {
                *lo = sorted[0];
                *hi = sorted[n - 1];
                return 1 - 2 * binom_half_cdf(n, 0);
        }
        *lo = sorted[j - 1];
        *hi = sorted[n - j];
        return 1 - 2 * cdf_j;
}

double stats_median_ci_level(size_t n, double level)
{
        double lo, hi;

        if (!n)
                return 0;
        double *v = calloc(n, sizeof *v);
        if (!v)
                return 0;
        double coverage = stats_median_ci(v, n, level, &lo, &hi);
        free(v);
        return coverage >= level ? level : coverage;
}

bool stats_intervals_disjoint(double alo, double ahi, double blo, double bhi)
{
        if (isnan(alo) || isnan(ahi) || isnan(blo) || isnan(bhi))
                return false;
        return ahi < blo || bhi < alo;
}

bool stats_interval_apart(const double *lo, const double *hi, size_t n, size_t k)
{
        if (k >= n)
                return false;
        for (size_t i = 0; i < n; i++)
                if (i != k && !stats_intervals_disjoint(lo[k], hi[k], lo[i], hi[i]))
                        return false;
        return true;
}

double stats_mean(const double *v, size_t n)
{
        double s = 0;

        for (size_t i = 0; i < n; i++)
                s += v[i];
        return n ? s / (double) n : 0;
}

double stats_pooled_rate(const double *work, const double *time, size_t n)
{
        double w = 0, t = 0;

        for (size_t i = 0; i < n; i++) {
                w += work[i];
                t += time[i];
        }
        return n && t > 0 ? w / t : 0;
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

/* ---- Ratios of two cells ----------------------------------------------- */

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

/* COUNTS[u], u = 0 .. T, becomes the number of ways the Mann-Whitney
 * statistic of N and M values takes the value u: the coefficient of q^u in
 * the Gaussian binomial [N+M, N], from [i+j, i] = [i+j-1, i-1] + q^i
 * [i+j-1, i], one j at a time, with ROW[i] the coefficients for i and the
 * current j ((N+1) * (T+1) doubles).  Only additions: exact while the
 * counts fit a double's 53 bits, and within rounding beyond. */
static void mann_whitney_counts(size_t n, size_t m, size_t t, double *row)
{
        size_t w = t + 1;

        memset(row, 0, (n + 1) * w * sizeof *row);
        for (size_t i = 0; i <= n; i++)
                row[i * w] = 1;            /* j = 0: only u = 0 */
        for (size_t j = 1; j <= m; j++)
                for (size_t i = 1; i <= n; i++)
                        for (size_t u = t + 1; u-- > 0;)
                                row[i * w + u] = row[(i - 1) * w + u] + (u >= i ? row[i * w + u - i] : 0);
}

static double log_choose(size_t a, size_t b)
{
        return lgamma((double) a + 1) - lgamma((double) b + 1) - lgamma((double) (a - b) + 1);
}

double stats_mann_whitney_cdf(size_t n, size_t m, size_t k)
{
        if (!n || !m)
                return 0;
        if (k >= n * m)
                return 1;
        double *row = malloc((n + 1) * (k + 1) * sizeof *row);
        if (!row)
                return NAN;
        mann_whitney_counts(n, m, k, row);
        double ways = 0;
        for (size_t u = 0; u <= k; u++)
                ways += row[n * (k + 1) + u];
        free(row);
        double p = ways / exp(log_choose(n + m, n));
        return p > 1 ? 1 : p;
}

int stats_ratio_ci(const double *num, size_t n_num, const double *den, size_t n_den, double level,
                   double *ratio, double *lo, double *hi, double *coverage)
{
        if (!n_num || !n_den || !(level > 0 && level < 1))
                return -EINVAL;
        for (size_t i = 0; i < n_num; i++)
                if (!(num[i] > 0) || !isfinite(num[i]))
                        return -EINVAL;
        for (size_t i = 0; i < n_den; i++)
                if (!(den[i] > 0) || !isfinite(den[i]))
                        return -EINVAL;

        size_t nm = n_num * n_den, t = nm / 2;
        double *r = malloc(nm * sizeof *r);
        double *row = malloc((n_den + 1) * (t + 1) * sizeof *row);
        if (!r || !row) {
                free(r);
                free(row);
                return -ENOMEM;
        }
        for (size_t j = 0; j < n_num; j++)
                for (size_t i = 0; i < n_den; i++)
                        r[j * n_den + i] = num[j] / den[i];
        stats_sort_double(r, nm);
        double est = nm % 2 ? r[nm / 2] : (r[nm / 2 - 1] == r[nm / 2] ? r[nm / 2] : sqrt(r[nm / 2 - 1] * r[nm / 2]));

        /* The largest k with 2 P(U <= k-1) <= 1 - LEVEL; P(U <= u) for u
         * below nm/2 from one table of counts. */
        mann_whitney_counts(n_den, n_num, t, row);
        double total = exp(log_choose(n_num + n_den, n_den));
        double alpha = 1 - level, tail = 0, reached = 1 - 2 / total;
        size_t k = 0;
        for (size_t cand = 1; cand <= t; cand++) {
                tail += row[n_den * (t + 1) + cand - 1];     /* ways U <= cand-1 */
                if (2 * tail / total > alpha + 1e-12)
                        break;
                k = cand;
                reached = 1 - 2 * tail / total;
        }
        *ratio = est;
        if (k == 0) {
                *lo = r[0];
                *hi = r[nm - 1];
        } else {
                *lo = r[k - 1];
                *hi = r[nm - k];
        }
        *coverage = reached < 0 ? 0 : reached;
        free(r);
        free(row);
        return 0;
}

double stats_ratio_ci_reach(size_t n, size_t m)
{
        if (!n || !m)
                return 0;
        double r = 1 - 2 / exp(log_choose(n + m, n));
        return r < 0 ? 0 : r;
}

size_t stats_ratio_ci_reps(double level)
{
        if (!(level > 0 && level < 1))
                return 0;
        /* The same tolerance as stats_ratio_ci's choice of k. */
        size_t n = 1;
        while (1 - stats_ratio_ci_reach(n, n) > 1 - level + 1e-12)
                n++;
        return n;
}

/* ---- repeat=auto -------------------------------------------------------- */

bool stats_auto_done(const double *cost, size_t n, size_t repeat_min, double target,
                     size_t *narrowed_at, double *halfwidth)
{
        double hw = INFINITY;
        bool reached = false;

        if (n >= 2) {
                double *v = malloc(n * sizeof *v);
                if (v) {
                        double lo, hi;
                        memcpy(v, cost, n * sizeof *v);
                        stats_sort_double(v, n);
                        double med = stats_median(v, n);
                        double cov = stats_median_ci(v, n, 0.95, &lo, &hi);
                        if (med > 0)
                                hw = MAX_D(med - lo, hi - med) / med;
                        reached = cov >= 0.95;
                        free(v);
                }
        }
        if (halfwidth)
                *halfwidth = hw;
        if (!*narrowed_at && n >= repeat_min && reached && hw <= target)
                *narrowed_at = n;
        return *narrowed_at && n >= *narrowed_at + repeat_min;
}
