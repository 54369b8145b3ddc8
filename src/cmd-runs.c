// SPDX-License-Identifier: GPL-2.0
/* cmd-runs.c - `vmscan-report runs`: one line per run with metadata and counts. */
#include "cmd.h"
#include "runs.h"
#include "store.h"
#include "vr.h"

#include <getopt.h>
#include <stdio.h>

static const char *const runs_usage[] = {
	"usage: vmscan-report runs -d DB",
	"",
	"List the runs in DB: id, kernel label, iteration, kernel release, clock,",
	"CPUs, duration, events, lost events (markers in the data; '+?' when some",
	"markers carry no count), the kernel's ring-buffer overrun counters saved",
	"in the file ('-' when not saved), file version and the source file.",
	"",
	"  -d, --database DB   SQLite database written by 'load'",
	"  -h, --help          show this help",
	NULL
};

int cmd_runs(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *db = NULL;
	struct store *st;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:h", longopts, NULL)) != -1) {
		if (c == 'd')
			db = optarg;
		else if (c == 'h')
			return cmd_usage(runs_usage, 0);
		else
			return cmd_usage(runs_usage, VR_EXIT_USAGE);
	}
	if (!db || optind != argc)
		return vr_error("runs: -d DB is required and takes no other argument"),
		       cmd_usage(runs_usage, VR_EXIT_USAGE);
	st = store_open(db, STORE_RDONLY);
	if (!st)
		return VR_EXIT_FAIL;
	ret = runs_print(st, stdout);
	store_close(st);
	return ret ? VR_EXIT_FAIL : VR_EXIT_OK;
}
