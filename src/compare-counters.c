// SPDX-License-Identifier: GPL-2.0
/*
 * compare-counters.c - the counters block of the comparison (README.md
 * "Comparison tables"): one row per counter spec below, the value of a
 * kernel being the mean over its trace runs.  No percentages, as mmtests
 * prints its monitors (compare-mmtests.pl --print-monitor).
 */
#include "compare-internal.h"
#include "store-query.h"
#include "vr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* kswapd pids of run ?1: kswapd threads are named kswapdN (mm/vmscan.c kswapd_run) */
#define KSWAPD_PIDS "(SELECT pid FROM task WHERE run_id = ?1 AND comm LIKE 'kswapd%')"
/* shrink_inactive calls made inside a direct reclaim stall of the same pid
 * (the sum lru_shrink_direct, src/store-schema.c) */
#define DIRECT_SHRINK " FROM lru_shrink_direct s WHERE s.run_id = ?1"
/* pages scanned, reclaimed, and reclaimed per scanned (%) */
#define PAGES \
	"SELECT coalesce(sum(s.nr_scanned), 0), coalesce(sum(s.nr_reclaimed), 0)," \
	" 100.0 * sum(s.nr_reclaimed) / nullif(sum(s.nr_scanned), 0)"
#define KSWAPD_SHRINK \
	" FROM lru_shrink_pages s WHERE s.run_id = ?1 AND s.pid IN " KSWAPD_PIDS
#define CYCLES(decision) \
	"SELECT count(*) FROM kswapd_cycle WHERE run_id = ?1 AND decision = '" decision "'"

/* One counter: SQL giving one number for run ?1 (and flag ?2 for flag rows). */
struct counter_spec {
	const char *label;	/* printf format for flag rows ("%s" = flag) */
	const char *sql;
	int per_flag;		/* one row per pgdat flag seen in the runs */
	int col;		/* the value's column in the result (counters that
				 * share one query take one column each) */
};

/* Results of the queries a table asked for, per run: a query is run once. */
enum { COUNTER_MAX_COLS = 3 };
struct counter_result {
	const char *sql;
	int64_t run_id;
	const char *flag;
	double v[COUNTER_MAX_COLS];
};
struct counter_cache {
	struct counter_result *r;
	size_t n;
};

static const struct counter_spec counter_specs[] = {
	/* complete: begin and end seen, no events lost between; the stall time
	 * and the DirectReclaim metric count the same (complete) stalls */
	{ "Direct stalls complete",
	  "SELECT count(*) FROM reclaim_stall WHERE run_id = ?1 AND kind = 'direct'"
	  " AND complete = 1", 0, 0 },
	{ "Direct stalls incomplete",
	  "SELECT count(*) FROM reclaim_stall WHERE run_id = ?1 AND kind = 'direct'"
	  " AND complete = 0", 0, 0 },
	{ "Direct stall time ms",
	  "SELECT coalesce(sum(duration_ns), 0) / 1e6 FROM reclaim_stall WHERE run_id = ?1"
	  " AND kind = 'direct' AND complete = 1", 0, 0 },
	{ "Kswapd wakes",
	  "SELECT coalesce(sum(events), 0) FROM kswapd_wake_node WHERE run_id = ?1", 0, 0 },
	{ "Kswapd full sleeps", CYCLES("full_sleep"), 0, 0 },
	{ "Kswapd naps woken early", CYCLES("nap_woken_early"), 0, 0 },
	{ "Kswapd naps timed out", CYCLES("nap_timed_out"), 0, 0 },
	{ "Kswapd premature sleeps",
	  "SELECT count(*) FROM kswapd_cycle WHERE run_id = ?1 AND premature = 1", 0, 0 },
	/* awake from each kswapd_wake to the full sleep, or to its last activity
	 * before a nap; over the trace length times the number of kswapd nodes */
	{ "Kswapd awake %",
	  "SELECT 100.0 * sum(coalesce(c.sleep_ns, c.last_activity_ns) - c.wake_ns)"
	  " / ((r.last_ts_ns - r.first_ts_ns)"
	  "    * (SELECT count(DISTINCT nid) FROM kswapd_cycle WHERE run_id = ?1))"
	  " FROM kswapd_cycle c, run r WHERE c.run_id = ?1 AND r.id = ?1"
	  " AND c.wake_ns IS NOT NULL AND r.last_ts_ns > r.first_ts_ns", 0, 0 },
	{ "Kswapd pages scanned", PAGES KSWAPD_SHRINK, 0, 0 },
	{ "Kswapd pages reclaimed", PAGES KSWAPD_SHRINK, 0, 1 },
	{ "Kswapd efficiency %", PAGES KSWAPD_SHRINK, 0, 2 },
	{ "Direct pages scanned", PAGES DIRECT_SHRINK, 0, 0 },
	{ "Direct pages reclaimed", PAGES DIRECT_SHRINK, 0, 1 },
	{ "Direct efficiency %", PAGES DIRECT_SHRINK, 0, 2 },
	/* one writepage / write_folio event each */
	{ "Kswapd pages written",
	  "SELECT count(*) FROM reclaim_write WHERE run_id = ?1 AND by_kswapd = 1", 0, 0 },
	{ "Direct pages written",
	  "SELECT count(*) FROM reclaim_write WHERE run_id = ?1 AND by_kswapd = 0", 0, 0 },
	/* summed over nodes; an open end counts to the trace's first/last event */
	{ "pgdat %s set ms",
	  "SELECT coalesce(sum(coalesce(f.clear_ns, r.last_ts_ns)"
	  " - coalesce(f.set_ns, r.first_ts_ns)), 0) / 1e6"
	  " FROM pgdat_flag f, run r WHERE f.run_id = ?1 AND r.id = ?1 AND f.flag = ?2", 1, 0 },
};

/* The result row of @sql for run @run_id (and @flag) into @r; NAN for NULL. */
static int query_row(struct store *s, const char *sql, int64_t run_id, const char *flag,
		     struct counter_result *r)
{
	struct store_stmt *q = store_stmt_new(s, sql, "compare counters");
	int rc;

	*r = (struct counter_result){ sql, run_id, flag, { NAN, NAN, NAN } };
	store_bind_int64(q, 1, run_id);
	if (flag)
		store_bind_text(q, 2, flag);
	rc = store_stmt_row_double(q, r->v, COUNTER_MAX_COLS);
	store_stmt_free(q);
	return rc < 0 ? -1 : 0;
}

/* Counter @c of run @run_id (and @flag), its query run once per table. */
static int counter_value(struct store *s, struct counter_cache *cache, const struct counter_spec *c,
			 int64_t run_id, const char *flag, double *out)
{
	struct counter_result *r;

	for (size_t i = 0; i < cache->n; i++) {
		r = &cache->r[i];
		if (r->sql == c->sql && r->run_id == run_id && r->flag == flag) {
			*out = r->v[c->col];
			return 0;
		}
	}
	cache->r = vr_realloc(cache->r, (cache->n + 1) * sizeof(*cache->r));
	r = &cache->r[cache->n++];
	if (query_row(s, c->sql, run_id, flag, r))
		return -1;
	*out = r->v[c->col];
	return 0;
}

/* Mean over the kernel's trace runs of the counter, NULL results skipped. */
static int kernel_value(struct store *s, struct counter_cache *cache, const struct counter_spec *c,
			const char *flag, const struct compare_kernel *k, double *out)
{
	double sum = 0, v;
	size_t n = 0;

	for (size_t r = 0; r < k->ntrace; r++) {
		if (counter_value(s, cache, c, k->trace_runs[r], flag, &v))
			return -1;
		if (!isnan(v)) {
			sum += v;
			n++;
		}
	}
	*out = n ? sum / (double)n : NAN;
	return 0;
}

/* Distinct pgdat flags in the trace runs of all kernels, sorted. */
static int list_flags(struct store *s, const struct compare_kernel *k, size_t nk,
		      char ***flags, size_t *nflags)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT DISTINCT flag FROM pgdat_flag"
					      " WHERE run_id = ?1 ORDER BY flag", "pgdat flags");
	int rc = q ? 0 : -1;

	*flags = NULL;
	*nflags = 0;
	for (size_t i = 0; i < nk && rc == 0; i++)
		for (size_t r = 0; r < k[i].ntrace && rc == 0; r++) {
			store_stmt_reset(q);
			store_bind_int64(q, 1, k[i].trace_runs[r]);
			while ((rc = store_step(q)) > 0) {
				const char *f = store_col_text(q, 0);
				size_t j;

				for (j = 0; j < *nflags && strcmp((*flags)[j], f); j++)
					;
				if (j < *nflags)
					continue;
				*flags = vr_realloc(*flags, (*nflags + 1) * sizeof(**flags));
				(*flags)[(*nflags)++] = vr_strdup(f);
			}
		}
	store_stmt_free(q);
	return rc;
}

static int add_row(struct store *s, struct counter_cache *cache, struct render_table *t,
		   const struct counter_spec *c, const char *flag, const struct compare_kernel *k,
		   size_t nk)
{
	struct render_row *row;
	struct vr_buf label;

	t->rows = vr_realloc((void *)t->rows, (t->nrows + 1) * sizeof(*t->rows));
	row = (struct render_row *)&t->rows[t->nrows++];
	memset(row, 0, sizeof(*row));
	vr_buf_init(&label);
	if (flag)
		vr_buf_addf(&label, c->label, flag);
	else
		vr_buf_addstr(&label, c->label);
	row->op = vr_buf_detach(&label);
	row->precision = 2;
	row->cells = vr_calloc(nk, sizeof(*row->cells));
	for (size_t i = 0; i < nk; i++) {
		row->cells[i].gain_pct = row->cells[i].p = NAN;
		if (kernel_value(s, cache, c, flag, &k[i], &row->cells[i].value))
			return -1;
	}
	return 0;
}

int compare_counters_table(struct store *s, const struct compare_kernel *k, size_t nk,
			   struct render_table *t)
{
	size_t ntrace = 0, nflags;
	struct counter_cache cache = { NULL, 0 };
	char **flags;
	int ret = 0;

	t->name = "counters";
	t->show_gain = false;
	t->op_width = 29;	/* line the kernel columns up with the latency table */
	t->value_width = 22;
	for (size_t i = 0; i < nk; i++)
		ntrace += k[i].ntrace;
	if (!ntrace)
		return 0;
	if (list_flags(s, k, nk, &flags, &nflags))
		return -1;
	for (size_t c = 0; !ret && c < VR_ARRAY_SIZE(counter_specs); c++) {
		if (!counter_specs[c].per_flag) {
			ret = add_row(s, &cache, t, &counter_specs[c], NULL, k, nk);
			continue;
		}
		for (size_t f = 0; !ret && f < nflags; f++)
			ret = add_row(s, &cache, t, &counter_specs[c], flags[f], k, nk);
	}
	free(cache.r);
	for (size_t f = 0; f < nflags; f++)
		free(flags[f]);
	free(flags);
	return ret;
}
