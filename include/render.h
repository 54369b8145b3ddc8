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
	double value;		/* NAN: no value, printed "-" (never 0) */
	double gain_pct;	/* positive is better; NAN: none printed */
	double p;		/* t-test p-value against the baseline, or NAN */
	double p_adj;		/* p adjusted for the rows tested (compare's
				 * --p-adjust), what significant holds against
				 * alpha; read only where p is not NAN */
	bool significant;	/* text prints *gain%* instead of (gain%) */
	const char *data;	/* what the value stands on, for CSV/JSON: "values",
				 * "zero", "not recorded" (metric_data_name()); NULL:
				 * not given (counters), nvalues and nruns unused */
	int nvalues;		/* values the statistic is over */
	int nruns;		/* runs of the kernel */
	double ci_lo, ci_hi;	/* confidence interval of the gain, percent, when
				 * the table has ci_label; NAN: none */
};

struct render_row {
	const char *stat;	/* first label, e.g. "Amean"; NULL: no stat column */
	const char *op;		/* second label, e.g. "p95-DirectReclaim" */
	int precision;		/* digits after the decimal point */
	struct render_cell *cells;	/* one per column; borrowed */
	const char *unit;	/* unit of the row's values, e.g. "us"; NULL: not
				 * known (imported "as reported") or in the label */
	const char *note;	/* a footnote the row's values need ("DirectReclaim:
				 * wsf200 0 samples in 3 runs (shown as 0)"), or NULL;
				 * borrowed.  Text and Markdown mark the row "[N]" and
				 * print "[N] note" under the table, N counting the
				 * distinct notes of the rows rendered; CSV and JSON
				 * give it per row */
};

/*
 * The text layout.  RENDER_LAYOUT_2017 is the one of the 2017 seed mails
 * ("[PATCH 0/3] Reduce amount of time kswapd sleeps prematurely v2",
 * Mel Gorman, March 2017): %-8s %-20s, %12.2f (%6.2f%%), BAmean-95, "-" for
 * a missing value.  RENDER_LAYOUT_MMTESTS is today's compare-mmtests.pl
 * (mmtests bin/lib/MMTests/Compare.pm _generateRenderTable, _CompareLength
 * 7, the 18-wide _FieldLength of its shellpack benchmarks): label columns as
 * wide as the longest label, %18.2f (%7.2f%%), BAmean.95 / Pctile.95.  A
 * missing value is "-" in both, where _generateComparisonTable prints 0.00
 * (0.00%): a number the data cannot give is never printed as 0.
 */
enum render_layout {
	RENDER_LAYOUT_2017 = 0,
	RENDER_LAYOUT_MMTESTS,
};

/**
 * render_layout_parse - "2017" or "mmtests" into *@out (OUT).  Returns 0, or
 * -1 (no message) for another name.
 */
int render_layout_parse(const char *name, enum render_layout *out);

/* A name shortened in text to fit a width: every @full in a label becomes
 * @abbr, and a legend line under the table says so. */
struct render_abbrev {
	const char *full, *abbr;
};

struct render_table {
	const char *name;		/* identifies the table in CSV/JSON, e.g. "latency" */
	const char *const *columns;	/* kernel names, first is the baseline; borrowed */
	size_t ncols;
	const struct render_row *rows;	/* borrowed */
	size_t nrows;
	bool show_gain;			/* print the gain cells (not for counters) */
	/* Minimum widths of the text layout; a longer label, value or header
	 * line widens its column (render_tables()).  Zero means the defaults of the
	 * layout: 8, 20, 12, 6 (2017) or 1, 1, 18, 7 (mmtests). */
	int stat_width, op_width, value_width, gain_width;
	enum render_layout layout;
	const char *const *notes;	/* lines printed under the table (units,
					 * the test used, what is missing); borrowed */
	size_t nnotes;
	const char *ci_label;		/* "90% CI": the cells carry an interval of
					 * their gain (ci_lo, ci_hi); text prints
					 * "[lo, hi]%" under each row that has one, in
					 * the row's columns, labelled so; Markdown
					 * after the gain; CSV and JSON ci_lo, ci_hi.
					 * NULL: none */
	int max_width;			/* text: 0, or the widest a line may be (80:
					 * a mail): the kernel columns are printed in
					 * blocks, each with the baseline first and as
					 * many as fit; notes, footnotes and the legend
					 * are wrapped at it (render_text_fit()) */
	bool shorten;			/* text: labels shortened by @abbrevs, with a
					 * legend line */
	const struct render_abbrev *abbrevs;	/* borrowed */
	size_t nabbrevs;
};

/**
 * render_kernel_split - the two header lines of kernel name @name, cut as
 * mmtests cuts them (Compare.pm _generateHeaderTable): at the first '-',
 * moved past "-rcN" when the cut is followed by "rc" and digits (any number
 * of them: mmtests' "bodge" stops at one), so "4.11.0-rc1-vanilla" gives
 * "4.11.0-rc1" and "vanilla".  Where mmtests would leave a line empty or
 * print part of the name twice (a name without '-' gives substr(name, 0,
 * -1) and the whole name: "wsf10" as "wsf1" over "wsf10"), the whole name
 * is the second line, the one above the numbers, and the first is "": so
 * "wsf10" gives ("", "wsf10"), "4.11.0-rc1" ("", "4.11.0-rc1"), "base-"
 * ("", "base-").
 * @first, @second: OUT: malloc'ed strings the caller frees.
 */
void render_kernel_split(const char *name, char **first, char **second);

/**
 * render_tables - append tables @t[0..@n-1] to @out in format @fmt: text
 * and Markdown separate tables by a blank line and print each table's notes
 * under it (Markdown after a blank line, so they are not read as rows);
 * CSV writes one header and a "table" column, one line per cell, with the
 * row's unit and the cell's data, nvalues and nruns; JSON one object
 * {"tables": [...]} with null for NAN, a "unit" per row and "notes" per
 * table.  Text: every header cell is right-aligned over its column with at
 * least one space before it, and a header line or value wider than the
 * layout's width widens its column (for every row), so cells never touch;
 * a gain wider than the layout's pushes the rest of its row right, as
 * printf does in mmtests (the -2447.00% of the 2017 seed table).  The first
 * header line is left out when it is empty for every column.  Returns 0 (rendering cannot fail; the caller writes @out).
 */
int render_tables(const struct render_table *t, size_t n, enum render_format fmt,
		  struct vr_buf *out);

/**
 * render_text_fit - make the text of tables @t[0..@n-1] fit @width columns:
 * set max_width (blocks of kernel columns, wrapped notes); when a line would
 * still be wider, drop the minimum widths a caller set to line tables up
 * (the layout's are kept); when still, shorten for all of them
 * (render_table.abbrevs), so that a name is shortened the same way in every
 * table rendered from them (compare.txt and index.md's headline).  Markdown, CSV and JSON ignore
 * both.  Only a label or a value wider than @width on its own can still
 * pass it.
 */
void render_text_fit(struct render_table *t, size_t n, int width);

#endif /* VR_RENDER_H */
