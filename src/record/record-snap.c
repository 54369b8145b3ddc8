// SPDX-License-Identifier: GPL-2.0
/*
 * record-snap.c - record's counter snapshots (snapshot.h has the
 * convention): at the start and at the end of a recording, a marker on the
 * trace clock, then the files copied into OUTPUT.snap/.
 */
#include "record.h"
#include "snapshot.h"
#include "vr.h"

#include <dirent.h>
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

/* Remove @dir's per-node vmstat files (start-nodeN-vmstat, end-...) of an
 * earlier recording. */
static void unlink_node_files(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct vr_buf f;

	if (!d)
		return;
	vr_buf_init(&f);
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		size_t len = strlen(n);

		if ((!strncmp(n, "start-node", 10) || !strncmp(n, "end-node", 8)) && len > 7 &&
		    !strcmp(n + len - 7, "-vmstat")) {
			vr_buf_reset(&f);
			vr_buf_addf(&f, "%s/%s", dir, n);
			unlink(f.buf);
		}
	}
	vr_buf_release(&f);
	closedir(d);
}

/*
 * Each NUMA node's counters, /sys/devices/system/node/nodeN/vmstat (the
 * node's zone and node items; drivers/base/node.c node_read_vmstat(), 6.1
 * and 6.18), into @dir/@moment-nodeN-vmstat, where load reads them (the
 * per-node pages: README "Counter snapshots").  A kernel without that
 * directory (no CONFIG_NUMA) gives none, which is not an error.
 */
static int copy_node_vmstat(const char *dir, const char *moment)
{
	DIR *d = opendir("/sys/devices/system/node");
	struct dirent *de;
	struct vr_buf src, dst, name;
	int ret = 0;

	if (!d)
		return 0;
	vr_buf_init(&src);
	vr_buf_init(&dst);
	vr_buf_init(&name);
	while (!ret && (de = readdir(d))) {
		int nid = snapshot_node_nid(de->d_name, "");

		if (nid < 0)
			continue;
		vr_buf_reset(&src);
		vr_buf_addf(&src, "/sys/devices/system/node/%s/vmstat", de->d_name);
		vr_buf_reset(&name);
		vr_buf_addf(&name, "node%d-vmstat", nid);
		if (copy_file(src.buf, snap_path(&dst, dir, moment, name.buf), true) < 0)
			ret = -1;
	}
	vr_buf_release(&src);
	vr_buf_release(&dst);
	vr_buf_release(&name);
	closedir(d);
	return ret;
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
	unlink_node_files(*dir);
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
	unlink_node_files(dir);
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
	if (!ret && copy_node_vmstat(dir, moment))
		ret = -1;
	return ret;
}
