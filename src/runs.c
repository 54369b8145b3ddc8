// SPDX-License-Identifier: GPL-2.0
/* runs.c - the run list of a database; see include/runs.h. */
#include "runs.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

static const char runs_sql[] =
	"SELECT id, kernel, iteration, coalesce(kernel_release, '-'), coalesce(clock, '-'),"
	" cpus, (last_ts_ns - first_ts_ns) / 1e9, event_count,"
	" lost_events, lost_unknown, file_version, coalesce(compression, '-'),"
	" source_path, ring_overrun FROM run ORDER BY id";

/* Integer column @col of row @q as text in @buf (@n bytes), or "-" if NULL. */
static const char *int_or_dash(struct store_stmt *q, int col, char *buf, size_t n)
{
	if (store_col_is_null(q, col))
		return "-";
	snprintf(buf, n, "%lld", (long long)store_col_int64(q, col));
	return buf;
}

/* One line of runs_sql's row @q; a NULL cpus, seconds or ver prints "-". */
static int print_run(struct store_stmt *q, void *arg)
{
	FILE *out = arg;
	long long lost = store_col_int64(q, 8);
	char lostbuf[32], overbuf[32], cpubuf[32], secbuf[32] = "-", verbuf[32];
	struct vr_buf kernel, release, clock, path;	/* control bytes escaped, as in messages */

	snprintf(lostbuf, sizeof(lostbuf), store_col_int(q, 9) ? "%lld+?" : "%lld", lost);
	if (!store_col_is_null(q, 6))
		snprintf(secbuf, sizeof(secbuf), "%.3f", store_col_double(q, 6));
	vr_buf_init(&kernel);
	vr_buf_init(&release);
	vr_buf_init(&clock);
	vr_buf_init(&path);
	fprintf(out, "%4lld  %-24s %4d  %-20s %-6s %4s %9s %10lld %6s %8s %4s  %s\n",
		(long long)store_col_int64(q, 0), vr_escaped(&kernel, store_col_text(q, 1)),
		store_col_int(q, 2),
		vr_escaped(&release, store_col_text(q, 3)), vr_escaped(&clock, store_col_text(q, 4)),
		int_or_dash(q, 5, cpubuf, sizeof(cpubuf)), secbuf,
		(long long)store_col_int64(q, 7), lostbuf,
		int_or_dash(q, 13, overbuf, sizeof(overbuf)),
		int_or_dash(q, 10, verbuf, sizeof(verbuf)), vr_escaped(&path, store_col_text(q, 12)));
	vr_buf_release(&kernel);
	vr_buf_release(&release);
	vr_buf_release(&clock);
	vr_buf_release(&path);
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

/* Append run id @id to @b, runs of consecutive ids as "A-B" (@first, @prev:
 * the open range, 0 when none). */
static void add_range(struct vr_buf *b, long long first, long long prev)
{
	if (!first)
		return;
	vr_buf_addf(b, b->len ? ", %lld" : "%lld", first);
	if (prev > first)
		vr_buf_addf(b, "-%lld", prev);
}

int runs_no_run(struct store *s, long long run_id)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT id FROM run ORDER BY id", "run ids");
	long long first = 0, prev = 0;
	struct vr_buf b;
	int rc;

	vr_buf_init(&b);
	while (q && (rc = store_step(q)) > 0) {
		long long id = store_col_int64(q, 0);

		if (!first || id != prev + 1) {
			add_range(&b, first, prev);
			first = id;
		}
		prev = id;
	}
	add_range(&b, first, prev);
	store_stmt_free(q);
	vr_error("%s: no run %lld (its runs: %s)", store_path(s), run_id, b.len ? b.buf : "none");
	vr_buf_release(&b);
	return -1;
}
