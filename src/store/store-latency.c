// SPDX-License-Identifier: GPL-2.0
/*
 * store-latency.c - imported application latencies (table app_latency),
 * written in one transaction per file; see store_import_app_latency().
 */
#include "ingest-latency.h"
#include "store.h"
#include "store-priv.h"
#include "store-query.h"
#include "vr.h"

#include <stdbool.h>
#include <time.h>

static int fail(struct store *s, const char *what)
{
	sqlite3 *db = store_db(s);

	vr_error("%s: %s: %s", store_path(s), what, sqlite3_errmsg(db));
	return -1;
}

/* One integer from @sql with text ?1 = @kernel (0 without a row); 0 or -1. */
static int query_kernel_int(struct store *s, const char *sql, const char *kernel, int64_t *out)
{
	struct store_stmt *q = store_stmt_new(s, sql, "choose the iteration");
	int rc;

	store_bind_text(q, 1, kernel);
	rc = store_stmt_row_int64(q, out, 1);
	store_stmt_free(q);
	return rc < 0 ? -1 : 0;
}

static int pick_iteration(struct store *s, const char *kernel, int *iteration)
{
	int64_t v;

	if (query_kernel_int(s, "SELECT coalesce(min(iteration), 0) FROM run r WHERE kernel = ?1"
			     " AND NOT EXISTS (SELECT 1 FROM app_latency a WHERE a.run_id = r.id)",
			     kernel, &v))
		return -1;
	if (!v && query_kernel_int(s, "SELECT coalesce(max(iteration), 0) + 1 FROM run"
				   " WHERE kernel = ?1", kernel, &v))
		return -1;
	*iteration = (int)v;
	return 0;
}

static int find_or_create_run(struct store *s, const char *kernel, int iteration,
			      const char *path, const char *sha256, int64_t *run_id, int *created)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT id FROM run WHERE kernel = ?1"
					      " AND iteration = ?2", "find the run");
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st;
	char now[32];
	time_t t = time(NULL);
	int rc;

	*created = 0;
	store_bind_text(q, 1, kernel);
	store_bind_int(q, 2, iteration);
	rc = store_stmt_row_int64(q, run_id, 1);
	store_stmt_free(q);
	if (rc < 0)
		return -1;
	if (*run_id)
		return 0;
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	if (sqlite3_prepare_v2(db, "INSERT INTO run (kernel, iteration, source_path, source_format,"
			       " content_sha256, loaded_at) VALUES (?1, ?2, ?3, 'latency', ?4, ?5)",
			       -1, &st, NULL) != SQLITE_OK)
		return fail(s, "cannot prepare insert");
	sqlite3_bind_text(st, 1, kernel, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, iteration);
	sqlite3_bind_text(st, 3, path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, sha256, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, now, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		if (sqlite3_extended_errcode(db) == SQLITE_CONSTRAINT_UNIQUE)
			return vr_error("%s: already imported as another run (same contents)", path);
		return fail(s, "cannot insert run");
	}
	*run_id = sqlite3_last_insert_rowid(db);
	*created = 1;
	return 0;
}

/*
 * The run of @kernel that already holds the latencies of a file with
 * contents @sha256 (its app_latency rows name it, or it is the latency-only
 * run made from it), or 0.
 */
static int find_imported(struct store *s, const char *kernel, const char *sha256,
			 int64_t *run_id, int *iteration)
{
	sqlite3_stmt *st;
	int rc;

	*run_id = 0;
	if (sqlite3_prepare_v2(store_db(s), "SELECT r.id, r.iteration FROM run r"
			       " WHERE r.kernel = ?1 AND ((r.source_format = 'latency'"
			       " AND r.content_sha256 = ?2) OR EXISTS (SELECT 1 FROM app_latency a"
			       " WHERE a.run_id = r.id AND a.source_sha256 = ?2)) ORDER BY r.id",
			       -1, &st, NULL) != SQLITE_OK)
		return fail(s, "cannot prepare query");
	sqlite3_bind_text(st, 1, kernel, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, sha256, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*run_id = sqlite3_column_int64(st, 0);
		*iteration = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : fail(s, "query failed");
}

/* Run @sql with ?1 = @run_id (a DELETE); 0 or -1. */
static int exec_run(struct store *s, const char *sql, int64_t run_id)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(store_db(s), sql, -1, &st, NULL) != SQLITE_OK)
		return fail(s, "cannot prepare delete");
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "cannot delete");
}

/*
 * --replace of contents already in run @old moving to another run: @old
 * loses them, and goes altogether when it was only these latencies.
 */
static int move_away(struct store *s, int64_t old)
{
	return exec_run(s, "DELETE FROM app_latency WHERE run_id = ?1", old) ||
	       exec_run(s, "DELETE FROM run WHERE id = ?1 AND source_format = 'latency'", old);
}

/*
 * Refuse contents already imported for @kernel unless @replace; with it,
 * the import goes to the run that has them unless *@iteration names
 * another, which they then leave.
 */
static int check_imported(struct store *s, const char *kernel, int *iteration,
			  const char *path, const char *sha256, bool replace)
{
	int64_t old;
	int old_iter;

	if (find_imported(s, kernel, sha256, &old, &old_iter))
		return -1;
	if (!old)
		return 0;
	if (!replace)
		return vr_error("%s: already imported as the latencies of run %lld (kernel %s"
				" iteration %d, same contents); use --replace to import it again",
				path, (long long)old, kernel, old_iter);
	if (!*iteration)
		*iteration = old_iter;
	if (*iteration != old_iter)
		return move_away(s, old);
	return 0;
}

static int insert_samples(struct store *s, int64_t run_id, const struct ingest_latency *lat,
			  const char *sha256)
{
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, "DELETE FROM app_latency WHERE run_id = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return fail(s, "cannot prepare delete");
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return fail(s, "cannot replace latencies");
	if (sqlite3_prepare_v2(db, "INSERT INTO app_latency (run_id, operation, sample, value,"
			       " unit, source_sha256, higher_is_better, zeros_real)"
			       " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)", -1, &st,
			       NULL) != SQLITE_OK)
		return fail(s, "cannot prepare insert");
	rc = SQLITE_DONE;
	for (size_t i = 0; i < lat->n && rc == SQLITE_DONE; i++) {
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_text(st, 2, lat->s[i].operation, -1, SQLITE_STATIC);
		sqlite3_bind_int(st, 3, lat->s[i].sample);
		sqlite3_bind_double(st, 4, lat->s[i].value);
		if (lat->s[i].unit)
			sqlite3_bind_text(st, 5, lat->s[i].unit, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 5);
		sqlite3_bind_text(st, 6, sha256, -1, SQLITE_STATIC);
		if (lat->s[i].higher_is_better)
			sqlite3_bind_int(st, 7, 1);
		else
			sqlite3_bind_null(st, 7);
		if (lat->s[i].zeros_real)
			sqlite3_bind_int(st, 8, 1);
		else
			sqlite3_bind_null(st, 8);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(s, "cannot insert latency");
}

int store_import_app_latency(struct store *s, const char *kernel, int iteration,
			     const char *path, const char *sha256,
			     const struct ingest_latency *lat, bool replace, int64_t *run_id,
			     int *iteration_out, int *created)
{
	if (store_write_begin(s))
		return -1;
	if (check_imported(s, kernel, &iteration, path, sha256, replace))
		goto rollback;
	if (!iteration && pick_iteration(s, kernel, &iteration))
		goto rollback;
	if (find_or_create_run(s, kernel, iteration, path, sha256, run_id, created) ||
	    insert_samples(s, *run_id, lat, sha256) ||
	    store_exec(s, "COMMIT", "cannot commit"))
		goto rollback;
	*iteration_out = iteration;
	return 0;
rollback:
	store_rollback(s);
	return -1;
}
