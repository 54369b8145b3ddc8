// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - the evidence bundle (report.h): the text files from the
 * compare, runs and summary modules, evidence.db (store-evidence.c), every
 * chart (chart-draw.h), index.md linking them, all through one outdir; and
 * the child process that writes it.
 */
#define _GNU_SOURCE	/* sigabbrev_np */
#include "report.h"
#include "chart-data.h"
#include "child.h"
#include "chart-draw.h"
#include "chart-windows.h"
#include "compare.h"
#include "compare-vmstat.h"
#include "whatchanged.h"
#include "metrics.h"
#include "outfile.h"
#include "progress.h"
#include "render.h"
#include "runs.h"
#include "store.h"
#include "store-query.h"
#include "summary.h"
#include "vr.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* SIGINT, SIGTERM or SIGHUP the writer was sent (report_bundle()), or 0. */
static volatile sig_atomic_t report_interrupted;

static void on_interrupt(int sig)
{
	report_interrupted = sig;
}

/* Catch SIGINT, SIGTERM and SIGHUP with @handler (SIG_DFL: their default). */
static void catch_interrupts(void (*handler)(int))
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = handler };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < VR_ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

struct report {
	const char *db_path, *dir;
	const struct report_opts *o;	/* the databases' names, the options */
	const struct compare_opts *copts;	/* what the tables show (--kernels, ...) */
	struct store *st;
	int width, height;
	struct vr_buf index;	/* index.md being written */
	struct vr_buf table;	/* the changelog table section of index.md */
	struct vr_buf changed;	/* its "What changed" section (whatchanged.h) */
	struct outdir *out;	/* the files of DIR, committed at the end */
	int failed;		/* a part could not be made: nothing is replaced */
	struct progress prog;	/* "report: chart N of M" on a terminal */
	int chart_no, nchart;	/* charts drawn so far, of nchart */
	bool verbose;		/* -v: say each part made and its time */
	double part_s;		/* progress_elapsed_s() when the last part was done */
	struct compare_result cmp;	/* compare.txt's comparison, when untrimmed (have_cmp):
					 * the counters chart's too */
	bool have_cmp;
	struct child summary;	/* the process writing summary.txt into summary_fd, while
				 * summary.running */
	int summary_fd;		/* a memfd holding summary.txt once it exited 0 */
	struct outfile *summary_of;	/* DIR/summary.txt, made in its place among the tables
					 * (MANIFEST lists files in the order made) */
	struct child evidence;	/* the process writing evidence_tmp, while
				 * evidence.running */
	struct vr_buf evidence_tmp;	/* $TMPDIR/vmscan-report-PID.evidence.db (evidence_tmp()) */
	struct outfile *evidence_of;	/* DIR/evidence.db, made in its place */
	size_t evidence_at;	/* where in index its line goes, once its size is known */
};

/* Do @o ask for the comparison chart_counters_build() makes (every kernel,
 * every metric, the default statistics, test and layout)? */
static bool untrimmed(const struct compare_opts *o)
{
	const struct compare_opts def = { .alpha = 0.10 };

	return !o->nkernels && !o->nmetrics && !o->nstats && o->alpha == def.alpha &&
	       o->significance == def.significance && o->layout == def.layout;
}

/* -v: "report: made DIR/WHAT (S s)", the time since the part before
 * (nothing once a part failed: then nothing is made). */
static void made(struct report *r, const char *what)
{
	double now = progress_elapsed_s(&r->prog);

	if (report_interrupted)	/* stop at the next part: nothing is replaced */
		r->failed = 1;

	if (r->verbose && !r->failed)
		progress_say(&r->prog, "report: made %s/%s (%.2f s)", r->dir, what,
			     now - r->part_s);
	r->part_s = now;
}

/*
 * The names report writes, for a DIR/MANIFEST of a vmscan-report that did
 * not record hashes yet (outdir_open()): a file it lists is trusted as
 * report's own only under one of these names.
 */
static const char *const report_names[] = {
	"compare.txt", "compare.md", "runs.txt", "summary.txt", "index.md",
	"counters.png", "counters.svg", "latency-*.png", "latency-*.svg", "cdf-*.png",
	"cdf-*.svg", "timeline-run-[0-9]*.png", "timeline-run-[0-9]*.svg", "windows-*.png",
	"windows-*.svg", "evidence.db", NULL
};

static void write_file(struct report *r, const char *name, const char *text, size_t len)
{
	struct outfile *of = outdir_create(r->out, name);

	if (of)
		outfile_write(of, text, len);	/* its failure is outfile_finish()'s */
	if (!of || outfile_finish(of))
		r->failed = 1;
}

/*
 * DIR/@name written by @print (a module's printer to a FILE *, as the
 * command of the same name prints it) through the outdir's stream.
 * Returns 0, or -1 after a message (the file then fails: nothing in DIR is
 * replaced).
 */
static int text_file(struct report *r, const char *name, int (*print)(struct store *, FILE *))
{
	struct outfile *of = outdir_create(r->out, name);
	FILE *f = of ? outfile_stream(of) : NULL;

	if (!f)
		return -1;
	if (print(r->st, f)) {
		outfile_fail(of, 0);
		return -1;
	}
	return outfile_finish(of) ? -1 : 0;
}

/* Does a row of @rows[0..@n-1] have a gain against a baseline of 0? */
static bool rows_infinite(const struct render_row *rows, size_t n, size_t ncols)
{
	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < ncols; c++)
			if (isinf(rows[i].cells[c].gain_pct))
				return true;
	return false;
}

/*
 * The short table index.md opens with: the latency rows with a gain marked
 * significant (render_cell.significant, by compare's test), then the
 * counters; of the notes only those reading them needs (the unit, the
 * test, inf% when a row shown has it, the counters' line); the full table
 * and every note are compare.txt.
 */
static void headline(struct report *r, const struct compare_result *res)
{
	struct render_table t[2] = { res->tables[0], res->tables[1] };
	struct render_row *rows = vr_calloc(res->tables[0].nrows + 1, sizeof(*rows));
	const char *notes[8];
	struct vr_buf b;
	size_t n = 0, nn = 0;

	for (size_t i = 0; i < res->tables[0].nrows; i++) {
		bool marked = false;

		for (size_t c = 0; c < res->tables[0].ncols; c++)
			marked |= res->tables[0].rows[i].cells[c].significant;
		if (marked)
			rows[n++] = res->tables[0].rows[i];
	}
	for (size_t i = 0; i < res->nkey_notes && nn + 1 < VR_ARRAY_SIZE(notes); i++)
		notes[nn++] = res->notes[0][i];
	if (rows_infinite(rows, n, res->tables[0].ncols))
		notes[nn++] = COMPARE_INF_NOTE;
	t[0].rows = rows;
	t[0].nrows = n;
	t[0].notes = notes;
	t[0].nnotes = nn;
	vr_buf_init(&b);
	vr_buf_addstr(&r->table, "## Headline\n\n");
	if (n)
		vr_buf_addf(&r->table, "The %zu latency rows whose means differ significantly"
			    " (marked), then the counters, with the notes needed to read them (unit,"
			    " test). The full table, every statistic of every metric with all its"
			    " notes (samples missing per kernel, ...), is [compare.txt](compare.txt)."
			    "\n\n", n);
	else
		vr_buf_addstr(&r->table, "No latency mean differs significantly between the kernels"
			      " (the test is named under the full table,"
			      " [compare.txt](compare.txt)); the counters:\n\n");
	if (n || t[1].nrows)
		render_tables(n ? t : &t[1], (n ? 1 : 0) + (t[1].nrows ? 1 : 0), RENDER_TEXT, &b);
	vr_buf_addf(&r->table, "```\n%s```\n\n", b.len ? b.buf : "(no rows)\n");
	vr_buf_release(&b);
	free(rows);
}

/* compare.txt and compare.md from the comparison library. */
static void report_compare(struct report *r)
{
	static const struct {
		const char *name;
		enum render_format fmt;
	} out[] = { { "compare.txt", RENDER_TEXT }, { "compare.md", RENDER_MARKDOWN } };
	struct compare_result res;
	struct compare_vmstat vm;

	if (compare_build(r->st, r->copts, &res)) {
		if (r->copts->nkernels) {	/* a kernel named that is not there */
			r->failed = 1;
			return;
		}
		const char *msg = "no comparison: see the error 'vmscan-report compare' prints\n";

		for (size_t i = 0; i < VR_ARRAY_SIZE(out); i++)
			write_file(r, out[i].name, msg, strlen(msg));
		vr_buf_addstr(&r->index, "- no changelog table could be built (see compare.txt)\n");
		return;
	}
	/* compare.txt and the headline fit a mail, their names shortened alike */
	render_text_fit(res.tables, res.tables[1].nrows ? 2 : 1, 80);
	vr_buf_addstr(&r->index, "- [compare.txt](compare.txt): the changelog table"
		      " (mmtests compare layout, paste into a commit message);"
		      " [compare.md](compare.md) as Markdown\n");
	if (compare_vmstat_build(r->st, &res, &vm) ||
	    whatchanged_write(r->st, r->copts, &res, &r->changed))
		r->failed = 1;
	for (size_t i = 0; i < VR_ARRAY_SIZE(out); i++) {
		struct vr_buf b;

		vr_buf_init(&b);
		compare_render_all(&res, &vm, out[i].fmt, &b);
		write_file(r, out[i].name, b.buf, b.len);
		vr_buf_release(&b);
	}
	compare_vmstat_release(&vm);
	headline(r, &res);
	if (untrimmed(r->copts)) {	/* kept for the counters chart */
		r->cmp = res;
		r->have_cmp = true;
	} else {
		compare_result_release(&res);
	}
}

/*
 * summary.txt is the bundle's slowest table (a quarter of a report on a
 * large trace) and reads nothing the rest writes, so it is printed by a
 * process of its own, with a read-only connection of its own to the same
 * database(s) (an SQLite connection is not used across fork()), into a
 * memfd, while this one draws the charts; summary_finish() puts it in DIR.
 * Without memfd or fork it is printed here, in order.  The child's output is
 * summary_print()'s, byte for byte.
 */
/* What the summary process is given. */
struct summary_args {
	const struct report_opts *o;
	int fd;			/* the memfd to print into */
};

/* In the summary process: print summary.txt into the memfd; its exit
 * status (_exit(): nothing of the parent's to flush). */
static int summary_child(void *arg)
{
	const struct summary_args *a = arg;
	const struct report_opts *o = a->o;

	catch_interrupts(SIG_DFL);	/* a Ctrl-C ends it at once */
	struct store *st = o->ndbs > 1 ? store_open_many(o->db_paths, o->ndbs) :
		store_open(o->db_path, STORE_RDONLY);
	FILE *f = st ? fdopen(a->fd, "w") : NULL;
	int rc = f ? summary_print(st, f) : -1;

	if (f && fclose(f)) {
		vr_error("summary.txt: cannot write it: %s", strerror(errno));
		rc = -1;
	}
	store_close(st);
	return rc ? VR_EXIT_FAIL : VR_EXIT_OK;
}

static void summary_start(struct report *r, const struct report_opts *o)
{
	struct summary_args a;

	memset(&r->summary, 0, sizeof(r->summary));
	r->summary_fd = memfd_create("vmscan-report-summary", MFD_CLOEXEC);
	if (r->summary_fd < 0)
		return;
	a = (struct summary_args){ o, r->summary_fd };
	if (child_start(&r->summary, summary_child, &a, CHILD_FLUSH)) {
		close(r->summary_fd);
		r->summary_fd = -1;
	}
}

static void report_text(struct report *r)
{
	report_compare(r);
	if (text_file(r, "runs.txt", runs_print))
		r->failed = 1;
	vr_buf_addstr(&r->index, "- [runs.txt](runs.txt): the loaded runs, their kernels and"
		      " data quality\n");
	if (r->summary.running) {
		r->summary_of = outdir_create(r->out, "summary.txt");
	} else if (text_file(r, "summary.txt", summary_print)) {
		r->failed = 1;
	}
	vr_buf_addstr(&r->index, "- [summary.txt](summary.txt): per run what reclaim did: totals,"
		      " per process, per kswapd with its sleep decisions, data quality\n");
}

/* Copy @f (opened as @what; NULL: its open failed, errno says why) into @of
 * and close it; 0, or -1 after a message (@of then failed). */
static int copy_stream(struct outfile *of, FILE *f, const char *what)
{
	char buf[65536];
	size_t n;

	if (!f) {
		vr_error("%s: cannot read: %s", what, strerror(errno));
		outfile_fail(of, 0);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		outfile_write(of, buf, n);	/* its failure is outfile_finish()'s */
	if (ferror(f)) {
		vr_error("%s: cannot read: %s", what, strerror(errno));
		fclose(f);
		outfile_fail(of, 0);
		return -1;
	}
	fclose(f);
	return outfile_finish(of);
}

/* Copy the file @path into @of; 0, or -1 after a message (@of then failed). */
static int copy_into(struct outfile *of, const char *path)
{
	return copy_stream(of, fopen(path, "rb"), path);
}

/* Wait for summary_start()'s process and write DIR/summary.txt from its
 * memfd (nothing to do when report_text() printed it in its place). */
static void summary_finish(struct report *r)
{
	char how[128];
	FILE *f;

	if (!r->summary.running)
		return;
	child_wait(&r->summary);
	if (!child_ok(&r->summary)) {
		if (child_signalled(&r->summary) && !report_interrupted)
			vr_error("summary.txt: the process printing it %s",
				 child_end(&r->summary, how, sizeof(how)));
		r->failed = 1;	/* (its own message otherwise) */
		close(r->summary_fd);
		if (r->summary_of)
			outfile_fail(r->summary_of, 0);
		return;
	}
	if (!r->summary_of) {
		r->failed = 1;	/* outdir_create() said why */
		close(r->summary_fd);
		return;
	}
	lseek(r->summary_fd, 0, SEEK_SET);
	f = fdopen(r->summary_fd, "rb");
	if (!f)
		close(r->summary_fd);
	if (copy_stream(r->summary_of, f, "summary.txt"))	/* closes f */
		r->failed = 1;
}

/*
 * evidence.db: the database without its raw event rows (store-evidence.c),
 * made in $TMPDIR (default /var/tmp: the bundle's directory then needs no
 * room for it twice) as vmscan-report-PID.evidence.db, removed when done,
 * and copied into the bundle's own temporary, so that it is committed with
 * the other files.
 */
/* $TMPDIR/vmscan-report-PID.evidence.db of process @pid, into @b. */
static void evidence_tmp(struct vr_buf *b, pid_t pid)
{
	const char *dir = getenv("TMPDIR");

	vr_buf_addf(b, "%s/vmscan-report-%ld.evidence.db", dir && *dir ? dir : "/var/tmp",
		    (long)pid);
}

/* @text inserted into @b at offset @at (at most its length). */
static void buf_insert(struct vr_buf *b, size_t at, const char *text)
{
	struct vr_buf n;

	vr_buf_init(&n);
	vr_buf_add(&n, b->buf, at);
	vr_buf_addstr(&n, text);
	vr_buf_add(&n, b->buf + at, b->len - at);
	vr_buf_release(b);
	*b = n;
}

/* The index line of evidence.db of @size bytes. */
static void evidence_line(struct vr_buf *b, off_t size)
{
	vr_buf_addf(b, "- [evidence.db](evidence.db): the SQLite database without its raw event"
		    " rows (%.1f MB, %lld bytes): runs, derived tables, imported latencies; every"
		    " command but load reads it\n", size / 1e6, (long long)size);
}

/* What the evidence process is given. */
struct evidence_args {
	const struct report_opts *o;
	const char *tmp;	/* the file to write */
};

/* In the evidence process: write the evidence database into a->tmp; its
 * exit status (_exit()). */
static int evidence_child(void *arg)
{
	const struct evidence_args *a = arg;
	const struct report_opts *o = a->o;
	struct store *st;
	int rc;

	catch_interrupts(SIG_DFL);	/* a Ctrl-C ends it at once */
	prctl(PR_SET_PDEATHSIG, SIGKILL);	/* never writing once the bundle's process died */
	if (getppid() == 1)
		return VR_EXIT_FAIL;	/* it died before the line above */
	st = o->ndbs > 1 ? store_open_many(o->db_paths, o->ndbs) :
		store_open(o->db_path, STORE_RDONLY);
	rc = st ? store_evidence_write(st, a->tmp, o->ndbs > 1 ? o->db_paths : &o->db_path,
				       o->ndbs > 1 ? o->ndbs : 1) : -1;
	store_close(st);
	return rc ? VR_EXIT_FAIL : VR_EXIT_OK;
}

/* Remove r->evidence_tmp and SQLite's side files of it. */
static void evidence_unlink(struct report *r)
{
	static const char *const side[] = { "", "-journal", "-wal", "-shm" };
	struct vr_buf f;

	vr_buf_init(&f);
	for (size_t i = 0; i < VR_ARRAY_SIZE(side); i++) {
		vr_buf_reset(&f);
		vr_buf_addf(&f, "%s%s", r->evidence_tmp.buf, side[i]);
		unlink(f.buf);
	}
	vr_buf_release(&f);
}

/*
 * evidence.db reads nothing the rest writes either, so it is written by a
 * process of its own too (evidence_finish() waits for it at the end), with
 * a store of its own as the summary's, into r->evidence_tmp (named after
 * this process, so that report_died() removes it), while this one builds
 * the tables and draws the charts; it dies with this process.  Without
 * fork it is written in its place, in order.
 */
static void evidence_start(struct report *r, const struct report_opts *o)
{
	struct evidence_args a;

	memset(&r->evidence, 0, sizeof(r->evidence));
	vr_buf_init(&r->evidence_tmp);
	evidence_tmp(&r->evidence_tmp, getpid());
	evidence_unlink(r);
	a = (struct evidence_args){ o, r->evidence_tmp.buf };
	child_start(&r->evidence, evidence_child, &a, CHILD_FLUSH);	/* else in its place */
}

/* evidence.db in its place among the files: written now when no process
 * writes it, else its file made and its index line's place kept. */
static void report_evidence(struct report *r)
{
	struct outfile *of;
	struct stat st;

	if (r->evidence.running) {
		r->evidence_of = outdir_create(r->out, "evidence.db");
		r->evidence_at = r->index.len;
		return;
	}
	if (store_evidence_write(r->st, r->evidence_tmp.buf,
				 r->o->ndbs > 1 ? r->o->db_paths : &r->o->db_path,
				 r->o->ndbs > 1 ? r->o->ndbs : 1) ||
	    stat(r->evidence_tmp.buf, &st)) {
		r->failed = 1;
	} else if (!(of = outdir_create(r->out, "evidence.db")) ||
		   copy_into(of, r->evidence_tmp.buf)) {
		r->failed = 1;
	} else {
		evidence_line(&r->index, st.st_size);
	}
	evidence_unlink(r);
}

/* Wait for evidence_start()'s process, copy what it wrote into DIR and
 * put its line in the index; false when there was none (written in its
 * place). */
static bool evidence_finish(struct report *r)
{
	struct vr_buf line;
	char how[128];
	struct stat st;

	if (!r->evidence.running)
		return false;
	child_wait(&r->evidence);
	if (!child_ok(&r->evidence)) {
		if (child_signalled(&r->evidence) && !report_interrupted)
			vr_error("evidence.db: the process writing it %s",
				 child_end(&r->evidence, how, sizeof(how)));
		r->failed = 1;	/* (its own message otherwise) */
		if (r->evidence_of)
			outfile_fail(r->evidence_of, 0);
	} else if (!r->evidence_of) {
		r->failed = 1;	/* outdir_create() said why */
	} else if (stat(r->evidence_tmp.buf, &st)) {
		vr_error("%s: cannot read: %s", r->evidence_tmp.buf, strerror(errno));
		outfile_fail(r->evidence_of, 0);
		r->failed = 1;
	} else if (copy_into(r->evidence_of, r->evidence_tmp.buf)) {
		r->failed = 1;
	} else {
		vr_buf_init(&line);
		evidence_line(&line, st.st_size);
		buf_insert(&r->index, r->evidence_at, line.buf);
		vr_buf_release(&line);
	}
	evidence_unlink(r);
	return true;
}

/* "A, B" in @buf. */
static const char *name_pair(const char *a, const char *b, char *buf, size_t len)
{
	snprintf(buf, len, "%s, %s", a, b);
	return buf;
}

/* One chart as NAME.png and NAME.svg (one query of the data), with its index entry. */
static void report_chart(struct report *r, struct chart_draw_req *q, const char *name,
			 const char *caption)
{
	/* @name: at most "latency-" and METRIC_NAME_MAX bytes (report_charts()) */
	char png[METRIC_NAME_MAX + 24], svg[METRIC_NAME_MAX + 24], both[2 * METRIC_NAME_MAX + 64];

	progress_show(&r->prog, "report: chart %d of %d (%s)", ++r->chart_no, r->nchart, name);
	if (report_interrupted) {	/* no more drawing: nothing is replaced */
		r->failed = 1;
		return;
	}
	snprintf(png, sizeof(png), "%s.png", name);
	snprintf(svg, sizeof(svg), "%s.svg", name);
	q->out_file = outdir_create(r->out, png);
	q->also_file = outdir_create(r->out, svg);
	if (!q->out_file || !q->also_file || chart_draw(r->st, q))
		r->failed = 1;
	else
		made(r, name_pair(png, svg, both, sizeof(both)));
	q->out_file = q->also_file = NULL;
	vr_buf_addf(&r->index, "### %s\n\n![%s](%s)\n\n[SVG](%s)\n\n", caption, caption, png,
		    svg);
}

/* The ids of the runs with a timeline (loaded from a trace), ascending. */
static int timeline_runs(struct report *r, long long **ids, size_t *n)
{
	struct store_stmt *q = store_stmt_new(r->st, "SELECT id FROM run"
					      " WHERE source_format <> 'latency' ORDER BY id",
					      "runs with a timeline");
	int rc;

	*ids = NULL;
	*n = 0;
	if (!q)
		return -1;
	while ((rc = store_step(q)) > 0) {
		*ids = vr_realloc(*ids, (*n + 1) * sizeof(**ids));
		(*ids)[(*n)++] = store_col_int64(q, 0);
	}
	store_stmt_free(q);
	return rc;
}

/* The windows metrics (chart-windows.h): their number. */
static int report_nwindows(void)
{
	int n = 0;

	while (chart_windows_metrics[n])
		n++;
	return n;
}

/* Does any run have windows (reclaim_window rows)? */
static bool have_windows(struct report *r)
{
	struct store_stmt *q;
	int64_t n = 0;

	if (store_has_table(r->st, "reclaim_window") != 1)
		return false;
	q = store_stmt_new(r->st, "SELECT count(*) FROM (SELECT 1 FROM reclaim_window LIMIT 1)",
			   "windows");
	store_stmt_row_int64(q, &n, 1);
	store_stmt_free(q);
	return n > 0;
}

/* r->nchart: the charts report_charts() draws for @metrics (@n of them). */
static int count_charts(struct report *r, char **metrics, size_t n)
{
	long long *ids;
	size_t nrun;

	if (timeline_runs(r, &ids, &nrun) < 0) {
		free(ids);
		return -1;
	}
	free(ids);
	r->nchart = 1 + (int)n + (int)nrun + have_windows(r) * report_nwindows();
	for (size_t i = 0; i < n; i++)
		r->nchart += chart_metric_is_trace(metrics[i]);
	return 0;
}

/* "Where and when": one windows chart per metric, when a run has windows. */
static void report_windows(struct report *r)
{
	struct chart_draw_req req = { .width = r->width, .height = r->height, .kind = CHART_WINDOWS,
				      .align_marker = r->copts->align_marker };

	vr_buf_addstr(&r->index, "## Where and when\n\n");
	if (!have_windows(r)) {
		vr_buf_addstr(&r->index, "No run has windows (reclaim_window): loaded before they"
			      " existed; load --replace makes them.\n\n");
		return;
	}
	vr_buf_addstr(&r->index, "Each run cut into windows of equal width (reclaim_window);"
		      " per kernel the median over its runs, their range shaded. compare.txt's"
		      " windows block says how steady or bursty each kernel is.\n\n");
	for (int i = 0; chart_windows_metrics[i]; i++) {
		char name[64], caption[96];

		req.metric = chart_windows_metrics[i];
		snprintf(name, sizeof(name), "%s-%s", chart_kinds[req.kind].name,
			 chart_windows_metrics[i]);
		snprintf(caption, sizeof(caption), "%s per window, every kernel",
			 chart_windows_metrics[i]);
		report_chart(r, &req, name, caption);
	}
}

/* Every run's timeline, all with one rate bin and one rate axis. */
static int report_timelines(struct report *r)
{
	struct store_stmt *q = store_stmt_new(r->st, "SELECT kernel, iteration,"
					      " coalesce(last_ts_ns, first_ts_ns) = first_ts_ns"
					      " FROM run WHERE id = ?1", "run of a timeline");
	long long *ids;
	size_t n;
	double bin_s, rate_max;
	struct chart_timeline *rates = NULL;	/* each run's, read once for the scale and its chart */
	int rc = q ? timeline_runs(r, &ids, &n) : -1;

	if (!rc)
		rates = vr_calloc(n + 1, sizeof(*rates));
	if (rc || chart_timeline_shared_scale(r->st, ids, n, &bin_s, &rate_max, rates)) {
		store_stmt_free(q);
		free(rc ? NULL : ids);
		free(rates);
		return -1;
	}
	vr_buf_addstr(&r->index, "## Timelines\n\n");
	if (n)
		vr_buf_addf(&r->index, "Every timeline has reclaim-rate bins of %g s and the same"
			    " rate axis, whose top is set by the highest rate of any run (%.3g"
			    " pages/s), so that runs compare by eye.\n\n", bin_s,
			    rate_max);
	for (size_t i = 0; i < n && rc >= 0; i++) {
		struct chart_draw_req req = { .kind = CHART_TIMELINE, .width = r->width,
					      .height = r->height, .nid = -1, .to_s = -1,
					      .bin_s = bin_s, .rate_max = rate_max,
					      .rates = &rates[i] };
		char name[64], caption[256];
		struct vr_buf kernel;	/* from a trace's uname: control bytes escaped */

		store_stmt_reset(q);
		store_bind_int64(q, 1, ids[i]);
		if ((rc = store_step(q)) <= 0)
			break;
		req.run_id = ids[i];
		snprintf(name, sizeof(name), "%s-run-%lld", chart_kinds[req.kind].name, req.run_id);
		vr_buf_init(&kernel);
		snprintf(caption, sizeof(caption), "Run %lld: %s, iteration %d", req.run_id,
			 vr_escaped(&kernel, store_col_text(q, 0)), store_col_int(q, 1));
		vr_buf_release(&kernel);
		report_chart(r, &req, name, caption);
		if (store_col_int(q, 2))	/* one event, or all at one instant */
			vr_buf_addf(&r->index, "Run %lld has no length: its first and last events"
				    " are at the same time, so its timeline has no time axis and"
				    " draws nothing.\n\n", req.run_id);
	}
	store_stmt_free(q);
	for (size_t i = 0; i < n; i++)
		chart_timeline_release(&rates[i]);
	free(rates);
	free(ids);
	return rc < 0 ? -1 : 0;
}

static int report_charts(struct report *r)
{
	struct chart_draw_req req = { .width = r->width, .height = r->height };
	char **metrics;
	size_t n;

	if (chart_metric_names(r->st, &metrics, &n))
		return -1;
	if (count_charts(r, metrics, n)) {
		for (size_t i = 0; i < n; i++)
			free(metrics[i]);
		free(metrics);
		return -1;
	}
	vr_buf_addstr(&r->index, "\n## Latency\n\n");
	if (!n)
		vr_buf_addstr(&r->index, "No latency metric has samples in this database.\n\n");
	for (size_t i = 0; i < n; i++) {
		/* "latency-" or "cdf-" and a metric of at most METRIC_NAME_MAX bytes
		 * (metric_op_name_bad(), checked at import), never cut */
		char name[METRIC_NAME_MAX + 16], caption[METRIC_NAME_MAX + 64];

		req.kind = CHART_LATENCY;
		req.metric = metrics[i];
		snprintf(name, sizeof(name), "%s-%s", chart_kinds[req.kind].name, metrics[i]);
		snprintf(caption, sizeof(caption), "%s: per-run percentiles", metrics[i]);
		report_chart(r, &req, name, caption);
		if (chart_metric_is_trace(metrics[i])) {
			req.kind = CHART_CDF;
			snprintf(name, sizeof(name), "%s-%s", chart_kinds[req.kind].name, metrics[i]);
			snprintf(caption, sizeof(caption), "%s: distribution of all samples",
				 metrics[i]);
			report_chart(r, &req, name, caption);
		}
		free(metrics[i]);
	}
	free(metrics);
	vr_buf_addstr(&r->index, "## Counters\n\n");
	req.kind = CHART_COUNTERS;
	req.metric = NULL;
	req.counters_from = r->have_cmp ? &r->cmp : NULL;
	report_chart(r, &req, chart_kinds[req.kind].name, "Counters per kernel");
	report_windows(r);
	return report_timelines(r);
}

/* index.md: the title, "What changed" (whatchanged.h), then the rest. */
static void index_md(struct report *r)
{
	struct vr_buf b, cmd;
	size_t fence = 0;
	bool two;

	/* the command as a shell reads it back, on one line; a code span of
	 * two backticks when a name holds one (CommonMark) */
	vr_buf_init(&cmd);
	vr_buf_addstr(&cmd, "vmscan-report report");
	for (int i = 0; i < (r->o->ndbs > 1 ? r->o->ndbs : 1); i++) {
		vr_buf_addstr(&cmd, " -d ");
		vr_buf_add_shell_word(&cmd, r->o->ndbs > 1 ? r->o->db_paths[i] : r->db_path);
	}
	vr_buf_addstr(&cmd, " -o ");
	vr_buf_add_shell_word(&cmd, r->dir);
	for (int i = 0; i < r->o->nagain; i++) {
		vr_buf_addf(&cmd, " --%s", r->o->again_opt[i]);
		if (r->o->again_arg[i]) {
			vr_buf_addstr(&cmd, " ");
			vr_buf_add_shell_word(&cmd, r->o->again_arg[i]);
		}
	}
	/* CommonMark: a code span's fence is a run of backticks longer than
	 * any run inside it, spaced off when there is one */
	for (const char *p = cmd.buf; *p; p++) {
		size_t run = strspn(p, "`");

		if (run > fence)
			fence = run;
		p += run ? run - 1 : 0;
	}
	two = fence > 0;
	vr_buf_init(&b);
	vr_buf_addstr(&b, "# vmscan-report evidence bundle\n\nWritten by ");
	for (size_t k = 0; k <= fence; k++)
		vr_buf_addstr(&b, "`");
	vr_buf_addf(&b, "%s%s%s", two ? " " : "", cmd.buf, two ? " " : "");
	for (size_t k = 0; k <= fence; k++)
		vr_buf_addstr(&b, "`");
	vr_buf_addf(&b, "; every file is regenerated by running it again.\n\n%s\n%s",
		    r->changed.len ? r->changed.buf : "", r->index.buf);
	vr_buf_release(&cmd);
	write_file(r, "index.md", b.buf, b.len);
	vr_buf_release(&b);
}

/*
 * Write the bundle once: every part read while the database was at data
 * version @version (store_data_version()).  If it is another once all is
 * read (a load committed meanwhile: the parts may describe different runs),
 * nothing is replaced and *@changed is set.  0 or -1.
 */
static int report_write_once(struct store *s, const struct report_opts *o, const char *version,
			     bool *changed)
{
	struct report r = { .db_path = o->db_path, .dir = o->dir, .o = o, .st = s, .width = o->width,
			    .height = o->height, .copts = o->copts,
			    .verbose = o->verbose };

	r.out = outdir_open(r.dir, report_names);
	if (!r.out)
		return -1;
	vr_buf_init(&r.index);
	vr_buf_init(&r.changed);
	vr_buf_addstr(&r.index, "## Tables\n\n");
	vr_buf_init(&r.table);
	progress_start(&r.prog, o->quiet);
	summary_start(&r, o);
	evidence_start(&r, o);
	progress_show(&r.prog, "report: tables");
	report_text(&r);
	made(&r, "compare.txt, compare.md, runs.txt");
	if (!r.evidence.running) {
		progress_show(&r.prog, "report: evidence.db");
		report_evidence(&r);
		made(&r, "evidence.db");
	} else {
		report_evidence(&r);	/* its file and its place: its process writes it */
	}
	vr_buf_addf(&r.index, "\n%s", r.table.buf);
	vr_buf_release(&r.table);
	if (report_charts(&r))
		r.failed = 1;
	summary_finish(&r);
	made(&r, "summary.txt");
	if (evidence_finish(&r))
		made(&r, "evidence.db");
	progress_end(&r.prog);
	index_md(&r);
	/* after every read, the summary's and the evidence's processes' included */
	char *now = store_data_version(s);

	*changed = now && strcmp(now, version);
	if (!now)
		r.failed = 1;
	free(now);
	if (report_interrupted) {
		*changed = false;
		vr_error("%s: interrupted (signal %d, SIG%s): nothing replaced, its temporary files"
			 " removed, the directory is as it was", r.dir, (int)report_interrupted,
			 sigabbrev_np((int)report_interrupted));
		outdir_abort(r.out);
		r.failed = 1;
	} else if (*changed) {
		outdir_abort(r.out);	/* (said by report_write()) */
	} else if (r.failed) {
		vr_error("%s: nothing replaced, the directory is as it was", r.dir);
		outdir_abort(r.out);
	} else if (outdir_commit(r.out)) {
		r.failed = 1;
	} else if (report_interrupted) {	/* held during the renames */
		vr_error("%s: interrupted (signal %d, SIG%s) while the files were replaced: the"
			 " replacement was finished first, the bundle is the new one, whole", r.dir,
			 (int)report_interrupted, sigabbrev_np((int)report_interrupted));
		r.failed = 1;
	}
	vr_buf_release(&r.index);
	vr_buf_release(&r.changed);
	vr_buf_release(&r.evidence_tmp);
	if (r.have_cmp)
		compare_result_release(&r.cmp);
	return r.failed ? -1 : 0;
}

/* Bundles begun before report gives up on a database that keeps changing. */
enum { REPORT_ATTEMPTS = 3 };

/*
 * Write the bundle (in the process report_bundle() started) from one state
 * of the database: written again when another process committed to it
 * meanwhile (report_write_once()), at most REPORT_ATTEMPTS times, each said.
 * 0, VR_ERR_USAGE or -1.
 */
static int report_write(struct store *s, const struct report_opts *o)
{
	int bad = compare_check_metrics(s, o->copts);

	if (bad)	/* an unknown metric or kernel: a usage error, as in compare */
		return bad;
	for (int attempt = 1;; attempt++) {
		char *version = store_data_version(s);
		bool changed = false;
		int rc;

		if (!version)
			return -1;
		rc = report_write_once(s, o, version, &changed);
		free(version);
		if (!changed || report_interrupted)
			return rc;
		if (attempt == REPORT_ATTEMPTS)
			return vr_error("%s: changed while the bundle was being written, %d times"
					" (another process keeps committing to it: a load?): nothing"
					" replaced, the directory is as it was; run report again once"
					" it is done", store_path(s), attempt);
		vr_warn("%s: changed while the bundle was being written (another process committed"
			" to it): writing it again, from one state of it (attempt %d of %d)",
			store_path(s), attempt + 1, REPORT_ATTEMPTS);
	}
}

/* Is @sig one a process gets for a fault of its own (a crash), not one sent? */
static bool crash_signal(int sig)
{
	return sig == SIGSEGV || sig == SIGBUS || sig == SIGABRT || sig == SIGILL ||
	       sig == SIGFPE || sig == SIGTRAP || sig == SIGSYS;
}

/*
 * The process that wrote the bundle in @dir died by signal @sig: finish
 * the replacement when it died during its renames (outdir_settle(): its
 * intent was written, the directory becomes the new bundle, whole), else
 * remove what it left (its temporaries in @dir; $TMPDIR's evidence.db with
 * SQLite's side files; @dir itself if it made it and it is empty, as it
 * was not there: !@existed), and say which.  A crash (SIGSEGV, SIGTRAP, ...)
 * is blamed on the libraries, a signal sent (SIGKILL) is named as one.
 */
static void report_died(const char *dir, pid_t pid, bool existed, int sig)
{
	static const char *const side[] = { "", "-journal", "-wal", "-shm" };
	unsigned long long limit = vr_as_limit_mib();
	char hint[128] = "", how[256];
	struct vr_buf tmp;
	int finished = outdir_settle(dir, report_names);

	vr_buf_init(&tmp);
	for (size_t i = 0; i < sizeof(side) / sizeof(side[0]); i++) {
		vr_buf_reset(&tmp);
		evidence_tmp(&tmp, pid);
		vr_buf_addstr(&tmp, side[i]);
		unlink(tmp.buf);
	}
	vr_buf_release(&tmp);
	if (!existed)
		rmdir(dir);
	if (limit && crash_signal(sig))
		snprintf(hint, sizeof(hint), ", most likely out of memory under the address-space"
			 " limit of %llu MiB (ulimit -v)", limit);
	if (crash_signal(sig))
		snprintf(how, sizeof(how), "crashed (signal %d, SIG%s) inside the libraries%s", sig,
			 sigabbrev_np(sig), hint);
	else
		snprintf(how, sizeof(how), "was killed (signal %d, SIG%s)", sig, sigabbrev_np(sig));
	if (finished)
		vr_error("%s: writing the bundle %s while it replaced the files: the replacement was"
			 " finished from its temporaries, the bundle is the new one, whole", dir, how);
	else
		vr_error("%s: writing the bundle %s; nothing replaced, its temporary files removed,"
			 " the directory is as it was", dir, how);
}

/* The child's exit status back into report_write()'s return value. */
static int ret_of_exit(int status)
{
	return status == VR_EXIT_OK ? 0 : status == VR_EXIT_USAGE ? VR_ERR_USAGE : -1;
}

/* What the bundle's process is given. */
struct bundle_args {
	struct store *s;
	const struct report_opts *o;
	pid_t parent;		/* the report command's process */
};

/* In the bundle's process: write it; its exit status (by exit(), the
 * child's own end, as load's worker).  It dies with the command: a report
 * killed with SIGKILL must not have its bundle renamed into place seconds
 * later by a process no one waits for (its temporaries are removed by the
 * next report into the directory, outfile.c). */
static int bundle_child(void *arg)
{
	const struct bundle_args *a = arg;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != a->parent)
		return VR_EXIT_FAIL;	/* it died before the line above */
	return vr_exit_of(report_write(a->s, a->o));
}

int report_bundle(struct store *s, const struct report_opts *o)
{
	bool existed = access(o->dir, F_OK) == 0;
	struct bundle_args a = { s, o, getpid() };
	struct child bundle;
	int ret;

	/* a Ctrl-C stops the writer at its next part (nothing replaced), or
	 * after its renames; this process waits for it, passing on a signal
	 * sent to it alone */
	report_interrupted = 0;
	catch_interrupts(on_interrupt);
	if (child_start(&bundle, bundle_child, &a, CHILD_FLUSH | CHILD_EXIT)) {
		ret = report_write(s, o);
		catch_interrupts(SIG_DFL);
		return ret;
	}
	ret = child_wait_forward(&bundle, &report_interrupted);
	catch_interrupts(SIG_DFL);
	if (ret)
		return -1;	/* cannot happen for our own child */
	if (!child_signalled(&bundle))
		return ret_of_exit(WEXITSTATUS(bundle.status));
	report_died(o->dir, bundle.pid, existed, child_signalled(&bundle));
	return -1;
}
