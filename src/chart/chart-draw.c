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

int chart_draw(struct store *st, const struct chart_draw_req *r)
{
	struct render_chart_opts ro = { .width = r->width, .height = r->height };
	int ret = -1;

	if (!strcmp(r->kind, "timeline")) {
		struct chart_timeline_opts to = { r->run_id, r->nid, r->from_s, r->to_s, r->bin_s,
						  r->rate_max };
		struct chart_timeline t;

		if (chart_timeline_build(st, &to, &t))
			return -1;
		if (r->dump)
			chart_timeline_dump(&t, r->dump);
		if (!ro.height)	/* room for every node's bands and plot */
			ro.height = t.nnodes > 2 ? (int)fmin(600 + 230 * (t.nnodes - 2),
							     RENDER_CHART_MAX_SIDE) : 600;
		ret = DRAW_FILES(render_chart_timeline, &t, r, &ro);
		chart_timeline_release(&t);
	} else if (!strcmp(r->kind, "latency")) {
		struct chart_latency l;

		if (chart_latency_build(st, r->metric, &l))
			return -1;
		if (r->dump)
			chart_latency_dump(&l, r->dump);
		ret = DRAW_FILES(render_chart_latency, &l, r, &ro);
		chart_latency_release(&l);
	} else if (!strcmp(r->kind, "cdf")) {
		struct chart_cdf c;

		if (chart_cdf_build(st, r->metric, &c))
			return -1;
		if (r->dump)
			chart_cdf_dump(&c, r->dump);
		ret = DRAW_FILES(render_chart_cdf, &c, r, &ro);
		chart_cdf_release(&c);
	} else if (!strcmp(r->kind, "counters")) {
		struct chart_counters c;

		if (chart_counters_from(st, r->counters_from, &c))
			return -1;
		if (r->dump)
			chart_counters_dump(&c, r->dump);
		ret = DRAW_FILES(render_chart_counters, &c, r, &ro);
		chart_counters_release(&c);
	} else if (!strcmp(r->kind, "windows")) {
		struct chart_windows w;

		if (chart_windows_build(st, r->metric ? r->metric : "scanned", r->align_marker, &w))
			return -1;
		if (r->dump)
			chart_windows_dump(&w, r->dump);
		ret = DRAW_FILES(render_chart_windows, &w, r, &ro);
		chart_windows_release(&w);
	} else {
		ret = vr_error("unknown chart kind '%s'", r->kind);
	}
	return ret;
}
