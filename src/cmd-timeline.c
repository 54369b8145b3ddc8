// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-timeline.c - `vmscan-report timeline`: options, then the timeline
 * module (include/timeline.h) on stdout.
 */
#include "cmd.h"
#include "store.h"
#include "timeline.h"
#include "vr.h"

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

/* The options: the database and what to print. */
struct timeline_cli {
	const char *db;
	struct timeline_opts o;
};

/* A number >= 0 of @unit (seconds, milliseconds) for option @opt. */
static int parse_amount(const char *s, const char *opt, const char *unit, double *out)
{
	if (vr_parse_nonneg_double(s, out))
		return vr_error("timeline: %s wants %s >= 0, not '%s'", opt, unit, s);
	return 0;
}

static int parse_timeline_opts(int argc, char **argv, struct timeline_cli *cli)
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
	struct timeline_opts *o = &cli->o;
	uint64_t run = 0;
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:r:n:f:t:m:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': cli->db = optarg; break;
		case 'r':
			if (vr_parse_u64(optarg, &run) || !run)
				return vr_error("timeline: --run wants a run id, not '%s'", optarg),
				       VR_EXIT_USAGE;
			break;
		case 'n':
			if (vr_parse_int(optarg, &o->nid))
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
	if (!cli->db || !run || optind != argc)
		return vr_error("timeline: -d DB and --run ID are required"),
		       cmd_usage(timeline_usage, VR_EXIT_USAGE);
	if (!isnan(o->from_s) && !isnan(o->to_s) && o->to_s < o->from_s)
		return vr_error("timeline: --to is before --from"), VR_EXIT_USAGE;
	o->run_id = (int64_t)run;
	return 0;
}

int cmd_timeline(int argc, char **argv)
{
	struct timeline_cli cli = {
		.o = { .nid = -1, .from_s = NAN, .to_s = NAN, .min_stall_ms = 10 }
	};
	struct store *st;
	int ret = parse_timeline_opts(argc, argv, &cli);

	if (ret)
		return ret < 0 ? VR_EXIT_OK : ret;
	st = store_open(cli.db, STORE_RDONLY);
	if (!st)
		return VR_EXIT_FAIL;
	ret = timeline_print(st, &cli.o, stdout);
	store_close(st);
	return ret ? VR_EXIT_FAIL : VR_EXIT_OK;
}
