// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the reclaim stall state machine (src/model/model-stall.c): hand
 * built event sequences, expected rows worked out by hand next to each
 * assertion.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model-fixture.h"

static const char *const fmt_618[] = {
	"mm_vmscan_lru_shrink_inactive.nr_dirty", "mm_vmscan_wakeup_kswapd.gfp_flags",
	"mm_vmscan_lru_isolate.highest_zoneidx", "mm_vmscan_throttled", NULL };

static struct model *new_model(struct cap *c)
{
	struct model_sink s = cap_sink(c);
	struct model_config cfg = { .release = "6.18.0", .has_field = fmt_has,
				    .has_field_arg = (void *)fmt_618 };

	return model_create(&cfg, &s);
}

#define DBEGIN(m, ts, cpu, pid, order) FEED(m, "vmscan", "mm_vmscan_direct_reclaim_begin", \
	ts, cpu, pid, "order", I64(order), "gfp_flags", I64(0xcc0))
#define DEND(m, ts, cpu, pid, nr) FEED(m, "vmscan", "mm_vmscan_direct_reclaim_end", \
	ts, cpu, pid, "nr_reclaimed", I64(nr))

static void test_simple_pair(void **state)
{
	struct cap c;
	struct model *m = new_model(&c);

	(void)state;
	DBEGIN(m, 1000, 0, 10, 2);
	DEND(m, 5000, 0, 10, 32);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nstall, 1);
	assert_string_equal(c.stall[0].kind, "direct");
	assert_int_equal(c.stall[0].pid, 10);
	assert_int_equal(c.stall[0].begin_ns, 1000);
	assert_int_equal(c.stall[0].end_ns, 5000);
	assert_int_equal(c.stall[0].duration_ns, 4000);	/* 5000 - 1000 */
	assert_int_equal(c.stall[0].order, 2);
	assert_int_equal(c.stall[0].gfp_flags, 0xcc0);
	assert_int_equal(c.stall[0].nr_reclaimed, 32);
	assert_true(c.stall[0].complete);
	assert_null(c.stall[0].incomplete_reason);
	/* no kswapd event yet: its state is unknown */
	assert_string_equal(c.stall[0].kswapd_state, "unknown");
	assert_int_equal(cap_q(&c, "stalls_direct"), 1);
	assert_int_equal(cap_q(&c, "stall_begin_without_end"), 0);
	model_free(m);
}

/* Two tasks interleaved on two CPUs; task A migrates to CPU 1 before its end. */
static void test_interleaved_cpus(void **state)
{
	struct cap c;
	struct model *m = new_model(&c);

	(void)state;
	DBEGIN(m, 100, 0, 20, 0);	/* A on cpu 0 */
	DBEGIN(m, 150, 1, 21, 1);	/* B on cpu 1 */
	DEND(m, 300, 1, 20, 5);		/* A ends on cpu 1 */
	DEND(m, 400, 0, 21, 6);		/* B ends on cpu 0 */
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nstall, 2);
	/* rows in end order: A (300 - 100 = 200), then B (400 - 150 = 250) */
	assert_int_equal(c.stall[0].pid, 20);
	assert_int_equal(c.stall[0].duration_ns, 200);
	assert_int_equal(c.stall[0].nr_reclaimed, 5);
	assert_int_equal(c.stall[1].pid, 21);
	assert_int_equal(c.stall[1].duration_ns, 250);
	assert_int_equal(c.stall[1].order, 1);
	assert_true(c.stall[0].complete && c.stall[1].complete);
	model_free(m);
}

static void test_lost_inside(void **state)
{
	struct cap c;
	struct model *m = new_model(&c);

	(void)state;
	DBEGIN(m, 100, 0, 30, 0);
	assert_int_equal(model_lost(m, 1, 200, 17), 0);
	DEND(m, 300, 0, 30, 1);
	DBEGIN(m, 400, 0, 30, 0);	/* after the loss: complete again */
	DEND(m, 450, 0, 30, 2);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nstall, 2);
	assert_false(c.stall[0].complete);
	assert_string_equal(c.stall[0].incomplete_reason, "lost_events");
	assert_int_equal(c.stall[0].duration_ns, 200);	/* kept, marked */
	assert_true(c.stall[1].complete);
	assert_int_equal(c.stall[1].duration_ns, 50);
	assert_int_equal(cap_q(&c, "stall_lost_events"), 1);
	assert_int_equal(cap_q(&c, "lost_event_notices"), 1);
	model_free(m);
}

/* A second begin on a pid before its end: lost end or pid reuse. */
static void test_second_begin(void **state)
{
	struct cap c;
	struct model *m = new_model(&c);

	(void)state;
	DBEGIN(m, 100, 0, 7, 0);
	DBEGIN(m, 200, 0, 7, 3);
	DEND(m, 500, 0, 7, 9);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nstall, 2);
	/* the earlier begin, unterminated */
	assert_int_equal(c.stall[0].begin_ns, 100);
	assert_int_equal(c.stall[0].end_ns, MODEL_NULL);
	assert_int_equal(c.stall[0].duration_ns, MODEL_NULL);
	assert_false(c.stall[0].complete);
	assert_string_equal(c.stall[0].incomplete_reason, "second_begin_before_end");
	/* the end pairs with the latest begin: 500 - 200 = 300, order 3 */
	assert_int_equal(c.stall[1].begin_ns, 200);
	assert_int_equal(c.stall[1].duration_ns, 300);
	assert_int_equal(c.stall[1].order, 3);
	assert_int_equal(c.stall[1].nr_reclaimed, 9);
	assert_true(c.stall[1].complete);
	assert_int_equal(cap_q(&c, "stall_second_begin"), 1);
	model_free(m);
}

/* An end at trace start and a begin at trace end are kept, incomplete. */
static void test_trace_edges(void **state)
{
	struct cap c;
	struct model *m = new_model(&c);

	(void)state;
	DEND(m, 50, 0, 40, 11);
	DBEGIN(m, 900, 1, 41, 4);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nstall, 2);
	assert_int_equal(c.stall[0].pid, 40);
	assert_int_equal(c.stall[0].begin_ns, MODEL_NULL);
	assert_int_equal(c.stall[0].end_ns, 50);
	assert_int_equal(c.stall[0].nr_reclaimed, 11);
	assert_string_equal(c.stall[0].incomplete_reason, "end_without_begin");
	assert_int_equal(c.stall[1].pid, 41);
	assert_int_equal(c.stall[1].begin_ns, 900);
	assert_int_equal(c.stall[1].end_ns, MODEL_NULL);
	assert_string_equal(c.stall[1].incomplete_reason, "no_end_at_trace_end");
	assert_false(c.stall[0].complete || c.stall[1].complete);
	assert_int_equal(cap_q(&c, "stall_end_without_begin"), 1);
	assert_int_equal(cap_q(&c, "stall_begin_without_end"), 1);
	model_free(m);
}

/*
 * Soft-limit reclaim nests inside direct reclaim on one task (shrink_zones());
 * node reclaim carries its node, whose kswapd is asleep.
 */
static void test_kinds(void **state)
{
	struct cap c;
	struct model *m = new_model(&c);

	(void)state;
	FEED(m, "vmscan", "mm_vmscan_kswapd_wake", 10, 0, 51, "nid", I64(1), "zid", I64(2),
	     "order", I64(0));
	FEED(m, "vmscan", "mm_vmscan_kswapd_sleep", 20, 0, 51, "nid", I64(1));
	DBEGIN(m, 100, 0, 60, 0);
	FEED(m, "vmscan", "mm_vmscan_memcg_softlimit_reclaim_begin", 110, 0, 60, "order", I64(0),
	     "gfp_flags", I64(0x100cca));
	FEED(m, "vmscan", "mm_vmscan_memcg_softlimit_reclaim_end", 130, 0, 60,
	     "nr_reclaimed", I64(3));
	DEND(m, 200, 0, 60, 8);
	FEED(m, "vmscan", "mm_vmscan_memcg_reclaim_begin", 300, 0, 61, "order", I64(0),
	     "gfp_flags", I64(0xcc0));
	FEED(m, "vmscan", "mm_vmscan_memcg_reclaim_end", 340, 0, 61, "nr_reclaimed", I64(4));
	FEED(m, "vmscan", "mm_vmscan_node_reclaim_begin", 400, 0, 62, "nid", I64(1),
	     "order", I64(1), "gfp_flags", I64(0x400));
	FEED(m, "vmscan", "mm_vmscan_node_reclaim_end", 470, 0, 62, "nr_reclaimed", I64(2));
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nstall, 4);
	assert_string_equal(c.stall[0].kind, "memcg_softlimit");
	assert_int_equal(c.stall[0].duration_ns, 20);	/* 130 - 110 */
	assert_string_equal(c.stall[1].kind, "direct");
	assert_int_equal(c.stall[1].duration_ns, 100);	/* 200 - 100, not cut by the nest */
	assert_string_equal(c.stall[2].kind, "memcg");
	assert_int_equal(c.stall[2].duration_ns, 40);
	assert_string_equal(c.stall[3].kind, "node");
	assert_int_equal(c.stall[3].nid, 1);
	assert_int_equal(c.stall[3].duration_ns, 70);
	assert_string_equal(c.stall[3].kswapd_state, "asleep");	/* node 1 slept at 20 */
	for (int i = 0; i < 4; i++)
		assert_true(c.stall[i].complete);
	assert_int_equal(cap_q(&c, "stalls_memcg_softlimit"), 1);
	assert_int_equal(cap_q(&c, "stalls_node"), 1);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_simple_pair),
		cmocka_unit_test(test_interleaved_cpus),
		cmocka_unit_test(test_lost_inside),
		cmocka_unit_test(test_second_begin),
		cmocka_unit_test(test_trace_edges),
		cmocka_unit_test(test_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
