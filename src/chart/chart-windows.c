// SPDX-License-Identifier: GPL-2.0
/*
 * chart-windows.c - the data of the windows chart (chart-windows.h) from
 * the reclaim_window rows.
 */
#include "chart-windows.h"
#include "recorded.h"
#include "stats.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"
#include "windows.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const chart_windows_metrics[] = { "scanned", "reclaimed", "stall", "kswapd", NULL };

/* The SQL value of each metric over a whole-machine window row, per s or %. */
static const struct {
	const char *name, *unit, *what, *expr;
} metric_defs[] = {
	{ "scanned", "pages/s", "pages scanned per second (shrink_inactive nr_scanned, every task)",
	  "(kswapd_scanned + other_scanned) * 1e9 / width_ns" },
	{ "reclaimed", "pages/s", "pages reclaimed per second (shrink_inactive nr_reclaimed, every"
	  " task)", "(kswapd_reclaimed + other_reclaimed) * 1e9 / width_ns" },
	{ "stall", "%", "time tasks stalled in direct, memcg or node reclaim, over the window"
	  " (summed over tasks)", "100.0 * coalesce(stall_ns, 0) / width_ns" },
	{ "kswapd", "%", "time kswapd ran (wake to full sleep or to its last activity before a"
	  " nap), over the window, summed over nodes", "100.0 * kswapd_running_ns / width_ns" },
};

/* One run's windows: value per window and its width. */
struct run_win {
	double *v;
	size_t n;
	double width_s;
};

/* The reason word of a recorded_check() sentence ("not traced: ..." ->
 * "not traced"), malloc'ed. */
static char *why_word(const char *why)
{
	struct vr_buf b;

	vr_buf_init(&b);
	vr_buf_add(&b, why, strcspn(why, ":"));
	return vr_buf_detach(&b);
}

/* Run @run_id's windows from window @first on. */
static int read_run(struct store *s, int64_t run_id, int64_t first, const char *expr,
		    struct run_win *w)
{
	struct store_stmt *q = store_stmt_newf(s, "windows chart", "SELECT width_ns, %s FROM"
					       " reclaim_window WHERE run_id = ?1 AND nid IS NULL"
					       " AND window >= ?2 ORDER BY window", expr);
	int r;

	memset(w, 0, sizeof(*w));
	store_bind_int64(q, 1, run_id);
	store_bind_int64(q, 2, first);
	while ((r = store_step(q)) == 1) {
		w->v = vr_realloc(w->v, (w->n + 1) * sizeof(*w->v));
		w->v[w->n++] = store_col_double(q, 1);
		w->width_s = (double)store_col_int64(q, 0) / 1e9;
	}
	store_stmt_free(q);
	return r < 0 ? -1 : 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Kernels in the database's order, with their runs that have windows. */
static int kernel_runs(struct store *s, char ***kernels, int64_t ***runs, size_t **nruns,
		       size_t *nk)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT kernel, id FROM run WHERE id IN (SELECT"
					      " run_id FROM reclaim_window) ORDER BY (SELECT min(id)"
					      " FROM run r2 WHERE r2.kernel = run.kernel), iteration",
					      "windows chart: runs");
	int r;

	*kernels = NULL;
	*runs = NULL;
	*nruns = NULL;
	*nk = 0;
	while ((r = store_step(q)) == 1) {
		const char *k = store_col_text(q, 0);

		if (!*nk || strcmp((*kernels)[*nk - 1], k)) {
			*kernels = vr_realloc(*kernels, (*nk + 1) * sizeof(**kernels));
			*runs = vr_realloc(*runs, (*nk + 1) * sizeof(**runs));
			*nruns = vr_realloc(*nruns, (*nk + 1) * sizeof(**nruns));
			(*kernels)[*nk] = vr_strdup(k);
			(*runs)[*nk] = NULL;
			(*nruns)[(*nk)++] = 0;
		}
		(*runs)[*nk - 1] = vr_realloc((*runs)[*nk - 1], ((*nruns)[*nk - 1] + 1) *
					      sizeof(***runs));
		(*runs)[*nk - 1][(*nruns)[*nk - 1]++] = store_col_int64(q, 1);
	}
	store_stmt_free(q);
	return r < 0 ? -1 : 0;
}

/* Kernel order of the whole database (the palette index of chart.h). */
static int colour_of(struct store *s, const char *kernel)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT count(DISTINCT kernel) FROM run WHERE"
					      " id < (SELECT min(id) FROM run WHERE kernel = ?1)",
					      "windows chart: colour");
	int64_t n = 0;

	store_bind_text(q, 1, kernel);
	store_stmt_row_int64(q, &n, 1);
	store_stmt_free(q);
	return (int)n;
}

/* Where each run of @runs (@n) starts when aligned at @marker (< 0: no
 * marker, or none before its last window's start (windows_align()), left
 * out, named in @c->unaligned "kernel iteration N"). */
static int align_runs(struct store *s, const char *kernel, const char *marker,
		      const int64_t *runs, size_t n, int64_t *first, struct chart_windows *c)
{
	struct vr_buf b;
	int ret = 0;

	vr_buf_init(&b);
	if (c->unaligned)
		vr_buf_addstr(&b, c->unaligned);
	for (size_t r = 0; !ret && r < n; r++) {
		int64_t at_ns;

		first[r] = 0;
		if (!marker)
			continue;
		ret = windows_align(s, runs[r], marker, &first[r], &at_ns);
		if (!ret && first[r] < 0) {
			struct store_stmt *q = store_stmt_new(s, "SELECT iteration FROM run WHERE id ="
							      " ?1", "windows chart: iteration");
			int64_t it = 0;

			store_bind_int64(q, 1, runs[r]);
			store_stmt_row_int64(q, &it, 1);
			store_stmt_free(q);
			vr_buf_addf(&b, "%s%s iteration %lld%s", b.len ? ", " : "", kernel,
				    (long long)it, first[r] == WINDOWS_AFTER_LAST ?
				    " (marker after its last window's start)" : "");
		}
	}
	free(c->unaligned);
	c->unaligned = b.len ? vr_buf_detach(&b) : NULL;
	vr_buf_release(&b);
	return ret;
}

int chart_windows_build(struct store *s, const char *metric, const char *marker,
			struct chart_windows *out)
{
	char **kernels = NULL;
	int64_t **runs = NULL;
	size_t *nruns = NULL, nk = 0, m;
	struct run_win **w;
	size_t *se_runs, *nmiss;
	char **miss;
	double longest = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	for (m = 0; m < VR_ARRAY_SIZE(metric_defs) && strcmp(metric_defs[m].name, metric); m++)
		;
	if (m == VR_ARRAY_SIZE(metric_defs))
		return vr_error("windows chart: unknown metric '%s' (scanned, reclaimed, stall,"
				" kswapd)", metric);
	out->metric = vr_strdup(metric);
	out->align_marker = marker ? vr_strdup(marker) : NULL;
	out->unit = metric_defs[m].unit;
	out->what = metric_defs[m].what;
	if (store_has_table(s, "reclaim_window") != 1)
		return 0;
	if (kernel_runs(s, &kernels, &runs, &nruns, &nk))
		return -1;
	w = vr_calloc(nk ? nk : 1, sizeof(*w));
	se_runs = vr_calloc(nk ? nk : 1, sizeof(*se_runs));
	miss = vr_calloc(nk ? nk : 1, sizeof(*miss));
	nmiss = vr_calloc(nk ? nk : 1, sizeof(*nmiss));
	for (size_t k = 0; !ret && k < nk; k++) {
		int64_t *first = vr_calloc(nruns[k], sizeof(*first));

		w[k] = vr_calloc(nruns[k], sizeof(**w));
		ret = align_runs(s, kernels[k], marker, runs[k], nruns[k], first, out);
		for (size_t r = 0; !ret && r < nruns[k]; r++) {
			char why[RECORDED_WHY_MAX];
			int rec = m < 2 ? recorded_check(s, runs[k][r], RN_LRU_PAGES, why,
							 sizeof(why)) : 1;

			if (first[r] < 0)
				continue;	/* no marker: left out */
			if (rec < 0) {
				ret = -1;
				break;
			}
			if (!rec) {	/* pages not in the trace: left out, said */
				if (!miss[k])
					miss[k] = why_word(why);
				nmiss[k]++;
				continue;
			}
			se_runs[k]++;
			ret = read_run(s, runs[k][r], first[r], metric_defs[m].expr, &w[k][r]);
			out->step_s = fmax(out->step_s, w[k][r].width_s);
			longest = fmax(longest, w[k][r].width_s * (double)w[k][r].n);
		}
		free(first);
	}
	out->nsteps = ret || out->step_s <= 0 ? 0 : (size_t)ceil(longest / out->step_s - 1e-9);
	out->series = vr_calloc(nk ? nk : 1, sizeof(*out->series));
	out->nseries = nk;
	for (size_t k = 0; k < nk; k++) {
		struct chart_windows_series *se = &out->series[k];
		double *v = vr_calloc(nruns[k] ? nruns[k] : 1, sizeof(*v));

		se->kernel = kernels[k];
		se->colour = colour_of(s, kernels[k]);
		se->nruns = (int)se_runs[k];
		se->nmissing = (int)nmiss[k];
		se->missing = miss[k];
		se->median = vr_calloc(out->nsteps + 1, sizeof(double));
		se->lo = vr_calloc(out->nsteps + 1, sizeof(double));
		se->hi = vr_calloc(out->nsteps + 1, sizeof(double));
		for (size_t j = 0; j < out->nsteps; j++) {
			double t = ((double)j + 0.5) * out->step_s;
			size_t n = 0;

			for (size_t r = 0; r < nruns[k]; r++) {
				const struct run_win *rw = &w[k][r];
				size_t i = rw->width_s > 0 ? (size_t)(t / rw->width_s) : 0;

				if (i < rw->n)
					v[n++] = rw->v[i];
			}
			qsort(v, n, sizeof(*v), cmp_double);
			se->median[j] = n ? (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2) : NAN;
			se->lo[j] = n ? v[0] : NAN;
			se->hi[j] = n ? v[n - 1] : NAN;
		}
		free(v);
		for (size_t r = 0; r < nruns[k]; r++)
			free(w[k][r].v);
		free(w[k]);
		free(runs[k]);
	}
	free(w);
	free(se_runs);
	free(miss);
	free(nmiss);
	free(kernels);
	free(runs);
	free(nruns);
	return ret;
}

void chart_windows_dump(const struct chart_windows *c, FILE *f)
{
	fprintf(f, "windows metric=%s unit=%s step_s=%.9g steps=%zu\n", c->metric, c->unit,
		c->step_s, c->nsteps);
	if (c->align_marker)
		fprintf(f, "aligned at '%s'; no marker: %s\n", c->align_marker,
			c->unaligned ? c->unaligned : "none");
	for (size_t k = 0; k < c->nseries; k++) {
		const struct chart_windows_series *se = &c->series[k];

		fprintf(f, "kernel %s runs=%d", se->kernel, se->nruns);
		if (se->nmissing)
			fprintf(f, " left_out=%d (%s)", se->nmissing, se->missing);
		fprintf(f, "\n");
		for (size_t j = 0; j < c->nsteps; j++)
			fprintf(f, "step %.9g median=%.6g lo=%.6g hi=%.6g\n", (double)j * c->step_s,
				se->median[j], se->lo[j], se->hi[j]);
	}
}

void chart_windows_release(struct chart_windows *c)
{
	for (size_t k = 0; k < c->nseries; k++) {
		free(c->series[k].kernel);
		free(c->series[k].missing);
		free(c->series[k].median);
		free(c->series[k].lo);
		free(c->series[k].hi);
	}
	free(c->series);
	free(c->metric);
	free(c->align_marker);
	free(c->unaligned);
	memset(c, 0, sizeof(*c));
}
