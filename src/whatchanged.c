// SPDX-License-Identifier: GPL-2.0
/*
 * whatchanged.c - index.md's "What changed" section: one sentence per
 * significant difference between the baseline kernel and another, biggest
 * first, then the caveats, and the coverage line of each run.  Every number
 * is one of the bundle's tables (compare.txt: the latency rows and the
 * counters block, printed as they print it; summary.txt's coverage lines;
 * runs.txt's lost events); nothing is computed here that a table does not
 * show, but for the test that decides which counters differ (Welch's t-test
 * on their per-run values, the p-values of a kernel's counters adjusted
 * together as compare.c adjusts its latency rows, held against the
 * comparison's alpha).
 */
#include "whatchanged.h"
#include "compare.h"
#include "counters.h"
#include "recorded.h"
#include "coverage.h"
#include "stats.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* One sentence and how big its change is (for the order). */
struct change {
	double size;		/* |relative change|; INFINITY from or to a base of 0 */
	char *text;		/* owned */
};

struct changes {
	struct change *c;
	size_t n;
};

static void change_add(struct changes *ch, double size, struct vr_buf *b)
{
	ch->c = vr_realloc(ch->c, (ch->n + 1) * sizeof(*ch->c));
	ch->c[ch->n].size = size;
	ch->c[ch->n++].text = vr_buf_detach(b);
}

static int by_size(const void *a, const void *b)
{
	const struct change *x = a, *y = b;

	if (x->size == y->size)
		return strcmp(x->text, y->text);	/* a fixed order for ties */
	return x->size > y->size ? -1 : 1;
}

/* Kernel label @s with its control bytes escaped (vr_escaped()), from a
 * small ring of buffers: valid for the next few calls. */
static const char *esc(const char *s)
{
	static struct vr_buf ring[4];
	static int next;
	struct vr_buf *b = &ring[next++ % 4];

	vr_buf_release(b);
	return vr_escaped(b, s);
}

/* "1234.56 us" as the row prints it. */
static void value(struct vr_buf *b, const struct render_row *row, double v)
{
	vr_buf_addf(b, "%.*f%s%s", row->precision, v, row->unit ? " " : "",
		    row->unit ? row->unit : "");
}

/*
 * Where and when a difference shows, by what the metric counts: direct
 * reclaim stalls (reclaim_stall: complete direct stalls by the nodes they
 * reclaimed from; windows with stall time), kswapd (kswapd_cycle: wakes by
 * node; windows with kswapd running), pages scanned or reclaimed by kswapd
 * or by the other tasks (reclaim_window by node; windows with such pages).  F_NONE: neither (an
 * imported metric, throttles, writes, flags).
 */
enum family { F_NONE, F_STALL, F_KSWAPD, F_KSWAPD_PAGES, F_OTHER_PAGES, F_KSWAPD_RECLAIMED,
	      F_OTHER_RECLAIMED };

static enum family family_of(const char *name)
{
	bool reclaimed = !strncmp(name, "Pages reclaimed", 15);

	if (strstr(name, "by kswapd") || !strcmp(name, "Kswapd reclaim efficiency %"))
		return strncmp(name, "Folios", 6) ? reclaimed ? F_KSWAPD_RECLAIMED : F_KSWAPD_PAGES :
		       F_NONE;
	if (strstr(name, "in direct reclaim") || !strcmp(name, "Direct reclaim efficiency %"))
		return reclaimed ? F_OTHER_RECLAIMED : F_OTHER_PAGES;
	if (!strncmp(name, "Direct reclaim stall", 20) || strstr(name, "-DirectReclaim"))
		return F_STALL;
	if ((!strncmp(name, "Kswapd", 6) && !strstr(name, "throttled")) ||
	    strstr(name, "-KswapdWakeupDelay") || strstr(name, "-KswapdAwake"))
		return F_KSWAPD;
	return F_NONE;
}

#define KERNEL_RUNS " JOIN run r ON r.id = x.run_id WHERE r.kernel = ?1 AND" \
	" r.source_format <> 'latency'"

static const struct {
	const char *nodes;	/* ?1 kernel: (node, value) rows */
	const char *what;	/* the value's words and its table */
	const char *active;	/* a whole-machine reclaim_window row where it shows */
} where_sql[] = {
	[F_STALL] = { "SELECT j.value, count(*) FROM reclaim_stall x, json_each(CASE WHEN"
		      " coalesce(x.nids, '') = '' THEN '[null]' ELSE '[' || x.nids || ']' END) j"
		      KERNEL_RUNS " AND x.kind = 'direct' AND x.complete GROUP BY 1 ORDER BY"
		      " j.value IS NULL, 1",
		      "complete direct reclaim stalls by the nodes they reclaimed from, one"
		      " on two nodes counted on each, reclaim_stall", "x.stall_ns > 0" },
	[F_KSWAPD] = { "SELECT x.nid, count(*) FROM kswapd_cycle x" KERNEL_RUNS " AND"
		       " x.wake_ns IS NOT NULL GROUP BY 1 ORDER BY 1", "kswapd wakes by node,"
		       " kswapd_cycle", "x.kswapd_running_ns > 0" },
	[F_KSWAPD_PAGES] = { "SELECT x.nid, sum(x.kswapd_scanned) FROM reclaim_window x"
			     KERNEL_RUNS " AND x.nid IS NOT NULL GROUP BY 1 ORDER BY 1",
			     "pages scanned by kswapd by node, reclaim_window",
			     "x.kswapd_scanned > 0" },
	[F_OTHER_PAGES] = { "SELECT x.nid, sum(x.other_scanned) FROM reclaim_window x"
			    KERNEL_RUNS " AND x.nid IS NOT NULL GROUP BY 1 ORDER BY 1",
			    "pages scanned outside kswapd by node, reclaim_window",
			    "x.other_scanned > 0" },
	[F_KSWAPD_RECLAIMED] = { "SELECT x.nid, sum(x.kswapd_reclaimed) FROM reclaim_window x"
				 KERNEL_RUNS " AND x.nid IS NOT NULL GROUP BY 1 ORDER BY 1",
				 "pages reclaimed by kswapd by node, reclaim_window",
				 "x.kswapd_reclaimed > 0" },
	[F_OTHER_RECLAIMED] = { "SELECT x.nid, sum(x.other_reclaimed) FROM reclaim_window x"
				KERNEL_RUNS " AND x.nid IS NOT NULL GROUP BY 1 ORDER BY 1",
				"pages reclaimed outside kswapd by node, reclaim_window",
				"x.other_reclaimed > 0" },
};

/* "node 0: 8, node 1: 3" of kernel @k into @b ("none" without a row). */
static int where_nodes(struct store *s, enum family f, const char *k, struct vr_buf *b)
{
	struct store_stmt *q = store_stmt_new(s, where_sql[f].nodes, "what changed: nodes");
	int r, n = 0;

	store_bind_text(q, 1, k);
	while ((r = store_step(q)) == 1) {
		vr_buf_addstr(b, n++ ? ", " : "");
		if (store_col_is_null(q, 0))	/* no shrink_inactive event inside */
			vr_buf_addf(b, "no node traced: %lld", (long long)store_col_int64(q, 1));
		else
			vr_buf_addf(b, "node %lld: %lld", (long long)store_col_int64(q, 0),
				    (long long)store_col_int64(q, 1));
	}
	store_stmt_free(q);
	if (!n)
		vr_buf_addstr(b, "none");
	return r < 0 ? -1 : 0;
}

/* "in 3 of 63 windows (1.00-2.00 s after a run's first event)" of @k. */
static int where_windows(struct store *s, enum family f, const char *k, struct vr_buf *b)
{
	struct store_stmt *q = store_stmt_newf(s, "what changed: windows", "SELECT count(*),"
		" coalesce(sum(%s), 0), min(CASE WHEN %s THEN x.start_ns - r.first_ts_ns END),"
		" max(CASE WHEN %s THEN x.start_ns + x.width_ns - r.first_ts_ns END) FROM"
		" reclaim_window x" KERNEL_RUNS " AND x.nid IS NULL", where_sql[f].active,
		where_sql[f].active, where_sql[f].active);
	int r;

	store_bind_text(q, 1, k);
	if ((r = store_step(q)) == 1) {
		vr_buf_addf(b, "in %lld of %lld windows", (long long)store_col_int64(q, 1),
			    (long long)store_col_int64(q, 0));
		if (store_col_int64(q, 1))
			vr_buf_addf(b, " (%.2f-%.2f s after a run's first event)",
				    (double)store_col_int64(q, 2) / 1e9,
				    (double)store_col_int64(q, 3) / 1e9);
	}
	store_stmt_free(q);
	return r < 0 ? -1 : 0;
}

/* ". Where: ...; when: ..." for metric @name between kernels @a and @b. */
static int where_when(struct store *s, const char *name, const char *a, const char *b,
		      struct vr_buf *out)
{
	enum family f = family_of(name);
	int ret;

	if (f == F_NONE)
		return 0;
	vr_buf_addf(out, ". Where (%s): %s ", where_sql[f].what, esc(a));
	ret = where_nodes(s, f, a, out);
	vr_buf_addf(out, "; %s ", esc(b));
	ret = ret || where_nodes(s, f, b, out);
	if (ret || store_has_table(s, "reclaim_window") != 1)
		return ret;
	vr_buf_addf(out, ". When (reclaim_window): %s ", esc(a));
	ret = where_windows(s, f, a, out);
	vr_buf_addf(out, "; %s ", esc(b));
	return ret || where_windows(s, f, b, out);
}

/* "12.00, 6.00" the @n per-run values @v as summary.txt prints them (a
 * count or pages as an integer, ms and % with 2 decimals). */
static void per_run(struct vr_buf *b, const char *unit, const double *v, size_t n)
{
	bool whole = !strcmp(unit, "count") || !strcmp(unit, "pages") || !strcmp(unit, "folios");

	for (size_t i = 0; i < n; i++)
		vr_buf_addf(b, whole ? "%s%.0f" : "%s%.2f", i ? ", " : "", v[i]);
}

/* The latency rows compare marked significant (mean rows only). */
static int latency_changes(struct store *s, const struct compare_result *res,
			   struct changes *ch)
{
	const struct render_table *t = &res->tables[0];

	for (size_t i = 0; i < t->nrows; i++) {
		const struct render_row *row = &t->rows[i];

		for (size_t c = 1; c < t->ncols; c++) {
			const struct render_cell *cell = &row->cells[c];
			struct vr_buf b;

			if (!cell->significant)
				continue;
			vr_buf_init(&b);
			vr_buf_addf(&b, "%s %s: %s ", row->stat ? row->stat : "", row->op,
				    esc(t->columns[0]));
			value(&b, row, row->cells[0].value);
			vr_buf_addf(&b, " -> %s ", esc(t->columns[c]));
			value(&b, row, cell->value);
			vr_buf_addf(&b, " (gain %.2f%%", cell->gain_pct);
			if (t->ci_label && !isnan(cell->ci_lo))	/* report --ci */
				vr_buf_addf(&b, ", %s [%.2f, %.2f]%%", t->ci_label, cell->ci_lo,
					    cell->ci_hi);
			vr_buf_addstr(&b, "; compare.txt marks it significant)");
			if (where_when(s, row->op, t->columns[0], t->columns[c], &b)) {
				vr_buf_release(&b);
				return -1;
			}
			change_add(ch, isinf(cell->gain_pct) ? INFINITY : fabs(cell->gain_pct), &b);
		}
	}
	return 0;
}

/* The trace runs of kernel @name, by iteration (as compare.c takes them). */
static int trace_runs(struct store *s, const char *name, int64_t **ids, size_t *n)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT id FROM run WHERE kernel = ?1 AND"
					      " source_format <> 'latency' ORDER BY iteration",
					      "what changed: runs");
	int r;

	*ids = NULL;
	*n = 0;
	store_bind_text(q, 1, name);
	while ((r = store_step(q)) == 1) {
		*ids = vr_realloc(*ids, (*n + 1) * sizeof(**ids));
		(*ids)[(*n)++] = store_col_int64(q, 0);
	}
	store_stmt_free(q);
	return r < 0 ? -1 : 0;
}

/* Counter @c of each of @n runs into @v (NAN values left out); *@nv.
 * @cache: the values already read (compare's), kept across counters. */
static int run_values(struct store *s, struct counter_cache *cache, const struct counter_def *c,
		      const int64_t *ids, size_t n, double *v, size_t *nv)
{
	double x;

	*nv = 0;
	for (size_t i = 0; i < n; i++) {
		if (counter_cached(s, cache, c, ids[i], NULL, &x))
			return -1;
		if (!isnan(x))
			v[(*nv)++] = x;
	}
	return 0;
}

/* The p-value of the per-run values @a and @b differing: Welch's t-test;
 * 0 where both sides are constant (two runs or more each) and differ in
 * every run; NAN where there is no test (fewer than two runs a side, or
 * the same constant on both). */
static double counter_p(const double *a, size_t na, const double *b, size_t nb)
{
	struct stats_ttest t;

	if (na < 2 || nb < 2)
		return NAN;
	if (!stats_welch_ttest(a, na, b, nb, &t))
		return t.p;
	return stats_mean(a, na) != stats_mean(b, nb) ? 0 : NAN;	/* both variances 0 */
}

/* The counters block row named @name, or NULL. */
static const struct render_row *counter_row(const struct compare_result *res, const char *name)
{
	for (size_t i = 0; i < res->tables[1].nrows; i++)
		if (!strcmp(res->tables[1].rows[i].op, name))
			return &res->tables[1].rows[i];
	return NULL;
}

/*
 * Does a trace run of @kernel (its ids @ids, @n) lack its pages
 * (recorded_check() RN_LRU_PAGES: the multi-gen LRU before 6.7, or the LRU
 * events not recorded)?  Then its page counters are "-": no sentence may
 * compare them, and @why (RECORDED_WHY_MAX bytes) gets the first run's
 * reason.
 */
static int untraced_pages(struct store *s, const int64_t *ids, size_t n, bool *out, char *why)
{
	*out = false;
	for (size_t i = 0; i < n && !*out; i++) {
		int r = recorded_check(s, ids[i], RN_LRU_PAGES, why, RECORDED_WHY_MAX);

		if (r < 0)
			return -1;
		*out = r == 0;
	}
	return 0;
}

/* A counter of pages (or their efficiency) of shrink_inactive. */
static bool page_counter(const char *name)
{
	return !strncmp(name, "Pages scanned", 13) || !strncmp(name, "Pages reclaimed", 15) ||
	       strstr(name, "efficiency") != NULL;
}

/* A counter of kernel @k tested against the baseline: its p-value (NAN:
 * not tested) and, after adjust_counters(), the adjusted one. */
struct counter_test {
	double p, p_adj;
	size_t m;		/* counters of the kernel tested (BH's m) */
};

/*
 * The p-values of every counter of kernel @k (its trace runs @ids[k],
 * @nids[k]) against the baseline's into @t[0..ndefs-1], adjusted together
 * as compare adjusts a kernel's latency rows (--p-adjust bh, the default:
 * stats_bh_adjust(); none: each its own).  @a, @b: scratch of @most values.
 * @cache: the counter values read (run_values()).
 */
static int counter_tests(struct store *s, struct counter_cache *cache,
			 const struct compare_opts *o, const struct compare_result *res, size_t k,
			 int64_t **ids, size_t *nids, const bool *blind, double *a, double *b,
			 struct counter_test *t)
{
	size_t ndefs;
	const struct counter_def *defs = counter_defs(&ndefs);
	double *p = vr_calloc(ndefs + 1, sizeof(*p));
	size_t m = 0;

	for (size_t d = 0; d < ndefs; d++) {
		const struct render_row *row = counter_row(res, defs[d].name);
		size_t na, nb;

		p[d] = NAN;
		if (defs[d].per_flag || !row || ((blind[0] || blind[k]) && page_counter(row->op)))
			continue;
		if (run_values(s, cache, &defs[d], ids[0], nids[0], a, &na) ||
		    run_values(s, cache, &defs[d], ids[k], nids[k], b, &nb)) {
			free(p);
			return -1;
		}
		p[d] = counter_p(a, na, b, nb);
	}
	for (size_t d = 0; d < ndefs; d++)
		t[d].p = p[d];
	if (o->p_adjust == COMPARE_P_BH)
		m = stats_bh_adjust(p, ndefs, p);
	for (size_t d = 0; d < ndefs; d++) {
		t[d].p_adj = p[d];
		t[d].m = m;
	}
	free(p);
	return 0;
}

/* The sentence of counter @def (its row @row) of kernel @k, which differs
 * from the baseline's (test @t), into @ch. */
static int counter_sentence(struct store *s, const struct compare_opts *o,
			    const struct compare_result *res, size_t k, const struct counter_def *def,
			    const struct render_row *row, const double *a, size_t na, const double *b,
			    size_t nb, const struct counter_test *t, struct changes *ch)
{
	double base = row->cells[0].value, v = row->cells[k].value;
	struct vr_buf w;
	char pt[STATS_P_TEXT_LEN];

	vr_buf_init(&w);
	vr_buf_addf(&w, "%s: %s %.2f -> %s %.2f (means of %zu and %zu runs, the counters block;"
		    " their per-run values differ by Welch's t-test: p = %s", row->op,
		    esc(res->kernels[0]), base, esc(res->kernels[k]), v, na, nb,
		    stats_p_text(pt, t->p, o->alpha));
	if (o->p_adjust == COMPARE_P_BH)
		vr_buf_addf(&w, ", %s adjusted over the %zu counters tested by Benjamini-Hochberg",
			    stats_p_text(pt, t->p_adj, o->alpha), t->m);
	vr_buf_addf(&w, ", below %g)", o->alpha);
	vr_buf_addf(&w, ". Per run (summary.txt): %s ", esc(res->kernels[0]));
	per_run(&w, def->unit, a, na);
	vr_buf_addf(&w, "; %s ", esc(res->kernels[k]));
	per_run(&w, def->unit, b, nb);
	if (where_when(s, row->op, res->kernels[0], res->kernels[k], &w)) {
		vr_buf_release(&w);
		return -1;
	}
	change_add(ch, base == 0 ? INFINITY : 100 * fabs(v - base) / fabs(base), &w);
	return 0;
}

/* The counters whose per-run values differ from the baseline's. */
static int counter_changes(struct store *s, const struct compare_opts *o,
			   const struct compare_result *res, struct changes *ch,
			   struct vr_buf *caveats)
{
	size_t ndefs, nk = res->nkernels;
	const struct counter_def *defs = counter_defs(&ndefs);
	int64_t **ids = vr_calloc(nk, sizeof(*ids));
	size_t *nids = vr_calloc(nk, sizeof(*nids)), most = 1;
	bool *blind = vr_calloc(nk, sizeof(*blind));
	char (*why)[RECORDED_WHY_MAX] = vr_calloc(nk, sizeof(*why));
	struct counter_test *t = vr_calloc(ndefs + 1, sizeof(*t));
	struct counter_cache own = { 0 };	/* without compare's values */
	struct counter_cache *cache = res->counter_values ? res->counter_values : &own;
	double *a = NULL, *b = NULL;
	int ret = 0;

	for (size_t k = 0; !ret && k < nk; k++) {
		ret = trace_runs(s, res->kernels[k], &ids[k], &nids[k]) ||
		      untraced_pages(s, ids[k], nids[k], &blind[k], why[k]);
		most = nids[k] > most ? nids[k] : most;
	}
	a = vr_calloc(most, sizeof(*a));
	b = vr_calloc(most, sizeof(*b));
	for (size_t k = 1; !ret && k < nk && res->tables[1].nrows; k++) {
		ret = counter_tests(s, cache, o, res, k, ids, nids, blind, a, b, t);
		for (size_t d = 0; !ret && d < ndefs; d++) {
			size_t na, nb;

			if (!(t[d].p_adj < o->alpha))	/* NAN: not tested */
				continue;
			ret = run_values(s, cache, &defs[d], ids[0], nids[0], a, &na) ||
			      run_values(s, cache, &defs[d], ids[k], nids[k], b, &nb) ||
			      counter_sentence(s, o, res, k, &defs[d], counter_row(res, defs[d].name),
					       a, na, b, nb, &t[d], ch);
		}
	}
	for (size_t k = 0; k < nk; k++) {
		if (blind[k] && !ret)
			vr_buf_addf(caveats, "%s: the trace does not see the pages its kernel scanned"
				    " and reclaimed (%s): its page counters are - in the tables and"
				    " left out here.\n", esc(res->kernels[k]), why[k]);
		if (nids[k] < 2 && !ret)
			vr_buf_addf(caveats, "%s has %zu trace run(s): its counters are not tested"
				    " (two runs or more per kernel).\n", esc(res->kernels[k]), nids[k]);
		free(ids[k]);
	}
	free(ids);
	free(nids);
	free(blind);
	free(why);
	free(t);
	free(a);
	free(b);
	counter_cache_release(&own);
	return ret;
}

/* Runs that lost events (runs.txt's lost column). */
static int lost_caveat(struct store *s, struct vr_buf *out)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT id, kernel, iteration, lost_events,"
					      " lost_unknown FROM run WHERE lost_events > 0 OR"
					      " lost_unknown > 0 ORDER BY id", "what changed: lost");
	int r;

	while ((r = store_step(q)) == 1) {
		struct vr_buf k;

		vr_buf_init(&k);
		vr_buf_addf(out, "Run %lld (%s, iteration %d) lost %lld events%s (runs.txt).\n",
			    (long long)store_col_int64(q, 0), vr_escaped(&k, store_col_text(q, 1)),
			    store_col_int(q, 2), (long long)store_col_int64(q, 3),
			    store_col_int64(q, 4) ? " and more the kernel did not count" : "");
		vr_buf_release(&k);
	}
	store_stmt_free(q);
	return r < 0 ? -1 : 0;
}

/* Latency rows compare --ci's notes call not significant because of
 * outliers (compare.c outlier_notes(): Welch's test without the values
 * outside Tukey's fences): each such note once, as compare.txt prints it. */
static void outlier_caveat(const struct compare_result *res, struct vr_buf *out)
{
	const struct render_table *t = &res->tables[0];

	for (size_t i = 0; i < t->nrows; i++) {
		const char *n = t->rows[i].note;
		bool seen = false;

		if (!n || !strstr(n, "because of outliers"))
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = t->rows[j].note && !strcmp(t->rows[j].note, n);
		if (!seen)
			vr_buf_addf(out, "Not significant because of outliers (compare.txt): %s.\n", n);
	}
}

/* Counters block rows that say a figure is incomplete or an estimate. */
static void counters_caveat(const struct compare_result *res, struct vr_buf *out)
{
	const struct render_row *row = counter_row(res, "Direct reclaim stalls incomplete");
	bool flags = false;

	for (size_t k = 0; row && k < res->nkernels; k++)
		if (row->cells[k].value > 0)
			vr_buf_addf(out, "%s has %.2f incomplete direct reclaim stalls per run (begin"
				    " or end not traced, or events lost inside: not in the stall"
				    " times).\n", esc(res->kernels[k]), row->cells[k].value);
	for (size_t i = 0; i < res->tables[1].nrows; i++)
		flags |= !strncmp(res->tables[1].rows[i].op, "pgdat ", 6);
	if (flags)
		vr_buf_addstr(out, "The pgdat flag times are inferred by the kernel's rules from the"
			      " reclaim events, not traced (README \"pgdat flags\").\n");
}

/* Kswapd cycles whose decision is inferred, not seen (kswapd_cycle's
 * decision_exact 0): the nap and sleep counters are estimates there. */
static int estimate_caveat(struct store *s, const struct compare_result *res, struct vr_buf *out)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT count(*), coalesce(sum(x.nap_margin_ns IS"
					      " NOT NULL), 0) FROM kswapd_cycle x" KERNEL_RUNS
					      " AND x.decision <> 'unknown' AND NOT x.decision_exact",
					      "what changed: estimates");
	int r = 0;

	for (size_t k = 0; r >= 0 && k < res->nkernels; k++) {
		int64_t v[2] = { 0, 0 };

		store_stmt_reset(q);
		store_bind_text(q, 1, res->kernels[k]);
		r = store_stmt_row_int64(q, v, 2);
		if (r >= 0 && v[0])
			vr_buf_addf(out, "%s: %lld kswapd cycle decisions are inferred, not seen"
				    " (kswapd_cycle decision_exact 0; %lld of them naps ended within"
				    " a jiffy of the timeout): its nap and sleep counts are estimates.\n",
				    esc(res->kernels[k]), (long long)v[0], (long long)v[1]);
	}
	store_stmt_free(q);
	return r < 0 ? -1 : 0;
}

/* One line per run: how the trace covers the kernel's counters. */
static int coverage_caveat(struct store *s, struct vr_buf *out, struct vr_buf *lines)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT id, kernel, iteration FROM run WHERE"
					      " source_format <> 'latency' ORDER BY id",
					      "what changed: coverage");
	size_t none = 0, unexplained = 0;
	int r;

	while ((r = store_step(q)) == 1) {
		int64_t id = store_col_int64(q, 0);
		struct vr_buf k;
		char *line;

		if (coverage_line(s, id, true, &line)) {
			r = -1;
			break;
		}
		vr_buf_init(&k);
		vr_buf_addf(lines, "- run %lld (%s, iteration %d): %s\n", (long long)id,
			    vr_escaped(&k, store_col_text(q, 1)), store_col_int(q, 2),
			    line ? line : "no counter snapshots");
		vr_buf_release(&k);
		none += !line;
		unexplained += line && strstr(line, "unexplained");
		free(line);
	}
	store_stmt_free(q);
	if (unexplained)
		vr_buf_addf(out, "In %zu run(s) the trace does not account for every change of the"
			    " kernel's counters (unexplained below).\n", unexplained);
	if (none)
		vr_buf_addf(out, "%zu run(s) have no counter snapshots: whether their trace is"
			    " complete is not checked.\n", none);
	return r < 0 ? -1 : 0;
}

int whatchanged_write(struct store *s, const struct compare_opts *o,
		      const struct compare_result *res, struct vr_buf *out)
{
	struct changes ch = { NULL, 0 };
	struct vr_buf caveats, lines;
	int ret;

	vr_buf_init(&caveats);
	vr_buf_init(&lines);
	ret = latency_changes(s, res, &ch);
	ret = ret || (res->nkernels > 1 ? counter_changes(s, o, res, &ch, &caveats) : 0);
	ret = ret || lost_caveat(s, &caveats) || coverage_caveat(s, &caveats, &lines);
	counters_caveat(res, &caveats);
	outlier_caveat(res, &caveats);
	ret = ret || estimate_caveat(s, res, &caveats);
	qsort(ch.c, ch.n, sizeof(*ch.c), by_size);
	vr_buf_addstr(out, "## What changed\n\n");
	if (res->nkernels < 2)
		vr_buf_addstr(out, "One kernel only: nothing to compare.\n");
	else if (!ch.n)
		vr_buf_addf(out, "No difference from %s is significant (the tests are named under"
			    " [compare.txt](compare.txt)).\n", esc(res->kernels[0]));
	for (size_t i = 0; i < ch.n; i++) {
		vr_buf_addf(out, "%s.\n", ch.c[i].text);
		free(ch.c[i].text);
	}
	free(ch.c);
	if (caveats.len)
		vr_buf_addf(out, "\nCaveats:\n%s", caveats.buf);
	vr_buf_addf(out, "\nIs the trace complete? The kernel's counters (/proc/vmstat snapshots)"
		    " against the trace, one line per run (the tables: summary.txt):\n\n%s\n",
		    lines.buf);
	vr_buf_release(&caveats);
	vr_buf_release(&lines);
	return ret ? -1 : 0;
}
