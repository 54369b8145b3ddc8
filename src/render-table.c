// SPDX-License-Identifier: GPL-2.0
/*
 * render-table.c - render a struct render_table as text (mmtests compare
 * layout, DESIGN.md "Metrics and the comparison table"), Markdown, CSV or
 * JSON.  Every output format walks the same rows and cells.
 */
#include "render.h"

#include <ctype.h>
#include <math.h>
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

void render_kernel_split(const char *name, char **first, char **second)
{
	const char *dash = strchr(name, '-');
	const char *p;

	if (!dash) {
		*first = vr_strdup(name);
		*second = vr_strdup("");
		return;
	}
	/* mmtests keeps "-rcN" in the first line; we accept any number of digits */
	if (dash[1] == 'r' && dash[2] == 'c' && isdigit((unsigned char)dash[3])) {
		for (p = dash + 3; isdigit((unsigned char)*p); p++)
			;
		if (*p == '-' || !*p)
			dash = p;
	}
	*first = vr_malloc((size_t)(dash - name) + 1);
	memcpy(*first, name, (size_t)(dash - name));
	(*first)[dash - name] = '\0';
	*second = vr_strdup(*dash ? dash + 1 : "");
}

static int def(int w, int d)
{
	return w > 0 ? w : d;
}

/* Label widths: the minimum, widened to the longest label; 0 if no stats. */
static void label_widths(const struct render_table *t, int *stat_w, int *op_w)
{
	bool have_stat = false;

	*stat_w = def(t->stat_width, DEF_STAT_WIDTH);
	*op_w = def(t->op_width, DEF_OP_WIDTH);
	for (size_t r = 0; r < t->nrows; r++) {
		if (t->rows[r].stat) {
			have_stat = true;
			if ((int)strlen(t->rows[r].stat) > *stat_w)
				*stat_w = (int)strlen(t->rows[r].stat);
		}
		if ((int)strlen(t->rows[r].op) > *op_w)
			*op_w = (int)strlen(t->rows[r].op);
	}
	if (!have_stat)
		*stat_w = -1;	/* no stat column and no separator */
}

static void rstrip_line(struct vr_buf *out, size_t line_start)
{
	while (out->len > line_start && out->buf[out->len - 1] == ' ')
		out->buf[--out->len] = '\0';
	vr_buf_addstr(out, "\n");
}

static void text_header(const struct render_table *t, int label_w, int cell_w,
			struct vr_buf *out)
{
	char **first = vr_calloc(t->ncols + 1, sizeof(*first));
	char **second = vr_calloc(t->ncols + 1, sizeof(*second));

	for (size_t c = 0; c < t->ncols; c++)
		render_kernel_split(t->columns[c], &first[c], &second[c]);
	for (int line = 0; line < 2; line++) {
		size_t start = out->len;

		vr_buf_addf(out, "%*s", label_w, "");
		for (size_t c = 0; c < t->ncols; c++)
			vr_buf_addf(out, "%*s", cell_w, line ? second[c] : first[c]);
		rstrip_line(out, start);
	}
	for (size_t c = 0; c < t->ncols; c++) {
		free(first[c]);
		free(second[c]);
	}
	free(first);
	free(second);
}

static void text_cell(const struct render_table *t, const struct render_row *row,
		      const struct render_cell *cell, int value_w, int gain_w, struct vr_buf *out)
{
	if (isnan(cell->value))
		vr_buf_addf(out, "%*s", value_w, "-");
	else
		vr_buf_addf(out, "%*.*f", value_w, row->precision, cell->value);
	if (!t->show_gain)
		return;
	if (isnan(cell->gain_pct) || isnan(cell->value))
		vr_buf_addf(out, "%*s", gain_w + 4, "");
	else if (cell->significant)
		vr_buf_addf(out, " *%*.2f%%*", gain_w, cell->gain_pct);
	else
		vr_buf_addf(out, " (%*.2f%%)", gain_w, cell->gain_pct);
}

static void render_text(const struct render_table *t, struct vr_buf *out)
{
	int stat_w, op_w, label_w;
	int value_w = def(t->value_width, DEF_VALUE_WIDTH);
	int gain_w = def(t->gain_width, DEF_GAIN_WIDTH);
	int cell_w = value_w + (t->show_gain ? gain_w + 4 : 0);

	label_widths(t, &stat_w, &op_w);
	label_w = stat_w < 0 ? op_w : stat_w + 1 + op_w;
	text_header(t, label_w, cell_w, out);
	for (size_t r = 0; r < t->nrows; r++) {
		const struct render_row *row = &t->rows[r];
		size_t start = out->len;

		if (stat_w >= 0)
			vr_buf_addf(out, "%-*s ", stat_w, row->stat ? row->stat : "");
		vr_buf_addf(out, "%-*s", op_w, row->op);
		for (size_t c = 0; c < t->ncols; c++)
			text_cell(t, row, &row->cells[c], value_w, gain_w, out);
		rstrip_line(out, start);
	}
}

static void md_escape(struct vr_buf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			vr_buf_addstr(out, "\\");
		vr_buf_add(out, s, 1);
	}
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
		md_escape(out, row->op);
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
			vr_buf_addf(out, "%s |", bold);
		}
		vr_buf_addstr(out, "\n");
	}
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

static void render_csv(const struct render_table *t, struct vr_buf *out)
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
			add_number(out, t->show_gain ? cell->gain_pct : NAN, "");
			vr_buf_addstr(out, ",");
			add_number(out, cell->p, "");
			vr_buf_addstr(out, cell->significant ? ",1\n" : ",0\n");
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
				vr_buf_addstr(out, cell->significant ? ",\"significant\":true}"
								     : ",\"significant\":false}");
			} else {
				vr_buf_addstr(out, "}");
			}
		}
		vr_buf_addstr(out, "]}");
	}
	vr_buf_addstr(out, "]}");
}

int render_tables(const struct render_table *t, size_t n, enum render_format fmt,
		  struct vr_buf *out)
{
	if (fmt == RENDER_CSV)
		vr_buf_addstr(out, "table,stat,operation,kernel,value,gain_pct,p,significant\n");
	if (fmt == RENDER_JSON)
		vr_buf_addstr(out, "{\"tables\":[");
	for (size_t i = 0; i < n; i++) {
		switch (fmt) {
		case RENDER_TEXT:
			vr_buf_addstr(out, i ? "\n" : "");
			render_text(&t[i], out);
			break;
		case RENDER_MARKDOWN:
			vr_buf_addstr(out, i ? "\n" : "");
			render_markdown(&t[i], out);
			break;
		case RENDER_CSV:
			render_csv(&t[i], out);
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
