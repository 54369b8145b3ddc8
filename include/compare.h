/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare.h - build the changelog comparison tables (README.md "Comparison
 * tables"): one latency table in the mmtests compare
 * layout (statistics over the per-run values of each operation, gain
 * against the first kernel, Welch t-test markers on the mean rows) and one
 * counters block (no percentages, as mmtests prints monitors).
 * Reads the database; renders nothing itself (see render.h).
 */
#ifndef VR_COMPARE_H
#define VR_COMPARE_H

#include <stddef.h>
#include "render.h"

struct counter_cache;

struct store;

enum compare_stat_kind {
	COMPARE_MIN,
	COMPARE_AMEAN,		/* Hmean for higher-is-better operations */
	COMPARE_HMEAN,		/* higher-is-better operations only (mmtests) */
	COMPARE_STDDEV,
	COMPARE_COEFFVAR,
	COMPARE_MAX,
	COMPARE_BAMEAN,		/* BAmean-NN */
	COMPARE_PCTILE,		/* Pctile-NN */
};

struct compare_stat {
	enum compare_stat_kind kind;
	double pct;		/* NN of BAmean-NN / Pctile-NN */
	char label[24];		/* as printed, e.g. "BAmean-95" */
	char mm_label[24];	/* as today's mmtests prints it: "BAmean.95" */
};

/* How a mean row marks a difference from the baseline as significant. */
enum compare_significance {
	COMPARE_SIG_WELCH = 0,	/* Welch's t-test, p < alpha (default) */
	COMPARE_SIG_CI,		/* mmtests: intervals mean +/- 1.96 stddev apart */
};

/* How the p-values of one kernel's mean rows are adjusted for their number
 * before they are held against alpha (Welch only). */
enum compare_p_adjust {
	COMPARE_P_BH = 0,	/* Benjamini-Hochberg (stats_bh_adjust()), default */
	COMPARE_P_NONE,		/* each row at alpha on its own */
};

/**
 * compare_significance_parse - "welch" or "ci" into *@out (OUT).
 * Returns 0, or -1 (no message) for another name.
 */
int compare_significance_parse(const char *name, enum compare_significance *out);

/**
 * compare_p_adjust_parse - "bh" or "none" into @out.  Returns 0, or -1
 * (no message) for another name.
 */
int compare_p_adjust_parse(const char *name, enum compare_p_adjust *out);

/**
 * compare_stat_parse - parse one statistic name: Min, Amean, Hmean, Stddev,
 * CoeffVar, Max, BAmean-NN, Pctile-NN (case-insensitive; '.' works as well
 * as '-' before NN, 0 < NN <= 100).  @out: OUT.
 * Returns 0, or -1 (no message) for an unknown name.
 */
int compare_stat_parse(const char *name, struct compare_stat *out);

struct compare_opts {
	char **kernels;		/* kernels to compare, baseline first; NULL: all in load order */
	size_t nkernels;
	char **metrics;		/* operations or metric names to keep; NULL: all;
				 * "counters" keeps the counters block */
	size_t nmetrics;
	const struct compare_stat *stats;	/* NULL: Min Amean Stddev CoeffVar Max BAmean-95 */
	size_t nstats;
	double alpha;		/* significance level of the t-test, e.g. 0.10 */
	enum compare_significance significance;
	enum compare_p_adjust p_adjust;	/* --p-adjust */
	enum render_layout layout;	/* labels and text layout */
	bool print_ratio;	/* --print-ratio: compare-mmtests.pl's ratio view of
				 * the latency table (compare.c add_ratio_rows()) */
	bool ci;		/* --ci: Welch's interval of each mean row's gain, at
				 * level 1 - alpha, and the outlier notes */
	bool ci_bootstrap;	/* --ci-method bootstrap: the interval is
				 * stats_bootstrap_ci()'s, not Welch's */
	const char *align_marker;	/* --align-marker: the windows block read from
				 * each run's first print event containing it
				 * (windows_align()); NULL: from the run's start */
};

/* The built tables; everything inside is owned by the result. */
/* The note under a latency table with a gain against a baseline of 0. */
#define COMPARE_INF_NOTE \
	"inf% / -inf%: the baseline is 0 and this value is not, so the change is no" \
	" percentage (compare-mmtests.pl prints 100.00% / -99.00% there)"

struct compare_result {
	struct render_table tables[2];	/* latency, counters */
	size_t ntables;
	char **notes[2];		/* the tables' notes (units, test, data); owned */
	size_t nnotes[2];
	size_t nkey_notes;		/* notes[0][0..nkey_notes-1]: the unit and the
					 * significance rule, what reading a marked row
					 * needs; the others follow them */
	char **kernels;
	size_t nkernels;
	char ci_label[24];		/* tables[0].ci_label: "90% CI" (--ci) */
	const char *align_marker;	/* compare_opts' (borrowed): the windows
					 * block's alignment */
	struct counter_cache *counter_values;	/* the per-run counter values the
					 * counters block's means are of (counters.h),
					 * kept for What changed; owned, NULL without
					 * that block */
};

/**
 * compare_build - compute the tables for @o from the database @s.
 * @out: OUT: release with compare_result_release().
 * Returns 0, or -1 after a message (unknown kernel, SQL error, nothing to
 * compare).
 */
int compare_build(struct store *s, const struct compare_opts *o, struct compare_result *out);

/**
 * compare_check_metrics - check every name of @o->metrics against the
 * names compare_build() can select: the trace metrics of metrics.h (and
 * their p50-/p95-/p99-/max- operations), the imported operations present
 * anywhere in @s (and the part of each after its first '-'), "counters".
 * Exact, case-sensitive match.
 * Returns 0; VR_ERR_USAGE after "unknown metric 'X'" and the list of known
 * names; -1 after an SQL error message.
 */
int compare_check_metrics(struct store *s, const struct compare_opts *o);

/** compare_result_release - free everything in @r. */
void compare_result_release(struct compare_result *r);

#endif /* VR_COMPARE_H */
