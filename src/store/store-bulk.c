// SPDX-License-Identifier: GPL-2.0
/*
 * store-bulk.c - insert many rows with one statement: INSERT INTO t (...)
 * SELECT c0, c1, ... FROM vr_rows, where vr_rows is an eponymous virtual
 * table (registered per connection, never stored in the file) whose rows
 * are a group of decoded events, read in place.
 * One statement step per group instead of one bind/step/reset per row
 * halves SQLite's cost per row (about 1.5 -> 0.8 us for an 18-column row).
 * Rows keep the array's order; the rows are groups of raw events of one
 * spec.
 */
#include "store-priv.h"
#include "vr.h"

#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a column of vr_rows shows for the event shape being inserted. */
enum col_kind { COL_TS, COL_CPU, COL_PID, COL_INT, COL_SYM, COL_EXTRA, COL_COMM };

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

struct store_bulk {
	sqlite3 *db;
	struct shape **shapes;		/* per spec: the shapes seen, prepared */
	/* the event group vr_rows shows while one INSERT ... SELECT runs:
	 * evs[idx[0]], ..., evs[idx[n - 1]], with the columns of shape */
	const struct shape *shape;
	const struct ingest_event *evs;
	const uint32_t *idx;
	int n;
	/* or, for store_bulk_insert_rows(), the caller's rows */
	store_bulk_column_fn *column;
	const void *column_arg;
	/* the comm ids of the group's text fields, row k's field f at
	 * comm_ids[k * VR_SPEC_MAX_FIELDS + f] (store_comm_spec()) */
	int64_t *comm_ids;
	size_t comm_ids_cap;
	int comm_base;		/* the group's row 0: comm_ids' row comm_base */
	GHashTable *comms;	/* comm (owned) -> id (int64_t *, owned) */
	sqlite3_stmt *comm_id;	/* comm_prepare()'s upsert */
};

struct bulk_cursor {
	sqlite3_vtab_cursor base;
	int i;
	const struct ingest_event *ev;	/* row i's event */
};

/* The vtab object carries the inserter (the module's aux). */
struct rows_vtab {
	sqlite3_vtab base;
	const struct store_bulk *b;
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
	v->b = aux;
	*vtab = &v->base;
	return SQLITE_OK;
}

static const struct store_bulk *cursor_bulk(sqlite3_vtab_cursor *cur)
{
	return ((struct rows_vtab *)cur->pVtab)->b;
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

/*
 * Rows ahead whose events are fetched into the cache when the cursor
 * moves to a row.  The reader thread wrote the events on the other
 * CPU, and a group's rows are every few events of the batch, which the
 * hardware prefetcher does not follow: the loads of its columns were
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

/* Point @c at row @c->i of the group, fetching a later row's event ahead. */
static void cursor_row(struct bulk_cursor *c, const struct store_bulk *b)
{
	if (c->i >= b->n || b->column)
		return;
	c->ev = &b->evs[b->idx[c->i]];
	if (c->i + PREFETCH_ROWS < b->n)
		prefetch_event(&b->evs[b->idx[c->i + PREFETCH_ROWS]]);
}

static int vt_filter(sqlite3_vtab_cursor *cur, int idx_num, const char *idx_str, int argc,
		     sqlite3_value **argv)
{
	struct bulk_cursor *c = (struct bulk_cursor *)cur;

	(void)idx_num, (void)idx_str, (void)argc, (void)argv;
	c->i = 0;
	cursor_row(c, cursor_bulk(cur));
	return SQLITE_OK;
}

static int vt_next(sqlite3_vtab_cursor *cur)
{
	struct bulk_cursor *c = (struct bulk_cursor *)cur;

	c->i++;
	cursor_row(c, cursor_bulk(cur));
	return SQLITE_OK;
}

static int vt_eof(sqlite3_vtab_cursor *cur)
{
	return ((struct bulk_cursor *)cur)->i >= cursor_bulk(cur)->n;
}

/* Column @col of the cursor's event, as the group's shape maps it. */
static int vt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int col)
{
	const struct store_bulk *b = cursor_bulk(cur);
	const struct ingest_event *ev = ((struct bulk_cursor *)cur)->ev;
	const struct col_map *m;

	if (b->column) {
		b->column(b->column_arg, ((struct bulk_cursor *)cur)->i, col, ctx);
		return SQLITE_OK;
	}
	m = &b->shape->map[col];
	switch (m->kind) {
	case COL_TS: sqlite3_result_int64(ctx, (int64_t)ev->ts_ns); break;
	case COL_CPU: sqlite3_result_int(ctx, ev->cpu); break;
	case COL_PID: sqlite3_result_int(ctx, ev->pid); break;
	case COL_INT: sqlite3_result_int64(ctx, ev->val[m->field]); break;
	case COL_COMM: {
		int64_t id = b->comm_ids[(size_t)(b->comm_base + ((struct bulk_cursor *)cur)->i) *
					 VR_SPEC_MAX_FIELDS + m->field];

		if (id)
			sqlite3_result_int64(ctx, id);
		else
			sqlite3_result_null(ctx);
		break;
	}
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
		/* a text field is a comm, stored as its id (store_comm_spec()) */
		if (sp->fields[f].type == VR_FT_TEXT)
			add_col(sh, &cols, &sel, spec_column(i, f), "_id", have, COL_COMM, f);
		else
			add_col(sh, &cols, &sel, spec_column(i, f), "", have, COL_INT, f);
		if (sp->fields[f].flags & VR_FF_KSYM)
			add_col(sh, &cols, &sel, spec_column(i, f), "_sym", have, COL_SYM, f);
	}
	add_col(sh, &cols, &sel, "extra", "", sh->extra, COL_EXTRA, 0);
	for (int f = 0; f < VR_SPEC_MAX_FIELDS && sp->fields[f].name; f++)
		if (!spec_decoded(i, f))
			add_col(sh, &cols, &sel, spec_column(i, f), "", sh->present & (1u << f),
				COL_INT, f);
	char *sql = sqlite3_mprintf("INSERT INTO \"%w%s\" (%s) SELECT %s FROM vr_rows", sp->name,
				    store_comm_spec(i) ? STORE_COMM_SUFFIX : "", cols.buf, sel.buf);
	vr_buf_release(&cols);
	vr_buf_release(&sel);
	rc = sqlite3_prepare_v3(b->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &sh->st, NULL);
	sqlite3_free(sql);
	if (rc != SQLITE_OK)
		return vr_error("cannot prepare insert into %s: %s", sp->name,
				sqlite3_errmsg(b->db));
	return 0;
}

sqlite3_stmt *store_bulk_prepare(struct store_bulk *b, const char *table, const char *columns,
				 int ncols)
{
	struct vr_buf sel;
	sqlite3_stmt *st = NULL;

	if (ncols > BULK_MAX_COLS) {
		vr_error("cannot prepare insert into %s: %d columns, vr_rows has %d", table, ncols,
			 BULK_MAX_COLS);
		return NULL;
	}
	vr_buf_init(&sel);
	for (int c = 0; c < ncols; c++)
		vr_buf_addf(&sel, "%sc%d", c ? ", " : "", c);
	char *sql = sqlite3_mprintf("INSERT INTO main.\"%w\" (%s) SELECT %s FROM vr_rows", table,
				    columns, sel.buf);

	vr_buf_release(&sel);
	if (sqlite3_prepare_v3(b->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) != SQLITE_OK)
		vr_error("cannot prepare insert into %s: %s", table, sqlite3_errmsg(b->db));
	sqlite3_free(sql);
	return st;
}

int store_bulk_insert_rows(struct store_bulk *b, sqlite3_stmt *st, int n,
			   store_bulk_column_fn *column, const void *arg)
{
	int rc;

	b->column = column;
	b->column_arg = arg;
	b->n = n;
	rc = sqlite3_step(st);
	sqlite3_reset(st);
	b->n = 0;
	b->column = NULL;
	b->column_arg = NULL;
	return rc;
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
 * Step @st, the INSERT ... SELECT of shape @sh, with vr_rows showing the
 * @n events evs[idx[0]], ..., then reset it.  Returns SQLite's result
 * code of the step (SQLITE_DONE on success).
 */
static int insert_group(struct store_bulk *b, const struct shape *sh,
			const struct ingest_event *evs, const uint32_t *idx, int n)
{
	int rc;

	b->shape = sh;
	b->evs = evs;
	b->idx = idx;
	b->n = n;
	rc = sqlite3_step(sh->st);
	sqlite3_reset(sh->st);
	b->n = 0;
	return rc;
}

struct store_bulk *store_bulk_new(sqlite3 *db)
{
	struct store_bulk *b = vr_calloc(1, sizeof(*b));

	b->db = db;
	b->shapes = vr_calloc(vr_event_specs_count, sizeof(*b->shapes));
	if (sqlite3_create_module(db, "vr_rows", &rows_module, b) != SQLITE_OK) {
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
	free(b->comm_ids);
	if (b->comms)
		g_hash_table_destroy(b->comms);
	sqlite3_finalize(b->comm_id);
	free(b);
}

/* Events idx[k] and idx[j] have the same shape. */
static bool same_shape(const struct ingest_event *a, const struct ingest_event *e)
{
	return a->present == e->present && (a->extra_json != NULL) == (e->extra_json != NULL);
}

/* ---- comms: each text once, in table comm (schema version 7) ---------- */

bool store_comm_spec(int spec)
{
	for (int f = 0; spec >= 0 && f < spec_nfields(spec); f++)
		if (vr_event_specs[spec].fields[f].type == VR_FT_TEXT)
			return true;
	return false;
}

/* Prepare @st with @sql once; 0 or -1 after a message. */
static int comm_prepare(struct store_bulk *b, sqlite3_stmt **st, const char *sql)
{
	if (*st)
		return 0;
	if (sqlite3_prepare_v3(b->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot prepare statement: %s", sqlite3_db_filename(b->db, "main"),
				sqlite3_errmsg(b->db));
	return 0;
}

int store_bulk_comm_id(struct store_bulk *b, const char *comm, int64_t *id)
{
	int64_t *cached;
	int rc;

	if (!b->comms)
		b->comms = g_hash_table_new_full(g_str_hash, g_str_equal, free, free);
	if ((cached = g_hash_table_lookup(b->comms, comm))) {
		*id = *cached;
		return 0;
	}
	/* the row's id, added or there (comm is UNIQUE) */
	if (comm_prepare(b, &b->comm_id, "INSERT INTO main.comm (comm) VALUES (?1) ON CONFLICT"
			 " (comm) DO UPDATE SET comm = excluded.comm RETURNING id"))
		return -1;
	sqlite3_bind_text(b->comm_id, 1, comm, -1, SQLITE_STATIC);
	rc = sqlite3_step(b->comm_id);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(b->comm_id, 0);
	sqlite3_reset(b->comm_id);
	if (rc != SQLITE_ROW)
		return vr_error("%s: cannot write comm: %s", sqlite3_db_filename(b->db, "main"),
				sqlite3_errmsg(b->db));
	cached = vr_malloc(sizeof(*cached));
	*cached = *id;
	g_hash_table_insert(b->comms, vr_strdup(comm), cached);
	return 0;
}

void store_bulk_forget_comms(struct store_bulk *b)
{
	if (b->comms)
		g_hash_table_remove_all(b->comms);
}

/* The comm ids of the text fields of evs[idx[0..n)] (all of spec @spec)
 * into comm_ids (0: no text); 0 or -1 after a message. */
static int group_comm_ids(struct store_bulk *b, int spec, const struct ingest_event *evs,
			  const uint32_t *idx, int n)
{
	size_t need = (size_t)n * VR_SPEC_MAX_FIELDS;

	if (need > b->comm_ids_cap) {
		b->comm_ids = vr_realloc(b->comm_ids, need * sizeof(*b->comm_ids));
		b->comm_ids_cap = need;
	}
	for (int k = 0; k < n; k++) {
		const struct ingest_event *ev = &evs[idx[k]];

		for (int f = 0; f < spec_nfields(spec); f++) {
			int64_t *id = &b->comm_ids[(size_t)k * VR_SPEC_MAX_FIELDS + f];

			*id = 0;
			if (vr_event_specs[spec].fields[f].type == VR_FT_TEXT &&
			    (ev->present & (1u << f)) && ev->str[f] &&
			    store_bulk_comm_id(b, ev->str[f], id))
				return -1;
		}
	}
	return 0;
}

int store_bulk_insert(struct store_bulk *b, int spec, int64_t run_id,
		      const struct ingest_event *evs, const uint32_t *idx, int n)
{
	if (store_comm_spec(spec) && group_comm_ids(b, spec, evs, idx, n))
		return -1;
	for (int k = 0, j; k < n; k = j) {
		const struct ingest_event *first = &evs[idx[k]];
		struct shape *sh = find_shape(b, spec, first);

		if (!sh)
			return -1;
		for (j = k + 1; j < n && same_shape(first, &evs[idx[j]]); j++)
			;
		sqlite3_bind_int64(sh->st, 1, run_id);
		b->comm_base = k;
		if (insert_group(b, sh, evs, idx + k, j - k) != SQLITE_DONE)
			return vr_error("cannot insert %s events: %s", vr_event_specs[spec].name,
					sqlite3_errmsg(b->db));
	}
	return 0;
}
