/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chart-draw.h - one chart from the database to a file: build the chart
 * data (chart-data.h) and draw it (render-cairo.h).  Used by `chart` and
 * `report`.
 */
#ifndef VR_CHART_DRAW_H
#define VR_CHART_DRAW_H

#include <stdio.h>

struct compare_result;
struct outfile;
struct store;

struct chart_draw_req {
	const char *kind;	/* "timeline", "latency", "cdf", "counters" */
	const char *out;	/* file to draw (.png/.svg/.pdf), or NULL: no drawing */
	const char *also_out;	/* NULL, or a second file drawn from the same data
				 * (the queries run once) */
	struct outfile *out_file, *also_file;	/* instead of out and also_out: draw into
				 * these (borrowed; finished, not committed: report's
				 * files of one directory, outfile.h) */
	int width, height;	/* 0: 800 wide, 600 high (timelines of more than
				 * two nodes: 230 more per node) */
	long long run_id;	/* timeline */
	int nid;		/* timeline: -1 every node */
	double from_s, to_s;	/* timeline window; to_s < 0: end of run */
	double bin_s;		/* timeline rate bin; <= 0: automatic */
	double rate_max;	/* timeline rate axis top, pages/s; <= 0: the data's */
	const char *metric;	/* latency, cdf, windows */
	const char *align_marker;	/* windows: align the runs at this marker
				 * (chart_windows_build()); NULL: their start */
	const struct compare_result *counters_from;	/* counters: chart_counters_from()'s
				 * comparison, borrowed; NULL: built here */
	FILE *dump;		/* when set, the chart data is written here as text */
};

/**
 * chart_draw - build and draw the chart @r asks for.
 * Returns 0, or -1 after an error message (unknown kind or metric, no such
 * run, SQLite or cairo error, a write failed).  A file named by out or
 * also_out is replaced only once it is wholly written (render-cairo.h);
 * when one of two files fails the other is still drawn.
 */
int chart_draw(struct store *st, const struct chart_draw_req *r);

#endif /* VR_CHART_DRAW_H */
