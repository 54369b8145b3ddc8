// SPDX-License-Identifier: GPL-2.0
/*
 * store-query.c - prepared statements of a store with their purpose, for
 * error messages that name the database and what was being read; see
 * include/store-query.h.
 */
#include "store-query.h"
#include "store.h"
#include "store-priv.h"
#include "vr.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

struct store_stmt {
	struct store *s;
	sqlite3_stmt *st;
	const char *what;
	int bind_rc;	/* first failed bind, reported by the next step */
	int bind_i;
};

static int stmt_error(struct store *s, const char *what, const char *reason)
{
	return vr_error("%s: %s: %s", store_path(s), what, reason);
}

struct store_stmt *store_stmt_new(struct store *s, const char *sql, const char *what)
{
	sqlite3 *db = store_db(s);
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		stmt_error(s, what, sqlite3_errmsg(db));
		return NULL;
	}
	struct store_stmt *q = vr_calloc(1, sizeof(*q));

	q->s = s;
	q->st = st;
	q->what = what;
	return q;
}

struct store_stmt *store_stmt_newf(struct store *s, const char *what, const char *fmt, ...)
{
	struct store_stmt *q;
	struct vr_buf sql;
	va_list ap;

	vr_buf_init(&sql);
	va_start(ap, fmt);
	vr_buf_vaddf(&sql, fmt, ap);
	va_end(ap);
	q = store_stmt_new(s, sql.buf, what);
	vr_buf_release(&sql);
	return q;
}

static void bound(struct store_stmt *q, int i, int rc)
{
	if (rc != SQLITE_OK && q->bind_rc == SQLITE_OK) {
		q->bind_rc = rc;
		q->bind_i = i;
	}
}

void store_bind_int64(struct store_stmt *q, int i, int64_t v)
{
	if (q)
		bound(q, i, sqlite3_bind_int64(q->st, i, v));
}

void store_bind_int(struct store_stmt *q, int i, int v)
{
	if (q)
		bound(q, i, sqlite3_bind_int(q->st, i, v));
}

void store_bind_double(struct store_stmt *q, int i, double v)
{
	if (q)
		bound(q, i, sqlite3_bind_double(q->st, i, v));
}

void store_bind_text(struct store_stmt *q, int i, const char *v)
{
	if (q)
		bound(q, i, sqlite3_bind_text(q->st, i, v, -1, SQLITE_STATIC));
}

void store_bind_null(struct store_stmt *q, int i)
{
	if (q)
		bound(q, i, sqlite3_bind_null(q->st, i));
}

int store_step(struct store_stmt *q)
{
	int rc;

	if (!q)
		return -1;
	if (q->bind_rc != SQLITE_OK)
		return vr_error("%s: %s: cannot bind parameter %d: %s", store_path(q->s), q->what,
				q->bind_i, sqlite3_errstr(q->bind_rc));
	rc = sqlite3_step(q->st);
	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	return stmt_error(q->s, q->what, sqlite3_errmsg(store_db(q->s)));
}

void store_stmt_reset(struct store_stmt *q)
{
	if (q)
		sqlite3_reset(q->st);
}

void store_stmt_free(struct store_stmt *q)
{
	if (!q)
		return;
	sqlite3_finalize(q->st);
	free(q);
}

int64_t store_col_int64(struct store_stmt *q, int i)
{
	return q ? sqlite3_column_int64(q->st, i) : 0;
}

int store_col_int(struct store_stmt *q, int i)
{
	return q ? sqlite3_column_int(q->st, i) : 0;
}

double store_col_double(struct store_stmt *q, int i)
{
	return q ? sqlite3_column_double(q->st, i) : 0.0;
}

const char *store_col_text(struct store_stmt *q, int i)
{
	return q ? (const char *)sqlite3_column_text(q->st, i) : NULL;
}

bool store_col_is_null(struct store_stmt *q, int i)
{
	return !q || sqlite3_column_type(q->st, i) == SQLITE_NULL;
}

int store_stmt_each(struct store_stmt *q, int (*row)(struct store_stmt *q, void *arg),
		    void *arg)
{
	int rc, ret;

	while ((rc = store_step(q)) > 0)
		if ((ret = row(q, arg)))
			return ret;
	return rc;
}

/* Columns of the row just stepped to (0 without one). */
static int row_columns(struct store_stmt *q, int rc)
{
	return rc > 0 ? sqlite3_column_count(q->st) : 0;
}

int store_stmt_row_int64(struct store_stmt *q, int64_t *out, int n)
{
	int rc = store_step(q), ncol = row_columns(q, rc);

	for (int i = 0; i < n; i++)
		out[i] = i < ncol ? store_col_int64(q, i) : 0;
	return rc;
}

int store_stmt_row_double(struct store_stmt *q, double *out, int n)
{
	int rc = store_step(q), ncol = row_columns(q, rc);

	for (int i = 0; i < n; i++)
		out[i] = i < ncol && !store_col_is_null(q, i) ? store_col_double(q, i) : NAN;
	return rc;
}

int store_stmt_doubles(struct store_stmt *q, double **out, size_t *n)
{
	size_t alloc = 0;
	int rc;

	*out = NULL;
	*n = 0;
	while ((rc = store_step(q)) > 0) {
		int64_t times = sqlite3_column_count(q->st) > 1 ? store_col_int64(q, 1) : 1;
		double v;

		if (store_col_is_null(q, 0))
			continue;
		v = store_col_double(q, 0);
		for (int64_t k = 0; k < (times > 1 ? times : 1); k++) {
			if (*n == alloc) {
				alloc = alloc ? 2 * alloc : 64;
				*out = vr_realloc(*out, alloc * sizeof(**out));
			}
			(*out)[(*n)++] = v;
		}
	}
	if (rc < 0) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

int store_stmt_texts(struct store_stmt *q, char ***out, size_t *n)
{
	int rc;

	*out = NULL;
	*n = 0;
	while ((rc = store_step(q)) > 0) {
		const char *t = store_col_text(q, 0);

		*out = vr_realloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = vr_strdup(t ? t : "");
	}
	if (rc < 0) {
		for (size_t i = 0; i < *n; i++)
			free((*out)[i]);
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}
