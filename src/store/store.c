// SPDX-License-Identifier: GPL-2.0
/*
 * store.c - SQLite schema and bulk insert of one run per transaction.
 * Every value is bound; identifiers come from the static spec table and
 * are quoted with %w.
 */
#define _GNU_SOURCE	/* sync_file_range */
#include "model.h"
#include "store-tables.h"
#include "store.h"
#include "store-priv.h"
#include "vr.h"

#include <fcntl.h>
#include <glib.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct store {
	char *path;
	sqlite3 *db;
	sqlite3_stmt **ins;		/* one INSERT per spec, prepared lazily */
	struct store_bulk *bulk;	/* INSERT ... SELECT of event groups */
	uint32_t **group;		/* per spec: indexes of a store_events() call */
	int *ngroup, *touched, ntouched;
	int group_cap;
	sqlite3_stmt *ins_other, *ins_lost, *ins_task;
	/* state of the open run */
	bool in_run;
	int (*has_event)(void *arg, const char *system, const char *event, const char *field);
	void *has_event_arg;		/* of the open run (struct store_run) */
	int (*before_commit)(void *arg, struct store *s, int64_t run_id); /* likewise */
	void *before_commit_arg;
	int64_t run_id;
	char *kernel;			/* label of the last run begun (owned) */
	uint64_t first_ts, last_ts, nevents;
	int64_t lost_total;
	int lost_unknown;
	uint64_t *spec_count;		/* per spec */
	unsigned batches;		/* store_events() calls */
	int wb_fd;			/* the database file, for writeback hints; -1 */
	bool upgrade;			/* a version 1 to 4 database, opened to write */
	struct store_slab *slab;	/* the shrinker calls (a writer's) */
	struct store_lru *lru;		/* the LRU list calls (a writer's) */
	struct model_stall_pages stall_pages[4];	/* the model's lru_shrink_stall rows */
	int nstall_pages;		/* their number, -1: the SQL's */
	unsigned wb_every;		/* batches between hints */
	GHashTable *other_count;	/* "system:name" -> count (owned keys) */
	struct store_sums_acc *sums;	/* counts of the open run (a writer's) */
	GArray *renames;		/* struct comm_rename of the open run */
	int64_t renames_after[8];	/* per comm_rows table: its largest rowid when
					 * the open run began (0: none) */
	const volatile sig_atomic_t *interrupt;	/* store_set_interrupt(), or NULL */
};

static void renames_clear(struct store *s);
static void renames_mark(struct store *s);

/* Rows of a pid given the saved cmdline before the trace named it, to be
 * renamed at the run's commit (store_task_span()). */
struct comm_rename {
	int pid;
	char *from, *to;		/* owned */
	int64_t until_ns;
};

static const char fixed_schema[] =
	"CREATE TABLE IF NOT EXISTS run ("
	" id INTEGER PRIMARY KEY,"
	" kernel TEXT NOT NULL,"
	" iteration INTEGER NOT NULL,"
	" source_path TEXT NOT NULL,"
	" source_format TEXT NOT NULL,"
	" content_sha256 TEXT NOT NULL UNIQUE,"
	" file_version INTEGER,"
	" compression TEXT,"
	" uname TEXT,"
	" kernel_release TEXT,"
	" cpus INTEGER,"
	" clock TEXT,"
	" long_size INTEGER,"
	" big_endian INTEGER,"
	" page_size INTEGER,"
	" first_ts_ns INTEGER,"
	" last_ts_ns INTEGER,"
	" event_count INTEGER NOT NULL DEFAULT 0,"
	" lost_events INTEGER NOT NULL DEFAULT 0,"
	" lost_unknown INTEGER NOT NULL DEFAULT 0,"
	" ring_overrun INTEGER," /* kernel ring-buffer overruns saved in the file */
	" loaded_at TEXT NOT NULL,"
	" UNIQUE (kernel, iteration));"
	"CREATE TABLE IF NOT EXISTS run_event_count ("
	" run_id INTEGER NOT NULL REFERENCES run(id),"
	" system TEXT NOT NULL, name TEXT NOT NULL, count INTEGER NOT NULL,"
	" PRIMARY KEY (run_id, system, name));"
	/* one row per span of events a pid emitted under one comm (a pid
	 * reused, or a task that exec'ed, has several); before the spans the
	 * table had one row per (pid, comm), PRIMARY KEY (run_id, pid, comm) */
	"CREATE TABLE IF NOT EXISTS task ("
	" run_id INTEGER NOT NULL REFERENCES run(id),"
	" pid INTEGER NOT NULL, comm TEXT NOT NULL,"
	" first_ns INTEGER, last_ns INTEGER, comm_source TEXT);"
	/* each comm of the events' text fields once (store_comm_spec()) */
	"CREATE TABLE IF NOT EXISTS comm (id INTEGER PRIMARY KEY, comm TEXT NOT NULL UNIQUE);"
	"CREATE TABLE IF NOT EXISTS lost_events ("
	" run_id INTEGER NOT NULL REFERENCES run(id),"
	" cpu INTEGER NOT NULL, ts_ns INTEGER NOT NULL,"
	" count INTEGER);" /* NULL: the kernel did not say how many */
	"CREATE TABLE IF NOT EXISTS other_event ("
	" run_id INTEGER NOT NULL REFERENCES run(id),"
	" ts_ns INTEGER NOT NULL, cpu INTEGER NOT NULL, pid INTEGER NOT NULL,"
	" system TEXT NOT NULL, name TEXT NOT NULL, fields TEXT);";

/* After the derived tables (store-derived.c), which follow the fixed ones. */
static const char app_latency_schema[] =
	"CREATE TABLE IF NOT EXISTS app_latency ("
	" run_id INTEGER NOT NULL REFERENCES run(id),"
	" operation TEXT NOT NULL," /* e.g. p95-Write */
	" sample INTEGER NOT NULL," /* 0, 1, ... in file order */
	" value REAL NOT NULL,"
	" unit TEXT," /* "us" when the report names it; NULL: as reported */
	" source_sha256 TEXT," /* the imported file; NULL before these columns */
	" higher_is_better INTEGER," /* 1: declared a throughput; NULL/0: lower is better */
	" zeros_real INTEGER);"; /* 1: all-0 values of a run are declared real */

/*
 * Columns added to a table of schema version 2 after its first release,
 * without a version change: added when the database is opened to write
 * (create_schema(), as new event tables are), and when version 1 is
 * upgraded.  A database only read meanwhile lacks them: app_op_unit() in
 * metrics.c checks before reading app_latency.unit.
 */
static const struct {
	const char *table, *column, *type;
} added_columns[] = {
	{ "app_latency", "unit", "TEXT" },
	{ "app_latency", "source_sha256", "TEXT" },
	{ "app_latency", "higher_is_better", "INTEGER" },
	{ "app_latency", "zeros_real", "INTEGER" },
	/* the comm of a row's own time: task spans, derived rows' comm */
	{ "task", "first_ns", "INTEGER" },
	{ "task", "last_ns", "INTEGER" },
	/* where the comm came from (struct ingest_task_span.source) */
	{ "task", "comm_source", "TEXT" },
	{ "reclaim_stall", "comm", "TEXT" },
	{ "kswapd_cycle", "comm", "TEXT" },
	{ "kswapd_wakeup", "comm", "TEXT" },
	{ "reclaim_throttle", "comm", "TEXT" },
	{ "slab_shrink_stored", "comm", "TEXT" },
	{ "reclaim_write", "comm", "TEXT" },
	{ "pgdat_flag", "proof", "TEXT" },
	{ "pgdat_flag", "set_earliest_ns", "INTEGER" },
	{ "pgdat_flag", "set_latest_ns", "INTEGER" },
	{ "pgdat_flag", "clear_earliest_ns", "INTEGER" },
	{ "pgdat_flag", "clear_latest_ns", "INTEGER" },
	{ "reclaim_stall", "nids", "TEXT" },
	{ "reclaim_stall", "memcg_id", "INTEGER" },
	{ "kswapd_cycle", "nap_margin_ns", "INTEGER" },
	/* a VR_FF_MODEL field (spec.c) of an event table made before it */
	{ "mm_vmscan_lru_shrink_inactive", "mglru_retry", "INTEGER" },
	{ "kswapd_cycle", "incomplete_reason", "TEXT" },
};

static int query_int(struct store *s, const char *sql, int64_t *out);

static int add_missing_columns(struct store *s)
{
	for (size_t i = 0; i < VR_ARRAY_SIZE(added_columns); i++) {
		char *sql = sqlite3_mprintf("SELECT count(*) FROM pragma_table_info('%q')"
					    " WHERE name = '%q'", added_columns[i].table,
					    added_columns[i].column);
		int64_t have;
		int r = query_int(s, sql, &have);

		sqlite3_free(sql);
		if (r)
			return -1;
		/* mm_vmscan_lru_shrink_inactive is a view from version 5 */
		if (have || store_sqlite_has(s->db, "main", added_columns[i].table, "table") == 0)
			continue;
		sql = sqlite3_mprintf("ALTER TABLE \"%w\" ADD COLUMN \"%w\" %s",
				      added_columns[i].table, added_columns[i].column,
				      added_columns[i].type);
		r = store_exec(s, sql, "cannot add a column");
		sqlite3_free(sql);
		if (r)
			return -1;
	}
	return 0;
}

int store_exec(struct store *s, const char *sql, const char *what)
{
	return store_sqlite_exec(s->db, s->path, sql, what);
}

/* The derived tables that are missing (store-schema.c), in the open
 * transaction. */
static int create_derived(struct store *s)
{
	char *sql = store_derived_schema_sql();
	int ret = store_exec(s, sql, "cannot create schema");

	free(sql);
	return ret;
}

/*
 * The view NAME of comm spec @i over NAME_ids (store_comm_spec()): the
 * columns of the table it was, in its order and its rows' order, each
 * comm's text from comm.
 */
static void comm_view_sql(struct vr_buf *b, int i)
{
	const char *name = vr_event_specs[i].name;
	struct vr_buf joins;
	int n = 0;

	vr_buf_init(&joins);
	vr_buf_addf(b, "CREATE VIEW IF NOT EXISTS \"%s\" AS SELECT e.run_id AS run_id,"
		    " e.ts_ns AS ts_ns, e.cpu AS cpu, e.pid AS pid", name);
	for (int pass = 0; pass < 2; pass++) {	/* decoded fields, extra, the model's */
		for (int f = 0; f < spec_nfields(i); f++) {
			const struct vr_field_spec *fs = &vr_event_specs[i].fields[f];
			const char *c = spec_column(i, f);

			if ((spec_decoded(i, f) == 0) != pass)
				continue;
			if (fs->type == VR_FT_TEXT) {
				vr_buf_addf(b, ", c%d.comm AS \"%s\"", n, c);
				vr_buf_addf(&joins, " LEFT JOIN comm c%d ON c%d.id = e.\"%s_id\"", n, n,
					    c);
				n++;
			} else {
				vr_buf_addf(b, ", e.\"%s\" AS \"%s\"", c, c);
			}
			if (fs->flags & VR_FF_KSYM)
				vr_buf_addf(b, ", e.\"%s_sym\" AS \"%s_sym\"", c, c);
		}
		if (!pass)
			vr_buf_addstr(b, ", e.extra AS extra");
	}
	vr_buf_addf(b, " FROM \"%s" STORE_COMM_SUFFIX "\" e%s;", name, joins.buf);
	vr_buf_release(&joins);
}

/*
 * CREATE TABLE text for spec @i (caller frees with sqlite3_free): the
 * common columns, the decoded fields, extra, then the VR_FF_MODEL fields
 * (last, as ALTER TABLE ADD COLUMN put them in a version 1 database).
 */
static char *spec_table_sql(int i)
{
	bool comm = store_comm_spec(i);
	struct vr_buf b;
	char *sql;

	vr_buf_init(&b);
	vr_buf_addf(&b, "CREATE TABLE IF NOT EXISTS \"%s%s\" (run_id INTEGER NOT NULL"
		    " REFERENCES run(id), ts_ns INTEGER NOT NULL, cpu INTEGER NOT NULL,"
		    " pid INTEGER NOT NULL", vr_event_specs[i].name, comm ? STORE_COMM_SUFFIX : "");
	for (int f = 0; f < spec_nfields(i); f++) {
		const struct vr_field_spec *fs = &vr_event_specs[i].fields[f];

		if (!spec_decoded(i, f))
			continue;
		/* a text field is a comm, stored as its id (store_comm_spec()) */
		if (fs->type == VR_FT_TEXT)
			vr_buf_addf(&b, ", \"%s_id\" INTEGER", spec_column(i, f));
		else
			vr_buf_addf(&b, ", \"%s\" INTEGER", spec_column(i, f));
		if (fs->flags & VR_FF_KSYM)
			vr_buf_addf(&b, ", \"%s_sym\" TEXT", spec_column(i, f));
	}
	vr_buf_addstr(&b, ", extra TEXT");
	for (int f = 0; f < spec_nfields(i); f++)
		if (!spec_decoded(i, f))
			vr_buf_addf(&b, ", \"%s\" INTEGER", spec_column(i, f));
	vr_buf_addstr(&b, ");");
	if (comm)
		comm_view_sql(&b, i);
	sql = sqlite3_mprintf("%s", b.buf);
	vr_buf_release(&b);
	return sql;
}

static int query_int(struct store *s, const char *sql, int64_t *out)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return vr_error("%s: %s", s->path, sqlite3_errmsg(s->db));
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return vr_error("%s: %s", s->path, sqlite3_errstr(rc));
	return 0;
}

/*
 * slab_shrink, one row per do_shrink_slab() call: each mm_shrink_slab_end
 * the model paired (it wrote slab_complete, model.h), and the calls kept
 * whole in slab_shrink_stored (a start whose end was not traced; every
 * call of a run loaded into a version 1 database).  A view rather than a
 * table: a busy trace has a million such calls, and storing them twice
 * took an eighth of a load's time.
 */
static const char slab_shrink_view[] =
	"CREATE VIEW IF NOT EXISTS slab_shrink AS"
	" SELECT run_id, pid, nid, shrink_sym AS shrinker, slab_begin_ns AS begin_ns,"
	" ts_ns AS end_ns, ts_ns - slab_begin_ns AS duration_ns,"
	" slab_nr_objects_to_shrink AS nr_objects_to_shrink, total_scan, retval,"
	" slab_complete AS complete"
	" FROM mm_shrink_slab_end WHERE slab_complete IS NOT NULL"
	" UNION ALL"
	" SELECT run_id, pid, nid, shrinker, begin_ns, end_ns, duration_ns,"
	" nr_objects_to_shrink, total_scan, retval, complete FROM slab_shrink_stored;";

/*
 * Version 1 to 2: the model's columns of mm_shrink_slab_end (NULL in the
 * old rows, which the view skips), and the old slab_shrink table, renamed,
 * keeps its rows for the view.  The rename is done the legacy way, which
 * leaves views alone: a user's view on slab_shrink then reads the new view
 * (SQLite 3.26+ would rewrite it to the old rows only).
 */
static const char upgrade_from_1[] =
	"ALTER TABLE mm_shrink_slab_end ADD COLUMN slab_begin_ns INTEGER;"
	"ALTER TABLE mm_shrink_slab_end ADD COLUMN slab_nr_objects_to_shrink INTEGER;"
	"ALTER TABLE mm_shrink_slab_end ADD COLUMN slab_complete INTEGER;"
	"PRAGMA legacy_alter_table=ON;"
	"ALTER TABLE slab_shrink RENAME TO slab_shrink_stored;"
	"PRAGMA legacy_alter_table=OFF;";

/*
 * Version 2 to 3: the two tables of the shrinker events make way for the
 * views of the same names over shrink_call (store-slab.c), which their
 * rows move into (slab_schema()); slab_shrink, a view over
 * mm_shrink_slab_end, is made again over the new view.  Renamed the legacy
 * way, so that a user's view on them reads the new views.
 */
static const char upgrade_from_2_rename[] =
	"DROP VIEW IF EXISTS slab_shrink;"
	"PRAGMA legacy_alter_table=ON;"
	"ALTER TABLE mm_shrink_slab_start RENAME TO vr_v2_slab_start;"
	"ALTER TABLE mm_shrink_slab_end RENAME TO vr_v2_slab_end;"
	"PRAGMA legacy_alter_table=OFF;";

/*
 * Rename table @from of main to @to the legacy way (PRAGMA
 * legacy_alter_table: views and triggers that name @from are left as they
 * are, so that a user's view then reads what an upgrade makes under the
 * old name).  0 or -1 after "@what: sqlite's reason".
 */
static int legacy_rename(struct store *s, const char *from, const char *to, const char *what)
{
	char *sql = sqlite3_mprintf("PRAGMA legacy_alter_table=ON; ALTER TABLE main.\"%w\" RENAME"
				    " TO \"%w\"; PRAGMA legacy_alter_table=OFF;", from, to);
	int r = store_exec(s, sql, what);

	sqlite3_free(sql);
	if (r)
		sqlite3_exec(s->db, "PRAGMA legacy_alter_table=OFF", NULL, NULL, NULL);
	return r ? -1 : 0;
}

/*
 * Version 3 to 4, and 4 or 5 to 6: shrink_call and shrink_call_more,
 * renamed vr_v3_call and vr_v3_more (from 3) or vr_v5_call and vr_v5_more
 * (from 4 or 5), give their rows to the tables of the new version
 * (store-slab.c: version 4 moved the end's columns that repeat the start's
 * to shrink_call_more, stored only where they differ; 6 moved
 * slab_complete there, stored for a paired call only when not 1); the
 * views over them, and slab_shrink over those, are dropped, to be made
 * again.  A user's view on the views reads the new ones.  0 or -1.
 */
static int slab_calls_rename(struct store *s, int64_t version)
{
	const char *what = version == 3 ? "cannot upgrade schema version 3" :
					  "cannot upgrade schema version 5";
	const char *call = version == 3 ? "vr_v3_call" : "vr_v5_call";
	const char *more = version == 3 ? "vr_v3_more" : "vr_v5_more";

	return store_exec(s, "DROP VIEW IF EXISTS slab_shrink; DROP VIEW IF EXISTS"
			  " mm_shrink_slab_start; DROP VIEW IF EXISTS mm_shrink_slab_end;", what) ||
	       legacy_rename(s, "shrink_call", call, what) ||
	       legacy_rename(s, "shrink_call_more", more, what) ? -1 : 0;
}

/*
 * Views of a user's (not one of ours, @ours, NULL-terminated) whose SQL
 * names raw table @table, whose values an upgrade changes (@change): said
 * on stderr, since such a view may give other values afterwards.  0 or -1
 * after a message.
 */
static int warn_user_views(struct store *s, const char *table, const char *const *ours,
			   const char *change)
{
	sqlite3_stmt *st;
	char *like = sqlite3_mprintf("%%%s%%", table);

	if (sqlite3_prepare_v2(s->db, "SELECT name FROM main.sqlite_schema WHERE type = 'view'"
			       " AND sql LIKE ?1 ORDER BY name", -1, &st, NULL) != SQLITE_OK) {
		sqlite3_free(like);
		return vr_error("%s: cannot read the schema: %s", s->path, sqlite3_errmsg(s->db));
	}
	sqlite3_bind_text(st, 1, like, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		bool our = false;

		for (int i = 0; ours[i]; i++)
			our |= !strcmp(ours[i], name);
		if (!our)
			vr_warn("%s: the schema upgrade to version %d (written with this command's"
				" changes): view %s reads %s (or its _more table), whose values"
				" change: %s", s->path, VR_SCHEMA_VERSION, name, table, change);
	}
	sqlite3_finalize(st);
	sqlite3_free(like);
	return 0;
}

/*
 * Version 5 to 6, the LRU calls, in place (rows and ids kept): a shrink's
 * nr_scanned (an active one's nr_taken) that repeats its isolate's is no
 * longer stored (store-lru.c echo_fields, store_lru_upgrade_v5_sql()); the
 * three views are made again by lru_schema(), and a view of a user's on
 * them reads the new ones.  One on lru_call itself is named on stderr.
 */
static int upgrade_from_5_lru(struct store *s)
{
	static const char *const ours[] = {
		"mm_vmscan_lru_isolate", "mm_vmscan_lru_shrink_inactive",
		"mm_vmscan_lru_shrink_active", NULL,
	};
	char *sql = store_lru_upgrade_v5_sql();
	int r = warn_user_views(s, "lru_call", ours, "a shrink's count that repeats its isolate's"
				" is NULL (README \"LRU list calls\"); the mm_vmscan_lru_* views give"
				" the events' values") ||
		store_exec(s, sql, "cannot upgrade schema version 5");

	free(sql);
	return r ? -1 : 0;
}

/*
 * Indexes and triggers of a user's on table @table (the user's @name for it, before an
 * upgrade renamed it), which the upgrade is about to drop (its rows move to
 * @moved_to): said on stderr, each with its SQL, so that the user can make
 * it again.  0 or -1 after a message.
 */
static int warn_dropped_indexes(struct store *s, const char *table, const char *name,
				const char *moved_to)
{
	sqlite3_stmt *st;

	/* its SQL as the user wrote it: the table under the user's name */
	if (sqlite3_prepare_v2(s->db, "SELECT type || ' ' || name, replace(sql, '\"' || ?1 || '\"',"
			       " '\"' || ?2 || '\"') FROM main.sqlite_schema WHERE type IN ('index',"
			       " 'trigger') AND tbl_name = ?1 AND sql IS NOT NULL ORDER BY name", -1,
			       &st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot read the schema: %s", s->path, sqlite3_errmsg(s->db));
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW)
		vr_warn("%s: the schema upgrade to version %d (written with this command's changes)"
			" drops %s on %s (its rows move to %s, whose columns may differ; make it"
			" again there if you need it; it was: %s)", s->path, VR_SCHEMA_VERSION,
			(const char *)sqlite3_column_text(st, 0), name, moved_to,
			(const char *)sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	return 0;
}

/*
 * Version 1-6 to 7, before the event tables are made: each event table
 * with comms (store_comm_spec()) renamed vr_v6_NAME the legacy way (a
 * user's view on it then reads the view NAME made next); comm_move()
 * moves its rows.
 */
static int comm_rename(struct store *s, int64_t version)
{
	int clash = store_sqlite_has(s->db, "main", "comm", NULL);

	if (clash < 0)
		return vr_error("%s: cannot read the schema: %s", s->path, sqlite3_errmsg(s->db));
	if (clash)
		return vr_error("%s: cannot upgrade schema version %lld to %d: a table or view comm,"
				" not one of vmscan-report's, is in the way (version %d keeps each"
				" comm there); rename it (ALTER TABLE comm RENAME TO ...) and write"
				" again; nothing written", s->path, (long long)version,
				VR_SCHEMA_VERSION, VR_SCHEMA_VERSION);
	for (size_t i = 0; i < vr_event_specs_count; i++) {
		const char *name = vr_event_specs[i].name;
		char *to;
		int have = store_comm_spec((int)i) ? store_sqlite_has(s->db, "main", name, "table") : 0;

		if (have < 0)
			return vr_error("%s: cannot read the schema: %s", s->path,
					sqlite3_errmsg(s->db));
		if (!have)
			continue;
		to = sqlite3_mprintf("vr_v6_%s", name);
		have = legacy_rename(s, name, to, "cannot upgrade schema version 6");
		sqlite3_free(to);
		if (have)
			return -1;
	}
	return 0;
}

/* Columns of @old (spec @i's table renamed by comm_rename()) that are not
 * ours (a user's ALTER TABLE ADD COLUMN): said on stderr, as the upgrade
 * drops them with the table.  0 or -1 after a message. */
static int warn_dropped_columns(struct store *s, int i, const char *old)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(s->db, "SELECT name FROM pragma_table_info(?1) ORDER BY cid", -1,
			       &st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot read the schema: %s", s->path, sqlite3_errmsg(s->db));
	sqlite3_bind_text(st, 1, old, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 0);
		bool ours = !strcmp(c, "run_id") || !strcmp(c, "ts_ns") || !strcmp(c, "cpu") ||
			    !strcmp(c, "pid") || !strcmp(c, "extra");

		for (int f = 0; !ours && f < spec_nfields(i); f++) {
			const char *sc = spec_column(i, f);
			size_t n = strlen(sc);

			ours = !strcmp(c, sc) || (!strncmp(c, sc, n) && !strcmp(c + n, "_sym") &&
						   (vr_event_specs[i].fields[f].flags & VR_FF_KSYM));
		}
		if (!ours)
			vr_warn("%s: the schema upgrade to version %d (written with this command's"
				" changes) drops column %s of %s, not one of vmscan-report's, with its"
				" values (%s is a view now, over %s" STORE_COMM_SUFFIX ")", s->path,
				VR_SCHEMA_VERSION, c, vr_event_specs[i].name, vr_event_specs[i].name,
				vr_event_specs[i].name);
	}
	sqlite3_finalize(st);
	return 0;
}

/* The rows of vr_v6_NAME (comm_rename()) of comm spec @i into NAME_ids,
 * in their order, each comm once in comm; the old table dropped. */
static int comm_move_spec(struct store *s, int i)
{
	const char *name = vr_event_specs[i].name;
	char old[128];
	struct vr_buf cols, sel, comms;
	int r;

	snprintf(old, sizeof(old), "vr_v6_%s", name);
	if (store_sqlite_has(s->db, "main", old, "table") != 1)
		return 0;
	vr_buf_init(&cols);
	vr_buf_init(&sel);
	vr_buf_init(&comms);
	vr_buf_addstr(&cols, "run_id, ts_ns, cpu, pid, extra");
	vr_buf_addstr(&sel, "o.run_id, o.ts_ns, o.cpu, o.pid, o.extra");
	for (int f = 0; f < spec_nfields(i); f++) {
		const struct vr_field_spec *fs = &vr_event_specs[i].fields[f];
		const char *c = spec_column(i, f);

		if (!store_sqlite_has_column(s->db, "main", old, c))
			continue;
		if (fs->type == VR_FT_TEXT && spec_decoded(i, f)) {
			vr_buf_addf(&cols, ", \"%s_id\"", c);
			vr_buf_addf(&sel, ", (SELECT id FROM main.comm WHERE comm = o.\"%s\")", c);
			vr_buf_addf(&comms, "INSERT OR IGNORE INTO main.comm (comm) SELECT \"%s\" FROM"
				    " main.\"%s\" WHERE \"%s\" IS NOT NULL ORDER BY rowid;", c, old, c);
		} else {
			vr_buf_addf(&cols, ", \"%s\"", c);
			vr_buf_addf(&sel, ", o.\"%s\"", c);
		}
		if ((fs->flags & VR_FF_KSYM) && spec_decoded(i, f)) {
			vr_buf_addf(&cols, ", \"%s_sym\"", c);
			vr_buf_addf(&sel, ", o.\"%s_sym\"", c);
		}
	}
	char *sql = sqlite3_mprintf("%s INSERT INTO main.\"%w" STORE_COMM_SUFFIX "\" (%s) SELECT %s"
				    " FROM main.\"%w\" o ORDER BY o.rowid;", comms.len ? comms.buf : "",
				    name, cols.buf, sel.buf, old);
	char *moved = sqlite3_mprintf("%s" STORE_COMM_SUFFIX, name);

	r = store_exec(s, sql, "cannot upgrade schema version 6") ||
	    warn_dropped_indexes(s, old, name, moved) || warn_dropped_columns(s, i, old);
	sqlite3_free(sql);
	sqlite3_free(moved);
	vr_buf_release(&cols);
	vr_buf_release(&sel);
	vr_buf_release(&comms);
	if (r)
		return -1;
	sql = sqlite3_mprintf("DROP TABLE main.\"%w\"", old);
	r = store_exec(s, sql, "cannot upgrade schema version 6");
	sqlite3_free(sql);
	return r ? -1 : 0;
}

/* comm_rename()'s tables moved (after the event tables are made). */
static int comm_move(struct store *s)
{
	for (size_t i = 0; i < vr_event_specs_count; i++)
		if (store_comm_spec((int)i) && comm_move_spec(s, (int)i))
			return -1;
	return 0;
}

/*
 * Version 4 (and before) to 5: the tables of the three LRU events, renamed
 * the legacy way (a user's view on them then reads the new views), give
 * their rows to lru_call (store-lru.c, lru_schema()) and are dropped.
 */
static int upgrade_from_4_rename(struct store *s)
{
	for (int i = 0; store_lru_event_name(i); i++) {
		int have = store_sqlite_has(s->db, "main", store_lru_event_name(i), "table");

		if (have < 0)
			return vr_error("%s: cannot read the schema: %s", s->path,
					sqlite3_errmsg(s->db));
		if (!have)
			continue;
		if (legacy_rename(s, store_lru_event_name(i), store_lru_v4_table(i),
				  "cannot upgrade schema version 4"))
			return -1;
	}
	return 0;
}

/* lru_call and lru_call_more, the rows of a version 1-4 database's tables
 * moved into them (@upgrade), and the views of the three events. */
static int lru_schema(struct store *s, bool upgrade)
{
	char *tables = store_lru_schema_sql(false), *views = store_lru_schema_sql(true);
	int r = store_exec(s, tables, "cannot create schema");

	if (!r && upgrade)
		r = s->lru ? store_lru_upgrade(s->lru)
			   : vr_error("%s: cannot upgrade the LRU calls: not opened to write", s->path);
	if (!r)
		r = store_exec(s, views, "cannot create schema");
	free(tables);
	free(views);
	return r ? -1 : 0;
}

/* shrinker and shrink_call, the rows of a version @from 1-5
 * database's tables moved into them (@from 0: none), and the views of the
 * two events. */
static int slab_schema(struct store *s, int64_t from)
{
	char *tables = store_slab_schema_sql(false), *views = store_slab_schema_sql(true);
	char *move = from ? store_slab_upgrade_sql((int)from) : NULL;
	int r = store_exec(s, tables, "cannot create schema") ||
		(move && store_exec(s, move, "cannot upgrade the shrinker calls")) ||
		store_exec(s, views, "cannot create schema");

	free(tables);
	free(views);
	free(move);
	return r ? -1 : 0;
}

/* Is spec @i (>= 0) an event written as part of a merged call row
 * (store-slab.c's shrink_call, store-lru.c's lru_call)? */
static bool call_spec(int i)
{
	return store_slab_spec(i) || store_lru_spec(i);
}

/*
 * Create what is missing of the schema inside the open write transaction,
 * upgrading a version 1 database first.  Its version is read here, under
 * the write lock: another load may have upgraded it since check_version().
 */
static int schema_in_transaction(struct store *s)
{
	static const char *const slab_views[] = {
		"mm_shrink_slab_start", "mm_shrink_slab_end", NULL,
	};
	int64_t version;
	char pragma[64];

	if (query_int(s, "PRAGMA user_version", &version))
		return -1;
	if (version == VR_SCHEMA_VERSION && s->upgrade)
		return 0;	/* upgraded already: by this store or another process */
	if (version == 1 && store_exec(s, upgrade_from_1, "cannot upgrade schema version 1")) {
		sqlite3_exec(s->db, "PRAGMA legacy_alter_table=OFF", NULL, NULL, NULL);
		return -1;
	}
	if ((version == 1 || version == 2) &&
	    store_exec(s, upgrade_from_2_rename, "cannot upgrade schema version 2")) {
		sqlite3_exec(s->db, "PRAGMA legacy_alter_table=OFF", NULL, NULL, NULL);
		return -1;
	}
	if (version == 3 && slab_calls_rename(s, version))
		return -1;
	if ((version == 4 || version == 5) &&
	    (warn_user_views(s, "shrink_call", slab_views, "slab_complete moved to"
			     " shrink_call_more (README \"Shrinker calls\"); mm_shrink_slab_end gives"
			     " it") ||
	     warn_dropped_indexes(s, "shrink_call", "shrink_call", "a new shrink_call") ||
	     warn_dropped_indexes(s, "shrink_call_more", "shrink_call_more",
				  "a new shrink_call_more") || slab_calls_rename(s, version)))
		return -1;
	if (version == 5 && upgrade_from_5_lru(s))
		return -1;
	/* (legacy_rename() turns legacy_alter_table off again when it fails) */
	if ((version >= 1 && version <= 4 && upgrade_from_4_rename(s)) ||
	    (version >= 1 && version < 7 && comm_rename(s, version)))
		return -1;
	if (store_exec(s, fixed_schema, "cannot create schema") || create_derived(s) ||
	    store_exec(s, app_latency_schema, "cannot create schema"))
		return -1;
	for (size_t i = 0; i < vr_event_specs_count; i++) {
		char *sql;
		int r;

		if (call_spec((int)i))
			continue;	/* views of shrink_call and lru_call, below */
		sql = spec_table_sql((int)i);
		r = store_exec(s, sql, "cannot create event table");
		sqlite3_free(sql);
		if (r)
			return -1;
	}
	/* after the event tables: some of the columns are theirs */
	if (comm_move(s) || add_missing_columns(s) ||
	    store_exec(s, "CREATE INDEX IF NOT EXISTS task_time ON task (run_id, pid, first_ns)",
		       "cannot create schema") ||
	    slab_schema(s, version >= 1 && version < 6 ? version : 0) ||
	    lru_schema(s, version >= 1 && version < 5))
		return -1;
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version=%d; PRAGMA application_id=%d",
		 VR_SCHEMA_VERSION, VR_APPLICATION_ID);
	return store_exec(s, slab_shrink_view, "cannot create schema") ||
	       store_exec(s, pragma, "cannot set schema version");
}

/* Create what is missing of the schema (a new database, new event tables). */
static int create_schema(struct store *s)
{
	if (store_exec(s, "BEGIN IMMEDIATE", "cannot start schema transaction"))
		return -1;
	if (schema_in_transaction(s) || store_exec(s, "COMMIT", "cannot commit schema")) {
		store_rollback(s);
		return -1;
	}
	return 0;
}

static int delete_run_rows(struct store *s, int64_t run_id, bool keep_latency);

/*
 * Rows of runs whose run row is gone (deleted by hand, not with `rm`): a
 * new run would get such an id again (INTEGER PRIMARY KEY: the highest id
 * plus one) and its rows would mix with theirs, or fail on their keys.  The
 * ids come from the tables every run has rows in (run_event_count of a
 * trace, app_latency of an import; task, run_quality, lost_events); their
 * rows are deleted from every table, said on stderr.  In the open write
 * transaction; 0 or -1 after a message.
 */
static int remove_orphans(struct store *s)
{
	static const char sql[] =
		"SELECT run_id FROM main.run_event_count WHERE run_id NOT IN (SELECT id FROM main.run)"
		" UNION SELECT run_id FROM main.app_latency WHERE run_id NOT IN (SELECT id FROM main.run)"
		" UNION SELECT run_id FROM main.run_quality WHERE run_id NOT IN (SELECT id FROM main.run)"
		" UNION SELECT run_id FROM main.lost_events WHERE run_id NOT IN (SELECT id FROM main.run)"
		" UNION SELECT run_id FROM main.task WHERE run_id NOT IN (SELECT id FROM main.run)";
	int64_t *ids = NULL;
	size_t n = 0;
	sqlite3_stmt *st;
	int rc = 0;

	if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot look for rows of deleted runs: %s", s->path,
				sqlite3_errmsg(s->db));
	while (sqlite3_step(st) == SQLITE_ROW) {
		ids = vr_realloc(ids, (n + 1) * sizeof(*ids));
		ids[n++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	for (size_t i = 0; i < n && !rc; i++) {
		vr_warn("%s: run %lld has rows but no run row (deleted by hand?): its rows are"
			" removed, so that a new run cannot mix with them (remove a run with"
			" 'vmscan-report rm')", s->path, (long long)ids[i]);
		rc = delete_run_rows(s, ids[i], false);
	}
	free(ids);
	return rc;
}

void store_set_interrupt(struct store *s, const volatile sig_atomic_t *flag)
{
	s->interrupt = flag;
}

/* SQLite's progress handler during the schema work: non-zero (the
 * statement stops with SQLITE_INTERRUPT) once the interrupt flag is set. */
static int interrupted(void *arg)
{
	const struct store *s = arg;

	return *s->interrupt != 0;
}

int store_write_begin(struct store *s)
{
	int rc;

	if (store_exec(s, "BEGIN IMMEDIATE", "cannot start transaction"))
		return -1;
	/* the tables of sums: in the write's transaction, as they are filled
	 * from the runs of a database loaded before them.  An upgrade of a
	 * large database takes minutes: it stops for an interrupt (the
	 * handler is off again before the ROLLBACK, which must not stop) */
	if (s->interrupt)
		sqlite3_progress_handler(s->db, 10000, interrupted, s);
	rc = (s->upgrade && schema_in_transaction(s)) || remove_orphans(s) ||
	     store_sums_create(s->db, s->path);
	sqlite3_progress_handler(s->db, 0, NULL, NULL);
	if (rc) {
		store_rollback(s);
		return -1;
	}
	return 0;
}

/*
 * A database of ours made before VR_APPLICATION_ID: schema version 1 or 2
 * with the `run` table as we make it (these columns of it have been there
 * since version 1).
 */
static int made_by_us(struct store *s, int64_t version, bool *ours)
{
	int64_t ncols;

	*ours = false;
	if (version < 1 || version > VR_SCHEMA_VERSION)
		return 0;
	if (query_int(s, "SELECT count(*) FROM pragma_table_info('run') WHERE name IN"
		      " ('id', 'kernel', 'iteration', 'source_path', 'source_format',"
		      " 'content_sha256', 'event_count', 'loaded_at')", &ncols))
		return -1;
	*ours = ncols == 8;
	return 0;
}

/* Is it ours?  A marked database, or an unmarked one of ours; not another
 * program's.  0, or -1 after the message. */
static int check_ours(struct store *s, int64_t version, int64_t ntables)
{
	int64_t app_id;
	bool ours;

	if (query_int(s, "PRAGMA application_id", &app_id))
		return -1;
	if ((uint32_t)app_id == VR_APPLICATION_ID || (!app_id && !version && !ntables))
		return 0;
	if (app_id)
		return vr_error("%s: not a vmscan-report database (another program's: its SQLite"
				" application_id is 0x%08x, ours 0x%08x)", s->path,
				(unsigned)app_id, VR_APPLICATION_ID);
	if (made_by_us(s, version, &ours))
		return -1;
	if (!ours)
		return vr_error("%s: not a vmscan-report database (an SQLite database with"
				" neither our application_id nor our `run` table)", s->path);
	return 0;
}

int store_has_table(struct store *s, const char *name)
{
	/* several databases read as one: their tables are TEMP views */
	int n = store_sqlite_has(s->db, "temp", name, "view");

	if (n == 0)	/* a table, or a view over one (mm_shrink_slab_start, ...) */
		n = store_sqlite_has(s->db, "main", name, NULL);

	if (n < 0)
		return vr_error("%s: cannot read the schema: %s", s->path,
				sqlite3_errmsg(s->db));
	return n;
}

/*
 * An evidence database is marked by its table `evidence` (source_path, as
 * store-evidence.c makes it) and has no raw tables: a database with
 * other_event (made by every load since schema version 1) is a loaded one,
 * whatever tables a user added to it (a table of theirs named evidence).
 */
int store_is_evidence(struct store *s)
{
	int ev = store_has_table(s, "evidence"), col, raw;

	if (ev <= 0)
		return ev;
	col = store_has_column(s, "evidence", "source_path");
	raw = store_has_table(s, "other_event");
	if (col < 0 || raw < 0)
		return -1;
	return col && !raw;
}

char *store_data_version(struct store *s)
{
	sqlite3_stmt *list;
	struct vr_buf b;

	if (sqlite3_prepare_v2(s->db, "SELECT name FROM pragma_database_list WHERE name <> 'temp'",
			       -1, &list, NULL) != SQLITE_OK) {
		vr_error("%s: cannot read its version: %s", s->path, sqlite3_errmsg(s->db));
		return NULL;
	}
	vr_buf_init(&b);
	while (sqlite3_step(list) == SQLITE_ROW) {
		char *sql = sqlite3_mprintf("PRAGMA \"%w\".data_version",
					    (const char *)sqlite3_column_text(list, 0));
		int64_t v;
		int rc = query_int(s, sql, &v);

		sqlite3_free(sql);
		if (rc) {
			sqlite3_finalize(list);
			vr_buf_release(&b);
			return NULL;
		}
		vr_buf_addf(&b, "%s%lld", b.len ? "," : "", (long long)v);
	}
	sqlite3_finalize(list);
	return vr_buf_detach(&b);
}

/* The names of the objects our schema makes (store_own_object()), made
 * once; a set of malloc'ed strings.  own_columns: "TABLE\x1fCOLUMN" of each
 * column of those tables and views (store_own_column()). */
static GHashTable *own_names, *own_columns;

/* "TABLE\x1fCOLUMN" (a unit separator: no name of ours holds one);
 * malloc'ed. */
static char *column_key(const char *table, const char *column)
{
	return g_strdup_printf("%s\x1f%s", table, column);
}

/* Collect the names of every object of @db's main schema into own_names,
 * and the columns of its tables and views into own_columns. */
static int collect_names(sqlite3 *db)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, "SELECT m.name, c.name FROM main.sqlite_master AS m LEFT JOIN"
			       " pragma_table_info(m.name) AS c WHERE m.type IN ('table', 'view')"
			       " UNION ALL SELECT name, NULL FROM main.sqlite_master"
			       " WHERE type NOT IN ('table', 'view')", -1, &st, NULL) != SQLITE_OK)
		return -1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		g_hash_table_add(own_names, vr_strdup(name));
		if (sqlite3_column_type(st, 1) != SQLITE_NULL)
			g_hash_table_add(own_columns,
					 column_key(name, (const char *)sqlite3_column_text(st, 1)));
	}
	for (size_t i = 0; i < store_sums_count; i++)	/* the evidence-only ones too */
		g_hash_table_add(own_names, vr_strdup(store_sums[i].name));
	return sqlite3_finalize(st) == SQLITE_OK ? 0 : -1;
}

int store_own_object(const char *name)
{
	struct store *s;
	int rc;

	if (own_names)
		return g_hash_table_contains(own_names, name);
	own_columns = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	/* what create_schema() makes in an empty database, the tables of the
	 * sums (store_sums_create()) and evidence's mark: the list is the
	 * schema itself, so a table added to it is ours by construction */
	s = store_open_memory("the schema");
	if (!s)
		return -1;
	own_names = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	rc = create_schema(s) || store_exec(s, "BEGIN", "cannot begin") ||
	     store_sums_create(s->db, s->path) ||
	     store_exec(s, STORE_LAZY_TABLES, "cannot make the schema") ||
	     store_exec(s, "CREATE TABLE evidence (source_path TEXT NOT NULL); COMMIT",
			"cannot make the schema") || collect_names(s->db);
	store_close(s);
	if (rc) {
		g_hash_table_destroy(own_names);
		g_hash_table_destroy(own_columns);
		own_names = own_columns = NULL;
		return vr_error("cannot make the list of vmscan-report's tables");
	}
	return g_hash_table_contains(own_names, name);
}

int store_own_column(const char *table, const char *column)
{
	char *key;
	int own;

	if (!own_names && store_own_object(table) < 0)
		return -1;
	key = column_key(table, column);
	own = g_hash_table_contains(own_columns, key);
	g_free(key);
	return own;
}

/* An evidence database is read, never written: it has no raw tables. */
static int check_evidence(struct store *s, int flags)
{
	int ev = flags == STORE_RW ? store_is_evidence(s) : 0;

	if (ev > 0)
		return vr_error("%s: is an evidence database (written by 'report', without the raw"
				" event tables): it is read, not written; load into the database"
				" it was made from", s->path);
	return ev;
}

/*
 * The tables every database of schema version 2 or 3 was made with (the run's
 * companions and the model's derived tables): one missing from a database
 * that holds runs was dropped by hand, and create_schema() would make it
 * again empty, so that its runs read as runs without stalls, cycles, ...
 */
static const char *const v2_tables[] = {
	"run_event_count", "task", "lost_events", "other_event", "app_latency",
	"reclaim_stall", "kswapd_cycle", "kswapd_wakeup", "pgdat_flag", "reclaim_throttle",
	"slab_shrink_stored", "reclaim_write", "run_quality",
	"shrinker", "shrink_call", "shrink_call_more",	/* version 3 */
	"lru_call", "lru_call_more",			/* version 5 */
};

/* "DB: table T is missing while ..." for @what missing; -1. */
static int dropped(struct store *s, const char *what, int64_t nruns)
{
	return vr_error("%s: %s is missing while the database holds %lld run%s (dropped by"
			" hand?): writing to it would make it again empty, and its runs would"
			" then read as if they had none of its rows; nothing written. Restore it,"
			" or load the traces into a new database", s->path, what,
			(long long)nruns, nruns == 1 ? "" : "s");
}

/*
 * Before a write creates what is missing of the schema: a table of
 * v2_tables, or the table of an event that run_event_count says a run has
 * rows of, missing while runs are there, is refused (dropped(), exit 1),
 * never made again empty.  0, or -1 after the message.
 */
static int check_dropped(struct store *s)
{
	int64_t nruns, n;
	char what[384];

	if (query_int(s, "SELECT count(*) FROM main.run", &nruns))
		return -1;
	if (!nruns)
		return 0;
	for (size_t i = 0; i < VR_ARRAY_SIZE(v2_tables); i++) {
		int have = store_sqlite_has(s->db, "main", v2_tables[i], "table");

		if (have < 0)
			return vr_error("%s: cannot read the schema: %s", s->path,
					sqlite3_errmsg(s->db));
		snprintf(what, sizeof(what), "table %s", v2_tables[i]);
		if (!have)
			return dropped(s, what, nruns);
	}
	for (size_t i = 0; i < vr_event_specs_count; i++) {
		char *sql;
		/* (shrink_call's views: NULL, a table or a view) */
		const char *name = vr_event_specs[i].name;
		char ids[128];
		int have = store_sqlite_has(s->db, "main", name, NULL);

		/* a view over NAME_ids and comm (schema version 7): all three */
		snprintf(ids, sizeof(ids), "%s" STORE_COMM_SUFFIX, name);
		if (have == 1 && store_comm_spec((int)i)) {
			have = store_sqlite_has(s->db, "main", ids, "table");
			name = ids;
			if (have == 1) {
				have = store_sqlite_has(s->db, "main", "comm", "table");
				name = "comm";
			}
		}
		if (have)
			continue;	/* (-1: run_event_count's query says why) */
		sql = sqlite3_mprintf("SELECT count(*) FROM main.run_event_count WHERE system = '%q'"
				      " AND name = '%q' AND count > 0", vr_event_specs[i].system,
				      vr_event_specs[i].name);
		have = query_int(s, sql, &n);
		sqlite3_free(sql);
		if (have)
			return -1;
		snprintf(what, sizeof(what), "table %s (%lld run%s had %s events)", name,
			 (long long)n, n == 1 ? "" : "s", vr_event_specs[i].name);
		if (n)
			return dropped(s, what, nruns);
	}
	return 0;
}

static int check_version(struct store *s, int flags)
{
	int64_t version, ntables;

	if (query_int(s, "PRAGMA user_version", &version) ||
	    query_int(s, "SELECT count(*) FROM sqlite_master", &ntables) ||
	    check_ours(s, version, ntables) || check_evidence(s, flags))
		return -1;
	if (version >= 1 && version < VR_SCHEMA_VERSION) {
		/* read as it is (the tables of version 3's views are tables
		 * in 1 and 2, with the same columns and values; version 3 has
		 * the views over its own tables); upgraded by the first write
		 * transaction, so that a load that fails leaves it as it was */
		s->upgrade = flags == STORE_RW;
		return 0;
	}
	if (version == VR_SCHEMA_VERSION)	/* new event tables */
		return flags == STORE_RW ? check_dropped(s) || create_schema(s) : 0;
	if (version == 0 && ntables == 0) {
		if (flags != STORE_RW)
			return vr_error("%s: empty database, load a trace into it first", s->path);
		return create_schema(s);
	}
	if (version == 0)
		return vr_error("%s: not a vmscan-report database (it has other tables)", s->path);
	return vr_error("%s: database schema version %lld, this vmscan-report reads version %d",
			s->path, (long long)version, VR_SCHEMA_VERSION);
}

/* Batches between two writeback hints (start_writeback()). */
enum { WRITEBACK_BATCHES = 64 };

/* WRITEBACK_BATCHES, or VR_TEST_WRITEBACK_BATCHES (lets the tests reach a
 * hint with the samples' few batches). */
static unsigned writeback_batches(void)
{
	const char *e = getenv("VR_TEST_WRITEBACK_BATCHES");
	long n = e ? strtol(e, NULL, 10) : 0;

	return n > 0 ? (unsigned)n : WRITEBACK_BATCHES;
}

/*
 * What a file that SQLite says is not a database is (ingest_kind_of()
 * decides, from its first bytes): a trace given as the database (-d) is
 * the likely mistake.
 */
static int not_a_database(const char *path)
{
	struct ingest_head h;

	switch (ingest_kind_of(path, &h)) {
	case INGEST_KIND_DAT:
		return vr_error("%s: is a trace.dat file, not a database (the database is the"
				" file after -d, the traces come after the options)", path);
	case INGEST_KIND_PIPE:
		return vr_error("%s: is a pipe, not a database (the database is a file, named"
				" after -d)", path);
	case INGEST_KIND_TEXT:
	case INGEST_KIND_NONE:
		return vr_error("%s: is a text file (a text trace?), not a database (the database"
				" is the file after -d, the traces come after the options)", path);
	default:
		return vr_error("%s: not an SQLite database (nor a trace)", path);
	}
}

/*
 * The first statements on a new connection, where SQLite reads the file's
 * header and, after a writer was killed, finds its hot journal: say what
 * went wrong in the user's terms.  0, or -1 after the message.
 */
static int first_statement(struct store *s, const char *sql)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	if (rc == SQLITE_OK)
		return 0;
	rc = sqlite3_extended_errcode(s->db);
	if (rc == SQLITE_NOTADB)
		return not_a_database(s->path);
	/* a read-only connection cannot roll a hot journal back (SQLite's
	 * pager: SQLITE_READONLY_ROLLBACK) */
	if (rc == SQLITE_READONLY_ROLLBACK)
		return vr_error("%s: a write to it was interrupted (a load killed, or a crash) and"
				" left its rollback journal %s-journal, which a read-only command"
				" cannot roll back: any write does (the runs committed before stay),"
				" e.g. 'vmscan-report load -d %s FILE' or"
				" sqlite3 %s 'PRAGMA user_version' by a user who can write the"
				" database and its directory", s->path, s->path, s->path, s->path);
	return vr_error("%s: cannot open database: %s%s", s->path, sqlite3_errmsg(s->db),
			(rc & 0xff) == SQLITE_BUSY ? STORE_BUSY_HINT : "");
}

/*
 * A database is a regular file: SQLite keeps its rollback journal next to
 * it (PATH-journal), so /dev/null as a database would leave
 * /dev/null-journal behind, and a FIFO or a directory is no database.
 * -1 after the message, else 0 (a path not there yet is fine).
 */
static int not_regular(const char *path)
{
	struct stat st;

	if (stat(path, &st) || S_ISREG(st.st_mode))
		return 0;
	return vr_error("%s: not a regular file (%s): a database is a file of its own, with its"
			" journal written next to it", path,
			S_ISDIR(st.st_mode) ? "a directory" : S_ISCHR(st.st_mode) ? "a character device" :
			S_ISBLK(st.st_mode) ? "a block device" : S_ISFIFO(st.st_mode) ? "a FIFO" :
			S_ISSOCK(st.st_mode) ? "a socket" : "not a file");
}

struct store *store_open(const char *path, int flags)
{
	struct store *s = vr_calloc(1, sizeof(*s));
	/* one connection per thread: no per-call mutex (about 6% of a load) */
	int oflags = (flags == STORE_RW ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
					: SQLITE_OPEN_READONLY) | SQLITE_OPEN_NOMUTEX;

	s->path = vr_strdup(path);
	s->wb_fd = -1;
	s->wb_every = writeback_batches();
	/* no memory statistics: saves a mutex round trip per allocation; a
	 * no-op (SQLITE_MISUSE) once the library is initialised */
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	if (flags == STORE_RDONLY && access(path, F_OK)) {
		vr_error("%s: no such database (make one with 'vmscan-report load -d %s FILE')",
			 path, path);
		goto fail;
	}
	if (not_regular(path))
		goto fail;
	if (sqlite3_open_v2(path, &s->db, oflags, NULL) != SQLITE_OK) {
		vr_error("%s: cannot open database: %s", path,
			 s->db ? sqlite3_errmsg(s->db) : "out of memory");
		goto fail;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, 10000);
	/* page_size only takes effect on a new database.  Each of the 45 or
	 * so tables and indexes takes at least one page and ends with one
	 * partly filled: 8 KiB pages make a one-recording database about a
	 * third smaller than 64 KiB pages did (12.5 to 8.6 MB for a 1.8 MB
	 * trace), at the same load time (64 KiB and 8 KiB measured the same,
	 * 1x and 10x of make bench's trace) */
	if (first_statement(s, "PRAGMA page_size=8192; PRAGMA cache_size=-16384;"
			    " PRAGMA temp_store=MEMORY; PRAGMA user_version;") ||
	    check_version(s, flags) || store_sums_make(s->db, s->path, false, NULL))
		goto fail;
	s->ins = vr_calloc(vr_event_specs_count, sizeof(*s->ins));
	s->spec_count = vr_calloc(vr_event_specs_count, sizeof(*s->spec_count));
	if (flags == STORE_RW && !(s->bulk = store_bulk_new(s->db)))
		goto fail;
	if (flags == STORE_RW) {
		s->sums = store_sums_acc_new();
		if (!(s->slab = store_slab_new(s->db, path, s->bulk)) ||
		    !(s->lru = store_lru_new(s->db, path, s->bulk)))
			goto fail;
	}
	return s;
fail:
	store_close(s);
	return NULL;
}

struct store *store_open_memory(const char *label)
{
	struct store *s = vr_calloc(1, sizeof(*s));

	s->path = vr_strdup(label);
	s->wb_fd = -1;
	if (sqlite3_open_v2(":memory:", &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_URI |
			    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK) {
		vr_error("%s: cannot open: %s", label, s->db ? sqlite3_errmsg(s->db) : "out of memory");
		store_close(s);
		return NULL;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, 10000);
	return s;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	if (s->in_run)
		store_run_abort(s);
	for (size_t i = 0; s->ins && i < vr_event_specs_count; i++)
		sqlite3_finalize(s->ins[i]);
	store_bulk_free(s->bulk);
	store_slab_free(s->slab);
	store_lru_free(s->lru);
	for (size_t i = 0; s->group && i < vr_event_specs_count; i++)
		free(s->group[i]);
	free(s->group);
	free(s->ngroup);
	free(s->touched);
	sqlite3_finalize(s->ins_other);
	sqlite3_finalize(s->ins_lost);
	sqlite3_finalize(s->ins_task);
	sqlite3_close(s->db);
	if (s->wb_fd >= 0)
		close(s->wb_fd);	/* after SQLite let go of its locks */
	free(s->ins);
	free(s->spec_count);
	if (s->other_count)
		g_hash_table_destroy(s->other_count);
	store_sums_acc_free(s->sums);
	if (s->renames) {
		renames_clear(s);
		g_array_free(s->renames, TRUE);
	}
	free(s->kernel);
	free(s->path);
	free(s);
}

int64_t store_runs_count(struct store *s)
{
	sqlite3_stmt *q = NULL;
	int64_t n = -1;

	if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM run", -1, &q, NULL) == SQLITE_OK &&
	    sqlite3_step(q) == SQLITE_ROW)
		n = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return n;
}

int store_rekey_runs(struct store *s, const char *kernel)
{
	static const char what[] = "rekey the runs of a kernel";
	sqlite3_stmt *q = NULL;
	int rc = sqlite3_prepare_v2(s->db, "UPDATE run SET content_sha256 = content_sha256"
				    " || ' ' || ?1 WHERE kernel = ?1", -1, &q, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(q, 1, kernel, -1, SQLITE_TRANSIENT);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(q);
	if (rc != SQLITE_DONE)
		vr_error("%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : -1;
}

sqlite3 *store_db(struct store *s)
{
	return s->db;
}

const char *store_path(struct store *s)
{
	return s->path;
}

static int prepare(struct store *s, sqlite3_stmt **st, const char *sql)
{
	if (*st)
		return 0;
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot prepare statement: %s", s->path, sqlite3_errmsg(s->db));
	return 0;
}

static int step_done(struct store *s, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW)
		return vr_error("%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
	return 0;
}

int store_find_run_by_hash(struct store *s, const char *sha256, int64_t *run_id)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*run_id = 0;
	if (prepare(s, &st, "SELECT id FROM run WHERE content_sha256 = ?"))
		return -1;
	sqlite3_bind_text(st, 1, sha256, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*run_id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return vr_error("%s: %s", s->path, sqlite3_errstr(rc));
	return 0;
}

/* Delete the rows of @run_id from every table with a run_id column (derived
 * tables included), app_latency too unless @keep_latency, and its run row. */
static int delete_run_rows(struct store *s, int64_t run_id, bool keep_latency)
{
	sqlite3_stmt *tables = NULL;
	int ret = 0;

	if (sqlite3_prepare_v2(s->db,
			       keep_latency
			       ? "SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) c"
				 " WHERE m.type = 'table' AND c.name = 'run_id'"
				 " AND m.name <> 'app_latency'"
			       : "SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) c"
				 " WHERE m.type = 'table' AND c.name = 'run_id'",
			       -1, &tables, NULL) != SQLITE_OK)
		return vr_error("%s: %s", s->path, sqlite3_errmsg(s->db));
	while (!ret && sqlite3_step(tables) == SQLITE_ROW) {
		/* main.: a TEMP view of the sums may have the same name */
		char *sql = sqlite3_mprintf("DELETE FROM main.\"%w\" WHERE run_id = %lld",
					    (const char *)sqlite3_column_text(tables, 0),
					    (long long)run_id);
		ret = store_exec(s, sql, "cannot delete run");
		sqlite3_free(sql);
	}
	sqlite3_finalize(tables);
	if (!ret) {
		char *sql = sqlite3_mprintf("DELETE FROM run WHERE id = %lld", (long long)run_id);

		ret = store_exec(s, sql, "cannot delete run");
		sqlite3_free(sql);
	}
	return ret;
}

const char *store_run_kernel(struct store *s)
{
	return s->kernel ? s->kernel : "";
}

uint64_t store_run_events(struct store *s)
{
	return s->nevents;
}

int store_delete_run(struct store *s, int64_t run_id)
{
	return delete_run_rows(s, run_id, false);
}

int store_remove_runs(struct store *s, const int64_t *ids, size_t n)
{
	if (store_write_begin(s))
		return -1;
	for (size_t i = 0; i < n; i++) {
		char *sql = sqlite3_mprintf("SELECT count(*) FROM main.run WHERE id = %lld",
					    (long long)ids[i]);
		int64_t have;
		int rc = query_int(s, sql, &have);

		sqlite3_free(sql);
		if (!rc && !have)
			rc = vr_error("%s: no run %lld ('vmscan-report runs -d %s' lists them);"
				      " nothing removed", s->path, (long long)ids[i], s->path);
		if (rc || delete_run_rows(s, ids[i], false)) {
			store_rollback(s);
			return -1;
		}
	}
	if (store_exec(s, "COMMIT", "cannot commit")) {
		store_rollback(s);
		return -1;
	}
	return 0;
}

int store_run_from(struct store *s, int64_t run_id, const char *source_path)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (prepare(s, &st, "SELECT 1 FROM main.run WHERE id = ? AND source_path = ?"))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, source_path, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW || rc == SQLITE_DONE)
		return rc == SQLITE_ROW;
	return vr_error("%s: cannot read run %lld: %s", s->path, (long long)run_id,
			sqlite3_errmsg(s->db));
}

/* Kernel label (OUT, caller frees) and iteration of run @id. */
static int run_label(struct store *s, int64_t id, char **kernel, int *iteration)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (prepare(s, &st, "SELECT kernel, iteration FROM run WHERE id = ?"))
		return -1;
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*kernel = vr_strdup((const char *)sqlite3_column_text(st, 0));
		*iteration = sqlite3_column_int(st, 1);
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : vr_error("%s: run %lld not found", s->path, (long long)id);
}

static int next_iteration(struct store *s, const char *kernel, int *out)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (prepare(s, &st, "SELECT coalesce(max(iteration), 0) + 1 FROM run WHERE kernel = ?"))
		return -1;
	sqlite3_bind_text(st, 1, kernel, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	*out = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : vr_error("%s: %s", s->path, sqlite3_errstr(rc));
}

static void reset_run_state(struct store *s)
{
	s->in_run = false;
	s->first_ts = UINT64_MAX;
	s->last_ts = 0;
	s->nevents = 0;
	s->lost_total = 0;
	s->lost_unknown = 0;
	memset(s->spec_count, 0, vr_event_specs_count * sizeof(*s->spec_count));
	if (s->sums)
		store_sums_acc_reset(s->sums);
	if (s->slab)
		store_slab_reset(s->slab, false);
	if (s->lru)
		store_lru_reset(s->lru);
	s->nstall_pages = -1;
	if (s->other_count)
		g_hash_table_remove_all(s->other_count);
	else
		s->other_count = g_hash_table_new_full(g_str_hash, g_str_equal, free, free);
}

/* Insert the run row with @kernel and @iteration; @id 0: a new id. */
static int insert_run_row(struct store *s, const struct store_run *r, const char *kernel,
			  int iteration, int64_t id)
{
	const struct ingest_meta *m = r->meta;
	sqlite3_stmt *st = NULL;
	char now[32];
	time_t t = time(NULL);
	int ret;

	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", gmtime(&t));
	if (prepare(s, &st, "INSERT INTO run (kernel, iteration, source_path, source_format,"
			    " content_sha256, file_version, compression, uname, kernel_release,"
			    " cpus, clock, long_size, big_endian, page_size, loaded_at, ring_overrun, id)"
			    " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"))
		return -1;
	sqlite3_bind_text(st, 1, kernel, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, iteration);
	sqlite3_bind_text(st, 3, m->path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 4, r->source_format, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 5, m->content_sha256, -1, SQLITE_STATIC);
	if (m->file_version)
		sqlite3_bind_int(st, 6, m->file_version);
	sqlite3_bind_text(st, 7, m->compression, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 8, m->uname, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 9, m->release, -1, SQLITE_STATIC);
	if (m->cpus)
		sqlite3_bind_int(st, 10, m->cpus);
	sqlite3_bind_text(st, 11, m->clock, -1, SQLITE_STATIC);
	if (m->long_size)
		sqlite3_bind_int(st, 12, m->long_size);
	sqlite3_bind_int(st, 13, m->big_endian);
	if (m->page_size)
		sqlite3_bind_int(st, 14, m->page_size);
	sqlite3_bind_text(st, 15, now, -1, SQLITE_TRANSIENT);
	if (m->ring_overrun >= 0)
		sqlite3_bind_int64(st, 16, m->ring_overrun);
	if (id)
		sqlite3_bind_int64(st, 17, id);
	ret = sqlite3_step(st) == SQLITE_DONE ? 0 : -1;
	if (ret) {
		if (sqlite3_extended_errcode(s->db) == SQLITE_CONSTRAINT_UNIQUE)
			vr_error("%s: run %s iteration %d already exists (choose another --iteration"
				 " or --kernel)", s->path, kernel, iteration);
		else
			vr_error("%s: cannot insert run: %s", s->path, sqlite3_errmsg(s->db));
	}
	sqlite3_finalize(st);
	return ret;
}

/* Is a run of @m's contents there, now that the write lock is held (a load
 * running at the same time may have stored it since the caller looked)?
 * -1 after "FILE: already loaded as run N (same contents) ...", else 0. */
static int already_loaded(struct store *s, const struct ingest_meta *m)
{
	int64_t id = 0;

	if (!m->content_sha256)
		return 0;
	if (store_find_run_by_hash(s, m->content_sha256, &id))
		return -1;
	if (id)
		return vr_error("%s: already loaded as run %lld (same contents); use --replace to"
				" load it again", m->path, (long long)id);
	return 0;
}

int store_run_begin(struct store *s, const struct store_run *r, int64_t replace_run_id,
		    int64_t *run_id, int *iteration_out)
{
	int iteration = r->iteration;
	char *old_kernel = NULL;
	const char *kernel = r->kernel;

	reset_run_state(s);
	if (store_write_begin(s))
		return -1;
	if (!replace_run_id && already_loaded(s, r->meta))
		goto fail;
	if (replace_run_id) {
		/* the run keeps its id, label, iteration and imported latencies
		 * unless the command line names others */
		int old_iteration = 0;

		if (run_label(s, replace_run_id, &old_kernel, &old_iteration) ||
		    delete_run_rows(s, replace_run_id, true))
			goto fail;
		if (!r->kernel_given)
			kernel = old_kernel;
		if (!iteration)
			iteration = old_iteration;
	}
	if (!iteration && next_iteration(s, kernel, &iteration))
		goto fail;
	if (insert_run_row(s, r, kernel, iteration, replace_run_id))
		goto fail;
	s->run_id = sqlite3_last_insert_rowid(s->db);
	s->in_run = true;
	if (s->lru)
		store_lru_track(s->lru, s->run_id);
	renames_mark(s);
	s->has_event = r->has_event;
	s->has_event_arg = r->has_event_arg;
	s->before_commit = r->before_commit;
	s->before_commit_arg = r->before_commit_arg;
	free(s->kernel);
	s->kernel = vr_strdup(kernel);
	*run_id = s->run_id;
	*iteration_out = iteration;
	free(old_kernel);
	return 0;
fail:
	free(old_kernel);
	store_rollback(s);
	return -1;
}

static int prepare_spec_insert(struct store *s, int i)
{
	bool comm = store_comm_spec(i);
	struct vr_buf cols, vals;
	int ret;

	vr_buf_init(&cols);
	vr_buf_init(&vals);
	vr_buf_addstr(&cols, "run_id, ts_ns, cpu, pid");
	vr_buf_addstr(&vals, "?,?,?,?");
	for (int f = 0; f < spec_nfields(i); f++) {
		char *q = sqlite3_mprintf(", \"%w%s\"", spec_column(i, f),
					  vr_event_specs[i].fields[f].type == VR_FT_TEXT ? "_id" : "");

		vr_buf_addstr(&cols, q);
		vr_buf_addstr(&vals, ",?");
		sqlite3_free(q);
		if (vr_event_specs[i].fields[f].flags & VR_FF_KSYM) {
			q = sqlite3_mprintf(", \"%w_sym\"", spec_column(i, f));
			vr_buf_addstr(&cols, q);
			vr_buf_addstr(&vals, ",?");
			sqlite3_free(q);
		}
	}
	char *sql = sqlite3_mprintf("INSERT INTO \"%w%s\" (%s, extra) VALUES (%s,?)",
				    vr_event_specs[i].name, comm ? STORE_COMM_SUFFIX : "", cols.buf,
				    vals.buf);
	ret = prepare(s, &s->ins[i], sql);
	sqlite3_free(sql);
	vr_buf_release(&cols);
	vr_buf_release(&vals);
	return ret;
}

static void count_other(struct store *s, const struct ingest_event *ev)
{
	char *key = g_strconcat(ev->system, ":", ev->name, NULL);
	uint64_t *n = g_hash_table_lookup(s->other_count, key);

	if (n) {
		(*n)++;
		g_free(key);
		return;
	}
	n = vr_malloc(sizeof(*n));
	*n = 1;
	g_hash_table_insert(s->other_count, vr_strdup(key), n);
	g_free(key);
}

static int insert_other(struct store *s, const struct ingest_event *ev)
{
	sqlite3_stmt *st;

	if (prepare(s, &s->ins_other, "INSERT INTO other_event (run_id, ts_ns, cpu, pid, system,"
				      " name, fields) VALUES (?,?,?,?,?,?,?)"))
		return -1;
	st = s->ins_other;
	sqlite3_bind_int64(st, 1, s->run_id);
	sqlite3_bind_int64(st, 2, (int64_t)ev->ts_ns);
	sqlite3_bind_int(st, 3, ev->cpu);
	sqlite3_bind_int(st, 4, ev->pid);
	sqlite3_bind_text(st, 5, ev->system, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 6, ev->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 7, ev->extra_json, -1, SQLITE_STATIC);
	count_other(s, ev);
	return step_done(s, st, "cannot insert event");
}

/* The run's event count and time span, and its sums (store-sums.c),
 * written out when they grow large; 0 or -1 after a message. */
static int count_event(struct store *s, const struct ingest_event *ev)
{
	if (ev->ts_ns < s->first_ts)
		s->first_ts = ev->ts_ns;
	if (ev->ts_ns > s->last_ts)
		s->last_ts = ev->ts_ns;
	s->nevents++;
	if (s->sums && store_sums_acc_event(s->sums, ev, (int64_t)s->first_ts))
		return store_sums_acc_write(s->sums, s->db, s->run_id);
	return 0;
}

/* @ev, of a call_spec(), counted and handed to its call rows' writer;
 * 0 or -1 after a message. */
static int call_event(struct store *s, const struct ingest_event *ev)
{
	s->spec_count[ev->spec]++;
	return store_slab_spec(ev->spec) ? store_slab_event(s->slab, s->run_id, ev)
					 : store_lru_event(s->lru, s->run_id, ev);
}

int store_event(struct store *s, const struct ingest_event *ev)
{
	sqlite3_stmt *st;
	int col = 5;
	int i = ev->spec;

	if (count_event(s, ev))
		return -1;
	if (i < 0)
		return insert_other(s, ev);
	if (call_spec(i))
		return call_event(s, ev);
	if (!s->ins[i] && prepare_spec_insert(s, i))
		return -1;
	st = s->ins[i];
	sqlite3_bind_int64(st, 1, s->run_id);
	sqlite3_bind_int64(st, 2, (int64_t)ev->ts_ns);
	sqlite3_bind_int(st, 3, ev->cpu);
	sqlite3_bind_int(st, 4, ev->pid);
	for (int f = 0; f < VR_SPEC_MAX_FIELDS && vr_event_specs[i].fields[f].name; f++) {
		const struct vr_field_spec *fs = &vr_event_specs[i].fields[f];
		bool have = ev->present & (1u << f);

		if (!have)
			sqlite3_bind_null(st, col);
		else if (fs->type == VR_FT_TEXT && !ev->str[f])
			sqlite3_bind_null(st, col);
		else if (fs->type == VR_FT_TEXT) {	/* a comm, as its id */
			int64_t id;

			if (store_bulk_comm_id(s->bulk, ev->str[f], &id))
				return -1;
			sqlite3_bind_int64(st, col, id);
		} else
			sqlite3_bind_int64(st, col, ev->val[f]);
		col++;
		if (fs->flags & VR_FF_KSYM) {
			/* a text trace can have the symbol without the address */
			if (ev->str[f])
				sqlite3_bind_text(st, col, ev->str[f], -1, SQLITE_STATIC);
			else
				sqlite3_bind_null(st, col);
			col++;
		}
	}
	sqlite3_bind_text(st, col, ev->extra_json, -1, SQLITE_STATIC);
	s->spec_count[i]++;
	return step_done(s, st, "cannot insert event");
}

/* Room for @n indexes in every spec's group. */
static void group_reserve(struct store *s, int n)
{
	if (!s->group) {
		s->group = vr_calloc(vr_event_specs_count, sizeof(*s->group));
		s->ngroup = vr_calloc(vr_event_specs_count, sizeof(*s->ngroup));
		s->touched = vr_calloc(vr_event_specs_count, sizeof(*s->touched));
	}
	if (n <= s->group_cap)
		return;
	for (size_t i = 0; i < vr_event_specs_count; i++)
		s->group[i] = vr_realloc(s->group[i], (size_t)n * sizeof(**s->group));
	s->group_cap = n;
}

/* Empty the groups without inserting them. */
static void flush_groups_drop(struct store *s)
{
	for (int t = 0; t < s->ntouched; t++)
		s->ngroup[s->touched[t]] = 0;
	s->ntouched = 0;
}

/* Insert and empty the groups; 0 or -1. */
static int flush_groups(struct store *s, const struct ingest_event *evs)
{
	int ret = 0;

	for (int t = 0; t < s->ntouched; t++) {
		int i = s->touched[t];

		if (!ret)
			ret = store_bulk_insert(s->bulk, i, s->run_id, evs, s->group[i],
						s->ngroup[i]);
		s->spec_count[i] += (uint64_t)s->ngroup[i];
		s->ngroup[i] = 0;
	}
	s->ntouched = 0;
	return ret;
}

/*
 * Every WRITEBACK_BATCHES calls, start writing back what SQLite has
 * written to the database file so far (sync_file_range(2), asynchronous):
 * the fsync of the commit then finds little left to write, instead of the
 * whole run (about 0.1 s per 200 MB here).  Only a hint; errors ignored.
 * The descriptor stays open until SQLite has closed the database: closing
 * any descriptor of a file drops every POSIX lock the process holds on it
 * (fcntl(2)), SQLite's too, and another connection would then take the
 * journal of the run being written for a hot one and roll it back.
 */
static void start_writeback(struct store *s)
{
	if (++s->batches % s->wb_every)
		return;
	if (s->wb_fd < 0)
		s->wb_fd = open(s->path, O_RDONLY | O_CLOEXEC);
	if (s->wb_fd >= 0)
		sync_file_range(s->wb_fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}

int store_events(struct store *s, const struct ingest_event *evs, int n)
{
	start_writeback(s);
	group_reserve(s, n);
	for (int k = 0; k < n; k++) {
		const struct ingest_event *ev = &evs[k];
		int i = ev->spec;

		if (count_event(s, ev)) {
			flush_groups_drop(s);
			return -1;
		}
		if (i >= 0 && call_spec(i)) {
			if (call_event(s, ev)) {
				flush_groups_drop(s);
				return -1;
			}
		} else if (i >= 0) {
			if (!s->ngroup[i])
				s->touched[s->ntouched++] = i;
			s->group[i][s->ngroup[i]++] = (uint32_t)k;
		} else if (insert_other(s, ev)) {
			flush_groups_drop(s);
			return -1;
		}
	}
	return flush_groups(s, evs);
}

int store_lost(struct store *s, int cpu, uint64_t ts_ns, int64_t count)
{
	sqlite3_stmt *st;

	if (prepare(s, &s->ins_lost, "INSERT INTO lost_events (run_id, cpu, ts_ns, count)"
				     " VALUES (?,?,?,?)"))
		return -1;
	st = s->ins_lost;
	sqlite3_bind_int64(st, 1, s->run_id);
	sqlite3_bind_int(st, 2, cpu);
	sqlite3_bind_int64(st, 3, (int64_t)ts_ns);
	if (count >= 0) {
		sqlite3_bind_int64(st, 4, count);
		s->lost_total += count;
	} else {
		sqlite3_bind_null(st, 4);
		s->lost_unknown++;
	}
	return step_done(s, st, "cannot insert lost events");
}

int store_task(struct store *s, int pid, const char *comm, int64_t first_ns, int64_t last_ns)
{
	sqlite3_stmt *st;

	/* OR IGNORE: a database made before the spans keeps its key (run_id,
	 * pid, comm), so a comm a pid has twice keeps its first span there */
	if (prepare(s, &s->ins_task, "INSERT OR IGNORE INTO task (run_id, pid, comm, first_ns,"
		    " last_ns) VALUES (?,?,?,?,?)"))
		return -1;
	st = s->ins_task;
	sqlite3_bind_int64(st, 1, s->run_id);
	sqlite3_bind_int(st, 2, pid);
	sqlite3_bind_text(st, 3, comm, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, first_ns);
	sqlite3_bind_int64(st, 5, last_ns);
	return step_done(s, st, "cannot insert task");
}

int store_task_span(struct store *s, const struct ingest_task_span *t)
{
	sqlite3_stmt *st = NULL;
	int ret;

	if (prepare(s, &st, "INSERT OR IGNORE INTO task (run_id, pid, comm, first_ns, last_ns,"
		    " comm_source) VALUES (?,?,?,?,?,?)"))
		return -1;
	sqlite3_bind_int64(st, 1, s->run_id);
	sqlite3_bind_int(st, 2, t->pid);
	sqlite3_bind_text(st, 3, t->comm, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, t->first_ns);
	sqlite3_bind_int64(st, 5, t->last_ns);
	sqlite3_bind_text(st, 6, t->source, -1, SQLITE_STATIC);
	ret = step_done(s, st, "cannot insert task");
	sqlite3_finalize(st);
	if (!ret && t->replaced && strcmp(t->replaced, t->comm)) {
		struct comm_rename r = { t->pid, vr_strdup(t->replaced), vr_strdup(t->comm),
					 t->replaced_until_ns };

		if (!s->renames)
			s->renames = g_array_new(FALSE, FALSE, sizeof(struct comm_rename));
		g_array_append_val(s->renames, r);
	}
	return ret;
}

static void renames_clear(struct store *s)
{
	for (guint i = 0; s->renames && i < s->renames->len; i++) {
		struct comm_rename *r = &g_array_index(s->renames, struct comm_rename, i);

		free(r->from);
		free(r->to);
	}
	if (s->renames)
		g_array_set_size(s->renames, 0);
}

/*
 * The derived rows that carry a task's comm, and the time it is of (the
 * row's begin, the event's time): what store_task_span() renames.
 */
static const struct {
	const char *table, *comm, *pid, *time;
} comm_rows[] = {
	{ "reclaim_stall", "comm", "pid", "coalesce(begin_ns, end_ns)" },
	{ "kswapd_cycle", "comm", "pid", "coalesce(wake_ns, last_activity_ns, nap_ns, sleep_ns)" },
	{ "kswapd_wakeup", "comm", "pid", "ts_ns" },
	{ "reclaim_throttle", "comm", "pid", "end_ns" },
	{ "slab_shrink_stored", "comm", "pid", "coalesce(begin_ns, end_ns)" },
	{ "reclaim_write", "comm", "pid", "ts_ns" },
	{ "kswapd_hopeless", "reset_comm", "reset_pid", "end_ns" },
};
_Static_assert(sizeof(comm_rows) / sizeof(comm_rows[0]) <=
	       sizeof(((struct store *)0)->renames_after) / sizeof(int64_t),
	       "a rowid bound per comm_rows table");

/*
 * When the open run begins (its old rows deleted): each comm_rows table's
 * largest rowid, 0 when it has none or is not there yet.  The run's rows
 * are inserted in its transaction, after that, and a rowid table gives a
 * new row the largest rowid plus one: every row of the run has a larger
 * one, and apply_renames() reads those only, not every run's (the tables
 * have no index by run).
 */
static void renames_mark(struct store *s)
{
	for (size_t t = 0; t < VR_ARRAY_SIZE(comm_rows); t++) {
		char *sql = sqlite3_mprintf("SELECT coalesce(max(rowid), 0) FROM main.\"%w\"",
					    comm_rows[t].table);
		sqlite3_stmt *st = NULL;

		s->renames_after[t] = 0;
		if (sql && sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) == SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW)
			s->renames_after[t] = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
		sqlite3_free(sql);
	}
}

/*
 * At the run's commit, before the sums (which take the task table's
 * comms): rows of a pid written under the saved cmdline up to the moment
 * the trace first named the pid get the name it showed (ingest-tasks.c).
 * Only the rows after renames_mark()'s rowids are read: the run's own.
 */
static int apply_renames(struct store *s)
{
	int ret = 0;

	for (guint i = 0; !ret && s->renames && i < s->renames->len; i++) {
		const struct comm_rename *r = &g_array_index(s->renames, struct comm_rename, i);

		for (size_t t = 0; !ret && t < VR_ARRAY_SIZE(comm_rows); t++) {
			sqlite3_stmt *st = NULL;
			char *sql = sqlite3_mprintf("UPDATE main.\"%w\" SET \"%w\" = ?1 WHERE run_id = ?2"
						    " AND \"%w\" = ?3 AND \"%w\" = ?4 AND %s <= ?5"
						    " AND rowid > ?6",
						    comm_rows[t].table, comm_rows[t].comm,
						    comm_rows[t].pid, comm_rows[t].comm,
						    comm_rows[t].time);

			ret = prepare(s, &st, sql);
			sqlite3_free(sql);
			if (ret)
				break;
			sqlite3_bind_text(st, 1, r->to, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 2, s->run_id);
			sqlite3_bind_int(st, 3, r->pid);
			sqlite3_bind_text(st, 4, r->from, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 5, r->until_ns);
			sqlite3_bind_int64(st, 6, s->renames_after[t]);
			ret = step_done(s, st, "cannot rename a task's rows");
			sqlite3_finalize(st);
		}
	}
	renames_clear(s);
	return ret;
}

int store_has_column(struct store *s, const char *table, const char *column)
{
	sqlite3_stmt *st;
	int n = -1;

	if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM pragma_table_info(?1) WHERE name = ?2",
			       -1, &st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot read the schema: %s", s->path, sqlite3_errmsg(s->db));
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, column, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0) > 0;
	sqlite3_finalize(st);
	return n < 0 ? vr_error("%s: cannot read the schema: %s", s->path, sqlite3_errmsg(s->db))
		     : n;
}

static int insert_count(struct store *s, sqlite3_stmt *st, const char *system,
			const char *name, uint64_t n)
{
	sqlite3_bind_int64(st, 1, s->run_id);
	sqlite3_bind_text(st, 2, system, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, (int64_t)n);
	return step_done(s, st, "cannot insert event count");
}

static int write_counts(struct store *s)
{
	sqlite3_stmt *st = NULL;
	GHashTableIter it;
	gpointer k, v;
	int ret = 0;

	if (prepare(s, &st, "INSERT INTO run_event_count (run_id, system, name, count)"
			    " VALUES (?,?,?,?)"))
		return -1;
	for (size_t i = 0; !ret && i < vr_event_specs_count; i++)
		if (s->spec_count[i] ||
		    (s->has_event && s->has_event(s->has_event_arg, vr_event_specs[i].system,
						  vr_event_specs[i].name, NULL) == 1))
			ret = insert_count(s, st, vr_event_specs[i].system, vr_event_specs[i].name,
					   s->spec_count[i]);
	g_hash_table_iter_init(&it, s->other_count);
	while (!ret && g_hash_table_iter_next(&it, &k, &v)) {
		char *colon = strchr(k, ':');

		*colon = '\0';
		ret = insert_count(s, st, k, colon + 1, *(uint64_t *)v);
		*colon = ':';
	}
	sqlite3_finalize(st);
	return ret;
}

static int update_run_row(struct store *s)
{
	sqlite3_stmt *st = NULL;

	if (prepare(s, &st, "UPDATE run SET first_ts_ns = ?, last_ts_ns = ?, event_count = ?,"
			    " lost_events = ?, lost_unknown = ? WHERE id = ?"))
		return -1;
	if (s->nevents) {
		sqlite3_bind_int64(st, 1, (int64_t)s->first_ts);
		sqlite3_bind_int64(st, 2, (int64_t)s->last_ts);
	}
	sqlite3_bind_int64(st, 3, (int64_t)s->nevents);
	sqlite3_bind_int64(st, 4, s->lost_total);
	sqlite3_bind_int(st, 5, s->lost_unknown);
	sqlite3_bind_int64(st, 6, s->run_id);
	int ret = step_done(s, st, "cannot update run");

	sqlite3_finalize(st);
	return ret;
}

int store_run_commit(struct store *s)
{
	if (!s->in_run)
		return vr_error("%s: no run is being loaded", s->path);
	if (store_slab_flush(s->slab, s->run_id) || store_lru_flush(s->lru) || write_counts(s) ||
	    update_run_row(s) || apply_renames(s) ||
	    store_sums_commit(s->db, s->path, s->sums, s->run_id, (int64_t)s->first_ts,
			      s->stall_pages, s->nstall_pages) ||
	    (s->before_commit && s->before_commit(s->before_commit_arg, s, s->run_id)) ||
	    store_exec(s, "COMMIT", "cannot commit")) {
		store_run_abort(s);
		return -1;
	}
	s->in_run = false;
	return 0;
}

void store_run_stall_pages(struct store *s, const struct model_stall_pages *rows, int n)
{
	if (n > (int)VR_ARRAY_SIZE(s->stall_pages))
		n = -1;
	for (int i = 0; i < n; i++)
		s->stall_pages[i] = rows[i];
	s->nstall_pages = n;
}

int store_run_shrink_buckets(struct store *s, int64_t run_id, int64_t *bucket_ns)
{
	*bucket_ns = 0;
	if (!s->in_run || !s->sums || run_id != s->run_id || !s->nevents)
		return 0;
	return store_sums_acc_buckets(s->sums, s->db, s->path, run_id, (int64_t)s->first_ts,
				      bucket_ns);
}

char *store_run_event_source(struct store *s, int64_t run_id, const char *event)
{
	char *sql = s->in_run && run_id == s->run_id ?
		    store_lru_run_select(s->lru, run_id, event) : NULL;
	struct vr_buf b;

	if (sql)
		return sql;
	vr_buf_init(&b);
	vr_buf_addf(&b, "\"%s\"", event);	/* an event's name: no quote in it */
	return vr_buf_detach(&b);
}

void store_rollback(struct store *s)
{
	sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	/* After a write that failed with SQLITE_FULL or SQLITE_IOERR, SQLite's
	 * pager is in its error state and leaves the rollback to the next read
	 * (the journal stays "hot", the file as large as it grew): read now, so
	 * that the journal is played back and deleted while this connection can
	 * write (a full disk: a load grown to fill it left the file at 21 MB
	 * and its journal beside it, which every read-only command refused;
	 * so did a schema upgrade that filled it). */
	sqlite3_exec(s->db, "SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL);
}

void store_run_abort(struct store *s)
{
	renames_clear(s);
	store_rollback(s);
	if (s->slab)
		store_slab_reset(s->slab, true);
	if (s->lru)
		store_lru_reset(s->lru);
	if (s->bulk)
		store_bulk_forget_comms(s->bulk);
	s->in_run = false;
}
