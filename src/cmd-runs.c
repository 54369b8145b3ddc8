// SPDX-License-Identifier: GPL-2.0
/* cmd-runs.c - `vmscan-report runs`: one line per run with metadata and counts. */
#include "cmd.h"
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

static const char runs_sql[] =
	"SELECT id, kernel, iteration, coalesce(kernel_release, '-'), coalesce(clock, '-'),"
	" coalesce(cpus, 0), coalesce((last_ts_ns - first_ts_ns) / 1e9, 0), event_count,"
	" lost_events, lost_unknown, coalesce(file_version, 0), coalesce(compression, '-'),"
	" source_path, ring_overrun FROM run ORDER BY id";

int cmd_runs(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *db = NULL;
	struct store *st;
	sqlite3_stmt *q;
	int c, rc;

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
	if (sqlite3_prepare_v2(store_db(st), runs_sql, -1, &q, NULL) != SQLITE_OK) {
		vr_error("%s: %s", db, sqlite3_errmsg(store_db(st)));
		store_close(st);
		return VR_EXIT_FAIL;
	}
	printf("%4s  %-24s %4s  %-20s %-6s %4s %9s %10s %6s %8s %4s  %s\n", "run", "kernel", "iter",
	       "release", "clock", "cpus", "seconds", "events", "lost", "overrun", "ver", "file");
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		long long lost = sqlite3_column_int64(q, 8);
		int unknown = sqlite3_column_int(q, 9);
		char lostbuf[32];

		snprintf(lostbuf, sizeof(lostbuf), unknown ? "%lld+?" : "%lld", lost);
		char overbuf[32] = "-";

		if (sqlite3_column_type(q, 13) != SQLITE_NULL)
			snprintf(overbuf, sizeof(overbuf), "%lld",
				 (long long)sqlite3_column_int64(q, 13));
		printf("%4lld  %-24s %4d  %-20s %-6s %4d %9.3f %10lld %6s %8s %4d  %s\n",
		       (long long)sqlite3_column_int64(q, 0), sqlite3_column_text(q, 1),
		       sqlite3_column_int(q, 2), sqlite3_column_text(q, 3),
		       sqlite3_column_text(q, 4), sqlite3_column_int(q, 5),
		       sqlite3_column_double(q, 6), (long long)sqlite3_column_int64(q, 7),
		       lostbuf, overbuf, sqlite3_column_int(q, 10), sqlite3_column_text(q, 12));
	}
	sqlite3_finalize(q);
	store_close(st);
	if (rc != SQLITE_DONE)
		return vr_error("%s: %s", db, sqlite3_errstr(rc)), VR_EXIT_FAIL;
	return VR_EXIT_OK;
}
