// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/stats.c.  Every expected value was computed outside
 * this code: by hand, with python3's statistics module, or (t-test
 * p-values) with mpmath's regularized incomplete beta function:
 *   p = betainc(df/2, 1/2, 0, df/(df+t^2), regularized=True)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "stats.h"

#define NEAR(x, want, tol) assert_true(fabs((x) - (want)) <= (tol))

static const double a[] = { 1.2, 3.4, 2.2, 5.0, 4.1 };
static const double b[] = { 6.3, 7.1, 5.9, 8.8 };

static void test_percentile_nearest_rank(void **state)
{
	/* Wikipedia "Percentile", nearest-rank method example */
	const double v[] = { 15, 20, 35, 40, 50 };

	(void)state;
	assert_true(stats_percentile(v, 5, 5) == 15);
	assert_true(stats_percentile(v, 5, 30) == 20);
	assert_true(stats_percentile(v, 5, 40) == 20);
	assert_true(stats_percentile(v, 5, 50) == 35);
	assert_true(stats_percentile(v, 5, 95) == 50);
	assert_true(stats_percentile(v, 5, 100) == 50);
	assert_true(isnan(stats_percentile(v, 0, 50)));
	/* one sample: every percentile is that sample */
	assert_true(stats_percentile(v, 1, 1) == 15);
}

static void test_sort(void **state)
{
	double v[] = { 3, -1, 2.5, 10, 0 };

	(void)state;
	stats_sort(v, 5);
	assert_true(v[0] == -1 && v[1] == 0 && v[2] == 2.5 && v[3] == 3 && v[4] == 10);
}

static void test_means_and_spread(void **state)
{
	(void)state;
	/* python3: statistics.mean/harmonic_mean/stdev */
	NEAR(stats_mean(a, 5), 3.18, 1e-12);
	NEAR(stats_hmean(a, 5), 2.468040268081901, 1e-12);
	NEAR(stats_stddev(a, 5), 1.50731549451334, 1e-12);
	NEAR(stats_coeffvar(a, 5), 47.3998583180296, 1e-9);
	assert_true(stats_min(a, 5) == 1.2);
	assert_true(stats_max(a, 5) == 5.0);
	assert_true(stats_stddev(a, 1) == 0);
	assert_true(isnan(stats_mean(a, 0)));
	const double z[] = { 1, 0, 2 };
	assert_true(isnan(stats_hmean(z, 3)));
}

static void test_bamean(void **state)
{
	const double best_first[] = { 1.2, 2.2, 3.4, 4.1, 5.0 };

	(void)state;
	/* floor(5*0.95) = 4 values: (1.2+2.2+3.4+4.1)/4 = 2.725 */
	NEAR(stats_bamean(best_first, 5, 95), 2.725, 1e-12);
	/* floor(2.5) = 2 values: 1.7 */
	NEAR(stats_bamean(best_first, 5, 50), 1.7, 1e-12);
	/* floor(0.5) = 0, at least one value */
	NEAR(stats_bamean(best_first, 5, 10), 1.2, 1e-12);
	NEAR(stats_bamean(best_first, 5, 100), 3.18, 1e-12);
}

static void test_welch(void **state)
{
	struct stats_ttest t;

	(void)state;
	assert_int_equal(stats_welch_ttest(a, 5, b, 4, &t), 0);
	NEAR(t.t, -4.13013296723, 1e-9);
	NEAR(t.df, 6.93706444482, 1e-9);
	NEAR(t.p, 0.00449026170882, 1e-10);

	const double c[] = { 21670074.18, 22668332.52, 20464344.18 };
	const double d[] = { 19786774.76, 24101956.27, 27691872.71 };

	assert_int_equal(stats_welch_ttest(c, 3, d, 3, &t), 0);
	NEAR(t.t, -0.952331120564, 1e-9);
	NEAR(t.df, 2.30910860641, 1e-9);
	NEAR(t.p, 0.4296655154, 1e-9);
	/* undefined: one value on a side, or no variance at all */
	assert_int_equal(stats_welch_ttest(a, 1, b, 4, &t), -1);
	assert_true(isnan(t.p));
	const double k[] = { 2, 2, 2 };
	assert_int_equal(stats_welch_ttest(k, 3, k, 3, &t), -1);
}

/* mmtests Pctile: element max(1, floor(n*NN/100)) of the best-first list;
 * stats_percentile() (nearest rank) takes ceil. */
static void test_pctile_rounds_down(void **state)
{
	const double v[] = { 10, 11, 12, 13 };
	const double desc[] = { 13, 12, 11, 10 };	/* higher is better */

	(void)state;
	assert_true(stats_pctile(v, 4, 95) == 12);	/* floor(3.8) = 3 */
	assert_true(stats_percentile(v, 4, 95) == 13);	/* ceil(3.8) = 4 */
	assert_true(stats_pctile(v, 4, 75) == 12);	/* 3 */
	assert_true(stats_pctile(v, 4, 50) == 11);	/* 2 */
	assert_true(stats_pctile(v, 4, 10) == 10);	/* floor(0.4) = 0 -> 1 */
	assert_true(stats_pctile(v, 4, 100) == 13);
	assert_true(stats_pctile(desc, 4, 95) == 11);	/* counts from the top */
	assert_true(isnan(stats_pctile(v, 0, 95)));
}

/* python3: statistics.harmonic_mean, then sqrt(sum((1/x-1/H)^2)*H^4/n) */
static void test_hstddev(void **state)
{
	const double v[] = { 1, 2, 4 }, bad[] = { 1, 0 };

	(void)state;
	NEAR(stats_hstddev(v, 3), 0.9163242579854549, 1e-12);
	assert_true(isnan(stats_hstddev(v, 1)));
	assert_true(isnan(stats_hstddev(bad, 2)));
}

/* z = NormalDist().inv_cdf(0.975) = 1.9599639845400536; means and sample
 * stddevs of 10 12 11 13 / 20 22 21 25 / 12 14 11 15.5 by python3. */
static void test_ci_differ(void **state)
{
	double d;

	(void)state;
	assert_int_equal(stats_ci_differ(11.5, 1.2909944487358056, 22, 2.160246899469287, &d), 1);
	NEAR(d, 1.552265042401349, 1e-9);
	assert_int_equal(stats_ci_differ(11.5, 1.2909944487358056, 13.125, 2.0155644370746373,
					 &d), 0);
	NEAR(d, 0.2507431127449436, 1e-9);
	/* zero widths: cidiff is the difference itself (Stat.pm cidiff) */
	assert_int_equal(stats_ci_differ(5, 0, 6, 0, &d), 0);
	NEAR(d, 1, 0);
	assert_int_equal(stats_ci_differ(5, 0, 7, 0, &d), 1);
	assert_int_equal(stats_ci_differ(5, NAN, 7, 1, &d), -1);
	assert_true(isnan(d));
}

static void test_gain(void **state)
{
	(void)state;
	/* python3: 100 - new*100/base; seed tables: 21670074.18 -> 22668332.52 is -4.61%, 412901.57 -> 1362.62 +99.67% */
	NEAR(stats_gain_pct(22668332.52, 21670074.18, false), -4.606621701929, 1e-9);
	NEAR(stats_gain_pct(1362.62, 412901.57, false), 99.669989145355, 1e-9);
	/* higher is better: 110 over 100 is +10% */
	NEAR(stats_gain_pct(110, 100, true), 10, 1e-12);
	/* edge cases: equal, and a zero on either side, worked out from the
	 * formulas (mmtests' pndiff/pdiff print -99, 100 and 0 for the last three) */
	assert_true(stats_gain_pct(5, 5, false) == 0);
	assert_true(stats_gain_pct(0, 0, false) == 0);
	assert_true(stats_gain_pct(0, 0, true) == 0);
	assert_true(stats_gain_pct(0, 5, false) == 100);
	assert_true(isinf(stats_gain_pct(5, 0, false)) && stats_gain_pct(5, 0, false) < 0);
	assert_true(isinf(stats_gain_pct(5, 0, true)) && stats_gain_pct(5, 0, true) > 0);
	assert_true(stats_gain_pct(0, 5, true) == -100);
}

/*
 * The bootstrap interval: constant sides give their difference whatever is
 * drawn; a = {0, 10}, b = {0}: fewer than two values, none.  a = {0, 10}, b
 * = {0, 0}: each resample's mean of a is 0, 5 or 10 (probabilities 1/4,
 * 1/2, 1/4), so the 5 % and 95 % points of b - a are -10 and 0.
 */
static void test_bootstrap(void **state)
{
	double one[] = { 1, 1 }, three[] = { 3, 3 }, a[] = { 0, 10 }, z[] = { 0, 0 }, lo, hi;

	(void)state;
	assert_int_equal(stats_bootstrap_ci(one, 2, three, 2, 0.9, &lo, &hi), 0);
	assert_true(lo == 2 && hi == 2);
	assert_int_equal(stats_bootstrap_ci(a, 2, z, 1, 0.9, &lo, &hi), -1);
	assert_true(isnan(lo) && isnan(hi));
	assert_int_equal(stats_bootstrap_ci(a, 2, z, 2, 0.9, &lo, &hi), 0);
	assert_true(lo == -10 && hi == 0);
}

/*
 * Benjamini-Hochberg by hand: p = 0.01, 0.04, 0.03, 0.20, NAN (m = 4).
 * Ranked: 0.01 (1), 0.03 (2), 0.04 (3), 0.20 (4); m p / rank: 0.04, 0.06,
 * 0.0533, 0.20; the running minimum from the largest rank: 0.20, 0.0533,
 * min(0.06, 0.0533) = 0.0533, 0.04.  So 0.01 -> 0.04, 0.04 -> 0.0533,
 * 0.03 -> 0.0533, 0.20 -> 0.20, NAN stays.  A value above 1 after scaling
 * is 1: p = 0.9, 0.95 (m = 2): 1.8 -> ... the minimum with 0.95 -> 0.95.
 */
/* p printed beside alpha 0.1: two digits unless they would carry it
 * across (by hand: 0.0996 rounds to "0.1" at %.2g). */
static void test_p_text(void **state)
{
	char buf[STATS_P_TEXT_LEN];

	(void)state;
	assert_string_equal(stats_p_text(buf, 0.0123, 0.1), "0.012");
	assert_string_equal(stats_p_text(buf, 0.0996, 0.1), "0.0996");
	assert_string_equal(stats_p_text(buf, 0.09996, 0.1), "0.09996");
	assert_string_equal(stats_p_text(buf, 0.1004, 0.1), "0.1");	/* not below either way */
	assert_string_equal(stats_p_text(buf, 0.1, 0.1), "0.1");
	assert_string_equal(stats_p_text(buf, 0.25, 0.1), "0.25");
	assert_string_equal(stats_p_text(buf, 0.0496, 0.05), "0.0496");
}

static void test_bh_adjust(void **state)
{
	double p[] = { 0.01, 0.04, 0.03, 0.20, NAN }, q[5];
	double p2[] = { 0.9, 0.95 }, q2[2];

	(void)state;
	assert_int_equal(stats_bh_adjust(p, 5, q), 4);
	assert_float_equal(q[0], 0.04, 1e-12);
	assert_float_equal(q[1], 0.16 / 3, 1e-12);
	assert_float_equal(q[2], 0.16 / 3, 1e-12);
	assert_float_equal(q[3], 0.20, 1e-12);
	assert_true(isnan(q[4]));
	assert_int_equal(stats_bh_adjust(p2, 2, q2), 2);
	assert_float_equal(q2[0], 0.95, 1e-12);
	assert_float_equal(q2[1], 0.95, 1e-12);
	assert_int_equal(stats_bh_adjust(p, 5, p), 4);	/* in place */
	assert_float_equal(p[0], 0.04, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentile_nearest_rank),
		cmocka_unit_test(test_sort),
		cmocka_unit_test(test_means_and_spread),
		cmocka_unit_test(test_bamean),
		cmocka_unit_test(test_welch),
		cmocka_unit_test(test_gain),
		cmocka_unit_test(test_pctile_rounds_down),
		cmocka_unit_test(test_hstddev),
		cmocka_unit_test(test_ci_differ),
		cmocka_unit_test(test_bootstrap),
		cmocka_unit_test(test_bh_adjust),
		cmocka_unit_test(test_p_text),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
