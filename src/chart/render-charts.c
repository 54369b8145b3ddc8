// SPDX-License-Identifier: GPL-2.0
/*
 * render-charts.c - the four charts (layouts in render-cairo.h), drawn from
 * the structs of chart.h with the kit of render-cairo.c: timeline of one run,
 * latency candlesticks (mmtests' bin/graph-mmtests.sh "candlesticks"
 * layout), latency distribution (CDF, log x) and counters (grouped bars,
 * one small panel per counter).
 */
#include "render-cairo-kit.h"
#include "vr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MARGIN 14.0

/* @msg in the chart's area below @y: why an empty chart is empty. */
static void message_below(struct rk *k, double y, const char *msg)
{
	rk_message(k, MARGIN, y, k->w - 2 * MARGIN, k->h - y - MARGIN, msg);
}

static const struct rgb ST_AWAKE = { 0.84, 0.26, 0.10 };
static const struct rgb ST_NAP = { 0.98, 0.74, 0.25 };
static const struct rgb ST_ASLEEP = { 0.62, 0.78, 0.93 };
static const struct rgb ST_UNKNOWN = { 0.55, 0.55, 0.55 };
static const struct rgb ST_THROTTLED = { 0.45, 0.08, 0.05 };
static const struct rgb RATE_KSWAPD = { 0.00, 0.36, 0.62 };
static const struct rgb RATE_DIRECT = { 0.00, 0.58, 0.40 };
/* a stall mark's colour by enum chart_stall_kind */
static const struct rgb STALL_KIND[CHART_STALL_NKINDS] = {
	[CHART_STALL_DIRECT] = { 0.75, 0.05, 0.35 },
	[CHART_STALL_MEMCG] = { 0.45, 0.20, 0.70 },
	[CHART_STALL_SOFTLIMIT] = { 0.85, 0.45, 0.75 },
	[CHART_STALL_NODE] = { 0.55, 0.35, 0.10 },
	[CHART_STALL_THROTTLE] = { 0.20, 0.20, 0.20 },
};
static const char *const STALL_LABEL[CHART_STALL_NKINDS] = {
	[CHART_STALL_DIRECT] = "direct reclaim stall (size: duration)",
	[CHART_STALL_MEMCG] = "memcg reclaim stall",
	[CHART_STALL_SOFTLIMIT] = "memcg soft limit reclaim stall",
	[CHART_STALL_NODE] = "node reclaim stall",
	[CHART_STALL_THROTTLE] = "reclaim throttled (wait)",
};

static struct rgb flag_colour(const char *label)
{
	switch (chart_flag_item(label)) {
	case CHART_TL_DIRTY: return (struct rgb){ 0.55, 0.35, 0.17 };
	case CHART_TL_WRITEBACK: return (struct rgb){ 0.45, 0.30, 0.70 };
	case CHART_TL_CONGESTED: return (struct rgb){ 0.80, 0.12, 0.12 };
	case CHART_TL_HOPELESS: return (struct rgb){ 0.10, 0.10, 0.10 };
	default: return (struct rgb){ 0.30, 0.30, 0.30 };
	}
}

/*
 * Filled spans of one band, each at least 1 px wide (short bursts stay
 * visible), drawn in the order given: consecutive spans of one colour that
 * touch or overlap once widened are filled as one rectangle, their union,
 * which is what filling them one after the other in an opaque colour
 * paints.  A run's 25,000 kswapd cycles in 700 px were 50,000 rectangles,
 * a 9.5 MB SVG.  span_add() adds [x0, x1] (device units) in the colour set
 * by the caller since the last span_flush(), which fills what is pending.
 */
struct span_run {
	double x0, x1, y, h;
	bool open;
};

static void span_flush(cairo_t *cr, struct span_run *r)
{
	if (r->open) {
		cairo_rectangle(cr, r->x0, r->y, r->x1 - r->x0, r->h);
		cairo_fill(cr);
	}
	r->open = false;
}

static void span_add(cairo_t *cr, struct span_run *r, double x0, double x1)
{
	if (x1 - x0 < 1) {
		double m = (x0 + x1) / 2;

		x0 = m - 0.5;
		x1 = m + 0.5;
	}
	if (r->open && x0 <= r->x1) {
		r->x0 = fmin(r->x0, x0);
		r->x1 = fmax(r->x1, x1);
		return;
	}
	span_flush(cr, r);
	*r = (struct span_run){ x0, x1, r->y, r->h, true };
}

/* ---- timeline ---------------------------------------------------------- */

struct tl_geom {
	double L, R;		/* plot x range */
	double band_h, flag_h, gap;
	struct rk_axis t;	/* time axis */
};

static double draw_band_label(struct rk *k, const struct tl_geom *g, double y, double h,
			      const char *label)
{
	return rk_text(k, g->L - 8, y + h / 2, label, RK_FONT_SMALL, 1, 0.5, RK_PLAIN, 0,
		       RK_BLACK);
}

static void draw_kswapd_band(struct rk *k, const struct tl_geom *g,
			     const struct chart_timeline_node *n, double y)
{
	const struct chart_band *b = &n->kswapd;
	cairo_t *cr = k->cr;
	double last_x = -INFINITY;	/* of the last premature triangle drawn */

	draw_band_label(k, g, y, g->band_h, b->label);
	rk_set(cr, (struct rgb){ 0.96, 0.96, 0.96 }, 1);
	cairo_rectangle(cr, g->L, y, g->R - g->L, g->band_h);
	cairo_fill(cr);
	/* one state a pass: asleep, napping, unknown, awake, throttled (in
	 * reclaim_throttle(), awake too), each over those before, so that
	 * short naps and bursts of work are drawn over the long sleeps; where
	 * spans of several states share a pixel, the later pass shows */
	static const enum chart_kswapd_state order[] = {
		CHART_KSWAPD_ASLEEP, CHART_KSWAPD_NAPPING, CHART_KSWAPD_UNKNOWN, CHART_KSWAPD_AWAKE,
		CHART_KSWAPD_THROTTLED,
	};
	for (size_t pass = 0; pass < VR_ARRAY_SIZE(order); pass++) {
		struct span_run run = { .y = y, .h = g->band_h };

		rk_set(cr, order[pass] == CHART_KSWAPD_AWAKE ? ST_AWAKE :
			   order[pass] == CHART_KSWAPD_THROTTLED ? ST_THROTTLED :
			   order[pass] == CHART_KSWAPD_NAPPING ? ST_NAP : ST_ASLEEP, 1);
		for (size_t i = 0; i < b->nspans; i++) {
			const struct chart_span *s = &b->spans[i];
			double x0 = rk_map(&g->t, s->begin_s), x1 = rk_map(&g->t, s->end_s);

			if (s->state != (int)order[pass])
				continue;
			if (s->state == CHART_KSWAPD_UNKNOWN)
				rk_hatch(k, x0, y, fmax(x1 - x0, 1), g->band_h, ST_UNKNOWN);
			else
				span_add(cr, &run, x0, x1);
		}
		span_flush(cr, &run);
	}
	if (!b->nspans && b->note)
		rk_text(k, g->L + 6, y + g->band_h / 2, b->note, RK_FONT_SMALL, 0, 0.5,
			RK_ITALIC, 0, RK_GREY);
	/* premature sleeps: small triangles pointing down onto the band, one
	 * path; a triangle within half a pixel of the one before adds nothing
	 * to see (3000 premature sleeps in 700 px were 3000 paths) */
	rk_set(cr, RK_BLACK, 1);
	for (size_t i = 0; i < n->npremature; i++) {
		double x = rk_map(&g->t, n->premature_s[i]);

		if (fabs(x - last_x) < 0.5)
			continue;
		cairo_move_to(cr, x, y + 1);
		cairo_line_to(cr, x - 4, y - 6);
		cairo_line_to(cr, x + 4, y - 6);
		cairo_close_path(cr);
		last_x = x;
	}
	cairo_fill(cr);
}

static void draw_flag_band(struct rk *k, const struct tl_geom *g, const struct chart_band *b,
			   double y)
{
	cairo_t *cr = k->cr;
	struct span_run run = { .y = y, .h = g->flag_h };

	draw_band_label(k, g, y, g->flag_h, b->label);
	rk_set(cr, (struct rgb){ 0.96, 0.96, 0.96 }, 1);
	cairo_rectangle(cr, g->L, y, g->R - g->L, g->flag_h);
	cairo_fill(cr);
	rk_set(cr, flag_colour(b->label), 1);
	for (size_t i = 0; i < b->nspans; i++)
		span_add(cr, &run, rk_map(&g->t, b->spans[i].begin_s),
			 rk_map(&g->t, b->spans[i].end_s));
	span_flush(cr, &run);
	if (!b->nspans && b->note)
		rk_text(k, g->L + 6, y + g->flag_h / 2, b->note, RK_FONT_SMALL - 1, 0, 0.5,
			RK_ITALIC, 0, RK_GREY);
}

/* Highest value of the two rate series of every node. */
static double max_rate(const struct chart_timeline *t)
{
	double m = 0;

	for (size_t i = 0; i < t->nnodes; i++)
		for (size_t b = 0; b < t->nodes[i].nbins; b++)
			m = fmax(m, fmax(t->nodes[i].rate_kswapd[b], t->nodes[i].rate_direct[b]));
	return m;
}

static void max_stall(const struct chart_timeline *t, double *lo, double *hi)
{
	*lo = INFINITY;
	*hi = 0;
	for (size_t i = 0; i < t->nnodes; i++)
		for (size_t s = 0; s < t->nodes[i].nstalls; s++) {
			double v = t->nodes[i].stall_ms[s];

			if (v > 0) {
				*lo = fmin(*lo, v);
				*hi = fmax(*hi, v);
			}
		}
}

/*
 * The step line of @rate, one bin a step; bins narrower than a pixel go by
 * columns of about a pixel, each drawn as the box of its bins' least and
 * greatest rate, which the bins' steps and the rises between them would
 * cover (--bin 0.001 over make bench's 557 s run: 557,072 bins, 4.2 s to
 * stroke them one by one).
 */
static void rate_path(cairo_t *cr, const struct tl_geom *g, const struct chart_timeline *t,
		      const double *rate, size_t nbins, const struct rk_axis *ra)
{
	size_t f = rk_steps_per_column(&g->t, t->from_s, t->to_s, nbins);

	for (size_t b = 0; b < nbins; b += f) {
		size_t e = b + f < nbins ? b + f : nbins;
		double x0 = rk_map(&g->t, t->from_s + b * t->bin_s);
		double x1 = rk_map(&g->t, fmin(t->to_s, t->from_s + e * t->bin_s));
		double lo = rate[b], hi = rate[b];

		for (size_t i = b + 1; i < e; i++) {
			lo = fmin(lo, rate[i]);
			hi = fmax(hi, rate[i]);
		}
		if (b == 0)
			cairo_move_to(cr, x0, rk_map(ra, hi));
		else
			cairo_line_to(cr, x0, rk_map(ra, hi));
		cairo_line_to(cr, x1, rk_map(ra, hi));
		if (lo != hi) {
			cairo_line_to(cr, x1, rk_map(ra, lo));
			cairo_line_to(cr, x0, rk_map(ra, lo));
			cairo_line_to(cr, x0, rk_map(ra, hi));
			cairo_line_to(cr, x1, rk_map(ra, hi));
		}
	}
}

static void draw_rate(struct rk *k, const struct tl_geom *g, const struct chart_timeline *t,
		      const double *rate, size_t nbins, const struct rk_axis *ra, struct rgb c)
{
	cairo_t *cr = k->cr;

	for (int pass = 0; pass < 2; pass++) {	/* a white halo, then the line */
		rk_set(cr, pass ? c : (struct rgb){ 1, 1, 1 }, pass ? 1 : 0.8);
		cairo_set_line_width(cr, pass ? 1.6 : 4);
		rate_path(cr, g, t, rate, nbins, ra);
		cairo_stroke(cr);
	}
}

/* Above this many stall marks they are drawn as one embedded image. */
#define STALLS_AS_VECTORS 2000

/* A stall image of a node's plot, kept for the chart's next file: its
 * pixels depend on the node's stalls and the plot's place, nothing else. */
struct render_kept {
	const struct chart_timeline_node *node;
	double L, R, y0, y1;
	cairo_surface_t *img;
};

void render_keep_release(struct render_keep *k)
{
	for (size_t i = 0; i < k->n; i++)
		cairo_surface_destroy(k->kept[i].img);
	free(k->kept);
	k->kept = NULL;
	k->n = 0;
}

/* Stall marks: circles at (start, duration) whose radius grows with the
 * square root of the duration; dense clouds get lighter marks. */
static void draw_stalls(cairo_t *cr, const struct tl_geom *g, const struct chart_timeline_node *n,
			const struct rk_axis *sa, double shi)
{
	bool dense = n->nstalls > 500;

	cairo_set_line_width(cr, dense ? 0.5 : 0.8);
	for (size_t s = 0; s < n->nstalls; s++) {
		double x = rk_map(&g->t, n->stall_begin_s[s]);
		double y = rk_map(sa, fmax(n->stall_ms[s], sa->lo));
		double r = 1.5 + 6 * sqrt(fmax(n->stall_ms[s], 0) / (shi > 0 ? shi : 1));

		struct rgb c = STALL_KIND[n->stall_kind[s] < CHART_STALL_NKINDS ?
					  n->stall_kind[s] : 0];

		cairo_new_sub_path(cr);
		cairo_arc(cr, x, y, r, 0, 2 * M_PI);
		rk_set(cr, c, dense ? 0.15 : 0.25);
		cairo_fill_preserve(cr);
		rk_set(cr, c, dense ? 0.4 : 0.8);	/* a lone mark stays visible */
		cairo_stroke(cr);
	}
}

/* The stall image kept in @keep for node @n's plot at this place, or NULL. */
static cairo_surface_t *kept_stalls(const struct render_keep *keep, const struct tl_geom *g,
				    const struct chart_timeline_node *n, double y0, double y1)
{
	for (size_t i = 0; keep && i < keep->n; i++) {
		const struct render_kept *e = &keep->kept[i];

		if (e->node == n && e->L == g->L && e->R == g->R && e->y0 == y0 && e->y1 == y1)
			return e->img;
	}
	return NULL;
}

/*
 * Node @n's stall marks into the new image @img (the plot from @y0 to @y1):
 * copied from the one kept in @keep when a file drawn before had the plot
 * at the same place (as many pixels, the same), else drawn and kept there.
 * @img is always a new surface of the file's own, so that what cairo
 * numbers (an SVG's image ids) is as when each file draws its own.
 */
static void stalls_image(struct render_keep *keep, cairo_surface_t *img, const struct tl_geom *g,
			 const struct chart_timeline_node *n, const struct rk_axis *sa, double shi,
			 double y0, double y1)
{
	cairo_surface_t *old = kept_stalls(keep, g, n, y0, y1);
	cairo_t *ic;

	if (old && cairo_surface_status(img) == CAIRO_STATUS_SUCCESS) {
		cairo_surface_flush(img);
		memcpy(cairo_image_surface_get_data(img), cairo_image_surface_get_data(old),
		       (size_t)cairo_image_surface_get_stride(img) *
		       (size_t)cairo_image_surface_get_height(img));
		cairo_surface_mark_dirty(img);
		return;
	}
	ic = cairo_create(img);
	cairo_translate(ic, -g->L, -y0);
	draw_stalls(ic, g, n, sa, shi);
	cairo_destroy(ic);
	if (keep && cairo_surface_status(img) == CAIRO_STATUS_SUCCESS) {
		keep->kept = vr_realloc(keep->kept, (keep->n + 1) * sizeof(*keep->kept));
		keep->kept[keep->n++] = (struct render_kept){ n, g->L, g->R, y0, y1,
							      cairo_surface_reference(img) };
	}
}

static void draw_plot(struct rk *k, const struct tl_geom *g, const struct chart_timeline *t,
		      const struct chart_timeline_node *n, double y0, double y1, bool last)
{
	struct rk_axis sa = { .log = true, .p0 = y1, .p1 = y0 + 4 };
	struct rk_axis ra = { .p0 = y1, .p1 = y0 + 4 };
	double slo, shi, rmax = t->rate_max > 0 ? t->rate_max : max_rate(t);
	cairo_t *cr = k->cr;

	max_stall(t, &slo, &shi);
	rk_axis_fit(&sa, isfinite(slo) ? slo : 0.01, shi > 0 ? shi : 10, false);
	rk_axis_fit(&ra, 0, rmax > 0 ? rmax : 1, true);
	rk_set(cr, (struct rgb){ 1, 1, 1 }, 1);
	cairo_rectangle(cr, g->L, y0, g->R - g->L, y1 - y0);
	cairo_fill(cr);
	/* a stall is in the panels of the nodes it reclaimed from; one whose
	 * reclaim left no shrink event (no node) is in every panel */
	rk_yaxis(k, &sa, g->L, true, g->L, g->R, t->nnodes > 1 ?
		 "stall on this node (ms, log)" : "stall (ms, log)");
	rk_yaxis(k, &ra, g->R, false, 0, 0, "reclaimed (pages/s)");
	if (last)
		rk_xaxis(k, &g->t, y1, y0, "time since the start of the run (s)");
	else
		rk_xaxis(k, &g->t, y1, y0, NULL);
	cairo_save(cr);
	cairo_rectangle(cr, g->L, y0, g->R - g->L, y1 - y0);
	cairo_clip(cr);
	if (n->nstalls <= STALLS_AS_VECTORS) {
		draw_stalls(cr, g, n, &sa, shi);
	} else {
		/* many marks: draw them into an image at the chart's resolution
		 * and place that, so that an SVG or PDF stays small */
		int iw = (int)ceil(g->R - g->L), ih = (int)ceil(y1 - y0);
		cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, iw, ih);

		stalls_image(k->keep, img, g, n, &sa, shi, y0, y1);
		cairo_translate(cr, g->L, y0);
		cairo_set_source_surface(cr, img, 0, 0);
		cairo_paint(cr);
		cairo_surface_destroy(img);
	}
	cairo_restore(cr);
	cairo_save(cr);
	cairo_rectangle(cr, g->L, y0, g->R - g->L, y1 - y0);
	cairo_clip(cr);
	if (!n->rate_missing) {
		draw_rate(k, g, t, n->rate_kswapd, n->nbins, &ra, RATE_KSWAPD);
		draw_rate(k, g, t, n->rate_direct, n->nbins, &ra, RATE_DIRECT);
	}
	cairo_restore(cr);
	if (n->rate_missing) {	/* "reclaimed: not traced", never a line at 0 */
		char word[64];

		snprintf(word, sizeof(word), "reclaimed pages/s: %.*s", (int)strcspn(n->rate_missing,
			 ":"), n->rate_missing);
		rk_text(k, g->R - 6, y0 + 6, word, RK_FONT_SMALL, 1, 0, RK_ITALIC, 0, RK_GREY);
	}
	if (!n->nstalls)
		rk_text(k, g->L + 6, y0 + 6, "no reclaim stalls or throttling in this window",
			RK_FONT_SMALL, 0, 0, RK_ITALIC, 0, RK_GREY);
}

/* The legend: what the chart draws (chart_timeline_drawn()), nothing else. */
static void timeline_legend(struct rk *k, const struct chart_timeline *t, double *y, double x0,
			    double w)
{
	struct rk_legend_item all[CHART_TL_NITEMS] = {
		[CHART_TL_AWAKE] = { "kswapd awake", ST_AWAKE, RK_SW_BOX, 0 },
		[CHART_TL_NAPPING] = { "napping", ST_NAP, RK_SW_BOX, 0 },
		[CHART_TL_ASLEEP] = { "asleep", ST_ASLEEP, RK_SW_BOX, 0 },
		[CHART_TL_UNKNOWN] = { "unknown", ST_UNKNOWN, RK_SW_HATCH, 0 },
		[CHART_TL_THROTTLED] = { "throttled (awake)", ST_THROTTLED, RK_SW_BOX, 0 },
		[CHART_TL_PREMATURE] = { "premature sleep", RK_BLACK, RK_SW_TRIANGLE, 0 },
		[CHART_TL_DIRTY] = { "DIRTY set", flag_colour("DIRTY"), RK_SW_BOX, 0 },
		[CHART_TL_WRITEBACK] = { "WRITEBACK set", flag_colour("WRITEBACK"), RK_SW_BOX, 0 },
		[CHART_TL_CONGESTED] = { "CONGESTED set", flag_colour("CONGESTED"), RK_SW_BOX, 0 },
		[CHART_TL_HOPELESS] = { "kswapd hopeless (>= 16 failures)", flag_colour("hopeless"),
					RK_SW_BOX, 0 },
		[CHART_TL_NO_DIRTY] = { "PGDAT_DIRTY: no such flag (6.19+)", ST_UNKNOWN,
					RK_SW_HATCH, 0 },
		[CHART_TL_RATE_KSWAPD] = { "reclaimed by kswapd", RATE_KSWAPD, RK_SW_LINE, 0 },
		[CHART_TL_RATE_OTHERS] = { "by others (direct, memcg, node)", RATE_DIRECT,
					   RK_SW_LINE, 0 },
	};
	struct rk_legend_item it[CHART_TL_NITEMS];
	unsigned int drawn = chart_timeline_drawn(t);
	int n = 0;

	for (int kd = 0; kd < CHART_STALL_NKINDS; kd++)
		all[CHART_TL_STALL + kd] = (struct rk_legend_item){ STALL_LABEL[kd],
								    STALL_KIND[kd], RK_SW_DOT, 0 };
	for (int i = 0; i < CHART_TL_NITEMS; i++)
		if (drawn & (1u << i))
			it[n++] = all[i];
	if (n)
		*y += rk_legend(k, x0, *y, w, it, n) + 8;
}

int render_chart_timeline(const struct chart_timeline *t, const struct render_chart_opts *o)
{
	struct tl_geom g = { .band_h = 16, .flag_h = 13, .gap = 4 };
	struct vr_buf title, sub;
	struct rk k;
	double y, lw = 0, panel_h, xaxis_h = 40;

	if (rk_open(&k, o))
		return -1;
	vr_buf_init(&title);
	vr_buf_init(&sub);
	vr_buf_addf(&title, "Reclaim timeline: %s, iteration %d (run %lld)",
		    t->kernel ? t->kernel : "?", t->iteration, t->run_id);
	if (o->subtitle)
		vr_buf_addstr(&sub, o->subtitle);
	else if (t->to_s > t->from_s)
		vr_buf_addf(&sub, "%.3g to %.3g s of %.3g s; reclaim rate in %g s bins",
			    t->from_s, t->to_s, t->duration_s, t->bin_s);
	else
		vr_buf_addstr(&sub, "0 s: the run has no length");
	y = rk_title(&k, title.buf, sub.buf);
	if (t->to_s <= t->from_s) {	/* no time axis to draw anything over */
		message_below(&k, y, "nothing to draw over time: the first and last events are at"
			      " the same time");
		goto out;
	}
	for (size_t i = 0; i < t->nnodes; i++) {
		double w;

		rk_text_size(&k, t->nodes[i].kswapd.label, RK_FONT_SMALL, RK_PLAIN, &w, NULL);
		lw = fmax(lw, w);
		for (size_t f = 0; f < t->nodes[i].nflags; f++) {
			rk_text_size(&k, t->nodes[i].flags[f].label, RK_FONT_SMALL, RK_PLAIN, &w,
				     NULL);
			lw = fmax(lw, w);
		}
	}
	g.L = MARGIN + fmax(lw + 10, 72);
	g.R = k.w - 78;
	g.t = (struct rk_axis){ .lo = t->from_s, .hi = t->to_s, .p0 = g.L, .p1 = g.R };
	timeline_legend(&k, t, &y, MARGIN, k.w - 2 * MARGIN);
	if (!t->nnodes) {
		message_below(&k, y, "no reclaim activity in this run: no kswapd, flag, stall or LRU "
			      "shrink events");
		goto out;
	}
	panel_h = (k.h - y - xaxis_h) / (double)t->nnodes;
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct chart_timeline_node *n = &t->nodes[i];
		double py = y + i * panel_h;
		char hdr[32];

		snprintf(hdr, sizeof(hdr), "node %d", n->nid);
		rk_text(&k, MARGIN, py, hdr, RK_FONT, 0, 0, RK_BOLD, 0, RK_BLACK);
		py += 10;	/* room for the premature-sleep triangles */
		draw_kswapd_band(&k, &g, n, py);
		py += g.band_h + g.gap;
		for (size_t f = 0; f < n->nflags; f++) {
			draw_flag_band(&k, &g, &n->flags[f], py);
			py += g.flag_h + 2;
		}
		draw_plot(&k, &g, t, n, py + g.gap, y + (i + 1) * panel_h - (i + 1 < t->nnodes ?
			  28 : 0), i + 1 == t->nnodes);
	}
out:
	vr_buf_release(&title);
	vr_buf_release(&sub);
	return rk_close(&k);
}

/* ---- shared by the kernel charts ---------------------------------------- */

/* "us" is printed as "µs". */
static const char *unit_label(const char *unit)
{
	return unit && !strcmp(unit, "us") ? "\xc2\xb5s" : unit ? unit : "";
}

/* Legend of kernels, centred under the title; returns the new y. */
static double kernel_legend(struct rk *k, double y, char *const *names, const int *colour,
			    const char *const *extra, size_t n, enum rk_swatch sw)
{
	struct rk_legend_item *it = vr_calloc(n ? n : 1, sizeof(*it));
	struct vr_buf *lab = vr_calloc(n ? n : 1, sizeof(*lab));
	double h;

	for (size_t i = 0; i < n; i++) {
		vr_buf_init(&lab[i]);
		vr_buf_addstr(&lab[i], names[i]);
		if (extra && extra[i])
			vr_buf_addf(&lab[i], " %s", extra[i]);
		it[i] = (struct rk_legend_item){ lab[i].buf, rk_kernel_colour(colour[i]), sw, 0.35 };
	}
	h = rk_legend(k, MARGIN + 50, y, k->w - 2 * MARGIN - 50, it, (int)n);
	for (size_t i = 0; i < n; i++)
		vr_buf_release(&lab[i]);
	free(lab);
	free(it);
	return y + h + 8;
}

/* ---- latency candlesticks ------------------------------------------------ */

static void candle(cairo_t *cr, const struct chart_candle *c, const struct rk_axis *y, double x,
		   double w, struct rgb col)
{
	double ymin = rk_map(y, c->min), ymax = rk_map(y, c->max);
	double ylo = rk_map(y, c->box_lo), yhi = rk_map(y, c->box_hi), ym = rk_map(y, c->mean);

	rk_set(cr, col, 1);
	cairo_set_line_width(cr, 1.2);
	cairo_move_to(cr, x, ymin);		/* whiskers min..max with caps */
	cairo_line_to(cr, x, ymax);
	cairo_move_to(cr, x - w / 4, ymin);
	cairo_line_to(cr, x + w / 4, ymin);
	cairo_move_to(cr, x - w / 4, ymax);
	cairo_line_to(cr, x + w / 4, ymax);
	cairo_stroke(cr);
	cairo_rectangle(cr, x - w / 2, yhi, w, fmax(ylo - yhi, 1));	/* mean -/+ stddev */
	rk_set(cr, (struct rgb){ 1, 1, 1 }, 1);
	cairo_fill_preserve(cr);
	rk_set(cr, col, 0.35);
	cairo_fill_preserve(cr);
	rk_set(cr, col, 1);
	cairo_stroke(cr);
	cairo_set_line_width(cr, 2.5);		/* mean */
	cairo_move_to(cr, x - w / 2, ym);
	cairo_line_to(cr, x + w / 2, ym);
	cairo_stroke(cr);
}

int render_chart_latency(const struct chart_latency *l, const struct render_chart_opts *o)
{
	struct vr_buf title, ylab, sub;
	char **extra;
	double lo = INFINITY, hi = -INFINITY, y, L, R, B, gw;
	struct rk_axis ya = { 0 };
	size_t ncandles = 0;
	struct rk k;

	if (rk_open(&k, o))
		return -1;
	vr_buf_init(&title);
	vr_buf_init(&ylab);
	vr_buf_init(&sub);
	vr_buf_addf(&title, "%s latency per kernel", l->metric ? l->metric : "?");
	vr_buf_addf(&sub, "%s\nbox: mean \xc2\xb1 stddev of the %s; whiskers: min to max",
		    l->what ? l->what : "", l->imported ? "values of every report of every run"
							: "per-run values");
	y = rk_title(&k, title.buf, o->subtitle ? o->subtitle : sub.buf);
	for (size_t i = 0; i < l->npct * l->nkernels; i++)
		ncandles += l->candles[i].n > 0;
	ya.log = chart_latency_log_axis(l, &lo, &hi);
	/* how many values each kernel's candles stand on: a flat candle from
	 * one run must not look like a tight result from many */
	extra = vr_calloc(l->nkernels + 1, sizeof(*extra));
	for (size_t i = 0; i < l->nkernels; i++) {
		struct vr_buf e;
		int most = 0;

		for (size_t p = 0; p < l->npct; p++)
			most = most > l->candles[p * l->nkernels + i].n ? most :
			       l->candles[p * l->nkernels + i].n;
		vr_buf_init(&e);
		if (l->imported)
			vr_buf_addf(&e, "(%d reports)", most);
		else
			vr_buf_addf(&e, "(samples in %d of %d runs)", most,
				    l->nruns ? l->nruns[i] : most);
		extra[i] = vr_buf_detach(&e);
	}
	y = kernel_legend(&k, y, l->kernels, l->colour, (const char *const *)extra, l->nkernels,
			  RK_SW_BOX);
	for (size_t i = 0; i < l->nkernels; i++)
		free(extra[i]);
	free(extra);
	if (!ncandles) {
		message_below(&k, y, "no samples of this metric in any run");
		goto out;
	}
	L = MARGIN + 70;
	R = k.w - MARGIN - 10;
	B = k.h - MARGIN - 36;
	ya.p0 = B;
	ya.p1 = y + 6;
	rk_axis_fit(&ya, ya.log ? lo : 0, ya.log ? hi : hi * 1.05, true);	/* headroom */
	vr_buf_addf(&ylab, "latency (%s)%s", unit_label(l->unit), ya.log ? ", log scale" : "");
	rk_yaxis(&k, &ya, L, true, L, R, ylab.buf);
	gw = (R - L) / (double)l->npct;
	for (size_t p = 0; p < l->npct; p++) {
		double gx = L + p * gw, slot = gw * 0.8 / (double)l->nkernels;
		double cw = fmin(slot * 0.6, 40);

		rk_text(&k, gx + gw / 2, B + 6, l->pct[p], RK_FONT, 0.5, 0, RK_PLAIN, 0, RK_BLACK);
		if (p) {
			rk_set(k.cr, RK_LIGHT, 1);
			cairo_set_line_width(k.cr, 1);
			cairo_move_to(k.cr, round(gx) + 0.5, ya.p1);
			cairo_line_to(k.cr, round(gx) + 0.5, B);
			cairo_stroke(k.cr);
		}
		for (size_t i = 0; i < l->nkernels; i++) {
			const struct chart_candle *c = &l->candles[p * l->nkernels + i];

			double cx = gx + gw * 0.1 + (i + 0.5) * slot;

			if (c->n)
				candle(k.cr, c, &ya, cx, cw, rk_kernel_colour(l->colour[i]));
			else	/* say so rather than leave a silent gap */
				rk_text(&k, cx, B - 4, l->nodata && l->nodata[i] ? l->nodata[i]
					: "no data", RK_FONT_SMALL - 1, 0, 0.5,
					RK_ITALIC, -90, RK_GREY);
		}
	}
	rk_set(k.cr, RK_BLACK, 1);
	cairo_set_line_width(k.cr, 1);
	cairo_move_to(k.cr, L, round(B) + 0.5);
	cairo_line_to(k.cr, R, round(B) + 0.5);
	cairo_stroke(k.cr);
	rk_text(&k, (L + R) / 2, B + 24, l->imported ? "percentile reported by the workload" :
		"percentile of each run's samples", RK_FONT_SMALL, 0.5, 0, RK_PLAIN, 0, RK_BLACK);
out:
	vr_buf_release(&title);
	vr_buf_release(&ylab);
	vr_buf_release(&sub);
	return rk_close(&k);
}

/* ---- distribution ------------------------------------------------------- */

int render_chart_cdf(const struct chart_cdf *c, const struct render_chart_opts *o)
{
	struct rk_axis xa = { .log = true }, ya = { .lo = 0, .hi = 100 };
	double lo = INFINITY, hi = 0, y, L, R, B;
	struct vr_buf title, xlab, sub;
	char **names = vr_calloc(c->nseries + 1, sizeof(char *));
	char **extra = vr_calloc(c->nseries + 1, sizeof(char *));
	int *colour = vr_calloc(c->nseries + 1, sizeof(int));
	size_t total = 0;
	struct rk k;

	if (rk_open(&k, o)) {
		free(names);
		free(extra);
		free(colour);
		return -1;
	}
	vr_buf_init(&title);
	vr_buf_init(&xlab);
	vr_buf_init(&sub);
	vr_buf_addf(&title, "%s latency distribution per kernel", c->metric ? c->metric : "?");
	vr_buf_addf(&sub, "%s\nall samples of all runs of each kernel", c->what ? c->what : "");
	y = rk_title(&k, title.buf, o->subtitle ? o->subtitle : sub.buf);
	for (size_t i = 0; i < c->nseries; i++) {
		const struct chart_cdf_series *s = &c->series[i];
		struct vr_buf e;

		names[i] = s->kernel;
		colour[i] = s->colour;
		vr_buf_init(&e);
		vr_buf_addf(&e, "(%zu samples)", s->n);
		extra[i] = vr_buf_detach(&e);
		total += s->n;
		for (size_t j = 0; j < s->n; j++)
			if (s->x[j] > 0) {
				lo = fmin(lo, s->x[j]);
				break;
			}
		if (s->n)
			hi = fmax(hi, s->x[s->n - 1]);
	}
	y = kernel_legend(&k, y, names, colour, (const char *const *)extra, c->nseries,
			  RK_SW_LINE);
	if (!total || hi <= 0) {
		message_below(&k, y, "no samples of this metric in any run");
		goto out;
	}
	L = MARGIN + 62;
	R = k.w - MARGIN - 14;
	B = k.h - MARGIN - 36;
	xa.p0 = L;
	xa.p1 = R;
	rk_axis_fit(&xa, isfinite(lo) ? lo : hi / 10, hi, false);
	ya.p0 = B;
	ya.p1 = y + 6;
	vr_buf_addf(&xlab, "latency (%s, log scale)", unit_label(c->unit));
	rk_yaxis(&k, &ya, L, true, L, R, "samples \xe2\x89\xa4 x (%)");
	rk_xaxis(&k, &xa, B, ya.p1, xlab.buf);
	cairo_save(k.cr);
	cairo_rectangle(k.cr, L, ya.p1 - 2, R - L, B - ya.p1 + 4);
	cairo_clip(k.cr);
	cairo_set_line_width(k.cr, 2);
	for (size_t i = 0; i < c->nseries; i++) {
		const struct chart_cdf_series *s = &c->series[i];
		double px = -1, py = B;

		if (!s->n)
			continue;
		rk_set(k.cr, rk_kernel_colour(s->colour), 1);
		cairo_move_to(k.cr, rk_map(&xa, fmax(s->x[0], xa.lo)), B);
		/* a step up at each distinct value; points closer than half a
		 * pixel are merged so huge sample sets stay small in SVG/PDF */
		for (size_t j = 0; j < s->n; j++) {
			if (j + 1 < s->n && s->x[j + 1] == s->x[j])
				continue;
			double x = rk_map(&xa, fmax(s->x[j], xa.lo));
			double yv = rk_map(&ya, 100.0 * (double)(j + 1) / (double)s->n);

			if (px >= 0 && x - px < 0.5 && j + 1 < s->n)
				continue;
			cairo_line_to(k.cr, x, py);
			cairo_line_to(k.cr, x, yv);
			px = x;
			py = yv;
		}
		cairo_line_to(k.cr, R, py);
		cairo_stroke(k.cr);
	}
	cairo_restore(k.cr);
out:
	for (size_t i = 0; i < c->nseries; i++)
		free(extra[i]);
	free(extra);
	free(names);
	free(colour);
	vr_buf_release(&title);
	vr_buf_release(&xlab);
	vr_buf_release(&sub);
	return rk_close(&k);
}

/* ---- counters ------------------------------------------------------------ */

/* Widest of the lines of @s (split at '\n') at @size. */
static double lines_width(struct rk *k, const char *s, double size)
{
	double w = 0, tw;
	char line[256];

	while (*s) {
		size_t n = strcspn(s, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1), s);
		rk_text_size(k, line, size, RK_BOLD, &tw, NULL);
		w = fmax(w, tw);
		s += n + (s[n] == '\n');
	}
	return w;
}

/*
 * A panel's title centred in @w pixels at (@x + @w/2, @y), never wider than
 * the panel (so titles of neighbouring panels never run into each other):
 * one line at the small font if it fits, else two lines broken at the
 * space nearest the middle, the font shrunk until the wider line fits.
 * Returns the height used.
 */
static double panel_title(struct rk *k, const char *title, double x, double y, double w)
{
	char two[256];
	const char *text = title;
	double size = RK_FONT_SMALL, h = 0, lh;
	int nlines = 1;

	if (lines_width(k, title, size) > w - 6) {
		size_t len = strlen(title), best = 0;

		for (size_t i = 1; i < len && len < sizeof(two); i++)
			if (title[i] == ' ' && (!best || fabs((double)i - len / 2.0) <
						     fabs((double)best - len / 2.0)))
				best = i;
		if (best) {
			snprintf(two, sizeof(two), "%s", title);
			two[best] = '\n';
			text = two;
			nlines = 2;
		}
	}
	while (lines_width(k, text, size) > w - 6 && size > 4)
		size -= 0.25;
	rk_text_size(k, "Ag", size, RK_BOLD, NULL, &lh);
	for (int l = 0; l < nlines; l++) {
		char line[256];
		const char *s = l ? strchr(text, '\n') + 1 : text;

		snprintf(line, sizeof(line), "%.*s", (int)strcspn(s, "\n"), s);
		rk_text(k, x + w / 2, y + h, line, size, 0.5, 0, RK_BOLD, 0, RK_BLACK);
		h += lh;
	}
	return h;
}

static void counter_panel(struct rk *k, const struct chart_counters *c, size_t ci, double x,
			  double y, double w, double h)
{
	double hi = 0, th, bx, bw, base;
	struct rk_axis ya;
	char buf[32];
	struct vr_buf name;

	vr_buf_init(&name);
	vr_buf_addf(&name, "%s", c->names[ci]);
	if (c->units[ci] && *c->units[ci])
		vr_buf_addf(&name, " (%s)", c->units[ci]);
	th = panel_title(k, name.buf, x, y, w);
	vr_buf_release(&name);
	for (size_t i = 0; i < c->nkernels; i++) {
		double v = c->values[ci * c->nkernels + i];

		if (isfinite(v))
			hi = fmax(hi, v + fmax(c->stddev[ci * c->nkernels + i], 0));
	}
	base = y + h - 4;
	ya = (struct rk_axis){ .lo = 0, .hi = hi > 0 ? hi * 1.2 : 1, .p0 = base,
			       .p1 = y + th + 16 };
	bw = fmin((w - 16) / (double)c->nkernels * 0.7, 36);
	for (size_t i = 0; i < c->nkernels; i++) {
		double v = c->values[ci * c->nkernels + i], sd = c->stddev[ci * c->nkernels + i];
		struct rgb col = rk_kernel_colour(c->colour[i]);
		double top;

		bx = x + 8 + (i + 0.5) * (w - 16) / (double)c->nkernels;
		if (!isfinite(v)) {	/* never a bar of 0: why there is none */
			const char *why = c->missing ? c->missing[ci * c->nkernels + i] : NULL;

			rk_text(k, bx, base - 2, why ? why : "n/a", RK_FONT_SMALL - 1.5, 0.5, 1,
				RK_ITALIC, 0, RK_GREY);
			continue;
		}
		top = rk_map(&ya, v);
		rk_set(k->cr, col, 0.85);
		cairo_rectangle(k->cr, bx - bw / 2, top, bw, base - top);
		cairo_fill(k->cr);
		if (sd > 0) {
			rk_set(k->cr, RK_BLACK, 1);
			cairo_set_line_width(k->cr, 1);
			cairo_move_to(k->cr, bx, rk_map(&ya, fmax(v - sd, 0)));
			cairo_line_to(k->cr, bx, rk_map(&ya, v + sd));
			cairo_stroke(k->cr);
		}
		rk_fmt(buf, sizeof(buf), v);
		rk_text(k, bx, fmin(top, rk_map(&ya, v + fmax(sd, 0))) - 1, buf, RK_FONT_SMALL - 1.5,
			0.5, 1, RK_PLAIN, 0, RK_BLACK);
	}
	rk_set(k->cr, RK_BLACK, 1);
	cairo_set_line_width(k->cr, 1);
	cairo_move_to(k->cr, x + 4, round(base) + 0.5);
	cairo_line_to(k->cr, x + w - 4, round(base) + 0.5);
	cairo_stroke(k->cr);
}

int render_chart_counters(const struct chart_counters *c, const struct render_chart_opts *o)
{
	size_t cols, rows;
	double y, cw, ch;
	struct rk k;

	if (rk_open(&k, o))
		return -1;
	y = rk_title(&k, "Reclaim counters per kernel", o->subtitle ? o->subtitle :
		     "mean over each kernel's runs; one panel per counter, each with its own scale");
	y = kernel_legend(&k, y, c->kernels, c->colour, NULL, c->nkernels, RK_SW_BOX);
	if (!c->ncounters || !c->nkernels) {
		message_below(&k, y, "no counters: the database has no trace runs");
		return rk_close(&k);
	}
	cols = c->ncounters <= 3 ? c->ncounters : c->ncounters <= 8 ? 3 + (c->ncounters > 6) : 4;
	if (k.w >= 1100 && c->ncounters > 12)
		cols = 5;
	rows = (c->ncounters + cols - 1) / cols;
	cw = (k.w - 2 * MARGIN) / (double)cols;
	ch = (k.h - y - MARGIN) / (double)rows;
	for (size_t i = 0; i < c->ncounters; i++)
		counter_panel(&k, c, i, MARGIN + (i % cols) * cw, y + (i / cols) * ch, cw - 6,
			      ch - 8);
	return rk_close(&k);
}
