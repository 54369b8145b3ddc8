// SPDX-License-Identifier: GPL-2.0
/*
 * store-derived.c - insert the model's finished rows into the derived
 * tables (reclaim_stall, kswapd_cycle, kswapd_wakeup, pgdat_flag,
 * reclaim_throttle, slab_shrink_stored, reclaim_write, run_quality) of
 * the run being loaded, inside its open transaction, with prepared
 * statements and bound values.  MODEL_NULL values are stored as NULL.
 * (Shrinker calls that have an end are no rows here: the model pairs them
 * in the mm_shrink_slab_end events, which the slab_shrink view reads.)
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
#include <stdlib.h>
#include <string.h>

enum { SD_STALL, SD_CYCLE, SD_WAKEUP, SD_FLAG, SD_THROTTLE, SD_SLAB, SD_WRITE, SD_QUALITY,
       SD_COUNT };

static const char *const sd_sql[SD_COUNT] = {
	[SD_STALL] = "INSERT INTO reclaim_stall (run_id, kind, pid, nid, begin_ns, end_ns,"
		" duration_ns, \"order\", gfp_flags, nr_reclaimed, kswapd_state, complete,"
		" incomplete_reason) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[SD_CYCLE] = "INSERT INTO kswapd_cycle (run_id, nid, pid, wake_ns, \"order\","
		" highest_zoneidx, last_activity_ns, sleep_ns, next_wake_ns, decision,"
		" decision_exact, premature, nr_scanned, nr_reclaimed, complete, nap_ns)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
	[SD_WAKEUP] = "INSERT INTO kswapd_wakeup (run_id, ts_ns, pid, nid, zid, \"order\","
		" gfp_flags, kswapd_state, served_ns, delay_ns) VALUES (?,?,?,?,?,?,?,?,?,?)",
	[SD_FLAG] = "INSERT INTO pgdat_flag (run_id, nid, flag, set_ns, clear_ns, rule,"
		" evidence, inferred) VALUES (?,?,?,?,?,?,?,?)",
	[SD_THROTTLE] = "INSERT INTO reclaim_throttle (run_id, kind, pid, nid, reason,"
		" begin_ns, end_ns, usec_timeout, usec_delayed) VALUES (?,?,?,?,?,?,?,?,?)",
	[SD_SLAB] = "INSERT INTO slab_shrink_stored (run_id, pid, nid, shrinker, begin_ns, end_ns,"
		" duration_ns, nr_objects_to_shrink, total_scan, retval, complete)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?)",
	[SD_WRITE] = "INSERT INTO reclaim_write (run_id, ts_ns, pid, by_kswapd, pfn, file,"
		" sync) VALUES (?,?,?,?,?,?,?)",
	[SD_QUALITY] = "INSERT OR REPLACE INTO run_quality (run_id, item, count, detail)"
		" VALUES (?,?,?,?)",
};

/* A queued derived row (deferred mode). */
struct pending_row {
	int kind;	/* SD_* */
	union {
		struct model_stall stall;
		struct model_kswapd_cycle cycle;
		struct model_wakeup wakeup;
		struct model_flag flag;
		struct model_throttle throttle;
		struct model_slab slab;
		struct model_write write;
		struct { const char *item; int64_t count; const char *detail; } quality;
	} u;
};

/* Rows queued, in order. */
struct row_queue {
	struct pending_row *rows;
	size_t nrows, rows_cap;
};

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

/* Prepare statement @i if needed and bind run_id; NULL after an error. */
static sqlite3_stmt *stmt(struct store_derived *d, int i)
{
	sqlite3 *db = store_db(d->store);

	if (!d->st[i] && sqlite3_prepare_v3(db, sd_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
					    &d->st[i], NULL) != SQLITE_OK) {
		vr_error("%s: cannot prepare derived-row insert: %s", store_path(d->store),
			 sqlite3_errmsg(db));
		return NULL;
	}
	sqlite3_bind_int64(d->st[i], 1, d->run_id);
	return d->st[i];
}

static void bind_i64(sqlite3_stmt *st, int col, int64_t v)
{
	if (v == MODEL_NULL)
		sqlite3_bind_null(st, col);
	else
		sqlite3_bind_int64(st, col, v);
}

/* @s stays valid until step() below returns: no copy (SQLITE_STATIC). */
static void bind_text(sqlite3_stmt *st, int col, const char *s)
{
	if (s)
		sqlite3_bind_text(st, col, s, -1, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

static int step(struct store_derived *d, sqlite3_stmt *st, const char *table)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);	/* every column is bound again for the next row */
	if (rc != SQLITE_DONE)
		return vr_error("%s: cannot insert into %s: %s", store_path(d->store), table,
				sqlite3_errmsg(store_db(d->store)));
	return 0;
}

static int put_stall(void *arg, const struct model_stall *r)
{
	struct store_derived *d = arg;
	sqlite3_stmt *st = stmt(d, SD_STALL);

	if (!st)
		return -1;
	bind_text(st, 2, r->kind);
	sqlite3_bind_int(st, 3, r->pid);
	bind_i64(st, 4, r->nid);
	bind_i64(st, 5, r->begin_ns);
	bind_i64(st, 6, r->end_ns);
	bind_i64(st, 7, r->duration_ns);
	bind_i64(st, 8, r->order);
	bind_i64(st, 9, r->gfp_flags);
	bind_i64(st, 10, r->nr_reclaimed);
	bind_text(st, 11, r->kswapd_state);
	sqlite3_bind_int(st, 12, r->complete);
	bind_text(st, 13, r->incomplete_reason);
	return step(d, st, "reclaim_stall");
}

static int put_cycle(void *arg, const struct model_kswapd_cycle *r)
{
	struct store_derived *d = arg;
	sqlite3_stmt *st = stmt(d, SD_CYCLE);

	if (!st)
		return -1;
	sqlite3_bind_int(st, 2, r->nid);
	bind_i64(st, 3, r->pid);
	bind_i64(st, 4, r->wake_ns);
	bind_i64(st, 5, r->order);
	bind_i64(st, 6, r->highest_zoneidx);
	bind_i64(st, 7, r->last_activity_ns);
	bind_i64(st, 8, r->sleep_ns);
	bind_i64(st, 9, r->next_wake_ns);
	bind_text(st, 10, r->decision);
	sqlite3_bind_int(st, 11, r->decision_exact);
	sqlite3_bind_int(st, 12, r->premature);
	bind_i64(st, 13, r->nr_scanned);
	bind_i64(st, 14, r->nr_reclaimed);
	sqlite3_bind_int(st, 15, r->complete);
	bind_i64(st, 16, r->nap_ns);
	return step(d, st, "kswapd_cycle");
}

static int put_wakeup(void *arg, const struct model_wakeup *r)
{
	struct store_derived *d = arg;
	sqlite3_stmt *st = stmt(d, SD_WAKEUP);

	if (!st)
		return -1;
	bind_i64(st, 2, r->ts_ns);
	sqlite3_bind_int(st, 3, r->pid);
	sqlite3_bind_int(st, 4, r->nid);
	bind_i64(st, 5, r->zid);
	bind_i64(st, 6, r->order);
	bind_i64(st, 7, r->gfp_flags);
	bind_text(st, 8, r->kswapd_state);
	bind_i64(st, 9, r->served_ns);
	bind_i64(st, 10, r->delay_ns);
	return step(d, st, "kswapd_wakeup");
}

static int put_flag(void *arg, const struct model_flag *r)
{
	struct store_derived *d = arg;
	sqlite3_stmt *st = stmt(d, SD_FLAG);

	if (!st)
		return -1;
	sqlite3_bind_int(st, 2, r->nid);
	bind_text(st, 3, r->flag);
	bind_i64(st, 4, r->set_ns);
	bind_i64(st, 5, r->clear_ns);
	bind_text(st, 6, r->rule);
	bind_text(st, 7, r->evidence);
	sqlite3_bind_int(st, 8, r->inferred);
	return step(d, st, "pgdat_flag");
}

static int put_throttle(void *arg, const struct model_throttle *r)
{
	struct store_derived *d = arg;
	sqlite3_stmt *st = stmt(d, SD_THROTTLE);

	if (!st)
		return -1;
	bind_text(st, 2, r->kind);
	sqlite3_bind_int(st, 3, r->pid);
	bind_i64(st, 4, r->nid);
	bind_text(st, 5, r->reason);
	bind_i64(st, 6, r->begin_ns);
	bind_i64(st, 7, r->end_ns);
	bind_i64(st, 8, r->usec_timeout);
	bind_i64(st, 9, r->usec_delayed);
	return step(d, st, "reclaim_throttle");
}

static int put_slab(void *arg, const struct model_slab *r)
{
	struct store_derived *d = arg;
	sqlite3_stmt *st = stmt(d, SD_SLAB);

	if (!st)
		return -1;
	sqlite3_bind_int(st, 2, r->pid);
	bind_i64(st, 3, r->nid);
	bind_text(st, 4, r->shrinker);
	bind_i64(st, 5, r->begin_ns);
	bind_i64(st, 6, r->end_ns);
	bind_i64(st, 7, r->duration_ns);
	bind_i64(st, 8, r->nr_objects_to_shrink);
	bind_i64(st, 9, r->total_scan);
	bind_i64(st, 10, r->retval);
	sqlite3_bind_int(st, 11, r->complete);
	return step(d, st, "slab_shrink_stored");
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

static struct pending_row *queue_row(struct store_derived *d, int kind)
{
	struct row_queue *q = &d->in;

	if (q->nrows == q->rows_cap) {
		q->rows_cap = q->rows_cap ? 2 * q->rows_cap : 256;
		q->rows = vr_realloc(q->rows, q->rows_cap * sizeof(*q->rows));
	}
	q->rows[q->nrows].kind = kind;
	return &q->rows[q->nrows++];
}

/* Insert one queued row. */
static int put_row(struct store_derived *d, const struct pending_row *p);

/* Insert what is in @d->out, then empty it. */
static int insert_out(struct store_derived *d)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < d->out.nrows; i++)
		ret = put_row(d, &d->out.rows[i]);
	d->out.nrows = 0;
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

static int put_write(void *arg, const struct model_write *r)
{
	struct store_derived *d = arg;
	sqlite3_stmt *st = stmt(d, SD_WRITE);

	if (!st)
		return -1;
	bind_i64(st, 2, r->ts_ns);
	sqlite3_bind_int(st, 3, r->pid);
	sqlite3_bind_int(st, 4, r->by_kswapd);
	bind_i64(st, 5, r->pfn);
	sqlite3_bind_int(st, 6, r->file);
	sqlite3_bind_int(st, 7, r->sync);
	return step(d, st, "reclaim_write");
}

static int put_quality(void *arg, const char *item, int64_t count, const char *detail)
{
	struct store_derived *d = arg;
	sqlite3_stmt *st = stmt(d, SD_QUALITY);

	if (!st)
		return -1;
	bind_text(st, 2, item);
	sqlite3_bind_int64(st, 3, count);
	bind_text(st, 4, detail);
	return step(d, st, "run_quality");
}

static int put_row(struct store_derived *d, const struct pending_row *p)
{
	switch (p->kind) {
	case SD_STALL: return put_stall(d, &p->u.stall);
	case SD_CYCLE: return put_cycle(d, &p->u.cycle);
	case SD_WAKEUP: return put_wakeup(d, &p->u.wakeup);
	case SD_FLAG: return put_flag(d, &p->u.flag);
	case SD_THROTTLE: return put_throttle(d, &p->u.throttle);
	case SD_SLAB: return put_slab(d, &p->u.slab);
	case SD_WRITE: return put_write(d, &p->u.write);
	default:
		return put_quality(d, p->u.quality.item, p->u.quality.count,
				   p->u.quality.detail);
	}
}

/*
 * The model's sink callbacks: straight to SQLite, or in deferred mode into
 * the queue with their strings interned (a row's strings live only during
 * the call).
 */
#define DEFER(d, direct, fill)						\
	do {								\
		struct pending_row *p;					\
									\
		if (!(d)->deferred)					\
			return (direct);				\
		pthread_mutex_lock(&(d)->lock);				\
		fill;							\
		pthread_mutex_unlock(&(d)->lock);			\
		return 0;						\
	} while (0)

static int ins_stall(void *arg, const struct model_stall *r)
{
	struct store_derived *d = arg;

	DEFER(d, put_stall(d, r), {
		p = queue_row(d, SD_STALL);
		p->u.stall = *r;
		p->u.stall.kind = intern(d, r->kind);
		p->u.stall.kswapd_state = intern(d, r->kswapd_state);
		p->u.stall.incomplete_reason = intern(d, r->incomplete_reason);
	});
}

static int ins_cycle(void *arg, const struct model_kswapd_cycle *r)
{
	struct store_derived *d = arg;

	DEFER(d, put_cycle(d, r), {
		p = queue_row(d, SD_CYCLE);
		p->u.cycle = *r;
		p->u.cycle.decision = intern(d, r->decision);
	});
}

static int ins_wakeup(void *arg, const struct model_wakeup *r)
{
	struct store_derived *d = arg;

	DEFER(d, put_wakeup(d, r), {
		p = queue_row(d, SD_WAKEUP);
		p->u.wakeup = *r;
		p->u.wakeup.kswapd_state = intern(d, r->kswapd_state);
	});
}

static int ins_flag(void *arg, const struct model_flag *r)
{
	struct store_derived *d = arg;

	DEFER(d, put_flag(d, r), {
		p = queue_row(d, SD_FLAG);
		p->u.flag = *r;
		p->u.flag.flag = intern(d, r->flag);
		p->u.flag.rule = intern(d, r->rule);
		p->u.flag.evidence = intern(d, r->evidence);
	});
}

static int ins_throttle(void *arg, const struct model_throttle *r)
{
	struct store_derived *d = arg;

	DEFER(d, put_throttle(d, r), {
		p = queue_row(d, SD_THROTTLE);
		p->u.throttle = *r;
		p->u.throttle.kind = intern(d, r->kind);
		p->u.throttle.reason = intern(d, r->reason);
	});
}

static int ins_slab(void *arg, const struct model_slab *r)
{
	struct store_derived *d = arg;

	DEFER(d, put_slab(d, r), {
		p = queue_row(d, SD_SLAB);
		p->u.slab = *r;
		p->u.slab.shrinker = intern(d, r->shrinker);
	});
}

static int ins_write(void *arg, const struct model_write *r)
{
	struct store_derived *d = arg;

	DEFER(d, put_write(d, r), {
		p = queue_row(d, SD_WRITE);
		p->u.write = *r;
	});
}

static int ins_quality(void *arg, const char *item, int64_t count, const char *detail)
{
	struct store_derived *d = arg;

	DEFER(d, put_quality(d, item, count, detail), {
		p = queue_row(d, SD_QUALITY);
		p->u.quality.item = intern(d, item);
		p->u.quality.count = count;
		p->u.quality.detail = intern(d, detail);
	});
}

#undef DEFER

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
	free(d->in.rows);
	free(d->out.rows);
	free(d);
}
