/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare-vmstat.h - the "vmstat" block of a comparison: the kernels'
 * /proc/vmstat deltas over their recordings (counter snapshots, snapshot.h)
 * beside the trace's tables, with one line per run saying how the trace
 * accounts for them (coverage.h).  Kept apart from compare.h's two tables:
 * a caller renders it after them, in the same render_tables() call.
 */
#ifndef VR_COMPARE_VMSTAT_H
#define VR_COMPARE_VMSTAT_H

#include <stddef.h>
#include "render.h"

struct store;
struct compare_result;

struct compare_vmstat {
	struct render_table table;	/* "vmstat": one row per counter of the runs'
					 * coverage tables; nrows 0 when no run of the
					 * kernels has snapshots */
	char **notes;			/* owned: the mean's definition, then one
					 * coverage line per run */
	size_t nnotes;
	struct render_table windows;	/* "windows": steady or bursty, from the
					 * reclaim_window rows (windows.h); nrows 0
					 * when no run has them */
	char **wnotes;			/* owned: its notes */
	size_t nwnotes;
};

/**
 * compare_vmstat_build - the block for the kernels of @res (compare_build()'s
 * result on @s; its columns and layout), when @res has a counters block
 * (compare shows counters): each counter's delta (end - start snapshot)
 * averaged over a kernel's trace runs that have it (NAN, printed "-", for a
 * kernel with none), in the order of the coverage table; no percentages,
 * as mmtests prints its monitors.
 * @out: OUT: release with compare_vmstat_release().
 * Returns 0, or -1 after an SQL error message.
 */
int compare_vmstat_build(struct store *s, const struct compare_result *res,
			 struct compare_vmstat *out);

/**
 * compare_windows_build - the "windows" table of @v for the kernels of @res
 * (called by compare_vmstat_build()): per kernel, the mean over its trace
 * runs of, from each run's whole-machine windows (reclaim_window, nid
 * NULL): the window width (ms); the share of windows holding half the pages
 * scanned (kswapd and outside it), the fewest windows whose pages scanned
 * add up to half the run's, over all windows (%: near 50 when scanning is
 * steady, small when it comes in bursts); the p95 of the pages scanned per
 * window over their mean (1 when steady; the nearest rank, rounded up); the
 * same two of the stall time.  A run with no pages scanned (no stall time)
 * has no value of those; a kernel with none prints "-".
 * Returns 0 or -1 after an SQL error message.
 */
int compare_windows_build(struct store *s, const struct compare_result *res,
			  struct compare_vmstat *v);

/** compare_vmstat_release - free everything in @v. */
void compare_vmstat_release(struct compare_vmstat *v);

/**
 * compare_render_all - render @res's tables and @v's block (when it has
 * rows) into @out as one document of format @fmt (render_tables()).  Text:
 * when the caller fitted @res's tables to a width (render_text_fit()), the
 * blocks of @v are fitted to it too.
 */
void compare_render_all(const struct compare_result *res, const struct compare_vmstat *v,
			enum render_format fmt, struct vr_buf *out);

#endif /* VR_COMPARE_VMSTAT_H */
