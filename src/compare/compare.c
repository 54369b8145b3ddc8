// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - the latency comparison table: for every operation (see
 * metrics.h) and kernel, the values of the kernel's runs, their statistics
 * as mmtests' Summarise.pm computes them (values sorted best first), the
 * gain against the baseline kernel (Stat.pm pdiff/pndiff) and Welch's
 * t-test on the mean rows.  The counters block is in compare-counters.c.
 */
#include "compare.h"
#include "compare-internal.h"
#include "counters.h"
#include "metrics.h"
#include "stats.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/*
 * How text shortens names that do not fit 80 columns (render_text_fit()):
 * the trace metrics, and the long phrases of counter names (counters.c).
 * One table, so a name is shortened the same way in every table.
 */
static const struct render_abbrev name_abbrevs[] = {
	{ "KswapdWakeupDelay", "KsWakeDelay" },
	{ "KswapdAwake", "KsAwake" },
	{ "DirectReclaim", "DirectRcl" },
	{ "MemcgReclaim", "MemcgRcl" },
	{ "NodeReclaim", "NodeRcl" },
	{ "CongestionWait", "CongWait" },
	{ "SlabShrink", "Slab" },
	{ "Allocation", "Alloc" },
	{ "memcg softlimit", "softlimit" },
	{ "outside kswapd", "not kswapd" },
};

static const struct compare_stat default_stats[] = {
	{ COMPARE_MIN, 0, "Min", "Min" },
	{ COMPARE_AMEAN, 0, "Amean", "Amean" },
	{ COMPARE_STDDEV, 0, "Stddev", "Stddev" },
	{ COMPARE_COEFFVAR, 0, "CoeffVar", "CoeffVar" },
	{ COMPARE_MAX, 0, "Max", "Max" },
	{ COMPARE_BAMEAN, 95, "BAmean-95", "BAmean.95" },
};

int compare_significance_parse(const char *name, enum compare_significance *out)
{
	if (!strcmp(name, "welch"))
		*out = COMPARE_SIG_WELCH;
	else if (!strcmp(name, "ci"))
		*out = COMPARE_SIG_CI;
	else
		return -1;
	return 0;
}

int compare_p_adjust_parse(const char *name, enum compare_p_adjust *out)
{
	if (!strcmp(name, "bh"))
		*out = COMPARE_P_BH;
	else if (!strcmp(name, "none"))
		*out = COMPARE_P_NONE;
	else
		return -1;
	return 0;
}

int compare_stat_parse(const char *name, struct compare_stat *out)
{
	static const struct { const char *name; enum compare_stat_kind kind; } plain[] = {
		{ "Min", COMPARE_MIN }, { "Amean", COMPARE_AMEAN }, { "Hmean", COMPARE_HMEAN },
		{ "Stddev", COMPARE_STDDEV }, { "CoeffVar", COMPARE_COEFFVAR },
		{ "Max", COMPARE_MAX },
	};
	static const struct { const char *prefix; enum compare_stat_kind kind; } pct[] = {
		{ "BAmean", COMPARE_BAMEAN }, { "Pctile", COMPARE_PCTILE },
	};

	for (size_t i = 0; i < VR_ARRAY_SIZE(plain); i++)
		if (!strcasecmp(name, plain[i].name)) {
			out->kind = plain[i].kind;
			out->pct = 0;
			snprintf(out->label, sizeof(out->label), "%s", plain[i].name);
			snprintf(out->mm_label, sizeof(out->mm_label), "%s", plain[i].name);
			return 0;
		}
	for (size_t i = 0; i < VR_ARRAY_SIZE(pct); i++) {
		size_t len = strlen(pct[i].prefix);
		char *end;
		double nn;

		if (strncasecmp(name, pct[i].prefix, len) || (name[len] != '-' && name[len] != '.'))
			continue;
		nn = strtod(name + len + 1, &end);
		if (end == name + len + 1 || *end || !(nn > 0 && nn <= 100))
			return -1;
		out->kind = pct[i].kind;
		out->pct = nn;
		snprintf(out->label, sizeof(out->label), "%s-%s", pct[i].prefix, name + len + 1);
		snprintf(out->mm_label, sizeof(out->mm_label), "%s.%s", pct[i].prefix,
			 name + len + 1);
		return 0;
	}
	return -1;
}

/* HCoeffVar: mmtests' calc_coeffvar with "hmean": the stddev around the
 * harmonic mean over it, in percent; NAN where either is. */
static double hcoeffvar(const double *v, size_t n)
{
	double h = stats_hmean(v, n);

	return isnan(h) || h == 0 ? NAN : stats_hstddev(v, n) * 100.0 / h;
}

/*
 * Statistic @st of @v (sorted best first) for an operation.  @harmonic:
 * the operation is higher-is-better and its means are harmonic, as mmtests
 * computes every "_mean" statistic of such data (Summarise.pm runStatFunc:
 * "_mean" is hmean for a preferred value of Higher): Amean is Hmean,
 * Stddev HStddev (Stat.pm calc_stddev around the harmonic mean), CoeffVar
 * HCoeffVar, BAmean-NN BHmean-NN (the harmonic mean of the best NN %).
 */
static double stat_value(const struct compare_stat *st, const double *v, size_t n,
			 bool harmonic)
{
	switch (st->kind) {
	case COMPARE_MIN: return stats_min(v, n);
	case COMPARE_AMEAN: return harmonic ? stats_hmean(v, n) : stats_mean(v, n);
	case COMPARE_HMEAN: return stats_hmean(v, n);
	case COMPARE_STDDEV: return harmonic ? stats_hstddev(v, n) : stats_stddev(v, n);
	case COMPARE_COEFFVAR: return harmonic ? hcoeffvar(v, n) : stats_coeffvar(v, n);
	case COMPARE_MAX: return stats_max(v, n);
	case COMPARE_BAMEAN:
		return harmonic ? stats_hmean(v, n ? stats_best_count(n, st->pct) : 0)
				: stats_bamean(v, n, st->pct);
	case COMPARE_PCTILE: return stats_pctile(v, n, st->pct);
	}
	return NAN;
}

/* The label of statistic @st for an operation whose statistics are
 * @harmonic (stat_value()), as mmtests names it (Stat.pm stat_names:
 * Hmean, HStddev, HCoeffVar, BHmean.NN); @mm: today's layout (".NN"). */
static char *stat_label(const struct compare_stat *st, bool harmonic, bool mm)
{
	struct vr_buf b;

	if (!harmonic)
		return vr_strdup(mm ? st->mm_label : st->label);
	vr_buf_init(&b);
	switch (st->kind) {
	case COMPARE_AMEAN: vr_buf_addstr(&b, "Hmean"); break;
	case COMPARE_STDDEV: vr_buf_addstr(&b, "HStddev"); break;
	case COMPARE_COEFFVAR: vr_buf_addstr(&b, "HCoeffVar"); break;
	case COMPARE_BAMEAN: vr_buf_addf(&b, "BH%s", (mm ? st->mm_label : st->label) + 2); break;
	default: vr_buf_addstr(&b, mm ? st->mm_label : st->label); break;
	}
	return vr_buf_detach(&b);
}

static bool stat_is_mean(const struct compare_stat *st)
{
	return st->kind == COMPARE_AMEAN || st->kind == COMPARE_HMEAN;
}

/* Stddev and CoeffVar are better when lower whatever the operation (Summarise.pm). */
static bool stat_higher_better(const struct compare_stat *st, bool op_higher_better)
{
	if (st->kind == COMPARE_STDDEV || st->kind == COMPARE_COEFFVAR)
		return false;
	return op_higher_better;
}

static void values_release(struct compare_values *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].v);
		free(v[i].run_v);
	}
}

static void values_add(struct compare_values *dst, const double *v, size_t n)
{
	dst->v = vr_realloc(dst->v, (dst->n + n + 1) * sizeof(*dst->v));
	if (n)	/* v is NULL for a run without values: memcpy(NULL) is UB */
		memcpy(dst->v + dst->n, v, n * sizeof(*v));
	dst->n += n;
}

/* Sort best first: ascending when lower is better, descending otherwise. */
static void sort_best_first(struct compare_values *v, bool higher_better)
{
	stats_sort(v->v, v->n);
	for (size_t i = 0; higher_better && i < v->n / 2; i++) {
		double t = v->v[i];

		v->v[i] = v->v[v->n - 1 - i];
		v->v[v->n - 1 - i] = t;
	}
}

/*
 * Per-run samples of one trace metric, kept while consecutive operations
 * (p50, p95, p99, max) use the same metric.
 */
struct sample_cache {
	const struct metric_spec *spec;
	struct compare_values *runs;	/* one per run of every kernel, in kernel order */
	size_t nruns;
	struct metric_presence *presence;	/* per kernel, over its trace runs */
};

static void cache_release(struct sample_cache *c)
{
	if (c->runs)
		values_release(c->runs, c->nruns);
	free(c->runs);
	free(c->presence);
	memset(c, 0, sizeof(*c));
}

/* metric_presence_get() of kernel @k, whose runs' samples start at @first. */
static int kernel_presence(struct store *s, const struct metric_spec *spec,
			   const struct compare_kernel *k, const struct compare_values *first,
			   struct metric_presence *out)
{
	size_t *nsamples = vr_calloc(k->ntrace + 1, sizeof(*nsamples));
	int ret;

	for (size_t t = 0; t < k->ntrace; t++)
		for (size_t j = 0; j < k->nruns; j++)
			if (k->runs[j] == k->trace_runs[t])
				nsamples[t] = first[j].n;
	ret = metric_presence_get(s, spec, k->trace_runs, k->ntrace, nsamples, out);
	free(nsamples);
	return ret;
}

static int cache_load(struct store *s, struct sample_cache *c, const struct metric_spec *spec,
		      const struct compare_kernel *k, size_t nk)
{
	size_t r = 0;

	if (c->spec == spec)
		return 0;
	cache_release(c);
	for (size_t i = 0; i < nk; i++)
		c->nruns += k[i].nruns;
	c->runs = vr_calloc(c->nruns + 1, sizeof(*c->runs));
	c->presence = vr_calloc(nk, sizeof(*c->presence));
	c->spec = spec;
	for (size_t i = 0; i < nk; i++) {
		size_t first = r;

		for (size_t j = 0; j < k[i].nruns; j++, r++)
			if (metric_run_samples(s, spec, k[i].runs[j], &c->runs[r].v, &c->runs[r].n))
				return -1;
		if (kernel_presence(s, spec, &k[i], &c->runs[first], &c->presence[i]))
			return -1;
	}
	return 0;
}

/* One run's values @v[0..@n-1] of imported operation @op into @dst, counted
 * in dst->presence: none (not recorded), all 0 (left out unless the zeros
 * are real: metric_values_all_zero()), or values. */
static void app_run_add(const struct metric_op *op, struct compare_values *dst, const double *v,
			size_t n)
{
	if (!n) {
		dst->presence.not_recorded++;
	} else if (!op->zeros_real && metric_values_all_zero(v, n)) {
		dst->presence.zero++;
	} else {
		values_add(dst, v, n);
		dst->run_v = vr_realloc(dst->run_v, (dst->nrun_v + 1) * sizeof(*dst->run_v));
		dst->run_v[dst->nrun_v++] = stats_mean(v, n);
		dst->presence.with_samples++;
	}
}

/* The values of @op for each kernel into @out[0..nk-1], sorted best first. */
static int op_values(struct store *s, const struct metric_op *op, struct sample_cache *cache,
		     const struct compare_kernel *k, size_t nk, struct compare_values *out)
{
	size_t r = 0;

	if (op->spec && cache_load(s, cache, op->spec, k, nk))
		return -1;
	for (size_t i = 0; i < nk; i++) {
		out[i].nruns = k[i].nruns;
		for (size_t j = 0; j < k[i].nruns; j++, r++) {
			if (op->spec) {
				const struct compare_values *s = &cache->runs[r];
				double v = metric_summary_value(op->summary, s->v, s->n);

				if (s->n)
					values_add(&out[i], &v, 1);
			} else {
				double *v;
				size_t n;

				if (metric_app_run_samples(s, op->name, k[i].runs[j], &v, &n))
					return -1;
				app_run_add(op, &out[i], v, n);
				free(v);
			}
		}
		if (op->spec) {
			out[i].presence = cache->presence[i];
			out[i].data = metric_presence_data(&out[i].presence);
			out[i].nruns = (size_t)out[i].presence.nruns;
		} else {
			out[i].presence.nruns = (int)k[i].nruns;
			out[i].data = out[i].n ? METRIC_DATA_VALUES : METRIC_DATA_NOT_RECORDED;
		}
		sort_best_first(&out[i], op->better == METRIC_HIGHER_IS_BETTER);
	}
	return 0;
}

/* How many values @v stands for: its own, or for a kernel that recorded
 * the metric without a sample in any run, one 0 per run. */
static size_t kernel_count(const struct compare_values *v)
{
	if (!v->n && v->data == METRIC_DATA_ZERO)
		return v->nruns;
	return v->n;
}

/* Is @st a spread (Stddev, CoeffVar) of a single value?  mmtests has no
 * stddev of one value (Stat.pm calc_stddev: NaN for n <= 1) and prints
 * 0.00 (0.00%) there (Compare.pm _generateComparisonTable); so does this,
 * and a gain against such a baseline is not printed. */
static bool single_spread(const struct compare_stat *st, const struct compare_values *v)
{
	return (st->kind == COMPARE_STDDEV || st->kind == COMPARE_COEFFVAR) &&
	       kernel_count(v) == 1;
}

/*
 * Statistic @st of kernel values @v.  A kernel that recorded the metric
 * without a sample in any run (METRIC_DATA_ZERO: no stall is a stall time
 * of 0, the good outcome of a patch, not a missing value) has one 0 per
 * run: 0 for every statistic but CoeffVar, which has no value for a mean
 * of 0 (NAN, printed "-").  A spread of a single value is 0 (single_spread()).
 * Any other CoeffVar of a mean 0 is NAN too (stats_coeffvar()).
 */
static double kernel_stat(const struct compare_stat *st, const struct compare_values *v,
			  bool harmonic)
{
	if (!v->n && v->data == METRIC_DATA_ZERO)
		return st->kind == COMPARE_COEFFVAR ? NAN : 0;
	if (single_spread(st, v))
		return 0;
	return stat_value(st, v->v, v->n, harmonic);
}

/* The stddev mmtests puts around the mean of @v (sorted best first): of the
 * arithmetic mean, or of the harmonic one for higher-is-better values;
 * NAN below two values (Stat.pm calc_stddev). */
static double mean_stddev(const struct compare_values *v, bool higher_better)
{
	if (v->n < 2)
		return NAN;
	return higher_better ? stats_hstddev(v->v, v->n) : stats_stddev(v->v, v->n);
}

/*
 * The values Welch's test, its interval and the outlier notes compare, of
 * the baseline @v0 into @a, @na and of kernel @v into @b, @nb: one value per
 * run (an imported operation's run_v, its samples averaged per run) where
 * either has two runs or more with values, since the samples of one run (a
 * workload's interval reports, cumulative in simoop's) are not independent
 * of each other (a kernel with values in one run only is then one value:
 * no test); else, one run each, every value, as mmtests tests them.
 * A trace metric's values are one per run already.
 */
static void test_values(const struct compare_values *v0, const struct compare_values *v,
			const double **a, size_t *na, const double **b, size_t *nb)
{
	bool per_run = v0->nrun_v >= 2 || v->nrun_v >= 2;

	*a = per_run ? v0->run_v : v0->v;
	*na = per_run ? v0->nrun_v : v0->n;
	*b = per_run ? v->run_v : v->v;
	*nb = per_run ? v->nrun_v : v->n;
}

/* Mark @cell (column @c, a mean row) by the rule of @o->significance;
 * under Welch only its p here: adjust_p() marks the table's rows once
 * their p-values are adjusted together. */
static void mark_significance(const struct compare_opts *o, const struct compare_values *vals,
			      size_t c, bool hb, struct render_cell *cell)
{
	struct stats_ttest t;
	const double *a, *b;
	size_t na, nb;
	double cidiff;

	if (o->significance == COMPARE_SIG_CI) {
		double base = hb ? stats_hmean(vals[0].v, vals[0].n) : stats_mean(vals[0].v, vals[0].n);

		cell->significant = stats_ci_differ(base, mean_stddev(&vals[0], hb), cell->value,
						    mean_stddev(&vals[c], hb), &cidiff) == 1;
		return;
	}
	test_values(&vals[0], &vals[c], &a, &na, &b, &nb);
	if (stats_welch_ttest(a, na, b, nb, &t) == 0)
		cell->p = t.p;
}

/*
 * The interval of @cell's gain (--ci): Welch's interval of the difference
 * of the arithmetic means of kernel @c and the baseline (stats_welch_ci() at
 * level 1 - alpha; --ci-method bootstrap: stats_bootstrap_ci()'s percentile
 * interval) as a gain relative to the baseline's mean, with the sign
 * rule of stats_gain_pct(): lower is better, -100 d / m0; higher is better,
 * 100 d / m0.  None for Hmean rows (@harmonic) or a baseline mean <= 0.
 */
static void gain_ci(const struct compare_opts *o, const struct compare_values *vals, size_t c,
		    bool hb, bool harmonic, struct render_cell *cell)
{
	const double *a, *b;
	size_t na, nb;
	double m0, lo, hi;

	test_values(&vals[0], &vals[c], &a, &na, &b, &nb);
	m0 = stats_mean(a, na);
	cell->ci_lo = cell->ci_hi = NAN;
	if (harmonic || !(m0 > 0))
		return;
	if (o->ci_bootstrap ? stats_bootstrap_ci(a, na, b, nb, 1 - o->alpha, &lo, &hi) :
			      stats_welch_ci(a, na, b, nb, 1 - o->alpha, &lo, &hi))
		return;
	cell->ci_lo = hb ? 100 * lo / m0 : -100 * hi / m0;
	cell->ci_hi = hb ? 100 * hi / m0 : -100 * lo / m0;
}

static void fill_cell(const struct compare_stat *st, const struct metric_op *op,
		      const struct compare_values *vals, size_t c, double base, bool harmonic,
		      const struct compare_opts *o, struct render_cell *cell)
{
	bool hb = op->better == METRIC_HIGHER_IS_BETTER;

	cell->value = kernel_stat(st, &vals[c], harmonic);
	if (isnan(cell->value))
		cell->gain_pct = NAN;
	else if (single_spread(st, &vals[c]))
		cell->gain_pct = 0;	/* mmtests' 0.00 (0.00%) */
	else if (isnan(cell->value) || isnan(base) || single_spread(st, &vals[0]))
		cell->gain_pct = NAN;	/* no baseline to measure against */
	else
		cell->gain_pct = stats_gain_pct(cell->value, base, stat_higher_better(st, hb));
	cell->p = cell->p_adj = NAN;
	cell->significant = false;
	cell->ci_lo = cell->ci_hi = NAN;
	cell->data = metric_data_name(vals[c].data);
	cell->nvalues = (int)vals[c].n;
	cell->nruns = (int)vals[c].nruns;
	if (c == 0 || !stat_is_mean(st) || isnan(cell->gain_pct))
		return;
	mark_significance(o, vals, c, hb, cell);
	if (o->ci && isfinite(cell->gain_pct))
		gain_ci(o, vals, c, hb, harmonic, cell);
}

/* Is @op named by --metrics: its own name, or its metric's as chart names
 * it (metric_op_split(): p95-Read and final-p95-Read are rows of Read and
 * final-Read)? */
static bool op_selected(const struct metric_op *op, const struct compare_opts *o)
{
	char *pct, *metric;
	bool yes = !o->metrics;

	if (yes)
		return true;
	metric_op_split(op->name, &pct, &metric);
	for (size_t i = 0; i < o->nmetrics && !yes; i++)
		yes = !strcmp(o->metrics[i], op->name) || !strcmp(o->metrics[i], metric);
	free(pct);
	free(metric);
	return yes;
}

/*
 * Is statistic @st shown for @op?  Hmean only for higher-is-better data, as
 * mmtests computes it (Summarise.pm: "_mean" is hmean for a preferred value
 * of Higher, amean for Lower; an Hmean of latencies would also get the gain
 * sign of pdiff, the opposite of what mmtests shows for them).
 */
static bool stat_shown(const struct compare_stat *st, const struct metric_op *op)
{
	return st->kind != COMPARE_HMEAN || op->better == METRIC_HIGHER_IS_BETTER;
}

/* "400.00, 410.00" (at most three, then "...") of @v[0..@n-1] not in
 * @kept[0..@nk-1] (both ascending) into @b. */
static void outliers_text(const double *v, size_t n, const double *kept, size_t nk,
			  struct vr_buf *b)
{
	size_t shown = 0;

	for (size_t i = 0, j = 0; i < n; i++) {
		if (j < nk && kept[j] == v[i]) {
			j++;
			continue;
		}
		if (shown++ < 3)
			vr_buf_addf(b, "%s%.2f", shown > 1 ? ", " : "", v[i]);
		else if (shown == 4)
			vr_buf_addstr(b, ", ...");
	}
}

/*
 * --ci's outlier notes are decided once the table's p-values are adjusted
 * (outlier_pass()): one candidate per kernel column @c of an arithmetic mean
 * row whose Welch p, with the values outside Tukey's fences left out of both
 * kernels (stats_tukey_keep()), is @p_trim; @without is "b's 1 value
 * (400.00)" (malloc'ed), @row_op the row's op (the pointer finds the row).
 */
struct outlier_cand {
	const char *row_op;
	size_t c;
	double p_trim;
	char *without;
};

struct outlier_list {
	struct outlier_cand *v;
	size_t n, alloc;
};

/* For each kernel of @vals[1..@nk-1] whose Welch p against the baseline
 * changes once the values outside Tukey's fences are left out of both, a
 * candidate of row @row_op into @ol. */
static void outlier_candidates(const struct compare_values *vals, const struct compare_kernel *k,
			       size_t nk, const char *row_op, struct outlier_list *ol)
{
	for (size_t c = 1; c < nk; c++) {
		const double *v[2];
		size_t n[2];
		double *sorted[2], *kept[2];
		size_t nkept[2];
		struct stats_ttest t2;

		test_values(&vals[0], &vals[c], &v[0], &n[0], &v[1], &n[1]);
		for (int i = 0; i < 2; i++) {
			sorted[i] = vr_calloc(n[i] + 1, sizeof(double));
			kept[i] = vr_calloc(n[i] + 1, sizeof(double));
			memcpy(sorted[i], v[i], n[i] * sizeof(double));
			stats_sort(sorted[i], n[i]);
			nkept[i] = stats_tukey_keep(sorted[i], n[i], kept[i]);
		}
		if ((nkept[0] < n[0] || nkept[1] < n[1]) &&
		    !stats_welch_ttest(kept[0], nkept[0], kept[1], nkept[1], &t2)) {
			struct vr_buf b;

			vr_buf_init(&b);
			for (int i = 0; i < 2; i++) {
				size_t out = n[i] - nkept[i];

				if (!out)
					continue;
				if (i && nkept[0] < n[0])
					vr_buf_addstr(&b, " and");
				vr_buf_addf(&b, " %s's %zu value%s (", k[i ? c : 0].name, out,
					    out == 1 ? "" : "s");
				outliers_text(sorted[i], n[i], kept[i], nkept[i], &b);
				vr_buf_addstr(&b, ")");
			}
			if (ol->n == ol->alloc) {
				ol->alloc = ol->alloc ? 2 * ol->alloc : 16;
				ol->v = vr_realloc(ol->v, ol->alloc * sizeof(*ol->v));
			}
			ol->v[ol->n++] = (struct outlier_cand){ row_op, c, t2.p, vr_buf_detach(&b) };
		}
		for (int i = 0; i < 2; i++) {
			free(sorted[i]);
			free(kept[i]);
		}
	}
}

static void add_op_rows(struct render_table *t, const struct compare_stat *stats, size_t nstats,
			size_t nops, size_t oi, const struct metric_op *op,
			const struct compare_values *vals, const struct compare_kernel *k,
			size_t nk, const struct compare_opts *o, const char *note,
			struct outlier_list *ol)
{
	struct render_row *rows = (struct render_row *)t->rows;
	bool mm = o->layout == RENDER_LAYOUT_MMTESTS, hmean_asked = false;

	for (size_t s = 0; s < nstats; s++)
		hmean_asked |= stats[s].kind == COMPARE_HMEAN;
	for (size_t s = 0; s < nstats; s++) {
		struct render_row *row = &rows[s * nops + oi];
		/* with Hmean asked for as well, Amean is the arithmetic mean */
		bool harmonic = op->better == METRIC_HIGHER_IS_BETTER &&
				!(stats[s].kind == COMPARE_AMEAN && hmean_asked);
		double base;

		if (!stat_shown(&stats[s], op))
			continue;	/* row->op stays NULL: dropped by drop_empty_rows() */
		row->stat = stat_label(&stats[s], harmonic, mm);
		row->op = vr_strdup(op->name);
		row->precision = 2;
		row->unit = op->unit;
		row->note = note ? vr_strdup(note) : NULL;
		if (o->ci && o->significance == COMPARE_SIG_WELCH && stat_is_mean(&stats[s]) &&
		    !harmonic)
			outlier_candidates(vals, k, nk, row->op, ol);
		row->cells = vr_calloc(nk, sizeof(*row->cells));
		base = kernel_stat(&stats[s], &vals[0], harmonic);
		for (size_t c = 0; c < nk; c++)
			fill_cell(&stats[s], op, vals, c, base, harmonic, o, &row->cells[c]);
	}
}

/*
 * --p-adjust bh (the default, under Welch): per kernel column of @t, the
 * p-values of its tested mean rows adjusted together (stats_bh_adjust():
 * Benjamini-Hochberg, the false discovery rate at alpha), and each row
 * marked where its adjusted p < alpha.  A table of 40 rows tested at 0.10
 * one by one marks 4 of them on noise alone; adjusted, the expected share
 * of marks that are noise is at most alpha.  --p-adjust none keeps each
 * row's own p.
 */
static void adjust_p(struct render_table *t, const struct compare_opts *o)
{
	double *p = vr_calloc(t->nrows + 1, sizeof(*p));

	for (size_t c = 1; o->significance == COMPARE_SIG_WELCH && c < t->ncols; c++) {
		for (size_t i = 0; i < t->nrows; i++)
			p[i] = t->rows[i].cells[c].p;
		if (o->p_adjust == COMPARE_P_BH)
			stats_bh_adjust(p, t->nrows, p);
		for (size_t i = 0; i < t->nrows; i++) {
			struct render_cell *cell = (struct render_cell *)&t->rows[i].cells[c];

			if (isnan(cell->p))
				continue;
			cell->p_adj = p[i];
			cell->significant = p[i] < o->alpha;
		}
	}
	free(p);
}

/*
 * --ci's outlier notes, once adjust_p() has marked @t: a candidate of @ol
 * whose row is not marked but would be with its p-value @p_trim (the values
 * outside Tukey's fences left out) in place of its own, the others of its
 * kernel's column as they are (--p-adjust bh: that column adjusted again,
 * stats_bh_adjust(); none: @p_trim itself against alpha), gets a sentence
 * in its row's note: "b: not significant (p = 0.23) because of outliers:
 * without b's 1 value (400.00) outside Tukey's fences, p = 0.0004", under
 * bh with each p's adjusted value after it ("p = 0.049, 0.14 adjusted").
 * Several kernels' sentences join with "; " after the row's own note, or
 * after "OP: " without one.
 */
static void outlier_pass(struct render_table *t, const struct compare_opts *o,
			 const struct compare_kernel *k, struct outlier_list *ol)
{
	double *p = vr_calloc(t->nrows + 1, sizeof(*p));
	bool bh = o->p_adjust == COMPARE_P_BH;

	for (size_t i = 0; i < t->nrows; i++) {
		struct render_row *row = (struct render_row *)&t->rows[i];
		struct vr_buf b;

		vr_buf_init(&b);
		for (size_t j = 0; j < ol->n; j++) {
			const struct outlier_cand *oc = &ol->v[j];
			const struct render_cell *cell = &row->cells[oc->c];
			double q = oc->p_trim;
			char pt[STATS_P_TEXT_LEN];

			if (oc->row_op != row->op || isnan(cell->p) || cell->significant)
				continue;
			if (bh) {
				for (size_t r = 0; r < t->nrows; r++)
					p[r] = t->rows[r].cells[oc->c].p;
				p[i] = oc->p_trim;
				stats_bh_adjust(p, t->nrows, p);
				q = p[i];
			}
			if (!(q < o->alpha))
				continue;
			vr_buf_addf(&b, "%s%s: not significant (p = %s", b.len ? "; " : "",
				    k[oc->c].name, stats_p_text(pt, cell->p, o->alpha));
			if (bh)
				vr_buf_addf(&b, ", %s adjusted", stats_p_text(pt, cell->p_adj, o->alpha));
			vr_buf_addf(&b, ") because of outliers: without%s outside Tukey's fences,"
				    " p = %s", oc->without, stats_p_text(pt, oc->p_trim, o->alpha));
			if (bh)
				vr_buf_addf(&b, ", %s adjusted", stats_p_text(pt, q, o->alpha));
		}
		if (b.len) {
			struct vr_buf note;

			vr_buf_init(&note);
			vr_buf_addf(&note, "%s%s%s", row->note ? row->note : row->op,
				    row->note ? "; " : ": ", b.buf);
			free((char *)row->note);
			row->note = vr_buf_detach(&note);
		}
		vr_buf_release(&b);
	}
	free(p);
}

static void outlier_list_release(struct outlier_list *ol)
{
	for (size_t j = 0; j < ol->n; j++)
		free(ol->v[j].without);
	free(ol->v);
}

/* The mean mmtests' ratio view takes ("_mean": the harmonic one for
 * higher-is-better data); 0 for a kernel without a sample (METRIC_DATA_ZERO),
 * NAN when not recorded. */
static double ratio_mean(const struct compare_values *v, bool hb)
{
	if (!v->n)
		return v->data == METRIC_DATA_ZERO ? 0 : NAN;
	return hb ? stats_hmean(v->v, v->n) : stats_mean(v->v, v->n);
}

/*
 * Row @oi of @t in compare-mmtests.pl's --print-ratio view (Compare.pm
 * _generateRatioComparisonTable): "Ratio OP", each kernel's mean over the
 * baseline's (Stat.pm rdiff), the two swapped when the operation's
 * direction is not the table's (@higher), so that below 1 is better in a
 * Lower table and above 1 in a Higher one; in parentheses pndiff / pdiff of
 * the ratio against 1.  Where rdiff makes a number up (0 for a base of 0, 1
 * for a missing value) this prints "-".  The ratios go to @ratios[c][oi].
 */
static void add_ratio_row(struct render_table *t, size_t oi, const struct metric_op *op,
			  const struct compare_values *vals, size_t nk, bool higher,
			  const char *note, double **ratios)
{
	struct render_row *row = (struct render_row *)&t->rows[oi];
	bool hb = op->better == METRIC_HIGHER_IS_BETTER;
	double m0 = ratio_mean(&vals[0], hb);

	row->stat = vr_strdup("Ratio");
	row->op = vr_strdup(op->name);
	row->precision = 2;
	row->note = note ? vr_strdup(note) : NULL;
	row->cells = vr_calloc(nk, sizeof(*row->cells));
	for (size_t c = 0; c < nk; c++) {
		struct render_cell *cell = &row->cells[c];
		double m = ratio_mean(&vals[c], hb), a = hb == higher ? m : m0,
		       b = hb == higher ? m0 : m;
		double ratio = isnan(a) || isnan(b) || b == 0 ? NAN : a / b;

		*cell = (struct render_cell){ .value = ratio, .p = NAN, .ci_lo = NAN,
					      .ci_hi = NAN, .data = metric_data_name(vals[c].data),
					      .nvalues = (int)vals[c].n, .nruns = (int)vals[c].nruns };
		cell->gain_pct = isnan(ratio) ? NAN : higher ? ratio * 100 - 100 : 100 - ratio * 100;
		ratios[c][oi] = ratio;
	}
}

/*
 * The last row of the ratio view: "Gmean Lower" (or Higher), per kernel the
 * geometric mean of its ratios @ratios[c][0..@nops-1] (Compare.pm, Stat.pm
 * calc_geomean), no gain.  mmtests puts 1 for a missing ratio and 0.00001 for
 * a ratio of 0; this leaves both out and its footnote says how many.
 */
static void add_gmean_row(struct render_table *t, size_t nops, size_t nk, bool higher,
			  char *const *kernels, double **ratios)
{
	struct render_row *row = (struct render_row *)&t->rows[nops];
	struct vr_buf note;

	vr_buf_init(&note);
	row->stat = vr_strdup("Gmean");
	row->op = vr_strdup(higher ? "Higher" : "Lower");
	row->precision = 2;
	row->cells = vr_calloc(nk, sizeof(*row->cells));
	for (size_t c = 0; c < nk; c++) {
		double logs = 0;
		size_t n = 0;

		for (size_t oi = 0; oi < nops; oi++)
			if (ratios[c][oi] > 0 && isfinite(ratios[c][oi])) {
				logs += log(ratios[c][oi]);
				n++;
			}
		row->cells[c] = (struct render_cell){ .value = n ? exp(logs / (double)n) : NAN,
						      .gain_pct = NAN, .p = NAN, .ci_lo = NAN,
						      .ci_hi = NAN };
		if (n < nops)
			vr_buf_addf(&note, "%s%s over %zu of %zu operations", note.len ? "; " :
				    "Gmean: the ratios that are '-' or 0 left out (mmtests counts them"
				    " as 1 and 0.00001): ", kernels[c], n, nops);
	}
	row->note = note.len ? vr_buf_detach(&note) : (vr_buf_release(&note), NULL);
}

/* Close the gaps of the rows add_op_rows() left out (op NULL). */
static void drop_empty_rows(struct render_table *t)
{
	struct render_row *rows = (struct render_row *)t->rows;
	size_t n = 0;

	for (size_t i = 0; i < t->nrows; i++)
		if (rows[i].op)
			rows[n++] = rows[i];
	t->nrows = n;
}

/* Keep the operations of @all that @o selects; borrowed pointers. */
static size_t select_ops(const struct metric_op_list *all, const struct compare_opts *o,
			 const struct metric_op **sel)
{
	size_t n = 0;

	for (size_t i = 0; i < all->n; i++)
		if (op_selected(&all->ops[i], o))
			sel[n++] = &all->ops[i];
	return n;
}

/* "no runs of kernel NAME" and the kernels the database has (-1). */
static int no_kernel(struct store *s, const char *name)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT kernel FROM run GROUP BY kernel ORDER BY min(id)",
					       "kernel names");
	struct vr_buf known;
	char **names = NULL;
	size_t n = 0;

	vr_buf_init(&known);
	if (q && !store_stmt_texts(q, &names, &n))
		for (size_t i = 0; i < n; i++)
			vr_buf_addf(&known, "%s%s", i ? ", " : "", names[i]);
	store_stmt_free(q);
	vr_error("%s: no runs of kernel '%s' (its kernels: %s)", store_path(s), name,
		 known.len ? known.buf : "none");
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	vr_buf_release(&known);
	return -1;
}

/* "K 0 samples in 3 runs (shown as 0)" of trace metric values @v into @b. */
static void trace_presence(const struct compare_values *v, const char *kernel, struct vr_buf *b)
{
	static const char *const shown[] = {
		[METRIC_DATA_VALUES] = "statistics over those",
		[METRIC_DATA_ZERO] = "shown as 0",
		[METRIC_DATA_NOT_RECORDED] = "shown as -",
	};
	char *what = metric_presence_text(&v->presence);

	vr_buf_addf(b, "%s %s (%s)", kernel, what, shown[v->data]);
	free(what);
}

/* "K all 0 in 2 of 3 runs, not recorded there; no value in 1 (shown as -)"
 * of imported values @v into @b. */
static void app_presence(const struct compare_values *v, const char *kernel, struct vr_buf *b)
{
	const struct metric_presence *p = &v->presence;

	vr_buf_addf(b, "%s ", kernel);
	if (p->zero)
		vr_buf_addf(b, "all 0 in %d of %d runs (counted as not recorded; --real-zeros if"
			    " measured)%s", p->zero, p->nruns, p->not_recorded ? ", " : "");
	if (p->not_recorded)
		vr_buf_addf(b, "no value in %d of %d runs", p->not_recorded, p->nruns);
	vr_buf_addstr(b, v->n ? " (statistics over the others)" : " (shown as -)");
}

/*
 * The footnote of @op's rows: for each kernel whose runs do not all have
 * values, what they have ("DirectReclaim: wsf200 0 samples in 3 runs (shown
 * as 0)"), kernels separated by "; ".  Malloc'ed, or NULL when every run of
 * every kernel has values.
 */
static char *op_note(const struct metric_op *op, const struct compare_values *vals,
		     const struct compare_kernel *k, size_t nk)
{
	struct vr_buf b;

	vr_buf_init(&b);
	for (size_t i = 0; i < nk; i++) {
		const struct metric_presence *p = &vals[i].presence;

		if (op->spec ? p->nruns && p->with_samples == p->nruns
			     : !p->zero && !p->not_recorded)
			continue;
		if (b.len) {
			vr_buf_addstr(&b, "; ");
		} else if (op->spec) {
			vr_buf_addf(&b, "%s: ", op->spec->name);
		} else {	/* the metric: one footnote for its operations alike */
			char *pct, *metric;

			metric_op_split(op->name, &pct, &metric);
			vr_buf_addf(&b, "%s: ", metric);
			free(pct);
			free(metric);
		}
		if (op->spec)
			trace_presence(&vals[i], k[i].name, &b);
		else
			app_presence(&vals[i], k[i].name, &b);
	}
	return b.len ? vr_buf_detach(&b) : (vr_buf_release(&b), NULL);
}

int compare_latency_table(struct store *s, const struct compare_opts *o,
			  const struct compare_kernel *k, size_t nk, struct render_table *t)
{
	const struct compare_stat *stats = o->stats ? o->stats : default_stats;
	size_t nstats = o->stats ? o->nstats : VR_ARRAY_SIZE(default_stats);
	struct metric_op_list all;
	struct sample_cache cache = { 0 };
	struct outlier_list ol = { 0 };
	const struct metric_op **sel;
	int64_t *run_ids;
	size_t nruns = 0, nops;
	double **ratios = NULL;
	char **kernel_names = vr_calloc(nk + 1, sizeof(*kernel_names));
	bool higher = true;
	int ret = -1;

	for (size_t i = 0; i < nk; i++)
		kernel_names[i] = (char *)k[i].name;

	for (size_t i = 0; i < nk; i++)
		nruns += k[i].nruns;
	run_ids = vr_calloc(nruns + 1, sizeof(*run_ids));
	for (size_t i = 0, r = 0; i < nk; i++)
		for (size_t j = 0; j < k[i].nruns; j++)
			run_ids[r++] = k[i].runs[j];
	if (metric_list(s, run_ids, nruns, &all)) {
		free(run_ids);
		return -1;
	}
	sel = vr_calloc(all.n + 1, sizeof(*sel));
	nops = select_ops(&all, o, sel);
	t->name = "latency";
	t->show_gain = true;
	t->nrows = o->print_ratio ? (nops ? nops + 1 : 0) : nstats * nops;
	t->rows = vr_calloc(t->nrows + 1, sizeof(*t->rows));
	ratios = vr_calloc(nk + 1, sizeof(*ratios));
	for (size_t i = 0; i < nk; i++)
		ratios[i] = vr_calloc(nops + 1, sizeof(**ratios));
	for (size_t oi = 0; oi < nops; oi++)	/* the table's direction: Higher if all are */
		higher &= sel[oi]->better == METRIC_HIGHER_IS_BETTER;
	for (size_t oi = 0; oi < nops; oi++) {
		struct compare_values *vals = vr_calloc(nk, sizeof(*vals));
		int r = op_values(s, sel[oi], &cache, k, nk, vals);
		char *note = r ? NULL : op_note(sel[oi], vals, k, nk);

		if (!r && o->print_ratio)
			add_ratio_row(t, oi, sel[oi], vals, nk, higher, note, ratios);
		else if (!r)
			add_op_rows(t, stats, nstats, nops, oi, sel[oi], vals, k, nk, o, note, &ol);
		free(note);
		values_release(vals, nk);
		free(vals);
		if (r)
			goto out;
	}
	if (o->print_ratio && nops)
		add_gmean_row(t, nops, nk, higher, kernel_names, ratios);
	drop_empty_rows(t);
	adjust_p(t, o);
	outlier_pass(t, o, k, &ol);
	ret = 0;
out:
	outlier_list_release(&ol);
	for (size_t i = 0; i < nk; i++)
		free(ratios[i]);
	free(ratios);
	free(kernel_names);
	cache_release(&cache);
	free(sel);
	free(run_ids);
	metric_op_list_release(&all);
	return ret;
}

static int list_kernels(struct store *s, char ***out, size_t *n)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT kernel FROM run GROUP BY kernel"
					      " ORDER BY min(id)", "kernels");
	int ret = store_stmt_texts(q, out, n);

	store_stmt_free(q);
	return ret;
}

static int kernel_runs(struct store *s, struct compare_kernel *k)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT id, source_format <> 'latency' FROM run"
					      " WHERE kernel = ?1 ORDER BY iteration",
					      "runs of a kernel");
	int rc;

	store_bind_text(q, 1, k->name);
	while ((rc = store_step(q)) > 0) {
		int64_t id = store_col_int64(q, 0);

		k->runs = vr_realloc(k->runs, (k->nruns + 1) * sizeof(*k->runs));
		k->runs[k->nruns++] = id;
		if (!store_col_int(q, 1))
			continue;
		k->trace_runs = vr_realloc(k->trace_runs, (k->ntrace + 1) * sizeof(*k->trace_runs));
		k->trace_runs[k->ntrace++] = id;
	}
	store_stmt_free(q);
	if (rc < 0)
		return -1;
	if (!k->nruns)
		return no_kernel(s, k->name);
	return 0;
}

static void name_add(char ***v, size_t *n, char *name)
{
	*v = vr_realloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = name;
}

/*
 * The names --metrics accepts (what op_selected() can match, plus
 * "counters") into @acc, and the same list as printed in @known.
 */
static int accepted_metrics(struct store *s, char ***acc, size_t *nacc, struct vr_buf *known)
{
	char **app;
	size_t napp;

	if (metric_app_operations(s, &app, &napp))
		return -1;
	for (size_t i = 0; i < metric_specs_count; i++) {
		name_add(acc, nacc, vr_strdup(metric_specs[i].name));
		for (int s = 0; s < METRIC_NSUMMARY; s++) {
			struct vr_buf b;

			vr_buf_init(&b);
			vr_buf_addf(&b, "%s-%s", metric_summary_name(s), metric_specs[i].name);
			name_add(acc, nacc, vr_buf_detach(&b));
		}
		vr_buf_addf(known, "%s%s", i ? " " : "", metric_specs[i].name);
	}
	vr_buf_addstr(known, ", each also as p50-, p95-, p99- or max-NAME; ");
	if (napp)
		vr_buf_addstr(known, "imported operations");
	for (size_t i = 0; i < napp; i++) {
		char *pct, *metric;

		metric_op_split(app[i], &pct, &metric);
		vr_buf_addf(known, " %s", app[i]);
		name_add(acc, nacc, vr_strdup(app[i]));
		name_add(acc, nacc, metric);
		free(pct);
	}
	if (napp)
		vr_buf_addstr(known, " (or their metric, as chart names it: Read for p95-Read,"
			      " final-Read for final-p95-Read, for all of its rows); ");
	vr_buf_addstr(known, "counters (keeps the counters block)");
	name_add(acc, nacc, vr_strdup("counters"));
	metric_names_release(app, napp);
	return 0;
}

int compare_check_metrics(struct store *s, const struct compare_opts *o)
{
	struct vr_buf known;
	char **acc = NULL;
	size_t nacc = 0;
	int ret = 0;

	if (!o->metrics)
		return 0;
	vr_buf_init(&known);
	if (accepted_metrics(s, &acc, &nacc, &known))
		ret = -1;
	for (size_t i = 0; !ret && i < o->nmetrics; i++) {
		size_t j;

		for (j = 0; j < nacc && strcmp(o->metrics[i], acc[j]); j++)
			;
		if (j == nacc) {
			metric_unknown(o->metrics[i], acc, nacc, known.buf);
			ret = VR_ERR_USAGE;
		}
	}
	metric_names_release(acc, nacc);
	vr_buf_release(&known);
	return ret;
}

static void note_add(struct compare_result *r, size_t t, char *line)
{
	r->notes[t] = vr_realloc(r->notes[t], (r->nnotes[t] + 1) * sizeof(*r->notes[t]));
	r->notes[t][r->nnotes[t]++] = line;
}

/*
 * The latency table's unit line.  Every unit is "us" or NULL (imported,
 * the report names none; metric_op.unit): "Unit: us (microseconds), every
 * row", "Unit: as reported by the workload, every row", or us but the
 * metrics (operation names after their first '-') that are as reported.
 */
static void unit_note(struct compare_result *r)
{
	const struct render_table *t = &r->tables[0];
	struct vr_buf b, none;
	bool us = false;

	vr_buf_init(&b);
	vr_buf_init(&none);
	for (size_t i = 0; i < t->nrows; i++) {
		const char *m = strchr(t->rows[i].op, '-');
		char key[256];

		us |= t->rows[i].unit != NULL;
		if (t->rows[i].unit)
			continue;
		snprintf(key, sizeof(key), " %s,", m ? m + 1 : t->rows[i].op);
		if (!none.buf || !strstr(none.buf, key))
			vr_buf_addstr(&none, key);
	}
	if (!none.len) {
		vr_buf_addstr(&b, "Unit: us (microseconds), every row");
	} else if (!us) {
		vr_buf_addstr(&b, "Unit: as reported by the workload (its report names none),"
			      " every row");
	} else {
		none.buf[--none.len] = '\0';	/* the last comma */
		vr_buf_addf(&b, "Unit: us (microseconds), but as reported by the workload (its"
			    " report names none) for:%s", none.buf);
	}
	vr_buf_release(&none);
	note_add(r, 0, vr_buf_detach(&b));
}

/* How many rows of @t have a p-value in kernel column @c (the mean rows
 * its adjustment counted). */
static size_t tested_in(const struct render_table *t, size_t c)
{
	size_t m = 0;

	for (size_t i = 0; i < t->nrows; i++)
		m += !isnan(t->rows[i].cells[c].p);
	return m;
}

/* ", the N tested" (every kernel the same N; ", none tested" for 0) or ",
 * the N1, N2, ... tested (per kernel)": tested_in() of each kernel of @t,
 * into @b. */
static void tested_rows(struct vr_buf *b, const struct render_table *t)
{
	size_t first = t->ncols > 1 ? tested_in(t, 1) : 0;
	bool same = true;

	for (size_t c = 2; c < t->ncols; c++)
		same &= tested_in(t, c) == first;
	if (same) {
		if (first)
			vr_buf_addf(b, ", the %zu tested", first);
		else
			vr_buf_addstr(b, ", none tested");
		return;
	}
	for (size_t c = 1; c < t->ncols; c++)
		vr_buf_addf(b, "%s%zu", c == 1 ? ", the " : ", ", tested_in(t, c));
	vr_buf_addstr(b, " tested (per kernel)");
}

/* The note naming the significance rule of the mean rows. */
static void significance_note(struct compare_result *r, const struct compare_opts *o)
{
	struct vr_buf b;

	vr_buf_init(&b);
	if (o->significance == COMPARE_SIG_CI)
		vr_buf_addstr(&b, "Significance (mmtests' rule): marked on mean rows where the"
			      " intervals mean +/- 1.96 stddev of the two kernels do not overlap");
	else {
		vr_buf_addf(&b, "Significance: Welch's t-test (two-sided), marked on mean rows"
			    " where p < %g%s", o->alpha, o->p_adjust == COMPARE_P_NONE ?
			    ", each row on its own" : " after Benjamini-Hochberg over a kernel's mean rows");
		if (o->p_adjust == COMPARE_P_BH)
			tested_rows(&b, &r->tables[0]);
		vr_buf_addstr(&b, "; on one value per run (the mean of its samples) where either"
			      " kernel has two runs or more, else (one run each) on the samples");
	}
	vr_buf_addstr(&b, "; none with fewer than two values per kernel");
	note_add(r, 0, vr_buf_detach(&b));
}

/* --ci: the label of the interval lines and the note naming the interval. */
static void ci_note(struct compare_result *r, const struct compare_opts *o)
{
	struct vr_buf b;

	snprintf(r->ci_label, sizeof(r->ci_label), o->ci_bootstrap ? "%g%% boot CI" : "%g%% CI",
		 100 * (1 - o->alpha));
	r->tables[0].ci_label = r->ci_label;
	vr_buf_init(&b);
	if (o->ci_bootstrap)
		vr_buf_addf(&b, "%s: percentile bootstrap interval of the difference of the means"
			    " (%d resamples of each kernel's values with replacement, splitmix64"
			    " seeded %d: the same values give the same interval), as a gain"
			    " against the baseline's mean; under Amean rows, none for Hmean or"
			    " below two values per kernel; the mark is the row's test, not this"
			    " interval", r->ci_label, STATS_BOOTSTRAP_N, STATS_BOOTSTRAP_SEED);
	else
		vr_buf_addf(&b, "%s: Welch's interval of the difference of the means (Student t on"
			    " the Welch-Satterthwaite df), as a gain against the baseline's mean;"
			    " under Amean rows, none for Hmean or below two values per kernel",
			    r->ci_label);
	if (!o->ci_bootstrap && o->significance == COMPARE_SIG_WELCH)
		vr_buf_addstr(&b, o->p_adjust == COMPARE_P_NONE ?
			      "; it excludes 0 where the row is marked" :
			      "; it excludes 0 where the row's own p (not adjusted) is below"
			      " the level");
	note_add(r, 0, vr_buf_detach(&b));
}

/* Does a cell of @t have an infinite gain (stats_gain_pct() of a base 0)? */
static bool infinite_gain(const struct render_table *t)
{
	for (size_t i = 0; i < t->nrows; i++)
		for (size_t c = 0; c < t->ncols; c++)
			if (isinf(t->rows[i].cells[c].gain_pct))
				return true;
	return false;
}

static void latency_notes(struct compare_result *r, const struct compare_opts *o)
{
	const struct compare_stat *stats = o->stats ? o->stats : default_stats;
	size_t nstats = o->stats ? o->nstats : VR_ARRAY_SIZE(default_stats);
	bool mean = false, hmean = false, hmean_shown = false;

	for (size_t s = 0; s < nstats; s++)
		hmean |= stats[s].kind == COMPARE_HMEAN;
	for (size_t i = 0; i < r->tables[0].nrows; i++) {
		hmean_shown |= !strcmp(r->tables[0].rows[i].stat, "Hmean");
		mean |= !strcmp(r->tables[0].rows[i].stat, "Hmean") ||
			!strcmp(r->tables[0].rows[i].stat, "Amean");
	}
	if (r->tables[0].nrows && o->print_ratio)
		note_add(r, 0, vr_strdup("Ratio (compare-mmtests.pl --print-ratio): each kernel's mean"
					 " (Hmean for throughputs) over the baseline's, inverted where"
					 " the operation's direction is not the table's (Gmean Lower or"
					 " Higher), with pndiff/pdiff of it against 1; Gmean: their"
					 " geometric mean"));
	else if (r->tables[0].nrows)
		unit_note(r);
	if (r->tables[0].nrows && mean)
		significance_note(r, o);
	if (r->tables[0].nrows && mean && o->ci)
		ci_note(r, o);
	r->nkey_notes = r->nnotes[0];
	if (infinite_gain(&r->tables[0]))
		note_add(r, 0, vr_strdup(COMPARE_INF_NOTE));
	if (hmean && !hmean_shown)
		note_add(r, 0, vr_strdup("Hmean: left out, every operation here is lower-is-better"
					 " (mmtests computes it for higher-is-better data only)"));
}

static bool counters_selected(const struct compare_opts *o)
{
	for (size_t i = 0; o->metrics && i < o->nmetrics; i++)
		if (!strcmp(o->metrics[i], "counters"))
			return true;
	return !o->metrics;
}

int compare_build(struct store *s, const struct compare_opts *o, struct compare_result *out)
{
	struct compare_kernel *k = NULL;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	out->align_marker = o->align_marker;
	if (o->kernels) {
		out->kernels = vr_calloc(o->nkernels + 1, sizeof(*out->kernels));
		for (size_t i = 0; i < o->nkernels; i++)
			out->kernels[i] = vr_strdup(o->kernels[i]);
		out->nkernels = o->nkernels;
	} else if (list_kernels(s, &out->kernels, &out->nkernels)) {
		return -1;
	}
	if (!out->nkernels)
		return vr_error("%s: no runs to compare", store_path(s));
	k = vr_calloc(out->nkernels, sizeof(*k));
	for (size_t i = 0; i < out->nkernels; i++) {
		k[i].name = out->kernels[i];
		if (kernel_runs(s, &k[i]))
			goto out;
	}
	for (size_t t = 0; t < 2; t++) {
		out->tables[t].columns = (const char *const *)out->kernels;
		out->tables[t].ncols = out->nkernels;
	}
	out->ntables = 2;
	if (compare_latency_table(s, o, k, out->nkernels, &out->tables[0]))
		goto out;
	if (counters_selected(o)) {
		out->counter_values = vr_calloc(1, sizeof(*out->counter_values));
		if (compare_counters_table(s, out->counter_values, k, out->nkernels,
					   &out->tables[1]))
			goto out;
	}
	latency_notes(out, o);
	if (out->tables[1].nrows) {
		char *mglru;

		note_add(out, 1, vr_strdup("Means over each kernel's trace runs; the unit is in the"
					   " name (ms, %, pages, folios), the others are counts"));
		if (compare_counters_mglru_note(s, k, out->nkernels, &mglru))
			goto out;
		if (mglru)
			note_add(out, 1, mglru);
	}
	for (size_t t = 0; t < 2; t++) {
		out->tables[t].abbrevs = name_abbrevs;
		out->tables[t].nabbrevs = VR_ARRAY_SIZE(name_abbrevs);
		out->tables[t].layout = o->layout;
		out->tables[t].notes = (const char *const *)out->notes[t];
		out->tables[t].nnotes = out->nnotes[t];
	}
	ret = 0;
out:
	for (size_t i = 0; i < out->nkernels; i++) {
		free(k[i].runs);
		free(k[i].trace_runs);
	}
	free(k);
	if (ret && out->counter_values) {	/* failed: no values kept */
		counter_cache_release(out->counter_values);
		free(out->counter_values);
		out->counter_values = NULL;
	}
	return ret;
}

void compare_result_release(struct compare_result *r)
{
	for (size_t t = 0; t < r->ntables; t++) {
		struct render_row *rows = (struct render_row *)r->tables[t].rows;

		for (size_t i = 0; i < r->tables[t].nrows; i++) {
			free((char *)rows[i].stat);
			free((char *)rows[i].op);
			free((char *)rows[i].note);
			free(rows[i].cells);
		}
		free(rows);
	}
	for (size_t t = 0; t < 2; t++) {
		for (size_t i = 0; i < r->nnotes[t]; i++)
			free(r->notes[t][i]);
		free(r->notes[t]);
	}
	for (size_t i = 0; i < r->nkernels; i++)
		free(r->kernels[i]);
	free(r->kernels);
	if (r->counter_values)
		counter_cache_release(r->counter_values);
	free(r->counter_values);
	memset(r, 0, sizeof(*r));
}
