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
#include "ingest.h"
#include "vr.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <sys/wait.h>
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
	snprintf(out, len, "%.*s", (int)(end - start), start);
}

/* Run trace-cmd convert; its stderr (progress, or the reason it failed)
 * goes into @err.  Returns the wait status, or -1 if it could not start. */
static int run_convert(const char *in, const char *out, struct vr_buf *err)
{
	int fds[2], status;
	char chunk[4096];
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, STDOUT_FILENO);
		dup2(fds[1], STDERR_FILENO);
		execlp("trace-cmd", "trace-cmd", "convert", "-i", in, "-o", out, "--compression",
		       "none", (char *)NULL);
		dprintf(STDERR_FILENO, "cannot run trace-cmd: %s\n", strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	while ((n = read(fds[0], chunk, sizeof(chunk))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			vr_buf_add(err, chunk, (size_t)n);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -1;
	return status;
}

/*
 * Remove copies left in @tmp by loads that were killed (SIGKILL, the OOM
 * killer): directories vmscan-report-PID-* whose process is gone.
 */
static void remove_stale(const char *tmp)
{
	DIR *dir = opendir(tmp);
	struct dirent *de;

	while (dir && (de = readdir(dir))) {
		char path[4096];

		if (!vr_name_of_dead_process(de->d_name, "vmscan-report-", '-'))
			continue;
		snprintf(path, sizeof(path), "%s/%s/uncompressed.dat", tmp, de->d_name);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s", tmp, de->d_name);
		if (rmdir(path) == 0)
			vr_warn("removed %s, left by a load that was killed", path);
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

char *ingest_dat_spill(const char *path)
{
	const char *tmp = getenv("TMPDIR");
	struct vr_buf dir, out, err;
	char why[256];
	int status;

	if (!tmp || !*tmp)
		tmp = "/var/tmp";
	remove_stale(tmp);
	if (in_memory(tmp))
		vr_warn("%s: the uncompressed copy goes to %s, which is in memory (tmpfs):"
			" set TMPDIR to a directory on disk", path, tmp);
	vr_buf_init(&dir);
	vr_buf_init(&out);
	vr_buf_init(&err);
	vr_buf_addf(&dir, "%s/vmscan-report-%d-XXXXXX", tmp, (int)getpid());
	if (!mkdtemp(dir.buf)) {
		vr_error("%s: cannot make a directory for its uncompressed copy (%s): %s", path,
			 dir.buf, strerror(errno));
		goto fail;
	}
	vr_buf_addf(&out, "%s/uncompressed.dat", dir.buf);
	status = run_convert(path, out.buf, &err);
	if (status == 0) {
		vr_buf_release(&dir);
		vr_buf_release(&err);
		return vr_buf_detach(&out);
	}
	last_line(err.buf, why, sizeof(why));
	if (status == -1)
		vr_error("%s: cannot run trace-cmd convert: %s", path, strerror(errno));
	else if (WIFSIGNALED(status))
		vr_error("%s: trace-cmd convert was killed by signal %d", path, WTERMSIG(status));
	else
		vr_error("%s: trace-cmd convert failed making an uncompressed copy%s%s", path,
			 *why ? ": " : "", why);
	unlink(out.buf);
	rmdir(dir.buf);
fail:
	vr_buf_release(&dir);
	vr_buf_release(&out);
	vr_buf_release(&err);
	return NULL;
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
