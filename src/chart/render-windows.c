// SPDX-License-Identifier: GPL-2.0
/*
 * render-windows.c - draw the windows chart (chart-windows.h): one time
 * axis from the runs' start, per kernel the median over its runs as a step
 * line and the range (min to max) of its runs shaded.
 */
#include "chart-windows.h"
#include "render-cairo-kit.h"
#include "vr.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#define MARGIN 14.0

/* The step path of @v (NAN: a gap) over steps of @step_s; @close_to: the
 * values the shaded range returns along, or NULL for a line. */
static void step_path(cairo_t *cr, const struct rk_axis *xa, const struct rk_axis *ya,
		      const double *v, const double *back, size_t n, double step_s)
{
	for (size_t j = 0; j < n;) {
		size_t e = j;

		if (isnan(v[j])) {
			j++;
			continue;
		}
		while (e < n && !isnan(v[e]))
			e++;
		cairo_move_to(cr, rk_map(xa, (double)j * step_s), rk_map(ya, v[j]));
		for (size_t i = j; i < e; i++) {
			cairo_line_to(cr, rk_map(xa, (double)i * step_s), rk_map(ya, v[i]));
			cairo_line_to(cr, rk_map(xa, (double)(i + 1) * step_s), rk_map(ya, v[i]));
		}
		if (back) {
			for (size_t i = e; i-- > j;) {
				cairo_line_to(cr, rk_map(xa, (double)(i + 1) * step_s),
					      rk_map(ya, back[i]));
				cairo_line_to(cr, rk_map(xa, (double)i * step_s), rk_map(ya, back[i]));
			}
			cairo_close_path(cr);
			cairo_fill(cr);
		} else {
			cairo_stroke(cr);
		}
		j = e;
	}
}

/*
 * @v binned by @f steps into @out (n / f rounded up): the largest (@hi) or
 * smallest value of each bin, NAN for a bin of gaps only.  What a pixel
 * column shows of the steps it holds: their extremes, so no peak drawn
 * step by step is lost.
 */
static void bin_steps(const double *v, size_t n, size_t f, bool hi, double *out)
{
	for (size_t b = 0; b * f < n; b++) {
		double m = NAN;

		for (size_t i = b * f; i < n && i < (b + 1) * f; i++)
			if (!isnan(v[i]) && (isnan(m) || (hi ? v[i] > m : v[i] < m)))
				m = v[i];
		out[b] = m;
	}
}

/*
 * Draw series @s's range shaded (@line false) or its median line: step by
 * step when a step is at least a pixel wide, else by columns of @f steps,
 * each the extremes of its steps (the range's over its bin, the median's
 * drawn as a band between its least and greatest, stroked as the line
 * is, which is what the steps drawn one by one would cover).
 */
static void draw_series(cairo_t *cr, const struct rk_axis *xa, const struct rk_axis *ya,
			const struct chart_windows_series *s, size_t n, double step_s, size_t f,
			bool line)
{
	size_t nb = (n + f - 1) / f;
	double *top, *bottom;

	if (f == 1) {
		step_path(cr, xa, ya, line ? s->median : s->hi, line ? NULL : s->lo, n, step_s);
		return;
	}
	top = vr_malloc(nb * sizeof(*top));
	bottom = vr_malloc(nb * sizeof(*bottom));
	bin_steps(line ? s->median : s->hi, n, f, true, top);
	bin_steps(line ? s->median : s->lo, n, f, false, bottom);
	if (line) {	/* the band's outline stroked too: the line's width */
		step_path(cr, xa, ya, top, bottom, nb, step_s * (double)f);
		step_path(cr, xa, ya, top, NULL, nb, step_s * (double)f);
		step_path(cr, xa, ya, bottom, NULL, nb, step_s * (double)f);
	} else {
		step_path(cr, xa, ya, top, bottom, nb, step_s * (double)f);
	}
	free(top);
	free(bottom);
}

int render_chart_windows(const struct chart_windows *c, const struct render_chart_opts *o)
{
	struct rk_axis xa = { 0 }, ya = { 0 };
	struct rk_legend_item *it = vr_calloc(c->nseries + 1, sizeof(*it));
	struct vr_buf *lab = vr_calloc(c->nseries + 1, sizeof(*lab));
	double hi = 0, y, L, R, B;
	struct vr_buf title, sub, ylab;
	size_t f;
	struct rk k;

	if (rk_open(&k, o)) {
		free(it);
		free(lab);
		return -1;
	}
	vr_buf_init(&title);
	vr_buf_init(&sub);
	vr_buf_init(&ylab);
	vr_buf_addf(&title, "Where and when: %s per window", c->metric);
	vr_buf_addf(&sub, "%s\nmedian over each kernel's runs (line), their range shaded", c->what);
	if (c->step_s > 0)	/* none read: no width to name */
		vr_buf_addf(&sub, "; windows of %.3g s", c->step_s);
	if (c->align_marker)
		vr_buf_addf(&sub, "; aligned at the marker '%s'%s%s", c->align_marker,
			    c->unaligned ? ", left out (no marker unless said): " : "",
			    c->unaligned ? c->unaligned : "");
	y = rk_title(&k, title.buf, o->subtitle ? o->subtitle : sub.buf);
	for (size_t i = 0; i < c->nseries; i++) {
		vr_buf_init(&lab[i]);
		vr_buf_addf(&lab[i], "%s (%d runs)", c->series[i].kernel, c->series[i].nruns);
		if (c->series[i].nmissing)	/* never a line at 0: said instead */
			vr_buf_addf(&lab[i], ", %d left out: %s", c->series[i].nmissing,
				    c->series[i].missing);
		it[i] = (struct rk_legend_item){ lab[i].buf, rk_kernel_colour(c->series[i].colour),
						 RK_SW_LINE, 0.35 };
		for (size_t j = 0; j < c->nsteps; j++)
			if (!isnan(c->series[i].hi[j]))
				hi = fmax(hi, c->series[i].hi[j]);
	}
	y += rk_legend(&k, MARGIN + 50, y, k.w - 2 * MARGIN - 50, it, (int)c->nseries) + 8;
	if (!c->nseries || !c->nsteps) {
		rk_message(&k, MARGIN, y, k.w - 2 * MARGIN, k.h - y - MARGIN,
			   c->align_marker && c->nseries ? "no run has a window at or after the"
			   " marker" : "no run has windows (load makes them)");
		goto out;
	}
	L = MARGIN + 62;
	R = k.w - MARGIN - 14;
	B = k.h - MARGIN - 36;
	xa.p0 = L;
	xa.p1 = R;
	rk_axis_fit(&xa, 0, (double)c->nsteps * c->step_s, true);
	ya.p0 = B;
	ya.p1 = y + 6;
	rk_axis_fit(&ya, 0, hi > 0 ? hi : 1, true);
	vr_buf_addf(&ylab, "%s %s", c->metric, c->unit);
	rk_yaxis(&k, &ya, L, true, L, R, ylab.buf);
	rk_xaxis(&k, &xa, B, ya.p1, c->align_marker ? "time since the marker (s), from the first"
		 " window after it" : "time since the run's first event (s)");
	cairo_save(k.cr);
	cairo_rectangle(k.cr, L, ya.p1 - 2, R - L, B - ya.p1 + 4);
	cairo_clip(k.cr);
	f = rk_steps_per_column(&xa, 0, (double)c->nsteps * c->step_s, c->nsteps);
	for (size_t i = 0; i < c->nseries; i++) {
		rk_set(k.cr, rk_kernel_colour(c->series[i].colour), 0.2);
		draw_series(k.cr, &xa, &ya, &c->series[i], c->nsteps, c->step_s, f, false);
	}
	cairo_set_line_width(k.cr, 2);
	for (size_t i = 0; i < c->nseries; i++) {
		rk_set(k.cr, rk_kernel_colour(c->series[i].colour), 1);
		draw_series(k.cr, &xa, &ya, &c->series[i], c->nsteps, c->step_s, f, true);
	}
	cairo_restore(k.cr);
out:
	for (size_t i = 0; i < c->nseries; i++)
		vr_buf_release(&lab[i]);
	free(lab);
	free(it);
	vr_buf_release(&title);
	vr_buf_release(&sub);
	vr_buf_release(&ylab);
	return rk_close(&k);
}
