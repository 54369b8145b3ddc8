// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-doc.c - build/cmd-doc, a build and test tool: prints the command
 * tables of src/cmd/cmd.h so that tests (and generated documentation) read
 * the same tables as the program.
 *
 *   cmd-doc options    one line per option of every command, -h included:
 *                      "COMMAND<TAB>-X or -<TAB>--NAME<TAB>ARG or -"
 *   cmd-doc commands   one line per command: "COMMAND<TAB>summary"
 *   cmd-doc man [CMD]  the manual page of CMD, or vmscan-report(1) (roff)
 *   cmd-doc bash       the bash completion script
 *   cmd-doc counters   one line per counter definition (counters.h):
 *                      "NAME<TAB>UNIT<TAB>README text" (a per-flag NAME has its %s)
 */
#include "cmd.h"
#include "counters.h"
#include "vr.h"

#include <stdio.h>
#include <string.h>

static void print_option(const struct cmd *c, const struct cmd_option *o)
{
	char key[8] = "-";

	if (o->key < CMD_OPT_LONG)
		snprintf(key, sizeof(key), "-%c", o->key);
	printf("%s\t%s\t--%s\t%s\n", c->name, key, o->name, o->arg ? o->arg : "-");
}

static void print_options(void)
{
	for (size_t i = 0; i < cmd_table_size; i++) {
		const struct cmd *c = cmd_table[i];

		for (const struct cmd_option *o = c->options; o && o->name; o++)
			print_option(c, o);
		print_option(c, &cmd_help_option);
	}
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "options")) {
		print_options();
	} else if (argc == 2 && !strcmp(argv[1], "man")) {
		cmd_print_man_index(stdout);
	} else if (argc == 3 && !strcmp(argv[1], "man") && cmd_find(argv[2])) {
		cmd_print_man(cmd_find(argv[2]), stdout);
	} else if (argc == 2 && !strcmp(argv[1], "bash")) {
		cmd_print_completion(stdout);
	} else if (argc == 2 && !strcmp(argv[1], "commands")) {
		for (size_t i = 0; i < cmd_table_size; i++)
			printf("%s\t%s\n", cmd_table[i]->name, cmd_table[i]->summary);
	} else if (argc == 2 && !strcmp(argv[1], "counters")) {
		size_t n;
		const struct counter_def *d = counter_defs(&n);

		for (size_t i = 0; i < n; i++)
			printf("%s\t%s\t%s\n", d[i].name, d[i].unit, d[i].doc);
	} else {
		fputs("usage: cmd-doc options|commands|man [CMD]|bash|counters\n", stderr);
		return VR_EXIT_USAGE;
	}
	return fflush(stdout) || ferror(stdout) ? VR_EXIT_FAIL : VR_EXIT_OK;
}
