// SPDX-License-Identifier: GPL-2.0
/*
 * compare-counters.c - the counters block of the comparison (README.md
 * "Counters"): one row per counter of counters.c, the value of a
 * kernel being the mean over its trace runs.  No percentages, as mmtests
 * prints its monitors (compare-mmtests.pl --print-monitor).
 */
#include "compare-internal.h"
#include "counters.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/*
 * Mean over the kernel's trace runs of the counter, NULL results skipped.
 * Runs that did not record what the counter needs (counter_missing()) add
 * "KERNEL: not traced in N of M runs (...)" to @note, each reason once.
 */
static int kernel_value(struct store *s, struct counter_cache *cache, const struct counter_def *c,
			const char *flag, const struct compare_kernel *k, double *out,
			struct vr_buf *note)
{
	char why[RECORDED_WHY_MAX], first[RECORDED_WHY_MAX] = "";
	double sum = 0, v;
	size_t n = 0, missing = 0;

	for (size_t r = 0; r < k->ntrace; r++) {
		int m = counter_missing(s, &cache->known, c, k->trace_runs[r], why, sizeof(why));

		if (m < 0)
			return -1;
		if (m) {
			if (!missing++)
				snprintf(first, sizeof(first), "%s", why);
			continue;
		}
		if (counter_cached(s, cache, c, k->trace_runs[r], flag, &v))
			return -1;
		if (!isnan(v)) {
			sum += v;
			n++;
		}
	}
	*out = n ? sum / (double)n : NAN;
	if (missing) {
		/* "not traced: REASON" -> "KERNEL: not traced in 3 of 3 runs: REASON" */
		const char *colon = strchr(first, ':');
		size_t head = colon ? (size_t)(colon - first) : strlen(first);

		vr_buf_addf(note, "%s%s: %.*s in %zu of %zu runs%s%s", note->len ? "; " : "",
			    k->name, (int)head, first, missing, k->ntrace,
			    colon ? "" : "", colon ? colon : "");
		if (missing < k->ntrace)
			vr_buf_addf(note, " (the mean is of the other %zu)", k->ntrace - missing);
	}
	return 0;
}

/* Distinct pgdat flags in the trace runs of all kernels, sorted. */
static int list_flags(struct store *s, const struct compare_kernel *k, size_t nk,
		      char ***flags, size_t *nflags)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT DISTINCT flag FROM pgdat_flag"
					      " WHERE run_id = ?1 ORDER BY flag", "pgdat flags");
	int rc = q ? 0 : -1;

	*flags = NULL;
	*nflags = 0;
	for (size_t i = 0; i < nk && rc == 0; i++)
		for (size_t r = 0; r < k[i].ntrace && rc == 0; r++) {
			store_stmt_reset(q);
			store_bind_int64(q, 1, k[i].trace_runs[r]);
			while ((rc = store_step(q)) > 0) {
				const char *f = store_col_text(q, 0);
				size_t j;

				for (j = 0; j < *nflags && strcmp((*flags)[j], f); j++)
					;
				if (j < *nflags)
					continue;
				*flags = vr_realloc(*flags, (*nflags + 1) * sizeof(**flags));
				(*flags)[(*nflags)++] = vr_strdup(f);
			}
		}
	store_stmt_free(q);
	return rc;
}

/*
 * Distinct cgroup ids (reclaim_stall.memcg_id, 7.1+) in the trace runs of all
 * kernels, ascending, as text; none from a database whose reclaim_stall
 * has no such column (made before it, opened read-only).
 */
static int list_memcgs(struct store *s, const struct compare_kernel *k, size_t nk,
		       char ***ids, size_t *nids)
{
	int have = store_has_column(s, "reclaim_stall", "memcg_id");
	struct store_stmt *q;
	int rc = 0;

	*ids = NULL;
	*nids = 0;
	if (have <= 0)
		return have;
	q = store_stmt_new(s, "SELECT DISTINCT memcg_id FROM reclaim_stall WHERE run_id = ?1"
			   " AND memcg_id IS NOT NULL ORDER BY 1", "cgroup ids");
	if (!q)
		return -1;
	for (size_t i = 0; i < nk && rc == 0; i++)
		for (size_t r = 0; r < k[i].ntrace && rc == 0; r++) {
			store_stmt_reset(q);
			store_bind_int64(q, 1, k[i].trace_runs[r]);
			while ((rc = store_step(q)) > 0) {
				char id[32];
				size_t j;

				snprintf(id, sizeof(id), "%lld", (long long)store_col_int64(q, 0));
				for (j = 0; j < *nids && strcmp((*ids)[j], id); j++)
					;
				if (j < *nids)
					continue;
				*ids = vr_realloc(*ids, (*nids + 1) * sizeof(**ids));
				(*ids)[(*nids)++] = vr_strdup(id);
			}
		}
	store_stmt_free(q);
	/* numeric order across runs */
	for (size_t a = 1; a < *nids; a++)
		for (size_t b = a; b > 0 && strtoll((*ids)[b - 1], NULL, 10) >
					    strtoll((*ids)[b], NULL, 10); b--) {
			char *t = (*ids)[b];

			(*ids)[b] = (*ids)[b - 1];
			(*ids)[b - 1] = t;
		}
	return rc;
}

static int add_row(struct store *s, struct counter_cache *cache, struct render_table *t,
		   const struct counter_def *c, const char *flag, const struct compare_kernel *k,
		   size_t nk)
{
	struct render_row *row;
	struct vr_buf label, note;
	bool zero = true, none = true;

	t->rows = vr_realloc((void *)t->rows, (t->nrows + 1) * sizeof(*t->rows));
	row = (struct render_row *)&t->rows[t->nrows++];
	memset(row, 0, sizeof(*row));
	vr_buf_init(&label);
	if (flag)
		vr_buf_addf(&label, c->name, flag);
	else
		vr_buf_addstr(&label, c->name);
	row->op = vr_buf_detach(&label);
	row->precision = 2;
	row->cells = vr_calloc(nk, sizeof(*row->cells));
	vr_buf_init(&note);
	for (size_t i = 0; i < nk; i++) {
		row->cells[i].gain_pct = row->cells[i].p = NAN;
		if (kernel_value(s, cache, c, flag, &k[i], &row->cells[i].value, &note)) {
			vr_buf_release(&note);
			return -1;
		}
		/* NaN: n/a on the run's kernel (counters.c), as absent as 0 */
		zero &= row->cells[i].value == 0 || isnan(row->cells[i].value);
		none &= isnan(row->cells[i].value);
	}
	row->note = note.len ? vr_buf_detach(&note) : (vr_buf_release(&note), NULL);
	/* a reclaim kind none of the runs has; or counter snapshots none has */
	if ((c->optional && zero) || (c->need == RN_VMSTAT && none)) {
		free((char *)row->note);
		free(row->cells);
		free((char *)row->op);
		t->nrows--;
	}
	return 0;
}

int compare_counters_mglru_note(struct store *s, const struct compare_kernel *k, size_t nk,
				char **note)
{
	struct vr_buf b;
	char how[RECORDED_WHY_MAX];

	*note = NULL;
	vr_buf_init(&b);
	for (size_t i = 0; i < nk; i++) {
		size_t on = 0;

		for (size_t r = 0; r < k[i].ntrace; r++) {
			enum recorded_mglru st;
			char h[RECORDED_WHY_MAX];

			if (recorded_mglru(s, k[i].trace_runs[r], &st, h, sizeof(h))) {
				vr_buf_release(&b);
				return -1;
			}
			if (st == RM_ON && !on++)
				snprintf(how, sizeof(how), "%s", h);
		}
		if (on)
			vr_buf_addf(&b, "%s%s in %zu of %zu runs (%s%s)", b.len ? "; " : "",
				    k[i].name, on, k[i].ntrace, how, on > 1 ? ", the first" : "");
	}
	if (!b.len) {
		vr_buf_release(&b);
		return 0;
	}
	/* README.md "Multi-gen LRU": the counters whose meaning differs */
	vr_buf_addstr(&b, ". Under multi-gen LRU pages scanned and reclaimed (and the efficiencies)"
		      " are evict_folios()' (6.7+; before 6.7 not traced), there is no active list,"
		      " and the pgdat flags are not inferred");
	{
		struct vr_buf n;

		vr_buf_init(&n);
		vr_buf_addf(&n, "Multi-gen LRU on: %s", b.buf);
		vr_buf_release(&b);
		*note = vr_buf_detach(&n);
	}
	return 0;
}

int compare_counters_table(struct store *s, struct counter_cache *cache,
			   const struct compare_kernel *k, size_t nk, struct render_table *t)
{
	size_t ntrace = 0, nflags, ndefs;
	const struct counter_def *defs = counter_defs(&ndefs);
	char **flags, **memcgs = NULL;
	size_t nmemcgs = 0;
	int ret = 0;

	t->name = "counters";
	t->show_gain = false;
	t->op_width = 29;	/* line the kernel columns up with the latency table */
	t->value_width = 22;
	for (size_t i = 0; i < nk; i++)
		ntrace += k[i].ntrace;
	if (!ntrace)
		return 0;
	if (list_flags(s, k, nk, &flags, &nflags))
		return -1;
	if (list_memcgs(s, k, nk, &memcgs, &nmemcgs)) {
		ret = -1;
		goto out;
	}
	for (size_t c = 0; !ret && c < ndefs; c++) {
		char **each = defs[c].per_flag == 2 ? memcgs : flags;
		size_t n = defs[c].per_flag == 2 ? nmemcgs : nflags;

		if (!defs[c].per_flag) {
			ret = add_row(s, cache, t, &defs[c], NULL, k, nk);
			continue;
		}
		for (size_t f = 0; !ret && f < n; f++)
			ret = add_row(s, cache, t, &defs[c], each[f], k, nk);
	}
out:
	for (size_t f = 0; f < nflags; f++)
		free(flags[f]);
	free(flags);
	for (size_t f = 0; f < nmemcgs; f++)
		free(memcgs[f]);
	free(memcgs);
	return ret;
}
