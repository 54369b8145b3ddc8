// SPDX-License-Identifier: GPL-2.0
/*
 * coverage.c - the coverage table (coverage.h has the mapping and its
 * sources): the vmstat deltas of a run's snapshots beside the trace's own
 * counts over the time between the snapshot markers.
 */
#include "store/store-tables.h"
#include "coverage.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

#include <glib.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>


/* Far outside any trace: the window of a missing marker. */
#define FAR_NS INT64_C(4000000000000000000)
/* Pages of the largest folio reclaim writes: a PMD-size THP of 4 KiB pages
 * (HPAGE_PMD_NR, x86-64). */
#define MAX_FOLIO_PAGES 512

/* Who a page count belongs to, as reclaimer_offset() and cgroup_reclaim()
 * of mm/vmscan.c decide. */
enum reclaimer { R_KSWAPD, R_DIRECT, R_KHUGEPAGED, R_CGROUP, R_COUNT };

struct interval {
	int64_t begin_ns, end_ns;
};

struct cov {
	struct store *st;
	int64_t run_id;
	int version;			/* major * 1000 + minor, 0 if unknown */
	int64_t t0, t1;			/* the window, ns */
	bool mglru;			/* lru_gen/enabled has bit 0 set */
	int ncpus;
	int64_t lost;			/* events lost in the window (known counts) */
	int64_t lost_marks;		/* lost-events marks in the window */
	GHashTable *cgroup;		/* pid -> GArray of struct interval: memcg
					 * and soft-limit reclaim stalls */
	GHashTable *kswapd;		/* pids named kswapd* */
	GHashTable *khugepaged;		/* pids named khugepaged */
	int64_t open_cgroup;		/* cgroup stalls begun before the trace */
	int64_t scan[R_COUNT], taken[R_COUNT], refill, steal[R_COUNT];
	int64_t scan_type[2], taken_type[2], steal_type[2];	/* [0] anon, [1] file:
						 * every reclaimer, cgroup too */
	bool have_isolate, have_lru, have_shrink;
	int position;
	int64_t batch_bound;		/* per-CPU deltas of node counters, pages */
};

static int64_t parse_version(const char *rel)
{
	int maj = 0, min = 0;

	if (!rel || sscanf(rel, "%d.%d", &maj, &min) != 2)
		return 0;
	return maj * 1000 + min;
}

/* A number of snapshot file @file ("vmstat", "memory.stat"): *@delta = end
 * - start, summed over the names @glob matches; 0 if not both. */
static int file_delta(struct cov *c, const char *file, const char *glob, int64_t *delta)
{
	struct store_stmt *q = store_stmt_new(c->st, "SELECT count(*), sum(end_value - start_value)"
					      " FROM snapshot_counter WHERE run_id = ?1 AND file ="
					      " ?3 AND name GLOB ?2 AND start_value IS NOT NULL"
					      " AND end_value IS NOT NULL", "coverage: snapshot deltas");
	int64_t v[2];
	int r;

	store_bind_int64(q, 1, c->run_id);
	store_bind_text(q, 2, glob);
	store_bind_text(q, 3, file);
	r = store_stmt_row_int64(q, v, 2);
	store_stmt_free(q);
	*delta = v[1];
	return r < 0 ? -1 : v[0] > 0;
}

/* A number of the vmstat snapshots: *@delta = end - start; 0 if not both. */
static int vmstat_delta(struct cov *c, const char *glob, int64_t *delta)
{
	return file_delta(c, "vmstat", glob, delta);
}

/* Was event @name recorded in the run (its format in the trace)? */
static bool recorded(struct cov *c, const char *name)
{
	struct store_stmt *q = store_stmt_new(c->st, "SELECT count(*) FROM run_event_count WHERE"
					      " run_id = ?1 AND name = ?2", "coverage: events");
	int64_t n = 0;

	store_bind_int64(q, 1, c->run_id);
	store_bind_text(q, 2, name);
	store_stmt_row_int64(q, &n, 1);
	store_stmt_free(q);
	return n > 0 && store_has_table(c->st, name) == 1;
}

/* One int64 from @sql with ?1 run, ?2 t0, ?3 t1. */
static int64_t window_count(struct cov *c, const char *sql)
{
	struct store_stmt *q = store_stmt_new(c->st, sql, "coverage: trace counts");
	int64_t n = 0;

	store_bind_int64(q, 1, c->run_id);
	store_bind_int64(q, 2, c->t0);
	store_bind_int64(q, 3, c->t1);
	if (store_stmt_row_int64(q, &n, 1) < 0)
		n = -1;
	store_stmt_free(q);
	return n;
}

static int row_pids(struct store_stmt *q, void *arg)
{
	struct cov *c = arg;
	const char *comm = store_col_text(q, 1);
	int pid = store_col_int(q, 0);

	if (comm && !strncmp(comm, "kswapd", 6))
		g_hash_table_add(c->kswapd, GINT_TO_POINTER(pid));
	if (comm && !strcmp(comm, "khugepaged"))
		g_hash_table_add(c->khugepaged, GINT_TO_POINTER(pid));
	return 0;
}

static int row_stall(struct store_stmt *q, void *arg)
{
	struct cov *c = arg;
	int pid = store_col_int(q, 0);
	struct interval iv = {
		store_col_is_null(q, 1) ? -FAR_NS : store_col_int64(q, 1),
		store_col_is_null(q, 2) ? FAR_NS : store_col_int64(q, 2),
	};
	GArray *a = g_hash_table_lookup(c->cgroup, GINT_TO_POINTER(pid));

	if (!a) {
		a = g_array_new(false, false, sizeof(struct interval));
		g_hash_table_insert(c->cgroup, GINT_TO_POINTER(pid), a);
	}
	g_array_append_val(a, iv);
	c->open_cgroup += store_col_is_null(q, 1);
	return 0;
}

static void free_array(gpointer p)
{
	g_array_free(p, true);
}

/* Who counted the pages of an event of @pid at @ts_ns. */
static enum reclaimer reclaimer_of(struct cov *c, int pid, int64_t ts_ns)
{
	GArray *a = g_hash_table_lookup(c->cgroup, GINT_TO_POINTER(pid));

	for (guint i = 0; a && i < a->len; i++) {
		struct interval *iv = &g_array_index(a, struct interval, i);

		if (ts_ns >= iv->begin_ns && ts_ns <= iv->end_ns)
			return R_CGROUP;
	}
	if (g_hash_table_contains(c->kswapd, GINT_TO_POINTER(pid)))
		return R_KSWAPD;
	/* 6.3+ counts khugepaged apart (reclaimer_offset()) */
	if (c->version >= 6003 && g_hash_table_contains(c->khugepaged, GINT_TO_POINTER(pid)))
		return R_KHUGEPAGED;
	return R_DIRECT;
}

static int row_isolate(struct store_stmt *q, void *arg)
{
	struct cov *c = arg;
	enum reclaimer r = reclaimer_of(c, store_col_int(q, 0), store_col_int64(q, 1));
	int64_t lru = store_col_int64(q, 2);

	if (store_col_is_null(q, 2))
		return 0;
	c->have_lru = true;
	if (lru == 0 || lru == 2) {	/* LRU_INACTIVE_ANON, LRU_INACTIVE_FILE */
		c->scan[r] += store_col_int64(q, 3);
		c->taken[r] += store_col_int64(q, 4);
		c->scan_type[lru == 2] += store_col_int64(q, 3);
		c->taken_type[lru == 2] += store_col_int64(q, 4);
	} else if ((lru == 1 || lru == 3) && r != R_CGROUP) {
		c->refill += store_col_int64(q, 3);
	}
	return 0;
}

static int row_shrink(struct store_stmt *q, void *arg)
{
	struct cov *c = arg;

	c->steal[reclaimer_of(c, store_col_int(q, 0), store_col_int64(q, 1))] +=
		store_col_int64(q, 2);
	/* trace_reclaim_flags(): RECLAIM_WB_FILE 0x2 (include/trace/events/vmscan.h) */
	c->steal_type[(store_col_int64(q, 3) & 0x2) != 0] += store_col_int64(q, 2);
	return 0;
}

/*
 * Stream columns @cols of the run's events of @event in the window through
 * @row: of the run's own rows only (store_run_event_source()), whatever
 * the database holds besides.
 */
static int each_event(struct cov *c, const char *cols, const char *event,
		      int (*row)(struct store_stmt *, void *))
{
	char *from = store_run_event_source(c->st, c->run_id, event);
	struct store_stmt *q = store_stmt_newf(c->st, "coverage: reclaim events", "SELECT %s FROM %s"
					       " WHERE run_id = ?1 AND ts_ns BETWEEN ?2 AND ?3",
					       cols, from);
	int r;

	free(from);
	store_bind_int64(q, 1, c->run_id);
	store_bind_int64(q, 2, c->t0);
	store_bind_int64(q, 3, c->t1);
	r = store_stmt_each(q, row, c);
	store_stmt_free(q);
	return r;
}

/* The sums of the LRU events in the window. */
static int lru_sums(struct cov *c)
{
	struct store_stmt *q;
	int r;

	q = store_stmt_new(c->st, "SELECT pid, comm FROM task WHERE run_id = ?1",
			   "coverage: kswapd pids");
	store_bind_int64(q, 1, c->run_id);
	r = store_stmt_each(q, row_pids, c);
	store_stmt_free(q);
	q = store_stmt_new(c->st, "SELECT pid, begin_ns, end_ns FROM reclaim_stall WHERE run_id ="
			   " ?1 AND kind IN ('memcg', 'memcg_softlimit')", "coverage: cgroup stalls");
	store_bind_int64(q, 1, c->run_id);
	r = r ?: store_stmt_each(q, row_stall, c);
	store_stmt_free(q);
	c->have_isolate = recorded(c, "mm_vmscan_lru_isolate");
	c->have_shrink = recorded(c, "mm_vmscan_lru_shrink_inactive");
	if (!r && c->have_isolate)
		r = each_event(c, "pid, ts_ns, lru, nr_scanned, nr_taken", "mm_vmscan_lru_isolate",
			       row_isolate);
	if (!r && c->have_shrink)
		r = each_event(c, "pid, ts_ns, nr_reclaimed, reclaim_flags",
			       "mm_vmscan_lru_shrink_inactive", row_shrink);
	return r;
}

/* One row of the table, before it is written. */
struct cov_row {
	const char *counter;		/* vmstat name (allocstall: the sum) */
	const char *glob;		/* the vmstat names summed */
	const char *file;		/* NULL: vmstat; "memory.stat" */
	const char *vmstat_unit, *trace_unit;
	bool traced;			/* trace_value known */
	int64_t trace;
	const char *not_traced;		/* why not: "not traced: ..." */
	bool not_recorded;		/* the events are not in the trace */
	int64_t bound;			/* K_MEMCG: the pages of other reclaim */
};

/* The lost events of the window, in words, or NULL if none. */
static void say_lost(struct cov *c, GString *why)
{
	if (c->lost_marks)
		g_string_append_printf(why, "%s%lld events lost in the window (%lld marks)",
				       why->len ? "; " : "", (long long)c->lost,
				       (long long)c->lost_marks);
}

/* The trace is counted over a wider time than the snapshots: a missing
 * marker.  Says so when the trace counts more (@diff < 0). */
static void say_no_marker(struct cov *c, int64_t diff, GString *why)
{
	if (diff < 0 && (c->t0 == -FAR_NS || c->t1 == FAR_NS))
		g_string_append_printf(why, "%sno snapshot marker in the trace: it is counted from"
				       " its %s, a wider time than the snapshots'", why->len ? "; " : "",
				       c->t0 == -FAR_NS && c->t1 == FAR_NS ? "first event to its last"
				       : c->t0 == -FAR_NS ? "first event" : "start marker to its end");
}

/* pgscan, pgsteal, pgrefill, allocstall, pageoutrun: the same count. */
static const char *explain_exact(struct cov *c, const struct cov_row *r, int64_t diff,
				 GString *why)
{
	if (!diff)
		return "exact";
	say_lost(c, why);
	if (c->open_cgroup && (strstr(r->counter, "direct") || strstr(r->counter, "kswapd")))
		g_string_append_printf(why, "%s%lld memcg stall(s) under way at the trace start:"
				       " their pages may be counted as %s", why->len ? "; " : "",
				       (long long)c->open_cgroup, strstr(r->counter, "direct") ?
				       "direct reclaim" : "kswapd");
	say_no_marker(c, diff, why);
	return why->len ? "explained" : "unexplained";
}

/*
 * kswapd_*_wmark_hit_quickly: kswapd counts them just before a
 * kswapd_wake; the trace does not know the nap before a node's first wake
 * (a nap running when tracing began), nor the decision of a cycle whose
 * events were lost.  And a nap the trace sees end less than a jiffy before
 * its HZ/10 timeout (kswapd_cycle.nap_margin_ns, decision_exact 0) is
 * nap_woken_early to the trace, but kswapd_try_to_sleep() (mm/vmscan.c,
 * 6.1) counts LOW only when schedule_timeout() returned a nonzero number
 * of jiffies left, HIGH when it returned 0: the timer's expiry is N - f
 * jiffies after the switch-out (f untraced), and in a guest the trace
 * clock and jiffies drift apart.  Each such nap may move one count from
 * LOW to HIGH: LOW's vmstat - trace down to -uncertain, HIGH's up to
 * +uncertain.  @low: the row is kswapd_low_wmark_hit_quickly.
 */
static const char *explain_wmark(struct cov *c, bool low, int64_t diff, GString *why)
{
	int64_t unknown = 0, first = 0, uncertain;

	if (!diff)
		return "exact";
	uncertain = window_count(c, "SELECT count(*) FROM kswapd_cycle WHERE run_id = ?1 AND"
				 " decision = 'nap_woken_early' AND decision_exact = 0 AND"
				 " nap_margin_ns IS NOT NULL AND next_wake_ns BETWEEN ?2 AND ?3");
	if (!low) {
		unknown = window_count(c, "SELECT count(*) FROM kswapd_cycle WHERE run_id = ?1 AND"
				       " decision = 'unknown' AND next_wake_ns BETWEEN ?2 AND ?3");
		first = window_count(c, "SELECT count(*) FROM (SELECT nid, min(wake_ns) AS w FROM"
				     " kswapd_cycle WHERE run_id = ?1 AND wake_ns IS NOT NULL GROUP BY"
				     " nid) f WHERE f.w BETWEEN ?2 AND ?3 AND NOT EXISTS (SELECT 1 FROM"
				     " kswapd_cycle k WHERE k.run_id = ?1 AND k.nid = f.nid AND"
				     " k.next_wake_ns = f.w AND k.decision <> 'unknown')");
	}
	say_lost(c, why);
	if (!low && diff > 0 && diff <= unknown + first + uncertain) {
		if (first)
			g_string_append_printf(why, "%s%lld node(s) whose first kswapd_wake ends a nap"
					       " the trace did not see begin (running at its start)",
					       why->len ? "; " : "", (long long)first);
		if (unknown)
			g_string_append_printf(why, "%s%lld kswapd cycle(s) of unknown decision",
					       why->len ? "; " : "", (long long)unknown);
	}
	if (((!low && diff > 0 && diff <= unknown + first + uncertain) ||
	     (low && diff < 0 && -diff <= uncertain)) && uncertain)
		g_string_append_printf(why, "%s%lld nap(s) ended within a jiffy of the 100 ms"
				       " timeout (nap_margin_ns): woken early to the trace, timed out to"
				       " the kernel where schedule_timeout() returned 0 jiffies left", why->len ? "; " : "",
				       (long long)uncertain);
	say_no_marker(c, diff, why);
	return why->len ? "explained" : "unexplained";
}

/* nr_vmscan_write: pages against folios, and the per-CPU deltas. */
static const char *explain_write(struct cov *c, int64_t delta, int64_t trace, GString *why)
{
	int64_t b = c->batch_bound;

	if (delta == trace)
		return "exact";
	if (delta + b >= trace && delta - b <= trace * MAX_FOLIO_PAGES) {
		g_string_append_printf(why, "vmstat counts pages, the trace one event per folio (a"
				       " large folio is one event, up to %d pages)", MAX_FOLIO_PAGES);
		if (b)
			g_string_append_printf(why, "; per-CPU counter deltas up to %lld pages",
					       (long long)b);
	}
	say_lost(c, why);
	return why->len ? "explained" : "unexplained";
}

/* pswpout: pages of every swap write against reclaim's anon folio writes. */
static const char *explain_swap(struct cov *c, int64_t delta, int64_t trace, GString *why)
{
	int64_t zswap = 0, zero = 0;

	if (delta == trace)
		return "exact";
	if (vmstat_delta(c, "zswpout", &zswap) < 0 || vmstat_delta(c, "swpout_zero", &zero) < 0)
		return "unexplained";
	if (delta <= trace * MAX_FOLIO_PAGES && delta + zswap + zero >= trace) {
		g_string_append(why, "pswpout counts pages, the trace one event per folio (up to"
				" 512 pages)");
		if (delta < trace)
			g_string_append_printf(why, "; not written to swap: %lld pages stored by"
					       " zswap (zswpout), %lld zero-filled (swpout_zero)",
					       (long long)zswap, (long long)zero);
	}
	say_lost(c, why);
	return why->len ? "explained" : "unexplained";
}

static int write_row(struct cov *c, const struct cov_row *r, int64_t delta, const char *verdict,
		     const char *why)
{
	struct store_stmt *q = store_stmt_new(c->st, "INSERT INTO counter_coverage (run_id,"
					      " position, counter, vmstat_unit, trace_unit,"
					      " vmstat_delta, trace_value, difference, verdict,"
					      " explanation) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8,"
					      " ?9, ?10)", "coverage rows");
	int ret;

	store_bind_int64(q, 1, c->run_id);
	store_bind_int(q, 2, c->position++);
	store_bind_text(q, 3, r->counter);
	store_bind_text(q, 4, r->vmstat_unit);
	store_bind_text(q, 5, r->trace_unit);
	store_bind_int64(q, 6, delta);
	if (r->traced) {
		store_bind_int64(q, 7, r->trace);
		store_bind_int64(q, 8, delta - r->trace);
	}
	store_bind_text(q, 9, verdict);
	if (why && *why)
		store_bind_text(q, 10, why);
	ret = store_step(q) < 0 ? -1 : 0;
	store_stmt_free(q);
	return ret;
}

enum row_kind { K_EXACT, K_WMARK, K_WRITE, K_SWAP, K_MEMCG };

/*
 * The cgroup's memory.stat (cgroup v2, record --cgroup): its pgscan_direct
 * and pgsteal_direct (and pgscan, pgsteal: kswapd's, direct's and from 6.3
 * khugepaged's) count the pages of the cgroup's lruvecs, and of its
 * descendants', reclaimed by any reclaimer, memcg reclaim included
 * (shrink_inactive_list() counts __count_memcg_events(lruvec_memcg(), item)
 * whatever cgroup_reclaim(sc) says; mm/vmscan.c 6.1, 6.18).  The trace
 * names no cgroup: it gives the pages of memcg reclaim (inside a
 * memcg_reclaim_begin/end, c->scan[R_CGROUP]), and of kswapd and direct
 * reclaim, which may have been the cgroup's: memory.stat above the memcg
 * reclaim's pages by up to those is explained by them.  @bound: those
 * pages of the window.
 */
static const char *explain_memcg(struct cov *c, int64_t diff, int64_t bound, GString *why)
{
	if (!diff)
		return "exact";
	say_lost(c, why);
	if (diff > 0 && diff <= bound)
		g_string_append_printf(why, "%s%lld pages of kswapd, direct or khugepaged reclaim in"
				       " the window, of any cgroup (the trace names none): memory.stat"
				       " counts those of this cgroup", why->len ? "; " : "",
				       (long long)bound);
	say_no_marker(c, diff, why);
	return why->len ? "explained" : "unexplained";
}

/* Write row @r if the kernel has its counter. */
static int add_row(struct cov *c, struct cov_row *r, enum row_kind kind)
{
	int64_t delta;
	int have = file_delta(c, r->file ? r->file : "vmstat", r->glob ? r->glob : r->counter,
			      &delta);
	const char *verdict;
	GString *why;
	int ret;

	if (have <= 0)
		return have;
	if (r->not_recorded)
		return write_row(c, r, delta, "not recorded", r->not_traced);
	if (!r->traced)
		return write_row(c, r, delta, "not traced", r->not_traced);
	why = g_string_new(NULL);
	switch (kind) {
	case K_WMARK: verdict = explain_wmark(c, strstr(r->counter, "_low_") != NULL,
					       delta - r->trace, why); break;
	case K_WRITE: verdict = explain_write(c, delta, r->trace, why); break;
	case K_SWAP: verdict = explain_swap(c, delta, r->trace, why); break;
	case K_MEMCG: verdict = explain_memcg(c, delta - r->trace, r->bound, why); break;
	default: verdict = explain_exact(c, r, delta - r->trace, why); break;
	}
	ret = write_row(c, r, delta, verdict, why->str);
	g_string_free(why, true);
	return ret;
}

/*
 * The most a node counter read from /proc/vmstat can miss in one snapshot:
 * each CPU holds up to its "vm stats threshold" per node (mm/vmstat.c
 * refresh_zone_stat_thresholds(): a node's per-CPU threshold is the
 * largest of its zones'), so per node the largest threshold in @zoneinfo
 * times @ncpus, summed over the nodes.
 */
static int64_t zoneinfo_bound(const char *zoneinfo, int ncpus)
{
	int64_t sum = 0, node_max = 0;
	int node = -1, n, t;

	for (const char *p = zoneinfo; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (sscanf(p, "Node %d,", &n) == 1 && n != node) {
			sum += node_max * ncpus;
			node_max = 0;
			node = n;
		} else if (sscanf(p, " vm stats threshold: %d", &t) == 1 && t > node_max) {
			node_max = t;
		}
	}
	return sum + node_max * ncpus;
}

/* The run's facts: kernel, CPUs, window, multi-gen LRU, lost events,
 * per-CPU delta bound.  0, or 1 when the run has no vmstat snapshot. */
static int cov_facts(struct cov *c)
{
	struct store_stmt *q;
	int64_t v[2];
	int r;

	q = store_stmt_new(c->st, "SELECT kernel_release, coalesce(cpus, 0) FROM run WHERE id = ?1",
			   "coverage: run");
	store_bind_int64(q, 1, c->run_id);
	if ((r = store_step(q)) == 1) {
		c->version = (int)parse_version(store_col_text(q, 0));
		c->ncpus = store_col_int(q, 1);
	}
	store_stmt_free(q);
	if (r < 0)
		return -1;
	q = store_stmt_new(c->st, "SELECT count(*), coalesce(max(CASE moment WHEN 'start' THEN ts_ns"
			   " END), ?2), coalesce(max(CASE moment WHEN 'end' THEN ts_ns END), ?3),"
			   " max(CASE WHEN file = 'lru_gen-enabled' THEN content END) FROM run_snapshot"
			   " WHERE run_id = ?1 AND file IN ('vmstat', 'lru_gen-enabled')",
			   "coverage: snapshots");
	store_bind_int64(q, 1, c->run_id);
	store_bind_int64(q, 2, -FAR_NS);
	store_bind_int64(q, 3, FAR_NS);
	if ((r = store_step(q)) == 1) {
		const char *lru_gen = store_col_text(q, 3);

		c->t0 = store_col_int64(q, 1);
		c->t1 = store_col_int64(q, 2);
		/* LRU_GEN_CORE, bit 0 (Documentation/admin-guide/mm/multigen_lru.rst) */
		c->mglru = lru_gen && (strtoul(lru_gen, NULL, 16) & 1);
		r = store_col_int(q, 0) ? 0 : 1;
	}
	store_stmt_free(q);
	if (r)
		return r;
	c->lost = window_count(c, "SELECT coalesce(sum(count), 0) FROM lost_events WHERE run_id = ?1"
			       " AND ts_ns BETWEEN ?2 AND ?3");
	c->lost_marks = window_count(c, "SELECT count(*) FROM lost_events WHERE run_id = ?1 AND"
				     " ts_ns BETWEEN ?2 AND ?3");
	q = store_stmt_new(c->st, "SELECT content FROM run_snapshot WHERE run_id = ?1 AND file ="
			   " 'zoneinfo'", "coverage: zoneinfo");
	store_bind_int64(q, 1, c->run_id);
	while ((r = store_step(q)) == 1)
		c->batch_bound += zoneinfo_bound(store_col_text(q, 0), c->ncpus);
	store_stmt_free(q);
	(void)v;
	return r < 0 ? -1 : 0;
}

/* The LRU rows: pgscan, pgsteal per reclaimer, pgrefill. */
static int lru_rows(struct cov *c)
{
	static const char *const scan[] = { "pgscan_kswapd", "pgscan_direct", "pgscan_khugepaged" };
	static const char *const steal[] = { "pgsteal_kswapd", "pgsteal_direct",
					     "pgsteal_khugepaged" };
	const char *why = NULL;
	bool nr = false;
	int ret = 0;

	if (c->mglru && c->version < 6007)
		why = "not traced: the multi-gen LRU emits no lru_isolate or shrink_inactive event"
		      " before 6.7";
	else if (c->have_isolate && !c->have_lru && (c->scan[0] || c->scan[1] || c->scan[2]))
		why = "not traced: lru_isolate has no lru field before 4.11";
	for (int i = 0; !ret && i < 3; i++) {
		struct cov_row r = { scan[i], NULL, NULL, "pages", "pages", !why && c->have_isolate,
				     c->mglru ? c->taken[i] : c->scan[i], why, false, 0 };

		if (!why && !c->have_isolate)
			r.not_traced = "not recorded: no mm_vmscan_lru_isolate in the trace", nr = true;
		r.not_recorded = nr;
		ret = add_row(c, &r, K_EXACT);
		nr = false;
	}
	for (int i = 0; !ret && i < 3; i++) {
		struct cov_row r = { steal[i], NULL, NULL, "pages", "pages", !why && c->have_shrink,
				     c->steal[i], why, false, 0 };

		if (!why && !c->have_shrink)
			r.not_traced = "not recorded: no mm_vmscan_lru_shrink_inactive in the trace",
			r.not_recorded = true;
		ret = add_row(c, &r, K_EXACT);
	}
	for (int i = 0; !ret && i < 2; i++) {
		static const char *const names[2][2] = { { "pgscan_anon", "pgscan_file" },
							  { "pgsteal_anon", "pgsteal_file" } };
		struct cov_row r = { names[0][i], NULL, NULL, "pages", "pages",
				     !why && c->have_isolate,
				     c->mglru ? c->taken_type[i] : c->scan_type[i], why, false, 0 };
		struct cov_row t = { names[1][i], NULL, NULL, "pages", "pages",
				     !why && c->have_shrink, c->steal_type[i], why, false,
				     0 };

		if (!why && !c->have_isolate)
			r.not_traced = "not recorded: no mm_vmscan_lru_isolate in the trace",
			r.not_recorded = true;
		if (!why && !c->have_shrink)
			t.not_traced = "not recorded: no mm_vmscan_lru_shrink_inactive in the trace",
			t.not_recorded = true;
		ret = add_row(c, &r, K_EXACT) || add_row(c, &t, K_EXACT);
	}
	if (!ret) {
		struct cov_row r = { "pgrefill", NULL, NULL, "pages", "pages", !why && !c->mglru &&
				     c->have_isolate, c->refill, why, false, 0 };

		if (!why && c->mglru)
			r.not_traced = "not traced: the multi-gen LRU counts the folios scan_folios()"
				       " sorted, which no event gives";
		else if (!why && !c->have_isolate)
			r.not_traced = "not recorded: no mm_vmscan_lru_isolate in the trace",
			r.not_recorded = true;
		ret = add_row(c, &r, K_EXACT);
	}
	return ret;
}

/*
 * The rows of the cgroup's memory.stat (explain_memcg()): pgscan, pgsteal
 * and their _direct parts against the pages of memcg reclaim; their
 * _kswapd parts are not traced (kswapd's pages are not told apart by
 * cgroup).  A cgroup v1 memory.stat (no pgscan) has none.
 */
static int memcg_rows(struct cov *c)
{
	int64_t other_scan = c->scan[R_KSWAPD] + c->scan[R_DIRECT] + c->scan[R_KHUGEPAGED];
	int64_t other_steal = c->steal[R_KSWAPD] + c->steal[R_DIRECT] + c->steal[R_KHUGEPAGED];
	const char *why = NULL;
	int ret = 0;

	if (c->mglru && c->version < 6007)
		why = "not traced: the multi-gen LRU emits no lru_isolate or shrink_inactive event"
		      " before 6.7";
	struct {
		const char *counter, *name;
		bool isolate;		/* from lru_isolate (else shrink_inactive) */
		int64_t trace, bound;
	} def[] = {
		{ "memory.stat pgscan", "pgscan", true, c->scan[R_CGROUP], other_scan },
		{ "memory.stat pgsteal", "pgsteal", false, c->steal[R_CGROUP], other_steal },
		{ "memory.stat pgscan_direct", "pgscan_direct", true, c->scan[R_CGROUP],
		  c->scan[R_DIRECT] },
		{ "memory.stat pgsteal_direct", "pgsteal_direct", false, c->steal[R_CGROUP],
		  c->steal[R_DIRECT] },
		{ "memory.stat pgscan_kswapd", "pgscan_kswapd", true, 0, 0 },
		{ "memory.stat pgsteal_kswapd", "pgsteal_kswapd", false, 0, 0 },
	};
	for (size_t i = 0; !ret && i < VR_ARRAY_SIZE(def); i++) {
		bool have = def[i].isolate ? c->have_isolate : c->have_shrink;
		bool kswapd = strstr(def[i].name, "kswapd") != NULL;
		struct cov_row r = { def[i].counter, def[i].name, "memory.stat", "pages", "pages",
				     !why && have && !kswapd, def[i].trace, why, false,
				     def[i].bound };

		if (!why && !have)
			r.not_traced = def[i].isolate ?
				"not recorded: no mm_vmscan_lru_isolate in the trace" :
				"not recorded: no mm_vmscan_lru_shrink_inactive in the trace",
			r.not_recorded = true;
		else if (!why && kswapd)
			r.not_traced = "not traced: kswapd's pages are not told apart by cgroup";
		ret = add_row(c, &r, K_MEMCG);
	}
	return ret;
}

/* A row counted by @sql over the window, if @event was recorded. */
static int count_row(struct cov *c, const char *counter, const char *glob, const char *unit,
		     const char *event, const char *event2, const char *sql, enum row_kind kind)
{
	bool have = recorded(c, event) || (event2 && recorded(c, event2));
	struct cov_row r = { counter, glob, NULL, kind == K_EXACT || kind == K_WMARK ? "count" :
			     "pages", unit, have, have ? window_count(c, sql) : 0, NULL, !have, 0 };
	char why[160];

	if (!have) {
		snprintf(why, sizeof(why), "not recorded: no %s in the trace", event);
		r.not_traced = why;
	}
	if (have && r.trace < 0)
		return -1;
	return add_row(c, &r, kind);
}

#define IN_WINDOW " WHERE run_id = ?1 AND ts_ns BETWEEN ?2 AND ?3"
#define NEXT_WAKE_IN_WINDOW " AND next_wake_ns BETWEEN ?2 AND ?3"

static int event_rows(struct cov *c)
{
	return count_row(c, "allocstall", "allocstall*", "count", "mm_vmscan_direct_reclaim_begin",
			 NULL, "SELECT count(*) FROM mm_vmscan_direct_reclaim_begin" IN_WINDOW,
			 K_EXACT) ||
	       count_row(c, "pageoutrun", NULL, "count", "mm_vmscan_kswapd_wake", NULL,
			 "SELECT count(*) FROM mm_vmscan_kswapd_wake" IN_WINDOW, K_EXACT) ||
	       count_row(c, "kswapd_low_wmark_hit_quickly", NULL, "count", "mm_vmscan_kswapd_wake",
			 NULL, "SELECT count(*) FROM kswapd_cycle WHERE run_id = ?1 AND decision ="
			 " 'nap_woken_early'" NEXT_WAKE_IN_WINDOW, K_WMARK) ||
	       count_row(c, "kswapd_high_wmark_hit_quickly", NULL, "count", "mm_vmscan_kswapd_wake",
			 NULL, "SELECT count(*) FROM kswapd_cycle WHERE run_id = ?1 AND decision IN"
			 " ('no_nap', 'nap_timed_out')" NEXT_WAKE_IN_WINDOW, K_WMARK) ||
	       count_row(c, "nr_vmscan_write", NULL, "folios", "mm_vmscan_write_folio",
			 "mm_vmscan_writepage", "SELECT count(*) FROM reclaim_write" IN_WINDOW,
			 K_WRITE) ||
	       count_row(c, "pswpout", NULL, "folios", "mm_vmscan_write_folio",
			 "mm_vmscan_writepage", "SELECT count(*) FROM reclaim_write" IN_WINDOW
			 " AND file = 0", K_SWAP) ? -1 : 0;
}

int coverage_compute(struct store *st, int64_t run_id)
{
	struct cov c = { .st = st, .run_id = run_id };
	int r;

	if (store_exec(st, COVERAGE_SCHEMA, "cannot create the coverage table"))
		return -1;
	c.cgroup = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, free_array);
	c.kswapd = g_hash_table_new(g_direct_hash, g_direct_equal);
	c.khugepaged = g_hash_table_new(g_direct_hash, g_direct_equal);
	r = cov_facts(&c);
	if (!r)
		r = lru_sums(&c) || lru_rows(&c) || event_rows(&c) || memcg_rows(&c) ? -1 : 0;
	g_hash_table_destroy(c.cgroup);
	g_hash_table_destroy(c.kswapd);
	g_hash_table_destroy(c.khugepaged);
	return r < 0 ? -1 : 0;
}

/* ---- reading it ---------------------------------------------------------- */

static bool have_coverage(struct store *st)
{
	return store_has_table(st, "counter_coverage") == 1;
}

int coverage_line(struct store *st, int64_t run_id, bool compact, char **line)
{
	struct store_stmt *q;
	GString *exact = g_string_new(NULL), *rest = g_string_new(NULL);
	int r, n = 0, nexact = 0;

	*line = NULL;
	if (!have_coverage(st)) {
		r = 0;
		goto out;
	}
	q = store_stmt_new(st, "SELECT counter, verdict, difference FROM counter_coverage WHERE"
			   " run_id = ?1 ORDER BY position", "coverage line");
	store_bind_int64(q, 1, run_id);
	while ((r = store_step(q)) == 1) {
		const char *counter = store_col_text(q, 0), *verdict = store_col_text(q, 1);

		n++;
		if (!strcmp(verdict, "exact") && !nexact++)
			g_string_append(exact, counter);
		else if (!strcmp(verdict, "exact"))
			g_string_append_printf(exact, ", %s", counter);
		else if (!strcmp(verdict, "explained") || !strcmp(verdict, "unexplained"))
			g_string_append_printf(rest, "; %s: vmstat - trace = %lld, %s", counter,
					       (long long)store_col_int64(q, 2), verdict);
		else
			g_string_append_printf(rest, "; %s: %s", counter, verdict);
	}
	store_stmt_free(q);
	if (r < 0 || !n)
		goto out;
	if (compact && nexact == n)
		g_string_assign(exact, "all counters");
	else if (compact)
		g_string_printf(exact, "%d of %d counters", nexact, n);
	g_string_prepend(rest, exact->len ? exact->str : "none");
	g_string_prepend(rest, "trace = vmstat, exact: ");
	*line = vr_strdup(rest->str);
out:
	g_string_free(exact, true);
	g_string_free(rest, true);
	return r < 0 ? -1 : 0;
}

static int print_row(struct store_stmt *q, void *arg)
{
	FILE *out = arg;
	char trace[32] = "-", diff[32] = "-";
	const char *why = store_col_text(q, 7);

	if (!store_col_is_null(q, 4)) {
		snprintf(trace, sizeof(trace), "%lld", (long long)store_col_int64(q, 4));
		snprintf(diff, sizeof(diff), "%lld", (long long)store_col_int64(q, 5));
	}
	fprintf(out, "  %-30s %12lld %-5s %12s %-6s %12s  %s%s%s\n", store_col_text(q, 0),
		(long long)store_col_int64(q, 2), store_col_text(q, 1), trace,
		store_col_text(q, 3), diff, store_col_text(q, 6), why ? ": " : "", why ? why : "");
	return 0;
}

int coverage_print_run(struct store *st, int64_t run_id, FILE *out)
{
	struct store_stmt *q;
	char *line;
	int r;

	if (coverage_line(st, run_id, false, &line))
		return -1;
	if (!line) {
		fprintf(out, "Coverage: - (no counter snapshots beside the trace: record makes them;"
			" see README \"Coverage\")\n");
		return 0;
	}
	fprintf(out, "Coverage (/proc/vmstat end - start snapshot against the trace between the"
		" snapshot markers):\n  %s\n", line);
	free(line);
	fprintf(out, "  %-30s %12s %-5s %12s %-6s %12s  %s\n", "counter", "vmstat", "unit", "trace",
		"unit", "difference", "verdict");
	q = store_stmt_new(st, "SELECT counter, vmstat_unit, vmstat_delta, trace_unit, trace_value,"
			   " difference, verdict, explanation FROM counter_coverage WHERE run_id = ?1"
			   " ORDER BY position", "coverage table");
	store_bind_int64(q, 1, run_id);
	r = store_stmt_each(q, print_row, out);
	store_stmt_free(q);
	return r ? -1 : 0;
}
