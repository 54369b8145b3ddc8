// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-report.c - `vmscan-report report`: its options, handed to
 * report_bundle() (report.h), which writes the evidence bundle.
 */
#include "cmd.h"
#include "compare.h"
#include "render-cairo.h"
#include "report.h"
#include "vr.h"

#include <stdbool.h>
#include <string.h>

/* Options kept for index.md's command at most (more: the rest left out,
 * said). */
#define REPORT_MAX_AGAIN 64

/* The options. */
struct report_args {
	const char *dir;
	int width, height;	/* height 0: chart_draw() decides */
	bool quiet;		/* no progress line */
	bool verbose;		/* say each part made */
	struct cmd_trim trim;	/* compare's --kernels, --metrics, --stats */
	struct compare_opts o;
	/* the options that shape the bundle, as given (long name, argument
	 * or NULL), for the command index.md names */
	const char *again_opt[REPORT_MAX_AGAIN], *again_arg[REPORT_MAX_AGAIN];
	int nagain;
};

enum { OPT_CI = CMD_OPT_LONG, OPT_ALIGN, OPT_CI_METHOD, OPT_P_ADJUST };

static const struct cmd_option report_options[] = {
	{ 'd', "database", "DB", "SQLite database written by 'load'" },
	{ 'o', "output", "DIR", "directory to write" },
	{ 'W', "width", "PX", "chart width (default 800)" },
	{ 'H', "height", "PX", "chart height (default 600, timelines grow with nodes)" },
	{ 'q', "quiet", NULL, "no progress line (chart N of M) on a terminal" },
	{ 'v', "verbose", NULL, "say each part made (tables, evidence.db, each chart's\n"
				".png and .svg) and how long it took, on stderr" },
	CMD_TRIM_OPTION_ROWS,
	{ OPT_CI, "ci", NULL, "compare's --ci: intervals in compare.txt and the\n"
		"headline" },
	{ OPT_CI_METHOD, "ci-method", "M", "compare's --ci-method: welch (default) or\n"
		"bootstrap" },
	{ OPT_P_ADJUST, "p-adjust", "M", "compare's --p-adjust: bh (default) or none" },
	{ OPT_ALIGN, "align-marker", "TEXT", "compare's --align-marker: the windows block and\n"
		"charts from each run's first trace_marker event\n"
		"containing TEXT" },
	{ 0 }
};

/* Option @key (@arg) kept for index.md's command (--NAME [ARG]); past
 * REPORT_MAX_AGAIN options, the command line is cut there (said). */
static void keep_option(struct report_args *a, int key, const char *arg)
{
	const struct cmd_option *op = report_options;

	while (op->name && op->key != key)
		op++;
	if (!op->name)
		return;
	if (a->nagain == REPORT_MAX_AGAIN) {
		vr_warn("report: more than %d options: index.md names the first %d only",
			REPORT_MAX_AGAIN, REPORT_MAX_AGAIN);
		a->nagain++;
		return;
	}
	if (a->nagain > REPORT_MAX_AGAIN)
		return;
	a->again_opt[a->nagain] = op->name;
	a->again_arg[a->nagain++] = op->arg ? arg : NULL;
}

static enum cmd_status report_option(struct cmd_ctx *ctx, int key, const char *arg)
{
	struct report_args *a = ctx->opts;

	if (key != 'd' && key != 'o' && key != 'q' && key != 'v')
		keep_option(a, key, arg);
	if (cmd_trim_key(key))
		return cmd_trim_option(&a->trim, &a->o, "report", key, arg);
	switch (key) {
	case 'o': a->dir = arg; break;
	case 'q': a->quiet = true; break;
	case 'v': a->verbose = true; break;
	case OPT_CI: a->o.ci = true; break;
	case OPT_CI_METHOD:
		if (strcmp(arg, "welch") && strcmp(arg, "bootstrap"))
			return vr_error("report: --ci-method wants welch or bootstrap, not '%s'",
					arg), CMD_USAGE_HELP;
		a->o.ci = true;
		a->o.ci_bootstrap = !strcmp(arg, "bootstrap");
		break;
	case OPT_P_ADJUST:
		if (compare_p_adjust_parse(arg, &a->o.p_adjust))
			return vr_error("report: --p-adjust wants bh or none, not '%s'", arg),
			       CMD_USAGE_HELP;
		break;
	case OPT_ALIGN:
		if (!*arg)
			return vr_error("report: --align-marker wants a text"), CMD_USAGE_HELP;
		a->o.align_marker = arg;
		break;
	case 'W':
	case 'H':
		if (vr_parse_int(arg, key == 'W' ? &a->width : &a->height))
			return vr_error("report: bad size '%s'", arg), CMD_USAGE_HELP;
		break;
	}
	return CMD_OK;
}

static enum cmd_status report_check(struct cmd_ctx *ctx)
{
	const struct report_args *a = ctx->opts;

	if (ctx->argc)
		return vr_error("report: unexpected argument '%s'", ctx->argv[0]), CMD_USAGE_HELP;
	if (!a->dir)
		return vr_error("report: -o DIR is required"), CMD_USAGE_HELP;
	if (a->width < RENDER_CHART_MIN_SIDE || a->width > RENDER_CHART_MAX_SIDE ||
	    (a->height && (a->height < RENDER_CHART_MIN_SIDE || a->height > RENDER_CHART_MAX_SIDE)))
		return vr_error("report: chart size out of range (%d..%d per side)",
				RENDER_CHART_MIN_SIDE, RENDER_CHART_MAX_SIDE), CMD_USAGE_HELP;
	return cmd_trim_check(&a->o, "report");
}

static void report_release(void *opts)
{
	struct report_args *a = opts;

	cmd_trim_release(&a->trim, &a->o);
}

/* Write the bundle (report.h). */
static int report_run(struct cmd_ctx *ctx)
{
	const struct report_args *a = ctx->opts;
	const struct report_opts o = { .db_path = ctx->db, .db_paths = ctx->dbs,
				       .ndbs = ctx->ndbs, .dir = a->dir, .copts = &a->o,
				       .width = a->width, .height = a->height,
				       .again_opt = a->again_opt, .again_arg = a->again_arg,
				       .nagain = a->nagain < REPORT_MAX_AGAIN ? a->nagain :
						 REPORT_MAX_AGAIN,
				       .quiet = a->quiet, .verbose = a->verbose };

	return vr_exit_of(report_bundle(ctx->st, &o));
}

static const char *const report_synopsis[] = {
	"[-d DB] [-W PX] [-H PX] [-q] [-v] -o DIR [--kernels K1,K2,...]\n[--metrics M,...] [--stats S,...] [--ci]\n[--ci-method welch|bootstrap] [--p-adjust bh|none] [--align-marker TEXT]", NULL
};

const struct cmd cmd_report_desc = {
	.name = "report",
	.summary = "write the evidence bundle: tables, summary and charts",
	.synopsis = report_synopsis,
	.description =
		"Write the evidence bundle of DB into DIR (created if missing):\n"
		"  compare.txt, compare.md   the changelog table (as 'compare' prints it)\n"
		"  summary.txt               per-run totals, per process, per kswapd\n"
		"  runs.txt                  the loaded runs (as 'runs' prints it)\n"
		"  latency-M.png/.svg        candlesticks of every latency metric M with data\n"
		"  cdf-M.png/.svg            distribution of M (trace metrics)\n"
		"  counters.png/.svg         the counters per kernel\n"
		"  timeline-run-N.png/.svg   the timeline of every run\n"
		"  evidence.db               DB without its raw event rows (derived tables,\n"
		"                            sums, latencies): -d for every reading command\n"
		"  index.md                  links to all of them\n"
		"DIR/MANIFEST lists the files written with their SHA-256.  A file is\n"
		"replaced or removed only when MANIFEST says report wrote it and it is\n"
		"unchanged since; any other file at one of these names (or a symbolic\n"
		"link) is an error.  On any error nothing in DIR changes (exit 1).\n"
		"--kernels, --metrics and --stats trim the tables as they do compare's;\n"
		"index.md opens with the latency rows whose means differ significantly\n"
		"and the counters, the full table is compare.txt.  Every timeline has\n"
		"the same reclaim-rate bin and rate axis.",
	.options = report_options,
	.help_col = 22,
	.db = CMD_DB_RDONLY,
	.flags = CMD_DB_MANY,
	.opts_size = sizeof(struct report_args),
	.defaults = &(const struct report_args){ .width = 800, .height = 0, .o.alpha = 0.10 },
	.option = report_option,
	.check = report_check,
	.run = report_run,
	.release = report_release,
};
