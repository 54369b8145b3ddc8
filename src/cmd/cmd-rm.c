// SPDX-License-Identifier: GPL-2.0
/* cmd-rm.c - `vmscan-report rm`: remove runs and all their rows, in one transaction. */
#include "cmd.h"
#include "store.h"
#include "vr.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

struct rm_args {
	int quiet;
};

static const struct cmd_option rm_options[] = {
	{ 'd', "database", "DB", "SQLite database written by 'load'" },
	{ 'q', "quiet", NULL, "do not print the runs removed" },
	{ 0 }
};

static enum cmd_status rm_option(struct cmd_ctx *ctx, int key, const char *arg)
{
	struct rm_args *a = ctx->opts;

	(void)arg;
	if (key == 'q')
		a->quiet = 1;
	return CMD_OK;
}

static enum cmd_status rm_check(struct cmd_ctx *ctx)
{
	uint64_t id;

	if (ctx->argc < 1)
		return vr_error("rm: name the run(s) to remove (their ids, as 'runs' lists them)"),
		       CMD_USAGE_HELP;
	for (int i = 0; i < ctx->argc; i++) {
		if (vr_parse_u64(ctx->argv[i], &id) || !id || id > INT64_MAX)
			return vr_error("rm: '%s' is not a run id (a number >= 1, as 'runs' lists"
					" them)", ctx->argv[i]), CMD_USAGE;
		/* a run named twice: its second removal would find it gone and
		 * say "no run N", a run that was there */
		for (int j = 0; j < i; j++) {
			uint64_t prev;

			vr_parse_u64(ctx->argv[j], &prev);
			if (prev == id)
				return vr_error("rm: run %llu is named twice",
						(unsigned long long)id), CMD_USAGE;
		}
	}
	return CMD_OK;
}

static int rm_run(struct cmd_ctx *ctx)
{
	const struct rm_args *a = ctx->opts;
	int64_t *ids = vr_calloc((size_t)ctx->argc, sizeof(*ids));
	struct store *st;
	int rc;

	for (int i = 0; i < ctx->argc; i++) {
		uint64_t id;

		vr_parse_u64(ctx->argv[i], &id);	/* checked by rm_check() */
		ids[i] = (int64_t)id;
	}
	/* a database that is not there is not made, as a reading command */
	if (access(ctx->db, F_OK)) {
		free(ids);
		return vr_error("%s: no such database", ctx->db), VR_EXIT_FAIL;
	}
	st = store_open(ctx->db, STORE_RW);
	rc = st ? store_remove_runs(st, ids, (size_t)ctx->argc) : -1;
	for (int i = 0; !rc && !a->quiet && i < ctx->argc; i++)
		printf("removed run %lld\n", (long long)ids[i]);
	store_close(st);
	free(ids);
	return rc ? VR_EXIT_FAIL : VR_EXIT_OK;
}

static const char *const rm_synopsis[] = { "[-d DB] [-q] RUN...", NULL };

const struct cmd cmd_rm_desc = {
	.name = "rm",
	.summary = "remove runs and all their rows",
	.synopsis = rm_synopsis,
	.description =
		"Remove each RUN (an id as 'runs' lists it) from DB: its run row and every\n"
		"row of it in every table (events, derived tables, sums, tasks, imported\n"
		"latencies), all runs named in one transaction: a RUN that is not there is\n"
		"an error (exit 1) and nothing is removed; a RUN named twice is a usage\n"
		"error.",
	.options = rm_options,
	.help_col = 22,
	.db = CMD_DB_PATH,
	.opts_size = sizeof(struct rm_args),
	.defaults = &(const struct rm_args){ 0 },
	.option = rm_option,
	.check = rm_check,
	.run = rm_run,
};
