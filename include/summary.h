/* SPDX-License-Identifier: GPL-2.0 */
/*
 * summary.h - what reclaim did in a run (`vmscan-report summary`, report's
 * summary.txt), read from the raw and derived tables (README.md "How
 * reclaim is reconstructed").
 */
#ifndef VR_SUMMARY_H
#define VR_SUMMARY_H

#include <stdint.h>
#include <stdio.h>

struct store;

/**
 * summary_print_run - write the summary of run @run_id of @s to @out:
 * a "run N: KERNEL iteration I, release R, S s <- FILE" line; totals for
 * direct reclaim and kswapd (direct reclaims and their complete stall time
 * in s, pages scanned and reclaimed split file/anon, reclaim writes
 * sync/async, wakeup requests per order, kswapd wakeups and full sleeps);
 * other stalls, throttling and slab shrinking (count, total s, max ms);
 * inferred pgdat flag time per node (s); a per-process table (direct
 * reclaims, kswapd wakeups requested, pages scanned/reclaimed, writes, ms
 * stalled, per order); a per-node kswapd table (wakes, re-wakes, sleep
 * decisions, time awake in s and %) with wakes per order; the run's
 * non-zero data-quality items.  The tables are those of the kernel's
 * Documentation/trace/postprocess/trace-vmscan-postprocess.pl, counted
 * from the derived tables (so 6.x traces give the right columns: pages
 * written by mm_vmscan_write_folio too, pids by number, ns timestamps).
 * Returns 0, or -1 after "vmscan-report: DB: no run N" or
 * "vmscan-report: DB: WHAT: reason" (part of the summary may be written).
 * Write errors of @out are the caller's to check (ferror()).
 */
int summary_print_run(struct store *s, int64_t run_id, FILE *out);

/**
 * summary_print - summary_print_run() of every run of @s in id order, an
 * empty line between two runs.  Returns 0 or -1 (message printed; stops at
 * the first failing run).
 */
int summary_print(struct store *s, FILE *out);

#endif /* VR_SUMMARY_H */
