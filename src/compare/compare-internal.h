/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare-internal.h - shared between src/compare/compare.c and
 * src/compare/compare-counters.c only; not a public API.
 */
#ifndef VR_COMPARE_INTERNAL_H
#define VR_COMPARE_INTERNAL_H

#include <stdint.h>
#include "compare.h"
#include "metrics.h"

/* One kernel of the comparison and its runs. */
struct compare_kernel {
	const char *name;	/* borrowed from compare_result.kernels */
	int64_t *runs;		/* every run id of the kernel, by iteration; owned */
	size_t nruns;
	int64_t *trace_runs;	/* the runs loaded from a trace (not only imported
				 * latencies); owned */
	size_t ntrace;
};

/* A growable array of values. */
struct compare_values {
	double *v;	/* owned */
	size_t n;
	double *run_v;	/* owned: of an imported operation, one value per run
			 * with values (the mean of the run's samples), what
			 * Welch's test compares; NULL for a trace metric,
			 * whose v already holds one value per run */
	size_t nrun_v;
	size_t nruns;	/* runs of the kernel the values come from */
	enum metric_data data;	/* of a trace metric: its presence (below);
				 * imported: VALUES or NOT_RECORDED */
	struct metric_presence presence;	/* a trace metric's runs (metric.h); of an
						 * imported operation: with_samples the runs
						 * with values, zero those whose values are
						 * all 0 (left out: not recorded, unless the
						 * metric's zeros are declared real),
						 * not_recorded those without any */
};

/**
 * compare_latency_table - fill @t (rows owned by @t, released by
 * compare_result_release()) with the statistics rows of the selected
 * operations, statistic-major as mmtests prints them; the rows of an
 * operation some kernel's runs do not all have values of carry a note
 * (render_row.note, owned by the row) saying what they have, per kernel
 * (enum metric_data; an imported run whose values are all 0 counts as not
 * recorded unless metric_op.zeros_real).  Returns 0 or -1.
 */
int compare_latency_table(struct store *s, const struct compare_opts *o,
			  const struct compare_kernel *k, size_t nk, struct render_table *t);

/**
 * compare_counters_table - fill @t with the counters block (means over
 * each kernel's trace runs); t->nrows is 0 when no kernel has a trace run.
 * @cache: the per-run values read, kept there (counters.h).
 * Returns 0 or -1.
 */
int compare_counters_table(struct store *s, struct counter_cache *cache,
			   const struct compare_kernel *k, size_t nk, struct render_table *t);

/**
 * compare_counters_mglru_note - the counters block's note on multi-gen LRU
 * (recorded_mglru()): which kernels had it on in how many of their trace
 * runs and how that is known, and which counters mean something else under
 * it; malloc'ed, or *@note NULL when no run had it on.  Returns 0 or -1.
 */
int compare_counters_mglru_note(struct store *s, const struct compare_kernel *k, size_t nk,
				char **note);

#endif /* VR_COMPARE_INTERNAL_H */
