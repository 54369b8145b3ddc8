// SPDX-License-Identifier: GPL-2.0
/*
 * store-derived.c - the derived tables (reclaim_stall, kswapd_cycle,
 * kswapd_wakeup, pgdat_flag, reclaim_throttle, slab_shrink_stored,
 * reclaim_write, run_quality): the insertion of the model's finished rows
 * into the run being loaded, inside its open transaction, with prepared
 * statements made from the tables' column tables (store-schema.c) and
 * bound values.  MODEL_NULL values are stored as NULL.  (Shrinker calls that have
 * an end are no rows here: the model pairs them in the mm_shrink_slab_end
 * events, which the slab_shrink view reads.)
 *
 * Deferred mode (store_derived_defer()): the model may run on another
 * thread than the connection's; rows are then queued (strings interned)
 * under a mutex and inserted by store_derived_flush() on the connection's
 * thread, in the order they came.
 */
#include "model.h"
#include "store.h"
#include "store-priv.h"
#include "vr.h"

#include <glib.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* INSERT of one row of @t, run_id first (caller frees). */
static char *insert_sql(const struct store_derived_table *t)
{
	struct vr_buf b;

	vr_buf_init(&b);
	vr_buf_addf(&b, "INSERT%s INTO %s (run_id", t->replace ? " OR REPLACE" : "", t->name);
	for (int i = 0; i < t->ncols; i++) {
		vr_buf_addstr(&b, ", ");
		store_sql_name(&b, t->cols[i].name);
	}
	vr_buf_addstr(&b, ") VALUES (?");
	for (int i = 0; i < t->ncols; i++)
		vr_buf_addstr(&b, ",?");
	vr_buf_addstr(&b, ")");
	return vr_buf_detach(&b);
}

/* ---- inserting ---------------------------------------------------------- */

/*
 * Rows queued in deferred mode, in order: each entry is the table's index
 * (a size_t) followed by a copy of the row, padded to 8 bytes, so any row
 * struct (alignment at most 8) sits aligned in the buffer.
 */
struct row_queue {
	unsigned char *buf;
	size_t len, cap;
};

#define QUEUE_ALIGN 8
#define QUEUE_PAD(n) (((n) + QUEUE_ALIGN - 1) & ~(size_t)(QUEUE_ALIGN - 1))
#define QUEUE_HEAD QUEUE_PAD(sizeof(size_t))

struct store_derived {
	struct store *store;
	int64_t run_id;
	sqlite3_stmt *st[SD_COUNT];	/* prepared on first use */
	GHashTable *names;		/* interned strings of queued rows (owned) */
	bool deferred;
	pthread_mutex_t lock;		/* guards in (deferred mode) */
	struct row_queue in;		/* filled by the model's sink */
	struct row_queue out;		/* being inserted by store_derived_flush() */
};

/* Prepare the INSERT of table @t if needed and bind run_id; NULL after an
 * error. */
static sqlite3_stmt *stmt(struct store_derived *d, int t)
{
	sqlite3 *db = store_db(d->store);

	if (!d->st[t]) {
		char *sql = insert_sql(&store_derived_tables[t]);
		int rc = sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &d->st[t], NULL);

		free(sql);
		if (rc != SQLITE_OK) {
			vr_error("%s: cannot prepare derived-row insert: %s",
				 store_path(d->store), sqlite3_errmsg(db));
			return NULL;
		}
	}
	sqlite3_bind_int64(d->st[t], 1, d->run_id);
	return d->st[t];
}

/* Bind column @c of @row as parameter @idx.  A string stays valid until
 * the statement is stepped: no copy (SQLITE_STATIC). */
static void bind_column(sqlite3_stmt *st, int idx, const struct store_column *c,
			const void *row)
{
	const char *p = (const char *)row + c->offset;
	int64_t v;
	const char *s;

	switch (c->ctype) {
	case STORE_C_INT:
		sqlite3_bind_int(st, idx, *(const int *)p);
		break;
	case STORE_C_I64:
		v = *(const int64_t *)p;
		if (v == MODEL_NULL)
			sqlite3_bind_null(st, idx);
		else
			sqlite3_bind_int64(st, idx, v);
		break;
	case STORE_C_BOOL:
		sqlite3_bind_int(st, idx, *(const bool *)p);
		break;
	case STORE_C_TEXT:
		s = *(const char *const *)p;
		if (s)
			sqlite3_bind_text(st, idx, s, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, idx);
		break;
	}
}

/* Insert @row (a struct of table @t's row type) now. */
static int insert_row(struct store_derived *d, int t, const void *row)
{
	const struct store_derived_table *tab = &store_derived_tables[t];
	sqlite3_stmt *st = stmt(d, t);
	int rc;

	if (!st)
		return -1;
	for (int i = 0; i < tab->ncols; i++)
		bind_column(st, i + 2, &tab->cols[i], row);
	rc = sqlite3_step(st);
	sqlite3_reset(st);	/* every column is bound again for the next row */
	if (rc != SQLITE_DONE)
		return vr_error("%s: cannot insert into %s: %s", store_path(d->store), tab->name,
				sqlite3_errmsg(store_db(d->store)));
	return 0;
}

/* A copy of @name that lives as long as @d (the strings of derived rows
 * repeat: states, reasons, shrinker names). */
static const char *intern(struct store_derived *d, const char *name)
{
	char *s;

	if (!name)
		return NULL;
	s = g_hash_table_lookup(d->names, name);
	if (!s) {
		s = vr_strdup(name);
		g_hash_table_add(d->names, s);
	}
	return s;
}

/* Queue a copy of @row of table @t, its strings interned (d->lock held). */
static void queue_row(struct store_derived *d, int t, const void *row)
{
	const struct store_derived_table *tab = &store_derived_tables[t];
	struct row_queue *q = &d->in;
	size_t need = QUEUE_HEAD + QUEUE_PAD(tab->row_size);
	unsigned char *copy;

	if (q->len + need > q->cap) {
		q->cap = q->cap ? 2 * q->cap : 16384;
		while (q->len + need > q->cap)
			q->cap *= 2;
		q->buf = vr_realloc(q->buf, q->cap);
	}
	*(size_t *)(q->buf + q->len) = (size_t)t;
	copy = q->buf + q->len + QUEUE_HEAD;
	memcpy(copy, row, tab->row_size);
	for (int i = 0; i < tab->ncols; i++) {
		const char **s = (const char **)(copy + tab->cols[i].offset);

		if (tab->cols[i].ctype == STORE_C_TEXT)
			*s = intern(d, *s);
	}
	q->len += need;
}

/* Insert what is in @d->out, in order, then empty it. */
static int insert_out(struct store_derived *d)
{
	struct row_queue *q = &d->out;
	int ret = 0;

	for (size_t off = 0; !ret && off < q->len;) {
		size_t t = *(const size_t *)(q->buf + off);

		ret = insert_row(d, (int)t, q->buf + off + QUEUE_HEAD);
		off += QUEUE_HEAD + QUEUE_PAD(store_derived_tables[t].row_size);
	}
	q->len = 0;
	return ret;
}

int store_derived_flush(struct store_derived *d)
{
	struct row_queue t;

	if (d->deferred)
		pthread_mutex_lock(&d->lock);
	t = d->out;
	d->out = d->in;
	d->in = t;
	if (d->deferred)
		pthread_mutex_unlock(&d->lock);
	return insert_out(d);
}

/*
 * A row from the model's sink: straight to SQLite, or in deferred mode
 * into the queue with its strings interned (a row's strings live only
 * during the call).
 */
static int put(void *arg, int t, const void *row)
{
	struct store_derived *d = arg;

	if (!d->deferred)
		return insert_row(d, t, row);
	pthread_mutex_lock(&d->lock);
	queue_row(d, t, row);
	pthread_mutex_unlock(&d->lock);
	return 0;
}

#define SINK(fn, type, t) \
	static int fn(void *arg, const type *r) { return put(arg, t, r); }
SINK(ins_stall, struct model_stall, SD_STALL)
SINK(ins_cycle, struct model_kswapd_cycle, SD_CYCLE)
SINK(ins_wakeup, struct model_wakeup, SD_WAKEUP)
SINK(ins_flag, struct model_flag, SD_FLAG)
SINK(ins_throttle, struct model_throttle, SD_THROTTLE)
SINK(ins_slab, struct model_slab, SD_SLAB)
SINK(ins_write, struct model_write, SD_WRITE)
SINK(ins_hopeless, struct model_hopeless, SD_HOPELESS)
#undef SINK

static int ins_quality(void *arg, const char *item, int64_t count, const char *detail)
{
	struct quality_row r = { .item = item, .count = count, .detail = detail };

	return put(arg, SD_QUALITY, &r);
}

void store_derived_defer(struct store_derived *d)
{
	d->deferred = true;
}

void store_derived_set_run(struct store_derived *d, int64_t run_id)
{
	d->run_id = run_id;
}

struct store_derived *store_derived_open(struct store *s, int64_t run_id)
{
	struct store_derived *d = vr_calloc(1, sizeof(*d));

	d->store = s;
	d->run_id = run_id;
	d->names = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	pthread_mutex_init(&d->lock, NULL);
	return d;
}

void store_derived_sink(struct store_derived *d, struct model_sink *sink)
{
	*sink = (struct model_sink){
		.stall = ins_stall, .kswapd_cycle = ins_cycle, .wakeup = ins_wakeup,
		.flag = ins_flag, .throttle = ins_throttle, .slab = ins_slab,
		.write = ins_write, .hopeless = ins_hopeless, .quality = ins_quality, .arg = d,
	};
}

void store_derived_close(struct store_derived *d)
{
	if (!d)
		return;
	for (int i = 0; i < SD_COUNT; i++)
		sqlite3_finalize(d->st[i]);
	g_hash_table_destroy(d->names);
	pthread_mutex_destroy(&d->lock);
	free(d->in.buf);
	free(d->out.buf);
	free(d);
}
