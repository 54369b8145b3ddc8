/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare-files.h - `compare NAME=FILE,...`: the files named on the command
 * line loaded into a temporary database that lives while the comparison
 * runs (src/compare/compare-files.c): trace files as runs of kernel NAME,
 * as `load` loads them, *.txt files as their latencies, as
 * `import-latency` imports them.  The database is removed when it is
 * closed, and by a SIGINT, SIGTERM or SIGHUP that ends the command.
 */
#ifndef VR_COMPARE_FILES_H
#define VR_COMPARE_FILES_H

#include "vr.h"

#include <stdbool.h>
#include <stddef.h>

struct latency_import_decl;
struct load_done;
struct store;

/* How to load the files, and who hears of each (compare -v); the
 * callbacks may be NULL. */
struct compare_files_opts {
	bool progress;		/* load's progress line on a terminal */
	const struct latency_import_decl *decl;	/* for the *.txt imports */
	void (*trace_loaded)(void *arg, const struct load_done *d);
	void (*latency_loaded)(void *arg, const char *kernel, const char *path,
			       size_t nsamples);
	void *arg;
};

/* An open temporary database of NAME=FILE,... arguments. */
struct compare_files {
	struct store *st;	/* read-write, the runs loaded */
	char **names;		/* the NAMEs in argument order (owned) */
	size_t nnames;
	char path[4096];	/* the database file, in $TMPDIR or /tmp */
	struct vr_interrupts saved;	/* the handlers before ours */
};

/**
 * compare_files_open - make a temporary database (mkstemp() in $TMPDIR,
 * else /tmp) and load into it the @argc NAME=FILE,FILE,... arguments
 * @argv (checked by the caller: NAME=..., each NAME once), in order.  A
 * file may be given for two NAMEs: once a NAME's files are in, their runs
 * are rekeyed (store_rekey_runs()).  While it is open, SIGINT, SIGTERM and
 * SIGHUP remove the database and its journal and end the process with the
 * signal; a signal that interrupted a load is raised again once load has
 * put that handler back.
 * Returns 0 with @f open (compare_files_close()); else, the database
 * removed and the handlers restored, VR_ERR after a message (a file that
 * did not load: `load`'s and `import-latency`'s messages) or VR_ERR_USAGE
 * ("compare: FILE is given twice for kernel 'NAME'").
 */
int compare_files_open(struct compare_files *f, int argc, char **argv,
		       const struct compare_files_opts *o);

/**
 * compare_files_take_names - hand the NAMEs of @f over to the caller (a
 * malloc'ed array of malloc'ed strings, *@n of them); @f keeps none.
 */
char **compare_files_take_names(struct compare_files *f, size_t *n);

/** compare_files_close - close @f's database, remove it and put the
 * signal handlers back; a closed or never opened @f is allowed. */
void compare_files_close(struct compare_files *f);

#endif /* VR_COMPARE_FILES_H */
