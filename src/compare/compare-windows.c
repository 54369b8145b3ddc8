// SPDX-License-Identifier: GPL-2.0
/*
 * compare-windows.c - the "windows" block of a comparison
 * (compare-vmstat.h compare_windows_build()): steady or bursty, from the
 * reclaim_window rows of each run (windows.h).
 */
#include "compare-vmstat.h"
#include "compare.h"
#include "recorded.h"
#include "stats.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"
#include "windows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { W_WIDTH, W_SCAN_HALF, W_SCAN_P95, W_STALL_HALF, W_STALL_P95, W_MARKER, W_ROWS };

static const char *const row_names[W_ROWS] = {
	[W_WIDTH] = "Window width ms",
	[W_MARKER] = "Marker after the start s",
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

/* The run's values of the rows into @out[W_ROWS] (NAN: none), over its
 * windows from @first on. */
static int run_values(struct store *s, int64_t run_id, int64_t first, double out[W_ROWS])
{
	struct store_stmt *q = store_stmt_new(s, "SELECT width_ns, kswapd_scanned + other_scanned,"
					      " coalesce(stall_ns, 0) FROM reclaim_window WHERE"
					      " run_id = ?1 AND nid IS NULL AND window >= ?2 ORDER BY"
					      " window", "windows of a run");
	double *scan = NULL, *stall = NULL;
	size_t n = 0;
	int r;

	for (int i = 0; i < W_ROWS; i++)
		out[i] = NAN;
	store_bind_int64(q, 1, run_id);
	store_bind_int64(q, 2, first);
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

/*
 * Per kernel the mean over its trace runs of each row (NAN values left
 * out); with @marker, each run from its first window at or after the
 * marker (windows_align()), a run without one left out and named in
 * @missing ("iteration 2, 3"), one whose marker comes after its last
 * window's start (none left to read) in @late.  A run whose pages are not in the trace
 * (recorded.h RN_LRU_PAGES) has no pages rows: "KERNEL: not traced in N of
 * M runs" goes to @untraced.
 */
static int kernel_values(struct store *s, const char *kernel, const char *marker,
			 double mean[W_ROWS], bool *any, struct vr_buf *missing,
			 struct vr_buf *late, struct vr_buf *untraced)
{
	char why[RECORDED_WHY_MAX], first_why[RECORDED_WHY_MAX] = "";
	int nruns = 0, nmiss = 0;
	struct store_stmt *q = store_stmt_new(s, "SELECT id, iteration FROM run WHERE kernel = ?1"
					      " AND source_format <> 'latency' AND id IN (SELECT"
					      " run_id FROM reclaim_window) ORDER BY iteration",
					      "windows: runs");
	double sum[W_ROWS] = { 0 };
	int n[W_ROWS] = { 0 }, r;

	store_bind_text(q, 1, kernel);
	while ((r = store_step(q)) == 1) {
		int64_t first = 0, at_ns = 0;
		double v[W_ROWS];

		*any = true;
		if (marker && windows_align(s, store_col_int64(q, 0), marker, &first, &at_ns)) {
			r = -1;
			break;
		}
		if (first < 0) {	/* no marker, or no window after it */
			struct vr_buf *b = first == WINDOWS_AFTER_LAST ? late : missing;

			vr_buf_addf(b, "%siteration %d", b->len ? ", " : "", store_col_int(q, 1));
			continue;
		}
		if (run_values(s, store_col_int64(q, 0), first, v)) {
			r = -1;
			break;
		}
		nruns++;
		switch (recorded_check(s, store_col_int64(q, 0), RN_LRU_PAGES, why, sizeof(why))) {
		case -1:
			r = -1;
			break;
		case 0:
			if (!nmiss++)
				snprintf(first_why, sizeof(first_why), "%.*s", (int)strcspn(why, ":"),
					 why);
			v[W_SCAN_HALF] = v[W_SCAN_P95] = NAN;
			break;
		}
		if (r < 0)
			break;
		v[W_MARKER] = marker ? (double)at_ns / 1e9 : NAN;
		for (int i = 0; i < W_ROWS; i++)
			if (!isnan(v[i]))
				sum[i] += v[i], n[i]++;
	}
	store_stmt_free(q);
	for (int i = 0; i < W_ROWS; i++)
		mean[i] = n[i] ? sum[i] / n[i] : NAN;
	if (nmiss)
		vr_buf_addf(untraced, "%s%s: %s in %d of %d runs", untraced->len ? "; " : "", kernel,
			    first_why, nmiss, nruns);
	return r < 0 ? -1 : 0;
}

int compare_windows_build(struct store *s, const struct compare_result *res,
			  struct compare_vmstat *v)
{
	const char *marker = res->align_marker;
	int nrows = marker ? W_ROWS : W_MARKER;	/* the marker row when aligned */
	struct render_row *rows;
	struct vr_buf missing, late, untraced;
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
	for (int i = 0; i < nrows; i++) {
		rows[i].op = vr_strdup(row_names[i]);
		rows[i].precision = i == W_MARKER ? 3 : 2;
		rows[i].unit = i == W_WIDTH ? "ms" : i == W_SCAN_HALF || i == W_STALL_HALF ? "%" :
			       i == W_MARKER ? "s" : NULL;
		rows[i].cells = vr_calloc(res->nkernels, sizeof(*rows[i].cells));
	}
	v->wnotes = vr_calloc(2 + 2 * res->nkernels, sizeof(*v->wnotes));
	v->wnotes[v->nwnotes++] = vr_strdup("windows: each run cut into windows of equal width (at"
					    " least 20, or load --window); means over a kernel's"
					    " runs. Half %: the fewest windows holding half the"
					    " run's pages scanned (stall time), of all; near 50 when"
					    " steady, small in bursts. p95/mean: 1 when steady");
	if (marker) {
		struct vr_buf b;

		vr_buf_init(&b);
		vr_buf_addf(&b, "aligned at the marker '%s': each run from its first window starting"
			    " at or after its first print event containing it (at most one window"
			    " late); the time before is left out", marker);
		v->wnotes[v->nwnotes++] = vr_buf_detach(&b);
	}
	vr_buf_init(&missing);
	vr_buf_init(&late);
	vr_buf_init(&untraced);
	for (size_t c = 0; !ret && c < res->nkernels; c++) {
		double mean[W_ROWS];

		vr_buf_reset(&missing);
		vr_buf_reset(&late);
		ret = kernel_values(s, res->kernels[c], marker, mean, &any, &missing, &late,
				    &untraced);
		for (int i = 0; !ret && i < nrows; i++) {
			rows[i].cells[c].value = mean[i];
			rows[i].cells[c].gain_pct = rows[i].cells[c].p = NAN;
		}
		if (!ret && missing.len) {
			struct vr_buf b, k;

			vr_buf_init(&b);
			vr_buf_init(&k);
			vr_buf_addf(&b, "%s: no marker '%s' in %s: left out",
				    vr_escaped(&k, res->kernels[c]), marker, missing.buf);
			v->wnotes[v->nwnotes++] = vr_buf_detach(&b);
			vr_buf_release(&k);
		}
		if (!ret && late.len) {
			struct vr_buf b, k;

			vr_buf_init(&b);
			vr_buf_init(&k);
			vr_buf_addf(&b, "%s: the marker '%s' after the last window's start in %s:"
				    " left out", vr_escaped(&k, res->kernels[c]), marker, late.buf);
			v->wnotes[v->nwnotes++] = vr_buf_detach(&b);
			vr_buf_release(&k);
		}
	}
	vr_buf_release(&missing);
	vr_buf_release(&late);
	if (untraced.len) {	/* the pages rows' footnote (README "Not recorded") */
		vr_buf_addstr(&untraced, " (pages not in the trace, as the counters' footnote says)");
		rows[W_SCAN_HALF].note = vr_strdup(untraced.buf);
		rows[W_SCAN_P95].note = vr_strdup(untraced.buf);
	}
	vr_buf_release(&untraced);
	if (!any) {
		for (int i = 0; i < nrows; i++) {
			free((char *)rows[i].op);
			free(rows[i].cells);
		}
		free(rows);
		for (size_t i = 0; i < v->nwnotes; i++)
			free(v->wnotes[i]);
		free(v->wnotes);
		v->wnotes = NULL;
		v->nwnotes = 0;
		return ret;
	}
	v->windows.notes = (const char *const *)v->wnotes;
	v->windows.nnotes = v->nwnotes;
	v->windows.rows = rows;
	v->windows.nrows = (size_t)nrows;
	return ret;
}
