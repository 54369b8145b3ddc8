// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the read layer (store-query.h): binds, column readers and
 * NULLs, the row helpers, and errors that name the database and the
 * statement's purpose.  The rows are inserted here and the expected values
 * written out by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <math.h>
#include <cmocka.h>

#include "store.h"
#include "store-query.h"

static char tmpdir[64], path[128];

/* A database with table t: (1, 1.5, 'one'), (2, 2.5, 'two'), (3, NULL, NULL). */
static int setup(void **state)
{
	struct store *s;

	strcpy(tmpdir, "/tmp/vr-unit-query.XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	snprintf(path, sizeof(path), "%s/q.db", tmpdir);
	s = store_open(path, STORE_RW);
	if (!s || store_exec(s, "CREATE TABLE t (a INTEGER, b REAL, c TEXT);"
			     " INSERT INTO t VALUES (1, 1.5, 'one'), (2, 2.5, 'two'),"
			     " (3, NULL, NULL)", "test rows"))
		return -1;
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	store_close(*state);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd);
}

static void test_rows_and_nulls(void **state)
{
	struct store_stmt *q = store_stmt_new(*state, "SELECT a, b, c FROM t WHERE a >= ?1"
					      " ORDER BY a", "rows");

	assert_non_null(q);
	store_bind_int(q, 1, 2);
	assert_int_equal(store_step(q), 1);
	assert_int_equal(store_col_int64(q, 0), 2);
	assert_true(store_col_double(q, 1) == 2.5);
	assert_string_equal(store_col_text(q, 2), "two");
	assert_false(store_col_is_null(q, 1));
	assert_int_equal(store_step(q), 1);
	assert_int_equal(store_col_int(q, 0), 3);
	assert_true(store_col_is_null(q, 1));
	assert_null(store_col_text(q, 2));
	assert_true(store_col_double(q, 1) == 0.0);
	assert_int_equal(store_step(q), 0);
	/* reset keeps the binding: the same two rows again */
	store_stmt_reset(q);
	assert_int_equal(store_step(q), 1);
	assert_int_equal(store_col_int64(q, 0), 2);
	store_stmt_reset(q);
	store_bind_text(q, 1, "x");	/* text sorts after every integer: no row */
	assert_int_equal(store_step(q), 0);
	store_stmt_free(q);
}

static void test_row_helpers(void **state)
{
	struct store_stmt *q = store_stmt_new(*state, "SELECT a, b FROM t WHERE a = ?1", "one row");
	int64_t v[3] = { 7, 7, 7 };
	double d[2];

	store_bind_int(q, 1, 2);
	assert_int_equal(store_stmt_row_int64(q, v, 3), 1);
	assert_int_equal(v[0], 2);
	assert_int_equal(v[1], 2);	/* 2.5 read as an integer */
	assert_int_equal(v[2], 0);	/* no third column */
	store_stmt_reset(q);
	store_bind_int(q, 1, 3);
	assert_int_equal(store_stmt_row_double(q, d, 2), 1);
	assert_true(d[0] == 3.0);
	assert_true(isnan(d[1]));
	store_stmt_reset(q);
	store_bind_int(q, 1, 9);
	assert_int_equal(store_stmt_row_int64(q, v, 2), 0);
	assert_int_equal(v[0], 0);
	assert_int_equal(v[1], 0);
	store_stmt_free(q);
}

static void test_columns(void **state)
{
	struct store_stmt *q = store_stmt_new(*state, "SELECT b FROM t ORDER BY a", "doubles");
	double *v;
	char **t;
	size_t n;

	assert_int_equal(store_stmt_doubles(q, &v, &n), 0);
	assert_int_equal(n, 2);	/* the NULL is left out */
	assert_true(v[0] == 1.5 && v[1] == 2.5);
	free(v);
	store_stmt_free(q);
	q = store_stmt_newf(*state, "texts", "SELECT %s FROM t ORDER BY a", "c");
	assert_int_equal(store_stmt_texts(q, &t, &n), 0);
	assert_int_equal(n, 3);
	assert_string_equal(t[0], "one");
	assert_string_equal(t[1], "two");
	assert_string_equal(t[2], "");
	for (size_t i = 0; i < n; i++)
		free(t[i]);
	free(t);
	store_stmt_free(q);
}

static int stop_at_two(struct store_stmt *q, void *arg)
{
	(*(int *)arg)++;
	return store_col_int(q, 0) == 2 ? 5 : 0;
}

static void test_each(void **state)
{
	struct store_stmt *q = store_stmt_new(*state, "SELECT a FROM t ORDER BY a", "each");
	int calls = 0;

	assert_int_equal(store_stmt_each(q, stop_at_two, &calls), 5);
	assert_int_equal(calls, 2);
	store_stmt_reset(q);
	calls = 0;
	assert_int_equal(store_stmt_each(q, stop_at_two, &calls), 5);
	store_stmt_free(q);
	q = store_stmt_new(*state, "SELECT a FROM t WHERE a > 2", "each");
	calls = 0;
	assert_int_equal(store_stmt_each(q, stop_at_two, &calls), 0);
	assert_int_equal(calls, 1);
	store_stmt_free(q);
}

/* What @fn printed to stderr, into @buf. */
static void stderr_of(void (*fn)(void *), void *arg, char *buf, size_t len)
{
	char name[160];
	int saved = dup(2);
	FILE *f;

	snprintf(name, sizeof(name), "%s/stderr", tmpdir);
	fflush(stderr);
	assert_non_null(freopen(name, "w", stderr));
	fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	f = fopen(name, "r");
	assert_non_null(f);
	buf[fread(buf, 1, len - 1, f)] = '\0';
	fclose(f);
}

static void bad_sql(void *s)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT nosuch FROM t", "the test's rows");

	assert_null(q);
	store_bind_int(q, 1, 1);	/* a NULL statement is accepted everywhere */
	assert_int_equal(store_step(q), -1);
	assert_int_equal(store_col_int(q, 0), 0);
	store_stmt_free(q);
}

static void bad_bind(void *s)
{
	struct store_stmt *q = store_stmt_new(s, "SELECT a FROM t WHERE a = ?1", "a bind");

	store_bind_int(q, 2, 1);
	assert_int_equal(store_step(q), -1);
	store_stmt_free(q);
}

static void test_errors(void **state)
{
	char msg[512], want[512];

	stderr_of(bad_sql, *state, msg, sizeof(msg));
	snprintf(want, sizeof(want), "vmscan-report: %s: the test's rows: no such column: nosuch\n",
		 path);
	assert_string_equal(msg, want);
	stderr_of(bad_bind, *state, msg, sizeof(msg));
	snprintf(want, sizeof(want), "vmscan-report: %s: a bind: cannot bind parameter 2:"
		 " column index out of range\n", path);
	assert_string_equal(msg, want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_and_nulls),
		cmocka_unit_test(test_row_helpers),
		cmocka_unit_test(test_columns),
		cmocka_unit_test(test_each),
		cmocka_unit_test(test_errors),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
