// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-compare.c - `vmscan-report compare`: the changelog comparison table
 * (mmtests compare layout) of the kernels in a database, or of files named
 * on the command line and loaded into a temporary database.
 */
#include "cmd.h"
#include "compare.h"
#include "compare-files.h"
#include "compare-vmstat.h"
#include "latency-import.h"
#include "load.h"
#include "render.h"
#include "store.h"
#include "vr.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct compare_cli {
	struct cmd_trim trim;	/* --kernels, --metrics, --stats */
	struct compare_opts o;
	enum render_format fmt;
	bool own_kernels;	/* o.kernels[i] are the NAMEs of NAME=FILE (owned) */
	bool quiet;		/* -q: no progress line while loading NAME=FILE */
	bool verbose;		/* -v: say what each NAME=FILE file gave */
	int width;		/* --width: text fits it (0: no limit) */
	bool p_adjust_given;	/* --p-adjust was on the command line */
	char *higher_arg, *zeros_arg;	/* copies cut by vr_split_list() */
	struct latency_import_decl decl;	/* for the NAME=FILE.txt imports */
};

/* Do NAME=... arguments @a and @b name the same kernel? */
static bool same_name(const char *a, const char *b)
{
	size_t la = strcspn(a, "="), lb = strcspn(b, "=");

	return la == lb && !strncmp(a, b, la);
}

enum { OPT_SIGNIFICANCE = CMD_OPT_LONG, OPT_LAYOUT, OPT_METRIC, OPT_HIGHER, OPT_ZEROS, OPT_CI, OPT_RATIO, OPT_WIDTH,
       OPT_ALIGN, OPT_CI_METHOD, OPT_P_ADJUST };

static const struct cmd_option compare_options[] = {
	{ 'd', "database", "DB", "database written by `load` / `import-latency`" },
	CMD_TRIM_OPTION_ROWS,
	{ OPT_METRIC, "metric", "LIST", "the same as --metrics (the name chart takes)" },
	{ 'f', "format", "FMT", "text (default), markdown, csv or json" },
	{ 'q', "quiet", NULL, "no progress line while NAME=FILE traces load" },
	{ 'v', "verbose", NULL, "say what each NAME=FILE file gave (its events and how a\n"
				"trace.dat was read, or its latency samples), on stderr" },
	{ 'a', "alpha", "A", "significance level of the t-test (default 0.10)" },
	{ OPT_CI, "ci", NULL, "under each Amean row, Welch's (1-A) confidence interval\n"
		"of the gain, [lo, hi]%; a note where outliers hide a\n"
		"difference" },
	{ OPT_CI_METHOD, "ci-method", "M", "--ci's interval: welch (default) or bootstrap (a\n"
		"percentile bootstrap over the values, seeded)" },
	{ OPT_ALIGN, "align-marker", "TEXT", "the windows block from each run's first\n"
		"trace_marker (print) event containing TEXT; runs\n"
		"without one left out and named" },
	{ OPT_WIDTH, "width", "COLS", "text: fit COLS columns (default 80, a mail): the\n"
		"kernels in blocks after the baseline, notes wrapped,\n"
		"long names shortened with a legend; 0: no limit" },
	{ OPT_RATIO, "print-ratio", NULL, "compare-mmtests.pl's ratio view: per operation\n"
		"each kernel's mean over the baseline's, and their\n"
		"geometric mean (Gmean)" },
	{ OPT_SIGNIFICANCE, "significance", "R", "welch (default): Welch's t-test at level A;\n"
		"ci: mmtests' rule (--print-significance), the\n"
		"intervals mean +/- 1.96 stddev do not overlap" },
	{ OPT_P_ADJUST, "p-adjust", "M", "bh (default): a kernel's mean rows marked where\n"
		"their p-values, adjusted together (Benjamini-Hochberg),\n"
		"are below A; none: each row's own p below A" },
	{ OPT_LAYOUT, "layout", "L", "2017 (default): the 2017 seed mails' table\n"
		"(%-8s %-20s %12.2f (%6.2f%%), BAmean-95, '-' when\n"
		"missing); mmtests: today's compare-mmtests.pl\n"
		"(%18.2f (%7.2f%%), BAmean.95)" },
	{ OPT_HIGHER, "higher-is-better", "LIST", "NAME=FILE.txt: these imported operations or\n"
		"metrics are throughputs (import-latency's option)" },
	{ OPT_ZEROS, "real-zeros", "LIST", "NAME=FILE.txt: their all-0 runs measured 0\n"
		"(import-latency's option)" },
	{ 0 }
};

static enum cmd_status compare_option(struct cmd_ctx *ctx, int key, const char *arg)
{
	struct compare_cli *c = ctx->opts;
	char *end;

	if (cmd_trim_key(key) || key == OPT_METRIC)
		return cmd_trim_option(&c->trim, &c->o, "compare", key == OPT_METRIC ? 'm' : key,
				       arg);
	switch (key) {
	case 'f':
		if (render_format_parse(arg, &c->fmt))
			return vr_error("compare: unknown format '%s' (valid: text, markdown, csv,"
					" json)", arg), CMD_USAGE;
		break;
	case 'q':
		c->quiet = true;
		break;
	case 'v':
		c->verbose = true;
		break;
	case 'a':
		c->o.alpha = strtod(arg, &end);
		if (end == arg || *end || !(c->o.alpha > 0 && c->o.alpha < 1))
			return vr_error("--alpha wants a number between 0 and 1, not '%s'", arg),
			       CMD_USAGE;
		break;
	case OPT_SIGNIFICANCE:
		if (compare_significance_parse(arg, &c->o.significance))
			return vr_error("compare: --significance wants welch or ci, not '%s'", arg),
			       CMD_USAGE;
		break;
	case OPT_CI:
		c->o.ci = true;
		break;
	case OPT_P_ADJUST:
		if (compare_p_adjust_parse(arg, &c->o.p_adjust))
			return vr_error("compare: --p-adjust wants bh or none, not '%s'", arg),
			       CMD_USAGE;
		c->p_adjust_given = true;
		break;
	case OPT_CI_METHOD:
		if (strcmp(arg, "welch") && strcmp(arg, "bootstrap"))
			return vr_error("compare: --ci-method wants welch or bootstrap, not '%s'",
					arg), CMD_USAGE;
		c->o.ci = true;
		c->o.ci_bootstrap = !strcmp(arg, "bootstrap");
		break;
	case OPT_RATIO:
		c->o.print_ratio = true;
		break;
	case OPT_ALIGN:
		if (!*arg)
			return vr_error("compare: --align-marker wants a text"), CMD_USAGE;
		c->o.align_marker = arg;
		break;
	case OPT_WIDTH:
		if (vr_parse_int(arg, &c->width) || c->width < 0 || (c->width && c->width < 40))
			return vr_error("compare: --width wants 0 or a number of columns >= 40,"
					" not '%s'", arg), CMD_USAGE;
		break;
	case OPT_HIGHER:
		free(c->higher_arg);
		free(c->decl.higher);
		c->higher_arg = vr_strdup(arg);
		c->decl.higher = vr_split_list(c->higher_arg, &c->decl.nhigher);
		break;
	case OPT_ZEROS:
		free(c->zeros_arg);
		free(c->decl.zeros_real);
		c->zeros_arg = vr_strdup(arg);
		c->decl.zeros_real = vr_split_list(c->zeros_arg, &c->decl.nzeros_real);
		break;
	case OPT_LAYOUT:
		if (render_layout_parse(arg, &c->o.layout))
			return vr_error("compare: --layout wants 2017 or mmtests, not '%s'", arg),
			       CMD_USAGE;
		break;
	}
	return CMD_OK;
}

/* Is the NAME of NAME=FILE,... @arg a label vr_label_ok() takes, as --kernel's? */
static bool name_ok(const char *arg)
{
	char *name = vr_strdup(arg);
	bool ok;

	name[strcspn(name, "=")] = '\0';
	ok = vr_label_ok(name);
	free(name);
	return ok;
}

/* The NAME=FILE,... operands: well formed, each NAME a label, each once. */
static enum cmd_status check_operands(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strchr(argv[i], '=') || argv[i][0] == '=')
			return vr_error("compare: '%s' is not NAME=FILE,...", argv[i]),
			       CMD_USAGE_HELP;
		if (!name_ok(argv[i]))
			return vr_error("compare: NAME of NAME=FILE,...: %s", VR_LABEL_RULE),
			       CMD_USAGE;
		for (const char *f = strchr(argv[i], '=') + 1;; f += strcspn(f, ",") + 1) {
			if (!*f || *f == ',')	/* "x=", "x=a,", "x=,b", "x=a,,b" */
				return vr_error("compare: '%s': an empty FILE in NAME=FILE,...",
						argv[i]), CMD_USAGE;
			if (!f[strcspn(f, ",")])
				break;
		}
		for (int j = 0; j < i; j++)
			if (same_name(argv[i], argv[j]))
				return vr_error("compare: kernel '%.*s' is named twice; give its"
						" files as one NAME=FILE1,FILE2,...",
						(int)strcspn(argv[i], "="), argv[i]), CMD_USAGE;
	}
	return CMD_OK;
}

static enum cmd_status compare_check(struct cmd_ctx *ctx)
{
	const struct compare_cli *c = ctx->opts;
	enum cmd_status st;

	if (ctx->db && ctx->argc)
		return vr_error("compare: give -d DB or NAME=FILE,... arguments, not both"),
		       CMD_USAGE_HELP;
	if (!ctx->db && !ctx->argc)
		return vr_error("compare: -d DB or NAME=FILE,... arguments are required"),
		       CMD_USAGE_HELP;
	if (ctx->db && (c->higher_arg || c->zeros_arg))
		return vr_error("compare: --higher-is-better and --real-zeros are for NAME=FILE.txt"
				" imports; with -d DB give them to import-latency"), CMD_USAGE;
	if (c->p_adjust_given && c->o.significance == COMPARE_SIG_CI)
		return vr_error("compare: --p-adjust adjusts the p-values of Welch's t-test;"
				" --significance ci (mmtests' interval rule) has none to adjust"),
		       CMD_USAGE;
	st = check_operands(ctx->argc, ctx->argv);
	if (st != CMD_OK)
		return st;
	return cmd_trim_check(&c->o, "compare");
}

/* -v: what a NAME=FILE trace gave (stderr: stdout is the table's). */
static void say_loaded(void *arg, const struct load_done *d)
{
	(void)arg;
	fprintf(stderr, "compare: %s: %s: %llu events%s%s\n", d->kernel, d->path,
		(unsigned long long)d->events, d->how_read ? "; " : "",
		d->how_read ? d->how_read : "");
}

/* -v: what a NAME=FILE.txt latency report gave. */
static void say_imported(void *arg, const char *kernel, const char *path, size_t nsamples)
{
	(void)arg;
	fprintf(stderr, "compare: %s: %s: %zu latency samples\n", kernel, path, nsamples);
}

static int run_compare(struct store *st, struct compare_cli *c)
{
	struct compare_result r;
	struct compare_vmstat v;
	struct vr_buf out;
	int bad = compare_check_metrics(st, &c->o);

	if (bad)
		return vr_exit_of(bad);
	if (compare_build(st, &c->o, &r))
		return VR_EXIT_FAIL;
	if (compare_vmstat_build(st, &r, &v)) {
		compare_vmstat_release(&v);
		compare_result_release(&r);
		return VR_EXIT_FAIL;
	}
	vr_buf_init(&out);
	if (c->fmt == RENDER_TEXT && c->width)	/* a mail's width by default */
		render_text_fit(r.tables, r.tables[1].nrows ? 2 : 1, c->width);
	compare_render_all(&r, &v, c->fmt, &out);
	fwrite(out.buf, 1, out.len, stdout);
	vr_buf_release(&out);
	compare_vmstat_release(&v);
	compare_result_release(&r);
	return VR_EXIT_OK;
}

/* compare NAME=FILE,...: the files loaded into a temporary database
 * (compare-files.h), compared, and the database removed. */
static int compare_files(struct cmd_ctx *ctx, struct compare_cli *c)
{
	struct compare_files_opts fo = {
		.progress = !c->quiet, .decl = &c->decl,
		.trace_loaded = c->verbose ? say_loaded : NULL,
		.latency_loaded = c->verbose ? say_imported : NULL,
	};
	struct compare_files f;
	int ret = compare_files_open(&f, ctx->argc, ctx->argv, &fo);

	if (ret)
		return vr_exit_of(ret);
	if (!c->o.kernels) {	/* the NAMEs, in argument order */
		c->o.kernels = compare_files_take_names(&f, &c->o.nkernels);
		c->own_kernels = true;
	}
	ret = run_compare(f.st, c);
	compare_files_close(&f);
	return ret;
}

static int compare_run(struct cmd_ctx *ctx)
{
	struct compare_cli *c = ctx->opts;

	return ctx->st ? run_compare(ctx->st, c) : compare_files(ctx, c);
}

static void compare_release(void *opts)
{
	struct compare_cli *c = opts;

	if (c->own_kernels)
		for (size_t i = 0; i < c->o.nkernels; i++)
			free(c->o.kernels[i]);
	cmd_trim_release(&c->trim, &c->o);
	free(c->higher_arg);
	free(c->zeros_arg);
	free(c->decl.higher);
	free(c->decl.zeros_real);
}

static const char *const compare_synopsis[] = {
	"[-d DB] [--kernels K1,K2,...] [--metrics M,...]\n"
	"[--stats S,...] [--format text|markdown|csv|json]\n"
	"[--alpha A] [--significance welch|ci] [--p-adjust bh|none] [--ci] [--ci-method welch|bootstrap]\n[--print-ratio] [--align-marker TEXT] [--layout 2017|mmtests] [--width COLS]",
	"[OPTIONS] NAME=FILE,FILE... NAME=FILE,...",
	NULL
};

const struct cmd cmd_compare_desc = {
	.name = "compare",
	.summary = "changelog comparison table across kernels (mmtests layout)",
	.synopsis = compare_synopsis,
	.description =
		"Print the comparison table a patch changelog carries, in the mmtests\n"
		"compare layout: one column per kernel, the first is the baseline; for each\n"
		"latency operation (p50/p95/p99/max of DirectReclaim, KswapdAwake, ..., and\n"
		"imported application latencies such as p95-Write) statistics over the\n"
		"kernel's per-run values, with the gain over the baseline in percent\n"
		"(positive is better; -inf% against a baseline of 0, where no percentage\n"
		"exists) and *gain%* where Welch's t-test finds the means\n"
		"different at level A; then a block of counters (means over the runs).\n"
		"Latencies are in microseconds (us); imported ones as the report gives\n"
		"them (us when it says usec).  Lines under each table say the unit and the\n"
		"test; a row marked [N] has footnote N under the table: which kernels had no\n"
		"samples (0 in N runs: shown as 0) or did not record the metric (shown as -,\n"
		"never 0; an imported run whose values are all 0 counts as not recorded\n"
		"unless its zeros are declared real).\n"
		"Without -d, each NAME=FILE,... is loaded into a temporary database first:\n"
		"trace.dat files as runs of kernel NAME, *.txt files as their latencies.\n"
		"Each NAME (and each --kernels item) may be given once; one file may be\n"
		"given for two NAMEs (A/A comparison).",
	.options = compare_options,
	.help_col = 24,
	.db = CMD_DB_RDONLY,
	.flags = CMD_DB_OPTIONAL | CMD_DB_MANY,
	.opts_size = sizeof(struct compare_cli),
	.defaults = &(const struct compare_cli){ .o.alpha = 0.10, .fmt = RENDER_TEXT, .width = 80 },
	.option = compare_option,
	.check = compare_check,
	.run = compare_run,
	.release = compare_release,
};
