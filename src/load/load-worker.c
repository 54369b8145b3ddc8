// SPDX-License-Identifier: GPL-2.0
/*
 * load-worker.c - the worker process of a load and its progress pipe.
 * A worker's progress is one line per event on a pipe to its supervisor:
 * "s I 0" before file I (of the command line) is stored, "c I 0 ID R"
 * before its run ID is committed (R 1: it replaces one), "d I F ID R"
 * after (F 1: it failed; else ID: its run, R 1: the run replaced one),
 * "x 0 N" when the database cannot be opened for its N files, "m 0 0"
 * when it crashes right after an allocation failed.
 */
#define _GNU_SOURCE	/* pipe2 */
#include "child.h"
#include "load-priv.h"
#include "vr.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * The worker's end of the progress pipe for on_fatal_signal(), -1 outside
 * a worker.  A file-scope variable because a signal handler reaches no
 * other state, and only a volatile sig_atomic_t is safe to read there
 * (C11 7.14.1.1).
 */
static volatile sig_atomic_t fatal_fd = -1;

/*
 * A crash in a worker (SIGSEGV, SIGBUS, SIGABRT, ...): if the last call
 * that failed ran out of memory (errno ENOMEM: an allocation failed, which
 * libtracecmd 3.1.6 does not always check, or vr_malloc() gave up), say so
 * on the progress pipe ("m"; write() is async-signal-safe), then die by
 * the signal (SA_RESETHAND put the default action back).
 */
static void on_fatal_signal(int sig)
{
	static const char line[] = "m 0 0\n";

	if (errno == ENOMEM && fatal_fd >= 0) {
		ssize_t w = write(fatal_fd, line, sizeof(line) - 1);

		(void)w;	/* dying anyway */
	}
	raise(sig);	/* at once, or when the handler returns (blocked) */
}

static void catch_fatal_signals(int fd)
{
	static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE };
	struct sigaction sa = { .sa_handler = on_fatal_signal, .sa_flags = SA_RESETHAND };

	fatal_fd = fd;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

void load_progress(const struct load_ctx *c, char what, int i, int failed)
{
	if (c->progress_fd >= 0)
		dprintf(c->progress_fd, "%c %d %d %lld %d\n", what, c->progress_base + i, failed,
			failed ? 0 : c->last_run_id, !failed && c->last_replaced);
}

/* Pass on to worker @pid a SIGINT/SIGTERM/SIGHUP this process alone was sent. */
static void forward_interrupt(const struct load_ctx *c, struct child *worker, bool *forwarded)
{
	if (*c->interrupted && !*forwarded) {
		child_signal(worker, (int)*c->interrupted);
		*forwarded = true;
	}
}

/* Take one progress line into @r. */
static void take_line(const char *line, struct load_report *r)
{
	long long id = 0;
	char what;
	int i, f, replaced = 0;

	if (sscanf(line, "%c %d %d %lld %d", &what, &i, &f, &id, &replaced) < 3)
		return;
	if (what == 'm') {
		r->out_of_memory = true;
	} else if (what == 'x') {
		r->failed += f;
	} else if (what == 's') {
		r->current = i;
		r->committing = -1;
	} else if (what == 'c') {
		r->committing = i;
		r->committing_run_id = id;
		r->committing_replaced = replaced;
	} else {
		r->failed += f;
		r->loaded += !f;
		r->last_done = i;
		r->current = -1;
		r->committing = -1;
		r->last_run_id = id;
		r->last_replaced = replaced;
	}
}

/*
 * Read worker @pid's progress until it closes the pipe.  SIGINT/SIGTERM/SIGHUP
 * are blocked but while waiting in ppoll() (with @waitmask), so that one
 * arriving at any moment is passed on to the worker.
 */
static void read_progress(const struct load_ctx *c, int fd, struct child *worker, int first,
			  struct load_report *r, const sigset_t *waitmask)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[4096], *line, *nl;
	bool forwarded = false;
	size_t len = 0;
	ssize_t got;
	struct timespec deadline = { 0 }, now, left;
	int ready;

	*r = (struct load_report){ .current = -1, .last_done = first - 1, .committing = -1 };
	for (;;) {
		/* after an interrupt, LOAD_STOP_GRACE_MS for the worker to stop:
		 * a worker inside libtracecmd may not look at its flag for
		 * minutes (a file of zeros read 8 bytes at a time) */
		if (*c->interrupted && !deadline.tv_sec) {
			clock_gettime(CLOCK_MONOTONIC, &deadline);
			deadline.tv_sec += LOAD_STOP_GRACE_MS / 1000;
			deadline.tv_nsec += (LOAD_STOP_GRACE_MS % 1000) * 1000000L;
		}
		if (deadline.tv_sec && !r->stopped) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			left.tv_sec = deadline.tv_sec - now.tv_sec;
			left.tv_nsec = deadline.tv_nsec - now.tv_nsec;
			if (left.tv_nsec < 0) {
				left.tv_nsec += 1000000000L;
				left.tv_sec--;
			}
			if (left.tv_sec < 0)
				left = (struct timespec){ 0 };
		}
		ready = ppoll(&pfd, 1, deadline.tv_sec && !r->stopped ? &left : NULL, waitmask);
		if (ready == 0) {	/* the grace is over: it is stopped */
			child_signal(worker, SIGKILL);
			r->stopped = (int)*c->interrupted;
			continue;
		}
		if (ready < 0) {
			if (errno != EINTR)
				break;
			forward_interrupt(c, worker, &forwarded);
			continue;
		}
		got = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (got <= 0)
			break;
		len += (size_t)got;
		buf[len] = '\0';
		for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
			*nl = '\0';
			take_line(line, r);
		}
		len -= (size_t)(line - buf);
		memmove(buf, line, len);
	}
}

/*
 * Did the worker's "run N" lines fail to reach stdout (a full disk,
 * /dev/full, a closed pipe)?  Its own stdout, which the command's check of
 * stdout (main.c) does not see: said here, and the worker fails, so that
 * the load exits 1 as every command whose output was lost does.
 */
static bool stdout_failed(void)
{
	errno = 0;
	if (!fflush(stdout) && !ferror(stdout))
		return false;
	vr_error("cannot write to standard output%s%s (the runs are loaded: 'vmscan-report runs'"
		 " lists them)", errno ? ": " : "", errno ? strerror(errno) : "");
	return true;
}

/* What a new worker is given. */
struct worker_args {
	const struct load_ctx *parent_ctx;
	load_body_fn body;
	char *const *files;
	int n, first;
	bool one_at_a_time;
	int fd, read_fd;	/* its end of the progress pipe, and ours */
	pid_t parent;
	const sigset_t *waitmask;
};

/* In the new worker: load files[first..n) with the body and end with its
 * exit status (exit(): stdio flushed). */
static int worker_main(void *arg)
{
	const struct worker_args *a = arg;
	struct load_ctx c = *a->parent_ctx;

	close(a->read_fd);
	/* killed with the command (SIGKILL): nothing commits behind the
	 * user's back; the open run is rolled back by the next opener */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != a->parent)
		_exit(VR_EXIT_FAIL);
	sigprocmask(SIG_SETMASK, a->waitmask, NULL);
	c.progress_fd = a->fd;
	c.progress_base = a->first;
	catch_fatal_signals(a->fd);
	c.supervised = true;
	if (a->one_at_a_time)
		c.o.jobs = 1;
	if (c.o.iteration)
		c.o.iteration += a->first;
	/* interrupted (a signal sent to the worker alone) before its last
	 * file was done: a failure too (after it, nothing was lost) */
	int failed = a->body(&c, a->files + a->first, a->n - a->first);

	failed = failed || (*c.interrupted && c.files_loaded < a->n - a->first);

	return stdout_failed() || failed ? VR_EXIT_FAIL : VR_EXIT_OK;
}

int load_run_worker(struct load_ctx *c, load_body_fn body, char *const *files, int n, int first,
		    bool one_at_a_time, struct load_report *r, struct child *worker)
{
	sigset_t stop, waitmask;
	int fds[2];

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &waitmask);

	struct worker_args a = { c, body, files, n, first, one_at_a_time, fds[1], fds[0],
				 getpid(), &waitmask };

	if (child_start(worker, worker_main, &a, CHILD_FLUSH | CHILD_EXIT)) {
		sigprocmask(SIG_SETMASK, &waitmask, NULL);
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	close(fds[1]);
	/* a signal sent to this process alone reaches the worker too */
	read_progress(c, fds[0], worker, first, r, &waitmask);
	close(fds[0]);
	child_wait(worker);
	/* its uncompressed copies, at once; its converts die with it
	 * (PR_SET_PDEATHSIG), leaving their scratch files and records: up to
	 * 3 s for them to be gone */
	if (child_signalled(worker))
		ingest_remove_stale(3000);
	sigprocmask(SIG_SETMASK, &waitmask, NULL);
	return 0;
}
