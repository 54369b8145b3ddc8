// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/render-table.c: mmtests header split, text cells,
 * column widths, the mmtests layout, CSV quoting.  Expected strings written
 * by hand from the table of "[PATCH 0/3] Reduce amount of time kswapd sleeps
 * prematurely v2" (Mel Gorman, linux-mm, 2017-03-09), mmtests' Compare.pm
 * formats (%-S %-O, %18.2f (%7.2f%%)) and RFC 4180.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

static void check_split(const char *name, const char *want1, const char *want2)
{
	char *a, *b;

	render_kernel_split(name, &a, &b);
	assert_string_equal(a, want1);
	assert_string_equal(b, want2);
	free(a);
	free(b);
}

static void test_split(void **state)
{
	(void)state;
	check_split("4.11.0-rc1-vanilla", "4.11.0-rc1", "vanilla");
	check_split("4.11.0-rc1-keepawake-v2", "4.11.0-rc1", "keepawake-v2");
	check_split("4.11.0-rc10-vanilla", "4.11.0-rc10", "vanilla");	/* mmtests' bodge fails here */
	check_split("6.1.0-base", "6.1.0", "base");
	check_split("6.1.0-rcu-fix", "6.1.0", "rcu-fix");
	check_split("mm-unstable-20251201-lru-fix", "mm", "unstable-20251201-lru-fix");
	/* where mmtests leaves a line empty or repeats the name: whole name below */
	check_split("4.11.0-rc1", "", "4.11.0-rc1");
	check_split("vanilla", "", "vanilla");
	check_split("wsf10", "", "wsf10");	/* mmtests: "wsf1" over "wsf10" */
	check_split("base-", "", "base-");
	check_split("-base", "", "-base");
}

/* Long second parts widen their columns: one space at least between cells. */
static void test_text_long_names(void **state)
{
	const char *cols[] = { "mm-unstable-20251201", "mm-unstable-20251201-lru-fix" };
	struct render_cell cells[] = {
		{ .value = 10, .gain_pct = 0, .p = NAN },
		{ .value = 12.5, .gain_pct = -25, .p = NAN },
	};
	struct render_row row = { .stat = "Amean", .op = "p95-Write", .precision = 2,
				  .cells = cells };
	struct render_table t = { .name = "latency", .columns = cols, .ncols = 2,
				  .rows = &row, .nrows = 1, .show_gain = true };
	struct vr_buf out;

	(void)state;
	vr_buf_init(&out);
	render_tables(&t, 1, RENDER_TEXT, &out);
	/* 29 label + 22 + 26 (25 characters and a space) */
	assert_string_equal(out.buf,
		"                                                 mm"
		"                        mm\n"
		"                                  unstable-20251201"
		" unstable-20251201-lru-fix\n"
		"Amean    p95-Write                  10.00 (  0.00%)"
		"           12.50 (-25.00%)\n");
	vr_buf_release(&out);
}

/* Names without '-': one header line; wide values widen the column. */
static void test_text_one_header_line(void **state)
{
	const char *cols[] = { "base", "wsf10" };
	struct render_cell c1[] = { { .value = 4, .p = NAN }, { .value = 8.5, .gain_pct = -112.5,
								 .p = NAN } };
	struct render_cell c2[] = { { .value = 2, .p = NAN }, { .value = 1, .gain_pct = 50,
								 .p = NAN, .significant = true } };
	struct render_row rows[] = {
		{ .stat = "Max", .op = "p95-Write", .precision = 2, .cells = c1 },
		{ .stat = "Min", .op = "p95-Write", .precision = 2, .cells = c2 },
	};
	struct render_table t = { .name = "latency", .columns = cols, .ncols = 2,
				  .rows = rows, .nrows = 2, .show_gain = true };
	struct vr_buf out;

	(void)state;
	vr_buf_init(&out);
	render_tables(&t, 1, RENDER_TEXT, &out);
	/* a 7-character gain pushes its row by one, as printf does in mmtests */
	assert_string_equal(out.buf,
		"                                               base                 wsf10\n"
		"Max      p95-Write                   4.00 (  0.00%)        8.50 (-112.50%)\n"
		"Min      p95-Write                   2.00 (  0.00%)        1.00 * 50.00%*\n");
	vr_buf_release(&out);
	/* a 13-character value widens its column for every row */
	c1[1].value = 1234567890.25;
	vr_buf_init(&out);
	render_tables(&t, 1, RENDER_TEXT, &out);
	assert_string_equal(out.buf,
		"                                               base                   wsf10\n"
		"Max      p95-Write                   4.00 (  0.00%) 1234567890.25 (-112.50%)\n"
		"Min      p95-Write                   2.00 (  0.00%)          1.00 * 50.00%*\n");
	vr_buf_release(&out);
}

/* --layout mmtests: labels as wide as the longest, %18.2f (%7.2f%%), a
 * missing value as "-" without a gain (compare-mmtests.pl: 0.00 (0.00%)),
 * notes under the table. */
static void test_text_mmtests_layout(void **state)
{
	const char *cols[] = { "4.11.0-rc1-vanilla", "4.11.0-rc1-keepawake-v2" };
	const char *notes[] = { "Unit: us" };
	struct render_cell cells[] = {
		{ .value = 412901.57, .gain_pct = 0, .p = NAN },
		{ .value = NAN, .gain_pct = NAN, .p = NAN },
	};
	struct render_row row = { .stat = "Amean", .op = "p95-Write", .precision = 2,
				  .cells = cells };
	struct render_table t = { .name = "latency", .columns = cols, .ncols = 2,
				  .rows = &row, .nrows = 1, .show_gain = true,
				  .layout = RENDER_LAYOUT_MMTESTS, .notes = notes, .nnotes = 1 };
	struct vr_buf out;

	(void)state;
	vr_buf_init(&out);
	render_tables(&t, 1, RENDER_TEXT, &out);
	/* label 5 + 1 + 9 = 15, then 18 + 4 + 7 = 29 per kernel */
	assert_string_equal(out.buf,
		"                                  4.11.0-rc1                   4.11.0-rc1\n"
		"                                     vanilla                 keepawake-v2\n"
		"Amean p95-Write         412901.57 (   0.00%)                 -\n"
		"Unit: us\n");
	vr_buf_release(&out);
}

static void test_text_layout(void **state)
{
	const char *cols[] = { "4.11.0-rc1-vanilla", "4.11.0-rc1-keepawake-v2" };
	struct render_cell cells[] = {
		{ .value = 412901.57, .gain_pct = 0, .p = NAN },
		{ .value = 1362.62, .gain_pct = 99.67, .p = 0.001, .significant = true },
	};
	struct render_row row = { .stat = "Amean", .op = "p95-Write", .precision = 2,
				  .cells = cells };
	struct render_table t = { .name = "latency", .columns = cols, .ncols = 2,
				  .rows = &row, .nrows = 1, .show_gain = true };
	struct vr_buf out;

	(void)state;
	vr_buf_init(&out);
	render_tables(&t, 1, RENDER_TEXT, &out);
	assert_string_equal(out.buf,
		"                                         4.11.0-rc1            4.11.0-rc1\n"
		"                                            vanilla          keepawake-v2\n"
		"Amean    p95-Write              412901.57 (  0.00%)     1362.62 * 99.67%*\n");
	vr_buf_release(&out);
}

/* Rows with a note (%-8s %-20s%12.2f (%6.2f%%)): "[N]" after the operation, N counting distinct notes in
 * row order (two rows share [1]), "[N] note" under the notes; the same in
 * Markdown; JSON gives "note" per row. */
static void test_footnotes(void **state)
{
	const char *cols[] = { "a" };
	const char *notes[] = { "Unit: us" };
	struct render_cell cells[] = { { .value = 1, .gain_pct = 0, .p = NAN } };
	struct render_row rows[] = {
		{ .stat = "Min", .op = "p50-X", .precision = 2, .cells = cells, .note = "X: a zero" },
		{ .stat = "Min", .op = "p50-Y", .precision = 2, .cells = cells },
		{ .stat = "Min", .op = "p50-Z", .precision = 2, .cells = cells, .note = "Z | b" },
		{ .stat = "Max", .op = "p50-X", .precision = 2, .cells = cells, .note = "X: a zero" },
	};
	struct render_table t = { .name = "latency", .columns = cols, .ncols = 1, .rows = rows,
				  .nrows = 4, .show_gain = true, .notes = notes, .nnotes = 1 };
	struct vr_buf out;

	(void)state;
	vr_buf_init(&out);
	render_tables(&t, 1, RENDER_TEXT, &out);
	assert_string_equal(out.buf,
		"                                                  a\n"
		"Min      p50-X[1]                    1.00 (  0.00%)\n"
		"Min      p50-Y                       1.00 (  0.00%)\n"
		"Min      p50-Z[2]                    1.00 (  0.00%)\n"
		"Max      p50-X[1]                    1.00 (  0.00%)\n"
		"Unit: us\n"
		"[1] X: a zero\n"
		"[2] Z | b\n");
	vr_buf_release(&out);
	vr_buf_init(&out);
	render_tables(&t, 1, RENDER_MARKDOWN, &out);
	assert_non_null(strstr(out.buf, "| Min | p50-Z[2] | 1.00 (0.00%) |\n"));
	assert_non_null(strstr(out.buf, "\nUnit: us\n[1] X: a zero\n[2] Z \\| b\n"));
	vr_buf_release(&out);
	vr_buf_init(&out);
	render_tables(&t, 1, RENDER_JSON, &out);
	assert_non_null(strstr(out.buf, "\"operation\":\"p50-Z\",\"unit\":null,\"note\":\"Z | b\""));
	assert_non_null(strstr(out.buf, "\"operation\":\"p50-Y\",\"unit\":null,\"note\":null"));
	vr_buf_release(&out);
}

/* An empty table (compare --metrics counters: no latency row, no note) is
 * left out of text and Markdown: the output starts with the next table's
 * header, no lone header line and no blank line before it. */
static void test_empty_table_left_out(void **state)
{
	const char *cols[] = { "a", "b" };
	struct render_cell cells[] = { { .value = 1, .gain_pct = NAN, .p = NAN },
				       { .value = 2, .gain_pct = NAN, .p = NAN } };
	struct render_row row = { .op = "Kswapd wakes", .precision = 2, .cells = cells };
	struct render_table t[2] = {
		{ .name = "latency", .columns = cols, .ncols = 2, .show_gain = true },
		{ .name = "counters", .columns = cols, .ncols = 2, .rows = &row, .nrows = 1 },
	};
	struct vr_buf out;

	(void)state;
	vr_buf_init(&out);
	render_tables(t, 2, RENDER_TEXT, &out);
	assert_non_null(strstr(out.buf, "Kswapd wakes"));
	assert_true(out.buf[0] != '\n');
	assert_int_equal(strchr(out.buf, '\n') - out.buf, strcspn(out.buf, "\n"));
	assert_null(strstr(out.buf, "\n\n"));
	vr_buf_reset(&out);
	render_tables(t, 2, RENDER_MARKDOWN, &out);
	assert_true(!strncmp(out.buf, "| counter |", 11) || !strncmp(out.buf, "|", 1));
	assert_null(strstr(out.buf, "\n\n|"));
	vr_buf_release(&out);
}

static void test_csv_quoting(void **state)
{
	const char *cols[] = { "a,b" };
	struct render_cell cells[] = { { .value = 1.5, .gain_pct = NAN, .p = NAN } };
	struct render_row row = { .op = "say \"hi\"", .precision = 2, .cells = cells,
				  .note = "a, \"b\"" };
	struct render_table t = { .name = "counters", .columns = cols, .ncols = 1,
				  .rows = &row, .nrows = 1 };
	struct vr_buf out;

	(void)state;
	vr_buf_init(&out);
	render_tables(&t, 1, RENDER_CSV, &out);
	assert_string_equal(out.buf,
		"table,stat,operation,kernel,value,gain_pct,p,significant,unit,data,nvalues,nruns,"
		"note,p_adj\n"
		"counters,,\"say \"\"hi\"\"\",\"a,b\",1.5,,,0,,,,,\"a, \"\"b\"\"\",\n");
	vr_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_text_layout),
		cmocka_unit_test(test_text_long_names),
		cmocka_unit_test(test_text_one_header_line),
		cmocka_unit_test(test_text_mmtests_layout),
		cmocka_unit_test(test_csv_quoting),
		cmocka_unit_test(test_empty_table_left_out),
		cmocka_unit_test(test_footnotes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
