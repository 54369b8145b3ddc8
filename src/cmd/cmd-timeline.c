// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-timeline.c - `vmscan-report timeline`: options, then the timeline
 * module (include/timeline.h) on stdout.
 */
#include "cmd.h"
#include "timeline.h"
#include "vr.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>

enum { OPT_FROM = CMD_OPT_LONG, OPT_MIN_STALL_MS };

static const struct cmd_option timeline_options[] = {
	{ 'd', "database", "DB", "SQLite database written by 'load'" },
	{ 'r', "run", "ID", "the run (see 'vmscan-report runs')" },
	{ 'n', "node", "N", "only node N (stalls without a node are kept)" },
	{ OPT_FROM, "from", "S", "start at S seconds into the trace" },
	{ 't', "to", "S", "stop at S seconds into the trace" },
	{ OPT_MIN_STALL_MS, "min-stall-ms", "MS",
	  "stalls shorter than MS ms are left out, how many said\non stderr (default 10)" },
	{ 0 }
};

/* A number >= 0 of @unit (seconds, milliseconds) for option @opt. */
static enum cmd_status parse_amount(const char *s, const char *opt, const char *unit,
				    double *out)
{
	if (vr_parse_nonneg_double(s, out))
		return vr_error("timeline: %s wants %s >= 0, not '%s'", opt, unit, s), CMD_USAGE;
	return CMD_OK;
}

static enum cmd_status timeline_option(struct cmd_ctx *ctx, int key, const char *arg)
{
	struct timeline_opts *o = ctx->opts;
	uint64_t run;

	switch (key) {
	case 'r':
		if (vr_parse_u64(arg, &run) || !run)
			return vr_error("timeline: --run wants a run id, not '%s'", arg), CMD_USAGE;
		o->run_id = (int64_t)run;
		break;
	case 'n':
		if (vr_parse_int(arg, &o->nid))
			return vr_error("timeline: --node wants a node number, not '%s'", arg),
			       CMD_USAGE;
		break;
	case OPT_FROM: return parse_amount(arg, "--from", "seconds", &o->from_s);
	case 't': return parse_amount(arg, "--to", "seconds", &o->to_s);
	case OPT_MIN_STALL_MS: return parse_amount(arg, "--min-stall-ms", "milliseconds", &o->min_stall_ms);
	}
	return CMD_OK;
}

static enum cmd_status timeline_check(struct cmd_ctx *ctx)
{
	const struct timeline_opts *o = ctx->opts;

	if (ctx->argc)
		return vr_error("timeline: unexpected argument '%s'", ctx->argv[0]),
		       CMD_USAGE_HELP;
	if (!o->run_id)
		return vr_error("timeline: --run ID is required"), CMD_USAGE_HELP;
	if (!isnan(o->from_s) && !isnan(o->to_s) && o->to_s < o->from_s)
		return vr_error("timeline: --to is before --from"), CMD_USAGE;
	return CMD_OK;
}

/* Say on stderr which stalls the timeline left out (stdout stays the
 * timeline alone). */
static void say_hidden(const struct timeline_opts *o, const struct timeline_hidden *h)
{
	if (h->shorter)
		vr_warn_plain("timeline: %ld reclaim stall%s shorter than %g ms not shown"
			      " (--min-stall-ms 0 shows them)", h->shorter,
			      h->shorter == 1 ? "" : "s", o->min_stall_ms);
	if (h->unknown)
		vr_warn_plain("timeline: %ld reclaim stall%s of unknown duration not shown",
			      h->unknown, h->unknown == 1 ? "" : "s");
}

static int timeline_run(struct cmd_ctx *ctx)
{
	struct timeline_hidden h;

	if (timeline_print(ctx->st, ctx->opts, stdout, &h))
		return VR_EXIT_FAIL;
	say_hidden(ctx->opts, &h);
	return VR_EXIT_OK;
}

static const char *const timeline_synopsis[] = {
	"[-d DB] --run ID [--node N] [--from S --to S]\n[--min-stall-ms MS]", NULL
};

const struct cmd cmd_timeline_desc = {
	.name = "timeline",
	.summary = "the reconstructed per-node reclaim history of one run",
	.synopsis = timeline_synopsis,
	.description =
		"Print the reconstructed history of run ID, one line per state change:\n"
		"kswapd wake, nap and how it ended (woken early = LOW_WMARK_HIT_QUICKLY,\n"
		"timed out or no nap = HIGH_WMARK_HIT_QUICKLY), full sleep (premature when\n"
		"a wakeup request followed within load's --premature-ms), inferred pgdat\n"
		"flag set/clear with its evidence, and reclaim stalls of at least MS ms.\n"
		"Times are seconds since the start of the trace; [exact] marks decisions\n"
		"made from sched_switch/sched_wakeup of the kswapd pid.",
	.options = timeline_options,
	.help_col = 24,
	.db = CMD_DB_RDONLY,
	.opts_size = sizeof(struct timeline_opts),
	.defaults = &(const struct timeline_opts){ .nid = -1, .from_s = NAN, .to_s = NAN,
						   .min_stall_ms = 10 },
	.option = timeline_option,
	.check = timeline_check,
	.run = timeline_run,
};
