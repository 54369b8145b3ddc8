// SPDX-License-Identifier: GPL-2.0
/*
 * chart-data.c - the timeline chart's data from the derived tables, and the
 * helpers every chart struct shares (release, dump, candles).  The latency,
 * distribution and counter charts are built in chart-metrics.c from the
 * metric definitions of include/metrics.h.
 */
#include "chart-data.h"
#include "recorded.h"
#include "store.h"
#include "runs.h"
#include "store-query.h"
#include "vr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- shared helpers ---------------------------------------------------- */

const char *chart_stall_kind_name(int kind)
{
	static const char *const names[] = { "direct", "memcg", "memcg_softlimit", "node",
					     "throttle" };

	return kind >= 0 && kind < CHART_STALL_NKINDS ? names[kind] : "?";
}

const char *chart_kswapd_state_name(int state)
{
	static const char *const names[CHART_KSWAPD_NSTATES] = {
		"awake", "napping", "asleep", "unknown", "throttled"
	};

	return state >= 0 && state < CHART_KSWAPD_NSTATES ? names[state] : "?";
}

int chart_flag_item(const char *label)
{
	if (strstr(label, "hopeless"))
		return CHART_TL_HOPELESS;
	if (strstr(label, "DIRTY"))
		return CHART_TL_DIRTY;
	if (strstr(label, "WRITEBACK"))
		return CHART_TL_WRITEBACK;
	if (strstr(label, "CONGESTED"))
		return CHART_TL_CONGESTED;
	return -1;
}

const char *chart_tl_item_name(int item)
{
	static const char *const names[CHART_TL_NITEMS] = {
		"awake", "napping", "asleep", "unknown", "throttled", "premature", "DIRTY", "WRITEBACK",
		"CONGESTED", "hopeless", "no_dirty", "stall_direct", "stall_memcg", "stall_memcg_softlimit", "stall_node",
		"stall_throttle", "rate_kswapd", "rate_others"
	};

	return item >= 0 && item < CHART_TL_NITEMS ? names[item] : "?";
}

/* What the part of one node draws (chart_timeline_drawn()'s bits). */
static unsigned int node_drawn(const struct chart_timeline_node *n)
{
	unsigned int m = n->npremature ? 1u << CHART_TL_PREMATURE : 0;

	for (size_t s = 0; s < n->kswapd.nspans; s++)
		if (n->kswapd.spans[s].state >= 0 && n->kswapd.spans[s].state < CHART_KSWAPD_NSTATES)
			m |= 1u << (CHART_TL_AWAKE + n->kswapd.spans[s].state);
	for (size_t f = 0; f < n->nflags; f++) {
		int it = chart_flag_item(n->flags[f].label);

		if (n->flags[f].nspans && it >= 0)
			m |= 1u << it;
		if (!n->flags[f].nspans && n->flags[f].note &&
		    !strcmp(n->flags[f].note, CHART_NO_DIRTY_NOTE))
			m |= 1u << CHART_TL_NO_DIRTY;
	}
	for (size_t s = 0; s < n->nstalls; s++)
		if (n->stall_kind[s] < CHART_STALL_NKINDS)
			m |= 1u << (CHART_TL_STALL + n->stall_kind[s]);
	for (size_t b = 0; b < n->nbins; b++) {
		if (n->rate_kswapd[b])
			m |= 1u << CHART_TL_RATE_KSWAPD;
		if (n->rate_direct[b])
			m |= 1u << CHART_TL_RATE_OTHERS;
	}
	return m;
}

unsigned int chart_timeline_drawn(const struct chart_timeline *t)
{
	unsigned int m = 0;

	if (t->to_s <= t->from_s)
		return 0;
	for (size_t i = 0; i < t->nnodes; i++)
		m |= node_drawn(&t->nodes[i]);
	return m;
}

void chart_candle_set(struct chart_candle *c, const double *v, int n)
{
	double sum = 0, ss = 0;

	memset(c, 0, sizeof(*c));
	c->n = n;
	if (n <= 0)
		return;
	c->min = c->max = v[0];
	for (int i = 0; i < n; i++) {
		sum += v[i];
		c->min = fmin(c->min, v[i]);
		c->max = fmax(c->max, v[i]);
	}
	c->mean = sum / n;
	for (int i = 0; i < n; i++)
		ss += (v[i] - c->mean) * (v[i] - c->mean);
	c->stddev = n > 1 ? sqrt(ss / (n - 1)) : 0;
	c->box_lo = fmax(c->min, c->mean - c->stddev);
	c->box_hi = fmin(c->max, c->mean + c->stddev);
}

static void band_release(struct chart_band *b)
{
	free(b->label);
	free(b->note);
	free(b->spans);
	memset(b, 0, sizeof(*b));
}

void chart_timeline_release(struct chart_timeline *t)
{
	for (size_t i = 0; i < t->nnodes; i++) {
		struct chart_timeline_node *n = &t->nodes[i];

		band_release(&n->kswapd);
		for (size_t f = 0; f < n->nflags; f++)
			band_release(&n->flags[f]);
		free(n->flags);
		free(n->premature_s);
		free(n->stall_begin_s);
		free(n->stall_ms);
		free(n->stall_kind);
		free(n->rate_kswapd);
		free(n->rate_direct);
		free(n->rate_missing);
	}
	free(t->nodes);
	free(t->kernel);
	memset(t, 0, sizeof(*t));
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void chart_latency_release(struct chart_latency *l)
{
	free(l->metric);
	free(l->unit);
	free(l->what);
	free_strv(l->kernels, l->nkernels);
	free(l->colour);
	free(l->nruns);
	if (l->nodata)
		free_strv(l->nodata, l->nkernels);
	free_strv(l->pct, l->npct);
	free(l->candles);
	memset(l, 0, sizeof(*l));
}

void chart_cdf_release(struct chart_cdf *c)
{
	for (size_t i = 0; i < c->nseries; i++) {
		free(c->series[i].kernel);
		free(c->series[i].x);
	}
	free(c->series);
	free(c->metric);
	free(c->unit);
	free(c->what);
	memset(c, 0, sizeof(*c));
}

void chart_counters_release(struct chart_counters *c)
{
	free_strv(c->kernels, c->nkernels);
	free(c->colour);
	free_strv(c->names, c->ncounters);
	free_strv(c->units, c->ncounters);
	free(c->values);
	free(c->stddev);
	free_strv(c->missing, c->ncounters * c->nkernels);
	memset(c, 0, sizeof(*c));
}

/* ---- dumps ------------------------------------------------------------- */

void chart_timeline_dump(const struct chart_timeline *t, FILE *out)
{
	fprintf(out, "timeline run %lld kernel %s iteration %d duration_s %.6g\n", t->run_id,
		t->kernel ? t->kernel : "-", t->iteration, t->duration_s);
	fprintf(out, "window_s %.6g %.6g bin_s %.6g\n", t->from_s, t->to_s, t->bin_s);
	fprintf(out, "legend");
	for (int i = 0; i < CHART_TL_NITEMS; i++)
		if (chart_timeline_drawn(t) & (1u << i))
			fprintf(out, " %s", chart_tl_item_name(i));
	fprintf(out, "\n");
	for (size_t i = 0; i < t->nnodes; i++) {
		const struct chart_timeline_node *n = &t->nodes[i];

		fprintf(out, "node %d\n", n->nid);
		for (size_t s = 0; s < n->kswapd.nspans; s++)
			fprintf(out, "kswapd %s %.6g %.6g\n",
				chart_kswapd_state_name(n->kswapd.spans[s].state),
				n->kswapd.spans[s].begin_s, n->kswapd.spans[s].end_s);
		for (size_t s = 0; s < n->npremature; s++)
			fprintf(out, "premature %.6g\n", n->premature_s[s]);
		for (size_t f = 0; f < n->nflags; f++) {
			const struct chart_band *b = &n->flags[f];

			if (!b->nspans)
				fprintf(out, "flag %s note %s\n", b->label, b->note ? b->note : "-");
			for (size_t s = 0; s < b->nspans; s++)
				fprintf(out, "flag %s set %.6g %.6g\n", b->label, b->spans[s].begin_s,
					b->spans[s].end_s);
		}
		for (size_t s = 0; s < n->nstalls; s++)
			fprintf(out, "stall %.6g %.6g %s\n", n->stall_begin_s[s], n->stall_ms[s],
				chart_stall_kind_name(n->stall_kind[s]));
		if (n->rate_missing)
			fprintf(out, "rate_missing %s\n", n->rate_missing);
		for (size_t b = 0; b < n->nbins; b++)
			if (n->rate_kswapd[b] || n->rate_direct[b])
				fprintf(out, "rate %.6g kswapd %.6g direct %.6g\n",
					t->from_s + b * t->bin_s, n->rate_kswapd[b],
					n->rate_direct[b]);
	}
}

bool chart_latency_log_axis(const struct chart_latency *l, double *lo, double *hi)
{
	bool nonpositive = false;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < l->npct * l->nkernels; i++) {
		if (!l->candles[i].n)
			continue;
		nonpositive |= !(l->candles[i].min > 0);
		if (l->candles[i].min > 0)
			*lo = fmin(*lo, l->candles[i].min);
		*hi = fmax(*hi, l->candles[i].max);
	}
	return !nonpositive && isfinite(*lo) && *hi / *lo > 50;
}

void chart_latency_dump(const struct chart_latency *l, FILE *out)
{
	double lo, hi;

	fprintf(out, "latency metric %s unit %s\n", l->metric, l->unit);
	for (size_t k = 0; l->nodata && k < l->nkernels; k++)
		if (l->nodata[k])
			fprintf(out, "no candle %s: %s\n", l->kernels[k], l->nodata[k]);
	for (size_t p = 0; p < l->npct; p++)
		for (size_t k = 0; k < l->nkernels; k++) {
			const struct chart_candle *c = &l->candles[p * l->nkernels + k];

			if (!c->n)
				continue;
			fprintf(out, "candle %s %s n %d min %.6g box_lo %.6g mean %.6g box_hi %.6g"
				" max %.6g stddev %.6g\n", l->pct[p], l->kernels[k], c->n, c->min,
				c->box_lo, c->mean, c->box_hi, c->max, c->stddev);
		}
	fprintf(out, "axis %s\n", chart_latency_log_axis(l, &lo, &hi) ? "log" : "linear");
}

void chart_cdf_dump(const struct chart_cdf *c, FILE *out)
{
	fprintf(out, "cdf metric %s unit %s\n", c->metric, c->unit);
	for (size_t i = 0; i < c->nseries; i++) {
		const struct chart_cdf_series *s = &c->series[i];

		fprintf(out, "series %s n %zu", s->kernel, s->n);
		if (s->n)
			fprintf(out, " min %.6g median %.6g max %.6g", s->x[0], s->x[(s->n - 1) / 2],
				s->x[s->n - 1]);
		fputc('\n', out);
	}
}

void chart_counters_dump(const struct chart_counters *c, FILE *out)
{
	fprintf(out, "counters kernels %zu counters %zu\n", c->nkernels, c->ncounters);
	for (size_t i = 0; i < c->ncounters; i++)
		for (size_t k = 0; k < c->nkernels; k++)
			fprintf(out, "counter %s [%s] %s mean %.6g%s%s%s\n", c->names[i],
				c->units[i], c->kernels[k], c->values[i * c->nkernels + k],
				c->missing && c->missing[i * c->nkernels + k] ? " (" : "",
				c->missing && c->missing[i * c->nkernels + k] ?
				c->missing[i * c->nkernels + k] : "",
				c->missing && c->missing[i * c->nkernels + k] ? ")" : "");
}

/* ---- timeline ---------------------------------------------------------- */

double chart_bin_width(double window_s)
{
	static const double steps[] = { 1, 2, 5 };

	for (double p = 0.001; p < 1e9; p *= 10)
		for (size_t i = 0; i < VR_ARRAY_SIZE(steps); i++)
			if (window_s / (steps[i] * p) <= 100 + 1e-9)
				return steps[i] * p;
	return 1e9;
}

/* Growable array of doubles / spans (vr_realloc aborts on exhaustion). */
#define PUSH(arr, n, alloc, val) do {						\
		if ((n) == (alloc)) {						\
			(alloc) = (alloc) ? 2 * (alloc) : 16;			\
			(arr) = vr_realloc((arr), (alloc) * sizeof(*(arr)));	\
		}								\
		(arr)[(n)++] = (val);						\
	} while (0)

struct tl_ctx {
	struct store *s;
	long long run_id;
	long long first_ns, last_ns;	/* run start and end */
	double from_s, to_s;		/* window */
	struct chart_timeline *t;
};

/* A statement of the timeline with ?1 = the run and ?2 = node @nid. */
static struct store_stmt *prep(struct tl_ctx *c, const char *sql, const char *what, int nid)
{
	struct store_stmt *q = store_stmt_new(c->s, sql, what);

	store_bind_int64(q, 1, c->run_id);
	if (nid >= 0)
		store_bind_int(q, 2, nid);
	return q;
}

/* Free @q; 0 when its rows were all read (@rc 0), else -1. */
static int step_end(struct store_stmt *q, int rc)
{
	store_stmt_free(q);
	return rc < 0 ? -1 : 0;
}

/* ns timestamp -> seconds from the run start */
static double rel_s(const struct tl_ctx *c, long long ns)
{
	return (double)(ns - c->first_ns) / 1e9;
}

/* Column @i as seconds from the run start, or @dflt when NULL. */
static double col_s(const struct tl_ctx *c, struct store_stmt *q, int i, double dflt)
{
	if (store_col_is_null(q, i))
		return dflt;
	return rel_s(c, store_col_int64(q, i));
}

/* Append [b, e) with @state to @band, clipped to the window; drops empty. */
static void add_span(const struct tl_ctx *c, struct chart_band *band, size_t *alloc,
		     double b, double e, int state)
{
	struct chart_span sp;

	b = fmax(b, c->from_s);
	e = fmin(e, c->to_s);
	if (e < b || (e == b && (b == c->from_s || b == c->to_s) && state != CHART_KSWAPD_AWAKE))
		return;
	sp.begin_s = b;
	sp.end_s = e;
	sp.state = state;
	PUSH(band->spans, band->nspans, *alloc, sp);
}

static int decision_state(const char *d)
{
	if (!d)
		return CHART_KSWAPD_UNKNOWN;
	if (!strcmp(d, "nap_woken_early") || !strcmp(d, "nap_timed_out"))
		return CHART_KSWAPD_NAPPING;
	if (!strcmp(d, "no_nap"))
		return CHART_KSWAPD_AWAKE;
	if (!strcmp(d, "full_sleep"))
		return CHART_KSWAPD_ASLEEP;
	return CHART_KSWAPD_UNKNOWN;
}

/* kswapd's WRITEBACK throttles on one node, [begin, end) seconds, in order. */
struct tl_throttles {
	double *b, *e;
	size_t n, i;
};

/*
 * The waits of node @n's kswapd in reclaim_throttle(WRITEBACK) (its
 * mm_vmscan_throttled rows, begun usec_delayed before the event; 5.16+):
 * kswapd is awake and blocked there, inside balance_pgdat() (mm/vmscan.c
 * shrink_node(), kswapd's block: `if (sc->nr.immediate)`).
 */
static int tl_throttles(struct tl_ctx *c, struct chart_timeline_node *n, struct tl_throttles *t)
{
	struct store_stmt *st = prep(c, "SELECT coalesce(begin_ns, end_ns - usec_delayed * 1000),"
				     " end_ns FROM reclaim_throttle WHERE run_id = ?1 AND nid = ?2"
				     " AND kind = 'throttled' AND reason = 'WRITEBACK'"
				     " AND (begin_ns IS NOT NULL OR usec_delayed IS NOT NULL)"
				     " AND pid IN (SELECT pid FROM kswapd_cycle WHERE run_id = ?1"
				     "  AND nid = ?2 AND pid IS NOT NULL) ORDER BY 1",
				     "timeline chart kswapd throttles", n->nid);
	size_t ab = 0, ae = 0, ne = 0;
	int rc;

	*t = (struct tl_throttles){ NULL, NULL, 0, 0 };
	if (!st)
		return -1;
	while ((rc = store_step(st)) > 0) {
		PUSH(t->b, t->n, ab, rel_s(c, store_col_int64(st, 0)));
		PUSH(t->e, ne, ae, rel_s(c, store_col_int64(st, 1)));
	}
	return step_end(st, rc);
}

/* Awake from @b to @e, throttled where a wait of @t falls inside. */
static void add_awake(const struct tl_ctx *c, struct chart_band *band, size_t *alloc,
		      double b, double e, struct tl_throttles *t)
{
	bool any = false;

	while (t->i < t->n && t->e[t->i] <= b)
		t->i++;
	for (size_t i = t->i; i < t->n && t->b[i] < e; i++) {
		double tb = fmax(t->b[i], b), te = fmin(t->e[i], e);

		if (tb > b)
			add_span(c, band, alloc, b, tb, CHART_KSWAPD_AWAKE);
		add_span(c, band, alloc, tb, te, CHART_KSWAPD_THROTTLED);
		b = te;
		any = true;
	}
	if (!any || e > b)
		add_span(c, band, alloc, b, e, CHART_KSWAPD_AWAKE);
}

static int tl_kswapd(struct tl_ctx *c, struct chart_timeline_node *n)
{
	const double end = rel_s(c, c->last_ns);
	struct store_stmt *st = prep(c,
		"SELECT wake_ns, last_activity_ns, sleep_ns, next_wake_ns, decision, premature"
		" FROM kswapd_cycle WHERE run_id = ?1 AND nid = ?2"
		" ORDER BY coalesce(wake_ns, -1), rowid", "timeline chart kswapd cycles", n->nid);
	size_t alloc = 0, palloc = 0;
	double prev_end = 0;
	struct tl_throttles thr;
	struct vr_buf label;
	int rc;

	if (!st)
		return -1;
	if (tl_throttles(c, n, &thr)) {
		store_stmt_free(st);
		return -1;
	}
	vr_buf_init(&label);
	vr_buf_addf(&label, "kswapd%d", n->nid);
	n->kswapd.label = vr_buf_detach(&label);
	while ((rc = store_step(st)) > 0) {
		double next = col_s(c, st, 3, end);
		/* a cycle before the first kswapd_wake (wake_ns NULL): kswapd's
		 * state is unknown up to its first known instant, its last
		 * activity (else its sleep, else the next wake); the span before
		 * is drawn unknown by the gap rule below, never awake or napping */
		double wake = !store_col_is_null(st, 0) ? col_s(c, st, 0, 0) :
			      col_s(c, st, 1, col_s(c, st, 2, next));
		double last = col_s(c, st, 1, wake);
		const char *d = store_col_text(st, 4);
		int state = decision_state(d);

		if (wake > prev_end)	/* not seen between the cycles */
			add_span(c, &n->kswapd, &alloc, prev_end, wake, CHART_KSWAPD_UNKNOWN);
		add_awake(c, &n->kswapd, &alloc, wake, last, &thr);
		if (state == CHART_KSWAPD_ASLEEP) {
			double sleep = col_s(c, st, 2, last);

			add_span(c, &n->kswapd, &alloc, last, sleep, CHART_KSWAPD_NAPPING);
			add_span(c, &n->kswapd, &alloc, sleep, next, CHART_KSWAPD_ASLEEP);
			if (store_col_int(st, 5) && sleep >= c->from_s && sleep <= c->to_s)
				PUSH(n->premature_s, n->npremature, palloc, sleep);
		} else {
			add_span(c, &n->kswapd, &alloc, last, next, state);
		}
		prev_end = fmax(prev_end, next);
	}
	if (rc == 0 && prev_end < end && n->kswapd.nspans)
		add_span(c, &n->kswapd, &alloc, prev_end, end, CHART_KSWAPD_UNKNOWN);
	if (!n->kswapd.nspans)
		n->kswapd.note = vr_strdup(prev_end > 0 ? "no kswapd state in this window"
						       : "kswapd not seen in this run");
	free(thr.b);
	free(thr.e);
	return step_end(st, rc);
}

/*
 * The pgdat flags a band is always shown for; a row's flag name matches the
 * band whose suffix it ends with.  The congested flag changed names:
 * PGDAT_CONGESTED (enum pgdat_flags, include/linux/mmzone.h, up to 5.4),
 * LRUVEC_CONGESTED (enum lruvec_flags, 5.5, commit 9f124d740916 "mm:
 * vmscan: harmonize writeback congestion tracking for nodes & memcgs"),
 * LRUVEC_NODE_CONGESTED for kswapd's node-level flag from 6.5; PGDAT_DIRTY
 * and PGDAT_WRITEBACK kept theirs.
 */
static const char *const flag_bands[] = { "DIRTY", "WRITEBACK", "CONGESTED" };

static int flag_band_of(const char *name)
{
	size_t ln = strlen(name);

	for (size_t i = 0; i < VR_ARRAY_SIZE(flag_bands); i++) {
		size_t lb = strlen(flag_bands[i]);

		if (ln >= lb && !strcasecmp(name + ln - lb, flag_bands[i]))
			return (int)i;
	}
	return -1;
}

/*
 * What an empty PGDAT_DIRTY band says where the model inferred flags: the
 * model's run_quality pgdat_flag_dirty counts the DIRTY tests it made
 * (src/model/model-flags.c); with none there was no basis.  A database made
 * before that item says "never set".
 */
static const char *dirty_note(struct tl_ctx *c)
{
	struct store_stmt *st = prep(c, "SELECT count FROM run_quality WHERE run_id = ?1"
				     " AND item = 'pgdat_flag_dirty'", "timeline chart DIRTY note", -1);
	const char *note = "never set";

	if (store_step(st) > 0)
		note = store_col_int64(st, 0) ? "never set (an estimate: nr_unqueued_dirty is"
						" not traced)" : "cannot be inferred";
	store_stmt_free(st);
	return note;
}

/*
 * What an empty flag band says.  The model writes the run_quality row
 * 'pgdat_flag_not_inferred' when the recording's kernel lacks the counters
 * (4.10 and older) or skips the flag logic (multi-gen LRU, 6.3+), and
 * 'pgdat_flag_rule' when it did infer flags (src/model/model-flags.c).  Without
 * either (a database loaded before the model existed) nothing is known.
 */
/*
 * Why the model inferred no flag, from its pgdat_flag_not_inferred detail
 * (src/model/model-flags.c): the multi-gen LRU's two cases and a recording
 * without the LRU events get their own words, never "never set" nor 0 ms.
 */
static const char *not_inferable(const char *detail)
{
	if (strstr(detail, "on 6.1-6.2"))
		return "not inferable: 6.1-6.2 multi-gen LRU runs the flag code on zero sums"
		       " (PGDAT_DIRTY set on every kswapd pass)";
	if (strstr(detail, "on 6.3+") || !strncmp(detail, "multi-gen LRU", 13))
		return "not inferable: multi-gen LRU reclaim skips the flag code (6.3+)";
	if (strstr(detail, "is not in the recording"))
		return "not recorded: no LRU events in the recording";
	return "not inferable for this kernel";
}

static const char *flag_note(struct tl_ctx *c, int any_rows, bool dirty)
{
	struct store_stmt *st;

	if (dirty) {	/* 6.19+: the kernel has no PGDAT_DIRTY (src/model/model-flags.c) */
		bool absent;

		st = prep(c, "SELECT 1 FROM run_quality WHERE run_id = ?1"
			  " AND item = 'pgdat_flag_dirty_absent' AND count > 0",
			  "timeline chart DIRTY absent", -1);
		absent = store_step(st) > 0;
		store_stmt_free(st);
		if (absent)
			return CHART_NO_DIRTY_NOTE;
	}
	st = prep(c, "SELECT item, coalesce(detail, '') FROM run_quality WHERE run_id = ?1"
				     " AND item IN ('pgdat_flag_not_inferred', 'pgdat_flag_rule')"
				     " AND count > 0 ORDER BY item DESC", "timeline chart flag notes", -1);
	const char *note = any_rows ? "never set" : "not inferred (no model data for this run)";

	if (store_step(st) > 0)
		note = strcmp(store_col_text(st, 0), "pgdat_flag_rule")
		       ? not_inferable(store_col_text(st, 1)) : "never set";
	store_stmt_free(st);
	if (dirty && !strcmp(note, "never set"))
		note = dirty_note(c);
	return note;
}

/*
 * The "kswapd hopeless" band of node @n: its kswapd_hopeless episodes
 * (src/model/model-hopeless.c), a start the trace did not show at the run's
 * start, an end it did not show at the run's end or, when the reset was not
 * traced (a later reclaim_fail counted from 0 again), at the episode's last
 * reclaim_fail.  Only for a recording with the kswapd_failures events
 * (run_event_count; 7.0+) or rows; else no band.
 */
static int tl_hopeless(struct tl_ctx *c, struct chart_timeline_node *n)
{
	const double end = rel_s(c, c->last_ns);
	int have = store_has_table(c->s, "kswapd_hopeless");
	struct store_stmt *st;
	struct chart_band *b;
	size_t alloc = 0;
	int rc, traced;

	if (have <= 0)
		return have;
	st = prep(c, "SELECT count(*) FROM run_event_count WHERE run_id = ?1 AND name IN"
		  " ('mm_vmscan_kswapd_reclaim_fail', 'mm_vmscan_kswapd_clear_hopeless',"
		  " 'mm_vmscan_reset_kswapd_failures')", "timeline chart hopeless events", -1);
	if (!st || (rc = store_step(st)) < 0)
		return step_end(st, -1);
	traced = rc > 0 && store_col_int(st, 0) > 0;
	store_stmt_free(st);
	st = prep(c, "SELECT start_ns, CASE WHEN end_ns IS NULL AND incomplete_reason"
		  " LIKE '%clear_not_traced%' THEN last_fail_ns ELSE end_ns END"
		  " FROM kswapd_hopeless WHERE run_id = ?1 AND nid = ?2 ORDER BY first_fail_ns",
		  "timeline chart hopeless episodes", n->nid);
	if (!st)
		return -1;
	n->flags = vr_realloc(n->flags, (n->nflags + 1) * sizeof(*n->flags));
	b = memset(&n->flags[n->nflags++], 0, sizeof(*b));
	b->label = vr_strdup("kswapd hopeless");
	while ((rc = store_step(st)) > 0)
		add_span(c, b, &alloc, col_s(c, st, 0, 0), col_s(c, st, 1, end), 1);
	if (!b->nspans && !traced) {	/* no such event: no band */
		band_release(b);
		n->nflags--;
	} else if (!b->nspans) {
		b->note = vr_strdup("never hopeless (kswapd_failures < 16 throughout)");
	}
	return step_end(st, rc);
}

static int tl_flags(struct tl_ctx *c, struct chart_timeline_node *n)
{
	const double end = rel_s(c, c->last_ns);
	struct store_stmt *st = prep(c, "SELECT flag, set_ns, clear_ns FROM pgdat_flag"
				     " WHERE run_id = ?1 AND nid = ?2"
				     " ORDER BY flag, coalesce(set_ns, -1)", "timeline chart pgdat flags",
				     n->nid);
	size_t nb = VR_ARRAY_SIZE(flag_bands), *alloc;
	int rc, any = 0;

	if (!st)
		return -1;
	n->nflags = nb;
	n->flags = vr_calloc(nb, sizeof(*n->flags));
	alloc = vr_calloc(nb + 16, sizeof(*alloc));
	while ((rc = store_step(st)) > 0) {
		const char *name = store_col_text(st, 0);
		int b = flag_band_of(name);

		any = 1;
		if (b < 0) {	/* a flag we have no band for: one more band */
			size_t i;

			for (i = nb; i < n->nflags; i++)
				if (!strcmp(n->flags[i].label, name))
					break;
			if (i == n->nflags) {
				if (n->nflags == nb + 16)
					continue;
				n->flags = vr_realloc(n->flags, (n->nflags + 1) * sizeof(*n->flags));
				memset(&n->flags[n->nflags], 0, sizeof(*n->flags));
				n->flags[n->nflags++].label = vr_strdup(name);
			}
			b = (int)i;
		} else if (!n->flags[b].label) {
			n->flags[b].label = vr_strdup(name);
		}
		add_span(c, &n->flags[b], &alloc[b], col_s(c, st, 1, 0), col_s(c, st, 2, end), 1);
	}
	free(alloc);
	for (size_t i = 0; i < nb; i++) {
		if (!n->flags[i].label) {
			struct vr_buf b;

			vr_buf_init(&b);
			vr_buf_addf(&b, "%s%s", i == 2 ? "" : "PGDAT_", flag_bands[i]);
			n->flags[i].label = vr_buf_detach(&b);
		}
		if (!n->flags[i].nspans)
			n->flags[i].note = vr_strdup(flag_note(c, any, i == 0));
	}
	return step_end(st, rc) ?: tl_hopeless(c, n);
}

/* The stalls and waits of node ?2 (@NIDS: reclaim_stall.nids or NULL). */
#define STALLS_SQL(NIDS) \
	"SELECT begin_ns, duration_ns, CASE kind" \
	" WHEN 'direct' THEN 0 WHEN 'memcg' THEN 1" \
	" WHEN 'memcg_softlimit' THEN 2 ELSE 3 END FROM reclaim_stall" \
	" WHERE run_id = ?1 AND (nid = ?2 OR (nid IS NULL AND (" NIDS " IS NULL" \
	"  OR instr(',' || " NIDS " || ',', ',' || ?2 || ','))))" \
	" AND begin_ns IS NOT NULL AND duration_ns IS NOT NULL" \
	" UNION ALL SELECT coalesce(begin_ns, end_ns - usec_delayed * 1000)," \
	" coalesce(usec_delayed * 1000, end_ns - begin_ns), 4" \
	" FROM reclaim_throttle WHERE run_id = ?1" \
	" AND (nid = ?2 OR nid IS NULL)" \
	" AND (begin_ns IS NOT NULL OR usec_delayed IS NOT NULL)" \
	" ORDER BY 1, 3"

/*
 * Every reclaim stall (direct, memcg, memcg soft limit, node: the kinds of
 * reclaim_stall) with both ends, and every throttling wait
 * (reclaim_throttle: mm_vmscan_throttled, its usec_delayed from the end
 * back when the begin is not known), begun inside the window.  A stall is
 * drawn on the nodes it reclaimed from (reclaim_stall.nids), node reclaim
 * on its node; one with neither (nothing traced of its reclaim, or a
 * database made before nids) on every node.
 */
static int tl_stalls(struct tl_ctx *c, struct chart_timeline_node *n)
{
	int have_nids = store_has_column(c->s, "reclaim_stall", "nids");
	struct store_stmt *st = have_nids < 0 ? NULL :
		prep(c, have_nids ? STALLS_SQL("nids") : STALLS_SQL("NULL"),
		     "timeline chart stalls", n->nid);
	size_t a1 = 0, a2 = 0, a3 = 0, n2 = 0, n3 = 0;
	int rc;

	if (!st)
		return -1;
	while ((rc = store_step(st)) > 0) {
		double b = col_s(c, st, 0, 0);

		if (b < c->from_s || b > c->to_s)
			continue;
		PUSH(n->stall_begin_s, n->nstalls, a1, b);
		PUSH(n->stall_ms, n2, a2, store_col_int64(st, 1) / 1e6);
		PUSH(n->stall_kind, n3, a3, (unsigned char)store_col_int(st, 2));
	}
	return step_end(st, rc);
}

#define TL_KSWAPD_PID \
	" pid IN (SELECT pid FROM task WHERE run_id = ?1 AND comm GLOB 'kswapd*'" \
	"  UNION SELECT pid FROM kswapd_cycle WHERE run_id = ?1 AND pid IS NOT NULL)"

/*
 * The reclaim rate's rows (time ns, pages, by kswapd) of node @n: each
 * millisecond of lru_reclaim_ms at its start when the window starts and the
 * bins end on whole milliseconds and the window reaches the run's end (the
 * rows then fall in the bins of the mm_vmscan_lru_shrink_inactive rows they
 * sum, and integer pages add up exactly: the same rates from a few rows per
 * ms); otherwise each mm_vmscan_lru_shrink_inactive row, which an evidence
 * database lacks: then an error naming what is missing.
 */
static struct store_stmt *tl_rate_rows(struct tl_ctx *c, struct chart_timeline_node *n,
				       long long from_ns, long long to_ns, long long bin_ns)
{
	bool whole_ms = !((from_ns - c->first_ns) % 1000000 || bin_ns % 1000000 ||
			  to_ns < c->last_ns);
	int ms = whole_ms ? store_has_table(c->s, "lru_reclaim_ms") : 0;
	int raw = ms ? 0 : store_has_table(c->s, "mm_vmscan_lru_shrink_inactive");

	if (ms < 0 || raw < 0)
		return NULL;
	if (ms)
		return prep(c, "SELECT (SELECT first_ts_ns FROM run WHERE id = ?1) + ms * 1000000,"
			    " nr_reclaimed," TL_KSWAPD_PID
			    " FROM lru_reclaim_ms WHERE run_id = ?1 AND nid = ?2",
			    "timeline chart reclaim rate", n->nid);
	if (raw)
		return prep(c, "SELECT ts_ns, coalesce(nr_reclaimed, 0)," TL_KSWAPD_PID
			    " FROM mm_vmscan_lru_shrink_inactive WHERE run_id = ?1 AND nid = ?2",
			    "timeline chart reclaim rate", n->nid);
	vr_error("%s: no table mm_vmscan_lru_shrink_inactive (an evidence database has"
		 " the reclaim rate per millisecond only): the timeline's window must"
		 " start on a whole millisecond, reach the end of the run and have bins"
		 " of whole milliseconds; or use the database it was made from",
		 store_path(c->s));
	return NULL;
}

static int tl_rate(struct tl_ctx *c, struct chart_timeline_node *n)
{
	const struct chart_timeline *t = c->t;
	struct store_stmt *st;
	long long from_ns, to_ns, bin_ns;
	int rc;

	/* bin in integer ns, so that an event on a bin edge is not moved by
	 * floating-point rounding */
	from_ns = c->first_ns + llround(t->from_s * 1e9);
	to_ns = c->first_ns + llround(t->to_s * 1e9);
	bin_ns = llround(t->bin_s * 1e9);
	st = tl_rate_rows(c, n, from_ns, to_ns, bin_ns);
	if (!st)
		return -1;
	n->nbins = (size_t)ceil((t->to_s - t->from_s) / t->bin_s - 1e-9);
	if (!n->nbins)
		n->nbins = 1;
	n->rate_kswapd = vr_calloc(n->nbins, sizeof(double));
	n->rate_direct = vr_calloc(n->nbins, sizeof(double));
	{
		char why[RECORDED_WHY_MAX];
		int rec = recorded_check(c->s, c->run_id, RN_LRU_PAGES, why, sizeof(why));

		if (rec < 0) {
			store_stmt_free(st);
			return -1;
		}
		if (!rec)	/* no line at 0: said where it would be */
			n->rate_missing = vr_strdup(why);
	}
	while ((rc = store_step(st)) > 0) {
		long long ts = store_col_int64(st, 0);
		long long pages = store_col_int64(st, 1);
		size_t b;

		if (ts < from_ns || ts > to_ns)
			continue;
		b = (size_t)((ts - from_ns) / (bin_ns > 0 ? bin_ns : 1));
		if (b >= n->nbins)
			b = n->nbins - 1;
		(store_col_int(st, 2) ? n->rate_kswapd : n->rate_direct)[b] += pages;
	}
	for (size_t b = 0; b < n->nbins; b++) {
		double w = fmin(t->bin_s, t->to_s - (t->from_s + b * t->bin_s));

		if (w <= 0)
			w = t->bin_s;
		n->rate_kswapd[b] /= w;
		n->rate_direct[b] /= w;
	}
	return step_end(st, rc);
}

/*
 * Node @n's rates copied from @from (o->rates) when it is a timeline of the
 * same run, window and bin with a node of @n's nid: 1; else 0 (to be read).
 */
static int tl_rate_copy(const struct chart_timeline *from, const struct chart_timeline *t,
			struct chart_timeline_node *n)
{
	if (!from || from->run_id != t->run_id || from->from_s != t->from_s ||
	    from->to_s != t->to_s || from->bin_s != t->bin_s)
		return 0;
	for (size_t i = 0; i < from->nnodes; i++) {
		const struct chart_timeline_node *f = &from->nodes[i];

		if (f->nid != n->nid)
			continue;
		n->nbins = f->nbins;
		n->rate_kswapd = vr_calloc(f->nbins, sizeof(double));
		n->rate_direct = vr_calloc(f->nbins, sizeof(double));
		memcpy(n->rate_kswapd, f->rate_kswapd, f->nbins * sizeof(double));
		memcpy(n->rate_direct, f->rate_direct, f->nbins * sizeof(double));
		n->rate_missing = f->rate_missing ? vr_strdup(f->rate_missing) : NULL;
		return 1;
	}
	return 0;
}

static int tl_run(struct tl_ctx *c)
{
	struct store_stmt *st = prep(c, "SELECT kernel, iteration, first_ts_ns, last_ts_ns"
				     " FROM run WHERE id = ?1", "timeline chart run", -1);
	int rc = store_step(st);

	if (rc <= 0) {
		store_stmt_free(st);
		if (rc == 0)
			return runs_no_run(c->s, (long long)c->run_id);
		return -1;
	}
	c->t->kernel = vr_strdup(store_col_text(st, 0));
	c->t->iteration = store_col_int(st, 1);
	c->first_ns = store_col_int64(st, 2);
	c->last_ns = store_col_is_null(st, 3) ? c->first_ns : store_col_int64(st, 3);
	store_stmt_free(st);
	return 0;
}

#define NODES_SQL \
	"SELECT nid FROM kswapd_cycle WHERE run_id = ?1" \
	" UNION SELECT nid FROM pgdat_flag WHERE run_id = ?1" \
	" UNION SELECT nid FROM kswapd_wake_node WHERE run_id = ?1 AND nid IS NOT NULL" \
	" UNION SELECT nid FROM lru_shrink_pages WHERE run_id = ?1 AND nid IS NOT NULL" \
	" UNION SELECT nid FROM reclaim_stall WHERE run_id = ?1 AND nid IS NOT NULL"

/* Nodes that have anything to show, ascending; @want >= 0 keeps only it. */
static int tl_nodes(struct tl_ctx *c, int want)
{
	/* kswapd_hopeless: not in a database made before it */
	int hopeless = store_has_table(c->s, "kswapd_hopeless");
	struct store_stmt *st = hopeless < 0 ? NULL : prep(c, hopeless ?
		NODES_SQL " UNION SELECT nid FROM kswapd_hopeless WHERE run_id = ?1 ORDER BY 1" :
		NODES_SQL " ORDER BY 1", "timeline chart nodes", -1);
	size_t alloc = 0;
	struct vr_buf all;	/* every node, for the message */
	int rc;

	if (!st)
		return -1;
	vr_buf_init(&all);
	while ((rc = store_step(st)) > 0) {
		struct chart_timeline_node n = { .nid = store_col_int(st, 0) };

		vr_buf_addf(&all, all.len ? ", %d" : "%d", n.nid);
		if (want < 0 || n.nid == want)
			PUSH(c->t->nodes, c->t->nnodes, alloc, n);
	}
	if (rc == 0 && want >= 0 && !c->t->nnodes) {
		vr_error("%s: run %lld has no data for node %d (its nodes: %s)", store_path(c->s),
			 c->run_id, want, all.len ? all.buf : "none");
		rc = -1;
	}
	vr_buf_release(&all);
	return step_end(st, rc);
}

/* chart_timeline_build(), with only the reclaim rate when @rate_only. */
static int timeline_build(struct store *s, const struct chart_timeline_opts *o,
			  struct chart_timeline *out, bool rate_only)
{
	struct tl_ctx c = { .s = s, .run_id = o->run_id, .t = out };

	memset(out, 0, sizeof(*out));
	out->run_id = o->run_id;
	if (tl_run(&c))
		goto fail;
	out->duration_s = rel_s(&c, c.last_ns);
	c.from_s = out->from_s = fmax(0, o->from_s);
	c.to_s = out->to_s = o->to_s < 0 ? out->duration_s : o->to_s;
	/* a window past the end would be an empty chart that looks like a quiet
	 * run: the run's length is what the user needs to pick another */
	bool from_past = o->from_s > 0 && o->from_s >= out->duration_s;

	if (from_past || (o->to_s >= 0 && o->to_s > out->duration_s + 5e-4)) {
		vr_error("%s: run %lld lasts %.3f s: --%s %g s is past its end", store_path(s),
			 o->run_id, out->duration_s, from_past ? "from" : "to",
			 from_past ? o->from_s : o->to_s);
		goto fail;
	}
	/* a run of no length (one event, or all at one time) has the window
	 * 0..0: its chart says so rather than failing (render-charts.c) */
	if (c.to_s <= c.from_s && out->duration_s > 0) {
		vr_error("%s: empty time window %g..%g s (run %lld lasts %g s)", store_path(s),
			 c.from_s, c.to_s, o->run_id, out->duration_s);
		goto fail;
	}
	out->bin_s = o->bin_s > 0 ? o->bin_s : chart_bin_width(c.to_s - c.from_s);
	out->rate_max = o->rate_max;
	if (tl_nodes(&c, o->nid))
		goto fail;
	for (size_t i = 0; i < out->nnodes; i++) {
		struct chart_timeline_node *n = &out->nodes[i];

		if ((!rate_only && (tl_kswapd(&c, n) || tl_flags(&c, n) || tl_stalls(&c, n))) ||
		    (!tl_rate_copy(o->rates, out, n) && tl_rate(&c, n)))
			goto fail;
	}
	return 0;
fail:
	chart_timeline_release(out);
	return -1;
}

int chart_timeline_build(struct store *s, const struct chart_timeline_opts *o,
			 struct chart_timeline *out)
{
	return timeline_build(s, o, out, false);
}

int chart_kernel_colour(struct store *s, const char *kernel)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT kernel FROM run GROUP BY kernel"
					      " ORDER BY min(id)", "kernel colours");
	int idx = -1, i = 0;

	while (store_step(q) > 0) {
		if (!strcmp(store_col_text(q, 0), kernel)) {
			idx = i;
			break;
		}
		i++;
	}
	store_stmt_free(q);
	return idx;
}

/* The length of run @run_id in s, as chart_timeline_build() gives it. */
static int tl_duration(struct store *s, long long run_id, double *duration_s)
{
	struct chart_timeline t;
	struct tl_ctx c = { .s = s, .run_id = run_id, .t = &t };
	int rc;

	memset(&t, 0, sizeof(t));
	rc = tl_run(&c);
	if (!rc)
		*duration_s = rel_s(&c, c.last_ns);
	chart_timeline_release(&t);
	return rc;
}

int chart_timeline_shared_scale(struct store *s, const long long *run_ids, size_t n,
				double *bin_s, double *rate_max, struct chart_timeline *rates)
{
	struct chart_timeline t;
	double longest = 0, d;

	if (rates)
		memset(rates, 0, n * sizeof(*rates));

	*bin_s = *rate_max = 0;
	for (size_t i = 0; i < n; i++) {
		if (tl_duration(s, run_ids[i], &d))
			return -1;
		longest = fmax(longest, d);
	}
	if (n)
		*bin_s = chart_bin_width(longest);
	for (size_t i = 0; i < n; i++) {
		struct chart_timeline_opts o = { run_ids[i], -1, 0, -1, *bin_s, 0, NULL };

		if (timeline_build(s, &o, &t, true)) {	/* only its rates are needed */
			for (size_t j = 0; rates && j < i; j++)
				chart_timeline_release(&rates[j]);
			return -1;
		}
		for (size_t k = 0; k < t.nnodes; k++)
			for (size_t b = 0; b < t.nodes[k].nbins; b++)
				*rate_max = fmax(*rate_max, fmax(t.nodes[k].rate_kswapd[b],
								 t.nodes[k].rate_direct[b]));
		if (rates)
			rates[i] = t;
		else
			chart_timeline_release(&t);
	}
	return 0;
}
