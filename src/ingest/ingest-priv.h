/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ingest-priv.h - what the files of the ingest module share (include/ingest.h
 * is the interface: struct ingest_source): the readers behind a source
 * (struct ingest_reader), the trace.dat reader (ingest-dat*.c), its
 * header check, uncompressed copies and convert's scratch files, the
 * comms of each pid (ingest-tasks.c) and the text reader (ingest-text*.c).
 */
#ifndef VR_INGEST_PRIV_H
#define VR_INGEST_PRIV_H

#include "ingest.h"

#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * struct ingest_reader - one kind of file behind struct ingest_source
 * (ingest-source.c picks it by the kind ingest_kind_of() decided).  A new
 * reader fills one of these and is named in reader_for(); only open, read,
 * has_field and close are required, the rest may be NULL.  @state is what
 * open returned.
 */
struct ingest_reader {
	const char *format;	/* the run's source_format ("trace.dat", "text") */
	bool fields_printed;	/* has_field answers from printed fields (text) */
	/* open @path (@h: its first bytes and kind; @sha256 as ingest_open()
	 * got it: a hash made by ingest_probe(), to take over, or NULL),
	 * filling @meta (path, content_sha256 unless left to ingest_hash(),
	 * release, cpus, ...); the state, or NULL after "vmscan-report: PATH:
	 * what" with @meta released */
	void *(*open)(const char *path, const struct ingest_head *h, const struct ingest_opts *o,
		      char **sha256, struct ingest_meta *meta);
	/* start decoding on a thread of its own, running @early there; NULL:
	 * the reader does not decode ahead (ingest_decodes_ahead()) */
	int (*start)(void *state, const struct ingest_early *early);
	/* every event to @sink in timestamp order, then the comm spans; 0,
	 * -1 after a message naming the file and where, or a sink's value */
	int (*read)(void *state, const struct ingest_sink *sink);
	/* ingest_progress(); NULL: 0 of 0 */
	void (*progress)(const void *state, uint64_t *done, uint64_t *total, uint64_t *events);
	int (*has_field)(void *state, const char *system, const char *event, const char *field);
	/* ingest_kswapd_pid(); NULL: -1 */
	int (*kswapd_pid)(void *state, int nid);
	/* ingest_quality(); NULL: no items */
	int (*quality)(const void *state,
		       int (*quality)(void *arg, const char *item, int64_t count, const char *detail),
		       void *arg);
	/* ingest_how_read(); NULL: NULL */
	const char *(*how_read)(void *state, char *buf, size_t len);
	/* ingest_leave_to_exit(); NULL: nothing to leave */
	void (*leave_to_exit)(void *state);
	/* ingest_stop(); NULL: no reader thread */
	void (*stop)(void *state);
	void (*close)(void *state);
};

/*
 * perf.data recordings of tracepoints (src/ingest/ingest-perf.c): the
 * formats of the tracing-data feature parsed by libtraceevent, each
 * sample's raw record decoded as a trace.dat record is (ingest-dat.c),
 * with the sample's time (perf's clock, ns), CPU and the record's
 * common_pid; comms from PERF_RECORD_COMM from their time on, else the
 * saved cmdlines; PERF_RECORD_LOST and PERF_RECORD_LOST_SAMPLES as lost
 * events; samples in time order (stable).  Its open refuses a perf.data
 * without tracing data (a profile) saying so; quality items perf_samples,
 * perf_lost_records (warned), perf_other_samples.
 */
extern const struct ingest_reader ingest_perf_reader;

/** ingest_meta_release - free the strings of @m and zero it. */
void ingest_meta_release(struct ingest_meta *m);

struct ingest_dat;

/*
 * struct ingest_tasks - the comms of each pid over time (src/ingest/ingest-tasks.c),
 * fed by a reader in timestamp order.  Strings it returns are interned:
 * valid until ingest_tasks_free().  Not thread-safe: one reader thread.
 */
struct ingest_tasks;

struct ingest_tasks *ingest_tasks_new(void);
void ingest_tasks_free(struct ingest_tasks *t);
/**
 * ingest_tasks_note - @pid has comm @comm (@len bytes, no NUL needed) at
 * @ts_ns: extends its open span, or opens a new one when the comm differs
 * (exec, or the pid reused).  Returns the interned comm.
 */
const char *ingest_tasks_note(struct ingest_tasks *t, int pid, const char *comm, size_t len,
			      uint64_t ts_ns);
/**
 * ingest_tasks_note_saved - as ingest_tasks_note(), for a comm that comes
 * from the recording's saved cmdlines (the name at its end), not from an
 * event of this time.
 */
/* ingest_tasks_note_from - as ingest_tasks_note(), with where the comm
 * came from (@source, static: "sched_switch", "sched_wakeup", ...); plain
 * ingest_tasks_note() says "line" (the comm a text line or sample prints). */
const char *ingest_tasks_note_from(struct ingest_tasks *t, int pid, const char *comm, size_t len,
				   uint64_t ts_ns, const char *source);
const char *ingest_tasks_note_saved(struct ingest_tasks *t, int pid, const char *comm,
				    uint64_t ts_ns);
/** ingest_tasks_saved_later - how many spans taken from the saved cmdlines
 * an event then named otherwise (their rows may carry a later name). */
uint64_t ingest_tasks_saved_later(const struct ingest_tasks *t);
/** ingest_tasks_current - the comm of @pid's open span (extended to
 * @ts_ns), or NULL when none is open. */
const char *ingest_tasks_current(struct ingest_tasks *t, int pid, uint64_t ts_ns);
/** ingest_tasks_emit - every span through @sink->task, in the order they
 * opened; 0 or the callback's non-zero value. */
int ingest_tasks_emit(const struct ingest_tasks *t, const struct ingest_sink *sink);

/**
 * ingest_open_dat - open a trace.dat file and read its headers.
 * @path: file to read.
 * @meta: OUT: filled with the recording's metadata; release with
 *        ingest_meta_release().
 *
 * Returns a handle to pass to ingest_read_dat() and ingest_close_dat(), or
 * NULL after printing "vmscan-report: PATH: what is wrong" (missing file,
 * not a trace.dat, unsupported version, truncated headers).  Probes the
 * file in a child first (ingest_probe_dat()): no other thread may run.
 */
struct ingest_dat *ingest_open_dat(const char *path, struct ingest_meta *meta);

/**
 * ingest_dat_check_headers - walk the headers of a version 6 trace.dat
 * (src/ingest/ingest-dat-check.c): every size within the file, string options
 * terminated, CPU data inside the file.  Other versions pass unchecked.
 * Returns 0, or -1 after "vmscan-report: PATH: corrupt or truncated
 * trace.dat: SECTION at offset N ...".  Called by ingest_probe_dat().
 */
int ingest_dat_check_headers(const char *path);

/**
 * ingest_probe_dat - open @path and its buffer instances with libtracecmd in
 * a child process, read the first record of every CPU, and report whether
 * that crashed (libtracecmd 3.1.6
 * crashes on some corrupt or truncated files).  fork() must not be called
 * while other threads run (their locks would stay taken in the child), so
 * call this before starting any reader thread.  Returns 0 (no crash, or the
 * file simply fails to open: ingest_open_dat_probed() says why) or -1 after
 * "vmscan-report: PATH: corrupt or truncated trace.dat ...".
 * @sha256: if not NULL, OUT: the file's ingest_sha256_file() (owned; NULL
 * if it could not be read), computed while the child probes.
 */
int ingest_probe_dat(const char *path, char **sha256);

/**
 * ingest_open_dat_probed - ingest_open_dat() without the probe, for a file
 * ingest_probe_dat() already accepted, and without hashing the file:
 * meta->content_sha256 is NULL, for the caller to fill (with
 * ingest_sha256_file(), e.g. while the reader thread runs).  Same contract
 * otherwise.
 */
struct ingest_dat *ingest_open_dat_probed(const char *path, struct ingest_meta *meta);

/**
 * ingest_dat_spill - make an uncompressed copy of the compressed trace.dat
 * @path with `trace-cmd convert --compression none`, in a new directory
 * under $TMPDIR (default /var/tmp): reading it keeps memory flat, where
 * libtracecmd 3.1.6 keeps every decompressed chunk of a compressed file
 * (ingest-dat-spill.c says why).  Returns the copy's path (owned; remove
 * it with ingest_dat_spill_remove(), which may be done as soon as it is
 * open), or NULL after "vmscan-report: PATH: trace-cmd convert ...", or
 * NULL without a message once *@interrupted (if not NULL) is set.
 */
char *ingest_dat_spill(const char *path, const volatile sig_atomic_t *interrupted);

/** ingest_dat_spill_remove - delete the copy and its directory, free @copy. */
void ingest_dat_spill_remove(char *copy);

/**
 * struct ingest_spill - an uncompressed copy of a compressed trace.dat in
 * the making: `trace-cmd convert` running as a child process (killed if the
 * process that started it dies), into a new directory under $TMPDIR
 * (default /var/tmp).
 */
struct ingest_spill;

/**
 * ingest_dat_spill_start - start copying @path as ingest_dat_spill() does,
 * without waiting.  Returns the copy in the making (owned: end it with
 * ingest_dat_spill_cancel()), or NULL after "vmscan-report: PATH: ..." when
 * the directory cannot be made or trace-cmd cannot be started.  Forks: the
 * child only execs trace-cmd.
 */
struct ingest_spill *ingest_dat_spill_start(const char *path);

/**
 * ingest_dat_spill_poll - has the copy @s been made?  Does not wait.
 * Returns 1 (done: ingest_dat_spill_path() is complete), 0 (trace-cmd still
 * runs), or -1 after "vmscan-report: PATH: trace-cmd convert ..." (it
 * failed; the copy is useless).
 */
int ingest_dat_spill_poll(struct ingest_spill *s);

/**
 * ingest_dat_spill_finish - wait for the copy @s (taken over) and return its
 * path as ingest_dat_spill() does, or NULL after its message (or, without,
 * once *@interrupted is set: trace-cmd is killed, the copy deleted).
 */
char *ingest_dat_spill_finish(struct ingest_spill *s, const volatile sig_atomic_t *interrupted);

/** ingest_dat_spill_path - where the copy @s is written (borrowed). */
const char *ingest_dat_spill_path(const struct ingest_spill *s);

/**
 * ingest_dat_spill_cancel - kill trace-cmd if it still runs, delete the copy
 * and its directory, free @s (NULL is fine).  A copy already open stays
 * readable.
 */
void ingest_dat_spill_cancel(struct ingest_spill *s);

/**
 * ingest_dat_spill_remove_stale - delete the copies (and their directories)
 * that loads killed before they could do it left in $TMPDIR (default
 * /var/tmp): directories vmscan-report-PID-* of this user whose process is
 * gone.  Each removal is reported (vr_warn()).
 */
void ingest_dat_spill_remove_stale(void);

/*
 * trace-cmd convert's scratch files (ingest-dat-scratch.c): libtracecmd
 * 3.1.6 (trace-output.c) writes each CPU's data through
 * /tmp/trace_cpu_dataXXXXXX (mkstemp, a fixed directory) and deletes them
 * only when done.  A load deletes only those its own convert had open for
 * writing, by device and inode, never a file by its name alone.
 */
struct ingest_scratch;

/*
 * ingest_scratch_watch - start noting the scratch files that trace-cmd
 * convert @pid (a child of this process, just started, reading @src)
 * opens for writing: a thread looks at /proc/@pid/fd every 20 ms, and each
 * file found (a regular file of this user named /tmp/trace_cpu_dataXXXXXX,
 * not @src) goes into memory and into a record file,
 * /tmp/vmscan-report-UID/convert-PID-START, kept locked (flock) by this
 * process, that a later load reads if this one is killed.  A record that
 * cannot be made is warned about (vr_warn()); the noting goes on in memory.
 * Owned; end with ingest_scratch_end().
 */
struct ingest_scratch *ingest_scratch_watch(pid_t pid, const char *src);

/*
 * ingest_scratch_look - stop the looking thread of @w and look once more,
 * with the convert stopped (SIGSTOP) before it is killed, so that nothing
 * it has open is missed.  NULL is fine.
 */
void ingest_scratch_look(struct ingest_scratch *w);

/*
 * ingest_scratch_end - once @w's convert is reaped: delete the files noted
 * that are still there as the same files (device, inode, birth time where
 * known), each reported unless @how is NULL (vr_warn(): "removed FILE, left
 * by a trace-cmd convert that @how"), remove the record, free @w (NULL is
 * fine).
 */
void ingest_scratch_end(struct ingest_scratch *w, const char *how);

/*
 * ingest_scratch_remove_stale - delete what loads that were killed (their
 * record no longer locked) left: the files their records note, if still
 * the same files and their convert is gone, then the records.  Records
 * whose convert still runs (it is being killed with its load, by
 * PR_SET_PDEATHSIG) are waited for up to @wait_ms, then left to a later
 * load.  Each removal is reported (vr_warn()).
 */
void ingest_scratch_remove_stale(int wait_ms);

/** ingest_dat_spill_dir - where copies go: $TMPDIR, or /var/tmp (borrowed). */
const char *ingest_dat_spill_dir(void);

/** ingest_dat_spill_in_memory - is the copies' directory a tmpfs or ramfs? */
bool ingest_dat_spill_in_memory(void);

/** ingest_dat_spill_free_bytes - free space for copies, in bytes (UINT64_MAX
 * if unknown, e.g. the directory is missing: making the copy says why). */
uint64_t ingest_dat_spill_free_bytes(void);

/**
 * ingest_dat_switch_when_copied - hand @d the copy @s of its own file
 * (owned from now on; NULL is fine): the reader thread decodes the
 * compressed file in memory up to @cap_bytes of decompressed data (the
 * copy is opened from three quarters of it, and waited for at the cap),
 * then goes on from the same record in the copy and closes the compressed
 * file, whose decompressed chunks libtracecmd 3.1.6 would otherwise keep
 * to the end (see ingest-dat-spill.c).  If the copy fails or
 * does not match the file, reading goes on in memory (a warning says so).
 * Call before ingest_start_dat().
 */
void ingest_dat_switch_when_copied(struct ingest_dat *d, struct ingest_spill *s,
				   uint64_t cap_bytes);

/**
 * ingest_dat_progress - how far the reader of @d has got, from any thread:
 * @done: OUT: bytes of the CPUs' data decoded so far (a CPU read to its end
 * counts whole), @total: OUT: the bytes of data the file records for its
 * CPUs (every buffer; decompressed sizes for a compressed file), @events:
 * OUT: the events decoded from them (those the sink will get, lost-event
 * markers not counted).  @done reaches @total when every CPU has been read
 * to its end, and @events is then the file's count; 0 of 0 for a file
 * without data.  The reader decodes ahead of the sink, by its queue.
 */
void ingest_dat_progress(const struct ingest_dat *d, uint64_t *done, uint64_t *total,
			 uint64_t *events);

/**
 * ingest_dat_copy_taken_at - once the reader thread is joined: bytes of CPU
 * data @d had decoded in memory when it went on from the copy
 * (ingest_dat_switch_when_copied()), or -1 if it did not.
 */
int64_t ingest_dat_copy_taken_at(const struct ingest_dat *d);

/**
 * ingest_start_dat - start decoding @d in a reader thread now, so that it
 * runs ahead (up to a bounded number of batches, about 13 MiB) while an
 * earlier file is still being stored; ingest_read_dat() starts it if this
 * was not called.  @early: callbacks for the reader thread (copied), or
 * NULL.  Returns 0 or -1 (message printed).
 */
int ingest_start_dat(struct ingest_dat *d, const struct ingest_early *early);

/**
 * ingest_read_dat - decode every record of @d in timestamp order (merged
 * across CPUs) and pass it to @sink, then the saved cmdlines.
 * Returns 0, -1 on a read or decode error (message printed, naming the file
 * and the CPU and offset), or the non-zero value a sink callback returned.
 */
int ingest_read_dat(struct ingest_dat *d, const struct ingest_sink *sink);

/**
 * ingest_dat_set_path - the file name @d's messages give (copied), e.g. the
 * user's file when @d reads a copy of it.  Before ingest_start_dat().
 */
void ingest_dat_set_path(struct ingest_dat *d, const char *path);

/**
 * ingest_dat_leave_to_exit - ingest_close_dat() of @d is to free only
 * vmscan-report's own state and leave libtracecmd's (a compressed file's
 * thousands of decompressed chunks, each its own mapping) to the exit of
 * the process, which follows: unmapping them one by one took 0.1 s per 3
 * million events, and about 0.9 s on a helper thread while another thread
 * ran (each unmap then interrupts the other CPU).
 */
void ingest_dat_leave_to_exit(struct ingest_dat *d);

/**
 * ingest_dat_has_field - 1 if the formats stored in the trace.dat @d (a
 * struct ingest_dat *) have event @system:@event and, with @field
 * non-NULL, a field of that name; else 0.  The model uses it to pick rules
 * by format rather than by release (struct model_config.has_field).
 */
int ingest_dat_has_field(void *d, const char *system, const char *event, const char *field);

/**
 * ingest_dat_kswapd_pid - pid saved for the comm "kswapd<nid>" in the
 * trace.dat @d (a struct ingest_dat *), or -1 (struct model_config
 * .kswapd_pid).  Call before ingest_read_dat().
 */
int ingest_dat_kswapd_pid(void *d, int nid);

/**
 * ingest_dat_comm_quality - after ingest_read_dat(): the run_quality item
 * task_comm_saved_cmdline through @quality(@arg, item, count, detail) when
 * some pid's rows before the first sched event naming it took its saved
 * cmdline and a sched event then named it otherwise.  0 or @quality's
 * non-zero value.
 */
int ingest_dat_comm_quality(const struct ingest_dat *d,
			    int (*quality)(void *arg, const char *item, int64_t count,
					   const char *detail),
			    void *arg);

/** ingest_close_dat - free @d; NULL is allowed. */
void ingest_close_dat(struct ingest_dat *d);

/** ingest_stop_dat - stop and join the reader thread of @d, if started. */
void ingest_stop_dat(struct ingest_dat *d);

/*
 * Text traces (src/ingest/ingest-text.c): `trace-cmd report` output (plain, -l,
 * -t, -R), ftrace `trace` / `trace_pipe` dumps (irq-flags column of 4 or 5
 * characters or none, optional "( tgid)" column) and Android systrace text.
 * Lines are sorted by timestamp (stable) before the sink sees them.  Event
 * bodies are read by label tables built from the print formats of
 * 2.6.35-6.18 (include/trace/events/{vmscan,writeback,compaction,sched}.h);
 * fields a line does not carry are left out of ev->present (NULL in SQL),
 * labels without a spec field go to ev->extra_json as text.
 */

/* What a text parse saw, for warnings and run_quality rows. */
struct ingest_text_stats {
	uint64_t lines;		/* lines in the input */
	uint64_t events;	/* event lines passed to the sink */
	uint64_t lost_markers;	/* CPU:N [LOST N EVENTS] / [N EVENTS DROPPED] */
	uint64_t skipped;	/* lines that are neither events, markers nor headers */
	uint64_t first_skipped;	/* line number of the first skipped line (1-based) */
	uint64_t bad_fields;	/* values that could not be read: stored NULL,
				 * text kept in extra */
	uint64_t first_bad_field;	/* its line number */
	uint64_t failed_to_parse;	/* "[FAILED TO PARSE]" bodies (fields NULL) */
	uint64_t symbolic;	/* symbolic values (gfp names, compaction status,
				 * task states) whose number depends on the kernel
				 * build: stored NULL, text kept in extra */
	uint64_t reordered;	/* event lines earlier than the line before */
	uint64_t first_reordered;	/* the first one's line number (1-based) */
	uint64_t first_reordered_ns;	/* and how far before the line before */
	int truncated;		/* 1: the last line had no newline and was skipped */
	int cpus;		/* highest CPU + 1, or the cpus= header if larger */
	int us_only;		/* 1: every timestamp had at most 6 decimals (µs) */
	int file_version;	/* "version = N" header of trace-cmd report, or 0 */
	uint64_t cpus_empty;	/* "CPU N is empty" lines of trace-cmd report */
	uint64_t rejoined;	/* wrapped lines joined to the event line before */
	uint64_t first_rejoined;	/* line number of the first one */
	uint64_t gaps;		/* gaps: elision markers ("[...]", "<snip>", ...)
				 * with no event line between them count once */
	uint64_t first_gap;	/* line number of the first marker */
};

/* Parse options. */
struct ingest_text_opts {
	const char *release;	/* kernel release ("4.11.0", "6.18"), or NULL:
				 * picks classzone_idx vs highest_zoneidx for
				 * the `classzone=` label (renamed in 5.8), and
				 * for 6.18 turns gfp flag names into numbers */
};

/**
 * ingest_text_parse - parse the text trace @buf (@len bytes; need not be
 * NUL-terminated) and pass its events to @sink in timestamp order (lost
 * markers before the event they precede, saved comms at the end).
 * @name: file name for messages.  @opts: may be NULL.
 * @stats: OUT: filled (zeroed first); may be NULL.
 *
 * Pure: no I/O besides the messages, never exits.  Returns 0; -1 after
 * "vmscan-report: NAME:LINE: what is wrong" (binary data, a line longer
 * than 64 KiB, an absurd timestamp, CPU or pid, no trace events at all);
 * or the non-zero value a sink callback returned.  Lines that are not
 * events are skipped and counted in @stats, never silently.
 */
int ingest_text_parse(const char *name, const char *buf, size_t len,
		      const struct ingest_text_opts *opts, const struct ingest_sink *sink,
		      struct ingest_text_stats *stats);

struct ingest_text_parser;

/**
 * ingest_text_index - first pass of ingest_text_parse(): check every line,
 * index event lines and lost markers, sort them.  @buf must stay valid and
 * unchanged until ingest_text_parser_free().  @stats: OUT, may be NULL.
 * Returns the parser, or NULL after "vmscan-report: NAME:LINE: what".
 * Free with ingest_text_parser_free().
 */
struct ingest_text_parser *ingest_text_index(const char *name, const char *buf, size_t len,
					     const struct ingest_text_opts *opts,
					     struct ingest_text_stats *stats);

/** ingest_text_emit - second pass: decode and feed @sink; 0, -1 or a sink value. */
int ingest_text_emit(struct ingest_text_parser *tp, const struct ingest_sink *sink);

/**
 * ingest_text_parser_nevents - the event lines indexed (lost markers not
 * counted): the events ingest_text_emit() passes to the sink's event().
 */
size_t ingest_text_parser_nevents(const struct ingest_text_parser *tp);

/**
 * ingest_text_parser_has_field - 1 if the text shows event @event (and,
 * with @field non-NULL, a value for spec field @field on its first line),
 * else 0.  Valid right after ingest_text_index().
 */
int ingest_text_parser_has_field(const struct ingest_text_parser *tp, const char *event,
				 const char *field);

/** ingest_text_parser_free - free @tp; NULL is allowed. */
void ingest_text_parser_free(struct ingest_text_parser *tp);

struct ingest_text;

/**
 * ingest_open_text - map the text trace @path, check and index it (first
 * pass), and fill @meta (path, content hash, cpus, and release = @release
 * when it looks like a kernel release, e.g. "4.11.0-vanilla").  A pipe or a
 * compressed text (@h: what ingest_kind_of() said of @path) is first read
 * once into a scratch file by ingest_text_stream(), which @stop (NULL:
 * never) interrupts.  @meta: OUT: release with ingest_meta_release().
 * Returns a handle for ingest_read_text()/ingest_close_text(), or NULL after
 * "vmscan-report: PATH[:LINE]: reason" - before any run is begun.
 */
struct ingest_text *ingest_open_text(const char *path, const struct ingest_head *h,
				     const char *release, const volatile sig_atomic_t *stop,
				     struct ingest_meta *meta);

/**
 * ingest_text_stream - the text of the pipe or compressed text @path (@h:
 * INGEST_KIND_PIPE, or INGEST_KIND_TEXT_COMPRESSED with its compression),
 * read once, decompressed (gzip: zlib; xz: liblzma; zstd: libzstd; a pipe
 * by the magic of its first bytes) into a scratch file without a name in
 * ingest_dat_spill_dir() (O_TMPFILE).  @sha256: OUT: hex SHA-256 of the
 * text (malloc'ed).  Returns the scratch file's descriptor (the caller
 * closes it), or -1 after "PATH: reason" (corrupt or cut-off compressed
 * data at byte N, a pipe carrying a trace.dat or perf.data, which must be
 * a file, bzip2, no room for the text), or -1 without a message once
 * *@stop is set (the caller says it was interrupted).
 */
int ingest_text_stream(const char *path, const struct ingest_head *h,
		       const volatile sig_atomic_t *stop, char **sha256);

/**
 * ingest_read_text - decode every event into @sink; 0, -1 or a sink value.
 * A file that changed while it was read (its size or modification time is
 * not what it was when mapped: truncated, grown, rewritten in place) fails
 * after the events, "PATH: changed while it was read (size was X bytes, now
 * Y)", so that the caller rolls the run back.
 */
int ingest_read_text(struct ingest_text *t, const struct ingest_sink *sink);

/** ingest_text_nevents - the events ingest_read_text() will pass on. */
size_t ingest_text_nevents(const struct ingest_text *t);

/** ingest_text_stats - what the text held (borrowed from @t). */
const struct ingest_text_stats *ingest_text_stats(const struct ingest_text *t);

/**
 * ingest_text_has_field - model_config.has_field for a text trace (@t is
 * the struct ingest_text): a text carries no formats, so "the format has
 * the field" means "the event's lines print it".  @system is ignored.
 */
int ingest_text_has_field(void *t, const char *system, const char *event, const char *field);

/**
 * ingest_text_quality - after ingest_read_text(): one vr_warn() line for
 * each kind of skipped or unreadable input, and one @quality(@arg, item,
 * count, detail) call per item for the run_quality table (text_source,
 * text_skipped_lines, text_truncated_line, text_bad_fields,
 * text_failed_to_parse, text_symbolic_values, text_reordered_lines,
 * text_cpus_empty, text_lost_markers, text_rejoined_lines, text_excerpt_gaps).
 * Returns 0 or the first non-zero @quality value.
 */
int ingest_text_quality(const struct ingest_text *t,
			int (*quality)(void *arg, const char *item, int64_t count,
				       const char *detail),
			void *arg);

/** ingest_close_text - unmap and free @t; NULL is allowed. */
void ingest_close_text(struct ingest_text *t);

#endif /* VR_INGEST_PRIV_H */
