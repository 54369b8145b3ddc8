// SPDX-License-Identifier: GPL-2.0
/* cmd-chart.c - `vmscan-report chart`: one chart to PNG, SVG or PDF. */
#include "chart-data.h"
#include "chart-draw.h"
#include "chart-windows.h"
#include "cmd.h"
#include "render-cairo.h"
#include "store.h"
#include "vr.h"

#include <errno.h>
#include <unistd.h>
#include <libgen.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct chart_args {
	const char *kind, *out, *metric, *align;
	enum chart_kind k;	/* kind, parsed by chart_check() */
	long long run_id;
	int nid, width, height, dump;
	double from_s, to_s, bin_s;
};

enum { OPT_FROM = CMD_OPT_LONG, OPT_TO, OPT_BIN, OPT_DUMP, OPT_METRICS, OPT_ALIGN };

static const struct cmd_option chart_options[] = {
	{ 'd', "database", "DB", "SQLite database written by 'load'" },
	{ 'T', "kind", "KIND", "timeline, latency, cdf, counters or windows" },
	{ 'o', "output", "FILE", "the chart to write: a regular file there is replaced\n"
				 "once the chart is wholly written; a symbolic link or\n"
				 "anything else there is an error" },
	{ 'r', "run", "ID", "run id (see 'vmscan-report runs')" },
	{ 'n', "node", "N", "only node N (timeline)" },
	{ OPT_FROM, "from", "S", "window start, seconds from the start of the run" },
	{ OPT_TO, "to", "S", "window end (default: end of the run)" },
	{ OPT_BIN, "bin", "S", "reclaim-rate bin width (default: 1-2-5 s, <= 100 bins)" },
	{ 'm', "metric", "M", "latency metric, e.g. DirectReclaim, KswapdWakeupDelay,\n"
			      "or an imported one such as Read (p95-Read is taken as\n"
			      "Read); case-sensitive, an unknown name is an error" },
	{ OPT_METRICS, "metrics", "M", "the same as --metric (the name compare takes)" },
	{ OPT_ALIGN, "align-marker", "TEXT", "windows: time 0 at each run's first trace_marker\n"
					     "(print) event containing TEXT; runs without one\n"
					     "left out and named" },
	{ 'W', "width", "PX", "image width (default 800)" },
	{ 'H', "height", "PX", "image height (default 600; a timeline of more than two\n"
			       "nodes grows by 230 per node)" },
	{ OPT_DUMP, "dump-data", NULL, "print the numbers the chart is drawn from to stdout\n"
				       "(-o is then optional)" },
	{ 0 }
};

static enum cmd_status chart_option(struct cmd_ctx *ctx, int key, const char *arg)
{
	struct chart_args *a = ctx->opts;
	uint64_t u;
	int bad = 0;

	switch (key) {
	case 'T': a->kind = arg; break;
	case 'o': a->out = arg; break;
	case 'm':
	case OPT_METRICS: a->metric = arg; break;
	case 'r':
		bad = vr_parse_u64(arg, &u) || u > INT64_MAX;
		a->run_id = (long long)u;
		break;
	case 'n': bad = vr_parse_int(arg, &a->nid); break;
	case 'W': bad = vr_parse_int(arg, &a->width); break;
	case 'H': bad = vr_parse_int(arg, &a->height); break;
	case OPT_FROM: bad = vr_parse_nonneg_double(arg, &a->from_s); break;
	case OPT_TO: bad = vr_parse_nonneg_double(arg, &a->to_s); break;
	case OPT_BIN: bad = vr_parse_nonneg_double(arg, &a->bin_s) || a->bin_s <= 0; break;
	case OPT_DUMP: a->dump = 1; break;
	case OPT_ALIGN: a->align = arg; bad = !*arg; break;
	}
	if (!bad)
		return CMD_OK;
	for (const struct cmd_option *o = chart_options; o->name; o++)
		if (o->key == key)
			vr_error("chart: bad value '%s' for --%s", arg, o->name);
	return CMD_USAGE_HELP;
}

/* Can @path be written (its directory exists and is writable)?  Said now,
 * not after drawing (cairo only says "error while writing"). */
static int check_output(const char *path)
{
	char *copy = vr_strdup(path);
	const char *dir = dirname(copy);
	int ret = 0;

	if (access(dir, W_OK))
		ret = vr_error("%s: cannot write the chart: %s: %s", path, dir, strerror(errno));
	free(copy);
	return ret;
}

/* Is @metric one of the windows chart's (chart_windows_metrics)? */
static bool windows_metric_ok(const char *metric)
{
	for (size_t i = 0; metric && chart_windows_metrics[i]; i++)
		if (!strcmp(chart_windows_metrics[i], metric))
			return true;
	return false;
}

static enum cmd_status chart_check(struct cmd_ctx *ctx)
{
	struct chart_args *a = ctx->opts;
	char names[128];
	unsigned needs;
	bool known;

	if (ctx->argc)
		return vr_error("chart: unexpected argument '%s'", ctx->argv[0]), CMD_USAGE_HELP;
	if (!a->kind || (!a->out && !a->dump))
		return vr_error("chart: --kind KIND and -o FILE are required"), CMD_USAGE_HELP;
	if (a->out && !render_chart_format(a->out))
		return vr_error("%s: unknown chart format, use a .png, .svg or .pdf file name",
				a->out), CMD_USAGE_HELP;
	if (a->width < RENDER_CHART_MIN_SIDE || (a->height && a->height < RENDER_CHART_MIN_SIDE) ||
	    a->width > RENDER_CHART_MAX_SIDE || a->height > RENDER_CHART_MAX_SIDE)
		return vr_error("chart: size %dx%d out of range (%d..%d per side)", a->width,
				a->height, RENDER_CHART_MIN_SIDE, RENDER_CHART_MAX_SIDE),
		       CMD_USAGE_HELP;
	known = !chart_kind_parse(a->kind, &a->k);
	if (a->align && (!known || !(chart_kinds[a->k].needs & CHART_TAKES_MARKER)))
		return vr_error("chart: --align-marker is for --kind windows"), CMD_USAGE_HELP;
	if (!known)
		return vr_error("chart: unknown kind '%s' (%s)", a->kind,
				chart_kind_names(", ", names, sizeof(names))), CMD_USAGE_HELP;
	needs = chart_kinds[a->k].needs;
	if ((needs & CHART_NEEDS_RUN) && a->run_id < 0)
		return vr_error("chart: --kind %s needs --run ID", a->kind), CMD_USAGE_HELP;
	if ((needs & CHART_NEEDS_METRIC) && !a->metric)
		return vr_error("chart: --kind %s needs --metric M", a->kind), CMD_USAGE_HELP;
	if ((needs & CHART_NEEDS_WINDOWS_METRIC) && !windows_metric_ok(a->metric))
		return vr_error("chart: --kind windows needs --metric scanned, reclaimed,"
				" stall or kswapd"), CMD_USAGE_HELP;
	return a->out && check_output(a->out) ? CMD_FAIL : CMD_OK;
}

static int chart_run(struct cmd_ctx *ctx)
{
	struct chart_args *a = ctx->opts;
	char *metric = NULL;
	int r;

	if (a->metric && (chart_kinds[a->k].needs & CHART_NEEDS_WINDOWS_METRIC)) {
		metric = vr_strdup(a->metric);
	} else if (a->metric) {
		r = chart_metric_resolve(ctx->st, a->metric, a->k == CHART_CDF, &metric);
		if (r)
			return vr_exit_of(r);
	}
	r = chart_draw(ctx->st, &(struct chart_draw_req){
		.kind = a->k, .out = a->out, .width = a->width, .height = a->height,
		.run_id = a->run_id, .nid = a->nid, .from_s = a->from_s, .to_s = a->to_s,
		.bin_s = a->bin_s, .metric = metric, .align_marker = a->align, .dump = a->dump ? stdout : NULL });
	free(metric);
	return r ? VR_EXIT_FAIL : VR_EXIT_OK;
}

static const char *const chart_synopsis[] = { "[-d DB] --kind KIND [options] -o FILE", NULL };

const struct cmd cmd_chart_desc = {
	.name = "chart",
	.summary = "draw one chart (timeline, latency, cdf, counters) to PNG/SVG/PDF",
	.synopsis = chart_synopsis,
	.description =
		"Draw one chart; the format follows FILE's extension: .png, .svg or .pdf.\n"
		"\n"
		"kinds:\n"
		"  timeline  --run ID [--node N] [--from S] [--to S] [--bin S]\n"
		"            per node: kswapd state, pgdat flags, direct reclaim stalls and\n"
		"            the reclaim rate over the run (seconds from its start)\n"
		"  latency   --metric M   per-run percentiles of M per kernel as candlesticks\n"
		"  cdf       --metric M   distribution of all samples of M per kernel, log x\n"
		"  counters               the per-run counters per kernel as grouped bars\n"
		"  windows   --metric M   M per window over time (scanned, reclaimed: pages/s;\n"
		"                         stall, kswapd: % of the window), median of each\n"
		"                         kernel's runs with their range shaded",
	.options = chart_options,
	.help_col = 22,
	.db = CMD_DB_RDONLY,
	.flags = CMD_DB_MANY,
	.opts_size = sizeof(struct chart_args),
	.defaults = &(const struct chart_args){ .run_id = -1, .nid = -1, .to_s = -1,
						.width = 800, .height = 0 },
	.option = chart_option,
	.check = chart_check,
	.run = chart_run,
};
