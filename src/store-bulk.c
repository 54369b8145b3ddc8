// SPDX-License-Identifier: GPL-2.0
/*
 * store-bulk.c - insert many rows with one statement: INSERT INTO t (...)
 * SELECT c0, c1, ... FROM vr_rows, where vr_rows is an eponymous virtual
 * table (registered per connection, never stored in the file) whose rows
 * come from a caller's array, read in place through a column callback.
 * One statement step per group instead of one bind/step/reset per row
 * halves SQLite's cost per row (about 1.5 -> 0.8 us for an 18-column row).
 * Rows keep the array's order; the rows are groups of raw events of one
 * spec.
 */
#include "store-priv.h"
#include "vr.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Set column @col (0-based, as c0, c1, ... of vr_rows) of row @row of
 * @src with sqlite3_result_*(); text must live until the statement ends. */
typedef void store_rows_column_fn(const void *src, int row, int col, sqlite3_context *ctx);

/* What a column of vr_rows shows for the event shape being inserted. */
enum col_kind { COL_TS, COL_CPU, COL_PID, COL_INT, COL_TEXT, COL_SYM, COL_EXTRA };

struct col_map {
	unsigned char kind;	/* enum col_kind */
	unsigned char field;	/* spec field index for COL_INT/TEXT/SYM */
};

/* 3 fixed columns, a value and a symbol per field, extra */
#define BULK_MAX_COLS (3 + 2 * VR_SPEC_MAX_FIELDS + 1)

/*
 * The INSERT of one event shape: the spec, the fields its format has
 * (ingest_event.present) and whether it carries extra JSON.  Columns the
 * shape lacks are left out of the statement (NULL by default), and run_id
 * is a bound parameter, so vr_rows is asked only for real values.
 */
struct shape {
	uint32_t present;
	bool extra;
	int ncols;
	struct col_map map[BULK_MAX_COLS];
	sqlite3_stmt *st;
	struct shape *next;
};

/* The rows vr_rows shows while one INSERT ... SELECT runs. */
struct store_rows {
	int n;
	store_rows_column_fn *column;
	const void *src;
};

struct store_bulk {
	sqlite3 *db;
	struct store_rows rows;		/* aux of the vr_rows module */
	struct shape **shapes;		/* per spec: the shapes seen, prepared */
	/* the event group being inserted */
	const struct shape *shape;
	const struct ingest_event *evs;
	const uint32_t *idx;
};

struct bulk_cursor {
	sqlite3_vtab_cursor base;
	int i;
};

/* The vtab object carries the rows it shows. */
struct rows_vtab {
	sqlite3_vtab base;
	struct store_rows *rows;
};

static int vt_connect(sqlite3 *db, void *aux, int argc, const char *const *argv,
		      sqlite3_vtab **vtab, char **err)
{
	char decl[16 + BULK_MAX_COLS * 6] = "CREATE TABLE x(";
	struct rows_vtab *v;
	int rc;

	(void)argc, (void)argv, (void)err;
	for (int c = 0; c < BULK_MAX_COLS; c++)
		snprintf(decl + strlen(decl), sizeof(decl) - strlen(decl), "%sc%d",
			 c ? "," : "", c);
	strcat(decl, ")");
	rc = sqlite3_declare_vtab(db, decl);
	if (rc != SQLITE_OK)
		return rc;
	v = sqlite3_malloc(sizeof(*v));
	if (!v)
		return SQLITE_NOMEM;
	memset(v, 0, sizeof(*v));
	v->rows = aux;
	*vtab = &v->base;
	return SQLITE_OK;
}

static struct store_rows *cursor_rows(sqlite3_vtab_cursor *cur)
{
	return ((struct rows_vtab *)cur->pVtab)->rows;
}

static int vt_best_index(sqlite3_vtab *vtab, sqlite3_index_info *info)
{
	(void)vtab;
	info->estimatedCost = 1e6;
	return SQLITE_OK;
}

static int vt_disconnect(sqlite3_vtab *vtab)
{
	sqlite3_free(vtab);
	return SQLITE_OK;
}

static int vt_open(sqlite3_vtab *vtab, sqlite3_vtab_cursor **cur)
{
	struct bulk_cursor *c = sqlite3_malloc(sizeof(*c));

	(void)vtab;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof(*c));
	*cur = &c->base;
	return SQLITE_OK;
}

static int vt_close(sqlite3_vtab_cursor *cur)
{
	sqlite3_free(cur);
	return SQLITE_OK;
}

static int vt_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
		     sqlite3_value **argv)
{
	(void)idx_num, (void)idx_str, (void)argc, (void)argv;
	((struct bulk_cursor *)cur)->i = 0;
	return SQLITE_OK;
}

static int vt_next(sqlite3_vtab_cursor *cur)
{
	((struct bulk_cursor *)cur)->i++;
	return SQLITE_OK;
}

static int vt_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct bulk_cursor *)cur)->i >= cursor_rows(cur)->n;
}

static int vt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	const struct store_rows *r = cursor_rows(cur);

	r->column(r->src, ((struct bulk_cursor *)cur)->i, col, ctx);
	return SQLITE_OK;
}

static int vt_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid)
{
	*rowid = ((struct bulk_cursor *)cur)->i;
	return SQLITE_OK;
}

static const sqlite3_module rows_module = {
	.iVersion = 0,
	.xCreate = NULL,	/* eponymous only: no CREATE VIRTUAL TABLE */
	.xConnect = vt_connect,
	.xBestIndex = vt_best_index,
	.xDisconnect = vt_disconnect,
	.xOpen = vt_open,
	.xClose = vt_close,
	.xFilter = vt_filter,
	.xNext = vt_next,
	.xEof = vt_eof,
	.xColumn = vt_column,
	.xRowid = vt_rowid,
};

/*
 * Rows ahead whose events are fetched into the cache when a row's first
 * column is asked for.  The reader thread wrote the events on the other
 * CPU, and a group's rows are every few events of the batch, which the
 * hardware prefetcher does not follow: the loads of event_column() were
 * 7% of a load's CPU in perf, on the store thread, which is the load's
 * critical path; fetched 4 rows ahead they are 3.6%.  On make bench's
 * trace (3M events, 10 interleaved runs each) the median wall time went
 * 4.33 -> 3.98 s in one comparison and 3.73 -> 3.63 s in another (this
 * host's speed moves by more than that); 1 to 12 rows ahead measured alike.
 */
#define PREFETCH_ROWS 4

static void prefetch_event(const struct ingest_event *ev)
{
	for (size_t off = 0; off < sizeof(*ev); off += 64)
		__builtin_prefetch((const char *)ev + off);
}

/* Column @col of row @row of the event group (a store_bulk). */
static void event_column(const void *src, int row, int col, sqlite3_context *ctx)
{
	const struct store_bulk *b = src;
	const struct ingest_event *ev = &b->evs[b->idx[row]];
	const struct col_map *m = &b->shape->map[col];

	switch (m->kind) {
	case COL_TS:	/* always column 0: once per row */
		if (row + PREFETCH_ROWS < b->rows.n)
			prefetch_event(&b->evs[b->idx[row + PREFETCH_ROWS]]);
		sqlite3_result_int64(ctx, (int64_t)ev->ts_ns);
		break;
	case COL_CPU: sqlite3_result_int(ctx, ev->cpu); break;
	case COL_PID: sqlite3_result_int(ctx, ev->pid); break;
	case COL_INT: sqlite3_result_int64(ctx, ev->val[m->field]); break;
	case COL_TEXT:
	case COL_SYM:
		if (ev->str[m->field])
			sqlite3_result_text(ctx, ev->str[m->field], -1, SQLITE_STATIC);
		else
			sqlite3_result_null(ctx);
		break;
	default:
		if (ev->extra_json)
			sqlite3_result_text(ctx, ev->extra_json, -1, SQLITE_STATIC);
		else
			sqlite3_result_null(ctx);
	}
}

/*
 * Add column @name@suffix of the table to the INSERT: its value is the
 * next column of vr_rows (@have), or NULL.
 */
static void add_col(struct shape *sh, struct vr_buf *cols, struct vr_buf *sel, const char *name,
		    const char *suffix, bool have, enum col_kind kind, int f)
{
	char *q = sqlite3_mprintf(", \"%w%s\"", name, suffix);

	vr_buf_addstr(cols, q);
	sqlite3_free(q);
	if (!have) {
		vr_buf_addstr(sel, ", NULL");
		return;
	}
	vr_buf_addf(sel, ", c%d", sh->ncols);
	sh->map[sh->ncols++] = (struct col_map){ (unsigned char)kind, (unsigned char)f };
}

/*
 * Plan and prepare the INSERT of @sh (present and extra set) of spec @i.
 * Every column of the table is named, in the table's order (that of
 * spec_table_sql() in store.c: decoded fields, extra, the model's fields),
 * NULL for the fields the shape lacks: SQLite
 * then builds the record in the registers the SELECT writes, instead of
 * copying each value once more (its "IDLIST in order" case of
 * sqlite3Insert(), 3.40; 14 OP_SCopy a row less for mm_shrink_slab_start,
 * about 10% of an insert's time in a test with sqlite3's own tables).
 */
static int prepare_shape(struct store_bulk *b, int i, struct shape *sh)
{
	const struct vr_event_spec *sp = &vr_event_specs[i];
	struct vr_buf cols, sel;
	int rc;

	vr_buf_init(&cols);
	vr_buf_init(&sel);
	vr_buf_addstr(&cols, "run_id, ts_ns, cpu, pid");
	vr_buf_addstr(&sel, "?1, c0, c1, c2");
	sh->map[0] = (struct col_map){ COL_TS, 0 };
	sh->map[1] = (struct col_map){ COL_CPU, 0 };
	sh->map[2] = (struct col_map){ COL_PID, 0 };
	sh->ncols = 3;
	for (int f = 0; f < VR_SPEC_MAX_FIELDS && sp->fields[f].name; f++) {
		bool have = sh->present & (1u << f);

		if (!spec_decoded(i, f))
			continue;
		add_col(sh, &cols, &sel, spec_column(i, f), "", have,
			sp->fields[f].type == VR_FT_TEXT ? COL_TEXT : COL_INT, f);
		if (sp->fields[f].flags & VR_FF_KSYM)
			add_col(sh, &cols, &sel, spec_column(i, f), "_sym", have, COL_SYM, f);
	}
	add_col(sh, &cols, &sel, "extra", "", sh->extra, COL_EXTRA, 0);
	for (int f = 0; f < VR_SPEC_MAX_FIELDS && sp->fields[f].name; f++)
		if (!spec_decoded(i, f))
			add_col(sh, &cols, &sel, spec_column(i, f), "", sh->present & (1u << f),
				COL_INT, f);
	char *sql = sqlite3_mprintf("INSERT INTO \"%w\" (%s) SELECT %s FROM vr_rows",
				    sp->name, cols.buf, sel.buf);
	vr_buf_release(&cols);
	vr_buf_release(&sel);
	rc = sqlite3_prepare_v3(b->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &sh->st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return vr_error("cannot prepare insert into %s: %s", sp->name,
				sqlite3_errmsg(b->db));
	return 0;
}

/* The prepared shape of spec @i for events like @ev; NULL after an error. */
static struct shape *find_shape(struct store_bulk *b, int i, const struct ingest_event *ev)
{
	struct shape *sh;

	for (sh = b->shapes[i]; sh; sh = sh->next)
		if (sh->present == ev->present && sh->extra == (ev->extra_json != NULL))
			return sh;
	sh = vr_calloc(1, sizeof(*sh));
	sh->present = ev->present;
	sh->extra = ev->extra_json != NULL;
	if (prepare_shape(b, i, sh)) {
		free(sh);
		return NULL;
	}
	sh->next = b->shapes[i];
	b->shapes[i] = sh;
	return sh;
}

/*
 * Step @st, an INSERT ... SELECT c0, c1, ... FROM vr_rows prepared on the
 * store's connection, with vr_rows showing @n rows of @src through
 * @column, then reset it.  Returns SQLite's result code of the step
 * (SQLITE_DONE on success).
 */
static int store_rows_run(struct store_bulk *b, sqlite3_stmt *st, int n,
			  store_rows_column_fn *column, const void *src)
{
	int rc;

	b->rows = (struct store_rows){ n, column, src };
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	b->rows.n = 0;
	return rc;
}

struct store_bulk *store_bulk_new(sqlite3 *db)
{
	struct store_bulk *b = vr_calloc(1, sizeof(*b));

	b->db = db;
	b->shapes = vr_calloc(vr_event_specs_count, sizeof(*b->shapes));
	if (sqlite3_create_module(db, "vr_rows", &rows_module, &b->rows) != SQLITE_OK) {
		vr_error("cannot register the bulk insert table: %s", sqlite3_errmsg(db));
		store_bulk_free(b);
		return NULL;
	}
	return b;
}

void store_bulk_free(struct store_bulk *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < vr_event_specs_count; i++) {
		while (b->shapes[i]) {
			struct shape *next = b->shapes[i]->next;

			sqlite3_finalize(b->shapes[i]->st);
			free(b->shapes[i]);
			b->shapes[i] = next;
		}
	}
	free(b->shapes);
	free(b);
}

/* Events idx[k] and idx[j] have the same shape. */
static bool same_shape(const struct ingest_event *a, const struct ingest_event *e)
{
	return a->present == e->present && (a->extra_json != NULL) == (e->extra_json != NULL);
}

int store_bulk_insert(struct store_bulk *b, int spec, int64_t run_id,
		      const struct ingest_event *evs, const uint32_t *idx, int n)
{
	for (int k = 0, j; k < n; k = j) {
		const struct ingest_event *first = &evs[idx[k]];
		struct shape *sh = find_shape(b, spec, first);

		if (!sh)
			return -1;
		for (j = k + 1; j < n && same_shape(first, &evs[idx[j]]); j++)
			;
		b->shape = sh;
		b->evs = evs;
		b->idx = idx + k;
		sqlite3_bind_int64(sh->st, 1, run_id);
		if (store_rows_run(b, sh->st, j - k, event_column, b) != SQLITE_DONE)
			return vr_error("cannot insert %s events: %s", vr_event_specs[spec].name,
					sqlite3_errmsg(b->db));
	}
	return 0;
}
