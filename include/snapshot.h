/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot.h - the kernel's own counters beside a trace: /proc/vmstat,
 * /proc/zoneinfo, /proc/pressure/memory, the multi-gen LRU switch and a
 * cgroup's memory.stat, saved at the start and at the end of a recording.
 *
 * The convention (record writes it, load reads it, a recording made by
 * other means can follow it): beside X.dat a directory X.dat.snap/ with
 * files start-NAME and end-NAME, NAME one of snapshot_files[].name or
 * nodeN-vmstat (/sys/devices/system/node/nodeN/vmstat: node N's zone and
 * node counters, no events; mm/vmstat.c node_read_vmstat()); at each
 * snapshot moment "vmscan-report: snapshot start" (or "... end") is written
 * to the tracing instance's trace_marker just before the files are read,
 * so the moment is on the trace's own clock (an ftrace print event).
 */
#ifndef VR_SNAPSHOT_H
#define VR_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>

struct store;

/* The text written to trace_marker, followed by "start" or "end". */
#define SNAPSHOT_MARKER "vmscan-report: snapshot "
/* The largest node number of a nodeN-vmstat file (the kernel's
 * MAX_NUMNODES with CONFIG_NODES_SHIFT at its maximum, 10, less one). */
#define SNAPSHOT_MAX_NID 1023
/* The directory beside the trace: TRACE SNAPSHOT_DIR_SUFFIX. */
#define SNAPSHOT_DIR_SUFFIX ".snap"

/* One file of a snapshot. */
struct snapshot_file {
	const char *name;	/* in the directory: start-NAME, end-NAME */
	const char *source;	/* what record reads; NULL: the cgroup's
				 * memory.stat (record --cgroup) */
	bool counters;		/* "name value" lines: parsed into
				 * snapshot_counter rows by load */
};

/**
 * snapshot_node_nid - the N of "nodeN" followed by exactly @suffix in @name
 * (N decimal, 0 to SNAPSHOT_MAX_NID, no leading zero: the kernel's
 * /sys/devices/system/node/nodeN; @suffix "" for that directory's name,
 * "-vmstat" for a snapshot's per-node file), or -1 when @name is not one.
 */
int snapshot_node_nid(const char *name, const char *suffix);

extern const struct snapshot_file snapshot_files[];
extern const int snapshot_files_count;

/**
 * snapshot_load - store the snapshot directory of trace @trace_path (its
 * path + SNAPSHOT_DIR_SUFFIX), if there is one, as the snapshot of run
 * @run_id of @st (inside the run's transaction; the run's events stored).
 *
 * Tables written: run_snapshot (one row per file and moment: its text and
 * the moment's time on the trace clock, the ts_ns of the trace's marker,
 * NULL when the trace has none), snapshot_counter (each counter of vmstat,
 * memory.stat and nodeN-vmstat, file "nodeN-vmstat": start and end value;
 * coverage reads "vmstat" only) and counter_coverage
 * (coverage_compute(), coverage.h).  A directory without start-vmstat and
 * end-vmstat, a file that cannot be read whole, a counters line that is
 * not "name unsigned-number" or a name given twice: an error naming the
 * file and line.  Two markers of one moment: an error.  No directory:
 * nothing stored, 0.  Returns 0 or -1 after a message.
 */
int snapshot_load(struct store *st, int64_t run_id, const char *trace_path);

#endif /* VR_SNAPSHOT_H */
