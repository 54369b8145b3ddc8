/* SPDX-License-Identifier: GPL-2.0 */
/*
 * windows.h - where and when reclaim happened: a run cut into windows of
 * equal width (at least 20 a run, or the width `load --window S` asks
 * for), per node: pages scanned and reclaimed by kswapd and outside it,
 * kswapd's running time, throttles by reason; for the whole machine also
 * the time tasks stalled in reclaim.  The derived table reclaim_window.
 */
#ifndef VR_WINDOWS_H
#define VR_WINDOWS_H

#include <stdint.h>

struct store;

/* The fewest windows a run is cut into when no width is given. */
#define WINDOWS_MIN 20

/**
 * windows_width_ns - the width for a run of @length_ns: the largest of 1, 2
 * and 5 times a power of ten ns that gives at least WINDOWS_MIN windows
 * (1 ns at the least).
 */
int64_t windows_width_ns(int64_t length_ns);

/**
 * windows_compute - write the reclaim_window rows of run @run_id of @st
 * inside its load transaction (the run's first_ts_ns/last_ts_ns, derived
 * tables and raw rows written): windows [first + i*W, first + (i+1)*W),
 * i = 0 .. floor(length / W), W = @width_ns or windows_width_ns().  One
 * row per window and node (every node with a kswapd cycle or a
 * shrink_inactive event), and one with nid NULL for the whole machine:
 * - kswapd_scanned, kswapd_reclaimed, other_scanned, other_reclaimed:
 *   nr_scanned and nr_reclaimed of mm_vmscan_lru_shrink_inactive of a
 *   kswapd* task or another, by the event's time (NULL row: every node);
 * - kswapd_running_ns: the overlap of kswapd's running intervals (a wake to
 *   its full sleep, or to its last activity before a nap: the counters'
 *   "Kswapd running %") with the window (NULL row: summed over nodes);
 * - stall_ns (NULL row only): the overlap of direct, memcg and node
 *   reclaim stalls with the window, summed over tasks (an open end counts
 *   to the run's edge), so it can exceed the width;
 * - throttled_writeback, _isolated, _noprogress, _congested:
 *   mm_vmscan_throttled waits by reason, by their end.
 * A run of no length has one window.  Returns 0 or -1 after a message.
 */
int windows_compute(struct store *st, int64_t run_id, int64_t width_ns);

/**
 * windows_align - where run @run_id's windows start when aligned at the
 * marker @marker: the first ftrace print event (a write to trace_marker)
 * whose text contains @marker (case-sensitive).  *@marker_ns: its time from
 * the run's first event, ns; *@first_window: the first window that starts
 * at or after it (ceil(marker_ns / width)), so an aligned run is read from
 * at most one window width after its marker.  *@first_window is -1 when
 * the run has no such marker (or no windows), WINDOWS_AFTER_LAST when its
 * marker comes after its last window's start (no window left to read:
 * such a run is left out, not read as one of no windows; *@marker_ns set).
 * Returns 0, or -1 after a
 * message (SQL error; a database without the raw print events, an
 * evidence database).
 */
#define WINDOWS_AFTER_LAST (-2)
int windows_align(struct store *st, int64_t run_id, const char *marker, int64_t *first_window,
		  int64_t *marker_ns);

#endif /* VR_WINDOWS_H */
