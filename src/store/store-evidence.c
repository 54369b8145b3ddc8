// SPDX-License-Identifier: GPL-2.0
/*
 * store-evidence.c - the evidence database: run metadata, derived tables,
 * imported latencies and the sums over raw tables (store-schema.c) as
 * tables, without a raw event row (README.md "Evidence database").
 */
#include "store.h"
#include "store-priv.h"
#include "spec.h"
#include "vr.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Raw tables are left out of evidence: the event tables (and shrink_call,
 * shrink_call_more and shrinker under the views of the shrinker events,
 * lru_call and lru_call_more under those of the LRU events, NAME_ids and
 * comm under those of events with comms), other_event, and slab_shrink, a
 * row per call (slab_shrink_ns sums them). */
static bool is_raw(const char *name)
{
	if (!strcmp(name, "other_event") || !strcmp(name, "slab_shrink") ||
	    !strcmp(name, "shrink_call") || !strcmp(name, "shrink_call_more") ||
	    !strcmp(name, "shrinker") || !strcmp(name, "lru_call") ||
	    !strcmp(name, "lru_call_more") || !strcmp(name, "comm"))
		return true;
	for (size_t i = 0; i < vr_event_specs_count; i++) {
		const char *e = vr_event_specs[i].name;
		char ids[128];

		snprintf(ids, sizeof(ids), "%s" STORE_COMM_SUFFIX, e);
		if (!strcmp(name, e) || (store_comm_spec((int)i) && !strcmp(name, ids)))
			return true;
	}
	return false;
}

/*
 * Several databases read as one (store_open_many()): their TEMP views are
 * copied into tables of a new file attached to the same connection (no
 * constraints: two hosts may have the same kernel and iteration).
 */
static int many_evidence_write(struct store *s, const char *path, const char *const *sources,
			       int nsources)
{
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st = NULL;
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

		int own = store_own_object(name);

		if (own < 0) {
			rc = -1;
			break;
		}
		if (!own || is_raw(name))	/* a user's table is theirs, never sent */
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
		/* its columns but the rowid the view adds for ordering, and but a
		 * column a user added to one of our tables */
		for (int i = 0; i < sqlite3_column_count(c) && rc >= 0; i++)
			if (strcmp(sqlite3_column_name(c, i), "rowid") &&
			    (rc = store_own_column(name, sqlite3_column_name(c, i))) > 0)
				vr_buf_addf(&cols, "%s\"%s\"", cols.len ? ", " : "",
					    sqlite3_column_name(c, i));
		sqlite3_finalize(c);
		if (rc < 0 || !cols.len) {
			vr_buf_release(&cols);
			rc = rc < 0 ? -1 : vr_error("%s: table %s has none of vmscan-report's columns"
						    " (made again by hand?); nothing written", path,
						    name);
			break;
		}
		sql = sqlite3_mprintf("CREATE TABLE ev.\"%w\" AS SELECT %s FROM temp.\"%w\"", name,
				      cols.buf, name);
		rc = store_exec(s, sql, "cannot copy a table into the evidence database");
		sqlite3_free(sql);
		vr_buf_release(&cols);
	}
	sqlite3_finalize(st);
	sql = sqlite3_mprintf("CREATE TABLE ev.evidence (source_path TEXT NOT NULL);"
			      " PRAGMA ev.user_version=%d; PRAGMA ev.application_id=%d",
			      VR_SCHEMA_VERSION, VR_APPLICATION_ID);
	rc = rc || store_exec(s, sql, "cannot mark it as evidence");
	sqlite3_free(sql);
	for (int i = 0; !rc && i < nsources; i++) {
		sql = sqlite3_mprintf("INSERT INTO ev.evidence VALUES (%Q)", sources[i]);
		rc = store_exec(s, sql, "cannot mark it as evidence");
		sqlite3_free(sql);
	}
	rc = rc || store_exec(s, "COMMIT", "cannot commit");
	if (rc)
		sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_exec(db, "DETACH ev", NULL, NULL, NULL);
	return rc ? -1 : 0;
}

/* "file:PATH?mode=ro", @path percent-encoded where SQLite's URI parser
 * (sqlite.org/uri.html) would read it otherwise; malloc'ed. */
static char *ro_uri(const char *path)
{
	struct vr_buf b;
	char *uri;

	vr_buf_init(&b);
	vr_buf_addstr(&b, "file:");
	for (const char *p = path; *p; p++) {
		unsigned char c = (unsigned char)*p;

		/* a leading "//" would be read as an authority */
		if (isalnum(c) || (strchr("/._~-", c) && !(p == path && p[1] == '/')))
			vr_buf_addf(&b, "%c", c);
		else
			vr_buf_addf(&b, "%%%02X", c);
	}
	vr_buf_addstr(&b, "?mode=ro");
	uri = vr_strdup(b.buf);
	vr_buf_release(&b);
	return uri;
}

/* An object of src's schema the evidence database holds. */
struct ev_object {
	char *name, *sql;
	bool table;	/* a table (its rows are copied), else an index */
};

/*
 * The objects of src (attached to @db) that vmscan-report's schema makes
 * (store_own_object(): by the list, so a user's table, view, trigger or
 * index, even one on our tables, stays out of a file meant to be sent) and
 * that are not raw (is_raw() of the table they belong to): its tables in
 * src's order, then its indexes in src's order; the automatic indexes come
 * with their tables.  Returns 0 or -1 after a message.
 */
static int ev_objects(sqlite3 *db, const char *path, struct ev_object **objs, size_t *n)
{
	sqlite3_stmt *st;
	int rc;

	*objs = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db, "SELECT type = 'table', name, tbl_name, sql FROM src.sqlite_master"
			       " WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
			       " ORDER BY type <> 'table', rowid", -1, &st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot read the schema: %s", path, sqlite3_errmsg(db));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 1);
		int own = store_own_object(name);

		if (own < 0) {
			sqlite3_finalize(st);
			return -1;
		}
		/* evidence: made anew below (in a loaded database the name is a
		 * user's table) */
		if (!own || is_raw((const char *)sqlite3_column_text(st, 2)) ||
		    !strcmp((const char *)sqlite3_column_text(st, 2), "evidence"))
			continue;
		*objs = vr_realloc(*objs, (*n + 1) * sizeof(**objs));
		(*objs)[*n] = (struct ev_object){
			.name = vr_strdup(name),
			.sql = vr_strdup((const char *)sqlite3_column_text(st, 3)),
			.table = sqlite3_column_int(st, 0),
		};
		++*n;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return vr_error("%s: cannot read the schema: %s", path, sqlite3_errmsg(db));
	return 0;
}

static void ev_objects_free(struct ev_object *objs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(objs[i].name);
		free(objs[i].sql);
	}
	free(objs);
}

/* PRAGMA src.@name's value into main's. */
static int ev_pragma(sqlite3 *db, const char *path, const char *name)
{
	char *sql = sqlite3_mprintf("PRAGMA src.%s", name);
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK ||
		 sqlite3_step(st) != SQLITE_ROW;

	sqlite3_free(sql);
	if (rc) {
		sqlite3_finalize(st);
		return vr_error("%s: cannot read %s: %s", path, name, sqlite3_errmsg(db));
	}
	sql = sqlite3_mprintf("PRAGMA main.%s = %lld", name, sqlite3_column_int64(st, 0));
	sqlite3_finalize(st);
	rc = store_sqlite_exec(db, path, sql, "cannot set it");
	sqlite3_free(sql);
	return rc;
}

/*
 * Table @name of main (made by src's CREATE TABLE) keeps only the columns
 * vmscan-report's schema gives it (store_own_column()): a column a user
 * added to it (ALTER TABLE ADD COLUMN, or a table made again by hand with
 * one more) is dropped (ALTER TABLE DROP COLUMN, SQLite 3.35+), never
 * sent.  *@cols: the columns kept, quoted, comma-separated, for the copy of
 * the rows (the caller releases it).  0, or -1 after a message naming the
 * column.
 */
static int ev_own_columns(sqlite3 *db, const char *path, const char *name, struct vr_buf *cols)
{
	char *sql = sqlite3_mprintf("SELECT name FROM pragma_table_info(%Q, 'main')", name);
	struct vr_buf drop;
	sqlite3_stmt *st;
	int rc = 0, own;

	vr_buf_init(&drop);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		rc = vr_error("%s: cannot read the columns of %s: %s", path, name, sqlite3_errmsg(db));
	sqlite3_free(sql);
	while (!rc && sqlite3_step(st) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(st, 0);

		own = store_own_column(name, col);
		if (own < 0)
			rc = -1;
		else if (own)
			vr_buf_addf(cols, "%s\"%s\"", cols->len ? ", " : "", col);
		else
			vr_buf_add(&drop, col, strlen(col) + 1);	/* NUL-separated */
	}
	sqlite3_finalize(st);
	for (size_t off = 0; !rc && off < drop.len; off += strlen(drop.buf + off) + 1) {
		sql = sqlite3_mprintf("ALTER TABLE main.\"%w\" DROP COLUMN \"%w\"", name,
				      drop.buf + off);
		if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
			rc = vr_error("%s: cannot leave out column %s.%s, which is not"
				      " vmscan-report's (added by hand?): %s; nothing written", path,
				      name, drop.buf + off, sqlite3_errmsg(db));
		sqlite3_free(sql);
	}
	vr_buf_release(&drop);
	if (!rc && !cols->len)
		rc = vr_error("%s: table %s has none of vmscan-report's columns (made again by"
			      " hand?); nothing written", path, name);
	return rc;
}

/*
 * Fill main of @db (empty) from src, in its open transaction: the schema
 * of ev_objects() (tables; the sums a database loaded before them lacks,
 * summed from src's raw rows; the table evidence; then indexes), the rows of the tables, @source in evidence, src's
 * user_version and application_id.  A VACUUM of it is what copying src
 * whole and dropping its raw tables made: VACUUM lays out the tables in
 * the order of the schema, then the indexes.
 */
static int ev_fill(sqlite3 *db, const char *path, const char *source)
{
	struct ev_object *objs;
	size_t n, i;
	char *sql;
	int rc = ev_objects(db, path, &objs, &n);

	for (i = 0; !rc && i < n && objs[i].table; i++)
		rc = store_sqlite_exec(db, path, objs[i].sql, "cannot create a table");
	rc = rc || store_sums_make(db, path, true, "src") ||
	     store_sqlite_exec(db, path, "CREATE TABLE evidence"
			       " (source_path TEXT NOT NULL)", "cannot mark it as evidence");
	for (; !rc && i < n; i++)
		rc = store_sqlite_exec(db, path, objs[i].sql, "cannot create an index or view");
	for (i = 0; !rc && i < n; i++) {
		struct vr_buf cols;

		if (!objs[i].table)
			continue;
		vr_buf_init(&cols);
		rc = ev_own_columns(db, path, objs[i].name, &cols);
		if (!rc) {
			sql = sqlite3_mprintf("INSERT INTO main.\"%w\" (%s) SELECT %s FROM src.\"%w\"",
					      objs[i].name, cols.buf, cols.buf, objs[i].name);
			rc = store_sqlite_exec(db, path, sql, "cannot copy a table");
			sqlite3_free(sql);
		}
		vr_buf_release(&cols);
	}
	ev_objects_free(objs, n);
	if (rc)
		return -1;
	sql = sqlite3_mprintf("INSERT INTO evidence VALUES (%Q)", source);
	rc = store_sqlite_exec(db, path, sql, "cannot mark it as evidence");
	sqlite3_free(sql);
	return rc || ev_pragma(db, path, "user_version") || ev_pragma(db, path, "application_id")
	       ? -1 : 0;
}

/*
 * One database: its evidence is made in a private temporary database of
 * SQLite's (a file unlinked at once, in $SQLITE_TMPDIR, $TMPDIR or
 * /var/tmp) with @s's file attached read-only, in one transaction, and
 * VACUUMed INTO @path (4096-byte pages, no free page).  Only what
 * evidence holds is read: no raw row is copied or dropped.
 */
static int one_evidence_write(struct store *s, const char *path, const char *source)
{
	const char *file = sqlite3_db_filename(store_db(s), "main");
	char *uri = ro_uri(file ? file : "");
	sqlite3_stmt *st = NULL;
	sqlite3 *db = NULL;
	int rc;

	if (sqlite3_open_v2("", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI,
			    NULL) != SQLITE_OK) {
		vr_error("%s: cannot open: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		free(uri);
		return -1;
	}
	rc = sqlite3_prepare_v2(db, "ATTACH ?1 AS src", -1, &st, NULL) != SQLITE_OK;
	if (!rc) {
		sqlite3_bind_text(st, 1, uri, -1, SQLITE_STATIC);
		rc = sqlite3_step(st) != SQLITE_DONE;
	}
	sqlite3_finalize(st);
	free(uri);
	if (rc)
		vr_error("%s: cannot read the database: %s", path, sqlite3_errmsg(db));
	rc = rc || store_sqlite_exec(db, path, "PRAGMA main.page_size=4096;"
				     " PRAGMA main.journal_mode=OFF; BEGIN", "cannot begin") ||
	     ev_fill(db, path, source) || store_sqlite_exec(db, path, "COMMIT", "cannot commit");
	if (!rc && sqlite3_prepare_v2(db, "VACUUM main INTO ?1", -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
		rc = sqlite3_step(st) != SQLITE_DONE;
		sqlite3_finalize(st);
		if (rc)
			vr_error("%s: cannot write the database: %s", path, sqlite3_errmsg(db));
	} else if (!rc) {
		rc = vr_error("%s: cannot write the database: %s", path, sqlite3_errmsg(db));
	}
	sqlite3_close(db);
	return rc ? -1 : 0;
}

int store_evidence_write(struct store *s, const char *path, const char *const *sources,
			 int nsources)
{
	if (store_sqlite_has(store_db(s), "main", "run", "table") == 0)
		return many_evidence_write(s, path, sources, nsources);
	return one_evidence_write(s, path, nsources > 0 ? sources[0] : "");
}
