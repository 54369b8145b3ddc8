// SPDX-License-Identifier: GPL-2.0
/*
 * store-schema.c - the tables of the database beyond the event tables,
 * described as data: the derived tables (reclaim_stall, kswapd_cycle,
 * kswapd_wakeup, pgdat_flag, reclaim_throttle, slab_shrink_stored,
 * reclaim_write, kswapd_hopeless, run_quality) by their column tables, from which their
 * CREATE TABLE text is made here and their INSERTs in store-derived.c; and
 * the sums over raw tables the reports read (TEMP views of a loaded
 * database, tables of an evidence database).  Also the two statements
 * every part of the store module runs on a bare connection (exec, does the
 * schema have an object).  The bottom of the store module: it calls no other
 * store-*.c file (make check-layers).
 */
#include "model.h"
#include "store.h"
#include "store-priv.h"
#include "vr.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- the column tables -------------------------------------------------- */

/* The column's C type, from the row struct itself (no default: another
 * type does not compile). */
#define CTYPE(st, f) _Generic(((st *)0)->f, int: STORE_C_INT, int64_t: STORE_C_I64,	\
			      bool: STORE_C_BOOL, const char *: STORE_C_TEXT)
#define COLUMN(st, f, null, dflt) { #f, CTYPE(st, f), offsetof(st, f), null, dflt }
enum { NOT_NULL = false, NULLABLE = true };

#define S(f, null) COLUMN(struct model_stall, f, null, NULL)
static const struct store_column stall_cols[] = {
	S(kind, NOT_NULL), S(pid, NOT_NULL), S(comm, NULLABLE), S(nid, NULLABLE), S(begin_ns, NULLABLE),
	S(end_ns, NULLABLE), S(duration_ns, NULLABLE), S(order, NULLABLE),
	S(gfp_flags, NULLABLE), S(nr_reclaimed, NULLABLE), S(kswapd_state, NULLABLE),
	S(complete, NOT_NULL), S(incomplete_reason, NULLABLE), S(nids, NULLABLE),
	S(memcg_id, NULLABLE),
};
#undef S

#define C(f, null) COLUMN(struct model_kswapd_cycle, f, null, NULL)
static const struct store_column cycle_cols[] = {
	C(nid, NOT_NULL), C(pid, NULLABLE), C(comm, NULLABLE), C(wake_ns, NULLABLE), C(order, NULLABLE),
	C(highest_zoneidx, NULLABLE), C(last_activity_ns, NULLABLE), C(sleep_ns, NULLABLE),
	C(next_wake_ns, NULLABLE), C(nap_ns, NULLABLE), C(decision, NOT_NULL),
	COLUMN(struct model_kswapd_cycle, decision_exact, NOT_NULL, "0"),
	COLUMN(struct model_kswapd_cycle, premature, NOT_NULL, "0"),
	C(nr_scanned, NULLABLE), C(nr_reclaimed, NULLABLE), C(complete, NOT_NULL),
	C(nap_margin_ns, NULLABLE),
	C(incomplete_reason, NULLABLE),
};
#undef C

#define W(f, null) COLUMN(struct model_wakeup, f, null, NULL)
static const struct store_column wakeup_cols[] = {
	W(ts_ns, NOT_NULL), W(pid, NOT_NULL), W(comm, NULLABLE), W(nid, NOT_NULL), W(zid, NULLABLE),
	W(order, NULLABLE), W(gfp_flags, NULLABLE), W(kswapd_state, NULLABLE),
	W(served_ns, NULLABLE), W(delay_ns, NULLABLE),
};
#undef W

#define F(f, null) COLUMN(struct model_flag, f, null, NULL)
static const struct store_column flag_cols[] = {
	F(nid, NOT_NULL), F(flag, NOT_NULL), F(set_ns, NULLABLE), F(clear_ns, NULLABLE),
	F(rule, NOT_NULL), F(evidence, NOT_NULL),
	COLUMN(struct model_flag, inferred, NOT_NULL, "1"), F(proof, NULLABLE),
	F(set_earliest_ns, NULLABLE), F(set_latest_ns, NULLABLE), F(clear_earliest_ns, NULLABLE),
	F(clear_latest_ns, NULLABLE),
};
#undef F

#define T(f, null) COLUMN(struct model_throttle, f, null, NULL)
static const struct store_column throttle_cols[] = {
	T(kind, NOT_NULL), T(pid, NOT_NULL), T(comm, NULLABLE), T(nid, NULLABLE), T(reason, NULLABLE),
	T(begin_ns, NULLABLE), T(end_ns, NOT_NULL), T(usec_timeout, NULLABLE),
	T(usec_delayed, NULLABLE),
};
#undef T

#define L(f, null) COLUMN(struct model_slab, f, null, NULL)
static const struct store_column slab_cols[] = {
	L(pid, NOT_NULL), L(comm, NULLABLE), L(nid, NULLABLE), L(shrinker, NULLABLE), L(begin_ns, NULLABLE),
	L(end_ns, NULLABLE), L(duration_ns, NULLABLE), L(nr_objects_to_shrink, NULLABLE),
	L(total_scan, NULLABLE), L(retval, NULLABLE), L(complete, NOT_NULL),
};
#undef L

#define R(f, null) COLUMN(struct model_write, f, null, NULL)
static const struct store_column write_cols[] = {
	R(ts_ns, NOT_NULL), R(pid, NOT_NULL), R(comm, NULLABLE), R(by_kswapd, NOT_NULL), R(pfn, NULLABLE),
	R(file, NOT_NULL), R(sync, NOT_NULL),
};
#undef R

#define H(f, null) COLUMN(struct model_hopeless, f, null, NULL)
static const struct store_column hopeless_cols[] = {
	H(nid, NOT_NULL), H(start_ns, NULLABLE), H(first_fail_ns, NOT_NULL), H(last_fail_ns, NOT_NULL),
	H(end_ns, NULLABLE),
	H(failures, NOT_NULL), H(fail_events, NOT_NULL), H(reset_reason, NULLABLE),
	H(reset_reason_name, NULLABLE), H(reset_pid, NULLABLE), H(reset_comm, NULLABLE),
	H(complete, NOT_NULL), H(incomplete_reason, NULLABLE),
};
#undef H

#define Q(f, null) COLUMN(struct quality_row, f, null, NULL)
static const struct store_column quality_cols[] = {
	Q(item, NOT_NULL), Q(count, NOT_NULL), Q(detail, NULLABLE),
};
#undef Q

#define TABLE(name, st, cols) { name, sizeof(st), cols, (int)VR_ARRAY_SIZE(cols), NULL, false }
const struct store_derived_table store_derived_tables[SD_COUNT] = {
	[SD_STALL] = TABLE("reclaim_stall", struct model_stall, stall_cols),
	[SD_CYCLE] = TABLE("kswapd_cycle", struct model_kswapd_cycle, cycle_cols),
	[SD_WAKEUP] = TABLE("kswapd_wakeup", struct model_wakeup, wakeup_cols),
	[SD_FLAG] = TABLE("pgdat_flag", struct model_flag, flag_cols),
	[SD_THROTTLE] = TABLE("reclaim_throttle", struct model_throttle, throttle_cols),
	[SD_SLAB] = TABLE("slab_shrink_stored", struct model_slab, slab_cols),
	[SD_WRITE] = TABLE("reclaim_write", struct model_write, write_cols),
	[SD_HOPELESS] = TABLE("kswapd_hopeless", struct model_hopeless, hopeless_cols),
	/* one row per item and run: a later value of an item replaces it */
	[SD_QUALITY] = { "run_quality", sizeof(struct quality_row), quality_cols,
			 (int)VR_ARRAY_SIZE(quality_cols), "PRIMARY KEY (run_id, item)", true },
};
#undef TABLE
const int store_derived_tables_count = SD_COUNT;

const char *store_sql_type(enum store_ctype ctype)
{
	return ctype == STORE_C_TEXT ? "TEXT" : "INTEGER";
}

/* ---- SQL made from the column tables ------------------------------------ */

void store_sql_name(struct vr_buf *b, const char *name)
{
	if (sqlite3_keyword_check(name, (int)strlen(name)))
		vr_buf_addf(b, "\"%s\"", name);
	else
		vr_buf_addstr(b, name);
}

/* CREATE TABLE text of @t, appended to @b. */
static void table_sql(struct vr_buf *b, const struct store_derived_table *t)
{
	vr_buf_addf(b, "CREATE TABLE IF NOT EXISTS %s ( run_id INTEGER NOT NULL REFERENCES run(id)",
		    t->name);
	for (int i = 0; i < t->ncols; i++) {
		const struct store_column *c = &t->cols[i];

		vr_buf_addstr(b, ", ");
		store_sql_name(b, c->name);
		vr_buf_addf(b, " %s%s", store_sql_type(c->ctype), c->nullable ? "" : " NOT NULL");
		if (c->dflt)
			vr_buf_addf(b, " DEFAULT %s", c->dflt);
	}
	if (t->constraint)
		vr_buf_addf(b, ", %s", t->constraint);
	vr_buf_addstr(b, ");");
}

char *store_derived_schema_sql(void)
{
	struct vr_buf b;
	char *sql;

	vr_buf_init(&b);
	for (int t = 0; t < SD_COUNT; t++)
		table_sql(&b, &store_derived_tables[t]);
	sql = vr_strdup(b.buf);
	vr_buf_release(&b);
	return sql;
}

/* ---- the sums over raw tables ------------------------------------------- */

/*
 * The comm of raw row r at its time (README "Schema", task): of a pid with
 * several task spans (exec, pid reuse), the span begun last at or before
 * the row (@COMM, a lookup per row of those pids only); of a pid with one,
 * its comm, looked up once per group ('' in the inner query); NULL for a
 * pid without a task row, or before the span it had first.
 */
#define COMM_MANY "CASE WHEN (r.run_id, r.pid) IN (SELECT run_id, pid FROM @.task GROUP BY 1, 2" \
	" HAVING count(*) > 1) THEN (SELECT t.comm FROM @.task t WHERE t.run_id = r.run_id" \
	" AND t.pid = r.pid AND t.first_ns <= r.ts_ns ORDER BY t.first_ns DESC LIMIT 1)" \
	" ELSE '' END"
#define COMM_OF "CASE WHEN c IS '' THEN (SELECT min(t.comm) FROM @.task t" \
	" WHERE t.run_id = g.run_id AND t.pid = g.pid) ELSE c END"

/*
 * The sums, each from one raw table; the reports read them instead of the
 * raw rows, so that they read the same numbers from either database.
 * Column names are those of the raw tables they sum.
 */
const struct store_sum store_sums[] = {
	/* pages scanned per task (pid and its comm then, see COMM_OF) and
	 * list: coalesce(lru, 2 * file) is the lru (0 inactive anon, 2
	 * inactive file; lru is 5.x+, file older) */
	{ "lru_isolate_pages", "mm_vmscan_lru_isolate",
	  "SELECT run_id, pid, " COMM_OF " AS comm, lru, nr_scanned, events FROM"
	  " (SELECT run_id, pid, @COMM AS c, coalesce(lru, 2 * file) AS lru,"
	  "  sum(nr_scanned) AS nr_scanned, count(*) AS events FROM @.mm_vmscan_lru_isolate r"
	  "  WHERE @RUN GROUP BY run_id, pid, 3, 4) g",
	  "run_id INTEGER NOT NULL, pid INTEGER, comm TEXT, lru INTEGER, nr_scanned INTEGER,"
	  " events INTEGER NOT NULL", false, false },
	/* shrink_inactive per task, node and file/anon (reclaim_flags & 2:
	 * RECLAIM_WB_FILE, NULL when the flags were not read); a multi-gen LRU
	 * retry pass (mglru_retry, src/model/model.c lru_note()) adds no nr_scanned */
	{ "lru_shrink_pages", "mm_vmscan_lru_shrink_inactive",
	  "SELECT run_id, pid, " COMM_OF " AS comm, nid, file, nr_scanned, nr_reclaimed, events"
	  " FROM (SELECT run_id, pid, @COMM AS c, nid, reclaim_flags & 2 AS file,"
	  "  sum(CASE WHEN @RETRY THEN 0 ELSE nr_scanned END) AS nr_scanned,"
	  "  sum(nr_reclaimed) AS nr_reclaimed, count(*) AS events"
	  "  FROM @.mm_vmscan_lru_shrink_inactive r WHERE @RUN GROUP BY run_id, pid, 3, nid, 5) g",
	  "run_id INTEGER NOT NULL, pid INTEGER, comm TEXT, nid INTEGER, file INTEGER,"
	  " nr_scanned INTEGER, nr_reclaimed INTEGER, events INTEGER NOT NULL", false, false },
	/*
	 * shrink_inactive calls made inside a reclaim stall of the same pid, per
	 * run and stall kind (direct, memcg, memcg_softlimit, node: a call of a
	 * softlimit stall inside a direct one is counted in both kinds), each
	 * counted once per kind (begin <= ts <= end; a missing begin or end is
	 * open).  One pass over each pid's stalls of a kind and its calls in time
	 * order: a call is inside when the stalls begun before it end at or
	 * after it.  Only the calls of pids that have a stall of the kind are
	 * read, once per kind.  (A join on the time range took 40 s on a
	 * 3M-event run: SQLite's automatic index covers only run_id and pid.)
	 */
	{ "lru_shrink_stall", "mm_vmscan_lru_shrink_inactive",
	  "SELECT run_id, kind, sum(nr_scanned) AS nr_scanned, sum(nr_reclaimed) AS nr_reclaimed,"
	  " count(*) AS events FROM (SELECT run_id, kind, k, ts, nr_scanned, nr_reclaimed,"
	  "  max(e) OVER (PARTITION BY run_id, kind, pid ORDER BY ts, k ROWS UNBOUNDED PRECEDING)"
	  "  AS cover FROM (SELECT run_id, kind, pid, coalesce(begin_ns, 0) AS ts, 0 AS k,"
	  "   coalesce(end_ns, 9223372036854775807) AS e, NULL AS nr_scanned,"
	  "   NULL AS nr_reclaimed FROM @.reclaim_stall WHERE @RUN"
	  "   UNION ALL SELECT i.run_id, p.kind, i.pid, i.ts_ns, 1, NULL, i.nr_scanned,"
	  "   i.nr_reclaimed FROM (SELECT DISTINCT run_id, pid, kind FROM @.reclaim_stall"
	  "    WHERE @RUN) p JOIN (SELECT run_id, pid, ts_ns,"
	  "    CASE WHEN @RETRY THEN 0 ELSE nr_scanned END AS nr_scanned, nr_reclaimed"
	  "    FROM @.mm_vmscan_lru_shrink_inactive WHERE @RUN AND pid IN"
	  "     (SELECT pid FROM @.reclaim_stall WHERE @RUN)) i"
	  "   ON i.run_id = p.run_id AND i.pid = p.pid))"
	  " WHERE k = 1 AND cover >= ts GROUP BY run_id, kind",
	  "run_id INTEGER NOT NULL, kind TEXT, nr_scanned INTEGER, nr_reclaimed INTEGER,"
	  " events INTEGER NOT NULL", false, false },
	/* kswapd wakes per node (nid NULL: not read) */
	{ "kswapd_wake_node", "mm_vmscan_kswapd_wake",
	  "SELECT run_id, nid, count(*) AS events FROM @.mm_vmscan_kswapd_wake"
	  " WHERE @RUN GROUP BY run_id, nid",
	  "run_id INTEGER NOT NULL, nid INTEGER, events INTEGER NOT NULL", false, false },
	/*
	 * shrinker calls per duration (ns, NULL: an end not traced or a start
	 * not traced) and complete: the SlabShrink samples and summary's slab
	 * line.  Counted as the events are stored (store-sums.c).
	 */
	{ "slab_shrink_ns", "slab_shrink",
	  "SELECT run_id, complete, duration_ns, count(*) AS calls FROM @.slab_shrink"
	  " WHERE @RUN GROUP BY run_id, complete, duration_ns",
	  "run_id INTEGER NOT NULL, complete INTEGER, duration_ns INTEGER,"
	  " calls INTEGER NOT NULL", false, true },
	/*
	 * pages reclaimed per millisecond since the run's first event, task and
	 * node: the timeline chart's reclaim rate in an evidence database
	 * (exact for bins and a window on whole milliseconds)
	 */
	{ "lru_reclaim_ms", "mm_vmscan_lru_shrink_inactive",
	  "SELECT s.run_id, s.nid, s.pid, (s.ts_ns - r.first_ts_ns) / 1000000 AS ms,"
	  " sum(coalesce(s.nr_reclaimed, 0)) AS nr_reclaimed, count(*) AS events"
	  " FROM @.mm_vmscan_lru_shrink_inactive s JOIN @.run r ON r.id = s.run_id"
	  " WHERE @RUN GROUP BY 1, 2, 3, 4",
	  "run_id INTEGER NOT NULL, nid INTEGER, pid INTEGER, ms INTEGER,"
	  " nr_reclaimed INTEGER, events INTEGER NOT NULL", false, true },
};
const size_t store_sums_count = VR_ARRAY_SIZE(store_sums);


/* The rows of @RUN: all, run ?1's, or those of run ?1's pids that had
 * more than one comm (store-sums.c counts the others). */
enum sum_rows { SUM_ALL, SUM_RUN, SUM_RUN_MANY_COMMS };

/* @v's SELECT on @schema (NULL: unqualified), of the rows @rows. */
static char *sum_sql(const struct store_sum *v, sqlite3 *db, const char *schema,
		     enum sum_rows rows)
{
	static const char *const run_sql[] = {
		[SUM_ALL] = "1", [SUM_RUN] = "run_id = ?1",
		[SUM_RUN_MANY_COMMS] = "run_id = ?1 AND pid IN (SELECT pid FROM main.task"
				       " WHERE run_id = ?1 GROUP BY pid HAVING count(*) > 1)",
	};
	/* task spans (first_ns): tables made before them (and only read
	 * since) have one comm per pid and row; mglru_retry: a table of
	 * lru_shrink_inactive made before it has no retry marked */
	const char *many = store_sqlite_has_column(db, schema, "task", "first_ns") ? COMM_MANY : "''";
	const char *retry = store_sqlite_has_column(db, schema, "mm_vmscan_lru_shrink_inactive", "mglru_retry") ?
			    "mglru_retry" : "NULL";
	struct vr_buf b, t;
	char *sql;

	vr_buf_init(&t);	/* @COMM first: its text has "@." in it */
	for (const char *p = v->sql; *p; p++) {
		if (!strncmp(p, "@COMM", 5)) {
			vr_buf_addstr(&t, many);
			p += 4;
		} else if (!strncmp(p, "@RUN", 4)) {
			vr_buf_addstr(&t, run_sql[rows]);
			p += 3;
		} else if (!strncmp(p, "@RETRY", 6)) {
			vr_buf_addstr(&t, retry);
			p += 5;
		} else {
			vr_buf_addf(&t, "%c", *p);
		}
	}
	vr_buf_init(&b);
	for (const char *p = t.buf; *p; p++) {
		if (p[0] == '@' && p[1] == '.') {
			if (schema)
				vr_buf_addf(&b, "\"%s\".", schema);
			p++;
		} else {
			vr_buf_addf(&b, "%c", *p);
		}
	}
	sql = vr_strdup(b.buf);
	vr_buf_release(&b);
	vr_buf_release(&t);
	return sql;
}

char *store_sum_sql(const struct store_sum *v, sqlite3 *db, const char *schema)
{
	return sum_sql(v, db, schema, SUM_ALL);
}

char *store_sum_run_sql(const struct store_sum *v, sqlite3 *db, bool many_comms)
{
	return sum_sql(v, db, NULL, many_comms ? SUM_RUN_MANY_COMMS : SUM_RUN);
}

/* ---- statements on a bare connection ------------------------------------ */

int store_sqlite_exec(sqlite3 *db, const char *path, const char *sql, const char *what)
{
	char *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK)
		return 0;
	vr_error("%s: %s: %s%s", path, what, err ? err : sqlite3_errmsg(db),
		 (sqlite3_errcode(db) & 0xff) == SQLITE_BUSY ? STORE_BUSY_HINT : "");
	sqlite3_free(err);
	return -1;
}

int store_sqlite_has(sqlite3 *db, const char *schema, const char *name, const char *type)
{
	sqlite3_stmt *st;
	char *sql = sqlite3_mprintf("SELECT count(*) FROM \"%w\".sqlite_master WHERE name = ?1"
				    " AND (?2 IS NULL AND type IN ('table', 'view') OR type = ?2)",
				    schema);
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL), n = -1;

	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (type)
		sqlite3_bind_text(st, 2, type, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0) > 0;
	sqlite3_finalize(st);
	return n;
}

bool store_sqlite_has_column(sqlite3 *db, const char *schema, const char *table, const char *column)
{
	char *sql = sqlite3_mprintf("SELECT count(*) FROM pragma_table_info('%q', '%q')"
				    " WHERE name = '%q'", table, schema ? schema : "main", column);
	sqlite3_stmt *st;
	bool have = false;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		have = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
		sqlite3_finalize(st);
	}
	sqlite3_free(sql);
	return have;
}

int store_sums_make(sqlite3 *db, const char *path, bool tables, const char *from)
{
	for (size_t i = 0; i < store_sums_count; i++) {
		const struct store_sum *v = &store_sums[i];
		int have = store_sqlite_has(db, "main", v->name, "table");
		int raw = store_sqlite_has(db, from ? from : "main", v->raw, "table");
		char *body, *sql;
		int rc;

		if (raw == 0)	/* slab_shrink is a view of a loaded database */
			raw = store_sqlite_has(db, from ? from : "main", v->raw, "view");
		if (have < 0 || raw < 0)
			return vr_error("%s: cannot read the schema: %s", path, sqlite3_errmsg(db));
		if (have)
			continue;	/* an evidence database's table */
		if (!raw && tables)
			return vr_error("%s: neither %s nor %s to make it from", path, v->name,
					v->raw);
		if (!raw || (!tables && v->evidence_only))
			continue;
		body = store_sum_sql(v, db, from);
		sql = sqlite3_mprintf(tables ? "CREATE TABLE \"%w\" AS %s"
					     : "CREATE TEMP VIEW IF NOT EXISTS \"%w\" AS %s",
				      v->name, body);
		free(body);
		rc = store_sqlite_exec(db, path, sql, tables ? "cannot sum the raw rows"
							     : "cannot create a view of the sums");
		sqlite3_free(sql);
		if (rc)
			return -1;
	}
	return 0;
}
