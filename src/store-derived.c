// SPDX-License-Identifier: GPL-2.0
/*
 * store-derived.c - the derived tables (reclaim_stall, kswapd_cycle,
 * kswapd_wakeup, pgdat_flag, reclaim_throttle, slab_shrink_stored,
 * reclaim_write, run_quality): their column tables, the schema made from
 * them, and the insertion of the model's finished rows into the run being
 * loaded, inside its open transaction, with prepared statements and bound
 * values.  MODEL_NULL values are stored as NULL.  (Shrinker calls that have
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

enum { SD_STALL, SD_CYCLE, SD_WAKEUP, SD_FLAG, SD_THROTTLE, SD_SLAB, SD_WRITE, SD_QUALITY,
       SD_COUNT };

/* A run_quality row (the sink passes its three values as arguments). */
struct quality_row {
	const char *item;
	int64_t count;
	const char *detail;
};

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
	S(complete, NOT_NULL), S(incomplete_reason, NULLABLE),
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

/* Column name @name, in double quotes if it is an SQL keyword ("order"). */
static void add_name(struct vr_buf *b, const char *name)
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
		add_name(b, c->name);
		vr_buf_addf(b, " %s%s", store_sql_type(c->ctype), c->nullable ? "" : " NOT NULL");
		if (c->dflt)
			vr_buf_addf(b, " DEFAULT %s", c->dflt);
	}
	if (t->constraint)
		vr_buf_addf(b, ", %s", t->constraint);
	vr_buf_addstr(b, ");");
}

int store_derived_create(struct store *s)
{
	struct vr_buf b;
	int ret;

	vr_buf_init(&b);
	for (int t = 0; t < SD_COUNT; t++)
		table_sql(&b, &store_derived_tables[t]);
	ret = store_exec(s, b.buf, "cannot create schema");
	vr_buf_release(&b);
	return ret;
}

/* INSERT of one row of @t, run_id first (caller frees). */
static char *insert_sql(const struct store_derived_table *t)
{
	struct vr_buf b;

	vr_buf_init(&b);
	vr_buf_addf(&b, "INSERT%s INTO %s (run_id", t->replace ? " OR REPLACE" : "", t->name);
	for (int i = 0; i < t->ncols; i++) {
		vr_buf_addstr(&b, ", ");
		add_name(&b, t->cols[i].name);
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
		.write = ins_write, .quality = ins_quality, .arg = d,
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
