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
