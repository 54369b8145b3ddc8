// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - `vmscan-report COMMAND ...`: help (and `help CMD`, which shows
 * the command's man page), the version, the nearest command for a typo,
 * the command of src/cmd/cmd-table.c run by cmd_run(), and the stdout check
 * after it (a full disk or closed pipe is a failure, not a short report).
 */
#include "cmd.h"
#include "vr.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int print_help(FILE *out)
{
	fputs("usage: vmscan-report COMMAND [OPTIONS] ...\n\n"
	      "Loads vmscan tracepoint recordings into SQLite and reports on page reclaim.\n\n"
	      "commands:\n", out);
	for (size_t i = 0; i < cmd_table_size; i++)
		fprintf(out, "  %-14s %s\n", cmd_table[i]->name, cmd_table[i]->summary);
	fputs("\n'vmscan-report COMMAND -h' shows the options of a command,\n"
	      "'vmscan-report help COMMAND' its manual page.\n"
	      "The database is vmscan.db in the current directory unless -d or\n"
	      "$VMSCAN_REPORT_DB names another.\n"
	      "exit status: 0 success, 1 failure, 2 usage error\n", out);
	return VR_EXIT_OK;
}

static int finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		vr_error("cannot write to standard output: %s", strerror(errno));
		return VR_EXIT_FAIL;
	}
	return status;
}

/* `vmscan-report help [CMD]`. */
static int help(int argc, char **argv)
{
	const struct cmd *c;

	if (argc < 3)
		return finish_stdout(print_help(stdout));
	c = cmd_find(argv[2]);
	if (!c) {
		vr_error("'%s' is not a command; see 'vmscan-report help'", argv[2]);
		return VR_EXIT_USAGE;
	}
	fflush(stdout);
	return finish_stdout(cmd_show_man(c));
}

/* An unknown command: say so, with the nearest command when it is near. */
static int not_a_command(const char *name)
{
	const struct cmd *near = cmd_nearest(name);

	if (near)
		vr_error("'%s' is not a command; did you mean '%s'? (see 'vmscan-report help')",
			 name, near->name);
	else
		vr_error("'%s' is not a command; see 'vmscan-report help'", name);
	return VR_EXIT_USAGE;
}

static bool is_version(const char *arg)
{
	return !strcmp(arg, "--version") || !strcmp(arg, "-v") || !strcmp(arg, "-V") ||
	       !strcmp(arg, "version");
}

int main(int argc, char **argv)
{
	const struct cmd *c;
	char name[64];

	if (argc < 2)
		return print_help(stderr), VR_EXIT_USAGE;
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return finish_stdout(print_help(stdout));
	if (!strcmp(argv[1], "help"))
		return help(argc, argv);
	if (is_version(argv[1])) {
		printf("vmscan-report %s\n", VR_VERSION);
		return finish_stdout(VR_EXIT_OK);
	}
	c = cmd_find(argv[1]);
	if (!c)
		return not_a_command(argv[1]);
	/* getopt names argv[0] in its messages: "vmscan-report load: ..." */
	snprintf(name, sizeof(name), "vmscan-report %s", c->name);
	argv[1] = name;
	return finish_stdout(cmd_run(c, argc - 1, argv + 1));
}
