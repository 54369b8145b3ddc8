/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chart-data.h - build the plain chart structs of chart.h from the database.
 * Read-only queries; every value bound.  Errors are printed as
 * "vmscan-report: DB: what" and returned as -1; the struct is then empty
 * (release it anyway, that is always safe).
 */
#ifndef VR_CHART_DATA_H
#define VR_CHART_DATA_H

#include "chart.h"

struct store;

/* What the timeline shows: one run, optionally one node and a time window. */
struct chart_timeline_opts {
	long long run_id;	/* run.id */
	int nid;		/* -1: every node */
	double from_s;		/* window start, seconds from the run start (>= 0) */
	double to_s;		/* window end; < 0: the end of the run */
	double bin_s;		/* reclaim-rate bin; <= 0: chosen by chart_bin_width() */
	double rate_max;	/* top of the rate axis, pages/s; <= 0: the data's max
				 * (report: one scale for every run) */
	const struct chart_timeline *rates;	/* NULL, or this run's rates in this window
				 * and bin, built before (chart_timeline_shared_scale()):
				 * taken from there, not read again (borrowed) */
};

/**
 * chart_bin_width - the reclaim-rate bin for a window of @window_s seconds:
 * the smallest of 1, 2, 5 x 10^k seconds that gives at most 100 bins
 * (1 ms at least).  E.g. 10 s -> 0.1 s, 60 s -> 1 s, 0.3 s -> 0.005 s.
 */
double chart_bin_width(double window_s);

/**
 * chart_timeline_build - the timeline data of one run (README.md "Charts
 * and the evidence bundle"):
 * per node the kswapd band from kswapd_cycle (awake from kswapd_wake to
 * last_activity_ns; then by decision: full_sleep = napping to sleep_ns and
 * asleep to the next wake, nap_woken_early/nap_timed_out = napping to the
 * next wake, no_nap = awake, unknown = unknown; the time before the first
 * wake is unknown), premature sleeps, one band per pgdat flag from
 * pgdat_flag (NULL set/clear = run start/end), direct reclaim stalls from
 * reclaim_stall (kind 'direct', this node or nid NULL, complete ones with a
 * duration), and the reclaim rate: sum of mm_vmscan_lru_shrink_inactive
 * nr_reclaimed per bin divided by the bin's width inside the window (the
 * last bin may be shorter), split into kswapd (pids of kswapd_cycle or
 * comm kswapd*) and the rest.  Spans are clipped to the window.
 * @out: OUT: filled; release with chart_timeline_release().
 * Returns 0, or -1 (no such run, node without data, SQLite error).
 */
int chart_timeline_build(struct store *s, const struct chart_timeline_opts *o,
			 struct chart_timeline *out);

/**
 * chart_timeline_shared_scale - one reclaim-rate bin and one rate axis for
 * the timelines of runs @run_ids[0..@n-1] (report's bundle, so that runs
 * compare by eye): *@bin_s is chart_bin_width() of the longest run, and
 * *@rate_max the highest pages/s of any node of any run in bins of that
 * width.  Both 0 when @n is 0.  @rates: NULL, or OUT[@n]: each run's
 * timeline holding its rates only (the whole run, in bins of *@bin_s), for
 * chart_timeline_opts.rates; release each with chart_timeline_release().
 * Returns 0 or -1 after an error message (then @rates holds nothing).
 */
int chart_timeline_shared_scale(struct store *s, const long long *run_ids, size_t n,
				double *bin_s, double *rate_max, struct chart_timeline *rates);

/**
 * chart_kernel_colour - the colour index of @kernel: its position among the
 * database's kernels ordered by their first run id, so that a kernel has
 * the same colour in every chart of the database.  -1 if unknown/error.
 */
int chart_kernel_colour(struct store *s, const char *kernel);

/**
 * chart_metric_names - the latency metrics with data in the database, in
 * the order of include/metrics.h (trace metrics, then imported application
 * metrics such as "Read" for p50-Read...).  @names: OUT: malloc'ed array of
 * malloc'ed names; free each and the array.  Returns 0 or -1.
 */
int chart_metric_names(struct store *s, char ***names, size_t *n);

/**
 * chart_metric_resolve - check metric name @name given to `chart`: a trace
 * metric of include/metrics.h, or an imported metric present in the
 * database (Read, for operations p50-Read, p95-Read, ...).  An operation
 * name as compare prints it (p95-Read, max-DirectReclaim) is mapped to its
 * metric with a warning saying so.  With @need_trace, imported metrics are
 * refused (the distribution needs raw samples).
 * @out: OUT: the metric name, malloc'ed (caller frees); NULL on error.
 * Returns 0; VR_ERR_USAGE after "unknown metric 'X'" and the known names
 * (or the imported-metric message); -1 after an SQL error message.
 */
int chart_metric_resolve(struct store *s, const char *name, int need_trace, char **out);

/** chart_metric_is_trace - 1 if @metric is a trace metric (has raw samples). */
int chart_metric_is_trace(const char *metric);

/**
 * chart_latency_build - candles per kernel and percentile of latency metric
 * @metric (names of include/metrics.h), from the per-run values.
 * Returns 0 (possibly with no kernels: nothing to draw), or -1.
 * Release @out with chart_latency_release().
 */
int chart_latency_build(struct store *s, const char *metric, struct chart_latency *out);

/**
 * chart_cdf_build - all samples of latency metric @metric per kernel, sorted.
 * Returns 0 or -1.  Release @out with chart_cdf_release().
 */
int chart_cdf_build(struct store *s, const char *metric, struct chart_cdf *out);

/**
 * chart_counters_build - the per-run counters block, mean and stddev over
 * each kernel's runs.  Returns 0 or -1.  Release with chart_counters_release().
 */
int chart_counters_build(struct store *s, struct chart_counters *out);

struct compare_result;

/**
 * chart_counters_from - chart_counters_build() from the comparison @res
 * (compare_build() of every kernel, untrimmed, by default opts: its
 * counters table is the chart's; borrowed) instead of building one; NULL:
 * chart_counters_build().  Returns 0 or -1.
 */
int chart_counters_from(struct store *s, const struct compare_result *res,
			struct chart_counters *out);

#endif /* VR_CHART_DATA_H */
