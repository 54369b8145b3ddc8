// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-options.c - a command's option table made into what getopt_long()
 * takes and into its -h text (src/cmd/cmd.h), so the two cannot differ.
 */
#include "cmd.h"
#include "vr.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct cmd_option cmd_help_option = { 'h', "help", NULL, "show this help" };

/* Rows of @c's table, without the -h row. */
static size_t option_count(const struct cmd *c)
{
	size_t n = 0;

	while (c->options && c->options[n].name)
		n++;
	return n;
}

/* What getopt_long() takes for one command's table. */
struct cmd_getopt {
	char *shortopts;	/* "d:k:o:...h", '+' first for CMD_STOP_AT_OPERAND */
	struct option *longopts; /* ends with a zero row */
};

static void getopt_make(const struct cmd *c, struct cmd_getopt *g)
{
	size_t n = option_count(c), k = 0;
	struct vr_buf s;

	vr_buf_init(&s);
	if (c->flags & CMD_STOP_AT_OPERAND)
		vr_buf_addstr(&s, "+");
	g->longopts = vr_calloc(n + 2, sizeof(*g->longopts));
	for (size_t i = 0; i <= n; i++) {
		const struct cmd_option *o = i < n ? &c->options[i] : &cmd_help_option;

		g->longopts[k++] = (struct option){ o->name, o->arg ? required_argument
								    : no_argument, NULL, o->key };
		if (o->key < CMD_OPT_LONG)
			vr_buf_addf(&s, "%c%s", o->key, o->arg ? ":" : "");
	}
	g->shortopts = vr_buf_detach(&s);
}

static void getopt_release(struct cmd_getopt *g)
{
	free(g->longopts);
	free(g->shortopts);
	*g = (struct cmd_getopt){ 0 };
}

char *cmd_option_label(const struct cmd_option *o, char *buf, size_t size)
{
	if (o->key < CMD_OPT_LONG)
		snprintf(buf, size, "  -%c, --%s%s%s", o->key, o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
	else
		snprintf(buf, size, "      --%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
	return buf;
}

/* Write @text, each line after '\n' indented by @indent spaces, and a
 * newline at its end. */
static void put_indented(FILE *out, const char *text, int indent)
{
	for (;;) {
		size_t len = strcspn(text, "\n");

		fprintf(out, "%.*s\n", (int)len, text);
		if (!text[len])
			return;
		text += len + 1;
		fprintf(out, "%*s", *text && *text != '\n' ? indent : 0, "");
	}
}

/* One -h line: the label, padded to the help column (two spaces at least),
 * then the help text. */
static void put_option(FILE *out, const struct cmd *c, const struct cmd_option *o)
{
	char label[128];
	int len = (int)strlen(cmd_option_label(o, label, sizeof(label)));
	int pad = len + 2 > c->help_col ? 2 : c->help_col - len;

	fprintf(out, "%s%*s", label, pad, "");
	put_indented(out, o->help, c->help_col);
}

/* "usage: vmscan-report NAME form" lines, a form's continuation lines
 * indented under its first argument. */
static void put_synopsis(FILE *out, const struct cmd *c)
{
	for (size_t i = 0; c->synopsis[i]; i++) {
		int indent = fprintf(out, "%s vmscan-report %s ", i ? "   or:" : "usage:", c->name);

		put_indented(out, c->synopsis[i], indent);
	}
}

void cmd_print_usage(const struct cmd *c, FILE *out)
{
	size_t n = option_count(c);

	put_synopsis(out, c);
	if (c->description) {
		fputs("\n", out);
		put_indented(out, c->description, 0);
	}
	fputs("\n", out);
	for (size_t i = 0; i < n; i++)
		put_option(out, c, &c->options[i]);
	put_option(out, c, &cmd_help_option);
	if (c->notes) {
		fputs("\n", out);
		put_indented(out, c->notes, 0);
	}
}

/* The row of @c's table with @key (the -h row included). */
static const struct cmd_option *option_of(const struct cmd *c, int key)
{
	for (size_t i = 0; c->options && c->options[i].name; i++)
		if (c->options[i].key == key)
			return &c->options[i];
	return &cmd_help_option;
}

/* One more -d of a CMD_DB_MANY command; ctx->db stays the first. */
static void add_db(struct cmd_ctx *ctx, const char *path)
{
	ctx->dbs = vr_realloc(ctx->dbs, (ctx->ndbs + 1) * sizeof(*ctx->dbs));
	ctx->dbs[ctx->ndbs++] = path;
	ctx->db = ctx->dbs[0];
}

enum cmd_status cmd_parse(struct cmd_ctx *ctx, int argc, char **argv, bool *help)
{
	const struct cmd *c = ctx->cmd;
	enum cmd_status st = CMD_OK;
	struct cmd_getopt g;
	int key;

	*help = false;
	getopt_make(c, &g);
	optind = 1;
	while (st == CMD_OK && (key = getopt_long(argc, argv, g.shortopts, g.longopts, NULL)) != -1) {
		if (key == '?' || key == ':')
			st = CMD_USAGE_HELP;	/* getopt said what */
		else if (key == 'h' && option_of(c, key) == &cmd_help_option)
			*help = true;
		else if (key == 'd' && c->db != CMD_DB_NONE && !*optarg)
			st = (vr_error("-d: an empty path (SQLite would make a temporary database,"
				       " deleted when the command ends): name the database file"),
			      CMD_USAGE);
		else if (key == 'd' && c->db != CMD_DB_NONE && (c->flags & CMD_DB_MANY))
			add_db(ctx, optarg);
		else if (key == 'd' && c->db != CMD_DB_NONE)
			ctx->db = optarg;
		else
			st = c->option(ctx, key, option_of(c, key)->arg ? optarg : NULL);
		if (*help)
			break;
	}
	getopt_release(&g);
	ctx->argc = argc - optind;
	ctx->argv = argv + optind;
	return st;
}
