// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the child helper (src/child.c): a function run in a child
 * process, waited for, and the one sentence for each way it ends, worked
 * out by hand from what the child does: an exit status, a crash (SIGSEGV),
 * a signal a process sends (SIGKILL it sends itself), a kill we sent, a
 * crash after an allocation failed (the caller's word), and a poll of a
 * child that has not ended.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "child.h"

static int exit_with(void *arg)
{
	return *(int *)arg;
}

static int crash(void *arg)
{
	(void)arg;
	signal(SIGSEGV, SIG_DFL);	/* under a sanitizer too */
	raise(SIGSEGV);
	return 0;
}

static int kill_self(void *arg)
{
	(void)arg;
	raise(SIGKILL);
	return 0;
}

/* Reads its end of a pipe, which the parent never writes: runs until killed. */
static int wait_forever(void *arg)
{
	char c;

	return read(*(int *)arg, &c, 1) == 1 ? 0 : 3;
}

static void test_exit_status(void **state)
{
	struct child c;
	char buf[128];
	int code = 3;

	(void)state;
	assert_int_equal(child_start(&c, exit_with, &code, CHILD_FLUSH), 0);
	assert_true(c.pid > 0);
	assert_int_equal(child_wait(&c), 0);
	assert_false(c.running);
	assert_false(child_ok(&c));
	assert_int_equal(child_signalled(&c), 0);
	assert_int_equal(child_how(&c), CHILD_EXITED);
	assert_string_equal(child_end(&c, buf, sizeof(buf)), "ended (exit status 3)");
	code = 0;
	assert_int_equal(child_start(&c, exit_with, &code, CHILD_EXIT), 0);
	assert_int_equal(child_wait(&c), 0);
	assert_true(child_ok(&c));
	assert_int_equal(child_wait(&c), 0);	/* reaped already: at once */
}

static void test_signals(void **state)
{
	struct child c;
	char buf[128];

	(void)state;
	assert_int_equal(child_start(&c, crash, NULL, 0), 0);
	assert_int_equal(child_wait(&c), 0);
	assert_int_equal(child_signalled(&c), SIGSEGV);
	assert_int_equal(child_how(&c), CHILD_CRASHED);
	assert_string_equal(child_end(&c, buf, sizeof(buf)), "crashed (signal 11)");
	c.enomem = true;	/* the child said an allocation failed */
	assert_string_equal(child_end(&c, buf, sizeof(buf)),
			    "crashed (signal 11) right after an allocation failed (ENOMEM)");

	assert_int_equal(child_start(&c, kill_self, NULL, 0), 0);
	assert_int_equal(child_wait(&c), 0);
	assert_int_equal(child_signalled(&c), SIGKILL);
	if (!c.oom_rose)	/* the OOM killer may have killed another process meanwhile */
		assert_string_equal(child_end(&c, buf, sizeof(buf)),
				    "was killed by signal 9 (SIGKILL)");
}

static void test_kill_we_sent(void **state)
{
	struct child c;
	char buf[128];
	int fds[2];

	(void)state;
	assert_int_equal(pipe(fds), 0);
	assert_int_equal(child_start(&c, wait_forever, &fds[0], 0), 0);
	assert_int_equal(child_poll(&c), 0);	/* blocked in read() until killed */
	assert_true(c.running);
	child_kill(&c, SIGTERM);
	assert_false(c.running);
	assert_int_equal(c.sent, SIGTERM);
	assert_int_equal(child_how(&c), CHILD_STOPPED_BY_US);
	assert_string_equal(child_end(&c, buf, sizeof(buf)),
			    "was stopped by us (signal 15, SIGTERM)");
	assert_int_equal(child_poll(&c), 1);
	close(fds[0]);
	close(fds[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_exit_status),
		cmocka_unit_test(test_signals),
		cmocka_unit_test(test_kill_we_sent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
