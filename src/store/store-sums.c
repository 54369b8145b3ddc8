// SPDX-License-Identifier: GPL-2.0
/*
 * store-sums.c - the sums the readers use (store-evidence.c store_sums),
 * written during the load into tables of the same names, in the run's
 * transaction: summary, compare and report then read a few hundred rows
 * instead of the raw ones.  The shrinker calls' durations are counted here
 * from the events as they are stored (the model has paired each
 * mm_shrink_slab_end with its start by then, model.h); the other sums are
 * one INSERT ... SELECT of the run's rows at its commit.
 */
#include "model.h"
#include "store.h"
#include "store-priv.h"
#include "spec.h"
#include "vr.h"

#include <glib.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* Distinct durations held before they are written out (memory stays flat). */
enum { SLAB_KEYS_MAX = 65536 };

/* An integer column's sum as SQL's sum() gives it: NULL when no value. */
struct sql_sum {
	int64_t sum;
	bool have;
};

/*
 * Pages per task of one list (lru_isolate_pages: k[0] the lru) or per task,
 * node and file/anon (lru_shrink_pages: k[0] nid, k[1] file), keyed by pid
 * only: the comm is the task table's (store_sums_commit()).
 */
struct page_key {
	int pid;
	int64_t k[2];
	bool null[2];
};

struct page_sum {
	struct page_key key;
	struct sql_sum nr_scanned, nr_reclaimed;
	int64_t events;
};

/*
 * The pages of a pid in time segments, for a pid with several task spans
 * (exec, pid reuse), whose rows' comm is that of the span at each row's
 * time (store-schema.c COMM_MANY).  A pid's isolate and shrink_inactive
 * events are one segment until the comm they carry changes (the reader's
 * comm at the event, ingest_event.comm); from then on each change begins a
 * segment, and the pid's sums are kept per segment too (struct seg_sum).
 * At the commit a segment within one task span is summed under that
 * span's comm (write_multi_pages()); one that a span begins inside sends
 * the run's several-span pids to the SQL pass over the raw rows.
 */
struct pid_segs {
	const char *comm;	/* of the last event: interned by the reader */
	int n, cap;		/* segments */
	int64_t (*range)[2];	/* each segment's first and last ts_ns */
	bool split;		/* sums kept per segment (n > 1) */
	GPtrArray *sums[2];	/* its page_sums of isolate, shrink (borrowed) */
};

struct seg_key {
	struct page_key key;
	int seg;
	bool shrink;		/* lru_shrink_pages' key, else lru_isolate_pages' */
};

struct seg_sum {
	struct seg_key key;
	struct sql_sum nr_scanned, nr_reclaimed;
	int64_t events;
};

/* lru_reclaim_ms: pages reclaimed per node, task and ms since first_ns. */
struct ms_key {
	int pid;
	bool nid_null;
	int64_t nid, ms;
};

struct ms_sum {
	struct ms_key key;
	int64_t nr_reclaimed, events;
};

/*
 * mm_vmscan_lru_shrink_inactive summed per task, node and time bucket
 * (store_sums_acc_buckets(), for windows.c's reclaim_window): bucket =
 * (ts_ns - the run's first ts_ns) / bucket_ns, bucket_ns the largest power
 * of ten ns at most 1/BUCKETS_MIN of the time from the first event to the
 * latest of these rows, grown (and the buckets merged ten into one) as the
 * run goes on: at most 10 * BUCKETS_MIN buckets per task and node, however
 * long the run.
 */
enum { BUCKETS_MIN = 100 };

struct bucket_key {
	int pid;
	bool nid_null;
	int64_t nid, bucket;
};

struct bucket_sum {
	struct bucket_key key;
	struct sql_sum nr_scanned, nr_reclaimed;
};

/* sum_get() copies a key into the first bytes of its sum. */
_Static_assert(offsetof(struct page_sum, key) == 0, "page_sum starts with its key");
_Static_assert(offsetof(struct ms_sum, key) == 0, "ms_sum starts with its key");
_Static_assert(offsetof(struct bucket_sum, key) == 0, "bucket_sum starts with its key");
_Static_assert(offsetof(struct seg_sum, key) == 0, "seg_sum starts with its key");

struct store_sums_acc {
	GHashTable *ms;			/* struct ms_key -> struct ms_sum */
	int64_t ms_base;		/* the run's first event then (ns) */
	bool ms_have, ms_moved;		/* a base; an earlier event came later */
	bool ms_written;		/* rows written before the commit (a flush) */
	int spec_isolate, f_lru, f_file, f_iso_scanned;
	int spec_shrink, f_nid, f_flags, f_scanned, f_reclaimed, f_retry;
	GHashTable *isolate, *shrink;	/* struct page_key -> struct page_sum */
	int spec_slab_end;		/* mm_shrink_slab_end, -1 if unknown */
	int f_begin, f_complete;	/* its slab_begin_ns, slab_complete fields */
	GHashTable *slab[2];		/* complete 0/1: duration_ns -> calls */
	int64_t slab_null[2];		/* calls without a duration, by complete */
	GHashTable *segs;		/* pid -> struct pid_segs */
	GHashTable *seg_sums;		/* struct seg_key -> struct seg_sum */
	int last_pid;			/* segs' entry of the last event's pid */
	struct pid_segs *last_segs;	/* (NULL: none) */
	GHashTable *bk;			/* struct bucket_key -> struct bucket_sum */
	int64_t bk_base, bk_ns;		/* the run's first event then; bucket_ns */
	bool bk_have, bk_moved;		/* a base; an earlier event came later */
};

static guint page_hash(gconstpointer p)
{
	const struct page_key *k = p;

	return (guint)k->pid * 31u + (guint)k->k[0] * 7u + (guint)k->k[1] + k->null[0] * 2u +
	       k->null[1];
}

static gboolean page_equal(gconstpointer a, gconstpointer b)
{
	const struct page_key *x = a, *y = b;

	return x->pid == y->pid && x->null[0] == y->null[0] && x->null[1] == y->null[1] &&
	       (x->null[0] || x->k[0] == y->k[0]) && (x->null[1] || x->k[1] == y->k[1]);
}

static guint ms_hash(gconstpointer p)
{
	const struct ms_key *k = p;

	return (guint)k->pid * 31u + (guint)k->nid * 7u + (guint)k->ms + k->nid_null;
}

static guint seg_hash(gconstpointer p)
{
	const struct seg_key *k = p;

	return page_hash(&k->key) * 17u + (guint)k->seg * 2u + k->shrink;
}

static gboolean seg_equal(gconstpointer a, gconstpointer b)
{
	const struct seg_key *x = a, *y = b;

	return x->seg == y->seg && x->shrink == y->shrink && page_equal(&x->key, &y->key);
}

static void pid_segs_free(gpointer p)
{
	struct pid_segs *r = p;

	free(r->range);
	for (int i = 0; i < 2; i++)
		if (r->sums[i])
			g_ptr_array_free(r->sums[i], TRUE);
	free(r);
}

static guint bucket_hash(gconstpointer p)
{
	const struct bucket_key *k = p;

	return (guint)k->pid * 31u + (guint)k->nid * 7u + (guint)k->bucket * 131u + k->nid_null;
}

static gboolean bucket_equal(gconstpointer a, gconstpointer b)
{
	const struct bucket_key *x = a, *y = b;

	return x->pid == y->pid && x->bucket == y->bucket && x->nid_null == y->nid_null &&
	       (x->nid_null || x->nid == y->nid);
}

static gboolean ms_equal(gconstpointer a, gconstpointer b)
{
	const struct ms_key *x = a, *y = b;

	return x->pid == y->pid && x->ms == y->ms && x->nid_null == y->nid_null &&
	       (x->nid_null || x->nid == y->nid);
}

static int field_of(int spec, const char *column)
{
	for (int f = 0; spec >= 0 && f < spec_nfields(spec); f++)
		if (!strcmp(spec_column(spec, f), column))
			return f;
	return -1;
}

struct store_sums_acc *store_sums_acc_new(void)
{
	struct store_sums_acc *a = vr_calloc(1, sizeof(*a));

	a->spec_isolate = spec_find("vmscan", "mm_vmscan_lru_isolate");
	a->f_lru = field_of(a->spec_isolate, "lru");
	a->f_file = field_of(a->spec_isolate, "file");
	a->f_iso_scanned = field_of(a->spec_isolate, "nr_scanned");
	a->spec_shrink = spec_find("vmscan", "mm_vmscan_lru_shrink_inactive");
	a->f_nid = field_of(a->spec_shrink, "nid");
	a->f_flags = field_of(a->spec_shrink, "reclaim_flags");
	a->f_scanned = field_of(a->spec_shrink, "nr_scanned");
	a->f_reclaimed = field_of(a->spec_shrink, "nr_reclaimed");
	a->f_retry = field_of(a->spec_shrink, "mglru_retry");
	a->ms = g_hash_table_new_full(ms_hash, ms_equal, NULL, free);
	a->isolate = g_hash_table_new_full(page_hash, page_equal, NULL, free);
	a->shrink = g_hash_table_new_full(page_hash, page_equal, NULL, free);
	a->spec_slab_end = spec_find("vmscan", "mm_shrink_slab_end");
	a->f_begin = field_of(a->spec_slab_end, "slab_begin_ns");
	a->f_complete = field_of(a->spec_slab_end, "slab_complete");
	if (a->f_begin < 0 || a->f_complete < 0)
		a->spec_slab_end = -1;
	for (int c = 0; c < 2; c++)
		a->slab[c] = g_hash_table_new_full(g_int64_hash, g_int64_equal, free, free);
	a->bk = g_hash_table_new_full(bucket_hash, bucket_equal, NULL, free);
	a->segs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, pid_segs_free);
	a->seg_sums = g_hash_table_new_full(seg_hash, seg_equal, NULL, free);
	return a;
}

void store_sums_acc_free(struct store_sums_acc *a)
{
	if (!a)
		return;
	for (int c = 0; c < 2; c++)
		g_hash_table_destroy(a->slab[c]);
	g_hash_table_destroy(a->isolate);
	g_hash_table_destroy(a->shrink);
	g_hash_table_destroy(a->ms);
	g_hash_table_destroy(a->bk);
	g_hash_table_destroy(a->segs);
	g_hash_table_destroy(a->seg_sums);
	free(a);
}

static void slab_clear(struct store_sums_acc *a)
{
	for (int c = 0; c < 2; c++) {
		g_hash_table_remove_all(a->slab[c]);
		a->slab_null[c] = 0;
	}
}

static void ms_clear(struct store_sums_acc *a)
{
	g_hash_table_remove_all(a->ms);
}

static void acc_clear(struct store_sums_acc *a)
{
	ms_clear(a);
	a->ms_have = a->ms_moved = a->ms_written = false;
	g_hash_table_remove_all(a->isolate);
	g_hash_table_remove_all(a->shrink);
	g_hash_table_remove_all(a->segs);
	g_hash_table_remove_all(a->seg_sums);
	a->last_segs = NULL;
	slab_clear(a);
}

/*
 * One slab_shrink row of the view (store.c slab_shrink_view) per paired
 * end: duration_ns = ts_ns - slab_begin_ns (NULL without a begin),
 * complete = slab_complete; an end the model did not mark is not a row.
 */
static void acc_slab(struct store_sums_acc *a, const struct ingest_event *ev)
{
	GHashTable *h;
	int64_t *n, dur;
	int c;

	if (!(ev->present & (1u << a->f_complete)))
		return;
	c = ev->val[a->f_complete] != 0;
	if (!(ev->present & (1u << a->f_begin))) {
		a->slab_null[c]++;
		return;
	}
	dur = (int64_t)ev->ts_ns - ev->val[a->f_begin];
	h = a->slab[c];
	n = g_hash_table_lookup(h, &dur);
	if (!n) {
		int64_t *k = vr_malloc(sizeof(*k));

		*k = dur;
		n = vr_calloc(1, sizeof(*n));
		g_hash_table_insert(h, k, n);
	}
	(*n)++;
}

/* Is field @f of @ev there?  (Its value is ev->val[f].) */
static bool has(const struct ingest_event *ev, int f)
{
	return f >= 0 && (ev->present & (1u << f));
}

static void sum_add(struct sql_sum *s, const struct ingest_event *ev, int f)
{
	if (has(ev, f)) {
		s->sum += ev->val[f];
		s->have = true;
	}
}

/*
 * The sum of key @k (@key_size bytes) in @h, added zeroed when missing: a
 * sum struct of @sum_size bytes whose first member is its key (page_sum,
 * ms_sum), owned by @h.
 */
static void *sum_get(GHashTable *h, const void *k, size_t key_size, size_t sum_size)
{
	void *p = g_hash_table_lookup(h, k);

	if (!p) {
		p = vr_calloc(1, sum_size);
		memcpy(p, k, key_size);
		g_hash_table_insert(h, p, p);
	}
	return p;
}

static struct page_sum *page_get(GHashTable *h, const struct page_key *k)
{
	return sum_get(h, k, sizeof(*k), sizeof(struct page_sum));
}

/* Add @from's sums into @to. */
static void sql_sum_add(struct sql_sum *to, const struct sql_sum *from)
{
	if (from->have) {
		to->sum += from->sum;
		to->have = true;
	}
}

/* Add @d (one event's part) to @p's sums. */
static void page_add(struct page_sum *p, const struct page_sum *d)
{
	sql_sum_add(&p->nr_scanned, &d->nr_scanned);
	sql_sum_add(&p->nr_reclaimed, &d->nr_reclaimed);
	p->events += d->events;
}

/* Copy @r's sums (lru_shrink_pages' if @shrink) into segment @seg of seg_sums. */
static void seg_copy(struct store_sums_acc *a, const struct pid_segs *r, int seg, bool shrink)
{
	for (guint i = 0; r->sums[shrink] && i < r->sums[shrink]->len; i++) {
		const struct page_sum *p = g_ptr_array_index(r->sums[shrink], i);
		struct seg_key k = { .key = p->key, .seg = seg, .shrink = shrink };
		struct seg_sum *d = sum_get(a->seg_sums, &k, sizeof(k), sizeof(*d));

		d->nr_scanned = p->nr_scanned;
		d->nr_reclaimed = p->nr_reclaimed;
		d->events = p->events;
	}
}

/*
 * The segments of @ev's pid, with @ev in its last (a new one when @ev's
 * comm is not the last event's; the pid's sums so far then become its
 * first segment's).
 */
static struct pid_segs *acc_segment(struct store_sums_acc *a, const struct ingest_event *ev)
{
	struct pid_segs *r = a->last_segs && a->last_pid == ev->pid ? a->last_segs :
			     g_hash_table_lookup(a->segs, GINT_TO_POINTER(ev->pid));
	int64_t ts = (int64_t)ev->ts_ns;

	if (!r) {
		r = vr_calloc(1, sizeof(*r));
		g_hash_table_insert(a->segs, GINT_TO_POINTER(ev->pid), r);
	}
	a->last_pid = ev->pid;
	a->last_segs = r;
	if (!r->n || ev->comm != r->comm) {
		if (r->n == 1) {	/* the sums so far: segment 0 */
			seg_copy(a, r, 0, false);
			seg_copy(a, r, 0, true);
			r->split = true;
		}
		if (r->n == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 1;
			r->range = vr_realloc(r->range, (size_t)r->cap * sizeof(*r->range));
		}
		r->range[r->n][0] = r->range[r->n][1] = ts;
		r->n++;
		r->comm = ev->comm;
	} else if (ts < r->range[r->n - 1][0]) {
		r->range[r->n - 1][0] = ts;
	} else if (ts > r->range[r->n - 1][1]) {
		r->range[r->n - 1][1] = ts;
	}
	return r;
}

/* Add @d, an event's part of key @k, to its pid's sums and, when they are
 * kept per segment, to those of segment @r's last. */
static void acc_pages(struct store_sums_acc *a, GHashTable *h, const struct page_key *k,
		      const struct page_sum *d, struct pid_segs *r, bool shrink)
{
	struct page_sum *p = g_hash_table_lookup(h, k);

	if (!p) {	/* the pid's list of its sums (seg_copy()) */
		p = page_get(h, k);
		if (!r->sums[shrink])
			r->sums[shrink] = g_ptr_array_new();
		g_ptr_array_add(r->sums[shrink], p);
	}
	page_add(p, d);
	if (r->split) {
		struct seg_key sk = { .key = *k, .seg = r->n - 1, .shrink = shrink };
		struct seg_sum *s = sum_get(a->seg_sums, &sk, sizeof(sk), sizeof(*s));

		sql_sum_add(&s->nr_scanned, &d->nr_scanned);
		sql_sum_add(&s->nr_reclaimed, &d->nr_reclaimed);
		s->events += d->events;
	}
}

/* lru_isolate_pages: coalesce(lru, 2 * file) is the list. */
static void acc_isolate(struct store_sums_acc *a, const struct ingest_event *ev)
{
	struct page_key k = { .pid = ev->pid, .null = { false, true } };
	struct page_sum d = { .events = 1 };

	if (has(ev, a->f_lru))
		k.k[0] = ev->val[a->f_lru];
	else if (has(ev, a->f_file))
		k.k[0] = 2 * ev->val[a->f_file];
	else
		k.null[0] = true;
	sum_add(&d.nr_scanned, ev, a->f_iso_scanned);
	acc_pages(a, a->isolate, &k, &d, acc_segment(a, ev), false);
}

/* lru_shrink_pages: nid, and reclaim_flags & 2 (RECLAIM_WB_FILE). */
static void acc_shrink(struct store_sums_acc *a, const struct ingest_event *ev)
{
	struct page_key k = { .pid = ev->pid };
	struct page_sum d = { .events = 1 };

	if (has(ev, a->f_nid))
		k.k[0] = ev->val[a->f_nid];
	else
		k.null[0] = true;
	if (has(ev, a->f_flags))
		k.k[1] = ev->val[a->f_flags] & 2;
	else
		k.null[1] = true;
	/* a multi-gen LRU retry pass repeats nr_scanned (src/model/model.c lru_note()) */
	if (has(ev, a->f_retry) && ev->val[a->f_retry])
		d.nr_scanned.have = true;	/* as SQL's sum() of a 0 */
	else
		sum_add(&d.nr_scanned, ev, a->f_scanned);
	sum_add(&d.nr_reclaimed, ev, a->f_reclaimed);
	acc_pages(a, a->shrink, &k, &d, acc_segment(a, ev), true);
}

/*
 * lru_reclaim_ms: ms = (ts_ns - the run's first ts_ns) / 1e6, counted from
 * the first event stored so far (@first_ns); should an earlier event come
 * later (a text trace out of order), the SQL sums them at the commit.
 */
static void acc_ms(struct store_sums_acc *a, const struct ingest_event *ev, int64_t first_ns)
{
	struct ms_key k = { .pid = ev->pid };
	struct ms_sum *m;

	if (!a->ms_have) {
		a->ms_base = first_ns;
		a->ms_have = true;
	}
	if (a->ms_moved || first_ns != a->ms_base) {
		a->ms_moved = true;
		return;
	}
	if (has(ev, a->f_nid))
		k.nid = ev->val[a->f_nid];
	else
		k.nid_null = true;
	k.ms = ((int64_t)ev->ts_ns - first_ns) / 1000000;
	m = sum_get(a->ms, &k, sizeof(k), sizeof(*m));
	if (has(ev, a->f_reclaimed))
		m->nr_reclaimed += ev->val[a->f_reclaimed];
	m->events++;
}

static void bind_sum(sqlite3_stmt *st, int i, const struct sql_sum *v);

/* Buckets of @ns (a multiple of the present bucket_ns) from now on. */
static void bucket_regroup(struct store_sums_acc *a, int64_t ns)
{
	GHashTable *h = g_hash_table_new_full(bucket_hash, bucket_equal, NULL, free);
	int64_t factor = ns / a->bk_ns;
	GHashTableIter it;
	gpointer v;

	g_hash_table_iter_init(&it, a->bk);
	while (g_hash_table_iter_next(&it, NULL, &v)) {
		const struct bucket_sum *old = v;
		struct bucket_key k = old->key;
		struct bucket_sum *b;

		k.bucket /= factor;
		b = sum_get(h, &k, sizeof(k), sizeof(*b));
		sql_sum_add(&b->nr_scanned, &old->nr_scanned);
		sql_sum_add(&b->nr_reclaimed, &old->nr_reclaimed);
	}
	g_hash_table_destroy(a->bk);
	a->bk = h;
	a->bk_ns = ns;
}

/*
 * The bucket sums (struct bucket_key), counted from the first event stored
 * so far (@first_ns); should an earlier event come later (a text trace out
 * of order), there are none (store_sums_acc_buckets()).
 */
static void acc_bucket(struct store_sums_acc *a, const struct ingest_event *ev, int64_t first_ns)
{
	struct bucket_key k = { .pid = ev->pid };
	struct bucket_sum *b;
	int64_t t;

	if (!a->bk_have) {
		a->bk_base = first_ns;
		a->bk_ns = 1;
		a->bk_have = true;
	}
	if (a->bk_moved || first_ns != a->bk_base) {
		a->bk_moved = true;
		return;
	}
	t = (int64_t)ev->ts_ns - first_ns;
	while (a->bk_ns <= INT64_MAX / 10 && a->bk_ns * 10 <= t / BUCKETS_MIN)
		bucket_regroup(a, a->bk_ns * 10);
	if (has(ev, a->f_nid))
		k.nid = ev->val[a->f_nid];
	else
		k.nid_null = true;
	k.bucket = t / a->bk_ns;
	b = sum_get(a->bk, &k, sizeof(k), sizeof(*b));
	sum_add(&b->nr_scanned, ev, a->f_scanned);
	sum_add(&b->nr_reclaimed, ev, a->f_reclaimed);
}

int store_sums_acc_buckets(struct store_sums_acc *a, sqlite3 *db, const char *path,
			   int64_t run_id, int64_t first_ns, int64_t *bucket_ns)
{
	sqlite3_stmt *st = NULL;
	GHashTableIter it;
	gpointer v;
	int rc = SQLITE_OK;

	*bucket_ns = 0;
	if (a->bk_moved || (a->bk_have && a->bk_base != first_ns))
		return 0;
	if (store_sqlite_exec(db, path, "CREATE TEMP TABLE IF NOT EXISTS vr_shrink_buckets (run_id"
			      " INTEGER, pid INTEGER, nid INTEGER, ts_ns INTEGER, nr_scanned"
			      " INTEGER, nr_reclaimed INTEGER); DELETE FROM temp.vr_shrink_buckets;",
			      "cannot make the shrink buckets"))
		return -1;
	if (sqlite3_prepare_v2(db, "INSERT INTO temp.vr_shrink_buckets VALUES (?1, ?2, ?3, ?4, ?5,"
			       " ?6)", -1, &st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot make the shrink buckets: %s", path, sqlite3_errmsg(db));
	g_hash_table_iter_init(&it, a->bk);
	while (rc == SQLITE_OK && g_hash_table_iter_next(&it, NULL, &v)) {
		const struct bucket_sum *b = v;

		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int(st, 2, b->key.pid);
		if (b->key.nid_null)
			sqlite3_bind_null(st, 3);
		else
			sqlite3_bind_int64(st, 3, b->key.nid);
		sqlite3_bind_int64(st, 4, first_ns + b->key.bucket * a->bk_ns);
		bind_sum(st, 5, &b->nr_scanned);
		bind_sum(st, 6, &b->nr_reclaimed);
		rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_OK)
		return vr_error("%s: cannot make the shrink buckets: %s", path, sqlite3_errmsg(db));
	*bucket_ns = a->bk_have ? a->bk_ns : 1;
	return 0;
}

int store_sums_acc_event(struct store_sums_acc *a, const struct ingest_event *ev,
			 int64_t first_ns)
{
	if (ev->spec < 0)
		return 0;
	if (ev->spec == a->spec_isolate) {
		acc_isolate(a, ev);
		return 0;
	}
	if (ev->spec == a->spec_shrink) {
		acc_shrink(a, ev);
		acc_ms(a, ev, first_ns);
		acc_bucket(a, ev, first_ns);
		return g_hash_table_size(a->ms) >= SLAB_KEYS_MAX;
	}
	if (ev->spec == a->spec_slab_end) {
		acc_slab(a, ev);
		return g_hash_table_size(a->slab[0]) + g_hash_table_size(a->slab[1]) >= SLAB_KEYS_MAX;
	}
	return 0;
}

/* Insert (@run_id, @complete, @dur or NULL, @calls) with @st. */
static int slab_row(sqlite3 *db, sqlite3_stmt *st, int64_t run_id, int complete,
		    const int64_t *dur, int64_t calls)
{
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_int(st, 2, complete);
	if (dur)
		sqlite3_bind_int64(st, 3, *dur);
	else
		sqlite3_bind_null(st, 3);
	sqlite3_bind_int64(st, 4, calls);
	if (sqlite3_step(st) != SQLITE_DONE) {
		sqlite3_reset(st);
		return vr_error("%s: cannot write slab_shrink_ns: %s", sqlite3_db_filename(db, "main"),
				sqlite3_errmsg(db));
	}
	sqlite3_reset(st);
	return 0;
}

/* The order of GROUP BY nid, pid, ms: a NULL nid first, then ascending. */
static int ms_cmp(const void *a, const void *b)
{
	const struct ms_key *x = &(*(struct ms_sum *const *)a)->key;
	const struct ms_key *y = &(*(struct ms_sum *const *)b)->key;

	if (x->nid_null != y->nid_null)
		return x->nid_null ? -1 : 1;
	if (!x->nid_null && x->nid != y->nid)
		return x->nid < y->nid ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return (x->ms > y->ms) - (x->ms < y->ms);
}

/*
 * The per-millisecond counts so far as rows of lru_reclaim_ms, in the
 * order of the commit's merge (GROUP BY run_id, nid, pid, ms), so that a
 * run written once, at its commit, needs no merge (a key may get a second
 * row after a flush: the commit merges them then).
 */
static int write_ms(struct store_sums_acc *a, sqlite3 *db, int64_t run_id)
{
	sqlite3_stmt *st;
	GHashTableIter it;
	gpointer k, v;
	size_t n = 0, i;
	struct ms_sum **rows = vr_calloc(g_hash_table_size(a->ms) + 1, sizeof(*rows));
	int rc = SQLITE_DONE;

	g_hash_table_iter_init(&it, a->ms);
	while (g_hash_table_iter_next(&it, &k, &v))
		rows[n++] = v;
	qsort(rows, n, sizeof(*rows), ms_cmp);
	if (sqlite3_prepare_v2(db, "INSERT INTO main.lru_reclaim_ms VALUES (?,?,?,?,?,?)", -1, &st,
			       NULL) != SQLITE_OK) {
		free(rows);
		return vr_error("%s: cannot write lru_reclaim_ms: %s",
				sqlite3_db_filename(db, "main"), sqlite3_errmsg(db));
	}
	for (i = 0; rc == SQLITE_DONE && i < n; i++) {
		const struct ms_sum *m = rows[i];

		sqlite3_bind_int64(st, 1, run_id);
		if (m->key.nid_null)
			sqlite3_bind_null(st, 2);
		else
			sqlite3_bind_int64(st, 2, m->key.nid);
		sqlite3_bind_int(st, 3, m->key.pid);
		sqlite3_bind_int64(st, 4, m->key.ms);
		sqlite3_bind_int64(st, 5, m->nr_reclaimed);
		sqlite3_bind_int64(st, 6, m->events);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	sqlite3_finalize(st);
	free(rows);
	a->ms_written |= n > 0;
	ms_clear(a);
	if (rc != SQLITE_DONE)
		return vr_error("%s: cannot write lru_reclaim_ms: %s",
				sqlite3_db_filename(db, "main"), sqlite3_errmsg(db));
	return 0;
}

int store_sums_acc_write(struct store_sums_acc *a, sqlite3 *db, int64_t run_id)
{
	sqlite3_stmt *st;
	GHashTableIter it;
	gpointer k, v;
	int ret = 0;

	if (!a->ms_moved && write_ms(a, db, run_id))
		return -1;
	if (sqlite3_prepare_v2(db, "INSERT INTO main.slab_shrink_ns (run_id, complete, duration_ns,"
			       " calls) VALUES (?,?,?,?)", -1, &st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot write slab_shrink_ns: %s",
				sqlite3_db_filename(db, "main"), sqlite3_errmsg(db));
	for (int c = 0; !ret && c < 2; c++) {
		g_hash_table_iter_init(&it, a->slab[c]);
		while (!ret && g_hash_table_iter_next(&it, &k, &v))
			ret = slab_row(db, st, run_id, c, k, *(int64_t *)v);
		if (!ret && a->slab_null[c])
			ret = slab_row(db, st, run_id, c, NULL, a->slab_null[c]);
	}
	sqlite3_finalize(st);
	slab_clear(a);
	return ret;
}

void store_sums_acc_reset(struct store_sums_acc *a)
{
	acc_clear(a);
	/* not cleared by the commit's acc_clear(): read after it */
	g_hash_table_remove_all(a->bk);
	a->bk_have = a->bk_moved = false;
}

/* Does @db's main schema have a table @name?  1, 0, or -1 on error. */
static int main_table(sqlite3 *db, const char *name)
{
	sqlite3_stmt *st;
	int n = -1;

	if (sqlite3_prepare_v2(db, "SELECT count(*) FROM main.sqlite_master WHERE type = 'table'"
			       " AND name = ?1", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0) > 0;
	sqlite3_finalize(st);
	return n;
}

/* Does @db's main run table hold a run?  1, 0, or -1 on error. */
static int has_runs(sqlite3 *db)
{
	sqlite3_stmt *st;
	int n = -1;

	if (sqlite3_prepare_v2(db, "SELECT EXISTS (SELECT 1 FROM main.run)", -1, &st, NULL) !=
	    SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

int store_sums_create(sqlite3 *db, const char *path)
{
	bool said = false;

	/* summary's per-order counts of each task; pid first, so that the
	 * queries of a run (run_id = ?) keep their scan in rowid order */
	if (store_sqlite_exec(db, path, "CREATE INDEX IF NOT EXISTS main.reclaim_stall_pid ON reclaim_stall"
		       " (pid, run_id); CREATE INDEX IF NOT EXISTS main.kswapd_wakeup_pid ON"
		       " kswapd_wakeup (pid, run_id)", "cannot create schema"))
		return -1;
	for (size_t i = 0; i < store_sums_count; i++) {
		const struct store_sum *v = &store_sums[i];
		int have = v->evidence_only ? 1 : main_table(db, v->name);
		char *body, *sql;
		int rc;

		if (have < 0)
			return vr_error("%s: cannot read the schema: %s", path,
					sqlite3_errmsg(db));
		if (have)
			continue;
		/* a database loaded before (or the table dropped): the runs it
		 * holds get their sums now, from their raw rows */
		if (!said && has_runs(db) > 0)
			vr_warn("%s: the tables of sums over the raw rows (%s, ...) are made from"
				" the raw rows of the runs it holds", path, v->name);
		said = true;
		body = store_sum_sql(v, db, NULL);
		sql = sqlite3_mprintf("CREATE TABLE main.\"%w\" (%s);"
				      " INSERT INTO main.\"%w\" %s;", v->name, v->columns, v->name,
				      body);
		free(body);
		rc = store_sqlite_exec(db, path, sql, "cannot create schema");
		sqlite3_free(sql);
		if (rc)
			return -1;
	}
	return 0;
}

/* Run @sql with ?1 = @run_id; 0 or -1 after "DB: @what: why". */
static int exec_run(sqlite3 *db, const char *path, const char *sql, int64_t run_id, const char *what)
{
	sqlite3_stmt *st;
	int rc;

	while (sql && *sql) {
		const char *tail;

		if (sqlite3_prepare_v2(db, sql, -1, &st, &tail) != SQLITE_OK)
			return vr_error("%s: %s: %s", path, what, sqlite3_errmsg(db));
		if (!st)
			break;
		if (sqlite3_bind_parameter_count(st) >= 1)
			sqlite3_bind_int64(st, 1, run_id);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
		if (rc != SQLITE_DONE && rc != SQLITE_ROW)
			return vr_error("%s: %s: %s", path, what, sqlite3_errmsg(db));
		sql = tail;
	}
	return 0;
}

/*
 * The shrinker calls of run ?1 kept whole in slab_shrink_stored join the
 * counted ends, and each (complete, duration_ns) becomes one row.
 */
static const char slab_merge[] =
	"INSERT INTO main.slab_shrink_ns (run_id, complete, duration_ns, calls)"
	" SELECT run_id, complete, duration_ns, count(*) FROM main.slab_shrink_stored"
	" WHERE run_id = ?1 GROUP BY run_id, complete, duration_ns;"
	"CREATE TEMP TABLE vr_slab_merge AS SELECT run_id, complete, duration_ns,"
	" sum(calls) AS calls FROM main.slab_shrink_ns WHERE run_id = ?1"
	" GROUP BY run_id, complete, duration_ns ORDER BY complete, duration_ns;"
	"DELETE FROM main.slab_shrink_ns WHERE run_id = ?1;"
	"INSERT INTO main.slab_shrink_ns SELECT * FROM temp.vr_slab_merge;"
	"DROP TABLE temp.vr_slab_merge;";

/* The same for lru_reclaim_ms's per-millisecond rows. */
static const char ms_merge[] =
	"CREATE TEMP TABLE vr_ms_merge AS SELECT run_id, nid, pid, ms, sum(nr_reclaimed),"
	" sum(events) FROM main.lru_reclaim_ms WHERE run_id = ?1 GROUP BY 1, 2, 3, 4;"
	"DELETE FROM main.lru_reclaim_ms WHERE run_id = ?1;"
	"INSERT INTO main.lru_reclaim_ms SELECT * FROM temp.vr_ms_merge;"
	"DROP TABLE temp.vr_ms_merge;";

/* The pids of run ?1 with more than one task span (exec, pid reuse). */
static const char multi_pids[] =
	"SELECT pid FROM main.task WHERE run_id = ?1 GROUP BY pid HAVING count(*) > 1";

static GHashTable *multi_span_pids(sqlite3 *db, const char *path, int64_t run_id)
{
	GHashTable *set = g_hash_table_new(g_direct_hash, g_direct_equal);
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db, multi_pids, -1, &st, NULL) != SQLITE_OK) {
		vr_error("%s: cannot read task: %s", path, sqlite3_errmsg(db));
		g_hash_table_destroy(set);
		return NULL;
	}
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		g_hash_table_add(set, GINT_TO_POINTER(sqlite3_column_int(st, 0)));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		vr_error("%s: cannot read task: %s", path, sqlite3_errmsg(db));
		g_hash_table_destroy(set);
		return NULL;
	}
	return set;
}

static void bind_sum(sqlite3_stmt *st, int i, const struct sql_sum *v)
{
	if (v->have)
		sqlite3_bind_int64(st, i, v->sum);
	else
		sqlite3_bind_null(st, i);
}

static void bind_key(sqlite3_stmt *st, int i, const struct page_key *k, int j)
{
	if (k->null[j])
		sqlite3_bind_null(st, i);
	else
		sqlite3_bind_int64(st, i, k->k[j]);
}

/* Their comm: the pid's one task row (min() as store_sums' COMM_OF). */
#define ONE_COMM "(SELECT min(comm) FROM main.task WHERE run_id = ?1 AND pid = ?2)"

/* The end of a statement writing sums: @st finalized; 0, or -1 after "PATH:
 * cannot write the sums: ..." when the last step @rc was not SQLITE_DONE. */
static int sums_written(sqlite3 *db, sqlite3_stmt *st, int rc, const char *path)
{
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return vr_error("%s: cannot write the sums: %s", path, sqlite3_errmsg(db));
	return 0;
}

/*
 * The counted pages of run @run_id's pids with one task span (or none):
 * their comm is the same at every row.  The pids in @multi are summed by
 * the SQL, which looks up each row's comm at its time.
 */
static int write_pages(sqlite3 *db, const char *path, struct store_sums_acc *a, int64_t run_id,
		       GHashTable *multi, bool shrink)
{
	const char *sql = shrink
		? "INSERT INTO main.lru_shrink_pages VALUES (?1, ?2, " ONE_COMM ", ?3, ?4, ?5, ?6, ?7)"
		: "INSERT INTO main.lru_isolate_pages VALUES (?1, ?2, " ONE_COMM ", ?3, ?4, ?5)";
	GHashTableIter it;
	gpointer k, v;
	sqlite3_stmt *st;
	int rc = SQLITE_DONE;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot write the sums: %s", path, sqlite3_errmsg(db));
	g_hash_table_iter_init(&it, shrink ? a->shrink : a->isolate);
	while (rc == SQLITE_DONE && g_hash_table_iter_next(&it, &k, &v)) {
		const struct page_sum *p = v;

		if (g_hash_table_contains(multi, GINT_TO_POINTER(p->key.pid)))
			continue;
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int(st, 2, p->key.pid);
		bind_key(st, 3, &p->key, 0);
		if (shrink) {
			bind_key(st, 4, &p->key, 1);
			bind_sum(st, 5, &p->nr_scanned);
			bind_sum(st, 6, &p->nr_reclaimed);
			sqlite3_bind_int64(st, 7, p->events);
		} else {
			bind_sum(st, 4, &p->nr_scanned);
			sqlite3_bind_int64(st, 5, p->events);
		}
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	return sums_written(db, st, rc, path);
}

/* A task span of a several-span pid: its comm from first_ns on. */
struct span {
	int64_t first_ns;
	char *comm;		/* owned */
};

/* A row of lru_isolate_pages or lru_shrink_pages of a several-span pid. */
struct multi_row {
	int pid;
	const char *comm;	/* a span's; NULL: before the pid's first */
	struct page_sum sum;	/* its key and sums */
};

static void spans_free(gpointer p)
{
	GArray *a = p;

	for (guint i = 0; i < a->len; i++)
		free(g_array_index(a, struct span, i).comm);
	g_array_free(a, TRUE);
}

/*
 * The task spans of run @run_id's pids in @multi, by pid (GArray of struct
 * span in first_ns order), into @spans; 1, 0 when two spans of a pid begin
 * at one time or a comm is '' (the SQL's rules then, COMM_MANY and
 * COMM_OF), -1 after a message.
 */
static int multi_spans(sqlite3 *db, const char *path, int64_t run_id, GHashTable *multi,
		       GHashTable *spans)
{
	sqlite3_stmt *st;
	int rc, ok = 1;

	if (sqlite3_prepare_v2(db, "SELECT pid, comm, first_ns FROM main.task WHERE run_id = ?1"
			       " AND first_ns IS NOT NULL ORDER BY pid, first_ns", -1, &st,
			       NULL) != SQLITE_OK)
		return vr_error("%s: cannot read task: %s", path, sqlite3_errmsg(db));
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int pid = sqlite3_column_int(st, 0);
		const char *comm = (const char *)sqlite3_column_text(st, 1);
		struct span sp = { sqlite3_column_int64(st, 2), vr_strdup(comm ? comm : "") };
		GArray *a;

		if (!g_hash_table_contains(multi, GINT_TO_POINTER(pid))) {
			free(sp.comm);
			continue;
		}
		a = g_hash_table_lookup(spans, GINT_TO_POINTER(pid));
		if (!a) {
			a = g_array_new(FALSE, FALSE, sizeof(struct span));
			g_hash_table_insert(spans, GINT_TO_POINTER(pid), a);
		}
		if (!sp.comm[0] || (a->len && g_array_index(a, struct span, a->len - 1).first_ns ==
					      sp.first_ns))
			ok = 0;
		g_array_append_val(a, sp);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return vr_error("%s: cannot read task: %s", path, sqlite3_errmsg(db));
	return ok;
}

/* The span of @a (struct span) begun last at or before @ts; -1: none. */
static int span_at(const GArray *a, int64_t ts)
{
	int lo = 0, hi = a ? (int)a->len : 0;

	while (lo < hi) {	/* the first span begun after ts */
		int mid = (lo + hi) / 2;

		if (g_array_index(a, struct span, mid).first_ns <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

/*
 * The comm of each segment of @r (pid @pid, spans @a) into @comm (@r->n);
 * false when a span begins inside a segment.
 */
static bool segment_comms(const struct pid_segs *r, const GArray *a, const char **comm)
{
	for (int i = 0; i < r->n; i++) {
		int s = span_at(a, r->range[i][0]);

		if (s != span_at(a, r->range[i][1]))
			return false;
		comm[i] = s < 0 ? NULL : g_array_index(a, struct span, s).comm;
	}
	return true;
}

/* NULL first, then as SQLite's BINARY collation (bytes, then length). */
static int comm_cmp(const char *x, const char *y)
{
	if (!x || !y)
		return (x != NULL) - (y != NULL);
	return strcmp(x, y);
}

static int key_cmp(const struct page_key *x, const struct page_key *y, int j)
{
	if (x->null[j] || y->null[j])
		return (!x->null[j]) - (!y->null[j]);
	return (x->k[j] > y->k[j]) - (x->k[j] < y->k[j]);
}

/* The SQL's GROUP BY order: pid, comm, then the key (lru; nid, file). */
static int multi_row_cmp(const void *a, const void *b)
{
	const struct multi_row *x = a, *y = b;
	int c;

	if (x->pid != y->pid)
		return (x->pid > y->pid) - (x->pid < y->pid);
	if ((c = comm_cmp(x->comm, y->comm)))
		return c;
	if ((c = key_cmp(&x->sum.key, &y->sum.key, 0)))
		return c;
	return key_cmp(&x->sum.key, &y->sum.key, 1);
}

/*
 * The rows of @multi's pids for lru_shrink_pages (@shrink) or
 * lru_isolate_pages, summed per comm of the span of each segment, into
 * @rows (GArray of struct multi_row), sorted and merged as the SQL's GROUP
 * BY would give them; false when a span begins inside a segment.
 */
static bool multi_rows(struct store_sums_acc *a, GHashTable *multi, GHashTable *spans,
		       bool shrink, GArray *rows)
{
	GHashTable *comms = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, free);
	GHashTableIter it;
	gpointer k, v;
	bool ok = true;
	guint n = 0;

	/* each pid's segments' comms */
	g_hash_table_iter_init(&it, multi);
	while (ok && g_hash_table_iter_next(&it, &k, NULL)) {
		const struct pid_segs *r = g_hash_table_lookup(a->segs, k);
		const char **c;

		if (!r)		/* no page events */
			continue;
		c = vr_calloc((size_t)r->n, sizeof(*c));
		g_hash_table_insert(comms, k, c);
		ok = segment_comms(r, g_hash_table_lookup(spans, k), c);
	}
	/* a pid's sums: per segment when kept so, else its one segment's */
	g_hash_table_iter_init(&it, shrink ? a->shrink : a->isolate);
	while (ok && g_hash_table_iter_next(&it, NULL, &v)) {
		const struct page_sum *p = v;
		const struct pid_segs *r = g_hash_table_lookup(a->segs, GINT_TO_POINTER(p->key.pid));
		const char **c = g_hash_table_lookup(comms, GINT_TO_POINTER(p->key.pid));

		if (c && !r->split)
			g_array_append_val(rows, ((struct multi_row){ p->key.pid, c[0], *p }));
	}
	g_hash_table_iter_init(&it, a->seg_sums);
	while (ok && g_hash_table_iter_next(&it, NULL, &v)) {
		const struct seg_sum *p = v;
		const char **c = g_hash_table_lookup(comms, GINT_TO_POINTER(p->key.key.pid));
		struct multi_row m = { p->key.key.pid, NULL,
				       { p->key.key, p->nr_scanned, p->nr_reclaimed, p->events } };

		if (!c || p->key.shrink != shrink)
			continue;
		m.comm = c[p->key.seg];
		g_array_append_val(rows, m);
	}
	g_hash_table_destroy(comms);
	if (!ok)
		return false;
	g_array_sort(rows, multi_row_cmp);
	for (guint i = 0; i < rows->len; i++) {	/* merge equal neighbours */
		struct multi_row *m = &g_array_index(rows, struct multi_row, i);
		struct multi_row *last = n ? &g_array_index(rows, struct multi_row, n - 1) : NULL;

		if (last && !multi_row_cmp(last, m))
			page_add(&last->sum, &m->sum);
		else
			g_array_index(rows, struct multi_row, n++) = *m;
	}
	g_array_set_size(rows, n);
	return true;
}

/* Insert @rows into lru_shrink_pages (@shrink) or lru_isolate_pages. */
static int insert_multi_rows(sqlite3 *db, const char *path, int64_t run_id, const GArray *rows,
			     bool shrink)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE;

	if (sqlite3_prepare_v2(db, shrink ? "INSERT INTO main.lru_shrink_pages VALUES (?1, ?2, ?3,"
					    " ?4, ?5, ?6, ?7, ?8)"
					  : "INSERT INTO main.lru_isolate_pages VALUES (?1, ?2, ?3,"
					    " ?4, ?5, ?6)", -1, &st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot write the sums: %s", path, sqlite3_errmsg(db));
	for (guint i = 0; rc == SQLITE_DONE && i < rows->len; i++) {
		const struct multi_row *m = &g_array_index(rows, struct multi_row, i);
		int c = 4;

		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_int(st, 2, m->pid);
		if (m->comm)
			sqlite3_bind_text(st, 3, m->comm, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 3);
		bind_key(st, c++, &m->sum.key, 0);
		if (shrink)
			bind_key(st, c++, &m->sum.key, 1);
		bind_sum(st, c++, &m->sum.nr_scanned);
		if (shrink)
			bind_sum(st, c++, &m->sum.nr_reclaimed);
		sqlite3_bind_int64(st, c, m->sum.events);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	return sums_written(db, st, rc, path);
}

/*
 * The rows of lru_isolate_pages and lru_shrink_pages of run @run_id's pids
 * with several task spans (@multi, not empty), from the sums per segment:
 * *@done true when written, false when a span began inside a segment (or
 * the spans are not as COMM_MANY reads them): the SQL pass then.  0 or -1
 * after a message.
 */
static int write_multi_pages(sqlite3 *db, const char *path, struct store_sums_acc *a,
			     int64_t run_id, GHashTable *multi, bool *done)
{
	GHashTable *spans = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, spans_free);
	GArray *rows[2] = { g_array_new(FALSE, FALSE, sizeof(struct multi_row)),
			    g_array_new(FALSE, FALSE, sizeof(struct multi_row)) };
	int ret = multi_spans(db, path, run_id, multi, spans);

	*done = false;
	if (ret == 1 && multi_rows(a, multi, spans, false, rows[0]) &&
	    multi_rows(a, multi, spans, true, rows[1])) {
		ret = insert_multi_rows(db, path, run_id, rows[0], false) ||
		      insert_multi_rows(db, path, run_id, rows[1], true) ? -1 : 0;
		*done = ret == 0;
	}
	g_array_free(rows[0], TRUE);
	g_array_free(rows[1], TRUE);
	g_hash_table_destroy(spans);
	return ret < 0 ? -1 : 0;
}

/* lru_shrink_stall's rows of run @run_id as the model counted them. */
static int write_stall(sqlite3 *db, const char *path, int64_t run_id,
		       const struct model_stall_pages *rows, int n)
{
	sqlite3_stmt *st;
	int rc = SQLITE_DONE;

	if (sqlite3_prepare_v2(db, "INSERT INTO main.lru_shrink_stall VALUES (?1, ?2, ?3, ?4, ?5)",
			       -1, &st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot write the sums: %s", path, sqlite3_errmsg(db));
	for (int i = 0; rc == SQLITE_DONE && i < n; i++) {
		sqlite3_bind_int64(st, 1, run_id);
		sqlite3_bind_text(st, 2, rows[i].kind, -1, SQLITE_STATIC);
		if (rows[i].nr_scanned != MODEL_NULL)
			sqlite3_bind_int64(st, 3, rows[i].nr_scanned);
		else
			sqlite3_bind_null(st, 3);
		if (rows[i].nr_reclaimed != MODEL_NULL)
			sqlite3_bind_int64(st, 4, rows[i].nr_reclaimed);
		else
			sqlite3_bind_null(st, 4);
		sqlite3_bind_int64(st, 5, rows[i].events);
		rc = sqlite3_step(st);
		sqlite3_reset(st);
	}
	return sums_written(db, st, rc, path);
}

int store_sums_commit(sqlite3 *db, const char *path, struct store_sums_acc *a, int64_t run_id,
		      int64_t first_ns, const struct model_stall_pages *stall, int nstall)
{
	GHashTable *multi = NULL;
	bool multi_done = false;
	int ret = -1;

	if (!a)
		return vr_error("%s: not open to write", path);
	bool ms_sql;

	if (a->ms_have && a->ms_base != first_ns)
		a->ms_moved = true;	/* the first event came later */
	ms_sql = a->ms_moved;
	/* rows written by a flush: merged with those written now */
	bool ms_merged = !ms_sql && a->ms_written;

	if (store_sums_acc_write(a, db, run_id) ||
	    exec_run(db, path, slab_merge, run_id, "cannot write slab_shrink_ns") ||
	    exec_run(db, path, ms_sql ? "DELETE FROM main.lru_reclaim_ms WHERE run_id = ?1" :
			       ms_merged ? ms_merge : NULL,
		     run_id, "cannot write lru_reclaim_ms") ||
	    !(multi = multi_span_pids(db, path, run_id)) || write_pages(db, path, a, run_id, multi, false) ||
	    write_pages(db, path, a, run_id, multi, true) ||
	    (g_hash_table_size(multi) &&
	     write_multi_pages(db, path, a, run_id, multi, &multi_done)) ||
	    (nstall >= 0 && write_stall(db, path, run_id, stall, nstall)))
		goto out;
	for (size_t i = 0; i < store_sums_count; i++) {
		const struct store_sum *v = &store_sums[i];
		bool paged = !strcmp(v->name, "lru_isolate_pages") ||
			     !strcmp(v->name, "lru_shrink_pages");
		char *body, *sql;
		int rc;

		if (v->evidence_only || (paged && (!g_hash_table_size(multi) || multi_done)) ||
		    (nstall >= 0 && !strcmp(v->name, "lru_shrink_stall")) ||
		    (v->counted && !(ms_sql && !strcmp(v->name, "lru_reclaim_ms"))))
			continue;
		body = store_sum_run_sql(v, db, paged);
		sql = sqlite3_mprintf("INSERT INTO main.\"%w\" %s", v->name, body);
		free(body);
		rc = exec_run(db, path, sql, run_id, "cannot write the sums");
		sqlite3_free(sql);
		if (rc)
			goto out;
	}
	ret = 0;
out:
	if (multi)
		g_hash_table_destroy(multi);
	acc_clear(a);
	return ret;
}
