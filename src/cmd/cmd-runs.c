// SPDX-License-Identifier: GPL-2.0
/* cmd-runs.c - `vmscan-report runs`: one line per run with metadata and counts. */
#include "cmd.h"
#include "runs.h"
#include "vr.h"

#include <stdio.h>

static const struct cmd_option runs_options[] = {
	{ 'd', "database", "DB", "SQLite database written by 'load'" },
	{ 0 }
};

static enum cmd_status runs_check(struct cmd_ctx *ctx)
{
	if (ctx->argc)
		return vr_error("runs: unexpected argument '%s'", ctx->argv[0]), CMD_USAGE_HELP;
	return CMD_OK;
}

static int runs_run(struct cmd_ctx *ctx)
{
	return runs_print(ctx->st, stdout) ? VR_EXIT_FAIL : VR_EXIT_OK;
}

static const char *const runs_synopsis[] = { "[-d DB]", NULL };

const struct cmd cmd_runs_desc = {
	.name = "runs",
	.summary = "list the loaded runs with their metadata and counts",
	.synopsis = runs_synopsis,
	.description =
		"List the runs in DB: id, kernel label, iteration, kernel release, clock,\n"
		"CPUs, duration, events, lost events (markers in the data; '+?' when some\n"
		"markers carry no count), the kernel's ring-buffer overrun counters saved\n"
		"in the file ('-' when not saved), file version and the source file.",
	.options = runs_options,
	.help_col = 22,
	.db = CMD_DB_RDONLY,
	.flags = CMD_DB_MANY,
	.check = runs_check,
	.run = runs_run,
};
