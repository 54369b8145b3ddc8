/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - pure statistics over arrays of doubles: no I/O, no globals.
 *
 * The names say what they compute (sample stddev is n-1).  Empty input
 * gives NAN unless stated otherwise.  mmtests (bin/lib/MMTests/Stat.pm,
 * Summarise.pm) is the reference for BAmean and the gain percentages.
 */
#ifndef VR_STATS_H
#define VR_STATS_H

#include <stdbool.h>
#include <stddef.h>

/** stats_sort - sort @v[0..@n-1] ascending in place (NANs are not allowed). */
void stats_sort(double *v, size_t n);

/**
 * stats_percentile - the @p-th percentile (0 < @p <= 100) of @sorted
 * (ascending), by the nearest-rank rule: the smallest value such that at
 * least @p percent of the values are <= it, i.e. element ceil(p*n/100)-1
 * (at least element 0).  Hyndman & Fan type 1; simoop and simoop-lite
 * report their p50/p95/p99 the same way.  p=100 gives the maximum.
 * NAN for n == 0.
 */
double stats_percentile(const double *sorted, size_t n, double p);

/** stats_min / stats_max - smallest / largest value; NAN for n == 0. */
double stats_min(const double *v, size_t n);
double stats_max(const double *v, size_t n);

/** stats_mean - arithmetic mean; NAN for n == 0. */
double stats_mean(const double *v, size_t n);

/**
 * stats_hmean - harmonic mean n / sum(1/v).  Values must be > 0: NAN for
 * n == 0 or if any value is <= 0 (the harmonic mean is undefined there).
 */
double stats_hmean(const double *v, size_t n);

/** stats_stddev - sample standard deviation (divisor n-1); 0 for n == 1. */
double stats_stddev(const double *v, size_t n);

/**
 * stats_coeffvar - coefficient of variation in percent,
 * stats_stddev() * 100 / stats_mean(); 0 when the mean is 0.
 */
double stats_coeffvar(const double *v, size_t n);

/**
 * stats_bamean - mmtests BAmean-NN: the arithmetic mean of the best
 * @pct percent of the values.  @best_first is sorted best first (ascending
 * when lower is better, descending when higher is better); the first
 * max(1, floor(n * pct / 100)) values are averaged (Stat.pm calc_bamean
 * via Summarise.pm, see peers.md 1.3).  NAN for n == 0.
 */
double stats_bamean(const double *best_first, size_t n, double pct);

/* Result of Welch's unequal-variances t-test. */
struct stats_ttest {
	double t;	/* (mean_b - mean_a) / sqrt(var_a/n_a + var_b/n_b) */
	double df;	/* Welch-Satterthwaite degrees of freedom */
	double p;	/* two-sided p-value from the Student t distribution */
};

/**
 * stats_welch_ttest - Welch's t-test of the means of @a and @b (sample
 * variances, n-1).  p = 2 * Q_t(|t|; df) with GSL's gsl_cdf_tdist_Q.
 * @out: OUT: t, df and p.
 * Returns 0, or -1 (no message; @out set to NAN) when a side has fewer than
 * two values or both variances are 0, where the test is undefined.
 */
int stats_welch_ttest(const double *a, size_t na, const double *b, size_t nb,
		      struct stats_ttest *out);

/**
 * stats_gain_pct - mmtests' percentage gain of @new_v over @base, positive
 * when better (Stat.pm pndiff/pdiff, peers.md 1.4):
 *   lower is better:  100 - new*100/base; 0 if equal, 100 if new == 0,
 *                     -99 if base == 0 and new != 0;
 *   higher is better: new*100/base - 100; 0 if equal or new == 0,
 *                     100 if base == 0.
 */
double stats_gain_pct(double new_v, double base, bool higher_is_better);

#endif /* VR_STATS_H */
