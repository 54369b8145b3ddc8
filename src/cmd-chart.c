// SPDX-License-Identifier: GPL-2.0
/* cmd-chart.c - `vmscan-report chart`: one chart to PNG, SVG or PDF. */
#include "chart-data.h"
#include "chart-draw.h"
#include "cmd.h"
#include "render-cairo.h"
#include "store.h"
#include "vr.h"

#include <getopt.h>
#include <errno.h>
#include <unistd.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const chart_usage[] = {
	"usage: vmscan-report chart -d DB --kind KIND [options] -o FILE",
	"",
	"Draw one chart; the format follows FILE's extension: .png, .svg or .pdf.",
	"",
	"kinds:",
	"  timeline  --run ID [--node N] [--from S] [--to S] [--bin S]",
	"            per node: kswapd state, pgdat flags, direct reclaim stalls and",
	"            the reclaim rate over the run (seconds from its start)",
	"  latency   --metric M   per-run percentiles of M per kernel as candlesticks",
	"  cdf       --metric M   distribution of all samples of M per kernel, log x",
	"  counters               the per-run counters per kernel as grouped bars",
	"",
	"  -d, --database DB   SQLite database written by 'load'",
	"  -k, --kind KIND     timeline, latency, cdf or counters",
	"  -o, --output FILE   the chart to write (replaced)",
	"  -r, --run ID        run id (see 'vmscan-report runs')",
	"  -n, --node N        only node N (timeline)",
	"      --from S        window start, seconds from the start of the run",
	"      --to S          window end (default: end of the run)",
	"      --bin S         reclaim-rate bin width (default: 1-2-5 s, <= 100 bins)",
	"  -m, --metric M      latency metric, e.g. DirectReclaim, KswapdWakeupDelay,",
	"                      or an imported one such as Read (p95-Read is taken as",
	"                      Read); case-sensitive, an unknown name is an error",
	"  -W, --width PX      image width (default 800)",
	"  -H, --height PX     image height (default 600; a timeline of more than two",
	"                      nodes grows by 230 per node)",
	"      --dump-data     print the numbers the chart is drawn from to stdout",
	"                      (-o is then optional)",
	"  -h, --help          show this help",
	NULL
};

struct chart_args {
	const char *db, *kind, *out, *metric;
	long long run_id;
	int nid, width, height, dump;
	double from_s, to_s, bin_s;
};

/* The long name of option @val in @opts (every option here has one). */
static const char *long_name(const struct option *opts, int val)
{
	for (; opts->name; opts++)
		if (opts->val == val)
			return opts->name;
	return "?";
}

static int parse_args(int argc, char **argv, struct chart_args *a)
{
	enum { OPT_FROM = 256, OPT_TO, OPT_BIN, OPT_DUMP };
	static const struct option longopts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "kind", required_argument, NULL, 'k' },
		{ "output", required_argument, NULL, 'o' },
		{ "run", required_argument, NULL, 'r' },
		{ "node", required_argument, NULL, 'n' },
		{ "metric", required_argument, NULL, 'm' },
		{ "width", required_argument, NULL, 'W' },
		{ "height", required_argument, NULL, 'H' },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "to", required_argument, NULL, OPT_TO },
		{ "bin", required_argument, NULL, OPT_BIN },
		{ "dump-data", no_argument, NULL, OPT_DUMP },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	uint64_t u;
	int c, bad = 0;

	*a = (struct chart_args){ .run_id = -1, .nid = -1, .to_s = -1, .width = 800,
				  .height = 0 };
	optind = 1;
	while (!bad && (c = getopt_long(argc, argv, "d:k:o:r:n:m:W:H:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': a->db = optarg; break;
		case 'k': a->kind = optarg; break;
		case 'o': a->out = optarg; break;
		case 'm': a->metric = optarg; break;
		case 'r':
			bad = vr_parse_u64(optarg, &u) || u > INT64_MAX;
			a->run_id = (long long)u;
			break;
		case 'n': bad = vr_parse_int(optarg, &a->nid); break;
		case 'W': bad = vr_parse_int(optarg, &a->width); break;
		case 'H': bad = vr_parse_int(optarg, &a->height); break;
		case OPT_FROM: bad = vr_parse_nonneg_double(optarg, &a->from_s); break;
		case OPT_TO: bad = vr_parse_nonneg_double(optarg, &a->to_s); break;
		case OPT_BIN: bad = vr_parse_nonneg_double(optarg, &a->bin_s) || a->bin_s <= 0; break;
		case OPT_DUMP: a->dump = 1; break;
		case 'h': return 1;
		default: return -1;
		}
		if (bad)
			vr_error("chart: bad value '%s' for --%s", optarg, long_name(longopts, c));
	}
	if (bad)
		return -1;
	if (optind != argc)
		return vr_error("chart: unexpected argument '%s'", argv[optind]);
	if (!a->db || !a->kind || (!a->out && !a->dump))
		return vr_error("chart: -d DB, --kind KIND and -o FILE are required");
	if (a->out && !render_chart_format(a->out))
		return vr_error("%s: unknown chart format, use a .png, .svg or .pdf file name",
				a->out);
	if (a->width < RENDER_CHART_MIN_SIDE || (a->height && a->height < RENDER_CHART_MIN_SIDE) ||
	    a->width > RENDER_CHART_MAX_SIDE || a->height > RENDER_CHART_MAX_SIDE)
		return vr_error("chart: size %dx%d out of range (%d..%d per side)", a->width,
				a->height, RENDER_CHART_MIN_SIDE, RENDER_CHART_MAX_SIDE);
	if (!strcmp(a->kind, "timeline")) {
		if (a->run_id < 0)
			return vr_error("chart: --kind timeline needs --run ID");
	} else if (!strcmp(a->kind, "latency") || !strcmp(a->kind, "cdf")) {
		if (!a->metric)
			return vr_error("chart: --kind %s needs --metric M", a->kind);
	} else if (strcmp(a->kind, "counters")) {
		return vr_error("chart: unknown kind '%s' (timeline, latency, cdf, counters)",
				a->kind);
	}
	return 0;
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

int cmd_chart(int argc, char **argv)
{
	struct chart_args a;
	struct store *st;
	char *metric = NULL;
	int r = parse_args(argc, argv, &a);

	if (r > 0)
		return cmd_usage(chart_usage, 0);
	if (r < 0)
		return cmd_usage(chart_usage, VR_EXIT_USAGE);
	if (a.out && check_output(a.out))
		return VR_EXIT_FAIL;
	st = store_open(a.db, STORE_RDONLY);
	if (!st)
		return VR_EXIT_FAIL;
	if (a.metric) {
		r = chart_metric_resolve(st, a.metric, !strcmp(a.kind, "cdf"), &metric);
		if (r) {
			store_close(st);
			return r == -2 ? VR_EXIT_USAGE : VR_EXIT_FAIL;
		}
	}
	r = chart_draw(st, &(struct chart_draw_req){
		.kind = a.kind, .out = a.out, .width = a.width, .height = a.height,
		.run_id = a.run_id, .nid = a.nid, .from_s = a.from_s, .to_s = a.to_s,
		.bin_s = a.bin_s, .metric = metric, .dump = a.dump ? stdout : NULL });
	store_close(st);
	free(metric);
	return r ? VR_EXIT_FAIL : VR_EXIT_OK;
}
