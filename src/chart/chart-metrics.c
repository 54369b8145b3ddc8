// SPDX-License-Identifier: GPL-2.0
/*
 * chart-metrics.c - chart data of the latency comparison (candlesticks) and
 * the distribution (CDF) from the metric table of include/metrics.h: the
 * samples and per-run values come from metric_run_samples() and
 * metric_op_run_values(), never from SQL of our own.  Kernels are ordered
 * by their first run id, which also fixes their colour.
 */
#include "chart-data.h"
#include "metrics.h"
#include "stats.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The kernels of the database and their runs, in first-run order. */
struct kernel_runs {
	char *kernel;
	int64_t *runs;
	size_t nruns;
};

static void kernels_release(struct kernel_runs *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(k[i].kernel);
		free(k[i].runs);
	}
	free(k);
}

static int kernels_load(struct store *s, struct kernel_runs **out, size_t *n)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT r.kernel, r.id FROM run r JOIN"
					      " (SELECT kernel, min(id) AS first FROM run"
					      " GROUP BY kernel) k USING (kernel)"
					      " ORDER BY k.first, r.id", "kernels and their runs");
	int rc;

	*out = NULL;
	*n = 0;
	while ((rc = store_step(q)) > 0) {
		const char *name = store_col_text(q, 0);
		struct kernel_runs *k;

		if (!*n || strcmp((*out)[*n - 1].kernel, name)) {
			*out = vr_realloc(*out, (*n + 1) * sizeof(**out));
			(*out)[(*n)++] = (struct kernel_runs){ vr_strdup(name), NULL, 0 };
		}
		k = &(*out)[*n - 1];
		k->runs = vr_realloc(k->runs, (k->nruns + 1) * sizeof(*k->runs));
		k->runs[k->nruns++] = store_col_int64(q, 1);
	}
	store_stmt_free(q);
	if (rc < 0) {
		kernels_release(*out, *n);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

/* Every run id of the database (for metric_list). */
static int64_t *all_runs(const struct kernel_runs *k, size_t nk, size_t *n)
{
	int64_t *ids = NULL;

	*n = 0;
	for (size_t i = 0; i < nk; i++)
		for (size_t r = 0; r < k[i].nruns; r++) {
			ids = vr_realloc(ids, (*n + 1) * sizeof(*ids));
			ids[(*n)++] = k[i].runs[r];
		}
	return ids;
}

/* Append @v[0..@n-1] to the growable @dst/@dn. */
static void append(double **dst, size_t *dn, const double *v, size_t n)
{
	if (!n)
		return;
	*dst = vr_realloc(*dst, (*dn + n) * sizeof(**dst));
	memcpy(*dst + *dn, v, n * sizeof(*v));
	*dn += n;
}

/* Does application operation @op belong to metric @metric? */
static bool app_op_of(const char *op, const char *metric)
{
	char *pct, *m;
	bool yes;

	metric_op_split(op, &pct, &m);
	yes = !strcmp(m, metric);
	free(pct);
	free(m);
	return yes;
}

int chart_metric_names(struct store *s, char ***names, size_t *n)
{
	struct metric_op_list ops;
	struct kernel_runs *k;
	size_t nk, nruns;
	int64_t *runs;
	int ret;

	*names = NULL;
	*n = 0;
	if (kernels_load(s, &k, &nk))
		return -1;
	runs = all_runs(k, nk, &nruns);
	ret = nruns ? metric_list(s, runs, nruns, &ops) : 0;
	if (!nruns)
		ops = (struct metric_op_list){ NULL, 0 };
	for (size_t i = 0; !ret && i < ops.n; i++) {
		char *pct = NULL, *name;
		size_t j;

		if (ops.ops[i].spec)
			name = vr_strdup(ops.ops[i].spec->name);
		else
			metric_op_split(ops.ops[i].name, &pct, &name);
		free(pct);
		for (j = 0; j < *n; j++)
			if (!strcmp((*names)[j], name))
				break;
		if (j == *n) {
			*names = vr_realloc(*names, (*n + 1) * sizeof(**names));
			(*names)[(*n)++] = name;
		} else {
			free(name);
		}
	}
	if (!ret)
		metric_op_list_release(&ops);
	free(runs);
	kernels_release(k, nk);
	return ret;
}

/* Is @name one of @v[0..@n-1]?  Its index, or -1. */
static long name_index(char *const *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return (long)i;
	return -1;
}

/* The names `chart` accepts: trace metrics, then the metrics of the
 * imported operations of the database (Read of p95-Read); and as printed. */
static int chart_accepted(struct store *s, char ***acc, size_t *nacc, struct vr_buf *known)
{
	char **app;
	size_t napp, ntrace = metric_specs_count;

	if (metric_app_operations(s, &app, &napp))
		return -1;
	*acc = vr_calloc(ntrace + napp + 1, sizeof(**acc));
	*nacc = 0;
	vr_buf_addstr(known, "trace metrics");
	for (size_t i = 0; i < ntrace; i++) {
		(*acc)[(*nacc)++] = vr_strdup(metric_specs[i].name);
		vr_buf_addf(known, " %s", metric_specs[i].name);
	}
	for (size_t i = 0; i < napp; i++) {
		char *pct, *m;

		metric_op_split(app[i], &pct, &m);
		free(pct);
		if (name_index(*acc, *nacc, m) >= 0) {
			free(m);
			continue;
		}
		vr_buf_addf(known, "%s %s", *nacc == ntrace ? "; imported metrics" : "", m);
		(*acc)[(*nacc)++] = m;
	}
	metric_names_release(app, napp);
	return 0;
}

int chart_metric_resolve(struct store *s, const char *name, int need_trace, char **out)
{
	struct vr_buf known;
	char **acc, *pct = NULL, *m = NULL;
	size_t nacc;
	int ret = 0;

	*out = NULL;
	vr_buf_init(&known);
	if (chart_accepted(s, &acc, &nacc, &known))
		return -1;
	if (name_index(acc, nacc, name) >= 0) {
		*out = vr_strdup(name);
	} else {
		metric_op_split(name, &pct, &m);
		if (strcmp(pct, "value") && name_index(acc, nacc, m) >= 0) {
			vr_warn("'%s' is one row of compare; charting metric '%s' (all its"
				" percentiles)", name, m);
			*out = m;
			m = NULL;
		} else {
			metric_unknown(name, acc, nacc, known.buf);
			ret = VR_ERR_USAGE;
		}
	}
	if (*out && need_trace && !metric_spec_find(*out)) {
		vr_error("'%s' is an imported metric; the distribution needs raw samples,"
			 " which only trace metrics have (imported latencies are already"
			 " percentiles)\n%s", *out, known.buf);
		ret = VR_ERR_USAGE;
		free(*out);
		*out = NULL;
	}
	free(pct);
	free(m);
	metric_names_release(acc, nacc);
	vr_buf_release(&known);
	return ret;
}

int chart_metric_is_trace(const char *metric)
{
	return metric_spec_find(metric) != NULL;
}

/* The operations (percentile rows) of @metric: a trace metric's p50, p95,
 * p99, max, or the imported operations "<pct>-<metric>". */
static int metric_ops(struct store *s, const char *metric, const struct kernel_runs *k,
		      size_t nk, struct metric_op_list *out)
{
	const struct metric_spec *m = metric_spec_find(metric);
	struct metric_op_list all;
	size_t nruns;
	int64_t *runs;

	out->ops = NULL;
	out->n = 0;
	if (m) {
		out->ops = vr_calloc(METRIC_NSUMMARY, sizeof(*out->ops));
		for (int i = 0; i < METRIC_NSUMMARY; i++) {
			struct vr_buf name;

			vr_buf_init(&name);
			vr_buf_addf(&name, "%s-%s", metric_summary_name(i), m->name);
			out->ops[out->n++] = (struct metric_op){ vr_buf_detach(&name), m, i,
								 m->better, m->unit, false };
		}
		return 0;
	}
	runs = all_runs(k, nk, &nruns);
	if (nruns && metric_list(s, runs, nruns, &all)) {
		free(runs);
		return -1;
	}
	free(runs);
	if (!nruns)
		return 0;
	for (size_t i = 0; i < all.n; i++)
		if (!all.ops[i].spec && app_op_of(all.ops[i].name, metric)) {
			out->ops = vr_realloc(out->ops, (out->n + 1) * sizeof(*out->ops));
			out->ops[out->n] = all.ops[i];
			out->ops[out->n++].name = vr_strdup(all.ops[i].name);
		}
	metric_op_list_release(&all);
	return 0;
}

/* The percentile part of an operation name: "p95" of "p95-DirectReclaim". */
static char *op_label(const char *op)
{
	char *pct, *metric;

	metric_op_split(op, &pct, &metric);
	free(metric);
	return pct;
}

/*
 * Why kernel @k has no candle of trace metric @m, or NULL when it has
 * samples (metric_presence_get() over its trace runs).  0 or -1.
 */
static int kernel_nodata(struct store *s, const struct metric_spec *m, const struct kernel_runs *k,
			 char **out)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT id FROM run WHERE kernel = ?1"
					      " AND source_format <> 'latency' ORDER BY iteration",
					      "trace runs");
	struct metric_presence p;
	int64_t *ids = NULL;
	size_t *ns = NULL, n = 0;
	int rc;

	*out = NULL;
	store_bind_text(q, 1, k->kernel);
	while ((rc = store_step(q)) > 0) {
		ids = vr_realloc(ids, (n + 1) * sizeof(*ids));
		ids[n++] = store_col_int64(q, 0);
	}
	store_stmt_free(q);
	ns = vr_calloc(n + 1, sizeof(*ns));
	for (size_t r = 0; r < n && rc == 0; r++) {
		double *v;

		rc = metric_run_samples(s, m, ids[r], &v, &ns[r]);
		free(v);
	}
	if (rc == 0)
		rc = metric_presence_get(s, m, ids, n, ns, &p);
	if (rc == 0 && metric_presence_data(&p) != METRIC_DATA_VALUES)
		*out = metric_presence_text(&p);
	free(ids);
	free(ns);
	return rc;
}

/* The unit of an imported metric's operations: "us" when every one has it
 * (the report said usec), else "as reported". */
static const char *app_unit(const struct metric_op_list *ops)
{
	for (size_t i = 0; i < ops->n; i++)
		if (!ops->ops[i].unit)
			return "as reported";
	return ops->n ? "us" : "as reported";
}

/*
 * The values of every operation of @ops for run @run_id, appended to
 * @all[p] / @nall[p] (metric_op_run_values()); the samples of a trace
 * metric, whose operations are its percentiles, are read once for all.
 * 0 or -1 after a message.
 */
static int run_op_values(struct store *s, const struct metric_op_list *ops, int64_t run_id,
			 double **all, size_t *nall)
{
	const struct metric_spec *spec = ops->n ? ops->ops[0].spec : NULL;
	double *v;
	size_t n;

	for (size_t p = 0; spec && p < ops->n; p++)
		if (ops->ops[p].spec != spec)
			spec = NULL;
	if (spec) {
		if (metric_run_samples(s, spec, run_id, &v, &n))
			return -1;
		for (size_t p = 0; n && p < ops->n; p++) {
			double x = metric_summary_value(ops->ops[p].summary, v, n);

			append(&all[p], &nall[p], &x, 1);
		}
		free(v);
		return 0;
	}
	for (size_t p = 0; p < ops->n; p++) {
		if (metric_op_run_values(s, &ops->ops[p], run_id, &v, &n))
			return -1;
		if (ops->ops[p].zeros_real || !metric_values_all_zero(v, n))
			append(&all[p], &nall[p], v, n);	/* all 0: not recorded */
		free(v);
	}
	return 0;
}

/* The candles of kernel @k, one per operation of @ops, at @candles[p * @nk]. */
static int kernel_candles(struct store *s, const struct metric_op_list *ops,
			  const struct kernel_runs *k, struct chart_candle *candles, size_t nk)
{
	double **all = vr_calloc(ops->n + 1, sizeof(*all));
	size_t *nall = vr_calloc(ops->n + 1, sizeof(*nall));
	int rc = 0;

	for (size_t r = 0; r < k->nruns && !rc; r++)
		rc = run_op_values(s, ops, k->runs[r], all, nall);
	for (size_t p = 0; p < ops->n; p++) {
		if (!rc)
			chart_candle_set(&candles[p * nk], all[p], (int)nall[p]);
		free(all[p]);
	}
	free(all);
	free(nall);
	return rc;
}

int chart_latency_build(struct store *s, const char *metric, struct chart_latency *out)
{
	const struct metric_spec *m = metric_spec_find(metric);
	struct metric_op_list ops = { NULL, 0 };
	struct kernel_runs *k;
	size_t nk;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (kernels_load(s, &k, &nk))
		return -1;
	if (metric_ops(s, metric, k, nk, &ops))
		goto out;
	out->metric = vr_strdup(metric);
	out->unit = vr_strdup(m ? m->unit : app_unit(&ops));
	out->what = vr_strdup(m ? m->summary : "imported from the workload's latency reports,"
				  " one value per report");
	out->imported = !m;
	out->nkernels = nk;
	out->kernels = vr_calloc(nk ? nk : 1, sizeof(char *));
	out->colour = vr_calloc(nk ? nk : 1, sizeof(int));
	out->nruns = vr_calloc(nk ? nk : 1, sizeof(int));
	out->nodata = vr_calloc(nk ? nk : 1, sizeof(char *));
	for (size_t i = 0; i < nk; i++) {
		out->kernels[i] = vr_strdup(k[i].kernel);
		out->colour[i] = (int)i;
		out->nruns[i] = (int)k[i].nruns;
	}
	out->npct = ops.n;
	out->pct = vr_calloc(ops.n ? ops.n : 1, sizeof(char *));
	out->candles = vr_calloc(ops.n * nk + 1, sizeof(*out->candles));
	for (size_t p = 0; p < ops.n; p++)
		out->pct[p] = op_label(ops.ops[p].name);
	for (size_t i = 0; i < nk; i++)
		if (kernel_candles(s, &ops, &k[i], &out->candles[i], nk))
			goto out;
	/* a kernel without a candle says why (its runs then have no samples:
	 * counting them again is cheap) */
	for (size_t i = 0; m && ops.n && i < nk; i++)
		if (!out->candles[(ops.n - 1) * nk + i].n &&
		    kernel_nodata(s, m, &k[i], &out->nodata[i]))
			goto out;
	ret = 0;
out:
	metric_op_list_release(&ops);
	kernels_release(k, nk);
	if (ret)
		chart_latency_release(out);
	return ret;
}

int chart_cdf_build(struct store *s, const char *metric, struct chart_cdf *out)
{
	const struct metric_spec *m = metric_spec_find(metric);
	struct kernel_runs *k;
	size_t nk;
	int ret = -1;

	memset(out, 0, sizeof(*out));
	if (!m)
		return vr_error("'%s' is not a trace metric; the distribution needs raw samples"
				" (imported latencies are already percentiles)", metric);
	if (kernels_load(s, &k, &nk))
		return -1;
	out->metric = vr_strdup(metric);
	out->unit = vr_strdup(m->unit);
	out->what = vr_strdup(m->summary);
	out->series = vr_calloc(nk ? nk : 1, sizeof(*out->series));
	for (size_t i = 0; i < nk; i++) {
		struct chart_cdf_series *sr = &out->series[out->nseries++];

		sr->kernel = vr_strdup(k[i].kernel);
		sr->colour = (int)i;
		for (size_t r = 0; r < k[i].nruns; r++) {
			double *v;
			size_t n;

			if (metric_run_samples(s, m, k[i].runs[r], &v, &n))
				goto out;
			append(&sr->x, &sr->n, v, n);
			free(v);
		}
		stats_sort(sr->x, sr->n);
	}
	ret = 0;
out:
	kernels_release(k, nk);
	if (ret)
		chart_cdf_release(out);
	return ret;
}
