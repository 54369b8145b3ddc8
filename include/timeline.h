/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timeline.h - the reconstructed history of one run as text
 * (`vmscan-report timeline`), one line per state change, read from the
 * derived tables written by the model during load (README.md "How reclaim
 * is reconstructed").
 */
#ifndef VR_TIMELINE_H
#define VR_TIMELINE_H

#include <stdint.h>
#include <stdio.h>

/* What to print. */
struct timeline_opts {
	int64_t run_id;		/* run.id */
	int nid;		/* only this node (stalls without a node are kept); -1: all */
	double from_s, to_s;	/* window in seconds from the run's first event; NAN: open */
	double min_stall_ms;	/* reclaim stalls shorter than this are left out */
};

/* The reclaim stalls of the window and node that timeline_print() did not
 * print: shorter than min_stall_ms, or of unknown duration (no
 * reclaim_stall.duration_ns).  Counts of reclaim_stall rows. */
struct timeline_hidden {
	long shorter;
	long unknown;
};

struct store;

/**
 * timeline_print - write the timeline of @o->run_id of @s to @out: a
 * header, then per state change in time order "seconds node event":
 * kswapd wake (order, zid), nap and how it ended (woken early =
 * KSWAPD_LOW_WMARK_HIT_QUICKLY, timed out or no nap =
 * KSWAPD_HIGH_WMARK_HIT_QUICKLY, the vmstat counters mm/vmscan.c
 * kswapd_try_to_sleep() counts), full sleep (premature or not), pgdat flag
 * set with its rule and evidence and cleared, reclaim stalls of at least
 * @o->min_stall_ms.  "[exact]" marks sleep decisions made from
 * sched_switch/sched_wakeup of the kswapd pid.  The stalls of the window
 * and node it leaves out are counted in *@hidden (when not NULL), so that
 * the caller can say so.
 * Returns 0, or -1 after "vmscan-report: DB: no run N", "DB: run N has no
 * node M (its nodes: ...)" or "DB: WHAT: reason" of SQLite (the lines
 * before the error stay written).  Write errors of @out are the caller's
 * to check (ferror()).
 */
int timeline_print(struct store *s, const struct timeline_opts *o, FILE *out,
		   struct timeline_hidden *hidden);

#endif /* VR_TIMELINE_H */
