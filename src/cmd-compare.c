// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-compare.c - `vmscan-report compare`: the changelog comparison table
 * (mmtests compare layout) of the kernels in a database, or of files named
 * on the command line and loaded into a temporary database.
 */
#include "cmd.h"
#include "compare.h"
#include "load.h"
#include "render.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

#include <getopt.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const compare_usage[] = {
	"usage: vmscan-report compare -d DB [--kernels K1,K2,...] [--metrics M,...]",
	"                             [--stats S,...] [--format text|markdown|csv|json]",
	"                             [--alpha A]",
	"   or: vmscan-report compare [OPTIONS] NAME=FILE,FILE... NAME=FILE,...",
	"",
	"Print the comparison table a patch changelog carries, in the mmtests",
	"compare layout: one column per kernel, the first is the baseline; for each",
	"latency operation (p50/p95/p99/max of DirectReclaim, KswapdAwake, ..., and",
	"imported application latencies such as p95-Write) statistics over the",
	"kernel's per-run values, with the gain over the baseline in percent",
	"(positive is better) and *gain%* where Welch's t-test finds the means",
	"different at level A; then a block of counters (means over the runs).",
	"Without -d, each NAME=FILE,... is loaded into a temporary database first:",
	"trace.dat files as runs of kernel NAME, *.txt files as their latencies.",
	"Each NAME (and each --kernels item) may be given once; one file may be",
	"given for two NAMEs (A/A comparison).",
	"",
	"  -d, --database DB     database written by `load` / `import-latency`",
	"  -k, --kernels LIST    kernels to compare, baseline first (default: all, in",
	"                        load order)",
	"  -m, --metrics LIST    show only these operations (p95-DirectReclaim,",
	"                        p95-Write) or metrics (DirectReclaim, Write; names are",
	"                        case-sensitive, an unknown one is an error); the",
	"                        counters block is then left out unless the LIST",
	"                        has 'counters' (default: everything)",
	"  -s, --stats LIST      Min, Amean, Hmean, Stddev, CoeffVar, Max, BAmean-NN,",
	"                        Pctile-NN (default: Min,Amean,Stddev,CoeffVar,Max,",
	"                        BAmean-95)",
	"  -f, --format FMT      text (default), markdown, csv or json",
	"  -a, --alpha A         significance level of the t-test (default 0.10)",
	"  -h, --help            show this help",
	NULL
};

struct compare_cli {
	const char *db;
	char *kernels_arg, *metrics_arg;	/* owned copies, split in place */
	struct compare_opts o;
	struct compare_stat *stats;
	enum render_format fmt;
};

/* Split @s at commas in place into a malloc'ed array; empty items skipped. */
static char **split_list(char *s, size_t *n)
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

static int parse_stats(struct compare_cli *c, const char *arg)
{
	char *copy = vr_strdup(arg);
	size_t n;
	char **names = split_list(copy, &n);
	int ret = 0;

	c->stats = vr_calloc(n + 1, sizeof(*c->stats));
	for (size_t i = 0; i < n && !ret; i++)
		if (compare_stat_parse(names[i], &c->stats[i]))
			ret = vr_error("compare: unknown statistic '%s'", names[i]);
	c->o.stats = c->stats;
	c->o.nstats = n;
	if (!ret && !n)
		ret = vr_error("compare: --stats needs at least one statistic (Min, Amean,"
			       " Hmean, Stddev, CoeffVar, Max, BAmean-NN, Pctile-NN)");
	free(names);
	free(copy);
	return ret;
}

/* Do NAME=... arguments @a and @b name the same kernel? */
static bool same_name(const char *a, const char *b)
{
	size_t la = strcspn(a, "="), lb = strcspn(b, "=");

	return la == lb && !strncmp(a, b, la);
}

static int parse_opts(int argc, char **argv, struct compare_cli *c)
{
	static const struct option longopts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "kernels", required_argument, NULL, 'k' },
		{ "metrics", required_argument, NULL, 'm' },
		{ "stats", required_argument, NULL, 's' },
		{ "format", required_argument, NULL, 'f' },
		{ "alpha", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;
	char *end;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "d:k:m:s:f:a:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'd': c->db = optarg; break;
		case 'k':
			free(c->kernels_arg);
			c->kernels_arg = vr_strdup(optarg);
			free(c->o.kernels);
			c->o.kernels = split_list(c->kernels_arg, &c->o.nkernels);
			break;
		case 'm':
			free(c->metrics_arg);
			c->metrics_arg = vr_strdup(optarg);
			free(c->o.metrics);
			c->o.metrics = split_list(c->metrics_arg, &c->o.nmetrics);
			break;
		case 's':
			free(c->stats);
			if (parse_stats(c, optarg))
				return VR_EXIT_USAGE;
			break;
		case 'f':
			if (render_format_parse(optarg, &c->fmt))
				return vr_error("compare: unknown format '%s'", optarg), VR_EXIT_USAGE;
			break;
		case 'a':
			c->o.alpha = strtod(optarg, &end);
			if (end == optarg || *end || !(c->o.alpha > 0 && c->o.alpha < 1))
				return vr_error("--alpha wants a number between 0 and 1, not '%s'",
						optarg), VR_EXIT_USAGE;
			break;
		case 'h': return cmd_usage(compare_usage, VR_EXIT_OK) - 1;
		default: return cmd_usage(compare_usage, VR_EXIT_USAGE);
		}
	}
	if (c->db && optind < argc)
		return vr_error("compare: give -d DB or NAME=FILE,... arguments, not both"),
		       cmd_usage(compare_usage, VR_EXIT_USAGE);
	if (!c->db && optind >= argc)
		return vr_error("compare: -d DB or NAME=FILE,... arguments are required"),
		       cmd_usage(compare_usage, VR_EXIT_USAGE);
	for (int i = optind; i < argc; i++) {
		if (!strchr(argv[i], '=') || argv[i][0] == '=')
			return vr_error("compare: '%s' is not NAME=FILE,...", argv[i]),
			       cmd_usage(compare_usage, VR_EXIT_USAGE);
		for (int j = optind; j < i; j++)
			if (same_name(argv[i], argv[j]))
				return vr_error("compare: kernel '%.*s' is named twice; give its"
						" files as one NAME=FILE1,FILE2,...",
						(int)strcspn(argv[i], "="), argv[i]),
				       VR_EXIT_USAGE;
	}
	for (size_t i = 0; i < c->o.nkernels; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(c->o.kernels[i], c->o.kernels[j]))
				return vr_error("compare: kernel '%s' is named twice in --kernels",
						c->o.kernels[i]), VR_EXIT_USAGE;
	return 0;
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

/* Load the trace @path into @st as a run of @kernel, as `load` does (in a
 * worker process, a crash costing only the file).  0 or -1.  A signal that
 * interrupted the load is raised again once load_files() has put compare's
 * handler back, which removes the temporary database and ends compare. */
static int load_trace(struct store *st, const char *path, const char *kernel)
{
	struct load_opts o = { .db = store_path(st), .kernel = kernel,
			       .premature_ms = LOAD_PREMATURE_MS_DEFAULT };
	char *files[] = { (char *)path };
	struct load_result r;
	int ret = load_files(&o, files, 1, &r);

	if (r.interrupted)
		raise(r.interrupted);
	return ret;
}

/* Load NAME=FILE,... arguments into @st; kernels in argument order.
 * Returns 0, -1 (load failed) or -2 (a file named twice). */
static int load_args(struct store *st, int argc, char **argv, struct compare_cli *c)
{
	char **names = vr_calloc((size_t)argc + 1, sizeof(*names));
	size_t nnames = 0;

	for (int i = 0; i < argc; i++) {
		char *arg = vr_strdup(argv[i]), *eq = strchr(arg, '='), **files;
		size_t nfiles;
		int failed = 0;

		*eq = '\0';
		files = split_list(eq + 1, &nfiles);
		failed = check_files(files, nfiles, arg) * 2;
		for (size_t f = 0; f < nfiles && !failed; f++)
			failed = ends_with(files[f], ".txt")
				 ? cmd_import_latency_file(st, files[f], arg, 0, 1, false)
				 : load_trace(st, files[f], arg);
		free(files);
		names[nnames++] = arg;
		if (!failed)
			failed = rekey_runs(st, arg);
		if (failed) {
			for (size_t j = 0; j < nnames; j++)
				free(names[j]);
			free(names);
			return failed == -2 ? -2 : -1;
		}
	}
	if (!c->o.kernels) {
		c->o.kernels = names;
		c->o.nkernels = nnames;
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
	struct vr_buf out;
	int bad = compare_check_metrics(st, &c->o);

	if (bad)
		return bad == -2 ? VR_EXIT_USAGE : VR_EXIT_FAIL;
	if (compare_build(st, &c->o, &r))
		return VR_EXIT_FAIL;
	vr_buf_init(&out);
	render_tables(r.tables, r.tables[1].nrows ? 2 : 1, c->fmt, &out);
	fwrite(out.buf, 1, out.len, stdout);
	vr_buf_release(&out);
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

int cmd_compare(int argc, char **argv)
{
	struct compare_cli c = { .o.alpha = 0.10, .fmt = RENDER_TEXT };
	char tmpdb[4096] = "";
	struct vr_interrupts saved;
	struct store *st = NULL;
	bool own_kernels = false;
	int ret = parse_opts(argc, argv, &c);

	if (ret)
		goto out;
	if (!c.db) {
		const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
		int fd;

		snprintf(tmpdb, sizeof(tmpdb), "%s/vmscan-report-compare.XXXXXX", dir);
		fd = mkstemp(tmpdb);
		if (fd < 0) {
			vr_error("cannot create a temporary database in %s", dir);
			ret = VR_EXIT_FAIL;
			tmpdb[0] = '\0';
			goto out;
		}
		close(fd);
		remove_tmp_db_on_signals(tmpdb, &saved);
		st = store_open(tmpdb, STORE_RW);
		own_kernels = !c.o.kernels;
		ret = st ? load_args(st, argc - optind, argv + optind, &c) : -1;
		if (ret) {
			ret = ret == -2 ? VR_EXIT_USAGE : VR_EXIT_FAIL;
			goto out;
		}
	} else {
		st = store_open(c.db, STORE_RDONLY);
		if (!st) {
			ret = VR_EXIT_FAIL;
			goto out;
		}
	}
	ret = run_compare(st, &c);
out:
	store_close(st);
	if (tmpdb[0]) {
		unlink(tmpdb);
		vr_restore_interrupts(&saved);
	}
	if (own_kernels)
		for (size_t i = 0; i < c.o.nkernels; i++)
			free(c.o.kernels[i]);
	free(c.o.kernels);
	free(c.o.metrics);
	free(c.kernels_arg);
	free(c.metrics_arg);
	free(c.stats);
	return ret < 0 ? VR_EXIT_OK : ret;
}
