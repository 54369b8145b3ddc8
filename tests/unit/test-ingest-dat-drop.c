// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the pages dropped behind a trace.dat's cursors
 * (src/ingest/ingest-dat-drop.c): a cursor walked page by page through a
 * read-only private mapping of a 16 MiB file leaves at most 4 MiB and a
 * page of it resident (the Rss of its line in /proc/self/smaps), and what
 * it reads again is the file's bytes; walked the same way through
 * anonymous memory (a compressed file's decompressed chunks) or through a
 * mapping of another file, nothing is dropped: every byte stays as
 * written, every page resident.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "ingest-dat-priv.h"

enum { PAGE = 4096, FILE_BYTES = 16 << 20 };

static char dir[] = "/tmp/vr-test-drop-XXXXXX";
static char path[64], other[64];

/* A file of FILE_BYTES whose byte i is (i * 7 + page) & 0xff. */
static void write_file(const char *p)
{
	unsigned char *buf = malloc(FILE_BYTES);
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	assert_non_null(buf);
	assert_true(fd >= 0);
	for (size_t i = 0; i < FILE_BYTES; i++)
		buf[i] = (unsigned char)((i * 7 + i / PAGE) & 0xff);
	assert_int_equal(write(fd, buf, FILE_BYTES), FILE_BYTES);
	assert_int_equal(close(fd), 0);
	free(buf);
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/trace.dat", dir);
	snprintf(other, sizeof(other), "%s/other.dat", dir);
	write_file(path);
	write_file(other);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	unlink(other);
	return rmdir(dir);
}

/* KiB resident of the mapping that starts at @map (/proc/self/smaps). */
static long rss_kib(const void *map)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	char line[512];
	bool in = false;
	long kib = -1;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long start, end;

		if (sscanf(line, "%llx-%llx ", &start, &end) == 2)	/* a mapping's line */
			in = start == (uintptr_t)map;
		else if (in && sscanf(line, "Rss: %ld kB", &kib) == 1)
			break;
	}
	fclose(f);
	return kib;
}

/* Touch every page of @map, then walk a cursor through it page by page
 * as the reader does (the page's address and its offset in the file). */
static void walk(struct ingest_dat *d, unsigned char *map)
{
	struct dat_cursor c = { 0 };
	volatile unsigned sum = 0;

	for (size_t off = 0; off < FILE_BYTES; off += PAGE)
		sum += map[off];
	for (size_t off = 0; off < FILE_BYTES; off += PAGE)
		dat_drop_behind(d, &c, map + off, off);
	(void)sum;
}

static void check_bytes(const unsigned char *map)
{
	for (size_t i = 0; i < FILE_BYTES; i++)
		if (map[i] != (unsigned char)((i * 7 + i / PAGE) & 0xff))
			fail_msg("byte %zu changed", i);
}

static void test_file_mapping_dropped(void **state)
{
	struct ingest_dat d = { 0 };
	int fd = open(path, O_RDONLY);
	unsigned char *map;

	(void)state;
	assert_true(fd >= 0);
	map = mmap(NULL, FILE_BYTES, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(map != MAP_FAILED);
	dat_drop_init(&d.drop, path);
	assert_true(d.drop.on);
	walk(&d, map);
	assert_in_range(rss_kib(map), 0, 4096 + 4);	/* 16384 without the drop */
	check_bytes(map);				/* read back from the file */
	munmap(map, FILE_BYTES);
	close(fd);
}

static void test_anonymous_kept(void **state)
{
	struct ingest_dat d = { 0 };
	unsigned char *map = mmap(NULL, FILE_BYTES, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)state;
	assert_true(map != MAP_FAILED);
	for (size_t i = 0; i < FILE_BYTES; i++)
		map[i] = (unsigned char)((i * 7 + i / PAGE) & 0xff);
	dat_drop_init(&d.drop, path);
	walk(&d, map);
	assert_int_equal(rss_kib(map), FILE_BYTES / 1024);
	check_bytes(map);
	munmap(map, FILE_BYTES);
}

static void test_other_file_kept(void **state)
{
	struct ingest_dat d = { 0 };
	int fd = open(other, O_RDONLY);
	unsigned char *map;

	(void)state;
	assert_true(fd >= 0);
	map = mmap(NULL, FILE_BYTES, PROT_READ, MAP_PRIVATE, fd, 0);
	assert_true(map != MAP_FAILED);
	dat_drop_init(&d.drop, path);		/* not the file mapped */
	walk(&d, map);
	assert_int_equal(rss_kib(map), FILE_BYTES / 1024);
	munmap(map, FILE_BYTES);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_mapping_dropped),
		cmocka_unit_test(test_anonymous_kept),
		cmocka_unit_test(test_other_file_kept),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
