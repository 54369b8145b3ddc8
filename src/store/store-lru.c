// SPDX-License-Identifier: GPL-2.0
/*
 * store-lru.c - the LRU list calls of a load (schema version 5): an
 * mm_vmscan_lru_isolate and the mm_vmscan_lru_shrink_inactive or
 * mm_vmscan_lru_shrink_active of the same task that follows it share a row
 * of lru_call.  mm/vmscan.c shrink_inactive_list() and shrink_active_list()
 * (4.4-6.18) call isolate_lru_folios() (isolate_lru_pages() before 5.19),
 * which traces the isolate, and end with the shrink event; multi-gen LRU's
 * evict_folios() (6.1+) isolates once and traces a shrink per pass.  The
 * three event tables of version 4 are views over lru_call with the same
 * columns and values, each in the order its events were stored.
 *
 * Storage (README "Event tables"): id, run_id, pid; ts_ns, cpu and the
 * isolate's fields (ts_ns and cpu NULL: no isolate in the row);
 * shrink_offset_ns (the shrink's time less the isolate's, or without an
 * isolate the shrink's own time; NULL: no shrink), shrink_cpu (NULL: the
 * isolate's cpu) and the shrink's fields, shrink_ before a name the
 * isolate has (nr_scanned); shrink_active 1 for an
 * mm_vmscan_lru_shrink_active, whose fields are in the inactive's columns
 * (add_active_fields()); since version 6 a shrink's count that repeats
 * its isolate's is NULL (echo_fields, shrink_echo()).  What a recent
 * kernel leaves NULL in every row is
 * in lru_call_more (call_id = id, run_id; a row only where one is not):
 * the isolate's classzone_idx (4.8-5.7) and file (<= 4.10), the shrink's
 * zid (< 4.8) and nr_activate (4.11-5.1), mglru_retry (a retry pass) and
 * the extras.  A column costs a byte of a row's header even when NULL; a
 * merged row saves a row's header, rowid, run_id, pid and most of a time.
 *
 * Order: a view's rows come in lru_call's id order, so a row takes a
 * shrink only when no row after it holds a shrink yet (barrier): then both
 * views keep the order the events were stored in.  Otherwise the shrink is
 * a row of its own (a task's shrink that comes after another task's
 * isolate and shrink that both came after its isolate).
 */
#include "store-callrows.h"
#include "store-priv.h"
#include "vr.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The three events, in the layout's order. */
enum { LK_ISOLATE, LK_INACTIVE, LK_ACTIVE, LK_COUNT };
static const char *const lru_events[LK_COUNT] = {
	"mm_vmscan_lru_isolate", "mm_vmscan_lru_shrink_inactive", "mm_vmscan_lru_shrink_active",
};

/* Fields a recent kernel's event never has (spec.c), kept in lru_call_more. */
static const char *const rare_fields[][2] = {
	{ "mm_vmscan_lru_isolate", "classzone_idx" },		/* 4.8-5.7 */
	{ "mm_vmscan_lru_isolate", "file" },			/* <= 4.10 */
	{ "mm_vmscan_lru_shrink_inactive", "zid" },		/* < 4.8 */
	{ "mm_vmscan_lru_shrink_inactive", "nr_activate" },	/* 4.11-5.1 */
	{ "mm_vmscan_lru_shrink_inactive", "mglru_retry" },	/* a retry pass */
};

/*
 * A shrink's field that repeats one of the isolate before it (shrink,
 * isolate): shrink_inactive_list() traces the nr_scanned that
 * isolate_lru_folios() traced as its nr_scanned, and shrink_active_list()
 * the nr_taken it traced as its nr_taken (mm/vmscan.c, 4.4-6.18).  In a
 * row with both, the shrink's is stored only when it differs (NULL: the
 * isolate's; <column>_null 1 in lru_call_more: the shrink had none).
 */
static const char *const echo_fields[LK_COUNT][2] = {
	[LK_INACTIVE] = { "nr_scanned", "nr_scanned" },
	[LK_ACTIVE] = { "nr_taken", "nr_taken" },
};

enum lru_col_kind {
	LC_ID, LC_RUN, LC_PID, LC_TS, LC_CPU, LC_EXTRA,
	LC_OFFSET, LC_SHRINK_CPU, LC_SHRINK_EXTRA, LC_ACTIVE, LC_NULL_FLAG, LC_FIELD,
};

#define LRU_MAX_COLS 48
_Static_assert(LRU_MAX_COLS <= CALLROWS_MAX_COLS, "a row is a struct callrow");

struct lru_col {
	char name[48];
	enum lru_col_kind kind;
	bool more;		/* a column of lru_call_more */
	int null_flag;		/* an echo's <name>_null column; -1: none */
};

struct lru_layout {
	int spec[LK_COUNT];
	struct lru_col col[LRU_MAX_COLS];
	int ncols;
	int kcol[LC_FIELD];			/* the column of each kind */
	int fcol[LK_COUNT][VR_SPEC_MAX_FIELDS];	/* of each field; -1: none */
	/* each shrink's echo field (echo_fields) and the isolate's column it
	 * repeats; -1: none */
	int echo_field[LK_COUNT], echo_src[LK_COUNT];
};

static bool rare_field(int k, const char *name)
{
	for (size_t i = 0; i < VR_ARRAY_SIZE(rare_fields); i++)
		if (!strcmp(rare_fields[i][0], lru_events[k]) && !strcmp(rare_fields[i][1], name))
			return true;
	return false;
}

/* The column of @l named @name (-1: none). */
static int col_named(const struct lru_layout *l, const char *name)
{
	for (int c = 0; c < l->ncols; c++)
		if (!strcmp(l->col[c].name, name))
			return c;
	return -1;
}

static int add_col(struct lru_layout *l, enum lru_col_kind kind, const char *name, bool more)
{
	struct lru_col *c = &l->col[l->ncols];

	snprintf(c->name, sizeof(c->name), "%s", name);
	c->kind = kind;
	c->more = more;
	c->null_flag = -1;
	if (kind != LC_FIELD && kind != LC_NULL_FLAG)
		l->kcol[kind] = l->ncols;
	return l->ncols++;
}

/* Is @column a field of the isolate? */
static bool isolate_has(const struct lru_layout *l, const char *column)
{
	for (int f = 0; f < spec_nfields(l->spec[LK_ISOLATE]); f++)
		if (!strcmp(spec_column(l->spec[LK_ISOLATE], f), column))
			return true;
	return false;
}

/* The fields of the isolate or the inactive shrink (@k): a column each,
 * shrink_ before a name the isolate has. */
static void add_fields(struct lru_layout *l, int k)
{
	char name[48];

	for (int f = 0; f < spec_nfields(l->spec[k]); f++) {
		const char *c = spec_column(l->spec[k], f);

		snprintf(name, sizeof(name), "%s%s",
			 k != LK_ISOLATE && isolate_has(l, c) ? "shrink_" : "", c);
		l->fcol[k][f] = add_col(l, LC_FIELD, name, rare_field(k, c));
	}
}

/* Is column @c of @l the inactive shrink's, in lru_call, and taken by no
 * field of the active shrink yet? */
static bool inactive_free(const struct lru_layout *l, int c)
{
	bool inactive = false;

	for (int f = 0; f < spec_nfields(l->spec[LK_INACTIVE]); f++)
		inactive |= l->fcol[LK_INACTIVE][f] == c;
	for (int f = 0; f < spec_nfields(l->spec[LK_ACTIVE]); f++)
		if (l->fcol[LK_ACTIVE][f] == c)
			return false;
	return inactive && !l->col[c].more;
}

/*
 * The fields of the active shrink, which has a row's shrink columns to
 * itself (shrink_active 1): the inactive's column of the same name (nid,
 * priority, reclaim_flags), else the next of the inactive's columns of
 * lru_call that no field of the active has taken, in order (nr_taken,
 * nr_active, nr_deactivated, nr_referenced in shrink_nr_scanned,
 * nr_reclaimed, nr_dirty, nr_writeback), else a column of its own in
 * lru_call_more.  Columns of their own in lru_call would be a NULL header
 * byte in every other row; in lru_call_more, a second row for each of a
 * 6.1 kernel's active list scans (a third of its calls in samples/lab).
 */
static void add_active_fields(struct lru_layout *l)
{
	char name[48];
	int next = 0;

	for (int f = 0; f < spec_nfields(l->spec[LK_ACTIVE]); f++) {
		const char *c = spec_column(l->spec[LK_ACTIVE], f);
		int shared;

		snprintf(name, sizeof(name), "%s%s", isolate_has(l, c) ? "shrink_" : "", c);
		shared = col_named(l, name);
		if (shared >= 0 && inactive_free(l, shared))
			l->fcol[LK_ACTIVE][f] = shared;
	}
	for (int f = 0; f < spec_nfields(l->spec[LK_ACTIVE]); f++) {
		if (l->fcol[LK_ACTIVE][f] >= 0)
			continue;
		while (next < l->ncols && !inactive_free(l, next))
			next++;
		if (next < l->ncols) {
			l->fcol[LK_ACTIVE][f] = next;
			continue;
		}
		snprintf(name, sizeof(name), "active_%s", spec_column(l->spec[LK_ACTIVE], f));
		l->fcol[LK_ACTIVE][f] = add_col(l, LC_FIELD, name, true);
	}
}

/* The index of field @name of spec @spec; -1: none. */
static int field_named(int spec, const char *name)
{
	for (int f = 0; f < spec_nfields(spec); f++)
		if (!strcmp(spec_column(spec, f), name))
			return f;
	return -1;
}

/* The echo fields of the two shrinks (echo_fields), each shrink column
 * that holds one with a <column>_null flag in lru_call_more. */
static void add_echoes(struct lru_layout *l)
{
	char name[48];

	for (int k = 0; k < LK_COUNT; k++) {
		int f = -1, src = -1, c;

		l->echo_field[k] = l->echo_src[k] = -1;
		if (k == LK_ISOLATE)
			continue;
		f = field_named(l->spec[k], echo_fields[k][0]);
		src = field_named(l->spec[LK_ISOLATE], echo_fields[k][1]);
		if (f < 0 || src < 0 || l->fcol[k][f] < 0 || l->fcol[LK_ISOLATE][src] < 0)
			continue;
		l->echo_field[k] = f;
		l->echo_src[k] = l->fcol[LK_ISOLATE][src];
		c = l->fcol[k][f];
		if (l->col[c].null_flag < 0) {
			snprintf(name, sizeof(name), "%.42s_null", l->col[c].name);
			l->col[c].null_flag = add_col(l, LC_NULL_FLAG, name, true);
		}
	}
}

/* The columns of lru_call and lru_call_more, from the events' specs
 * (spec.c), so that a field added there is a column here; -1 if a spec is
 * missing. */
static int lru_layout(struct lru_layout *l)
{
	memset(l, 0, sizeof(*l));
	for (int k = 0; k < LK_COUNT; k++) {
		if ((l->spec[k] = spec_find("vmscan", lru_events[k])) < 0)
			return -1;
		for (int f = 0; f < VR_SPEC_MAX_FIELDS; f++)
			l->fcol[k][f] = -1;
	}
	add_col(l, LC_ID, "id", false);
	add_col(l, LC_RUN, "run_id", false);
	add_col(l, LC_PID, "pid", false);
	add_col(l, LC_TS, "ts_ns", false);
	add_col(l, LC_CPU, "cpu", false);
	add_fields(l, LK_ISOLATE);
	add_col(l, LC_EXTRA, "extra", true);
	add_col(l, LC_OFFSET, "shrink_offset_ns", false);
	add_col(l, LC_SHRINK_CPU, "shrink_cpu", false);
	add_fields(l, LK_INACTIVE);
	add_col(l, LC_ACTIVE, "shrink_active", false);
	add_col(l, LC_SHRINK_EXTRA, "shrink_extra", true);
	add_active_fields(l);
	add_echoes(l);
	return 0;
}

bool store_lru_spec(int spec)
{
	static int specs[LK_COUNT] = { -2, -2, -2 };

	if (specs[0] == -2)
		for (int k = 0; k < LK_COUNT; k++)
			specs[k] = spec_find("vmscan", lru_events[k]);
	return spec >= 0 && (spec == specs[0] || spec == specs[1] || spec == specs[2]);
}

/* ---- the schema ---------------------------------------------------------- */

/* The value of column @c in a view: c."name" or m."name". */
static void view_col(struct vr_buf *b, const struct lru_layout *l, int c)
{
	vr_buf_addf(b, "%s.\"%s\"", l->col[c].more ? "m" : "c", l->col[c].name);
}

/*
 * The SELECT of event @k's view: the columns of its version 4 table
 * (spec_table_sql() in store.c: run_id, ts_ns, cpu, pid, the decoded
 * fields, extra, the model's fields) from the rows that hold one; no ';'.
 */
static void view_select(struct vr_buf *b, const struct lru_layout *l, int k)
{
	int spec = l->spec[k];

	vr_buf_addstr(b, "SELECT c.run_id AS run_id, ");
	vr_buf_addstr(b, k == LK_ISOLATE ? "c.ts_ns AS ts_ns, c.cpu AS cpu" :
			 "CASE WHEN c.ts_ns IS NULL THEN c.shrink_offset_ns ELSE c.ts_ns +"
			 " c.shrink_offset_ns END AS ts_ns, coalesce(c.shrink_cpu, c.cpu) AS cpu");
	vr_buf_addstr(b, ", c.pid AS pid");
	for (int pass = 0; pass < 2; pass++) {	/* decoded fields, then the model's */
		for (int f = 0; f < spec_nfields(spec); f++) {
			if ((spec_decoded(spec, f) == 0) != pass)
				continue;
			vr_buf_addstr(b, ", ");
			if (f == l->echo_field[k]) {
				int c = l->fcol[k][f];

				vr_buf_addf(b, "CASE WHEN m.\"%s\" IS NULL THEN coalesce(",
					    l->col[l->col[c].null_flag].name);
				view_col(b, l, c);
				vr_buf_addstr(b, ", ");
				view_col(b, l, l->echo_src[k]);
				vr_buf_addstr(b, ") END");
			} else {
				view_col(b, l, l->fcol[k][f]);
			}
			vr_buf_addf(b, " AS \"%s\"", spec_column(spec, f));
		}
		if (!pass)
			vr_buf_addf(b, ", m.\"%s\" AS extra",
				    k == LK_ISOLATE ? "extra" : "shrink_extra");
	}
	vr_buf_addstr(b, " FROM lru_call c LEFT JOIN lru_call_more m ON m.call_id = c.id WHERE ");
	vr_buf_addstr(b, k == LK_ISOLATE ? "c.ts_ns IS NOT NULL" :
			 k == LK_INACTIVE ? "c.shrink_offset_ns IS NOT NULL AND c.shrink_active IS NULL" :
			 "c.shrink_active IS NOT NULL");
}

/* CREATE VIEW of event @k (view_select()). */
static void view_sql(struct vr_buf *b, const struct lru_layout *l, int k)
{
	vr_buf_addf(b, "CREATE VIEW IF NOT EXISTS \"%s\" AS ", lru_events[k]);
	view_select(b, l, k);
	vr_buf_addstr(b, ";");
}

char *store_lru_schema_sql(bool views)
{
	struct lru_layout l;
	struct vr_buf b;

	if (lru_layout(&l))
		return vr_strdup("");
	vr_buf_init(&b);
	if (views) {
		for (int k = 0; k < LK_COUNT; k++)
			view_sql(&b, &l, k);
		return vr_buf_detach(&b);
	}
	for (int more = 0; more < 2; more++) {
		vr_buf_addstr(&b, more ? "CREATE TABLE IF NOT EXISTS lru_call_more (call_id INTEGER"
				       " PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES run(id)"
				     : "CREATE TABLE IF NOT EXISTS lru_call (id INTEGER PRIMARY KEY,"
				       " run_id INTEGER NOT NULL REFERENCES run(id), pid INTEGER NOT NULL");
		for (int c = 0; c < l.ncols; c++) {
			const struct lru_col *lc = &l.col[c];

			if (lc->more != more || lc->kind == LC_ID || lc->kind == LC_RUN ||
			    lc->kind == LC_PID)
				continue;
			vr_buf_addf(&b, ", \"%s\" %s", lc->name,
				    lc->kind == LC_EXTRA || lc->kind == LC_SHRINK_EXTRA ? "TEXT" :
				    "INTEGER");
		}
		vr_buf_addstr(&b, ");");
	}
	return vr_buf_detach(&b);
}

/* ---- writing the rows of a load ---------------------------------------- */

/* Rows waiting to be written by one INSERT ... SELECT (store-bulk.c). */
#define LRU_BATCH_ROWS 4096

/* Rows after the barrier at most (isolates that may still take their
 * shrink): a task's shrink is looked for among them, from the last. */
#define LRU_OPEN_ROWS 256

struct store_lru {
	sqlite3 *db;
	char *path;
	struct store_bulk *bulk;
	struct lru_layout l;
	struct callrows cr;	/* rows not yet written, in id order */
	int barrier;		/* rows[0..barrier] take no shrink any more */
	int64_t run_id;		/* of the rows */
	bool tracking;		/* ids of run track_run kept (store_lru_track()) */
	int64_t track_run;
	int64_t first_id, last_id;	/* of its rows written since; first > last: none */
};

/* The columns of the layout as the inserts of lru_call and lru_call_more
 * see them (callrows_plan()). */
static void plan_rows(struct store_lru *w)
{
	struct callrows *cr = &w->cr;

	callrows_init(cr, w->db, w->path, w->bulk, "lru_call", "lru_call_more", "LRU calls",
		      LRU_BATCH_ROWS);
	for (int c = 0; c < w->l.ncols; c++) {
		const struct lru_col *lc = &w->l.col[c];

		cr->col[c] = (struct callrows_col){
			.name = lc->name, .more = lc->more, .marks_more = lc->more,
			.extra = lc->kind == LC_EXTRA ? 0 : lc->kind == LC_SHRINK_EXTRA ? 1 : -1,
		};
	}
	cr->ncols = w->l.ncols;
	cr->id_col = w->l.kcol[LC_ID];
	cr->run_col = w->l.kcol[LC_RUN];
	callrows_plan(cr);
}

struct store_lru *store_lru_new(sqlite3 *db, const char *path, struct store_bulk *bulk)
{
	struct store_lru *w = vr_calloc(1, sizeof(*w));

	w->db = db;
	w->bulk = bulk;
	w->path = vr_strdup(path);
	if (lru_layout(&w->l)) {
		vr_error("%s: the LRU events are not in the event table", path);
		free(w->path);
		free(w);
		return NULL;
	}
	plan_rows(w);
	w->barrier = -1;
	return w;
}

void store_lru_reset(struct store_lru *w)
{
	callrows_drop(&w->cr);
	w->barrier = -1;
	w->tracking = false;
}

void store_lru_track(struct store_lru *w, int64_t run_id)
{
	w->tracking = true;
	w->track_run = run_id;
	w->first_id = 1;
	w->last_id = 0;
}

/* Rows @first_id.. of lru_call were rows[0..@n) just now: the tracked
 * run's ids among them. */
static void track_ids(struct store_lru *w, int64_t first_id, int n)
{
	int rcol = w->l.kcol[LC_RUN];

	for (int i = 0; w->tracking && i < n; i++) {
		if (w->cr.rows[i].v[rcol] != w->track_run)
			continue;
		if (w->first_id > w->last_id)
			w->first_id = first_id + i;
		w->last_id = first_id + i;
	}
}

char *store_lru_run_select(const struct store_lru *w, int64_t run_id, const char *event)
{
	struct vr_buf b;
	int k;

	for (k = 0; k < LK_COUNT && strcmp(lru_events[k], event); k++)
		;
	if (!w || !w->tracking || w->track_run != run_id || w->cr.nrows || k == LK_COUNT)
		return NULL;
	vr_buf_init(&b);
	vr_buf_addstr(&b, "(");
	view_select(&b, &w->l, k);
	vr_buf_addf(&b, " AND c.id BETWEEN %lld AND %lld)", (long long)w->first_id,
		    (long long)w->last_id);
	return vr_buf_detach(&b);
}

void store_lru_free(struct store_lru *w)
{
	if (!w)
		return;
	store_lru_reset(w);
	callrows_fini(&w->cr);
	free(w->path);
	free(w);
}

/* Insert the first @n rows waiting, and their lru_call_more rows; the rest
 * move to the front.  0 or -1 after a message. */
static int write_rows(struct store_lru *w, int n)
{
	int64_t first_id;
	int rc;

	if (n <= 0)
		return 0;
	rc = callrows_insert(&w->cr, n, &first_id);
	if (!rc)
		track_ids(w, first_id, n);
	callrows_shift(&w->cr, n);
	w->barrier = w->barrier >= n ? w->barrier - n : -1;
	return rc;
}

/*
 * Room for one more row: when the queue is full, write the rows up to the
 * barrier (no shrink can join them), or every row when those are less
 * than half (isolates whose shrink never came: each stays alone).
 */
static int make_room(struct store_lru *w)
{
	int n;

	if (w->cr.nrows < LRU_BATCH_ROWS)
		return 0;
	n = w->barrier + 1 >= LRU_BATCH_ROWS / 2 ? w->barrier + 1 : w->cr.nrows;
	return write_rows(w, n);
}

/* A new row at the end of the queue, of run @run_id and task @pid. */
static struct callrow *new_row(struct store_lru *w, int64_t run_id, int pid)
{
	struct callrow *r = &w->cr.rows[w->cr.nrows++];

	callrow_begin(r);
	callrow_set(&w->cr, r, w->l.kcol[LC_RUN], run_id);
	callrow_set(&w->cr, r, w->l.kcol[LC_PID], pid);
	return r;
}

/* The fields of @ev (event @k of the layout) into @r. */
static void set_fields(struct store_lru *w, struct callrow *r, int k, const struct ingest_event *ev)
{
	for (uint32_t p = ev->present; p; p &= p - 1) {
		int f = __builtin_ctz(p);

		if (f < VR_SPEC_MAX_FIELDS && w->l.fcol[k][f] >= 0)
			callrow_set(&w->cr, r, w->l.fcol[k][f], ev->val[f]);
	}
}

/* The open row (after the barrier) of @pid's last isolate; -1: none. */
static int open_isolate(const struct store_lru *w, int pid)
{
	int pcol = w->l.kcol[LC_PID];

	for (int i = w->cr.nrows - 1; i > w->barrier; i--)
		if (w->cr.rows[i].v[pcol] == pid)
			return i;
	return -1;
}

/*
 * The echo field of shrink @k, just set in @r after its isolate's
 * (echo_fields): left out when the same as the isolate's, flagged
 * <column>_null when the shrink had none and the isolate one.
 */
static void shrink_echo(struct store_lru *w, struct callrow *r, int k)
{
	const struct lru_layout *l = &w->l;
	int f = l->echo_field[k], c, src;
	bool have, have_src;

	if (f < 0)
		return;
	c = l->fcol[k][f];
	src = l->echo_src[k];
	have = r->have & (1ull << c);
	have_src = r->have & (1ull << src);
	if (have && have_src && r->v[c] == r->v[src])
		r->have &= ~(1ull << c);
	else if (!have && have_src)
		callrow_set(&w->cr, r, l->col[c].null_flag, 1);
}

int store_lru_event(struct store_lru *w, int64_t run_id, const struct ingest_event *ev)
{
	const struct lru_layout *l = &w->l;
	int k = ev->spec == l->spec[LK_ISOLATE] ? LK_ISOLATE :
		ev->spec == l->spec[LK_INACTIVE] ? LK_INACTIVE : LK_ACTIVE;
	struct callrow *r;
	bool merged;
	int i;

	if (w->cr.nrows && run_id != w->run_id)	/* rows of one run each */
		w->barrier = w->cr.nrows - 1;
	w->run_id = run_id;
	if (k == LK_ISOLATE) {
		if (make_room(w))
			return -1;
		r = new_row(w, run_id, ev->pid);
		callrow_set(&w->cr, r, l->kcol[LC_TS], (int64_t)ev->ts_ns);
		callrow_set(&w->cr, r, l->kcol[LC_CPU], ev->cpu);
		set_fields(w, r, k, ev);
		if (ev->extra_json) {
			r->extra[0] = vr_strdup(ev->extra_json);
			r->more = true;
		}
		if (w->cr.nrows - 1 - w->barrier > LRU_OPEN_ROWS)
			w->barrier = w->cr.nrows - 1 - LRU_OPEN_ROWS;
		return 0;
	}
	i = open_isolate(w, ev->pid);
	merged = i >= 0;
	if (merged) {
		r = &w->cr.rows[i];
		callrow_set(&w->cr, r, l->kcol[LC_OFFSET], (int64_t)ev->ts_ns - r->v[l->kcol[LC_TS]]);
		if (ev->cpu != r->v[l->kcol[LC_CPU]])
			callrow_set(&w->cr, r, l->kcol[LC_SHRINK_CPU], ev->cpu);
	} else {
		if (make_room(w))
			return -1;
		i = w->cr.nrows;
		r = new_row(w, run_id, ev->pid);
		callrow_set(&w->cr, r, l->kcol[LC_OFFSET], (int64_t)ev->ts_ns);
		callrow_set(&w->cr, r, l->kcol[LC_SHRINK_CPU], ev->cpu);
	}
	set_fields(w, r, k, ev);
	if (merged)
		shrink_echo(w, r, k);
	if (k == LK_ACTIVE)
		callrow_set(&w->cr, r, l->kcol[LC_ACTIVE], 1);
	if (ev->extra_json) {
		r->extra[1] = vr_strdup(ev->extra_json);
		r->more = true;
	}
	w->barrier = i;
	return 0;
}

int store_lru_flush(struct store_lru *w)
{
	int rc = write_rows(w, w->cr.nrows);

	w->barrier = -1;
	return rc;
}

/* ---- upgrading a version 5 database, in place ---------------------------- */

/* The isolate's value that column @c of a shrink repeats (echo_fields):
 * by the row's kind of shrink; NULL for a kind whose echo is elsewhere. */
static void echo_src_sql(struct vr_buf *b, const struct lru_layout *l, int c)
{
	int k_act = l->echo_field[LK_ACTIVE], k_in = l->echo_field[LK_INACTIVE];

	vr_buf_addstr(b, "CASE WHEN c.shrink_active IS NOT NULL THEN ");
	if (k_act >= 0 && l->fcol[LK_ACTIVE][k_act] == c)
		vr_buf_addf(b, "c.\"%s\"", l->col[l->echo_src[LK_ACTIVE]].name);
	else
		vr_buf_addstr(b, "NULL");
	vr_buf_addstr(b, " ELSE ");
	if (k_in >= 0 && l->fcol[LK_INACTIVE][k_in] == c)
		vr_buf_addf(b, "c.\"%s\"", l->col[l->echo_src[LK_INACTIVE]].name);
	else
		vr_buf_addstr(b, "NULL");
	vr_buf_addstr(b, " END");
}

char *store_lru_upgrade_v5_sql(void)
{
	struct lru_layout l;
	struct vr_buf b;

	if (lru_layout(&l))
		return vr_strdup("");
	vr_buf_init(&b);
	for (int c = 0; c < l.ncols; c++) {
		const char *flag;

		if (l.col[c].null_flag < 0)
			continue;
		flag = l.col[l.col[c].null_flag].name;
		vr_buf_addf(&b, "ALTER TABLE main.lru_call_more ADD COLUMN \"%s\" INTEGER;"
			    "INSERT INTO main.lru_call_more (call_id, run_id, \"%s\") SELECT c.id,"
			    " c.run_id, 1 FROM main.lru_call c WHERE c.ts_ns IS NOT NULL AND"
			    " c.shrink_offset_ns IS NOT NULL AND c.\"%s\" IS NULL AND (", flag, flag,
			    l.col[c].name);
		echo_src_sql(&b, &l, c);
		vr_buf_addf(&b, ") IS NOT NULL ON CONFLICT (call_id) DO UPDATE SET \"%s\" = 1;"
			    "UPDATE main.lru_call AS c SET \"%s\" = NULL WHERE c.ts_ns IS NOT NULL AND"
			    " c.shrink_offset_ns IS NOT NULL AND c.\"%s\" = (", flag, l.col[c].name,
			    l.col[c].name);
		echo_src_sql(&b, &l, c);
		vr_buf_addstr(&b, ");");
	}
	for (int k = 0; k < LK_COUNT; k++)
		vr_buf_addf(&b, "DROP VIEW IF EXISTS main.\"%s\";", lru_events[k]);
	return vr_buf_detach(&b);
}

/* ---- upgrading a version 1-4 database ------------------------------------ */

/* The version 4 tables, renamed by store.c before lru_call is made. */
static const char *const v4_tables[LK_COUNT] = {
	"vr_v4_lru_isolate", "vr_v4_lru_inactive", "vr_v4_lru_active",
};

const char *store_lru_v4_table(int i)
{
	return i >= 0 && i < LK_COUNT ? v4_tables[i] : NULL;
}

const char *store_lru_event_name(int i)
{
	return i >= 0 && i < LK_COUNT ? lru_events[i] : NULL;
}

/* The rows of event @k's old table in rowid order: run_id, ts_ns, cpu, pid,
 * each field (NULL for a column the table lacks), extra; NULL when the
 * table is not there, *@err set after a message. */
static sqlite3_stmt *old_rows(struct store_lru *w, int k, bool *err)
{
	int spec = w->l.spec[k];
	struct vr_buf b;
	sqlite3_stmt *st = NULL;

	if (store_sqlite_has(w->db, "main", v4_tables[k], "table") != 1)
		return NULL;
	vr_buf_init(&b);
	vr_buf_addstr(&b, "SELECT run_id, ts_ns, cpu, pid");
	for (int f = 0; f < spec_nfields(spec); f++) {
		const char *c = spec_column(spec, f);

		if (store_sqlite_has_column(w->db, "main", v4_tables[k], c))
			vr_buf_addf(&b, ", \"%s\"", c);
		else
			vr_buf_addstr(&b, ", NULL");
	}
	vr_buf_addf(&b, ", extra FROM main.\"%s\" ORDER BY rowid", v4_tables[k]);
	if (sqlite3_prepare_v2(w->db, b.buf, -1, &st, NULL) != SQLITE_OK) {
		vr_error("%s: cannot read %s: %s", w->path, lru_events[k], sqlite3_errmsg(w->db));
		*err = true;
	}
	vr_buf_release(&b);
	return st;
}

/* The current row of @st as event @spec (extra borrowed until the next
 * step). */
static void old_event(sqlite3_stmt *st, int spec, struct ingest_event *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->spec = spec;
	ev->ts_ns = (uint64_t)sqlite3_column_int64(st, 1);
	ev->cpu = sqlite3_column_int(st, 2);
	ev->pid = sqlite3_column_int(st, 3);
	for (int f = 0; f < spec_nfields(spec); f++)
		if (sqlite3_column_type(st, 4 + f) != SQLITE_NULL) {
			ev->present |= 1u << f;
			ev->val[f] = sqlite3_column_int64(st, 4 + f);
		}
	ev->extra_json = (const char *)sqlite3_column_text(st, 4 + spec_nfields(spec));
}

int store_lru_upgrade(struct store_lru *w)
{
	sqlite3_stmt *st[LK_COUNT];
	bool live[LK_COUNT], err = false;
	int rc = 0;

	for (int k = 0; k < LK_COUNT; k++) {
		st[k] = err ? NULL : old_rows(w, k, &err);
		live[k] = st[k] && sqlite3_step(st[k]) == SQLITE_ROW;
	}
	/* the three tables' rows merged by (run, time), each in its own order
	 * (the views keep that order, whatever the merge) */
	while (!err && !rc) {
		int best = -1;

		for (int k = 0; k < LK_COUNT; k++) {
			if (!live[k])
				continue;
			if (best < 0 ||
			    sqlite3_column_int64(st[k], 0) < sqlite3_column_int64(st[best], 0) ||
			    (sqlite3_column_int64(st[k], 0) == sqlite3_column_int64(st[best], 0) &&
			     sqlite3_column_int64(st[k], 1) < sqlite3_column_int64(st[best], 1)))
				best = k;
		}
		if (best < 0)
			break;
		struct ingest_event ev;

		old_event(st[best], w->l.spec[best], &ev);
		rc = store_lru_event(w, sqlite3_column_int64(st[best], 0), &ev);
		int step = sqlite3_step(st[best]);

		live[best] = step == SQLITE_ROW;
		if (step != SQLITE_ROW && step != SQLITE_DONE)
			rc = vr_error("%s: cannot read %s: %s", w->path, lru_events[best],
				      sqlite3_errmsg(w->db));
	}
	for (int k = 0; k < LK_COUNT; k++)
		sqlite3_finalize(st[k]);
	if (err || rc || store_lru_flush(w)) {
		store_lru_reset(w);
		return -1;
	}
	for (int k = 0; k < LK_COUNT && !rc; k++) {
		char *sql = sqlite3_mprintf("DROP TABLE IF EXISTS main.\"%w\"", v4_tables[k]);

		rc = store_sqlite_exec(w->db, w->path, sql, "cannot upgrade the LRU calls");
		sqlite3_free(sql);
	}
	return rc;
}
