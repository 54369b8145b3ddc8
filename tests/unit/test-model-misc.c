// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of slab shrinking episodes and reclaim writes
 * (src/model/model-misc.c) and of the model's per-pid hash (src/model/model.c).
 * Expected rows worked out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "model-fixture.h"

static const char *const fmt_618[] = {
	"mm_vmscan_lru_shrink_inactive.nr_dirty", "mm_vmscan_wakeup_kswapd.gfp_flags",
	"mm_vmscan_lru_isolate.highest_zoneidx", NULL };

static struct model *new_model(struct cap *c)
{
	struct model_sink s = cap_sink(c);
	struct model_config cfg = { .release = "6.18.0", .has_field = fmt_has,
				    .has_field_arg = (void *)fmt_618 };

	return model_create(&cfg, &s);
}

/* Feed an mm_shrink_slab_end to @m; @ev gets it as the model left it. */
static void slab_end(struct model *m, struct ingest_event *ev, uint64_t ts, int pid,
		     const char *sym, int64_t ret)
{
	int spec = spec_find("vmscan", "mm_shrink_slab_end");

	ev_set(ev, "vmscan", "mm_shrink_slab_end", ts, 0, pid, "nid", I64(0),
	       "shrink", I64(0xffffffff81234560LL), "retval", ret, "total_scan", I64(30), NULL);
	for (int f = 0; f < spec_nfields(spec); f++)
		if (!strcmp(vr_event_specs[spec].fields[f].name, "shrink"))
			ev->str[f] = sym;	/* the resolved kernel symbol */
	assert_int_equal(model_event(m, ev), 0);
}

/* Field @name of an mm_shrink_slab_end @ev, or MODEL_NULL when absent. */
static int64_t end_field(const struct ingest_event *ev, const char *name)
{
	int spec = spec_find("vmscan", "mm_shrink_slab_end");

	for (int f = 0; f < spec_nfields(spec); f++)
		if (!strcmp(vr_event_specs[spec].fields[f].name, name))
			return ev->present & (1u << f) ? ev->val[f] : MODEL_NULL;
	fail_msg("no field %s", name);
	return 0;
}

#define SLAB_START(m, ts, pid) FEED(m, "vmscan", "mm_shrink_slab_start", ts, 0, pid, \
	"nid", I64(0), "nr_objects_to_shrink", I64(100), "total_scan", I64(50), \
	"priority", I64(12))

/* A start with its symbol, as the trace.dat reader resolves it. */
static void slab_start_sym(struct model *m, uint64_t ts, int pid, const char *sym)
{
	struct ingest_event ev;
	int spec = spec_find("vmscan", "mm_shrink_slab_start");

	ev_set(&ev, "vmscan", "mm_shrink_slab_start", ts, 0, pid, "nid", I64(0),
	       "shrink", I64(0xffffffff81234560LL), "nr_objects_to_shrink", I64(100),
	       "total_scan", I64(50), NULL);
	for (int f = 0; f < spec_nfields(spec); f++)
		if (!strcmp(vr_event_specs[spec].fields[f].name, "shrink"))
			ev.str[f] = sym;
	assert_int_equal(model_event(m, &ev), 0);
}

/*
 * A paired end carries its start in the model's fields; an end without a
 * start only slab_complete 0; a start without an end is a row (the
 * slab_shrink_stored table), at a second start on the task or at the end.
 */
static void test_slab(void **state)
{
	struct ingest_event e1, e2, e3;
	struct cap c;
	struct model *m = new_model(&c);

	(void)state;
	SLAB_START(m, 10, 50);
	slab_end(m, &e1, 15, 50, "super_cache_scan", 20);
	slab_end(m, &e2, 20, 51, "deferred_split_scan", 0);	/* trace began inside */
	SLAB_START(m, 25, 53);				/* its end never comes: */
	SLAB_START(m, 27, 53);				/* a second start */
	slab_end(m, &e3, 29, 53, "super_cache_scan", 1);
	slab_start_sym(m, 30, 52, "count_shadow_nodes");	/* no end before the trace ends */
	assert_int_equal(model_finish(m), 0);

	assert_int_equal(end_field(&e1, "slab_begin_ns"), 10);
	assert_int_equal(end_field(&e1, "slab_nr_objects_to_shrink"), 100);
	assert_int_equal(end_field(&e1, "slab_complete"), 1);
	assert_int_equal(end_field(&e1, "retval"), 20);		/* decoded fields kept */
	assert_int_equal(end_field(&e2, "slab_begin_ns"), MODEL_NULL);
	assert_int_equal(end_field(&e2, "slab_nr_objects_to_shrink"), MODEL_NULL);
	assert_int_equal(end_field(&e2, "slab_complete"), 0);
	assert_int_equal(end_field(&e3, "slab_begin_ns"), 27);
	assert_int_equal(end_field(&e3, "slab_complete"), 1);

	assert_int_equal(c.nslab, 2);
	assert_int_equal(c.slab[0].pid, 53);
	assert_int_equal(c.slab[0].begin_ns, 25);
	assert_int_equal(c.slab[0].end_ns, MODEL_NULL);
	assert_int_equal(c.slab[0].nr_objects_to_shrink, 100);
	assert_int_equal(c.slab[0].total_scan, 50);		/* from the start event */
	assert_false(c.slab[0].complete);
	assert_string_equal(c.slab[0].shrinker, "(null)");	/* its start had no symbol */
	assert_int_equal(c.slab[1].pid, 52);
	assert_string_equal(c.slab[1].shrinker, "count_shadow_nodes");
	assert_int_equal(c.slab[1].begin_ns, 30);
	assert_int_equal(c.slab[1].end_ns, MODEL_NULL);
	assert_false(c.slab[1].complete);
	assert_int_equal(cap_q(&c, "slab_end_without_start"), 1);
	assert_int_equal(cap_q(&c, "slab_start_without_end"), 2);
	model_free(m);
}

/* Events lost between a start and its end: paired, but not complete. */
static void test_slab_lost(void **state)
{
	struct ingest_event e;
	struct cap c;
	struct model *m = new_model(&c);

	(void)state;
	SLAB_START(m, 10, 50);
	assert_int_equal(model_lost(m, 1, 12, 5), 0);
	slab_end(m, &e, 15, 50, "super_cache_scan", 20);
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(end_field(&e, "slab_begin_ns"), 10);
	assert_int_equal(end_field(&e, "slab_complete"), 0);
	assert_int_equal(c.nslab, 0);
	model_free(m);
}

static void test_writes(void **state)
{
	struct cap c;
	struct model *m = new_model(&c);

	(void)state;
	FEED(m, "vmscan", "mm_vmscan_kswapd_wake", 1, 0, 50, "nid", I64(0), "order", I64(0));
	FEED(m, "vmscan", "mm_vmscan_write_folio", 2, 0, 50, "pfn", I64(0x1000),
	     "reclaim_flags", I64(0xa));
	FEED(m, "vmscan", "mm_vmscan_writepage", 3, 1, 10, "pfn", I64(0x2000),
	     "reclaim_flags", I64(0x9));
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nwr, 2);
	assert_true(c.wr[0].by_kswapd);
	assert_true(c.wr[0].file);
	assert_int_equal(c.wr[0].pfn, 0x1000);
	assert_false(c.wr[1].by_kswapd);
	assert_false(c.wr[1].file);
	assert_false(c.wr[1].sync);
	assert_int_equal(c.wr[1].pid, 10);
	model_free(m);
}

/*
 * Many overlapping episodes: the per-pid hash grows and deletes with
 * backward shifts; every episode must still pair with its own begin.
 */
static void test_many_pids(void **state)
{
	struct cap c;
	struct model *m = new_model(&c);
	int n = 0;

	(void)state;
	for (int pid = 1; pid <= 60; pid++)
		FEED(m, "vmscan", "mm_vmscan_direct_reclaim_begin", (uint64_t)pid, 0, pid * 7,
		     "order", I64(0));
	/* end the odd pids first, then the even ones */
	for (int pass = 1; pass >= 0; pass--)
		for (int pid = 1; pid <= 60; pid++)
			if (pid % 2 == pass)
				FEED(m, "vmscan", "mm_vmscan_direct_reclaim_end",
				     (uint64_t)(1000 + pid * 3), 0, pid * 7, "nr_reclaimed",
				     I64(pid));
	assert_int_equal(model_finish(m), 0);
	assert_int_equal(c.nstall, 60);
	for (int i = 0; i < c.nstall; i++) {
		int pid = c.stall[i].pid / 7;

		/* begin at pid, end at 1000 + 3 pid: duration 1000 + 2 pid */
		assert_int_equal(c.stall[i].duration_ns, 1000 + 2 * pid);
		assert_int_equal(c.stall[i].nr_reclaimed, pid);
		assert_true(c.stall[i].complete);
		n++;
	}
	assert_int_equal(n, 60);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_slab),
		cmocka_unit_test(test_slab_lost),
		cmocka_unit_test(test_writes),
		cmocka_unit_test(test_many_pids),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
