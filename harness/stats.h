/* stats.h: pure statistics over arrays of samples.  No I/O, no state. */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Sorts V (N values) in place, ascending. */
void stats_sort_u64(uint64_t *v, size_t n);
void stats_sort_double(double *v, size_t n);

/* The nearest-rank Q-quantile (0 < Q <= 1) of sorted V: the smallest value
 * with at least Q*N values at or below it.  0 when N is 0. */
uint64_t stats_quantile_u64(const uint64_t *sorted, size_t n, double q);
double stats_quantile_double(const double *sorted, size_t n, double q);

/* The median of sorted V (the mean of the two middle values when N is even). */
double stats_median(const double *sorted, size_t n);

/* A distribution-free confidence interval for the median of sorted V at
 * confidence level LEVEL (0.95): the order statistics x(l) and x(u) chosen
 * from the Binomial(N, 1/2) distribution so that P(x(l) <= median <= x(u))
 * >= LEVEL.  With too few samples for LEVEL, the interval is [min, max] and
 * the return value is the coverage actually reached (< LEVEL); otherwise it
 * returns the coverage (>= LEVEL).  Returns 0 when N is 0. */
double stats_median_ci(const double *sorted, size_t n, double level, double *lo, double *hi);

/* Arithmetic mean (for costs) and harmonic mean (for rates); 0 when N is 0.
 * The harmonic mean is 0 when any value is <= 0. */
double stats_mean(const double *v, size_t n);
double stats_harmonic_mean(const double *v, size_t n);

/* Sample standard deviation (N - 1 in the denominator); 0 when N < 2. */
double stats_stddev(const double *v, size_t n);

/* ---- Bootstrap ratios (added for `ipclab verify`) ----------------------- */

/* SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): a small generator whose
 * whole state is the caller's, so that every use is reproducible from its
 * seed and nothing is shared between callers. */
typedef struct {
        uint64_t state;
} StatsRng;

/* Starts RNG from SEED. */
void stats_rng_init(StatsRng *rng, uint64_t seed);
/* The next 64 random bits: state += 0x9e3779b97f4a7c15, then the
 * SplitMix64 finaliser of the new state. */
uint64_t stats_rng_next(StatsRng *rng);
/* A uniform integer in [0, N) (N > 0) without modulo bias: draws are
 * rejected while they fall below (2^64 - N) mod N, then reduced mod N.
 * 0 when N is 0. */
uint64_t stats_rng_below(StatsRng *rng, uint64_t n);

/* The geometric mean of V, exp(mean(log v)); 0 when N is 0 or any value is
 * <= 0 or not finite; exactly V[0] when all values are equal.  The right
 * mean for ratios (never their average). */
double stats_geometric_mean(const double *v, size_t n);

/* A group of values of one cell: its per-repetition measurements. */
typedef struct {
        const double *v;
        size_t n;
} StatsGroup;

/* The geometric mean, over N_PAIRS pairs, of the ratio of medians
 * median(GROUPS[NUM[p]]) / median(GROUPS[DEN[p]]), with a percentile
 * bootstrap confidence interval at level LEVEL (0.95).
 *
 * RESAMPLES times: every group, in order 0 .. N_GROUPS-1, is resampled with
 * replacement on its own (n draws of stats_rng_below(n) from one StatsRng
 * started from SEED), its median taken, and the geometric mean of the pair
 * ratios of those medians recorded.  A group used by several pairs uses
 * the same resample in all of them.  With k = floor(RESAMPLES * (1 -
 * LEVEL) / 2), *LO is the (k+1)-th smallest and *HI the (k+1)-th largest of
 * the recorded values.  *RATIO is the estimate on the data as they are.
 *
 * Pure and deterministic: the same arguments give the same results.
 * Returns 0, -EINVAL when a group is empty, a value is <= 0 or not finite,
 * a pair index is out of range, N_PAIRS or RESAMPLES is 0 or LEVEL is not
 * in (0, 1); -ENOMEM when out of memory.  Outputs are untouched on error. */
int stats_bootstrap_geomean_ratio_ci(const StatsGroup *groups, size_t n_groups,
                                     const size_t *num, const size_t *den, size_t n_pairs,
                                     unsigned resamples, double level, uint64_t seed,
                                     double *ratio, double *lo, double *hi);

/* One pair: median(NUM) / median(DEN) with its bootstrap interval, as
 * stats_bootstrap_geomean_ratio_ci with groups {NUM, DEN} and one pair.
 * Same return values. */
int stats_bootstrap_ratio_ci(const double *num, size_t n_num, const double *den, size_t n_den,
                             unsigned resamples, double level, uint64_t seed,
                             double *ratio, double *lo, double *hi);
