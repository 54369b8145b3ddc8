// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of tep_parse_kallsyms() as src/ingest/ingest-ksyms.c defines
 * it for the process: every lookup (tep_find_function_info(): name, start
 * and size, at each symbol's address and one byte either side) gives what
 * libtraceevent's own tep_parse_kallsyms() (found with dlsym(RTLD_NEXT),
 * the reference) gives on the same text.  Texts written by hand in the
 * kernel's form (kernel/kallsyms.c s_show(): "%px %c %s" and "\t[%s]" for
 * a module): symbols sharing an address, module symbols, names starting
 * with '$' and types 'A'/'a' (the library skips them), upper-case hex,
 * empty lines, no final newline; and texts in other forms, which go to the
 * library whole: "\r\n" line ends, a 32-bit kernel's 8-digit addresses, a
 * module field without ']', a tab without '['.
 */
#define _GNU_SOURCE	/* RTLD_NEXT */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <cmocka.h>

#include <traceevent/event-parse.h>

static int (*library)(struct tep_handle *, const char *);

static const char *const kernel_form[] = {
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000040 t verify_cpu\n"
	"ffffffff81000140 T start_cpu0\n"
	"0000000000000000 A fixed_percpu_data\n"
	"0000000000001000 a cpu_debug_store\n"
	"ffffffff81000200 t $x.0\n"
	"FFFFFFFF81000300 T upper_case\n"
	"\n"
	"ffffffff81200000 T super_cache_scan\n"
	"ffffffffc0200000 t xfs_buftarg_shrink_scan\t[xfs]\n"
	"ffffffffc0200100 t xfs_qm_shrink_scan\t[xfs]\n"
	"ffffffffc0300000 t i915_gem_shrinker_scan\t[i915]\n"
	"ffffffffc0400000 T last_one",
	"ffffffff81000000 T only\n",
	"",
};

static const char *const other_forms[] = {
	"ffffffff81000000 T startup_64\r\nffffffff81000040 t verify_cpu\r\n",
	"c1000000 T startup_32\nc1000040 t verify_cpu\n",
	"ffffffffc0200000 t xfs_buftarg_shrink_scan\t[xfs\nffffffff81000000 T a\n",
	"ffffffff81000000 T a\tnot_a_module\nffffffff81000040 t b\n",
	"ffffffff81000000  T two_spaces\n",
	"0xffffffff81000 T prefixed\n",
};

static int setup(void **state)
{
	(void)state;
	*(void **)&library = dlsym(RTLD_NEXT, "tep_parse_kallsyms");
	return library ? 0 : -1;
}

/* Every address of @text (the first word of each line), and a byte either
 * side, looked up in both; the lookups that differ. */
static int differences(const char *text)
{
	struct tep_handle *ours = tep_alloc(), *ref = tep_alloc();
	const char *p = text;
	int differ = 0;

	assert_int_equal(tep_parse_kallsyms(ours, text), library(ref, text));
	while (*p) {
		unsigned long long addr = strtoull(p, NULL, 16);
		const char *nl = strchr(p, '\n');

		for (int d = -1; d <= 1; d++) {
			const char *n1 = NULL, *n2 = NULL;
			unsigned long long s1 = 0, s2 = 0;
			unsigned long z1 = 0, z2 = 0;
			int f1 = tep_find_function_info(ours, addr + d, &n1, &s1, &z1);
			int f2 = tep_find_function_info(ref, addr + d, &n2, &s2, &z2);

			if (f1 != f2 || (f1 && (strcmp(n1, n2) || s1 != s2 || z1 != z2))) {
				print_message("%llx: %s %llx %lu, the library's %s %llx %lu\n", addr + d,
					      f1 ? n1 : "-", s1, z1, f2 ? n2 : "-", s2, z2);
				differ++;
			}
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	tep_free(ours);
	tep_free(ref);
	return differ;
}

static void test_kernel_form(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(kernel_form) / sizeof(kernel_form[0]); i++)
		assert_int_equal(differences(kernel_form[i]), 0);
}

static void test_other_forms(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(other_forms) / sizeof(other_forms[0]); i++)
		assert_int_equal(differences(other_forms[i]), 0);
}

/* The module is the text between '[' and the last character, as the
 * library cuts it: a module symbol's name is found, a skipped one is not. */
static void test_what_is_registered(void **state)
{
	struct tep_handle *tep = tep_alloc();

	(void)state;
	assert_int_equal(tep_parse_kallsyms(tep, kernel_form[0]), 0);
	assert_string_equal(tep_find_function(tep, 0xffffffffc0200010ULL), "xfs_buftarg_shrink_scan");
	assert_string_equal(tep_find_function(tep, 0xffffffff81000300ULL), "upper_case");
	/* $x.0 skipped: its address falls in start_cpu0 */
	assert_string_equal(tep_find_function(tep, 0xffffffff81000200ULL), "start_cpu0");
	tep_free(tep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_form),
		cmocka_unit_test(test_other_forms),
		cmocka_unit_test(test_what_is_registered),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
