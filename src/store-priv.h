/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store-priv.h - inside the store module: bulk inserts through the
 * vr_rows virtual table (store-bulk.c), used by store.c and
 * store-derived.c.
 */
#ifndef VR_STORE_PRIV_H
#define VR_STORE_PRIV_H

#include "ingest.h"
#include "spec.h"

#include <sqlite3.h>
#include <stdint.h>

struct store;
struct store_bulk;

/* Set column @col (0-based, as c0, c1, ... of vr_rows) of row @row of
 * @src with sqlite3_result_*(); text must live until the statement ends. */
typedef void store_rows_column_fn(const void *src, int row, int col, sqlite3_context *ctx);

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
 * store_rows_run - step @st, an INSERT ... SELECT c0, c1, ... FROM vr_rows
 * prepared on the store's connection, with vr_rows showing @n rows of
 * @src through @column, then reset it.  Returns SQLite's result code of
 * the step (SQLITE_DONE on success).
 */
int store_rows_run(struct store_bulk *b, sqlite3_stmt *st, int n, store_rows_column_fn *column,
		   const void *src);

/* store_bulk - the bulk inserter of @s's connection (NULL when read-only). */
struct store_bulk *store_bulk(struct store *s);

#endif
