// SPDX-License-Identifier: GPL-2.0
/*
 * store-derived.c - insert the model's finished rows into the derived
 * tables (reclaim_stall, kswapd_cycle, kswapd_wakeup, pgdat_flag,
 * reclaim_throttle, slab_shrink, reclaim_write, run_quality) of the run
 * being loaded, inside its open transaction, with prepared statements and
 * bound values.  MODEL_NULL values are stored as NULL.  slab_shrink rows,
 * one per shrinker call and often a third of a load's rows, are buffered
 * and go in SLAB_BUFFER at a time through vr_rows (store-bulk.c).
 */
#include "model.h"
#include "store.h"
#include "store-priv.h"
#include "vr.h"

#include <glib.h>
#include <stdlib.h>

enum { SLAB_BUFFER = 4096 };

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
	[SD_SLAB] = "INSERT INTO slab_shrink (run_id, pid, nid, shrinker, begin_ns, end_ns,"
		" duration_ns, nr_objects_to_shrink, total_scan, retval, complete)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?)",
	[SD_WRITE] = "INSERT INTO reclaim_write (run_id, ts_ns, pid, by_kswapd, pfn, file,"
		" sync) VALUES (?,?,?,?,?,?,?)",
	[SD_QUALITY] = "INSERT OR REPLACE INTO run_quality (run_id, item, count, detail)"
		" VALUES (?,?,?,?)",
};

struct store_derived {
	struct store *store;
	int64_t run_id;
	sqlite3_stmt *st[SD_COUNT];	/* prepared on first use */
	struct model_slab slab[SLAB_BUFFER];	/* shrinker names interned */
	int nslab;
	sqlite3_stmt *slab_st;		/* INSERT INTO slab_shrink ... FROM vr_rows */
	GHashTable *names;		/* interned shrinker names (owned) */
};

static const char slab_bulk_sql[] =
	"INSERT INTO slab_shrink (run_id, pid, nid, shrinker, begin_ns, end_ns, duration_ns,"
	" nr_objects_to_shrink, total_scan, retval, complete)"
	" SELECT c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 FROM vr_rows";

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

static int ins_stall(void *arg, const struct model_stall *r)
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

static int ins_cycle(void *arg, const struct model_kswapd_cycle *r)
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

static int ins_wakeup(void *arg, const struct model_wakeup *r)
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

static int ins_flag(void *arg, const struct model_flag *r)
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

static int ins_throttle(void *arg, const struct model_throttle *r)
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

static void result_i64(sqlite3_context *ctx, int64_t v)
{
	if (v == MODEL_NULL)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, v);
}

/* Column @col of buffered slab row @row (the c0.. of slab_bulk_sql). */
static void slab_column(const void *src, int row, int col, sqlite3_context *ctx)
{
	const struct store_derived *d = src;
	const struct model_slab *r = &d->slab[row];

	switch (col) {
	case 0: sqlite3_result_int64(ctx, d->run_id); break;
	case 1: sqlite3_result_int(ctx, r->pid); break;
	case 2: result_i64(ctx, r->nid); break;
	case 3:
		if (r->shrinker)
			sqlite3_result_text(ctx, r->shrinker, -1, SQLITE_STATIC);
		else
			sqlite3_result_null(ctx);
		break;
	case 4: result_i64(ctx, r->begin_ns); break;
	case 5: result_i64(ctx, r->end_ns); break;
	case 6: result_i64(ctx, r->duration_ns); break;
	case 7: result_i64(ctx, r->nr_objects_to_shrink); break;
	case 8: result_i64(ctx, r->total_scan); break;
	case 9: result_i64(ctx, r->retval); break;
	default: sqlite3_result_int(ctx, r->complete);
	}
}

int store_derived_flush(struct store_derived *d)
{
	sqlite3 *db = store_db(d->store);
	int n = d->nslab;

	if (!n)
		return 0;
	d->nslab = 0;
	if (!d->slab_st && sqlite3_prepare_v3(db, slab_bulk_sql, -1, SQLITE_PREPARE_PERSISTENT,
					      &d->slab_st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot prepare the slab_shrink insert: %s",
				store_path(d->store), sqlite3_errmsg(db));
	if (store_rows_run(store_bulk(d->store), d->slab_st, n, slab_column, d) != SQLITE_DONE)
		return vr_error("%s: cannot insert slab_shrink rows: %s", store_path(d->store),
				sqlite3_errmsg(db));
	return 0;
}

/* A copy of @name that lives as long as @d (shrinker names are few). */
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

static int ins_slab(void *arg, const struct model_slab *r)
{
	struct store_derived *d = arg;

	if (d->nslab == SLAB_BUFFER && store_derived_flush(d))
		return -1;
	d->slab[d->nslab] = *r;
	d->slab[d->nslab++].shrinker = intern(d, r->shrinker);
	return 0;
}

static int ins_write(void *arg, const struct model_write *r)
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

static int ins_quality(void *arg, const char *item, int64_t count, const char *detail)
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

struct store_derived *store_derived_open(struct store *s, int64_t run_id)
{
	struct store_derived *d = vr_calloc(1, sizeof(*d));

	d->store = s;
	d->run_id = run_id;
	d->names = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
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
	sqlite3_finalize(d->slab_st);
	g_hash_table_destroy(d->names);
	free(d);
}
