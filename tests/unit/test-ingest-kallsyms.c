// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of this program's tep_parse_kallsyms()
 * (src/ingest/ingest-kallsyms.c) against libtraceevent's own, reached with
 * dlsym(RTLD_NEXT): the same text parsed by both into two tep handles must
 * give the same return value, and tep_find_function() and
 * tep_find_function_address() the same answers at every address the text
 * names, one below and one above each, and the extremes.  The texts:
 * /proc/kallsyms lines as the kernel writes them (kernel/kallsyms.c
 * s_show(): "%px %c %s\t[%s]" for a module's symbol), the lines
 * libtraceevent skips ('A'/'a' types, '$' names), symbols sharing an
 * address, a text parsed twice into one handle, the edge cases of its
 * sscanf() format (a missing field, a "0x" prefix, a sign, an address of
 * more than 16 digits, white space other than ' ', a module without ']' or
 * with a blank after '['), and random lines over the characters that
 * matter.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dlfcn.h>
#include <unistd.h>
#include <cmocka.h>
#include <traceevent/event-parse.h>

typedef int (*parse_fn)(struct tep_handle *, const char *);

/* libtraceevent's tep_parse_kallsyms(), the one this program's hides. */
static parse_fn library_parse(void)
{
	parse_fn f = (parse_fn)dlsym(RTLD_NEXT, "tep_parse_kallsyms");

	assert_non_null(f);
	assert_true(f != tep_parse_kallsyms);
	return f;
}

/* Addresses to look up in the table of @text: each line's first number
 * (as strtoull() reads it), one below and above, and the extremes. */
static size_t probes_of(const char *text, unsigned long long *out, size_t max)
{
	size_t n = 0;

	out[n++] = 0;
	out[n++] = ~0ULL;
	out[n++] = 0xffffffff81000005ULL;
	for (const char *p = text; *p && n + 3 <= max; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : "") {
		unsigned long long a = strtoull(p, NULL, 16);

		out[n++] = a;
		out[n++] = a - 1;
		out[n++] = a + 1;
	}
	return n;
}

/* @text gives the same return value and the same tep_find_function() and
 * tep_find_function_address() answers with both parsers (parsed @times
 * into the same handle); the number of addresses that found a function. */
static int same_as_library_times(const char *text, int times)
{
	struct tep_handle *lib = tep_alloc(), *ours = tep_alloc();
	static unsigned long long probe[4096];
	size_t n = probes_of(text, probe, 4096);
	int rc_lib = 0, rc_ours = 0, found = 0;

	assert_non_null(lib);
	assert_non_null(ours);
	for (int i = 0; i < times; i++) {
		rc_lib = library_parse()(lib, text);
		rc_ours = tep_parse_kallsyms(ours, text);
	}
	if (rc_lib != rc_ours)
		fail_msg("text <<%s>>: library %d, ours %d", text, rc_lib, rc_ours);
	for (size_t i = 0; i < n; i++) {
		const char *a = tep_find_function(lib, probe[i]), *b = tep_find_function(ours, probe[i]);

		if ((a == NULL) != (b == NULL) || (a && strcmp(a, b)))
			fail_msg("text <<%s>> at %llx: library %s, ours %s", text, probe[i],
				 a ? a : "NULL", b ? b : "NULL");
		if (tep_find_function_address(lib, probe[i]) !=
		    tep_find_function_address(ours, probe[i]))
			fail_msg("text <<%s>> at %llx: library's start %llx, ours %llx", text,
				 probe[i], tep_find_function_address(lib, probe[i]),
				 tep_find_function_address(ours, probe[i]));
		found += a != NULL;
	}
	tep_free(lib);
	tep_free(ours);
	return found;
}

static int same_as_library(const char *text)
{
	return same_as_library_times(text, 1);
}

/* Lines as /proc/kallsyms has them, and those libtraceevent leaves out. */
static void test_kernel_lines(void **state)
{
	(void)state;
	assert_true(same_as_library(
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T startup_64\n"
		"0000000000000000 A fixed_percpu_data\n"
		"0000000000001000 a __per_cpu_start_abs\n"
		"ffffffff81001000 t $x.12\n"
		"ffffffff812a3b40 T super_cache_scan\n"
		"ffffffff812a3c10 t super_cache_count\n"
		"ffffffffc0a01000 t ext4_es_scan\t[ext4]\n"
		"ffffffffc0a01200 t ext4_es_count\t[ext4]\n"
		"ffffffffc0b00000 d __this_module\t[xfs]\n") > 0);
	/* no trailing newline, blank lines, CRLF */
	assert_true(same_as_library("\n\nffffffff81000000 T a\n\n\nffffffff81000010 T b") > 0);
	assert_true(same_as_library("ffffffff81000000 T a\r\nffffffff81000010 T b\r\n") > 0);
	assert_int_equal(same_as_library(""), 0);
	/* equal addresses: which one a lookup finds */
	same_as_library("ffffffff81000000 T z\nffffffff81000000 T y\nffffffff81000000 t x\n");
	same_as_library("ffffffff81000010 T a\nffffffff81000000 T z\nffffffff81000000 T y\n"
			"ffffffff81000000 t x\nffffffff81000020 T b\nffffffff81000000 T w\n");
	/* parsed twice into one handle: the symbols twice */
	same_as_library_times("ffffffff81000000 T a\nffffffff81000010 T b\n", 2);
}

/* The edges of sscanf(line, "%16llx %c %n%*s%n%*1[\t][%n%*s%n"). */
static void test_format_edges(void **state)
{
	static const char *const lines[] = {
		"ffffffff81000000",			/* no type: parse ends */
		"ffffffff81000000 T",			/* no name */
		"ffffffff81000000 T   ",
		"   ",					/* only white space: EOF */
		"\t\v\f\r",
		"zz T name",				/* no address */
		"-",
		"+",
		"0x",
		"0xg T name",
		"0x1234 T hex_prefix",
		"0X1234 T hex_prefix_upper",
		"-10 T negative",
		"+10 T positive",
		"-0x10 T negative_prefixed",
		"00000000000000001234 T seventeen_digits_and_more",
		"ffffffffffffffff1 T x",
		"12345678901234567 T",
		"   ffffffff81000000    T    spaced",
		"ffffffff81000000\tT\tname\t[mod]",
		"ffffffff81000000 TT name",
		"ffffffff81000000 T name [mod]",	/* a blank, not a tab: no module */
		"ffffffff81000000 T name\t[mod",	/* last character cut all the same */
		"ffffffff81000000 T name\t[m",
		"ffffffff81000000 T name\t[",
		"ffffffff81000000 T name\t[   ",
		"ffffffff81000000 T name\t[ mod] trailing",
		"ffffffff81000000 T name\t\t[mod]",
		"ffffffff81000000 T name\tmod]",
		"ffffffff81000000 T name\t[mod]\t[other]",
		"ffffffff81000000 $ dollar_type",
		"ffffffff81000000 T $dollar_name",
		"ffffffff81000000 A abs\t[mod]",
		"ffffffff81000000 a abs",
		"ffffffff81000000 t \xc3\xa9t\xc3\xa9\t[m\xc3\xb6" "d]",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char text[256];

		same_as_library(lines[i]);
		/* between good lines: what comes after a failing line is lost */
		snprintf(text, sizeof(text), "ffffffff81000000 T before\n%s\nffffffff81000100 T after\n",
			 lines[i]);
		same_as_library(text);
	}
}

/* Random lines over the characters the format cares about. */
static void test_random_lines(void **state)
{
	static const char alphabet[] = "0123456789abcdefABCDEFxXtTaA$+-[] \t\r\v\n_m";
	unsigned seed = 28;

	(void)state;
	for (int round = 0; round < 3000; round++) {
		char text[200], line[220];
		int len = (int)(rand_r(&seed) % (sizeof(text) - 1));

		for (int i = 0; i < len; i++)
			text[i] = alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)];
		text[len] = '\0';
		same_as_library(text);
		/* and after a good address and type, so that names and modules vary */
		snprintf(line, sizeof(line), "%llx %c n%.*s", (unsigned long long)rand_r(&seed),
			 "TtdDbBaA"[rand_r(&seed) % 8], len / 2, text + len / 2);
		same_as_library(line);
	}
}

/* Many symbols in any order, sharing few addresses: the table's order
 * among equal addresses decides which one a lookup finds. */
static void test_shared_addresses(void **state)
{
	unsigned seed = 7;

	(void)state;
	for (int round = 0; round < 20; round++) {
		size_t cap = 64 * 1024, used = 0;
		char *text = malloc(cap);
		int lines = 200 + (int)(rand_r(&seed) % 1800);

		assert_non_null(text);
		for (int i = 0; i < lines; i++) {
			/* mostly ascending, as kallsyms is, with runs out of order */
			unsigned long long addr = 0xffffffff81000000ULL +
				(rand_r(&seed) % 4 ? (unsigned long long)i / 3 * 16
						   : (unsigned long long)(rand_r(&seed) % 64) * 16);

			used += (size_t)snprintf(text + used, cap - used, "%llx %c s%d%s\n", addr,
						 "Tt"[rand_r(&seed) % 2], i,
						 rand_r(&seed) % 5 ? "" : "\t[mod]");
		}
		same_as_library(text);
		free(text);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_lines),
		cmocka_unit_test(test_format_edges),
		cmocka_unit_test(test_random_lines),
		cmocka_unit_test(test_shared_addresses),
	};

	tep_set_loglevel(TEP_LOG_NONE);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
