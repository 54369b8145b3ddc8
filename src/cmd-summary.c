// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-summary.c - `vmscan-report summary`: options, then the summary
 * module (include/summary.h) on stdout.
 */
#include "cmd.h"
#include "store.h"
#include "summary.h"
#include "vr.h"

#include <getopt.h>
#include <stdio.h>

static const char *const summary_usage[] = {
	"usage: vmscan-report summary -d DB [--run ID]",
	"",
	"Print, for each run (or run ID), what reclaim did: totals for direct",
	"reclaim and kswapd (pages scanned and reclaimed, split file/anon; pages",
	"written sync/async; time stalled; time kswapd was awake), other reclaim",
	"stalls, throttling, slab shrinking, pgdat flag time, a per-process table,",
	"a per-node kswapd table with the sleep decisions, and data quality.",
	"",
	"  -d, --database DB   SQLite database written by 'load'",
	"  -r, --run ID        only this run",
	"  -h, --help          show this help",
	NULL
};

int cmd_summary(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "run", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *db = NULL;
	uint64_t run = 0;
	struct store *st;
	int c, ret;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:r:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'r':
			if (vr_parse_u64(optarg, &run) || !run)
				return vr_error("summary: --run wants a run id, not '%s'", optarg),
				       VR_EXIT_USAGE;
			break;
		case 'h': return cmd_usage(summary_usage, 0);
		default: return cmd_usage(summary_usage, VR_EXIT_USAGE);
		}
	}
	if (!db || optind != argc)
		return vr_error("summary: -d DB is required and takes no other argument"),
		       cmd_usage(summary_usage, VR_EXIT_USAGE);
	st = store_open(db, STORE_RDONLY);
	if (!st)
		return VR_EXIT_FAIL;
	ret = run ? summary_print_run(st, (int64_t)run, stdout) : summary_print(st, stdout);
	store_close(st);
	return ret ? VR_EXIT_FAIL : VR_EXIT_OK;
}
