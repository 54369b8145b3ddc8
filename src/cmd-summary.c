// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-summary.c - `vmscan-report summary`: per run, the totals, the
 * per-process table and the per-node kswapd table that
 * Documentation/trace/postprocess/trace-vmscan-postprocess.pl prints
 * (direct reclaims, pages scanned/reclaimed split file/anon, writes
 * sync/async, wakeups per order, time stalled, time kswapd awake), read
 * from the raw and derived tables, so it is right on 6.x traces: no
 * column shift, write_folio counted, pids by number, ns timestamps
 * (../shared/peers.md section 2.3).  Plus what the script cannot see:
 * memcg/node reclaim, throttling, slab shrinking, kswapd sleep decisions,
 * pgdat flag time and the run's data-quality items.
 */
#include "cmd.h"
#include "store.h"
#include "vr.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Prepare @sql with ?1 bound to @run; NULL after an error message. */
static sqlite3_stmt *query(struct store *st, const char *sql, int64_t run)
{
	sqlite3_stmt *q;

	if (sqlite3_prepare_v2(store_db(st), sql, -1, &q, NULL) != SQLITE_OK) {
		vr_error("%s: %s", store_path(st), sqlite3_errmsg(store_db(st)));
		return NULL;
	}
	sqlite3_bind_int64(q, 1, run);
	return q;
}

/* Read one row of int64 columns into @out (zeros when no row). */
static int row_ints(struct store *st, const char *sql, int64_t run, int64_t *out, int n)
{
	sqlite3_stmt *q = query(st, sql, run);
	int rc;

	if (!q)
		return -1;
	memset(out, 0, (size_t)n * sizeof(*out));
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		for (int i = 0; i < n; i++)
			out[i] = sqlite3_column_int64(q, i);
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return vr_error("%s: %s", store_path(st), sqlite3_errstr(rc));
	return 0;
}

/* kswapd pids of the run: those of kswapd_cycle, or comm kswapdN. */
#define KSWAPD_PIDS \
	"(SELECT pid FROM kswapd_cycle WHERE run_id = ?1 AND pid IS NOT NULL" \
	" UNION SELECT pid FROM task WHERE run_id = ?1 AND comm GLOB 'kswapd[0-9]*')"

/* Pages scanned (lru_isolate of the inactive lists) and reclaimed
 * (lru_shrink_inactive), split file/anon, and writes, by kswapd (@ks 1)
 * or by everything else (@ks 0). */
static int print_pages(struct store *st, int64_t run, int ks)
{
	char *sql = sqlite3_mprintf(
		"SELECT"
		" (SELECT coalesce(sum(nr_scanned), 0) FROM mm_vmscan_lru_isolate WHERE run_id = ?1"
		"  AND pid %s IN " KSWAPD_PIDS " AND coalesce(lru, 2 * file) = 2),"
		" (SELECT coalesce(sum(nr_scanned), 0) FROM mm_vmscan_lru_isolate WHERE run_id = ?1"
		"  AND pid %s IN " KSWAPD_PIDS " AND coalesce(lru, 2 * file) = 0),"
		" (SELECT coalesce(sum(nr_reclaimed), 0) FROM mm_vmscan_lru_shrink_inactive"
		"  WHERE run_id = ?1 AND pid %s IN " KSWAPD_PIDS " AND reclaim_flags & 2),"
		" (SELECT coalesce(sum(nr_reclaimed), 0) FROM mm_vmscan_lru_shrink_inactive"
		"  WHERE run_id = ?1 AND pid %s IN " KSWAPD_PIDS " AND NOT reclaim_flags & 2),"
		" (SELECT count(*) FROM reclaim_write WHERE run_id = ?1 AND by_kswapd = %d"
		"  AND file AND sync),"
		" (SELECT count(*) FROM reclaim_write WHERE run_id = ?1 AND by_kswapd = %d"
		"  AND file AND NOT sync),"
		" (SELECT count(*) FROM reclaim_write WHERE run_id = ?1 AND by_kswapd = %d"
		"  AND NOT file AND sync),"
		" (SELECT count(*) FROM reclaim_write WHERE run_id = ?1 AND by_kswapd = %d"
		"  AND NOT file AND NOT sync)",
		ks ? "" : "NOT", ks ? "" : "NOT", ks ? "" : "NOT", ks ? "" : "NOT", ks, ks, ks, ks);
	int64_t v[8];
	const char *who = ks ? "Kswapd" : "Direct reclaim";
	char label[64];
	int ret = row_ints(st, sql, run, v, 8);

	sqlite3_free(sql);
	if (ret)
		return -1;
	snprintf(label, sizeof(label), "%s pages scanned:", who);
	printf("  %-36s %10lld (file %lld, anon %lld)\n", label, (long long)(v[0] + v[1]),
	       (long long)v[0], (long long)v[1]);
	snprintf(label, sizeof(label), "%s pages reclaimed:", who);
	printf("  %-36s %10lld (file %lld, anon %lld)\n", label, (long long)(v[2] + v[3]),
	       (long long)v[2], (long long)v[3]);
	snprintf(label, sizeof(label), "%s writes file sync/async:", who);
	printf("  %-36s %10lld / %lld\n", label, (long long)v[4], (long long)v[5]);
	snprintf(label, sizeof(label), "%s writes anon sync/async:", who);
	printf("  %-36s %10lld / %lld\n", label, (long long)v[6], (long long)v[7]);
	return 0;
}

/* "0:12 3:4" - counts per order from a two-column (order, count) query. */
static int order_list(struct store *st, const char *sql, int64_t run, struct vr_buf *b)
{
	sqlite3_stmt *q = query(st, sql, run);

	if (!q)
		return -1;
	vr_buf_reset(b);
	while (sqlite3_step(q) == SQLITE_ROW)
		vr_buf_addf(b, "%s%s:%lld", b->len ? " " : "",
			    sqlite3_column_type(q, 0) == SQLITE_NULL ? "?" :
			    (const char *)sqlite3_column_text(q, 0),
			    (long long)sqlite3_column_int64(q, 1));
	sqlite3_finalize(q);
	if (!b->len)
		vr_buf_addstr(b, "-");
	return 0;
}

static int print_totals(struct store *st, int64_t run)
{
	int64_t v[8];
	struct vr_buf b;

	/* stall time of the complete stalls only, as compare's counters and the
	 * DirectReclaim metric: an episode with events lost inside may pair
	 * an end with the wrong begin */
	if (row_ints(st, "SELECT count(*),"
		     " coalesce(sum(CASE WHEN complete THEN duration_ns END), 0),"
		     " coalesce(sum(NOT complete), 0) FROM reclaim_stall"
		     " WHERE run_id = ?1 AND kind = 'direct'", run, v, 3))
		return -1;
	printf("  %-36s %10lld (%lld incomplete)\n", "Direct reclaims:",
	       (long long)v[0], (long long)v[2]);
	if (print_pages(st, run, 0))
		return -1;
	printf("  %-36s %10.3f s (complete stalls)\n", "Time stalled in direct reclaim:",
	       v[1] / 1e9);
	vr_buf_init(&b);
	if (order_list(st, "SELECT \"order\", count(*) FROM reclaim_stall WHERE run_id = ?1"
		       " AND kind = 'direct' GROUP BY 1 ORDER BY 1", run, &b))
		goto fail;
	printf("  %-36s %s\n", "Direct reclaims per order:", b.buf);
	if (row_ints(st, "SELECT count(*) FROM kswapd_wakeup WHERE run_id = ?1", run, v, 1))
		goto fail;
	printf("  %-36s %10lld\n", "Wake kswapd requests:", (long long)v[0]);
	if (order_list(st, "SELECT \"order\", count(*) FROM kswapd_wakeup WHERE run_id = ?1"
		       " GROUP BY 1 ORDER BY 1", run, &b))
		goto fail;
	printf("  %-36s %s\n", "Wake kswapd requests per order:", b.buf);
	printf("\n");
	if (row_ints(st, "SELECT count(wake_ns), coalesce(sum(decision = 'full_sleep'), 0)"
		     " FROM kswapd_cycle WHERE run_id = ?1", run, v, 2))
		goto fail;
	printf("  %-36s %10lld (%lld full sleeps)\n", "Kswapd wakeups:",
	       (long long)v[0], (long long)v[1]);
	if (print_pages(st, run, 1))
		goto fail;
	vr_buf_release(&b);
	return 0;
fail:
	vr_buf_release(&b);
	return -1;
}

/* Stalls other than direct, throttling, slab shrinking, flag time. */
static int print_other(struct store *st, int64_t run, int64_t last_ts)
{
	sqlite3_stmt *q;
	int n = 0;

	q = query(st, "SELECT kind, count(*), coalesce(sum(duration_ns), 0),"
		  " coalesce(max(duration_ns), 0) FROM reclaim_stall WHERE run_id = ?1"
		  " AND kind != 'direct' GROUP BY kind"
		  " UNION ALL SELECT kind || coalesce(' ' || reason, ''), count(*),"
		  " coalesce(sum(usec_delayed), 0) * 1000, coalesce(max(usec_delayed), 0) * 1000"
		  " FROM reclaim_throttle WHERE run_id = ?1 GROUP BY 1"
		  " UNION ALL SELECT 'slab shrink', count(*), coalesce(sum(duration_ns), 0),"
		  " coalesce(max(duration_ns), 0) FROM slab_shrink WHERE run_id = ?1"
		  " HAVING count(*) > 0 ORDER BY 1", run);
	if (!q)
		return -1;
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (!n++)
			printf("\n  %-30s %8s %12s %12s\n", "Other stalls and waits", "count",
			       "total s", "max ms");
		printf("  %-30s %8lld %12.3f %12.3f\n", sqlite3_column_text(q, 0),
		       (long long)sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2) / 1e9,
		       sqlite3_column_int64(q, 3) / 1e6);
	}
	sqlite3_finalize(q);
	q = query(st, "SELECT nid, flag, count(*), sum(coalesce(clear_ns, ?2) - set_ns),"
		  " min(rule) FROM pgdat_flag WHERE run_id = ?1 GROUP BY 1, 2 ORDER BY 1, 2", run);
	if (!q)
		return -1;
	sqlite3_bind_int64(q, 2, last_ts);
	n = 0;
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (!n++)
			printf("\n  %-4s %-24s %9s %12s  %s\n", "Node", "Flag (inferred)", "intervals",
			       "time set s", "rule");
		printf("  %-4d %-24s %9lld %12.3f  %s\n", sqlite3_column_int(q, 0),
		       sqlite3_column_text(q, 1), (long long)sqlite3_column_int64(q, 2),
		       sqlite3_column_int64(q, 3) / 1e9, sqlite3_column_text(q, 4));
	}
	sqlite3_finalize(q);
	return 0;
}

static const char per_process_sql[] =
	"WITH ks AS " KSWAPD_PIDS ","
	" st AS (SELECT pid, count(*) n,"
	"  coalesce(sum(CASE WHEN complete THEN duration_ns END), 0) ns FROM reclaim_stall"
	"  WHERE run_id = ?1 AND kind = 'direct' GROUP BY pid),"
	" wk AS (SELECT pid, count(*) n FROM kswapd_wakeup WHERE run_id = ?1 GROUP BY pid),"
	" sc AS (SELECT pid, sum(nr_scanned) n FROM mm_vmscan_lru_isolate WHERE run_id = ?1"
	"  AND coalesce(lru, 2 * file) IN (0, 2) GROUP BY pid),"
	" rc AS (SELECT pid, sum(nr_reclaimed) n FROM mm_vmscan_lru_shrink_inactive"
	"  WHERE run_id = ?1 GROUP BY pid),"
	" wr AS (SELECT pid, sum(sync) s, sum(NOT sync) a FROM reclaim_write WHERE run_id = ?1"
	"  GROUP BY pid),"
	" p AS (SELECT pid FROM st UNION SELECT pid FROM wk UNION SELECT pid FROM sc"
	"  UNION SELECT pid FROM rc UNION SELECT pid FROM wr)"
	" SELECT p.pid, (SELECT min(comm) FROM task t WHERE t.run_id = ?1 AND t.pid = p.pid),"
	" coalesce(st.n, 0), coalesce(wk.n, 0), coalesce(sc.n, 0), coalesce(rc.n, 0),"
	" coalesce(wr.s, 0), coalesce(wr.a, 0), coalesce(st.ns, 0),"
	" (SELECT group_concat('direct-' || coalesce(o, '?') || '=' || n, ' ') FROM"
	"  (SELECT \"order\" o, count(*) n FROM reclaim_stall WHERE run_id = ?1"
	"   AND kind = 'direct' AND pid = p.pid GROUP BY 1 ORDER BY 1)),"
	" (SELECT group_concat('wakeup-' || coalesce(o, '?') || '=' || n, ' ') FROM"
	"  (SELECT \"order\" o, count(*) n FROM kswapd_wakeup WHERE run_id = ?1"
	"   AND pid = p.pid GROUP BY 1 ORDER BY 1))"
	" FROM p LEFT JOIN st USING (pid) LEFT JOIN wk USING (pid) LEFT JOIN sc USING (pid)"
	" LEFT JOIN rc USING (pid) LEFT JOIN wr USING (pid)"
	" WHERE p.pid NOT IN ks ORDER BY 9 DESC, 3 DESC, 1";

static int print_processes(struct store *st, int64_t run)
{
	sqlite3_stmt *q = query(st, per_process_sql, run);
	int rc;

	if (!q)
		return -1;
	printf("\n  %-24s %8s %8s %10s %10s %8s %8s %12s  %s\n", "Process (comm-pid)", "Direct",
	       "Wokeup", "Pages", "Pages", "Pages", "Pages", "Time", "Per order");
	printf("  %-24s %8s %8s %10s %10s %8s %8s %12s\n", "", "Rclms", "Kswapd", "Scanned",
	       "Rclmed", "Sync-IO", "ASync-IO", "Stalled ms");
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		char name[40];
		const unsigned char *comm = sqlite3_column_text(q, 1);

		snprintf(name, sizeof(name), "%s-%d", comm ? (const char *)comm : "<...>",
			 sqlite3_column_int(q, 0));
		const unsigned char *d = sqlite3_column_text(q, 9), *w = sqlite3_column_text(q, 10);

		printf("  %-24s %8lld %8lld %10lld %10lld %8lld %8lld %12.3f  %s%s%s\n", name,
		       (long long)sqlite3_column_int64(q, 2), (long long)sqlite3_column_int64(q, 3),
		       (long long)sqlite3_column_int64(q, 4), (long long)sqlite3_column_int64(q, 5),
		       (long long)sqlite3_column_int64(q, 6), (long long)sqlite3_column_int64(q, 7),
		       sqlite3_column_int64(q, 8) / 1e6, d ? (const char *)d : "", d && w ? " " : "",
		       w ? (const char *)w : "");
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : vr_error("%s: %s", store_path(st), sqlite3_errstr(rc));
}

/* Per-node kswapd: decisions, re-wakeups (a wake while not in full sleep),
 * time awake (from a wake after a full sleep, the first wake, or the trace
 * start, to the next full sleep or the trace end). */
#define UNSET INT64_MIN

struct node_sum {
	int nid;
	int64_t pid, wakes, rewakes, sleeps, premature, early, timedout, nonap, unknown;
	int64_t awake_ns, awake_from;
};

static void node_print(struct node_sum *n, int64_t first_ts, int64_t last_ts)
{
	int64_t span = last_ts - first_ts;

	if (n->awake_from != UNSET)
		n->awake_ns += last_ts - n->awake_from;
	printf("  %-4d %8lld %7lld %8lld %7lld %6lld %7lld %7lld %6lld %7lld %10.3f %6.1f%%\n",
	       n->nid, (long long)n->pid, (long long)n->wakes, (long long)n->rewakes,
	       (long long)n->sleeps, (long long)n->premature, (long long)n->early,
	       (long long)n->timedout, (long long)n->nonap, (long long)n->unknown,
	       n->awake_ns / 1e9, span > 0 ? 100.0 * (double)n->awake_ns / (double)span : 0.0);
}

/* Columns: nid, pid, wake_ns, sleep_ns, next_wake_ns, decision, premature. */
static void node_add(struct node_sum *n, sqlite3_stmt *q, int64_t first_ts)
{
	const char *d = (const char *)sqlite3_column_text(q, 5);

	if (sqlite3_column_type(q, 1) != SQLITE_NULL)
		n->pid = sqlite3_column_int64(q, 1);
	if (sqlite3_column_type(q, 2) != SQLITE_NULL) {
		n->wakes++;
		if (n->awake_from == UNSET)
			n->awake_from = sqlite3_column_int64(q, 2);
		else
			n->rewakes++;
	} else if (n->awake_from == UNSET) {
		n->awake_from = first_ts;	/* awake when the trace began */
	}
	n->premature += sqlite3_column_int(q, 6);
	n->early += !strcmp(d, "nap_woken_early");
	n->timedout += !strcmp(d, "nap_timed_out");
	n->nonap += !strcmp(d, "no_nap");
	n->unknown += !strcmp(d, "unknown");
	if (!strcmp(d, "full_sleep") && sqlite3_column_type(q, 3) != SQLITE_NULL) {
		n->sleeps++;
		n->awake_ns += sqlite3_column_int64(q, 3) - n->awake_from;
		n->awake_from = UNSET;
	}
}

static int print_nodes(struct store *st, int64_t run, int64_t first_ts, int64_t last_ts)
{
	sqlite3_stmt *q = query(st, "SELECT nid, pid, wake_ns, sleep_ns, next_wake_ns, decision,"
				" premature FROM kswapd_cycle WHERE run_id = ?1"
				" ORDER BY nid, coalesce(wake_ns, -1)", run);
	struct node_sum n = { .nid = -1 };
	int rc;

	if (!q)
		return -1;
	printf("\n  %-4s %8s %7s %8s %7s %6s %7s %7s %6s %7s %10s %7s\n", "Node", "kswapd",
	       "Wakes", "Re-wakes", "Full", "Prema-", "Nap", "Nap", "No", "Unknown", "Awake",
	       "Awake");
	printf("  %-4s %8s %7s %8s %7s %6s %7s %7s %6s %7s %10s %7s\n", "", "pid", "", "",
	       "sleeps", "ture", "woken", "timeout", "nap", "", "s", "%");
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int nid = sqlite3_column_int(q, 0);

		if (nid != n.nid) {
			if (n.nid >= 0)
				node_print(&n, first_ts, last_ts);
			n = (struct node_sum){ .nid = nid, .pid = -1, .awake_from = UNSET };
		}
		node_add(&n, q, first_ts);
	}
	if (n.nid >= 0)
		node_print(&n, first_ts, last_ts);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : vr_error("%s: %s", store_path(st), sqlite3_errstr(rc));
}

/* Per node: kswapd wakes per order, and re-wakes (after no full sleep). */
static int print_node_orders(struct store *st, int64_t run)
{
	sqlite3_stmt *q = query(st,
		"WITH c AS (SELECT nid, \"order\" o, wake_ns, lag(decision) OVER"
		"  (PARTITION BY nid ORDER BY coalesce(wake_ns, -1)) prev FROM kswapd_cycle"
		"  WHERE run_id = ?1)"
		" SELECT nid, (SELECT group_concat('wake-' || o || '=' || n, ' ') FROM"
		"   (SELECT o, count(*) n FROM c c2 WHERE c2.nid = c1.nid AND wake_ns IS NOT NULL"
		"    GROUP BY o ORDER BY o)),"
		" (SELECT group_concat('rewake-' || o || '=' || n, ' ') FROM"
		"   (SELECT o, count(*) n FROM c c2 WHERE c2.nid = c1.nid AND wake_ns IS NOT NULL"
		"    AND prev IS NOT NULL AND prev != 'full_sleep' GROUP BY o ORDER BY o))"
		" FROM (SELECT DISTINCT nid FROM c) c1 ORDER BY nid", run);

	if (!q)
		return -1;
	while (sqlite3_step(q) == SQLITE_ROW) {
		const unsigned char *w = sqlite3_column_text(q, 1), *r = sqlite3_column_text(q, 2);

		printf("  %-4d %s%s%s\n", sqlite3_column_int(q, 0), w ? (const char *)w : "-",
		       r ? " " : "", r ? (const char *)r : "");
	}
	sqlite3_finalize(q);
	return 0;
}

static int print_quality(struct store *st, int64_t run)
{
	sqlite3_stmt *q = query(st, "SELECT item, count, coalesce(detail, '') FROM run_quality"
				" WHERE run_id = ?1 AND (count != 0 OR item GLOB 'pgdat_flag_*')"
				" ORDER BY item", run);
	int n = 0;

	if (!q)
		return -1;
	while (sqlite3_step(q) == SQLITE_ROW) {
		const char *item = (const char *)sqlite3_column_text(q, 0);

		if (!n++)
			printf("\n  Data quality (run_quality, non-zero items)\n");
		if (!strncmp(item, "pgdat_flag_rule", 15) || !strncmp(item, "pgdat_flag_not", 14))
			printf("  %-34s %s\n", item, sqlite3_column_text(q, 2));
		else
			printf("  %-34s %10lld\n", item, (long long)sqlite3_column_int64(q, 1));
	}
	sqlite3_finalize(q);
	return 0;
}

int cmd_summary_run(struct store *st, long long run_id)
{
	sqlite3_stmt *q = query(st, "SELECT kernel, iteration, source_path,"
				" coalesce(first_ts_ns, 0), coalesce(last_ts_ns, 0),"
				" coalesce(kernel_release, '-') FROM run WHERE id = ?1", run_id);
	int64_t first, last;

	if (!q)
		return -1;
	if (sqlite3_step(q) != SQLITE_ROW) {
		sqlite3_finalize(q);
		return vr_error("%s: no run %lld", store_path(st), (long long)run_id);
	}
	first = sqlite3_column_int64(q, 3);
	last = sqlite3_column_int64(q, 4);
	printf("run %lld: %s iteration %d, release %s, %.3f s <- %s\n\n", (long long)run_id,
	       sqlite3_column_text(q, 0), sqlite3_column_int(q, 1), sqlite3_column_text(q, 5),
	       (last - first) / 1e9, sqlite3_column_text(q, 2));
	sqlite3_finalize(q);
	return print_totals(st, run_id) || print_other(st, run_id, last) ||
	       print_processes(st, run_id) || print_nodes(st, run_id, first, last) ||
	       print_node_orders(st, run_id) || print_quality(st, run_id) ? -1 : 0;
}

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
	sqlite3_stmt *q;
	int c, ret = 0, n = 0;

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
	if (run) {
		ret = cmd_summary_run(st, (int64_t)run);
	} else if ((q = query(st, "SELECT id FROM run WHERE ?1 ORDER BY id", 1))) {
		while (!ret && sqlite3_step(q) == SQLITE_ROW) {
			if (n++)
				printf("\n");
			ret = cmd_summary_run(st, sqlite3_column_int64(q, 0));
		}
		sqlite3_finalize(q);
	} else {
		ret = -1;
	}
	store_close(st);
	return ret ? VR_EXIT_FAIL : VR_EXIT_OK;
}
