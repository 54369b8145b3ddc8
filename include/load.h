/* SPDX-License-Identifier: GPL-2.0 */
/*
 * load.h - the load pipeline: trace files (trace.dat or text, told apart
 * by the trace.dat magic) into a database, one run per file, one
 * transaction per run, in a worker process that a supervisor watches so
 * that a crash inside libtracecmd costs only the file it happened on.
 * `load` and the NAME=FILE shortcut of `compare` both go through
 * load_files().  Files: src/load/load.c (entry, supervisor), src/load/load-worker.c
 * (worker process, progress pipe), src/load/load-run.c (storing the runs),
 * src/load/load-input.c (opening a file: its trace source, include/ingest.h,
 * which decides what it is and whether it is read through a copy).
 */
#ifndef VR_LOAD_H
#define VR_LOAD_H

#include <stdbool.h>
#include <stdint.h>

/* The threshold of the premature-sleep flag `load` uses by default, ms. */
#define LOAD_PREMATURE_MS_DEFAULT 100

/* What a run that was just committed is; valid during the callback only. */
struct load_done {
	const char *path;	/* the file as given */
	long long run_id;
	const char *kernel;	/* the run's label */
	int iteration;
	bool replaced;		/* --replace reloaded an earlier run of it */
	uint64_t events;	/* events stored in the run (0: the recording
				 * holds none) */
	/* trace.dat: how it was read ("zstd-compressed: read in memory",
	 * ...), for --verbose; NULL for a text trace */
	const char *how_read;
	/* "the trace contradicts rule X at N points (...)" for the pgdat flag
	 * clearing rule the run was given (model.h), or NULL */
	const char *flag_contradictions;
};

/* A flag clearing rule for the runs of one label, or of every run. */
struct load_flag_clear {
	const char *label;	/* the runs' kernel label, its first label_len
				 * bytes (not terminated); NULL: every run */
	size_t label_len;
	const char *rule;	/* one of model_flag_clear_names (model.h) */
};

/* At most this many --flag-clear rules in one load. */
#define LOAD_FLAG_CLEAR_MAX 32

struct load_opts {
	const char *db;		/* database path, created if missing */
	const char *kernel;	/* label of the runs; NULL: each file's release */
	int iteration;		/* of the first file, later ones count up; 0: next free */
	bool replace;		/* reload a file loaded before into its run */
	int jobs;		/* files decoded ahead; 0: the number of CPUs */
	int premature_ms;	/* kswapd premature-sleep threshold, ms (>= 1) */
	int64_t window_ns;	/* width of the reclaim_window windows; 0: at
				 * least WINDOWS_MIN a run (windows.h) */
	bool low_memory;	/* compressed trace.dat only through an uncompressed copy */
	/* flag clearing rules: a run takes the last one of its label, else
	 * the last one without a label, else its release's (model.h) */
	struct load_flag_clear flag_clear[LOAD_FLAG_CLEAR_MAX];
	int nflag_clear;
	bool empty_run;		/* a run without a vmscan event is deliberate: load it
				 * (else it is refused, saying which events it has) */
	bool progress;		/* a progress line per file on stderr when it is a
				 * terminal (include/progress.h) */
	/*
	 * Called after each run commits, in the process that stored it (a
	 * worker), before the next file is stored: print there, and flush,
	 * as a later file may crash the worker.  NULL: nothing said.
	 */
	void (*loaded)(void *arg, const struct load_done *done);
	void *loaded_arg;
};

/* What load_files() did. */
struct load_result {
	int failed;		/* files that failed (each named in a message) */
	int loaded;		/* runs committed */
	int interrupted;	/* the SIGINT/SIGTERM/SIGHUP that stopped it, or 0 */
};

/**
 * load_files - load the @n files @files (paths, borrowed) into @o->db in
 * command-line order, one run and one transaction each: a file that fails
 * (missing, not a trace, corrupt, already loaded, crashed the worker)
 * leaves the database content as it was, says "vmscan-report: FILE: what"
 * on stderr, and the next file still loads.  Up to @o->jobs files are
 * opened and decoded ahead of the one being stored.  SIGINT, SIGTERM and
 * SIGHUP are handled during the call (the handlers before it are put
 * back): the run being stored rolls back and no other starts.  A database
 * file the call created (O_EXCL) into which nothing loaded is removed, if
 * it still holds no run under its write lock (another load may have
 * stored one).  A worker that died or ended before its files were done
 * fails the files it did not finish (one that died after committing its
 * last run has that run removed again).  Scratch files and copies that
 * loads killed earlier left are removed first (ingest-dat-scratch.c,
 * ingest-dat-spill.c).
 * @r: OUT.  Returns 0 if every file loaded, else -1.
 */
int load_files(const struct load_opts *o, char *const *files, int n, struct load_result *r);

#endif /* VR_LOAD_H */
