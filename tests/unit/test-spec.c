// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the event spec table (src/spec.c).  The expected field
 * lists are copied from kernel format files, not from the table: the 6.18
 * lists from /sys/kernel/tracing/events/ * /format of the 6.18.44 machine
 * the samples were recorded on, the 4.11 lists from the TRACE_EVENT
 * definitions in include/trace/events/vmscan.h of v4.11 (summarised in
 * README.md "Tracepoints and their fields by kernel version").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "spec.h"

struct format { const char *event; const char *fields; };

static const struct format v6_18[] = {
	{ "mm_shrink_slab_end", "shr nid shrink unused_scan new_scan retval total_scan" },
	{ "mm_shrink_slab_start", "shr shrink nid nr_objects_to_shrink gfp_flags cache_items delta total_scan priority" },
	{ "mm_vmscan_direct_reclaim_begin", "order gfp_flags" },
	{ "mm_vmscan_direct_reclaim_end", "nr_reclaimed" },
	{ "mm_vmscan_kswapd_sleep", "nid" },
	{ "mm_vmscan_kswapd_wake", "nid zid order" },
	{ "mm_vmscan_lru_isolate", "highest_zoneidx order nr_requested nr_scanned nr_skipped nr_taken lru" },
	{ "mm_vmscan_lru_shrink_active", "nid nr_taken nr_active nr_deactivated nr_referenced priority reclaim_flags" },
	{ "mm_vmscan_lru_shrink_inactive", "nid nr_scanned nr_reclaimed nr_dirty nr_writeback nr_congested nr_immediate nr_activate0 nr_activate1 nr_ref_keep nr_unmap_fail priority reclaim_flags" },
	{ "mm_vmscan_memcg_reclaim_begin", "order gfp_flags" },
	{ "mm_vmscan_memcg_reclaim_end", "nr_reclaimed" },
	{ "mm_vmscan_memcg_softlimit_reclaim_begin", "order gfp_flags" },
	{ "mm_vmscan_memcg_softlimit_reclaim_end", "nr_reclaimed" },
	{ "mm_vmscan_node_reclaim_begin", "nid order gfp_flags" },
	{ "mm_vmscan_node_reclaim_end", "nr_reclaimed" },
	{ "mm_vmscan_reclaim_pages", "nid nr_scanned nr_reclaimed nr_dirty nr_writeback nr_congested nr_immediate nr_activate0 nr_activate1 nr_ref_keep nr_unmap_fail" },
	{ "mm_vmscan_throttled", "nid usec_timeout usec_delayed reason" },
	{ "mm_vmscan_wakeup_kswapd", "nid zid order gfp_flags" },
	{ "mm_vmscan_write_folio", "pfn reclaim_flags" },
	{ "mm_compaction_begin", "zone_start migrate_pfn free_pfn zone_end sync" },
	{ "mm_compaction_end", "zone_start migrate_pfn free_pfn zone_end sync status" },
	{ "mm_compaction_wakeup_kcompactd", "nid order highest_zoneidx" },
	{ "sched_switch", "prev_comm prev_pid prev_prio prev_state next_comm next_pid next_prio" },
	{ "sched_wakeup", "comm pid prio target_cpu" },
};

static const struct format v4_11[] = {
	{ "mm_vmscan_kswapd_wake", "nid zid order" },
	{ "mm_vmscan_wakeup_kswapd", "nid zid order" },
	{ "mm_vmscan_direct_reclaim_begin", "order may_writepage gfp_flags classzone_idx" },
	{ "mm_shrink_slab_start", "shr shrink nid nr_objects_to_shrink gfp_flags pgs_scanned lru_pgs cache_items delta total_scan" },
	{ "mm_vmscan_lru_isolate", "classzone_idx order nr_requested nr_scanned nr_skipped nr_taken isolate_mode lru" },
	{ "mm_vmscan_writepage", "pfn reclaim_flags" },
	{ "mm_vmscan_lru_shrink_inactive", "nid nr_scanned nr_reclaimed nr_dirty nr_writeback nr_congested nr_immediate nr_activate nr_ref_keep nr_unmap_fail priority reclaim_flags" },
	{ "mm_vmscan_inactive_list_is_low", "nid reclaim_idx total_inactive inactive total_active active ratio reclaim_flags" },
	{ "writeback_congestion_wait", "usec_timeout usec_delayed" },
	{ "writeback_wait_iff_congested", "usec_timeout usec_delayed" },
};

static const char *system_of(const char *event)
{
	if (!strncmp(event, "mm_compaction", 13))
		return "compaction";
	if (!strncmp(event, "sched_", 6))
		return "sched";
	if (!strncmp(event, "writeback_", 10))
		return "writeback";
	return "vmscan";
}

static int spec_field(int idx, const char *name)
{
	for (int f = 0; f < spec_nfields(idx); f++)
		if (!strcmp(vr_event_specs[idx].fields[f].name, name))
			return f;
	return -1;
}

static void check_formats(const struct format *fmts, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int idx = spec_find(system_of(fmts[i].event), fmts[i].event);
		char buf[512], *save = NULL;

		if (idx < 0)
			fail_msg("event %s missing from the spec table", fmts[i].event);
		strcpy(buf, fmts[i].fields);
		for (char *f = strtok_r(buf, " ", &save); f; f = strtok_r(NULL, " ", &save))
			if (spec_field(idx, f) < 0)
				fail_msg("%s: field %s missing from the spec table", fmts[i].event, f);
	}
}

static void test_covers_6_18_formats(void **state)
{
	(void)state;
	check_formats(v6_18, sizeof(v6_18) / sizeof(v6_18[0]));
}

static void test_covers_4_11_formats(void **state)
{
	(void)state;
	check_formats(v4_11, sizeof(v4_11) / sizeof(v4_11[0]));
}

static void test_columns_unique_and_not_common(void **state)
{
	static const char *const reserved[] = { "run_id", "ts_ns", "cpu", "pid", "extra" };

	(void)state;
	for (size_t i = 0; i < vr_event_specs_count; i++) {
		int n = spec_nfields((int)i);

		assert_true(n > 0 && n <= VR_SPEC_MAX_FIELDS);
		for (int a = 0; a < n; a++) {
			for (size_t r = 0; r < sizeof(reserved) / sizeof(reserved[0]); r++)
				if (!strcmp(spec_column((int)i, a), reserved[r]))
					fail_msg("%s: column %s clashes with a common column",
						 vr_event_specs[i].name, reserved[r]);
			for (int b = a + 1; b < n; b++)
				assert_string_not_equal(spec_column((int)i, a), spec_column((int)i, b));
		}
		/* one spec per event name: the name is the table name */
		for (size_t j = i + 1; j < vr_event_specs_count; j++)
			assert_string_not_equal(vr_event_specs[i].name, vr_event_specs[j].name);
	}
}

static void test_find(void **state)
{
	(void)state;
	assert_int_equal(spec_find("vmscan", "mm_vmscan_no_such_event"), -1);
	assert_int_equal(spec_find("sched", "mm_vmscan_kswapd_wake"), -1);
	int i = spec_find("sched", "sched_wakeup");

	assert_true(i >= 0);
	/* the woken task's pid is stored as wakee_pid (pid is the common column) */
	assert_string_equal(spec_column(i, spec_field(i, "pid")), "wakee_pid");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_covers_6_18_formats),
		cmocka_unit_test(test_covers_4_11_formats),
		cmocka_unit_test(test_columns_unique_and_not_common),
		cmocka_unit_test(test_find),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
