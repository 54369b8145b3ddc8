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
	int files_loaded;	/* runs committed by load_run_files() in this process */
	long long last_run_id;	/* the run last committed in this process */
	bool last_replaced;	/* it replaced a run loaded before */
};

/* load.c: the flag the handler sets, and installing that handler. */
const volatile sig_atomic_t *load_interrupt_flag(void);
void load_catch_interrupts(struct vr_interrupts *saved);

/* What a supervisor learnt from a worker's progress lines. */
struct load_report {
	int failed;		/* files that failed */
	int loaded;		/* files loaded */
	int current;		/* the file being stored when the worker ended, or -1 */
	int last_done;		/* the last file finished, or first - 1 */
	long long last_run_id;	/* its run, if it loaded */
	bool last_replaced;	/* that run replaced one loaded before */
	bool out_of_memory;	/* it crashed right after an allocation failed */
};

/*
 * load-worker.c: load files[first..n) in a worker process (jobs 1 if
 * @one_at_a_time), reading its progress into @r; *status: its wait status.
 * A signal sent to this process alone is passed on to the worker.
 * 0, or -1 if no worker could be started.
 */
int load_run_worker(struct load_ctx *c, char *const *files, int n, int first,
		    bool one_at_a_time, struct load_report *r, int *status);

/* load-worker.c: a worker's progress line (no-op outside a worker):
 * 's' before file @i is stored, 'd' after (@failed 1: it failed, else the
 * run is c->last_run_id), 'x' when none of @failed files can load. */
void load_progress(const struct load_ctx *c, char what, int i, int failed);

/*
 * load-run.c: load @n files in this process (the store, Ctrl-C, the files
 * in order).  Returns the number of files that failed.
 */
int load_run_here(struct load_ctx *c, char *const *files, int n);

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

/* load-input.c: is @path a trace.dat (by its magic, or unreadable: opening
 * it says why) rather than a text trace?  The one place that decides. */
bool load_is_dat(const char *path);

/*
 * load-input.c: open @path into @in; a trace.dat is probed first unless
 * @sha256 says it was (ingest_probe_dat() gave it; taken over) or a
 * supervisor watches this process, then gets its model and starts
 * decoding.  0 or -1 (message printed).
 */
int load_input_open(struct load_input *in, struct store *st, const char *path,
		    const struct load_ctx *c, char **sha256);
void load_input_close(struct load_input *in);

/* load-input.c: the model of one run, rows going to @sd; model_free(). */
struct model *load_model(struct ingest_dat *d, struct ingest_text *t,
			 const struct ingest_meta *meta, const struct load_opts *o,
			 struct store_derived *sd);

/* load-input.c: how the trace.dat of @in was read, into @buf (struct
 * load_done.how_read); once its reader thread is joined. */
const char *load_how_read(const struct load_input *in, char *buf, size_t len);

#endif /* VR_LOAD_PRIV_H */
