// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the store: schema (checked against column lists written out
 * by hand here), schema version, error paths, one transaction per run.
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

#include "store.h"
#include "store-priv.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	strcpy(tmpdir, "/tmp/vr-unit-store.XXXXXX");
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

/* "col col col" of a table, in order. */
static void columns(sqlite3 *db, const char *table, char *out, size_t len)
{
	char *sql = sqlite3_mprintf("SELECT group_concat(name, ' ') FROM pragma_table_info(%Q)",
				    table);
	sqlite3_stmt *st;

	out[0] = '\0';
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(out, len, "%s", (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	sqlite3_free(sql);
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

static void test_schema_columns(void **state)
{
	struct store *s = store_open(db_path("schema.db"), STORE_RW);
	char cols[1024];

	(void)state;
	assert_non_null(s);
	columns(store_db(s), "mm_vmscan_kswapd_wake", cols, sizeof(cols));
	assert_string_equal(cols, "run_id ts_ns cpu pid nid zid order extra");
	columns(store_db(s), "mm_vmscan_lru_isolate", cols, sizeof(cols));
	assert_string_equal(cols, "run_id ts_ns cpu pid classzone_idx highest_zoneidx order "
			    "nr_requested nr_scanned nr_skipped nr_taken isolate_mode lru file extra");
	columns(store_db(s), "mm_shrink_slab_end", cols, sizeof(cols));
	assert_string_equal(cols, "run_id ts_ns cpu pid shr nid shrink shrink_sym unused_scan "
			    "new_scan retval total_scan memcg_id extra slab_begin_ns "
			    "slab_nr_objects_to_shrink slab_complete");
	columns(store_db(s), "sched_wakeup", cols, sizeof(cols));
	assert_string_equal(cols, "run_id ts_ns cpu pid comm wakee_pid prio success target_cpu extra");
	columns(store_db(s), "other_event", cols, sizeof(cols));
	assert_string_equal(cols, "run_id ts_ns cpu pid system name fields");
	assert_int_equal(scalar(store_db(s), "PRAGMA user_version"), VR_SCHEMA_VERSION);
	store_close(s);
}

static void test_open_errors(void **state)
{
	char path[160];
	FILE *f;

	(void)state;
	/* a directory that does not exist */
	snprintf(path, sizeof(path), "%s/no/such/dir/x.db", tmpdir);
	assert_null(store_open(path, STORE_RW));
	/* read-only open of a missing database */
	assert_null(store_open(db_path("missing.db"), STORE_RDONLY));
	/* a text file is not a database */
	snprintf(path, sizeof(path), "%s", db_path("text.db"));
	f = fopen(path, "w");
	fputs("this is not a database, just some words that are long enough to matter\n", f);
	fclose(f);
	assert_null(store_open(path, STORE_RW));
	/* a database of something else */
	sqlite3 *db;
	snprintf(path, sizeof(path), "%s", db_path("other.db"));
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	sqlite3_exec(db, "CREATE TABLE t(x)", NULL, NULL, NULL);
	sqlite3_close(db);
	assert_null(store_open(path, STORE_RW));
	/* a newer schema version */
	snprintf(path, sizeof(path), "%s", db_path("newer.db"));
	struct store *s = store_open(path, STORE_RW);
	assert_non_null(s);
	store_exec(s, "PRAGMA user_version=99", "test");
	store_close(s);
	assert_null(store_open(path, STORE_RW));
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

static void test_run_transaction(void **state)
{
	struct store *s = store_open(db_path("run.db"), STORE_RW);
	struct ingest_meta m = test_meta("aa");
	struct store_run run = { .kernel = "k1", .source_format = "trace.dat", .meta = &m };
	struct ingest_event ev = { 0 };
	int64_t id, found;
	int iter;

	(void)state;
	ev.spec = spec_find("vmscan", "mm_vmscan_kswapd_wake");
	ev.ts_ns = 1000;
	ev.pid = 42;
	ev.present = 0x5;	/* nid and order, no zid */
	ev.val[0] = 1;
	ev.val[2] = 3;
	ev.system = "vmscan";
	ev.name = "mm_vmscan_kswapd_wake";

	/* aborted run leaves nothing */
	assert_int_equal(store_run_begin(s, &run, 0, &id, &iter), 0);
	assert_int_equal(iter, 1);
	assert_int_equal(store_event(s, &ev), 0);
	store_run_abort(s);
	assert_int_equal(scalar(store_db(s), "SELECT count(*) FROM run"), 0);
	assert_int_equal(scalar(store_db(s), "SELECT count(*) FROM mm_vmscan_kswapd_wake"), 0);

	/* committed run: one row, zid NULL, counts and timestamps */
	assert_int_equal(store_run_begin(s, &run, 0, &id, &iter), 0);
	assert_int_equal(store_event(s, &ev), 0);
	ev.ts_ns = 5000;
	assert_int_equal(store_event(s, &ev), 0);
	assert_int_equal(store_lost(s, 1, 3000, 17), 0);
	assert_int_equal(store_run_commit(s), 0);
	sqlite3 *db = store_db(s);
	assert_int_equal(scalar(db, "SELECT count(*) FROM mm_vmscan_kswapd_wake WHERE zid IS NULL"
				" AND nid = 1 AND \"order\" = 3 AND pid = 42"), 2);
	assert_int_equal(scalar(db, "SELECT event_count FROM run"), 2);
	assert_int_equal(scalar(db, "SELECT last_ts_ns - first_ts_ns FROM run"), 4000);
	assert_int_equal(scalar(db, "SELECT lost_events FROM run"), 17);
	assert_int_equal(scalar(db, "SELECT count FROM run_event_count"
				" WHERE name = 'mm_vmscan_kswapd_wake'"), 2);

	/* same content hash is found; next iteration of the kernel is 2 */
	assert_int_equal(store_find_run_by_hash(s, "aa", &found), 0);
	assert_int_equal(found, id);
	struct ingest_meta m2 = test_meta("bb");
	struct store_run run2 = { .kernel = "k1", .source_format = "trace.dat", .meta = &m2 };
	int64_t id2;
	assert_int_equal(store_run_begin(s, &run2, 0, &id2, &iter), 0);
	assert_int_equal(iter, 2);
	store_run_abort(s);

	/* replacing deletes the old run's rows in the same transaction, but
	 * the run keeps its id, label, iteration and imported latencies */
	store_exec(s, "INSERT INTO app_latency (run_id, operation, sample, value)"
		   " VALUES (1, 'p95-Write', 0, 12.5)", "test");
	store_exec(s, "UPDATE run SET kernel = 'labelled', iteration = 7", "test");
	struct store_run again = { .kernel = "uname-release", .source_format = "trace.dat",
				   .meta = &m };
	assert_int_equal(store_run_begin(s, &again, id, &id2, &iter), 0);
	assert_int_equal(id2, id);
	assert_int_equal(iter, 7);
	assert_string_equal(store_run_kernel(s), "labelled");
	assert_int_equal(store_run_commit(s), 0);
	assert_int_equal(scalar(db, "SELECT count(*) FROM run WHERE kernel = 'labelled'"
				" AND iteration = 7"), 1);
	assert_int_equal(scalar(db, "SELECT count(*) FROM mm_vmscan_kswapd_wake"), 0);
	assert_int_equal(scalar(db, "SELECT count(*) FROM lost_events"), 0);
	assert_int_equal(scalar(db, "SELECT count(*) FROM app_latency WHERE run_id = 1"), 1);
	/* ...unless the command line names a label */
	again.kernel_given = true;
	assert_int_equal(store_run_begin(s, &again, id, &id2, &iter), 0);
	assert_string_equal(store_run_kernel(s), "uname-release");
	store_run_abort(s);
	store_close(s);
}

/* A sched_switch of run @s's open run, @prev ==> @next (the comms). */
static void store_switch(struct store *s, bool batch, const char *prev, const char *next)
{
	struct ingest_event ev = { 0 };
	int spec = spec_find("sched", "sched_switch");

	ev.spec = spec;
	ev.ts_ns = 1000;
	ev.pid = 7;
	ev.system = "sched";
	ev.name = "sched_switch";
	for (int f = 0; f < spec_nfields(spec); f++) {
		const char *c = spec_column(spec, f);

		if (!strcmp(c, "prev_comm") || !strcmp(c, "next_comm")) {
			ev.present |= 1u << f;
			ev.str[f] = c[0] == 'p' ? prev : next;
		}
	}
	assert_int_equal(batch ? store_events(s, &ev, 1) : store_event(s, &ev), 0);
}

/*
 * Comms are stored once, in comm, and named by id (schema version 7): a
 * run rolled back takes the comms it added with it, so a later run of the
 * same store adds them again instead of naming ids that are gone (its
 * sched_switch view would read NULL comms).  Both insert paths.
 */
static void test_comm_rollback(void **state)
{
	for (int batch = 0; batch < 2; batch++) {
		struct store *s = store_open(db_path("comm.db"), STORE_RW);
		struct ingest_meta m[3] = { test_meta("c1"), test_meta("c2"), test_meta("c3") };
		struct store_run run[3];
		int64_t id;
		int iter;

		(void)state;
		assert_non_null(s);
		for (int i = 0; i < 3; i++)
			run[i] = (struct store_run){ .kernel = "k1", .source_format = "trace.dat",
						     .meta = &m[i] };
		assert_int_equal(store_run_begin(s, &run[0], 0, &id, &iter), 0);
		store_switch(s, batch, "kept", "kept");
		assert_int_equal(store_run_commit(s), 0);
		assert_int_equal(store_run_begin(s, &run[1], 0, &id, &iter), 0);
		store_switch(s, batch, "gone", "kept");
		store_run_abort(s);
		assert_int_equal(scalar(store_db(s), "SELECT count(*) FROM comm"), 1);
		assert_int_equal(store_run_begin(s, &run[2], 0, &id, &iter), 0);
		store_switch(s, batch, "gone", "gone");
		assert_int_equal(store_run_commit(s), 0);
		assert_int_equal(scalar(store_db(s), "SELECT count(*) FROM sched_switch WHERE"
					" prev_comm = 'gone' AND next_comm = 'gone'"), 1);
		assert_int_equal(scalar(store_db(s), "SELECT count(*) FROM sched_switch WHERE"
					" prev_comm = 'kept' AND next_comm = 'kept'"), 1);
		assert_int_equal(scalar(store_db(s), "SELECT count(*) FROM comm"), 2);
		store_close(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_schema_columns),
		cmocka_unit_test(test_open_errors),
		cmocka_unit_test(test_run_transaction),
		cmocka_unit_test(test_comm_rollback),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
