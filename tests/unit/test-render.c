// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/render-table.c: mmtests header split, text cells,
 * CSV quoting.  Expected strings written by hand from the 2017 seed tables
 * (/work/shared/seeds) and RFC 4180.
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
	check_split("4.11.0-rc1", "4.11.0-rc1", "");
	check_split("6.1.0-base", "6.1.0", "base");
	check_split("6.1.0-rcu-fix", "6.1.0", "rcu-fix");
	check_split("vanilla", "vanilla", "");
}

static void test_text_layout(void **state)
{
	const char *cols[] = { "4.11.0-rc1-vanilla", "4.11.0-rc1-keepawake-v2" };
	struct render_cell cells[] = {
		{ 412901.57, 0, NAN, false }, { 1362.62, 99.67, 0.001, true },
	};
	struct render_row row = { "Amean", "p95-Write", 2, cells };
	struct render_table t = { "latency", cols, 2, &row, 1, true, 0, 0, 0, 0 };
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

static void test_csv_quoting(void **state)
{
	const char *cols[] = { "a,b" };
	struct render_cell cells[] = { { 1.5, NAN, NAN, false } };
	struct render_row row = { NULL, "say \"hi\"", 2, cells };
	struct render_table t = { "counters", cols, 1, &row, 1, false, 0, 0, 0, 0 };
	struct vr_buf out;

	(void)state;
	vr_buf_init(&out);
	render_tables(&t, 1, RENDER_CSV, &out);
	assert_string_equal(out.buf,
		"table,stat,operation,kernel,value,gain_pct,p,significant\n"
		"counters,,\"say \"\"hi\"\"\",\"a,b\",1.5,,,0\n");
	vr_buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split),
		cmocka_unit_test(test_text_layout),
		cmocka_unit_test(test_csv_quoting),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
