// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the chart data (src/chart/chart-data.c, chart-metrics.c) and of
 * the cairo rendering (src/render-*.c) on a fabricated database.  The
 * expected numbers are worked out by hand from the rows inserted below
 * (comments next to each expectation show the arithmetic).
 *
 * `test-chart --fixture PATH` only writes the fixture database to PATH, for
 * the end-to-end test tests/t5000-chart.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <math.h>

#include "chart-data.h"
#include "render-cairo.h"
#include "render-cairo-kit.h"
#include "store.h"
#include "vr.h"

#define S(x) ((long long)((x) * 1e9 + 0.5))	/* seconds -> ns */

/*
 * Runs 1 and 2 are kernel "4.11.0-vanilla" iterations 1 and 2, run 3 is
 * "4.11.0-patched".  Run 1 lasts from 1 s to 11 s (10 s).  All timeline rows
 * are in run 1, node 0; kswapd0 is pid 50, the allocating task pid 100.
 */
static const char fixture_sql[] =
	"INSERT INTO run (id, kernel, iteration, source_path, source_format, content_sha256,"
	" first_ts_ns, last_ts_ns, loaded_at) VALUES"
	" (1, '4.11.0-vanilla', 1, 'a1.dat', 'trace.dat', 'h1', 1000000000, 11000000000, 'x'),"
	" (2, '4.11.0-vanilla', 2, 'a2.dat', 'trace.dat', 'h2', 0, 5000000000, 'x'),"
	" (3, '4.11.0-patched', 1, 'b1.dat', 'trace.dat', 'h3', 0, 5000000000, 'x');"
	"INSERT INTO task (run_id, pid, comm) VALUES (1, 50, 'kswapd0'), (1, 100, 'alloc');"
	/* kswapd cycles, absolute seconds: wake, last activity, sleep, next wake */
	"INSERT INTO kswapd_cycle (run_id, nid, pid, wake_ns, last_activity_ns, sleep_ns,"
	" next_wake_ns, decision, premature, complete) VALUES"
	" (1, 0, 50, 2000000000, 2500000000, 2600000000, 4000000000, 'full_sleep', 1, 1),"
	" (1, 0, 50, 4000000000, 4200000000, NULL, 4250000000, 'nap_woken_early', 0, 1),"
	" (1, 0, 50, 4250000000, 5000000000, NULL, 6000000000, 'nap_timed_out', 0, 1),"
	" (1, 0, 50, 6000000000, NULL, NULL, NULL, 'unknown', 0, 0),"
	" (3, 0, 60, 1000000000, 1200000000, NULL, 1300000000, 'no_nap', 0, 1);"
	/* run 3's kernel: the model could not infer flags (src/model/model-flags.c) */
	"INSERT INTO run_quality VALUES (3, 'pgdat_flag_not_inferred', 1, 'MGLRU'),"
	" (1, 'pgdat_flag_rule', 1, '4.12-4.16 per-call');"
	/* imported simoop-style latencies of run 1: two reports and final stats */
	"INSERT INTO app_latency (run_id, operation, sample, value) VALUES (1, 'p95-Write', 0, 100), (1, 'p95-Write', 1, 200),"
	" (1, 'max-Write', 0, 900), (1, 'final-p95-Write', 0, 150);"
	"INSERT INTO pgdat_flag (run_id, nid, flag, set_ns, clear_ns, rule, evidence) VALUES"
	" (1, 0, 'PGDAT_WRITEBACK', 3000000000, 4000000000, '4.12-4.16 per-call', 'x'),"
	" (1, 0, 'PGDAT_WRITEBACK', 8000000000, NULL, '4.12-4.16 per-call', 'x');"
	/* direct reclaim stalls: run 1 2 ms and 20 ms (+ one incomplete, + one
	 * memcg), run 2 1, 3 and 5 ms, run 3 0.5 ms */
	"INSERT INTO reclaim_stall (run_id, kind, pid, begin_ns, end_ns, duration_ns,"
	" complete) VALUES"
	" (1, 'direct', 100, 3500000000, 3502000000, 2000000, 1),"
	" (1, 'direct', 100, 7000000000, 7020000000, 20000000, 1),"
	" (1, 'direct', 100, 10900000000, NULL, NULL, 0),"
	" (1, 'memcg', 100, 5000000000, 5001000000, 1000000, 1),"
	" (2, 'direct', 7, 1000000000, 1001000000, 1000000, 1),"
	" (2, 'direct', 7, 2000000000, 2003000000, 3000000, 1),"
	" (2, 'direct', 7, 3000000000, 3005000000, 5000000, 1),"
	" (3, 'direct', 9, 1000000000, 1000500000, 500000, 1);"
	/* shrink_inactive: kswapd 32 + 32 pages at 2.05 s and 2.07 s, the
	 * allocator 10 pages at 3.51 s (absolute); rows of lru_call without
	 * an isolate (the time in shrink_offset_ns, the cpu in shrink_cpu),
	 * the view mm_vmscan_lru_shrink_inactive's rows */
	"INSERT INTO lru_call (run_id, shrink_offset_ns, shrink_cpu, pid, nid, shrink_nr_scanned,"
	" nr_reclaimed) VALUES"
	" (1, 2050000000, 0, 50, 0, 64, 32),"
	" (1, 2070000000, 0, 50, 0, 64, 32),"
	" (1, 3510000000, 1, 100, 0, 20, 10);";

static int write_fixture(const char *path)
{
	struct store *s;
	int ret;

	unlink(path);
	s = store_open(path, STORE_RW);
	if (!s)
		return -1;
	ret = store_exec(s, fixture_sql, "fixture");
	store_close(s);
	return ret;
}

static char dbpath[128], dir[64];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/vr-chart-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(dbpath, sizeof(dbpath), "%s/f.db", dir);
	return write_fixture(dbpath);
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* The dump of @t as a string (caller frees). */
static char *timeline_text(const struct chart_timeline *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	chart_timeline_dump(t, f);
	fclose(f);
	return buf;
}

static void test_timeline(void **state)
{
	/* relative seconds = absolute - 1 s; bin = 0.1 s for a 10 s window */
	static const char want[] =
		"timeline run 1 kernel 4.11.0-vanilla iteration 1 duration_s 10\n"
		"window_s 0 10 bin_s 0.1\n"
		/* the legend: what the lines below draw */
		"legend awake napping asleep unknown premature WRITEBACK stall_direct stall_memcg"
		" rate_kswapd rate_others\n"
		"node 0\n"
		"kswapd unknown 0 1\n"		/* before the first wake */
		"kswapd awake 1 1.5\n"
		"kswapd napping 1.5 1.6\n"	/* full sleep: nap until kswapd_sleep */
		"kswapd asleep 1.6 3\n"
		"kswapd awake 3 3.2\n"
		"kswapd napping 3.2 3.25\n"	/* nap woken early */
		"kswapd awake 3.25 4\n"
		"kswapd napping 4 5\n"		/* nap timed out */
		"kswapd awake 5 5\n"		/* no activity after the last wake */
		"kswapd unknown 5 10\n"		/* no next wake: unknown to the end */
		"premature 1.6\n"
		"flag PGDAT_DIRTY note never set\n"
		"flag PGDAT_WRITEBACK set 2 3\n"
		"flag PGDAT_WRITEBACK set 7 10\n"	/* still set at the end */
		"flag CONGESTED note never set\n"
		"stall 2.5 2 direct\n"			/* 2 ms at 3.5 s absolute */
		"stall 4 1 memcg\n"			/* 1 ms at 5 s: memcg stalls are drawn too */
		"stall 6 20 direct\n"
		"rate 1 kswapd 640 direct 0\n"	/* (32 + 32) pages / 0.1 s in bin [1, 1.1) */
		"rate 2.5 kswapd 0 direct 100\n";	/* 10 pages / 0.1 s */
	struct chart_timeline_opts o = { .run_id = 1, .nid = -1, .from_s = 0, .to_s = -1 };
	struct store *s = store_open(dbpath, STORE_RDONLY);
	struct chart_timeline t;
	char *got;

	(void)state;
	assert_non_null(s);
	assert_int_equal(chart_timeline_build(s, &o, &t), 0);
	got = timeline_text(&t);
	assert_string_equal(got, want);
	free(got);
	chart_timeline_release(&t);
	store_close(s);
}

static void test_timeline_window(void **state)
{
	/* window 1.55..3.1 s: spans clipped, the stall at 2.5 s kept, bin 0.02 s
	 * (1.55 s / 100 = 0.0155 -> 0.02); last bin [3.09, 3.1) is 0.01 s wide */
	static const char want[] =
		"timeline run 1 kernel 4.11.0-vanilla iteration 1 duration_s 10\n"
		"window_s 1.55 3.1 bin_s 0.02\n"
		"legend awake napping asleep premature WRITEBACK stall_direct rate_others\n"
		"node 0\n"
		"kswapd napping 1.55 1.6\n"
		"kswapd asleep 1.6 3\n"
		"kswapd awake 3 3.1\n"
		"premature 1.6\n"
		"flag PGDAT_DIRTY note never set\n"
		"flag PGDAT_WRITEBACK set 2 3\n"
		"flag CONGESTED note never set\n"
		"stall 2.5 2 direct\n"
		"rate 2.51 kswapd 0 direct 500\n";	/* 10 pages / 0.02 s; bin 48 */
	struct chart_timeline_opts o = { .run_id = 1, .nid = 0, .from_s = 1.55, .to_s = 3.1 };
	struct store *s = store_open(dbpath, STORE_RDONLY);
	struct chart_timeline t;
	char *got;

	(void)state;
	assert_int_equal(chart_timeline_build(s, &o, &t), 0);
	got = timeline_text(&t);
	assert_string_equal(got, want);
	free(got);
	chart_timeline_release(&t);
	store_close(s);
}

static void test_timeline_errors(void **state)
{
	struct chart_timeline_opts o = { .run_id = 9, .nid = -1, .to_s = -1 };
	struct store *s = store_open(dbpath, STORE_RDONLY);
	struct chart_timeline t;

	(void)state;
	assert_int_equal(chart_timeline_build(s, &o, &t), -1);	/* no run 9 */
	o.run_id = 1;
	o.nid = 3;
	assert_int_equal(chart_timeline_build(s, &o, &t), -1);	/* no node 3 */
	o.nid = -1;
	o.from_s = 5;
	o.to_s = 4;
	assert_int_equal(chart_timeline_build(s, &o, &t), -1);	/* empty window */
	/* run 2 has no node data: a timeline with no nodes, not an error */
	o = (struct chart_timeline_opts){ .run_id = 2, .nid = -1, .to_s = -1 };
	assert_int_equal(chart_timeline_build(s, &o, &t), 0);
	assert_int_equal(t.nnodes, 0);
	chart_timeline_release(&t);
	store_close(s);
}

static void test_timeline_not_inferable(void **state)
{
	/* run 3 (0..5 s): kswapd awake 1.0..1.2 s, then no nap until 1.3 s */
	static const char want[] =
		"timeline run 3 kernel 4.11.0-patched iteration 1 duration_s 5\n"
		"window_s 0 5 bin_s 0.05\n"
		"legend awake unknown stall_direct\n"	/* no rate line: nothing reclaimed */
		"node 0\n"
		"kswapd unknown 0 1\n"
		"kswapd awake 1 1.2\n"
		"kswapd awake 1.2 1.3\n"
		"kswapd unknown 1.3 5\n"
		"flag PGDAT_DIRTY note not inferable for this kernel\n"
		"flag PGDAT_WRITEBACK note not inferable for this kernel\n"
		"flag CONGESTED note not inferable for this kernel\n"
		"stall 1 0.5 direct\n";
	struct chart_timeline_opts o = { .run_id = 3, .nid = -1, .to_s = -1 };
	struct store *s = store_open(dbpath, STORE_RDONLY);
	struct chart_timeline t;
	char *got;

	(void)state;
	assert_int_equal(chart_timeline_build(s, &o, &t), 0);
	got = timeline_text(&t);
	assert_string_equal(got, want);
	free(got);
	chart_timeline_release(&t);
	store_close(s);
}

static void test_bin_width(void **state)
{
	(void)state;
	assert_float_equal(chart_bin_width(10), 0.1, 1e-12);
	assert_float_equal(chart_bin_width(60), 1, 1e-12);	/* 0.6 -> 1 */
	assert_float_equal(chart_bin_width(150), 2, 1e-12);	/* 1.5 -> 2 */
	assert_float_equal(chart_bin_width(0.3), 0.005, 1e-12);	/* 0.003 -> 0.005 */
	assert_float_equal(chart_bin_width(0.01), 0.001, 1e-12);	/* floor 1 ms */
}

static void test_candle(void **state)
{
	/* 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sum of squares 32, sd sqrt(32/7) = 2.13809 */
	static const double v[] = { 4, 2, 4, 5, 4, 9, 7, 5 };
	struct chart_candle c;

	(void)state;
	chart_candle_set(&c, v, 8);
	assert_int_equal(c.n, 8);
	assert_float_equal(c.mean, 5, 1e-12);
	assert_float_equal(c.stddev, 2.138089935, 1e-8);
	assert_float_equal(c.box_lo, 2.861910065, 1e-8);
	assert_float_equal(c.box_hi, 7.138089935, 1e-8);
	assert_float_equal(c.min, 2, 0);
	assert_float_equal(c.max, 9, 0);
	/* 1 and 100: sd 70.0036 > mean - min, so the box is clipped to [1, 100] */
	chart_candle_set(&c, (const double[]){ 1, 100 }, 2);
	assert_float_equal(c.box_lo, 1, 0);
	assert_float_equal(c.box_hi, 100, 0);
	chart_candle_set(&c, NULL, 0);
	assert_int_equal(c.n, 0);
}

static const struct chart_candle *candle_of(const struct chart_latency *l, const char *pct,
					    const char *kernel)
{
	for (size_t p = 0; p < l->npct; p++)
		for (size_t k = 0; k < l->nkernels; k++)
			if (!strcmp(l->pct[p], pct) && !strcmp(l->kernels[k], kernel))
				return &l->candles[p * l->nkernels + k];
	return NULL;
}

static void test_latency(void **state)
{
	struct store *s = store_open(dbpath, STORE_RDONLY);
	const struct chart_candle *c;
	struct chart_latency l;

	(void)state;
	assert_int_equal(chart_latency_build(s, "DirectReclaim", &l), 0);
	assert_int_equal(l.nkernels, 2);
	assert_string_equal(l.kernels[0], "4.11.0-vanilla");	/* first run id */
	assert_int_equal(l.colour[1], 1);
	assert_int_equal(l.npct, 4);
	assert_string_equal(l.pct[0], "p50");
	assert_string_equal(l.pct[3], "max");
	/* per-run p50 (nearest rank): run 1 {2000, 20000} -> 2000 us, run 2
	 * {1000, 3000, 5000} -> 3000 us; mean 2500, sd sqrt(2 * 500^2) = 707.107,
	 * box 1792.9..3207.1 clipped to 2000..3000 */
	c = candle_of(&l, "p50", "4.11.0-vanilla");
	assert_non_null(c);
	assert_int_equal(c->n, 2);
	assert_float_equal(c->mean, 2500, 1e-9);
	assert_float_equal(c->stddev, 707.1067812, 1e-6);
	assert_float_equal(c->box_lo, 2000, 1e-9);
	assert_float_equal(c->box_hi, 3000, 1e-9);
	/* per-run max 20000 and 5000: mean 12500, sd 10606.60, box 5000..20000 */
	c = candle_of(&l, "max", "4.11.0-vanilla");
	assert_float_equal(c->mean, 12500, 1e-9);
	assert_float_equal(c->stddev, 10606.60172, 1e-4);
	assert_float_equal(c->box_lo, 5000, 1e-9);
	assert_float_equal(c->box_hi, 20000, 1e-9);
	/* one run of 500 us: n 1, stddev 0, everything 500 */
	c = candle_of(&l, "p99", "4.11.0-patched");
	assert_int_equal(c->n, 1);
	assert_float_equal(c->stddev, 0, 0);
	assert_float_equal(c->box_hi, 500, 1e-9);
	chart_latency_release(&l);
	/* a metric without samples: candles with n == 0, not an error */
	assert_int_equal(chart_latency_build(s, "SlabShrink", &l), 0);
	for (size_t i = 0; i < l.npct * l.nkernels; i++)
		assert_int_equal(l.candles[i].n, 0);
	chart_latency_release(&l);
	store_close(s);
}

static void test_latency_imported(void **state)
{
	struct store *s = store_open(dbpath, STORE_RDONLY);
	const struct chart_candle *c;
	struct chart_latency l;

	(void)state;
	assert_int_equal(chart_latency_build(s, "Write", &l), 0);
	assert_int_equal(l.imported, 1);
	assert_int_equal(l.npct, 2);		/* p95 and max, in first-seen order */
	assert_string_equal(l.pct[0], "p95");
	assert_string_equal(l.pct[1], "max");
	/* every report is a value: 100 and 200, mean 150, sd 70.71 */
	c = candle_of(&l, "p95", "4.11.0-vanilla");
	assert_int_equal(c->n, 2);
	assert_float_equal(c->mean, 150, 1e-9);
	assert_float_equal(c->stddev, 70.71067812, 1e-6);
	assert_int_equal(candle_of(&l, "p95", "4.11.0-patched")->n, 0);
	chart_latency_release(&l);
	assert_int_equal(chart_latency_build(s, "final-Write", &l), 0);
	assert_int_equal(l.npct, 1);
	assert_float_equal(candle_of(&l, "p95", "4.11.0-vanilla")->mean, 150, 1e-9);
	chart_latency_release(&l);
	store_close(s);
}

static void test_cdf(void **state)
{
	struct store *s = store_open(dbpath, STORE_RDONLY);
	struct chart_cdf c;

	(void)state;
	assert_int_equal(chart_cdf_build(s, "DirectReclaim", &c), 0);
	assert_int_equal(c.nseries, 2);
	/* vanilla: 2000, 20000 (run 1) and 1000, 3000, 5000 (run 2), sorted */
	assert_int_equal(c.series[0].n, 5);
	assert_float_equal(c.series[0].x[0], 1000, 1e-9);
	assert_float_equal(c.series[0].x[2], 3000, 1e-9);
	assert_float_equal(c.series[0].x[4], 20000, 1e-9);
	assert_int_equal(c.series[1].n, 1);
	assert_float_equal(c.series[1].x[0], 500, 1e-9);
	chart_cdf_release(&c);
	assert_int_equal(chart_cdf_build(s, "NoSuchMetric", &c), -1);
	store_close(s);
}

static void test_metric_names(void **state)
{
	struct store *s = store_open(dbpath, STORE_RDONLY);
	char **names;
	size_t n;

	(void)state;
	assert_int_equal(chart_metric_names(s, &names, &n), 0);
	/* direct stalls, the memcg stall of run 1, and one full sleep with
	 * both wake and sleep (2.0 -> 2.6 s, KswapdAwake); in metrics.h order */
	assert_int_equal(n, 5);
	assert_string_equal(names[0], "DirectReclaim");
	assert_string_equal(names[1], "MemcgReclaim");
	assert_string_equal(names[2], "KswapdAwake");
	/* imported operations grouped by the name without the percentile */
	assert_string_equal(names[3], "Write");
	assert_string_equal(names[4], "final-Write");
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	store_close(s);
}

/* resolve @name; assert the return value and the resolved metric */
static void check_resolve(struct store *s, const char *name, int need_trace, int want_ret,
			  const char *want)
{
	char *got = (char *)"unset";

	assert_int_equal(chart_metric_resolve(s, name, need_trace, &got), want_ret);
	if (want) {
		assert_non_null(got);
		assert_string_equal(got, want);
	} else {
		assert_null(got);
	}
	free(got);
}

static void test_metric_resolve(void **state)
{
	struct store *s = store_open(dbpath, STORE_RDONLY);

	(void)state;
	/* trace metrics, with or without samples in the fixture */
	check_resolve(s, "DirectReclaim", 1, 0, "DirectReclaim");
	check_resolve(s, "SlabShrink", 0, 0, "SlabShrink");
	/* imported: p95-Write and max-Write are metric Write, final-p95-Write
	 * is final-Write */
	check_resolve(s, "Write", 0, 0, "Write");
	check_resolve(s, "final-Write", 0, 0, "final-Write");
	/* operation names as compare prints them map to their metric */
	check_resolve(s, "p95-Write", 0, 0, "Write");
	check_resolve(s, "final-p95-Write", 0, 0, "final-Write");
	check_resolve(s, "max-DirectReclaim", 1, 0, "DirectReclaim");
	/* unknown names and wrong case: usage errors */
	check_resolve(s, "Nope", 0, -2, NULL);
	check_resolve(s, "directreclaim", 0, -2, NULL);
	check_resolve(s, "p95-Nope", 0, -2, NULL);
	check_resolve(s, "Read", 0, -2, NULL);	/* not imported in this database */
	/* the distribution needs a trace metric */
	check_resolve(s, "Write", 1, -2, NULL);
	check_resolve(s, "p95-Write", 1, -2, NULL);
	store_close(s);
}

/* --- the drawing kit: tick labels and axis ranges --- */

static void test_kit_axes(void **state)
{
	struct rk_axis a = { .p0 = 500, .p1 = 100 };	/* 400 px: 8 ticks wanted */
	double t[32];
	char buf[32];
	int n;

	(void)state;
	rk_fmt(buf, sizeof(buf), 2500);
	assert_string_equal(buf, "2.5k");
	rk_fmt(buf, sizeof(buf), 1.2e6);
	assert_string_equal(buf, "1.2M");
	rk_fmt(buf, sizeof(buf), 0.5);
	assert_string_equal(buf, "0.5");
	rk_fmt(buf, sizeof(buf), 0);
	assert_string_equal(buf, "0");
	/* 0..7.3 from zero: step 7.3 / 5 = 1.46 -> 2, so 0..8 */
	rk_axis_fit(&a, 3, 7.3, true);
	assert_float_equal(a.lo, 0, 0);
	assert_float_equal(a.hi, 8, 1e-12);
	/* ticks every 8 / 8 = 1: 0, 1, ..., 8 */
	n = rk_ticks(&a, t, 32);
	assert_int_equal(n, 9);
	assert_float_equal(t[8], 8, 1e-12);
	assert_float_equal(rk_map(&a, 4), 300, 1e-9);	/* half way up */
	/* log: 0.03..250 -> decades 0.01..1000, one tick per decade */
	a.log = true;
	rk_axis_fit(&a, 0.03, 250, false);
	assert_float_equal(a.lo, 0.01, 1e-15);
	assert_float_equal(a.hi, 1000, 1e-9);
	n = rk_ticks(&a, t, 32);
	assert_int_equal(n, 6);
	assert_float_equal(t[2], 1, 1e-12);
	assert_float_equal(rk_map(&a, 1), 500 - 400 * 2.0 / 5, 1e-9);	/* 2 of 5 decades */
}

/* --- rendering: every kind to every format, checked by file signature --- */

static void check_file(const char *path, const char *fmt, int w, int h)
{
	unsigned char buf[4096];
	FILE *f = fopen(path, "rb");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	if (!strcmp(fmt, "png")) {
		/* signature, then the IHDR chunk: width and height big-endian */
		assert_true(n > 24);
		assert_memory_equal(buf, "\x89PNG\r\n\x1a\n", 8);
		assert_memory_equal(buf + 12, "IHDR", 4);
		assert_int_equal((buf[16] << 24) | (buf[17] << 16) | (buf[18] << 8) | buf[19], w);
		assert_int_equal((buf[20] << 24) | (buf[21] << 16) | (buf[22] << 8) | buf[23], h);
	} else if (!strcmp(fmt, "svg")) {
		assert_non_null(strstr((char *)buf, "<svg"));
	} else {
		assert_memory_equal(buf, "%PDF-", 5);
	}
}

static void test_render_all(void **state)
{
	static const char *const fmts[] = { "png", "svg", "pdf" };
	struct store *s = store_open(dbpath, STORE_RDONLY);
	struct chart_timeline_opts to = { .run_id = 1, .nid = -1, .to_s = -1 };
	struct chart_timeline t;
	struct chart_latency l;
	struct chart_cdf c;
	char path[128];

	(void)state;
	assert_int_equal(chart_timeline_build(s, &to, &t), 0);
	assert_int_equal(chart_latency_build(s, "DirectReclaim", &l), 0);
	assert_int_equal(chart_cdf_build(s, "DirectReclaim", &c), 0);
	for (size_t i = 0; i < 3; i++) {
		struct render_chart_opts o = { .path = path, .width = 640, .height = 480 };

		snprintf(path, sizeof(path), "%s/t.%s", dir, fmts[i]);
		assert_int_equal(render_chart_timeline(&t, &o), 0);
		check_file(path, fmts[i], 640, 480);
		snprintf(path, sizeof(path), "%s/l.%s", dir, fmts[i]);
		assert_int_equal(render_chart_latency(&l, &o), 0);
		check_file(path, fmts[i], 640, 480);
		snprintf(path, sizeof(path), "%s/c.%s", dir, fmts[i]);
		assert_int_equal(render_chart_cdf(&c, &o), 0);
		check_file(path, fmts[i], 640, 480);
	}
	chart_timeline_release(&t);
	chart_latency_release(&l);
	chart_cdf_release(&c);
	store_close(s);
}

static void test_render_errors(void **state)
{
	struct chart_cdf c = { 0 };
	struct render_chart_opts o = { .path = "/tmp/x.gif", .width = 800, .height = 600 };

	(void)state;
	assert_null(render_chart_format("a.gif"));
	assert_string_equal(render_chart_format("A.PNG"), "png");
	assert_null(render_chart_format("dir.svg/x"));
	assert_int_equal(render_chart_cdf(&c, &o), -1);		/* unknown format */
	o.path = "/nonexistent-dir/x.png";
	assert_int_equal(render_chart_cdf(&c, &o), -1);		/* cannot write */
	o.path = "/tmp/x.png";
	o.width = 100;
	assert_int_equal(render_chart_cdf(&c, &o), -1);		/* too small */
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_timeline),
		cmocka_unit_test(test_timeline_window),
		cmocka_unit_test(test_timeline_errors),
		cmocka_unit_test(test_timeline_not_inferable),
		cmocka_unit_test(test_bin_width),
		cmocka_unit_test(test_candle),
		cmocka_unit_test(test_latency),
		cmocka_unit_test(test_latency_imported),
		cmocka_unit_test(test_cdf),
		cmocka_unit_test(test_metric_names),
		cmocka_unit_test(test_metric_resolve),
		cmocka_unit_test(test_kit_axes),
		cmocka_unit_test(test_render_all),
		cmocka_unit_test(test_render_errors),
	};

	if (argc == 3 && !strcmp(argv[1], "--fixture"))
		return write_fixture(argv[2]) ? 1 : 0;
	return cmocka_run_group_tests(tests, setup, teardown);
}
