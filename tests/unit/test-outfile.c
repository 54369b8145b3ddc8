// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of src/outfile.c: a commit replaces the file whole, a failed
 * write leaves the old file and no temporary, an outdir writes MANIFEST in
 * sha256sum(1)'s format and replaces nothing when one file fails.  Write
 * failures come from RLIMIT_FSIZE (write(2) then fails with EFBIG, SIGXFSZ
 * ignored), which needs no root and no full disk.  The SHA-256 of "hello\n"
 * is `echo hello | sha256sum`'s.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "outfile.h"
#include "vr.h"

#define HELLO_SHA256 "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"

struct fixture {
	char dir[64];
	struct rlimit fsize;
	void (*old_xfsz)(int);
};

static int setup(void **state)
{
	struct fixture *f = vr_calloc(1, sizeof(*f));

	snprintf(f->dir, sizeof(f->dir), "/tmp/vr-outfile.XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	getrlimit(RLIMIT_FSIZE, &f->fsize);
	f->old_xfsz = signal(SIGXFSZ, SIG_IGN);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	setrlimit(RLIMIT_FSIZE, &f->fsize);
	signal(SIGXFSZ, f->old_xfsz);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
	if (system(cmd))
		return -1;
	free(f);
	return 0;
}

/* Files larger than @bytes cannot be written (EFBIG). */
static void limit_file_size(const struct fixture *f, rlim_t bytes)
{
	struct rlimit r = { bytes, f->fsize.rlim_max };

	assert_int_equal(setrlimit(RLIMIT_FSIZE, &r), 0);
}

static char *path_in(const struct fixture *f, const char *name)
{
	struct vr_buf b;

	vr_buf_init(&b);
	vr_buf_addf(&b, "%s/%s", f->dir, name);
	return vr_buf_detach(&b);
}

static void put(const struct fixture *f, const char *name, const char *text)
{
	char *p = path_in(f, name);
	FILE *fp = fopen(p, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	free(p);
}

/* The whole content of @name (at most 4 KiB), "" when absent. */
static char *get(const struct fixture *f, const char *name)
{
	char *p = path_in(f, name), *buf = vr_calloc(1, 4097);
	FILE *fp = fopen(p, "r");

	if (fp) {
		size_t n = fread(buf, 1, 4096, fp);

		buf[n] = '\0';
		fclose(fp);
	}
	free(p);
	return buf;
}

/* The entries of the directory (dot files included), sorted, one per line. */
static char *listing(const struct fixture *f)
{
	struct dirent **de;
	struct vr_buf b;
	int n = scandir(f->dir, &de, NULL, alphasort);

	assert_true(n >= 2);
	vr_buf_init(&b);
	for (int i = 0; i < n; i++) {
		if (strcmp(de[i]->d_name, ".") && strcmp(de[i]->d_name, ".."))
			vr_buf_addf(&b, "%s\n", de[i]->d_name);
		free(de[i]);
	}
	free(de);
	return vr_buf_detach(&b);
}

static void assert_content(const struct fixture *f, const char *name, const char *want)
{
	char *got = get(f, name);

	assert_string_equal(got, want);
	free(got);
}

static void assert_listing(const struct fixture *f, const char *want)
{
	char *got = listing(f);

	assert_string_equal(got, want);
	free(got);
}

static void test_commit_replaces_whole(void **state)
{
	struct fixture *f = *state;
	char *p = path_in(f, "c.txt");
	struct outfile *of;

	put(f, "c.txt", "old\n");
	of = outfile_create(p);
	assert_non_null(of);
	fprintf(outfile_stream(of), "new %d\n", 1);
	assert_content(f, "c.txt", "old\n");	/* not before the commit */
	assert_int_equal(outfile_commit(of), 0);
	assert_content(f, "c.txt", "new 1\n");
	assert_listing(f, "c.txt\n");
	free(p);
}

static void test_failed_write_keeps_old_file(void **state)
{
	struct fixture *f = *state;
	char *p = path_in(f, "c.txt"), big[8192];
	struct outfile *of;

	put(f, "c.txt", "old\n");
	memset(big, 'x', sizeof(big));
	of = outfile_create(p);
	assert_non_null(of);
	limit_file_size(f, 4096);
	fwrite(big, 1, sizeof(big), outfile_stream(of));
	assert_int_equal(outfile_commit(of), -1);	/* "cannot write: File too large" */
	setrlimit(RLIMIT_FSIZE, &f->fsize);
	assert_content(f, "c.txt", "old\n");
	assert_listing(f, "c.txt\n");
	free(p);
}

static void test_refuses_symlink(void **state)
{
	struct fixture *f = *state;
	char *p = path_in(f, "link.txt"), *target = path_in(f, "target.txt");

	put(f, "target.txt", "theirs\n");
	assert_int_equal(symlink("target.txt", p), 0);
	assert_null(outfile_create(p));
	assert_content(f, "target.txt", "theirs\n");
	assert_listing(f, "link.txt\ntarget.txt\n");
	free(p);
	free(target);
}

static void test_outdir_manifest(void **state)
{
	struct fixture *f = *state;
	struct outdir *d = outdir_open(f->dir, NULL);
	struct outfile *of;

	assert_non_null(d);
	of = outdir_create(d, "a.txt");
	assert_non_null(of);
	assert_int_equal(outfile_write(of, "hello\n", 6), 0);
	assert_int_equal(outfile_finish(of), 0);
	assert_int_equal(outdir_commit(d), 0);
	assert_content(f, "a.txt", "hello\n");
	assert_content(f, "MANIFEST", "# vmscan-report: the files written here by `vmscan-report"
		       " report` and their SHA-256 (sha256sum -c MANIFEST checks them)\n"
		       HELLO_SHA256 "  a.txt\n");
	/* a second run: a.txt is ours (hash matches) and replaced */
	d = outdir_open(f->dir, NULL);
	assert_non_null(d);
	of = outdir_create(d, "a.txt");
	assert_non_null(of);
	assert_int_equal(outfile_write(of, "again\n", 6), 0);
	assert_int_equal(outdir_commit(d), 0);	/* finishes the file itself */
	assert_content(f, "a.txt", "again\n");
	assert_listing(f, "MANIFEST\na.txt\n");
}

static void test_outdir_one_failure_replaces_nothing(void **state)
{
	struct fixture *f = *state;
	struct outdir *d;
	struct outfile *a, *b;
	char big[8192];

	put(f, "a.txt", "hello\n");
	put(f, "MANIFEST", "# vmscan-report\n" HELLO_SHA256 "  a.txt\n");
	memset(big, 'x', sizeof(big));
	d = outdir_open(f->dir, NULL);
	assert_non_null(d);
	a = outdir_create(d, "a.txt");
	b = outdir_create(d, "b.txt");
	assert_non_null(a);
	assert_non_null(b);
	fputs("new a\n", outfile_stream(a));
	limit_file_size(f, 4096);
	fwrite(big, 1, sizeof(big), outfile_stream(b));
	assert_int_equal(outdir_commit(d), -1);
	setrlimit(RLIMIT_FSIZE, &f->fsize);
	assert_content(f, "a.txt", "hello\n");
	assert_listing(f, "MANIFEST\na.txt\n");
}

static void test_outdir_names(void **state)
{
	struct fixture *f = *state;
	struct outdir *d;

	put(f, "mine.txt", "mine\n");
	d = outdir_open(f->dir, NULL);
	assert_non_null(d);
	assert_null(outdir_create(d, "../x"));
	assert_null(outdir_create(d, ".hidden"));
	assert_null(outdir_create(d, "a\nb"));
	assert_null(outdir_create(d, "MANIFEST"));
	assert_null(outdir_create(d, "mine.txt"));	/* not in MANIFEST: not ours */
	assert_null(outdir_create(d, "fine.txt"));	/* the directory has failed */
	assert_int_equal(outdir_commit(d), -1);
	assert_listing(f, "mine.txt\n");
}

/* Plain names, the last MANIFEST: trusted only for the patterns given. */
static void test_outdir_legacy_manifest(void **state)
{
	static const char *const legacy[] = { "*.png", NULL };
	struct fixture *f = *state;
	struct outdir *d;

	put(f, "old.png", "stale\n");
	put(f, "notes.txt", "mine\n");
	put(f, "MANIFEST", "old.png\nnotes.txt\nMANIFEST\n");
	d = outdir_open(f->dir, legacy);
	assert_non_null(d);
	assert_null(outdir_create(d, "notes.txt"));	/* listed, but not a name of ours */
	outdir_abort(d);
	d = outdir_open(f->dir, legacy);
	assert_non_null(d);
	assert_int_equal(outdir_commit(d), 0);		/* old.png is stale: removed */
	assert_listing(f, "MANIFEST\nnotes.txt\n");
	put(f, "MANIFEST", "notes.txt\n");		/* not ending in MANIFEST: not ours */
	assert_null(outdir_open(f->dir, legacy));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_commit_replaces_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_failed_write_keeps_old_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_refuses_symlink, setup, teardown),
		cmocka_unit_test_setup_teardown(test_outdir_manifest, setup, teardown),
		cmocka_unit_test_setup_teardown(test_outdir_one_failure_replaces_nothing, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_outdir_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_outdir_legacy_manifest, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
