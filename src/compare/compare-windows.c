// SPDX-License-Identifier: GPL-2.0
/*
 * compare-windows.c - the "windows" block of a comparison
 * (compare-vmstat.h compare_windows_build()): steady or bursty, from the
 * reclaim_window rows of each run (windows.h).
 */
#include "compare-vmstat.h"
#include "compare.h"
#include "stats.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { W_WIDTH, W_SCAN_HALF, W_SCAN_P95, W_STALL_HALF, W_STALL_P95, W_ROWS };

static const char *const row_names[W_ROWS] = {
	[W_WIDTH] = "Window width ms",
	[W_SCAN_HALF] = "Windows with half of pages scanned %",
	[W_SCAN_P95] = "Pages scanned per window p95/mean",
	[W_STALL_HALF] = "Windows with half of stall time %",
	[W_STALL_P95] = "Stall time per window p95/mean",
};

static int cmp_desc(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* The share (%) of the @n values @v (sorted in place, largest first) that
 * hold half their sum, and p95 / mean into @half and @p95; NAN when the sum
 * is 0. */
static void burst(double *v, size_t n, double *half, double *p95)
{
	double sum = 0, acc = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		sum += v[i];
	*half = *p95 = NAN;
	if (!n || sum <= 0)
		return;
	qsort(v, n, sizeof(*v), cmp_desc);
	while (k < n && acc < sum / 2)
		acc += v[k++];
	*half = 100.0 * (double)k / (double)n;
	/* nearest rank, rounded up, of the ascending order: v is descending */
	*p95 = v[n - (size_t)ceil(0.95 * (double)n)] / (sum / (double)n);
}

/* The run's values of the rows into @out[W_ROWS] (NAN: none). */
static int run_values(struct store *s, int64_t run_id, double out[W_ROWS])
{
	struct store_stmt *q = store_stmt_new(s, "SELECT width_ns, kswapd_scanned + other_scanned,"
					      " coalesce(stall_ns, 0) FROM reclaim_window WHERE"
					      " run_id = ?1 AND nid IS NULL ORDER BY window",
					      "windows of a run");
	double *scan = NULL, *stall = NULL;
	size_t n = 0;
	int r;

	for (int i = 0; i < W_ROWS; i++)
		out[i] = NAN;
	store_bind_int64(q, 1, run_id);
	while ((r = store_step(q)) == 1) {
		scan = vr_realloc(scan, (n + 1) * sizeof(*scan));
		stall = vr_realloc(stall, (n + 1) * sizeof(*stall));
		out[W_WIDTH] = (double)store_col_int64(q, 0) / 1e6;
		scan[n] = (double)store_col_int64(q, 1);
		stall[n++] = (double)store_col_int64(q, 2);
	}
	store_stmt_free(q);
	burst(scan, n, &out[W_SCAN_HALF], &out[W_SCAN_P95]);
	burst(stall, n, &out[W_STALL_HALF], &out[W_STALL_P95]);
	free(scan);
	free(stall);
	return r < 0 ? -1 : 0;
}

/* Per kernel the mean over its trace runs of each row (NAN values left out). */
static int kernel_values(struct store *s, const char *kernel, double mean[W_ROWS], bool *any)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT id FROM run WHERE kernel = ?1 AND"
					      " source_format <> 'latency' AND id IN (SELECT run_id"
					      " FROM reclaim_window) ORDER BY iteration",
					      "windows: runs");
	double sum[W_ROWS] = { 0 };
	int n[W_ROWS] = { 0 }, r;

	store_bind_text(q, 1, kernel);
	while ((r = store_step(q)) == 1) {
		double v[W_ROWS];

		if (run_values(s, store_col_int64(q, 0), v)) {
			r = -1;
			break;
		}
		for (int i = 0; i < W_ROWS; i++)
			if (!isnan(v[i]))
				sum[i] += v[i], n[i]++;
		*any = true;
	}
	store_stmt_free(q);
	for (int i = 0; i < W_ROWS; i++)
		mean[i] = n[i] ? sum[i] / n[i] : NAN;
	return r < 0 ? -1 : 0;
}

int compare_windows_build(struct store *s, const struct compare_result *res,
			  struct compare_vmstat *v)
{
	struct render_row *rows;
	bool any = false;
	int ret = 0;

	v->windows.name = "windows";
	v->windows.columns = (const char *const *)res->kernels;
	v->windows.ncols = res->nkernels;
	v->windows.layout = res->tables[0].layout;
	v->windows.op_width = 29;
	v->windows.value_width = 22;
	if (!res->tables[1].nrows || store_has_table(s, "reclaim_window") != 1)
		return 0;
	rows = vr_calloc(W_ROWS, sizeof(*rows));
	for (int i = 0; i < W_ROWS; i++) {
		rows[i].op = vr_strdup(row_names[i]);
		rows[i].precision = 2;
		rows[i].unit = i == W_WIDTH ? "ms" : i == W_SCAN_HALF || i == W_STALL_HALF ? "%" : NULL;
		rows[i].cells = vr_calloc(res->nkernels, sizeof(*rows[i].cells));
	}
	for (size_t c = 0; !ret && c < res->nkernels; c++) {
		double mean[W_ROWS];

		ret = kernel_values(s, res->kernels[c], mean, &any);
		for (int i = 0; !ret && i < W_ROWS; i++) {
			rows[i].cells[c].value = mean[i];
			rows[i].cells[c].gain_pct = rows[i].cells[c].p = NAN;
		}
	}
	if (!any) {
		for (int i = 0; i < W_ROWS; i++) {
			free((char *)rows[i].op);
			free(rows[i].cells);
		}
		free(rows);
		return ret;
	}
	v->windows.rows = rows;
	v->windows.nrows = W_ROWS;
	v->wnotes = vr_calloc(1, sizeof(*v->wnotes));
	v->wnotes[0] = vr_strdup("windows: each run cut into windows of equal width (at least 20,"
				 " or load --window); means over a kernel's runs. Half %: the fewest"
				 " windows holding half the run's pages scanned (stall time), of all;"
				 " near 50 when steady, small in bursts. p95/mean: 1 when steady");
	v->nwnotes = 1;
	v->windows.notes = (const char *const *)v->wnotes;
	v->windows.nnotes = v->nwnotes;
	return ret;
}
