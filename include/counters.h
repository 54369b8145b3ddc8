/* SPDX-License-Identifier: GPL-2.0 */
/*
 * counters.h - the one table of counter definitions (src/counters.c):
 * name (which carries the unit), unit, SQL over the raw and derived tables
 * of one run, and the README's sentence.  compare's counters block, the
 * counters chart (through compare) and summary's counters block all read
 * it, so a counter has one name and one value wherever it is printed;
 * README.md "Counters" lists every name (t4020 checks it against
 * `build/cmd-doc counters`).
 */
#ifndef VR_COUNTERS_H
#define VR_COUNTERS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "recorded.h"

struct store;

/* One counter of one run. */
struct counter_def {
	const char *name;	/* printed label; for per_flag a printf format
				 * whose "%s" is the pgdat flag */
	const char *unit;	/* "count", "pages", "ms" or "%" */
	const char *sql;	/* one row for run ?1 (flag ?2 when per_flag);
				 * counters of one query share the string */
	int col;		/* this counter's column of that row (0..2) */
	int per_flag;		/* 1: one counter per pgdat flag of the runs;
				 * 2: one per cgroup id (reclaim_stall.memcg_id)
				 * of the runs, ?2 the id as text */
	int optional;		/* compare leaves the row out when every kernel
				 * has 0 (reclaim kinds a run may not have) */
	const char *doc;	/* what it counts, as README.md says it */
	enum recorded_need need;	/* what the run must have recorded for a
					 * value (recorded.h); else NULL, "-" */
};

enum { COUNTER_MAX_COLS = 3 };

/**
 * counter_defs - the definitions, in table order; *@n gets their number.
 * Static storage, never freed.
 */
const struct counter_def *counter_defs(size_t *n);

/**
 * counter_missing - does run @run_id lack what counter @c needs (c->need,
 * recorded_check())?  1 and @why ("not recorded: ...", "not traced: ...",
 * "not inferred: ...", at most @len bytes), 0 (it has it), or -1 after a
 * message.  @known: the answers already given for these runs, kept
 * (recorded_check_cached()), or NULL.
 */
int counter_missing(struct store *s, struct recorded_cache *known, const struct counter_def *c,
		    int64_t run_id, char *why, size_t len);

/**
 * counter_query - run @c's query for run @run_id (and pgdat flag @flag,
 * NULL unless c->per_flag) and store its columns in @v[0..COUNTER_MAX_COLS-1]
 * (NAN for NULL, for columns the query lacks, and for every column of a run
 * that did not record what @c needs: counter_missing(), with @known).
 * Returns 0 or -1 after an error message (store_stmt_new's).
 */
int counter_query(struct store *s, struct recorded_cache *known, const struct counter_def *c,
		  int64_t run_id, const char *flag, double v[COUNTER_MAX_COLS]);

/*
 * Counter values already read (counter_cached()), per query, run and pgdat
 * flag, with what each run recorded: a query of a run is run once however
 * many counters share it and however often they are asked (compare's
 * counters block, then What changed).  Zero-initialise it; release it with
 * counter_cache_release().  It holds while the database does not change.
 */
struct counter_result;
struct counter_cache {
	struct counter_result *r;	/* owned */
	size_t n;
	struct recorded_cache known;	/* recorded_check()'s answers */
};

/**
 * counter_cached - counter @c of run @run_id (and @flag, NULL unless
 * c->per_flag) into *@out: column c->col of counter_query() (NAN as
 * there), its query run for the first counter of it asked of this run and
 * flag only, then kept in @cache.  Returns 0 or -1 after an error message.
 */
int counter_cached(struct store *s, struct counter_cache *cache, const struct counter_def *c,
		   int64_t run_id, const char *flag, double *out);

/** counter_cache_release - free what @cache holds; empty after. */
void counter_cache_release(struct counter_cache *cache);

/**
 * counters_print_run - summary's counters block: every counter of run
 * @run_id that is not per_flag (those are summary's flag table), as
 * "  NAME  VALUE" lines on @out, a count or pages as an integer, ms and %
 * with 2 decimals as compare prints them; an optional one that is 0 is
 * left out, a NULL value (an efficiency without pages scanned) is "-"; a
 * counter the run did not record (counter_missing()) is "-" and a line
 * under the block gives each distinct reason ("-: not traced: ..."), but
 * one of the counter snapshots (RN_VMSTAT) is left out of a run without
 * them.
 * Returns 0 or -1.
 */
int counters_print_run(struct store *s, int64_t run_id, FILE *out);

#endif /* VR_COUNTERS_H */
