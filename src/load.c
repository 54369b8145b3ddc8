// SPDX-License-Identifier: GPL-2.0
/*
 * load.c - load_files(): the supervisor of the load's worker processes,
 * which reports a file that crashed one and goes on with the next, and
 * what is left of the database when nothing loaded.
 */
#include "load-priv.h"
#include "store.h"
#include "vr.h"

#include <signal.h>
#include <string.h>
#include <sys/wait.h>
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

void load_catch_interrupts(struct vr_interrupts *saved)
{
	vr_catch_interrupts(on_interrupt, saved);
}

/* Did the worker end by one of the signals that interrupt a load? */
static bool ended_by_interrupt(int status)
{
	return WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM ||
	       WTERMSIG(status) == SIGHUP;
}

/*
 * Load the files in worker processes, so that a crash (libtracecmd 3.1.6
 * crashes on some corrupt files, when opening or reading them) costs only
 * the file it happened on: its run is rolled back by SQLite (the worker's
 * transaction never committed), it is reported, and a new worker goes on
 * with the next file.  When several files were being decoded at once, the
 * one that crashed is found by loading again from the file being stored,
 * one at a time.  This replaces a probe of every file in a child process,
 * which cost a second open of each file.  Returns the files that failed;
 * *@crashed: a worker crashed.
 */
static int load_supervised(struct load_ctx *c, char *const *files, int n, int *loaded,
			   bool *crashed)
{
	int failed = 0, first = 0, status;
	bool isolate = false;
	struct load_report r;

	while (first < n && !*c->interrupted) {
		if (load_run_worker(c, files, n, first, isolate, &r, &status)) {
			/* no worker: load here, each trace.dat probed first */
			failed += load_run_here(c, files + first, n - first);
			*loaded += c->files_loaded;
			break;
		}
		failed += r.failed;
		*loaded += r.loaded;
		if (WIFEXITED(status) && WEXITSTATUS(status) != VR_EXIT_OK && !r.failed)
			failed++;	/* it failed, but not on a file: interrupted */
		if (!WIFSIGNALED(status) || ended_by_interrupt(status))
			break;
		int k = r.current >= 0 ? r.current : r.last_done + 1;

		*crashed = true;
		if (k >= n) {	/* every file was done: its run committed */
			vr_warn("the load crashed after its last file (signal %d)", WTERMSIG(status));
			break;
		}
		if (!isolate && (c->o.jobs != 1) && k + 1 < n) {
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
	return failed;
}

int load_files(const struct load_opts *o, char *const *files, int n, struct load_result *r)
{
	struct load_ctx c = { .o = *o, .progress_fd = -1, .interrupted = load_interrupt_flag() };
	bool existed = access(o->db, F_OK) == 0, crashed = false;
	struct vr_interrupts saved;

	memset(r, 0, sizeof(*r));
	load_interrupted = 0;
	load_catch_interrupts(&saved);
	r->failed = load_supervised(&c, files, n, &r->loaded, &crashed);
	vr_restore_interrupts(&saved);
	if (crashed)	/* roll back what the crashed worker left in the journal */
		store_close(store_open(o->db, STORE_RW));
	r->interrupted = load_interrupted;
	if (r->interrupted && !r->failed)
		r->failed = 1;
	/* a database this call created and filled with nothing goes away */
	if (!existed && !r->loaded)
		unlink(o->db);
	return r->failed ? -1 : 0;
}
