// SPDX-License-Identifier: GPL-2.0
/*
 * chart-counters.c - the counters chart's data: the counters block of the
 * comparison (compare.h, compare-counters.c computes every counter), one
 * value per kernel = the mean over its runs.  The unit of a counter is that
 * of its definition (counters.h).
 */
#include "chart-data.h"
#include "compare.h"
#include "counters.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* The unit of the counter printed as @label (counters.h), "count" if none
 * matches; a per-flag format matches by the text around its "%s". */
static const char *label_unit(const char *label)
{
	size_t n, len = strlen(label);
	const struct counter_def *d = counter_defs(&n);

	for (size_t i = 0; i < n; i++) {
		const char *pct = strstr(d[i].name, "%s");
		size_t pre, post;

		if (!d[i].per_flag) {
			if (!strcmp(d[i].name, label))
				return d[i].unit;
			continue;
		}
		pre = (size_t)(pct - d[i].name);
		post = strlen(pct + 2);
		if (len > pre + post && !strncmp(label, d[i].name, pre) &&
		    !strcmp(label + len - post, pct + 2))
			return d[i].unit;
	}
	return "count";
}

/* Split "Direct reclaim stall time ms" into "Direct reclaim stall time" and
 * "ms": a unit written at the end of the name is cut from it. */
static void split_unit(const char *label, char **name, char **unit)
{
	const char *u = label_unit(label);
	size_t len = strlen(label), lu = strlen(u);

	*name = vr_strdup(label);
	*unit = vr_strdup(u);
	if (len > lu + 1 && label[len - lu - 1] == ' ' && !strcmp(label + len - lu, u))
		(*name)[len - lu - 1] = '\0';
}

/*
 * Why kernel @kernel has no value of a row with footnote @note: the words
 * before " in N of M runs" of its "KERNEL: not traced in ..." part
 * (compare-counters.c kernel_value()), malloc'ed, or NULL.
 */
static char *missing_of(const char *note, const char *kernel)
{
	size_t kl = strlen(kernel);

	for (const char *p = note; p && (p = strstr(p, kernel)); p++) {
		const char *w = p + kl, *end;

		if ((p != note && strncmp(p - 2, "; ", 2)) || strncmp(w, ": not ", 6))
			continue;
		w += 2;
		end = strstr(w, " in ");
		if (end) {
			struct vr_buf b;

			vr_buf_init(&b);
			vr_buf_add(&b, w, (size_t)(end - w));
			return vr_buf_detach(&b);
		}
	}
	return NULL;
}

/* Is a run loaded?  1, 0, or -1 after an error message. */
static int has_runs(struct store *s)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT 1 FROM run LIMIT 1", "runs");
	int rc = store_step(q);

	store_stmt_free(q);
	return rc;
}

/* @out from the counters table of @res (none: no counters). */
static void counters_of(struct store *s, const struct compare_result *res,
			struct chart_counters *out)
{
	const struct compare_result r = *res;
	const struct render_table *t = NULL;

	for (size_t i = 0; i < r.ntables; i++)
		if (r.tables[i].name && !strcmp(r.tables[i].name, "counters"))
			t = &r.tables[i];
	out->nkernels = r.nkernels;
	out->kernels = vr_calloc(r.nkernels + 1, sizeof(char *));
	out->colour = vr_calloc(r.nkernels + 1, sizeof(int));
	for (size_t k = 0; k < r.nkernels; k++) {
		out->kernels[k] = vr_strdup(r.kernels[k]);
		out->colour[k] = chart_kernel_colour(s, r.kernels[k]);
	}
	out->ncounters = t ? t->nrows : 0;
	out->names = vr_calloc(out->ncounters + 1, sizeof(char *));
	out->units = vr_calloc(out->ncounters + 1, sizeof(char *));
	out->values = vr_calloc(out->ncounters * r.nkernels + 1, sizeof(double));
	out->stddev = vr_calloc(out->ncounters * r.nkernels + 1, sizeof(double));
	out->missing = vr_calloc(out->ncounters * r.nkernels + 1, sizeof(char *));
	for (size_t c = 0; c < out->ncounters; c++) {
		split_unit(t->rows[c].op, &out->names[c], &out->units[c]);
		for (size_t k = 0; k < r.nkernels; k++) {
			double v = t->rows[c].cells[k].value;

			out->values[c * r.nkernels + k] = v;
			if (isnan(v) && t->rows[c].note)
				out->missing[c * r.nkernels + k] =
					missing_of(t->rows[c].note, r.kernels[k]);
		}
	}
}

int chart_counters_build(struct store *s, struct chart_counters *out)
{
	return chart_counters_from(s, NULL, out);
}

int chart_counters_from(struct store *s, const struct compare_result *res,
			struct chart_counters *out)
{
	static char *only[] = { "counters" };
	struct compare_opts o = { .metrics = only, .nmetrics = 1, .alpha = 0.10 };
	struct compare_result r;

	memset(out, 0, sizeof(*out));
	int loaded = has_runs(s);

	if (loaded <= 0)
		return loaded;	/* nothing loaded: an empty chart says so */
	if (res) {
		counters_of(s, res, out);
		return 0;
	}
	if (compare_build(s, &o, &r))
		return -1;
	counters_of(s, &r, out);
	compare_result_release(&r);
	return 0;
}
