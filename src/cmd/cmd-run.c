// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-run.c - what every command shares (src/cmd/cmd.h): its options
 * parsed from its table, -h, -d and the store opened and closed, the exit
 * status of a usage error.
 */
#include "cmd.h"
#include "store.h"
#include "vr.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The exit status of a usage error or failure @st of @c's options; a
 * usage error ends with where the help is (its one line stays in sight). */
static int status_exit(const struct cmd *c, enum cmd_status st)
{
	if (st == CMD_USAGE_HELP || st == CMD_USAGE)
		fprintf(stderr, "see 'vmscan-report %s -h'\n", c->name);
	return st == CMD_FAIL ? VR_EXIT_FAIL : VR_EXIT_USAGE;
}

const char *cmd_default_db(void)
{
	const char *env = getenv("VMSCAN_REPORT_DB");

	return env && *env ? env : "vmscan.db";
}

/* Parse and check @argv into @ctx; CMD_OK, or the usage error or failure.
 * *@help (OUT): -h was given, nothing else is done. */
static enum cmd_status parse(struct cmd_ctx *ctx, int argc, char **argv, bool *help)
{
	const struct cmd *c = ctx->cmd;
	enum cmd_status st = cmd_parse(ctx, argc, argv, help);

	if (st != CMD_OK || *help)
		return st;
	/* compare NAME=FILE needs no database: the default is for the rest */
	if (c->db != CMD_DB_NONE && !ctx->db && (!(c->flags & CMD_DB_OPTIONAL) || !ctx->argc)) {
		ctx->db = cmd_default_db();
		ctx->db_default = true;
	}
	return c->check ? c->check(ctx) : CMD_OK;
}

/* Open, run, close.  A database a CMD_DB_RW command created is removed
 * when the command fails: it would hold nothing of this run. */
static int run_with_store(struct cmd_ctx *ctx)
{
	const struct cmd *c = ctx->cmd;
	bool opens = ctx->db && (c->db == CMD_DB_RDONLY || c->db == CMD_DB_RW);
	bool existed = ctx->db && access(ctx->db, F_OK) == 0;
	int ret;

	if (ctx->db && !existed && ctx->db_default && (c->db == CMD_DB_RW || c->db == CMD_DB_PATH))
		vr_warn_plain("%s: creating database %s (no -d given)", c->name, ctx->db);

	if (opens) {
		ctx->st = ctx->ndbs > 1 ? store_open_many(ctx->dbs, ctx->ndbs) :
			  store_open(ctx->db, c->db == CMD_DB_RW ? STORE_RW : STORE_RDONLY);
		if (!ctx->st)
			return VR_EXIT_FAIL;
	}
	ret = c->run(ctx);
	if (ret == VR_EXIT_USAGE)	/* a bad value its run found (a metric name) */
		fprintf(stderr, "see 'vmscan-report %s -h'\n", c->name);
	if (ctx->st) {
		store_close(ctx->st);
		ctx->st = NULL;
		if (c->db == CMD_DB_RW && ret != VR_EXIT_OK && !existed && !ctx->db_kept)
			unlink(ctx->db);
	}
	return ret;
}

int cmd_run(const struct cmd *c, int argc, char **argv)
{
	struct cmd_ctx ctx = { .cmd = c };
	enum cmd_status st;
	bool help;
	int ret;

	if (c->opts_size) {
		ctx.opts = vr_malloc(c->opts_size);
		memcpy(ctx.opts, c->defaults, c->opts_size);
	}
	st = parse(&ctx, argc, argv, &help);
	if (help && st == CMD_OK) {
		cmd_print_usage(c, stdout);
		ret = VR_EXIT_OK;
	} else if (st != CMD_OK) {
		ret = status_exit(c, st);
	} else {
		ret = run_with_store(&ctx);
	}
	if (c->release)
		c->release(ctx.opts);
	free(ctx.opts);
	free(ctx.dbs);
	return ret;
}
