// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of this program's tep_parse_kallsyms()
 * (src/ingest/ingest-kallsyms.c) against libtraceevent's own, reached with
 * dlsym(RTLD_NEXT): the same text parsed by both into two tep handles must
 * give the same return value and the same function table, as
 * tep_print_funcs() prints it (address, name, module, in the table's
 * order).  The texts: /proc/kallsyms lines as the kernel writes them
 * (kernel/kallsyms.c s_show(): "%px %c %s\t[%s]" for a module's symbol),
 * the lines libtraceevent skips ('A'/'a' types, '$' names), the edge cases
 * of its sscanf() format (a missing field, a "0x" prefix, a sign, an
 * address of more than 16 digits, white space other than ' ', a module
 * without ']' or with a blank after '['), and random lines over the
 * characters that matter.
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

/* What tep_print_funcs() prints of @text parsed by @parse (stdout
 * redirected to a scratch file), its return value in *@rc; malloc'd. */
static char *table_of(parse_fn parse, const char *text, int *rc)
{
	struct tep_handle *tep = tep_alloc();
	char tmp[] = "/tmp/vr-test-kallsyms-XXXXXX";
	int fd = mkstemp(tmp), saved = dup(STDOUT_FILENO);
	off_t len;
	char *buf;

	assert_non_null(tep);
	assert_true(fd >= 0 && saved >= 0);
	unlink(tmp);
	*rc = parse(tep, text);
	fflush(stdout);
	assert_true(dup2(fd, STDOUT_FILENO) >= 0);
	tep_print_funcs(tep);
	fflush(stdout);
	assert_true(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	tep_free(tep);
	len = lseek(fd, 0, SEEK_END);
	assert_true(len >= 0);
	buf = calloc(1, (size_t)len + 1);
	assert_non_null(buf);
	assert_int_equal(pread(fd, buf, (size_t)len, 0), len);
	close(fd);
	return buf;
}

/* @text gives the same return value and table with both parsers; the
 * number of functions in the table (lines printed). */
static int same_as_library(const char *text)
{
	int rc_lib, rc_ours, lines = 0;
	char *lib = table_of(library_parse(), text, &rc_lib);
	char *ours = table_of(tep_parse_kallsyms, text, &rc_ours);

	if (rc_lib != rc_ours || strcmp(lib, ours))
		fail_msg("text <<%s>>: library %d <<%s>>, ours %d <<%s>>", text, rc_lib, lib,
			 rc_ours, ours);
	for (const char *p = lib; *p; p++)
		lines += *p == '\n';
	free(lib);
	free(ours);
	return lines;
}

/* Lines as /proc/kallsyms has them, and those libtraceevent leaves out. */
static void test_kernel_lines(void **state)
{
	(void)state;
	assert_int_equal(same_as_library(
		"ffffffff81000000 T _stext\n"
		"ffffffff81000000 T startup_64\n"
		"0000000000000000 A fixed_percpu_data\n"
		"0000000000001000 a __per_cpu_start_abs\n"
		"ffffffff81001000 t $x.12\n"
		"ffffffff812a3b40 T super_cache_scan\n"
		"ffffffff812a3c10 t super_cache_count\n"
		"ffffffffc0a01000 t ext4_es_scan\t[ext4]\n"
		"ffffffffc0a01200 t ext4_es_count\t[ext4]\n"
		"ffffffffc0b00000 d __this_module\t[xfs]\n"), 7);
	/* no trailing newline, blank lines, CRLF */
	assert_int_equal(same_as_library("\n\nffffffff81000000 T a\n\n\nffffffff81000010 T b"), 2);
	assert_int_equal(same_as_library("ffffffff81000000 T a\r\nffffffff81000010 T b\r\n"), 2);
	assert_int_equal(same_as_library(""), 0);
	/* equal addresses keep the text's order */
	same_as_library("ffffffff81000000 T z\nffffffff81000000 T y\nffffffff81000000 t x\n");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_lines),
		cmocka_unit_test(test_format_edges),
		cmocka_unit_test(test_random_lines),
	};

	tep_set_loglevel(TEP_LOG_NONE);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
