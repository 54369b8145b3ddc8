// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - the table of latency metrics (one row per metric: name, the
 * SQL giving the samples of one run, direction) and the comparison-table
 * operations built from it and from imported application latencies.
 */
#include "metrics.h"
#include "stats.h"
#include "store-query.h"
#include "vr.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/*
 * Sources are the derived tables written during load (src/store/store.c
 * fixed_schema).  Each SELECT yields the samples of run ?1 in microseconds,
 * never NULL (spec_has_samples() relies on it).
 * Incomplete episodes (an end or a begin outside the trace, lost events
 * inside) are left out: their duration is not known.  SlabShrink's rows
 * (a duration and its number of calls: a million samples from a few
 * thousand rows) come in ascending order, so that stats_sort() finds them
 * sorted.
 */
const struct metric_spec metric_specs[] = {
	{ "DirectReclaim", "us", "direct reclaim stall (direct_reclaim_begin to _end)",
	  "SELECT duration_ns / 1000.0 FROM reclaim_stall WHERE run_id = ?1"
	  " AND kind = 'direct' AND complete = 1 AND duration_ns IS NOT NULL",
	  METRIC_LOWER_IS_BETTER, "'mm_vmscan_direct_reclaim_begin'" },
	{ "MemcgReclaim", "us", "memcg (and memcg soft limit) reclaim stall",
	  "SELECT duration_ns / 1000.0 FROM reclaim_stall WHERE run_id = ?1"
	  " AND kind IN ('memcg', 'memcg_softlimit') AND complete = 1"
	  " AND duration_ns IS NOT NULL",
	  METRIC_LOWER_IS_BETTER,
	  "'mm_vmscan_memcg_reclaim_begin', 'mm_vmscan_memcg_softlimit_reclaim_begin'" },
	{ "NodeReclaim", "us", "node reclaim stall (node_reclaim_begin to _end)",
	  "SELECT duration_ns / 1000.0 FROM reclaim_stall WHERE run_id = ?1"
	  " AND kind = 'node' AND complete = 1 AND duration_ns IS NOT NULL",
	  METRIC_LOWER_IS_BETTER, "'mm_vmscan_node_reclaim_begin'" },
	/* sleep_ns is the kswapd_sleep event, emitted after the HZ/10 nap that
	 * precedes every full sleep (mm/vmscan.c kswapd_try_to_sleep), so each
	 * sample includes that ~100 ms nap; last_activity_ns is the end of work */
	{ "KswapdAwake", "us", "kswapd_wake to a full sleep (kswapd_sleep, after its nap)",
	  "SELECT (sleep_ns - wake_ns) / 1000.0 FROM kswapd_cycle WHERE run_id = ?1"
	  " AND decision = 'full_sleep' AND wake_ns IS NOT NULL AND sleep_ns IS NOT NULL",
	  METRIC_LOWER_IS_BETTER, "'mm_vmscan_kswapd_sleep'" },
	{ "KswapdWakeupDelay", "us", "wakeup_kswapd request to the next kswapd_wake of the node",
	  "SELECT delay_ns / 1000.0 FROM kswapd_wakeup WHERE run_id = ?1"
	  " AND delay_ns IS NOT NULL",
	  METRIC_LOWER_IS_BETTER, "'mm_vmscan_wakeup_kswapd'" },
	{ "Throttle", "us", "reclaim throttling (mm_vmscan_throttled usec_delayed)",
	  "SELECT usec_delayed FROM reclaim_throttle WHERE run_id = ?1"
	  " AND kind = 'throttled' AND usec_delayed IS NOT NULL",
	  METRIC_LOWER_IS_BETTER, "'mm_vmscan_throttled'" },
	{ "CongestionWait", "us", "congestion_wait / wait_iff_congested (usec_delayed)",
	  "SELECT usec_delayed FROM reclaim_throttle WHERE run_id = ?1"
	  " AND kind IN ('congestion_wait', 'wait_iff_congested') AND usec_delayed IS NOT NULL",
	  METRIC_LOWER_IS_BETTER,
	  "'writeback_congestion_wait', 'writeback_wait_iff_congested'" },
	{ "SlabShrink", "us", "one shrinker call (mm_shrink_slab_start to _end)",
	  "SELECT duration_ns / 1000.0, calls FROM slab_shrink_ns WHERE run_id = ?1"
	  " AND complete = 1 AND duration_ns IS NOT NULL ORDER BY duration_ns",
	  METRIC_LOWER_IS_BETTER, "'mm_shrink_slab_end'" },
};
const size_t metric_specs_count = VR_ARRAY_SIZE(metric_specs);

static const struct {
	const char *name;
	double pct;
} summaries[METRIC_NSUMMARY] = {
	[METRIC_P50] = { "p50", 50 },
	[METRIC_P95] = { "p95", 95 },
	[METRIC_P99] = { "p99", 99 },
	[METRIC_MAX] = { "max", 100 },
};

const char *metric_summary_name(enum metric_summary s)
{
	return s < METRIC_NSUMMARY ? summaries[s].name : "?";
}

double metric_summary_value(enum metric_summary s, const double *sorted, size_t n)
{
	return s < METRIC_NSUMMARY ? stats_percentile(sorted, n, summaries[s].pct) : NAN;
}

const struct metric_spec *metric_spec_find(const char *name)
{
	for (size_t i = 0; i < metric_specs_count; i++)
		if (!strcmp(metric_specs[i].name, name))
			return &metric_specs[i];
	return NULL;
}

/* Column 0 of @sql with ?1 = @run_id and an optional text ?2, NULLs left out. */
static int query_doubles(struct store *s, const char *sql, const char *what, int64_t run_id,
			 const char *text, double **out, size_t *n)
{
	struct store_stmt *q = store_stmt_new(s, sql, what);
	int ret;

	store_bind_int64(q, 1, run_id);
	if (text)
		store_bind_text(q, 2, text);
	ret = store_stmt_doubles(q, out, n);
	store_stmt_free(q);
	return ret;
}

int metric_run_samples(struct store *s, const struct metric_spec *m, int64_t run_id,
		       double **out, size_t *n)
{
	if (query_doubles(s, m->run_sql, m->name, run_id, NULL, out, n))
		return -1;
	stats_sort(*out, *n);
	return 0;
}

int metric_app_run_samples(struct store *s, const char *operation, int64_t run_id,
			   double **out, size_t *n)
{
	return query_doubles(s, "SELECT value FROM app_latency WHERE run_id = ?1"
			     " AND operation = ?2 ORDER BY sample", "imported latencies", run_id,
			     operation, out, n);
}

static void list_add(struct metric_op_list *l, char *name, const struct metric_spec *spec,
		     enum metric_summary summary, enum metric_better better)
{
	l->ops = vr_realloc(l->ops, (l->n + 1) * sizeof(*l->ops));
	l->ops[l->n++] = (struct metric_op){ .name = name, .spec = spec, .summary = summary,
					     .better = better, .unit = spec ? spec->unit : NULL };
}

/* Whether app_latency has column @name (older databases lack the later
 * ones): *@have 1 or 0.  0, or -1 (SQL error). */
static int app_has_column(struct store *s, const char *name, int64_t *have)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT count(*) FROM pragma_table_info("
					      "'app_latency') WHERE name = ?1", "imported columns");
	int rc;

	store_bind_text(q, 1, name);
	rc = store_stmt_row_int64(q, have, 1);
	store_stmt_free(q);
	return rc < 0 ? -1 : 0;
}

static bool run_listed(const int64_t *run_ids, size_t nruns, int64_t id)
{
	for (size_t r = 0; r < nruns; r++)
		if (run_ids[r] == id)
			return true;
	return false;
}

/* The imported operation of @l named @name, or NULL. */
static struct metric_op *app_op_named(struct metric_op_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!l->ops[i].spec && !strcmp(l->ops[i].name, name))
			return &l->ops[i];
	return NULL;
}

/*
 * The unit and the declarations of each imported operation of @l in runs
 * @run_ids, read in one pass over app_latency (grouped by run and
 * operation), not one query per operation and run:
 * - unit: "us" when every sample of it there says "us", else NULL (as
 *   reported);
 * - what the import declared (app_latency.higher_is_better, .zeros_real:
 *   import-latency --higher-is-better, --real-zeros): a declaration in any
 *   of the runs holds for the operation.
 * A database made before app_latency.unit (.zeros_real) existed has no
 * unit (no declaration).  0 or -1 (SQL error).
 */
static int app_ops_describe(struct store *s, struct metric_op_list *l, const int64_t *run_ids,
			    size_t nruns)
{
	int64_t has_unit = 0, has_decl = 0;
	struct store_stmt *q;
	size_t napp = 0;
	int rc;

	for (size_t i = 0; i < l->n; i++)
		napp += !l->ops[i].spec;
	if (!napp)
		return 0;
	if (app_has_column(s, "unit", &has_unit) || app_has_column(s, "zeros_real", &has_decl))
		return -1;
	for (size_t i = 0; i < l->n; i++)
		if (!l->ops[i].spec)
			l->ops[i].unit = has_unit ? "us" : NULL;
	q = store_stmt_newf(s, "imported units and declarations",
			    "SELECT run_id, operation, %s, %s FROM app_latency"
			    " GROUP BY run_id, operation",
			    has_unit ? "sum(unit IS NOT 'us')" : "0",
			    has_decl ? "coalesce(max(higher_is_better), 0) * 2 +"
			    " coalesce(max(zeros_real), 0)" : "0");
	if (!q)
		return -1;
	while ((rc = store_step(q)) > 0) {
		struct metric_op *op = app_op_named(l, store_col_text(q, 1));
		int64_t decl = store_col_int64(q, 3);

		if (!op || !run_listed(run_ids, nruns, store_col_int64(q, 0)))
			continue;
		if (store_col_int64(q, 2))
			op->unit = NULL;
		if (decl & 2)
			op->better = METRIC_HIGHER_IS_BETTER;
		if (decl & 1)
			op->zeros_real = true;
	}
	store_stmt_free(q);
	return rc < 0 ? -1 : 0;
}

/*
 * Does trace metric @m have a sample in any of the runs?  1, 0 or -1.
 * Asks for the first row only (every run_sql leaves NULL values out), not
 * for every sample: a million shrinker calls took a second to fetch.
 */
static int spec_has_samples(struct store *s, const struct metric_spec *m, const int64_t *run_ids,
			    size_t nruns)
{
	struct store_stmt *q = store_stmt_newf(s, m->name, "SELECT EXISTS (%s)", m->run_sql);
	int64_t found = 0;
	int rc = q ? 0 : -1;

	for (size_t r = 0; r < nruns && !found && rc >= 0; r++) {
		store_stmt_reset(q);
		store_bind_int64(q, 1, run_ids[r]);
		rc = store_stmt_row_int64(q, &found, 1);
	}
	store_stmt_free(q);
	return rc < 0 ? -1 : found != 0;
}

static bool op_listed(const struct metric_op_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->ops[i].name, name))
			return true;
	return false;
}

static int list_app_ops(struct store *s, const int64_t *run_ids, size_t nruns,
			struct metric_op_list *l)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT operation FROM app_latency"
					      " WHERE run_id = ?1 GROUP BY operation"
					      " ORDER BY min(rowid)", "imported operations");
	int rc = q ? 0 : -1;

	for (size_t r = 0; r < nruns && rc == 0; r++) {
		store_stmt_reset(q);
		store_bind_int64(q, 1, run_ids[r]);
		while ((rc = store_step(q)) > 0) {
			const char *op = store_col_text(q, 0);

			if (!op_listed(l, op))
				list_add(l, vr_strdup(op), NULL, METRIC_P50, METRIC_LOWER_IS_BETTER);
		}
	}
	store_stmt_free(q);
	return rc;
}

int metric_list(struct store *s, const int64_t *run_ids, size_t nruns, struct metric_op_list *out)
{
	out->ops = NULL;
	out->n = 0;
	for (size_t i = 0; i < metric_specs_count; i++) {
		const struct metric_spec *m = &metric_specs[i];
		int has = spec_has_samples(s, m, run_ids, nruns);

		if (has < 0)
			goto fail;
		for (int s = 0; has && s < METRIC_NSUMMARY; s++) {
			struct vr_buf name;

			vr_buf_init(&name);
			vr_buf_addf(&name, "%s-%s", summaries[s].name, m->name);
			list_add(out, vr_buf_detach(&name), m, s, m->better);
		}
	}
	if (list_app_ops(s, run_ids, nruns, out) || app_ops_describe(s, out, run_ids, nruns))
		goto fail;
	return 0;
fail:
	metric_op_list_release(out);
	return -1;
}

bool metric_values_all_zero(const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] != 0)
			return false;
	return n > 0;
}

void metric_op_list_release(struct metric_op_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->ops[i].name);
	free(l->ops);
	l->ops = NULL;
	l->n = 0;
}

int metric_op_run_values(struct store *s, const struct metric_op *op, int64_t run_id,
			 double **out, size_t *n)
{
	double *samples;
	size_t ns;

	if (!op->spec)
		return metric_app_run_samples(s, op->name, run_id, out, n);
	*out = NULL;
	*n = 0;
	if (metric_run_samples(s, op->spec, run_id, &samples, &ns))
		return -1;
	if (ns) {
		*out = vr_malloc(sizeof(**out));
		(*out)[0] = metric_summary_value(op->summary, samples, ns);
		*n = 1;
	}
	free(samples);
	return 0;
}

int metric_app_operations(struct store *s, char ***ops, size_t *n)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT operation FROM app_latency"
					      " GROUP BY operation ORDER BY min(rowid)",
					      "imported operations");
	int ret = store_stmt_texts(q, ops, n);

	store_stmt_free(q);
	return ret;
}

void metric_names_release(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

int metric_presence_get(struct store *s, const struct metric_spec *m, const int64_t *run_ids,
			size_t nruns, const size_t *nsamples, struct metric_presence *out)
{
	struct store_stmt *q = store_stmt_newf(s, m->name, "SELECT EXISTS (SELECT 1 FROM"
					       " run_event_count WHERE run_id = ?1 AND name IN (%s))",
					       m->events);
	int rc = q ? 0 : -1;

	memset(out, 0, sizeof(*out));
	out->nruns = (int)nruns;
	for (size_t r = 0; r < nruns && rc >= 0; r++) {
		int64_t recorded = 0;

		if (nsamples[r]) {
			out->with_samples++;
			continue;
		}
		store_stmt_reset(q);
		store_bind_int64(q, 1, run_ids[r]);
		rc = store_stmt_row_int64(q, &recorded, 1);
		if (recorded)
			out->zero++;
		else
			out->not_recorded++;
	}
	store_stmt_free(q);
	return rc < 0 ? -1 : 0;
}

enum metric_data metric_presence_data(const struct metric_presence *p)
{
	if (p->with_samples)
		return METRIC_DATA_VALUES;
	return p->zero && !p->not_recorded ? METRIC_DATA_ZERO : METRIC_DATA_NOT_RECORDED;
}

const char *metric_data_name(enum metric_data d)
{
	static const char *const names[] = { "values", "zero", "not recorded" };

	return d < VR_ARRAY_SIZE(names) ? names[d] : "?";
}

char *metric_presence_text(const struct metric_presence *p)
{
	struct vr_buf b;

	vr_buf_init(&b);
	switch (metric_presence_data(p)) {
	case METRIC_DATA_ZERO:
		vr_buf_addf(&b, "0 samples in %d run%s", p->nruns, p->nruns == 1 ? "" : "s");
		break;
	case METRIC_DATA_NOT_RECORDED:
		if (!p->nruns)
			vr_buf_addstr(&b, "not recorded (no trace run)");
		else if (p->zero)
			vr_buf_addf(&b, "no samples; not recorded in %d of %d runs", p->not_recorded,
				    p->nruns);
		else
			vr_buf_addstr(&b, "not recorded (its events are not in the recording)");
		break;
	case METRIC_DATA_VALUES:
		vr_buf_addf(&b, "samples in %d of %d runs", p->with_samples, p->nruns);
		break;
	}
	return vr_buf_detach(&b);
}

int metric_unknown(const char *name, char *const *accepted, size_t naccepted,
		   const char *known)
{
	struct vr_buf b;
	int ret = -1;
	size_t i;

	for (i = 0; i < naccepted && strcasecmp(name, accepted[i]); i++)
		;
	if (i < naccepted)
		ret = vr_error("unknown metric '%s' (names are case-sensitive: did you mean '%s'?)",
			       name, accepted[i]);
	else
		ret = vr_error("unknown metric '%s'", name);
	/* a second line, escaped as vr_error() escapes (imported names are the
	 * user's) */
	vr_buf_init(&b);
	fprintf(stderr, "known metrics: %s\n", vr_escaped(&b, known));
	vr_buf_release(&b);
	return ret;
}

/* A percentile token of an imported operation name (metric_op_split()). */
static bool pct_token(const char *t, size_t n)
{
	if ((n == 3 && (!strncmp(t, "max", 3) || !strncmp(t, "min", 3))) ||
	    (n == 4 && !strncmp(t, "mean", 4)))
		return true;
	if (n < 2 || t[0] != 'p')
		return false;
	for (size_t i = 1; i < n; i++)
		if (!((t[i] >= '0' && t[i] <= '9') || t[i] == '.'))
			return false;
	return true;
}

void metric_op_split(const char *op, char **pct, char **metric)
{
	const char *t = op;

	while (*t) {
		size_t n = strcspn(t, "-");

		if (pct_token(t, n)) {
			struct vr_buf m;

			*pct = vr_strdup(t);
			(*pct)[n] = '\0';
			vr_buf_init(&m);
			vr_buf_add(&m, op, (size_t)(t - op));	/* prefix with its '-' */
			vr_buf_addstr(&m, t[n] ? t + n + 1 : "");
			if (m.len && m.buf[m.len - 1] == '-')
				m.buf[--m.len] = '\0';
			*metric = vr_buf_detach(&m);
			return;
		}
		t += n + (t[n] ? 1 : 0);
	}
	*pct = vr_strdup("value");
	*metric = vr_strdup(op);
}

/* Is @metric (any case) one of metric_specs[], which come from the trace? */
static bool trace_metric(const char *metric)
{
	for (size_t i = 0; i < metric_specs_count; i++)
		if (!strcasecmp(metric, metric_specs[i].name))
			return true;
	return false;
}

_Static_assert(METRIC_NAME_MAX == 188, "metric_op_name_bad() says 188 bytes");

const char *metric_op_name_bad(const char *op)
{
	const char *why = NULL;
	char *pct, *metric;

	if (!*op)
		return "an empty operation name";
	for (const unsigned char *p = (const unsigned char *)op; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return "a control character in the operation name";
		if (*p == '/')
			return "a '/' in the operation name (report names a chart file after it)";
	}
	metric_op_split(op, &pct, &metric);
	if (!*metric)
		why = "an operation name that is only a percentile (p50, max...) names no metric";
	else if (trace_metric(metric))
		why = "the name of a metric vmscan-report takes from the trace (compare and report"
		      " would show the trace's, never this one): name the application's operation"
		      " otherwise";
	else if (strlen(metric) > METRIC_NAME_MAX)
		why = "an operation name whose metric is longer than 188 bytes (report names a"
		      " chart file after it)";
	free(pct);
	free(metric);
	return why;
}
