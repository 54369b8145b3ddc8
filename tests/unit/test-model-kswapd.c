// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the kswapd cycle and wakeup-request state machine
 * (src/model/model-kswapd.c).  Times are in ms (MS()), the nap is the default
 * 100 ms; each expected decision is derived by hand from the gap rules in
 * the file's header comment.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model-fixture.h"

static const char *const fmt_nosched[] = {
	"mm_vmscan_lru_shrink_inactive.nr_dirty", "mm_vmscan_wakeup_kswapd.gfp_flags",
	"mm_vmscan_lru_isolate.highest_zoneidx", NULL };
static const char *const fmt_sched[] = {
	"mm_vmscan_lru_shrink_inactive.nr_dirty", "mm_vmscan_wakeup_kswapd.gfp_flags",
	"mm_vmscan_lru_isolate.highest_zoneidx", "sched_switch", "sched_wakeup", NULL };

static struct model *new_model(struct cap *c, const char *const *fmt)
{
	struct model_sink s = cap_sink(c);
	struct model_config cfg = { .release = "6.18.0", .has_field = fmt_has,
				    .has_field_arg = (void *)fmt };

	return model_create(&cfg, &s);
}

#define WAKE(m, t, pid, nid, order) FEED(m, "vmscan", "mm_vmscan_kswapd_wake", MS(t), 0, pid, \
	"nid", I64(nid), "zid", I64(2), "order", I64(order))
#define SLEEP(m, t, pid, nid) FEED(m, "vmscan", "mm_vmscan_kswapd_sleep", MS(t), 0, pid, \
	"nid", I64(nid))
#define REQ(m, t, pid, nid, order) FEED(m, "vmscan", "mm_vmscan_wakeup_kswapd", MS(t), 1, pid, \
	"nid", I64(nid), "zid", I64(2), "order", I64(order), "gfp_flags", I64(0xcc0))
#define ACT(m, t, pid, nid, scanned, reclaimed) FEED(m, "vmscan", \
	"mm_vmscan_lru_shrink_inactive", MS(t), 0, pid, "nid", I64(nid), \
	"nr_scanned", I64(scanned), "nr_reclaimed", I64(reclaimed), "nr_dirty", I64(0), \
	"nr_writeback", I64(0), "nr_congested", I64(0), "nr_immediate", I64(0), \
	"priority", I64(12), "reclaim_flags", I64(0x9))

/* Two nodes, inferred decisions: full sleep, no nap, woken early, timed out. */
static void test_two_nodes_inferred(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, fmt_nosched);

	(void)state;
	WAKE(m, 1, 50, 0, 0);
	ACT(m, 2, 50, 0, 32, 30);
	ACT(m, 3, 50, 0, 32, 2);
	WAKE(m, 5, 51, 1, 2);
	ACT(m, 6, 51, 1, 10, 10);
	WAKE(m, 6.02, 51, 1, 2);	/* g = 20 us after the activity: no nap */
	ACT(m, 7, 51, 1, 10, 10);
	REQ(m, 50, 100, 1, 3);		/* during node 1's nap */
	WAKE(m, 50.1, 51, 1, 3);	/* g = 43.1 ms < 100: woken early */
	ACT(m, 51, 51, 1, 10, 10);
	SLEEP(m, 103, 50, 0);		/* node 0: napped 100 ms, slept */
	REQ(m, 150, 101, 0, 0);		/* 47 ms after the full sleep: premature */
	WAKE(m, 151, 50, 0, 0);
	WAKE(m, 153, 51, 1, 0);		/* node 1: g = 102 ms: nap timed out */
	assert_int_equal(model_finish(m), 0);

	/* cycles are emitted at the next wake of their node (or at the end) */
	assert_int_equal(c.ncyc, 6);
	/* node 1, wake 5: activity at 6, next wake at 6.02 */
	assert_int_equal(c.cyc[0].nid, 1);
	assert_int_equal(c.cyc[0].wake_ns, MS(5));
	assert_int_equal(c.cyc[0].order, 2);
	assert_int_equal(c.cyc[0].highest_zoneidx, 2);
	assert_int_equal(c.cyc[0].last_activity_ns, MS(6));
	assert_string_equal(c.cyc[0].decision, "no_nap");
	assert_false(c.cyc[0].decision_exact);
	assert_true(c.cyc[0].complete);
	/* node 1, wake 6.02: request at 50, woken early */
	assert_string_equal(c.cyc[1].decision, "nap_woken_early");
	assert_int_equal(c.cyc[1].next_wake_ns, MS(50.1));
	/* node 0, wake 1: activity 2 and 3, slept at 103, request at 150 */
	assert_int_equal(c.cyc[2].nid, 0);
	assert_int_equal(c.cyc[2].pid, 50);
	assert_string_equal(c.cyc[2].decision, "full_sleep");
	assert_true(c.cyc[2].decision_exact);
	assert_int_equal(c.cyc[2].sleep_ns, MS(103));
	assert_int_equal(c.cyc[2].last_activity_ns, MS(3));
	assert_true(c.cyc[2].premature);		/* 150 - 103 = 47 <= 100 */
	assert_int_equal(c.cyc[2].nr_scanned, 64);	/* 32 + 32 */
	assert_int_equal(c.cyc[2].nr_reclaimed, 32);	/* 30 + 2 */
	/* node 1, wake 50.1: activity 51, next wake 153: g = 102 ms */
	assert_int_equal(c.cyc[3].nid, 1);
	assert_string_equal(c.cyc[3].decision, "nap_timed_out");
	/* at trace end: node 0 (wake 151) and node 1 (wake 153), unknown */
	assert_int_equal(c.cyc[4].nid, 0);
	assert_int_equal(c.cyc[4].next_wake_ns, MODEL_NULL);
	assert_string_equal(c.cyc[4].decision, "unknown");
	assert_false(c.cyc[4].complete);
	assert_int_equal(c.cyc[5].nid, 1);

	/* wakeup requests, emitted when served */
	assert_int_equal(c.nwk, 2);
	assert_int_equal(c.wk[0].nid, 1);
	assert_int_equal(c.wk[0].pid, 100);
	assert_string_equal(c.wk[0].kswapd_state, "napping");
	assert_int_equal(c.wk[0].served_ns, MS(50.1));
	assert_int_equal(c.wk[0].delay_ns, MS(50.1) - MS(50));
	assert_int_equal(c.wk[0].order, 3);
	assert_int_equal(c.wk[0].gfp_flags, 0xcc0);
	assert_string_equal(c.wk[1].kswapd_state, "asleep");
	assert_int_equal(c.wk[1].delay_ns, MS(1));	/* 151 - 150 */
	assert_int_equal(cap_q(&c, "kswapd_cycles_unknown"), 2);
	model_free(m);
}

/* With sched events of the kswapd pid the decision is exact. */
static void test_sched_exact(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, fmt_sched);

	(void)state;
	WAKE(m, 0, 50, 0, 0);
	ACT(m, 1, 50, 0, 32, 32);
	FEED(m, "sched", "sched_switch", MS(1.1), 0, 50, "prev_comm", "kswapd0",
	     "prev_pid", I64(50), "prev_state", I64(1), "next_comm", "swapper/0",
	     "next_pid", I64(0));
	FEED(m, "sched", "sched_wakeup", MS(101.2), 0, 0, "comm", "kswapd0", "pid", I64(50));
	FEED(m, "sched", "sched_switch", MS(101.3), 0, 0, "prev_pid", I64(0),
	     "prev_state", I64(0), "next_comm", "kswapd0", "next_pid", I64(50));
	WAKE(m, 101.4, 50, 0, 0);	/* nap 1.1 -> 101.2 = 100.1 ms: timed out */

	ACT(m, 102, 50, 0, 32, 32);
	FEED(m, "sched", "sched_switch", MS(102.1), 0, 50, "prev_pid", I64(50),
	     "prev_state", I64(1), "next_pid", I64(0));
	REQ(m, 130, 100, 0, 0);
	FEED(m, "sched", "sched_wakeup", MS(130.01), 1, 100, "pid", I64(50));
	FEED(m, "sched", "sched_switch", MS(130.02), 0, 0, "prev_pid", I64(0),
	     "prev_state", I64(0), "next_pid", I64(50));
	WAKE(m, 130.05, 50, 0, 0);	/* nap 102.1 -> 130.01: woken early */

	ACT(m, 131, 50, 0, 32, 32);
	/* preempted (state R) is not a nap */
	FEED(m, "sched", "sched_switch", MS(131.1), 0, 50, "prev_pid", I64(50),
	     "prev_state", I64(0x100), "next_pid", I64(77));
	FEED(m, "sched", "sched_switch", MS(131.3), 0, 77, "prev_pid", I64(77),
	     "prev_state", I64(0), "next_pid", I64(50));
	WAKE(m, 131.5, 50, 0, 0);	/* g = 0.5 ms, never switched out in S: no nap */
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.ncyc, 4);
	assert_string_equal(c.cyc[0].decision, "nap_timed_out");
	assert_true(c.cyc[0].decision_exact);
	assert_int_equal(c.cyc[0].nap_ns, MS(1.1));
	assert_string_equal(c.cyc[1].decision, "nap_woken_early");
	assert_true(c.cyc[1].decision_exact);
	assert_int_equal(c.cyc[1].nap_ns, MS(102.1));
	/* inference alone would say woken early (g = 0.5 ms > 50 us) */
	assert_string_equal(c.cyc[2].decision, "no_nap");
	assert_true(c.cyc[2].decision_exact);
	assert_int_equal(c.cyc[2].nap_ns, MODEL_NULL);
	assert_int_equal(c.nwk, 1);
	assert_string_equal(c.wk[0].kswapd_state, "napping");
	model_free(m);
}

/*
 * Woken by a request 97.6 ms into the nap but running only at 100.9 ms:
 * schedule_timeout() returns 0 then and the kernel counts
 * KSWAPD_HIGH_WMARK_HIT_QUICKLY (the case seen in a real 6.18 recording,
 * where this rule makes the counts equal the /proc/vmstat deltas).
 */
static void test_sched_woken_but_late(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, fmt_sched);

	(void)state;
	WAKE(m, 0, 50, 0, 0);
	ACT(m, 1, 50, 0, 32, 32);
	FEED(m, "sched", "sched_switch", MS(1.5), 0, 50, "prev_pid", I64(50),
	     "prev_state", I64(1), "next_pid", I64(0));
	REQ(m, 99.09, 100, 0, 0);
	FEED(m, "sched", "sched_wakeup", MS(99.1), 1, 100, "pid", I64(50));	/* 97.6 ms */
	FEED(m, "sched", "sched_switch", MS(102.43), 0, 77, "prev_pid", I64(77),
	     "prev_state", I64(0), "next_pid", I64(50));			/* 100.93 ms */
	WAKE(m, 102.5, 50, 0, 0);
	assert_int_equal(model_finish(m), 0);
	assert_string_equal(c.cyc[0].decision, "nap_timed_out");
	assert_true(c.cyc[0].decision_exact);
	/* the request still found kswapd napping */
	assert_string_equal(c.wk[0].kswapd_state, "napping");
	model_free(m);
}

/*
 * Queued on its wait queue, kswapd is preempted (prev_state R+, 0x100)
 * before it can nap; a request wakes it there, so schedule_timeout()
 * returns at once with time left: LOW_WMARK (seen in a real 6.18
 * recording: 3 such cycles made the vmstat delta).  Without the wakeup the
 * same cycle is no_nap.
 */
static void test_sched_woken_while_preempted(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, fmt_sched);

	(void)state;
	WAKE(m, 0, 50, 0, 0);
	ACT(m, 1, 50, 0, 32, 32);
	FEED(m, "sched", "sched_switch", MS(1.01), 0, 50, "prev_pid", I64(50),
	     "prev_state", I64(0x100), "next_pid", I64(77));
	REQ(m, 10.44, 100, 0, 0);
	FEED(m, "sched", "sched_wakeup", MS(10.45), 1, 100, "pid", I64(50));
	FEED(m, "sched", "sched_switch", MS(49.5), 0, 77, "prev_pid", I64(77),
	     "prev_state", I64(0), "next_pid", I64(50));
	WAKE(m, 49.6, 50, 0, 0);
	ACT(m, 50, 50, 0, 32, 32);
	FEED(m, "sched", "sched_switch", MS(50.01), 0, 50, "prev_pid", I64(50),
	     "prev_state", I64(0x100), "next_pid", I64(77));
	FEED(m, "sched", "sched_switch", MS(59.5), 0, 77, "prev_pid", I64(77),
	     "prev_state", I64(0), "next_pid", I64(50));
	WAKE(m, 59.6, 50, 0, 0);
	assert_int_equal(model_finish(m), 0);
	assert_string_equal(c.cyc[0].decision, "nap_woken_early");
	assert_true(c.cyc[0].decision_exact);
	assert_string_equal(c.cyc[1].decision, "no_nap");
	assert_true(c.cyc[1].decision_exact);
	model_free(m);
}

/*
 * Activity before the first wake is kept (wake NULL) once the kswapd pid
 * is known from sched_switch's comm; a late wake without sleep is unknown;
 * lost events after the last activity make the decision unknown.
 */
static void test_edges(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, fmt_nosched);

	(void)state;
	FEED(m, "sched", "sched_switch", MS(0.5), 0, 0, "prev_pid", I64(0), "prev_state", I64(0),
	     "next_comm", "kswapd1", "next_pid", I64(61));
	ACT(m, 1, 61, 1, 8, 8);
	SLEEP(m, 102, 61, 1);
	WAKE(m, 200, 61, 1, 0);
	ACT(m, 201, 61, 1, 8, 8);
	WAKE(m, 450, 61, 1, 0);		/* g = 249 ms > 130, no sleep: unknown */
	ACT(m, 451, 61, 1, 8, 8);
	assert_int_equal(model_lost(m, 1, MS(460), -1), 0);
	WAKE(m, 470, 61, 1, 0);		/* g = 19 ms, but events were lost */
	SLEEP(m, 480, 61, 1);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.ncyc, 4);
	assert_int_equal(c.cyc[0].wake_ns, MODEL_NULL);
	assert_int_equal(c.cyc[0].pid, 61);
	assert_string_equal(c.cyc[0].decision, "full_sleep");
	assert_int_equal(c.cyc[0].sleep_ns, MS(102));
	assert_int_equal(c.cyc[0].last_activity_ns, MS(1));
	assert_false(c.cyc[0].complete);
	assert_string_equal(c.cyc[1].decision, "unknown");
	assert_true(c.cyc[1].complete);
	assert_string_equal(c.cyc[2].decision, "unknown");
	assert_false(c.cyc[2].complete);
	/* trace end after a sleep: the decision is known, the cycle is not complete */
	assert_string_equal(c.cyc[3].decision, "full_sleep");
	assert_false(c.cyc[3].premature);
	assert_false(c.cyc[3].complete);
	assert_int_equal(cap_q(&c, "kswapd_cycles_unknown"), 2);
	assert_int_equal(cap_q(&c, "kswapd_cycles_incomplete"), 3);
	model_free(m);
}

/*
 * Without sched events: back-to-back wakes (g = 40 us) are no_nap, unless a
 * wakeup request came in between: kswapd was queued, and the kernel
 * counted LOW_WMARK (two such cycles in a real 6.18 recording).
 */
static void test_tiny_gap_with_request(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, fmt_nosched);

	(void)state;
	WAKE(m, 0, 50, 0, 0);
	ACT(m, 1, 50, 0, 32, 32);
	REQ(m, 1.00002, 100, 0, 0);
	WAKE(m, 1.00004, 50, 0, 0);
	ACT(m, 2, 50, 0, 32, 32);
	WAKE(m, 2.00004, 50, 0, 0);
	assert_int_equal(model_finish(m), 0);
	assert_string_equal(c.cyc[0].decision, "nap_woken_early");
	assert_string_equal(c.cyc[1].decision, "no_nap");
	assert_int_equal(c.wk[0].delay_ns, MS(1.00004) - MS(1.00002));
	model_free(m);
}

/* The premature threshold is an option; a request after it is not premature. */
static void test_premature_threshold(void **state)
{
	struct cap c;
	struct model_sink s = cap_sink(&c);
	struct model_config cfg = { .release = "6.18.0", .has_field = fmt_has,
				    .has_field_arg = (void *)fmt_nosched,
				    .premature_ns = MS(20) };
	struct model *m = model_create(&cfg, &s);

	(void)state;
	WAKE(m, 0, 50, 0, 0);
	SLEEP(m, 100, 50, 0);
	REQ(m, 130, 100, 0, 0);		/* 30 ms > 20 ms */
	WAKE(m, 131, 50, 0, 0);
	SLEEP(m, 231, 50, 0);
	REQ(m, 240, 100, 0, 0);		/* 9 ms <= 20 ms */
	WAKE(m, 241, 50, 0, 0);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.ncyc, 3);
	assert_false(c.cyc[0].premature);
	assert_true(c.cyc[1].premature);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_nodes_inferred),
		cmocka_unit_test(test_sched_exact),
		cmocka_unit_test(test_sched_woken_but_late),
		cmocka_unit_test(test_sched_woken_while_preempted),
		cmocka_unit_test(test_edges),
		cmocka_unit_test(test_tiny_gap_with_request),
		cmocka_unit_test(test_premature_threshold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
