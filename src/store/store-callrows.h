/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store-callrows.h - the merged call rows that store-lru.c (lru_call, an
 * isolate and its shrink) and store-slab.c (shrink_call, a shrinker
 * start and its end) write: a row of the call table and, where one of its
 * rare columns holds a value, a row of its _more table (call_id = id,
 * run_id, the rare columns).  The caller lays out the columns and pairs
 * the events; this module holds the rows waiting and inserts them
 * through store-bulk.c (one INSERT ... SELECT per batch).
 */
#ifndef VR_STORE_CALLROWS_H
#define VR_STORE_CALLROWS_H

#include "store-priv.h"

#include <stdbool.h>
#include <stdint.h>

/* Columns of a call table and its _more table at most (a row's NULL mask
 * is a uint64_t). */
#define CALLROWS_MAX_COLS 64

/* A column of the caller's layout, as the inserts see it. */
struct callrows_col {
	const char *name;	/* borrowed from the caller's layout */
	bool more;		/* a column of the _more table */
	bool marks_more;	/* a value here gives the row a _more row */
	int extra;		/* text from a row's extra[extra]; -1: an integer */
};

/*
 * One row of the call table and its _more row: column c is v[c] when bit
 * c of have is set, else NULL; the extras (JSON text, owned) are the
 * columns whose extra is 0 or 1.
 */
struct callrow {
	uint64_t have;
	int64_t v[CALLROWS_MAX_COLS];
	char *extra[2];		/* the first event's, the second's; NULL: none */
	bool more;		/* a value in a column of the _more table */
};

/* The columns of one of the two INSERTs (of rows[0..n)). */
struct callrows_insert {
	const struct callrows *cr;
	int cols[CALLROWS_MAX_COLS];	/* its column k: the layout's column */
	int ncols;
	const int *rows;		/* its row r: cr->rows[rows[r]]; NULL: r */
	sqlite3_stmt *st;
};

/* The rows waiting and the two inserts of one call table. */
struct callrows {
	sqlite3 *db;
	const char *path;	/* borrowed, for messages */
	struct store_bulk *bulk;	/* borrowed */
	const char *table, *more_table, *what;	/* static strings */
	struct callrows_col col[CALLROWS_MAX_COLS];
	int ncols, id_col, run_col;
	struct callrow *rows;	/* waiting, in id order: cap of them */
	int nrows, cap;
	int *more_rows;		/* indexes of the rows with a _more row */
	struct callrows_insert ins, ins_more;
};

/*
 * callrows_init - @cr for table @table and @more_table of @db (@what, e.g.
 *   "LRU calls", in messages after "cannot insert"; the three static),
 *   with room for @cap rows; @path and @bulk are borrowed.  The caller
 *   then fills col[0..ncols), id_col and run_col (its layout) and calls
 *   callrows_plan().  No error (allocation failure aborts, vr_calloc()).
 * callrows_plan - the two inserts' columns from col[]: the call table's
 *   columns but id (SQLite gives each row the largest id plus one), and
 *   call_id, run_id and the _more columns.
 * callrows_fini - free the rows waiting, unwritten, and the statements.
 */
void callrows_init(struct callrows *cr, sqlite3 *db, const char *path, struct store_bulk *bulk,
		   const char *table, const char *more_table, const char *what, int cap);
void callrows_plan(struct callrows *cr);
void callrows_fini(struct callrows *cr);

/*
 * callrow_begin - @r empty: every column NULL, no extras (those it had
 *   must be freed or moved first).
 * callrow_set - column @col of @r is @v (an integer: ns, a count, an id;
 *   the caller's unit); marks the row for a _more row when the column's
 *   marks_more says so.
 * callrow_clear - free @r's extras.
 */
void callrow_begin(struct callrow *r);
void callrow_set(const struct callrows *cr, struct callrow *r, int col, int64_t v);
void callrow_clear(struct callrow *r);

/*
 * callrows_insert - insert rows[0..@n) into the call table, and their
 *   _more rows (call_id set to each row's new id); *@first_id is the id
 *   of rows[0] (meaningful when 0 is returned).  The rows stay waiting:
 *   callrows_shift() drops them.  0, or -1 after a message.
 * callrows_shift - free rows[0..@n) (written or not) and move the rest to
 *   the front.
 * callrows_drop - free every row waiting, unwritten.
 */
int callrows_insert(struct callrows *cr, int n, int64_t *first_id);
void callrows_shift(struct callrows *cr, int n);
void callrows_drop(struct callrows *cr);

#endif
