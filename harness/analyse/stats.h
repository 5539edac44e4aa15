/* stats.h: pure statistics over arrays of samples.  No I/O, no state. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sorts V (N values) in place, ascending (hist_sort_values). */
void stats_sort_u64(uint64_t *v, size_t n);
void stats_sort_double(double *v, size_t n);

/* The nearest-rank Q-quantile (0 < Q <= 1) of sorted V: the smallest value
 * with at least Q*N values at or below it.  0 when N is 0. */
uint64_t stats_quantile_u64(const uint64_t *sorted, size_t n, double q);
double stats_quantile_double(const double *sorted, size_t n, double q);

/* Does the Q-quantile (0 <= Q <= 1) of N values say something of its own?
 * Only when at least STATS_TAIL_MIN of them lie beyond it: the 99th
 * percentile needs 1000 values, the 99.9th 10000.  The minimum (Q 0) and
 * the maximum (Q 1) of any values are measured, and so is the median. */
#define STATS_TAIL_MIN 10
bool stats_quantile_supported(double n, double q);

/* The median of sorted V (the mean of the two middle values when N is even). */
double stats_median(const double *sorted, size_t n);

/* A distribution-free confidence interval for the median of sorted V at
 * confidence level LEVEL (0.95): the order statistics x(l) and x(u) chosen
 * from the Binomial(N, 1/2) distribution so that P(x(l) <= median <= x(u))
 * >= LEVEL.  With too few samples for LEVEL, the interval is [min, max] and
 * the return value is the coverage actually reached (< LEVEL); otherwise it
 * returns the coverage (>= LEVEL).  Returns 0 when N is 0. */
double stats_median_ci(const double *sorted, size_t n, double level, double *lo, double *hi);

/* The coverage an interval of the median of N values is stated with:
 * LEVEL when N values can reach it (stats_median_ci's order statistics),
 * else that of their range, 1 - 2^(1-N) (0.75 for three).  0 when N is 0.
 * Captions and the text quote it, so that "95 %" is never claimed for an
 * interval that cannot reach it. */
double stats_median_ci_level(size_t n, double level);

/* Do the intervals [ALO, AHI] and [BLO, BHI] lie apart (neither overlaps
 * the other)?  false when a bound is NaN: an interval not known sets
 * nothing apart. */
bool stats_intervals_disjoint(double alo, double ahi, double blo, double bhi);

/* Does interval K of the N intervals [LO[i], HI[i]] lie apart from every
 * other one (stats_intervals_disjoint)?  What "the fastest" and "the
 * slowest" of several cells rest on.  false when K >= N. */
bool stats_interval_apart(const double *lo, const double *hi, size_t n, size_t k);

/* Arithmetic mean (for costs); 0 when N is 0. */
double stats_mean(const double *v, size_t n);

/* A rate over N repetitions: the total work (WORK[i]: bytes or messages)
 * over the total time (TIME[i]), sum(WORK) / sum(TIME); 0 when N is 0 or
 * the total time is <= 0.  When every repetition does the same work (a
 * count-boxed cell) this is the harmonic mean of the per-repetition rates;
 * when the time is boxed instead (duration=) and the work varies, the
 * harmonic mean is not total work over total time, and this still is. */
double stats_pooled_rate(const double *work, const double *time, size_t n);

/* Sample standard deviation (N - 1 in the denominator); 0 when N < 2. */
double stats_stddev(const double *v, size_t n);

/* ---- Ratios of two cells (for `ipclab verify`) ------------------------- */

/* SplitMix64 (Steele, Lea and Flood, OOPSLA 2014): a small generator whose
 * whole state is the caller's, so that every use is reproducible from its
 * seed and nothing is shared between callers.  (Used by the simulations
 * that check the intervals below.) */
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

/* P(U <= K) for the Mann-Whitney statistic U of two samples of N and M
 * values when both come from one continuous distribution: the number of
 * ways to get U <= K (the coefficients of the Gaussian binomial [N+M, N])
 * over C(N+M, N).  1 when K >= N*M; 0 when N or M is 0. */
double stats_mann_whitney_cdf(size_t n, size_t m, size_t k);

/* The ratio of the values NUM (N_NUM of them) to the values DEN (N_DEN)
 * with a distribution-free confidence interval at level LEVEL.
 *
 * Model: on the log scale the two samples differ by a shift, log NUM ~
 * log DEN + log R (the same noise, scaled by the ratio R), which is what
 * repeated timings of two cells look like.  The estimate *RATIO is the
 * Hodges-Lehmann estimate of R: the median of the N_NUM * N_DEN ratios
 * num[j] / den[i] (for an even count the geometric mean of the middle
 * two).  The interval is the exact one that inverts the Mann-Whitney test
 * (Lehmann 1963; Hollander and Wolfe, Nonparametric Statistical Methods,
 * ch. 4): with the ratios sorted, [r(k), r(N*M+1-k)] for the largest k
 * with 2 P(U <= k-1) <= 1 - LEVEL, whose coverage is exactly 1 - 2 P(U <=
 * k-1) >= LEVEL whatever the distribution of the noise.  When even k = 1
 * does not reach LEVEL (too few repetitions: 3 and 3 reach only 90%), the
 * interval is [min, max] of the ratios.  *COVERAGE is the coverage
 * reached, >= LEVEL unless there were too few repetitions.
 *
 * Returns 0; -EINVAL when a sample is empty, a value is <= 0 or not finite,
 * or LEVEL is not in (0, 1); -ENOMEM when out of memory.  Outputs are
 * untouched on error. */
int stats_ratio_ci(const double *num, size_t n_num, const double *den, size_t n_den, double level,
                   double *ratio, double *lo, double *hi, double *coverage);

/* The most coverage stats_ratio_ci can reach with N and M values: that of
 * its widest interval, [min, max] of the ratios, 1 - 2 / C(N+M, N), exact
 * whatever the noise (3 and 3: 0.9; 4 and 4: 0.971; 6 and 6: 0.9978).  0
 * when N or M is 0. */
double stats_ratio_ci_reach(size_t n, size_t m);

/* The fewest repetitions a side, N = M, with which stats_ratio_ci reaches
 * LEVEL (0 < LEVEL < 1): the smallest N with stats_ratio_ci_reach(N, N) >=
 * LEVEL (95%: 4; 1 - 0.05/9: 6; 1 - 0.05/27: 7).  0 when LEVEL is not in
 * (0, 1). */
size_t stats_ratio_ci_reps(double level);

/* ---- repeat=auto -------------------------------------------------------- */

/* The stopping rule of repeat=auto for one cell, after its N-th
 * repetition (COST: its N costs, in any order).  Stopping as soon as an
 * interval is narrow enough would favour samples that happen to be close
 * together (optional stopping: the intervals later computed from them then
 * cover less than they say), so the rule is in two steps:
 *   1. from N >= REPEAT_MIN on, the first time the 95% interval of the
 *      median (stats_median_ci, reaching 95%) has a half-width of at most
 *      TARGET times the median, *NARROWED_AT becomes N;
 *   2. the cell then takes a fixed confirmation batch of REPEAT_MIN more
 *      repetitions, whatever they show, and stops: true when N >=
 *      *NARROWED_AT + REPEAT_MIN.
 * *NARROWED_AT starts at 0 (not yet narrow).  *HALFWIDTH, when not NULL,
 * is set to the interval's half-width over the median (INFINITY with
 * fewer than 2 values or a median <= 0).  The caller adds its own limits
 * (repeat_max, a time cap). */
bool stats_auto_done(const double *cost, size_t n, size_t repeat_min, double target,
                     size_t *narrowed_at, double *halfwidth);
