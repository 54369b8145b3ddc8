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
 * A sum over raw rows that the readers use (store-evidence.c): a TEMP view
 * of a loaded database, a table of an evidence database.
 */
struct store_sum {
	const char *name;
	const char *raw;	/* the raw table it reads */
	const char *sql;	/* its SELECT; "@." stands for the schema */
	bool evidence_only;	/* only a table of the evidence database (a
				 * loaded database's readers read the raw rows) */
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

/*
 * store_open_memory - a store on an empty in-memory database (URI file
 * names allowed, for ATTACH ... ?mode=ro), named @label in messages.
 * Returns it, or NULL after a message.
 */
struct store *store_open_memory(const char *label);

/*
 * store_sum_views - create the TEMP views of the sums over the raw tables
 * of @s that its main database does not hold as tables (store-evidence.c).
 * Returns 0, or -1 after a message.
 */
int store_sum_views(struct store *s);

#endif
