// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-dat-scratch.c - trace-cmd convert's own scratch files, and the
 * record of which ones a load's convert made.
 *
 * libtracecmd 3.1.6 (trace-output.c, used by trace-cmd convert) writes each
 * CPU's data through a file it makes with mkstemp("/tmp/trace_cpu_dataXXXXXX")
 * (the directory is fixed: TMPDIR is not read) and deletes it only when it
 * is done, so a convert that is killed, or that fails, leaves them behind,
 * each as large as its CPU's uncompressed data (up to 140 MB on make
 * bench's trace).
 *
 * A name is no proof of ownership: anyone may have a file called like
 * that.  So a load takes only files its own convert had open for writing:
 * a thread of the process that started the convert looks at
 * /proc/PID/fd every SCRATCH_LOOK_MS and notes each such file (device,
 * inode, birth time where the filesystem keeps one, name) in memory and in
 * a record file, RECORD_DIR/convert-PID-START (START: the convert's start
 * time, so that a reused pid is not taken for it), which the load holds
 * locked (flock) for as long as it runs.  When the convert ends (done,
 * failed, killed by someone, or stopped by the load) the load deletes the
 * noted files that are still there with the same device and inode, then
 * its record.  A load that was killed leaves its record unlocked: the next
 * load's start (or the supervisor of a worker that died) deletes the files
 * it notes once their convert is gone.  A file made and closed between two
 * looks is not noted, and so not deleted: better a leak than a user's file.
 */
#define _GNU_SOURCE	/* statx */
#include "ingest-priv.h"
#include "vr.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#define SCRATCH_DIR "/tmp"
#define SCRATCH_BASE "trace_cpu_data"
#define RECORD_PREFIX "convert-"
#define RECORD_MAGIC "vmscan-report scratch record 1"
#define SCRATCH_LOOK_MS 20

/* One scratch file a convert had open for writing. */
struct scratch_file {
	dev_t dev;
	ino_t ino;
	long long btime_s;	/* birth time, -1: unknown */
	unsigned int btime_ns;
	char name[32];		/* in SCRATCH_DIR */
};

struct ingest_scratch {
	pid_t pid;			/* the convert */
	unsigned long long start;	/* its start time (clock ticks since boot) */
	dev_t src_dev;			/* its input, never taken */
	ino_t src_ino;
	bool has_src;
	GArray *files;			/* struct scratch_file noted so far */
	int dir_fd, rec_fd;		/* RECORD_DIR and the record, or -1 */
	char rec_name[64];
	pthread_t looker;
	bool looking;			/* the thread runs */
	atomic_bool stop;
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

/* The name in SCRATCH_DIR of @path if it is SCRATCH_DIR/ + a scratch_name(), else NULL. */
static const char *scratch_path(const char *path)
{
	size_t dlen = strlen(SCRATCH_DIR);

	if (strncmp(path, SCRATCH_DIR, dlen) || path[dlen] != '/' || !scratch_name(path + dlen + 1))
		return NULL;
	return path + dlen + 1;
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

/* Fill @f's identity from @dirfd/@name (following a /proc fd link when
 * @follow); 0, or -1 if it is no regular file of this user. */
static int identify(int dirfd, const char *name, bool follow, struct scratch_file *f)
{
	struct statx sx;

	if (statx(dirfd, name, follow ? 0 : AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS | STATX_BTIME,
		  &sx) || !S_ISREG(sx.stx_mode) || sx.stx_uid != geteuid())
		return -1;
	f->dev = makedev(sx.stx_dev_major, sx.stx_dev_minor);
	f->ino = sx.stx_ino;
	f->btime_s = sx.stx_mask & STATX_BTIME ? sx.stx_btime.tv_sec : -1;
	f->btime_ns = sx.stx_mask & STATX_BTIME ? sx.stx_btime.tv_nsec : 0;
	return 0;
}

static bool same_file(const struct scratch_file *a, const struct scratch_file *b)
{
	return a->dev == b->dev && a->ino == b->ino &&
	       (a->btime_s < 0 || b->btime_s < 0 ||
		(a->btime_s == b->btime_s && a->btime_ns == b->btime_ns));
}

static bool noted(const struct ingest_scratch *w, const struct scratch_file *f)
{
	for (guint i = 0; i < w->files->len; i++)
		if (same_file(&g_array_index(w->files, struct scratch_file, i), f))
			return true;
	return false;
}

/* Append @f to @w's record (a line: "file DEV INO BTIME_S BTIME_NS NAME"). */
static void record_file(const struct ingest_scratch *w, const struct scratch_file *f)
{
	if (w->rec_fd >= 0)
		dprintf(w->rec_fd, "file %llu %llu %lld %u %s\n", (unsigned long long)f->dev,
			(unsigned long long)f->ino, f->btime_s, f->btime_ns, f->name);
}

/*
 * Note the scratch files @w's convert has open for writing now.  Taken
 * only if the convert is still the process that @w started (same start
 * time before and after the look: a pid reused meanwhile is another's).
 */
static void look(struct ingest_scratch *w)
{
	GArray *seen = g_array_new(FALSE, FALSE, sizeof(struct scratch_file));
	char fd_dir[64], target[4096];
	struct dirent *de;
	DIR *dir;

	snprintf(fd_dir, sizeof(fd_dir), "/proc/%d/fd", (int)w->pid);
	dir = vr_proc_start_time(w->pid, NULL) == w->start ? opendir(fd_dir) : NULL;
	while (dir && (de = readdir(dir))) {
		ssize_t n = readlinkat(dirfd(dir), de->d_name, target, sizeof(target) - 1);
		struct scratch_file f = { 0 };
		const char *name;

		if (n <= 0)
			continue;
		target[n] = '\0';
		name = scratch_path(target);
		if (!name || identify(dirfd(dir), de->d_name, true, &f) ||
		    (w->has_src && f.dev == w->src_dev && f.ino == w->src_ino) || noted(w, &f) ||
		    !opened_for_writing(w->pid, de->d_name))
			continue;
		memcpy(f.name, name, strlen(name) + 1);	/* scratch_name(): 20 bytes */
		g_array_append_val(seen, f);
	}
	if (dir)
		closedir(dir);
	if (seen->len && vr_proc_start_time(w->pid, NULL) == w->start) {
		for (guint i = 0; i < seen->len; i++)
			record_file(w, &g_array_index(seen, struct scratch_file, i));
		g_array_append_vals(w->files, seen->data, seen->len);
	}
	g_array_free(seen, TRUE);
}

static void *looker_main(void *arg)
{
	struct ingest_scratch *w = arg;

	while (!atomic_load(&w->stop)) {
		look(w);
		nanosleep(&(struct timespec){ 0, SCRATCH_LOOK_MS * 1000000L }, NULL);
	}
	return NULL;
}

/*
 * The directory of records, /tmp/vmscan-report-UID, made if missing: a
 * descriptor, or -1 with errno (EPERM: it is not a directory of this
 * user that only this user can write).
 */
static int record_dir(bool make, char *path, size_t len)
{
	struct stat st;
	int fd;

	snprintf(path, len, "%s/vmscan-report-%u", SCRATCH_DIR, (unsigned int)geteuid());
	if (make && mkdir(path, 0700) && errno != EEXIST)
		return -1;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_uid != geteuid() || (st.st_mode & 077)) {
		close(fd);
		errno = EPERM;
		return -1;
	}
	return fd;
}

/* Make @w's record, locked, its header written (under a temporary name,
 * then renamed: a record is never seen without its header). */
static int record_open(struct ingest_scratch *w)
{
	char dir[64], tmp[80];

	w->dir_fd = record_dir(true, dir, sizeof(dir));
	if (w->dir_fd < 0)
		return -1;
	snprintf(w->rec_name, sizeof(w->rec_name), RECORD_PREFIX "%d-%llu", (int)w->pid, w->start);
	snprintf(tmp, sizeof(tmp), "new-%s", w->rec_name);
	w->rec_fd = openat(w->dir_fd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0600);
	if (w->rec_fd < 0 || flock(w->rec_fd, LOCK_EX) ||
	    dprintf(w->rec_fd, "%s\nconvert %d %llu\n", RECORD_MAGIC, (int)w->pid, w->start) < 0 ||
	    renameat(w->dir_fd, tmp, w->dir_fd, w->rec_name)) {
		int err = errno;

		if (w->rec_fd >= 0) {
			unlinkat(w->dir_fd, tmp, 0);
			close(w->rec_fd);
		}
		w->rec_fd = -1;
		errno = err;
		return -1;
	}
	return 0;
}

struct ingest_scratch *ingest_scratch_watch(pid_t pid, const char *src)
{
	struct ingest_scratch *w = vr_calloc(1, sizeof(*w));
	struct stat st;

	w->pid = pid;
	w->start = vr_proc_start_time(pid, NULL);
	w->dir_fd = w->rec_fd = -1;
	w->files = g_array_new(FALSE, FALSE, sizeof(struct scratch_file));
	if (src && stat(src, &st) == 0) {
		w->src_dev = st.st_dev;
		w->src_ino = st.st_ino;
		w->has_src = true;
	}
	/* gone already (it failed at once): nothing to look at, nothing to record */
	if (w->start && record_open(w))
		vr_warn("%s: cannot keep a record of trace-cmd convert's scratch files in"
			" %s/vmscan-report-%u (%s): should this load be killed, they stay in %s",
			src, SCRATCH_DIR, (unsigned int)geteuid(), strerror(errno), SCRATCH_DIR);
	atomic_store(&w->stop, false);
	w->looking = w->start && !pthread_create(&w->looker, NULL, looker_main, w);
	return w;
}

static void stop_looking(struct ingest_scratch *w)
{
	if (!w->looking)
		return;
	atomic_store(&w->stop, true);
	pthread_join(w->looker, NULL);
	w->looking = false;
}

void ingest_scratch_look(struct ingest_scratch *w)
{
	if (!w)
		return;
	stop_looking(w);
	look(w);
}

/* Delete SCRATCH_DIR/@f->name if it still is @f; say so unless @how is NULL. */
static void remove_file(int scratch_fd, const struct scratch_file *f, const char *how)
{
	struct scratch_file now = { 0 };

	if (!scratch_name(f->name) || identify(scratch_fd, f->name, false, &now) ||
	    !same_file(f, &now) || unlinkat(scratch_fd, f->name, 0))
		return;
	if (how)
		vr_warn("removed %s/%s, left by a trace-cmd convert that %s", SCRATCH_DIR, f->name,
			how);
}

void ingest_scratch_end(struct ingest_scratch *w, const char *how)
{
	int scratch_fd;

	if (!w)
		return;
	stop_looking(w);
	scratch_fd = open(SCRATCH_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	for (guint i = 0; scratch_fd >= 0 && i < w->files->len; i++)
		remove_file(scratch_fd, &g_array_index(w->files, struct scratch_file, i), how);
	if (scratch_fd >= 0)
		close(scratch_fd);
	if (w->rec_fd >= 0) {
		unlinkat(w->dir_fd, w->rec_name, 0);	/* while still locked */
		close(w->rec_fd);
	}
	if (w->dir_fd >= 0)
		close(w->dir_fd);
	g_array_free(w->files, TRUE);
	free(w);
}

/* Parse one "file ..." line of a record into @f; 0 or -1. */
static int parse_file_line(const char *line, struct scratch_file *f)
{
	unsigned long long dev, ino;
	char name[32];

	if (sscanf(line, "file %llu %llu %lld %u %31s", &dev, &ino, &f->btime_s, &f->btime_ns,
		   name) != 5 || !scratch_name(name))
		return -1;
	f->dev = (dev_t)dev;
	f->ino = (ino_t)ino;
	snprintf(f->name, sizeof(f->name), "%s", name);
	return 0;
}

/*
 * Clean up after the record @name in @dir_fd if its load is gone (the
 * record is not locked) and so is its convert: delete the files it notes
 * that are still the same files, then the record.  1 if the convert still
 * runs (its load was killed a moment ago and it dies with it), else 0.
 */
static int clean_record(int dir_fd, int scratch_fd, const char *name)
{
	int fd = openat(dir_fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC), pid, busy = 0;
	unsigned long long start;
	char *text = NULL, *line, *save;
	struct stat st;
	FILE *f;

	if (fd < 0)
		return 0;
	/* locked: its load runs; unlinked: another load cleaned it meanwhile */
	if (flock(fd, LOCK_EX | LOCK_NB) || fstat(fd, &st) || !st.st_nlink ||
	    st.st_uid != geteuid() || !S_ISREG(st.st_mode)) {
		close(fd);
		return 0;
	}
	f = fdopen(fd, "r");
	text = f ? g_malloc0((size_t)st.st_size + 1) : NULL;
	if (!f || fread(text, 1, (size_t)st.st_size, f) != (size_t)st.st_size ||
	    strncmp(text, RECORD_MAGIC "\n", strlen(RECORD_MAGIC) + 1) ||
	    sscanf(text + strlen(RECORD_MAGIC) + 1, "convert %d %llu", &pid, &start) != 2) {
		g_free(text);	/* not a record of ours: left alone */
		if (f)
			fclose(f);
		else
			close(fd);
		return 0;
	}
	if (start && vr_proc_start_time(pid, NULL) == start) {
		busy = 1;
	} else {
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			struct scratch_file sf;

			if (!parse_file_line(line, &sf))
				remove_file(scratch_fd, &sf, "was killed with its load");
		}
		unlinkat(dir_fd, name, 0);
	}
	g_free(text);
	fclose(f);
	return busy;
}

/* One pass over the records; true if a convert of a dead load still runs. */
static bool remove_stale_once(void)
{
	char path[64];
	int dir_fd = record_dir(false, path, sizeof(path));
	int scratch_fd = open(SCRATCH_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = dir_fd >= 0 && scratch_fd >= 0 ? fdopendir(dup(dir_fd)) : NULL;
	struct dirent *de;
	bool busy = false;

	while (dir && (de = readdir(dir)))
		if (!strncmp(de->d_name, RECORD_PREFIX, strlen(RECORD_PREFIX)))
			busy |= clean_record(dir_fd, scratch_fd, de->d_name);
	if (dir)
		closedir(dir);
	if (dir_fd >= 0)
		close(dir_fd);
	if (scratch_fd >= 0)
		close(scratch_fd);
	return busy;
}

void ingest_scratch_remove_stale(int wait_ms)
{
	for (int waited = 0; remove_stale_once() && waited < wait_ms; waited += 50)
		nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
}
