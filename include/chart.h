/* SPDX-License-Identifier: GPL-2.0 */
/*
 * chart.h - the data a chart is drawn from, as plain structs: no SQL, no
 * cairo.  src/chart/chart-data.c fills them from the database (include/chart-data.h)
 * and src/chart/render-cairo.c draws them (include/render-cairo.h), so the numbers
 * behind every picture can be dumped and tested on their own
 * (`vmscan-report chart --dump-data`).
 *
 * Times are seconds from the start of the run (run.first_ts_ns); latencies
 * are in the unit named next to them.  Every struct is owned by whoever
 * built it and released with the matching chart_*_release().
 */
#ifndef VR_CHART_H
#define VR_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* kswapd state of a node over time, from its kswapd_cycle rows (README.md
 * "How reclaim is reconstructed", kswapd cycles; mm/vmscan.c kswapd_try_to_sleep()). */
enum chart_kswapd_state {
	CHART_KSWAPD_AWAKE,	/* kswapd_wake .. last traced activity of the cycle */
	CHART_KSWAPD_NAPPING,	/* the HZ/10 nap of kswapd_try_to_sleep() */
	CHART_KSWAPD_ASLEEP,	/* mm_vmscan_kswapd_sleep .. next kswapd_wake */
	CHART_KSWAPD_UNKNOWN,	/* the model could not classify the gap */
	CHART_KSWAPD_THROTTLED,	/* awake, in reclaim_throttle(WRITEBACK) inside
				 * balance_pgdat(): mm_vmscan_throttled of
				 * kswapd, usec_delayed before it */
	CHART_KSWAPD_NSTATES
};

/* One interval of a band; @state is an enum chart_kswapd_state for the kswapd
 * band and 1 ("set") for a pgdat flag band. */
struct chart_span {
	double begin_s, end_s;
	int state;
};

/* A horizontal band: a labelled list of spans in time order. */
struct chart_band {
	char *label;		/* e.g. "kswapd0", "PGDAT_DIRTY" (owned) */
	char *note;		/* shown instead of spans when there are none,
				 * e.g. "not inferable for this kernel" (owned, may be NULL) */
	struct chart_span *spans;	/* owned */
	size_t nspans;
};

/* One node's part of the timeline. */
struct chart_timeline_node {
	int nid;
	struct chart_band kswapd;	/* states over time */
	double *premature_s;		/* full sleeps the model flagged premature
					 * (kswapd_cycle.premature), at the sleep time */
	size_t npremature;
	struct chart_band *flags;	/* one band per pgdat flag, then "kswapd
					 * hopeless" when the recording has the
					 * kswapd_failures events (7.0+) */
	size_t nflags;
	double *stall_begin_s;		/* reclaim stalls and throttling: start time */
	double *stall_ms;		/* and duration in ms (same index) */
	unsigned char *stall_kind;	/* and enum chart_stall_kind (same index) */
	size_t nstalls;
	double *rate_kswapd;		/* pages/s reclaimed by kswapd, per bin */
	double *rate_direct;		/* pages/s reclaimed by everyone else, per bin */
	size_t nbins;			/* bins of chart_timeline.bin_s from from_s */
	char *rate_missing;		/* owned: why the run has no reclaim rate
					 * ("not traced: ...", recorded.h RN_LRU_PAGES;
					 * rates all 0, not drawn), or NULL */
};

/* The timeline chart of one run. */
struct chart_timeline {
	long long run_id;
	char *kernel;			/* run.kernel (owned) */
	int iteration;
	double duration_s;		/* last_ts_ns - first_ts_ns */
	double from_s, to_s;		/* the window shown */
	double bin_s;			/* reclaim-rate bin width */
	double rate_max;		/* rate axis top (pages/s); 0: the data's */
	struct chart_timeline_node *nodes;	/* ascending nid */
	size_t nnodes;
};

/* One candlestick: statistics of the per-run values of a percentile. */
struct chart_candle {
	int n;			/* per-run values; 0: no candle */
	double min, max, mean, stddev;	/* stddev: sample (n-1), 0 when n == 1 */
	double box_lo, box_hi;	/* mean -/+ stddev clipped to [min, max] (mmtests) */
};

/* Latency comparison: candles[p * nkernels + k] for percentile p, kernel k. */
struct chart_latency {
	char *metric;		/* e.g. "DirectReclaim" (owned) */
	char *unit;		/* e.g. "us" (owned) */
	char *what;		/* one line saying what the metric measures (owned) */
	int imported;		/* 1: application latencies imported per report */
	size_t nkernels;
	char **kernels;		/* owned */
	int *colour;		/* per kernel: index in the database's kernel order */
	int *nruns;		/* per kernel: runs in the database */
	char **nodata;		/* per kernel: why it has no candle (a trace metric:
				 * metric_presence_text(), "0 samples in 3 runs"
				 * or "not recorded ..."), NULL when it has one;
				 * owned */
	size_t npct;
	char **pct;		/* row labels, e.g. "p50", "max" (owned) */
	struct chart_candle *candles;
};

/* Distribution: every sample of a metric per kernel, sorted ascending. */
struct chart_cdf_series {
	char *kernel;		/* owned */
	int colour;
	double *x;		/* samples in the metric's unit, ascending (owned) */
	size_t n;
};

struct chart_cdf {
	char *metric;		/* owned */
	char *unit;		/* owned */
	char *what;		/* what the metric measures (owned) */
	struct chart_cdf_series *series;
	size_t nseries;
};

/* Counters: values[c * nkernels + k] = mean over kernel k's runs of counter c. */
struct chart_counters {
	size_t nkernels;
	char **kernels;		/* owned */
	int *colour;
	size_t ncounters;
	char **names;		/* e.g. "direct reclaim stalls" (owned) */
	char **units;		/* e.g. "count", "pages", "%" (owned) */
	double *values;		/* NAN: no run of that kernel has it */
	double *stddev;		/* spread over runs drawn as an error bar; 0 or NAN:
				 * none (the compare counters block gives means only) */
	char **missing;		/* per value: "not traced", "not recorded" or "not
				 * inferred" where no run of the kernel recorded the
				 * counter (recorded.h; drawn instead of a bar), else
				 * NULL; owned */
};

void chart_timeline_release(struct chart_timeline *t);
void chart_latency_release(struct chart_latency *l);
void chart_cdf_release(struct chart_cdf *c);
void chart_counters_release(struct chart_counters *c);

/**
 * chart_candle_set - fill @c from @n per-run values @v (any order): min,
 * max, mean, sample stddev (n-1; 0 for n == 1) and the mmtests box
 * mean -/+ stddev clipped to [min, max] (mmtests Extract::_printCandlePlotData).
 */
void chart_candle_set(struct chart_candle *c, const double *v, int n);

/**
 * chart_latency_log_axis - does the latency chart @l draw its values on a
 * log axis?  Yes when they span more than a factor 50 and none is <= 0: a
 * log axis has no 0, and a value drawn at its floor would read as the
 * floor's value (so a real 0 gives a linear axis).  @lo, @hi: OUT: the
 * smallest positive and the largest candle value (lo INFINITY, hi
 * -INFINITY without a candle).
 */
bool chart_latency_log_axis(const struct chart_latency *l, double *lo, double *hi);

/*
 * chart_*_dump - write the numbers a chart is drawn from as plain text, one
 * item per line, for tests and for anyone checking a picture.  Floating
 * values are printed with %.6g.
 */
void chart_timeline_dump(const struct chart_timeline *t, FILE *out);
void chart_latency_dump(const struct chart_latency *l, FILE *out);
void chart_cdf_dump(const struct chart_cdf *c, FILE *out);
void chart_counters_dump(const struct chart_counters *c, FILE *out);

/* What a stall mark of the timeline is: reclaim_stall.kind, or a
 * reclaim_throttle row (mm_vmscan_throttled, its usec_delayed). */
enum chart_stall_kind {
	CHART_STALL_DIRECT, CHART_STALL_MEMCG, CHART_STALL_SOFTLIMIT, CHART_STALL_NODE,
	CHART_STALL_THROTTLE, CHART_STALL_NKINDS
};

/** chart_stall_kind_name - "direct", "memcg", "memcg_softlimit", "node", "throttle". */
const char *chart_stall_kind_name(int kind);

/** chart_kswapd_state_name - "awake", "napping", "asleep", "unknown", "throttled". */
const char *chart_kswapd_state_name(int state);

/* What a timeline chart draws, one legend entry each: the kswapd states
 * (in enum chart_kswapd_state order), premature-sleep marks, set intervals
 * of the three flag colours, kswapd's hopeless episodes, stall marks (CHART_TL_STALL + enum
 * chart_stall_kind) and the two reclaim-rate lines. */
enum chart_tl_item {
	CHART_TL_AWAKE, CHART_TL_NAPPING, CHART_TL_ASLEEP, CHART_TL_UNKNOWN,
	CHART_TL_THROTTLED, CHART_TL_PREMATURE, CHART_TL_DIRTY, CHART_TL_WRITEBACK, CHART_TL_CONGESTED,
	CHART_TL_HOPELESS,	/* the "kswapd hopeless" band (kswapd_hopeless) */
	CHART_TL_NO_DIRTY,	/* a PGDAT_DIRTY band of a kernel without the flag
				 * (6.19+): its note is CHART_NO_DIRTY_NOTE */
	CHART_TL_STALL,
	CHART_TL_RATE_KSWAPD = CHART_TL_STALL + CHART_STALL_NKINDS, CHART_TL_RATE_OTHERS,
	CHART_TL_NITEMS
};

/* The note of the PGDAT_DIRTY band on a kernel that has no such flag (6.19+,
 * run_quality pgdat_flag_dirty_absent; src/model/model-flags.c). */
#define CHART_NO_DIRTY_NOTE "no such flag on this kernel (6.19+)"

/**
 * chart_flag_item - the colour of a flag band by its label: CHART_TL_DIRTY,
 * _WRITEBACK or _CONGESTED when the label has that word (LRUVEC_CONGESTED
 * is CONGESTED), CHART_TL_HOPELESS for "kswapd hopeless", else -1 (drawn
 * grey, in no legend entry).
 */
int chart_flag_item(const char *label);

/**
 * chart_timeline_drawn - what the chart of @t draws, as bits 1 << enum
 * chart_tl_item: a kswapd state or flag with a span in the window, a
 * premature sleep, a stall kind with a mark, a rate line that is not 0
 * everywhere; 0 for a run of no length (nothing is drawn).  The legend
 * lists exactly these, and --dump-data's "legend" line names them.
 */
unsigned int chart_timeline_drawn(const struct chart_timeline *t);

/** chart_tl_item_name - "awake", ..., "premature", "DIRTY", ...,
 * "stall_direct", ..., "rate_kswapd", "rate_others". */
const char *chart_tl_item_name(int item);

#endif /* VR_CHART_H */
