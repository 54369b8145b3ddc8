/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render-cairo.h - draw the chart structs of chart.h with cairo, text laid
 * out with pango (DejaVu Sans), onto a PNG, SVG or PDF file chosen by the
 * file name's extension.  No analysis and no SQL here: what is drawn is
 * exactly what the struct holds.  An empty struct gives a picture with the
 * title and a message saying what is missing, never a blank image.
 */
#ifndef VR_RENDER_CAIRO_H
#define VR_RENDER_CAIRO_H

#include "chart.h"

struct outfile;
struct render_kept;

/*
 * What drawing a chart into its first file kept for its next files (one
 * chart drawn into a PNG and an SVG): the timeline's stall images, drawn
 * once.  Zero-initialise it; free it with render_keep_release() once the
 * chart's last file is drawn (the chart struct drawn must not change
 * between its files).
 */
struct render_keep {
	struct render_kept *kept;	/* owned */
	size_t n;
};

/** render_keep_release - free what @k holds; empty after. */
void render_keep_release(struct render_keep *k);

/* Where and how big. */
struct render_chart_opts {
	const char *path;	/* output file; extension .png, .svg or .pdf */
	int width, height;	/* pixels (PNG) or points (SVG, PDF); 0: 800x600 */
	const char *subtitle;	/* optional line under the title (borrowed) */
	struct outfile *file;	/* NULL: write @path through a temporary renamed over it
				 * (outfile_create()); else draw into this file, borrowed,
				 * finished (outfile_finish()) but not committed, its name
				 * (outfile_path()) giving the format */
	struct render_keep *keep;	/* NULL, or what the chart's files share
					 * (borrowed) */
};

/**
 * render_chart_format - "png", "svg" or "pdf" for @path's extension (case
 * insensitive), or NULL when it has none of them.
 */
const char *render_chart_format(const char *path);

/* Smallest and largest size accepted (pixels/points per side). */
#define RENDER_CHART_MIN_SIDE 320
#define RENDER_CHART_MAX_SIDE 8000

/*
 * render_chart_timeline / _latency / _cdf / _counters - draw one chart to
 * o->path (replacing a regular file there only once the whole chart is
 * written; a symbolic link there is an error, never followed) or into
 * o->file.  The layouts: timeline - per node a kswapd state band, one band
 * per pgdat flag, then the direct reclaim stalls (log ms, left axis) over
 * the reclaim rate (pages/s, right axis) against seconds from the run's
 * start; latency - per percentile one candlestick per kernel as mmtests'
 * "candlesticks" graphs (bin/graph-mmtests.sh, data from
 * Extract::_printCandlePlotData: box mean +- stddev clipped to min..max,
 * whiskers min..max); cdf - share of samples <= x per kernel, log x;
 * counters - one panel of bars per counter, each with its own scale.
 * Colours: kernel k is drawn in palette colour k (the colour index given in
 * the struct), the same in every chart.
 * Return 0, or -1 after "vmscan-report: PATH: reason" (unknown extension,
 * size out of range, a symbolic link or directory at the name, cairo
 * cannot draw, or a write, fsync or close failed: "No space left on
 * device"); the name then holds what it held before.
 */
int render_chart_timeline(const struct chart_timeline *t, const struct render_chart_opts *o);
int render_chart_latency(const struct chart_latency *l, const struct render_chart_opts *o);
int render_chart_cdf(const struct chart_cdf *c, const struct render_chart_opts *o);
int render_chart_counters(const struct chart_counters *c, const struct render_chart_opts *o);

#endif /* VR_RENDER_CAIRO_H */
