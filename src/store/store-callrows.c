// SPDX-License-Identifier: GPL-2.0
/*
 * store-callrows.c - the merged call rows of store-lru.c and store-slab.c
 * waiting to be written, and their two INSERT ... SELECT (store-bulk.c):
 * store-callrows.h.
 */
#include "store-callrows.h"
#include "vr.h"

#include <stdlib.h>
#include <string.h>

void callrows_init(struct callrows *cr, sqlite3 *db, const char *path, struct store_bulk *bulk,
		   const char *table, const char *more_table, const char *what, int cap)
{
	memset(cr, 0, sizeof(*cr));
	cr->db = db;
	cr->path = path;
	cr->bulk = bulk;
	cr->table = table;
	cr->more_table = more_table;
	cr->what = what;
	cr->cap = cap;
	cr->rows = vr_calloc((size_t)cap, sizeof(*cr->rows));
	cr->more_rows = vr_calloc((size_t)cap, sizeof(*cr->more_rows));
}

/* The insert of the call table (@more false: its columns but id) or of
 * the _more table (id and run_id as call_id and run_id, then its own). */
static void plan_insert(struct callrows *cr, struct callrows_insert *ins, bool more)
{
	ins->cr = cr;
	ins->ncols = 0;
	if (more) {
		ins->cols[ins->ncols++] = cr->id_col;
		ins->cols[ins->ncols++] = cr->run_col;
	}
	for (int c = 0; c < cr->ncols; c++)
		if (cr->col[c].more == more && c != cr->id_col)
			ins->cols[ins->ncols++] = c;
}

void callrows_plan(struct callrows *cr)
{
	plan_insert(cr, &cr->ins, false);
	plan_insert(cr, &cr->ins_more, true);
}

void callrows_fini(struct callrows *cr)
{
	callrows_drop(cr);
	sqlite3_finalize(cr->ins.st);
	sqlite3_finalize(cr->ins_more.st);
	free(cr->rows);
	free(cr->more_rows);
	cr->rows = NULL;
	cr->more_rows = NULL;
}

void callrow_begin(struct callrow *r)
{
	r->have = 0;
	r->more = false;
	r->extra[0] = r->extra[1] = NULL;
}

void callrow_set(const struct callrows *cr, struct callrow *r, int col, int64_t v)
{
	r->v[col] = v;
	r->have |= 1ull << col;
	if (cr->col[col].marks_more)
		r->more = true;
}

void callrow_clear(struct callrow *r)
{
	free(r->extra[0]);
	free(r->extra[1]);
	r->extra[0] = r->extra[1] = NULL;
}

/* Column @col of row @row of an insert (store_bulk_column_fn). */
static void call_column(const void *arg, int row, int col, sqlite3_context *ctx)
{
	const struct callrows_insert *ins = arg;
	const struct callrows *cr = ins->cr;
	const struct callrow *r = &cr->rows[ins->rows ? ins->rows[row] : row];
	int c = ins->cols[col];

	if (cr->col[c].extra >= 0) {
		const char *t = r->extra[cr->col[c].extra];

		if (t)
			sqlite3_result_text(ctx, t, -1, SQLITE_STATIC);
		else
			sqlite3_result_null(ctx);
	} else if (r->have & (1ull << c)) {
		sqlite3_result_int64(ctx, r->v[c]);
	} else {
		sqlite3_result_null(ctx);
	}
}

/* Run @ins over @n rows into @table; 0 or -1 after a message. */
static int run_insert(struct callrows *cr, struct callrows_insert *ins, const char *table, int n)
{
	if (!ins->st) {
		struct vr_buf cols;

		vr_buf_init(&cols);
		for (int k = 0; k < ins->ncols; k++) {
			const char *name = cr->col[ins->cols[k]].name;

			if (ins == &cr->ins_more && k == 0)
				name = "call_id";
			vr_buf_addf(&cols, "%s\"%s\"", k ? ", " : "", name);
		}
		ins->st = store_bulk_prepare(cr->bulk, table, cols.buf, ins->ncols);
		vr_buf_release(&cols);
		if (!ins->st)
			return -1;
	}
	if (store_bulk_insert_rows(cr->bulk, ins->st, n, call_column, ins) != SQLITE_DONE)
		return vr_error("%s: cannot insert %s: %s", cr->path, cr->what,
				sqlite3_errmsg(cr->db));
	return 0;
}

int callrows_insert(struct callrows *cr, int n, int64_t *first_id)
{
	int nmore = 0, rc;

	for (int i = 0; i < n; i++)
		if (cr->rows[i].more)
			cr->more_rows[nmore++] = i;
	cr->ins.rows = NULL;
	cr->ins_more.rows = cr->more_rows;
	/* id NULL: SQLite gives each row the largest id plus one, in order,
	 * and appends it without a seek (a given id cost a b-tree search per
	 * row: 176M of 1.29G instructions of the shrinker calls' inserts) */
	rc = run_insert(cr, &cr->ins, cr->table, n);
	if (rc)
		return rc;
	*first_id = sqlite3_last_insert_rowid(cr->db) - n + 1;
	for (int i = 0; i < nmore; i++)
		callrow_set(cr, &cr->rows[cr->more_rows[i]], cr->id_col, *first_id + cr->more_rows[i]);
	return nmore ? run_insert(cr, &cr->ins_more, cr->more_table, nmore) : 0;
}

void callrows_shift(struct callrows *cr, int n)
{
	for (int i = 0; i < n; i++)
		callrow_clear(&cr->rows[i]);
	memmove(cr->rows, cr->rows + n, (size_t)(cr->nrows - n) * sizeof(*cr->rows));
	memset(cr->rows + cr->nrows - n, 0, (size_t)n * sizeof(*cr->rows));
	cr->nrows -= n;
}

void callrows_drop(struct callrows *cr)
{
	for (int i = 0; i < cr->nrows; i++)
		callrow_clear(&cr->rows[i]);
	cr->nrows = 0;
}
