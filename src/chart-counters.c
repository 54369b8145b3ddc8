// SPDX-License-Identifier: GPL-2.0
/*
 * chart-counters.c - the counters chart's data: the counters block of the
 * comparison (compare.h, compare-counters.c computes every counter), one
 * value per kernel = the mean over its runs.  The unit of a counter is read
 * from its label: "... ms", "... %", "... pages ..." or a plain count.
 */
#include "chart-data.h"
#include "compare.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Split "Direct stall time ms" into "Direct stall time" and "ms". */
static void split_unit(const char *label, char **name, char **unit)
{
	static const char *const suffixes[] = { " ms", " %", " s", " us" };
	size_t len = strlen(label);

	for (size_t i = 0; i < VR_ARRAY_SIZE(suffixes); i++) {
		size_t ls = strlen(suffixes[i]);

		if (len > ls && !strcmp(label + len - ls, suffixes[i])) {
			*name = vr_strdup(label);
			(*name)[len - ls] = '\0';
			*unit = vr_strdup(suffixes[i] + 1);
			return;
		}
	}
	*name = vr_strdup(label);
	*unit = vr_strdup(strstr(label, "pages") ? "pages" : "count");
}

/* Is a run loaded?  1, 0, or -1 after an error message. */
static int has_runs(struct store *s)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT 1 FROM run LIMIT 1", "runs");
	int rc = store_step(q);

	store_stmt_free(q);
	return rc;
}

int chart_counters_build(struct store *s, struct chart_counters *out)
{
	static char *only[] = { "counters" };
	struct compare_opts o = { .metrics = only, .nmetrics = 1, .alpha = 0.10 };
	struct compare_result r;
	const struct render_table *t = NULL;

	memset(out, 0, sizeof(*out));
	int loaded = has_runs(s);

	if (loaded <= 0)
		return loaded;	/* nothing loaded: an empty chart says so */
	if (compare_build(s, &o, &r))
		return -1;
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
	for (size_t c = 0; c < out->ncounters; c++) {
		split_unit(t->rows[c].op, &out->names[c], &out->units[c]);
		for (size_t k = 0; k < r.nkernels; k++)
			out->values[c * r.nkernels + k] = t->rows[c].cells[k].value;
	}
	compare_result_release(&r);
	return 0;
}
