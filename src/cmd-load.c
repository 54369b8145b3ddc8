// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-load.c - `vmscan-report load`: one run per file, one transaction per
 * run; a file that fails leaves the database as it was.
 */
#define _GNU_SOURCE	/* pipe2 */
#include "cmd.h"
#include "ingest.h"
#include "model.h"
#include "store.h"
#include "vr.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <getopt.h>
#include <poll.h>
#include <malloc.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <unistd.h>

static const char *const load_usage[] = {
	"usage: vmscan-report load -d DB [--kernel NAME] [--iteration N] [--replace] [-j N] [-q]",
	"                          [-v] [--low-memory] [--premature-ms MS] FILE...",
	"",
	"Load trace.dat recordings (file version 6 or 7, compressed or not) into DB,",
	"one run per file.  Every event is stored; vmscan, writeback congestion,",
	"compaction and sched events in typed tables named after the event.",
	"",
	"  -d, --database DB   SQLite database to create or extend",
	"  -k, --kernel NAME   kernel label of the runs (default: the uname release",
	"                      saved in each file)",
	"  -i, --iteration N   iteration number of the first file (default: the next",
	"                      free number for the kernel); later files count up",
	"  -r, --replace       reload a file loaded before (same contents) into its run,",
	"                      keeping the run's id, label, iteration and latencies",
	"  -j, --jobs N        files decoded in parallel (default: number of CPUs)",
	"  -q, --quiet         do not print a line per loaded run",
	"      --premature-ms MS  a kswapd full sleep followed by a wakeup request",
	"                      within MS milliseconds is flagged premature (default 100)",
	"      --low-memory    read compressed trace.dat files only from an uncompressed",
	"                      copy (below), waiting for it first: the least memory, the",
	"                      load takes longer.  Done anyway when a file would not fit",
	"                      in half the free memory",
	"  -v, --verbose       say how each trace.dat was read",
	"  -h, --help          show this help",
	"",
	"A compressed trace.dat of more than a few MB is decoded in memory up to 64 MiB",
	"of decompressed data, meanwhile trace-cmd convert makes an uncompressed copy",
	"in $TMPDIR (default /var/tmp, deleted once open); the rest is read from the",
	"copy.  libtracecmd keeps all it decompressed, so memory would otherwise grow",
	"with the trace.",
	NULL
};

struct load_opts {
	const char *db;
	const char *kernel;
	int iteration;
	bool replace;
	bool quiet;
	int jobs;
	int premature_ms;	/* kswapd premature-sleep threshold */
	bool low_memory;	/* compressed trace.dat through an uncompressed copy */
	bool verbose;		/* say how each trace.dat was read */
	bool supervised;	/* in a worker process: a crash is the parent's to report */
};

/* What the ingest sink feeds: the raw store and the model of the run. */
struct load_ctx {
	struct store *store;
	struct model *model;
	struct store_derived *sd;
};

/* Set by SIGINT/SIGTERM/SIGHUP: the run being loaded is rolled back, no other starts. */
static volatile sig_atomic_t load_interrupted;

static void on_interrupt(int sig)
{
	load_interrupted = sig;
}

/* One event of a text trace: the model first, as it may fill in fields
 * of the event (model_event()), then the raw row. */
static int sink_event(void *arg, const struct ingest_event *ev)
{
	struct load_ctx *c = arg;
	struct ingest_event e = *ev;

	if (load_interrupted)
		return -1;
	return model_event(c->model, &e) ?: store_event(c->store, &e);
}

/*
 * A batch from the trace.dat reader: raw rows in bulk, then the derived
 * rows its model (run on the reader thread, see model_early_event()) has
 * queued so far.
 */
static int sink_events(void *arg, const struct ingest_event *evs, int n)
{
	struct load_ctx *c = arg;

	if (load_interrupted || store_events(c->store, evs, n))
		return -1;
	return store_derived_flush(c->sd);
}

static int sink_lost_raw(void *arg, int cpu, uint64_t ts_ns, int64_t count)
{
	struct load_ctx *c = arg;

	return store_lost(c->store, cpu, ts_ns, count);
}

/* The model of a trace.dat runs on its reader thread, rows deferred. */
static int model_early_event(void *arg, struct ingest_event *ev)
{
	return model_event(arg, ev);
}

static int model_early_lost(void *arg, int cpu, uint64_t ts_ns, int64_t count)
{
	return model_lost(arg, cpu, ts_ns, count);
}

static int sink_lost(void *arg, int cpu, uint64_t ts_ns, int64_t count)
{
	struct load_ctx *c = arg;

	return store_lost(c->store, cpu, ts_ns, count) ?: model_lost(c->model, cpu, ts_ns, count);
}

static int sink_task(void *arg, int pid, const char *comm)
{
	struct load_ctx *c = arg;

	return store_task(c->store, pid, comm);
}

/* The model of one run, rows going to @sd; free with model_free(). */
static struct model *load_model(struct ingest_dat *d, struct ingest_text *t,
				const struct ingest_meta *meta, const struct load_opts *o,
				struct store_derived *sd)
{
	struct model_sink ms;
	struct model_config cfg = {
		.release = meta->release,
		.has_field = t ? ingest_text_has_field : ingest_dat_has_field,
		.has_field_arg = t ? (void *)t : (void *)d,
		.kswapd_pid = t ? NULL : ingest_dat_kswapd_pid,
		.kswapd_pid_arg = d,
		.premature_ns = (uint64_t)o->premature_ms * 1000000ULL,
	};

	store_derived_sink(sd, &ms);
	return model_create(&cfg, &ms);
}

/* run_quality rows and warnings for what a text trace could not carry. */
static int load_text_quality(struct ingest_text *t, struct store_derived *sd)
{
	struct model_sink ms;

	store_derived_sink(sd, &ms);
	return ingest_text_quality(t, ms.quality, ms.arg);
}

/*
 * One input file, opened (and for trace.dat, decoding) ahead of its load.
 * A trace.dat's model runs on its reader thread from the start, its rows
 * queued in a deferred store_derived until the run is begun and they are
 * flushed with the batches.
 */
struct load_input {
	const char *path;
	struct ingest_dat *d;		/* trace.dat, or */
	struct ingest_text *t;		/* text trace */
	struct ingest_meta meta;
	struct store_derived *sd;	/* trace.dat: deferred derived rows */
	struct model *model;		/* trace.dat: fed on the reader thread */
	bool from_copy;			/* trace.dat: read from an uncompressed copy */
};

/* Bytes of free memory (MemAvailable), or 0 if unknown. */
static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kb = 0;
	char line[256];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return (uint64_t)kb * 1024;
}

/*
 * Read the compressed trace.dat @path through an uncompressed copy?  With
 * --low-memory, or when its decompressed data (taken as 12 times the file:
 * zstd makes trace data about 7 to 10 times smaller) would need more than
 * half the free memory, which libtracecmd would hold until the end.
 */
static bool want_spill(const struct load_opts *o, const char *path)
{
	struct stat st;
	uint64_t avail;

	if (o->low_memory)
		return true;
	avail = mem_available();
	if (stat(path, &st) || !avail || (uint64_t)st.st_size * 12 <= avail / 2)
		return false;
	fprintf(stderr, "vmscan-report: %s: about %llu MiB once decompressed, more than half the"
		" free memory: reading an uncompressed copy instead (--low-memory)\n", path,
		(unsigned long long)st.st_size * 12 >> 20);
	return true;
}

/*
 * Decompressed data a compressed trace.dat may keep in memory while its
 * uncompressed copy is being made (libtracecmd keeps every chunk it
 * decompressed until the file is closed).
 */
#define IN_MEMORY_CAP (64ull << 20)

/* IN_MEMORY_CAP, or VR_TEST_IN_MEMORY_CAP (bytes), which lets the tests
 * make small files take the copy path. */
static uint64_t in_memory_cap(void)
{
	const char *s = getenv("VR_TEST_IN_MEMORY_CAP");

	return s && *s ? strtoull(s, NULL, 10) : IN_MEMORY_CAP;
}

/*
 * Start an uncompressed copy of the trace.dat @path before libtracecmd
 * opens it (about 0.2 s of parsing, the other CPU idle meanwhile)?  If its
 * header says it is compressed, the copy is wanted with --low-memory,
 * or when the decompressed data (taken as 10 times the file) would pass
 * IN_MEMORY_CAP and the copies' directory is on disk (a copy in tmpfs
 * saves no memory).
 */
static bool copy_early(const struct load_opts *o, const char *path)
{
	uint64_t need;
	struct stat st;

	if (!ingest_dat_head_compressed(path) || stat(path, &st))
		return false;
	if (o->low_memory)
		return true;
	need = (uint64_t)st.st_size * 10;
	if (need <= in_memory_cap())
		return false;
	if (ingest_dat_spill_in_memory()) {
		vr_warn("%s: read in memory (about %llu MiB once decompressed): %s is a tmpfs, where"
			" an uncompressed copy would save nothing; set TMPDIR to a directory on disk",
			path, (unsigned long long)(need >> 20), ingest_dat_spill_dir());
		return false;
	}
	if (ingest_dat_spill_free_bytes() < need + need / 4 + (64ull << 20)) {
		vr_warn("%s: read in memory (about %llu MiB once decompressed): too little free space"
			" in %s for an uncompressed copy", path, (unsigned long long)(need >> 20),
			ingest_dat_spill_dir());
		return false;
	}
	return true;
}

/* Replace in->d by a reader of an uncompressed copy of @path; the run's
 * metadata (hash, compression, path) stays the original's.  When the copy
 * cannot be made and the user did not @asked for it, keep reading the file
 * in memory.  @started: the copy, if already started (taken over).
 * 0 or -1. */
static int reopen_uncompressed(struct load_input *in, const char *path, bool asked,
			       struct ingest_spill *started)
{
	char *copy = started ? ingest_dat_spill_finish(started, &load_interrupted)
			     : ingest_dat_spill(path, &load_interrupted);
	struct ingest_meta copy_meta;

	if (!copy) {
		if (asked || load_interrupted)
			return -1;
		vr_warn("%s: reading it in memory after all", path);
		return 0;
	}
	ingest_close_dat(in->d);
	in->d = ingest_open_dat_probed(copy, &copy_meta);
	ingest_dat_spill_remove(copy);	/* open files stay readable */
	if (!in->d)
		return vr_error("%s: its uncompressed copy cannot be read", path);
	ingest_meta_release(&copy_meta);
	ingest_dat_set_path(in->d, path);	/* messages name the user's file */
	in->from_copy = true;
	return 0;
}

/* --verbose: how the trace.dat of @in was read. */
static void say_how_read(const struct load_input *in)
{
	int64_t at = ingest_dat_copy_taken_at(in->d);

	if (!in->meta.compression)
		fprintf(stderr, "vmscan-report: %s: not compressed: read from the file\n", in->path);
	else if (in->from_copy)
		fprintf(stderr, "vmscan-report: %s: %s-compressed: read from an uncompressed copy\n",
			in->path, in->meta.compression);
	else if (at >= 0)
		fprintf(stderr, "vmscan-report: %s: %s-compressed: %.1f MiB decompressed in memory,"
			" the rest read from an uncompressed copy\n", in->path,
			in->meta.compression, (double)at / (1 << 20));
	else
		fprintf(stderr, "vmscan-report: %s: %s-compressed: read in memory\n", in->path,
			in->meta.compression);
}

/*
 * Open @path; not a trace.dat by its magic means a text trace.  A
 * trace.dat is probed first unless @sha256 says it was (ingest_probe_dat()
 * gave it; taken over) or a supervisor watches this process (only our own
 * header check then), then gets its model and starts decoding.  0 or -1.
 */
static int input_open(struct load_input *in, struct store *st, const char *path,
		      const struct load_opts *o, char **sha256)
{
	struct ingest_spill *copy = NULL;
	bool copy_failed = false;
	char *sha = NULL;

	memset(in, 0, sizeof(*in));
	in->path = path;
	if (!ingest_file_is_dat(path)) {
		in->t = ingest_open_text(path, o->kernel, &in->meta);
		return in->t ? 0 : -1;
	}
	if (sha256) {
		sha = *sha256;
		*sha256 = NULL;
	} else if (o->supervised ? ingest_dat_check_headers(path) : ingest_probe_dat(path, &sha)) {
		free(sha);
		return -1;
	}
	if (copy_early(o, path) && !(copy = ingest_dat_spill_start(path))) {
		if (o->low_memory) {	/* asked for: the message said why not */
			free(sha);
			return -1;
		}
		vr_warn("%s: reading it in memory after all", path);
		copy_failed = true;
	}
	in->d = ingest_open_dat_probed(path, &in->meta);
	if (!in->d) {
		ingest_dat_spill_cancel(copy);
		free(sha);
		return -1;
	}
	in->meta.content_sha256 = sha;
	if (!in->meta.compression) {
		ingest_dat_spill_cancel(copy);
	} else if (!copy_failed && want_spill(o, path)) {
		if (reopen_uncompressed(in, path, o->low_memory, copy)) {
			ingest_close_dat(in->d);
			in->d = NULL;
			ingest_meta_release(&in->meta);
			return -1;
		}
	} else {	/* go on from the copy once it is made */
		ingest_dat_switch_when_copied(in->d, copy, in_memory_cap());
	}
	in->sd = store_derived_open(st, 0);
	store_derived_defer(in->sd);
	in->model = load_model(in->d, NULL, &in->meta, o, in->sd);
	struct ingest_early early = { model_early_event, model_early_lost, in->model,
				      &load_interrupted };

	return ingest_start_dat(in->d, &early);
}

static void input_close(struct load_input *in)
{
	ingest_close_dat(in->d);	/* joins the reader thread first */
	ingest_close_text(in->t);
	model_free(in->model);
	store_derived_close(in->sd);
	if (in->d || in->t)
		ingest_meta_release(&in->meta);
	memset(in, 0, sizeof(*in));
}

/* Load one opened input as one run.  Returns 0 or -1 (message printed). */
static int load_one(struct store *st, struct load_input *in, const struct load_opts *o,
		    int iteration)
{
	struct ingest_dat *d = in->d;
	struct ingest_text *t = in->t;
	const char *path = in->path;
	struct load_ctx ctx = { st, NULL, NULL };
	struct ingest_sink sink = { .event = sink_event, .events = sink_events,
				    .lost = d ? sink_lost_raw : sink_lost, .task = sink_task,
				    .arg = &ctx };
	struct store_derived *sd = NULL;
	int64_t old_id = 0, run_id;
	int iter_used, ret = -1;

	/* a trace.dat is hashed during its probe; if that failed, say so here */
	if (!in->meta.content_sha256 && !(in->meta.content_sha256 = ingest_sha256_file(path)))
		goto out;
	if (store_find_run_by_hash(st, in->meta.content_sha256, &old_id))
		goto out;
	if (old_id && !o->replace) {
		vr_error("%s: already loaded as run %lld (same contents); use --replace to load"
			 " it again", path, (long long)old_id);
		goto out;
	}
	struct store_run run = {
		.kernel = o->kernel ? o->kernel : in->meta.release ? in->meta.release : "unknown",
		.kernel_given = o->kernel != NULL,
		.iteration = iteration,
		.source_format = t ? "text" : "trace.dat",
		.meta = &in->meta,
	};
	if (store_run_begin(st, &run, old_id, &run_id, &iter_used)) {
		vr_error("%s: not loaded", path);
		goto out;
	}
	if (d) {
		store_derived_set_run(in->sd, run_id);
		ctx.sd = in->sd;
		ctx.model = in->model;
	} else {
		sd = ctx.sd = store_derived_open(st, run_id);
		ctx.model = load_model(NULL, t, &in->meta, o, sd);
	}
	/* the reader thread is joined when ingest_read_dat() returns: the
	 * model may be finished here */
	if ((t ? ingest_read_text(t, &sink) : ingest_read_dat(d, &sink)) ||
	    model_finish(ctx.model) || (t && load_text_quality(t, sd)) ||
	    store_derived_flush(ctx.sd)) {
		store_run_abort(st);
		vr_error("%s: %s; the database is unchanged", path,
			 load_interrupted ? "interrupted" : "not loaded");
		goto out;
	}
	if (store_run_commit(st))
		goto out;
	if (!o->quiet)
		printf("run %lld: %s iteration %d <- %s%s\n", (long long)run_id,
		       store_run_kernel(st), iter_used, path, old_id ? " (replaced)" : "");
	fflush(stdout);	/* said before a later file can crash the worker */
	if (o->verbose && d)
		say_how_read(in);
	ret = 0;
out:
	if (t) {	/* a trace.dat's model and rows belong to its input */
		model_free(ctx.model);
		store_derived_close(sd);
	}
	return ret;
}

static int parse_load_opts(int argc, char **argv, struct load_opts *o)
{
	static const struct option longopts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "iteration", required_argument, NULL, 'i' },
		{ "replace", no_argument, NULL, 'r' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "premature-ms", required_argument, NULL, 'P' },
		{ "low-memory", no_argument, NULL, 'L' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:k:i:rj:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': o->db = optarg; break;
		case 'k': o->kernel = optarg; break;
		case 'i':
			if (vr_parse_int(optarg, &o->iteration) || o->iteration < 1)
				return vr_error("--iteration wants a number >= 1, not '%s'", optarg),
				       VR_EXIT_USAGE;
			break;
		case 'r': o->replace = true; break;
		case 'j':
			if (vr_parse_int(optarg, &o->jobs) || o->jobs < 1)
				return vr_error("--jobs wants a number >= 1, not '%s'", optarg),
				       VR_EXIT_USAGE;
			break;
		case 'q': o->quiet = true; break;
		case 'L': o->low_memory = true; break;
		case 'v': o->verbose = true; break;
		case 'P':
			if (vr_parse_int(optarg, &o->premature_ms) || o->premature_ms < 1)
				return vr_error("--premature-ms wants a number >= 1, not '%s'",
						optarg), VR_EXIT_USAGE;
			break;
		case 'h': return cmd_usage(load_usage, 0) - 1; /* -1: help shown */
		default: return cmd_usage(load_usage, VR_EXIT_USAGE);
		}
	}
	if (!o->db)
		return vr_error("load: -d DB is required"), cmd_usage(load_usage, VR_EXIT_USAGE);
	if (optind >= argc)
		return vr_error("load: no trace file given"), cmd_usage(load_usage, VR_EXIT_USAGE);
	return 0;
}

/*
 * A worker's progress, one line per event on a pipe to its supervisor:
 * "s I 0" before file I (of the command line) is stored, "d I F" after
 * (F 1: it failed), "x 0 N" when the database cannot be opened for its N
 * files.  No-ops outside a worker.
 */
static int progress_fd = -1;
static int progress_base;
static int files_loaded;	/* by load_files() in this process */

static void progress(char what, int i, int failed)
{
	if (progress_fd >= 0)
		dprintf(progress_fd, "%c %d %d\n", what, progress_base + i, failed);
}

/*
 * Load @n files in order, one run each.  Up to o->jobs files are opened
 * and decoding (each in its own reader thread, bounded) while the first
 * of them is being stored: SQLite takes one writer, so storing stays in
 * file order.  Returns the number of files that failed.
 */
static int load_files(struct store *st, char **files, int n, const struct load_opts *o)
{
	int window = o->jobs > 0 ? o->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	struct load_input *in = vr_calloc((size_t)n, sizeof(*in));
	bool *bad = vr_calloc((size_t)n, sizeof(*bad));
	char **sha = vr_calloc((size_t)n, sizeof(*sha));	/* of trace.dat files */
	int failed = 0, opened = 0;

	if (window < 1)
		window = 1;
	/* probes fork: all of them before the first reader thread starts */
	for (int i = 0; i < n && !o->supervised; i++)
		bad[i] = ingest_file_is_dat(files[i]) && ingest_probe_dat(files[i], &sha[i]) != 0;
	for (int i = 0; i < n && !load_interrupted; i++) {
		for (; opened < n && opened < i + window && !load_interrupted; opened++) {
			if (!bad[opened])
				bad[opened] = input_open(&in[opened], st, files[opened], o,
							 o->supervised ? NULL : &sha[opened]) != 0;
		}
		int iteration = o->iteration ? o->iteration + i : 0;
		bool f;

		if (load_interrupted) {	/* while file i was being opened */
			vr_error("%s: interrupted; the database is unchanged", files[i]);
			break;
		}
		progress('s', i, 0);
		f = bad[i] || load_one(st, &in[i], o, iteration);
		progress('d', i, f);
		failed += f;
		files_loaded += !f;
		if (o->supervised && i == n - 1 && in[i].d)	/* the worker exits next */
			ingest_dat_leave_to_exit(in[i].d);
		input_close(&in[i]);
	}
	for (int i = 0; i < n; i++) {	/* opened ahead of an interruption */
		input_close(&in[i]);
		free(sha[i]);
	}
	free(sha);
	free(in);
	free(bad);
	return failed;
}

/* The load of @n files in this process: the store, Ctrl-C, the files.
 * Returns the number of files that failed. */
static int load_worker(const struct load_opts *o, char **files, int n)
{
	struct vr_interrupts saved;
	struct store *st;
	int failed;

	/*
	 * libtracecmd 3.1.6 keeps every decompressed chunk of a compressed
	 * file (its free_zpage() never finds the chunk to release) and walks
	 * that list on each page it frees.  Chunk buffers from mmap keep the
	 * list nodes together on the heap, which makes the walk cache-friendly:
	 * reading a 3-million-event file takes 3.1 s instead of 5.1 s (make
	 * bench).  A fixed threshold also stops glibc from raising it.
	 */
	mallopt(M_MMAP_THRESHOLD, 32 << 10);

	st = store_open(o->db, STORE_RW);
	if (!st) {
		progress('x', 0, n);	/* none of them can load */
		return n;
	}
	/* Ctrl-C rolls the current run back and stops, leaving no hot journal */
	vr_catch_interrupts(on_interrupt, &saved);
	failed = load_files(st, files, n, o);
	store_close(st);
	vr_restore_interrupts(&saved);
	return failed;
}

/* What a supervisor learnt from a worker's progress lines. */
struct worker_report {
	int failed;		/* files that failed */
	int loaded;		/* files loaded */
	int current;		/* the file being stored when the worker ended, or -1 */
	int last_done;		/* the last file finished, or first - 1 */
};

/* Pass on to worker @pid a SIGINT/SIGTERM/SIGHUP this process alone was sent. */
static void forward_interrupt(pid_t pid, bool *forwarded)
{
	if (load_interrupted && !*forwarded) {
		kill(pid, (int)load_interrupted);
		*forwarded = true;
	}
}

/*
 * Read worker @pid's progress until it closes the pipe.  SIGINT/SIGTERM/SIGHUP
 * are blocked but while waiting in ppoll() (with @waitmask), so that one
 * arriving at any moment is passed on to the worker.
 */
static void read_progress(int fd, pid_t pid, int first, struct worker_report *r,
			  const sigset_t *waitmask)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[4096], *line, *nl;
	bool forwarded = false;
	size_t len = 0;
	ssize_t got;

	*r = (struct worker_report){ 0, 0, -1, first - 1 };
	for (;;) {
		if (ppoll(&pfd, 1, NULL, waitmask) < 0) {
			if (errno != EINTR)
				break;
			forward_interrupt(pid, &forwarded);
			continue;
		}
		got = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (got <= 0)
			break;
		len += (size_t)got;
		buf[len] = '\0';
		for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
			char what;
			int i, f;

			*nl = '\0';
			if (sscanf(line, "%c %d %d", &what, &i, &f) != 3)
				continue;
			if (what == 'x')
				r->failed += f;
			else if (what == 's')
				r->current = i;
			else {
				r->failed += f;
				r->loaded += !f;
				r->last_done = i;
				r->current = -1;
			}
		}
		len -= (size_t)(line - buf);
		memmove(buf, line, len);
	}
}

/* Run the load of files[first..n) in a worker process; *status: its wait
 * status.  -1 if it could not be started. */
static int run_worker(const struct load_opts *o, char **files, int n, int first, bool one_at_a_time,
		      struct worker_report *r, int *status)
{
	sigset_t stop, waitmask;
	int fds[2];
	pid_t pid, parent;
	struct ingest_scratch_snapshot *snap;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &waitmask);
	fflush(NULL);
	parent = getpid();
	snap = ingest_scratch_snapshot(files, n);
	pid = fork();
	if (pid < 0) {
		ingest_scratch_snapshot_free(snap);
		sigprocmask(SIG_SETMASK, &waitmask, NULL);
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		struct load_opts wo = *o;

		/* killed with the command (SIGKILL): nothing commits behind the
		 * user's back; the open run is rolled back by the next opener */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(VR_EXIT_FAIL);
		sigprocmask(SIG_SETMASK, &waitmask, NULL);
		close(fds[0]);
		progress_fd = fds[1];
		progress_base = first;
		wo.supervised = true;
		if (one_at_a_time)
			wo.jobs = 1;
		if (o->iteration)
			wo.iteration = o->iteration + first;
		/* interrupted (a signal sent to the worker alone): a failure too */
		exit(load_worker(&wo, files + first, n - first) || load_interrupted ? VR_EXIT_FAIL
										    : VR_EXIT_OK);
	}
	close(fds[1]);
	/* a signal sent to this process alone reaches the worker too */
	read_progress(fds[0], pid, first, r, &waitmask);
	close(fds[0]);
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR) {
			*status = 0;	/* cannot happen for our own child */
			break;
		}
	if (WIFSIGNALED(*status)) {	/* its uncompressed copies, at once */
		ingest_dat_spill_remove_stale();
		ingest_scratch_sweep(snap);	/* its converts died with it */
	}
	ingest_scratch_snapshot_free(snap);
	sigprocmask(SIG_SETMASK, &waitmask, NULL);
	return 0;
}

/*
 * Load the files in worker processes, so that a crash (libtracecmd 3.1.6
 * crashes on some corrupt files, when opening or reading them) costs only
 * the file it happened on: its run is rolled back by SQLite (the worker's
 * transaction never committed), it is reported, and a new worker goes on
 * with the next file.  When several files were being decoded at once, the
 * one that crashed is found by loading again from the file being stored,
 * one at a time.  This replaces a probe of every file in a child process,
 * which cost a second open of each file.  Returns the files that failed.
 */
static int load_supervised(struct load_opts *o, char **files, int n, int *loaded)
{
	struct vr_interrupts saved;
	int failed = 0, first = 0, status;
	bool isolate = false, crashed = false;
	struct worker_report r;

	vr_catch_interrupts(on_interrupt, &saved);
	while (first < n && !load_interrupted) {
		if (run_worker(o, files, n, first, isolate, &r, &status)) {
			/* no worker: load here, each trace.dat probed first */
			failed += load_worker(o, files + first, n - first);
			*loaded += files_loaded;
			break;
		}
		failed += r.failed;
		*loaded += r.loaded;
		if (WIFEXITED(status) && WEXITSTATUS(status) != VR_EXIT_OK && !r.failed)
			failed++;	/* it failed, but not on a file: interrupted */
		if (!WIFSIGNALED(status) || WTERMSIG(status) == SIGINT ||
		    WTERMSIG(status) == SIGTERM || WTERMSIG(status) == SIGHUP)
			break;
		int k = r.current >= 0 ? r.current : r.last_done + 1;

		crashed = true;
		if (k >= n) {	/* every file was done: its run committed */
			vr_warn("the load crashed after its last file (signal %d)", WTERMSIG(status));
			break;
		}
		if (!isolate && (o->jobs != 1) && k + 1 < n) {
			isolate = true;	/* which of the files in flight was it? */
			first = k;
			continue;
		}
		vr_error("%s: loading it crashed (signal %d), most likely inside libtracecmd on a"
			 " corrupt or truncated trace.dat; not loaded, the database is unchanged",
			 files[k], WTERMSIG(status));
		failed++;
		first = k + 1;
		isolate = false;
	}
	vr_restore_interrupts(&saved);
	if (crashed) {	/* roll back what the crashed worker left in the journal */
		struct store *st = store_open(o->db, STORE_RW);

		store_close(st);
	}
	return failed;
}

int cmd_load(int argc, char **argv)
{
	struct load_opts o = { .premature_ms = 100 };
	int ret = parse_load_opts(argc, argv, &o), failed, loaded = 0;

	if (ret)
		return ret < 0 ? VR_EXIT_OK : ret;
	bool existed = access(o.db, F_OK) == 0;

	failed = load_supervised(&o, argv + optind, argc - optind, &loaded);
	if (load_interrupted) {
		vr_error("interrupted by signal %d; runs loaded before it are kept",
			 (int)load_interrupted);
		failed = failed ? failed : 1;
	}
	/* a database this command created and filled with nothing goes away */
	if (!existed && !loaded)
		unlink(o.db);
	return failed ? VR_EXIT_FAIL : VR_EXIT_OK;
}

int cmd_load_file(struct store *st, const char *path, const char *kernel, int iteration,
		  int quiet)
{
	struct load_opts o = { .kernel = kernel, .quiet = quiet, .premature_ms = 100 };
	struct load_input in;
	int ret = input_open(&in, st, path, &o, NULL);

	if (!ret)
		ret = load_one(st, &in, &o, iteration);
	input_close(&in);
	return ret;
}
