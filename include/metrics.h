/* SPDX-License-Identifier: GPL-2.0 */
/*
 * metrics.h - the latency metrics of a run, described once in a table of
 * metric specs (name, SQL giving the samples of one run, direction), and
 * the "operations" of the comparison table built from them.
 *
 * A trace metric (DirectReclaim, KswapdAwake, ...) yields samples per run
 * from the derived tables (README.md "Comparison tables"); each run is
 * summarised by its p50, p95, p99 and max, giving the operations
 * p50-DirectReclaim, ..., max-DirectReclaim.  Imported
 * application latencies (table app_latency, `import-latency`) already are
 * such periodic values: operation p95-Write has one value per report.
 *
 * Units: trace metrics are in microseconds; imported values are kept as
 * given.  Nothing here prints except error messages.
 */
#ifndef VR_METRICS_H
#define VR_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

/* Which direction is an improvement (mmtests "preferred value"). */
enum metric_better {
	METRIC_LOWER_IS_BETTER = 0,	/* latencies */
	METRIC_HIGHER_IS_BETTER = 1,	/* throughputs */
};

/* One trace metric: a row of the metric spec table. */
struct metric_spec {
	const char *name;	/* e.g. "DirectReclaim"; used in operation names */
	const char *unit;	/* unit of the samples: "us" */
	const char *summary;	/* one line for help texts and chart titles */
	const char *run_sql;	/* SELECT of one REAL column: the samples of run ?1 */
	enum metric_better better;
	const char *events;	/* SQL list of the event names that show it was
				 * recorded: the samples come from them */
};

/*
 * What the runs of one kernel hold of a trace metric; the one definition
 * of "zero" and "missing", used by compare (text, Markdown, CSV, JSON) and
 * the latency chart.
 */
enum metric_data {
	METRIC_DATA_VALUES,		/* samples in at least one run */
	METRIC_DATA_ZERO,		/* recorded in every run, no sample in any */
	METRIC_DATA_NOT_RECORDED,	/* no sample, and some run did not record the
					 * events (their format was not in the trace
					 * file: run_event_count has no row of them) */
};

/* Runs of a kernel and what each holds of a trace metric. */
struct metric_presence {
	int nruns;		/* trace runs */
	int with_samples;	/* runs with at least one sample */
	int zero;		/* runs that recorded the events, no sample */
	int not_recorded;	/* runs that did not record them */
};

/**
 * metric_presence_get - count, for trace metric @m and the trace runs
 * @run_ids[0..@nruns-1] of one kernel, the runs with samples (@nsamples[r]
 * of each run, from metric_run_samples()), the runs that recorded the
 * metric's events without a sample, and those that did not record them
 * (no run_event_count row of any of @m->events: the load saw no format of
 * them).  @out: OUT.  Returns 0 or -1 (SQL error, message printed).
 */
int metric_presence_get(struct store *s, const struct metric_spec *m, const int64_t *run_ids,
			size_t nruns, const size_t *nsamples, struct metric_presence *out);

/** metric_presence_data - the enum metric_data of @p (see there). */
enum metric_data metric_presence_data(const struct metric_presence *p);

/** metric_data_name - "values", "zero" or "not recorded" (CSV/JSON data). */
const char *metric_data_name(enum metric_data d);

/**
 * metric_presence_text - what @p means, for a line under a table or a
 * chart's message: "0 samples in 3 runs", "not recorded (its events are not
 * in the recording)", "samples in 2 of 3 runs".  Malloc'ed; caller frees.
 */
char *metric_presence_text(const struct metric_presence *p);

/* The table of trace metrics, in display order (src/metrics.c). */
extern const struct metric_spec metric_specs[];
extern const size_t metric_specs_count;

/**
 * metric_spec_find - the trace metric called @name (exact, case-sensitive),
 * or NULL.  The result is borrowed from the static table.
 */
const struct metric_spec *metric_spec_find(const char *name);

/**
 * metric_run_samples - all samples of trace metric @m in run @run_id.
 * @out: OUT: malloc'ed array of the samples in ascending order (NULL when
 *       there are none); the caller frees it with free().
 * @n:   OUT: number of samples.
 * Returns 0, or -1 after "vmscan-report: DB: METRIC: SQLite's reason" (e.g.
 * a derived table missing from an old database); *out is NULL and *n 0 then.
 */
int metric_run_samples(struct store *s, const struct metric_spec *m, int64_t run_id,
		       double **out, size_t *n);

/**
 * metric_app_run_samples - the imported values of application operation
 * @operation (e.g. "p95-Write") in run @run_id, in file order (sample
 * number).  Same @out / @n contract and errors as metric_run_samples().
 */
int metric_app_run_samples(struct store *s, const char *operation, int64_t run_id,
			   double **out, size_t *n);

/* How a run's trace samples become one value of an operation. */
enum metric_summary {
	METRIC_P50,
	METRIC_P95,
	METRIC_P99,
	METRIC_MAX,
	METRIC_NSUMMARY
};

/** metric_summary_name - "p50", "p95", "p99" or "max". */
const char *metric_summary_name(enum metric_summary s);

/**
 * metric_summary_value - summary @s of one run's samples @sorted[0..@n-1]
 * (ascending, as metric_run_samples() returns them): the nearest-rank
 * percentile of stats_percentile() (max = p100).  NAN for n == 0.
 */
double metric_summary_value(enum metric_summary s, const double *sorted, size_t n);

/* One operation (row name) of the comparison table. */
struct metric_op {
	char *name;			/* "p95-DirectReclaim", "p95-Write"; owned */
	const struct metric_spec *spec;	/* trace metric, or NULL: imported app op */
	enum metric_summary summary;	/* how a run is summarised (spec != NULL) */
	enum metric_better better;
	const char *unit;		/* the values' unit: the spec's, or for an app
					 * op "us" when every imported sample of it
					 * says so (app_latency.unit); NULL: as
					 * reported.  Static. */
	bool zeros_real;		/* app op: a run whose values are all 0 is a
					 * measurement (declared), not a run that did
					 * not do the operation (the default) */
};

struct metric_op_list {
	struct metric_op *ops;	/* owned; release with metric_op_list_release() */
	size_t n;
};

/**
 * metric_list - the operations that have at least one sample in at least
 * one of the runs @run_ids[0..@nruns-1]: for each trace metric in table
 * order that has samples, its p50, p95, p99 and max operations; then the
 * imported application operations in the order they first appear in
 * app_latency.  Metrics without samples are left out, not listed as zeros.
 * @out: OUT: the list; release with metric_op_list_release().
 * Returns 0 or -1 (SQL error, message printed; @out is empty).
 */
int metric_list(struct store *s, const int64_t *run_ids, size_t nruns, struct metric_op_list *out);

/**
 * metric_values_all_zero - are @v[0..@n-1] all 0 (and @n > 0)?  An imported
 * operation whose values in a run are all 0 (no read in that run: simoop
 * prints "(p50: 0) ... (max: 0)") counts as not recorded in that run unless
 * its zeros are declared real (metric_op.zeros_real); compare and the
 * latency chart both apply this rule.
 */
bool metric_values_all_zero(const double *v, size_t n);

/** metric_op_list_release - free the names and the array; empty list after. */
void metric_op_list_release(struct metric_op_list *l);

/**
 * metric_op_run_values - the values operation @op contributes for run
 * @run_id to the per-kernel statistics: for a trace metric one value, the
 * run's p50/p95/p99/max of metric_run_samples() (percentile rule of
 * stats_percentile()), or none when the run has no samples; for an app
 * operation every imported sample.
 * @out / @n: OUT, as for metric_run_samples(); caller frees *out.
 * Returns 0 or -1 (SQL error, message printed).
 */
int metric_op_run_values(struct store *s, const struct metric_op *op, int64_t run_id,
			 double **out, size_t *n);

/**
 * metric_app_operations - the distinct imported operations (app_latency)
 * of the whole database @s, in the order they first appear.
 * @ops: OUT: malloc'ed array of malloc'ed names (NULL when none); release
 *       with metric_names_release().  @n: OUT: their number.
 * Returns 0 or -1 (SQL error, message printed; *ops NULL, *n 0).
 */
int metric_app_operations(struct store *s, char ***ops, size_t *n);

/** metric_names_release - free @names[0..@n-1] and the array. */
void metric_names_release(char **names, size_t n);

/**
 * metric_unknown - report that @name is not a metric: "unknown metric
 * 'NAME'", a hint when it equals one of @accepted[0..@naccepted-1] but for
 * case, and the line "known metrics: @known" (the caller's list as its
 * command spells the names).  Returns -1.
 */
int metric_unknown(const char *name, char *const *accepted, size_t naccepted,
		   const char *known);

/**
 * metric_op_split - the percentile and metric of an imported operation name:
 * "p95-Write" is p95 of Write, "final-p95-Write" (simoop's final stats) p95
 * of final-Write.  The token is p<number>, max, min or mean.  @pct, @metric:
 * OUT, malloc'ed (caller frees); without such a token the whole name is the
 * metric and *@pct is "value".  Chart and compare both name metrics so.
 */
void metric_op_split(const char *op, char **pct, char **metric);

/*
 * The longest metric name of an imported operation (bytes): report names
 * its chart "latency-METRIC.png" and ".svg", and its bundle's file names
 * are at most 200 bytes (src/outfile.c NAME_MAX_BYTES, which leaves room in
 * NAME_MAX for the temporary's prefix).
 */
#define METRIC_NAME_MAX (200 - (int)sizeof("latency-.png") + 1)

/**
 * metric_op_name_bad - why the imported operation name @op cannot be
 * charted by report, or NULL when it can: report writes the chart of its
 * metric (metric_op_split()) to a file named after it, so the name must
 * not be empty, nor hold a control byte (below 0x20, 0x7f) or a '/', nor
 * be only a percentile token (p50, max: no metric), and its metric is at
 * most METRIC_NAME_MAX bytes.  The reason is a static string.
 */
const char *metric_op_name_bad(const char *op);

#endif /* VR_METRICS_H */
