// SPDX-License-Identifier: GPL-2.0
/*
 * timeline.c - the reconstructed per-node history of one run as text, one
 * line per state change, from the derived tables; see include/timeline.h.
 */
#include "timeline.h"
#include "store.h"
#include "runs.h"
#include "store-query.h"
#include "vr.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * ?1 run, ?2 from_ns (absolute), ?3 to_ns, ?4 node or NULL, ?5 min stall ns,
 * ?6 the run's first event (times are printed from it).  Column hide: 0 a
 * line to print, 1 a stall shorter than ?5, 2 a stall of unknown duration
 * (neither printed, both counted: struct timeline_hidden);
 * @COMM: the stall's comm, @PROOF: pgdat_flag's proof column (timeline_query()),
 * @SETB, @CLRB: where the kernel's set and clear lie when the trace does not
 * place them exactly (pgdat_flag's *_earliest_ns, *_latest_ns), @NIDS: the
 * stall's nodes, @MARGIN: kswapd_cycle.nap_margin_ns (stall_sql()).  A stall
 * is on the nodes it reclaimed from (its node column: ?4 when among them,
 * else the first), node reclaim on its node, one with neither on every node
 * ("-").  kswapd's WRITEBACK throttles (awake, blocked in reclaim_throttle()
 * inside balance_pgdat()) have a line of their own at their begin.
 * A PGDAT_DIRTY interval from the counters says it is an estimate
 * (nr_unqueued_dirty is not traced, src/model/model-flags.c); one ended or moved
 * by a proof says so.
 */
static const char timeline_sql[] =
	"WITH c AS (SELECT *, coalesce(nap_ns, last_activity_ns, wake_ns) AS e,"
	"  CASE WHEN decision_exact THEN ' [exact]' WHEN @MARGIN IS NOT NULL THEN"
	"  printf(' [uncertain: %.3f ms before the timeout, within a jiffy]', @MARGIN / 1e6)"
	"  ELSE '' END AS x"
	"  FROM kswapd_cycle WHERE run_id = ?1)"
	" SELECT ts, nid, what, hide FROM ("
	" SELECT wake_ns AS ts, nid, printf('kswapd%d wake order=%s zid=%s', nid,"
	"  coalesce(\"order\", '?'), coalesce(highest_zoneidx, '?')) AS what, 1 AS k, 0 AS hide"
	"  FROM c WHERE wake_ns IS NOT NULL"
	" UNION ALL SELECT e, nid, CASE decision"
	"  WHEN 'nap_woken_early' THEN printf('kswapd nap, woken early after %.3f ms"
	" (LOW_WMARK_HIT_QUICKLY)%s', (next_wake_ns - e) / 1e6, x)"
	"  WHEN 'nap_timed_out' THEN printf('kswapd nap, timed out after %.3f ms, node"
	" unbalanced (HIGH_WMARK_HIT_QUICKLY)%s', (next_wake_ns - e) / 1e6, x)"
	"  WHEN 'no_nap' THEN printf('kswapd no nap: node unbalanced at the first check"
	" (HIGH_WMARK_HIT_QUICKLY)%s', x)"
	"  WHEN 'full_sleep' THEN printf('kswapd nap, node balanced%s', x)"
	"  ELSE 'kswapd sleep decision unknown' END, 2, 0"
	"  FROM c WHERE e IS NOT NULL AND (decision != 'full_sleep' OR sleep_ns - e >= 1000000)"
	"  AND (decision != 'unknown' OR next_wake_ns IS NOT NULL)"
	" UNION ALL SELECT sleep_ns, nid, printf('kswapd full sleep%s',"
	"  CASE WHEN premature THEN ', PREMATURE: wakeup request soon after' ELSE '' END), 3, 0"
	"  FROM c WHERE sleep_ns IS NOT NULL"
	" UNION ALL SELECT set_ns, nid, printf('%s set (%s, rule %s)%s', flag, evidence, rule,"
	"  CASE WHEN flag = 'PGDAT_DIRTY' AND evidence NOT LIKE 'witness:%' THEN"
	"  ' [estimate: nr_unqueued_dirty is not traced]'"
	"  WHEN coalesce(@PROOF, '') LIKE 'extended%' AND evidence NOT LIKE 'proof:%' THEN"
	"  ' [moved back to cover a proof]' ELSE '' END || @SETB), 4, 0"
	"  FROM pgdat_flag WHERE run_id = ?1 AND set_ns IS NOT NULL"
	" UNION ALL SELECT clear_ns, nid, printf('%s cleared (%s)', flag,"
	"  CASE WHEN coalesce(@PROOF, '') LIKE '%cut' THEN 'cut: a kswapd call proves it"
	" clear from here' ELSE 'kswapd found the node balanced' END) || @CLRB, 5, 0"
	"  FROM pgdat_flag WHERE run_id = ?1 AND clear_ns IS NOT NULL"
	" UNION ALL SELECT begin_ns, CASE WHEN nid IS NOT NULL OR @NIDS IS NULL THEN nid"
	"  WHEN ?4 IS NOT NULL AND instr(',' || @NIDS || ',', ',' || ?4 || ',') THEN ?4"
	"  ELSE CAST(substr(@NIDS, 1, instr(@NIDS || ',', ',') - 1) AS INTEGER) END,"
	"  printf('%s reclaim stall %.3f ms: %s-%d order=%s, %s %s%s', kind, duration_ns / 1e6,"
	"  coalesce(@COMM, '<...>'),"
	"  pid, coalesce(\"order\", '?'),"
	"  CASE WHEN nid IS NULL AND @NIDS IS NOT NULL THEN 'nodes ' || @NIDS || ', kswapd'"
	"   || substr(@NIDS, 1, instr(@NIDS || ',', ',') - 1) ELSE 'kswapd' END,"
	"  coalesce(kswapd_state, 'unknown'),"
	"  CASE WHEN complete THEN '' ELSE ' (incomplete: ' || incomplete_reason || ')' END), 6,"
	"  CASE WHEN duration_ns >= ?5 THEN 0 WHEN duration_ns IS NULL THEN 2 ELSE 1 END"
	"  FROM reclaim_stall s WHERE run_id = ?1"
	" UNION ALL SELECT begin_ns, nid, printf('kswapd%d throttled WRITEBACK %.3f ms: awake,"
	" waiting in reclaim_throttle()', nid, usec_delayed / 1e3), 2, 0"
	"  FROM reclaim_throttle t WHERE run_id = ?1 AND kind = 'throttled'"
	"  AND reason = 'WRITEBACK' AND begin_ns IS NOT NULL AND pid IN (SELECT pid FROM"
	"  kswapd_cycle WHERE run_id = ?1 AND nid = t.nid AND pid IS NOT NULL)"
	" @HOPELESS"
	" ) WHERE ts BETWEEN ?2 AND ?3 AND (?4 IS NULL OR nid IS NULL OR nid = ?4)"
	" ORDER BY ts, k";

/* The first event's timestamp of run @run (0 if unknown). */
static int run_first_ts(struct store *s, int64_t run, int64_t *first)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT coalesce(first_ts_ns, 0) FROM run"
					      " WHERE id = ?1", "timeline run");
	int rc;

	store_bind_int64(q, 1, run);
	rc = store_stmt_row_int64(q, first, 1);
	store_stmt_free(q);
	if (rc < 0)
		return -1;
	if (!rc)
		return runs_no_run(s, (long long)run);
	return 0;
}

/* Does run @run have node @nid (a kswapd of it woke, slept or was woken)?
 * If not: an error listing the nodes it has. */
static int check_node(struct store *s, int64_t run, int nid)
{
	struct store_stmt *q = store_stmt_new(s,
		"SELECT group_concat(nid, ', '), sum(nid = ?2) FROM (SELECT DISTINCT nid FROM"
		" (SELECT nid FROM kswapd_cycle WHERE run_id = ?1 UNION"
		"  SELECT nid FROM kswapd_wakeup WHERE run_id = ?1) ORDER BY nid)",
		"timeline nodes");
	int rc, ret = 0;

	store_bind_int64(q, 1, run);
	store_bind_int(q, 2, nid);
	rc = store_step(q);
	if (rc < 0)
		ret = -1;
	else if (rc > 0 && store_col_int(q, 1) == 0)
		ret = vr_error("%s: run %lld has no node %d (its nodes: %s)", store_path(s),
			       (long long)run, nid,
			       store_col_is_null(q, 0) ? "none seen" : store_col_text(q, 0));
	store_stmt_free(q);
	return ret;
}

/* Where the lines go, the run's first timestamp (time 0), the stalls not printed. */
struct timeline_out {
	FILE *out;
	int64_t first_ns;
	struct timeline_hidden hidden;
};

static int print_line(struct store_stmt *q, void *arg)
{
	struct timeline_out *t = arg;
	double s = (store_col_int64(q, 0) - t->first_ns) / 1e9;

	switch (store_col_int(q, 3)) {
	case 1: t->hidden.shorter++; return 0;
	case 2: t->hidden.unknown++; return 0;
	}

	if (store_col_is_null(q, 1))
		fprintf(t->out, "%14.6f  %-4s  %s\n", s, "-", store_col_text(q, 2));
	else
		fprintf(t->out, "%14.6f  %-4d  %s\n", s, store_col_int(q, 1), store_col_text(q, 2));
	return 0;
}

/*
 * timeline_sql with the stall's comm: the comm of its own time (column
 * reclaim_stall.comm), or in a database made before rows had it, the pid's
 * first comm by name.  NULL after a message.
 */
/* @sql with every @name replaced by @value, appended to @b. */
static void replace_all(struct vr_buf *b, const char *sql, const char *name, const char *value)
{
	const char *at;

	while ((at = strstr(sql, name))) {
		vr_buf_add(b, sql, (size_t)(at - sql));
		vr_buf_addstr(b, value);
		sql = at + strlen(name);
	}
	vr_buf_addstr(b, sql);
}

/*
 * timeline_sql for this database (malloc'ed; NULL on error): @COMM is the
 * stall's own comm where reclaim_stall has it, else the pid's; @PROOF is
 * pgdat_flag.proof, @NIDS reclaim_stall.nids, @MARGIN
 * kswapd_cycle.nap_margin_ns, NULL in a database made before that column.
 */
/* The bounds of a set or clear point, when not exact: " [set between A and B s]". */
static const char set_bounds_sql[] =
	" CASE WHEN set_earliest_ns IS NOT NULL AND set_latest_ns IS NOT NULL"
	" AND set_earliest_ns < set_latest_ns THEN printf(' [set between %.6f and %.6f s]',"
	" (set_earliest_ns - ?6) / 1e9, (set_latest_ns - ?6) / 1e9) ELSE '' END";
static const char clear_bounds_sql[] =
	" CASE WHEN clear_earliest_ns IS NULL THEN ''"
	" WHEN clear_latest_ns IS NULL THEN printf(' [cleared after %.6f s]',"
	" (clear_earliest_ns - ?6) / 1e9)"
	" WHEN clear_earliest_ns < clear_latest_ns THEN printf(' [cleared between %.6f and"
	" %.6f s]', (clear_earliest_ns - ?6) / 1e9, (clear_latest_ns - ?6) / 1e9) ELSE '' END";

/* kswapd's hopeless episodes (kswapd_hopeless, 7.0+): a line at the start
 * and one at the reset; "" in a database made before the table. */
static const char hopeless_sql[] =
	" UNION ALL SELECT start_ns, nid, printf('kswapd%d hopeless: %d runs of balance_pgdat()"
	" reclaimed nothing (MAX_RECLAIM_RETRIES); the node is left to direct reclaim', nid, 16),"
	" 3, 0 FROM kswapd_hopeless WHERE run_id = ?1 AND start_ns IS NOT NULL"
	" UNION ALL SELECT end_ns, nid, printf('kswapd%d no longer hopeless after %d failures:"
	" reset by %s%s', nid, failures, coalesce(reset_reason_name, 'reason '"
	" || reset_reason, '?'), CASE WHEN reset_pid IS NULL THEN '' ELSE printf(' (%s-%d)',"
	" coalesce(reset_comm, '<...>'), reset_pid) END), 3, 0"
	" FROM kswapd_hopeless WHERE run_id = ?1 AND end_ns IS NOT NULL";

static char *stall_sql(struct store *s)
{
	int have = store_has_column(s, "reclaim_stall", "comm");
	int proof = store_has_column(s, "pgdat_flag", "proof");
	int bounds = store_has_column(s, "pgdat_flag", "set_earliest_ns");
	int nids = store_has_column(s, "reclaim_stall", "nids");
	int margin = store_has_column(s, "kswapd_cycle", "nap_margin_ns");
	int hopeless = store_has_table(s, "kswapd_hopeless");
	const char *names[] = { "@COMM", "@PROOF", "@SETB", "@CLRB", "@NIDS", "@MARGIN",
				"@HOPELESS" };
	const char *values[] = {
		have ? "s.comm" : "(SELECT min(comm) FROM task t WHERE t.run_id = ?1"
				  " AND t.pid = s.pid)",
		proof ? "proof" : "NULL", bounds ? set_bounds_sql : "''",
		bounds ? clear_bounds_sql : "''", nids ? "s.nids" : "NULL",
		margin ? "nap_margin_ns" : "NULL",
		hopeless > 0 ? hopeless_sql : "",
	};
	char *sql;

	if (have < 0 || proof < 0 || bounds < 0 || nids < 0 || margin < 0 || hopeless < 0)
		return NULL;
	sql = vr_strdup(timeline_sql);
	for (size_t i = 0; i < VR_ARRAY_SIZE(names); i++) {
		struct vr_buf b;

		vr_buf_init(&b);
		replace_all(&b, sql, names[i], values[i]);
		free(sql);
		sql = vr_buf_detach(&b);
	}
	return sql;
}

int timeline_print(struct store *s, const struct timeline_opts *o, FILE *out,
		   struct timeline_hidden *hidden)
{
	struct timeline_out t = { out, 0, { 0, 0 } };
	struct store_stmt *q;
	char *sql;
	int ret;

	if (run_first_ts(s, o->run_id, &t.first_ns) ||
	    (o->nid >= 0 && check_node(s, o->run_id, o->nid)) || !(sql = stall_sql(s)))
		return -1;
	q = store_stmt_new(s, sql, "timeline");
	free(sql);
	if (!q)
		return -1;
	store_bind_int64(q, 1, o->run_id);
	store_bind_int64(q, 2, isnan(o->from_s) ? INT64_MIN
						: t.first_ns + llround(o->from_s * 1e9));
	store_bind_int64(q, 3, isnan(o->to_s) ? INT64_MAX : t.first_ns + llround(o->to_s * 1e9));
	if (o->nid >= 0)
		store_bind_int(q, 4, o->nid);
	store_bind_int64(q, 5, llround(o->min_stall_ms * 1e6));
	store_bind_int64(q, 6, t.first_ns);
	fprintf(out, "%14s  %-4s  %s\n", "seconds", "node", "event");
	ret = store_stmt_each(q, print_line, &t);
	store_stmt_free(q);
	if (hidden)
		*hidden = t.hidden;
	return ret;
}
