// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot.c - load's side of the counter snapshots (snapshot.h): the
 * directory beside a trace read, checked and stored with the times of the
 * trace's markers, then the coverage table made (coverage.c).
 */
#include "store/store-tables.h"
#include "snapshot.h"
#include "store.h"
#include "store-query.h"
#include "coverage.h"
#include "vr.h"

#include <errno.h>
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

/*
 * The files, in the order read at each moment: vmstat first, the nearest
 * to the marker.  /proc/vmstat sums the per-CPU event counters when it is
 * read and shows the node counters without their per-CPU deltas
 * (mm/vmstat.c vmstat_start(), 6.1 and 6.18), which zoneinfo's "vm stats
 * threshold" bounds.  memory.stat is the cgroup's (record --cgroup).
 */
const struct snapshot_file snapshot_files[] = {
	{ "vmstat", "/proc/vmstat", true },
	{ "zoneinfo", "/proc/zoneinfo", false },
	{ "pressure-memory", "/proc/pressure/memory", false },
	{ "lru_gen-enabled", "/sys/kernel/mm/lru_gen/enabled", false },
	{ "memory.stat", NULL, true },
};
const int snapshot_files_count = (int)VR_ARRAY_SIZE(snapshot_files);


/* The text of @path, whole, into @b; 0, 1 if it does not exist, or -1. */
static int read_whole(const char *path, struct vr_buf *b)
{
	char chunk[65536];
	FILE *f = fopen(path, "re");
	size_t n;

	vr_buf_reset(b);
	if (!f && errno == ENOENT)
		return 1;
	if (!f)
		return vr_error("%s: %s", path, strerror(errno));
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		vr_buf_add(b, chunk, n);
	if (ferror(f)) {
		int e = errno;	/* EISDIR: a directory opens but does not read */

		fclose(f);
		return vr_error("%s: cannot read: %s", path, strerror(e));
	}
	fclose(f);
	if (memchr(b->buf, '\0', b->len))
		return vr_error("%s: holds a NUL byte: not a text snapshot", path);
	return 0;
}

/* The time of the trace's marker of @moment: *@ts_ns, *@have false when
 * there is none; two of them: an error. */
static int marker_time(struct store *st, int64_t run_id, const char *moment, int64_t *ts_ns,
		       bool *have, const char *dir)
{
	struct store_stmt *q;
	struct vr_buf want;
	int n = 0, r;

	vr_buf_init(&want);
	vr_buf_addf(&want, SNAPSHOT_MARKER "%s", moment);
	/* a trace.dat's print event has buf; a text trace's line is in text,
	 * after "tracing_mark_write: " */
	q = store_stmt_new(st, "SELECT ts_ns FROM other_event WHERE run_id = ?1"
			   " AND system = 'ftrace' AND name = 'print' AND rtrim(coalesce("
			   "json_extract(fields, '$.buf'), substr(json_extract(fields, '$.text'),"
			   " instr(json_extract(fields, '$.text'), ': ') + 2)), char(10)) = ?2"
			   " ORDER BY ts_ns", "snapshot markers");
	store_bind_int64(q, 1, run_id);
	store_bind_text(q, 2, want.buf);
	*have = false;
	while ((r = store_step(q)) == 1) {
		*ts_ns = store_col_int64(q, 0);
		*have = true;
		n++;
	}
	store_stmt_free(q);
	if (!r && n > 1)
		r = vr_error("%s: the trace has %d markers '%s': which one is the snapshot's?", dir,
			     n, want.buf);
	vr_buf_release(&want);
	return r;
}

/* One "name value" line of a counters file into snapshot_counter. */
static int parse_counters(struct store *st, int64_t run_id, const char *file, bool end,
			  const char *text, const char *path)
{
	struct store_stmt *q = store_stmt_new(st, end
		? "INSERT INTO snapshot_counter (run_id, file, name, end_value) VALUES (?1, ?2, ?3, ?4)"
		  " ON CONFLICT (run_id, file, name) DO UPDATE SET end_value = excluded.end_value"
		: "INSERT INTO snapshot_counter (run_id, file, name, start_value) VALUES (?1, ?2, ?3, ?4)",
		"snapshot counters");
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, free, NULL);
	int line = 0, ret = 0;

	for (const char *p = text; !ret && *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char name[128], num[32], rest[2];
		char *l = vr_malloc(len + 1);
		uint64_t v;

		memcpy(l, p, len);
		l[len] = '\0';
		line++;
		if (sscanf(l, "%127s %31s %1s", name, num, rest) != 2 || vr_parse_u64(num, &v) ||
		    v > INT64_MAX)
			ret = vr_error("%s:%d: not a 'name value' counter line (value from 0 to"
				       " 2^63 - 1): '%s'", path, line, l);
		free(l);
		if (!ret && g_hash_table_contains(seen, name))
			ret = vr_error("%s:%d: counter '%s' given twice", path, line, name);
		if (!ret) {
			g_hash_table_add(seen, vr_strdup(name));
			store_stmt_reset(q);
			store_bind_int64(q, 1, run_id);
			store_bind_text(q, 2, file);
			store_bind_text(q, 3, name);
			store_bind_int64(q, 4, (int64_t)v);
			if (store_step(q) < 0)
				ret = -1;
		}
		p += len + (nl ? 1 : 0);
	}
	store_stmt_free(q);
	g_hash_table_destroy(seen);
	return ret;
}

int snapshot_node_nid(const char *name, const char *suffix)
{
	const char *p = name + 4;
	int nid = 0;

	if (strncmp(name, "node", 4) || !(*p >= '0' && *p <= '9') ||
	    (*p == '0' && p[1] >= '0' && p[1] <= '9'))
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		nid = nid * 10 + (*p - '0');
		if (nid > SNAPSHOT_MAX_NID)
			return -1;
	}
	return strcmp(p, suffix) ? -1 : nid;
}

/* The per-node vmstat file of node @nid: a snapshot_file whose name is in
 * @name (static storage of the caller). */
static struct snapshot_file node_vmstat_file(int nid, char name[32])
{
	snprintf(name, 32, "node%d-vmstat", nid);
	return (struct snapshot_file){ name, NULL, true };
}

/*
 * Is @name (a directory entry) a file of the convention?  *@moment_end;
 * *@nid the node of a per-node vmstat file (then NULL is returned), else
 * -1.
 */
static const struct snapshot_file *known_file(const char *name, bool *moment_end, int *nid)
{
	const char *rest = NULL;

	*nid = -1;
	if (!strncmp(name, "start-", 6))
		rest = name + 6, *moment_end = false;
	else if (!strncmp(name, "end-", 4))
		rest = name + 4, *moment_end = true;
	for (int i = 0; rest && i < snapshot_files_count; i++)
		if (!strcmp(rest, snapshot_files[i].name))
			return &snapshot_files[i];
	if (rest)
		*nid = snapshot_node_nid(rest, "-vmstat");
	return NULL;
}

/*
 * Every entry of @dir is a file of the convention; @nodes[N] set for each
 * node N with a per-node vmstat file (start- or end-), @nodes holding
 * SNAPSHOT_MAX_NID + 1.
 */
static int check_entries(const char *dir, bool *nodes)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int ret = 0, nid;
	bool end;

	if (!d)
		return vr_error("%s: %s", dir, strerror(errno));
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (!known_file(de->d_name, &end, &nid) && nid < 0)
			ret = vr_error("%s: unknown file '%s': a snapshot directory holds start-NAME"
				       " and end-NAME, NAME one of vmstat, zoneinfo, pressure-memory,"
				       " lru_gen-enabled, memory.stat, nodeN-vmstat (N from 0 to %d)",
				       dir, de->d_name, SNAPSHOT_MAX_NID);
		else if (nid >= 0)
			nodes[nid] = true;
	}
	closedir(d);
	return ret;
}

/* Store both moments of snapshot file @sf of @dir. */
static int load_file(struct store *st, int64_t run_id, const char *dir,
		     const struct snapshot_file *sf, const int64_t ts[2], const bool have[2])
{
	static const char *const moments[2] = { "start", "end" };
	struct vr_buf path, text;
	int got[2], ret = 0;

	vr_buf_init(&path);
	vr_buf_init(&text);
	for (int m = 0; !ret && m < 2; m++) {
		struct store_stmt *q;

		vr_buf_reset(&path);
		vr_buf_addf(&path, "%s/%s-%s", dir, moments[m], sf->name);
		got[m] = read_whole(path.buf, &text);
		if (got[m] < 0) {
			ret = -1;
			break;
		}
		if (got[m] == 1 && !strcmp(sf->name, "vmstat"))
			ret = vr_error("%s: missing: a snapshot directory has start-vmstat and"
				       " end-vmstat", path.buf);
		if (m == 1 && got[0] != got[1])
			ret = vr_error("%s/%s-%s: missing: %s-%s is there", dir,
				       moments[got[0] ? 0 : 1], sf->name,
				       moments[got[0] ? 1 : 0], sf->name);
		if (ret || got[m])
			continue;
		q = store_stmt_new(st, "INSERT INTO run_snapshot (run_id, moment, file, ts_ns,"
				   " content) VALUES (?1, ?2, ?3, ?4, ?5)", "snapshot files");
		store_bind_int64(q, 1, run_id);
		store_bind_text(q, 2, moments[m]);
		store_bind_text(q, 3, sf->name);
		if (have[m])
			store_bind_int64(q, 4, ts[m]);
		store_bind_text(q, 5, text.buf);
		ret = store_step(q) < 0 ? -1 : 0;
		store_stmt_free(q);
		if (!ret && sf->counters)
			ret = parse_counters(st, run_id, sf->name, m == 1, text.buf, path.buf);
	}
	vr_buf_release(&path);
	vr_buf_release(&text);
	return ret;
}

int snapshot_load(struct store *st, int64_t run_id, const char *trace_path)
{
	struct vr_buf dir;
	struct stat sb;
	int64_t ts[2] = { 0, 0 };
	bool have[2] = { false, false };
	bool nodes[SNAPSHOT_MAX_NID + 1] = { false };
	int ret = 0, rc;

	vr_buf_init(&dir);
	vr_buf_addf(&dir, "%s" SNAPSHOT_DIR_SUFFIX, trace_path);
	/* none there; or the trace's name is too long for one (NAME_MAX) */
	rc = stat(dir.buf, &sb);
	if (rc && (errno == ENOENT || errno == ENAMETOOLONG))
		goto out;
	if (rc || !S_ISDIR(sb.st_mode)) {
		ret = vr_error("%s: not a directory (a snapshot directory is expected there)",
			       dir.buf);
		goto out;
	}
	ret = check_entries(dir.buf, nodes) ||
	      store_exec(st, SNAPSHOT_SCHEMA, "cannot create the snapshot tables") ||
	      marker_time(st, run_id, "start", &ts[0], &have[0], dir.buf) ||
	      marker_time(st, run_id, "end", &ts[1], &have[1], dir.buf) ? -1 : 0;
	if (!ret && have[0] && have[1] && ts[1] < ts[0])
		ret = vr_error("%s: the trace's snapshot end marker (%lld ns) is before its start"
			       " marker (%lld ns)", dir.buf, (long long)ts[1], (long long)ts[0]);
	if (!ret && (!have[0] || !have[1]))
		vr_warn("%s: the trace has no 'vmscan-report: snapshot %s' marker: the snapshot"
			" is compared with the trace from its %s", dir.buf,
			have[0] ? "end" : "start", have[0] ? "end" : "start");
	for (int i = 0; !ret && i < snapshot_files_count; i++)
		ret = load_file(st, run_id, dir.buf, &snapshot_files[i], ts, have);
	for (int nid = 0; !ret && nid <= SNAPSHOT_MAX_NID; nid++) {
		char name[32];
		struct snapshot_file nf = node_vmstat_file(nid, name);

		if (nodes[nid])
			ret = load_file(st, run_id, dir.buf, &nf, ts, have);
	}
	if (!ret)
		ret = coverage_compute(st, run_id);
out:
	vr_buf_release(&dir);
	return ret;
}
