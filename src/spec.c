// SPDX-License-Identifier: GPL-2.0
/*
 * spec.c - the table of known events and their fields (union over kernel
 * versions).  Sources: the TRACE_EVENT definitions in
 * include/trace/events/vmscan.h, writeback.h, compaction.h and sched.h of
 * the releases 4.4 to 6.18, compared release by release; each change below
 * names the release and, where known, the upstream commit, and README.md
 * "Tracepoints and their fields by kernel version" gives the whole history.
 * Fields a recording lacks are stored as NULL; fields a recording has
 * beyond this list are kept in the table's `extra` JSON column, so nothing
 * is lost.
 */
#include "spec.h"
#include "vr.h"

#include <string.h>

#define I(n) { n, NULL, VR_FT_INT, 0 }
#define IC(n, col) { n, col, VR_FT_INT, 0 }
#define T(n) { n, NULL, VR_FT_TEXT, 0 }
#define K(n) { n, NULL, VR_FT_INT, VR_FF_KSYM }
#define M(n) { n, NULL, VR_FT_INT, VR_FF_MODEL }

/* mm_vmscan_direct_reclaim_begin_template; classzone_idx 4.8-5.1,
 * may_writepage 4.4-5.1 (both dropped by 3481c37ffa1d "mm/vmscan: drop
 * may_writepage and classzone_idx from direct reclaim begin template",
 * 5.2), memcg_id 7.1 (874a0a566ede "mm: vmscan: add cgroup IDs to vmscan
 * tracepoints"; its place in the format unverified, bound by name). */
#define RECLAIM_BEGIN_FIELDS { I("order"), I("may_writepage"), I("gfp_flags"), \
	I("classzone_idx"), I("memcg_id") }
/* mm_vmscan_direct_reclaim_end_template; memcg_id 7.1. */
#define RECLAIM_END_FIELDS { I("nr_reclaimed"), I("memcg_id") }
/* lru_isolate template: file (<=4.10), classzone_idx (4.8-5.7) renamed
 * highest_zoneidx (5.8, 97a225e69a1f "mm/page_alloc: integrate
 * classzone_idx and high_zoneidx"), nr_skipped and lru (4.11, Michal
 * Hocko's tracepoint series), isolate_mode gone in 6.7 (3dfbb555c98a
 * "mm, vmscan: remove ISOLATE_UNMAPPED"). */
#define LRU_ISOLATE_FIELDS { I("classzone_idx"), I("highest_zoneidx"), I("order"), \
	I("nr_requested"), I("nr_scanned"), I("nr_skipped"), I("nr_taken"), \
	I("isolate_mode"), I("lru"), I("file") }
/* writepage (<=5.17) / write_folio (5.18+, e0cd5e7ffa54 "mm/vmscan:
 * Convert pageout() to take a folio"): pfn, reclaim_flags; very old
 * kernels recorded the struct page pointer as `page`. */
#define WRITEPAGE_FIELDS { I("page"), I("pfn"), I("reclaim_flags") }
/* writeback_congest_waited_template: wait_iff_congested gone in 5.16
 * (Mel Gorman's throttling series, 8cd7c588decf "mm/vmscan: throttle
 * reclaim until some writeback completes if congested" and the rest),
 * congestion_wait in 5.18 (NeilBrown, "Remove congestion tracking
 * framework"). */
#define CONGEST_WAIT_FIELDS { I("usec_timeout"), I("usec_delayed") }
/* compaction begin/end: zone_start, migrate_pfn, free_pfn, zone_end, sync;
 * end adds status. */
#define COMPACTION_FIELDS { I("zone_start"), I("migrate_pfn"), I("free_pfn"), \
	I("zone_end"), I("sync"), I("status") }

const struct vr_event_spec vr_event_specs[] = {
	{ "vmscan", "mm_vmscan_kswapd_sleep", "all", { I("nid") } },
	/* zid from 4.8 (recorded, not printed from 5.2: 3b775998eca7
	 * "include/trace/events/vmscan.h: drop zone id from kswapd
	 * tracepoints") */
	{ "vmscan", "mm_vmscan_kswapd_wake", "all", { I("nid"), I("zid"), I("order") } },
	/* gfp_flags 4.17 ("mm, page_alloc: wakeup kcompactd even if kswapd
	 * cannot free more memory"); unsigned long from 5.19 (fe573327ffb1
	 * "tracing: incorrect gfp_t conversion") */
	{ "vmscan", "mm_vmscan_wakeup_kswapd", "all",
	  { I("nid"), I("zid"), I("order"), I("gfp_flags") } },
	{ "vmscan", "mm_vmscan_direct_reclaim_begin", "all", RECLAIM_BEGIN_FIELDS },
	{ "vmscan", "mm_vmscan_direct_reclaim_end", "all", RECLAIM_END_FIELDS },
	{ "vmscan", "mm_vmscan_memcg_reclaim_begin", "CONFIG_MEMCG", RECLAIM_BEGIN_FIELDS },
	{ "vmscan", "mm_vmscan_memcg_reclaim_end", "CONFIG_MEMCG", RECLAIM_END_FIELDS },
	{ "vmscan", "mm_vmscan_memcg_softlimit_reclaim_begin", "CONFIG_MEMCG",
	  RECLAIM_BEGIN_FIELDS },
	{ "vmscan", "mm_vmscan_memcg_softlimit_reclaim_end", "CONFIG_MEMCG",
	  RECLAIM_END_FIELDS },
	/* 132bb8cfc9e0 "mm/vmscan: add tracepoints for node reclaim", 5.2 */
	{ "vmscan", "mm_vmscan_node_reclaim_begin", "5.2+",
	  { I("nid"), I("order"), I("gfp_flags") } },
	{ "vmscan", "mm_vmscan_node_reclaim_end", "5.2+", RECLAIM_END_FIELDS },
	/* pgs_scanned, lru_pgs until 4.15; priority 4.16 (9092c71bb724 "mm: use
	 * sc->priority for slab shrink targets"); memcg_id 7.1 */
	{ "vmscan", "mm_shrink_slab_start", "all",
	  { I("shr"), K("shrink"), I("nid"), I("nr_objects_to_shrink"), I("gfp_flags"),
	    I("pgs_scanned"), I("lru_pgs"), I("cache_items"), I("delta"),
	    I("total_scan"), I("priority"), I("memcg_id") } },
	/*
	 * The slab_* fields are the model's pairing of the end with its start
	 * (model-misc.c): the slab_shrink view reads them instead of a table
	 * that would repeat a million rows on a busy trace.
	 */
	{ "vmscan", "mm_shrink_slab_end", "all",
	  { I("shr"), I("nid"), K("shrink"), I("unused_scan"), I("new_scan"), I("retval"),
	    I("total_scan"), I("memcg_id"), M("slab_begin_ns"), M("slab_nr_objects_to_shrink"),
	    M("slab_complete") } },
	{ "vmscan", "mm_vmscan_lru_isolate", "all", LRU_ISOLATE_FIELDS },
	{ "vmscan", "mm_vmscan_memcg_isolate", "<=4.10", LRU_ISOLATE_FIELDS },
	{ "vmscan", "mm_vmscan_writepage", "<=5.17", WRITEPAGE_FIELDS },
	{ "vmscan", "mm_vmscan_write_folio", "5.18+", WRITEPAGE_FIELDS },
	/* zid before 4.8 (zone-based LRU), nid from 4.8 (599d0c954f91 "mm,
	 * vmscan: move LRU lists to node"); stat fields 4.11 ("mm, vmscan:
	 * enhance mm_vmscan_lru_shrink_inactive tracepoint"); nr_activate split
	 * into nr_activate0/1 in 5.2 (886cf1901db9 "mm: move recent_rotated
	 * pages calculation to shrink_inactive_list()") */
	{ "vmscan", "mm_vmscan_lru_shrink_inactive", "all",
	  { I("nid"), I("zid"), I("nr_scanned"), I("nr_reclaimed"), I("nr_dirty"),
	    I("nr_writeback"), I("nr_congested"), I("nr_immediate"), I("nr_activate"),
	    I("nr_activate0"), I("nr_activate1"), I("nr_ref_keep"), I("nr_unmap_fail"),
	    I("priority"), I("reclaim_flags"), M("mglru_retry") } },
	{ "vmscan", "mm_vmscan_lru_shrink_active", "4.11+",
	  { I("nid"), I("nr_taken"), I("nr_active"), I("nr_deactivated"),
	    I("nr_referenced"), I("priority"), I("reclaim_flags") } },
	{ "vmscan", "mm_vmscan_inactive_list_is_low", "4.11-5.4 (defined to 5.11)",
	  { I("nid"), I("reclaim_idx"), I("total_inactive"), I("inactive"),
	    I("total_active"), I("active"), I("ratio"), I("reclaim_flags") } },
	/* 8cd7c588decf, 5.16; reason is 1 << enum vmscan_throttle_state */
	{ "vmscan", "mm_vmscan_throttled", "5.16+",
	  { I("nid"), I("usec_timeout"), I("usec_delayed"), I("reason") } },
	{ "vmscan", "mm_vmscan_reclaim_pages", "6.13+",
	  { I("nid"), I("nr_scanned"), I("nr_reclaimed"), I("nr_dirty"), I("nr_writeback"),
	    I("nr_congested"), I("nr_immediate"), I("nr_activate0"), I("nr_activate1"),
	    I("nr_ref_keep"), I("nr_unmap_fail") } },
	/* a45088376d8a "mm/vmscan: add tracepoint and reason for
	 * kswapd_failures reset" (Jiayuan Chen, Jan 2026; merged for 7.0, not
	 * checked against a v7.0 tree): reclaim_fail in balance_pgdat(),
	 * clear_hopeless in kswapd_clear_hopeless(), reason an enum
	 * kswapd_clear_hopeless_reason; the reset event was named
	 * reset_kswapd_failures in an earlier version: both names are read */
	{ "vmscan", "mm_vmscan_kswapd_reclaim_fail", "7.0+", { I("nid"), I("failures") } },
	{ "vmscan", "mm_vmscan_reset_kswapd_failures", "7.0+", { I("nid"), I("reason") } },
	{ "vmscan", "mm_vmscan_kswapd_clear_hopeless", "7.0+", { I("nid"), I("reason") } },
	{ "writeback", "writeback_congestion_wait", "<=5.17", CONGEST_WAIT_FIELDS },
	{ "writeback", "writeback_wait_iff_congested", "<=5.15", CONGEST_WAIT_FIELDS },
	{ "compaction", "mm_compaction_begin", "all", COMPACTION_FIELDS },
	{ "compaction", "mm_compaction_end", "all", COMPACTION_FIELDS },
	/* classzone_idx renamed highest_zoneidx in 5.8 */
	{ "compaction", "mm_compaction_wakeup_kcompactd", "4.6+",
	  { I("nid"), I("order"), I("classzone_idx"), I("highest_zoneidx") } },
	/* sched_switch/sched_wakeup: the woken task's `pid` field would clash
	 * with the common pid column, so it is stored as wakee_pid */
	{ "sched", "sched_switch", "all",
	  { T("prev_comm"), I("prev_pid"), I("prev_prio"), I("prev_state"), T("next_comm"),
	    I("next_pid"), I("next_prio") } },
	{ "sched", "sched_wakeup", "all",
	  { T("comm"), IC("pid", "wakee_pid"), I("prio"), I("success"), I("target_cpu") } },
	{ "sched", "sched_waking", "4.3+",
	  { T("comm"), IC("pid", "wakee_pid"), I("prio"), I("success"), I("target_cpu") } },
};

const size_t vr_event_specs_count = VR_ARRAY_SIZE(vr_event_specs);

int spec_find(const char *system, const char *name)
{
	for (size_t i = 0; i < vr_event_specs_count; i++)
		if (!strcmp(vr_event_specs[i].name, name) &&
		    !strcmp(vr_event_specs[i].system, system))
			return (int)i;
	return -1;
}

/*
 * Counters the kernel declares unsigned long (or unsigned int) in
 * TP_STRUCT__entry, printed %lu/%u (lru_shrink_inactive: %ld)
 * (include/trace/events/vmscan.h,
 * 4.4-6.18: lru_isolate, lru_shrink_inactive, lru_shrink_active,
 * direct_reclaim_end, inactive_list_is_low, shrink_slab_start's 4.4-4.15
 * pgs_scanned/lru_pgs): a printed "-1" cannot have come from them, and a
 * page count above 2^63 - 1 is no count (it would be stored negative).
 */
static const char *const counter_fields[] = {
	"nr_requested", "nr_scanned", "nr_skipped", "nr_taken", "nr_reclaimed", "nr_dirty",
	"nr_writeback", "nr_congested", "nr_immediate", "nr_activate", "nr_activate0",
	"nr_activate1", "nr_ref_keep", "nr_unmap_fail", "nr_active", "nr_deactivated",
	"nr_referenced", "total_inactive", "inactive", "total_active", "active", "ratio",
	"pgs_scanned", "lru_pgs", NULL
};

int spec_field_is_counter(const char *name)
{
	for (int i = 0; counter_fields[i]; i++)
		if (!strcmp(counter_fields[i], name))
			return 1;
	return 0;
}

int spec_nfields(int idx)
{
	int n = 0;

	while (n < VR_SPEC_MAX_FIELDS && vr_event_specs[idx].fields[n].name)
		n++;
	return n;
}

const char *spec_column(int idx, int f)
{
	const struct vr_field_spec *fs = &vr_event_specs[idx].fields[f];

	return fs->column ? fs->column : fs->name;
}
