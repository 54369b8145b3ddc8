/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ingest.h - a trace file as one source of events: what it is (decided once
 * from its first bytes, src/ingest/ingest-kind.c), its metadata and hash,
 * and every event in it, decoded with the formats stored in the recording,
 * handed to a sink in timestamp order.  One opaque handle, struct
 * ingest_source (src/ingest/ingest-source.c), for any kind of file; the
 * readers behind it (trace.dat with libtracecmd/libtraceevent, text) and
 * their internals are private to src/ingest/ (ingest-priv.h).
 */
#ifndef VR_INGEST_H
#define VR_INGEST_H

#include <stdbool.h>
#include <signal.h>
#include <stdint.h>
#include <stddef.h>
#include "spec.h"

/* Metadata of one recording, filled when its source is opened. */
struct ingest_meta {
	char *path;		/* as given on the command line (owned) */
	char *content_sha256;	/* hex SHA-256 of the whole file (owned) */
	int file_version;	/* trace.dat file version (6, 7) */
	char *compression;	/* e.g. "zstd", NULL if none (owned) */
	char *uname;		/* saved `uname -a` style text, or NULL (owned) */
	char *release;		/* kernel release parsed from uname, or NULL (owned) */
	char *clock;		/* trace clock, e.g. "mono" (owned) */
	int cpus;		/* CPUs in the recording */
	int long_size;		/* 4 or 8, from the file */
	int big_endian;		/* 1 if recorded on a big-endian machine */
	int page_size;		/* ring buffer page size in bytes */
	int64_t ring_overrun;	/* sum over CPUs of the kernel's "overrun" and
				 * "dropped events" counters saved in the file
				 * (trace-cmd's CPU stats), -1 if not saved */
};

/*
 * One decoded event.  Valid only during the sink callback: strings point
 * into the record or into a per-reader buffer.
 */
struct ingest_event {
	uint64_t ts_ns;		/* timestamp in the file's clock, ns */
	int cpu;
	int pid;		/* common_pid */
	int spec;		/* index into vr_event_specs, or -1 (other) */
	const char *system;	/* event system, borrowed */
	const char *name;	/* event name, borrowed */
	uint32_t present;	/* bit f set if field f of the spec is in the format */
	int64_t val[VR_SPEC_MAX_FIELDS];	/* VR_FT_INT values */
	const char *str[VR_SPEC_MAX_FIELDS];	/* VR_FT_TEXT values and
						 * VR_FF_KSYM symbol names */
	const char *extra_json;	/* fields beyond the spec (known events) or all
				 * fields (other events) as a JSON object; NULL
				 * when there are none */
	const char *comm;	/* the task's comm at this event, or NULL if not
				 * known: a text line's comm as printed
				 * (NULL for "<...>"); in a trace.dat the comm
				 * the last sched_switch/sched_wakeup naming the
				 * pid gave, before any the saved cmdlines.
				 * Interned: valid until the source is closed */
};

/* Where decoded events go.  Any callback returning non-zero stops reading. */
/*
 * One span of a task (struct ingest_sink.task_span): the comm @pid had from
 * @first_ns to @last_ns (its first and last event under it).  @source:
 * where the comm came from: "sched_switch", "sched_wakeup", "sched_waking"
 * (a sched event naming the pid), "line" (the comm a text line or perf
 * sample prints), "saved_cmdline" (trace-cmd's saved cmdlines, saved at the
 * end of the recording: a pid the trace never names), "idle" (pid 0).
 * @replaced: the saved cmdline the span's first rows were given before the
 * trace named the pid (its last name, not its first: src/ingest/
 * ingest-tasks.c), rows up to @replaced_until_ns; NULL when none.
 */
struct ingest_task_span {
	int pid;
	const char *comm, *source;
	int64_t first_ns, last_ns;
	const char *replaced;
	int64_t replaced_until_ns;
};

struct ingest_sink {
	int (*event)(void *arg, const struct ingest_event *ev);
	/* Optional: @n events in an array, in the order event() would see
	 * them (readers that batch use it instead of event()). */
	int (*events)(void *arg, const struct ingest_event *evs, int n);
	/* @count is the number of lost events, or -1 when the kernel said
	 * events were lost without saying how many. */
	int (*lost)(void *arg, int cpu, uint64_t ts_ns, int64_t count);
	/* Optional: the events before @ts_ns and those from it on (every
	 * CPU) are two parts of an excerpt, with events cut out between them
	 * (a text's elision marker, at line @lineno): nothing pairs across. */
	int (*gap)(void *arg, uint64_t ts_ns, uint64_t lineno);
	/* The comm @pid had from @first_ns to @last_ns (its first and last
	 * event under it, in the trace's clock): one call per span, after
	 * the events. */
	int (*task)(void *arg, int pid, const char *comm, int64_t first_ns, int64_t last_ns);
	/* The same span with where its comm came from; used instead of
	 * @task when set. */
	int (*task_span)(void *arg, const struct ingest_task_span *s);
	void *arg;
};

/*
 * Work done on a reader thread as it decodes (sources that decode ahead,
 * ingest_decodes_ahead()): every event and every lost-events report of
 * the file, in timestamp order, before the sink of ingest_read() sees them
 * on the calling thread.  It must not touch what the calling thread uses.
 * event() may change the event (the model fills in its VR_FF_MODEL
 * fields, spec.h): the sink gets it as changed.  Any callback returning
 * non-zero stops reading (ingest_read() then returns -1).
 */
struct ingest_early {
	int (*event)(void *arg, struct ingest_event *ev);
	int (*lost)(void *arg, int cpu, uint64_t ts_ns, int64_t count);
	void *arg;
	/* filled by ingest_start() from the source's options: the reader
	 * no longer waits for a copy once it is non-zero */
	const volatile sig_atomic_t *interrupted;
};

/*
 * What a file is, from its first bytes (ingest_kind_of()).  Decided in one
 * place, src/ingest/ingest-kind.c.
 */
enum ingest_kind {
	INGEST_KIND_NONE,		/* cannot be read, not a regular file, or empty */
	INGEST_KIND_PIPE,		/* a FIFO or socket (/dev/stdin fed by a pipe):
					 * not opened, what it carries is read once by
					 * the text reader (ingest-text-stream.c) */
	INGEST_KIND_DAT,		/* trace.dat magic (trace-cmd.dat.v6(5)/v7(5)) */
	INGEST_KIND_DAT_CUT,		/* shorter than the magic, a prefix of it */
	INGEST_KIND_PERF,		/* perf.data ("PERFILE2") */
	INGEST_KIND_TEXT,		/* no control bytes in its first 4 KiB */
	INGEST_KIND_TEXT_COMPRESSED,	/* gzip, xz, zstd or bzip2 data */
	INGEST_KIND_SQLITE,		/* an SQLite database */
	INGEST_KIND_BINARY,		/* anything else */
};

/* The bytes ingest_kind_of() reads from the start of a file. */
#define INGEST_HEAD_LEN 4096

/* What ingest_kind_of() saw. */
struct ingest_head {
	enum ingest_kind kind;
	int err;		/* errno when it cannot be opened or read, else 0 */
	bool is_dir;		/* a directory */
	size_t len;		/* bytes read: up to INGEST_HEAD_LEN (0: not a
				 * regular file, or empty; a pipe is not read) */
	unsigned char bytes[INGEST_HEAD_LEN];
	bool dat_compressed;	/* a version 7 trace.dat whose header names a
				 * compression algorithm (not "none") */
	const char *compression;	/* compressed text: "gzip", "xz", "zstd",
					 * "bzip2" (static), else NULL */
};

/**
 * ingest_kind_of - read the first INGEST_HEAD_LEN bytes of @path and decide
 * what it is.  @h: OUT: the kind and what it was decided from.  Returns
 * h->kind; never prints.
 */
enum ingest_kind ingest_kind_of(const char *path, struct ingest_head *h);

/**
 * ingest_kind_of_bytes - what the first @n bytes @b of a file or pipe are
 * (the same rules as ingest_kind_of()); @h: OUT (its bytes left empty).
 * Returns h->kind.
 */
enum ingest_kind ingest_kind_of_bytes(const void *b, size_t n, struct ingest_head *h);

/**
 * ingest_sha256_file - hex SHA-256 of the contents of @path.
 * Returns a string the caller frees with free(), or NULL after an error
 * message naming the file.
 */
char *ingest_sha256_file(const char *path);

/**
 * ingest_sha256_file_quiet - ingest_sha256_file() without a message: NULL
 * when the file cannot be read (a later ingest_sha256_file() says why).
 */
char *ingest_sha256_file_quiet(const char *path);

/* How a source is opened. */
struct ingest_opts {
	/* the --kernel label: a text trace takes it as its release when it
	 * looks like one ("4.11.0-vanilla"); NULL: none */
	const char *release;
	/* memory: a compressed trace.dat only through an uncompressed copy
	 * (otherwise the copy is made when the decompressed data would not
	 * fit: ingest-source.c) */
	bool low_memory;
	/* a supervisor process watches this one (load's worker): a crash in
	 * a library is its to report, so a trace.dat is not probed in a
	 * child first (only its headers are checked) */
	bool supervised;
	/* interrupt: non-zero once the load is interrupted (set by a signal
	 * handler): waits for a copy end, reading stops; NULL: never */
	const volatile sig_atomic_t *interrupted;
};

struct ingest_source;

/**
 * ingest_probe - before any reader thread runs: a file whose library may
 * crash on it (trace.dat: libtracecmd 3.1.6) is opened in a child process
 * first, and hashed meanwhile.  @sha256: OUT: the hash (owned; NULL when
 * not made here).  Returns 0 (no crash, another kind, or a failure
 * ingest_open() will name), or -1 after "vmscan-report: PATH: corrupt or
 * truncated trace.dat ...".  Forks: no other thread may run.
 */
int ingest_probe(const char *path, char **sha256);

/**
 * ingest_open - open @path as a source: its kind decided once, its reader
 * opened, its metadata read (ingest_meta()); for a compressed trace.dat
 * the memory policy picks in memory, an uncompressed copy, or in memory
 * until the copy is made.  @sha256: the hash ingest_probe() made (taken
 * over, *@sha256 set to NULL), or NULL: the file is probed now (checked
 * only, when @o->supervised).  Returns the source (ingest_close()), or
 * NULL after "vmscan-report: PATH[:LINE]: what is wrong".
 */
struct ingest_source *ingest_open(const char *path, const struct ingest_opts *o,
				  char **sha256);

/** ingest_meta - the metadata of @s (borrowed, valid until ingest_close()). */
const struct ingest_meta *ingest_meta(const struct ingest_source *s);

/**
 * ingest_hash - the content hash of @s (meta->content_sha256), made now if
 * opening did not (borrowed).  NULL after the message when the file cannot
 * be read.
 */
const char *ingest_hash(struct ingest_source *s);

/**
 * ingest_hash_ahead - make the content hash of @s now, on the calling
 * thread, if opening did not (a load's opener thread: the hash of the next
 * file is then not made on the store thread, which is the load's critical
 * path); nothing is said when the file cannot be read: ingest_hash()
 * tries again and says why, in its place among the load's messages.
 */
void ingest_hash_ahead(struct ingest_source *s);

/** ingest_format - the run's source_format of @s: the name of what its
 * reader reads ("trace.dat", "text"; static). */
const char *ingest_format(const struct ingest_source *s);

/**
 * ingest_decodes_ahead - does @s decode on a reader thread of its own
 * (trace.dat), which runs ingest_start()'s @early callbacks?  Otherwise
 * (text) events reach only the sink, on the calling thread.
 */
bool ingest_decodes_ahead(const struct ingest_source *s);

/**
 * ingest_start - start decoding @s on its reader thread now, so that it
 * runs ahead (up to a bounded number of batches, about 13 MiB) while an
 * earlier file is still being stored; ingest_read() starts it if this was
 * not called.  @early: callbacks for the reader thread (copied), or NULL.
 * A source that does not decode ahead ignores it.  0 or -1 (message
 * printed).
 */
int ingest_start(struct ingest_source *s, const struct ingest_early *early);

/**
 * ingest_read - every event of @s in timestamp order (merged across CPUs)
 * to @sink, then the comm spans (sink->task).  Returns 0, -1 on a read or
 * decode error (message printed, naming the file and where in it), or the
 * non-zero value a sink callback returned.
 */
int ingest_read(struct ingest_source *s, const struct ingest_sink *sink);

/**
 * ingest_progress - how far @s has got, from any thread: @done of @total
 * (bytes of CPU data decoded for a trace.dat; 1 of 1 for a text, whose
 * events are all indexed when it opens), @events decoded in them.  The
 * share of the file stored after N events is N * done / (events * total),
 * exact once done == total.
 */
void ingest_progress(const struct ingest_source *s, uint64_t *done, uint64_t *total,
		     uint64_t *events);

/**
 * ingest_has_field - model_config.has_field for the source @s (a struct
 * ingest_source *): 1 if the formats stored in a trace.dat have event
 * @system:@event and, with @field non-NULL, a field of that name; for a
 * text, which carries no formats, if the event's lines print it (@system
 * ignored).  Else 0.
 */
int ingest_has_field(void *s, const char *system, const char *event, const char *field);

/** ingest_fields_printed - does ingest_has_field() of @s answer from the
 * fields lines print (a text trace) rather than from stored formats? */
bool ingest_fields_printed(const struct ingest_source *s);

/**
 * ingest_kswapd_pid - pid saved for the comm "kswapd<nid>" in the source @s
 * (a struct ingest_source *; model_config.kswapd_pid), or -1 (always for a
 * text trace).  Call before ingest_read().
 */
int ingest_kswapd_pid(void *s, int nid);

/**
 * ingest_quality - after ingest_read(): the run_quality items of what @s
 * could not carry, each through @quality(@arg, item, count, detail): for
 * a text one vr_warn() line per kind of skipped or unreadable input and
 * the items text_source, text_skipped_lines, ... (ingest-text-file.c); for
 * a trace.dat task_comm_saved_cmdline when some pid's rows took a saved
 * cmdline that a sched event then contradicted.  0 or @quality's value.
 */
int ingest_quality(const struct ingest_source *s,
		   int (*quality)(void *arg, const char *item, int64_t count, const char *detail),
		   void *arg);

/**
 * ingest_how_read - once read: how @s was read, into @buf ("not
 * compressed: read from the file", "zstd-compressed: read in memory", ...),
 * for --verbose; NULL for a source that has only one way (text).
 */
const char *ingest_how_read(const struct ingest_source *s, char *buf, size_t len);

/**
 * ingest_leave_to_exit - ingest_close() of @s is to free only
 * vmscan-report's own state and leave a library's (libtracecmd's thousands
 * of decompressed chunks, each its own mapping) to the exit of the
 * process, which follows (ingest-dat.c says what it saves).
 */
void ingest_leave_to_exit(struct ingest_source *s);

/**
 * ingest_stop - stop and join @s's reader thread, if it has one (what it
 * decoded ahead is dropped); after it no callback of ingest_start()'s
 * @early runs.  ingest_close() is still to be called.  NULL is allowed.
 */
void ingest_stop(struct ingest_source *s);

/** ingest_close - stop the reader thread, free @s; NULL is allowed. */
void ingest_close(struct ingest_source *s);

/**
 * ingest_remove_stale - delete what loads that were killed left: their
 * uncompressed copies in $TMPDIR (default /var/tmp), then trace-cmd
 * convert's scratch files, waiting up to @wait_ms for converts still being
 * killed with their load (ingest-dat-spill.c, ingest-dat-scratch.c).  Each
 * removal is reported (vr_warn()).
 */
void ingest_remove_stale(int wait_ms);

#endif /* VR_INGEST_H */
