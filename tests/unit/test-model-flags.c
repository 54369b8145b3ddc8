// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the pgdat flag inference (src/model/model-flags.c) and of the
 * rule-set choice from formats and release.  Each expected interval is
 * derived by hand from the kernel's rules (mm/vmscan.c: per call in
 * shrink_inactive_list() 4.11-4.16, per shrink_node() pass from 4.17,
 * cleared only by prepare_kswapd_sleep() on a balanced node from 4.12),
 * as stated at the top of src/model/model-flags.c and worked out in the
 * comments.  Times in ms (MS()).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model-fixture.h"

static struct model *new_model(struct cap *c, const char *release, const char *const *fmt)
{
	struct model_sink s = cap_sink(c);
	struct model_config cfg = { .release = release, .has_field = fmt_has,
				    .has_field_arg = (void *)fmt };

	return model_create(&cfg, &s);
}

#define WAKE(m, t) FEED(m, "vmscan", "mm_vmscan_kswapd_wake", MS(t), 0, 50, \
	"nid", I64(0), "zid", I64(2), "order", I64(0))
#define SLEEP(m, t) FEED(m, "vmscan", "mm_vmscan_kswapd_sleep", MS(t), 0, 50, "nid", I64(0))
#define ISO(m, t, pid, taken, lru) FEED(m, "vmscan", "mm_vmscan_lru_isolate", MS(t), 0, pid, \
	"nr_requested", I64(32), "nr_scanned", I64(taken), "nr_taken", I64(taken), "lru", I64(lru))
#define SI(m, t, pid, dirty, wb, cong, imm, flags, prio) FEED(m, "vmscan", \
	"mm_vmscan_lru_shrink_inactive", MS(t), 0, pid, "nid", I64(0), "nr_scanned", I64(32), \
	"nr_reclaimed", I64(0), "nr_dirty", I64(dirty), "nr_writeback", I64(wb), \
	"nr_congested", I64(cong), "nr_immediate", I64(imm), "priority", I64(prio), \
	"reclaim_flags", I64(flags))
#define FILE_ASYNC 0xa
#define ANON_ASYNC 0x9

static const char *const fmt_419[] = {
	"mm_vmscan_lru_shrink_inactive.nr_dirty", "mm_vmscan_wakeup_kswapd.gfp_flags",
	"mm_vmscan_lru_isolate.classzone_idx", "mm_vmscan_lru_isolate.isolate_mode",
	"writeback_wait_iff_congested", "writeback_congestion_wait", NULL };

/* 4.17-5.4: kswapd only, tests on the sums of each shrink_node() pass. */
static void test_per_pass(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, "4.19.0", fmt_419);

	(void)state;
	WAKE(m, 0);
	/* pass 1 (priority 12): file call, all 32 taken under writeback */
	ISO(m, 1, 50, 32, 2);
	SI(m, 2, 50, 32, 32, 0, 0, FILE_ASYNC, 12);
	/* a direct reclaimer's call: ignored from 4.17 */
	ISO(m, 3, 10, 16, 2);
	SI(m, 4, 10, 16, 16, 16, 0, FILE_ASYNC, 12);
	/* pass 2 (priority 11, ends pass 1): all dirty, all congested */
	ISO(m, 5, 50, 32, 2);
	SI(m, 6, 50, 32, 0, 32, 0, FILE_ASYNC, 11);
	FEED(m, "vmscan", "mm_shrink_slab_start", MS(50), 0, 50, "nid", I64(0),
	     "nr_objects_to_shrink", I64(10), "total_scan", I64(5), "priority", I64(11));
	SLEEP(m, 151);	/* napped from 50 (last activity), slept: flags cleared at 50 */
	WAKE(m, 300);
	FEED(m, "vmscan", "mm_vmscan_writepage", MS(301), 0, 50, "pfn", I64(1234),
	     "reclaim_flags", I64(FILE_ASYNC));
	assert_int_equal(model_finish(m), 0);

	assert_int_equal(c.nflag, 4);
	/* pass 1: Σwriteback 32 == Σtaken 32 -> WRITEBACK at its last call (2) */
	assert_string_equal(c.flag[0].flag, "PGDAT_WRITEBACK");
	assert_int_equal(c.flag[0].set_ns, MS(2));
	assert_int_equal(c.flag[0].clear_ns, MS(50));
	assert_string_equal(c.flag[0].rule, "4.17-5.4 per-pass");
	assert_string_equal(c.flag[0].evidence,
			    "kswapd pass of 1 calls: nr_writeback=32 == nr_taken=32");
	/* pass 2: Σdirty 32 == Σcongested 32; unqueued 32-0-0 == file_taken 32 */
	assert_string_equal(c.flag[1].flag, "PGDAT_CONGESTED");
	assert_int_equal(c.flag[1].set_ns, MS(6));
	assert_int_equal(c.flag[1].clear_ns, MS(50));
	assert_string_equal(c.flag[2].flag, "PGDAT_DIRTY");
	assert_int_equal(c.flag[2].set_ns, MS(6));
	assert_int_equal(c.flag[2].clear_ns, MS(50));
	assert_string_equal(c.flag[2].evidence,
			    "kswapd pass of 1 calls: unqueued_dirty=32 == file_taken=32 (estimate)");
	/* kswapd wrote a file page: PGDAT_DIRTY was set, still set at the end */
	assert_string_equal(c.flag[3].flag, "PGDAT_DIRTY");
	assert_int_equal(c.flag[3].set_ns, MS(301));
	assert_int_equal(c.flag[3].clear_ns, MODEL_NULL);
	assert_string_equal(c.flag[3].evidence, "witness: kswapd wrote file pfn 1234");
	assert_int_equal(cap_q(&c, "pgdat_flag_intervals"), 4);
	assert_non_null(strstr(cap_q_detail(&c, "pgdat_flag_rule"), "4.17-5.4 per-pass"));
	/* the write row */
	assert_int_equal(c.nwr, 1);
	assert_true(c.wr[0].by_kswapd && c.wr[0].file && !c.wr[0].sync);
	model_free(m);
}

/* 4.17-5.15 witnesses: a direct reclaimer's wait_iff_congested, kswapd's
 * congestion_wait. */
static void test_witnesses_congest_wait(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, "5.4.0", fmt_419);

	(void)state;
	WAKE(m, 0);
	ISO(m, 1, 10, 16, 2);
	SI(m, 2, 10, 4, 0, 0, 0, FILE_ASYNC, 12);	/* pid 10 reclaims node 0 */
	FEED(m, "writeback", "writeback_wait_iff_congested", MS(3), 0, 10,
	     "usec_timeout", I64(100000), "usec_delayed", I64(0));
	FEED(m, "writeback", "writeback_congestion_wait", MS(105), 0, 50,
	     "usec_timeout", I64(100000), "usec_delayed", I64(100000));
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nflag, 2);
	/* emitted at the end in flag order: WRITEBACK, then CONGESTED; kswapd
	 * waits only with Σnr_immediate > 0, which needs PGDAT_WRITEBACK set
	 * during the pass: set by the wait's start, 105 ms - 100000 us; since
	 * when, not traced */
	assert_string_equal(c.flag[0].flag, "PGDAT_WRITEBACK");
	assert_int_equal(c.flag[0].set_ns, MS(5));
	assert_int_equal(c.flag[0].set_earliest_ns, MODEL_NULL);
	assert_int_equal(c.flag[0].set_latest_ns, MS(5));
	assert_string_equal(c.flag[0].evidence, "witness: kswapd congestion_wait");
	assert_string_equal(c.flag[1].flag, "PGDAT_CONGESTED");
	assert_int_equal(c.flag[1].set_ns, MS(3));
	assert_int_equal(c.flag[1].clear_ns, MODEL_NULL);
	assert_string_equal(c.flag[1].evidence, "witness: pid 10 wait_iff_congested");
	/* the waits themselves */
	assert_int_equal(c.nthr, 2);
	assert_string_equal(c.thr[0].kind, "wait_iff_congested");
	assert_int_equal(c.thr[0].nid, MODEL_NULL);
	assert_int_equal(c.thr[0].begin_ns, MS(3));	/* delayed 0 */
	assert_string_equal(c.thr[1].kind, "congestion_wait");
	assert_int_equal(c.thr[1].begin_ns, MS(5));	/* 105 ms - 100000 us */
	assert_int_equal(c.thr[1].end_ns, MS(105));
	model_free(m);
}

static const char *const fmt_411[] = {
	"mm_vmscan_lru_shrink_inactive.nr_dirty", "mm_vmscan_wakeup_kswapd", NULL };
static const char *const fmt_410[] = {
	"mm_vmscan_lru_shrink_inactive.nr_scanned", "mm_vmscan_wakeup_kswapd", NULL };

static void per_call_events(struct model *m)
{
	WAKE(m, 0);
	/* direct reclaim: 16 taken, 16 under writeback, 16 dirty, 16 congested */
	ISO(m, 10, 10, 16, 2);
	SI(m, 20, 10, 16, 16, 16, 0, FILE_ASYNC, 12);
	/* kswapd: anon call, nothing */
	ISO(m, 90, 50, 8, 0);
	SI(m, 100, 50, 0, 0, 0, 0, ANON_ASYNC, 12);
	SLEEP(m, 201);	/* cleared at the nap start, 100 */
}

/* 4.11-4.16: any reclaimer's call sets the flags (formats: no gfp_flags). */
static void test_per_call(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, "4.11.0", fmt_411);

	(void)state;
	per_call_events(m);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nflag, 2);
	/* WRITEBACK: 16 == 16; CONGESTED: 16 > 0 && 16 == 16;
	 * DIRTY: unqueued 16-16-0 = 0 != 16 -> not set */
	assert_string_equal(c.flag[0].flag, "PGDAT_WRITEBACK");
	assert_int_equal(c.flag[0].set_ns, MS(20));
	assert_int_equal(c.flag[0].clear_ns, MS(100));
	assert_string_equal(c.flag[0].rule, "4.11-4.16 per-call");
	assert_string_equal(c.flag[0].evidence, "call of pid 10: nr_writeback=16 == nr_taken=16");
	assert_string_equal(c.flag[1].flag, "PGDAT_CONGESTED");
	assert_int_equal(c.flag[1].set_ns, MS(20));
	assert_int_equal(c.flag[1].clear_ns, MS(100));
	model_free(m);
}

/* 4.10 formats (no nr_dirty): no intervals, a recorded reason. */
static void test_410_no_counters(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, "4.10.0", fmt_410);

	(void)state;
	per_call_events(m);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nflag, 0);
	assert_int_equal(cap_q(&c, "pgdat_flag_not_inferred"), 1);
	assert_non_null(strstr(cap_q_detail(&c, "pgdat_flag_not_inferred"), "4.10"));
	assert_int_equal(cap_q(&c, "pgdat_flag_rule"), -1);
	/* the kswapd cycle is still rebuilt */
	assert_int_equal(c.ncyc, 1);
	assert_string_equal(c.cyc[0].decision, "full_sleep");
	model_free(m);
}

static const char *const fmt_517[] = {
	"mm_vmscan_lru_shrink_inactive.nr_dirty", "mm_vmscan_wakeup_kswapd.gfp_flags",
	"mm_vmscan_lru_isolate.highest_zoneidx", "mm_vmscan_lru_isolate.isolate_mode",
	"mm_vmscan_throttled", NULL };
static const char *const fmt_618[] = {
	"mm_vmscan_lru_shrink_inactive.nr_dirty", "mm_vmscan_wakeup_kswapd.gfp_flags",
	"mm_vmscan_lru_isolate.highest_zoneidx", "mm_vmscan_lru_isolate.nr_requested",
	"mm_vmscan_throttled", "mm_vmscan_reclaim_pages.nid", NULL };

#define DIRECT(m, t, pid) FEED(m, "vmscan", "mm_vmscan_direct_reclaim_begin", MS(t), 0, pid, \
	"order", I64(0), "gfp_flags", I64(0xcc0))
#define THR(m, t, pid, delayed, reason) FEED(m, "vmscan", "mm_vmscan_throttled", MS(t), 0, pid, \
	"nid", I64(0), "usec_timeout", I64(100000), "usec_delayed", I64(delayed), \
	"reason", I64(reason))

/* 5.16+ throttling witnesses; 5.5-6.4 names the congested flag LRUVEC_CONGESTED. */
static void test_throttle_lruvec(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, "5.17.0", fmt_517);

	(void)state;
	WAKE(m, 0);
	DIRECT(m, 5, 10);
	THR(m, 10, 10, 4000, 0x8);	/* direct reclaimer throttled CONGESTED */
	THR(m, 120, 50, 100000, 0x1);	/* kswapd throttled WRITEBACK */
	THR(m, 125, 11, 20000, 0x2);	/* ISOLATED: no flag */
	SLEEP(m, 221);			/* last kswapd activity 120: cleared at 120 */
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nthr, 3);
	assert_string_equal(c.thr[0].kind, "throttled");
	assert_string_equal(c.thr[0].reason, "CONGESTED");
	assert_int_equal(c.thr[0].begin_ns, MS(6));	/* 10 ms - 4000 us */
	assert_int_equal(c.thr[0].usec_delayed, 4000);
	assert_string_equal(c.thr[1].reason, "WRITEBACK");
	assert_int_equal(c.thr[1].begin_ns, MS(20));
	assert_string_equal(c.thr[2].reason, "ISOLATED");
	assert_int_equal(c.nflag, 2);
	/* set by the start of kswapd's wait, 120 ms - 100000 us (its
	 * Σnr_immediate > 0 needed the flag set); cleared at the nap start */
	assert_string_equal(c.flag[0].flag, "PGDAT_WRITEBACK");
	assert_int_equal(c.flag[0].set_ns, MS(20));
	assert_int_equal(c.flag[0].clear_ns, MS(120));
	/* the proof holds when the wait began: 10 ms - 4000 us */
	assert_string_equal(c.flag[1].flag, "LRUVEC_CONGESTED");
	assert_int_equal(c.flag[1].set_ns, MS(6));
	assert_int_equal(c.flag[1].clear_ns, MS(120));
	assert_string_equal(c.flag[1].rule, "5.5-6.4 lruvec");
	model_free(m);
}

/* 6.7+ formats: LRUVEC_NODE_CONGESTED; 6.13+ gate on PGDAT_DIRTY. */
static void test_618_names_and_dirty_gate(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, "6.18.0", fmt_618);

	(void)state;
	WAKE(m, 0);
	DIRECT(m, 5, 10);
	THR(m, 10, 10, 1000, 0x8);
	/* kswapd anon pass: unqueued 0 == file_taken 0, but 6.13 needs > 0 */
	ISO(m, 20, 50, 32, 0);
	SI(m, 21, 50, 0, 0, 0, 0, ANON_ASYNC, 12);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nflag, 1);
	assert_string_equal(c.flag[0].flag, "LRUVEC_NODE_CONGESTED");
	assert_string_equal(c.flag[0].rule, "6.5+ node/cgroup");
	assert_int_equal(c.flag[0].clear_ns, MODEL_NULL);
	assert_non_null(strstr(cap_q_detail(&c, "pgdat_flag_rule"), "6.13+"));
	model_free(m);

	/* the same anon pass on 6.12 sets PGDAT_DIRTY (0 == 0) */
	m = new_model(&c, "6.12.0", fmt_517);
	WAKE(m, 0);
	ISO(m, 20, 50, 32, 0);
	SI(m, 21, 50, 0, 0, 0, 0, ANON_ASYNC, 12);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nflag, 1);
	assert_string_equal(c.flag[0].flag, "PGDAT_DIRTY");
	assert_string_equal(c.flag[0].rule, "6.5+ node/cgroup");	/* release 6.12 */
	assert_int_equal(c.flag[0].set_ns, MS(21));
	model_free(m);
}

/*
 * A wait dated before an interval that has already ended: the interval is
 * held back (not yet emitted) and moves its start back to the wait's start.
 * kswapd's pass at 2 ms has dirty 8 == congested 8 (LRUVEC_NODE_CONGESTED,
 * 6.18; unqueued 8 - 0 - 0 != 16 taken: no PGDAT_DIRTY); its pass ends at the priority change at 10 ms, its nap starts
 * there (last event) and it sleeps at 111 ms: cleared at 10 ms.  pid 10,
 * in direct reclaim since 0.5 ms, reports at 112 ms a wait of 111 ms: it
 * began at 1 ms, when the flag was set, so the interval is [1, 10] ms.
 */
static void test_proof_moves_held_back_interval(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, "6.18.0", fmt_618);

	(void)state;
	WAKE(m, 0);
	DIRECT(m, 0.5, 10);
	ISO(m, 1, 50, 16, 2);
	SI(m, 2, 50, 8, 0, 8, 0, FILE_ASYNC, 12);
	FEED(m, "vmscan", "mm_shrink_slab_start", MS(10), 0, 50, "nid", I64(0),
	     "nr_objects_to_shrink", I64(10), "total_scan", I64(5), "priority", I64(11));
	SLEEP(m, 111);
	THR(m, 112, 10, 111000, 0x8);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nflag, 1);
	assert_string_equal(c.flag[0].flag, "LRUVEC_NODE_CONGESTED");
	assert_int_equal(c.flag[0].set_ns, MS(1));
	assert_int_equal(c.flag[0].clear_ns, MS(10));
	assert_string_equal(c.flag[0].proof, "extended");
	assert_int_equal(cap_q(&c, "pgdat_flag_proofs_congested"), 1);
	assert_int_equal(cap_q(&c, "pgdat_flag_extended"), 1);
	/* the call at 1-2 ms: 8 congested, none immediate: WRITEBACK proven clear */
	assert_int_equal(cap_q(&c, "pgdat_flag_proofs_clear"), 1);
	assert_int_equal(cap_q(&c, "pgdat_flag_cut"), 0);
	model_free(m);
}

static struct model *new_model_clear(struct cap *c, const char *release,
				     const char *const *fmt, const char *clear)
{
	struct model_sink s = cap_sink(c);
	struct model_config cfg = { .release = release, .has_field = fmt_has,
				    .has_field_arg = (void *)fmt, .flag_clear = clear };

	return model_create(&cfg, &s);
}

/*
 * A kswapd call proving PGDAT_WRITEBACK set (nr_immediate 4, 1-2 ms), then
 * one proving it clear (8 congested, 0 immediate, 3-4 ms) in the same run:
 * no wake or sleep of kswapd between, so no prepare_kswapd_sleep() ran;
 * kswapd-sleep (6.18's own rule) allows no clear there: 1 contradiction,
 * at the clearing call's start, 3 ms.  balanced-check allows a clear at
 * balance_pgdat()'s check before the second pass: none.  With a kswapd
 * wake at 2.5 ms between them, a sleep check may have run: none either.
 */
static void feed_set_then_clear(struct model *m, bool wake_between)
{
	WAKE(m, 0);
	ISO(m, 1, 50, 32, 2);
	SI(m, 2, 50, 4, 0, 4, 4, FILE_ASYNC, 12);
	if (wake_between)
		WAKE(m, 2.5);
	ISO(m, 3, 50, 32, 2);
	SI(m, 4, 50, 8, 0, 8, 0, FILE_ASYNC, 11);
}

static void test_clear_rule_contradiction(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, "6.18.0", fmt_618);

	(void)state;
	feed_set_then_clear(m, false);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(cap_q(&c, "pgdat_flag_contradictions"), 1);
	assert_string_equal(cap_q_detail(&c, "pgdat_flag_contradictions"),
			    "the trace contradicts rule kswapd-sleep at 1 point (first at 0.003000 s,"
			    " node 0, PGDAT_WRITEBACK: proven clear after a kswapd call proved it"
			    " set, with no sleep check of kswapd between)");
	assert_string_equal(cap_q_detail(&c, "pgdat_flag_clear_rule"),
			    "kswapd-sleep: cleared only by kswapd's balanced sleep check"
			    " (prepare_kswapd_sleep(), 4.12+); the release's");
	/* the model still agrees with the proofs: WRITEBACK [1, 3] ms, cut;
	 * pass 1's dirty 4 == congested 4 sets the congested flag at 2 ms,
	 * still set at the end */
	assert_int_equal(c.nflag, 2);
	assert_string_equal(c.flag[0].flag, "PGDAT_WRITEBACK");
	assert_int_equal(c.flag[0].set_ns, MS(1));
	assert_int_equal(c.flag[0].clear_ns, MS(3));
	assert_string_equal(c.flag[1].flag, "LRUVEC_NODE_CONGESTED");
	assert_int_equal(c.flag[1].set_ns, MS(2));
	assert_int_equal(c.flag[1].clear_ns, MODEL_NULL);
	model_free(m);

	m = new_model_clear(&c, "6.18.0", fmt_618, "balanced-check");
	feed_set_then_clear(m, false);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(cap_q(&c, "pgdat_flag_contradictions"), 0);
	assert_string_equal(cap_q_detail(&c, "pgdat_flag_contradictions"),
			    "the trace contradicts rule balanced-check at no point");
	assert_non_null(strstr(cap_q_detail(&c, "pgdat_flag_clear_rule"),
			       "balanced-check: cleared by every balance check"));
	assert_non_null(strstr(cap_q_detail(&c, "pgdat_flag_clear_rule"),
			       "; chosen for the run (load --flag-clear)"));
	model_free(m);

	m = new_model(&c, "6.18.0", fmt_618);
	feed_set_then_clear(m, true);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(cap_q(&c, "pgdat_flag_contradictions"), 0);
	model_free(m);
}

/*
 * The balanced sleep check clears the flags (kswapd naps after its last
 * event at 2 ms, sleeps at 110 ms), kswapd wakes at 300 ms and its first
 * call (301-302 ms) has nr_immediate 4: PGDAT_WRITEBACK set, but no pass
 * since the clear could set it (shrink_node() sets it only at a pass end
 * with nr_writeback > 0): a contradiction of either rule, at 301 ms.  With
 * a call of 8 pages under writeback first (303-304 ms, then the proof at
 * 305-306 ms), its pass may have set it: none.  A 4.11 release defaults to
 * balanced-check.
 */
static void feed_clear_then_set(struct model *m, bool writeback_first)
{
	WAKE(m, 0);
	ISO(m, 1, 50, 32, 2);
	SI(m, 2, 50, 32, 32, 0, 0, FILE_ASYNC, 12);
	SLEEP(m, 110);
	WAKE(m, 300);
	if (writeback_first) {
		ISO(m, 303, 50, 32, 2);
		SI(m, 304, 50, 8, 8, 0, 0, FILE_ASYNC, 12);
		ISO(m, 305, 50, 32, 2);
		SI(m, 306, 50, 4, 0, 4, 4, FILE_ASYNC, 11);
	} else {
		ISO(m, 301, 50, 32, 2);
		SI(m, 302, 50, 4, 0, 4, 4, FILE_ASYNC, 12);
	}
}

static void test_clear_rule_set_after_clear(void **state)
{
	static const char *const rules[] = { "kswapd-sleep", "balanced-check" };
	struct cap c;
	struct model *m;

	(void)state;
	for (int i = 0; i < 2; i++) {
		char want[300];

		m = new_model_clear(&c, "6.18.0", fmt_618, rules[i]);
		feed_clear_then_set(m, false);
		assert_int_equal(model_finish(m), 0);
		assert_int_equal(cap_q(&c, "pgdat_flag_contradictions"), 1);
		snprintf(want, sizeof(want), "the trace contradicts rule %s at 1 point (first at"
			 " 0.301000 s, node 0, PGDAT_WRITEBACK: proven set after the rule's"
			 " balanced sleep check cleared it, with no kswapd call since that could"
			 " set it)", rules[i]);
		assert_string_equal(cap_q_detail(&c, "pgdat_flag_contradictions"), want);
		model_free(m);

		m = new_model_clear(&c, "6.18.0", fmt_618, rules[i]);
		feed_clear_then_set(m, true);
		assert_int_equal(model_finish(m), 0);
		assert_int_equal(cap_q(&c, "pgdat_flag_contradictions"), 0);
		model_free(m);
	}
	m = new_model(&c, "4.11.0", fmt_411);
	assert_int_equal(model_finish(m), 0);
	assert_string_equal(cap_q_detail(&c, "pgdat_flag_clear_rule"),
			    "balanced-check: cleared by every balance check that finds the node"
			    " balanced (4.11 zone_balanced(); patched kernels), possibly before any"
			    " kswapd pass; the release's");
	model_free(m);
}

/*
 * Item 6 of issue 25: the order of shrink_node()'s code.  kswapd's pass
 * (priority 12, calls 1-2 and 3-4 ms): Σdirty 12 == Σcongested 12,
 * Σimmediate 4 (call 2; Σwriteback 8 != Σtaken 16), so it ends in
 * reclaim_throttle(WRITEBACK): the throttled event at 30 ms, a wait of 20 ms
 * from 10 ms.  LRUVEC_CONGESTED (5.17) is set after the wait returns:
 * exactly 30 ms, not at the last call, 4 ms, so a direct stall at 5-8 ms
 * did not see the node flagged congested.  PGDAT_WRITEBACK: call 2's
 * nr_immediate shows it set by its start, 3 ms (since when, not traced).
 * kswapd naps after its last event (30 ms) and sleeps at 140 ms: both
 * cleared between 30 and 140 ms, put at 30 ms.  A pass ended by a priority
 * change instead (no wait; both calls all under writeback: Σwriteback 16
 * == Σtaken 16, Σdirty 16 == Σcongested 16): every set lies between its
 * last call, 4 ms, and the change, 6 ms.
 */
static void test_congested_after_kswapd_wait(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, "5.17.0", fmt_517);

	(void)state;
	WAKE(m, 0);
	ISO(m, 1, 50, 8, 2);
	SI(m, 2, 50, 8, 8, 8, 0, FILE_ASYNC, 12);
	ISO(m, 3, 50, 8, 2);
	SI(m, 4, 50, 4, 0, 4, 4, FILE_ASYNC, 12);
	THR(m, 30, 50, 20000, 0x1);
	SLEEP(m, 140);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nflag, 2);
	assert_string_equal(c.flag[0].flag, "PGDAT_WRITEBACK");
	assert_int_equal(c.flag[0].set_ns, MS(3));
	assert_int_equal(c.flag[0].set_earliest_ns, MODEL_NULL);
	assert_int_equal(c.flag[0].set_latest_ns, MS(3));
	assert_string_equal(c.flag[1].flag, "LRUVEC_CONGESTED");
	assert_int_equal(c.flag[1].set_ns, MS(30));
	assert_int_equal(c.flag[1].set_earliest_ns, MS(30));
	assert_int_equal(c.flag[1].set_latest_ns, MS(30));
	assert_string_equal(c.flag[1].evidence, "kswapd pass of 2 calls: nr_dirty=12 =="
			    " nr_congested=12 (set after kswapd's wait)");
	for (int i = 0; i < 2; i++) {
		assert_int_equal(c.flag[i].clear_ns, MS(30));
		assert_int_equal(c.flag[i].clear_earliest_ns, MS(30));
		assert_int_equal(c.flag[i].clear_latest_ns, MS(140));
	}
	model_free(m);

	m = new_model(&c, "5.17.0", fmt_517);
	WAKE(m, 0);
	ISO(m, 1, 50, 8, 2);
	SI(m, 2, 50, 8, 8, 8, 0, FILE_ASYNC, 12);
	ISO(m, 3, 50, 8, 2);
	SI(m, 4, 50, 8, 8, 8, 0, FILE_ASYNC, 12);
	FEED(m, "vmscan", "mm_shrink_slab_start", MS(6), 0, 50, "nid", I64(0),
	     "nr_objects_to_shrink", I64(10), "total_scan", I64(5), "priority", I64(11));
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nflag, 2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(c.flag[i].set_ns, MS(4));
		assert_int_equal(c.flag[i].set_earliest_ns, MS(4));
		assert_int_equal(c.flag[i].set_latest_ns, MS(6));
		assert_int_equal(c.flag[i].clear_ns, MODEL_NULL);
		assert_int_equal(c.flag[i].clear_earliest_ns, MODEL_NULL);
	}
	model_free(m);
}

/*
 * 6.1 with multi-gen LRU: kswapd wakes and shrinks slabs, no LRU event at
 * all: PGDAT_DIRTY set on every pass with all sums 0, so the flags are
 * not inferred and the reason says so (not "never set").  6.18: a kswapd
 * file write cannot happen (pageout() since 6.16), so it witnesses
 * nothing and file writes are n/a; on 6.15 it witnesses PGDAT_DIRTY.
 */
static const char *const fmt_61[] = {
	"mm_vmscan_lru_shrink_inactive.nr_dirty", "mm_vmscan_wakeup_kswapd.gfp_flags",
	"mm_vmscan_lru_isolate.highest_zoneidx", "mm_vmscan_lru_isolate.isolate_mode",
	"mm_vmscan_throttled", "mm_vmscan_write_folio.pfn", NULL };

static void test_61_mglru_and_616_writes(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, "6.1.0-42-cloud-amd64", fmt_61);

	(void)state;
	WAKE(m, 0);
	FEED(m, "vmscan", "mm_shrink_slab_start", MS(1), 0, 50, "nid", I64(0),
	     "nr_objects_to_shrink", I64(10), "total_scan", I64(5), "priority", I64(12));
	SLEEP(m, 110);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nflag, 0);
	assert_non_null(strstr(cap_q_detail(&c, "pgdat_flag_not_inferred"),
			       "6.1-6.2: multi-gen LRU, whose shrink_node() runs the flag code with"
			       " all sums 0, so kswapd sets PGDAT_DIRTY on every pass"));
	assert_int_equal(cap_q(&c, "reclaim_file_writes_na"), -1);
	model_free(m);

	for (int i = 0; i < 2; i++) {
		m = new_model(&c, i ? "6.15.0" : "6.18.0", fmt_618);
		WAKE(m, 0);
		FEED(m, "vmscan", "mm_vmscan_write_folio", MS(1), 0, 50, "pfn", I64(4096),
		     "reclaim_flags", I64(FILE_ASYNC));
		assert_int_equal(model_finish(m), 0);
		assert_int_equal(c.nflag, i);
		assert_int_equal(cap_q(&c, "reclaim_file_writes_na"), i ? -1 : 1);
		assert_int_equal(c.nwr, 1);	/* the write row stays */
		model_free(m);
	}
}

/* Multi-gen LRU (lru_isolate nr_requested 4096): nothing inferred, reason kept. */
static void test_mglru(void **state)
{
	struct cap c;
	struct model *m = new_model(&c, "6.8.0", fmt_618);

	(void)state;
	WAKE(m, 0);
	FEED(m, "vmscan", "mm_vmscan_lru_isolate", MS(1), 0, 50, "nr_requested", I64(4096),
	     "nr_scanned", I64(64), "nr_taken", I64(64), "lru", I64(2));
	SI(m, 2, 50, 64, 64, 0, 0, FILE_ASYNC, 12);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nflag, 0);
	assert_non_null(strstr(cap_q_detail(&c, "pgdat_flag_not_inferred"), "multi-gen"));
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_per_pass),
		cmocka_unit_test(test_witnesses_congest_wait),
		cmocka_unit_test(test_per_call),
		cmocka_unit_test(test_410_no_counters),
		cmocka_unit_test(test_throttle_lruvec),
		cmocka_unit_test(test_618_names_and_dirty_gate),
		cmocka_unit_test(test_mglru),
		cmocka_unit_test(test_proof_moves_held_back_interval),
		cmocka_unit_test(test_clear_rule_contradiction),
		cmocka_unit_test(test_clear_rule_set_after_clear),
		cmocka_unit_test(test_congested_after_kswapd_wait),
		cmocka_unit_test(test_61_mglru_and_616_writes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
