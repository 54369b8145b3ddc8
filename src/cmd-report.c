// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-report.c - `vmscan-report report`: the evidence bundle of a database
 * in one directory: the changelog table (compare.txt, compare.md), the
 * per-run summary (summary.txt), the run list (runs.txt), every chart as
 * PNG and SVG, and index.md linking them.  The text files are what the
 * `compare`, `summary` and `runs` commands print; the charts what `chart`
 * draws.  The names written are kept in DIR/MANIFEST, and a re-run first
 * removes the files of the previous manifest, so nothing stale is left.
 */
#include "chart-data.h"
#include "chart-draw.h"
#include "cmd.h"
#include "compare.h"
#include "render.h"
#include "render-cairo.h"
#include "store.h"
#include "store-query.h"
#include "vr.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const report_usage[] = {
	"usage: vmscan-report report -d DB -o DIR",
	"",
	"Write the evidence bundle of DB into DIR (created if missing):",
	"  compare.txt, compare.md   the changelog table (as 'compare' prints it)",
	"  summary.txt               per-run totals, per process, per kswapd",
	"  runs.txt                  the loaded runs (as 'runs' prints it)",
	"  latency-M.png/.svg        candlesticks of every latency metric M with data",
	"  cdf-M.png/.svg            distribution of M (trace metrics)",
	"  counters.png/.svg         the counters per kernel",
	"  timeline-run-N.png/.svg   the timeline of every run",
	"  index.md                  links to all of them",
	"Files written by an earlier report into DIR (listed in DIR/MANIFEST) are",
	"removed first; nothing else in DIR is touched.",
	"",
	"  -d, --database DB   SQLite database written by 'load'",
	"  -o, --output DIR    directory to write",
	"  -W, --width PX      chart width (default 800)",
	"  -H, --height PX     chart height (default 600, timelines grow with nodes)",
	"  -h, --help          show this help",
	NULL
};

struct report {
	const char *db_path, *dir;
	struct store *st;
	int width, height;
	struct vr_buf index;	/* index.md being written */
	struct vr_buf table;	/* the changelog table section of index.md */
	char **files;		/* names written, for MANIFEST */
	size_t nfiles;
	int failed;		/* a part could not be written */
};

static char *path_of(const struct report *r, const char *name)
{
	struct vr_buf b;

	vr_buf_init(&b);
	vr_buf_addf(&b, "%s/%s", r->dir, name);
	return vr_buf_detach(&b);
}

static void note_file(struct report *r, const char *name)
{
	r->files = vr_realloc(r->files, (r->nfiles + 1) * sizeof(*r->files));
	r->files[r->nfiles++] = vr_strdup(name);
}

static int write_file(struct report *r, const char *name, const char *text, size_t len)
{
	char *path = path_of(r, name);
	FILE *f = fopen(path, "w");
	int ret = 0;

	if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
		ret = vr_error("%s: cannot write: %s", path, strerror(errno));
		if (f)
			fclose(f);
	}
	free(path);
	if (!ret)
		note_file(r, name);
	return ret;
}

/* Run a command's cmd_* function with its stdout going to DIR/@name. */
static int capture(struct report *r, const char *name, int (*fn)(int, char **), int argc,
		   char **argv)
{
	char *path = path_of(r, name);
	int fd, saved, status;

	fflush(stdout);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		vr_error("%s: cannot write: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	saved = dup(STDOUT_FILENO);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	status = fn(argc, argv);
	if (fflush(stdout) || ferror(stdout)) {
		vr_error("%s: cannot write: %s", path, strerror(errno));
		clearerr(stdout);
		status = VR_EXIT_FAIL;
	}
	dup2(saved, STDOUT_FILENO);
	close(saved);
	free(path);
	note_file(r, name);
	return status ? -1 : 0;
}

/* Remove the files listed in DIR/MANIFEST by an earlier report. */
static void remove_previous(struct report *r)
{
	char *mpath = path_of(r, "MANIFEST");
	FILE *f = fopen(mpath, "r");
	char line[512];

	while (f && fgets(line, sizeof(line), f)) {
		char *p;

		line[strcspn(line, "\n")] = '\0';
		if (!*line || strchr(line, '/') || !strcmp(line, ".") || !strcmp(line, ".."))
			continue;	/* only plain names inside DIR */
		p = path_of(r, line);
		unlink(p);
		free(p);
	}
	if (f)
		fclose(f);
	unlink(mpath);
	free(mpath);
}

static int write_manifest(struct report *r)
{
	struct vr_buf b;
	int ret;

	vr_buf_init(&b);
	for (size_t i = 0; i < r->nfiles; i++)
		vr_buf_addf(&b, "%s\n", r->files[i]);
	vr_buf_addstr(&b, "MANIFEST\n");
	ret = write_file(r, "MANIFEST", b.buf, b.len);
	vr_buf_release(&b);
	return ret;
}

/* compare.txt and compare.md from the comparison library. */
static void report_compare(struct report *r)
{
	static const struct {
		const char *name;
		enum render_format fmt;
	} out[] = { { "compare.txt", RENDER_TEXT }, { "compare.md", RENDER_MARKDOWN } };
	struct compare_opts o = { .alpha = 0.10 };
	struct compare_result res;

	if (compare_build(r->st, &o, &res)) {
		const char *msg = "no comparison: see the error 'vmscan-report compare' prints\n";

		for (size_t i = 0; i < VR_ARRAY_SIZE(out); i++)
			write_file(r, out[i].name, msg, strlen(msg));
		vr_buf_addstr(&r->index, "- no changelog table could be built (see compare.txt)\n");
		return;
	}
	vr_buf_addstr(&r->index, "- [compare.txt](compare.txt): the changelog table"
		      " (mmtests compare layout, paste into a commit message);"
		      " [compare.md](compare.md) as Markdown\n");
	for (size_t i = 0; i < VR_ARRAY_SIZE(out); i++) {
		struct vr_buf b;

		vr_buf_init(&b);
		render_tables(res.tables, res.ntables, out[i].fmt, &b);
		if (write_file(r, out[i].name, b.buf, b.len))
			r->failed = 1;
		if (out[i].fmt == RENDER_TEXT)	/* shown in index.md too */
			vr_buf_addf(&r->table, "## Changelog table\n\n```\n%s```\n\n", b.buf);
		vr_buf_release(&b);
	}
	compare_result_release(&res);
}

static void report_text(struct report *r)
{
	char *db = (char *)r->db_path;
	char *runs_argv[] = { "runs", "-d", db, NULL };
	char *summary_argv[] = { "summary", "-d", db, NULL };

	report_compare(r);
	if (capture(r, "runs.txt", cmd_runs, 3, runs_argv))
		r->failed = 1;
	vr_buf_addstr(&r->index, "- [runs.txt](runs.txt): the loaded runs, their kernels and"
		      " data quality\n");
	if (capture(r, "summary.txt", cmd_summary, 3, summary_argv))
		r->failed = 1;
	vr_buf_addstr(&r->index, "- [summary.txt](summary.txt): per run what reclaim did: totals,"
		      " per process, per kswapd with its sleep decisions, data quality\n");
}

/*
 * One chart as NAME.png and NAME.svg (one query of the data), with an
 * index entry that links only the files written.
 */
static void report_chart(struct report *r, struct chart_draw_req *q, const char *name,
			 const char *caption)
{
	char png[200], svg[200];
	char *png_path, *svg_path;
	unsigned drawn = 0;

	snprintf(png, sizeof(png), "%s.png", name);
	snprintf(svg, sizeof(svg), "%s.svg", name);
	png_path = path_of(r, png);
	svg_path = path_of(r, svg);
	q->out = png_path;
	q->also_out = svg_path;
	q->drawn = &drawn;
	if (chart_draw(r->st, q))
		r->failed = 1;
	q->out = q->also_out = NULL;
	q->drawn = NULL;
	free(png_path);
	free(svg_path);
	vr_buf_addf(&r->index, "### %s\n\n", caption);
	if (drawn & 1) {
		note_file(r, png);
		vr_buf_addf(&r->index, "![%s](%s)\n\n", caption, png);
	}
	if (drawn & 2) {
		note_file(r, svg);
		vr_buf_addf(&r->index, "[SVG](%s)\n\n", svg);
	}
	if (drawn != 3)
		vr_buf_addf(&r->index, "(%s not written: see the errors vmscan-report report"
			    " printed)\n\n", drawn == 1 ? "SVG" : drawn == 2 ? "PNG" : "PNG and SVG");
}

static int report_timelines(struct report *r)
{
	struct store_stmt *q = store_stmt_new(r->st, "SELECT id, kernel, iteration FROM run"
					      " WHERE source_format <> 'latency' ORDER BY id",
					      "runs with a timeline");
	int rc;

	if (!q)
		return -1;
	vr_buf_addstr(&r->index, "## Timelines\n\n");
	while ((rc = store_step(q)) > 0) {
		struct chart_draw_req req = { .kind = "timeline", .width = r->width,
					      .height = r->height, .nid = -1, .to_s = -1 };
		char name[64], caption[256];

		req.run_id = store_col_int64(q, 0);
		snprintf(name, sizeof(name), "timeline-run-%lld", req.run_id);
		snprintf(caption, sizeof(caption), "Run %lld: %s, iteration %d", req.run_id,
			 store_col_text(q, 1), store_col_int(q, 2));
		report_chart(r, &req, name, caption);
	}
	store_stmt_free(q);
	return rc;
}

static int report_charts(struct report *r)
{
	struct chart_draw_req req = { .width = r->width, .height = r->height };
	char **metrics;
	size_t n;

	if (chart_metric_names(r->st, &metrics, &n))
		return -1;
	vr_buf_addstr(&r->index, "\n## Latency\n\n");
	if (!n)
		vr_buf_addstr(&r->index, "No latency metric has samples in this database.\n\n");
	for (size_t i = 0; i < n; i++) {
		char name[160], caption[200];

		req.kind = "latency";
		req.metric = metrics[i];
		snprintf(name, sizeof(name), "latency-%s", metrics[i]);
		snprintf(caption, sizeof(caption), "%s: per-run percentiles", metrics[i]);
		report_chart(r, &req, name, caption);
		if (chart_metric_is_trace(metrics[i])) {
			req.kind = "cdf";
			snprintf(name, sizeof(name), "cdf-%s", metrics[i]);
			snprintf(caption, sizeof(caption), "%s: distribution of all samples",
				 metrics[i]);
			report_chart(r, &req, name, caption);
		}
		free(metrics[i]);
	}
	free(metrics);
	vr_buf_addstr(&r->index, "## Counters\n\n");
	req.kind = "counters";
	req.metric = NULL;
	report_chart(r, &req, "counters", "Counters per kernel");
	return report_timelines(r);
}

static int parse_args(int argc, char **argv, struct report *r)
{
	static const struct option longopts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "output", required_argument, NULL, 'o' },
		{ "width", required_argument, NULL, 'W' },
		{ "height", required_argument, NULL, 'H' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:o:W:H:h", longopts, NULL)) != -1) {
		if (c == 'd')
			r->db_path = optarg;
		else if (c == 'o')
			r->dir = optarg;
		else if (c == 'W' || c == 'H') {
			if (vr_parse_int(optarg, c == 'W' ? &r->width : &r->height))
				return vr_error("report: bad size '%s'", optarg);
		} else if (c == 'h')
			return 1;
		else
			return -1;
	}
	if (!r->db_path || !r->dir || optind != argc)
		return vr_error("report: -d DB and -o DIR are required, nothing else");
	if (r->width < RENDER_CHART_MIN_SIDE || r->width > RENDER_CHART_MAX_SIDE ||
	    (r->height && (r->height < RENDER_CHART_MIN_SIDE || r->height > RENDER_CHART_MAX_SIDE)))
		return vr_error("report: chart size out of range (%d..%d per side)",
				RENDER_CHART_MIN_SIDE, RENDER_CHART_MAX_SIDE);
	return 0;
}

int cmd_report(int argc, char **argv)
{
	struct report r = { .width = 800, .height = 0 };	/* 0: chart_draw() decides */
	int ret = parse_args(argc, argv, &r);

	if (ret > 0)
		return cmd_usage(report_usage, 0);
	if (ret < 0)
		return cmd_usage(report_usage, VR_EXIT_USAGE);
	r.st = store_open(r.db_path, STORE_RDONLY);
	if (!r.st)
		return VR_EXIT_FAIL;
	struct stat dst;

	if ((mkdir(r.dir, 0755) && errno != EEXIST) || stat(r.dir, &dst) || !S_ISDIR(dst.st_mode)) {
		vr_error("%s: cannot write the bundle there: %s", r.dir,
			 errno == EEXIST ? "not a directory" : strerror(errno));
		store_close(r.st);
		return VR_EXIT_FAIL;
	}
	remove_previous(&r);
	vr_buf_init(&r.index);
	vr_buf_addf(&r.index, "# vmscan-report evidence bundle\n\n"
		    "Written by `vmscan-report report -d %s -o %s`; every file is regenerated"
		    " by running it again.\n\n## Tables\n\n", r.db_path, r.dir);
	vr_buf_init(&r.table);
	report_text(&r);
	vr_buf_addf(&r.index, "\n%s", r.table.buf);
	vr_buf_release(&r.table);
	if (report_charts(&r))
		r.failed = 1;
	if (write_file(&r, "index.md", r.index.buf, r.index.len) || write_manifest(&r))
		r.failed = 1;
	vr_buf_release(&r.index);
	for (size_t i = 0; i < r.nfiles; i++)
		free(r.files[i]);
	free(r.files);
	store_close(r.st);
	return r.failed ? VR_EXIT_FAIL : VR_EXIT_OK;
}
