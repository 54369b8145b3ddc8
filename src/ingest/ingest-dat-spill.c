// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-dat-spill.c - an uncompressed copy of a compressed trace.dat, on
 * disk, for loads whose memory must not grow with the trace.
 *
 * libtracecmd 3.1.6 decompresses a version 7 file's CPU data chunk by
 * chunk into memory and never frees a chunk (trace-input.c free_zpage()
 * compares the page against the chunk's range the wrong way round, so the
 * chunk is never found), so reading a compressed file keeps all of its
 * decompressed data, about ten times the file, until the handle is closed.
 * An uncompressed file is read through mappings of the file: clean page
 * cache, which the kernel can take back, instead of anonymous memory.  The copy is made by `trace-cmd convert
 * --compression none` (the same library, as a separate process that
 * streams), into a fresh directory vmscan-report-PID-XXXXXX under $TMPDIR
 * or /var/tmp; the loader deletes it as soon as the copy is open, and
 * removes directories of loads that were killed before they could.
 */
#define _GNU_SOURCE	/* pipe2 */
#include "child.h"
#include "ingest-priv.h"
#include "vr.h"

#include <dirent.h>
#include <glib.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The last line of @s that is not empty, at most 200 bytes (for messages). */
static void last_line(const char *s, char *out, size_t len)
{
	const char *end = s + strlen(s), *start;

	while (end > s && (end[-1] == '\n' || end[-1] == ' '))
		end--;
	start = end;
	while (start > s && start[-1] != '\n')
		start--;
	while (start < end && (*start == ' ' || *start == '\t'))
		start++;
	snprintf(out, len, "%.*s", (int)(end - start), start);
}

/* A copy being made: trace-cmd convert running into dir/uncompressed.dat,
 * its stderr (progress, or why it failed) going to dir/convert.log. */
struct ingest_spill {
	char *src;		/* the compressed file, for messages */
	char *dir, *out, *log;
	struct child convert;	/* trace-cmd convert (convert.status once reaped) */
	struct ingest_scratch *scratch;	/* convert's scratch files, noted */
};

/* What the convert's child is given. */
struct convert_args {
	const struct ingest_spill *s;
	int log;		/* the log file, its stderr */
};

/* In the child: exec trace-cmd convert (127 when it cannot be run). */
static int convert_child(void *arg)
{
	const struct convert_args *a = arg;
	const struct ingest_spill *s = a->s;
	int log = a->log, null = open("/dev/null", O_WRONLY);

	/* killed with the process that waits for it (the copy would be
	 * useless, and would fill the disk for nothing) */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	/* its own process group: Ctrl-C in a terminal is the load's to
	 * handle, which then kills it */
	setpgid(0, 0);
	dup2(null, STDOUT_FILENO);
	dup2(log, STDERR_FILENO);
	/* nothing of ours: libtracecmd opens traces without O_CLOEXEC,
	 * and the files open in trace-cmd are what kill_convert() reads */
	if (close_range(3, ~0U, 0))
		for (int fd = 3; fd < 1024; fd++)
			close(fd);
	execlp("trace-cmd", "trace-cmd", "convert", "-i", s->src, "-o", s->out,
	       "--compression", "none", (char *)NULL);
	dprintf(STDERR_FILENO, "cannot run trace-cmd: %s\n", strerror(errno));
	return 127;
}

/* Start trace-cmd convert from @s->src into @s->out.  0 or -1 (errno). */
static int start_convert(struct ingest_spill *s)
{
	int log = open(s->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	struct convert_args a = { s, log };

	if (log < 0)
		return -1;
	if (child_start(&s->convert, convert_child, &a, 0)) {
		close(log);
		return -1;
	}
	close(log);
	s->scratch = ingest_scratch_watch(s->convert.pid, s->src);
	return 0;
}

/*
 * Remove copies left in @tmp by loads that were killed (SIGKILL, the OOM
 * killer, a crash): directories vmscan-report-PID-* of ours whose process
 * is gone.  Symbolic links and other users' directories are left alone.
 */
static void remove_stale(const char *tmp)
{
	DIR *dir = opendir(tmp);
	struct dirent *de;

	while (dir && (de = readdir(dir))) {
		struct stat st;
		int fd;

		if (!vr_name_of_dead_process(de->d_name, "vmscan-report-", '-'))
			continue;
		fd = openat(dirfd(dir), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (fstat(fd, &st) || st.st_uid != geteuid()) {
			close(fd);
			continue;
		}
		unlinkat(fd, "uncompressed.dat", 0);
		unlinkat(fd, "convert.log", 0);
		close(fd);
		if (unlinkat(dirfd(dir), de->d_name, AT_REMOVEDIR) == 0)
			vr_warn("removed %s/%s, left by a load that was killed", tmp, de->d_name);
	}
	if (dir)
		closedir(dir);
}

/* Is @dir in memory (tmpfs, ramfs)?  A copy there saves nothing. */
static bool in_memory(const char *dir)
{
	struct statfs fs;

	return statfs(dir, &fs) == 0 && (fs.f_type == TMPFS_MAGIC || fs.f_type == RAMFS_MAGIC);
}

static const char *tmp_dir(void)
{
	const char *tmp = getenv("TMPDIR");

	return tmp && *tmp ? tmp : "/var/tmp";
}

void ingest_dat_spill_remove_stale(void)
{
	remove_stale(tmp_dir());
}

const char *ingest_dat_spill_dir(void)
{
	return tmp_dir();
}

bool ingest_dat_spill_in_memory(void)
{
	return in_memory(tmp_dir());
}

uint64_t ingest_dat_spill_free_bytes(void)
{
	struct statvfs fs;

	return statvfs(tmp_dir(), &fs) ? UINT64_MAX : (uint64_t)fs.f_bavail * fs.f_frsize;
}

static char *path_in(const char *dir, const char *name)
{
	struct vr_buf b;

	vr_buf_init(&b);
	vr_buf_addf(&b, "%s/%s", dir, name);
	return vr_buf_detach(&b);
}

static void spill_free(struct ingest_spill *s)
{
	ingest_scratch_end(s->scratch, NULL);
	free(s->src);
	free(s->dir);
	free(s->out);
	free(s->log);
	free(s);
}

struct ingest_spill *ingest_dat_spill_start(const char *path)
{
	const char *tmp = tmp_dir();
	struct ingest_spill *s = vr_calloc(1, sizeof(*s));
	struct vr_buf dir;

	remove_stale(tmp);
	if (in_memory(tmp))
		vr_warn("%s: the uncompressed copy goes to %s, which is in memory (tmpfs):"
			" set TMPDIR to a directory on disk", path, tmp);
	vr_buf_init(&dir);
	vr_buf_addf(&dir, "%s/vmscan-report-%d-XXXXXX", tmp, (int)getpid());
	s->src = vr_strdup(path);
	if (!mkdtemp(dir.buf)) {
		vr_error("%s: cannot make a directory for its uncompressed copy (%s): %s", path,
			 dir.buf, strerror(errno));
		vr_buf_release(&dir);
		spill_free(s);
		return NULL;
	}
	s->dir = vr_buf_detach(&dir);
	s->out = path_in(s->dir, "uncompressed.dat");
	s->log = path_in(s->dir, "convert.log");
	if (start_convert(s)) {
		vr_error("%s: cannot run trace-cmd convert: %s", path, strerror(errno));
		ingest_dat_spill_cancel(s);
		return NULL;
	}
	return s;
}

/* Say why the copy failed (the last line trace-cmd wrote). */
static void report_failure(const struct ingest_spill *s)
{
	char why[256] = "";
	gchar *text = NULL;

	if (g_file_get_contents(s->log, &text, NULL, NULL))
		last_line(text, why, sizeof(why));
	g_free(text);
	if (child_signalled(&s->convert))
		vr_error("%s: trace-cmd convert was killed by signal %d", s->src,
			 child_signalled(&s->convert));
	else
		vr_error("%s: trace-cmd convert failed making an uncompressed copy%s%s", s->src,
			 *why ? ": " : "", why);
}

int ingest_dat_spill_poll(struct ingest_spill *s)
{
	if (s->convert.running) {
		if (child_poll(&s->convert) == 0)
			return 0;
		/* killed or failed: its scratch files stay */
		ingest_scratch_end(s->scratch, child_ok(&s->convert) ? "finished"
					       : child_signalled(&s->convert) ? "was killed" : "failed");
		s->scratch = NULL;
		if (!child_ok(&s->convert))
			report_failure(s);
	}
	return s->convert.status ? -1 : 1;
}

const char *ingest_dat_spill_path(const struct ingest_spill *s)
{
	return s->out;
}

/*
 * Kill the running convert of @s and delete the scratch files it had
 * open: stopped first (and waited for), so that it makes no new one
 * between the last look and the kill.
 */
static void kill_convert(struct ingest_spill *s)
{
	if (child_stop(&s->convert))
		ingest_scratch_look(s->scratch);
	child_kill(&s->convert, SIGKILL);	/* unless it ended by itself */
	ingest_scratch_end(s->scratch, NULL);
	s->scratch = NULL;
}

void ingest_dat_spill_cancel(struct ingest_spill *s)
{
	if (!s)
		return;
	if (s->convert.running)
		kill_convert(s);
	if (s->out)
		unlink(s->out);
	if (s->log)
		unlink(s->log);
	if (s->dir)
		rmdir(s->dir);
	spill_free(s);
}

char *ingest_dat_spill_finish(struct ingest_spill *s, const volatile sig_atomic_t *interrupted)
{
	char *copy;
	int made;

	while (!(made = ingest_dat_spill_poll(s)) && !(interrupted && *interrupted))
		nanosleep(&(struct timespec){ 0, 5000000 }, NULL);
	if (made <= 0) {
		ingest_dat_spill_cancel(s);
		return NULL;
	}
	unlink(s->log);
	copy = s->out;
	s->out = NULL;
	spill_free(s);
	return copy;
}

char *ingest_dat_spill(const char *path, const volatile sig_atomic_t *interrupted)
{
	struct ingest_spill *s = ingest_dat_spill_start(path);

	return s ? ingest_dat_spill_finish(s, interrupted) : NULL;
}

void ingest_dat_spill_remove(char *copy)
{
	char *slash;

	if (!copy)
		return;
	unlink(copy);
	slash = strrchr(copy, '/');
	if (slash) {
		*slash = '\0';
		rmdir(copy);
	}
	free(copy);
}
