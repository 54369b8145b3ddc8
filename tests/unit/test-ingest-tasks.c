// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the comm spans of each pid (src/ingest/ingest-tasks.c): a comm
 * that changes opens a span, the same comm extends it, comms are interned
 * (the pointer stays valid and equal), spans come out in the order they
 * opened, and a saved-cmdline span that an event contradicts is counted.
 * Expected values are worked out by hand from the calls.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ingest-priv.h"

struct spans {
	char line[8][48];
	int n;
};

static int cap_span(void *arg, int pid, const char *comm, int64_t first_ns, int64_t last_ns)
{
	struct spans *s = arg;

	if (s->n == 8)
		return -1;
	snprintf(s->line[s->n++], sizeof(s->line[0]), "%d %s %lld-%lld", pid, comm,
		 (long long)first_ns, (long long)last_ns);
	return 0;
}

static void test_spans(void **state)
{
	struct ingest_tasks *t = ingest_tasks_new();
	struct spans s = { .n = 0 };
	struct ingest_sink sink = { .task = cap_span, .arg = &s };
	const char *sh, *again;

	(void)state;
	assert_null(ingest_tasks_current(t, 500, 5));
	sh = ingest_tasks_note(t, 500, "shXX", 2, 10);	/* only "sh" */
	assert_string_equal(sh, "sh");
	assert_ptr_equal(ingest_tasks_current(t, 500, 15), sh);	/* extends to 15 */
	ingest_tasks_note(t, 600, "cc1", 3, 12);
	ingest_tasks_note(t, 500, "a.out", 5, 20);
	ingest_tasks_note(t, 500, "a.out", 5, 30);
	again = ingest_tasks_note(t, 500, "sh", 2, 40);	/* a third span, same string */
	assert_ptr_equal(again, sh);
	assert_int_equal(ingest_tasks_saved_later(t), 0);
	assert_int_equal(ingest_tasks_emit(t, &sink), 0);
	assert_int_equal(s.n, 4);
	assert_string_equal(s.line[0], "500 sh 10-15");
	assert_string_equal(s.line[1], "600 cc1 12-12");
	assert_string_equal(s.line[2], "500 a.out 20-30");
	assert_string_equal(s.line[3], "500 sh 40-40");
	ingest_tasks_free(t);
}

static void test_saved(void **state)
{
	struct ingest_tasks *t = ingest_tasks_new();

	(void)state;
	ingest_tasks_note_saved(t, 7, "sleep", 1);	/* saved cmdline, then events agree */
	ingest_tasks_note(t, 7, "sleep", 5, 2);
	ingest_tasks_note(t, 7, "sh", 2, 3);		/* not counted: an event said sleep */
	ingest_tasks_note_saved(t, 8, "sleep", 1);
	ingest_tasks_note(t, 8, "sh", 2, 4);		/* counted */
	ingest_tasks_note_saved(t, 9, "x", 1);		/* never contradicted */
	assert_int_equal(ingest_tasks_saved_later(t), 1);
	ingest_tasks_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spans),
		cmocka_unit_test(test_saved),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
