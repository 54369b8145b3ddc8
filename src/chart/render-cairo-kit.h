/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render-cairo-kit.h - private drawing kit shared by render-cairo.c (the
 * kit itself) and render-charts.c (the four charts): surface by extension,
 * pango text, axes with nice ticks, legends, the kernel palette.
 */
#ifndef VR_RENDER_CAIRO_KIT_H
#define VR_RENDER_CAIRO_KIT_H

#include <cairo.h>
#include <stdbool.h>
#include "render-cairo.h"

struct rgb {
	double r, g, b;
};

/* A drawing on one surface. */
struct rk {
	cairo_surface_t *surface;
	cairo_t *cr;
	double w, h;
	const char *path;	/* for messages; borrowed */
	const char *format;	/* "png", "svg", "pdf" */
	struct outfile *file;	/* where cairo's bytes go */
	bool own_file;		/* made by rk_open() from o->path: committed by rk_close() */
	struct render_keep *keep;	/* o->keep: what the chart's files share, or NULL */
};

/* rk_open - check the format and size, start the file (o->file, or a
 * temporary for o->path: outfile.h) and create the surface writing into
 * it; 0 or -1 (message printed, nothing left behind). */
int rk_open(struct rk *k, const struct render_chart_opts *o);
/* rk_close - write (PNG), finish the surface, check cairo's status and
 * every write, then finish o->file or commit the temporary over o->path;
 * 0 or -1 (message printed, the temporary removed, o->file failed).
 * Always frees, even after an error. */
int rk_close(struct rk *k);

/* Palette: kernel @i (0, 1, ...; wraps) and a few fixed colours. */
struct rgb rk_kernel_colour(int i);
void rk_set(cairo_t *cr, struct rgb c, double alpha);

/* Text.  @size in pixels; @ha 0 left, 0.5 centre, 1 right; @va likewise for
 * top/middle/bottom.  @angle in degrees (-90: reading upwards).  Returns
 * the text's width in pixels (before rotation). */
enum { RK_PLAIN = 0, RK_BOLD = 1, RK_ITALIC = 2 };
double rk_text(struct rk *k, double x, double y, const char *s, double size, double ha,
	       double va, int style, double angle, struct rgb c);
/* Width and height of @s in pixels without drawing. */
void rk_text_size(struct rk *k, const char *s, double size, int style, double *w, double *h);

/* Title (and optional subtitle); returns the y below them. */
double rk_title(struct rk *k, const char *title, const char *subtitle);
/* "No data" message box in the given area. */
void rk_message(struct rk *k, double x, double y, double w, double h, const char *msg);

/* An axis maps data values [lo, hi] to pixels [p0, p1]. */
struct rk_axis {
	double lo, hi;
	double p0, p1;
	bool log;		/* log10 scale; lo > 0 */
};
double rk_map(const struct rk_axis *a, double v);
/* Of @n steps of equal width from @v0 to @v1 on @a, how many to draw as one
 * column, about a pixel wide: 1 while a step is a pixel or more.  Drawn
 * step by step, thousands of sub-pixel steps gave cairo 1.16 paths it
 * filled in quadratic time (make bench's trace, --window 0.1: 47 s). */
size_t rk_steps_per_column(const struct rk_axis *a, double v0, double v1, size_t n);
/* Choose lo/hi for data in [min, max]: rounded out to nice numbers
 * (linear, from 0 when @from_zero) or to powers of 10 (log). */
void rk_axis_fit(struct rk_axis *a, double min, double max, bool from_zero);
/* Tick values for @a into @ticks (at most @max); returns the count. */
int rk_ticks(const struct rk_axis *a, double *ticks, int max);
/* Format a tick value compactly: 0.5, 12, 2.5k, 1.2M. */
void rk_fmt(char *buf, size_t len, double v);

/* Draw a vertical axis at x (ticks to the left when @left, else right),
 * with tick labels, optional grid across [gx0, gx1], and a rotated title. */
void rk_yaxis(struct rk *k, const struct rk_axis *a, double x, bool left, double gx0,
	      double gx1, const char *title);
/* Horizontal axis at y with tick labels below, grid up to @gy0 (if < y). */
void rk_xaxis(struct rk *k, const struct rk_axis *a, double y, double gy0, const char *title);

/* Legend items laid out left to right, wrapping within [x, x + w]. */
enum rk_swatch { RK_SW_BOX, RK_SW_LINE, RK_SW_DOT, RK_SW_TRIANGLE, RK_SW_HATCH };
struct rk_legend_item {
	const char *label;
	struct rgb c;
	enum rk_swatch sw;
	double alpha;		/* for boxes; 0 means 1 */
};
/* Returns the height used. */
double rk_legend(struct rk *k, double x, double y, double w, const struct rk_legend_item *it,
		 int n);

/* A hatched rectangle (unknown state). */
void rk_hatch(struct rk *k, double x, double y, double w, double h, struct rgb c);

/* Font size defaults at the reference size 800x600 (scaled with the side). */
#define RK_FONT 12.0
#define RK_FONT_SMALL 10.5
#define RK_FONT_TITLE 16.0

static const struct rgb RK_BLACK = { 0, 0, 0 };
static const struct rgb RK_GREY = { 0.45, 0.45, 0.45 };
static const struct rgb RK_LIGHT = { 0.88, 0.88, 0.88 };

#endif /* VR_RENDER_CAIRO_KIT_H */
