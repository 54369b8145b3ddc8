// SPDX-License-Identifier: GPL-2.0
/*
 * load-run.c - storing the runs in the process that loads (a worker, or
 * the command itself when no worker can be started): each input as one
 * run in one transaction, its raw rows through the ingest sink, its
 * derived rows from the model.
 */
#include "load-priv.h"
#include "model.h"
#include "progress.h"
#include "recorded.h"
#include "snapshot.h"
#include "windows.h"
#include "store.h"
#include "vr.h"

#include <glib.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The SIGINT/SIGTERM/SIGHUP received during load_files(), 0 if none.  The
 * one file-scope variable of the module: a signal handler can reach
 * nothing else (POSIX allows it to write only a volatile sig_atomic_t);
 * everything else reads it through struct load_ctx.interrupted.
 */
static volatile sig_atomic_t load_interrupted;

static void on_interrupt(int sig)
{
	load_interrupted = sig;
}

const volatile sig_atomic_t *load_interrupt_flag(void)
{
	return &load_interrupted;
}

void load_interrupt_clear(void)
{
	load_interrupted = 0;
}

void load_catch_interrupts(struct vr_interrupts *saved)
{
	vr_catch_interrupts(on_interrupt, saved);
}


/* What the ingest sink feeds: the raw store and the model of the run. */
struct sink_ctx {
	struct store *store;
	struct model *model;
	struct store_derived *sd;
	const volatile sig_atomic_t *interrupted;
	struct progress prog;	/* the file's progress line */
	const char *path;
	uint64_t nevents;	/* events stored so far */
	const struct ingest_source *src;	/* the file being read */
	double start_done;	/* done_share() when the line started (-1: not yet) */
	uint64_t vmscan_events;	/* events of the vmscan system, up to the first */
	GHashTable *other_events;	/* until then, "system:name" -> count (uint64_t *) */
};

/* Count @ev for the check that the run has a vmscan event (no_vmscan()). */
static void note_system(struct sink_ctx *c, const struct ingest_event *ev)
{
	char *key;
	uint64_t *n;

	if (c->vmscan_events)
		return;
	if (ev->system && !strcmp(ev->system, "vmscan")) {
		c->vmscan_events++;
		return;
	}
	key = g_strdup_printf("%s:%s", ev->system ? ev->system : "?", ev->name ? ev->name : "?");
	n = g_hash_table_lookup(c->other_events, key);
	if (!n) {
		n = vr_calloc(1, sizeof(*n));
		g_hash_table_insert(c->other_events, key, n);
	} else {
		g_free(key);
	}
	(*n)++;
}

struct event_count {
	const char *name;
	uint64_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct event_count *x = a, *y = b;

	return x->n != y->n ? (x->n < y->n ? 1 : -1) : strcmp(x->name, y->name);
}

/*
 * A recording without a single vmscan event (only sched events, the wrong
 * instance, an event list without vmscan) would load as a run of 0
 * stalls, 0 wakes and 0 pages: refused unless @empty_run says it is meant
 * (a run without reclaim).  The message names the events it has, the
 * most frequent first, and says whether the vmscan tracepoints were
 * recorded at all (@formats: the file holds their formats).  0, or -1
 * after the message.
 */
static int no_vmscan(struct sink_ctx *c, bool empty_run, bool formats)
{
	GHashTableIter it;
	gpointer k, v;
	struct event_count *ev;
	struct vr_buf b;
	size_t n = 0, i = 0;

	if (c->vmscan_events || empty_run)
		return 0;
	n = g_hash_table_size(c->other_events);
	ev = vr_calloc(n + 1, sizeof(*ev));
	g_hash_table_iter_init(&it, c->other_events);
	while (g_hash_table_iter_next(&it, &k, &v))
		ev[i++] = (struct event_count){ k, *(uint64_t *)v };
	qsort(ev, n, sizeof(*ev), by_count);
	vr_buf_init(&b);
	for (i = 0; i < n && i < 8; i++)
		vr_buf_addf(&b, "%s%s %llu", i ? ", " : "", ev[i].name, (unsigned long long)ev[i].n);
	if (n > 8)
		vr_buf_addf(&b, " and %zu more event(s)", n - 8);
	vr_error("%s: no vmscan event in the recording (it has %s%s); a run without one shows"
		 " nothing of reclaim: record vmscan:* (the right instance?), or load it with"
		 " --empty-run if it is a run deliberately without reclaim", c->path,
		 n ? b.buf : "no events", formats ? "; the vmscan tracepoints were recorded and"
		 " none fired" : "");
	vr_buf_release(&b);
	free(ev);
	return -1;
}

/*
 * The share of the file's events stored so far, 0..1, or -1 if not known.
 * A text trace's index counts its events (1 of 1 done).  A trace.dat says
 * how many bytes of data each CPU has, not how many events: the reader,
 * ahead of the rows stored by its queue, counts the events in the bytes it
 * has decoded, which estimates the file's events as EVENTS * TOTAL / DONE
 * bytes, exact once it has read everything (ingest_progress()).
 */
static double done_share(const struct sink_ctx *c)
{
	uint64_t done, total, events;

	ingest_progress(c->src, &done, &total, &events);
	if (!done || !events || !total)
		return -1;
	return (double)c->nevents * (double)done / ((double)events * (double)total);
}

/* "ETA S s" from the rate of this line's share so far (a file opened ahead
 * may have been partly read before it began), "ETA -" until there is one. */
static void eta(char *buf, size_t len, double share, double start, double s)
{
	if (share < 0 || start < 0 || share - start < 0.005 || s < 0.2)
		snprintf(buf, len, "ETA -");
	else
		snprintf(buf, len, "ETA %.1f s", s * (1 - share) / (share - start));
}

/* The progress line of the file being read, after @n more events. */
static void sink_progress(struct sink_ctx *c, int n)
{
	char pct[16], left[32];
	double s, share;

	c->nevents += (uint64_t)n;
	if (!progress_due(&c->prog))
		return;
	s = progress_elapsed_s(&c->prog);
	share = done_share(c);
	if (share > 1)
		share = 1;
	if (c->start_done < 0)
		c->start_done = share;
	eta(left, sizeof(left), share, c->start_done, s);
	if (share >= 0)
		snprintf(pct, sizeof(pct), "%.0f%%, ", 100 * share);
	else
		pct[0] = '\0';
	progress_show(&c->prog, "load: %s: %s%llu events, %.0f events/s, %.1f s, %s", c->path,
		      pct, (unsigned long long)c->nevents, s > 0 ? (double)c->nevents / s : 0.0, s,
		      left);
}

/* One event of a source that does not decode ahead: the model first, as it may fill in fields
 * of the event (model_event()), then the raw row. */
static int sink_event(void *arg, const struct ingest_event *ev)
{
	struct sink_ctx *c = arg;
	struct ingest_event e = *ev;

	if (*c->interrupted)
		return -1;
	note_system(c, ev);
	if (!(c->nevents & 4095))
		sink_progress(c, 0);
	c->nevents++;
	return model_event(c->model, &e) ?: store_event(c->store, &e);
}

/*
 * A batch from a reader that decodes ahead: raw rows in bulk, then the
 * derived rows its model (run on the reader thread, see load_input_open()) has
 * queued so far.
 */
static int sink_events(void *arg, const struct ingest_event *evs, int n)
{
	struct sink_ctx *c = arg;

	if (*c->interrupted || store_events(c->store, evs, n))
		return -1;
	for (int i = 0; i < n && !c->vmscan_events; i++)
		note_system(c, &evs[i]);
	sink_progress(c, n);
	return store_derived_flush(c->sd);
}

static int sink_lost_raw(void *arg, int cpu, uint64_t ts_ns, int64_t count)
{
	struct sink_ctx *c = arg;

	return store_lost(c->store, cpu, ts_ns, count);
}

static int sink_lost(void *arg, int cpu, uint64_t ts_ns, int64_t count)
{
	struct sink_ctx *c = arg;

	return store_lost(c->store, cpu, ts_ns, count) ?: model_lost(c->model, cpu, ts_ns, count);
}

static int sink_gap(void *arg, uint64_t ts_ns, uint64_t lineno)
{
	struct sink_ctx *c = arg;

	(void)lineno;
	return model_gap(c->model, ts_ns);
}

static int sink_task(void *arg, const struct ingest_task_span *t)
{
	struct sink_ctx *c = arg;

	return store_task_span(c->store, t);
}

/* run_quality rows (and, for a text, warnings) for what the source of a
 * run could not carry. */
static int load_quality(struct ingest_source *src, struct store_derived *sd)
{
	struct model_sink ms;

	store_derived_sink(sd, &ms);
	return ingest_quality(src, ms.quality, ms.arg);
}

/* The run of @in already loaded (same contents): *@old_id, 0 if none.
 * A trace.dat is hashed during its probe; if that failed, say so here.
 * 0, or -1 (message printed: cannot hash, or loaded without --replace). */
static int find_loaded(struct store *st, struct load_input *in, const struct load_opts *o,
		       int64_t *old_id)
{
	const char *sha = ingest_hash(in->src);

	if (!sha)
		return -1;
	if (store_find_run_by_hash(st, sha, old_id))
		return -1;
	if (*old_id && !o->replace)
		return vr_error("%s: already loaded as run %lld (same contents); use --replace to"
				" load it again", in->path, (long long)*old_id);
	return 0;
}

/* Does @in hold the formats of vmscan's stall and kswapd tracepoints
 * (a text holds none: only what its lines show)? */
static bool vmscan_recorded(struct load_input *in)
{
	static const char *const names[] = { "mm_vmscan_direct_reclaim_begin",
					     "mm_vmscan_kswapd_wake", "mm_vmscan_lru_shrink_inactive" };

	for (size_t i = 0; i < VR_ARRAY_SIZE(names); i++)
		if (!ingest_fields_printed(in->src) &&
		    ingest_has_field(in->src, "vmscan", names[i], NULL) == 1)
			return true;
	return false;
}

/* Read @in to the end into the open run through @ctx, finish its model
 * and flush the derived rows; a run without a vmscan event is refused
 * unless @empty_run.  0 or -1. */
static int read_run(struct load_input *in, struct sink_ctx *ctx, bool empty_run)
{
	bool ahead = ingest_decodes_ahead(in->src);
	struct ingest_sink sink = { .event = sink_event, .events = sink_events,
				    .lost = ahead ? sink_lost_raw : sink_lost, .gap = sink_gap,
				    .task_span = sink_task, .arg = ctx };

	/* the reader thread is joined when ingest_read() returns: the model
	 * may be finished here */
	struct model_stall_pages stall[4];

	if (ingest_read(in->src, &sink) || model_finish(ctx->model) ||
	    load_quality(in->src, ctx->sd) || store_derived_flush(ctx->sd) ||
	    no_vmscan(ctx, empty_run, vmscan_recorded(in)))
		return -1;
	/* lru_shrink_stall as the model counted it, not an SQL pass at the commit */
	store_run_stall_pages(ctx->store, stall,
			      model_stall_pages(ctx->model, stall, (int)VR_ARRAY_SIZE(stall)));
	return 0;
}

/* Tell the caller's callback about the committed run @run_id of @in. */
static void say_loaded(const struct load_ctx *c, struct store *st, const struct load_input *in,
		       const struct model *model, int64_t run_id, int iteration, bool replaced)
{
	char how[256];
	struct load_done done = {
		.path = in->path, .run_id = run_id, .kernel = store_run_kernel(st),
		.iteration = iteration, .replaced = replaced, .events = store_run_events(st),
		.how_read = ingest_how_read(in->src, how, sizeof(how)),
		.flag_contradictions = model_flag_contradictions(model),
	};

	if (c->o.loaded)
		c->o.loaded(c->o.loaded_arg, &done);
	fflush(stdout);	/* said before a later file can crash the worker */
}

/* What store_run.before_commit gets. */
struct commit_arg {
	const char *path;	/* the trace */
	int64_t window_ns;	/* load_opts.window_ns */
};

/* store_run.before_commit: with the run's rows, counts, sums and tasks
 * written, the counter snapshots beside the trace, the derived columns the
 * run did not record made NULL (recorded.h), and the windows. */
static int load_before_commit(void *arg, struct store *st, int64_t run_id)
{
	const struct commit_arg *a = arg;

	return snapshot_load(st, run_id, a->path) || recorded_apply(st, run_id) ||
	       windows_compute(st, run_id, a->window_ns);
}

/* Load one opened input as one run.  Returns 0 or -1 (message printed). */
static int load_one(struct load_ctx *c, struct store *st, struct load_input *in,
		    int iteration)
{
	struct sink_ctx ctx = { st, NULL, NULL, c->interrupted, .path = in->path, .src = in->src,
				.start_done = -1 };
	const struct ingest_meta *meta = ingest_meta(in->src);
	bool ahead = ingest_decodes_ahead(in->src);
	int64_t old_id = 0, run_id;
	int iter_used, read_failed, ret = -1;
	struct commit_arg commit = { in->path, c->o.window_ns };

	if (find_loaded(st, in, &c->o, &old_id))
		return -1;
	struct store_run run = {
		.kernel = c->o.kernel ? c->o.kernel : meta->release ? meta->release : "unknown",
		.kernel_given = c->o.kernel != NULL,
		.iteration = iteration,
		.source_format = ingest_format(in->src),
		.meta = meta,
		.has_event = ingest_has_field,
		.has_event_arg = in->src,
		.before_commit = load_before_commit, .before_commit_arg = &commit,
	};
	if (store_run_begin(st, &run, old_id, &run_id, &iter_used))
		return vr_error("%s: not loaded; the database is unchanged", in->path);
	if (ahead) {	/* the model and rows of a source decoding ahead are its input's */
		store_derived_set_run(in->sd, run_id);
		ctx.sd = in->sd;
		ctx.model = in->model;
	} else {
		ctx.sd = store_derived_open(st, run_id);
		ctx.model = load_model(in->src, &c->o, ctx.sd);
	}
	progress_start(&ctx.prog, !c->o.progress);
	ctx.other_events = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, free);
	read_failed = read_run(in, &ctx, c->o.empty_run);
	g_hash_table_destroy(ctx.other_events);
	progress_end(&ctx.prog);
	if (read_failed) {
		store_run_abort(st);
		vr_error("%s: %s; the database is unchanged", in->path,
			 *c->interrupted ? "interrupted" : "not loaded");
	} else {
		/* said first: a worker killed between the COMMIT and its "d"
		 * line leaves a run its supervisor must know of */
		c->last_run_id = run_id;
		c->last_replaced = old_id != 0;
		load_progress(c, 'c', c->storing, 0);
		if (!store_run_commit(st)) {
			say_loaded(c, st, in, ctx.model, run_id, iter_used, old_id != 0);
			ret = 0;
		} else {
			vr_error("%s: not loaded; the database is unchanged", in->path);
		}
	}
	if (!ahead) {
		model_free(ctx.model);
		store_derived_close(ctx.sd);
	}
	return ret;
}

/* Probe every file of @files that needs it in a child process first
 * (outside a worker): probes fork, so all of them before the first reader
 * thread starts.  @bad[i]: the probe failed; @sha[i]: the hash it made. */
static void probe_all(const struct load_ctx *c, char *const *files, int n, bool *bad, char **sha)
{
	for (int i = 0; i < n && !c->supervised; i++)
		bad[i] = ingest_probe(files[i], &sha[i]) != 0;
}

int load_decode_window(const struct load_opts *o)
{
	int cpus = vr_cpus_usable(), window = o->jobs > 0 ? o->jobs : cpus;
	uint64_t avail = vr_mem_available_bytes();

	if (window > cpus)
		window = cpus;
	if (avail && (uint64_t)window * LOAD_DECODE_BYTES > avail / 2)
		window = (int)(avail / 2 / LOAD_DECODE_BYTES);
	return window < 1 ? 1 : window;
}

/*
 * Load @n files in order, one run each.  Up to load_decode_window() files
 * are opened and decoding (each in its own reader thread, bounded) while the first
 * of them is being stored: SQLite takes one writer, so storing stays in
 * file order.  Returns the number of files that failed.
 */
/*
 * A file opened ahead on a thread of its own (load_input_open(): the
 * source's checks and tracecmd_open(), its model, its reader started)
 * while the store thread stores the file before it: on six recordings of
 * a few MB the opens were 43 % of the store thread's time, which is the
 * load's critical path (issue 28).  The thread lives until the file is
 * closed: a trace-cmd convert it started dies with the thread that forked
 * it (PR_SET_PDEATHSIG in ingest-dat-spill.c), not with the process.  It
 * closes the source itself once the store thread is done with the file
 * (libtracecmd's close frees every kernel symbol of the file: 3-15 ms a
 * file on the store thread, between two files' stores), and is joined
 * after the next file's store.
 */
/*
 * The order of the openers' opens: file order.  Their tracecmd_open()s
 * run one at a time (dat_open_lock, ingest-dat-priv.h), and the first
 * file's is the store thread's first wait: when the first two files'
 * openers raced for the lock, the second file often won it and the first
 * file's open ended after both (0.24 s instead of 0.11 s into a load of
 * the six wsf recordings).  An opener opens when the turn is its own.
 * The first files' openers start before the store is opened (a fresh
 * database's schema: 20-40 ms), and wait for it only to start their
 * readers, whose model rows go to it.
 */
struct open_turns {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int turn;		/* the opener whose open may run: its seq */
	int next_seq;		/* the seq of the next opener made */
	bool store_known;	/* store_open() returned */
	struct store *st;	/* what it returned (NULL: failed) */
};

static void turn_wait(struct open_turns *t, int seq)
{
	pthread_mutex_lock(&t->lock);
	while (t->turn != seq)
		pthread_cond_wait(&t->cond, &t->lock);
	pthread_mutex_unlock(&t->lock);
}

static void turn_pass(struct open_turns *t)
{
	pthread_mutex_lock(&t->lock);
	t->turn++;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
}

/* The store, once store_open() returned (NULL if it failed). */
static struct store *turns_store(struct open_turns *t)
{
	struct store *st;

	pthread_mutex_lock(&t->lock);
	while (!t->store_known)
		pthread_cond_wait(&t->cond, &t->lock);
	st = t->st;
	pthread_mutex_unlock(&t->lock);
	return st;
}

static void turns_set_store(struct open_turns *t, struct store *st)
{
	pthread_mutex_lock(&t->lock);
	t->st = st;
	t->store_known = true;
	pthread_cond_broadcast(&t->cond);
	pthread_mutex_unlock(&t->lock);
}

struct opener {
	pthread_t th;
	bool running;		/* started, not joined yet */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool opened, release;	/* under lock */
	bool released;		/* open_release() done */
	bool deferred;		/* no thread: opened by open_wait() */
	struct ingest_source *closing;	/* given back to close, with release */
	struct load_input *in;
	const char *path;
	const struct load_ctx *c;
	char **sha;
	struct open_turns *turns;
	int seq;		/* its turn */
	int rc;			/* load_input_open()'s */
};

/* load_input_open() in two steps: the source when @o's turn comes
 * (passed on after it), its reader once the store is open; then its
 * content hash (ingest_hash_ahead()). */
static int open_in_turn(struct opener *o)
{
	struct store *st;
	int rc;

	turn_wait(o->turns, o->seq);
	rc = load_input_open_source(o->in, o->path, o->c, o->sha);
	turn_pass(o->turns);
	st = turns_store(o->turns);
	rc = rc || !st || load_input_start(o->in, st, o->c) ? -1 : 0;
	if (!rc)	/* while its reader starts, not on the store thread (find_loaded()) */
		ingest_hash_ahead(o->in->src);
	return rc;
}

static void *opener_main(void *arg)
{
	struct opener *o = arg;
	int rc = open_in_turn(o);

	pthread_mutex_lock(&o->lock);
	o->rc = rc;
	o->opened = true;
	pthread_cond_broadcast(&o->cond);
	while (!o->release)
		pthread_cond_wait(&o->cond, &o->lock);
	pthread_mutex_unlock(&o->lock);
	ingest_close(o->closing);
	return NULL;
}

/* Open @path into @in on a thread of its own (if none can start, on the
 * store thread when it comes to the file), after the files whose openers
 * @t made before. */
static void open_ahead(struct opener *o, struct load_input *in, const char *path,
		       const struct load_ctx *c, char **sha, struct open_turns *t)
{
	*o = (struct opener){ .in = in, .path = path, .c = c, .sha = sha, .turns = t,
			      .seq = t->next_seq++ };
	pthread_mutex_init(&o->lock, NULL);
	pthread_cond_init(&o->cond, NULL);
	o->running = pthread_create(&o->th, NULL, opener_main, o) == 0;
	o->deferred = !o->running;
}

/* Wait for @o's open (the store known): 0, or -1 (it failed, said). */
static int open_wait(struct opener *o)
{
	if (o->deferred) {
		o->deferred = false;
		o->rc = open_in_turn(o);
	}
	if (o->running) {
		pthread_mutex_lock(&o->lock);
		while (!o->opened)
			pthread_cond_wait(&o->cond, &o->lock);
		pthread_mutex_unlock(&o->lock);
	}
	return o->rc ? -1 : 0;
}

/* Done with @in, opened by @o: its source to @o's thread to close, which
 * then ends (here if @o has no thread; an open not made yet is not made,
 * its turn passed on).  Once per opener. */
static void open_release(struct opener *o, struct load_input *in)
{
	struct ingest_source *src;

	if (o->released)
		return;
	o->released = true;
	if (o->deferred) {
		o->deferred = false;
		turn_wait(o->turns, o->seq);
		turn_pass(o->turns);
	}
	open_wait(o);
	src = load_input_detach(in);
	if (!o->running) {
		ingest_close(src);
		return;
	}
	pthread_mutex_lock(&o->lock);
	o->closing = src;
	o->release = true;
	pthread_cond_broadcast(&o->cond);
	pthread_mutex_unlock(&o->lock);
}

/* Wait for @o's thread to end (released). */
static void open_join(struct opener *o)
{
	if (!o->running)
		return;
	pthread_join(o->th, NULL);
	o->running = false;
	pthread_cond_destroy(&o->cond);
	pthread_mutex_destroy(&o->lock);
}

/* Close @in, opened by @o, and end @o's thread. */
static void open_close(struct opener *o, struct load_input *in)
{
	open_release(o, in);
	open_join(o);
}

/* Open files[*opened..@end) ahead (those probed bad are not: rc -1). */
static void open_files(const struct load_ctx *c, char *const *files, int end, bool *bad,
		       char **sha, struct load_input *in, struct opener *op, int *opened,
		       struct open_turns *t)
{
	for (; *opened < end && !*c->interrupted; (*opened)++) {
		int k = *opened;

		if (!bad[k])
			open_ahead(&op[k], &in[k], files[k], c, c->supervised ? NULL : &sha[k], t);
		else
			op[k].rc = -1;
	}
}

/* Store files[0..@n) in order into @st, opened ahead by @op (the first
 * ones before @st was open).  Returns the number that failed. */
static int store_files(struct load_ctx *c, struct store *st, char *const *files, int n,
		       bool *bad, char **sha, struct load_input *in, struct opener *op,
		       int opened, struct open_turns *t)
{
	int window = load_decode_window(&c->o), failed = 0;

	for (int i = 0; i < n && !*c->interrupted; i++) {
		open_files(c, files, i + window < n ? i + window : n, bad, sha, in, op, &opened, t);
		int iteration = c->o.iteration ? c->o.iteration + i : 0;
		bool f;

		if (i < opened)
			bad[i] = open_wait(&op[i]) != 0;

		if (*c->interrupted) {	/* while file i was being opened */
			vr_error("%s: interrupted; the database is unchanged", files[i]);
			break;
		}
		load_progress(c, 's', i, 0);
		c->storing = i;
		f = bad[i] || load_one(c, st, &in[i], iteration);
		c->storing = -1;
		load_progress(c, 'd', i, f);
		failed += f;
		c->files_loaded += !f;
		if (c->supervised && i == n - 1 && in[i].src)	/* the worker exits next */
			ingest_leave_to_exit(in[i].src);
		open_release(&op[i], &in[i]);
		if (i > 0)	/* it closed its source during file i's store */
			open_join(&op[i - 1]);
	}
	return failed;
}

/*
 * Load @n files in this process: probed (unless supervised), the first
 * load_decode_window() of them opened ahead while the store @db is
 * opened, then stored in order (store_files()).  Ctrl-C is caught once the
 * store is open.  Returns the number of files that failed (all of them
 * when the store cannot be opened).
 */
static int load_run_files(struct load_ctx *c, char *const *files, int n)
{
	int window = load_decode_window(&c->o);
	struct load_input *in = vr_calloc((size_t)n, sizeof(*in));
	struct opener *op = vr_calloc((size_t)n, sizeof(*op));
	bool *bad = vr_calloc((size_t)n, sizeof(*bad));
	char **sha = vr_calloc((size_t)n, sizeof(*sha));	/* of trace.dat files */
	int failed = n, opened = 0;
	struct open_turns turns = { .lock = PTHREAD_MUTEX_INITIALIZER,
				    .cond = PTHREAD_COND_INITIALIZER };
	struct vr_interrupts saved;
	struct store *st;

	probe_all(c, files, n, bad, sha);
	for (int i = 0; i < n && c->skip; i++)	/* failed and said by the supervisor */
		bad[i] |= c->skip[c->progress_base + i];
	open_files(c, files, window < n ? window : n, bad, sha, in, op, &opened, &turns);
	st = store_open(c->o.db, STORE_RW);
	turns_set_store(&turns, st);
	if (st) {
		/* Ctrl-C rolls the current run back and stops, leaving no hot journal */
		load_catch_interrupts(&saved);
		store_set_interrupt(st, c->interrupted);
		failed = store_files(c, st, files, n, bad, sha, in, op, opened, &turns);
	}
	for (int i = 0; i < n; i++) {	/* opened ahead of an interruption */
		open_close(&op[i], &in[i]);
		free(sha[i]);
	}
	if (st) {
		store_close(st);
		vr_restore_interrupts(&saved);
	} else {
		load_progress(c, 'x', 0, n);	/* none of them can load */
	}
	pthread_cond_destroy(&turns.cond);
	pthread_mutex_destroy(&turns.lock);
	free(sha);
	free(op);
	free(in);
	free(bad);
	return failed;
}

int load_run_here(struct load_ctx *c, char *const *files, int n)
{
	/*
	 * libtracecmd 3.1.6 keeps every decompressed chunk of a compressed
	 * file (its free_zpage() never finds the chunk to release) and walks
	 * that list on each page it frees.  Chunk buffers from mmap keep the
	 * list nodes together on the heap, which makes the walk cache-friendly:
	 * reading a 3-million-event file takes 3.1 s instead of 5.1 s (make
	 * bench).  A fixed threshold also stops glibc from raising it.
	 */
	mallopt(M_MMAP_THRESHOLD, 32 << 10);
	return load_run_files(c, files, n);
}
