// SPDX-License-Identifier: GPL-2.0
/*
 * load.c - load_files(): the supervisor of the load's worker processes,
 * which reports a file whose worker died and goes on with the next, and
 * what is left of the database when nothing loaded.
 */
#define _GNU_SOURCE	/* sigabbrev_np */
#include "child.h"
#include "load-priv.h"
#include "store.h"
#include "vr.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Did the worker end by one of the signals that interrupt a load? */
static bool ended_by_interrupt(const struct child *worker)
{
	int sig = child_signalled(worker);

	return sig == SIGINT || sig == SIGTERM || sig == SIGHUP;
}

/*
 * Say why @worker ended while loading @path (child_how()): by itself
 * before it was done (an exit status), by the OOM killer (SIGKILL while
 * the kernel's oom_kill count rose), by a crash right after an allocation
 * failed (the worker said so), by another SIGKILL or signal sent to it,
 * or by a crash (SIGSEGV and the like, which libtracecmd 3.1.6 does on
 * some corrupt files, and which allocations failing under an
 * address-space limit can cause).
 */
static void say_worker_died(const char *path, const struct child *worker)
{
	unsigned long long limit = vr_as_limit_mib();
	enum child_how how = child_how(worker);
	int sig = child_signalled(worker);
	char hint[128] = "";

	if (!sig) {
		vr_error("%s: not loaded: the load's worker ended (exit status %d) while loading it;"
			 " the database is unchanged", path, WEXITSTATUS(worker->status));
	} else if (how == CHILD_ENOMEM) {
		vr_error("%s: loading it ran out of memory: the worker crashed (signal %d) right after"
			 " an allocation failed (ENOMEM); not loaded, the database is unchanged", path,
			 sig);
	} else if (how == CHILD_OOM_KILLED) {
		vr_error("%s: loading it ran out of memory: the worker was killed by the kernel's OOM"
			 " killer (signal %d); not loaded, the database is unchanged", path, sig);
	} else if (how == CHILD_KILLED || how == CHILD_STOPPED_BY_US) {
		vr_error("%s: loading it was stopped: the worker was killed by signal %d (SIG%s);"
			 " not loaded, the database is unchanged", path, sig, sigabbrev_np(sig));
	} else {
		if (limit)
			snprintf(hint, sizeof(hint), ", or by memory running out under the address-space"
				 " limit of %llu MiB (ulimit -v)", limit);
		vr_error("%s: loading it crashed (signal %d), most likely inside libtracecmd on a"
			 " corrupt or truncated trace.dat%s; not loaded, the database is unchanged",
			 path, sig, hint);
	}
}

/*
 * The load's @worker ended (died, or was killed) after it committed run
 * @run_id of @path, or while it was committing it (@committing: whether
 * the COMMIT landed is seen here).  A committed run is whole (the COMMIT
 * is its last write, and a file is read to its end before it), so it is
 * kept, said on stderr, whatever the worker did after; its "run N" line
 * on stdout is missing if the worker ended between the COMMIT and that
 * line, which only @committing allows.  Returns 1 (kept), 0 (none: never
 * committed, or removed by another command since, said unless
 * @committing), -1 (not known, said: the database could not be read, or a
 * run that replaced one while @committing, as the old run has the same id
 * and path).
 */
static int keep_run(const struct load_ctx *c, const char *path, long long run_id, bool replaced,
		    const struct child *worker, bool committing)
{
	struct store *st = store_open(c->o.db, STORE_RW);
	int there = st ? store_run_from(st, run_id, path) : -1;
	char how[128];

	store_close(st);
	child_end(worker, how, sizeof(how));
	if (there == 1 && committing && replaced) {
		/* the run replaced keeps its id and path: which one is there? */
		vr_error("%s: the load's worker %s as it committed run %lld in place of the run"
			 " loaded before: whether the database holds the new run or the old one is not"
			 " known (load it again with --replace)", path, how, run_id);
		return -1;
	}
	if (there == 1)
		vr_warn("%s: stored as run %lld%s; the load's worker then %s: the run is kept, whole%s",
			path, run_id, replaced ? " in place of the run loaded before" : "", how,
			committing ? " (its 'run' line above may be missing)" : "");
	else if (!there && !committing)
		vr_error("%s: stored as run %lld; the load's worker then %s, and another command has"
			 " removed that run since", path, run_id, how);
	else if (there < 0)
		vr_error("%s: the load's worker %s as run %lld was stored: whether it is in the"
			 " database is not known (see 'vmscan-report runs')", path, how, run_id);
	return there;
}

/*
 * The @worker that said @r was killed LOAD_STOP_GRACE_MS after an interrupt
 * it did not stop for: said, with the run of the file it was storing kept
 * if its COMMIT was made (keep_run(); *@loaded counts it).  Returns the
 * files that failed (0 or 1).
 */
static int say_stopped(const struct load_ctx *c, char *const *files, int n,
		       const struct load_report *r, const struct child *worker, int *loaded)
{
	int k = r->current >= 0 ? r->current : r->last_done + 1;
	int kept = r->committing == k ? keep_run(c, files[k], r->committing_run_id,
						 r->committing_replaced, worker, true) : 0;

	*loaded += kept > 0;	/* kept, or not known (-1): said */
	vr_error("%s: loading it did not stop within %d ms of SIG%s (waiting to open or read it,"
		 " such as a FIFO no one writes to, inside libtracecmd, or in SQLite, such as a"
		 " long schema upgrade of the database): its worker was killed%s",
		 files[k < n ? k : n - 1], LOAD_STOP_GRACE_MS, sigabbrev_np(r->stopped),
		 kept ? "" : ", the run rolled back");
	return kept <= 0;
}

/* A file as load_files() found it, to tell one that changed while it was
 * read. */
struct file_seen {
	bool known;		/* a regular file that stat() read */
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
};

/* What @n files are as the load begins. */
static struct file_seen *note_files(char *const *files, int n)
{
	struct file_seen *seen = vr_calloc((size_t)n, sizeof(*seen));
	struct stat st;

	for (int i = 0; i < n; i++)
		if (!stat(files[i], &st) && S_ISREG(st.st_mode))
			seen[i] = (struct file_seen){ true, st.st_dev, st.st_ino, st.st_size,
						      st.st_mtim };
	return seen;
}

/*
 * Which of files[k..end) changed since note_files() (its size or
 * modification time, the same file still: a file replaced by another under
 * its name leaves the old one, being read, as it was): the first, or -1.
 */
static int changed_file(char *const *files, const struct file_seen *seen, const bool *skip,
			int k, int end, struct stat *now)
{
	for (int j = k; j < end; j++)
		if (seen[j].known && !skip[j] && !stat(files[j], now) && now->st_dev == seen[j].dev &&
		    now->st_ino == seen[j].ino &&
		    (now->st_size != seen[j].size || now->st_mtim.tv_sec != seen[j].mtime.tv_sec ||
		     now->st_mtim.tv_nsec != seen[j].mtime.tv_nsec))
			return j;
	return -1;
}

/*
 * A worker that died of SIGBUS while files[k..end) were open: if one of
 * them changed meanwhile, that is why (a text trace is read through a
 * mapping of the file, and reading a page past the end of a file cut short
 * raises SIGBUS; libtracecmd maps a trace.dat's pages too): said, instead
 * of a crash inside libtracecmd, and the file is marked in @skip (never
 * read again: its text now is neither what it was nor perhaps what it will
 * be).  The changed file's index, or -1.
 */
static int say_changed(const struct child *worker, char *const *files,
		       const struct file_seen *seen, bool *skip, int k, int end)
{
	struct stat now;
	int j = child_signalled(worker) == SIGBUS ? changed_file(files, seen, skip, k, end, &now)
						  : -1;

	if (j < 0)
		return -1;
	if (now.st_size != seen[j].size)
		vr_error("%s: changed while it was read (size was %lld bytes, now %lld): not loaded,"
			 " the database is unchanged", files[j], (long long)seen[j].size,
			 (long long)now.st_size);
	else
		vr_error("%s: changed while it was read (size %lld bytes, written to meanwhile): not"
			 " loaded, the database is unchanged", files[j], (long long)now.st_size);
	skip[j] = true;
	return j;
}

/* Did the worker of files[first..n) that said @r finish (or stop for an
 * interruption, which its own messages name)? */
static bool worker_done(const struct load_ctx *c, int n, int first, const struct load_report *r,
			const struct child *worker)
{
	if (child_signalled(worker))
		return ended_by_interrupt(worker);
	return *c->interrupted || r->loaded + r->failed >= n - first;
}

/*
 * Load the files in worker processes, so that a crash (libtracecmd 3.1.6
 * crashes on some corrupt files, when opening or reading them) costs only
 * the file it happened on: its run is rolled back by SQLite (the worker's
 * transaction never committed), it is reported, and a new worker goes on
 * with the next file.  When several files were being decoded at once, the
 * one that crashed is found by loading again from the file being stored,
 * one at a time.  A worker that died or finished fewer files than it was
 * given fails the files it did not finish.  This replaces a probe of every
 * file in a child process, which cost a second open of each file.
 * Returns the files that failed; *@crashed: a worker died.
 */
static int load_supervised(struct load_ctx *c, char *const *files, int n, int *loaded,
			   bool *crashed)
{
	int failed = 0, first = 0, window = load_decode_window(&c->o), j;
	struct file_seen *seen = note_files(files, n);
	bool isolate = false, *skip = vr_calloc((size_t)n, sizeof(*skip));
	struct load_report r;
	struct child worker;

	c->skip = skip;
	while (first < n && !*c->interrupted) {
		if (load_run_worker(c, load_run_here, files, n, first, isolate, &r, &worker)) {
			/* no worker: load here, each trace.dat probed first */
			c->progress_base = first;
			failed += load_run_here(c, files + first, n - first);
			*loaded += c->files_loaded;
			break;
		}
		failed += r.failed;
		*loaded += r.loaded;
		worker.enomem = r.out_of_memory;
		if (r.stopped && child_signalled(&worker) == SIGKILL) {
			*crashed = true;	/* its journal: rolled back by the next opener */
			failed += say_stopped(c, files, n, &r, &worker, loaded);
			break;
		}
		if (worker_done(c, n, first, &r, &worker)) {
			if (!child_signalled(&worker) && !child_ok(&worker) && !r.failed)
				failed++;	/* it failed, but not on a file: interrupted */
			break;
		}
		int k = r.current >= 0 ? r.current : r.last_done + 1;

		*crashed = true;
		if (k >= n) {	/* every file was done: the last one's run committed */
			if (keep_run(c, files[n - 1], r.last_run_id, r.last_replaced, &worker,
				     false) != 1) {
				*loaded -= 1;
				failed++;
			}
			break;
		}
		if (r.committing == k) {	/* it ended committing file k's run */
			int kept = keep_run(c, files[k], r.committing_run_id, r.committing_replaced,
					    &worker, true);

			if (kept) {	/* kept (or not known: said): on from the next file */
				*loaded += kept > 0;
				failed += kept < 0;
				first = k + 1;
				continue;
			}
		}
		j = say_changed(&worker, files, seen, skip, k, isolate ? k + 1 :
				k + window < n ? k + window : n);
		if (j >= 0) {	/* a file opened ahead: its worker reports it failed */
			failed += j == k;
			first = j == k ? k + 1 : k;
			continue;
		}
		if (!isolate && (c->o.jobs != 1) && k + 1 < n) {
			char how[128];

			/* which of the files in flight was it?  Said, never silent:
			 * the retry costs time, and a second end fails the file */
			vr_warn("%s: the load's worker %s while loading it or a file after it (they are"
				" decoded at once): loading again from it, one file at a time", files[k],
				child_end(&worker, how, sizeof(how)));
			isolate = true;
			first = k;
			continue;
		}
		say_worker_died(files[k], &worker);
		failed++;
		first = k + 1;
		isolate = false;
	}
	c->skip = NULL;
	free(skip);
	free(seen);
	return failed;
}

/* Make the database file @db if there is none: true if this call made it. */
static bool create_db(const char *db)
{
	int fd = open(db, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/*
 * The database @db that this call created holds nothing of its loads:
 * remove it, unless another load has stored a run in it meanwhile.  That
 * is decided under the database's write lock (BEGIN IMMEDIATE waits for a
 * load that is storing); a load that opened the file before and writes
 * after the unlink gets SQLITE_READONLY_DBMOVED from SQLite (3.8.3+)
 * and fails, instead of storing into a file no one can open.
 */
static void remove_if_unused(const char *db)
{
	struct store *st = store_open(db, STORE_RW);
	struct stat sb;

	if (!st) {	/* not even a database: only if it is still empty */
		if (!stat(db, &sb) && S_ISREG(sb.st_mode) && !sb.st_size)
			unlink(db);
		return;
	}
	if (!store_write_begin(st)) {
		if (store_runs_count(st) == 0)
			unlink(db);
		store_rollback(st);
	}
	store_close(st);
}

int load_files(const struct load_opts *o, char *const *files, int n, struct load_result *r)
{
	struct load_ctx c = { .o = *o, .progress_fd = -1, .storing = -1,
			      .interrupted = load_interrupt_flag() };
	bool created = create_db(o->db), crashed = false;
	struct vr_interrupts saved;

	memset(r, 0, sizeof(*r));
	load_interrupt_clear();
	/* what loads that were killed left: copies, convert's scratch files */
	ingest_remove_stale(0);
	load_catch_interrupts(&saved);
	r->failed = load_supervised(&c, files, n, &r->loaded, &crashed);
	vr_restore_interrupts(&saved);
	if (crashed)	/* roll back what the crashed worker left in the journal */
		store_close(store_open(o->db, STORE_RW));
	r->interrupted = *c.interrupted;
	if (r->interrupted && !r->failed)
		r->failed = 1;
	if (created && !r->loaded)
		remove_if_unused(o->db);
	return r->failed ? -1 : 0;
}
