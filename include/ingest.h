/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ingest.h - read trace recordings and hand every event, decoded with the
 * formats stored in the recording, to a sink in timestamp order.
 * trace.dat (file versions 6 and 7, compressed or not) is read with
 * libtracecmd/libtraceevent only.
 */
#ifndef VR_INGEST_H
#define VR_INGEST_H

#include <stdint.h>
#include "spec.h"

/* Metadata of one recording, filled by ingest_open_dat(). */
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
};

/* Where decoded events go.  Any callback returning non-zero stops reading. */
struct ingest_sink {
	int (*event)(void *arg, const struct ingest_event *ev);
	/* @count is the number of lost events, or -1 when the kernel said
	 * events were lost without saying how many. */
	int (*lost)(void *arg, int cpu, uint64_t ts_ns, int64_t count);
	/* A pid->comm pair from the saved cmdlines. */
	int (*task)(void *arg, int pid, const char *comm);
	void *arg;
};

struct ingest_dat;

/**
 * ingest_open_dat - open a trace.dat file and read its headers.
 * @path: file to read.
 * @meta: OUT: filled with the recording's metadata; release with
 *        ingest_meta_release().
 *
 * Returns a handle to pass to ingest_read_dat() and ingest_close_dat(), or
 * NULL after printing "vmscan-report: PATH: what is wrong" (missing file,
 * not a trace.dat, unsupported version, truncated headers).
 */
struct ingest_dat *ingest_open_dat(const char *path, struct ingest_meta *meta);

/**
 * ingest_read_dat - decode every record of @d in timestamp order (merged
 * across CPUs) and pass it to @sink, then the saved cmdlines.
 * Returns 0, -1 on a read or decode error (message printed, naming the file
 * and the CPU and offset), or the non-zero value a sink callback returned.
 */
int ingest_read_dat(struct ingest_dat *d, const struct ingest_sink *sink);

/** ingest_close_dat - free @d; NULL is allowed. */
void ingest_close_dat(struct ingest_dat *d);

/** ingest_meta_release - free the strings of @m and zero it. */
void ingest_meta_release(struct ingest_meta *m);

/**
 * ingest_sha256_file - hex SHA-256 of the contents of @path.
 * Returns a string the caller frees with free(), or NULL after an error
 * message naming the file.
 */
char *ingest_sha256_file(const char *path);

#endif /* VR_INGEST_H */
