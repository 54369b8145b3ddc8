// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-load.c - `vmscan-report load`: options, then load_files() (load.h)
 * does the work; this file prints what it did.
 */
#include "cmd.h"
#include "load.h"
#include "model.h"
#include "vr.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the command says after each run: its options. */
struct load_say {
	bool quiet;		/* no "run N: ..." line */
	bool verbose;		/* say how each trace.dat was read */
};

/* "run N: KERNEL iteration I <- FILE" (stdout, flushed), and with -v how
 * a trace.dat was read; called in the process that stored the run. */
static void say_loaded(void *arg, const struct load_done *d)
{
	const struct load_say *say = arg;
	struct vr_buf kernel, path;

	vr_buf_init(&kernel);
	vr_buf_init(&path);
	/* a file name, or a release from a trace, may hold control bytes */
	vr_escaped(&path, d->path);
	if (!say->quiet)
		printf("run %lld: %s iteration %d <- %s%s\n", d->run_id,
		       vr_escaped(&kernel, d->kernel), d->iteration, path.buf,
		       d->replaced ? " (replaced)" : "");
	fflush(stdout);
	if (!d->events)
		vr_warn("%s holds no events: run %lld is empty", d->path, d->run_id);
	if (d->flag_contradictions)	/* the flag clearing rule given is wrong */
		vr_warn("%s: run %lld: %s", d->path, d->run_id, d->flag_contradictions);
	if (say->verbose && d->how_read)
		fprintf(stderr, "vmscan-report: %s: %s\n", path.buf, d->how_read);
	vr_buf_release(&kernel);
	vr_buf_release(&path);
}

/* The options: what load_files() is asked, and what is said per run. */
struct load_args {
	struct load_opts o;
	struct load_say say;
};

enum { OPT_PREMATURE_MS = CMD_OPT_LONG, OPT_LOW_MEMORY, OPT_WINDOW, OPT_FLAG_CLEAR,
       OPT_EMPTY_RUN };

static const struct cmd_option load_options[] = {
	{ 'd', "database", "DB", "SQLite database to create or extend" },
	{ 'k', "kernel", "NAME", "kernel label of the runs (default: the uname release\n"
				 "saved in each file)" },
	{ 'i', "iteration", "N", "iteration number of the first file (default: the next\n"
				 "free number for the kernel); later files count up" },
	{ 'R', "replace", NULL, "reload a file loaded before (same contents) into its run,\n"
				"keeping the run's id, label, iteration and latencies" },
	{ 'j', "jobs", "N", "files decoded at once (default and most: the CPUs)" },
	{ 'q', "quiet", NULL, "do not print a line per loaded run" },
	{ OPT_PREMATURE_MS, "premature-ms", "MS", "a kswapd full sleep followed by a wakeup request\n"
		"within MS milliseconds is flagged premature (default 100)" },
	{ OPT_LOW_MEMORY, "low-memory", NULL, "read compressed trace.dat files only from an uncompressed\n"
		"copy (below), waiting for it first: the least memory, the\n"
		"load takes longer.  Done anyway when a file would not fit\n"
		"in half the free memory" },
	{ OPT_WINDOW, "window", "S", "width of the reclaim_window windows in seconds\n"
		"(default: at least 20 windows a run)" },
	{ OPT_FLAG_CLEAR, "flag-clear", "[LABEL=]RULE", "the rule by which the kernel clears the pgdat\n"
		"flags: kswapd-sleep (4.12+) or balanced-check (4.11, and\n"
		"kernels patched back to it), for the runs labelled LABEL\n"
		"or for every run (default: the release's); repeatable" },
	{ OPT_EMPTY_RUN, "empty-run", NULL, "load a recording without a single vmscan event (a run\n"
		"deliberately without reclaim); without it such a file is\n"
		"refused, naming the events it has" },
	{ 'v', "verbose", NULL, "say how each trace.dat was read" },
	{ 0 }
};

/* A whole number from 1 to INT_MAX for option @name into *@out. */
static enum cmd_status parse_count(const char *arg, const char *name, int *out)
{
	if (vr_parse_int(arg, out) || *out < 1)
		return vr_error("--%s wants a whole number from 1 to %d, not '%s'", name, INT_MAX,
				arg), CMD_USAGE;
	return CMD_OK;
}

/*
 * --flag-clear [LABEL=]RULE: RULE one of model_flag_clear_names; LABEL (up
 * to the last '=') a kernel label.
 */
static enum cmd_status parse_flag_clear(struct load_opts *o, const char *arg)
{
	const char *eq = strrchr(arg, '='), *rule = eq ? eq + 1 : arg;
	struct load_flag_clear *fc;
	bool known = false;

	for (int i = 0; model_flag_clear_names[i]; i++)
		known |= !strcmp(rule, model_flag_clear_names[i]);
	if (!known)
		return vr_error("--flag-clear: unknown rule '%s' (kswapd-sleep or balanced-check)",
				rule), CMD_USAGE;
	if (o->nflag_clear == LOAD_FLAG_CLEAR_MAX)
		return vr_error("--flag-clear: more than %d rules", LOAD_FLAG_CLEAR_MAX), CMD_USAGE;
	fc = &o->flag_clear[o->nflag_clear++];
	fc->rule = rule;
	fc->label = eq ? arg : NULL;	/* argv: lives as long as the command */
	fc->label_len = eq ? (size_t)(eq - arg) : 0;
	if (eq) {
		char *label = vr_strdup(arg);
		bool ok;

		label[fc->label_len] = '\0';
		ok = vr_label_ok(label);
		free(label);
		if (!ok)
			return vr_error("--flag-clear: %s", VR_LABEL_RULE), CMD_USAGE;
	}
	return CMD_OK;
}

static enum cmd_status load_option(struct cmd_ctx *ctx, int key, const char *arg)
{
	struct load_args *a = ctx->opts;

	switch (key) {
	case 'k':
		if (!vr_label_ok(arg))
			return vr_error("--kernel: %s", VR_LABEL_RULE), CMD_USAGE;
		a->o.kernel = arg;
		break;
	case 'i': return parse_count(arg, "iteration", &a->o.iteration);
	case 'R': a->o.replace = true; break;
	case 'j': return parse_count(arg, "jobs", &a->o.jobs);
	case 'q': a->say.quiet = true; break;
	case OPT_LOW_MEMORY: a->o.low_memory = true; break;
	case OPT_EMPTY_RUN: a->o.empty_run = true; break;
	case 'v': a->say.verbose = true; break;
	case OPT_PREMATURE_MS: return parse_count(arg, "premature-ms", &a->o.premature_ms);
	case OPT_WINDOW: {
		double s;

		if (vr_parse_nonneg_double(arg, &s) || !(s > 0) || s > 1e6 || s * 1e9 < 1)
			return vr_error("--window wants seconds from 1e-9 (1 ns) to 1e6, not '%s'",
					arg), CMD_USAGE;
		a->o.window_ns = (int64_t)(s * 1e9 + 0.5);
		break;
	}
	case OPT_FLAG_CLEAR: return parse_flag_clear(&a->o, arg);
	}
	return CMD_OK;
}

static enum cmd_status load_check(struct cmd_ctx *ctx)
{
	const struct load_opts *o = &((struct load_args *)ctx->opts)->o;

	if (!ctx->argc)
		return vr_error("load: no trace file given"), CMD_USAGE_HELP;
	/* with --kernel every run of the load has that label: a rule for
	 * another label (a typo) would give no run its rule, without a word */
	for (int i = 0; o->kernel && i < o->nflag_clear; i++) {
		const struct load_flag_clear *fc = &o->flag_clear[i];

		if (fc->label && (strlen(o->kernel) != fc->label_len ||
				  memcmp(fc->label, o->kernel, fc->label_len)))
			return vr_error("--flag-clear %s: no run of this load is labelled %.*s"
					" (--kernel %s labels them all)", fc->label,
					(int)fc->label_len, fc->label, o->kernel), CMD_USAGE;
	}
	return CMD_OK;
}

static int load_run(struct cmd_ctx *ctx)
{
	struct load_args *a = ctx->opts;
	struct load_result r;

	a->o.db = ctx->db;
	a->o.loaded = say_loaded;
	a->o.loaded_arg = &a->say;
	a->o.progress = !a->say.quiet;
	if (!load_files(&a->o, ctx->argv, ctx->argc, &r))
		return VR_EXIT_OK;
	if (r.interrupted)
		vr_error("interrupted by signal %d; runs loaded before it are kept", r.interrupted);
	return VR_EXIT_FAIL;
}

static const char *const load_synopsis[] = {
	"[-d DB] [--kernel NAME] [--iteration N] [--replace] [-j N] [-q]\n"
	"[-v] [--low-memory] [--premature-ms MS] [--window S]\n"
	"[--flag-clear [LABEL=]RULE]... [--empty-run] FILE...",
	NULL
};

const struct cmd cmd_load_desc = {
	.name = "load",
	.summary = "load trace.dat recordings into a SQLite database",
	.synopsis = load_synopsis,
	.description =
		"Load trace.dat recordings (file version 6 or 7, compressed or not) into DB,\n"
		"one run per file.  Every event is stored; vmscan, writeback congestion,\n"
		"compaction and sched events in typed tables named after the event.",
	.notes =
		"A compressed trace.dat of more than a few MB is decoded in memory up to 64 MiB\n"
		"of decompressed data, meanwhile trace-cmd convert makes an uncompressed copy\n"
		"in $TMPDIR (default /var/tmp, deleted once open); the rest is read from the\n"
		"copy.  libtracecmd keeps all it decompressed, so memory would otherwise grow\n"
		"with the trace.",
	.options = load_options,
	.help_col = 22,
	.db = CMD_DB_PATH,
	.opts_size = sizeof(struct load_args),
	.defaults = &(const struct load_args){ .o.premature_ms = LOAD_PREMATURE_MS_DEFAULT },
	.option = load_option,
	.check = load_check,
	.run = load_run,
};
