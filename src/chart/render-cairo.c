// SPDX-License-Identifier: GPL-2.0
/*
 * render-cairo.c - the drawing kit behind the charts: a cairo surface
 * chosen by the file extension (PNG image, SVG or PDF vector), pango text in
 * DejaVu Sans, axes with 1-2-5 ticks (linear) or decades (log), legends and
 * the kernel palette.  The charts themselves are in render-charts.c.
 */
#include "outfile.h"
#include "render-cairo-kit.h"
#include "vr.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

const char *render_chart_format(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (!dot || strchr(dot, '/'))
		return NULL;
	if (!strcasecmp(dot, ".png"))
		return "png";
	if (!strcasecmp(dot, ".svg"))
		return "svg";
	if (!strcasecmp(dot, ".pdf"))
		return "pdf";
	return NULL;
}

/* cairo's write callback: into the outfile, which keeps the errno. */
static cairo_status_t write_out(void *closure, const unsigned char *data, unsigned int len)
{
	return outfile_write(closure, data, len) ? CAIRO_STATUS_WRITE_ERROR :
		CAIRO_STATUS_SUCCESS;
}

/* Give up on the file of @k after a failure (message printed). */
static void drop_file(struct rk *k)
{
	if (k->own_file)
		outfile_abort(k->file);
	else
		outfile_fail(k->file, 0);
	k->file = NULL;
}

int rk_open(struct rk *k, const struct render_chart_opts *o)
{
	memset(k, 0, sizeof(*k));
	k->path = o->file ? outfile_path(o->file) : o->path;
	k->w = o->width ? o->width : 800;
	k->h = o->height ? o->height : 600;
	k->format = render_chart_format(k->path);
	if (!k->format)
		return vr_error("%s: unknown chart format, use a .png, .svg or .pdf file name",
				k->path);
	if (k->w < RENDER_CHART_MIN_SIDE || k->h < RENDER_CHART_MIN_SIDE ||
	    k->w > RENDER_CHART_MAX_SIDE || k->h > RENDER_CHART_MAX_SIDE)
		return vr_error("%s: chart size %gx%g out of range %dx%d..%dx%d", k->path, k->w,
				k->h, RENDER_CHART_MIN_SIDE, RENDER_CHART_MIN_SIDE,
				RENDER_CHART_MAX_SIDE, RENDER_CHART_MAX_SIDE);
	k->own_file = !o->file;
	k->keep = o->keep;
	k->file = o->file ? o->file : outfile_create(o->path);
	if (!k->file)
		return -1;
	if (!strcmp(k->format, "png"))
		k->surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)k->w, (int)k->h);
	else if (!strcmp(k->format, "svg"))
		k->surface = cairo_svg_surface_create_for_stream(write_out, k->file, k->w, k->h);
	else
		k->surface = cairo_pdf_surface_create_for_stream(write_out, k->file, k->w, k->h);
	if (cairo_surface_status(k->surface) != CAIRO_STATUS_SUCCESS) {
		vr_error("%s: cannot create %s chart: %s", k->path, k->format,
			 cairo_status_to_string(cairo_surface_status(k->surface)));
		cairo_surface_destroy(k->surface);
		k->surface = NULL;
		drop_file(k);
		return -1;
	}
	k->cr = cairo_create(k->surface);
	cairo_set_source_rgb(k->cr, 1, 1, 1);
	cairo_paint(k->cr);
	cairo_set_line_join(k->cr, CAIRO_LINE_JOIN_ROUND);
	return 0;
}

int rk_close(struct rk *k)
{
	cairo_status_t st;

	if (!k->surface)
		return -1;
	st = cairo_status(k->cr);
	cairo_destroy(k->cr);
	if (st == CAIRO_STATUS_SUCCESS && !strcmp(k->format, "png"))
		st = cairo_surface_write_to_png_stream(k->surface, write_out, k->file);
	cairo_surface_finish(k->surface);	/* SVG and PDF are written now */
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(k->surface);
	cairo_surface_destroy(k->surface);
	k->surface = NULL;
	k->cr = NULL;
	if (st != CAIRO_STATUS_SUCCESS && !outfile_error(k->file)) {
		vr_error("%s: cannot draw the %s chart: %s", k->path, k->format,
			 cairo_status_to_string(st));
		drop_file(k);
		return -1;
	}
	/* a failed write: outfile_finish() names its reason (ENOSPC, EIO...) */
	if (k->own_file)
		return outfile_commit(k->file);
	return outfile_finish(k->file);
}

/* Okabe-Ito colour-blind safe palette, yellow left out (unreadable on white). */
struct rgb rk_kernel_colour(int i)
{
	static const struct rgb pal[] = {
		{ 0.000, 0.447, 0.698 },	/* blue */
		{ 0.835, 0.369, 0.000 },	/* vermillion */
		{ 0.000, 0.620, 0.451 },	/* bluish green */
		{ 0.800, 0.475, 0.655 },	/* reddish purple */
		{ 0.902, 0.624, 0.000 },	/* orange */
		{ 0.337, 0.706, 0.914 },	/* sky blue */
		{ 0.30, 0.30, 0.30 },		/* dark grey */
		{ 0.55, 0.35, 0.17 },		/* brown */
	};

	if (i < 0)
		i = 0;
	return pal[i % (int)VR_ARRAY_SIZE(pal)];
}

void rk_set(cairo_t *cr, struct rgb c, double alpha)
{
	cairo_set_source_rgba(cr, c.r, c.g, c.b, alpha);
}

static PangoLayout *layout(struct rk *k, const char *s, double size, int style)
{
	PangoLayout *l = pango_cairo_create_layout(k->cr);
	PangoFontDescription *fd = pango_font_description_from_string("DejaVu Sans");

	pango_font_description_set_absolute_size(fd, size * PANGO_SCALE);
	if (style & RK_BOLD)
		pango_font_description_set_weight(fd, PANGO_WEIGHT_BOLD);
	if (style & RK_ITALIC)
		pango_font_description_set_style(fd, PANGO_STYLE_ITALIC);
	pango_layout_set_font_description(l, fd);
	pango_font_description_free(fd);
	pango_layout_set_text(l, s, -1);
	pango_layout_set_alignment(l, PANGO_ALIGN_CENTER);	/* lines of multi-line text */
	return l;
}

void rk_text_size(struct rk *k, const char *s, double size, int style, double *w, double *h)
{
	PangoLayout *l = layout(k, s, size, style);
	int pw, ph;

	pango_layout_get_pixel_size(l, &pw, &ph);
	g_object_unref(l);
	if (w)
		*w = pw;
	if (h)
		*h = ph;
}

double rk_text(struct rk *k, double x, double y, const char *s, double size, double ha,
	       double va, int style, double angle, struct rgb c)
{
	PangoLayout *l = layout(k, s, size, style);
	int pw, ph;

	pango_layout_get_pixel_size(l, &pw, &ph);
	cairo_save(k->cr);
	cairo_translate(k->cr, x, y);
	cairo_rotate(k->cr, angle * M_PI / 180);
	cairo_move_to(k->cr, -ha * pw, -va * ph);
	rk_set(k->cr, c, 1);
	pango_cairo_show_layout(k->cr, l);
	cairo_restore(k->cr);
	g_object_unref(l);
	return pw;
}

double rk_title(struct rk *k, const char *title, const char *subtitle)
{
	double y = 10, h;

	rk_text_size(k, title, RK_FONT_TITLE, RK_BOLD, NULL, &h);
	rk_text(k, k->w / 2, y, title, RK_FONT_TITLE, 0.5, 0, RK_BOLD, 0, RK_BLACK);
	y += h + 2;
	if (subtitle && *subtitle) {
		rk_text_size(k, subtitle, RK_FONT_SMALL, RK_PLAIN, NULL, &h);
		rk_text(k, k->w / 2, y, subtitle, RK_FONT_SMALL, 0.5, 0, RK_PLAIN, 0, RK_GREY);
		y += h + 2;
	}
	return y + 4;
}

void rk_message(struct rk *k, double x, double y, double w, double h, const char *msg)
{
	cairo_rectangle(k->cr, x + 0.5, y + 0.5, w - 1, h - 1);
	rk_set(k->cr, (struct rgb){ 0.97, 0.97, 0.97 }, 1);
	cairo_fill_preserve(k->cr);
	rk_set(k->cr, RK_LIGHT, 1);
	cairo_set_line_width(k->cr, 1);
	cairo_stroke(k->cr);
	rk_text(k, x + w / 2, y + h / 2, msg, RK_FONT, 0.5, 0.5, RK_ITALIC, 0, RK_GREY);
}

double rk_map(const struct rk_axis *a, double v)
{
	double f;

	if (a->log) {
		v = v > 0 ? v : a->lo;
		f = (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	} else {
		f = (v - a->lo) / (a->hi - a->lo);
	}
	return a->p0 + f * (a->p1 - a->p0);
}

size_t rk_steps_per_column(const struct rk_axis *a, double v0, double v1, size_t n)
{
	double px = fabs(rk_map(a, v1) - rk_map(a, v0));

	return (double)n <= px || n < 2 ? 1 : (size_t)ceil((double)n / fmax(px, 1));
}

/* The 1-2-5 step giving about @n intervals over @range. */
static double nice_step(double range, int n)
{
	double raw = range / n, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

void rk_axis_fit(struct rk_axis *a, double min, double max, bool from_zero)
{
	if (!isfinite(min) || !isfinite(max)) {
		min = 0;
		max = 1;
	}
	if (a->log) {
		if (max <= 0)
			max = 1;
		if (min <= 0 || min > max)
			min = max / 10;
		a->lo = pow(10, floor(log10(min)));
		a->hi = pow(10, ceil(log10(max)));
		if (a->hi <= a->lo)
			a->hi = a->lo * 10;
		return;
	}
	if (from_zero && min > 0)
		min = 0;
	if (max <= min)
		max = min + (min ? fabs(min) : 1);
	double step = nice_step(max - min, 5);

	a->lo = floor(min / step) * step;
	a->hi = ceil(max / step - 1e-9) * step;
	if (a->hi <= max - 1e-12 * fabs(max))
		a->hi += step;
}

int rk_ticks(const struct rk_axis *a, double *ticks, int max)
{
	int n = 0;

	if (a->log) {
		double decades = log10(a->hi) - log10(a->lo);
		int every = decades > 8 ? 2 : 1;

		for (double e = log10(a->lo); e <= log10(a->hi) + 1e-9 && n < max; e += every) {
			ticks[n++] = pow(10, e);
			/* one or two decades: 2 and 5 times as well, or the axis
			 * has too few labels to read a value off */
			for (int m = 2; decades <= 2 && m <= 5 && n < max; m += 3)
				if (pow(10, e) * m < a->hi * (1 - 1e-9))
					ticks[n++] = pow(10, e) * m;
		}
		return n;
	}
	double pix = fabs(a->p1 - a->p0);
	int want = pix > 300 ? 8 : pix > 150 ? 5 : 3;
	double step = nice_step(a->hi - a->lo, want);

	for (double v = ceil(a->lo / step - 1e-9) * step; v <= a->hi + step * 1e-9 && n < max;
	     v += step)
		ticks[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	return n;
}

void rk_fmt(char *buf, size_t len, double v)
{
	static const struct {
		double div;
		const char *suffix;
	} units[] = { { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };
	double a = fabs(v);

	for (size_t i = 0; i < VR_ARRAY_SIZE(units); i++)
		if (a >= units[i].div) {
			snprintf(buf, len, "%.3g%s", v / units[i].div, units[i].suffix);
			return;
		}
	snprintf(buf, len, "%.3g", v);
}

void rk_yaxis(struct rk *k, const struct rk_axis *a, double x, bool left, double gx0,
	      double gx1, const char *title)
{
	double ticks[32], maxw = 0;
	int n = rk_ticks(a, ticks, 32);
	char buf[32];

	cairo_set_line_width(k->cr, 1);
	for (int i = 0; i < n; i++) {
		double y = round(rk_map(a, ticks[i])) + 0.5, w;

		if (gx1 > gx0) {
			rk_set(k->cr, RK_LIGHT, 1);
			cairo_move_to(k->cr, gx0, y);
			cairo_line_to(k->cr, gx1, y);
			cairo_stroke(k->cr);
		}
		rk_set(k->cr, RK_BLACK, 1);
		cairo_move_to(k->cr, x, y);
		cairo_line_to(k->cr, left ? x - 4 : x + 4, y);
		cairo_stroke(k->cr);
		rk_fmt(buf, sizeof(buf), ticks[i]);
		w = rk_text(k, left ? x - 6 : x + 6, y, buf, RK_FONT_SMALL, left ? 1 : 0, 0.5,
			    RK_PLAIN, 0, RK_BLACK);
		maxw = fmax(maxw, w);
	}
	rk_set(k->cr, RK_BLACK, 1);
	cairo_move_to(k->cr, round(x) + 0.5, a->p0);
	cairo_line_to(k->cr, round(x) + 0.5, a->p1);
	cairo_stroke(k->cr);
	if (title)
		rk_text(k, left ? x - maxw - 10 : x + maxw + 10, (a->p0 + a->p1) / 2, title,
			RK_FONT_SMALL, 0.5, left ? 1 : 0, RK_PLAIN, -90, RK_BLACK);
}

void rk_xaxis(struct rk *k, const struct rk_axis *a, double y, double gy0, const char *title)
{
	double ticks[32], th = 0;
	int n = rk_ticks(a, ticks, 32);
	char buf[32];

	cairo_set_line_width(k->cr, 1);
	for (int i = 0; i < n; i++) {
		double x = round(rk_map(a, ticks[i])) + 0.5;

		if (gy0 < y) {
			rk_set(k->cr, RK_LIGHT, 1);
			cairo_move_to(k->cr, x, gy0);
			cairo_line_to(k->cr, x, y);
			cairo_stroke(k->cr);
		}
		rk_set(k->cr, RK_BLACK, 1);
		cairo_move_to(k->cr, x, y);
		cairo_line_to(k->cr, x, y + 4);
		cairo_stroke(k->cr);
		rk_fmt(buf, sizeof(buf), ticks[i]);
		rk_text(k, x, y + 6, buf, RK_FONT_SMALL, 0.5, 0, RK_PLAIN, 0, RK_BLACK);
	}
	rk_text_size(k, "0", RK_FONT_SMALL, RK_PLAIN, NULL, &th);
	rk_set(k->cr, RK_BLACK, 1);
	cairo_move_to(k->cr, a->p0, round(y) + 0.5);
	cairo_line_to(k->cr, a->p1, round(y) + 0.5);
	cairo_stroke(k->cr);
	if (title)
		rk_text(k, (a->p0 + a->p1) / 2, y + 8 + th, title, RK_FONT_SMALL, 0.5, 0,
			RK_PLAIN, 0, RK_BLACK);
}

void rk_hatch(struct rk *k, double x, double y, double w, double h, struct rgb c)
{
	cairo_save(k->cr);
	cairo_rectangle(k->cr, x, y, w, h);
	cairo_clip(k->cr);
	rk_set(k->cr, c, 0.25);
	cairo_paint(k->cr);
	rk_set(k->cr, c, 0.8);
	cairo_set_line_width(k->cr, 1);
	for (double d = -h; d < w; d += 5) {
		cairo_move_to(k->cr, x + d, y + h);
		cairo_line_to(k->cr, x + d + h, y);
	}
	cairo_stroke(k->cr);
	cairo_restore(k->cr);
}

static void swatch(struct rk *k, double x, double y, double s, const struct rk_legend_item *it)
{
	cairo_t *cr = k->cr;

	switch (it->sw) {
	case RK_SW_BOX:
		cairo_rectangle(cr, x, y, s, s);
		rk_set(cr, it->c, it->alpha > 0 ? it->alpha : 1);
		cairo_fill_preserve(cr);
		rk_set(cr, it->c, 1);
		cairo_set_line_width(cr, 1);
		cairo_stroke(cr);
		break;
	case RK_SW_LINE:
		rk_set(cr, it->c, 1);
		cairo_set_line_width(cr, 2);
		cairo_move_to(cr, x - 3, y + s / 2);
		cairo_line_to(cr, x + s + 3, y + s / 2);
		cairo_stroke(cr);
		break;
	case RK_SW_DOT:
		rk_set(cr, it->c, 0.5);
		cairo_new_sub_path(cr);
		cairo_arc(cr, x + s / 2, y + s / 2, s / 2.5, 0, 2 * M_PI);
		cairo_fill_preserve(cr);
		rk_set(cr, it->c, 1);
		cairo_set_line_width(cr, 1);
		cairo_stroke(cr);
		break;
	case RK_SW_TRIANGLE:
		rk_set(cr, it->c, 1);
		cairo_move_to(cr, x + s / 2, y + s);
		cairo_line_to(cr, x, y + 1);
		cairo_line_to(cr, x + s, y + 1);
		cairo_close_path(cr);
		cairo_fill(cr);
		break;
	case RK_SW_HATCH:
		rk_hatch(k, x, y, s, s, it->c);
		break;
	}
}

double rk_legend(struct rk *k, double x, double y, double w, const struct rk_legend_item *it,
		 int n)
{
	const double s = 11, gap = 16;
	double cx = x, cy = y, th = 0, rowh;

	rk_text_size(k, "Mg", RK_FONT_SMALL, RK_PLAIN, NULL, &th);
	rowh = fmax(th, s) + 4;
	for (int i = 0; i < n; i++) {
		double tw;

		rk_text_size(k, it[i].label, RK_FONT_SMALL, RK_PLAIN, &tw, NULL);
		if (cx > x && cx + s + 5 + tw > x + w) {
			cx = x;
			cy += rowh;
		}
		swatch(k, cx, cy + (rowh - s) / 2 - 2, s, &it[i]);
		rk_text(k, cx + s + 5, cy + rowh / 2 - 2, it[i].label, RK_FONT_SMALL, 0, 0.5,
			RK_PLAIN, 0, RK_BLACK);
		cx += s + 5 + tw + gap;
	}
	return cy + rowh - y;
}
