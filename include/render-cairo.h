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

/* Where and how big. */
struct render_chart_opts {
	const char *path;	/* output file; extension .png, .svg or .pdf */
	int width, height;	/* pixels (PNG) or points (SVG, PDF); 0: 800x600 */
	const char *subtitle;	/* optional line under the title (borrowed) */
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
 * render_chart_timeline / _latency / _cdf / _counters - draw one chart
 * (layouts in DESIGN.md "Charts") to o->path, replacing the file.
 * Colours: kernel k is drawn in palette colour k (the colour index given in
 * the struct), the same in every chart.
 * Return 0, or -1 after "vmscan-report: PATH: reason" (unknown extension,
 * size out of range, cairo cannot create or write the file).
 */
int render_chart_timeline(const struct chart_timeline *t, const struct render_chart_opts *o);
int render_chart_latency(const struct chart_latency *l, const struct render_chart_opts *o);
int render_chart_cdf(const struct chart_cdf *c, const struct render_chart_opts *o);
int render_chart_counters(const struct chart_counters *c, const struct render_chart_opts *o);

#endif /* VR_RENDER_CAIRO_H */
