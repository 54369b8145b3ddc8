// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-timeline.c - `vmscan-report timeline`: the reconstructed per-node
 * history of one run as text, one line per state change: kswapd wake, nap
 * (with how it ended), full sleep (premature or not), pgdat flag set and
 * clear, and reclaim stalls longer than a threshold.  Read from the
 * derived tables written by the model during load.
 */
#include "cmd.h"
#include "store.h"
#include "vr.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const timeline_usage[] = {
	"usage: vmscan-report timeline -d DB --run ID [--node N] [--from S --to S]",
	"                              [--min-stall-ms MS]",
	"",
	"Print the reconstructed history of run ID, one line per state change:",
	"kswapd wake, nap and how it ended (woken early = LOW_WMARK_HIT_QUICKLY,",
	"timed out or no nap = HIGH_WMARK_HIT_QUICKLY), full sleep (premature when",
	"a wakeup request followed within load's --premature-ms), inferred pgdat",
	"flag set/clear with its evidence, and reclaim stalls of at least MS ms.",
	"Times are seconds since the start of the trace; [exact] marks decisions",
	"made from sched_switch/sched_wakeup of the kswapd pid.",
	"",
	"  -d, --database DB     SQLite database written by 'load'",
	"  -r, --run ID          the run (see 'vmscan-report runs')",
	"  -n, --node N          only node N (stalls without a node are kept)",
	"  -f, --from S          start at S seconds into the trace",
	"  -t, --to S            stop at S seconds into the trace",
	"  -m, --min-stall-ms MS stalls shorter than MS ms are left out (default 10)",
	"  -h, --help            show this help",
	NULL
};

/* ?1 run, ?2 from_ns (absolute), ?3 to_ns, ?4 node or NULL, ?5 min stall ns */
static const char timeline_sql[] =
	"WITH c AS (SELECT *, coalesce(nap_ns, last_activity_ns, wake_ns) AS e,"
	"  CASE WHEN decision_exact THEN ' [exact]' ELSE '' END AS x"
	"  FROM kswapd_cycle WHERE run_id = ?1)"
	" SELECT ts, nid, what FROM ("
	" SELECT wake_ns AS ts, nid, printf('kswapd%d wake order=%s zid=%s', nid,"
	"  coalesce(\"order\", '?'), coalesce(highest_zoneidx, '?')) AS what, 1 AS k"
	"  FROM c WHERE wake_ns IS NOT NULL"
	" UNION ALL SELECT e, nid, CASE decision"
	"  WHEN 'nap_woken_early' THEN printf('kswapd nap, woken early after %.3f ms"
	" (LOW_WMARK_HIT_QUICKLY)%s', (next_wake_ns - e) / 1e6, x)"
	"  WHEN 'nap_timed_out' THEN printf('kswapd nap, timed out after %.3f ms, node"
	" unbalanced (HIGH_WMARK_HIT_QUICKLY)%s', (next_wake_ns - e) / 1e6, x)"
	"  WHEN 'no_nap' THEN printf('kswapd no nap: node unbalanced at the first check"
	" (HIGH_WMARK_HIT_QUICKLY)%s', x)"
	"  WHEN 'full_sleep' THEN printf('kswapd nap, node balanced%s', x)"
	"  ELSE 'kswapd sleep decision unknown' END, 2"
	"  FROM c WHERE e IS NOT NULL AND (decision != 'full_sleep' OR sleep_ns - e >= 1000000)"
	"  AND (decision != 'unknown' OR next_wake_ns IS NOT NULL)"
	" UNION ALL SELECT sleep_ns, nid, printf('kswapd full sleep%s',"
	"  CASE WHEN premature THEN ', PREMATURE: wakeup request soon after' ELSE '' END), 3"
	"  FROM c WHERE sleep_ns IS NOT NULL"
	" UNION ALL SELECT set_ns, nid, printf('%s set (%s, rule %s)', flag, evidence, rule), 4"
	"  FROM pgdat_flag WHERE run_id = ?1 AND set_ns IS NOT NULL"
	" UNION ALL SELECT clear_ns, nid, printf('%s cleared (kswapd found the node balanced)',"
	"  flag), 5 FROM pgdat_flag WHERE run_id = ?1 AND clear_ns IS NOT NULL"
	" UNION ALL SELECT begin_ns, nid, printf('%s reclaim stall %.3f ms: %s-%d order=%s,"
	" kswapd %s%s', kind, duration_ns / 1e6,"
	"  coalesce((SELECT min(comm) FROM task t WHERE t.run_id = ?1 AND t.pid = s.pid), '<...>'),"
	"  pid, coalesce(\"order\", '?'), coalesce(kswapd_state, 'unknown'),"
	"  CASE WHEN complete THEN '' ELSE ' (incomplete: ' || incomplete_reason || ')' END), 6"
	"  FROM reclaim_stall s WHERE run_id = ?1 AND duration_ns >= ?5"
	" ) WHERE ts BETWEEN ?2 AND ?3 AND (?4 IS NULL OR nid IS NULL OR nid = ?4)"
	" ORDER BY ts, k";

struct timeline_opts {
	const char *db;
	uint64_t run;
	int node;		/* -1: all */
	double from_s, to_s;	/* NAN: open */
	double min_stall_ms;
};

/* A number >= 0 of @unit (seconds, milliseconds) for option @opt. */
static int parse_amount(const char *s, const char *opt, const char *unit, double *out)
{
	if (vr_parse_nonneg_double(s, out))
		return vr_error("timeline: %s wants %s >= 0, not '%s'", opt, unit, s);
	return 0;
}

static int parse_timeline_opts(int argc, char **argv, struct timeline_opts *o)
{
	static const struct option longopts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "run", required_argument, NULL, 'r' },
		{ "node", required_argument, NULL, 'n' },
		{ "from", required_argument, NULL, 'f' },
		{ "to", required_argument, NULL, 't' },
		{ "min-stall-ms", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:r:n:f:t:m:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': o->db = optarg; break;
		case 'r':
			if (vr_parse_u64(optarg, &o->run) || !o->run)
				return vr_error("timeline: --run wants a run id, not '%s'", optarg),
				       VR_EXIT_USAGE;
			break;
		case 'n':
			if (vr_parse_int(optarg, &o->node))
				return vr_error("timeline: --node wants a node number, not '%s'",
						optarg), VR_EXIT_USAGE;
			break;
		case 'f':
			if (parse_amount(optarg, "--from", "seconds", &o->from_s))
				return VR_EXIT_USAGE;
			break;
		case 't':
			if (parse_amount(optarg, "--to", "seconds", &o->to_s))
				return VR_EXIT_USAGE;
			break;
		case 'm':
			if (parse_amount(optarg, "--min-stall-ms", "milliseconds", &o->min_stall_ms))
				return VR_EXIT_USAGE;
			break;
		case 'h': return cmd_usage(timeline_usage, 0) - 1;
		default: return cmd_usage(timeline_usage, VR_EXIT_USAGE);
		}
	}
	if (!o->db || !o->run || optind != argc)
		return vr_error("timeline: -d DB and --run ID are required"),
		       cmd_usage(timeline_usage, VR_EXIT_USAGE);
	if (!isnan(o->from_s) && !isnan(o->to_s) && o->to_s < o->from_s)
		return vr_error("timeline: --to is before --from"), VR_EXIT_USAGE;
	return 0;
}

static int run_first_ts(struct store *st, uint64_t run, int64_t *first)
{
	sqlite3_stmt *q;
	int rc;

	if (sqlite3_prepare_v2(store_db(st), "SELECT coalesce(first_ts_ns, 0) FROM run WHERE id = ?",
			       -1, &q, NULL) != SQLITE_OK)
		return vr_error("%s: %s", store_path(st), sqlite3_errmsg(store_db(st)));
	sqlite3_bind_int64(q, 1, (int64_t)run);
	rc = sqlite3_step(q);
	*first = rc == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW)
		return vr_error("%s: no run %llu", store_path(st), (unsigned long long)run);
	return 0;
}

/* Does run @run have node @nid (a kswapd of it woke, slept or was woken)?
 * If not: an error listing the nodes it has. */
static int check_node(struct store *st, uint64_t run, int nid)
{
	static const char sql[] =
		"SELECT group_concat(nid, ', '), sum(nid = ?2) FROM (SELECT DISTINCT nid FROM"
		" (SELECT nid FROM kswapd_cycle WHERE run_id = ?1 UNION"
		"  SELECT nid FROM kswapd_wakeup WHERE run_id = ?1) ORDER BY nid)";
	sqlite3_stmt *q;
	int ret = 0;

	if (sqlite3_prepare_v2(store_db(st), sql, -1, &q, NULL) != SQLITE_OK)
		return vr_error("%s: %s", store_path(st), sqlite3_errmsg(store_db(st)));
	sqlite3_bind_int64(q, 1, (int64_t)run);
	sqlite3_bind_int(q, 2, nid);
	if (sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 1) == 0)
		ret = vr_error("%s: run %llu has no node %d (its nodes: %s)", store_path(st),
			       (unsigned long long)run, nid,
			       sqlite3_column_type(q, 0) == SQLITE_NULL ? "none seen"
					: (const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	return ret;
}

static int print_timeline(struct store *st, const struct timeline_opts *o)
{
	sqlite3_stmt *q;
	int64_t first;
	int rc;

	if (run_first_ts(st, o->run, &first) || (o->node >= 0 && check_node(st, o->run, o->node)))
		return -1;
	if (sqlite3_prepare_v2(store_db(st), timeline_sql, -1, &q, NULL) != SQLITE_OK)
		return vr_error("%s: %s", store_path(st), sqlite3_errmsg(store_db(st)));
	sqlite3_bind_int64(q, 1, (int64_t)o->run);
	sqlite3_bind_int64(q, 2, isnan(o->from_s) ? INT64_MIN : first + llround(o->from_s * 1e9));
	sqlite3_bind_int64(q, 3, isnan(o->to_s) ? INT64_MAX : first + llround(o->to_s * 1e9));
	if (o->node >= 0)
		sqlite3_bind_int(q, 4, o->node);
	sqlite3_bind_int64(q, 5, llround(o->min_stall_ms * 1e6));
	printf("%14s  %-4s  %s\n", "seconds", "node", "event");
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t ts = sqlite3_column_int64(q, 0);

		if (sqlite3_column_type(q, 1) == SQLITE_NULL)
			printf("%14.6f  %-4s  %s\n", (ts - first) / 1e9, "-", sqlite3_column_text(q, 2));
		else
			printf("%14.6f  %-4d  %s\n", (ts - first) / 1e9, sqlite3_column_int(q, 1),
			       sqlite3_column_text(q, 2));
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return vr_error("%s: %s", store_path(st), sqlite3_errstr(rc));
	return 0;
}

int cmd_timeline(int argc, char **argv)
{
	struct timeline_opts o = { .node = -1, .from_s = NAN, .to_s = NAN, .min_stall_ms = 10 };
	struct store *st;
	int ret = parse_timeline_opts(argc, argv, &o);

	if (ret)
		return ret < 0 ? VR_EXIT_OK : ret;
	st = store_open(o.db, STORE_RDONLY);
	if (!st)
		return VR_EXIT_FAIL;
	ret = print_timeline(st, &o);
	store_close(st);
	return ret ? VR_EXIT_FAIL : VR_EXIT_OK;
}
