// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the derived tables' column tables (store-derived.c):
 * README.md's "Derived columns" table lists exactly their columns, the
 * schema made from them has those columns, and a row given to the sink
 * comes back from the database field by field (directly and deferred).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "model.h"
#include "store.h"
#include "store-priv.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/vr-unit-derived.XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd);
}

static char *db_path(const char *name)
{
	static char path[128];

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	unlink(path);
	return path;
}

#define README_HEADER "| table | column | type | NULL | meaning |"

/* README.md of the source tree ($TOP from tests/run-tests.sh, else "."). */
static FILE *open_readme(void)
{
	const char *top = getenv("TOP");
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/README.md", top ? top : ".");
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s", path);
	return f;
}

/* "| `table` | `column` | TYPE | yes/no |" of column @c of table @t. */
static void expected_row(char *out, size_t len, const struct store_derived_table *t,
			 const struct store_column *c)
{
	snprintf(out, len, "| `%s` | `%s` | %s | %s |", t->name, c->name,
		 store_sql_type(c->ctype), c->nullable ? "yes" : "no");
}

/*
 * README's table of derived columns, row by row, against the column
 * tables: same tables, columns, order, SQL types and NULL-ability (the
 * meaning column is prose and not compared).
 */
static void test_readme_columns(void **state)
{
	FILE *f = open_readme();
	char line[4096], want[512];
	int t = 0, c = 0, lineno = 0, in_table = 0;

	(void)state;
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!in_table) {
			in_table = !strncmp(line, README_HEADER, strlen(README_HEADER));
			continue;
		}
		if (!strncmp(line, "| ---", 5))
			continue;
		if (line[0] != '|')
			break;
		if (t == store_derived_tables_count)
			fail_msg("README.md:%d: a column the column tables do not have: %s", lineno,
				 line);
		expected_row(want, sizeof(want), &store_derived_tables[t],
			     &store_derived_tables[t].cols[c]);
		if (strncmp(line, want, strlen(want)))
			fail_msg("README.md:%d: expected\n  %s ...\ngot\n  %s", lineno, want, line);
		if (++c == store_derived_tables[t].ncols) {
			c = 0;
			t++;
		}
	}
	fclose(f);
	if (!in_table)
		fail_msg("README.md has no line \"%s\"", README_HEADER);
	if (t != store_derived_tables_count) {
		expected_row(want, sizeof(want), &store_derived_tables[t],
			     &store_derived_tables[t].cols[c]);
		fail_msg("README.md:%d: the table ends before %s", lineno, want);
	}
}

/* The schema's columns of every derived table, from PRAGMA table_info. */
static void test_schema_columns(void **state)
{
	struct store *s = store_open(db_path("schema.db"), STORE_RW);
	sqlite3 *db;

	(void)state;
	assert_non_null(s);
	db = store_db(s);
	for (int t = 0; t < store_derived_tables_count; t++) {
		const struct store_derived_table *tab = &store_derived_tables[t];
		sqlite3_stmt *st;
		int n = 0;

		assert_int_equal(sqlite3_prepare_v2(db, "SELECT name, type, \"notnull\", dflt_value"
						    " FROM pragma_table_info(?)", -1, &st, NULL),
				 SQLITE_OK);
		sqlite3_bind_text(st, 1, tab->name, -1, SQLITE_STATIC);
		while (sqlite3_step(st) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(st, 0);
			const char *dflt = (const char *)sqlite3_column_text(st, 3);

			if (n == 0) {
				assert_string_equal(name, "run_id");
				assert_int_equal(sqlite3_column_int(st, 2), 1);
			} else {
				const struct store_column *c = &tab->cols[n - 1];

				assert_true(n <= tab->ncols);
				assert_string_equal(name, c->name);
				assert_string_equal(sqlite3_column_text(st, 1),
						    store_sql_type(c->ctype));
				assert_int_equal(sqlite3_column_int(st, 2), !c->nullable);
				if (c->dflt)
					assert_string_equal(dflt, c->dflt);
				else
					assert_null(dflt);
			}
			n++;
		}
		sqlite3_finalize(st);
		assert_int_equal(n, tab->ncols + 1);
	}
	store_close(s);
}

static int64_t scalar(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;

	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void text(sqlite3 *db, const char *sql, char *out, size_t len)
{
	sqlite3_stmt *st;

	out[0] = '\0';
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

/* One row of each kind through the sink; @deferred: queued, then flushed. */
static void put_rows(struct store_derived *d, bool deferred)
{
	struct model_sink sink;
	char kind[16] = "direct";	/* the sink must copy it when it queues */
	struct model_stall stall = {
		.kind = kind, .pid = 7, .nid = MODEL_NULL, .begin_ns = 100, .end_ns = 350,
		.duration_ns = 250, .order = 2, .gfp_flags = 0xcc0, .nr_reclaimed = 32,
		.kswapd_state = "napping", .complete = true, .incomplete_reason = NULL,
	};
	struct model_kswapd_cycle cyc = {
		.nid = 1, .pid = 55, .wake_ns = 10, .order = 3, .highest_zoneidx = 2,
		.last_activity_ns = 20, .nap_ns = 21, .sleep_ns = MODEL_NULL, .next_wake_ns = 90,
		.decision = "nap_woken_early", .decision_exact = true, .premature = false,
		.nr_scanned = 640, .nr_reclaimed = 600, .complete = true,
	};
	struct model_write wr = {
		.ts_ns = 5, .pid = 9, .by_kswapd = false, .pfn = MODEL_NULL, .file = true,
		.sync = true,
	};

	if (deferred)
		store_derived_defer(d);
	store_derived_sink(d, &sink);
	assert_int_equal(sink.stall(sink.arg, &stall), 0);
	strcpy(kind, "overwritten");
	assert_int_equal(sink.kswapd_cycle(sink.arg, &cyc), 0);
	assert_int_equal(sink.write(sink.arg, &wr), 0);
	assert_int_equal(sink.quality(sink.arg, "stalls_direct", 1, NULL), 0);
	assert_int_equal(sink.quality(sink.arg, "stalls_direct", 4, "again"), 0);
	assert_int_equal(store_derived_flush(d), 0);
}

/* The rows come back as given (NULL for MODEL_NULL and NULL strings). */
static void check_rows(sqlite3 *db, int64_t run_id)
{
	char sql[512], got[256];

	snprintf(sql, sizeof(sql), "SELECT count(*) FROM reclaim_stall WHERE run_id = %lld"
		 " AND kind = 'direct' AND pid = 7 AND nid IS NULL AND begin_ns = 100"
		 " AND end_ns = 350 AND duration_ns = 250 AND \"order\" = 2 AND gfp_flags = 3264"
		 " AND nr_reclaimed = 32 AND kswapd_state = 'napping' AND complete = 1"
		 " AND incomplete_reason IS NULL", (long long)run_id);
	assert_int_equal(scalar(db, sql), 1);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM kswapd_cycle WHERE run_id = %lld"
		 " AND nid = 1 AND pid = 55 AND wake_ns = 10 AND \"order\" = 3"
		 " AND highest_zoneidx = 2 AND last_activity_ns = 20 AND nap_ns = 21"
		 " AND sleep_ns IS NULL AND next_wake_ns = 90 AND decision = 'nap_woken_early'"
		 " AND decision_exact = 1 AND premature = 0 AND nr_scanned = 640"
		 " AND nr_reclaimed = 600 AND complete = 1", (long long)run_id);
	assert_int_equal(scalar(db, sql), 1);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM reclaim_write WHERE run_id = %lld"
		 " AND ts_ns = 5 AND pid = 9 AND by_kswapd = 0 AND pfn IS NULL AND file = 1"
		 " AND sync = 1", (long long)run_id);
	assert_int_equal(scalar(db, sql), 1);
	/* run_quality is keyed by item: the second value replaced the first */
	snprintf(sql, sizeof(sql), "SELECT count || ' ' || detail FROM run_quality"
		 " WHERE run_id = %lld AND item = 'stalls_direct'", (long long)run_id);
	text(db, sql, got, sizeof(got));
	assert_string_equal(got, "4 again");
}

static struct ingest_meta test_meta(const char *sha)
{
	struct ingest_meta m = { 0 };

	m.path = (char *)"test.dat";
	m.content_sha256 = (char *)sha;
	m.file_version = 6;
	m.cpus = 2;
	return m;
}

static void test_rows_round_trip(void **state)
{
	struct store *s = store_open(db_path("rows.db"), STORE_RW);
	const char *sha[2] = { "aa", "bb" };

	(void)state;
	assert_non_null(s);
	for (int deferred = 0; deferred < 2; deferred++) {
		struct ingest_meta m = test_meta(sha[deferred]);
		struct store_run run = { .kernel = "k", .source_format = "trace.dat", .meta = &m };
		struct store_derived *d;
		int64_t id;
		int iter;

		assert_int_equal(store_run_begin(s, &run, 0, &id, &iter), 0);
		d = store_derived_open(s, id);
		put_rows(d, deferred);
		store_derived_close(d);
		assert_int_equal(store_run_commit(s), 0);
		check_rows(store_db(s), id);
	}
	store_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_readme_columns),
		cmocka_unit_test(test_schema_columns),
		cmocka_unit_test(test_rows_round_trip),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
