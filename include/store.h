/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store.h - the SQLite database: schema (generated from the event spec
 * table plus the fixed tables below), one transaction per loaded run, and
 * bound inserts.  The schema is a public interface (README.md "Schema").
 */
#ifndef VR_STORE_H
#define VR_STORE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "ingest.h"

/*
 * Bumped when a table or column changes incompatibly.  2: slab_shrink is a
 * view (store.c).  3: mm_shrink_slab_start and mm_shrink_slab_end are views
 * over shrink_call, one row per shrinker call, and shrinker
 * (src/store/store-slab.c).  4: the end's columns of shrink_call that
 * repeat the start's (end_cpu, end_shrinker_id, end_nid, end_memcg_id,
 * unused_scan) are in shrink_call_more, only for a call whose end differs
 * (end_own).  5: mm_vmscan_lru_isolate, mm_vmscan_lru_shrink_inactive and
 * mm_vmscan_lru_shrink_active are views over lru_call, one row per isolate
 * and the shrink of its task that follows it (src/store/store-lru.c), what
 * a recent kernel leaves NULL in lru_call_more.  6: slab_complete in
 * shrink_call_more, for a paired call only when not 1; a shrink's
 * nr_scanned (nr_taken) in lru_call only when not its isolate's.  7:
 * sched_switch, sched_wakeup and sched_waking are views over NAME_ids,
 * each comm once in comm (src/store/store-bulk.c).  A version 1 to 6
 * database is read as it is and brought to 7 inside the first write
 * transaction (store_write_begin()).
 */
#define VR_SCHEMA_VERSION 7

/*
 * PRAGMA application_id of a vmscan-report database ("VMSR"), set in the
 * transaction that creates or extends its schema: a file of another
 * program whose user_version happens to be one of ours is refused.  A
 * database made before the marker existed is recognised by its `run`
 * table and gets the marker at its next write (store.c check_version()).
 */
#define VR_APPLICATION_ID 0x564d5352

struct store;

enum store_open_flags {
	STORE_RDONLY = 0,	/* the database must exist */
	STORE_RW = 1,		/* create it and its schema if needed */
};

/**
 * store_open - open (and with STORE_RW create) the database at @path.
 * Returns the handle, or NULL after "vmscan-report: PATH: reason" (cannot
 * open or create; not a database, naming a trace.dat or text file given in
 * its place; another program's SQLite database; schema version from
 * another release; a rollback journal left by a killed writer that a
 * read-only open cannot roll back, with how to recover).
 * Close with store_close().
 */
struct store *store_open(const char *path, int flags);

/**
 * store_open_many - open the @n databases @paths (n >= 1) read-only as one
 * (src/store/store-many.c): each is checked as store_open() checks it, then all
 * are ATTACHed (at most 10, SQLite's limit) to an in-memory database whose
 * TEMP views of every table UNION ALL them.  The run ids of database k
 * are its own plus the highest run id of the databases before it (those
 * of the first are unchanged); a run whose content_sha256 an earlier
 * database holds is left out with its rows.  A table that one of them
 * lacks (the raw tables of an evidence database) is not there: a query of
 * it fails with "no such table".  @n 1 is store_open(STORE_RDONLY).
 * Returns the store (store_close()), or NULL after a message.
 */
struct store *store_open_many(const char *const *paths, int n);

/** store_close - finish statements and close; NULL is allowed. */
void store_close(struct store *s);

/**
 * store_rekey_runs - append " KERNEL" to run.content_sha256 of every run of
 * @kernel in @s (opened STORE_RW), so that the same file can be loaded
 * again as a run of another kernel: run.content_sha256 is UNIQUE, which is
 * how `load` refuses a file already loaded.  For `compare NAME=FILE`'s
 * temporary database, where one file may be given for two NAMEs (an A/A
 * comparison); a database the user keeps is never rekeyed.
 * Returns 0, or -1 after "DB: rekey the runs of a kernel: REASON".
 */
int store_rekey_runs(struct store *s, const char *kernel);

/** store_runs_count - the runs in @s (rows of its run table), or -1 when
 * they cannot be counted (no message: e.g. no run table yet). */
int64_t store_runs_count(struct store *s);

/** store_path - the path given to store_open(), borrowed. */
const char *store_path(struct store *s);

/* The run row written when a load starts (see the `run` table). */
struct store_run {
	const char *kernel;	/* label, e.g. "6.18.44-vanilla" */
	bool kernel_given;	/* the user chose the label (a replaced run keeps
				 * its own label otherwise) */
	int iteration;		/* >= 1; 0 means "next free for kernel" */
	const char *source_format;	/* "trace.dat" or "text" */
	const struct ingest_meta *meta;
	/* Is event @system:@event in the recording (its format stored in the
	 * trace.dat, or shown by the text)?  1 or 0 (model_config.has_field
	 * with a NULL field).  Each known event it is for gets a
	 * run_event_count row, with count 0 when none was recorded: "0 samples"
	 * can then be told from "not recorded".  NULL: only counted events. */
	int (*has_event)(void *arg, const char *system, const char *event, const char *field);
	void *has_event_arg;
	/* Called by store_run_commit() with the run's rows, counts and sums
	 * written, just before COMMIT (rows of its own into the same
	 * transaction: load's snapshots); non-zero aborts the run (it prints
	 * its message).  NULL: none. */
	int (*before_commit)(void *arg, struct store *s, int64_t run_id);
	void *before_commit_arg;
};

/**
 * store_find_run_by_hash - look a file's content up among loaded runs.
 * @run_id: OUT: the run id, or 0 if no run has that content hash.
 * Returns 0, or -1 on an SQLite error (message printed).
 */
int store_find_run_by_hash(struct store *s, const char *sha256, int64_t *run_id);

/**
 * store_run_begin - start the transaction of one run: delete @replace_run_id
 * (if non-zero) with all its rows but its imported app_latency rows, then
 * insert the run row.  A replaced run keeps its id, and its kernel label
 * and iteration unless @run sets them (kernel_given, iteration).
 * @run_id: OUT: the new run's id.  @iteration_out: OUT: iteration used.
 * Returns 0, or -1 (message printed; nothing changed).
 */
int store_run_begin(struct store *s, const struct store_run *run, int64_t replace_run_id,
		    int64_t *run_id, int *iteration_out);

/** store_event - insert one decoded event of the open run; 0 or -1. */
int store_event(struct store *s, const struct ingest_event *ev);

/**
 * store_events - insert the @n decoded events @evs (an array, read during
 * the call only) of the open run, as store_event() would one by one; the
 * events of each known spec go in with one statement (store-bulk.c), so
 * rows of one table keep the order of @evs.  0, or -1 after an error
 * message (some of the events may be in; the caller aborts the run).
 */
int store_events(struct store *s, const struct ingest_event *evs, int n);

/** store_lost - record lost events (count -1: unknown); 0 or -1. */
int store_lost(struct store *s, int cpu, uint64_t ts_ns, int64_t count);

/**
 * store_task - record that @pid had @comm from @first_ns to @last_ns (ns,
 * the trace's clock) in the open run: one row per span (the task table).
 * 0 or -1 after the message.
 */
int store_task(struct store *s, int pid, const char *comm, int64_t first_ns, int64_t last_ns);

/**
 * store_task_span - store_task() of span @t with its comm_source; when the
 * span's first rows were given the saved cmdline @t->replaced before the
 * trace named the pid (src/ingest/ingest-tasks.c), the run's derived rows
 * of that pid under it up to @t->replaced_until_ns (a stall's begin, an
 * event's time) get @t->comm at the run's commit, before the sums.  0 or
 * -1 after the message.
 */
int store_task_span(struct store *s, const struct ingest_task_span *t);

/**
 * store_has_column - 1 if @table (a table or TEMP view) has @column, 0 if
 * not (a database made before the column was added, and only read since),
 * -1 after the message.
 */
int store_has_column(struct store *s, const char *table, const char *column);

/**
 * store_run_commit - write the run's totals (event counts per type, first
 * and last timestamp, lost events), create missing indexes and commit.
 * Returns 0, or -1 after rolling back (message printed).
 */
int store_run_commit(struct store *s);

struct model_stall_pages;

/**
 * store_run_stall_pages - the open run's lru_shrink_stall rows as the model
 * counted them while the events streamed (model_stall_pages(), @n rows of
 * @rows, copied), written by store_run_commit() instead of its SQL pass
 * over the raw rows; @n -1 (the model could not: events out of order), or
 * no call: the SQL pass.  Valid for the open run only.
 */
void store_run_stall_pages(struct store *s, const struct model_stall_pages *rows, int n);

/**
 * store_run_shrink_buckets - for a before_commit of the open run @run_id:
 * its mm_vmscan_lru_shrink_inactive rows summed per pid, nid and time
 * bucket, counted as the events were stored, as TEMP table
 * vr_shrink_buckets (made or emptied; drop it when done) with the raw
 * table's columns run_id, pid, nid, ts_ns (the bucket's start: run.first_ts_ns
 * + k * *@bucket_ns), nr_scanned and nr_reclaimed (SQL's sum() of the rows:
 * NULL when none has a value).  *@bucket_ns: OUT, a power of ten, at most a
 * hundredth of the run's length; a sum of the raw rows over time spans
 * that begin at run.first_ts_ns plus multiples of it is the same sum over
 * these rows.  *@bucket_ns is 0, and there is no table, when the counts
 * could not be kept (an event earlier than the first came later: a text
 * trace out of order) or @run_id is not the open run: read the raw rows.
 * Returns 0, or -1 after a message.
 */
int store_run_shrink_buckets(struct store *s, int64_t run_id, int64_t *bucket_ns);

/**
 * store_run_event_source - for a before_commit of the open run @run_id:
 * what to read event table or view @event's rows of the run from, SQL to
 * put after FROM (malloc'ed; the caller frees it), with the table's
 * columns; filter it by run_id = @run_id still.  For the views over
 * lru_call (mm_vmscan_lru_isolate, mm_vmscan_lru_shrink_inactive,
 * mm_vmscan_lru_shrink_active; src/store/store-lru.c) a subquery of the
 * view's own SELECT over the lru_call ids the run's rows were given
 * (written into it as integers), so that reading the run's rows costs what
 * it holds, not what every run in the database holds (lru_call has no
 * index by run); otherwise, or when @run_id is not the open run, @event's
 * quoted name.
 */
char *store_run_event_source(struct store *s, int64_t run_id, const char *event);

/** store_run_abort - roll the open run back, leaving the database as it was. */
void store_run_abort(struct store *s);

/**
 * store_rollback - roll @s's open write transaction back (ROLLBACK), then
 * read the database once: after a write that failed with a full disk or an
 * I/O error SQLite's pager leaves the rollback to the next read, and the
 * journal stays hot until then (every read-only command refuses the file).
 * No error: a rollback that fails leaves the journal for the next writer.
 */
void store_rollback(struct store *s);

/**
 * store_run_kernel - the kernel label of the run last begun (borrowed; valid
 * until the next store_run_begin() or store_close()), "" before any.
 */
const char *store_run_kernel(struct store *s);

/**
 * store_run_events - the number of events stored in the run last begun (its
 * run.event_count once committed), 0 before any.
 */
uint64_t store_run_events(struct store *s);

/**
 * store_set_interrupt - make the schema work that store_write_begin() may
 * do on @s (an upgrade, or the first sums of an old database: minutes on a
 * large one) stop soon after *@flag becomes non-zero (a signal handler's
 * flag; NULL: never), by SQLite's progress handler: the begin then fails
 * ("interrupted", said) and is rolled back here.  Only that work: a write
 * once begun stops where its caller looks at the flag.  @flag must outlive
 * @s.
 */
void store_set_interrupt(struct store *s, const volatile sig_atomic_t *flag);

/**
 * store_run_from - is there a run @run_id loaded from @source_path (as the
 * load was given it)?  1 yes, 0 no, -1 after a message (an SQLite error).
 * Used by load's supervisor on a worker killed while committing a run.
 */
int store_run_from(struct store *s, int64_t run_id, const char *source_path);

/**
 * store_delete_run - delete run @run_id and every row that belongs to it
 * (raw, derived, task, lost, counts).  Must be called inside a transaction.
 * Returns 0 or -1.
 */
int store_delete_run(struct store *s, int64_t run_id);

/**
 * store_remove_runs - remove runs @ids[0..@n-1] (their run rows and every
 * row of theirs in every table with a run_id, imported latencies too) in one
 * write transaction of @s (opened STORE_RW).  A run that is not there is an
 * error and nothing is removed.  Returns 0, or -1 after a message (the
 * database unchanged).
 */
int store_remove_runs(struct store *s, const int64_t *ids, size_t n);

/**
 * store_write_begin - BEGIN IMMEDIATE a write transaction on @s (opened
 * STORE_RW), which also upgrades a version 1 database: the upgrade commits
 * or rolls back with the caller's writes.  Returns 0, or -1 after an error
 * message (nothing begun).
 */
int store_write_begin(struct store *s);

/**
 * store_exec - run SQL text without parameters (schema, pragmas).
 * Returns 0 or -1 with "vmscan-report: DB: what: sqlite message".
 */
int store_exec(struct store *s, const char *sql, const char *what);

struct ingest_latency;

/**
 * store_import_app_latency - store imported application latencies @lat as
 * the app_latency rows of run (@kernel, @iteration), in one transaction:
 * the run's earlier app_latency rows are replaced; when no run exists it is
 * created with source_format 'latency', source_path @path and content hash
 * @sha256 (no events).  @iteration 0 picks the kernel's lowest iteration
 * without app_latency rows, else the next free one.  Each row keeps the
 * sample's unit and @sha256 (source_sha256).  Contents @sha256 already
 * imported for @kernel (a row's source_sha256, or the latency-only run made
 * from them) are refused, naming that run, unless @replace: then they go to
 * that run again, or to (@kernel, @iteration) when @iteration names another
 * run, leaving the old one (deleted if it held nothing else), as `load
 * --replace` does for a trace.
 * @run_id, @iteration_out: OUT.  @created: OUT: 1 if the run row was new.
 * Returns 0, or -1 (message printed; the database is unchanged).
 */
int store_import_app_latency(struct store *s, const char *kernel, int iteration,
			     const char *path, const char *sha256,
			     const struct ingest_latency *lat, bool replace, int64_t *run_id,
			     int *iteration_out, int *created);

/*
 * Derived rows of the run being loaded (src/store/store-derived.c), written by
 * the model through a struct model_sink inside the run's transaction.
 *
 * Each derived table is described once, by a column table: a column is a
 * field of the model's row struct (include/model.h), named as the field,
 * its C type read from the struct (so its SQL type follows), where it is
 * (offsetof) and whether SQL may hold NULL there.  The CREATE TABLE text,
 * the INSERT with its binds, and the deferred queue's copy are all made
 * from it; README.md "Derived columns" lists the same columns (checked by
 * tests/unit/test-store-derived.c).
 */
struct model_sink;
struct store_derived;

/* C type of a derived column, and how it is bound. */
enum store_ctype {
	STORE_C_INT,	/* int: INTEGER, always a value */
	STORE_C_I64,	/* int64_t: INTEGER, MODEL_NULL is stored as NULL */
	STORE_C_BOOL,	/* bool: INTEGER 0 or 1 */
	STORE_C_TEXT,	/* const char *: TEXT, a NULL pointer is stored as NULL */
};

struct store_column {
	const char *name;	/* SQL column = field of the row struct */
	enum store_ctype ctype;
	size_t offset;		/* offsetof(row struct, field) */
	bool nullable;		/* false: NOT NULL in the schema */
	const char *dflt;	/* DEFAULT value in the schema, or NULL */
};

struct store_derived_table {
	const char *name;
	size_t row_size;		/* sizeof(row struct) */
	const struct store_column *cols;	/* in schema order, after run_id */
	int ncols;
	const char *constraint;		/* table constraint ("PRIMARY KEY (...)") or NULL */
	bool replace;			/* INSERT OR REPLACE (a keyed table) */
};

/*
 * The derived tables, in creation order: reclaim_stall, kswapd_cycle,
 * kswapd_wakeup, pgdat_flag, reclaim_throttle, slab_shrink_stored,
 * reclaim_write, run_quality.  Every table starts with run_id (not in cols).
 */
extern const struct store_derived_table store_derived_tables[];
extern const int store_derived_tables_count;

/** store_sql_type - "INTEGER" or "TEXT" for @ctype. */
const char *store_sql_type(enum store_ctype ctype);

/**
 * store_derived_open - inserter of derived rows for run @run_id of @s (the
 * run must be open: between store_run_begin() and store_run_commit()).
 * Statements are prepared on first use.  Never fails; close with
 * store_derived_close() before store_run_commit()/store_run_abort().
 */
struct store_derived *store_derived_open(struct store *s, int64_t run_id);

/**
 * store_derived_sink - fill @sink (OUT) with callbacks inserting into
 * reclaim_stall, kswapd_cycle, kswapd_wakeup, pgdat_flag, reclaim_throttle,
 * slab_shrink, reclaim_write and run_quality; each returns 0 or -1 after
 * "vmscan-report: DB: cannot insert into TABLE: reason".
 */
void store_derived_sink(struct store_derived *d, struct model_sink *sink);

/**
 * store_derived_defer - from now on the sink's callbacks only queue rows
 * (thread-safe; strings copied), for a model running on another thread;
 * store_derived_flush() inserts them on the store's thread.
 */
void store_derived_defer(struct store_derived *d);

/**
 * store_derived_set_run - the run the rows belong to, when @d was opened
 * (deferred) before the run began; only rows flushed afterwards use it.
 */
void store_derived_set_run(struct store_derived *d, int64_t run_id);

/**
 * store_derived_flush - insert the rows @d has queued or buffered, in the
 * order they came, on the store's thread; call it before
 * store_run_commit().  0, or -1 after an error message.
 */
int store_derived_flush(struct store_derived *d);

/** store_derived_close - finalize the statements and free @d (dropping rows
 * not flushed); NULL is allowed. */
void store_derived_close(struct store_derived *d);

/*
 * The evidence database (src/store/store-evidence.c, README.md "Evidence
 * database"): a copy of a database without its raw event tables, marked
 * by a table `evidence` (source_path: the database it was made from).
 * What the reports read of the raw rows is summed into tables of the same
 * name as the TEMP views store_open() makes over the raw rows of a loaded
 * database: lru_isolate_pages, lru_shrink_pages, lru_shrink_stall,
 * kswapd_wake_node, and (evidence only) lru_reclaim_ms.
 */

/**
 * store_evidence_write - write the evidence database of @s to @path, which
 * must not exist (SQLite's VACUUM INTO makes it; the caller removes it on
 * failure).  Of one database, only what evidence holds is read: its tables
 * but the raw ones are copied (schema from its sqlite_master, then rows)
 * into a private temporary database of SQLite's (unlinked once open, so
 * nothing is left behind by a crash) in one transaction, then VACUUMed
 * into @path; several databases read as one (store_open_many()) are copied
 * from their TEMP views.  @sources: the @nsources names of @s's databases
 * (one, or each of several read as one), a row each of its table evidence
 * (borrowed).  The copy
 * keeps @s's application_id and user_version.  Returns 0, or -1 after
 * "vmscan-report: PATH: what failed: sqlite's reason".
 */
int store_evidence_write(struct store *s, const char *path, const char *const *sources,
			 int nsources);

/**
 * store_is_evidence - 1 if @s is an evidence database (its table evidence
 * with source_path, and no raw table other_event), 0 if not, -1 after a
 * message.
 */
int store_is_evidence(struct store *s);

/**
 * store_data_version - SQLite's data_version of every database of @s (one,
 * or each attached by store_open_many()), as "V" or "V0,V1,...": it changes
 * when another connection commits to one of them (sqlite.org/pragma.html
 * #pragma_data_version), so two equal values around a series of reads
 * prove that every read in between, by any connection, saw one state.
 * Returns a malloc'ed string, or NULL after a message.
 */
char *store_data_version(struct store *s);

/**
 * store_own_object - 1 if @name is a table, view or index vmscan-report's
 * schema makes (the fixed, derived, event and latency tables, the sums,
 * evidence's mark, their indexes and the slab_shrink view), 0 if not (a
 * user's own object), -1 after a message.  The list is the schema itself,
 * made once on an in-memory database.
 */
int store_own_object(const char *name);

/**
 * store_own_column - 1 if @column is a column vmscan-report's schema gives
 * its table or view @table (store_own_object()'s list, made from the same
 * in-memory schema: the columns of today's schema, those that upgrades add
 * included), 0 if not (a column a user added, e.g. by ALTER TABLE ADD
 * COLUMN, or @table is not ours), -1 after a message.  The sums'
 * tables (store_sums[]) are made in evidence.db itself and not listed.
 */
int store_own_column(const char *table, const char *column);

/**
 * store_has_table - 1 if the main database of @s has table @name (several
 * databases read as one, store_open_many(): the TEMP view of that name),
 * 0 if not (a view of the main database is not a table), -1 after a
 * message.
 */
int store_has_table(struct store *s, const char *name);

#endif /* VR_STORE_H */
