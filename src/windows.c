// SPDX-License-Identifier: GPL-2.0
/*
 * windows.c - the reclaim_window table (windows.h): each run cut into
 * windows of equal width, filled by SQL at its load (the pages from sums per
 * time bucket kept as the events were stored, store_run_shrink_buckets()).
 */
#include "store/store-tables.h"
#include "windows.h"
#include "recorded.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"


int64_t windows_width_ns(int64_t length_ns)
{
	int64_t best = 1;

	for (int64_t p = 1; p <= length_ns / WINDOWS_MIN && p <= INT64_MAX / 10; p *= 10) {
		static const int mult[] = { 1, 2, 5 };

		for (int i = 0; i < 3; i++)
			if (p * mult[i] <= length_ns / WINDOWS_MIN)
				best = p * mult[i];
	}
	return best;
}

/*
 * The time each interval of IV (columns [NID,] b and e, in ns) spends in
 * window n, per [NID and] n: table NAME (NID n ns).  Every pair of an
 * interval and a window it overlaps (b < the window's end, e > its start),
 * by walking each interval from the window that holds b (window 0 for an
 * interval from before the first event) to the last one starting before
 * e, so the cost is that of the pairs and not windows x intervals (make
 * bench's trace, 557 s, 24,727 kswapd cycles, --window 0.1: 5,571 windows,
 * a load of 19.1 s with each window's sum over all the cycles, 3.1 s so).
 * A pair's time is min(e, end) - max(b, start), as the windows had it.
 */
#define SPANS(IV, NID, NAME) \
	" " NAME "_x(" NID "b, e, n) AS (SELECT " NID "b, e, max(0, (b - ?2) / ?3) FROM " IV \
	"  UNION ALL SELECT " NID "b, e, n + 1 FROM " NAME "_x WHERE n + 1 < ?4 AND" \
	"  ?2 + (n + 1) * ?3 < e)," \
	" " NAME " AS MATERIALIZED (SELECT " NID "n, sum(min(e, ?2 + (n + 1) * ?3) - max(b, ?2 +" \
	"  n * ?3)) AS ns FROM " NAME "_x WHERE b < ?2 + (n + 1) * ?3 AND e > ?2 + n * ?3" \
	"  GROUP BY " NID "n)"

/*
 * ?1 run, ?2 first_ts_ns, ?3 width, ?4 number of windows.  The windows of
 * each node (w), the kswapd pids (k), then one INSERT per row kind.  The
 * pages (p) are summed from table SHRINK: mm_vmscan_lru_shrink_inactive,
 * or its rows summed per time bucket as the events were stored
 * (store_run_shrink_buckets(): the same sums, without a pass over the raw
 * rows at the commit, which is the load's critical path).
 */
#define WINDOWS_CTE(SHRINK) \
	"WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n + 1 < ?4)," \
	" nodes(nid) AS (SELECT nid FROM kswapd_cycle WHERE run_id = ?1 UNION" \
	"  SELECT nid FROM " SHRINK " WHERE run_id = ?1 AND nid IS NOT NULL)," \
	" w AS (SELECT nodes.nid, i.n, ?2 + i.n * ?3 AS b, ?2 + (i.n + 1) * ?3 AS e FROM nodes, i" \
	"  UNION ALL SELECT NULL, i.n, ?2 + i.n * ?3, ?2 + (i.n + 1) * ?3 FROM i)," \
	" k AS (SELECT DISTINCT pid FROM task WHERE run_id = ?1 AND comm LIKE 'kswapd%')," \
	" p AS MATERIALIZED (SELECT nid, (ts_ns - ?2) / ?3 AS n, pid IN k AS ks, sum(nr_scanned) AS sc," \
	"  sum(nr_reclaimed) AS rc FROM " SHRINK " WHERE run_id = ?1" \
	"  GROUP BY 1, 2, 3)," \
	" run_iv AS MATERIALIZED (SELECT nid, wake_ns AS b, CASE WHEN decision = 'full_sleep' AND sleep_ns" \
	"  IS NOT NULL THEN sleep_ns ELSE coalesce(last_activity_ns, wake_ns) END AS e" \
	"  FROM kswapd_cycle WHERE run_id = ?1 AND wake_ns IS NOT NULL)," \
	" st AS MATERIALIZED (SELECT coalesce(begin_ns, ?2) AS b, coalesce(end_ns, ?2 + ?4 * ?3) AS e" \
	"  FROM reclaim_stall WHERE run_id = ?1 AND kind IN ('direct', 'memcg', 'node'))," \
	" th AS MATERIALIZED (SELECT nid, (end_ns - ?2) / ?3 AS n, reason FROM reclaim_throttle" \
	"  WHERE run_id = ?1 AND kind = 'throttled')," \
	SPANS("run_iv", "nid, ", "run_iv_n") "," SPANS("st", "", "st_n")

#define OVERLAP(spans, nidcond) \
	"coalesce((SELECT sum(" spans ".ns) FROM " spans " WHERE " spans ".n = w.n" nidcond "), 0)"
#define PAGES(col, ks) \
	"coalesce((SELECT sum(" col ") FROM p WHERE p.n = w.n AND p.ks = " ks \
	" AND (w.nid IS NULL OR p.nid = w.nid)), 0)"
#define THROTTLES(reason) \
	"(SELECT count(*) FROM th WHERE th.n = w.n AND th.reason = '" reason "'" \
	" AND (w.nid IS NULL OR th.nid = w.nid))"

#define WINDOWS_SQL(SHRINK) WINDOWS_CTE(SHRINK) \
	" INSERT INTO reclaim_window SELECT ?1, w.nid, w.n, w.b, ?3, " \
	PAGES("sc", "1") ", " PAGES("rc", "1") ", " PAGES("sc", "0") ", " PAGES("rc", "0") ", " \
	OVERLAP("run_iv_n", " AND (w.nid IS NULL OR run_iv_n.nid = w.nid)") ", " \
	"CASE WHEN w.nid IS NULL THEN " OVERLAP("st_n", "") " END, " \
	THROTTLES("WRITEBACK") ", " THROTTLES("ISOLATED") ", " THROTTLES("NOPROGRESS") ", " \
	THROTTLES("CONGESTED") " FROM w ORDER BY w.nid IS NOT NULL, w.nid, w.n"

static const char windows_sql[] = WINDOWS_SQL("mm_vmscan_lru_shrink_inactive");
static const char windows_sql_buckets[] = WINDOWS_SQL("temp.vr_shrink_buckets");

/*
 * A run whose pages the trace does not hold (recorded.h RN_LRU_PAGES: the
 * multi-gen LRU before 6.7) gets NULL, not 0, in its windows' page
 * columns; a table made before they could be NULL keeps its 0s (readers
 * ask recorded_check()).
 */
static int windows_untraced(struct store *st, int64_t run_id)
{
	struct store_stmt *q;
	int64_t notnull = 1;
	int r = recorded_check(st, run_id, RN_LRU_PAGES, NULL, 0);

	if (r != 0)
		return r < 0 ? -1 : 0;
	q = store_stmt_new(st, "SELECT \"notnull\" FROM pragma_table_info('reclaim_window')"
			   " WHERE name = 'kswapd_scanned'", "windows: columns");
	r = store_stmt_row_int64(q, &notnull, 1);
	store_stmt_free(q);
	if (r < 0)
		return -1;
	if (notnull)
		return 0;
	q = store_stmt_new(st, "UPDATE reclaim_window SET kswapd_scanned = NULL, kswapd_reclaimed"
			   " = NULL, other_scanned = NULL, other_reclaimed = NULL WHERE run_id = ?1",
			   "windows: pages not traced");
	store_bind_int64(q, 1, run_id);
	r = store_step(q);
	store_stmt_free(q);
	return r < 0 ? -1 : 0;
}

int windows_compute(struct store *st, int64_t run_id, int64_t width_ns)
{
	struct store_stmt *q;
	int64_t v[2], n, bucket_ns;
	int r;

	if (store_exec(st, WINDOWS_SCHEMA, "cannot create the reclaim_window table") ||
	    store_run_shrink_buckets(st, run_id, &bucket_ns))
		return -1;
	q = store_stmt_new(st, "SELECT coalesce(first_ts_ns, 0), coalesce(last_ts_ns - first_ts_ns,"
			   " 0) FROM run WHERE id = ?1", "windows: run");
	store_bind_int64(q, 1, run_id);
	r = store_stmt_row_int64(q, v, 2);
	store_stmt_free(q);
	if (r < 0)
		return -1;
	if (width_ns <= 0)
		width_ns = windows_width_ns(v[1]);
	n = v[1] / width_ns + 1;
	if (n > 1000000)
		return vr_error("windows of %lld ns: %lld windows for a run of %.3f s; at most"
				" 1000000", (long long)width_ns, (long long)n, v[1] / 1e9);
	/* the buckets hold the windows' sums when each window is whole buckets */
	q = store_stmt_new(st, bucket_ns > 0 && width_ns % bucket_ns == 0 ? windows_sql_buckets :
			   windows_sql, "windows");
	store_bind_int64(q, 1, run_id);
	store_bind_int64(q, 2, v[0]);
	store_bind_int64(q, 3, width_ns);
	store_bind_int64(q, 4, n);
	r = store_step(q);
	store_stmt_free(q);
	if (r < 0 || (bucket_ns > 0 && store_exec(st, "DROP TABLE temp.vr_shrink_buckets",
						  "cannot drop the shrink buckets")))
		return -1;
	return windows_untraced(st, run_id);
}

int windows_align(struct store *st, int64_t run_id, const char *marker, int64_t *first_window,
		  int64_t *marker_ns)
{
	struct store_stmt *q;
	int64_t v[4] = { 0, 0, 0, 0 };
	int r;

	*first_window = -1;
	*marker_ns = 0;
	if (store_has_table(st, "other_event") != 1)
		return vr_error("--align-marker: the database has no print events (an evidence"
				" database keeps no raw events): use the database load made");
	/* a trace.dat's print event has buf; a text trace's line is in text,
	 * after "tracing_mark_write: " (as snapshot.c reads its markers) */
	q = store_stmt_new(st, "SELECT count(*), min(e.ts_ns) - r.first_ts_ns, (SELECT"
			   " max(width_ns) FROM reclaim_window WHERE run_id = ?1), (SELECT"
			   " max(window) FROM reclaim_window WHERE run_id = ?1) FROM other_event"
			   " e JOIN run r ON r.id = e.run_id WHERE e.run_id = ?1 AND e.system ="
			   " 'ftrace' AND e.name = 'print' AND instr(coalesce(json_extract(e.fields,"
			   " '$.buf'), substr(json_extract(e.fields, '$.text'), instr(json_extract("
			   "e.fields, '$.text'), ': ') + 2)), ?2) > 0", "windows: align marker");
	store_bind_int64(q, 1, run_id);
	store_bind_text(q, 2, marker);
	r = store_stmt_row_int64(q, v, 4);
	store_stmt_free(q);
	if (r < 0)
		return -1;
	if (!v[0] || v[2] <= 0)
		return 0;
	*marker_ns = v[1] < 0 ? 0 : v[1];
	*first_window = (*marker_ns + v[2] - 1) / v[2];
	if (*first_window > v[3])
		*first_window = WINDOWS_AFTER_LAST;
	return 0;
}
