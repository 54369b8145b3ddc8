// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-summary.c - `vmscan-report summary`: options, then the summary
 * module (include/summary.h) on stdout.
 */
#include "cmd.h"
#include "summary.h"
#include "vr.h"

#include <stdint.h>
#include <stdio.h>

struct summary_args {
	uint64_t run;		/* 0: every run */
};

static const struct cmd_option summary_options[] = {
	{ 'd', "database", "DB", "SQLite database written by 'load'" },
	{ 'r', "run", "ID", "only this run" },
	{ 0 }
};

static enum cmd_status summary_option(struct cmd_ctx *ctx, int key, const char *arg)
{
	struct summary_args *a = ctx->opts;

	if (key == 'r' && (vr_parse_u64(arg, &a->run) || !a->run))
		return vr_error("summary: --run wants a run id, not '%s'", arg), CMD_USAGE;
	return CMD_OK;
}

static enum cmd_status summary_check(struct cmd_ctx *ctx)
{
	if (ctx->argc)
		return vr_error("summary: unexpected argument '%s'", ctx->argv[0]), CMD_USAGE_HELP;
	return CMD_OK;
}

static int summary_run(struct cmd_ctx *ctx)
{
	const struct summary_args *a = ctx->opts;
	int ret = a->run ? summary_print_run(ctx->st, (int64_t)a->run, stdout)
			 : summary_print(ctx->st, stdout);

	return ret ? VR_EXIT_FAIL : VR_EXIT_OK;
}

static const char *const summary_synopsis[] = { "[-d DB] [--run ID]", NULL };

const struct cmd cmd_summary_desc = {
	.name = "summary",
	.summary = "per-run reclaim totals, per-process and per-node kswapd tables",
	.synopsis = summary_synopsis,
	.description =
		"Print, for each run (or run ID), what reclaim did: totals for direct\n"
		"reclaim and kswapd (pages scanned and reclaimed, split file/anon; pages\n"
		"written sync/async; time stalled; time kswapd was awake), other reclaim\n"
		"stalls, throttling, slab shrinking, pgdat flag time, a per-process table,\n"
		"a per-node kswapd table with the sleep decisions, and data quality.",
	.options = summary_options,
	.help_col = 22,
	.db = CMD_DB_RDONLY,
	.opts_size = sizeof(struct summary_args),
	.defaults = &(const struct summary_args){ 0 },
	.option = summary_option,
	.check = summary_check,
	.run = summary_run,
};
