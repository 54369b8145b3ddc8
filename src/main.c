// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the command table, dispatch, and the stdout check after each
 * command (a full disk or closed pipe is a failure, not a short report).
 */
#include "cmd.h"
#include "vr.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

struct vr_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;	/* one line for `vmscan-report help` */
};

static const struct vr_cmd commands[] = {
	{ "load", cmd_load, "load trace.dat recordings into a SQLite database" },
	{ "runs", cmd_runs, "list the loaded runs with their metadata and counts" },
	{ "compare", cmd_compare, "changelog comparison table across kernels (mmtests layout)" },
	{ "import-latency", cmd_import_latency, "import a workload's latency report into a run" },
	{ "summary", cmd_summary, "per-run reclaim totals, per-process and per-node kswapd tables" },
	{ "timeline", cmd_timeline, "the reconstructed per-node reclaim history of one run" },
	{ "chart", cmd_chart, "draw one chart (timeline, latency, cdf, counters) to PNG/SVG/PDF" },
	{ "report", cmd_report, "write the evidence bundle: tables, summary and charts" },
	{ "record", cmd_record, "record reclaim tracepoints into a trace.dat (needs root)" },
};

static int print_help(FILE *out)
{
	fputs("usage: vmscan-report COMMAND [OPTIONS] ...\n\n"
	      "Loads vmscan tracepoint recordings into SQLite and reports on page reclaim.\n\n"
	      "commands:\n", out);
	for (size_t i = 0; i < VR_ARRAY_SIZE(commands); i++)
		fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fputs("\n'vmscan-report COMMAND -h' shows the options of a command.\n"
	      "exit status: 0 success, 1 failure, 2 usage error\n", out);
	return 0;
}

int cmd_usage(const char *const *lines, int status)
{
	FILE *out = status ? stderr : stdout;

	for (; *lines; lines++)
		fprintf(out, "%s\n", *lines);
	return status;
}

static int finish_stdout(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		vr_error("cannot write to standard output: %s", strerror(errno));
		return VR_EXIT_FAIL;
	}
	return status;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return print_help(stderr), VR_EXIT_USAGE;
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help"))
		return finish_stdout(print_help(stdout));
	if (!strcmp(argv[1], "--version")) {
		printf("vmscan-report %s\n", VR_VERSION);
		return finish_stdout(0);
	}
	for (size_t i = 0; i < VR_ARRAY_SIZE(commands); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		/* getopt names argv[0] in its messages: "vmscan-report load: ..." */
		char name[64];

		snprintf(name, sizeof(name), "vmscan-report %s", commands[i].name);
		argv[1] = name;
		return finish_stdout(commands[i].fn(argc - 1, argv + 1));
	}
	vr_error("'%s' is not a command; see 'vmscan-report help'", argv[1]);
	return VR_EXIT_USAGE;
}
