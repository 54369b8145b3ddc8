// SPDX-License-Identifier: GPL-2.0
/*
 * summary.c - per run, the totals, the per-process table and the per-node
 * kswapd table that the kernel's
 * Documentation/trace/postprocess/trace-vmscan-postprocess.pl prints
 * (direct reclaims, pages scanned/reclaimed split file/anon, writes
 * sync/async, wakeups per order, time stalled, time kswapd awake), read
 * from the raw and derived tables.  The script itself is wrong on 6.x
 * traces: its per-process and kswapd printf formats have fewer numeric
 * slots than arguments since the file/anon split (the columns after
 * "Pages Scanned" are shifted), it dispatches writes on
 * "mm_vmscan_writepage" only (never mm_vmscan_write_folio) and it expects
 * microsecond timestamps; here pids are numbers, times ns, and writes come
 * from reclaim_write.  Plus what the script cannot see: memcg/node
 * reclaim, throttling, slab shrinking, kswapd sleep decisions, pgdat flag
 * time and the run's data-quality items.  See include/summary.h.
 */
#include "summary.h"
#include "counters.h"
#include "coverage.h"
#include "recorded.h"
#include "store.h"
#include "runs.h"
#include "store-query.h"
#include "vr.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

/* The run being summarised. */
struct sum_ctx {
	struct store *s;
	int64_t run;
	FILE *out;
};

/* @sql (purpose @what) with ?1 bound to the run; NULL after a message. */
static struct store_stmt *run_stmt(const struct sum_ctx *c, const char *sql, const char *what)
{
	struct store_stmt *q = store_stmt_new(c->s, sql, what);

	store_bind_int64(q, 1, c->run);
	return q;
}

/* Columns 0..@n-1 of the one row of @q into @out (zeros when no row); frees @q. */
static int one_row(struct store_stmt *q, int64_t *out, int n)
{
	int rc = store_stmt_row_int64(q, out, n);

	store_stmt_free(q);
	return rc < 0 ? -1 : 0;
}

/* kswapd pids of the run: those of kswapd_cycle, or comm kswapdN. */
#define KSWAPD_PIDS \
	"(SELECT pid FROM kswapd_cycle WHERE run_id = ?1 AND pid IS NOT NULL" \
	" UNION SELECT pid FROM task WHERE run_id = ?1 AND comm GLOB 'kswapd[0-9]*')"

static const char pages_sql[] =
	"SELECT"
	" (SELECT coalesce(sum(nr_scanned), 0) FROM lru_isolate_pages WHERE run_id = ?1"
	"  AND pid %s IN " KSWAPD_PIDS " AND lru = 2),"
	" (SELECT coalesce(sum(nr_scanned), 0) FROM lru_isolate_pages WHERE run_id = ?1"
	"  AND pid %s IN " KSWAPD_PIDS " AND lru = 0),"
	" (SELECT coalesce(sum(nr_reclaimed), 0) FROM lru_shrink_pages"
	"  WHERE run_id = ?1 AND pid %s IN " KSWAPD_PIDS " AND file),"
	" (SELECT coalesce(sum(nr_reclaimed), 0) FROM lru_shrink_pages"
	"  WHERE run_id = ?1 AND pid %s IN " KSWAPD_PIDS " AND NOT file),"
	" (SELECT count(*) FROM reclaim_write WHERE run_id = ?1 AND by_kswapd = %d"
	"  AND file AND sync),"
	" (SELECT count(*) FROM reclaim_write WHERE run_id = ?1 AND by_kswapd = %d"
	"  AND file AND NOT sync),"
	" (SELECT count(*) FROM reclaim_write WHERE run_id = ?1 AND by_kswapd = %d"
	"  AND NOT file AND sync),"
	" (SELECT count(*) FROM reclaim_write WHERE run_id = ?1 AND by_kswapd = %d"
	"  AND NOT file AND NOT sync),"
	" (SELECT coalesce(sum(nr_scanned), 0) FROM lru_isolate_pages WHERE run_id = ?1"
	"  AND pid %s IN " KSWAPD_PIDS " AND lru IS NULL),"
	" (SELECT coalesce(sum(nr_reclaimed), 0) FROM lru_shrink_pages"
	"  WHERE run_id = ?1 AND pid %s IN " KSWAPD_PIDS " AND file IS NULL)";

/* Pages scanned (lru_isolate of the inactive lists) and reclaimed
 * (lru_shrink_inactive), split file/anon, and writes, by kswapd (@ks 1)
 * or by everything else (@ks 0).  Rows that name no list (lru and file
 * NULL, or reclaim_flags NULL: a damaged text line) are neither file nor
 * anon: they are the "unclassified" line, never left out silently. */
static int print_pages(const struct sum_ctx *c, int ks)
{
	const char *not = ks ? "" : "NOT";
	struct store_stmt *q = store_stmt_newf(c->s, ks ? "kswapd pages" : "direct reclaim pages",
					       pages_sql, not, not, not, not, ks, ks, ks, ks, not, not);
	const char *who = ks ? "Kswapd" : "Outside kswapd";
	char label[64], why[RECORDED_WHY_MAX];
	int64_t v[10];
	int iso = recorded_check(c->s, c->run, RN_LRU_ISOLATE, NULL, 0);
	int shr = recorded_check(c->s, c->run, RN_LRU_PAGES, why, sizeof(why));
	int wr = recorded_check(c->s, c->run, RN_WRITE, NULL, 0);

	store_bind_int64(q, 1, c->run);
	if (one_row(q, v, 10) || iso < 0 || shr < 0 || wr < 0)
		return -1;
	snprintf(label, sizeof(label), "%s lru_isolate nr_scanned:", who);
	if (iso)
		fprintf(c->out, "  %-44s %10lld (file %lld, anon %lld)\n", label,
			(long long)(v[0] + v[1]), (long long)v[0], (long long)v[1]);
	else
		fprintf(c->out, "  %-44s %10s (as the counters' -)\n", label, "-");
	snprintf(label, sizeof(label), "%s shrink_inactive nr_reclaimed:", who);
	if (shr)
		fprintf(c->out, "  %-44s %10lld (file %lld, anon %lld)\n", label,
			(long long)(v[2] + v[3]), (long long)v[2], (long long)v[3]);
	else
		fprintf(c->out, "  %-44s %10s (as the counters' -)\n", label, "-");
	snprintf(label, sizeof(label), "%s pages unclassified:", who);
	if (iso && shr)
		fprintf(c->out, "  %-44s %10lld scanned, %lld reclaimed (rows without lru/file or"
			" flags)\n", label, (long long)v[8], (long long)v[9]);
	snprintf(label, sizeof(label), "%s writes file sync/async:", who);
	if (wr)
		fprintf(c->out, "  %-44s %10lld / %lld folios\n", label, (long long)v[4],
			(long long)v[5]);
	else
		fprintf(c->out, "  %-44s %10s (as the counters' -)\n", label, "-");
	snprintf(label, sizeof(label), "%s writes anon sync/async:", who);
	if (wr)
		fprintf(c->out, "  %-44s %10lld / %lld folios\n", label, (long long)v[6],
			(long long)v[7]);
	else
		fprintf(c->out, "  %-44s %10s (as the counters' -)\n", label, "-");
	return 0;
}

/* "0:12 3:4" ("-" when empty) from a two-column (order, count) query. */
static int order_list(const struct sum_ctx *c, const char *sql, const char *what,
		      struct vr_buf *b)
{
	struct store_stmt *q = run_stmt(c, sql, what);
	int rc;

	vr_buf_reset(b);
	while ((rc = store_step(q)) > 0)
		vr_buf_addf(b, "%s%s:%lld", b->len ? " " : "",
			    store_col_is_null(q, 0) ? "?" : store_col_text(q, 0),
			    (long long)store_col_int64(q, 1));
	store_stmt_free(q);
	if (!b->len)
		vr_buf_addstr(b, "-");
	return rc;
}

/* Direct reclaims, their stall time and pages, wakeup requests per order. */
static int print_direct(const struct sum_ctx *c, struct vr_buf *b)
{
	int64_t v[3];

	/* every stall (the counters block has the complete ones and their time) */
	if (one_row(run_stmt(c, "SELECT count(*), 0,"
			     " coalesce(sum(NOT complete), 0) FROM reclaim_stall"
			     " WHERE run_id = ?1 AND kind = 'direct'", "direct reclaim stalls"), v, 3))
		return -1;
	fprintf(c->out, "  %-44s %10lld (%lld incomplete)\n", "Direct reclaim stalls, all:",
		(long long)v[0], (long long)v[2]);
	if (print_pages(c, 0))
		return -1;
	if (order_list(c, "SELECT \"order\", count(*) FROM reclaim_stall WHERE run_id = ?1"
		       " AND kind = 'direct' GROUP BY 1 ORDER BY 1", "direct reclaims per order", b))
		return -1;
	fprintf(c->out, "  %-44s %s\n", "Direct reclaim stalls per order:", b->buf);
	if (one_row(run_stmt(c, "SELECT count(*) FROM kswapd_wakeup WHERE run_id = ?1",
			     "wakeup requests"), v, 1))
		return -1;
	fprintf(c->out, "  %-44s %10lld\n", "Wake kswapd requests:", (long long)v[0]);
	if (order_list(c, "SELECT \"order\", count(*) FROM kswapd_wakeup WHERE run_id = ?1"
		       " GROUP BY 1 ORDER BY 1", "wakeup requests per order", b))
		return -1;
	fprintf(c->out, "  %-44s %s\n", "Wake kswapd requests per order:", b->buf);
	return 0;
}

static int print_totals(const struct sum_ctx *c)
{
	struct vr_buf b;
	int64_t v[2];
	char why[RECORDED_WHY_MAX];
	int ret = recorded_check(c->s, c->run, RN_VMSCAN, why, sizeof(why));

	if (ret <= 0) {	/* counts of events not recorded are unknown, not 0 */
		/* "not recorded: no vmscan tracepoint ... (--empty-run)", "... no
		 * trace in this run (its latencies were imported alone)" */
		if (!ret)
			fprintf(c->out, "  %c%s: every reclaim count is -, not 0\n",
				toupper((unsigned char)why[0]), why + 1);
		return ret;
	}
	if (counters_print_run(c->s, c->run, c->out))
		return -1;
	fprintf(c->out, "\n");
	vr_buf_init(&b);
	ret = print_direct(c, &b);
	vr_buf_release(&b);
	if (ret)
		return -1;
	fprintf(c->out, "\n");
	if (one_row(run_stmt(c, "SELECT count(wake_ns), coalesce(sum(decision = 'full_sleep'), 0)"
			     " FROM kswapd_cycle WHERE run_id = ?1", "kswapd wakeups"), v, 2))
		return -1;
	fprintf(c->out, "  %-44s %10lld (%lld full sleeps)\n", "Kswapd cycles with a wake:",
		(long long)v[0], (long long)v[1]);
	return print_pages(c, 1);
}

/* Printing one row of a table, with its header before the first. */
struct table_rows {
	FILE *out;
	int n;
};

static int other_row(struct store_stmt *q, void *arg)
{
	struct table_rows *t = arg;

	if (!t->n++)
		fprintf(t->out, "\n  %-30s %8s %12s %12s\n", "Other stalls and waits", "count",
			"total s", "max ms");
	fprintf(t->out, "  %-30s %8lld %12.3f %12.3f\n", store_col_text(q, 0),
		(long long)store_col_int64(q, 1), store_col_int64(q, 2) / 1e9,
		store_col_int64(q, 3) / 1e6);
	return 0;
}

static int flag_row(struct store_stmt *q, void *arg)
{
	struct table_rows *t = arg;

	if (!t->n++)
		fprintf(t->out, "\n  %-4s %-24s %9s %12s  %s\n", "Node", "Flag (inferred)",
			"intervals", "time set s", "rule");
	fprintf(t->out, "  %-4d %-24s %9lld ", store_col_int(q, 0), store_col_text(q, 1),
		(long long)store_col_int64(q, 2));
	if (store_col_is_null(q, 3))	/* the time is not known (an excerpt's gap) */
		fprintf(t->out, "%12s", "-");
	else
		fprintf(t->out, "%12.3f", store_col_int64(q, 3) / 1e9);
	fprintf(t->out, "  %s\n", store_col_text(q, 4));
	return 0;
}

/*
 * What the model says of PGDAT_DIRTY (run_quality pgdat_flag_dirty,
 * src/model/model-flags.c dirty_note()): an estimate, or cannot be inferred.
 */
static int dirty_note_row(struct store_stmt *q, void *arg)
{
	struct table_rows *t = arg;

	fprintf(t->out, "%s  %s\n", t->n++ ? "" : "\n", store_col_text(q, 0));
	return 0;
}

/* Run @q's rows through @row (a struct table_rows), then free @q. */
static int table(struct store_stmt *q, int (*row)(struct store_stmt *, void *), FILE *out)
{
	struct table_rows t = { out, 0 };
	int ret = store_stmt_each(q, row, &t);

	store_stmt_free(q);
	return ret;
}

/* Stalls other than direct, throttling, slab shrinking, flag time (an
 * interval still set at the end counts to @last_ts). */
static int print_other(const struct sum_ctx *c, int64_t last_ts)
{
	struct store_stmt *q;
	char why[RECORDED_WHY_MAX];
	int known;

	q = run_stmt(c, "SELECT kind, count(*), coalesce(sum(duration_ns), 0),"
		     " coalesce(max(duration_ns), 0) FROM reclaim_stall WHERE run_id = ?1"
		     " AND kind != 'direct' GROUP BY kind"
		     " UNION ALL SELECT kind || coalesce(' ' || reason, ''), count(*),"
		     " coalesce(sum(usec_delayed), 0) * 1000, coalesce(max(usec_delayed), 0) * 1000"
		     " FROM reclaim_throttle WHERE run_id = ?1 GROUP BY 1"
		     " UNION ALL SELECT 'slab shrink', sum(calls),"
		     " coalesce(sum(duration_ns * calls), 0), coalesce(max(duration_ns), 0)"
		     " FROM slab_shrink_ns WHERE run_id = ?1 HAVING sum(calls) > 0 ORDER BY 1",
		     "other stalls and waits");
	if (table(q, other_row, c->out))
		return -1;
	/* a flag set before an excerpt's gap may have been cleared in it */
	known = recorded_check(c->s, c->run, RN_PGDAT_FLAGS, why, sizeof(why));
	if (known < 0)
		return -1;
	q = run_stmt(c, "SELECT nid, flag, count(*), CASE WHEN ?3 THEN"
		     " sum(coalesce(clear_ns, ?2) - set_ns) END, min(rule) FROM pgdat_flag"
		     " WHERE run_id = ?1 GROUP BY 1, 2 ORDER BY 1, 2", "pgdat flag time");
	store_bind_int64(q, 2, last_ts);
	store_bind_int64(q, 3, known);
	if (table(q, flag_row, c->out))
		return -1;
	if (!known && strstr(why, "excerpt"))
		fprintf(c->out, "  -: %s\n", why);
	return table(run_stmt(c, "SELECT detail FROM run_quality WHERE run_id = ?1"
			      " AND item = 'pgdat_flag_dirty' AND detail IS NOT NULL",
			      "PGDAT_DIRTY note"), dirty_note_row, c->out);
}

/*
 * Reclaim per cgroup id: the reclaim_stall rows by memcg_id (7.1+, 874a0a566ede
 * "mm: vmscan: add cgroup IDs to vmscan tracepoints") and kind; only for a
 * run whose stalls have one (a database made before the column has none).
 */
static int memcg_row(struct store_stmt *q, void *arg)
{
	struct table_rows *t = arg;

	if (!t->n++)
		fprintf(t->out, "\n  %-10s %-16s %8s %14s %14s\n", "Cgroup id", "Reclaim kind",
			"stalls", "stall time ms", "pages rclmed");
	fprintf(t->out, "  %-10lld %-16s %8lld %14.3f %14lld\n", (long long)store_col_int64(q, 0),
		store_col_text(q, 1), (long long)store_col_int64(q, 2),
		store_col_int64(q, 3) / 1e6, (long long)store_col_int64(q, 4));
	return 0;
}

static int print_memcgs(const struct sum_ctx *c)
{
	int have = store_has_column(c->s, "reclaim_stall", "memcg_id");

	if (have <= 0)
		return have;
	return table(run_stmt(c, "SELECT memcg_id, kind, count(*),"
			      " coalesce(sum(CASE WHEN complete THEN duration_ns END), 0),"
			      " coalesce(sum(nr_reclaimed), 0) FROM reclaim_stall WHERE run_id = ?1"
			      " AND memcg_id IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2",
			      "reclaim per cgroup id"), memcg_row, c->out);
}

/*
 * kswapd's hopeless episodes (kswapd_hopeless, src/model/model-hopeless.c):
 * shown when the recording has mm_vmscan_kswapd_reclaim_fail or the reset
 * event (run_event_count, count 0 included: enabled, never fired) or rows.
 * Times in s from the run's start; a start or end the trace did not show
 * is said in words, never a number.
 */
struct hopeless_rows {
	FILE *out;
	int64_t first_ts;
	int n;
};

static void hopeless_time(FILE *out, struct store_stmt *q, int col, int64_t first_ts,
			  const char *unknown)
{
	if (store_col_is_null(q, col))
		fprintf(out, " %-27s", unknown);
	else
		fprintf(out, " %-27.6f", (store_col_int64(q, col) - first_ts) / 1e9);
}

static int hopeless_row(struct store_stmt *q, void *arg)
{
	struct hopeless_rows *t = arg;
	const char *why = store_col_text(q, 8);
	bool clear_lost = why && strstr(why, "clear_not_traced");

	if (!t->n++)
		fprintf(t->out, "\n  %-4s %-27s %-27s %8s %6s  %s\n", "Node", "hopeless from s",
			"until s", "failures", "fails", "reset (reason, by)");
	fprintf(t->out, "  %-4d", store_col_int(q, 0));
	hopeless_time(t->out, q, 1, t->first_ts, "before the trace showed it");
	hopeless_time(t->out, q, 2, t->first_ts, clear_lost ? "reset not traced" :
						  "still hopeless at the end");
	fprintf(t->out, " %8lld %6lld  ", (long long)store_col_int64(q, 3),
		(long long)store_col_int64(q, 4));
	if (store_col_is_null(q, 2))
		fprintf(t->out, "-");
	else if (!store_col_is_null(q, 5))
		fprintf(t->out, "%s", store_col_text(q, 5));
	else if (!store_col_is_null(q, 6))
		fprintf(t->out, "reason %lld", (long long)store_col_int64(q, 6));
	else
		fprintf(t->out, "reason not printed");
	if (!store_col_is_null(q, 7))
		fprintf(t->out, ", %s", store_col_text(q, 7));
	fprintf(t->out, "\n");
	return 0;
}

static int print_hopeless(const struct sum_ctx *c, int64_t first_ts)
{
	struct hopeless_rows t = { c->out, first_ts, 0 };
	int64_t traced[2] = { 0, 0 };
	struct store_stmt *q;
	int have = store_has_table(c->s, "kswapd_hopeless");

	if (have <= 0)
		return have;
	if (one_row(run_stmt(c, "SELECT count(*), coalesce(sum(count), 0) FROM run_event_count"
			     " WHERE run_id = ?1 AND name IN ('mm_vmscan_kswapd_reclaim_fail',"
			     " 'mm_vmscan_kswapd_clear_hopeless', 'mm_vmscan_reset_kswapd_failures')",
			     "hopeless events"), traced, 2))
		return -1;
	q = run_stmt(c, "SELECT nid, start_ns, end_ns, failures, fail_events, reset_reason_name,"
		     " reset_reason, CASE WHEN reset_pid IS NULL THEN NULL"
		     " ELSE coalesce(reset_comm, '<...>') || ' ' || reset_pid END,"
		     " incomplete_reason FROM kswapd_hopeless WHERE run_id = ?1"
		     " ORDER BY nid, first_fail_ns", "kswapd hopeless episodes");
	if (!traced[0]) {
		/* no such event in the recording: rows only from an older load */
		store_stmt_free(q);
		return 0;
	}
	fprintf(c->out, "\n  kswapd hopeless episodes (kswapd_failures >= 16, MAX_RECLAIM_RETRIES):");
	if (store_stmt_each(q, hopeless_row, &t) < 0) {
		store_stmt_free(q);
		return -1;
	}
	store_stmt_free(q);
	if (!t.n)
		fprintf(c->out, " none (%lld kswapd_failures events traced)\n",
			(long long)traced[1]);
	return 0;
}

/*
 * One row per task: pid and the comm it had then (a pid that exec'ed or was
 * reused has a row per comm; ifnull(comm, '<...>') is the key, as printed).
 * Each table says the comm of its rows' time (the derived rows' comm, the
 * sums' comm); %s is "comm", or "NULL" in a database made before rows had
 * a comm.
 */
static const char per_process_sql[] =
	"WITH ks AS " KSWAPD_PIDS ","
	" st AS (SELECT pid, ifnull(%s, '<...>') k, count(*) n,"
	"  coalesce(sum(CASE WHEN complete THEN duration_ns END), 0) ns FROM reclaim_stall"
	"  WHERE run_id = ?1 AND kind = 'direct' GROUP BY 1, 2),"
	" wk AS (SELECT pid, ifnull(%s, '<...>') k, count(*) n FROM kswapd_wakeup"
	"  WHERE run_id = ?1 GROUP BY 1, 2),"
	" sc AS (SELECT pid, ifnull(%s, '<...>') k, sum(nr_scanned) n FROM lru_isolate_pages"
	"  WHERE run_id = ?1 AND lru IN (0, 2) GROUP BY 1, 2),"
	" rc AS (SELECT pid, ifnull(%s, '<...>') k, sum(nr_reclaimed) n FROM lru_shrink_pages"
	"  WHERE run_id = ?1 GROUP BY 1, 2),"
	" wr AS (SELECT pid, ifnull(%s, '<...>') k, sum(sync) s, sum(NOT sync) a FROM reclaim_write"
	"  WHERE run_id = ?1 GROUP BY 1, 2),"
	" p AS (SELECT pid, k FROM st UNION SELECT pid, k FROM wk UNION SELECT pid, k FROM sc"
	"  UNION SELECT pid, k FROM rc UNION SELECT pid, k FROM wr)"
	" SELECT p.pid, p.k,"
	" coalesce(st.n, 0), coalesce(wk.n, 0), coalesce(sc.n, 0), coalesce(rc.n, 0),"
	" coalesce(wr.s, 0), coalesce(wr.a, 0), coalesce(st.ns, 0),"
	" (SELECT group_concat('direct-' || coalesce(o, '?') || '=' || n, ' ') FROM"
	"  (SELECT \"order\" o, count(*) n FROM reclaim_stall WHERE run_id = ?1"
	"   AND kind = 'direct' AND pid = p.pid AND ifnull(%s, '<...>') = p.k GROUP BY 1 ORDER BY 1)),"
	" (SELECT group_concat('wakeup-' || coalesce(o, '?') || '=' || n, ' ') FROM"
	"  (SELECT \"order\" o, count(*) n FROM kswapd_wakeup WHERE run_id = ?1"
	"   AND pid = p.pid AND ifnull(%s, '<...>') = p.k GROUP BY 1 ORDER BY 1))"
	" FROM p LEFT JOIN st USING (pid, k) LEFT JOIN wk USING (pid, k) LEFT JOIN sc USING (pid, k)"
	" LEFT JOIN rc USING (pid, k) LEFT JOIN wr USING (pid, k)"
	" WHERE p.pid NOT IN ks ORDER BY 9 DESC, 3 DESC, 1, 2";

/* What process_row() prints on: the pages columns are "-" when the run
 * did not record them (recorded.h). */
struct process_out {
	FILE *out;
	bool scanned, reclaimed, written;
};

/* A cell of @width of the per-process table: "-" when not recorded. */
static void pages_cell(FILE *out, bool have, int64_t v, int width)
{
	if (have)
		fprintf(out, " %*lld", width, (long long)v);
	else
		fprintf(out, " %*s", width, "-");
}

static int process_row(struct store_stmt *q, void *arg)
{
	const struct process_out *po = arg;
	FILE *out = po->out;
	const char *comm = store_col_text(q, 1), *d = store_col_text(q, 9);
	const char *w = store_col_text(q, 10);
	struct vr_buf esc;	/* a comm may hold control bytes (PR_SET_NAME) */
	char name[80];

	vr_buf_init(&esc);
	snprintf(name, sizeof(name), "%s-%d", vr_escaped(&esc, comm), store_col_int(q, 0));
	vr_buf_release(&esc);
	fprintf(out, "  %-24s %8lld %8lld", name, (long long)store_col_int64(q, 2),
		(long long)store_col_int64(q, 3));
	pages_cell(out, po->scanned, store_col_int64(q, 4), 10);
	pages_cell(out, po->reclaimed, store_col_int64(q, 5), 10);
	pages_cell(out, po->written, store_col_int64(q, 6), 8);
	pages_cell(out, po->written, store_col_int64(q, 7), 8);
	fprintf(out, " %12.3f  %s%s%s\n", store_col_int64(q, 8) / 1e6, d ? d : "",
		d && w ? " " : "", w ? w : "");
	return 0;
}

/* "comm", or "NULL" when @table has no comm column (an older database);
 * -1 after a message. */
static int comm_col(const struct sum_ctx *c, const char *table, const char **col)
{
	int have = store_has_column(c->s, table, "comm");

	*col = have > 0 ? "comm" : "NULL";
	return have < 0 ? -1 : 0;
}

static int print_processes(const struct sum_ctx *c)
{
	const char *st, *wk, *sc, *rc, *wr_col;
	struct process_out po = { c->out, true, true, true };
	struct store_stmt *q;
	struct vr_buf sql;
	int ret, iso = recorded_check(c->s, c->run, RN_LRU_ISOLATE, NULL, 0);
	int shr = recorded_check(c->s, c->run, RN_LRU_PAGES, NULL, 0);
	int wr = recorded_check(c->s, c->run, RN_WRITE, NULL, 0);

	if (comm_col(c, "reclaim_stall", &st) || comm_col(c, "kswapd_wakeup", &wk) ||
	    comm_col(c, "lru_isolate_pages", &sc) || comm_col(c, "lru_shrink_pages", &rc) ||
	    comm_col(c, "reclaim_write", &wr_col) || iso < 0 || shr < 0 || wr < 0)
		return -1;
	po.scanned = iso;
	po.reclaimed = shr;
	po.written = wr;
	vr_buf_init(&sql);
	vr_buf_addf(&sql, per_process_sql, st, wk, sc, rc, wr_col, st, wk);
	q = run_stmt(c, sql.buf, "per-process table");
	vr_buf_release(&sql);
	if (!q)
		return -1;
	fprintf(c->out, "\n  %-24s %8s %8s %10s %10s %8s %8s %12s  %s\n", "Process (comm-pid)",
		"Direct", "Wokeup", "Pages", "Pages", "Folios", "Folios", "Time", "Per order");
	fprintf(c->out, "  %-24s %8s %8s %10s %10s %8s %8s %12s\n", "", "Rclms", "Kswapd",
		"Scanned", "Rclmed", "Sync-IO", "ASync-IO", "Stalled ms");
	ret = store_stmt_each(q, process_row, &po);
	store_stmt_free(q);
	return ret;
}

/* Per-node kswapd: decisions, re-wakes (a wake while not in full sleep),
 * time awake (from a wake after a full sleep or the first wake to the next
 * full sleep or the trace end).  Before kswapd's first kswapd_wake (a cycle
 * with wake_ns NULL) its state is unknown: that time, from the trace start
 * to the cycle's sleep (or next wake), has no duration in Awake s nor in
 * Awake %'s span, and a line under the table says so. */
#define UNSET INT64_MIN

struct node_sum {
	int nid;
	int64_t pid, wakes, rewakes, sleeps, premature, early, timedout, nonap, unknown;
	int64_t awake_ns, awake_from;
	int64_t unknown_ns;		/* before the first wake: not known */
};

/* @known: kswapd's state is known over the whole trace (RN_KSWAPD_TIME);
 * when not, the Awake columns print "-" (the caller says why). */
static void node_print(FILE *out, struct node_sum *n, int64_t first_ts, int64_t last_ts,
		       struct vr_buf *notes, bool known)
{
	int64_t span = last_ts - first_ts - n->unknown_ns;

	if (n->awake_from != UNSET)
		n->awake_ns += last_ts - n->awake_from;
	fprintf(out, "  %-4d %8lld %7lld %8lld %7lld %6lld %7lld %7lld %6lld %7lld",
		n->nid, (long long)n->pid, (long long)n->wakes, (long long)n->rewakes,
		(long long)n->sleeps, (long long)n->premature, (long long)n->early,
		(long long)n->timedout, (long long)n->nonap, (long long)n->unknown);
	if (!known) {
		fprintf(out, " %12s %12s\n", "-", "-");
		return;
	}
	fprintf(out, " %12.3f %11.2f%%\n", n->awake_ns / 1e9,
		span > 0 ? 100.0 * (double)n->awake_ns / (double)span : 0.0);
	if (n->unknown_ns > 0)
		vr_buf_addf(notes, "  node %d: kswapd's state before its first kswapd_wake (the first"
			    " %.3f s of the trace) is unknown: not counted in Awake s or %%\n",
			    n->nid, n->unknown_ns / 1e9);
}

/* Columns: nid, pid, wake_ns, sleep_ns, next_wake_ns, decision, premature. */
static void node_add(struct node_sum *n, struct store_stmt *q, int64_t first_ts, int64_t last_ts)
{
	const char *d = store_col_text(q, 5);
	bool slept = !strcmp(d, "full_sleep") && !store_col_is_null(q, 3);

	if (!store_col_is_null(q, 1))
		n->pid = store_col_int64(q, 1);
	if (!store_col_is_null(q, 2)) {
		n->wakes++;
		if (n->awake_from == UNSET)
			n->awake_from = store_col_int64(q, 2);
		else
			n->rewakes++;
	} else if (n->awake_from == UNSET) {
		/* activity or a sleep before the first wake: since when? */
		int64_t known = slept ? store_col_int64(q, 3) :
				!store_col_is_null(q, 4) ? store_col_int64(q, 4) : last_ts;

		n->unknown_ns += known - first_ts;
		if (slept) {
			n->sleeps++;
			slept = false;
		}
	}
	n->premature += store_col_int(q, 6);
	n->early += !strcmp(d, "nap_woken_early");
	n->timedout += !strcmp(d, "nap_timed_out");
	n->nonap += !strcmp(d, "no_nap");
	n->unknown += !strcmp(d, "unknown");
	if (slept) {
		n->sleeps++;
		n->awake_ns += store_col_int64(q, 3) - n->awake_from;
		n->awake_from = UNSET;
	}
}

static int print_nodes(const struct sum_ctx *c, int64_t first_ts, int64_t last_ts)
{
	struct store_stmt *q = run_stmt(c, "SELECT nid, pid, wake_ns, sleep_ns, next_wake_ns,"
					" decision, premature FROM kswapd_cycle WHERE run_id = ?1"
					" ORDER BY nid, coalesce(wake_ns, -1)", "per-node kswapd table");
	struct node_sum n = { .nid = -1 };
	struct vr_buf notes;
	char why[RECORDED_WHY_MAX];
	int rc, known = recorded_check(c->s, c->run, RN_KSWAPD_TIME, why, sizeof(why));

	if (!q || known < 0) {
		store_stmt_free(q);
		return -1;
	}
	vr_buf_init(&notes);
	if (!known)
		vr_buf_addf(&notes, "  -: %s\n", why);
	fprintf(c->out, "\n  %-4s %8s %7s %8s %7s %6s %7s %7s %6s %7s %12s %12s\n", "Node",
		"kswapd", "Wakes", "Re-wakes", "Full", "Prema-", "Nap", "Nap", "No", "Unknown",
		"Awake to", "Awake to");
	fprintf(c->out, "  %-4s %8s %7s %8s %7s %6s %7s %7s %6s %7s %12s %12s\n", "", "pid", "",
		"", "sleeps", "ture", "woken", "timeout", "nap", "", "full sleep s", "full sleep %");
	while ((rc = store_step(q)) > 0) {
		int nid = store_col_int(q, 0);

		if (nid != n.nid) {
			if (n.nid >= 0)
				node_print(c->out, &n, first_ts, last_ts, &notes, known);
			n = (struct node_sum){ .nid = nid, .pid = -1, .awake_from = UNSET };
		}
		node_add(&n, q, first_ts, last_ts);
	}
	if (n.nid >= 0)
		node_print(c->out, &n, first_ts, last_ts, &notes, known);
	store_stmt_free(q);
	if (notes.len)
		fputs(notes.buf, c->out);
	vr_buf_release(&notes);
	return rc;
}

/*
 * Pages per node: nr_scanned and nr_reclaimed of mm_vmscan_lru_shrink_inactive
 * (lru_shrink_pages, a multi-gen LRU retry pass's nr_scanned left out), by
 * the node's kswapd and by every other task, per nid of the event
 * (pgdat->node_id of shrink_node(), mm/vmscan.c).  The nodes are those of
 * kswapd_cycle and of the events; a run with kswapd or stalls but no
 * lru_shrink_inactive at all prints "-" and why (multi-gen LRU before 6.7
 * traces none).
 */
static const char node_pages_sql[] =
	"WITH ks AS " KSWAPD_PIDS ","
	" n AS (SELECT nid FROM kswapd_cycle WHERE run_id = ?1"
	"  UNION SELECT nid FROM lru_shrink_pages WHERE run_id = ?1)"
	" SELECT n.nid,"
	" (SELECT sum(nr_scanned) FROM lru_shrink_pages p WHERE run_id = ?1 AND p.nid IS n.nid"
	"  AND pid IN ks),"
	" (SELECT sum(nr_reclaimed) FROM lru_shrink_pages p WHERE run_id = ?1 AND p.nid IS n.nid"
	"  AND pid IN ks),"
	" (SELECT sum(nr_scanned) FROM lru_shrink_pages p WHERE run_id = ?1 AND p.nid IS n.nid"
	"  AND pid NOT IN ks),"
	" (SELECT sum(nr_reclaimed) FROM lru_shrink_pages p WHERE run_id = ?1 AND p.nid IS n.nid"
	"  AND pid NOT IN ks),"
	" (SELECT count(*) FROM lru_shrink_pages WHERE run_id = ?1)"
	" FROM n ORDER BY n.nid IS NULL, n.nid";

/* A pages cell: the value, 0 when the node has none while the run has
 * some, "-" when the run has no lru_shrink_inactive at all. */
static void page_cell(FILE *out, struct store_stmt *q, int col, bool traced)
{
	if (!traced)
		fprintf(out, " %17s", "-");
	else
		fprintf(out, " %17lld", store_col_is_null(q, col) ? 0LL :
			(long long)store_col_int64(q, col));
}

static int print_node_pages(const struct sum_ctx *c)
{
	struct store_stmt *q = run_stmt(c, node_pages_sql, "pages per node");
	char why[RECORDED_WHY_MAX];
	int rc, n = 0, traced = recorded_check(c->s, c->run, RN_LRU_PAGES, why, sizeof(why));

	if (!q || traced < 0) {
		store_stmt_free(q);
		return -1;
	}
	while ((rc = store_step(q)) > 0) {
		if (!n++) {
			fprintf(c->out, "\n  Pages per node (mm_vmscan_lru_shrink_inactive, pages)\n");
			fprintf(c->out, "  %-4s %17s %17s %17s %17s\n", "Node", "kswapd scanned",
				"kswapd reclaimed", "outside scanned", "outside reclaimed");
		}
		if (store_col_is_null(q, 0))
			fprintf(c->out, "  %-4s", "?");
		else
			fprintf(c->out, "  %-4d", store_col_int(q, 0));
		for (int col = 1; col <= 4; col++)
			page_cell(c->out, q, col, traced);
		fprintf(c->out, "\n");
	}
	if (n && !traced)
		fprintf(c->out, "  -: %s\n", why);
	store_stmt_free(q);
	return rc < 0 ? -1 : 0;
}

/* One node's line of print_node_orders(): "NID WAKES REWAKES", "-" for no wake. */
static void node_order_line(FILE *out, int nid, const struct vr_buf *w, const struct vr_buf *r)
{
	fprintf(out, "  %-4d %s%s%s\n", nid, w->len ? w->buf : "-", r->len ? " " : "",
		r->len ? r->buf : "");
}

/*
 * Per node: kswapd wakes per order, and re-wakes (after no full sleep):
 * "wake-O=N ..." and "rewake-O=N ..." in ascending order O, a cycle without
 * an order left out.  One pass: the counts per node and order, in order.
 */
static int print_node_orders(const struct sum_ctx *c)
{
	struct store_stmt *q = run_stmt(c,
		"WITH c AS (SELECT nid, \"order\" o, wake_ns, lag(decision) OVER"
		"  (PARTITION BY nid ORDER BY coalesce(wake_ns, -1)) prev FROM kswapd_cycle"
		"  WHERE run_id = ?1)"
		" SELECT nid, o, sum(wake_ns IS NOT NULL),"
		" sum(wake_ns IS NOT NULL AND prev IS NOT NULL AND prev != 'full_sleep')"
		" FROM c GROUP BY nid, o ORDER BY nid, o", "kswapd wakes per order");
	struct vr_buf w, r;
	int rc, nid = 0;
	bool any = false;

	vr_buf_init(&w);
	vr_buf_init(&r);
	while ((rc = store_step(q)) > 0) {
		const char *o = store_col_text(q, 1);

		if (any && store_col_int(q, 0) != nid) {
			node_order_line(c->out, nid, &w, &r);
			vr_buf_reset(&w);
			vr_buf_reset(&r);
		}
		nid = store_col_int(q, 0);
		any = true;
		if (o && store_col_int64(q, 2))
			vr_buf_addf(&w, "%swake-%s=%s", w.len ? " " : "", o, store_col_text(q, 2));
		if (o && store_col_int64(q, 3))
			vr_buf_addf(&r, "%srewake-%s=%s", r.len ? " " : "", o,
				    store_col_text(q, 3));
	}
	if (rc == 0 && any)
		node_order_line(c->out, nid, &w, &r);
	vr_buf_release(&w);
	vr_buf_release(&r);
	store_stmt_free(q);
	return rc < 0 ? -1 : 0;
}

static int quality_row(struct store_stmt *q, void *arg)
{
	struct table_rows *t = arg;
	const char *item = store_col_text(q, 0);
	struct vr_buf detail;	/* it may quote the trace's release */

	if (!t->n++)
		fprintf(t->out, "\n  Data quality (run_quality: items not 0, and every"
			" pgdat_flag_ one)\n");
	if (!strcmp(item, "pgdat_flag_rule") || !strncmp(item, "pgdat_flag_not", 14) ||
	    !strcmp(item, "pgdat_flag_clear_rule")) {
		vr_buf_init(&detail);
		fprintf(t->out, "  %-34s %s\n", item, vr_escaped(&detail, store_col_text(q, 2)));
		vr_buf_release(&detail);
	} else if (!strcmp(item, "pgdat_flag_contradictions")) {
		fprintf(t->out, "  %-34s %10lld  %s\n", item, (long long)store_col_int64(q, 1),
			store_col_text(q, 2));
	} else
		fprintf(t->out, "  %-34s %10lld\n", item, (long long)store_col_int64(q, 1));
	return 0;
}

static int print_quality(const struct sum_ctx *c)
{
	return table(run_stmt(c, "SELECT item, count, coalesce(detail, '') FROM run_quality"
			      " WHERE run_id = ?1 AND (count != 0 OR item GLOB 'pgdat_flag_*')"
			      " ORDER BY item", "data quality"), quality_row, c->out);
}

/* The coverage table of the run (coverage.h), after a blank line. */
static int print_coverage(const struct sum_ctx *c)
{
	fprintf(c->out, "\n");
	return coverage_print_run(c->s, c->run, c->out);
}

/*
 * Was multi-gen LRU on (recorded_mglru()), and when it was, which metrics
 * mean something else under it (README.md "Multi-gen LRU"): mm/vmscan.c
 * evict_folios() (6.7+) traces one lru_isolate per scan_folios() with
 * nr_requested MAX_LRU_BATCH and lru_shrink_inactive per pass, a retry
 * pass repeating nr_scanned (model.c); before 6.7 none; there is no
 * active list (lru_shrink_active, pgrefill); and the pgdat flags are set
 * by code MGLRU skips (6.3+) or feeds all zeros (6.1-6.2).
 */
static int print_mglru(const struct sum_ctx *c)
{
	enum recorded_mglru st;
	char how[RECORDED_WHY_MAX];

	if (recorded_mglru(c->s, c->run, &st, how, sizeof(how)))
		return -1;
	fprintf(c->out, "  Multi-gen LRU: %s (%s)\n", st == RM_ON ? "on" : st == RM_OFF ? "off" :
		"unknown", how);
	if (st == RM_ON)
		fprintf(c->out, "  Under multi-gen LRU: pages scanned and reclaimed are those of"
			" evict_folios() (6.7+; before 6.7 not traced: -), a retry pass's scan"
			" counted once; there is no active list (no lru_shrink_active, pgrefill);"
			" the pgdat flags are not inferred (6.3+ skips their code, 6.1-6.2 runs it"
			" on zeros)\n");
	fprintf(c->out, "\n");
	return 0;
}

int summary_print_run(struct store *s, int64_t run_id, FILE *out)
{
	struct sum_ctx c = { s, run_id, out };
	struct store_stmt *q = run_stmt(&c, "SELECT kernel, iteration, source_path,"
					" coalesce(first_ts_ns, 0), coalesce(last_ts_ns, 0),"
					" coalesce(kernel_release, '-'), first_ts_ns IS NOT NULL"
					" FROM run WHERE id = ?1", "run");
	struct vr_buf kernel, release, path;	/* from the trace: control bytes escaped */
	int64_t first, last;
	char span[32] = "- s (no trace)";	/* no time: not 0 s */
	int rc = store_step(q);

	if (rc <= 0) {
		store_stmt_free(q);
		return rc ? -1 : runs_no_run(s, (long long)run_id);
	}
	first = store_col_int64(q, 3);
	last = store_col_int64(q, 4);
	vr_buf_init(&kernel);
	vr_buf_init(&release);
	vr_buf_init(&path);
	if (store_col_int(q, 6))
		snprintf(span, sizeof(span), "%.3f s", (last - first) / 1e9);
	fprintf(out, "run %lld: %s iteration %d, release %s, %s <- %s\n\n", (long long)run_id,
		vr_escaped(&kernel, store_col_text(q, 0)), store_col_int(q, 1),
		vr_escaped(&release, store_col_text(q, 5)), span,
		vr_escaped(&path, store_col_text(q, 2)));
	vr_buf_release(&kernel);
	vr_buf_release(&release);
	vr_buf_release(&path);
	store_stmt_free(q);
	return print_mglru(&c) || print_totals(&c) || print_other(&c, last) ||
	       print_memcgs(&c) || print_hopeless(&c, first) || print_processes(&c) ||
	       print_nodes(&c, first, last) || print_node_orders(&c) || print_node_pages(&c) ||
	       print_quality(&c) || print_coverage(&c) ? -1 : 0;
}

int summary_print(struct store *s, FILE *out)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT id FROM run ORDER BY id", "run ids");
	int rc = 0, ret = 0, n = 0;

	while (!ret && (rc = store_step(q)) > 0) {
		if (n++)
			fprintf(out, "\n");
		ret = summary_print_run(s, store_col_int64(q, 0), out);
	}
	store_stmt_free(q);
	return ret || rc < 0 ? -1 : 0;
}
