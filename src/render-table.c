// SPDX-License-Identifier: GPL-2.0
/*
 * render-table.c - render a struct render_table as text (the mmtests
 * compare layout of 2017 or of today, see enum render_layout), Markdown,
 * CSV or JSON.  Every output format walks the same rows and cells.
 */
#include "render.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEF_STAT_WIDTH 8
#define DEF_OP_WIDTH 20
#define DEF_VALUE_WIDTH 12
#define DEF_GAIN_WIDTH 6

int render_format_parse(const char *name, enum render_format *out)
{
	static const char *const names[] = { "text", "markdown", "csv", "json" };

	for (size_t i = 0; i < VR_ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i])) {
			*out = (enum render_format)i;
			return 0;
		}
	return -1;
}

int render_layout_parse(const char *name, enum render_layout *out)
{
	if (!strcmp(name, "2017"))
		*out = RENDER_LAYOUT_2017;
	else if (!strcmp(name, "mmtests"))
		*out = RENDER_LAYOUT_MMTESTS;
	else
		return -1;
	return 0;
}

void render_kernel_split(const char *name, char **first, char **second)
{
	const char *dash = strchr(name, '-');
	const char *p;

	if (dash && dash[1] == 'r' && dash[2] == 'c' && isdigit((unsigned char)dash[3])) {
		for (p = dash + 3; isdigit((unsigned char)*p); p++)
			;
		if (*p == '-' || !*p)
			dash = p;
	}
	if (!dash || dash == name || !*dash || !dash[1]) {
		*first = vr_strdup("");
		*second = vr_strdup(name);
		return;
	}
	*first = vr_malloc((size_t)(dash - name) + 1);
	memcpy(*first, name, (size_t)(dash - name));
	(*first)[dash - name] = '\0';
	*second = vr_strdup(dash + 1);
}

/*
 * The footnote number of row @r of @t: 1 + the distinct notes of the rows
 * before it that differ from its own, in row order; 0 without a note.
 */
static size_t footnote_number(const struct render_table *t, size_t r)
{
	size_t n = 0;

	if (!t->rows[r].note)
		return 0;
	for (size_t i = 0; i <= r; i++) {
		bool seen = false;

		if (!t->rows[i].note)
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = t->rows[j].note && !strcmp(t->rows[j].note, t->rows[i].note);
		if (seen)
			continue;
		n++;
		if (!strcmp(t->rows[i].note, t->rows[r].note))
			return n;
	}
	return n;
}

/* @s with the abbreviations of @t applied when it shortens (the first
 * occurrence of each), into @b; @used[i] set for each applied. */
static void shortened(const struct render_table *t, const char *s, struct vr_buf *b, bool *used)
{
	char *cur = vr_strdup(s);

	for (size_t i = 0; t->shorten && i < t->nabbrevs; i++) {
		char *at = strstr(cur, t->abbrevs[i].full);
		struct vr_buf n;

		if (!at)
			continue;
		vr_buf_init(&n);
		vr_buf_add(&n, cur, (size_t)(at - cur));
		vr_buf_addstr(&n, t->abbrevs[i].abbr);
		vr_buf_addstr(&n, at + strlen(t->abbrevs[i].full));
		free(cur);
		cur = vr_buf_detach(&n);
		if (used)
			used[i] = true;
	}
	vr_buf_addstr(b, cur);
	free(cur);
}

/* Row @r's operation label as text and Markdown print it: "op[N]" with its
 * footnote's number (shortened in text when the table says so: @text).
 * Malloc'ed. */
static char *row_label_as(const struct render_table *t, size_t r, bool text)
{
	size_t n = footnote_number(t, r);
	struct vr_buf b;

	vr_buf_init(&b);
	if (text)
		shortened(t, t->rows[r].op, &b, NULL);
	else
		vr_buf_addstr(&b, t->rows[r].op);
	if (n)
		vr_buf_addf(&b, "[%zu]", n);
	return vr_buf_detach(&b);
}

static char *row_label(const struct render_table *t, size_t r)
{
	return row_label_as(t, r, true);
}

/* Append @text (escaped as messages are) to @out wrapped at @width (0: not
 * wrapped) at spaces, continuation lines indented by @indent spaces; a
 * newline at the end. */
static void add_wrapped(struct vr_buf *out, const char *text, int width, int indent)
{
	struct vr_buf e;
	const char *s;
	int col = 0;

	vr_buf_init(&e);
	vr_buf_add_escaped(&e, text);
	s = e.buf ? e.buf : "";
	while (*s) {
		size_t word = strcspn(s, " ");

		if (col && width && col + 1 + (int)word > width) {
			vr_buf_addf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col) {
			vr_buf_addstr(out, " ");
			col++;
		}
		vr_buf_add(out, s, word);
		col += (int)word;
		s += word;
		s += strspn(s, " ");
	}
	vr_buf_addstr(out, "\n");
	vr_buf_release(&e);
}

/* "[N] note" for each distinct note of @t's rows, one per line, through
 * @add (escaped for the format); NULL: text, wrapped at t->max_width. */
static void footnotes(const struct render_table *t, struct vr_buf *out,
		      void (*add)(struct vr_buf *, const char *))
{
	size_t last = 0;

	for (size_t r = 0; r < t->nrows; r++) {
		size_t n = footnote_number(t, r);
		struct vr_buf line;

		if (n <= last)
			continue;
		last = n;
		vr_buf_init(&line);
		vr_buf_addf(&line, "[%zu] %s", n, t->rows[r].note);
		if (add) {
			add(out, line.buf);
			vr_buf_addstr(out, "\n");
		} else {
			add_wrapped(out, line.buf, t->max_width, 4);
		}
		vr_buf_release(&line);
	}
}

static int def(int w, int d)
{
	return w > 0 ? w : d;
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* Label widths: the minimum, widened to the longest label; -1 if no stats. */
static void label_widths(const struct render_table *t, int *stat_w, int *op_w)
{
	bool mm = t->layout == RENDER_LAYOUT_MMTESTS;
	bool have_stat = false;

	*stat_w = def(t->stat_width, mm ? 1 : DEF_STAT_WIDTH);
	*op_w = def(t->op_width, mm ? 1 : DEF_OP_WIDTH);
	for (size_t r = 0; r < t->nrows; r++) {
		if (t->rows[r].stat) {
			have_stat = true;
			*stat_w = max_int(*stat_w, (int)strlen(t->rows[r].stat));
		}
		char *label = row_label(t, r);

		*op_w = max_int(*op_w, (int)strlen(label));
		free(label);
	}
	if (t->ci_label)
		*op_w = max_int(*op_w, (int)strlen(t->ci_label));
	if (!have_stat)
		*stat_w = -1;	/* no stat column and no separator */
}

static void rstrip_line(struct vr_buf *out, size_t line_start)
{
	while (out->len > line_start && out->buf[out->len - 1] == ' ')
		out->buf[--out->len] = '\0';
	vr_buf_addstr(out, "\n");
}

/* Widths of one kernel column of the text layout. */
struct text_col {
	char *first, *second;	/* header lines (render_kernel_split()) */
	int value_w;		/* value field, at least one space before the value */
	int gain_w;		/* the number inside (gain%), the layout's */
	int width;		/* the whole cell; header lines right-aligned in it */
};

/* The value and gain a cell prints (NAN: "-", no gain). */
static void cell_shown(const struct render_table *t, const struct render_cell *cell,
		       double *value, double *gain)
{
	(void)t;
	*value = cell->value;
	*gain = cell->gain_pct;
}

/* "[lo, hi]%" of @cell into @b (reset); false when it has none. */
static bool ci_text(const struct render_table *t, const struct render_cell *cell,
		    struct vr_buf *b)
{
	b->len = 0;
	if (b->buf)
		b->buf[0] = '\0';
	if (!t->ci_label || !isfinite(cell->ci_lo) || !isfinite(cell->ci_hi))
		return false;
	vr_buf_addf(b, "[%.2f, %.2f]%%", cell->ci_lo, cell->ci_hi);
	return true;
}

static int fmt_len(const char *fmt, int precision, double v)
{
	char tmp[64];

	return snprintf(tmp, sizeof(tmp), fmt, precision, v);
}

/* Column @c's widths: the layout's, widened by its header lines and values
 * (a wider gain pushes its row right instead, as printf does in mmtests:
 * the 2017 seed table's -2447.00%). */
static void measure_col(const struct render_table *t, size_t c, struct text_col *col)
{
	bool mm = t->layout == RENDER_LAYOUT_MMTESTS;

	struct vr_buf name;	/* a label from a trace's uname: control bytes escaped */

	vr_buf_init(&name);
	render_kernel_split(vr_escaped(&name, t->columns[c]), &col->first, &col->second);
	vr_buf_release(&name);
	col->value_w = def(t->value_width, mm ? 18 : DEF_VALUE_WIDTH);
	col->gain_w = def(t->gain_width, mm ? 7 : DEF_GAIN_WIDTH);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct render_row *row = &t->rows[r];
		double v, g;

		cell_shown(t, &row->cells[c], &v, &g);
		if (!isnan(v))
			col->value_w = max_int(col->value_w, fmt_len("%.*f", row->precision, v) + 1);
	}
	col->width = col->value_w + (t->show_gain ? col->gain_w + 4 : 0);
	for (size_t r = 0; r < t->nrows; r++) {
		struct vr_buf ci;

		vr_buf_init(&ci);
		if (ci_text(t, &t->rows[r].cells[c], &ci))
			col->width = max_int(col->width, (int)ci.len + 1);
		vr_buf_release(&ci);
	}
	col->width = max_int(col->width, (int)strlen(col->first) + 1);
	col->width = max_int(col->width, (int)strlen(col->second) + 1);
}

static void text_header(const struct render_table *t, const struct text_col *cols,
			const size_t *idx, size_t ni, int label_w, struct vr_buf *out)
{
	bool first_line = false;

	for (size_t i = 0; i < ni; i++)
		first_line |= cols[idx[i]].first[0] != '\0';
	for (int line = first_line ? 0 : 1; line < 2; line++) {
		size_t start = out->len;

		vr_buf_addf(out, "%*s", label_w, "");
		for (size_t i = 0; i < ni; i++)
			vr_buf_addf(out, "%*s", cols[idx[i]].width,
				    line ? cols[idx[i]].second : cols[idx[i]].first);
		rstrip_line(out, start);
	}
	(void)t;
}

static void text_cell(const struct render_table *t, const struct render_row *row,
		      const struct render_cell *cell, const struct text_col *col,
		      struct vr_buf *out)
{
	int pad = col->width - col->value_w - (t->show_gain ? col->gain_w + 4 : 0);
	double v, g;

	cell_shown(t, cell, &v, &g);
	vr_buf_addf(out, "%*s", pad, "");
	if (isnan(v))
		vr_buf_addf(out, "%*s", col->value_w, "-");
	else
		vr_buf_addf(out, "%*.*f", col->value_w, row->precision, v);
	if (!t->show_gain)
		return;
	if (isnan(v) || isnan(g))
		vr_buf_addf(out, "%*s", col->gain_w + 4, "");	/* mmtests: NaN% */
	else if (cell->significant)
		vr_buf_addf(out, " *%*.2f%%*", col->gain_w, g);
	else
		vr_buf_addf(out, " (%*.2f%%)", col->gain_w, g);
}

/* The line of @row's intervals under it (render_table.ci_label), each
 * right-aligned in its column of @idx[0..@ni-1]; none when none has one. */
static void text_ci_line(const struct render_table *t, const struct render_row *row,
			 const struct text_col *cols, const size_t *idx, size_t ni, int stat_w,
			 int op_w, struct vr_buf *out)
{
	struct vr_buf ci;
	size_t start = out->len;
	bool any = false;

	vr_buf_init(&ci);
	for (size_t i = 0; i < ni; i++)
		any |= ci_text(t, &row->cells[idx[i]], &ci);
	if (any) {
		if (stat_w >= 0)
			vr_buf_addf(out, "%-*s ", stat_w, "");
		vr_buf_addf(out, "%-*s", op_w, t->ci_label);
		for (size_t i = 0; i < ni; i++) {
			ci_text(t, &row->cells[idx[i]], &ci);
			vr_buf_addf(out, "%*s", cols[idx[i]].width, ci.len ? ci.buf : "");
		}
		rstrip_line(out, start);
	}
	vr_buf_release(&ci);
}

/* The widest text of column @col in any row of @t (its cells as printed: a
 * gain wider than the layout's pushes them past col->width). */
static int col_extent(const struct render_table *t, size_t c, const struct text_col *col)
{
	int w = col->width;

	for (size_t r = 0; r < t->nrows; r++) {
		struct vr_buf b;

		vr_buf_init(&b);
		text_cell(t, &t->rows[r], &t->rows[r].cells[c], col, &b);
		w = max_int(w, (int)b.len);
		vr_buf_release(&b);
	}
	return w;
}

/* The rows of @t over its columns @idx[0..@ni-1]: header, rows, intervals. */
static void text_block(const struct render_table *t, const struct text_col *cols,
		       const size_t *idx, size_t ni, int stat_w, int op_w, struct vr_buf *out)
{
	text_header(t, cols, idx, ni, stat_w < 0 ? op_w : stat_w + 1 + op_w, out);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct render_row *row = &t->rows[r];
		size_t start = out->len;
		char *label = row_label(t, r);

		if (stat_w >= 0)
			vr_buf_addf(out, "%-*s ", stat_w, row->stat ? row->stat : "");
		vr_buf_addf(out, "%-*s", op_w, label);
		free(label);
		for (size_t i = 0; i < ni; i++)
			text_cell(t, row, &row->cells[idx[i]], &cols[idx[i]], out);
		rstrip_line(out, start);
		text_ci_line(t, row, cols, idx, ni, stat_w, op_w, out);
	}
}

/* "Shortened: KsWakeDelay = KswapdWakeupDelay, ..." for the abbreviations
 * the labels of @t use, wrapped at t->max_width; nothing when none. */
static void text_legend(const struct render_table *t, struct vr_buf *out)
{
	bool *used = vr_calloc(t->nabbrevs + 1, sizeof(*used));
	struct vr_buf b, scratch;

	vr_buf_init(&scratch);
	for (size_t r = 0; t->shorten && r < t->nrows; r++) {
		scratch.len = 0;
		shortened(t, t->rows[r].op, &scratch, used);
	}
	vr_buf_release(&scratch);
	vr_buf_init(&b);
	for (size_t i = 0; i < t->nabbrevs; i++)
		if (used[i])
			vr_buf_addf(&b, "%s%s = %s", b.len ? ", " : "Shortened: ", t->abbrevs[i].abbr,
				    t->abbrevs[i].full);
	if (b.len)
		add_wrapped(out, b.buf, t->max_width, 4);
	vr_buf_release(&b);
	free(used);
}

/*
 * Text: one block of every column, or with t->max_width, blocks that fit
 * it, each the baseline and as many of the next columns as fit (at least
 * one), separated by a blank line; then the notes, footnotes and legend.
 */
static void render_text(const struct render_table *t, struct vr_buf *out)
{
	struct text_col *cols = vr_calloc(t->ncols + 1, sizeof(*cols));
	size_t *idx = vr_calloc(t->ncols + 1, sizeof(*idx));
	int stat_w, op_w, label_w, *ext = vr_calloc(t->ncols + 1, sizeof(*ext));

	label_widths(t, &stat_w, &op_w);
	label_w = stat_w < 0 ? op_w : stat_w + 1 + op_w;
	for (size_t c = 0; c < t->ncols; c++) {
		measure_col(t, c, &cols[c]);
		ext[c] = col_extent(t, c, &cols[c]);
	}
	for (size_t next = 1, first = 1; next < t->ncols || first; first = 0) {
		size_t ni = 0;
		int w = label_w;

		idx[ni++] = 0;
		w += t->ncols ? ext[0] : 0;
		while (next < t->ncols && (ni == 1 || !t->max_width || w + ext[next] <= t->max_width)) {
			w += ext[next];
			idx[ni++] = next++;
		}
		if (next > ni)	/* a block after the first */
			vr_buf_addstr(out, "\n");
		text_block(t, cols, idx, t->ncols ? ni : 0, stat_w, op_w, out);
	}
	for (size_t i = 0; i < t->nnotes; i++)
		add_wrapped(out, t->notes[i], t->max_width, 4);
	footnotes(t, out, NULL);
	text_legend(t, out);
	for (size_t c = 0; c < t->ncols; c++) {
		free(cols[c].first);
		free(cols[c].second);
	}
	free(cols);
	free(idx);
	free(ext);
}

/* The widest line of @b. */
static int widest_line(const struct vr_buf *b)
{
	int w = 0, col = 0;

	for (size_t i = 0; i < b->len; i++) {
		col = b->buf[i] == '\n' ? 0 : col + 1;
		w = max_int(w, col);
	}
	return w;
}

/* Is a line of the text of @t[0..@n-1] wider than @width? */
static bool text_wider(const struct render_table *t, size_t n, int width)
{
	bool wide = false;

	for (size_t i = 0; i < n && !wide; i++) {
		struct vr_buf b;

		vr_buf_init(&b);
		render_text(&t[i], &b);
		wide = widest_line(&b) > width;
		vr_buf_release(&b);
	}
	return wide;
}

void render_text_fit(struct render_table *t, size_t n, int width)
{
	for (size_t i = 0; i < n; i++) {
		t[i].max_width = width;
		t[i].shorten = false;
	}
	if (!text_wider(t, n, width))
		return;
	for (size_t i = 0; i < n; i++)	/* widths set only to line tables up */
		t[i].stat_width = t[i].op_width = t[i].value_width = t[i].gain_width = 0;
	if (!text_wider(t, n, width))
		return;
	for (size_t i = 0; i < n; i++)
		t[i].shorten = t[i].nabbrevs > 0;
}

/* @s in a Markdown table cell: control bytes escaped as in messages, '|'
 * as "\|". */
static void md_escape(struct vr_buf *out, const char *s)
{
	struct vr_buf b;

	vr_buf_init(&b);
	for (s = vr_escaped(&b, s); *s; s++) {
		if (*s == '|')
			vr_buf_addstr(out, "\\");
		vr_buf_add(out, s, 1);
	}
	vr_buf_release(&b);
}

/* Does a row of @t carry a note? */
static bool has_notes(const struct render_table *t)
{
	for (size_t r = 0; r < t->nrows; r++)
		if (t->rows[r].note)
			return true;
	return false;
}

static void render_markdown(const struct render_table *t, struct vr_buf *out)
{
	bool have_stat = t->nrows && t->rows[0].stat;

	vr_buf_addstr(out, have_stat ? "| stat | operation |" : "| counter |");
	for (size_t c = 0; c < t->ncols; c++) {
		vr_buf_addstr(out, " ");
		md_escape(out, t->columns[c]);
		vr_buf_addstr(out, " |");
	}
	vr_buf_addstr(out, have_stat ? "\n| --- | --- |" : "\n| --- |");
	for (size_t c = 0; c < t->ncols; c++)
		vr_buf_addstr(out, " ---: |");
	vr_buf_addstr(out, "\n");
	for (size_t r = 0; r < t->nrows; r++) {
		const struct render_row *row = &t->rows[r];

		vr_buf_addstr(out, "| ");
		if (have_stat) {
			md_escape(out, row->stat ? row->stat : "");
			vr_buf_addstr(out, " | ");
		}
		{
			char *label = row_label_as(t, r, false);

			md_escape(out, label);
			free(label);
		}
		vr_buf_addstr(out, " |");
		for (size_t c = 0; c < t->ncols; c++) {
			const struct render_cell *cell = &row->cells[c];
			const char *bold = cell->significant ? "**" : "";

			if (isnan(cell->value)) {
				vr_buf_addstr(out, " - |");
				continue;
			}
			vr_buf_addf(out, " %s%.*f", bold, row->precision, cell->value);
			if (t->show_gain && !isnan(cell->gain_pct))
				vr_buf_addf(out, " (%.2f%%)", cell->gain_pct);
			if (t->ci_label && isfinite(cell->ci_lo) && isfinite(cell->ci_hi))
				vr_buf_addf(out, " [%.2f, %.2f]%%", cell->ci_lo, cell->ci_hi);
			vr_buf_addf(out, "%s |", bold);
		}
		vr_buf_addstr(out, "\n");
	}
	if (t->nnotes || has_notes(t))
		vr_buf_addstr(out, "\n");
	for (size_t i = 0; i < t->nnotes; i++) {
		md_escape(out, t->notes[i]);
		vr_buf_addstr(out, "\n");
	}
	footnotes(t, out, md_escape);	/* Markdown: not wrapped */
}

static void csv_field(struct vr_buf *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		vr_buf_addstr(out, s);
		return;
	}
	vr_buf_addstr(out, "\"");
	for (; *s; s++) {
		if (*s == '"')
			vr_buf_addstr(out, "\"");
		vr_buf_add(out, s, 1);
	}
	vr_buf_addstr(out, "\"");
}

/* A number for CSV/JSON: %.17g keeps every bit; NAN becomes @nan_text. */
static void add_number(struct vr_buf *out, double v, const char *nan_text)
{
	if (isnan(v) || isinf(v))
		vr_buf_addstr(out, nan_text);
	else
		vr_buf_addf(out, "%.17g", v);
}

/* @sep, then @n, or @none when @n < 0 (not given). */
static void add_count(struct vr_buf *out, const char *sep, int n, const char *none)
{
	vr_buf_addstr(out, sep);
	if (n < 0)
		vr_buf_addstr(out, none);
	else
		vr_buf_addf(out, "%d", n);
}

static void render_csv(const struct render_table *t, bool ci, struct vr_buf *out)
{
	for (size_t r = 0; r < t->nrows; r++) {
		const struct render_row *row = &t->rows[r];

		for (size_t c = 0; c < t->ncols; c++) {
			const struct render_cell *cell = &row->cells[c];

			csv_field(out, t->name ? t->name : "");
			vr_buf_addstr(out, ",");
			csv_field(out, row->stat ? row->stat : "");
			vr_buf_addstr(out, ",");
			csv_field(out, row->op);
			vr_buf_addstr(out, ",");
			csv_field(out, t->columns[c]);
			vr_buf_addstr(out, ",");
			add_number(out, cell->value, "");
			vr_buf_addstr(out, ",");
			if (t->show_gain && isinf(cell->gain_pct))	/* a baseline of 0 */
				vr_buf_addstr(out, cell->gain_pct < 0 ? "-inf" : "inf");
			else
				add_number(out, t->show_gain ? cell->gain_pct : NAN, "");
			vr_buf_addstr(out, ",");
			add_number(out, cell->p, "");
			vr_buf_addstr(out, cell->significant ? ",1," : ",0,");
			csv_field(out, row->unit ? row->unit : "");
			vr_buf_addstr(out, ",");
			csv_field(out, cell->data ? cell->data : "");
			add_count(out, ",", cell->data ? cell->nvalues : -1, "");
			add_count(out, ",", cell->data ? cell->nruns : -1, "");
			vr_buf_addstr(out, ",");
			csv_field(out, row->note ? row->note : "");
			if (ci) {
				vr_buf_addstr(out, ",");
				add_number(out, t->ci_label ? cell->ci_lo : NAN, "");
				vr_buf_addstr(out, ",");
				add_number(out, t->ci_label ? cell->ci_hi : NAN, "");
			}
			vr_buf_addstr(out, ",");
			add_number(out, isnan(cell->p) ? NAN : cell->p_adj, "");
			vr_buf_addstr(out, "\n");
		}
	}
}

static void json_str(struct vr_buf *out, const char *s)
{
	if (s)
		vr_buf_add_json_str(out, s, strlen(s));
	else
		vr_buf_addstr(out, "null");
}

static void render_json(const struct render_table *t, struct vr_buf *out)
{
	vr_buf_addstr(out, "{\"name\":");
	json_str(out, t->name);
	vr_buf_addstr(out, ",\"kernels\":[");
	for (size_t c = 0; c < t->ncols; c++) {
		vr_buf_addstr(out, c ? "," : "");
		json_str(out, t->columns[c]);
	}
	vr_buf_addstr(out, "],\"rows\":[");
	for (size_t r = 0; r < t->nrows; r++) {
		const struct render_row *row = &t->rows[r];

		vr_buf_addstr(out, r ? ",\n{\"stat\":" : "\n{\"stat\":");
		json_str(out, row->stat);
		vr_buf_addstr(out, ",\"operation\":");
		json_str(out, row->op);
		vr_buf_addstr(out, ",\"unit\":");
		json_str(out, row->unit);
		vr_buf_addstr(out, ",\"note\":");
		json_str(out, row->note);
		vr_buf_addstr(out, ",\"cells\":[");
		for (size_t c = 0; c < t->ncols; c++) {
			const struct render_cell *cell = &row->cells[c];

			vr_buf_addstr(out, c ? ",{\"value\":" : "{\"value\":");
			add_number(out, cell->value, "null");
			if (t->show_gain) {
				vr_buf_addstr(out, ",\"gain_pct\":");
				add_number(out, cell->gain_pct, "null");
				vr_buf_addstr(out, ",\"p\":");
				add_number(out, cell->p, "null");
				vr_buf_addstr(out, ",\"p_adj\":");
				add_number(out, isnan(cell->p) ? NAN : cell->p_adj, "null");
				vr_buf_addstr(out, cell->significant ? ",\"significant\":true"
								     : ",\"significant\":false");
				if (t->ci_label) {
					vr_buf_addstr(out, ",\"ci_lo\":");
					add_number(out, cell->ci_lo, "null");
					vr_buf_addstr(out, ",\"ci_hi\":");
					add_number(out, cell->ci_hi, "null");
				}
			}
			if (cell->data) {
				vr_buf_addstr(out, ",\"data\":");
				json_str(out, cell->data);
				add_count(out, ",\"nvalues\":", cell->nvalues, "null");
				add_count(out, ",\"nruns\":", cell->nruns, "null");
			}
			vr_buf_addstr(out, "}");
		}
		vr_buf_addstr(out, "]}");
	}
	vr_buf_addstr(out, "],\"notes\":[");
	for (size_t i = 0; i < t->nnotes; i++) {
		vr_buf_addstr(out, i ? "," : "");
		json_str(out, t->notes[i]);
	}
	vr_buf_addstr(out, "]}");
}

int render_tables(const struct render_table *t, size_t n, enum render_format fmt,
		  struct vr_buf *out)
{
	bool ci = false;

	for (size_t i = 0; i < n; i++)
		ci |= t[i].ci_label != NULL;
	if (fmt == RENDER_CSV)
		vr_buf_addf(out, "table,stat,operation,kernel,value,gain_pct,p,significant,unit,data,"
			    "nvalues,nruns,note%s,p_adj\n", ci ? ",ci_lo,ci_hi" : "");
	if (fmt == RENDER_JSON)
		vr_buf_addstr(out, "{\"tables\":[");
	for (size_t i = 0, shown = 0; i < n; i++) {
		/* text and Markdown leave out a table with nothing in it (compare
		 * --metrics counters: no latency row), not a lone header line */
		bool empty = !t[i].nrows && !t[i].nnotes;

		switch (fmt) {
		case RENDER_TEXT:
			if (empty)
				break;
			vr_buf_addstr(out, shown++ ? "\n" : "");
			render_text(&t[i], out);
			break;
		case RENDER_MARKDOWN:
			if (empty)
				break;
			vr_buf_addstr(out, shown++ ? "\n" : "");
			render_markdown(&t[i], out);
			break;
		case RENDER_CSV:
			render_csv(&t[i], ci, out);
			break;
		case RENDER_JSON:
			vr_buf_addstr(out, i ? ",\n" : "");
			render_json(&t[i], out);
			break;
		}
	}
	if (fmt == RENDER_JSON)
		vr_buf_addstr(out, "]}\n");
	return 0;
}
