// SPDX-License-Identifier: GPL-2.0
/*
 * child.c - run a function in a child process, wait for it with EINTR
 * handled, and say in one sentence how it ended (include/child.h).
 */
#define _GNU_SOURCE	/* sigabbrev_np */
#include "child.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* The kernel's count of processes killed by the OOM killer (/proc/vmstat
 * oom_kill, Linux 4.13+: mm/vmstat.c vmstat_text), or -1 if unknown. */
static long long oom_kills(void)
{
	FILE *f = fopen("/proc/vmstat", "re");
	long long n = -1;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "oom_kill %lld", &n) == 1)
			break;
	if (f)
		fclose(f);
	return n;
}

int child_start(struct child *c, int (*fn)(void *arg), void *arg, unsigned flags)
{
	memset(c, 0, sizeof(*c));
	c->oom_kills = oom_kills();
	if (flags & CHILD_FLUSH)
		fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		c->pid = 0;
		return -1;
	}
	if (c->pid == 0) {
		int rc = fn(arg);

		if (flags & CHILD_EXIT)
			exit(rc);
		_exit(rc);
	}
	c->running = true;
	return 0;
}

/* @c was reaped with wait status @status (-1: it could not be). */
static void reaped(struct child *c, int status)
{
	c->running = false;
	c->status = status;
	c->oom_rose = status != -1 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL &&
		      c->oom_kills >= 0 && oom_kills() > c->oom_kills;
}

int child_wait_forward(struct child *c, const volatile sig_atomic_t *sig)
{
	bool forwarded = false;
	int status;

	if (!c->running)
		return c->status == -1 ? -1 : 0;
	while (waitpid(c->pid, &status, 0) < 0) {
		if (errno != EINTR) {
			reaped(c, -1);
			return -1;
		}
		if (sig && *sig && !forwarded) {
			child_signal(c, (int)*sig);
			forwarded = true;
		}
	}
	reaped(c, status);
	return 0;
}

int child_wait(struct child *c)
{
	return child_wait_forward(c, NULL);
}

int child_poll(struct child *c)
{
	int status;
	pid_t r;

	if (!c->running)
		return c->status == -1 ? -1 : 1;
	while ((r = waitpid(c->pid, &status, WNOHANG)) < 0 && errno == EINTR)
		;
	if (r == 0)
		return 0;
	reaped(c, r < 0 ? -1 : status);
	return r < 0 ? -1 : 1;
}

int child_stop(struct child *c)
{
	int status;
	pid_t r;

	if (!c->running)
		return 0;
	kill(c->pid, SIGSTOP);
	while ((r = waitpid(c->pid, &status, WUNTRACED)) < 0 && errno == EINTR)
		;
	if (r == c->pid && WIFSTOPPED(status))
		return 1;
	if (r == c->pid)
		reaped(c, status);	/* it ended by itself */
	return 0;
}

int child_signal(struct child *c, int sig)
{
	if (!c->running)
		return 0;
	c->sent = sig;
	return kill(c->pid, sig);
}

void child_kill(struct child *c, int sig)
{
	if (!c->running)
		return;
	child_signal(c, sig);
	child_wait(c);
}

bool child_ok(const struct child *c)
{
	return !c->running && c->status != -1 && WIFEXITED(c->status) && !WEXITSTATUS(c->status);
}

int child_signalled(const struct child *c)
{
	return !c->running && c->status != -1 && WIFSIGNALED(c->status) ? WTERMSIG(c->status) : 0;
}

/* Signals a process sends (kill(1), a parent, a timer, a closed pipe)
 * rather than a fault of the child's own. */
static bool sent_by_a_process(int sig)
{
	return sig == SIGKILL || sig == SIGUSR1 || sig == SIGUSR2 || sig == SIGPIPE ||
	       sig == SIGALRM || sig == SIGQUIT;
}

enum child_how child_how(const struct child *c)
{
	int sig = child_signalled(c);

	if (c->running || !c->pid)
		return CHILD_RUNNING;
	if (c->status == -1)
		return CHILD_LOST;
	if (!sig)
		return CHILD_EXITED;
	if (c->sent && sig == c->sent)
		return CHILD_STOPPED_BY_US;
	if (c->enomem)
		return CHILD_ENOMEM;
	if (c->oom_rose)
		return CHILD_OOM_KILLED;
	return sent_by_a_process(sig) ? CHILD_KILLED : CHILD_CRASHED;
}

const char *child_end(const struct child *c, char *buf, size_t len)
{
	int sig = child_signalled(c);

	switch (child_how(c)) {
	case CHILD_RUNNING:
		snprintf(buf, len, "is still running");
		break;
	case CHILD_LOST:
		snprintf(buf, len, "could not be waited for");
		break;
	case CHILD_EXITED:
		snprintf(buf, len, "ended (exit status %d)", WEXITSTATUS(c->status));
		break;
	case CHILD_STOPPED_BY_US:
		snprintf(buf, len, "was stopped by us (signal %d, SIG%s)", sig, sigabbrev_np(sig));
		break;
	case CHILD_ENOMEM:
		snprintf(buf, len, "crashed (signal %d) right after an allocation failed (ENOMEM)",
			 sig);
		break;
	case CHILD_OOM_KILLED:
		snprintf(buf, len, "was killed by the kernel's OOM killer (signal %d)", sig);
		break;
	case CHILD_KILLED:
		snprintf(buf, len, "was killed by signal %d (SIG%s)", sig, sigabbrev_np(sig));
		break;
	case CHILD_CRASHED:
		snprintf(buf, len, "crashed (signal %d)", sig);
		break;
	}
	return buf;
}
