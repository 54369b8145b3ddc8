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

#include <stdlib.h>
#include <string.h>

/* Make the sums tables, and drop the raw tables and slab_shrink's calls
 * (slab_shrink_ns has what the commands read of them). */
static int ev_reduce(sqlite3 *db, const char *path, const char *source)
{
	if (store_sums_make(db, path, true))
		return -1;
	if (store_sqlite_has(db, "main", "slab_shrink", "view") == 1 &&
	    store_sqlite_exec(db, path, "DROP VIEW slab_shrink", "cannot drop slab_shrink"))
		return -1;
	/* an evidence database made before slab_shrink_ns held every call */
	if (store_sqlite_has(db, "main", "slab_shrink", "table") == 1 &&
	    store_sqlite_exec(db, path, "DROP TABLE slab_shrink", "cannot drop slab_shrink"))
		return -1;
	for (size_t i = 0; i <= vr_event_specs_count; i++) {
		const char *t = i < vr_event_specs_count ? vr_event_specs[i].name : "other_event";
		char *sql = sqlite3_mprintf("DROP TABLE IF EXISTS \"%w\"", t);
		int rc = store_sqlite_exec(db, path, sql, "cannot drop a raw table");

		sqlite3_free(sql);
		if (rc)
			return -1;
	}
	char *sql = sqlite3_mprintf("CREATE TABLE IF NOT EXISTS evidence (source_path TEXT NOT NULL);"
				    " DELETE FROM evidence; INSERT INTO evidence VALUES (%Q)", source);
	int rc = store_sqlite_exec(db, path, sql, "cannot mark it as evidence");

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

	if (store_sqlite_has(store_db(s), "main", "run", "table") == 0)
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
	rc = store_sqlite_exec(db, path, "PRAGMA journal_mode=OFF; BEGIN", "cannot begin") ||
	     ev_reduce(db, path, source) ||
	     store_sqlite_exec(db, path, "COMMIT; PRAGMA page_size=4096; VACUUM", "cannot commit");
	if (sqlite3_close(db) != SQLITE_OK && !rc)
		rc = vr_error("%s: cannot close", path);
	return rc ? -1 : 0;
}
