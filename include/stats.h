/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stats.h - pure statistics over arrays of doubles: no I/O, no globals.
 *
 * The names say what they compute (sample stddev is n-1).  Empty input
 * gives NAN unless stated otherwise.  mmtests (gormanm/mmtests,
 * bin/lib/MMTests/Stat.pm and Summarise.pm) is the reference for BAmean,
 * Pctile, the gain percentages and the confidence-interval rule.
 */
#ifndef VR_STATS_H
#define VR_STATS_H

#include <stdbool.h>
#include <stddef.h>

/** stats_sort - sort @v[0..@n-1] ascending in place (NANs are not allowed); one
 * pass when it is already ascending. */
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
 * stats_stddev() * 100 / stats_mean(); NAN when the mean is 0 (undefined
 * there; mmtests' calc_coeffvar says 0).
 */
double stats_coeffvar(const double *v, size_t n);

/**
 * stats_best_count - how many of @n best-first values make the best @pct
 * percent, as mmtests takes them for BAmean-NN, BHmean-NN and Pctile-NN
 * (Summarise.pm runStatFunc: int(n * pct / 100)): floor(n * pct / 100), at
 * least 1, at most n.
 */
size_t stats_best_count(size_t n, double pct);

/**
 * stats_bamean - mmtests BAmean-NN: the arithmetic mean of the best
 * @pct percent of the values.  @best_first is sorted best first (ascending
 * when lower is better, descending when higher is better); the first
 * max(1, floor(n * pct / 100)) values are averaged (mmtests Summarise.pm
 * runStatFunc, a numeric argument: "a percentage of data to compute
 * function from", then Stat.pm calc_amean).  NAN for n == 0.
 */
double stats_bamean(const double *best_first, size_t n, double pct);

/**
 * stats_pctile - mmtests Pctile-NN: element max(1, floor(n * @pct / 100))
 * - 1 of @best_first (sorted best first, as for stats_bamean()): the rank
 * rounded down, where stats_percentile() rounds it up (mmtests Summarise.pm
 * runStatFunc, "Percentiles are trivial").  For lower-is-better values
 * this is a lower percentile, for higher-is-better ones it counts from the
 * top.  Of 10 ascending values Pctile-95 is the 9th, the nearest-rank p95
 * the 10th.  NAN for n == 0.
 */
double stats_pctile(const double *best_first, size_t n, double pct);

/**
 * stats_hstddev - mmtests' standard deviation around the harmonic mean H of
 * @v: sqrt(sum((1/v - 1/H)^2) * H^4 / n) (Stat.pm calc_stddev with "hmean";
 * the delta method).  NAN for n < 2 or a value <= 0, as Stat.pm gives NaN.
 */
double stats_hstddev(const double *v, size_t n);

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
 * stats_welch_ci - Welch's confidence interval, at level @level (0.90 for
 * 90 %), of the difference of the means mean(@b) - mean(@a): d +/- q * se,
 * se = sqrt(var_a/n_a + var_b/n_b) (sample variances, n-1), q the Student t
 * quantile 1 - (1 - level)/2 on the Welch-Satterthwaite degrees of freedom
 * (GSL gsl_cdf_tdist_Pinv).  It excludes 0 exactly when
 * stats_welch_ttest()'s p < 1 - @level.  @lo, @hi: OUT.
 * Returns 0, or -1 (*@lo, *@hi NAN) where stats_welch_ttest() is undefined.
 */
int stats_welch_ci(const double *a, size_t na, const double *b, size_t nb, double level,
		   double *lo, double *hi);

/**
 * stats_bh_adjust - Benjamini-Hochberg adjusted p-values (the false
 * discovery rate step-up rule, Benjamini & Hochberg 1995; R's
 * p.adjust(method = "BH")): with the m finite values of @p ranked
 * ascending, p_(i) becomes min over j >= i of min(1, m p_(j) / j).  A NAN
 * in @p (no test) is not counted in m and stays NAN in @out.
 * @p: IN, @n values; @out: OUT, @n values (may be @p itself).
 * Returns m, the number of tests counted.
 */
size_t stats_bh_adjust(const double *p, size_t n, double *out);

/* The size of a buffer that holds any stats_p_text() result. */
#define STATS_P_TEXT_LEN 24

/**
 * stats_p_text - @p as printed beside a significance threshold: "%.2g",
 * with more significant digits (up to 6) where two would carry it across
 * @alpha (p = 0.0996 against 0.1 prints "0.0996", not "0.1", which would
 * read as not below it; p = 0.1004 prints "0.1", on its side): a printed p
 * says on which side of @alpha it is, as the test decided.  NAN prints "nan".
 * @buf: OUT, STATS_P_TEXT_LEN bytes, owned by the caller.
 * Returns @buf.
 */
const char *stats_p_text(char *buf, double p, double alpha);

/* The resamples of stats_bootstrap_ci() and the seed of its generator. */
#define STATS_BOOTSTRAP_N 10000
#define STATS_BOOTSTRAP_SEED 1

/**
 * stats_bootstrap_ci - percentile bootstrap interval, at level @level, of
 * mean(@b) - mean(@a): STATS_BOOTSTRAP_N times, @na values drawn from @a
 * with replacement, then @nb from @b, each index the next splitmix64 number
 * (Steele, Lea, Flood 2014; state seeded STATS_BOOTSTRAP_SEED, so the same
 * values give the same interval) modulo the count; the differences of the
 * resamples' means sorted, *@lo the k-th smallest with k = ceil(N (1 -
 * level) / 2), *@hi the ceil(N (1 + level) / 2)-th (nearest rank).
 * Returns 0, or -1 (*@lo, *@hi NAN) when a side has fewer than two values
 * or memory ran out (no message).
 */
int stats_bootstrap_ci(const double *a, size_t na, const double *b, size_t nb, double level,
		       double *lo, double *hi);

/**
 * stats_tukey_keep - copy into @out the values of @sorted[0..@n-1]
 * (ascending) inside Tukey's fences, [Q1 - 1.5 IQR, Q3 + 1.5 IQR], with Q1
 * and Q3 the nearest-rank 25th and 75th percentiles (stats_percentile()).
 * Returns how many were kept (the others are the outliers).
 */
size_t stats_tukey_keep(const double *sorted, size_t n, double *out);

/**
 * stats_gain_pct - the percentage gain of @new_v over @base, positive when
 * better, as mmtests' Stat.pm pndiff (lower is better: 100 - new*100/base)
 * and pdiff (higher is better: new*100/base - 100); 0 when equal (both 0
 * too).  Where mmtests puts a made-up number this gives the formula's own
 * value: a @base of 0 under a different @new_v is -INFINITY when lower is
 * better and new > 0 (pndiff says -99), +INFINITY when higher is better
 * (pdiff says 100); higher is better with @new_v 0 is -100 (pdiff says 0).
 * The caller prints an infinite gain as such and says why (compare.c).
 */
double stats_gain_pct(double new_v, double base, bool higher_is_better);

/**
 * stats_ci_differ - mmtests' significance rule since November 2024
 * (compare-mmtests.pl --print-significance; Stat.pm cidiff, _calc_meanci
 * with Summarise.pm's alpha 0.05): each side's interval is mean +/- z * s,
 * z = 1.959964 (the normal quantile qnorm(0.975)) and s the sample stddev
 * of the values themselves (not of their mean: s, not s/sqrt(n)); @mean_a,
 * @s_a, @mean_b, @s_b give them.  cidiff = (mean_b - mean_a) / (the two
 * half-widths facing each other), or mean_b - mean_a when both are 0.
 * @cidiff: OUT.  Returns 1 when |cidiff| > 1 (the intervals do not
 * overlap), 0 when they do, -1 (*@cidiff NAN) when a stddev is NAN (fewer
 * than two values: mmtests has no interval then).
 */
int stats_ci_differ(double mean_a, double s_a, double mean_b, double s_b, double *cidiff);

#endif /* VR_STATS_H */
