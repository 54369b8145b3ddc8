/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chart-windows.h - the "windows" chart of one metric: each kernel's
 * per-window rate (reclaim_window, windows.h) on one time axis from the
 * run's start, the median over the kernel's runs drawn as a line and their
 * range shaded.  chart-windows.c builds it from the database,
 * render-windows.c draws it.
 */
#ifndef VR_CHART_WINDOWS_H
#define VR_CHART_WINDOWS_H

#include <stddef.h>
#include <stdio.h>

struct store;
struct render_chart_opts;

/* The metrics, by name (chart --metric, report's windows-NAME files). */
extern const char *const chart_windows_metrics[];	/* NULL-terminated */

struct chart_windows_series {
	char *kernel;		/* owned */
	int colour;		/* index in the database's kernel order */
	int nruns;		/* runs with windows */
	int nmissing;		/* runs left out: they did not record the
				 * metric (scanned, reclaimed: recorded.h
				 * RN_LRU_PAGES), never drawn as 0 */
	char *missing;		/* owned: why ("not traced", ...), or NULL */
	double *median, *lo, *hi;	/* per step: over the runs (NAN: no run
				 * reaches that time) */
};

struct chart_windows {
	char *metric;		/* owned */
	const char *unit;	/* static: "pages/s", "%" */
	const char *what;	/* static: what the metric is */
	double step_s;		/* the chart's step: the widest window of the runs */
	size_t nsteps;		/* steps from 0 to the longest run */
	struct chart_windows_series *series;
	size_t nseries;
	char *align_marker;	/* owned: the marker the runs are aligned at, or
				 * NULL: from each run's first event */
	char *unaligned;	/* owned: runs without the marker, left out
				 * ("k iteration 2, ..."), or NULL */
};

/**
 * chart_windows_build - the chart of @metric ("scanned", "reclaimed":
 * pages per second, kswapd and outside it; "stall": stall time over the
 * window, %, summed over tasks; "kswapd": kswapd running time over the
 * window, %, summed over nodes) for every kernel with windows.  Each run's
 * rate is read at the middle of each step of the chart (step: the widest
 * window of all runs), in the run's own window there; the median and range
 * are over the kernel's runs that last that long.  @marker (NULL: none):
 * each run's time 0 is its first window starting at or after its first
 * print event containing @marker (windows_align()); a run without one is
 * left out and named in unaligned.
 * Returns 0, or -1 after a message (unknown metric, SQL error, a database
 * without print events given a marker).
 */
int chart_windows_build(struct store *s, const char *metric, const char *marker,
			struct chart_windows *out);

/** chart_windows_dump - the data as text lines (chart --dump-data). */
void chart_windows_dump(const struct chart_windows *c, FILE *f);

/** chart_windows_release - free @c's contents. */
void chart_windows_release(struct chart_windows *c);

/** render_chart_windows - draw @c (render-cairo.h's rules); 0 or -1. */
int render_chart_windows(const struct chart_windows *c, const struct render_chart_opts *o);

#endif /* VR_CHART_WINDOWS_H */
