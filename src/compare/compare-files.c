// SPDX-License-Identifier: GPL-2.0
/*
 * compare-files.c - the temporary database of `compare NAME=FILE,...`
 * (include/compare-files.h): made, loaded, removed, also by the signals
 * that end the command.
 */
#include "compare-files.h"
#include "latency-import.h"
#include "load.h"
#include "store.h"
#include "vr.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * The temporary database and its journal, for the signal handler: removed
 * by a SIGINT, SIGTERM or SIGHUP that ends the command (unlink() is
 * async-signal-safe), then the signal is raised again.  One temporary
 * database at a time.
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

static int ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && !strcmp(s + ls - lx, suffix);
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
 * interrupted the load is raised again once load_files() has put our
 * handler back, which removes the temporary database and ends the process. */
static int load_trace(struct store *st, const char *path, const char *kernel,
		      const struct compare_files_opts *o)
{
	struct load_opts lo = { .db = store_path(st), .kernel = kernel,
				.premature_ms = LOAD_PREMATURE_MS_DEFAULT, .progress = o->progress,
				.loaded = o->trace_loaded, .loaded_arg = o->arg };
	char *files[] = { (char *)path };
	struct load_result r;
	int ret = load_files(&lo, files, 1, &r);

	if (r.interrupted)
		raise(r.interrupted);
	return ret;
}

/* Import the latency report @path into @st as a run of @kernel, as
 * `import-latency` does.  0 or -1. */
static int import_latency(struct store *st, const char *path, const char *kernel,
			  const struct compare_files_opts *o)
{
	struct latency_import_result r;

	if (latency_import_file(st, path, kernel, 0, false, o->decl, &r))
		return -1;
	latency_import_warn(path, &r);
	if (o->latency_loaded)
		o->latency_loaded(o->arg, kernel, path, r.nsamples);
	return 0;
}

/* Load one NAME=FILE,... argument @arg into @f->st and keep its NAME in
 * @f->names.  0, VR_ERR or VR_ERR_USAGE. */
static int load_arg(struct compare_files *f, const char *argv_i,
		    const struct compare_files_opts *o)
{
	char *arg = vr_strdup(argv_i), *eq = strchr(arg, '='), **files;
	size_t nfiles;
	int failed;

	*eq = '\0';
	files = vr_split_list(eq + 1, &nfiles);
	failed = check_files(files, nfiles, arg) ? VR_ERR_USAGE : 0;
	for (size_t i = 0; i < nfiles && !failed; i++)
		failed = ends_with(files[i], ".txt") ? import_latency(f->st, files[i], arg, o)
						     : load_trace(f->st, files[i], arg, o);
	free(files);
	f->names[f->nnames++] = arg;
	if (!failed)
		failed = store_rekey_runs(f->st, arg);
	return failed == VR_ERR_USAGE ? VR_ERR_USAGE : failed ? VR_ERR : 0;
}

int compare_files_open(struct compare_files *f, int argc, char **argv,
		       const struct compare_files_opts *o)
{
	const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	int fd, ret = 0;

	memset(f, 0, sizeof(*f));
	snprintf(f->path, sizeof(f->path), "%s/vmscan-report-compare.XXXXXX", dir);
	fd = mkstemp(f->path);
	if (fd < 0) {
		f->path[0] = '\0';
		return vr_error("cannot create a temporary database in %s", dir);
	}
	close(fd);
	remove_tmp_db_on_signals(f->path, &f->saved);
	f->names = vr_calloc((size_t)argc + 1, sizeof(*f->names));
	f->st = store_open(f->path, STORE_RW);
	if (!f->st)
		ret = VR_ERR;
	for (int i = 0; i < argc && !ret; i++)
		ret = load_arg(f, argv[i], o);
	if (ret)
		compare_files_close(f);
	return ret;
}

char **compare_files_take_names(struct compare_files *f, size_t *n)
{
	char **names = f->names;

	*n = f->nnames;
	f->names = NULL;
	f->nnames = 0;
	return names;
}

void compare_files_close(struct compare_files *f)
{
	if (!f->path[0])
		return;
	store_close(f->st);
	f->st = NULL;
	unlink(f->path);
	f->path[0] = '\0';
	vr_restore_interrupts(&f->saved);
	for (size_t i = 0; i < f->nnames; i++)
		free(f->names[i]);
	free(f->names);
	f->names = NULL;
	f->nnames = 0;
}
