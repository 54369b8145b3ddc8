// SPDX-License-Identifier: GPL-2.0
/*
 * recorded.c - what a run recorded, per need of a metric (recorded.h has
 * the rules and where they come from).  Read from run, run_event_count,
 * run_snapshot, snapshot_counter and run_quality, so that it answers alike
 * for a loaded database and an evidence database (no raw event rows).
 */
#include "recorded.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the need rules read of one run. */
struct run_facts {
	bool counted;		/* run_event_count has rows for the run */
	bool formats;		/* trace.dat / perf.data: a row is a format */
	bool vmscan;		/* a vmscan row */
	bool no_trace;		/* a run of imported latencies alone */
	int64_t isolate, shrink;	/* events of lru_isolate, lru_shrink_inactive
					 * (-1: no row) */
	int64_t wakes, directs;		/* kswapd_wake, direct_reclaim_begin (>= 0) */
	int64_t reclaim;		/* wakes + directs */
	int release;			/* run.kernel_release major * 1000 + minor; 0 */
};

/* One int64 of @sql (?1 the run, ?2 @text when not NULL); -1 on error. */
static int one_int(struct store *s, const char *sql, int64_t run_id, const char *text,
		   int64_t *out)
{
	struct store_stmt *q = store_stmt_new(s, sql, "what the run recorded");
	int rc;

	*out = 0;
	if (!q)
		return -1;
	store_bind_int64(q, 1, run_id);
	if (text)
		store_bind_text(q, 2, text);
	rc = store_stmt_row_int64(q, out, 1);
	store_stmt_free(q);
	return rc < 0 ? -1 : 0;
}

/* The count of event @name in the run: -1 when it has no row (not in the
 * recording), else the count; *@err on an SQLite error. */
static int64_t event_count(struct store *s, int64_t run_id, const char *name, int *err)
{
	int64_t n = 0, rows = 0;

	*err |= one_int(s, "SELECT count(*) FROM run_event_count WHERE run_id = ?1 AND name = ?2",
			run_id, name, &rows);
	*err |= one_int(s, "SELECT coalesce(sum(count), 0) FROM run_event_count WHERE"
			" run_id = ?1 AND name = ?2", run_id, name, &n);
	return rows ? n : -1;
}

static int facts_of(struct store *s, int64_t run_id, struct run_facts *f)
{
	int64_t v = 0;
	int err = 0;

	memset(f, 0, sizeof(*f));
	err |= one_int(s, "SELECT count(*) FROM run_event_count WHERE run_id = ?1", run_id, NULL,
		       &v);
	f->counted = v > 0;
	err |= one_int(s, "SELECT count(*) FROM run_event_count WHERE run_id = ?1 AND"
		       " system = 'vmscan'", run_id, NULL, &v);
	f->vmscan = v > 0;
	err |= one_int(s, "SELECT count(*) FROM run WHERE id = ?1 AND source_format IN"
		       " ('trace.dat', 'perf.data')", run_id, NULL, &v);
	f->formats = v > 0;
	err |= one_int(s, "SELECT count(*) FROM run WHERE id = ?1 AND source_format = 'latency'",
		       run_id, NULL, &v);
	f->no_trace = v > 0;
	err |= one_int(s, "SELECT coalesce(CAST(kernel_release AS INTEGER) * 1000 + CAST(substr("
		       "kernel_release, instr(kernel_release, '.') + 1) AS INTEGER), 0) FROM run"
		       " WHERE id = ?1 AND kernel_release GLOB '[0-9]*.[0-9]*'", run_id, NULL, &v);
	f->release = (int)v;
	f->isolate = event_count(s, run_id, "mm_vmscan_lru_isolate", &err);
	f->shrink = event_count(s, run_id, "mm_vmscan_lru_shrink_inactive", &err);
	f->wakes = event_count(s, run_id, "mm_vmscan_kswapd_wake", &err);
	f->directs = event_count(s, run_id, "mm_vmscan_direct_reclaim_begin", &err);
	f->wakes = f->wakes > 0 ? f->wakes : 0;
	f->directs = f->directs > 0 ? f->directs : 0;
	f->reclaim = f->wakes + f->directs;
	return err ? -1 : 0;
}

/* Is event @name in the recording (recorded.h: a format in a trace.dat or
 * perf.data; any vmscan event in a text)? */
static int event_recorded(struct store *s, int64_t run_id, const struct run_facts *f,
			  const char *name, int *err)
{
	if (!f->counted)
		return 1;
	if (!f->formats)
		return f->vmscan;
	return event_count(s, run_id, name, err) >= 0;
}

/* Run snapshot's lru_gen-enabled at the start: 1 and @value, 0 none. */
static int lru_gen_snapshot(struct store *s, int64_t run_id, char *value, size_t len)
{
	struct store_stmt *q;
	int have = store_has_table(s, "run_snapshot"), rc;

	if (have <= 0)
		return have;
	q = store_stmt_new(s, "SELECT trim(content, ' \t\r\n') FROM run_snapshot WHERE"
			   " run_id = ?1 AND file = 'lru_gen-enabled' ORDER BY moment = 'end'"
			   " LIMIT 1", "the run's lru_gen snapshot");
	if (!q)
		return -1;
	store_bind_int64(q, 1, run_id);
	rc = store_step(q);
	if (rc > 0)
		snprintf(value, len, "%s", store_col_text(q, 0) ? store_col_text(q, 0) : "");
	store_stmt_free(q);
	return rc;
}

/* 6.7+'s scan_folios() traces lru_isolate with nr_requested MAX_LRU_BATCH
 * (4096); the model says so in run_quality pgdat_flag_not_inferred
 * (model-flags.c), which an evidence database keeps with no raw rows. */
static int isolate_4096(struct store *s, int64_t run_id, int64_t *n)
{
	int have = store_has_table(s, "mm_vmscan_lru_isolate");

	*n = 0;
	if (have < 0)
		return -1;
	if (have && store_has_column(s, "mm_vmscan_lru_isolate", "nr_requested") > 0 &&
	    one_int(s, "SELECT count(*) FROM mm_vmscan_lru_isolate WHERE run_id = ?1 AND"
		    " nr_requested = 4096", run_id, NULL, n))
		return -1;
	if (*n)
		return 0;
	return one_int(s, "SELECT count(*) FROM run_quality WHERE run_id = ?1 AND item ="
		       " 'pgdat_flag_not_inferred' AND detail LIKE ?2", run_id,
		       "multi-gen LRU reclaim (lru_isolate nr_requested=4096)%", n);
}

int recorded_mglru(struct store *s, int64_t run_id, enum recorded_mglru *state, char *how,
		   size_t len)
{
	char value[64] = "", dummy[1];
	struct run_facts f;
	int64_t n4096;
	int rc = lru_gen_snapshot(s, run_id, value, sizeof(value));

	if (!how) {
		how = dummy;
		len = sizeof(dummy);
	}
	*state = RM_UNKNOWN;
	if (rc < 0)
		return -1;
	if (rc > 0 && value[0]) {
		unsigned long bits = strtoul(value, NULL, 0);

		*state = bits & 1 ? RM_ON : RM_OFF;
		snprintf(how, len, "lru_gen/enabled %s, the recorder's snapshot", value);
		return 0;
	}
	if (isolate_4096(s, run_id, &n4096) || facts_of(s, run_id, &f))
		return -1;
	if (f.release && f.release < 6001) {
		*state = RM_OFF;
		snprintf(how, len, "release %d.%d, before multi-gen LRU (6.1)", f.release / 1000,
			 f.release % 1000);
	} else if (n4096) {
		*state = RM_ON;
		snprintf(how, len, "inferred from %lld lru_isolate with nr_requested 4096, the"
			 " MAX_LRU_BATCH of scan_folios() (6.7+)", (long long)n4096);
	} else if (f.isolate > 0 || f.shrink > 0) {
		*state = RM_OFF;
		snprintf(how, len, "inferred from LRU events, none with nr_requested 4096");
	} else if (f.reclaim > 0 && (f.isolate == 0 || f.shrink == 0 || !f.formats)) {
		*state = RM_ON;
		snprintf(how, len, "inferred from %lld kswapd wakes and %lld direct reclaims"
			 " without a single LRU event, as 6.1-6.6's multi-gen LRU reclaims",
			 (long long)f.wakes, (long long)f.directs);
	} else {
		snprintf(how, len, "no lru_gen snapshot, and no reclaim or no LRU event recorded to"
			 " tell");
	}
	return 0;
}

/*
 * The LRU events' rule: recorded, and emitted on this kernel.  @name is the
 * event the need reads.  A run with reclaim but no LRU event at all is
 * multi-gen LRU before 6.7 (not traced) unless its snapshot says the LRU
 * was the classic one, or its release has only one way (before 6.1: no
 * multi-gen LRU; 6.7+: both trace): then a trace.dat recorded 0 of them
 * and a text left them out.
 */
static int lru_need(struct store *s, int64_t run_id, const struct run_facts *f,
		    const char *name, char *why, size_t len)
{
	enum recorded_mglru mg;
	char how[256];
	int err = 0, rec = event_recorded(s, run_id, f, name, &err);
	bool one_way = f->release && (f->release < 6001 || f->release >= 6007);

	if (err)
		return -1;
	if (!rec) {
		snprintf(why, len, "not recorded: the run has no format of %s (the event was not"
			 " enabled)", name);
		return 0;
	}
	if (!f->counted || f->isolate > 0 || f->shrink > 0 || f->reclaim == 0)
		return 1;
	if (recorded_mglru(s, run_id, &mg, how, sizeof(how)))
		return -1;
	if (mg == RM_OFF || one_way) {
		if (f->formats)
			return 1;	/* recorded, none fired: 0 */
		snprintf(why, len, "not recorded: the text shows no lru_isolate or"
			 " lru_shrink_inactive beside %lld kswapd wakes and %lld direct reclaims"
			 " (multi-gen LRU %s: reclaim there emits them)", (long long)f->wakes,
			 (long long)f->directs, mg == RM_OFF ? "off" : "cannot explain it");
		return 0;
	}
	snprintf(why, len, "not traced%s: multi-gen LRU before 6.7 reclaims without LRU events"
		 " (no lru_isolate or lru_shrink_inactive beside %lld kswapd wakes and %lld"
		 " direct reclaims%s); multi-gen LRU on: %s",
		 f->formats || strncmp(how, "inferred", 8) ? "" : " or not recorded",
		 (long long)f->wakes, (long long)f->directs,
		 f->formats || strncmp(how, "inferred", 8) ? "" : ", or the text left them out",
		 how);
	return 0;
}

/* RN_PGDAT_FLAGS: the model's own word when it did not infer them. */
static int flags_need(struct store *s, int64_t run_id, char *why, size_t len)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT detail FROM run_quality WHERE"
					      " run_id = ?1 AND item = 'pgdat_flag_not_inferred'",
					      "pgdat flags inferred?");
	int rc;

	if (!q)
		return -1;
	store_bind_int64(q, 1, run_id);
	rc = store_step(q);
	if (rc > 0)
		snprintf(why, len, "not inferred: %s",
			 store_col_text(q, 0) ? store_col_text(q, 0) : "(no reason given)");
	store_stmt_free(q);
	return rc < 0 ? -1 : rc == 0;
}

/* RN_KSWAPD_TIME after RN_KSWAPD: no elision gap in the text. */
static int gaps_need(struct store *s, int64_t run_id, char *why, size_t len)
{
	int64_t n = 0;

	if (one_int(s, "SELECT coalesce(sum(count), 0) FROM run_quality WHERE run_id = ?1 AND"
		    " item = 'text_excerpt_gaps'", run_id, NULL, &n))
		return -1;
	if (n)
		snprintf(why, len, "not known: the trace is an excerpt with %lld gap%s (elision"
			 " marker lines); kswapd's state across a gap is unknown", (long long)n,
			 n == 1 ? "" : "s");
	return n == 0;
}

static int vmstat_need(struct store *s, int64_t run_id, char *why, size_t len)
{
	int64_t n = 0;
	int have = store_has_table(s, "snapshot_counter");

	if (have < 0)
		return -1;
	if (have && one_int(s, "SELECT count(*) FROM snapshot_counter WHERE run_id = ?1 AND"
			    " file = 'vmstat' AND start_value IS NOT NULL AND end_value IS NOT"
			    " NULL", run_id, NULL, &n))
		return -1;
	if (!n)
		snprintf(why, len, "not recorded: no /proc/vmstat snapshots at the start and the end"
			 " of this run (vmscan-report record saves them in TRACE.snap/)");
	return n > 0;
}

/* One event's need. */
static int event_need(struct store *s, int64_t run_id, const struct run_facts *f,
		      const char *const *names, char *why, size_t len)
{
	int err = 0, any = 0;

	for (size_t i = 0; names[i]; i++)
		any |= event_recorded(s, run_id, f, names[i], &err);
	if (err)
		return -1;
	if (!any)
		snprintf(why, len, "not recorded: the run has no format of %s%s (the event was"
			 " not enabled, or the kernel has none)", names[0],
			 names[1] ? " nor its older names" : "");
	return any;
}

int recorded_check(struct store *s, int64_t run_id, enum recorded_need need, char *why,
		   size_t len)
{
	static const char *const kswapd[] = { "mm_vmscan_kswapd_wake", NULL };
	static const char *const direct[] = { "mm_vmscan_direct_reclaim_begin", NULL };
	static const char *const write[] = { "mm_vmscan_write_folio", "mm_vmscan_writepage",
					     NULL };
	static const char *const throttled[] = { "mm_vmscan_throttled", NULL };
	char dummy[RECORDED_WHY_MAX];
	struct run_facts f;
	int rc;

	if (!why) {
		why = dummy;
		len = sizeof(dummy);
	}
	if (len)
		why[0] = '\0';
	if (facts_of(s, run_id, &f))
		return -1;
	if (f.no_trace) {
		snprintf(why, len, "not recorded: no trace in this run (its latencies were imported"
			 " alone)");
		return 0;
	}
	if (f.counted && !f.vmscan) {
		snprintf(why, len, "not recorded: no vmscan tracepoint in this run (loaded with"
			 " --empty-run)");
		return 0;
	}
	switch (need) {
	case RN_VMSCAN:
		return 1;
	case RN_KSWAPD:
		return event_need(s, run_id, &f, kswapd, why, len);
	case RN_KSWAPD_TIME:
		rc = event_need(s, run_id, &f, kswapd, why, len);
		return rc == 1 ? gaps_need(s, run_id, why, len) : rc;
	case RN_DIRECT:
		return event_need(s, run_id, &f, direct, why, len);
	case RN_WRITE:
		return event_need(s, run_id, &f, write, why, len);
	case RN_THROTTLED:
		return event_need(s, run_id, &f, throttled, why, len);
	case RN_LRU_PAGES:
		return lru_need(s, run_id, &f, "mm_vmscan_lru_shrink_inactive", why, len);
	case RN_LRU_ISOLATE:
		return lru_need(s, run_id, &f, "mm_vmscan_lru_isolate", why, len);
	case RN_PGDAT_FLAGS:
		/* the model's own reason first: it says what the kernel did */
		rc = flags_need(s, run_id, why, len);
		if (rc == 1)
			rc = lru_need(s, run_id, &f, "mm_vmscan_lru_shrink_inactive", why, len);
		/* a flag set before a gap may have been cleared and set again in it */
		return rc == 1 ? gaps_need(s, run_id, why, len) : rc;
	case RN_VMSTAT:
		return vmstat_need(s, run_id, why, len);
	case RN_COUNT:
		break;
	}
	return 1;
}

/* One answer of recorded_check(): its return value and its @why. */
struct recorded_answer {
	int64_t run_id;
	enum recorded_need need;
	int rc;
	char why[RECORDED_WHY_MAX];
};

int recorded_check_cached(struct recorded_cache *cache, struct store *s, int64_t run_id,
			  enum recorded_need need, char *why, size_t len)
{
	struct recorded_answer *a;

	if (!cache)
		return recorded_check(s, run_id, need, why, len);
	for (size_t i = 0; i < cache->n; i++) {
		a = &cache->a[i];
		if (a->run_id == run_id && a->need == need) {
			if (why && len)
				snprintf(why, len, "%s", a->why);
			return a->rc;
		}
	}
	cache->a = vr_realloc(cache->a, (cache->n + 1) * sizeof(*cache->a));
	a = &cache->a[cache->n];
	*a = (struct recorded_answer){ .run_id = run_id, .need = need };
	a->rc = recorded_check(s, run_id, need, a->why, sizeof(a->why));
	if (a->rc < 0)
		return -1;	/* not kept: asked again next time */
	cache->n++;
	if (why && len)
		snprintf(why, len, "%s", a->why);
	return a->rc;
}

void recorded_cache_release(struct recorded_cache *cache)
{
	free(cache->a);
	cache->a = NULL;
	cache->n = 0;
}

int recorded_apply(struct store *s, int64_t run_id)
{
	struct store_stmt *q;
	int rc = recorded_check(s, run_id, RN_LRU_PAGES, NULL, 0);

	if (rc != 0)
		return rc < 0 ? -1 : 0;
	q = store_stmt_new(s, "UPDATE kswapd_cycle SET nr_scanned = NULL, nr_reclaimed = NULL"
			   " WHERE run_id = ?1", "kswapd_cycle pages not traced");
	if (!q)
		return -1;
	store_bind_int64(q, 1, run_id);
	rc = store_step(q);
	store_stmt_free(q);
	return rc < 0 ? -1 : 0;
}
