/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - make recordings: choose the events (presets or lists, checked
 * against the running kernel), trace them in a tracefs instance of our own
 * through libtracefs, drain the per-CPU ring buffers while a command runs,
 * and write a trace.dat with libtracecmd that records the trace clock used.
 *
 * Everything written to tracefs lives in the instance, so removing the
 * instance (done on every exit path, including Ctrl-C) restores the state
 * the other tracing users see: the top-level tracing files are only read.
 */
#ifndef VR_RECORD_H
#define VR_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One event to enable, as a user or a preset asked for it. */
struct record_event {
	char *system;		/* event system, e.g. "vmscan" (owned) */
	char *name;		/* event name, or NULL for every event of the
				 * system (owned) */
	char *filter;		/* ftrace filter expression, or NULL (owned) */
	bool optional;		/* from a preset: skipped with a warning when the
				 * running kernel lacks it, instead of an error */
};

/* A list of events; record_events_release() frees it. */
struct record_events {
	struct record_event *ev;	/* owned array */
	size_t n;
};

/* The presets of `record --events`, for help texts: NULL-terminated. */
extern const char *const record_preset_names[];

/**
 * record_events_parse - expand an --events argument.
 * @spec: a comma-separated list whose items are a preset name ("reclaim":
 *        every vmscan event; "full": reclaim plus the writeback congestion
 *        waits of kernels <= 5.17, compaction begin/end, and sched_switch /
 *        sched_wakeup filtered to kswapd tasks), a system ("vmscan" or
 *        "vmscan:*"), or one event ("sched:sched_process_exec", also written
 *        "sched/sched_process_exec").
 * @out: OUT: the expanded list, in the order given (duplicates are merged
 *       later by record_events_resolve()); release with
 *       record_events_release().
 *
 * Names may hold letters, digits and '_' only (an event name may also be
 * "*").  Returns 0, or -1 after an error message naming the bad item
 * (empty item, bad character, too many ':').
 */
int record_events_parse(const char *spec, struct record_events *out);

/** record_events_release - free the contents of @e and empty it. */
void record_events_release(struct record_events *e);

/*
 * How record_events_resolve() asks the kernel which events exist.
 * system_events returns the NULL-terminated, malloc'ed list of the event
 * names of @system (each string malloc'ed too), or NULL when the system does
 * not exist.  The caller frees it with record_strv_free().
 */
struct record_kernel {
	char **(*system_events)(void *arg, const char *system);
	void *arg;
	bool verbose;		/* warn about each optional event the kernel lacks
				 * (record -v); else they are skipped silently */
};

/** record_strv_free - free a NULL-terminated string list and its strings. */
void record_strv_free(char **v);

/**
 * record_events_resolve - turn a parsed list into concrete events of the
 * running kernel.
 * @in: from record_events_parse().
 * @k: the kernel to check against (record_tracefs_kernel() for the real one).
 * @out: OUT: one entry per distinct system:event with name != NULL, in first
 *       appearance order; an event asked for twice keeps no filter if either
 *       request had none, else the filters joined as "(a) || (b)".
 *
 * A missing optional event is skipped (reported with vr_warn() when
 * @k->verbose); a
 * missing requested event or system is an error.  An empty result is an
 * error.  Returns 0 or -1 (message printed).
 */
int record_events_resolve(const struct record_events *in, const struct record_kernel *k,
			  struct record_events *out);

/** record_tracefs_kernel - a struct record_kernel that reads tracefs. */
struct record_kernel record_tracefs_kernel(void);

/* What record_run() does. */
struct record_opts {
	const char *output;		/* trace.dat to write */
	const struct record_events *events; /* resolved events to enable */
	const char *clock;		/* trace clock, e.g. "mono" */
	unsigned int buffer_kb;		/* ring buffer per CPU in KiB; 0 keeps the
					 * new instance's default */
	uint64_t duration_ms;		/* stop after this long; 0: no limit */
	char *const *argv;		/* command to run, or NULL: wait for the
					 * duration or for SIGINT/SIGTERM */
	int file_version;		/* trace.dat version, 6 or 7 */
	const char *compression;	/* "none", "any" or an algorithm name
					 * (version 7 only) */
	const char *kallsyms;		/* file saved as the kernel symbols instead
					 * of /proc/kallsyms, or NULL */
	bool quiet;			/* no progress messages on stderr */
	const char *cgroup;		/* cgroup directory whose memory.stat
					 * the snapshots save, or NULL */
};

/* Ring-buffer statistics of one CPU at the end of a recording. */
struct record_cpu_stats {
	uint64_t entries;		/* events still in the buffer (0 after a
					 * complete drain) */
	uint64_t overrun;		/* events overwritten before being read:
					 * lost */
	uint64_t commit_overrun;	/* events lost to nested writers */
	uint64_t dropped;		/* events dropped (non-overwrite mode) */
	uint64_t read;			/* events read out of the ring buffer */
	uint64_t bytes;			/* raw data bytes saved for this CPU */
};

/* The outcome of record_run(). */
struct record_result {
	int ncpus;
	struct record_cpu_stats *cpu;	/* ncpus entries (owned) */
	int cmd_status;			/* wait status of the command, or -1 when
					 * none ran or it could not be started */
	bool interrupted;		/* a signal stopped the recording */
	int markers;			/* snapshot markers written into the trace
					 * (print events, counted in cpu[].read) */
	char *instance;			/* name of the tracefs instance used
					 * (owned) */
};

/**
 * record_check_tracefs - check the preconditions of recording: running as
 * root, and tracefs mounted.  @mount: mount tracefs when it is not.
 * Points libtracefs at /sys/kernel/tracing whenever that is a tracefs
 * mount (left alone, libtracefs 1.6 takes the first tracefs of
 * /proc/mounts, which may be the automount under debugfs).
 * Returns 0, or -1 after an error message that says what to do.
 */
int record_check_tracefs(bool mount);

/**
 * record_run - record @o->events into @o->output.
 * @res: OUT: statistics; release with record_result_release(), also after
 *       a failure.
 *
 * Creates the tracefs instance "vmscan-report-PID", sets its trace clock,
 * buffer size, event filters and enables, starts tracing, runs the command
 * (with the signals SIGINT, SIGTERM and SIGHUP of the recorder caught: they
 * stop the recording and are passed on to the command), drains the per-CPU
 * trace_pipe_raw files into temporary files "OUTPUT.cpuN" every 50 ms,
 * then writes the trace.dat and removes the instance and temporary files.
 * Instances "vmscan-report-PID" left behind by a killed recorder whose PID
 * is gone are removed first.
 *
 * Returns 0 when the trace.dat was written (whatever the command's status,
 * see @res->cmd_status), or -1 after an error message; the instance is
 * removed in every case.
 */
int record_run(const struct record_opts *o, struct record_result *res);

/**
 * record_check_output - before tracing starts, check that @o->output can be
 * written: not an existing non-regular file (a device such as /dev/null is
 * refused: the trace is written to OUTPUT.vr-tmpPID and renamed over the
 * output), a directory that exists and is writable, and a compression
 * libtracecmd supports.  Creates and removes the temporary file.
 * Returns 0, or -1 after "vmscan-report: record: OUTPUT: what is wrong".
 */
int record_check_output(const struct record_opts *o);

/**
 * record_write_dat - write the trace.dat @o->output from the raw per-CPU
 * ring-buffer pages in @files (@ncpus names, one per CPU, as drained from
 * trace_pipe_raw) with libtracecmd: file version @o->file_version,
 * compression @o->compression, the event formats of @o->events (plus ftrace's),
 * /proc/kallsyms, saved_cmdlines, uname, trace clock @o->clock, and @stats[c]
 * (the text of per_cpu/cpuC/stats, or NULL) as the CPU statistics that
 * `trace-cmd report --stat` shows.  Reads tracefs, never writes it.
 * Returns 0, or -1 after an error message (the output file is removed).
 */
int record_write_dat(const struct record_opts *o, int ncpus, char *const *files,
		     char *const *stats);

/**
 * record_snapshot_dir - make the snapshot directory of @output
 * (OUTPUT.snap, snapshot.h), or empty an existing one of the files a
 * snapshot writes; *@dir gets its name (caller frees, also after a
 * failure).  Returns 0, or -1 after "record: DIR: ..." (not a directory,
 * cannot be made).
 */
int record_snapshot_dir(const char *output, char **dir);

/**
 * record_snapshot - one snapshot moment (snapshot.h): write
 * "vmscan-report: snapshot MOMENT\n" to @marker_fd (the instance's
 * trace_marker, so the moment is an ftrace print event on the trace
 * clock), then copy each file of snapshot_files[] into DIR/MOMENT-NAME:
 * /proc/vmstat must be there; zoneinfo, pressure/memory and lru_gen/enabled
 * are skipped when the kernel lacks them (CONFIG_PSI, CONFIG_LRU_GEN);
 * @cgroup's memory.stat when @cgroup is not NULL, and then it must be
 * there; then each NUMA node's /sys/devices/system/node/nodeN/vmstat into
 * DIR/MOMENT-nodeN-vmstat (none without that directory).  Returns 0, or -1
 * after an error message naming the file.
 */
int record_snapshot(int marker_fd, const char *dir, const char *moment, const char *cgroup);

/** record_snapshot_remove - remove the snapshot files of @dir and @dir
 * itself (when empty then); @dir NULL: nothing. */
void record_snapshot_remove(const char *dir);

/** record_result_release - free the contents of @r. */
void record_result_release(struct record_result *r);

/**
 * record_parse_cpu_stats - parse the text of tracefs per_cpu/cpuN/stats
 * ("entries: 3\noverrun: 0\ncommit overrun: 0\n...dropped events: 0\n
 * read events: 7\n") into @st (OUT; fields not in @text are 0).
 * Returns 0, or -1 if no known field was found.
 */
int record_parse_cpu_stats(const char *text, struct record_cpu_stats *st);

#endif /* VR_RECORD_H */
