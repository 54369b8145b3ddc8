/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render.h - one table value (label columns, one column per kernel, a
 * number per cell with an optional gain percentage and significance mark)
 * rendered to text in the mmtests compare layout, Markdown, CSV or JSON.
 * No analysis here: the caller fills the table.
 */
#ifndef VR_RENDER_H
#define VR_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include "vr.h"

enum render_format {
	RENDER_TEXT,		/* mmtests compare layout */
	RENDER_MARKDOWN,	/* a GitHub-style pipe table */
	RENDER_CSV,		/* long format: one line per cell (RFC 4180 quoting) */
	RENDER_JSON,		/* {"tables": [...]} */
};

/**
 * render_format_parse - "text", "markdown", "csv" or "json" into *@out
 * (OUT).  Returns 0, or -1 (no message) for another name.
 */
int render_format_parse(const char *name, enum render_format *out);

struct render_cell {
	double value;		/* NAN: no value; text prints "-" */
	double gain_pct;	/* positive is better; NAN: none printed */
	double p;		/* t-test p-value against the baseline, or NAN */
	bool significant;	/* text prints *gain%* instead of (gain%) */
};

struct render_row {
	const char *stat;	/* first label, e.g. "Amean"; NULL: no stat column */
	const char *op;		/* second label, e.g. "p95-DirectReclaim" */
	int precision;		/* digits after the decimal point */
	struct render_cell *cells;	/* one per column; borrowed */
};

struct render_table {
	const char *name;		/* identifies the table in CSV/JSON, e.g. "latency" */
	const char *const *columns;	/* kernel names, first is the baseline; borrowed */
	size_t ncols;
	const struct render_row *rows;	/* borrowed */
	size_t nrows;
	bool show_gain;			/* print the gain cells (not for counters) */
	/* Minimum widths of the text layout; a longer label widens its column,
	 * a wider number pushes the row right as printf does.  Zero means the
	 * defaults of the 2017 seed tables: 8, 20, 12, 6. */
	int stat_width, op_width, value_width, gain_width;
};

/**
 * render_kernel_split - mmtests' two header lines of kernel name @name:
 * cut at the first '-', moved past "-rcN" when the cut is followed by "rc"
 * and a digit (Compare.pm _generateHeaderTable), so "4.11.0-rc1-vanilla"
 * gives "4.11.0-rc1" and "vanilla".  A name without '-' gives (@name, "").
 * @first, @second: OUT: malloc'ed strings the caller frees.
 */
void render_kernel_split(const char *name, char **first, char **second);

/**
 * render_tables - append tables @t[0..@n-1] to @out in format @fmt: text
 * and Markdown separate tables by a blank line; CSV writes one header and
 * a "table" column; JSON one object {"tables": [...]} with null for NAN.
 * Returns 0 (rendering cannot fail; the caller writes @out).
 */
int render_tables(const struct render_table *t, size_t n, enum render_format fmt,
		  struct vr_buf *out);

#endif /* VR_RENDER_H */
