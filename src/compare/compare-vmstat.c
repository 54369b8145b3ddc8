// SPDX-License-Identifier: GPL-2.0
/*
 * compare-vmstat.c - the "vmstat" block of a comparison (compare-vmstat.h):
 * the kernels' /proc/vmstat deltas, means over their runs, as mmtests
 * prints the vmstat of each kernel beside its benchmark; the notes say per
 * run how the trace accounts for them (coverage_line()).
 */
#include "compare-vmstat.h"
#include "compare.h"
#include "coverage.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void note_add(struct compare_vmstat *v, char *line)
{
	v->notes = vr_realloc(v->notes, (v->nnotes + 1) * sizeof(*v->notes));
	v->notes[v->nnotes++] = line;
}

/* The counters of every coverage table, in table order. */
static int vmstat_counters(struct store *s, char ***names, char ***units, size_t *n)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT counter, min(vmstat_unit) FROM"
					      " counter_coverage GROUP BY counter ORDER BY"
					      " min(position), counter", "vmstat counters");
	int r;

	*names = *units = NULL;
	*n = 0;
	while ((r = store_step(q)) == 1) {
		*names = vr_realloc(*names, (*n + 1) * sizeof(**names));
		*units = vr_realloc(*units, (*n + 1) * sizeof(**units));
		(*names)[*n] = vr_strdup(store_col_text(q, 0));
		(*units)[*n] = vr_strdup(store_col_text(q, 1));
		(*n)++;
	}
	store_stmt_free(q);
	return r < 0 ? -1 : 0;
}

/* Mean delta of @counter over the trace runs of @kernel that have it (NAN: none). */
static int kernel_mean(struct store *s, const char *kernel, const char *counter, double *out)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT count(c.vmstat_delta), avg(c.vmstat_delta)"
					      " FROM run r JOIN counter_coverage c ON c.run_id = r.id"
					      " WHERE r.kernel = ?1 AND c.counter = ?2 AND"
					      " r.source_format <> 'latency'", "vmstat deltas");
	int r;

	store_bind_text(q, 1, kernel);
	store_bind_text(q, 2, counter);
	r = store_step(q);
	*out = r == 1 && store_col_int64(q, 0) ? store_col_double(q, 1) : NAN;
	store_stmt_free(q);
	return r < 0 ? -1 : 0;
}

/* One note per trace run of the kernels that has snapshots. */
static int coverage_notes(struct store *s, const struct compare_result *res,
			  struct compare_vmstat *v)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT id, iteration FROM run WHERE kernel = ?1"
					      " AND source_format <> 'latency' ORDER BY iteration",
					      "vmstat coverage");
	int r = 0;

	for (size_t k = 0; r >= 0 && k < res->nkernels; k++) {
		store_stmt_reset(q);
		store_bind_text(q, 1, res->kernels[k]);
		while ((r = store_step(q)) == 1) {
			struct vr_buf b, name;
			char *line;

			if (coverage_line(s, store_col_int64(q, 0), true, &line)) {
				r = -1;
				break;
			}
			if (!line)
				continue;
			vr_buf_init(&b);
			vr_buf_init(&name);
			vr_buf_addf(&b, "%s-%d: %s", vr_escaped(&name, res->kernels[k]),
				    store_col_int(q, 1), line);
			vr_buf_release(&name);
			free(line);
			note_add(v, vr_buf_detach(&b));
		}
	}
	store_stmt_free(q);
	return r < 0 ? -1 : 0;
}

int compare_vmstat_build(struct store *s, const struct compare_result *res,
			 struct compare_vmstat *out)
{
	char **names = NULL, **units = NULL;
	struct render_row *rows;
	size_t n = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	if (compare_windows_build(s, res, out))
		return -1;
	out->table.name = "vmstat";
	out->table.columns = (const char *const *)res->kernels;
	out->table.ncols = res->nkernels;
	out->table.layout = res->tables[0].layout;
	out->table.op_width = 29;	/* the counters block's */
	out->table.value_width = 22;
	if (!res->tables[1].nrows || store_has_table(s, "counter_coverage") != 1)
		return 0;
	if (vmstat_counters(s, &names, &units, &n))
		return -1;
	rows = vr_calloc(n ? n : 1, sizeof(*rows));
	for (size_t i = 0; !ret && i < n; i++) {
		rows[i].op = vr_strdup(names[i]);
		rows[i].precision = 2;
		rows[i].unit = !strcmp(units[i], "pages") ? "pages" : NULL;
		rows[i].cells = vr_calloc(res->nkernels, sizeof(*rows[i].cells));
		for (size_t c = 0; !ret && c < res->nkernels; c++) {
			rows[i].cells[c].gain_pct = NAN;
			rows[i].cells[c].p = NAN;
			ret = kernel_mean(s, res->kernels[c], names[i], &rows[i].cells[c].value);
		}
	}
	out->table.rows = rows;
	out->table.nrows = n;
	if (n)
		note_add(out, vr_strdup("vmstat: /proc/vmstat end - start snapshot of each run, the"
					" mean over a kernel's runs that have snapshots; pages or"
					" counts (the name says which); how the trace accounts for"
					" them, per run (KERNEL-ITERATION):"));
	ret = ret || (n && coverage_notes(s, res, out)) ? -1 : 0;
	out->table.notes = (const char *const *)out->notes;
	out->table.nnotes = out->nnotes;
	for (size_t i = 0; i < n; i++) {
		free(names[i]);
		free(units[i]);
	}
	free(names);
	free(units);
	return ret;
}

void compare_vmstat_release(struct compare_vmstat *v)
{
	struct render_row *rows = (struct render_row *)v->table.rows;
	struct render_row *wrows = (struct render_row *)v->windows.rows;

	for (size_t i = 0; i < v->table.nrows; i++) {
		free((char *)rows[i].op);
		free(rows[i].cells);
	}
	free(rows);
	for (size_t i = 0; i < v->windows.nrows; i++) {
		free((char *)wrows[i].op);
		free((char *)wrows[i].note);
		free(wrows[i].cells);
	}
	free(wrows);
	for (size_t i = 0; i < v->nnotes; i++)
		free(v->notes[i]);
	free(v->notes);
	for (size_t i = 0; i < v->nwnotes; i++)
		free(v->wnotes[i]);
	free(v->wnotes);
	memset(v, 0, sizeof(*v));
}

void compare_render_all(const struct compare_result *res, const struct compare_vmstat *v,
			enum render_format fmt, struct vr_buf *out)
{
	struct render_table all[4];
	size_t n = 0, nres;

	all[n++] = res->tables[0];
	if (res->tables[1].nrows)
		all[n++] = res->tables[1];
	nres = n;
	if (v && v->windows.nrows)
		all[n++] = v->windows;
	if (v && v->table.nrows)
		all[n++] = v->table;
	/* the vmstat and windows blocks fit the width the caller fitted @res's
	 * tables to (render_text_fit()), without changing how those shorten */
	if (fmt == RENDER_TEXT && all[0].max_width && n > nres)
		render_text_fit(all + nres, n - nres, all[0].max_width);
	render_tables(all, n, fmt, out);
}
