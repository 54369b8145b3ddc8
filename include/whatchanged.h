/* SPDX-License-Identifier: GPL-2.0 */
/*
 * whatchanged.h - the "What changed" section index.md opens with: one
 * sentence per significant difference between the baseline kernel and each
 * other, biggest first, then the caveats, and each run's coverage line.
 */
#ifndef VR_WHATCHANGED_H
#define VR_WHATCHANGED_H

#include "vr.h"

struct store;
struct compare_opts;
struct compare_result;

/**
 * whatchanged_write - append the section to @out (Markdown).
 * @res: compare_build()'s tables of @s under @o (the numbers are theirs).
 *
 * The differences: the latency rows compare marked significant (mean rows,
 * its test), with both values and the gain as compare.txt prints them;
 * the counters of the counters block whose per-run values differ from the
 * baseline's by Welch's t-test at @o->alpha (or, both constant over two runs
 * or more, in every run), with both means.  Biggest first: by the gain's or
 * the relative change's size, a change from 0 first.  The caveats: runs
 * that lost events, runs whose coverage has an unexplained counter or no
 * snapshots, incomplete direct stalls, inferred pgdat flag times.
 * Returns 0, or -1 after an SQL error message.
 */
int whatchanged_write(struct store *s, const struct compare_opts *o,
		      const struct compare_result *res, struct vr_buf *out);

#endif /* VR_WHATCHANGED_H */
