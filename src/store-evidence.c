// SPDX-License-Identifier: GPL-2.0
/*
 * store-evidence.c - the sums the reports read from raw event tables, as
 * views of one name (TEMP views over the raw rows of a loaded database,
 * tables of the same rows in an evidence database), and the evidence
 * database itself: run metadata, derived tables, imported latencies and
 * those sums, without a raw event row (README.md "Evidence database").
 */
#include "store.h"
#include "store-priv.h"
#include "spec.h"
#include "vr.h"

#include <stdlib.h>
#include <string.h>

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
	 * RECLAIM_WB_FILE, NULL when the flags were not read) */
	{ "lru_shrink_pages", "mm_vmscan_lru_shrink_inactive",
	  "SELECT run_id, pid, " COMM_OF " AS comm, nid, file, nr_scanned, nr_reclaimed, events"
	  " FROM (SELECT run_id, pid, @COMM AS c, nid, reclaim_flags & 2 AS file,"
	  "  sum(nr_scanned) AS nr_scanned, sum(nr_reclaimed) AS nr_reclaimed, count(*) AS events"
	  "  FROM @.mm_vmscan_lru_shrink_inactive r WHERE @RUN GROUP BY run_id, pid, 3, nid, 5) g",
	  "run_id INTEGER NOT NULL, pid INTEGER, comm TEXT, nid INTEGER, file INTEGER,"
	  " nr_scanned INTEGER, nr_reclaimed INTEGER, events INTEGER NOT NULL", false, false },
	/*
	 * shrink_inactive calls made inside a direct reclaim stall of the same
	 * pid (begin <= ts <= end; a missing begin or end is open), each counted
	 * once, per run.  One pass over each pid's stalls and calls in time
	 * order: a call is inside when the stalls begun before it end at or
	 * after it.  (A join on the time range took 40 s on a 3M-event run:
	 * SQLite's automatic index covers only run_id and pid.)  Only the
	 * calls of pids with a direct stall can be inside one.
	 */
	{ "lru_shrink_direct", "mm_vmscan_lru_shrink_inactive",
	  "SELECT run_id, sum(nr_scanned) AS nr_scanned, sum(nr_reclaimed) AS nr_reclaimed,"
	  " count(*) AS events FROM (SELECT run_id, k, ts, nr_scanned, nr_reclaimed,"
	  "  max(e) OVER (PARTITION BY run_id, pid ORDER BY ts, k ROWS UNBOUNDED PRECEDING)"
	  "  AS cover FROM (SELECT run_id, pid, coalesce(begin_ns, 0) AS ts, 0 AS k,"
	  "   coalesce(end_ns, 9223372036854775807) AS e, NULL AS nr_scanned,"
	  "   NULL AS nr_reclaimed FROM @.reclaim_stall WHERE kind = 'direct' AND @RUN"
	  "   UNION ALL SELECT run_id, pid, ts_ns, 1, NULL, nr_scanned, nr_reclaimed"
	  "   FROM @.mm_vmscan_lru_shrink_inactive WHERE @RUN AND pid IN"
	  "    (SELECT pid FROM @.reclaim_stall WHERE kind = 'direct' AND @RUN)))"
	  " WHERE k = 1 AND cover >= ts GROUP BY run_id",
	  "run_id INTEGER NOT NULL, nr_scanned INTEGER, nr_reclaimed INTEGER,"
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
	  " GROUP BY 1, 2, 3, 4", NULL, true, false },
};
const size_t store_sums_count = VR_ARRAY_SIZE(store_sums);

/* Does @schema's task table have spans (first_ns)?  Tables made before
 * them (and only read since) have one comm per pid and row. */
static bool task_spans(sqlite3 *db, const char *schema)
{
	char *sql = sqlite3_mprintf("SELECT count(*) FROM pragma_table_info('task', '%q')"
				    " WHERE name = 'first_ns'", schema ? schema : "main");
	sqlite3_stmt *st;
	bool have = false;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		have = sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) > 0;
		sqlite3_finalize(st);
	}
	sqlite3_free(sql);
	return have;
}

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
	const char *many = task_spans(db, schema) ? COMM_MANY : "''";
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

/* 1 if @schema (main, temp) has a table or view @name, 0 if not, -1 on error. */
static int has_object(sqlite3 *db, const char *schema, const char *name, const char *type)
{
	sqlite3_stmt *st;
	char *sql = sqlite3_mprintf("SELECT count(*) FROM \"%w\".sqlite_master"
				    " WHERE name = ?1 AND type = ?2", schema);
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL), n = -1;

	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, type, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0) > 0;
	sqlite3_finalize(st);
	return n;
}

int store_has_table(struct store *s, const char *name)
{
	/* several databases read as one: their tables are TEMP views */
	int n = has_object(store_db(s), "temp", name, "view");

	if (n == 0)
		n = has_object(store_db(s), "main", name, "table");

	if (n < 0)
		return vr_error("%s: cannot read the schema: %s", store_path(s),
				sqlite3_errmsg(store_db(s)));
	return n;
}

int store_is_evidence(struct store *s)
{
	return store_has_table(s, "evidence");
}

int store_sum_views(struct store *s)
{
	sqlite3 *db = store_db(s);

	for (size_t i = 0; i < store_sums_count; i++) {
		const struct store_sum *v = &store_sums[i];
		int have = has_object(db, "main", v->name, "table");
		int raw = has_object(db, "main", v->raw, "table");
		char *sql;
		int rc;

		if (raw == 0)	/* slab_shrink is a view of a loaded database */
			raw = has_object(db, "main", v->raw, "view");
		if (have < 0 || raw < 0)
			return vr_error("%s: cannot read the schema: %s", store_path(s),
					sqlite3_errmsg(db));
		if (have || !raw || v->evidence_only)
			continue;
		char *body = store_sum_sql(v, db, NULL);

		sql = sqlite3_mprintf("CREATE TEMP VIEW IF NOT EXISTS \"%w\" AS %s", v->name, body);
		free(body);
		rc = store_exec(s, sql, "cannot create a view of the sums");
		sqlite3_free(sql);
		if (rc)
			return -1;
	}
	return 0;
}

/* Run @sql on @db (the evidence file @path being made); 0 or -1 after a message. */
static int ev_exec(sqlite3 *db, const char *path, const char *sql, const char *what)
{
	char *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) == SQLITE_OK)
		return 0;
	vr_error("%s: %s: %s", path, what, err ? err : sqlite3_errmsg(db));
	sqlite3_free(err);
	return -1;
}

/* Make the sums tables, and drop the raw tables and slab_shrink's calls
 * (slab_shrink_ns has what the commands read of them). */
static int ev_reduce(sqlite3 *db, const char *path, const char *source)
{
	for (size_t i = 0; i < store_sums_count; i++) {
		const struct store_sum *v = &store_sums[i];
		int have = has_object(db, "main", v->name, "table");
		int raw = has_object(db, "main", v->raw, "table");

		if (raw == 0)	/* slab_shrink is a view of a loaded database */
			raw = has_object(db, "main", v->raw, "view");
		char *sql;
		int rc;

		if (have < 0 || raw < 0)
			return vr_error("%s: cannot read the schema: %s", path, sqlite3_errmsg(db));
		if (have)
			continue;	/* made from an evidence database */
		if (!raw)
			return vr_error("%s: neither %s nor %s to make it from", path, v->name,
					v->raw);
		char *body = store_sum_sql(v, db, NULL);

		sql = sqlite3_mprintf("CREATE TABLE \"%w\" AS %s", v->name, body);
		free(body);
		rc = ev_exec(db, path, sql, "cannot sum the raw rows");
		sqlite3_free(sql);
		if (rc)
			return -1;
	}
	if (has_object(db, "main", "slab_shrink", "view") == 1 &&
	    ev_exec(db, path, "DROP VIEW slab_shrink", "cannot drop slab_shrink"))
		return -1;
	/* an evidence database made before slab_shrink_ns held every call */
	if (has_object(db, "main", "slab_shrink", "table") == 1 &&
	    ev_exec(db, path, "DROP TABLE slab_shrink", "cannot drop slab_shrink"))
		return -1;
	for (size_t i = 0; i <= vr_event_specs_count; i++) {
		const char *t = i < vr_event_specs_count ? vr_event_specs[i].name : "other_event";
		char *sql = sqlite3_mprintf("DROP TABLE IF EXISTS \"%w\"", t);
		int rc = ev_exec(db, path, sql, "cannot drop a raw table");

		sqlite3_free(sql);
		if (rc)
			return -1;
	}
	char *sql = sqlite3_mprintf("CREATE TABLE IF NOT EXISTS evidence (source_path TEXT NOT NULL);"
				    " DELETE FROM evidence; INSERT INTO evidence VALUES (%Q)", source);
	int rc = ev_exec(db, path, sql, "cannot mark it as evidence");

	sqlite3_free(sql);
	return rc;
}

/* Raw tables are left out of evidence: the event tables and other_event,
 * and slab_shrink, a row per call (slab_shrink_ns sums them). */
static bool is_raw(const char *name)
{
	if (!strcmp(name, "other_event") || !strcmp(name, "slab_shrink"))
		return true;
	for (size_t i = 0; i < vr_event_specs_count; i++)
		if (!strcmp(name, vr_event_specs[i].name))
			return true;
	return false;
}

/*
 * Several databases read as one (store_open_many()): their TEMP views are
 * copied into tables of a new file attached to the same connection (no
 * constraints: two hosts may have the same kernel and iteration).
 */
static int many_evidence_write(struct store *s, const char *path, const char *source)
{
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st;
	char *sql = sqlite3_mprintf("ATTACH 'file:%q?mode=rwc' AS ev", path);
	int rc = store_exec(s, sql, "cannot create the evidence database");

	sqlite3_free(sql);
	if (rc)
		return -1;
	rc = store_exec(s, "BEGIN", "cannot begin");
	if (!rc && sqlite3_prepare_v2(db, "SELECT name FROM temp.sqlite_master WHERE type = 'view'"
				      " ORDER BY name", -1, &st, NULL) != SQLITE_OK)
		rc = vr_error("%s: %s", path, sqlite3_errmsg(db));
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		struct vr_buf cols;
		sqlite3_stmt *c;

		if (is_raw(name))
			continue;
		/* its columns but the rowid the view adds for ordering */
		sql = sqlite3_mprintf("SELECT * FROM temp.\"%w\" LIMIT 0", name);
		rc = sqlite3_prepare_v2(db, sql, -1, &c, NULL) != SQLITE_OK;
		sqlite3_free(sql);
		if (rc) {
			rc = vr_error("%s: %s", path, sqlite3_errmsg(db));
			break;
		}
		vr_buf_init(&cols);
		for (int i = 0; i < sqlite3_column_count(c); i++)
			if (strcmp(sqlite3_column_name(c, i), "rowid"))
				vr_buf_addf(&cols, "%s\"%s\"", cols.len ? ", " : "",
					    sqlite3_column_name(c, i));
		sqlite3_finalize(c);
		sql = sqlite3_mprintf("CREATE TABLE ev.\"%w\" AS SELECT %s FROM temp.\"%w\"", name,
				      cols.buf, name);
		rc = store_exec(s, sql, "cannot copy a table into the evidence database");
		sqlite3_free(sql);
		vr_buf_release(&cols);
	}
	if (!rc)
		sqlite3_finalize(st);
	sql = sqlite3_mprintf("CREATE TABLE ev.evidence (source_path TEXT NOT NULL);"
			      " INSERT INTO ev.evidence VALUES (%Q);"
			      " PRAGMA ev.user_version=%d; PRAGMA ev.application_id=%d",
			      source, VR_SCHEMA_VERSION, VR_APPLICATION_ID);
	rc = rc || store_exec(s, sql, "cannot mark it as evidence") ||
	     store_exec(s, "COMMIT", "cannot commit");
	sqlite3_free(sql);
	if (rc)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_exec(db, "DETACH ev", NULL, NULL, NULL);
	return rc ? -1 : 0;
}

int store_evidence_write(struct store *s, const char *path, const char *source)
{
	sqlite3_stmt *st;
	sqlite3 *db = NULL;
	int rc;

	if (has_object(store_db(s), "main", "run", "table") == 0)
		return many_evidence_write(s, path, source);

	if (sqlite3_prepare_v2(store_db(s), "VACUUM INTO ?1", -1, &st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot copy the database: %s", path,
				sqlite3_errmsg(store_db(s)));
	sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return vr_error("%s: cannot copy the database: %s", path,
				sqlite3_errmsg(store_db(s)));
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		vr_error("%s: cannot open: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return -1;
	}
	rc = ev_exec(db, path, "PRAGMA journal_mode=OFF; BEGIN", "cannot begin") ||
	     ev_reduce(db, path, source) ||
	     ev_exec(db, path, "COMMIT; PRAGMA page_size=4096; VACUUM", "cannot commit");
	if (sqlite3_close(db) != SQLITE_OK && !rc)
		rc = vr_error("%s: cannot close", path);
	return rc ? -1 : 0;
}
