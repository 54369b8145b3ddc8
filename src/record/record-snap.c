// SPDX-License-Identifier: GPL-2.0
/*
 * record-snap.c - record's counter snapshots (snapshot.h has the
 * convention): at the start and at the end of a recording, a marker on the
 * trace clock, then the files copied into OUTPUT.snap/.
 */
#include "record.h"
#include "snapshot.h"
#include "vr.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Copy @src into @dst (created 0644); a missing @src with @optional: 1. */
static int copy_file(const char *src, const char *dst, bool optional)
{
	char buf[65536];
	int in = open(src, O_RDONLY | O_CLOEXEC), out;
	ssize_t n = 0;

	if (in < 0 && optional && (errno == ENOENT || errno == ENOTDIR))
		return 1;
	if (in < 0)
		return vr_error("record: snapshot: %s: %s", src, strerror(errno));
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return vr_error("record: snapshot: %s: %s", dst, strerror(errno));
	}
	while ((n = read(in, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0 && write(out, buf, (size_t)n) != n)
			break;
	if (n != 0) {
		vr_error("record: snapshot: copying %s to %s: %s", src, dst,
			 n < 0 ? strerror(errno) : "short write");
		close(in);
		close(out);
		return -1;
	}
	close(in);
	return close(out) ? vr_error("record: snapshot: %s: %s", dst, strerror(errno)) : 0;
}

/* DIR/MOMENT-NAME into @b. */
static const char *snap_path(struct vr_buf *b, const char *dir, const char *moment,
			     const char *name)
{
	vr_buf_reset(b);
	vr_buf_addf(b, "%s/%s-%s", dir, moment, name);
	return b->buf;
}

int record_snapshot_dir(const char *output, char **dir)
{
	struct vr_buf b, f;
	struct stat st;

	vr_buf_init(&b);
	vr_buf_addf(&b, "%s" SNAPSHOT_DIR_SUFFIX, output);
	*dir = vr_buf_detach(&b);
	if (mkdir(*dir, 0755) && !(errno == EEXIST && stat(*dir, &st) == 0 && S_ISDIR(st.st_mode)))
		return vr_error("record: %s: cannot make the snapshot directory: %s", *dir,
				strerror(errno == EEXIST ? ENOTDIR : errno));
	/* a directory of an earlier recording: its files go */
	vr_buf_init(&f);
	for (int i = 0; i < snapshot_files_count; i++) {
		unlink(snap_path(&f, *dir, "start", snapshot_files[i].name));
		unlink(snap_path(&f, *dir, "end", snapshot_files[i].name));
	}
	vr_buf_release(&f);
	return 0;
}

void record_snapshot_remove(const char *dir)
{
	struct vr_buf f;

	if (!dir)
		return;
	vr_buf_init(&f);
	for (int i = 0; i < snapshot_files_count; i++) {
		unlink(snap_path(&f, dir, "start", snapshot_files[i].name));
		unlink(snap_path(&f, dir, "end", snapshot_files[i].name));
	}
	vr_buf_release(&f);
	rmdir(dir);
}

int record_snapshot(int marker_fd, const char *dir, const char *moment, const char *cgroup)
{
	struct vr_buf m, src, dst;
	int ret = 0;

	vr_buf_init(&m);
	vr_buf_addf(&m, SNAPSHOT_MARKER "%s\n", moment);
	if (write(marker_fd, m.buf, m.len) != (ssize_t)m.len)
		ret = vr_error("record: cannot write the snapshot marker to trace_marker: %s",
			       strerror(errno));
	vr_buf_release(&m);
	vr_buf_init(&src);
	vr_buf_init(&dst);
	for (int i = 0; !ret && i < snapshot_files_count; i++) {
		const struct snapshot_file *sf = &snapshot_files[i];

		vr_buf_reset(&src);
		if (sf->source)
			vr_buf_addstr(&src, sf->source);
		else if (cgroup)
			vr_buf_addf(&src, "%s/memory.stat", cgroup);
		else
			continue;
		/* only vmstat and a named cgroup's memory.stat must be there */
		if (copy_file(src.buf, snap_path(&dst, dir, moment, sf->name),
			      sf->source && strcmp(sf->name, "vmstat")) < 0)
			ret = -1;
	}
	vr_buf_release(&src);
	vr_buf_release(&dst);
	return ret;
}
