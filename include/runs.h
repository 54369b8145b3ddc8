/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runs.h - the run list of a database (`vmscan-report runs`, report's
 * runs.txt): one line per row of table `run` (README.md "Loading").
 */
#ifndef VR_RUNS_H
#define VR_RUNS_H

#include <stdio.h>

struct store;

/**
 * runs_print - write the run list of @s to @out: a header line, then per
 * run in id order its id, kernel label, iteration, kernel release, trace
 * clock, CPUs, duration in seconds (last - first event), events, lost
 * events ("N+?" when some lost-event markers carry no count), the ring
 * buffer overrun counters saved in the file ("-" when not saved), file
 * version and source path.
 * Returns 0, or -1 after "vmscan-report: DB: run list: reason" (what was
 * written to @out before stays there).  Write errors of @out are the
 * caller's to check (ferror()).
 */
int runs_print(struct store *s, FILE *out);

/**
 * runs_no_run - the error for a run id @run_id that @s does not have:
 * "vmscan-report: DB: no run ID (its runs: 1-3, 5)", the ids it has in
 * ranges ("none" in a database without runs).  Returns -1, as vr_error().
 */
int runs_no_run(struct store *s, long long run_id);

#endif /* VR_RUNS_H */
