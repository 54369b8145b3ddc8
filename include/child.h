/* SPDX-License-Identifier: GPL-2.0 */
/*
 * child.h - run a function in a child process and wait for it: every fork
 * of vmscan-report but the recorder's traced command (record.c) goes
 * through here (src/child.c), and so does the one account of how a child
 * ended (child_end()).  In the manner of git's run-command.c.
 */
#ifndef VR_CHILD_H
#define VR_CHILD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A child process, started by child_start(). */
struct child {
	pid_t pid;		/* its pid; kept after it is reaped (for names
				 * made from it), 0 before it starts */
	bool running;		/* started and not yet reaped */
	int status;		/* its wait status once reaped (waitpid(2)),
				 * -1 if it could not be reaped */
	int sent;		/* the last signal child_kill() sent, 0 if none */
	long long oom_kills;	/* /proc/vmstat oom_kill when it started, -1 if
				 * unknown (Linux 4.13+) */
	bool oom_rose;		/* ended by SIGKILL while oom_kill rose */
	bool enomem;		/* set by the caller when the child said, before
				 * it died, that an allocation failed */
};

/* child_start() flags */
enum {
	/* stdio flushed first (fflush(NULL)), so that nothing buffered is
	 * written twice */
	CHILD_FLUSH = 1 << 0,
	/* the child ends by exit() (atexit handlers, stdio flushed) with
	 * @fn's value, instead of _exit() */
	CHILD_EXIT = 1 << 1,
};

/**
 * child_start - fork, and in the child run @fn(@arg) and end with its
 * value as the exit status (_exit(), or exit() with CHILD_EXIT; @fn may
 * also end the process itself, e.g. by exec).  @c: OUT.  Returns 0 in the
 * parent, or -1 with errno set when fork() failed (nothing started).  No
 * other thread may run (their locks would stay taken in the child).
 */
int child_start(struct child *c, int (*fn)(void *arg), void *arg, unsigned flags);

/**
 * child_wait - wait for @c to end, a signal arriving meanwhile (EINTR)
 * waited through; c->status is then its wait status.  0, or -1 when it
 * cannot be reaped (not ours: cannot happen), c->status -1.  A child
 * already reaped returns 0 at once.
 */
int child_wait(struct child *c);

/**
 * child_wait_forward - child_wait(), passing on to @c the signal *@sig (set
 * by this process's handler, e.g. a SIGINT sent to it alone) once, when a
 * wait is interrupted and it is non-zero (remembered in c->sent); @sig NULL
 * passes nothing on (child_wait()).
 */
int child_wait_forward(struct child *c, const volatile sig_atomic_t *sig);

/**
 * child_poll - has @c ended?  Does not wait.  1 (reaped: c->status), 0
 * (still running), or -1 when it cannot be reaped (c->status -1).
 */
int child_poll(struct child *c);

/**
 * child_stop - stop the running @c (SIGSTOP) and wait until it is stopped:
 * 1 (stopped: it can be looked at, then killed), or 0 when it ended by
 * itself first or cannot be waited for (then reaped: c->status).
 */
int child_stop(struct child *c);

/**
 * child_signal - send @sig to the running @c without waiting; remembered
 * (c->sent) for child_end().  0, or -1 (errno) as kill(2).
 */
int child_signal(struct child *c, int sig);

/**
 * child_kill - send @sig to the running @c and wait for it to end
 * (c->status); the kill is remembered (c->sent) for child_end().  A child
 * already reaped is left as it is.
 */
void child_kill(struct child *c, int sig);

/** child_ok - did @c exit with status 0? */
bool child_ok(const struct child *c);

/* How a reaped child ended, in child_end()'s order. */
enum child_how {
	CHILD_RUNNING,		/* not reaped yet (or never started) */
	CHILD_LOST,		/* could not be waited for */
	CHILD_EXITED,		/* by itself, with an exit status */
	CHILD_STOPPED_BY_US,	/* by the signal child_signal() sent */
	CHILD_ENOMEM,		/* a crash right after an allocation failed */
	CHILD_OOM_KILLED,	/* SIGKILL while /proc/vmstat oom_kill rose */
	CHILD_KILLED,		/* a signal only a process sends (SIGKILL,
				 * SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2) */
	CHILD_CRASHED,		/* another signal: SIGSEGV and the like */
};

/** child_how - how @c ended (see enum child_how). */
enum child_how child_how(const struct child *c);

/**
 * child_end - how @c ended, as a few words to follow a name ("the load's
 * worker ..."), into @buf (returned): "ended (exit status N)", "was
 * killed by the kernel's OOM killer (signal 9)" (SIGKILL while
 * /proc/vmstat oom_kill rose), "crashed (signal N) right after an
 * allocation failed (ENOMEM)" (c->enomem), "was stopped by us (signal N,
 * SIGNAME)" (child_kill()), "was killed by signal N (SIGNAME)" (a signal
 * only sent by a process: SIGKILL, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1,
 * SIGUSR2), "crashed (signal N)" (SIGSEGV and the like).
 */
const char *child_end(const struct child *c, char *buf, size_t len);

/** child_signalled - the signal that ended @c, 0 if it exited (or runs). */
int child_signalled(const struct child *c);

#endif /* VR_CHILD_H */
