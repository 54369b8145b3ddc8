// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of what a trace file is (src/ingest/ingest-kind.c): the kind
 * decided from hand-written first bytes, each magic as its format's
 * documentation gives it (trace-cmd.dat.v7(5), linux
 * tools/perf/util/header.c, sqlite.org/fileformat.html, RFC 1952 and
 * RFC 8878, the .xz file format, bzip2's "BZh"), and the edge cases a
 * reader relies on: a cut magic, an empty file, a directory, a missing
 * file, a version 7 header naming a compression or "none".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>
#include <cmocka.h>

#include "ingest-priv.h"

static char dir[] = "/tmp/vr-test-kind-XXXXXX";

/* The kind of a file holding @len bytes of @bytes; @h: OUT. */
static enum ingest_kind kind_of(const void *bytes, size_t len, struct ingest_head *h)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "%s/f", dir);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return ingest_kind_of(path, h);
}

/* A version 7 trace.dat header: magic, "7\0", endianness, long size, page
 * size (4 bytes), then the compression name and version strings. */
static size_t dat7(unsigned char *b, const char *algo)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	size_t n = 0;

	memcpy(b, magic, sizeof(magic));
	n += sizeof(magic);
	memcpy(b + n, "7", 2);
	n += 2;
	b[n++] = 0;	/* little endian */
	b[n++] = 8;	/* long size */
	memcpy(b + n, "\0\020\0\0", 4);	/* page size 4096 */
	n += 4;
	strcpy((char *)b + n, algo);
	n += strlen(algo) + 1;
	strcpy((char *)b + n, "1.5");
	return n + 4;
}

static void test_magics(void **state)
{
	struct ingest_head h;
	unsigned char b[64];
	size_t n;

	(void)state;
	n = dat7(b, "zstd");
	assert_int_equal(kind_of(b, n, &h), INGEST_KIND_DAT);
	assert_true(h.dat_compressed);
	n = dat7(b, "none");
	assert_int_equal(kind_of(b, n, &h), INGEST_KIND_DAT);
	assert_false(h.dat_compressed);
	n = dat7(b, "zstd");
	assert_int_equal(kind_of(b, 5, &h), INGEST_KIND_DAT_CUT);	/* 5 bytes of the magic */
	assert_int_equal(kind_of("PERFILE2\x68\0\0\0", 12, &h), INGEST_KIND_PERF);
	assert_int_equal(kind_of("2ELIFREP\0\0\0\x68", 12, &h), INGEST_KIND_PERF);
	assert_int_equal(kind_of("SQLite format 3\0\x10\0", 18, &h), INGEST_KIND_SQLITE);
	assert_int_equal(kind_of("\x1f\x8b\x08\0", 4, &h), INGEST_KIND_TEXT_COMPRESSED);
	assert_string_equal(h.compression, "gzip");
	assert_int_equal(kind_of("\xfd" "7zXZ\0\0\x04", 8, &h), INGEST_KIND_TEXT_COMPRESSED);
	assert_string_equal(h.compression, "xz");
	assert_int_equal(kind_of("\x28\xb5\x2f\xfd\x24", 5, &h), INGEST_KIND_TEXT_COMPRESSED);
	assert_string_equal(h.compression, "zstd");
	assert_int_equal(kind_of("BZh91AY&SY", 10, &h), INGEST_KIND_TEXT_COMPRESSED);
	assert_string_equal(h.compression, "bzip2");
}

static void test_text_and_edges(void **state)
{
	static const char line[] = "  kswapd0-52  [001] ....  1.000000: mm_vmscan_kswapd_wake:"
				   " nid=0 order=0\r\n\tcontinued\n";
	struct ingest_head h;
	char path[64];

	(void)state;
	assert_int_equal(kind_of(line, sizeof(line) - 1, &h), INGEST_KIND_TEXT);
	assert_int_equal(kind_of("a\x01" "b", 3, &h), INGEST_KIND_BINARY);	/* a control byte */
	assert_int_equal(kind_of("a\x7f", 2, &h), INGEST_KIND_BINARY);		/* DEL */
	assert_int_equal(kind_of("", 0, &h), INGEST_KIND_NONE);			/* empty */
	assert_int_equal(h.err, 0);
	assert_false(h.is_dir);
	assert_int_equal(ingest_kind_of(dir, &h), INGEST_KIND_NONE);		/* a directory */
	assert_true(h.is_dir);
	snprintf(path, sizeof(path), "%s/missing", dir);
	assert_int_equal(ingest_kind_of(path, &h), INGEST_KIND_NONE);
	assert_int_equal(h.err, ENOENT);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char path[64];

	(void)state;
	snprintf(path, sizeof(path), "%s/f", dir);
	unlink(path);
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_magics),
		cmocka_unit_test(test_text_and_edges),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
