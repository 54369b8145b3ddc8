// SPDX-License-Identifier: GPL-2.0
/*
 * chart-draw.c - build one chart's data (chart-data.c, chart-metrics.c)
 * and draw it (render-charts.c): the glue `chart` and `report` share.
 */
#include "chart-data.h"
#include "chart-draw.h"
#include "chart-windows.h"
#include "render-cairo.h"
#include "vr.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/*
 * Draw @data with @render into each file @r asks for, the second even when
 * the first failed (so that both errors are named).  0 when all were drawn.
 */
#define DRAW_FILES(render, data, r, ro)					\
	({								\
		int failed_ = 0;					\
		(ro)->path = (r)->out;					\
		(ro)->file = (r)->out_file;				\
		if (((r)->out || (r)->out_file) && render((data), (ro)))	\
			failed_ = 1;					\
		(ro)->path = (r)->also_out;				\
		(ro)->file = (r)->also_file;				\
		if (((r)->also_out || (r)->also_file) && render((data), (ro))) \
			failed_ = 1;					\
		failed_ ? -1 : 0;					\
	})

const struct chart_kind_desc chart_kinds[CHART_NKINDS] = {
	[CHART_TIMELINE] = { "timeline", CHART_NEEDS_RUN },
	[CHART_LATENCY] = { "latency", CHART_NEEDS_METRIC },
	[CHART_CDF] = { "cdf", CHART_NEEDS_METRIC },
	[CHART_COUNTERS] = { "counters", 0 },
	[CHART_WINDOWS] = { "windows", CHART_NEEDS_WINDOWS_METRIC | CHART_TAKES_MARKER },
};

int chart_kind_parse(const char *name, enum chart_kind *kind)
{
	for (int k = 0; k < CHART_NKINDS; k++)
		if (!strcmp(chart_kinds[k].name, name)) {
			*kind = (enum chart_kind)k;
			return 0;
		}
	return -1;
}

const char *chart_kind_names(const char *sep, char *buf, size_t size)
{
	size_t len = 0;

	if (size)
		buf[0] = '\0';
	for (int k = 0; k < CHART_NKINDS && len < size; k++) {
		int n = snprintf(buf + len, size - len, "%s%s", k ? sep : "", chart_kinds[k].name);

		if (n < 0)
			break;
		len += (size_t)n;
	}
	return buf;
}

static int draw_timeline(struct store *st, const struct chart_draw_req *r,
			 struct render_chart_opts *ro)
{
	struct chart_timeline_opts to = { r->run_id, r->nid, r->from_s, r->to_s, r->bin_s,
					  r->rate_max, r->rates };
	struct chart_timeline t;
	struct render_keep keep = { 0 };	/* its stall images, drawn once for both files */
	int ret;

	if (chart_timeline_build(st, &to, &t))
		return -1;
	if (r->dump)
		chart_timeline_dump(&t, r->dump);
	if (!ro->height)	/* room for every node's bands and plot */
		ro->height = t.nnodes > 2 ? (int)fmin(600 + 230 * (t.nnodes - 2),
						      RENDER_CHART_MAX_SIDE) : 600;
	ro->keep = &keep;
	ret = DRAW_FILES(render_chart_timeline, &t, r, ro);
	ro->keep = NULL;
	render_keep_release(&keep);
	chart_timeline_release(&t);
	return ret;
}

static int draw_latency(struct store *st, const struct chart_draw_req *r,
			struct render_chart_opts *ro)
{
	struct chart_latency l;
	int ret;

	if (chart_latency_build(st, r->metric, &l))
		return -1;
	if (r->dump)
		chart_latency_dump(&l, r->dump);
	ret = DRAW_FILES(render_chart_latency, &l, r, ro);
	chart_latency_release(&l);
	return ret;
}

static int draw_cdf(struct store *st, const struct chart_draw_req *r,
		    struct render_chart_opts *ro)
{
	struct chart_cdf c;
	int ret;

	if (chart_cdf_build(st, r->metric, &c))
		return -1;
	if (r->dump)
		chart_cdf_dump(&c, r->dump);
	ret = DRAW_FILES(render_chart_cdf, &c, r, ro);
	chart_cdf_release(&c);
	return ret;
}

static int draw_counters(struct store *st, const struct chart_draw_req *r,
			 struct render_chart_opts *ro)
{
	struct chart_counters c;
	int ret;

	if (chart_counters_from(st, r->counters_from, &c))
		return -1;
	if (r->dump)
		chart_counters_dump(&c, r->dump);
	ret = DRAW_FILES(render_chart_counters, &c, r, ro);
	chart_counters_release(&c);
	return ret;
}

static int draw_windows(struct store *st, const struct chart_draw_req *r,
			struct render_chart_opts *ro)
{
	struct chart_windows w;
	int ret;

	if (chart_windows_build(st, r->metric ? r->metric : "scanned", r->align_marker, &w))
		return -1;
	if (r->dump)
		chart_windows_dump(&w, r->dump);
	ret = DRAW_FILES(render_chart_windows, &w, r, ro);
	chart_windows_release(&w);
	return ret;
}

/* How each kind is built and drawn, in the order of enum chart_kind. */
static int (*const draw_kind[CHART_NKINDS])(struct store *, const struct chart_draw_req *,
					     struct render_chart_opts *) = {
	[CHART_TIMELINE] = draw_timeline,
	[CHART_LATENCY] = draw_latency,
	[CHART_CDF] = draw_cdf,
	[CHART_COUNTERS] = draw_counters,
	[CHART_WINDOWS] = draw_windows,
};

int chart_draw(struct store *st, const struct chart_draw_req *r)
{
	struct render_chart_opts ro = { .width = r->width, .height = r->height };

	if ((unsigned)r->kind >= CHART_NKINDS)
		return vr_error("unknown chart kind %d", (int)r->kind);
	return draw_kind[r->kind](st, r, &ro);
}
