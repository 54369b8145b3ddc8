// SPDX-License-Identifier: GPL-2.0
/*
 * counters.c - the counter definitions (include/counters.h): one name, one
 * unit, one query and one README sentence per counter.  Reclaim kinds are
 * those of reclaim_stall.kind (model-stall.c): direct = between
 * mm_vmscan_direct_reclaim_begin/_end (mm/vmscan.c try_to_free_pages()),
 * memcg = mm_vmscan_memcg_reclaim_begin/_end (try_to_free_mem_cgroup_pages()),
 * memcg_softlimit = mm_vmscan_memcg_softlimit_reclaim_begin/_end
 * (mem_cgroup_shrink_node()), node = mm_vmscan_node_reclaim_begin/_end
 * (__node_reclaim()).
 */
#include "counters.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* kswapd pids of run ?1: kswapd threads are named kswapdN (mm/vmscan.c kswapd_run) */
#define KSWAPD_PIDS "(SELECT pid FROM task WHERE run_id = ?1 AND comm LIKE 'kswapd%')"
/* shrink_inactive calls made inside a reclaim stall of kind @kind of the
 * same pid (the sum lru_shrink_stall, src/store/store-schema.c) */
#define STALL_SHRINK(kind) " FROM lru_shrink_stall s WHERE s.run_id = ?1 AND s.kind = '" kind "'"
/* pages scanned, reclaimed, and reclaimed per scanned (%) */
#define PAGES \
	"SELECT coalesce(sum(s.nr_scanned), 0), coalesce(sum(s.nr_reclaimed), 0)," \
	" 100.0 * sum(s.nr_reclaimed) / nullif(sum(s.nr_scanned), 0)"
#define KSWAPD_SHRINK \
	" FROM lru_shrink_pages s WHERE s.run_id = ?1 AND s.pid IN " KSWAPD_PIDS
#define CYCLES(decision) \
	"SELECT count(*) FROM kswapd_cycle WHERE run_id = ?1 AND decision = '" decision "'"
/* complete stalls: begin and end seen, no events lost between */
#define STALLS(kind) \
	"SELECT count(*) FROM reclaim_stall WHERE run_id = ?1 AND kind = '" kind "'" \
	" AND complete = 1"
#define STALL_MS(kind) \
	"SELECT coalesce(sum(duration_ns), 0) / 1e6 FROM reclaim_stall WHERE run_id = ?1" \
	" AND kind = '" kind "' AND complete = 1"
/*
 * The time kswapd's state is known in run ?1 (ns, with the run as r): the
 * trace length times the kswapd nodes, less each node's time before its
 * first kswapd_wake (a cycle with wake_ns NULL, kswapd named by its comm:
 * from the trace start to that cycle's full sleep, else to its next wake,
 * else to the trace end), as summary's per-node Awake % leaves it out.
 */
#define KSWAPD_SPAN \
	" ((r.last_ts_ns - r.first_ts_ns)" \
	"  * (SELECT count(DISTINCT nid) FROM kswapd_cycle WHERE run_id = ?1)" \
	"  - (SELECT coalesce(sum(CASE WHEN decision = 'full_sleep' AND sleep_ns IS NOT NULL" \
	"   THEN sleep_ns ELSE coalesce(next_wake_ns, r.last_ts_ns) END - r.first_ts_ns), 0)" \
	"   FROM kswapd_cycle WHERE run_id = ?1 AND wake_ns IS NULL))"
/*
 * Awake to full sleep: per node, the cycles that have a wake, in wake order,
 * are grouped by the full sleeps (with a sleep time) before them; a group is
 * awake from its first wake to its full sleep (the trace end if none).
 */
#define AWAKE_TO_FULL_SLEEP \
	"WITH g AS (SELECT nid, wake_ns," \
	"  CASE WHEN decision = 'full_sleep' THEN sleep_ns END AS end_ns," \
	"  coalesce(sum(decision = 'full_sleep' AND sleep_ns IS NOT NULL) OVER (PARTITION BY nid" \
	"   ORDER BY wake_ns ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)" \
	"   AS grp FROM kswapd_cycle WHERE run_id = ?1 AND wake_ns IS NOT NULL)," \
	" p AS (SELECT min(g.wake_ns) AS b, coalesce(max(g.end_ns), r.last_ts_ns) AS e" \
	"  FROM g, run r WHERE r.id = ?1 GROUP BY g.nid, g.grp)" \
	" SELECT 100.0 * coalesce(sum(p.e - p.b), 0) / nullif(" KSWAPD_SPAN ", 0)" \
	" FROM run r LEFT JOIN p ON 1 WHERE r.id = ?1 AND r.last_ts_ns > r.first_ts_ns"

/*
 * mm_vmscan_throttled waits of one reason (kind 'throttled', 5.16+): their
 * number and their time (usec_delayed, µs, summed and shown in ms), of
 * kswapd (@who "IN") or of the other tasks ("NOT IN").  reclaim_throttle()
 * (mm/vmscan.c, 5.16 8cd7c588decf) throttles kswapd and user tasks only;
 * kswapd asks for WRITEBACK only (shrink_node(), when nr_immediate); the
 * other reasons: shrink_inactive_list() ISOLATED, consider_reclaim_throttle()
 * NOPROGRESS (direct reclaim only), shrink_node() CONGESTED (not kswapd).
 */
#define THROTTLE_SQL(reason, who) \
	"SELECT count(*), coalesce(sum(usec_delayed), 0) / 1e3 FROM reclaim_throttle" \
	" WHERE run_id = ?1 AND kind = 'throttled' AND reason = '" reason "'" \
	" AND pid " who " " KSWAPD_PIDS
/* Stalls of cgroup ?2 (a memcg_id as text) in run ?1: count, ms, pages;
 * NULL when no stall of the run has a memcg_id (before 7.1). */
#define MEMCG_SQL \
	"SELECT CASE WHEN e THEN n END, CASE WHEN e THEN ms END, CASE WHEN e THEN pg END FROM" \
	" (SELECT EXISTS (SELECT 1 FROM reclaim_stall WHERE run_id = ?1 AND memcg_id IS NOT" \
	"  NULL) e, count(*) n, coalesce(sum(CASE WHEN complete THEN duration_ns END), 0) / 1e6" \
	"  ms, coalesce(sum(nr_reclaimed), 0) pg FROM reclaim_stall WHERE run_id = ?1" \
	"  AND memcg_id = CAST(?2 AS INTEGER))"

#define THROTTLED(reason, why) \
	{ "Kswapd throttled " reason, "count", THROTTLE_SQL(reason, "IN"), 0, 0, 1, \
	  "mm_vmscan_throttled events of kswapd, reason " reason ": " why, RN_THROTTLED }, \
	{ "Kswapd throttled " reason " time ms", "ms", THROTTLE_SQL(reason, "IN"), 1, 0, 1, \
	  "their usec_delayed summed: time kswapd waited", RN_THROTTLED }, \
	{ "Throttled " reason " outside kswapd", "count", THROTTLE_SQL(reason, "NOT IN"), \
	  0, 0, 1, "the same of any other task (direct, memcg or node reclaim)", RN_THROTTLED }, \
	{ "Throttled " reason " outside kswapd time ms", "ms", \
	  THROTTLE_SQL(reason, "NOT IN"), 1, 0, 1, "their usec_delayed summed", RN_THROTTLED }

/* the count and time rows of an optional stall kind (left out when 0 everywhere) */
#define OPTIONAL_STALLS(name, kind, why) \
	{ name " reclaim stalls complete", "count", STALLS(kind), 0, 0, 1, why, RN_VMSCAN }, \
	{ name " reclaim stall time ms", "ms", STALL_MS(kind), 0, 0, 1, "time in them", RN_VMSCAN }

static const struct counter_def defs[] = {
	{ "Direct reclaim stalls complete", "count", STALLS("direct"), 0, 0, 0,
	  "direct reclaim stalls with begin and end seen and no events lost between", RN_DIRECT },
	{ "Direct reclaim stalls incomplete", "count",
	  "SELECT count(*) FROM reclaim_stall WHERE run_id = ?1 AND kind = 'direct'"
	  " AND complete = 0", 0, 0, 0,
	  "direct reclaim stalls missing their begin or end, or with events lost inside",
	  RN_DIRECT },
	{ "Direct reclaim stall time ms", "ms", STALL_MS("direct"), 0, 0, 0,
	  "time in the complete direct reclaim stalls (as the DirectReclaim metric)", RN_DIRECT },
	OPTIONAL_STALLS("Memcg", "memcg",
			"complete memcg reclaim stalls (a cgroup at its memory.high or memory.max)"),
	OPTIONAL_STALLS("Memcg softlimit", "memcg_softlimit",
			"complete memcg soft limit reclaim stalls (cgroup v1)"),
	OPTIONAL_STALLS("Node", "node", "complete node reclaim stalls (vm.zone_reclaim_mode)"),
	{ "Kswapd wakes", "count",
	  "SELECT coalesce(sum(events), 0) FROM kswapd_wake_node WHERE run_id = ?1", 0, 0, 0,
	  "mm_vmscan_kswapd_wake events (kswapd woken to balance a node)", RN_KSWAPD },
	{ "Kswapd full sleeps", "count", CYCLES("full_sleep"), 0, 0, 0,
	  "kswapd cycles that ended in a full sleep", RN_KSWAPD },
	{ "Kswapd naps woken early", "count", CYCLES("nap_woken_early"), 0, 0, 0,
	  "short naps (HZ/10) cut short by a wakeup", RN_KSWAPD },
	{ "Kswapd naps timed out", "count", CYCLES("nap_timed_out"), 0, 0, 0,
	  "short naps that ran to their end", RN_KSWAPD },
	{ "Kswapd premature sleeps", "count",
	  "SELECT count(*) FROM kswapd_cycle WHERE run_id = ?1 AND premature = 1", 0, 0, 0,
	  "cycles whose sleep was judged premature", RN_KSWAPD },
	{ "Kswapd running %", "%",
	  "SELECT 100.0 * sum(coalesce(c.sleep_ns, c.last_activity_ns) - c.wake_ns)"
	  " / nullif(" KSWAPD_SPAN ", 0)"
	  " FROM kswapd_cycle c, run r WHERE c.run_id = ?1 AND r.id = ?1"
	  " AND c.wake_ns IS NOT NULL AND r.last_ts_ns > r.first_ts_ns", 0, 0, 0,
	  "time from each wake to the full sleep, or to the last activity before a nap (naps not"
	  " counted), over the time kswapd's state is known: the trace length times the kswapd"
	  " nodes, less each node's time before its first kswapd_wake", RN_KSWAPD_TIME },
	{ "Kswapd awake to full sleep %", "%", AWAKE_TO_FULL_SLEEP, 0, 0, 0,
	  "time from the first wake after a full sleep to the next full sleep (naps counted as"
	  " awake; summary's per-node Awake to full sleep column), over the same known time",
	  RN_KSWAPD_TIME },
	{ "Pages scanned by kswapd", "pages", PAGES KSWAPD_SHRINK, 0, 0, 0,
	  "nr_scanned of mm_vmscan_lru_shrink_inactive by a kswapd* task", RN_LRU_PAGES },
	{ "Pages reclaimed by kswapd", "pages", PAGES KSWAPD_SHRINK, 1, 0, 0,
	  "its nr_reclaimed", RN_LRU_PAGES },
	{ "Kswapd reclaim efficiency %", "%", PAGES KSWAPD_SHRINK, 2, 0, 0,
	  "pages reclaimed per page scanned by kswapd", RN_LRU_PAGES },
	{ "Pages scanned in direct reclaim", "pages", PAGES STALL_SHRINK("direct"), 0, 0, 0,
	  "nr_scanned of shrink_inactive inside a direct reclaim stall of the same pid", RN_LRU_PAGES },
	{ "Pages reclaimed in direct reclaim", "pages", PAGES STALL_SHRINK("direct"), 1, 0, 0,
	  "its nr_reclaimed", RN_LRU_PAGES },
	{ "Direct reclaim efficiency %", "%", PAGES STALL_SHRINK("direct"), 2, 0, 0,
	  "pages reclaimed per page scanned in direct reclaim", RN_LRU_PAGES },
	{ "Pages scanned in memcg reclaim", "pages", PAGES STALL_SHRINK("memcg"), 0, 0, 1,
	  "nr_scanned of shrink_inactive inside a memcg reclaim stall of the same pid", RN_LRU_PAGES },
	{ "Pages reclaimed in memcg reclaim", "pages", PAGES STALL_SHRINK("memcg"), 1, 0, 1,
	  "its nr_reclaimed", RN_LRU_PAGES },
	{ "Pages scanned in memcg softlimit reclaim", "pages",
	  PAGES STALL_SHRINK("memcg_softlimit"), 0, 0, 1,
	  "the same inside a memcg soft limit reclaim stall", RN_LRU_PAGES },
	{ "Pages reclaimed in memcg softlimit reclaim", "pages",
	  PAGES STALL_SHRINK("memcg_softlimit"), 1, 0, 1, "its nr_reclaimed", RN_LRU_PAGES },
	{ "Pages scanned in node reclaim", "pages", PAGES STALL_SHRINK("node"), 0, 0, 1,
	  "the same inside a node reclaim stall", RN_LRU_PAGES },
	{ "Pages reclaimed in node reclaim", "pages", PAGES STALL_SHRINK("node"), 1, 0, 1,
	  "its nr_reclaimed", RN_LRU_PAGES },
	/*
	 * mm_vmscan_write_folio (mm/vmscan.c pageout(), 5.19+; writepage
	 * before) is one event per folio: a THP is one event for 512 pages and
	 * the event has no size, so these rows count folios, never pages.
	 */
	{ "Folios written by kswapd", "folios",
	  "SELECT count(*) FROM reclaim_write WHERE run_id = ?1 AND by_kswapd = 1", 0, 0, 0,
	  "writepage / write_folio events of kswapd: one per folio (a THP is one), not pages",
	  RN_WRITE },
	{ "Folios written by reclaim outside kswapd", "folios",
	  "SELECT count(*) FROM reclaim_write WHERE run_id = ?1 AND by_kswapd = 0", 0, 0, 0,
	  "those of any other task: direct, memcg or node reclaim", RN_WRITE },
	/*
	 * Pages, beside the folios: nr_vmscan_write is counted by pageout()
	 * (mm/vmscan.c, 6.1: node_stat_add_folio(folio, NR_VMSCAN_WRITE), the
	 * folio's pages) for each folio written, so its /proc/vmstat delta
	 * between the run's start and end snapshots is the pages of those
	 * writes, a THP 512.
	 */
	{ "Pages written by reclaim (nr_vmscan_write)", "pages",
	  "SELECT end_value - start_value FROM snapshot_counter WHERE run_id = ?1"
	  " AND file = 'vmstat' AND name = 'nr_vmscan_write'", 0, 0, 0,
	  "the /proc/vmstat nr_vmscan_write delta of the run's start and end snapshots: the"
	  " pages of the folios reclaim wrote (a THP counts 512); '-' without snapshots",
	  RN_VMSTAT },
	{ "Anon folios written by reclaim", "folios",
	  "SELECT count(*) FROM reclaim_write WHERE run_id = ?1 AND file = 0", 0, 0, 1,
	  "writes of swap-backed folios (RECLAIM_WB_ANON), by any task", RN_WRITE },
	{ "File folios written by reclaim", "folios",
	  "SELECT CASE WHEN EXISTS (SELECT 1 FROM run_quality WHERE run_id = ?1"
	  " AND item = 'reclaim_file_writes_na') THEN NULL ELSE"
	  " (SELECT count(*) FROM reclaim_write WHERE run_id = ?1 AND file = 1) END", 0, 0, 1,
	  "writes of page cache folios (RECLAIM_WB_FILE), by any task; '-' on 6.16 and later,"
	  " where reclaim writes no file folio (run_quality reclaim_file_writes_na)", RN_WRITE },
	THROTTLED("WRITEBACK", "reclaim met pages under writeback (kswapd with nr_immediate;"
		  " cgroup v1 reclaim too, 6.1+)"),
	THROTTLED("ISOLATED", "too many pages isolated from the LRU (too_many_isolated())"),
	THROTTLED("NOPROGRESS", "direct reclaim reclaimed nothing at priority 1"
		  " (consider_reclaim_throttle())"),
	THROTTLED("CONGESTED", "the lruvec was flagged congested (shrink_node(), not kswapd)"),
	{ "pgdat %s set ms", "ms",
	  "SELECT CASE WHEN ?2 = 'PGDAT_DIRTY' AND EXISTS (SELECT 1 FROM run_quality"
	  " WHERE run_id = ?1 AND item = 'pgdat_flag_dirty_absent' AND count > 0) THEN NULL"
	  " ELSE (SELECT coalesce(sum(coalesce(f.clear_ns, r.last_ts_ns)"
	  " - coalesce(f.set_ns, r.first_ts_ns)), 0) / 1e6"
	  " FROM pgdat_flag f, run r WHERE f.run_id = ?1 AND r.id = ?1 AND f.flag = ?2) END",
	  0, 1, 0,
	  "time each inferred pgdat flag was set, summed over nodes (an open end counts to the"
	  " trace's first or last event); PGDAT_DIRTY '-' on 6.19 and later, which have no such"
	  " flag (run_quality pgdat_flag_dirty_absent)", RN_PGDAT_FLAGS },
	/*
	 * Reclaim per cgroup (per_flag 2: one row per memcg_id of the runs'
	 * stalls): the reclaim begin/end events carry memcg_id from 7.1
	 * (874a0a566ede "mm: vmscan: add cgroup IDs to vmscan tracepoints");
	 * '-' for a run whose stalls have none (an older kernel).  A cgroup id
	 * is the kernel's memcg id of one boot: rows of different machines or
	 * boots with the same id need not be the same cgroup.
	 */
	{ "Reclaim stalls of cgroup %s", "count", MEMCG_SQL, 0, 2, 0,
	  "reclaim_stall rows (every kind) whose memcg_id is this id, 7.1+", RN_DIRECT },
	{ "Reclaim stall time of cgroup %s ms", "ms", MEMCG_SQL, 1, 2, 0,
	  "their durations summed (complete stalls)", RN_DIRECT },
	{ "Pages reclaimed for cgroup %s", "pages", MEMCG_SQL, 2, 2, 0,
	  "their nr_reclaimed summed", RN_DIRECT },
};

const struct counter_def *counter_defs(size_t *n)
{
	*n = VR_ARRAY_SIZE(defs);
	return defs;
}


int counter_missing(struct store *s, struct recorded_cache *known, const struct counter_def *c,
		    int64_t run_id, char *why, size_t len)
{
	int rc = recorded_check_cached(known, s, run_id, c->need, why, len);

	return rc < 0 ? -1 : !rc;
}

int counter_query(struct store *s, struct recorded_cache *known, const struct counter_def *c,
		  int64_t run_id, const char *flag, double v[COUNTER_MAX_COLS])
{
	struct store_stmt *q;
	int rc;

	for (int i = 0; i < COUNTER_MAX_COLS; i++)
		v[i] = NAN;
	rc = counter_missing(s, known, c, run_id, NULL, 0);
	if (rc)
		return rc < 0 ? -1 : 0;	/* not recorded: NAN, printed "-" */
	q = store_stmt_new(s, c->sql, "counters");
	if (!q)
		return -1;
	store_bind_int64(q, 1, run_id);
	if (flag)
		store_bind_text(q, 2, flag);
	rc = store_stmt_row_double(q, v, COUNTER_MAX_COLS);
	store_stmt_free(q);
	return rc < 0 ? -1 : 0;
}

/* One query's row of one run and flag (counter_cached()). */
struct counter_result {
	const char *sql;	/* counter_def.sql: one string per query */
	int64_t run_id;
	char *flag;		/* owned, or NULL */
	double v[COUNTER_MAX_COLS];
};

int counter_cached(struct store *s, struct counter_cache *cache, const struct counter_def *c,
		   int64_t run_id, const char *flag, double *out)
{
	struct counter_result *r;

	for (size_t i = 0; i < cache->n; i++) {
		r = &cache->r[i];
		if (r->sql == c->sql && r->run_id == run_id &&
		    (r->flag && flag ? !strcmp(r->flag, flag) : r->flag == flag)) {
			*out = r->v[c->col];
			return 0;
		}
	}
	cache->r = vr_realloc(cache->r, (cache->n + 1) * sizeof(*cache->r));
	r = &cache->r[cache->n];
	*r = (struct counter_result){ c->sql, run_id, NULL, { 0 } };
	if (counter_query(s, &cache->known, c, run_id, flag, r->v))
		return -1;	/* not kept */
	r->flag = flag ? vr_strdup(flag) : NULL;
	cache->n++;
	*out = r->v[c->col];
	return 0;
}

void counter_cache_release(struct counter_cache *cache)
{
	for (size_t i = 0; i < cache->n; i++)
		free(cache->r[i].flag);
	free(cache->r);
	cache->r = NULL;
	cache->n = 0;
	recorded_cache_release(&cache->known);
}

/* @why once in @notes, as "  -: WHY" lines. */
static void note_once(struct vr_buf *notes, const char *why)
{
	struct vr_buf line;

	vr_buf_init(&line);
	vr_buf_addf(&line, "  -: %s\n", why);
	if (!notes->len || !strstr(notes->buf, line.buf))
		vr_buf_addstr(notes, line.buf);
	vr_buf_release(&line);
}

int counters_print_run(struct store *s, int64_t run_id, FILE *out)
{
	size_t n;
	const struct counter_def *d = counter_defs(&n);
	const char *last_sql = NULL;
	double v[COUNTER_MAX_COLS];
	char why[RECORDED_WHY_MAX];
	struct recorded_cache known = { 0 };	/* most counters share a need */
	struct vr_buf notes;
	int ret = 0;

	vr_buf_init(&notes);
	fprintf(out, "  Counters (as compare prints them)\n");
	for (size_t i = 0; !ret && i < n; i++) {
		double x;
		int missing;

		if (d[i].per_flag)
			continue;
		missing = counter_missing(s, &known, &d[i], run_id, why, sizeof(why));
		if (missing < 0 || (d[i].sql != last_sql && !missing &&
				    counter_query(s, &known, &d[i], run_id, NULL, v))) {
			ret = -1;
			break;
		}
		if (!missing)
			last_sql = d[i].sql;
		x = missing ? NAN : v[d[i].col];
		if (d[i].optional && (x == 0 || isnan(x)))	/* none, or n/a here */
			continue;
		if (missing && d[i].need == RN_VMSTAT)	/* shown where there are snapshots */
			continue;
		if (missing)
			note_once(&notes, why);
		if (isnan(x))
			fprintf(out, "  %-44s %12s\n", d[i].name, "-");
		else if (!strcmp(d[i].unit, "count") || !strcmp(d[i].unit, "pages") ||
			 !strcmp(d[i].unit, "folios"))
			fprintf(out, "  %-44s %12.0f\n", d[i].name, x);
		else
			fprintf(out, "  %-44s %12.2f\n", d[i].name, x);
	}
	if (!ret && notes.len)
		fputs(notes.buf, out);
	vr_buf_release(&notes);
	recorded_cache_release(&known);
	return ret;
}
