// SPDX-License-Identifier: GPL-2.0
/*
 * store-many.c - several databases read as one (`-d a.db -d b.db`): each
 * is checked as store_open() checks one, then ATTACHed read-only to an
 * empty in-memory database, and every table (and view, and sum of
 * store-schema.c) the first one has becomes a TEMP view that UNION ALLs
 * the databases, with the run ids of database k shifted by the highest run
 * id of the databases before it.  A run whose content_sha256 an earlier
 * database has is left out, its rows too.  README.md "Several databases".
 */
#include "store.h"
#include "store-priv.h"
#include "vr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct many {
	struct store *s;
	sqlite3 *db;
	int n;			/* databases, attached as db0..db{n-1} */
	int64_t *offset;	/* per database: added to its run ids */
	char **dups;		/* per database: "id, id" of runs left out, or NULL */
};

static int many_exec(struct many *m, const char *sql, const char *what)
{
	return store_exec(m->s, sql, what);
}

/* 1 when schema db@k has object @name of @type (NULL: table or view), 0
 * if not, -1. */
static int has_type(struct many *m, int k, const char *name, const char *type)
{
	char schema[16];

	snprintf(schema, sizeof(schema), "db%d", k);
	return store_sqlite_has(m->db, schema, name, type);
}

/* 1 when database @k has @name as a table or view, 0 if not, -1 after a
 * message. */
static int has(struct many *m, int k, const char *name)
{
	int n = has_type(m, k, name, NULL);

	if (n < 0)
		vr_error("%s: %s", store_path(m->s), sqlite3_errmsg(m->db));
	return n;
}

/* A malloc'ed copy of sqlite3_mprintf(@fmt, ...), which is freed. */
static char *sql_dup(char *sql)
{
	char *d = vr_strdup(sql ? sql : "");

	sqlite3_free(sql);
	return d;
}

/* Percent-encode @path for a file: URI (RFC 3986 unreserved kept, '/' too). */
static char *uri_of(const char *path)
{
	struct vr_buf b;
	char *u;

	vr_buf_init(&b);
	vr_buf_addstr(&b, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
		    strchr("-._~/", *p))
			vr_buf_addf(&b, "%c", *p);
		else
			vr_buf_addf(&b, "%%%02X", *p);
	}
	vr_buf_addstr(&b, "?mode=ro");
	u = vr_strdup(b.buf);
	vr_buf_release(&b);
	return u;
}

static int query_i64(struct many *m, const char *sql, int64_t *out)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(m->db, sql, -1, &st, NULL) != SQLITE_OK)
		return vr_error("%s: %s", store_path(m->s), sqlite3_errmsg(m->db));
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 :
	       vr_error("%s: %s", store_path(m->s), sqlite3_errmsg(m->db));
}

/* Offsets of the run ids, and the runs an earlier database has the contents of. */
static int number_runs(struct many *m)
{
	int64_t off = 0;

	for (int k = 0; k < m->n; k++) {
		char *sql = sqlite3_mprintf("SELECT coalesce(max(id), 0) FROM db%d.run", k);
		int64_t max;
		int rc = query_i64(m, sql, &max);

		sqlite3_free(sql);
		if (rc)
			return -1;
		m->offset[k] = off;
		off += max;
		if (!k)
			continue;
		struct vr_buf q;

		vr_buf_init(&q);
		vr_buf_addf(&q, "SELECT group_concat(id, ', ') FROM db%d.run WHERE content_sha256 IN"
			    " (SELECT content_sha256 FROM db0.run", k);
		for (int j = 1; j < k; j++)
			vr_buf_addf(&q, " UNION SELECT content_sha256 FROM db%d.run", j);
		vr_buf_addstr(&q, ")");
		sqlite3_stmt *st;

		rc = sqlite3_prepare_v2(m->db, q.buf, -1, &st, NULL);
		vr_buf_release(&q);
		if (rc != SQLITE_OK)
			return vr_error("%s: %s", store_path(m->s), sqlite3_errmsg(m->db));
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			m->dups[k] = vr_strdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	return 0;
}

/*
 * The source of @name in database @k: its table or view, or the sum
 * computed from its raw tables; NULL when it has neither (malloc'ed).
 */
static char *source_of(struct many *m, int k, const char *name, int *err)
{
	int h = has(m, k, name);

	*err = h < 0;
	if (h > 0)
		return sql_dup(sqlite3_mprintf("\"db%d\".\"%w\"", k, name));
	for (size_t i = 0; h == 0 && i < store_sums_count; i++) {
		char schema[16], *body, *src;

		if (strcmp(store_sums[i].name, name))
			continue;
		int raw = has(m, k, store_sums[i].raw);

		if (raw <= 0) {
			*err = raw < 0;
			return NULL;
		}
		snprintf(schema, sizeof(schema), "db%d", k);
		body = store_sum_sql(&store_sums[i], m->db, schema);
		src = sql_dup(sqlite3_mprintf("(%s)", body));
		free(body);
		return src;
	}
	return NULL;
}

/* The column names of SELECT * FROM @src (NULL-terminated, malloc'ed). */
static char **columns_of(struct many *m, const char *src)
{
	char *sql = sqlite3_mprintf("SELECT * FROM %s LIMIT 0", src);
	sqlite3_stmt *st;
	char **cols;
	int rc = sqlite3_prepare_v2(m->db, sql, -1, &st, NULL);

	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		vr_error("%s: %s", store_path(m->s), sqlite3_errmsg(m->db));
		return NULL;
	}
	int n = sqlite3_column_count(st);

	cols = vr_calloc(n + 1, sizeof(*cols));
	for (int i = 0; i < n; i++)
		cols[i] = vr_strdup(sqlite3_column_name(st, i));
	sqlite3_finalize(st);
	return cols;
}

static void free_strv(char **v)
{
	for (size_t i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

/*
 * The SELECT of database @k for a view with columns @cols (run id: @idcol)
 * and, when every database has @src as a table (@rowid), a column rowid
 * that orders the rows as one database would: readers order by rowid
 * (first imported operation, kswapd cycles of one wake).
 */
static void add_select(struct many *m, struct vr_buf *b, int k, const char *src, char **cols,
		       const char *idcol, bool rowid)
{
	char **have = columns_of(m, src);

	vr_buf_addstr(b, k ? " UNION ALL SELECT " : "SELECT ");
	for (size_t i = 0; cols[i]; i++) {
		bool found = false;

		for (size_t j = 0; have && have[j] && !found; j++)
			found = !strcmp(have[j], cols[i]);
		if (i)
			vr_buf_addstr(b, ", ");
		if (!found)
			vr_buf_addf(b, "NULL AS \"%s\"", cols[i]);
		else if (!strcmp(cols[i], idcol))
			vr_buf_addf(b, "\"%s\" + %lld AS \"%s\"", cols[i], (long long)m->offset[k],
				    cols[i]);
		else
			vr_buf_addf(b, "\"%s\"", cols[i]);
	}
	if (rowid)	/* rows keep their order: database, then rowid */
		vr_buf_addf(b, ", (%d << 40) + rowid AS rowid", k);
	vr_buf_addf(b, " FROM %s", src);
	if (m->dups[k])
		vr_buf_addf(b, " WHERE \"%s\" NOT IN (%s)", idcol, m->dups[k]);
	free_strv(have);
}

/* The TEMP view @name over every database, if each has it (or its sum). */
static int union_view(struct many *m, const char *name)
{
	char **src = vr_calloc(m->n, sizeof(*src)), **cols = NULL;
	const char *idcol = strcmp(name, "run") ? "run_id" : "id";
	int err = 0, all = 1, rc = 0;

	for (int k = 0; k < m->n && !err; k++)
		all &= (src[k] = source_of(m, k, name, &err)) != NULL;
	if (!err && all && (cols = columns_of(m, src[0]))) {
		bool keyed = false;

		for (size_t i = 0; cols[i]; i++)
			keyed |= !strcmp(cols[i], idcol);
		if (keyed) {	/* a table of runs (not `evidence`) */
			bool rowid = true;
			struct vr_buf b;

			for (int k = 0; k < m->n; k++)
				rowid &= has_type(m, k, name, "table") == 1;

			vr_buf_init(&b);
			vr_buf_addf(&b, "CREATE TEMP VIEW \"%s\" AS ", name);
			for (int k = 0; k < m->n; k++)
				add_select(m, &b, k, src[k], cols, idcol, rowid);
			rc = many_exec(m, b.buf, "cannot read the databases as one");
			vr_buf_release(&b);
		}
	}
	if (err || (all && !cols))
		rc = -1;
	free_strv(cols);
	for (int k = 0; k < m->n; k++)
		free(src[k]);
	free(src);
	return rc;
}

/* One view per table, view or sum of the first database. */
static int union_views(struct many *m)
{
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(m->db, "SELECT name FROM db0.sqlite_master WHERE type IN"
			       " ('table', 'view') AND name NOT LIKE 'sqlite%' ORDER BY name",
			       -1, &st, NULL) != SQLITE_OK)
		return vr_error("%s: %s", store_path(m->s), sqlite3_errmsg(m->db));
	while (!rc && sqlite3_step(st) == SQLITE_ROW)
		rc = union_view(m, (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	for (size_t i = 0; !rc && i < store_sums_count; i++)
		if (has(m, 0, store_sums[i].name) == 0)
			rc = union_view(m, store_sums[i].name);
	return rc;
}

/* "a.db, b.db" for messages. */
static char *label_of(const char *const *paths, int n)
{
	struct vr_buf b;
	char *l;

	vr_buf_init(&b);
	for (int k = 0; k < n; k++)
		vr_buf_addf(&b, "%s%s", k ? ", " : "", paths[k]);
	l = vr_strdup(b.buf);
	vr_buf_release(&b);
	return l;
}

struct store *store_open_many(const char *const *paths, int n)
{
	struct many m = { .n = n };
	char *label;
	int rc = 0;

	if (n == 1)
		return store_open(paths[0], STORE_RDONLY);
	for (int k = 0; k < n; k++) {	/* each checked as one database */
		struct store *one = store_open(paths[k], STORE_RDONLY);

		if (!one)
			return NULL;
		store_close(one);
	}
	label = label_of(paths, n);
	m.s = store_open_memory(label);
	free(label);
	if (!m.s)
		return NULL;
	m.db = store_db(m.s);
	m.offset = vr_calloc(n, sizeof(*m.offset));
	m.dups = vr_calloc(n, sizeof(*m.dups));
	for (int k = 0; k < n && !rc; k++) {
		char *uri = uri_of(paths[k]);
		char *sql = sqlite3_mprintf("ATTACH %Q AS db%d", uri, k);

		rc = many_exec(&m, sql, "cannot attach");
		sqlite3_free(sql);
		free(uri);
	}
	if (!rc)
		rc = number_runs(&m) || union_views(&m);
	for (int k = 0; k < n; k++)
		free(m.dups[k]);
	free(m.dups);
	free(m.offset);
	if (rc) {
		store_close(m.s);
		return NULL;
	}
	return m.s;
}
