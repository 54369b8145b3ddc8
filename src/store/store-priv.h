/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store-priv.h - inside the store module: bulk inserts of events through
 * the vr_rows virtual table (store-bulk.c), and the schema described as
 * data with the statements run on a bare connection (store-schema.c).
 * Layers, lowest first (make check-layers checks that no store*.c file
 * calls one above it): store-schema.c and store-bulk.c; store.c (the
 * connection, the event tables, runs); store-derived.c, store-evidence.c,
 * store-many.c, store-latency.c, store-query.c.
 */
#ifndef VR_STORE_PRIV_H
#define VR_STORE_PRIV_H

#include "ingest.h"
#include "spec.h"

#include <sqlite3.h>
#include <stdint.h>

struct store;
struct store_bulk;

/* After SQLite's "database is locked" (SQLITE_BUSY once the 10 s busy
 * timeout of store_open() ran out): who holds the lock, what to do. */
#define STORE_BUSY_HINT " (another program held its lock for 10 s: a load, rm or schema" \
	" upgrade of vmscan-report, or another program reading or writing it, such as an" \
	" sqlite3 session; try again when it is done)"

/*
 * store_bulk_new - register the eponymous virtual table vr_event_rows on
 * @db (borrowed; must outlive the result).  Returns the bulk inserter
 * (owned; free with store_bulk_free() before closing @db), or NULL after
 * an error message.
 */
struct store_bulk *store_bulk_new(sqlite3 *db);

/* store_bulk_free - finalize its statements and free it; NULL is fine. */
void store_bulk_free(struct store_bulk *b);

/*
 * store_bulk_insert - insert the @n events evs[idx[0]], ..., evs[idx[n-1]]
 * (all of spec @spec, in that order) into the spec's table as rows of run
 * @run_id, with one INSERT ... SELECT.  The events are read during the
 * call only.  Returns 0, or -1 after an error message.
 */
int store_bulk_insert(struct store_bulk *b, int spec, int64_t run_id,
		      const struct ingest_event *evs, const uint32_t *idx, int n);

/*
 * Comms (schema version 7): the text fields of an event (the comms of
 * sched_switch, sched_wakeup and sched_waking, spec.c) are stored once
 * each in table comm (id, comm) and named by id in the event's table
 * NAME STORE_COMM_SUFFIX, as the column FIELD_id; NAME is a view with the
 * columns and values of the table it was before.
 * store_comm_spec - has spec @spec such fields?
 * store_bulk_comm_id - the id of @comm in comm, added when new (a cache of
 *   @b keeps those seen); 0 or -1 after a message.
 * store_bulk_forget_comms - forget the cache (its transaction was rolled
 *   back: the ids it added are gone).
 */
#define STORE_COMM_SUFFIX "_ids"
bool store_comm_spec(int spec);
int store_bulk_comm_id(struct store_bulk *b, const char *comm, int64_t *id);
void store_bulk_forget_comms(struct store_bulk *b);

/*
 * store_bulk_column_fn - the value of column @col (0, 1, ...) of row @row
 * (0 to n - 1) of the caller's rows, given to @ctx with
 * sqlite3_result_int64(), _text() (SQLITE_STATIC: valid until the insert
 * returns) or _null().
 */
typedef void store_bulk_column_fn(const void *arg, int row, int col, sqlite3_context *ctx);

/*
 * store_bulk_prepare - the INSERT of rows of @ncols columns into table
 * @table of main: @columns are its column names, comma-separated and
 * quoted as needed, in the order of the rows' columns (the table's own
 * order lets SQLite build the record where the SELECT writes it).
 * Returns the statement (owned: sqlite3_finalize()), or NULL after a
 * message (also when @ncols is more than vr_rows has).
 * store_bulk_insert_rows - run @st (made by store_bulk_prepare() on @b)
 * once over @n rows whose values @column gives (called during the insert
 * only, with @arg); returns SQLite's result code of the step (SQLITE_DONE
 * on success), no message.
 */
sqlite3_stmt *store_bulk_prepare(struct store_bulk *b, const char *table, const char *columns,
				 int ncols);
int store_bulk_insert_rows(struct store_bulk *b, sqlite3_stmt *st, int n,
			   store_bulk_column_fn *column, const void *arg);

/* The derived tables, indexes into store_derived_tables[]. */
enum { SD_STALL, SD_CYCLE, SD_WAKEUP, SD_FLAG, SD_THROTTLE, SD_SLAB, SD_WRITE, SD_HOPELESS, SD_QUALITY,
       SD_COUNT };

/* A run_quality row (the model's sink passes its three values as arguments). */
struct quality_row {
	const char *item;
	int64_t count;
	const char *detail;
};

struct vr_buf;

/*
 * store_sql_name - append column name @name to @b, in double quotes if it
 * is an SQL keyword ("order", sqlite3_keyword_check()).
 */
void store_sql_name(struct vr_buf *b, const char *name);

/*
 * store_derived_schema_sql - the CREATE TABLE IF NOT EXISTS text of every
 * derived table, from its column table, in store_derived_tables[] order.
 * Returns a malloc'ed string.
 */
char *store_derived_schema_sql(void);

/*
 * store_sqlite_exec - run SQL text without parameters on @db (the database
 * @path, named in messages).  Returns 0, or -1 after
 * "vmscan-report: PATH: what: sqlite message".
 */
int store_sqlite_exec(sqlite3 *db, const char *path, const char *sql, const char *what);

/*
 * store_sqlite_has - 1 if schema @schema ("main", "temp", "db0") of @db has
 * an object @name of @type ("table", "view"; NULL: a table or a view), 0 if
 * not, -1 when the schema cannot be read (no message: sqlite3_errmsg(@db)).
 */
int store_sqlite_has(sqlite3 *db, const char *schema, const char *name, const char *type);

/*
 * store_sqlite_has_column - whether table @table of schema @schema ("main",
 * "db0"; NULL: main) of @db has a column @column (PRAGMA table_info); false
 * also when the schema cannot be read (no message).
 */
bool store_sqlite_has_column(sqlite3 *db, const char *schema, const char *table, const char *column);

/*
 * A sum over raw rows that the readers use (store-schema.c): a TEMP view
 * of a loaded database, a table of an evidence database.
 */
struct store_sum {
	const char *name;
	const char *raw;	/* the raw table it reads */
	const char *sql;	/* its SELECT; "@." stands for the schema */
	const char *columns;	/* its table's columns (CREATE TABLE), NULL
				 * for evidence_only */
	bool evidence_only;	/* only a table of the evidence database (a
				 * loaded database's readers read the raw rows) */
	bool counted;		/* written by store-sums.c's counts, not by
				 * its SQL, at a load's commit */
};
extern const struct store_sum store_sums[];
extern const size_t store_sums_count;

/*
 * store_sum_sql - @v's SELECT reading the tables of @schema ("db1"), or
 * unqualified for NULL (main), in @db: the comm of a row at its time when
 * that task table has spans (first_ns), else the pid's one comm.  Returns
 * a malloc'ed string.
 */
char *store_sum_sql(const struct store_sum *v, sqlite3 *db, const char *schema);

/* store_sum_run_sql - as store_sum_sql() on main, of the rows of the run
 * bound to ?1 (only of its pids with several task spans if @many_comms). */
char *store_sum_run_sql(const struct store_sum *v, sqlite3 *db, bool many_comms);

/*
 * The sums of a run being loaded (store-sums.c): counts kept as its events
 * are stored, written with the other sums at its commit.
 * store_sums_acc_new - an empty accumulator (owned; store_sums_acc_free()).
 * store_sums_acc_event - count event @ev (read during the call only) of a
 *   run whose first event so far is at @first_ns;
 *   returns 1 when the counts should be written out (store_sums_acc_write())
 *   to keep memory flat, else 0.
 * store_sums_acc_write - insert the counts as rows of run @run_id into
 *   @db's slab_shrink_ns and empty them; 0 or -1 after a message.
 * store_sums_acc_reset - empty them (a new run, or one rolled back).
 * store_sums_acc_buckets - the run's mm_vmscan_lru_shrink_inactive rows
 *   summed per pid, nid and time bucket (the counts are kept from the
 *   run's events until store_sums_acc_reset(), past store_sums_commit()),
 *   into TEMP table vr_shrink_buckets of @db (made or emptied) as rows of
 *   run @run_id whose first event is at @first_ns: see store_run_shrink_buckets()
 *   (store.h); *@bucket_ns 0 and no table when the counts are not from
 *   @first_ns on.  0 or -1 after a message (@path in it).
 * store_sums_create - create the tables of the sums missing from @db
 *   (opened as @path, named in messages), filled from the runs it already holds, and the indexes of
 *   derived tables the readers use, in the open write transaction; 0 or -1
 *   after a message.
 * store_sums_commit - write run @run_id's sums into @db (@path for messages;
 *   from @a and from its rows; @first_ns: its first event), before its
 *   commit; lru_shrink_stall from the @nstall rows @stall the model counted
 *   (model_stall_pages()), or when @nstall is -1 by SQL over the run's rows;
 *   0 or -1 after a message.
 * Both work on the bare connection, so store-sums.c is below store.c and
 * never calls back into it (make check-layers).
 */
struct store_sums_acc;
struct store_sums_acc *store_sums_acc_new(void);
void store_sums_acc_free(struct store_sums_acc *a);
int store_sums_acc_event(struct store_sums_acc *a, const struct ingest_event *ev,
			 int64_t first_ns);
int store_sums_acc_write(struct store_sums_acc *a, sqlite3 *db, int64_t run_id);
void store_sums_acc_reset(struct store_sums_acc *a);
int store_sums_acc_buckets(struct store_sums_acc *a, sqlite3 *db, const char *path,
			   int64_t run_id, int64_t first_ns, int64_t *bucket_ns);
int store_sums_create(sqlite3 *db, const char *path);
struct model_stall_pages;
int store_sums_commit(sqlite3 *db, const char *path, struct store_sums_acc *a, int64_t run_id,
		      int64_t first_ns, const struct model_stall_pages *stall, int nstall);

/*
 * store-slab.c: the shrinker calls, one row of shrink_call per call (its
 * mm_shrink_slab_start and _end as the model paired them), the shrinker
 * named by an id of the table shrinker (schema version 3; 4: the end's
 * columns that repeat the start's in shrink_call_more, where they differ;
 * 6: slab_complete there too, for a paired call only when not 1).
 *
 * store_slab_spec - is @spec mm_shrink_slab_start or mm_shrink_slab_end?
 * store_slab_schema_sql - the CREATE statements of shrinker and
 *   shrink_call (@views false) or of the views mm_shrink_slab_start and
 *   mm_shrink_slab_end over them (@views true); malloc'ed.
 * store_slab_upgrade_sql - the statements that move the rows of a
 *   version 1 or 2 database's tables, renamed vr_v2_slab_start and
 *   vr_v2_slab_end, or (@version 3) of shrink_call and shrink_call_more,
 *   renamed vr_v3_call and vr_v3_more, or (@version 4, 5) renamed
 *   vr_v5_call and vr_v5_more, into them, and drop those (malloc'ed).
 * store_slab_new - the writer of @db's calls (@path in messages); NULL
 *   after a message.  store_slab_free() frees it (NULL is fine).
 * store_slab_event - one event of either spec, in the order the model saw
 *   it, of run @run_id: a start waits for its end; 0 or -1 after a message.
 * store_slab_flush - write the starts still waiting (the run's end), in
 *   time order; 0 or -1.
 * store_slab_reset - forget the waiting starts (a run begins or is rolled
 *   back; @rolled_back: the shrinker ids of the transaction too).
 */
bool store_slab_spec(int spec);
char *store_slab_schema_sql(bool views);
char *store_slab_upgrade_sql(int version);
struct store_slab;
struct store_slab *store_slab_new(sqlite3 *db, const char *path, struct store_bulk *bulk);
void store_slab_free(struct store_slab *s);
int store_slab_event(struct store_slab *s, int64_t run_id, const struct ingest_event *ev);
int store_slab_flush(struct store_slab *s, int64_t run_id);
void store_slab_reset(struct store_slab *s, bool rolled_back);

/*
 * store-lru.c: the LRU list calls, one row of lru_call per
 * mm_vmscan_lru_isolate and the mm_vmscan_lru_shrink_inactive or _active of
 * its task that follows it (schema version 5; 6: a shrink's count that
 * repeats its isolate's not stored), the three events' views over it in
 * the order their events were stored.
 *
 * store_lru_spec - is @spec one of the three?
 * store_lru_schema_sql - the CREATE statements of lru_call and
 *   lru_call_more (@views false) or of the three views over them (@views
 *   true); malloc'ed.
 * store_lru_event_name, store_lru_v4_table - the name of event @i (0
 *   isolate, 1 shrink_inactive, 2 shrink_active; NULL past them) and the
 *   name its version 1-4 table is renamed to before an upgrade.
 * store_lru_new - the writer of @db's calls (@path in messages; @bulk
 *   borrowed); NULL after a message.  store_lru_free() frees it (NULL is
 *   fine).
 * store_lru_event - one event of the three, in the order the store got it,
 *   of run @run_id; 0 or -1 after a message.
 * store_lru_flush - write the rows still waiting (the run's end); 0 or -1.
 * store_lru_reset - forget the rows waiting (a run begins or is rolled
 *   back) and stop store_lru_track()'s count.
 * store_lru_track - from now on keep the first and last id of lru_call
 *   of the rows of run @run_id that @w writes (the open run, begun after
 *   its old rows were deleted: then they hold every row of it).
 * store_lru_run_select - for the tracked run @run_id with no row waiting
 *   (after store_lru_flush()): a parenthesised SELECT of view @event's
 *   columns (one of the three events' names) over the rows of lru_call
 *   between the run's first and last id only: the view's own SELECT and
 *   the id range, so every row of the run's the view has, in the view's
 *   order (filter it by run_id still); malloc'ed.  NULL when not known
 *   (another run, another event, rows waiting): read the view.
 * store_lru_upgrade_v5_sql - the statements that bring a version 5
 *   database's lru_call to version 6 in place (ids and rows kept): a
 *   shrink's count that repeats its isolate's set NULL, one the shrink
 *   lacked flagged in lru_call_more; then the three views dropped, to be
 *   made again; malloc'ed.
 * store_lru_upgrade - the rows of the renamed version 1-4 tables
 *   (store_lru_v4_table()) into lru_call through @w, each table's rows in
 *   their order, and drop those; in the open write transaction; 0 or -1
 *   after a message.
 */
bool store_lru_spec(int spec);
char *store_lru_schema_sql(bool views);
const char *store_lru_event_name(int i);
const char *store_lru_v4_table(int i);
struct store_lru;
struct store_lru *store_lru_new(sqlite3 *db, const char *path, struct store_bulk *bulk);
void store_lru_free(struct store_lru *w);
int store_lru_event(struct store_lru *w, int64_t run_id, const struct ingest_event *ev);
int store_lru_flush(struct store_lru *w);
void store_lru_reset(struct store_lru *w);
void store_lru_track(struct store_lru *w, int64_t run_id);
char *store_lru_run_select(const struct store_lru *w, int64_t run_id, const char *event);
char *store_lru_upgrade_v5_sql(void);
int store_lru_upgrade(struct store_lru *w);

/*
 * store_open_memory - a store on an empty in-memory database (URI file
 * names allowed, for ATTACH ... ?mode=ro), named @label in messages.
 * Returns it, or NULL after a message.
 */
struct store *store_open_memory(const char *label);

/*
 * store_sums_make - make each of store_sums[] that the main database of
 * @db (the database @path, named in messages) does not hold as a table,
 * from the raw tables of schema @from (NULL: main):
 * with @tables false, a TEMP view over its raw table when that table is
 * there (none of an evidence_only sum: a loaded database's readers read
 * the raw rows); with @tables true, a table of main (an evidence
 * database being made; a sum with neither its table nor its raw table is
 * then an error).  Returns 0, or -1 after a message.
 */
int store_sums_make(sqlite3 *db, const char *path, bool tables, const char *from);

/** store_db - the SQLite handle of @s, borrowed; valid until store_close().
 * Only for the store's own files (and its unit tests): the rest of the
 * program goes through store.h and store-query.h. */
sqlite3 *store_db(struct store *s);

#endif
