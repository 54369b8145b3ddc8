// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-dat-scratch.c - trace-cmd convert's own scratch files.
 *
 * libtracecmd 3.1.6 (trace-output.c, used by trace-cmd convert) writes each
 * CPU's data through a file it makes with mkstemp("/tmp/trace_cpu_dataXXXXXX")
 * (the directory is fixed: TMPDIR is not read) and deletes it only when it
 * is done, so a convert that is killed leaves them behind, each as large as
 * its CPU's uncompressed data (up to 140 MB on make bench's trace).  A load
 * that stops its convert early deletes the ones the convert has open for
 * writing (ingest_scratch_open_by()); when the convert died without that
 * (killed by someone else, or with a worker that crashed), the files that
 * appeared since it started and that nobody has open any more are deleted
 * (ingest_scratch_sweep()); so are those of a convert that failed, and the
 * start of every load removes any that no process has open, left by loads
 * that were killed (ingest_scratch_remove_stale()).  A file is never taken
 * for one unless its name
 * is exactly that pattern, it is a regular file of this user, and it is
 * not one of the load's inputs.
 */
#include "ingest.h"
#include "vr.h"

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define SCRATCH_DIR "/tmp"
#define SCRATCH_BASE "trace_cpu_data"

struct file_id {
	dev_t dev;
	ino_t ino;
};

struct ingest_scratch_snapshot {
	time_t taken;
	GArray *before;		/* struct file_id of the scratch files then */
	GArray *inputs;		/* struct file_id of the load's inputs */
};

/* Is @name SCRATCH_BASE followed by mkstemp's six letters or digits? */
static bool scratch_name(const char *name)
{
	size_t blen = strlen(SCRATCH_BASE);
	int n = 0;

	if (strncmp(name, SCRATCH_BASE, blen))
		return false;
	name += blen;
	while (n < 6 && isalnum((unsigned char)name[n]))
		n++;
	return n == 6 && !name[n];
}

/* Is @path SCRATCH_DIR/ + a scratch_name()? */
static bool scratch_path(const char *path)
{
	size_t dlen = strlen(SCRATCH_DIR);

	return !strncmp(path, SCRATCH_DIR, dlen) && path[dlen] == '/' &&
	       scratch_name(path + dlen + 1);
}

static bool has_id(const GArray *ids, const struct stat *st)
{
	for (guint i = 0; ids && i < ids->len; i++) {
		const struct file_id *id = &g_array_index(ids, struct file_id, i);

		if (id->dev == st->st_dev && id->ino == st->st_ino)
			return true;
	}
	return false;
}

static void add_id(GArray *ids, const struct stat *st)
{
	struct file_id id = { st->st_dev, st->st_ino };

	g_array_append_val(ids, id);
}

/* A regular file of this user that is not one of @inputs. */
static bool ours(const struct stat *st, const GArray *inputs)
{
	return S_ISREG(st->st_mode) && st->st_uid == geteuid() && !has_id(inputs, st);
}

/* Was descriptor @fd of process @pid opened for writing (fdinfo flags)? */
static bool opened_for_writing(pid_t pid, const char *fd)
{
	char path[320], line[128];
	unsigned int flags = 0;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", (int)pid, fd);
	f = fopen(path, "re");
	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "flags: %o", &flags) == 1;
	if (f)
		fclose(f);
	return found && (flags & O_ACCMODE) != O_RDONLY;
}

char **ingest_scratch_open_by(pid_t pid, const char *src)
{
	GPtrArray *files = g_ptr_array_new_with_free_func(g_free);
	GArray *inputs = g_array_new(FALSE, FALSE, sizeof(struct file_id));
	char fd_dir[64], target[4096];
	struct stat st;
	struct dirent *de;
	DIR *dir;

	if (stat(src, &st) == 0)
		add_id(inputs, &st);
	snprintf(fd_dir, sizeof(fd_dir), "/proc/%d/fd", (int)pid);
	dir = opendir(fd_dir);
	while (dir && (de = readdir(dir))) {
		ssize_t n = readlinkat(dirfd(dir), de->d_name, target, sizeof(target) - 1);

		if (n <= 0)
			continue;
		target[n] = '\0';
		if (!scratch_path(target) || fstatat(dirfd(dir), de->d_name, &st, 0) ||
		    !ours(&st, inputs) || !opened_for_writing(pid, de->d_name))
			continue;
		g_ptr_array_add(files, g_strdup(target));
	}
	if (dir)
		closedir(dir);
	g_array_free(inputs, TRUE);
	g_ptr_array_add(files, NULL);
	return (char **)g_ptr_array_free(files, FALSE);
}

/* The scratch files in SCRATCH_DIR now (their ids). */
static GArray *scratch_ids(void)
{
	GArray *ids = g_array_new(FALSE, FALSE, sizeof(struct file_id));
	DIR *dir = opendir(SCRATCH_DIR);
	struct dirent *de;

	while (dir && (de = readdir(dir))) {
		struct stat st;

		if (scratch_name(de->d_name) && !fstatat(dirfd(dir), de->d_name, &st,
							 AT_SYMLINK_NOFOLLOW))
			add_id(ids, &st);
	}
	if (dir)
		closedir(dir);
	return ids;
}

struct ingest_scratch_snapshot *ingest_scratch_snapshot(char *const *inputs, int n)
{
	struct ingest_scratch_snapshot *snap = vr_calloc(1, sizeof(*snap));

	snap->taken = time(NULL);
	snap->before = scratch_ids();
	snap->inputs = g_array_new(FALSE, FALSE, sizeof(struct file_id));
	for (int i = 0; i < n; i++) {
		struct stat st;

		if (stat(inputs[i], &st) == 0)
			add_id(snap->inputs, &st);
	}
	return snap;
}

void ingest_scratch_snapshot_free(struct ingest_scratch_snapshot *snap)
{
	if (!snap)
		return;
	g_array_free(snap->before, TRUE);
	g_array_free(snap->inputs, TRUE);
	free(snap);
}

/* The ids of every file some process has open (that this user may see). */
static GArray *open_ids(void)
{
	GArray *ids = g_array_new(FALSE, FALSE, sizeof(struct file_id));
	DIR *proc = opendir("/proc");
	struct dirent *pe;

	while (proc && (pe = readdir(proc))) {
		char fd_dir[300];
		struct dirent *de;
		DIR *dir;

		if (!isdigit((unsigned char)pe->d_name[0]))
			continue;
		snprintf(fd_dir, sizeof(fd_dir), "/proc/%s/fd", pe->d_name);
		dir = opendir(fd_dir);
		while (dir && (de = readdir(dir))) {
			struct stat st;

			if (de->d_name[0] != '.' && !fstatat(dirfd(dir), de->d_name, &st, 0) &&
			    S_ISREG(st.st_mode))
				add_id(ids, &st);
		}
		if (dir)
			closedir(dir);
	}
	if (proc)
		closedir(proc);
	return ids;
}

/* Is the scratch file @st (named @name) one @snap may take: ours, not an
 * input, and new since @snap was taken? */
static bool candidate(const struct ingest_scratch_snapshot *snap, const struct stat *st)
{
	return ours(st, snap->inputs) && !has_id(snap->before, st) &&
	       st->st_mtime >= snap->taken - 1;
}

/* One pass of ingest_scratch_sweep(): remove the candidate() files that no
 * process has open, saying they were left by a convert that @how (was
 * killed, failed, ...); true if a candidate is still open. */
static bool sweep_once(const struct ingest_scratch_snapshot *snap, const char *how)
{
	GArray *open = NULL;	/* looked up once a candidate is found */
	DIR *dir = opendir(SCRATCH_DIR);
	bool busy = false;
	struct dirent *de;

	while (dir && (de = readdir(dir))) {
		struct stat st;

		if (!scratch_name(de->d_name) ||
		    fstatat(dirfd(dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !candidate(snap, &st))
			continue;
		if (!open)
			open = open_ids();
		if (has_id(open, &st))
			busy = true;
		else if (unlinkat(dirfd(dir), de->d_name, 0) == 0)
			vr_warn("removed %s/%s, left by a trace-cmd convert that %s", SCRATCH_DIR,
				de->d_name, how);
	}
	if (dir)
		closedir(dir);
	if (open)
		g_array_free(open, TRUE);
	return busy;
}

void ingest_scratch_sweep(const struct ingest_scratch_snapshot *snap, const char *how)
{
	/* a convert killed with its load (PR_SET_PDEATHSIG) takes a moment
	 * to let go of its files: up to a second */
	for (int i = 0; i < 20 && sweep_once(snap, how); i++)
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
}

void ingest_scratch_remove_stale(char *const *inputs, int n)
{
	struct ingest_scratch_snapshot *snap = ingest_scratch_snapshot(inputs, n);

	/* every scratch file, however old: one that no process has open is
	 * no longer written or read by anyone */
	g_array_set_size(snap->before, 0);
	snap->taken = 0;
	sweep_once(snap, "did not finish");
	ingest_scratch_snapshot_free(snap);
}
