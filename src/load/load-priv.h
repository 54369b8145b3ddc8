/* SPDX-License-Identifier: GPL-2.0 */
/*
 * load-priv.h - what the files of the load module share (include/load.h
 * is the interface).  One struct load_ctx per load_files() call holds the
 * state of the call; in a worker process it is the worker's copy.
 */
#ifndef VR_LOAD_PRIV_H
#define VR_LOAD_PRIV_H

#include "ingest.h"
#include "load.h"
#include "vr.h"

#include <signal.h>
#include <stdbool.h>

struct child;
struct store;
struct store_derived;
struct model;

/* The state of one load_files() call (or of one worker it started). */
struct load_ctx {
	struct load_opts o;	/* as given; a worker's has its own iteration, jobs */
	bool supervised;	/* in a worker process: a crash is the parent's to report */
	/* the SIGINT/SIGTERM/SIGHUP received, 0 if none (load_interrupt_flag()) */
	const volatile sig_atomic_t *interrupted;
	int progress_fd;	/* a worker's end of the progress pipe, or -1 */
	int progress_base;	/* index of the worker's first file among all */
	/* by that index: a file the supervisor failed already (it changed
	 * while a worker read it), not to be read again; NULL: none */
	const bool *skip;
	int files_loaded;	/* runs committed by load_run_files() in this process */
	int storing;		/* the file load_one() stores (its index), or -1 */
	long long last_run_id;	/* the run last committed (or committing) here */
	bool last_replaced;	/* it replaced a run loaded before */
};

/* load-run.c: the flag the handler sets (cleared by
 * load_interrupt_clear()), and installing that handler. */
const volatile sig_atomic_t *load_interrupt_flag(void);
void load_interrupt_clear(void);
void load_catch_interrupts(struct vr_interrupts *saved);

/* What a supervisor learnt from a worker's progress lines. */
struct load_report {
	int failed;		/* files that failed */
	int loaded;		/* files loaded */
	int current;		/* the file being stored when the worker ended, or -1 */
	int last_done;		/* the last file finished, or first - 1 */
	long long last_run_id;	/* its run, if it loaded */
	bool last_replaced;	/* that run replaced one loaded before */
	/* the file whose run the worker was committing ("c"; as current, or
	 * -1), that run and whether it replaced one: a worker killed after
	 * the COMMIT and before its "d" line leaves that run in the database */
	int committing;
	long long committing_run_id;
	bool committing_replaced;
	bool out_of_memory;	/* it crashed right after an allocation failed */
	int stopped;		/* the interrupt it did not stop for within
				 * LOAD_STOP_GRACE_MS: killed (SIGKILL), or 0 */
};

/* How long a worker has to stop after an interrupt before it is killed. */
enum { LOAD_STOP_GRACE_MS = 1000 };

/* What a worker does: load @n files in the process it is given (the
 * worker's copy of the load_ctx); the number of files that failed. */
typedef int (*load_body_fn)(struct load_ctx *c, char *const *files, int n);

/*
 * load-worker.c: load files[first..n) in a worker process by @body (jobs 1
 * if @one_at_a_time), reading its progress into @r; @worker: OUT, the
 * worker, reaped (how it ended: child.h).  A signal sent to this process
 * alone is passed on to the worker.  0, or -1 if no worker could be
 * started.
 */
int load_run_worker(struct load_ctx *c, load_body_fn body, char *const *files, int n, int first,
		    bool one_at_a_time, struct load_report *r, struct child *worker);

/* load-worker.c: a worker's progress line (no-op outside a worker):
 * 's' before file @i is stored, 'c' before its run c->last_run_id is
 * committed, 'd' after (@failed 1: it failed, else the run is
 * c->last_run_id), 'x' when none of @failed files can load. */
void load_progress(const struct load_ctx *c, char what, int i, int failed);

/*
 * The decode memory one file open at once may hold, in bytes: a compressed
 * trace.dat's in-memory budget of decompressed chunks (64 MiB,
 * ingest-source.c), the reader's decode queue and its model; `make bench`
 * measured about 147 MB of anonymous memory at the peak of a load of one
 * file, SQLite's 16 MB page cache included.
 */
#define LOAD_DECODE_BYTES (150ull << 20)

/*
 * load-run.c: how many files are open and decoding at once (the one being
 * stored among them): -j N (@o->jobs; 0: the CPUs), but never more than the
 * CPUs this process may run on (vr_cpus_usable(): each file decodes on one
 * reader thread, so more files at once decode no faster and only hold more
 * decode memory: -j 1000000 on 26 files peaked at 4.5 times the memory of
 * -j 1), nor more than half the available memory holds at
 * LOAD_DECODE_BYTES each; at least 1.
 */
int load_decode_window(const struct load_opts *o);

/*
 * load-run.c: load @n files in this process (the store, Ctrl-C, the files
 * in order).  Returns the number of files that failed.
 */
int load_run_here(struct load_ctx *c, char *const *files, int n);

/*
 * One input file, its source opened (and, if it decodes ahead, decoding)
 * before its load.  The model of a source that decodes ahead (trace.dat)
 * runs on its reader thread from the start, its rows queued in a deferred
 * store_derived until the run is begun and they are flushed with the
 * batches; another's model is made when its run begins.
 */
struct load_input {
	const char *path;
	struct ingest_source *src;
	struct store_derived *sd;	/* decoding ahead: deferred derived rows */
	struct model *model;		/* decoding ahead: fed on the reader thread */
};

/*
 * load-input.c: open @path into @in (@sha256: what ingest_probe() made, or
 * NULL, as ingest_open() takes it); a source that decodes ahead gets its
 * model and starts decoding.  0 or -1 (message printed).
 */
int load_input_open(struct load_input *in, struct store *st, const char *path,
		    const struct load_ctx *c, char **sha256);

/*
 * load-input.c: load_input_open() in two steps, the first without the
 * store (so that it may run while the store is being opened):
 * load_input_open_source - the source of @path into @in (its checks and
 * tracecmd_open()); 0 or -1 (message printed).
 * load_input_start - for a source that decodes ahead, its model (rows to
 * a deferred store_derived of @st) and its reader started; 0 or -1.
 */
int load_input_open_source(struct load_input *in, const char *path, const struct load_ctx *c,
			   char **sha256);
int load_input_start(struct load_input *in, struct store *st, const struct load_ctx *c);
void load_input_close(struct load_input *in);

/*
 * load-input.c: close @in but its source, which is returned (to
 * ingest_close() on another thread: libtracecmd's close frees every
 * kernel symbol of the file, 3-15 ms a file; NULL if none): its reader
 * thread stopped first, then its model and deferred rows freed.  @in is
 * cleared.
 */
struct ingest_source *load_input_detach(struct load_input *in);

/* load-input.c: the model of one run of @src, rows going to @sd;
 * model_free(). */
struct model *load_model(struct ingest_source *src, const struct load_opts *o,
			 struct store_derived *sd);

#endif /* VR_LOAD_PRIV_H */
