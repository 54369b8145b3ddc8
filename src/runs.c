// SPDX-License-Identifier: GPL-2.0
/* runs.c - the run list of a database; see include/runs.h. */
#include "runs.h"
#include "store-query.h"

static const char runs_sql[] =
	"SELECT id, kernel, iteration, coalesce(kernel_release, '-'), coalesce(clock, '-'),"
	" coalesce(cpus, 0), coalesce((last_ts_ns - first_ts_ns) / 1e9, 0), event_count,"
	" lost_events, lost_unknown, coalesce(file_version, 0), coalesce(compression, '-'),"
	" source_path, ring_overrun FROM run ORDER BY id";

/* One line of runs_sql's row @q. */
static int print_run(struct store_stmt *q, void *arg)
{
	FILE *out = arg;
	long long lost = store_col_int64(q, 8);
	char lostbuf[32], overbuf[32] = "-";

	snprintf(lostbuf, sizeof(lostbuf), store_col_int(q, 9) ? "%lld+?" : "%lld", lost);
	if (!store_col_is_null(q, 13))
		snprintf(overbuf, sizeof(overbuf), "%lld", (long long)store_col_int64(q, 13));
	fprintf(out, "%4lld  %-24s %4d  %-20s %-6s %4d %9.3f %10lld %6s %8s %4d  %s\n",
		(long long)store_col_int64(q, 0), store_col_text(q, 1), store_col_int(q, 2),
		store_col_text(q, 3), store_col_text(q, 4), store_col_int(q, 5),
		store_col_double(q, 6), (long long)store_col_int64(q, 7), lostbuf, overbuf,
		store_col_int(q, 10), store_col_text(q, 12));
	return 0;
}

int runs_print(struct store *s, FILE *out)
{
	struct store_stmt *q = store_stmt_new(s, runs_sql, "run list");
	int ret;

	if (!q)
		return -1;
	fprintf(out, "%4s  %-24s %4s  %-20s %-6s %4s %9s %10s %6s %8s %4s  %s\n", "run", "kernel",
		"iter", "release", "clock", "cpus", "seconds", "events", "lost", "overrun", "ver",
		"file");
	ret = store_stmt_each(q, print_run, out);
	store_stmt_free(q);
	return ret;
}
