// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the event side of `record` (src/record/record-events.c): preset
 * expansion, --events syntax errors, resolution against a fake kernel, and
 * the per-CPU stats text.  Expected lists are written out by hand from the
 * preset definitions in the record issue (reclaim = vmscan:*; full = reclaim
 * + writeback congestion waits + compaction begin/end + kswapd-filtered
 * sched_switch/sched_wakeup); the stats text is a copy of
 * /sys/kernel/tracing/per_cpu/cpu0/stats on the 6.18.44 machine.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "record.h"
#include "vr.h"

/* "system:name|filter|o" per entry (name "*" for a whole system, o = optional). */
static void assert_events(const struct record_events *e, const char *const *want, size_t n)
{
	char got[512];

	assert_int_equal(e->n, n);
	for (size_t i = 0; i < n; i++) {
		snprintf(got, sizeof(got), "%s:%s|%s|%s", e->ev[i].system,
			 e->ev[i].name ? e->ev[i].name : "*",
			 e->ev[i].filter ? e->ev[i].filter : "", e->ev[i].optional ? "o" : "");
		assert_string_equal(got, want[i]);
	}
}

static void test_preset_reclaim(void **state)
{
	static const char *const want[] = { "vmscan:*||" };
	struct record_events e;

	(void)state;
	assert_int_equal(record_events_parse("reclaim", &e), 0);
	assert_events(&e, want, 1);
	record_events_release(&e);
}

static void test_preset_full(void **state)
{
	static const char *const want[] = {
		"vmscan:*||",
		"writeback:writeback_congestion_wait||o",
		"writeback:writeback_wait_iff_congested||o",
		"compaction:mm_compaction_begin||o",
		"compaction:mm_compaction_end||o",
		"sched:sched_switch|prev_comm ~ \"kswapd*\" || next_comm ~ \"kswapd*\"|o",
		"sched:sched_wakeup|comm ~ \"kswapd*\"|o",
	};
	struct record_events e;

	(void)state;
	assert_int_equal(record_events_parse("full", &e), 0);
	assert_events(&e, want, 7);
	record_events_release(&e);
}

static void test_list(void **state)
{
	static const char *const want[] = {
		"sched:sched_process_exec||", "vmscan:*||", "kmem:*||", "block:*||",
		"sched:sched_switch||",
	};
	struct record_events e;

	(void)state;
	assert_int_equal(record_events_parse("sched:sched_process_exec,reclaim,kmem:*,block,"
					     "sched/sched_switch", &e), 0);
	assert_events(&e, want, 5);
	record_events_release(&e);
}

static void test_parse_errors(void **state)
{
	static const char *const bad[] = {
		"", ",", "reclaim,", ",full", "sched:", ":sched_switch", "sched:a:b",
		"sched:sched-switch", "bogus preset", "sched:*x", "a/b/c", "vm$scan",
	};
	struct record_events e;

	(void)state;
	for (size_t i = 0; i < VR_ARRAY_SIZE(bad); i++) {
		memset(&e, 0xff, sizeof(e));
		if (record_events_parse(bad[i], &e) != -1)
			fail_msg("'%s' was accepted", bad[i]);
		assert_null(e.ev);
		assert_int_equal(e.n, 0);
	}
}

/* A fake kernel: vmscan with two events, sched with three, no writeback. */
static char **fake_system_events(void *arg, const char *system)
{
	static const char *const vmscan[] = { "mm_vmscan_kswapd_wake", "mm_vmscan_kswapd_sleep", NULL };
	static const char *const sched[] = { "sched_switch", "sched_wakeup", "sched_process_exec",
					     NULL };
	static const char *const compaction[] = { "mm_compaction_begin", NULL };
	const char *const *list = !strcmp(system, "vmscan") ? vmscan :
				  !strcmp(system, "sched") ? sched :
				  !strcmp(system, "compaction") ? compaction : NULL;
	char **v;
	size_t n = 0;

	(*(int *)arg)++;
	if (!list)
		return NULL;
	while (list[n])
		n++;
	v = calloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = strdup(list[i]);
	return v;
}

static int resolve(const char *spec, struct record_events *out)
{
	struct record_events in;
	int calls = 0, ret;
	struct record_kernel k = { fake_system_events, &calls, true };

	assert_int_equal(record_events_parse(spec, &in), 0);
	ret = record_events_resolve(&in, &k, out);
	assert_int_equal(calls, (int)in.n);
	record_events_release(&in);
	return ret;
}

static void test_resolve_full_skips_missing(void **state)
{
	static const char *const want[] = {
		"vmscan:mm_vmscan_kswapd_wake||", "vmscan:mm_vmscan_kswapd_sleep||",
		"compaction:mm_compaction_begin||",
		"sched:sched_switch|prev_comm ~ \"kswapd*\" || next_comm ~ \"kswapd*\"|",
		"sched:sched_wakeup|comm ~ \"kswapd*\"|",
	};
	struct record_events e;

	(void)state;
	assert_int_equal(resolve("full", &e), 0);
	assert_events(&e, want, 5);
	record_events_release(&e);
}

static void test_resolve_merges(void **state)
{
	/* full's filtered sched_switch + an unfiltered request: unfiltered wins;
	 * vmscan twice: once each */
	static const char *const want[] = {
		"vmscan:mm_vmscan_kswapd_wake||", "vmscan:mm_vmscan_kswapd_sleep||",
		"compaction:mm_compaction_begin||", "sched:sched_switch||",
		"sched:sched_wakeup|comm ~ \"kswapd*\"|",
	};
	struct record_events e;

	(void)state;
	assert_int_equal(resolve("full,sched:sched_switch,reclaim", &e), 0);
	assert_events(&e, want, 5);
	record_events_release(&e);
}

static void test_resolve_missing_is_error(void **state)
{
	static const char *const bad[] = {
		"writeback:writeback_congestion_wait", "sched:sched_nothing", "nosuchsystem",
		"nosuchsystem:*", "reclaim,kmem:kmalloc",
	};
	struct record_events e;

	(void)state;
	for (size_t i = 0; i < VR_ARRAY_SIZE(bad); i++) {
		if (resolve(bad[i], &e) != -1)
			fail_msg("'%s' resolved", bad[i]);
		assert_int_equal(e.n, 0);
	}
}

static void test_cpu_stats(void **state)
{
	static const char text[] =
		"entries: 3\n"
		"overrun: 369582\n"
		"commit overrun: 2\n"
		"bytes: 4000\n"
		"oldest event ts:   727.993277\n"
		"now ts:   728.043880\n"
		"dropped events: 7\n"
		"read events: 218784\n";
	struct record_cpu_stats st;

	(void)state;
	assert_int_equal(record_parse_cpu_stats(text, &st), 0);
	assert_int_equal(st.entries, 3);
	assert_int_equal(st.overrun, 369582);
	assert_int_equal(st.commit_overrun, 2);
	assert_int_equal(st.dropped, 7);
	assert_int_equal(st.read, 218784);
	assert_int_equal(st.bytes, 0);
	assert_int_equal(record_parse_cpu_stats("nothing here\n", &st), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_preset_reclaim),
		cmocka_unit_test(test_preset_full),
		cmocka_unit_test(test_list),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_resolve_full_skips_missing),
		cmocka_unit_test(test_resolve_merges),
		cmocka_unit_test(test_resolve_missing_is_error),
		cmocka_unit_test(test_cpu_stats),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
