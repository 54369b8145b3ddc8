// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-import-latency.c - `vmscan-report import-latency`: store a workload's
 * latency report as the application latencies of one run.
 */
#include "cmd.h"
#include "latency-import.h"
#include "vr.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

/* Import @path as `import-latency` does and say where it went (unless -q). */
static int import_file(struct store *st, const char *path, const char *kernel, int iteration,
		       int quiet, bool replace, const struct latency_import_decl *decl)
{
	struct latency_import_result r;

	if (latency_import_file(st, path, kernel, iteration, replace, decl, &r))
		return -1;
	latency_import_warn(path, &r);
	if (!quiet)
		printf("run %lld: %s iteration %d <- %s (%zu latency samples%s)\n",
		       (long long)r.run_id, kernel, r.iteration, path, r.nsamples,
		       r.created ? ", new run" : "");
	return 0;
}

struct import_args {
	const char *kernel;
	int iteration, quiet;
	bool replace;
	char *higher_arg, *zeros_arg;	/* copies cut by vr_split_list() */
	struct latency_import_decl decl;
};

enum { OPT_HIGHER = CMD_OPT_LONG, OPT_ZEROS };

static const struct cmd_option import_options[] = {
	{ 'd', "database", "DB", "SQLite database to create or extend" },
	{ 'k', "kernel", "NAME", "kernel label of the run" },
	{ 'i', "iteration", "N", "iteration of the run of the first FILE (default: the\n"
				 "kernel's first run without latencies, else a new\n"
				 "one); later files count up" },
	{ 'R', "replace", NULL, "import contents already imported for NAME again, into\n"
				"the run holding them (or run N of --iteration, which\n"
				"they then leave)" },
	{ 'q', "quiet", NULL, "do not print the run imported into" },
	{ OPT_HIGHER, "higher-is-better", "LIST", "these operations (p95-Ops) or metrics (Ops)\n"
		"are throughputs: higher is better (Hmean rows,\n"
		"mmtests' pdiff gains)" },
	{ OPT_ZEROS, "real-zeros", "LIST", "a run whose values of these operations or\n"
		"metrics are all 0 measured 0 (default: it did not\n"
		"do the operation, counted as not recorded)" },
	{ 0 }
};

static enum cmd_status import_option(struct cmd_ctx *ctx, int key, const char *arg)
{
	struct import_args *a = ctx->opts;

	switch (key) {
	case 'k':
		if (!vr_label_ok(arg))
			return vr_error("--kernel: %s", VR_LABEL_RULE), CMD_USAGE;
		a->kernel = arg;
		break;
	case 'i':
		if (vr_parse_int(arg, &a->iteration) || a->iteration < 1)
			return vr_error("--iteration wants a number >= 1, not '%s'", arg), CMD_USAGE;
		break;
	case 'q': a->quiet = 1; break;
	case 'R': a->replace = true; break;
	case OPT_HIGHER:
		free(a->higher_arg);
		free(a->decl.higher);
		a->higher_arg = vr_strdup(arg);
		a->decl.higher = vr_split_list(a->higher_arg, &a->decl.nhigher);
		break;
	case OPT_ZEROS:
		free(a->zeros_arg);
		free(a->decl.zeros_real);
		a->zeros_arg = vr_strdup(arg);
		a->decl.zeros_real = vr_split_list(a->zeros_arg, &a->decl.nzeros_real);
		break;
	}
	return CMD_OK;
}

static void import_release(void *opts)
{
	struct import_args *a = opts;

	free(a->higher_arg);
	free(a->zeros_arg);
	free(a->decl.higher);
	free(a->decl.zeros_real);
}

static enum cmd_status import_check(struct cmd_ctx *ctx)
{
	const struct import_args *a = ctx->opts;

	if (!a->kernel || ctx->argc < 1)
		return vr_error("import-latency: --kernel NAME and a FILE are required"),
		       CMD_USAGE_HELP;
	return CMD_OK;
}

static int import_run(struct cmd_ctx *ctx)
{
	const struct import_args *a = ctx->opts;
	int failed = 0;

	/* one transaction per file, as load does per run: a bad file is named
	 * and leaves the others imported */
	for (int i = 0; i < ctx->argc; i++)
		failed += import_file(ctx->st, ctx->argv[i], a->kernel,
				      a->iteration ? a->iteration + i : 0, a->quiet,
				      a->replace, &a->decl) != 0;
	ctx->db_kept = failed < ctx->argc;
	return failed ? VR_EXIT_FAIL : VR_EXIT_OK;
}

static const char *const import_synopsis[] = {
	"[-d DB] --kernel NAME [--iteration N] [--replace]\n"
	"[--higher-is-better LIST] [--real-zeros LIST] FILE...", NULL
};

const struct cmd cmd_import_latency_desc = {
	.name = "import-latency",
	.summary = "import a workload's latency report into a run",
	.synopsis = import_synopsis,
	.description =
		"Store application latencies from each FILE as run (NAME, N) of DB (one\n"
		"run per file, N counting up, one transaction per file), so that\n"
		"`compare` shows them next to the reclaim latencies (values kept as given).\n"
		"FILE holds simoop reports (\"Read latency usec: (p50: 1,234) (p95: ...)\n"
		"(p99: ...)\"; each report is one sample of p50-Read, p95-Read, ..., unit us)\n"
		"or one \"OPERATION VALUE\" pair per line (e.g. \"p95-Write 1362.62\"; unit as\n"
		"reported).  The run is created when no trace was loaded for it; earlier\n"
		"imported latencies of the run are replaced.  The same contents are imported\n"
		"once per kernel: again, they are refused (exit 1) naming the run they are\n"
		"in, unless --replace.  A bad line leaves the database unchanged.\n"
		"Imported values are lower-is-better (latencies) unless named by\n"
		"--higher-is-better; a run whose values of an operation are all 0 (the\n"
		"workload did not do it) counts as not recorded unless named by --real-zeros.",
	.options = import_options,
	.help_col = 22,
	.db = CMD_DB_RW,
	.opts_size = sizeof(struct import_args),
	.defaults = &(const struct import_args){ 0 },
	.option = import_option,
	.check = import_check,
	.run = import_run,
	.release = import_release,
};
