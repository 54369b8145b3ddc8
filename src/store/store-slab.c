// SPDX-License-Identifier: GPL-2.0
/*
 * store-slab.c - the shrinker calls as the database keeps them (schema
 * version 3): one row of shrink_call per do_shrink_slab() call, its
 * mm_shrink_slab_start and mm_shrink_slab_end together, and the shrinker
 * (shr, shrink and its symbol) stored once in the table shrinker and named
 * by id.  The tables mm_shrink_slab_start and mm_shrink_slab_end of schema
 * version 2 are views over them, with the same columns and values.
 *
 * The pairing is the model's (src/model/model-misc.c, model_slab_end()):
 * an end the model paired with the task's open start (it wrote that
 * start's time into slab_begin_ns) shares the start's row; a start the
 * model left unended (a second start on the task first, or the trace's
 * end) and an end without a start are rows of their own.  A call's row is
 * written when its end comes, so rows are in the order of the calls' ends
 * (a start without an end: at the next start of its task, or the run's
 * end).  Two rows per call, with the shrinker's name as text in each, were
 * 57 % of a busy trace's rows and 69 % of its database (issue 28).
 *
 * Storage (README "Event tables"): id, run_id, pid; ts_ns, cpu, shrinker_id
 * and the start's fields (NULL: no start); end_offset_ns (the end's time
 * less the start's, or without a start the end's time; NULL: no end) and
 * the end's fields, end_ before the names the start also has (nid,
 * total_scan, memcg_id).  What is NULL in every row of a
 * recent kernel's call lives in shrink_call_more (call_id = id, run_id), a
 * row only where one of them is not: the start's pgs_scanned and lru_pgs
 * (4.4-4.15), extra and end_extra, and slab_begin_ns and
 * slab_nr_objects_to_shrink of an end the model paired that is not in its
 * start's row (a paired call has them as ts_ns and nr_objects_to_shrink).
 * A column costs a byte of a row's header even when NULL: 1.1 million
 * calls of make bench's trace carried 9 such columns.  So do, since schema
 * version 4, the end's columns that repeat the start's (echo_fields:
 * end_cpu, end_shrinker_id, end_nid, end_memcg_id, unused_scan), with
 * end_own 1, only for an end without a start or one that differs from its
 * start in one of them: in shrink_call they were 5 of 24 columns (a
 * header byte each, and unused_scan's value), 12 % of the table's pages
 * (777k calls of samples/wsf10-1.dat repeated 40 times: 41.3 -> 36.2 MB).
 * Since version 6 slab_complete is there too: an end alone's (its row
 * there exists anyway, end_own), a paired call's only when not 1 (events
 * lost inside it); the view gives 1 for the others (785k calls of make
 * bench's trace: 85.5 -> 84.7 MB).
 */
#include "store-callrows.h"
#include "store-priv.h"
#include "vr.h"

#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a column of shrink_call holds. */
enum slab_col_kind {
	SC_ID, SC_RUN, SC_PID, SC_TS, SC_CPU, SC_SHRINKER, SC_FIELD, SC_EXTRA,	/* the start's */
	SC_END_OFFSET, SC_END_CPU, SC_END_SHRINKER, SC_END_FIELD, SC_END_EXTRA,
	SC_BEGIN_NS, SC_BEGIN_NOBJ, SC_COMPLETE, SC_END_OWN,
};

struct slab_col {
	char name[48];
	enum slab_col_kind kind;
	int field;		/* SC_FIELD, SC_END_FIELD: the spec's field */
	bool more;		/* a column of shrink_call_more */
	bool v3_more;		/* one of schema version 3's shrink_call_more */
	int echo;		/* the end's value of start column echo (the
				 * view's when end_own is NULL); -1: none */
};

/*
 * The end's fields that repeat a start's (end, start): do_shrink_slab()
 * (mm/vmscan.c 4.4-6.6, mm/shrinker.c from 6.7) traces shrinkctl->nid and
 * nr (the nr_deferred it took) at both, as nid and nr_objects_to_shrink /
 * unused_scan, and memcg_id at both from 7.1.  With end_cpu and
 * end_shrinker_id they are stored only when the end's differ (end_own).
 */
static const char *const echo_fields[][2] = {
	{ "nid", "nid" }, { "memcg_id", "memcg_id" }, { "unused_scan", "nr_objects_to_shrink" },
};

/* The start's fields kept in shrink_call_more (4.4-4.15 only, spec.c). */
static const char *const rare_fields[] = { "pgs_scanned", "lru_pgs" };

static bool rare_field(const char *column)
{
	for (size_t i = 0; i < VR_ARRAY_SIZE(rare_fields); i++)
		if (!strcmp(rare_fields[i], column))
			return true;
	return false;
}

/* Room for every column: the fixed ones and both events' fields. */
#define SLAB_MAX_COLS (16 + 2 * VR_SPEC_MAX_FIELDS)

struct slab_layout {
	int start, end;		/* the specs */
	int s_shr, s_shrink, s_nobj;			/* start fields */
	int e_shr, e_shrink, e_begin, e_nobj, e_complete;	/* end fields */
	struct slab_col col[SLAB_MAX_COLS];
	int ncols;
	/* the column of each kind but the fields' (-1: none), and of each
	 * field of the start and of the end (-1: none, as shr and shrink) */
	int kcol[SC_END_OWN + 1];
	int s_col[VR_SPEC_MAX_FIELDS], e_col[VR_SPEC_MAX_FIELDS];
};
_Static_assert(SLAB_MAX_COLS <= CALLROWS_MAX_COLS, "a row is a struct callrow");

static int field_index(int spec, const char *name)
{
	for (int f = 0; f < spec_nfields(spec); f++)
		if (!strcmp(vr_event_specs[spec].fields[f].name, name))
			return f;
	return -1;
}

static void add_col(struct slab_layout *l, enum slab_col_kind kind, int field, const char *name)
{
	struct slab_col *c = &l->col[l->ncols];

	if (kind == SC_FIELD)
		l->s_col[field] = l->ncols;
	else if (kind == SC_END_FIELD)
		l->e_col[field] = l->ncols;
	else
		l->kcol[kind] = l->ncols;
	l->ncols++;
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->kind = kind;
	c->field = field;
	c->v3_more = kind == SC_EXTRA || kind == SC_END_EXTRA || kind == SC_BEGIN_NS ||
		     kind == SC_BEGIN_NOBJ || (kind == SC_FIELD && rare_field(name));
	c->more = c->v3_more || kind == SC_END_OWN || kind == SC_COMPLETE;
	c->echo = -1;
}

/* Mark end column @end_col as an echo of start column @start_col (both
 * >= 0), a column of shrink_call_more. */
static void set_echo(struct slab_layout *l, int end_col, int start_col)
{
	if (end_col < 0 || start_col < 0)
		return;
	l->col[end_col].echo = start_col;
	l->col[end_col].more = true;
}

/* The end's columns that repeat the start's (echo_fields, cpu, shrinker). */
static void slab_echoes(struct slab_layout *l)
{
	set_echo(l, l->kcol[SC_END_CPU], l->kcol[SC_CPU]);
	set_echo(l, l->kcol[SC_END_SHRINKER], l->kcol[SC_SHRINKER]);
	for (size_t i = 0; i < VR_ARRAY_SIZE(echo_fields); i++) {
		int e = field_index(l->end, echo_fields[i][0]);
		int st = field_index(l->start, echo_fields[i][1]);

		if (e >= 0 && st >= 0)
			set_echo(l, l->e_col[e], l->s_col[st]);
	}
}

/* Is @column a decoded field of the start? */
static bool start_has(const struct slab_layout *l, const char *column)
{
	for (int f = 0; f < spec_nfields(l->start); f++)
		if (spec_decoded(l->start, f) && !strcmp(spec_column(l->start, f), column))
			return true;
	return false;
}

/*
 * The columns of shrink_call, from the two events' specs (spec.c), so that
 * a field added there is a column here.  0, or -1 if the specs lack what
 * the pairing needs.
 */
static int slab_layout(struct slab_layout *l)
{
	char name[48];

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < VR_ARRAY_SIZE(l->kcol); i++)
		l->kcol[i] = -1;
	for (int f = 0; f < VR_SPEC_MAX_FIELDS; f++)
		l->s_col[f] = l->e_col[f] = -1;
	l->start = spec_find("vmscan", "mm_shrink_slab_start");
	l->end = spec_find("vmscan", "mm_shrink_slab_end");
	if (l->start < 0 || l->end < 0)
		return -1;
	l->s_shr = field_index(l->start, "shr");
	l->s_shrink = field_index(l->start, "shrink");
	l->s_nobj = field_index(l->start, "nr_objects_to_shrink");
	l->e_shr = field_index(l->end, "shr");
	l->e_shrink = field_index(l->end, "shrink");
	l->e_begin = field_index(l->end, "slab_begin_ns");
	l->e_nobj = field_index(l->end, "slab_nr_objects_to_shrink");
	l->e_complete = field_index(l->end, "slab_complete");
	if (l->s_shr < 0 || l->s_shrink < 0 || l->s_nobj < 0 || l->e_shr < 0 || l->e_shrink < 0 ||
	    l->e_begin < 0 || l->e_nobj < 0 || l->e_complete < 0)
		return -1;
	add_col(l, SC_ID, 0, "id");
	add_col(l, SC_RUN, 0, "run_id");
	add_col(l, SC_PID, 0, "pid");
	add_col(l, SC_TS, 0, "ts_ns");
	add_col(l, SC_CPU, 0, "cpu");
	add_col(l, SC_SHRINKER, 0, "shrinker_id");
	for (int f = 0; f < spec_nfields(l->start); f++)
		if (spec_decoded(l->start, f) && f != l->s_shr && f != l->s_shrink)
			add_col(l, SC_FIELD, f, spec_column(l->start, f));
	add_col(l, SC_EXTRA, 0, "extra");
	add_col(l, SC_END_OFFSET, 0, "end_offset_ns");
	add_col(l, SC_END_CPU, 0, "end_cpu");
	add_col(l, SC_END_SHRINKER, 0, "end_shrinker_id");
	for (int f = 0; f < spec_nfields(l->end); f++) {
		const char *c = spec_column(l->end, f);

		if (!spec_decoded(l->end, f) || f == l->e_shr || f == l->e_shrink)
			continue;
		snprintf(name, sizeof(name), "%s%s", start_has(l, c) ? "end_" : "", c);
		add_col(l, SC_END_FIELD, f, name);
	}
	add_col(l, SC_END_EXTRA, 0, "end_extra");
	add_col(l, SC_BEGIN_NS, 0, "slab_begin_ns");
	add_col(l, SC_BEGIN_NOBJ, 0, "slab_nr_objects_to_shrink");
	add_col(l, SC_COMPLETE, 0, "slab_complete");
	add_col(l, SC_END_OWN, 0, "end_own");
	slab_echoes(l);
	return 0;
}

bool store_slab_spec(int spec)
{
	static int start = -2, end = -2;

	if (start == -2) {
		start = spec_find("vmscan", "mm_shrink_slab_start");
		end = spec_find("vmscan", "mm_shrink_slab_end");
	}
	return spec >= 0 && (spec == start || spec == end);
}

/* The column of @l of @kind for field @f (-1: none). */
static int col_of(const struct slab_layout *l, enum slab_col_kind kind, int f)
{
	for (int c = 0; c < l->ncols; c++)
		if (l->col[c].kind == kind && l->col[c].field == f)
			return c;
	return -1;
}

/*
 * The value of column @c for a view: c."name" or m."name" (shrink_call,
 * shrink_call_more); an end's echo column is the start's when the call
 * has no end_own (the end repeated the start).
 */
static void view_col(struct vr_buf *b, const struct slab_layout *l, int c)
{
	const struct slab_col *sc = &l->col[c];

	if (sc->echo >= 0)
		vr_buf_addf(b, "CASE WHEN m.end_own IS NULL THEN c.\"%s\" ELSE m.\"%s\" END",
			    l->col[sc->echo].name, sc->name);
	else
		vr_buf_addf(b, "%s.\"%s\"", sc->more ? "m" : "c", sc->name);
}

/*
 * One view: the columns of event table @spec of schema version 2 (store.c
 * spec_table_sql(): run_id, ts_ns, cpu, pid, the decoded fields with a
 * _sym after a symbol's, extra, the model's fields) from shrink_call.
 */
static void view_sql(struct vr_buf *b, const struct slab_layout *l, bool end)
{
	int spec = end ? l->end : l->start;
	int shr = end ? l->e_shr : l->s_shr, shrink = end ? l->e_shrink : l->s_shrink;

	vr_buf_addf(b, "CREATE VIEW IF NOT EXISTS %s AS SELECT c.run_id AS run_id, ",
		    vr_event_specs[spec].name);
	vr_buf_addstr(b, end ? "CASE WHEN c.ts_ns IS NULL THEN c.end_offset_ns ELSE"
			       " c.ts_ns + c.end_offset_ns END AS ts_ns, "
			     : "c.ts_ns AS ts_ns, ");
	view_col(b, l, l->kcol[end ? SC_END_CPU : SC_CPU]);
	vr_buf_addstr(b, " AS cpu, c.pid AS pid");
	for (int f = 0; f < spec_nfields(spec); f++) {
		const char *name = spec_column(spec, f);

		if (!spec_decoded(spec, f))
			continue;
		if (f == shr)
			vr_buf_addf(b, ", k.shr AS %s", name);
		else if (f == shrink)
			vr_buf_addf(b, ", k.shrink AS %s, k.shrink_sym AS %s_sym", name, name);
		else {
			vr_buf_addstr(b, ", ");
			view_col(b, l, col_of(l, end ? SC_END_FIELD : SC_FIELD, f));
			vr_buf_addf(b, " AS \"%s\"", name);
		}
	}
	vr_buf_addstr(b, end ? ", m.end_extra AS extra" : ", m.extra AS extra");
	if (end)
		vr_buf_addstr(b, ", CASE WHEN c.ts_ns IS NULL THEN m.slab_begin_ns ELSE c.ts_ns END"
				 " AS slab_begin_ns, CASE WHEN c.ts_ns IS NULL THEN"
				 " m.slab_nr_objects_to_shrink ELSE c.nr_objects_to_shrink END AS"
				 " slab_nr_objects_to_shrink, CASE WHEN c.ts_ns IS NULL THEN"
				 " m.slab_complete ELSE coalesce(m.slab_complete, 1) END AS slab_complete");
	vr_buf_addstr(b, " FROM shrink_call c LEFT JOIN shrink_call_more m ON m.call_id = c.id"
			 " LEFT JOIN shrinker k ON k.id = ");
	view_col(b, l, l->kcol[end ? SC_END_SHRINKER : SC_SHRINKER]);
	vr_buf_addstr(b, end ? " WHERE c.end_offset_ns IS NOT NULL;" : " WHERE c.ts_ns IS NOT NULL;");
}

char *store_slab_schema_sql(bool views)
{
	struct slab_layout l;
	struct vr_buf b;

	if (slab_layout(&l))
		return vr_strdup("");
	vr_buf_init(&b);
	if (!views) {
		vr_buf_addstr(&b, "CREATE TABLE IF NOT EXISTS shrinker (id INTEGER PRIMARY KEY,"
			      " shr INTEGER, shrink INTEGER, shrink_sym TEXT);");
		for (int more = 0; more < 2; more++) {
			vr_buf_addstr(&b, more ? "CREATE TABLE IF NOT EXISTS shrink_call_more (call_id"
					       " INTEGER PRIMARY KEY, run_id INTEGER NOT NULL"
					       " REFERENCES run(id)"
					     : "CREATE TABLE IF NOT EXISTS shrink_call (");
			for (int c = 0, n = 0; c < l.ncols; c++) {
				const struct slab_col *sc = &l.col[c];
				bool text = sc->kind == SC_EXTRA || sc->kind == SC_END_EXTRA ||
					    ((sc->kind == SC_FIELD || sc->kind == SC_END_FIELD) &&
					     vr_event_specs[sc->kind == SC_FIELD ? l.start : l.end]
						     .fields[sc->field].type == VR_FT_TEXT);

				if (sc->more != more)
					continue;
				vr_buf_addf(&b, "%s\"%s\" %s", more || n++ ? ", " : "", sc->name,
					    sc->kind == SC_ID ? "INTEGER PRIMARY KEY" :
					    text ? "TEXT" : "INTEGER");
				if (sc->kind == SC_RUN)
					vr_buf_addstr(&b, " NOT NULL REFERENCES run(id)");
				else if (sc->kind == SC_PID)
					vr_buf_addstr(&b, " NOT NULL");
			}
			vr_buf_addstr(&b, ");");
		}
	} else {
		view_sql(&b, &l, false);
		view_sql(&b, &l, true);
	}
	return vr_buf_detach(&b);
}

/*
 * Version 2's rows, in the tables mm_shrink_slab_start and
 * mm_shrink_slab_end renamed vr_v2_slab_start and vr_v2_slab_end by the
 * caller, as temp.vr_v2_all: a row per call with every column of the
 * layout by name (the ids its rowids), end_shrinker_id the end's own.  An
 * end is paired with the start of its task whose time is its slab_begin_ns
 * and whose nr_objects_to_shrink its slab_nr_objects_to_shrink (the
 * model's pairing, which these columns record); of several such starts (a
 * text trace's microseconds), the k-th end with the k-th start.  Ends
 * without the model's pairing (rows a version 1 database had) stay rows of
 * their own.
 */
static void calls_from_v2(struct vr_buf *b, const struct slab_layout *l)
{
	struct vr_buf sel;

	vr_buf_init(&sel);
	vr_buf_addstr(b,
		"INSERT INTO shrinker (shr, shrink, shrink_sym) SELECT shr, shrink, shrink_sym FROM"
		" vr_v2_slab_start UNION SELECT shr, shrink, shrink_sym FROM vr_v2_slab_end;"
		"CREATE TEMP TABLE vr_v2_s AS SELECT rowid AS r, *, row_number() OVER (PARTITION BY"
		" run_id, pid, ts_ns, nr_objects_to_shrink ORDER BY rowid) AS k FROM vr_v2_slab_start;"
		"CREATE TEMP TABLE vr_v2_e AS SELECT rowid AS r, *, CASE WHEN slab_begin_ns IS NULL"
		" THEN NULL ELSE row_number() OVER (PARTITION BY run_id, pid, slab_begin_ns,"
		" slab_nr_objects_to_shrink ORDER BY rowid) END AS k FROM vr_v2_slab_end;"
		"CREATE TEMP TABLE vr_v2_p AS SELECT s.r AS sr, e.r AS er FROM vr_v2_e e JOIN vr_v2_s s"
		" ON s.run_id = e.run_id AND s.pid = e.pid AND s.ts_ns = e.slab_begin_ns AND"
		" s.nr_objects_to_shrink IS e.slab_nr_objects_to_shrink AND s.k = e.k;"
		"CREATE INDEX temp.vr_v2_ps ON vr_v2_p (sr); CREATE INDEX temp.vr_v2_pe ON vr_v2_p (er);");
	for (int c = 0; c < l->ncols; c++) {
		const struct slab_col *sc = &l->col[c];
		const char *v;
		char buf[256], a;

		switch (sc->kind) {
		case SC_RUN: v = "coalesce(s.run_id, e.run_id)"; break;
		case SC_PID: v = "coalesce(s.pid, e.pid)"; break;
		case SC_TS: v = "s.ts_ns"; break;
		case SC_CPU: v = "s.cpu"; break;
		case SC_SHRINKER:
		case SC_END_SHRINKER:
			a = sc->kind == SC_SHRINKER ? 's' : 'e';
			snprintf(buf, sizeof(buf), "(SELECT id FROM shrinker k WHERE %c.r IS NOT NULL AND"
				 " k.shr IS %c.shr AND k.shrink IS %c.shrink AND k.shrink_sym IS"
				 " %c.shrink_sym)", a, a, a, a);
			v = buf;
			break;
		case SC_FIELD:
		case SC_END_FIELD:
			a = sc->kind == SC_FIELD ? 's' : 'e';
			snprintf(buf, sizeof(buf), "%c.\"%s\"", a,
				 spec_column(a == 's' ? l->start : l->end, sc->field));
			v = buf;
			break;
		case SC_EXTRA: v = "s.extra"; break;
		case SC_ID:
		case SC_END_OWN: continue;	/* the rowid; move_calls() */
		case SC_END_OFFSET:
			v = "CASE WHEN s.r IS NOT NULL THEN e.ts_ns - s.ts_ns ELSE e.ts_ns END";
			break;
		case SC_END_CPU: v = "e.cpu"; break;
		case SC_END_EXTRA: v = "e.extra"; break;
		case SC_BEGIN_NS: v = "CASE WHEN s.r IS NULL THEN e.slab_begin_ns END"; break;
		case SC_BEGIN_NOBJ: v = "CASE WHEN s.r IS NULL THEN e.slab_nr_objects_to_shrink END"; break;
		default: v = "e.slab_complete"; break;
		}
		vr_buf_addf(&sel, "%s%s AS \"%s\"", sel.len ? ", " : "", v, sc->name);
	}
	/* every column of each call, one row a call: the paired calls and the
	 * ends alone in end order, then the starts alone, each run's rows in
	 * time order */
	vr_buf_addf(b, "CREATE TEMP TABLE vr_v2_all AS SELECT %s FROM (SELECT e.r AS er, p.sr AS sr,"
		    " e.run_id AS run, e.ts_ns AS t FROM vr_v2_e e LEFT JOIN vr_v2_p p ON p.er = e.r"
		    " UNION ALL SELECT NULL, s.r, s.run_id, s.ts_ns FROM vr_v2_s s WHERE s.r NOT IN"
		    " (SELECT sr FROM vr_v2_p)) o LEFT JOIN vr_v2_e e ON e.r = o.er LEFT JOIN vr_v2_s s"
		    " ON s.r = o.sr ORDER BY o.run, o.t, o.er IS NULL;", sel.buf);
	vr_buf_addstr(b, "DROP TABLE temp.vr_v2_p; DROP TABLE temp.vr_v2_s; DROP TABLE temp.vr_v2_e;"
		      " DROP TABLE vr_v2_slab_start; DROP TABLE vr_v2_slab_end;");
	vr_buf_release(&sel);
}

/*
 * Version 3's rows, in shrink_call and shrink_call_more renamed vr_v3_call
 * and vr_v3_more by the caller, as temp.vr_v2_all (calls_from_v2()), in id
 * order: version 3 kept the end's columns in shrink_call, end_shrinker_id
 * NULL when it was the start's.
 */
static void calls_from_v3(struct vr_buf *b, const struct slab_layout *l)
{
	struct vr_buf sel;

	vr_buf_init(&sel);
	for (int c = 0; c < l->ncols; c++) {
		const struct slab_col *sc = &l->col[c];

		if (sc->kind == SC_ID || sc->kind == SC_END_OWN)
			continue;
		if (sc->kind == SC_END_SHRINKER)
			vr_buf_addf(&sel, "%sCASE WHEN c.end_offset_ns IS NOT NULL THEN"
				    " coalesce(c.end_shrinker_id, c.shrinker_id) END", sel.len ? ", " : "");
		else
			vr_buf_addf(&sel, "%s%c.\"%s\"", sel.len ? ", " : "", sc->v3_more ? 'm' : 'c',
				    sc->name);
		vr_buf_addf(&sel, " AS \"%s\"", sc->name);
	}
	vr_buf_addf(b, "CREATE TEMP TABLE vr_v2_all AS SELECT %s FROM vr_v3_call c LEFT JOIN"
		    " vr_v3_more m ON m.call_id = c.id ORDER BY c.id;"
		    "DROP TABLE vr_v3_more; DROP TABLE vr_v3_call;", sel.buf);
	vr_buf_release(&sel);
}

/*
 * SQL true when the call of temp.vr_v2_all has an end whose echo columns
 * are its own: an end without a start, or one that differs from its start
 * in one of them (store_slab_event() sets end_own so).
 */
static void own_sql(struct vr_buf *b, const struct slab_layout *l)
{
	vr_buf_addstr(b, "(end_offset_ns IS NOT NULL AND (ts_ns IS NULL");
	for (int c = 0; c < l->ncols; c++)
		if (l->col[c].echo >= 0)
			vr_buf_addf(b, " OR \"%s\" IS NOT \"%s\"", l->col[c].name,
				    l->col[l->col[c].echo].name);
	vr_buf_addstr(b, "))");
}

/* What of slab_complete a call of temp.vr_v2_all keeps in
 * shrink_call_more: all of an end without a start, a paired call's when
 * not 1 (end_row()). */
#define COMPLETE_STORED "CASE WHEN ts_ns IS NULL OR slab_complete IS NOT 1 THEN slab_complete END"

/* The calls of temp.vr_v2_all into shrink_call and shrink_call_more. */
static void move_calls(struct vr_buf *b, const struct slab_layout *l)
{
	struct vr_buf cols, sel, own;

	vr_buf_init(&cols);
	vr_buf_init(&sel);
	vr_buf_init(&own);
	own_sql(&own, l);
	for (int more = 0; more < 2; more++) {
		struct vr_buf any;

		vr_buf_reset(&cols);
		vr_buf_reset(&sel);
		vr_buf_init(&any);
		for (int c = 0; c < l->ncols; c++) {
			const struct slab_col *sc = &l->col[c];
			const char *sep = sel.len ? ", " : "";

			if (sc->more != more && sc->kind != SC_ID && (sc->kind != SC_RUN || !more))
				continue;
			vr_buf_addf(&cols, "%s\"%s\"", cols.len ? ", " : "",
				    sc->kind == SC_ID && more ? "call_id" : sc->name);
			if (sc->kind == SC_ID)
				vr_buf_addf(&sel, "%srowid", sep);
			else if (sc->kind == SC_END_OWN)
				vr_buf_addf(&sel, "%sCASE WHEN %s THEN 1 END", sep, own.buf);
			else if (sc->echo >= 0)
				vr_buf_addf(&sel, "%sCASE WHEN %s THEN \"%s\" END", sep, own.buf,
					    sc->name);
			else if (sc->kind == SC_COMPLETE)
				vr_buf_addf(&sel, "%s%s", sep, COMPLETE_STORED);
			else
				vr_buf_addf(&sel, "%s\"%s\"", sep, sc->name);
			if (sc->kind == SC_COMPLETE)
				vr_buf_addf(&any, "%s%s IS NOT NULL", any.len ? " OR " : "",
					    COMPLETE_STORED);
			else if (sc->more && sc->echo < 0 && sc->kind != SC_END_OWN)
				vr_buf_addf(&any, "%s\"%s\" IS NOT NULL", any.len ? " OR " : "",
					    sc->name);
		}
		if (more)
			vr_buf_addf(&any, " OR %s", own.buf);
		vr_buf_addf(b, "INSERT INTO %s (%s) SELECT %s FROM temp.vr_v2_all%s%s ORDER BY rowid;",
			    more ? "shrink_call_more" : "shrink_call", cols.buf, sel.buf,
			    more ? " WHERE " : "", more ? any.buf : "");
		vr_buf_release(&any);
	}
	vr_buf_addstr(b, "DROP TABLE temp.vr_v2_all;");
	vr_buf_release(&cols);
	vr_buf_release(&sel);
	vr_buf_release(&own);
}

/*
 * Version 4's and 5's rows, in shrink_call and shrink_call_more renamed
 * vr_v5_call and vr_v5_more by the caller, as temp.vr_v2_all
 * (calls_from_v2()), in id order: slab_complete was a column of
 * shrink_call, and an echo column NULL when end_own was (the start's).
 */
static void calls_from_v5(struct vr_buf *b, const struct slab_layout *l)
{
	struct vr_buf sel;

	vr_buf_init(&sel);
	for (int c = 0; c < l->ncols; c++) {
		const struct slab_col *sc = &l->col[c];

		if (sc->kind == SC_ID || sc->kind == SC_END_OWN)
			continue;
		if (sc->echo >= 0)
			vr_buf_addf(&sel, "%sCASE WHEN c.end_offset_ns IS NULL THEN NULL WHEN"
				    " m.end_own IS NULL THEN c.\"%s\" ELSE m.\"%s\" END",
				    sel.len ? ", " : "", l->col[sc->echo].name, sc->name);
		else
			vr_buf_addf(&sel, "%s%c.\"%s\"", sel.len ? ", " : "",
				    sc->more && sc->kind != SC_COMPLETE ? 'm' : 'c', sc->name);
		vr_buf_addf(&sel, " AS \"%s\"", sc->name);
	}
	vr_buf_addf(b, "CREATE TEMP TABLE vr_v2_all AS SELECT %s FROM vr_v5_call c LEFT JOIN"
		    " vr_v5_more m ON m.call_id = c.id ORDER BY c.id;"
		    "DROP TABLE vr_v5_more; DROP TABLE vr_v5_call;", sel.buf);
	vr_buf_release(&sel);
}

char *store_slab_upgrade_sql(int version)
{
	struct slab_layout l;
	struct vr_buf b;

	if (slab_layout(&l))
		return vr_strdup("");
	vr_buf_init(&b);
	if (version == 3)
		calls_from_v3(&b, &l);
	else if (version == 4 || version == 5)
		calls_from_v5(&b, &l);
	else
		calls_from_v2(&b, &l);
	move_calls(&b, &l);
	return vr_buf_detach(&b);
}

/* ---- writing the rows of a load ---------------------------------------- */

/*
 * Rows are kept until SLAB_BATCH_ROWS of them are waiting (or the run
 * ends), then written by one INSERT ... SELECT over them
 * (store_bulk_insert_rows()), as store-bulk.c writes the other events: a
 * bind, step and reset per row had made schema 3's load slower than
 * version 2's (issue 28).
 */
#define SLAB_BATCH_ROWS 4096

/* Slots of the cache of shrinker ids (a power of two). */
#define SHR_CACHE_SLOTS 64

/* A shrinker as the dictionary keys it (a NULL address: have_ false). */
struct shrinker_key {
	bool have_shr, have_shrink;
	int64_t shr, shrink;
	char *sym;		/* owned in the cache's keys; NULL: none */
};

struct store_slab {
	sqlite3 *db;
	char *path;
	struct store_bulk *bulk;
	struct slab_layout l;
	GHashTable *pending;	/* pid -> struct callrow (a start, owned) */
	struct callrow **spare;	/* rows pending had, to be used again */
	int nspare, spare_cap;
	GHashTable *shrinkers;	/* struct shrinker_key -> id (int64_t *) */
	struct {		/* the last id of each (shr, shrink) hashed here */
		struct shrinker_key key;
		int64_t id;
		bool used;
	} cache[SHR_CACHE_SLOTS];
	sqlite3_stmt *find, *add;
	struct callrows cr;	/* rows waiting to be inserted (a start waiting
				 * for its end is a row with the start's columns) */
};

static guint key_hash(gconstpointer p)
{
	const struct shrinker_key *k = p;

	return (guint)(k->shr * 31 + k->shrink) ^ (k->sym ? g_str_hash(k->sym) : 0u) ^
	       (guint)(k->have_shr * 2 + k->have_shrink);
}

static gboolean key_equal(gconstpointer a, gconstpointer b)
{
	const struct shrinker_key *x = a, *y = b;

	return x->have_shr == y->have_shr && x->have_shrink == y->have_shrink &&
	       (!x->have_shr || x->shr == y->shr) && (!x->have_shrink || x->shrink == y->shrink) &&
	       (x->sym == y->sym || (x->sym && y->sym && !strcmp(x->sym, y->sym)));
}

static void key_free(gpointer p)
{
	struct shrinker_key *k = p;

	free(k->sym);
	free(k);
}

/* The columns of the layout as the inserts of shrink_call and
 * shrink_call_more see them (callrows_plan()): an echo column is one of
 * shrink_call_more that alone gives a call no row there (end_echoes()). */
static void plan_rows(struct store_slab *s)
{
	struct callrows *cr = &s->cr;

	callrows_init(cr, s->db, s->path, s->bulk, "shrink_call", "shrink_call_more",
		      "shrinker calls", SLAB_BATCH_ROWS);
	for (int c = 0; c < s->l.ncols; c++) {
		const struct slab_col *sc = &s->l.col[c];

		cr->col[c] = (struct callrows_col){
			.name = sc->name, .more = sc->more, .marks_more = sc->more && sc->echo < 0,
			.extra = sc->kind == SC_EXTRA ? 0 : sc->kind == SC_END_EXTRA ? 1 : -1,
		};
	}
	cr->ncols = s->l.ncols;
	cr->id_col = s->l.kcol[SC_ID];
	cr->run_col = s->l.kcol[SC_RUN];
	callrows_plan(cr);
}

struct store_slab *store_slab_new(sqlite3 *db, const char *path, struct store_bulk *bulk)
{
	struct store_slab *s = vr_calloc(1, sizeof(*s));

	s->db = db;
	s->bulk = bulk;
	s->path = vr_strdup(path);
	if (slab_layout(&s->l)) {
		vr_error("%s: the shrinker events are not in the event table", path);
		free(s->path);
		free(s);
		return NULL;
	}
	s->pending = g_hash_table_new(g_direct_hash, g_direct_equal);
	s->shrinkers = g_hash_table_new_full(key_hash, key_equal, key_free, free);
	plan_rows(s);
	return s;
}

/* Drop the waiting starts and rows, unwritten. */
static void drop_rows(struct store_slab *s)
{
	GHashTableIter it;
	gpointer k, v;

	g_hash_table_iter_init(&it, s->pending);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		callrow_clear(v);
		if (s->nspare == s->spare_cap) {
			s->spare_cap = s->spare_cap ? 2 * s->spare_cap : 64;
			s->spare = vr_realloc(s->spare, (size_t)s->spare_cap * sizeof(*s->spare));
		}
		s->spare[s->nspare++] = v;
	}
	g_hash_table_remove_all(s->pending);
	callrows_drop(&s->cr);
}

static void cache_clear(struct store_slab *s)
{
	for (int i = 0; i < SHR_CACHE_SLOTS; i++) {
		free(s->cache[i].key.sym);
		s->cache[i].key.sym = NULL;
		s->cache[i].used = false;
	}
}

void store_slab_free(struct store_slab *s)
{
	if (!s)
		return;
	drop_rows(s);
	cache_clear(s);
	callrows_fini(&s->cr);
	sqlite3_finalize(s->find);
	sqlite3_finalize(s->add);
	g_hash_table_destroy(s->pending);
	g_hash_table_destroy(s->shrinkers);
	for (int i = 0; i < s->nspare; i++)
		free(s->spare[i]);
	free(s->spare);
	free(s->path);
	free(s);
}

void store_slab_reset(struct store_slab *s, bool rolled_back)
{
	drop_rows(s);
	if (rolled_back) {	/* the ids added in the transaction are gone */
		g_hash_table_remove_all(s->shrinkers);
		cache_clear(s);
	}
}

static int prepare(struct store_slab *s, sqlite3_stmt **st, const char *sql)
{
	if (*st)
		return 0;
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL) != SQLITE_OK)
		return vr_error("%s: cannot prepare statement: %s", s->path, sqlite3_errmsg(s->db));
	return 0;
}

static void bind_opt(sqlite3_stmt *st, int i, bool have, int64_t v)
{
	if (have)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/* The id of @k in shrinker, added if new; 0 or -1 after a message. */
static int shrinker_id_stored(struct store_slab *s, const struct shrinker_key *k, int64_t *id)
{
	int64_t *cached = g_hash_table_lookup(s->shrinkers, k);
	sqlite3_stmt *st;
	int rc;

	if (cached) {
		*id = *cached;
		return 0;
	}
	if (prepare(s, &s->find, "SELECT id FROM main.shrinker WHERE shr IS ?1 AND shrink IS ?2"
				 " AND shrink_sym IS ?3 ORDER BY id LIMIT 1") ||
	    prepare(s, &s->add, "INSERT INTO main.shrinker (shr, shrink, shrink_sym)"
				" VALUES (?1, ?2, ?3)"))
		return -1;
	for (int pass = 0; pass < 2; pass++) {
		st = pass ? s->add : s->find;
		bind_opt(st, 1, k->have_shr, k->shr);
		bind_opt(st, 2, k->have_shrink, k->shrink);
		if (k->sym)
			sqlite3_bind_text(st, 3, k->sym, -1, SQLITE_STATIC);
		else
			sqlite3_bind_null(st, 3);
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			*id = sqlite3_column_int64(st, 0);
		else if (rc == SQLITE_DONE && pass)
			*id = sqlite3_last_insert_rowid(s->db);
		sqlite3_reset(st);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return vr_error("%s: cannot write shrinker: %s", s->path, sqlite3_errmsg(s->db));
		if (rc == SQLITE_ROW || pass)
			break;
	}
	struct shrinker_key *own = vr_malloc(sizeof(*own));
	int64_t *v = vr_malloc(sizeof(*v));

	*own = *k;
	own->sym = k->sym ? vr_strdup(k->sym) : NULL;
	*v = *id;
	g_hash_table_insert(s->shrinkers, own, v);
	return 0;
}

/*
 * The id of the shrinker of @ev (field @shr and @shrink, its symbol):
 * from the cache slot of its (shr, shrink) pair when the slot holds it
 * (a busy trace calls a few dozen shrinkers a million times), else from
 * shrinker_id_stored(), kept in the slot.  0 or -1 after a message.
 */
static int shrinker_id(struct store_slab *s, const struct ingest_event *ev, int shr, int shrink,
		       int64_t *id)
{
	struct shrinker_key k = {
		.have_shr = ev->present & (1u << shr),
		.have_shrink = ev->present & (1u << shrink),
		.sym = (char *)ev->str[shrink],
	};
	unsigned slot;

	k.shr = k.have_shr ? ev->val[shr] : 0;
	k.shrink = k.have_shrink ? ev->val[shrink] : 0;
	/* multiplicative hashing: the addresses' low bits are alike */
	slot = (unsigned)((((uint64_t)k.shr * 0x9e3779b97f4a7c15ull) ^ (uint64_t)k.shrink) *
			  0xc2b2ae3d27d4eb4full >> 58) % SHR_CACHE_SLOTS;
	if (s->cache[slot].used && key_equal(&s->cache[slot].key, &k)) {
		*id = s->cache[slot].id;
		return 0;
	}
	if (shrinker_id_stored(s, &k, id))
		return -1;
	free(s->cache[slot].key.sym);
	s->cache[slot].key = k;
	s->cache[slot].key.sym = k.sym ? vr_strdup(k.sym) : NULL;
	s->cache[slot].id = *id;
	s->cache[slot].used = true;
	return 0;
}

/*
 * The end's echo columns of @r (its cpu, shrinker, nid, memcg_id and
 * unused_scan, echo_fields) are stored, with end_own 1, when the end has
 * no start in @r (!@paired) or one of them differs from the start's; else
 * they are left NULL, and the view gives the start's.
 */
static void end_echoes(const struct store_slab *s, struct callrow *r, bool paired)
{
	const struct slab_layout *l = &s->l;
	uint64_t echoes = 0;
	bool own = !paired;

	for (int c = 0; c < l->ncols; c++) {
		int st = l->col[c].echo;

		if (st < 0)
			continue;
		echoes |= 1ull << c;
		if (((r->have >> c) & 1) != ((r->have >> st) & 1) ||
		    ((r->have >> c) & 1 && r->v[c] != r->v[st]))
			own = true;
	}
	if (own)
		callrow_set(&s->cr, r, l->kcol[SC_END_OWN], 1);
	else
		r->have &= ~echoes;
}

/* A start's columns of @r from @ev; 0 or -1 after a message. */
static int start_row(struct store_slab *s, int64_t run_id, const struct ingest_event *ev,
		     struct callrow *r)
{
	const struct slab_layout *l = &s->l;
	int64_t id;

	if (shrinker_id(s, ev, l->s_shr, l->s_shrink, &id))
		return -1;
	callrow_begin(r);
	r->extra[0] = ev->extra_json ? vr_strdup(ev->extra_json) : NULL;
	callrow_set(&s->cr, r, l->kcol[SC_RUN], run_id);
	callrow_set(&s->cr, r, l->kcol[SC_PID], ev->pid);
	callrow_set(&s->cr, r, l->kcol[SC_TS], (int64_t)ev->ts_ns);
	callrow_set(&s->cr, r, l->kcol[SC_CPU], ev->cpu);
	callrow_set(&s->cr, r, l->kcol[SC_SHRINKER], id);
	for (uint32_t p = ev->present; p; p &= p - 1) {
		int f = __builtin_ctz(p);

		if (f < VR_SPEC_MAX_FIELDS && l->s_col[f] >= 0)
			callrow_set(&s->cr, r, l->s_col[f], ev->val[f]);
	}
	if (r->extra[0])
		r->more = true;
	return 0;
}

/*
 * The end's columns of @r from @ev: @paired, into the row of the start
 * the model paired it with (the start's columns set), else a row of its
 * own (@r empty).  0 or -1 after a message.
 */
static int end_row(struct store_slab *s, int64_t run_id, const struct ingest_event *ev,
		   bool paired, struct callrow *r)
{
	const struct slab_layout *l = &s->l;
	int64_t id;

	if (shrinker_id(s, ev, l->e_shr, l->e_shrink, &id))
		return -1;
	if (!paired) {
		callrow_begin(r);
		callrow_set(&s->cr, r, l->kcol[SC_RUN], run_id);
		callrow_set(&s->cr, r, l->kcol[SC_PID], ev->pid);
	}
	r->extra[1] = ev->extra_json ? vr_strdup(ev->extra_json) : NULL;
	if (r->extra[1])
		r->more = true;
	callrow_set(&s->cr, r, l->kcol[SC_END_OFFSET],
		paired ? (int64_t)ev->ts_ns - r->v[l->kcol[SC_TS]] : (int64_t)ev->ts_ns);
	callrow_set(&s->cr, r, l->kcol[SC_END_CPU], ev->cpu);
	callrow_set(&s->cr, r, l->kcol[SC_END_SHRINKER], id);
	for (uint32_t p = ev->present; p; p &= p - 1) {
		int f = __builtin_ctz(p);

		if (f < VR_SPEC_MAX_FIELDS && l->e_col[f] >= 0)
			callrow_set(&s->cr, r, l->e_col[f], ev->val[f]);
	}
	if (!paired && (ev->present & (1u << l->e_begin)))
		callrow_set(&s->cr, r, l->kcol[SC_BEGIN_NS], ev->val[l->e_begin]);
	if (!paired && (ev->present & (1u << l->e_nobj)))
		callrow_set(&s->cr, r, l->kcol[SC_BEGIN_NOBJ], ev->val[l->e_nobj]);
	/* a paired call's is 1 unless stored (the model pairs and marks
	 * together, model_slab_end()); an end alone has a _more row anyway */
	if ((ev->present & (1u << l->e_complete)) && (!paired || ev->val[l->e_complete] != 1))
		callrow_set(&s->cr, r, l->kcol[SC_COMPLETE], ev->val[l->e_complete]);
	end_echoes(s, r, paired);
	return 0;
}

/* Insert the rows waiting, and their shrink_call_more rows; 0 or -1. */
static int write_rows(struct store_slab *s)
{
	int64_t first_id;
	int n = s->cr.nrows, rc;

	if (!n)
		return 0;
	rc = callrows_insert(&s->cr, n, &first_id);
	callrows_shift(&s->cr, n);
	return rc;
}

/*
 * Queue @r (its extras move with it) as the next row of shrink_call; its id
 * is SQLite's (write_rows()).  Writes the queue when full; 0 or -1 after a
 * message.
 */
static int queue_row(struct store_slab *s, struct callrow *r)
{
	s->cr.rows[s->cr.nrows++] = *r;
	r->extra[0] = r->extra[1] = NULL;
	return s->cr.nrows == SLAB_BATCH_ROWS ? write_rows(s) : 0;
}

/* The pending start of @pid, taken out of the table (owned; unpend()). */
static struct callrow *take_pending(struct store_slab *s, int pid)
{
	struct callrow *r = g_hash_table_lookup(s->pending, GINT_TO_POINTER(pid));

	if (r)
		g_hash_table_steal(s->pending, GINT_TO_POINTER(pid));
	return r;
}

/* Give @r back to the spares (its extras already moved or freed). */
static void unpend(struct store_slab *s, struct callrow *r)
{
	callrow_clear(r);
	if (s->nspare == s->spare_cap) {
		s->spare_cap = s->spare_cap ? 2 * s->spare_cap : 64;
		s->spare = vr_realloc(s->spare, (size_t)s->spare_cap * sizeof(*s->spare));
	}
	s->spare[s->nspare++] = r;
}

/*
 * Did the model pair the end @ev with start @st (model_slab_end(): the
 * start's time and nr_objects_to_shrink in the end's slab_begin_ns and
 * slab_nr_objects_to_shrink)?  Only then do they share a row, whose view
 * gives those two columns from the start's.
 */
static bool model_paired(const struct store_slab *s, const struct callrow *st,
			 const struct ingest_event *ev)
{
	const struct slab_layout *l = &s->l;
	int nobj = l->s_col[l->s_nobj];
	bool st_nobj = st->have & (1ull << nobj), en_nobj = ev->present & (1u << l->e_nobj);

	return (ev->present & (1u << l->e_begin)) && ev->val[l->e_begin] == st->v[l->kcol[SC_TS]] &&
	       st_nobj == en_nobj && (!st_nobj || st->v[nobj] == ev->val[l->e_nobj]);
}

int store_slab_event(struct store_slab *s, int64_t run_id, const struct ingest_event *ev)
{
	struct callrow *open = take_pending(s, ev->pid), *r, alone;
	int rc = 0;

	if (ev->spec == s->l.start) {
		/* an open start of the task: the model left it unended */
		if (open) {
			rc = queue_row(s, open);
			unpend(s, open);
		}
		r = s->nspare ? s->spare[--s->nspare] : vr_calloc(1, sizeof(*r));
		if (rc || start_row(s, run_id, ev, r)) {
			unpend(s, r);
			return -1;
		}
		g_hash_table_insert(s->pending, GINT_TO_POINTER(ev->pid), r);
		return 0;
	}
	if (open && model_paired(s, open, ev)) {
		rc = end_row(s, run_id, ev, true, open) ?: queue_row(s, open);
		unpend(s, open);
		return rc;
	}
	if (open) {	/* not the model's pairing: each alone, in time order */
		rc = queue_row(s, open);
		unpend(s, open);
	}
	return rc ?: end_row(s, run_id, ev, false, &alone) ?: queue_row(s, &alone);
}

/* A start still waiting at the run's end. */
struct open_start {
	int64_t ts;
	int pid;
	struct callrow *r;
};

/* By time, then pid (the order of the rows of starts never ended). */
static int by_ts(const void *a, const void *b)
{
	const struct open_start *x = a, *y = b;

	if (x->ts != y->ts)
		return (x->ts > y->ts) - (x->ts < y->ts);
	return (x->pid > y->pid) - (x->pid < y->pid);
}

int store_slab_flush(struct store_slab *s, int64_t run_id)
{
	guint n = g_hash_table_size(s->pending);
	struct open_start *open = vr_calloc(n + 1, sizeof(*open));
	GHashTableIter it;
	gpointer k, v;
	guint i = 0;
	int rc = 0;

	(void)run_id;	/* the rows have it */
	g_hash_table_iter_init(&it, s->pending);
	while (g_hash_table_iter_next(&it, &k, &v))
		open[i++] = (struct open_start){ ((struct callrow *)v)->v[s->l.kcol[SC_TS]],
						 GPOINTER_TO_INT(k), v };
	g_hash_table_steal_all(s->pending);
	qsort(open, n, sizeof(*open), by_ts);
	for (i = 0; i < n; i++) {
		if (!rc)
			rc = queue_row(s, open[i].r);
		unpend(s, open[i].r);
	}
	free(open);
	if (!rc)
		rc = write_rows(s);
	return rc;
}
