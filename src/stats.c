// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - percentiles, means, spread, BAmean and Welch's t-test.
 * Pure functions; see include/stats.h for the rules and their sources.
 */
#include "stats.h"
#include "vr.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void stats_sort(double *v, size_t n)
{
	size_t i = 1;

	while (i < n && !(v[i] < v[i - 1]))	/* samples often come sorted */
		i++;
	if (i < n)
		qsort(v, n, sizeof(*v), cmp_double);
}

double stats_percentile(const double *sorted, size_t n, double p)
{
	double rank;
	size_t idx;

	if (!n)
		return NAN;
	rank = ceil(p * (double)n / 100.0);
	idx = rank < 1 ? 0 : (size_t)rank - 1;
	return sorted[idx < n ? idx : n - 1];
}

double stats_min(const double *v, size_t n)
{
	double m = n ? v[0] : NAN;

	for (size_t i = 1; i < n; i++)
		if (v[i] < m)
			m = v[i];
	return m;
}

double stats_max(const double *v, size_t n)
{
	double m = n ? v[0] : NAN;

	for (size_t i = 1; i < n; i++)
		if (v[i] > m)
			m = v[i];
	return m;
}

double stats_mean(const double *v, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double stats_hmean(const double *v, size_t n)
{
	double sum = 0;

	if (!n)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return NAN;
		sum += 1.0 / v[i];
	}
	return (double)n / sum;
}

/* Sum of squared deviations from the mean (two-pass, for accuracy). */
static double sum_sq_dev(const double *v, size_t n, double mean)
{
	double ss = 0;

	for (size_t i = 0; i < n; i++)
		ss += (v[i] - mean) * (v[i] - mean);
	return ss;
}

double stats_stddev(const double *v, size_t n)
{
	if (!n)
		return NAN;
	if (n == 1)
		return 0;
	return sqrt(sum_sq_dev(v, n, stats_mean(v, n)) / (double)(n - 1));
}

double stats_coeffvar(const double *v, size_t n)
{
	double mean = stats_mean(v, n);

	if (!n || mean == 0)
		return NAN;
	return stats_stddev(v, n) * 100.0 / mean;
}

size_t stats_best_count(size_t n, double pct)
{
	size_t count = (size_t)floor((double)n * pct / 100.0);

	if (count < 1)
		count = 1;
	return count > n ? n : count;
}

double stats_bamean(const double *best_first, size_t n, double pct)
{
	size_t count = stats_best_count(n, pct);

	if (!n)
		return NAN;
	return stats_mean(best_first, count);
}

double stats_pctile(const double *best_first, size_t n, double pct)
{
	size_t count = stats_best_count(n, pct);

	if (!n)
		return NAN;
	return best_first[count - 1];
}

double stats_hstddev(const double *v, size_t n)
{
	double h = stats_hmean(v, n), ss = 0;

	if (n < 2 || isnan(h))
		return NAN;
	for (size_t i = 0; i < n; i++)
		ss += (1.0 / v[i] - 1.0 / h) * (1.0 / v[i] - 1.0 / h);
	return sqrt(ss * h * h * h * h / (double)n);
}

int stats_ci_differ(double mean_a, double s_a, double mean_b, double s_b, double *cidiff)
{
	double z = gsl_cdf_ugaussian_Pinv(0.975), diff = mean_b - mean_a, sum;

	*cidiff = NAN;
	if (isnan(s_a) || isnan(s_b) || isnan(mean_a) || isnan(mean_b))
		return -1;
	sum = z * s_a + z * s_b;	/* symmetric intervals: the facing halves */
	*cidiff = sum == 0 ? diff : diff / sum;
	return fabs(*cidiff) > 1;
}

int stats_welch_ttest(const double *a, size_t na, const double *b, size_t nb,
		      struct stats_ttest *out)
{
	double ma, mb, va, vb, sa, sb, se2;

	out->t = out->df = out->p = NAN;
	if (na < 2 || nb < 2)
		return -1;
	ma = stats_mean(a, na);
	mb = stats_mean(b, nb);
	va = sum_sq_dev(a, na, ma) / (double)(na - 1);
	vb = sum_sq_dev(b, nb, mb) / (double)(nb - 1);
	sa = va / (double)na;
	sb = vb / (double)nb;
	se2 = sa + sb;
	if (!(se2 > 0))
		return -1;
	out->t = (ma - mb) / sqrt(se2);
	out->df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
	out->p = 2.0 * gsl_cdf_tdist_Q(fabs(out->t), out->df);
	if (out->p > 1)
		out->p = 1;
	return 0;
}

int stats_welch_ci(const double *a, size_t na, const double *b, size_t nb, double level,
		   double *lo, double *hi)
{
	struct stats_ttest t;
	double ma, mb, se, q;

	*lo = *hi = NAN;
	if (stats_welch_ttest(a, na, b, nb, &t))
		return -1;
	ma = stats_mean(a, na);
	mb = stats_mean(b, nb);
	se = (ma - mb) / t.t;	/* t = (ma - mb) / se */
	if (!(se > 0) || !isfinite(se))	/* the means equal: se from the variances */
		se = sqrt(sum_sq_dev(a, na, ma) / (double)(na - 1) / (double)na +
			  sum_sq_dev(b, nb, mb) / (double)(nb - 1) / (double)nb);
	q = gsl_cdf_tdist_Pinv(1.0 - (1.0 - level) / 2.0, t.df);
	*lo = mb - ma - q * se;
	*hi = mb - ma + q * se;
	return 0;
}

size_t stats_tukey_keep(const double *sorted, size_t n, double *out)
{
	double q1 = stats_percentile(sorted, n, 25), q3 = stats_percentile(sorted, n, 75);
	double lo = q1 - 1.5 * (q3 - q1), hi = q3 + 1.5 * (q3 - q1);
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (sorted[i] >= lo && sorted[i] <= hi)
			out[k++] = sorted[i];
	return k;
}

double stats_gain_pct(double new_v, double base, bool higher_is_better)
{
	if (new_v == base)
		return 0;
	/* base 0: new*100/base is +-inf, the honest limit (no percentage) */
	return higher_is_better ? new_v * 100.0 / base - 100.0 : 100.0 - new_v * 100.0 / base;
}

/* splitmix64: the next number of @state (Steele, Lea, Flood 2014). */
static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static int cmp_dbl(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

int stats_bootstrap_ci(const double *a, size_t na, const double *b, size_t nb, double level,
		       double *lo, double *hi)
{
	double *d;
	uint64_t state = STATS_BOOTSTRAP_SEED;
	size_t klo, khi;

	*lo = *hi = NAN;
	if (na < 2 || nb < 2)
		return -1;
	d = malloc(STATS_BOOTSTRAP_N * sizeof(*d));
	if (!d)
		return -1;
	for (size_t i = 0; i < STATS_BOOTSTRAP_N; i++) {
		double sa = 0, sb = 0;

		for (size_t j = 0; j < na; j++)
			sa += a[splitmix64(&state) % na];
		for (size_t j = 0; j < nb; j++)
			sb += b[splitmix64(&state) % nb];
		d[i] = sb / (double)nb - sa / (double)na;
	}
	qsort(d, STATS_BOOTSTRAP_N, sizeof(*d), cmp_dbl);
	klo = (size_t)ceil(STATS_BOOTSTRAP_N * (1 - level) / 2);
	khi = (size_t)ceil(STATS_BOOTSTRAP_N * (1 + level) / 2);
	*lo = d[(klo ? klo : 1) - 1];
	*hi = d[(khi > STATS_BOOTSTRAP_N ? STATS_BOOTSTRAP_N : khi) - 1];
	free(d);
	return 0;
}

/* qsort order of indexes into bh_p: ascending p, ties by index */
static const double *bh_p;

static int bh_cmp(const void *a, const void *b)
{
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (bh_p[i] != bh_p[j])
		return bh_p[i] < bh_p[j] ? -1 : 1;
	return i < j ? -1 : i > j;
}

size_t stats_bh_adjust(const double *p, size_t n, double *out)
{
	size_t *idx = vr_calloc(n + 1, sizeof(*idx)), m = 0;
	double *copy = vr_calloc(n + 1, sizeof(*copy)), run = 1;

	memcpy(copy, p, n * sizeof(*copy));
	for (size_t i = 0; i < n; i++)
		if (!isnan(copy[i]))
			idx[m++] = i;
	bh_p = copy;
	qsort(idx, m, sizeof(*idx), bh_cmp);
	for (size_t i = 0; i < n; i++)
		out[i] = NAN;
	for (size_t r = m; r > 0; r--) {	/* from the largest: running minimum */
		double q = copy[idx[r - 1]] * (double)m / (double)r;

		run = q < run ? q : run;
		out[idx[r - 1]] = run;
	}
	bh_p = NULL;
	free(idx);
	free(copy);
	return m;
}

const char *stats_p_text(char *buf, double p, double alpha)
{
	for (int digits = 2; digits <= 6; digits++) {
		snprintf(buf, STATS_P_TEXT_LEN, "%.*g", digits, p);
		if (isnan(p) || (strtod(buf, NULL) < alpha) == (p < alpha))
			break;
	}
	return buf;
}
