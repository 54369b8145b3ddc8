/* SPDX-License-Identifier: GPL-2.0 */
/*
 * coverage.h - is the trace complete?  The kernel's counters over a
 * recording (the deltas of its /proc/vmstat snapshots, snapshot.h) beside
 * what the trace accounts for over the same time, counter by counter, with
 * the difference explained where a cause is known.
 *
 * The mapping, kernel by kernel (mm/vmscan.c, mm/vmstat.c,
 * include/linux/vm_event_item.h; 6.1 and 6.18 read):
 * - pgscan_kswapd/_direct/_khugepaged: shrink_inactive_list() counts
 *   PGSCAN_KSWAPD + reclaimer_offset() by nr_scanned of its
 *   isolate_lru_folios(), whose mm_vmscan_lru_isolate event (lru 0 or 2,
 *   the inactive lists) carries the same nr_scanned, unless
 *   cgroup_reclaim(sc) (memcg and soft-limit reclaim are not counted).
 *   6.3+ counts khugepaged apart ("mm: vmscan: split khugepaged stats
 *   from direct reclaim stats"), and a kernel with pgscan_proactive counts
 *   proactive reclaim apart (reclaimer_offset(sc), sc->proactive).  With the multi-gen LRU enabled,
 *   scan_folios() counts `isolated`, the event's nr_taken, and emits
 *   lru_isolate only from 6.7 ("mm: multi-gen LRU: reuse some legacy trace
 *   events"): before that MGLRU's pages are not traced.
 * - pgsteal_*: shrink_inactive_list() (and MGLRU evict_folios()) counts
 *   nr_reclaimed, the mm_vmscan_lru_shrink_inactive event's, under the
 *   same rules.
 * - pgscan_anon/_file, pgsteal_anon/_file (5.8+, "mm: keep separate anon
 *   and file statistics on /proc/vmstat"): the same pages by list type,
 *   counted for every reclaimer, cgroup reclaim too.
 * - pgrefill: shrink_active_list() counts nr_scanned of the active lists'
 *   lru_isolate (lru 1 or 3), not for cgroup reclaim; classic LRU only.
 * - allocstall_*: do_try_to_free_pages() counts one per call of global
 *   reclaim, after try_to_free_pages() emitted mm_vmscan_direct_reclaim_begin.
 * - pageoutrun: balance_pgdat() counts one right after kswapd() emitted
 *   mm_vmscan_kswapd_wake.
 * - kswapd_low/high_wmark_hit_quickly: kswapd_try_to_sleep() counts LOW
 *   when its HZ/10 nap was cut short, HIGH when it timed out or was not
 *   taken, just before the next kswapd_wake: the kswapd_cycle decisions
 *   nap_woken_early, and nap_timed_out + no_nap.  LOW needs
 *   schedule_timeout() to return jiffies left: a nap the trace sees end
 *   within a jiffy of its timeout (nap_margin_ns) may be HIGH to the kernel.
 * - nr_vmscan_write: pageout() adds folio_nr_pages() after emitting one
 *   mm_vmscan_write_folio (writepage <= 5.17) per folio: pages against
 *   folios.  A node counter: /proc/vmstat shows it without the per-CPU
 *   deltas (vmstat_start()), each below zoneinfo's "vm stats threshold".
 * - memory.stat (the cgroup's, v2) pgscan/pgsteal and their _direct and
 *   _kswapd parts: shrink_inactive_list() counts __count_memcg_events() of
 *   the lruvec's memcg for every reclaimer (memcg reclaim as direct); the
 *   trace names no cgroup, so memcg reclaim's pages are compared, kswapd's
 *   and direct reclaim's pages bounding the rest; _kswapd: not traced.
 * - pswpout: swap_writepage() counts the pages of each swap write; the
 *   trace's anon writes of reclaim are folios; zswap stores (zswpout) and,
 *   from 6.12, zero-filled folios (swpout_zero) are not written.
 */
#ifndef VR_COVERAGE_H
#define VR_COVERAGE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct store;

/**
 * coverage_compute - make the counter_coverage rows of run @run_id from its
 * snapshot tables and its events (raw and derived tables), inside the
 * run's transaction (snapshot_load() calls it).  One row per counter the
 * trace can account for: vmstat_delta (end - start; NULL when the kernel
 * has no such counter), trace_value (NULL: not traced, with the reason),
 * difference (vmstat_delta - trace_value), verdict ("exact", "explained",
 * "unexplained", "not traced") and explanation.  The trace's events count
 * when they lie between the snapshot markers (the whole trace where a
 * marker is missing).  Returns 0 or -1 after a message.
 */
int coverage_compute(struct store *st, int64_t run_id);

/**
 * coverage_print_run - summary's "Coverage" block of run @run_id on @out:
 * its line (coverage_line()) and the table (counter, unit, vmstat delta,
 * trace, difference, verdict and explanation).  A run without snapshots:
 * one line saying so.  Returns 0 or -1.
 */
int coverage_print_run(struct store *st, int64_t run_id, FILE *out);

/**
 * coverage_line - one line of run @run_id's coverage into *@line
 * (malloc'ed, caller frees): "trace = vmstat, exact: pgscan_kswapd, ...;
 * nr_vmscan_write: vmstat - trace = 511, explained; ..." in table order
 * (@compact: the exact ones counted, "trace = vmstat, exact: 15 of 17
 * counters; ..."), or NULL when the run has no snapshots (or the database
 * no coverage table).  Returns 0 or -1.
 */
int coverage_line(struct store *st, int64_t run_id, bool compact, char **line);

#endif /* VR_COVERAGE_H */
