// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-compare.c - `vmscan-report compare`: the changelog comparison table
 * (mmtests compare layout) of the kernels in a database, or of files named
 * on the command line and loaded into a temporary database.
 */
#include "cmd.h"
#include "compare.h"
#include "compare-vmstat.h"
#include "latency-import.h"
#include "load.h"
#include "render.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct compare_cli {
	struct cmd_trim trim;	/* --kernels, --metrics, --stats */
	struct compare_opts o;
	enum render_format fmt;
	bool own_kernels;	/* o.kernels[i] are the NAMEs of NAME=FILE (owned) */
	bool quiet;		/* -q: no progress line while loading NAME=FILE */
	bool verbose;		/* -v: say what each NAME=FILE file gave */
	int width;		/* --width: text fits it (0: no limit) */
	char *higher_arg, *zeros_arg;	/* copies cut by cmd_split_list() */
	struct latency_import_decl decl;	/* for the NAME=FILE.txt imports */
};

char **cmd_split_list(char *s, size_t *n)
{
	char **v = NULL;

	*n = 0;
	while (s) {
		char *comma = strchr(s, ',');

		if (comma)
			*comma = '\0';
		if (*s) {
			v = vr_realloc(v, (*n + 1) * sizeof(*v));
			v[(*n)++] = s;
		}
		s = comma ? comma + 1 : NULL;
	}
	return v;
}

static int parse_stats(struct cmd_trim *t, struct compare_opts *o, const char *cmd,
		       const char *arg)
{
	char *copy = vr_strdup(arg);
	size_t n;
	char **names = cmd_split_list(copy, &n);
	int ret = 0;

	t->stats = vr_calloc(n + 1, sizeof(*t->stats));
	for (size_t i = 0; i < n && !ret; i++)
		if (compare_stat_parse(names[i], &t->stats[i]))
			ret = vr_error("%s: unknown statistic '%s' (valid: Min, Amean, Hmean,"
				       " Stddev, CoeffVar, Max, BAmean-NN, Pctile-NN)", cmd, names[i]);
	o->stats = t->stats;
	o->nstats = n;
	if (!ret && !n)
		ret = vr_error("%s: --stats needs at least one statistic (Min, Amean,"
			       " Hmean, Stddev, CoeffVar, Max, BAmean-NN, Pctile-NN)", cmd);
	free(names);
	free(copy);
	return ret;
}

bool cmd_trim_key(int key)
{
	return key == 'k' || key == 'm' || key == 's';
}

enum cmd_status cmd_trim_option(struct cmd_trim *t, struct compare_opts *o, const char *cmd,
				int key, const char *arg)
{
	switch (key) {
	case 'k':
		free(t->kernels_arg);
		t->kernels_arg = vr_strdup(arg);
		free(o->kernels);
		o->kernels = cmd_split_list(t->kernels_arg, &o->nkernels);
		break;
	case 'm':
		free(t->metrics_arg);
		t->metrics_arg = vr_strdup(arg);
		free(o->metrics);
		o->metrics = cmd_split_list(t->metrics_arg, &o->nmetrics);
		break;
	case 's':
		free(t->stats);
		if (parse_stats(t, o, cmd, arg))
			return CMD_USAGE;
		break;
	}
	return CMD_OK;
}

enum cmd_status cmd_trim_check(const struct compare_opts *o, const char *cmd)
{
	for (size_t i = 0; i < o->nkernels; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(o->kernels[i], o->kernels[j]))
				return vr_error("%s: kernel '%s' is named twice in --kernels", cmd,
						o->kernels[i]), CMD_USAGE;
	return CMD_OK;
}

void cmd_trim_release(struct cmd_trim *t, struct compare_opts *o)
{
	free(o->kernels);
	free(o->metrics);
	free(t->kernels_arg);
	free(t->metrics_arg);
	free(t->stats);
}

/* Do NAME=... arguments @a and @b name the same kernel? */
static bool same_name(const char *a, const char *b)
{
	size_t la = strcspn(a, "="), lb = strcspn(b, "=");

	return la == lb && !strncmp(a, b, la);
}

enum { OPT_SIGNIFICANCE = CMD_OPT_LONG, OPT_LAYOUT, OPT_METRIC, OPT_HIGHER, OPT_ZEROS, OPT_CI, OPT_RATIO, OPT_WIDTH,
       OPT_ALIGN, OPT_CI_METHOD };

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
		c->decl.higher = cmd_split_list(c->higher_arg, &c->decl.nhigher);
		break;
	case OPT_ZEROS:
		free(c->zeros_arg);
		free(c->decl.zeros_real);
		c->zeros_arg = vr_strdup(arg);
		c->decl.zeros_real = cmd_split_list(c->zeros_arg, &c->decl.nzeros_real);
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
	st = check_operands(ctx->argc, ctx->argv);
	if (st != CMD_OK)
		return st;
	return cmd_trim_check(&c->o, "compare");
}

static int ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
}

/*
 * A file may be named for two kernels of the temporary database (an A/A
 * comparison of one recording with itself).  `load` refuses a file whose
 * contents are already in the database (run.content_sha256 is UNIQUE), so
 * once a kernel's files are in, their keys get " NAME" appended: the check
 * then only applies within one NAME=FILE,... argument.  Temporary
 * database only; a database given with -d is never written.
 */
static int rekey_runs(struct store *st, const char *kernel)
{
	struct store_stmt *q = store_stmt_new(st, "UPDATE run SET content_sha256 ="
					      " content_sha256 || ' ' || ?1 WHERE kernel = ?1",
					      "rekey the runs of a kernel");
	int rc;

	store_bind_text(q, 1, kernel);
	rc = store_step(q);
	store_stmt_free(q);
	return rc < 0 ? -1 : 0;
}

/* A file named twice in one NAME=FILE,... is a usage error: the second load
 * would only say "already loaded". */
static int check_files(char **files, size_t n, const char *kernel)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(files[i], files[j]))
				return vr_error("compare: %s is given twice for kernel '%s'",
						files[i], kernel);
	return 0;
}

/* -v: what a NAME=FILE trace gave (stderr: stdout is the table's). */
static void say_loaded(void *arg, const struct load_done *d)
{
	(void)arg;
	fprintf(stderr, "compare: %s: %s: %llu events%s%s\n", d->kernel, d->path,
		(unsigned long long)d->events, d->how_read ? "; " : "",
		d->how_read ? d->how_read : "");
}

/* Load the trace @path into @st as a run of @kernel, as `load` does (in a
 * worker process, a crash costing only the file).  0 or -1.  A signal that
 * interrupted the load is raised again once load_files() has put compare's
 * handler back, which removes the temporary database and ends compare. */
static int load_trace(struct store *st, const char *path, const char *kernel,
		      const struct compare_cli *c)
{
	struct load_opts o = { .db = store_path(st), .kernel = kernel,
			       .premature_ms = LOAD_PREMATURE_MS_DEFAULT, .progress = !c->quiet,
			       .loaded = c->verbose ? say_loaded : NULL };
	char *files[] = { (char *)path };
	struct load_result r;
	int ret = load_files(&o, files, 1, &r);

	if (r.interrupted)
		raise(r.interrupted);
	return ret;
}

/* Import the latency report @path into @st as a run of @kernel, as
 * `import-latency` does; with -v say so on stderr.  0 or -1. */
static int import_latency(struct store *st, const char *path, const char *kernel,
			  const struct compare_cli *c)
{
	struct latency_import_result r;

	if (latency_import_file(st, path, kernel, 0, false, &c->decl, &r))
		return -1;
	latency_import_warn(path, &r);
	if (c->verbose)
		fprintf(stderr, "compare: %s: %s: %zu latency samples\n", kernel, path,
			r.nsamples);
	return 0;
}

/* Load NAME=FILE,... arguments into @st; kernels in argument order.
 * Returns 0, VR_ERR (load failed) or VR_ERR_USAGE (a file named twice). */
static int load_args(struct store *st, int argc, char **argv, struct compare_cli *c)
{
	char **names = vr_calloc((size_t)argc + 1, sizeof(*names));
	size_t nnames = 0;

	for (int i = 0; i < argc; i++) {
		char *arg = vr_strdup(argv[i]), *eq = strchr(arg, '='), **files;
		size_t nfiles;
		int failed = 0;

		*eq = '\0';
		files = cmd_split_list(eq + 1, &nfiles);
		failed = check_files(files, nfiles, arg) ? VR_ERR_USAGE : 0;
		for (size_t f = 0; f < nfiles && !failed; f++)
			failed = ends_with(files[f], ".txt")
				 ? import_latency(st, files[f], arg, c)
				 : load_trace(st, files[f], arg, c);
		free(files);
		names[nnames++] = arg;
		if (!failed)
			failed = rekey_runs(st, arg);
		if (failed) {
			for (size_t j = 0; j < nnames; j++)
				free(names[j]);
			free(names);
			return failed == VR_ERR_USAGE ? VR_ERR_USAGE : VR_ERR;
		}
	}
	if (!c->o.kernels) {
		c->o.kernels = names;
		c->o.nkernels = nnames;
		c->own_kernels = true;
		names = NULL;
	} else {
		for (size_t j = 0; j < nnames; j++)
			free(names[j]);
	}
	free(names);
	return 0;
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

/*
 * The temporary database of a compare given trace files, and its journal:
 * removed by a SIGINT, SIGTERM or SIGHUP that ends the command (unlink()
 * is async-signal-safe), then the signal is raised again.
 */
static char tmp_db[4096], tmp_journal[4096 + 8];

static void remove_tmp_db(int sig)
{
	unlink(tmp_journal);
	unlink(tmp_db);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void remove_tmp_db_on_signals(const char *path, struct vr_interrupts *saved)
{
	snprintf(tmp_db, sizeof(tmp_db), "%s", path);
	snprintf(tmp_journal, sizeof(tmp_journal), "%s-journal", path);
	vr_catch_interrupts(remove_tmp_db, saved);
}

/* compare NAME=FILE,...: the files loaded into a temporary database,
 * removed at the end and by the signals that end the command. */
static int compare_files(struct cmd_ctx *ctx, struct compare_cli *c)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char tmpdb[4096];
	struct vr_interrupts saved;
	struct store *st;
	int fd, ret;

	snprintf(tmpdb, sizeof(tmpdb), "%s/vmscan-report-compare.XXXXXX", dir);
	fd = mkstemp(tmpdb);
	if (fd < 0)
		return vr_error("cannot create a temporary database in %s", dir), VR_EXIT_FAIL;
	close(fd);
	remove_tmp_db_on_signals(tmpdb, &saved);
	st = store_open(tmpdb, STORE_RW);
	ret = st ? vr_exit_of(load_args(st, ctx->argc, ctx->argv, c)) : VR_EXIT_FAIL;
	if (ret == VR_EXIT_OK)
		ret = run_compare(st, c);
	store_close(st);
	unlink(tmpdb);
	vr_restore_interrupts(&saved);
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
	"[--alpha A] [--significance welch|ci] [--ci] [--ci-method welch|bootstrap]\n[--print-ratio] [--align-marker TEXT] [--layout 2017|mmtests] [--width COLS]",
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
