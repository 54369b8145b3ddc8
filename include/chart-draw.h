/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chart-draw.h - one chart from the database to a file: build the chart
 * data (chart-data.h) and draw it (render-cairo.h).  Used by `chart` and
 * `report`.
 */
#ifndef VR_CHART_DRAW_H
#define VR_CHART_DRAW_H

#include <stddef.h>
#include <stdio.h>

struct compare_result;
struct outfile;
struct store;

/* The kinds of chart, in the order `chart -h` lists them. */
enum chart_kind {
	CHART_TIMELINE,
	CHART_LATENCY,
	CHART_CDF,
	CHART_COUNTERS,
	CHART_WINDOWS,
	CHART_NKINDS
};

/* What a kind needs from the command line: flags of chart_kind_desc.needs. */
enum {
	CHART_NEEDS_RUN = 1,		/* --run ID */
	CHART_NEEDS_METRIC = 2,		/* --metric M, a latency metric */
	CHART_NEEDS_WINDOWS_METRIC = 4,	/* --metric M of chart_windows_metrics */
	CHART_TAKES_MARKER = 8,		/* --align-marker */
};

/* The one table of chart kinds (src/chart/chart-draw.c), indexed by enum
 * chart_kind: its name (`chart --kind`, completion, report's file names)
 * and what it needs. */
struct chart_kind_desc {
	const char *name;
	unsigned needs;
};
extern const struct chart_kind_desc chart_kinds[CHART_NKINDS];

/**
 * chart_kind_parse - the kind named @name (case-sensitive) in *@kind.
 * Returns 0, or -1 (no message) when no kind has that name.
 */
int chart_kind_parse(const char *name, enum chart_kind *kind);

/**
 * chart_kind_names - the names of every kind joined by @sep, in table order
 * ("timeline, latency, cdf, counters, windows" for ", "), into @buf of
 * @size bytes (cut to fit).  Returns @buf.
 */
const char *chart_kind_names(const char *sep, char *buf, size_t size);

struct chart_draw_req {
	enum chart_kind kind;
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
	const struct chart_timeline *rates;	/* timeline: NULL, or its rates built before
				 * (chart_timeline_opts.rates, borrowed) */
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
