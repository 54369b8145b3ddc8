/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ingest-dat-priv.h - what the trace.dat reader (ingest-dat.c) shares with
 * its switch to an uncompressed copy (ingest-dat-copy.c).  Not a public
 * interface: include/ingest.h is.
 */
#ifndef VR_INGEST_DAT_PRIV_H
#define VR_INGEST_DAT_PRIV_H

#include "ingest-priv.h"
#include "vr.h"

#include <glib.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <trace-cmd/trace-cmd.h>

struct copy_switch;	/* ingest-dat-copy.c */

/* An uncompressed trace.dat read through libtracecmd's mappings of it
 * (dat_drop_init()); on false: nothing is dropped. */
struct dat_drop_file {
	bool on;
	dev_t dev;
	ino_t ino;
};

/*
 * Exported by libtracecmd 3.1.6 but declared only in its private header
 * (lib/trace-cmd/include/private/trace-cmd-private.h; record_page under
 * "Debugging").
 * tracecmd_read_cpu_last: the last record of @cpu (owned by the caller),
 * read back from the end of the CPU's data; the CPU's iterator ends past it.
 * tracecmd_get_cpu_file_size: bytes of the CPU's data (uncompressed, for a
 * compressed file), an off64_t.
 */
struct tep_record *tracecmd_read_cpu_last(struct tracecmd_input *handle, int cpu);
/* tracecmd_record_page: the mapped ring-buffer page @record is on, header
 * first (borrowed, valid while the record is), or NULL. */
void *tracecmd_record_page(struct tracecmd_input *handle, struct tep_record *record);
int64_t tracecmd_get_cpu_file_size(struct tracecmd_input *handle, int cpu);

/* Decoding plan for one event id of one file, built on first use. */
struct dat_event {
	bool ready;
	int spec;				/* -1 for other events */
	struct tep_event *ev;
	struct tep_format_field *field[VR_SPEC_MAX_FIELDS]; /* NULL if absent */
	struct tep_format_field **extra;	/* fields beyond the spec */
	int nextra;
	int nfields;				/* spec_nfields(spec) */
	unsigned int counters;			/* bit f: field f is an unsigned
						 * counter (spec_field_is_counter()) */
};

/* One per-CPU stream of one buffer (the top level or an instance). */
struct dat_cursor {
	struct tracecmd_input *handle;
	int cpu;
	struct tep_record *rec;
	unsigned long long base;	/* offset of the CPU's first record */
	unsigned long long seen;	/* bytes of the CPU's data read, as last polled */
	unsigned long long last;	/* offset of the last record decoded */
	bool any;			/* a record was decoded (last is set) */
	unsigned long long page;	/* offset of the page last checked, +1 (0: none) */
	unsigned long long page_ts;	/* its header's time stamp */
	unsigned long long size;	/* bytes of data the file records for the CPU
					 * (tracecmd_get_cpu_file_size(); 0: none) */
	unsigned long long counted;	/* of them, added to ingest_dat.read_bytes */
	uintptr_t drop_ptr;		/* dat_drop_behind(): the first page not dropped */
	unsigned long long drop_off;	/* and its offset in the file (0, 0: none yet) */
};

struct ingest_dat {
	char *path;
	struct tracecmd_input *handle;
	struct tep_handle *tep;			/* borrowed from handle */
	bool swap;				/* file byte order is not the host's */
	struct dat_event *events;		/* indexed by event id */
	int nevents;
	struct vr_buf json;			/* extra fields of one event */
	struct vr_buf text[VR_SPEC_MAX_FIELDS];	/* copied strings of one event */
	struct ingest_tasks *tasks;		/* comms of each pid over time, fed
						 * by the reader thread in time order */
	int spec_switch, spec_wakeup, spec_waking;	/* spec indexes */
	int f_prev_comm, f_prev_pid, f_next_comm, f_next_pid;	/* sched_switch */
	int f_comm, f_pid;			/* sched_wakeup and sched_waking */
	struct tracecmd_input **instances;	/* instance buffer handles (owned) */
	int ninstances;
	struct ksym_cache {			/* last lookups of tep_find_function() */
		unsigned long long addr;
		const char *name;
		bool valid;
	} ksym[256];
	int64_t lost_total;			/* known lost events so far: must fit
						 * run.lost_events */
	struct dat_cursor *cur;			/* per buffer and CPU */
	int ncur;
	struct ingest_early early;		/* run on the reader thread */
	struct pipe_state *pipe;		/* reader thread, once started */
	pthread_t reader;
	bool leave_to_exit;			/* ingest_dat_leave_to_exit() */
	struct copy_switch *copy;		/* ingest_dat_switch_when_copied() */
	unsigned copy_tick;			/* events since the reader looked at it */
	int64_t copy_taken_at;			/* bytes read in memory before, or -1 */
	uint64_t data_bytes;			/* the CPUs' data, all buffers (sizes) */
	uint64_t read_bytes;			/* of it, decoded so far, and */
	uint64_t read_events;			/* the events in it; written by the
						 * reader thread, read by any (atomic) */
	struct tep_handle *old_tep;		/* of the compressed file, once switched:
						 * events in flight point into it */
	struct dat_drop_file drop;		/* the file read through mappings */
};

/*
 * Decoding records of another container of ftrace records (perf.data,
 * src/ingest-perf.c) as a trace.dat's are decoded: the same spec fields,
 * extra JSON, counters refused past 2^63 - 1, comms.
 *
 * ingest_dat_decoder - a handle that only decodes, with the formats of
 * @tep (borrowed: it must outlive the handle; tep_free() it after
 * ingest_close_dat()), naming @path in messages.
 * ingest_dat_decode - @rec (its ts, cpu, size and data) into @out (valid
 * until the next call); the comm is the one ingest_dat_note_comm() gave
 * the pid last, else the saved cmdline of @tep.  0, or -1 after
 * "PATH: cpu N offset X: ...".
 * ingest_dat_note_comm - @pid is named @comm from @ts_ns on (calls in
 * time order with the records').
 * ingest_dat_emit_tasks - the comm spans through @sink->task.
 */
struct ingest_dat *ingest_dat_decoder(const char *path, struct tep_handle *tep);
int ingest_dat_decode(struct ingest_dat *d, const struct tep_record *rec,
		      struct ingest_event *out);
void ingest_dat_note_comm(struct ingest_dat *d, int pid, const char *comm, uint64_t ts_ns);
int ingest_dat_emit_tasks(const struct ingest_dat *d, const struct ingest_sink *sink);

/* One tracecmd_open() at a time in this process: libtraceevent parses
 * event formats with global state (event-parse.c's input buffer). */
extern pthread_mutex_t dat_open_lock;

/*
 * Cursors for every CPU of the top buffer @top and of every instance buffer,
 * each at its first record (owned by the caller, as are the instance
 * handles).  @inst: OUT: the instance handles opened (room for
 * tracecmd_buffer_instances(top)), their number added to *@ninst.
 * @clock_from: OUT: the first buffer that holds records; its trace clock is
 * the run's clock (a recording made in an instance has an empty top level).
 */
struct dat_cursor *dat_open_cursors(struct tracecmd_input *top, struct tracecmd_input **inst,
				    int *ninst, int *n, struct tracecmd_input **clock_from);

/* Free cursors @cur (their records and the array), instance handles @inst
 * (and the array) and the top handle @h (NULL is fine). */
void dat_close_handles(struct dat_cursor *cur, int ncur, struct tracecmd_input **inst,
		       int ninst, struct tracecmd_input *h);

/*
 * The CPU stream of cursor @c has just ended (tracecmd_read_data() returned
 * NULL, or no first record): did it end where the file says the CPU's data
 * ends?  0, or -1 after "PATH: cpu N: ..." naming where reading stopped.
 */
int dat_check_cpu_end(struct ingest_dat *d, struct dat_cursor *c);

/*
 * Pages read behind the cursors (ingest-dat-drop.c): libtracecmd 3.1.6
 * keeps an uncompressed file's pages mapped, in the RSS, until reading
 * leaves a window as large as the largest CPU's data.
 * dat_drop_init - the uncompressed file @path is read through mappings:
 * note its device and inode in @f (off if it cannot be stat()ed).
 * dat_drop_behind - cursor @c has come to the page mapped at @page, at
 * offset @at of the file: every 4 MiB, drop the pages behind it from the
 * mapping (madvise(MADV_DONTNEED)), but only where /proc/self/maps shows
 * a read-only private mapping of @d->drop's file.  Changes nothing that is
 * read.
 */
void dat_drop_init(struct dat_drop_file *f, const char *path);
void dat_drop_behind(struct ingest_dat *d, struct dat_cursor *c, const void *page,
		     unsigned long long at);

/* Free libtracecmd's side of @d: records, instance handles, the file. */
void dat_release_tracecmd(struct ingest_dat *d);

/*
 * On the reader thread, every 1024 events while @d->copy is set: from
 * three quarters of the cap read in memory, open the copy once made and
 * take it once open; past the cap, wait for it unless @stop(@arg) or the
 * load is interrupted.  Ends @d->copy when done.
 */
void dat_poll_copy(struct ingest_dat *d, bool (*stop)(void *arg), void *arg);

/* Stop copying (the reader thread is stopped or done): join the opener,
 * close what it opened, kill trace-cmd, delete the copy.  No-op without
 * @d->copy. */
void dat_copy_end(struct ingest_dat *d);

#endif
