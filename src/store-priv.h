/* SPDX-License-Identifier: GPL-2.0 */
/*
 * store-priv.h - inside the store module: bulk inserts of events through
 * the vr_rows virtual table (store-bulk.c) and the derived tables' schema
 * (store-derived.c), used by store.c.
 */
#ifndef VR_STORE_PRIV_H
#define VR_STORE_PRIV_H

#include "ingest.h"
#include "spec.h"

#include <sqlite3.h>
#include <stdint.h>

struct store;
struct store_bulk;

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
 * store_derived_create - create the derived tables that are missing, from
 * their column tables (store-derived.c), inside the open transaction.
 * Returns 0, or -1 after "vmscan-report: DB: cannot create schema: why".
 */
int store_derived_create(struct store *s);

/*
 * store_sum_views - create the TEMP views of the sums over the raw tables
 * of @s that its main database does not hold as tables (store-evidence.c).
 * Returns 0, or -1 after a message.
 */
int store_sum_views(struct store *s);

#endif
