// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-source.c - struct ingest_source, a trace file as one handle: the
 * kind decided once (ingest-kind.c) picks its reader (struct ingest_reader,
 * ingest-priv.h), and for a compressed trace.dat the memory policy decides
 * whether and when it is read through an uncompressed copy (libtracecmd
 * 3.1.6 keeps every chunk it decompressed until the file is closed:
 * ingest-dat-spill.c).
 */
#include "ingest-priv.h"
#include "vr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct ingest_source {
	const struct ingest_reader *r;
	void *state;		/* the reader's */
	struct ingest_opts o;
	struct ingest_meta meta;
};

/* A trace.dat being read: the reader's state behind the source. */
struct dat_source {
	struct ingest_dat *d;
	const char *compression;	/* meta.compression (borrowed) */
	bool from_copy;			/* read from an uncompressed copy */
	const volatile sig_atomic_t *interrupted;
};

static const volatile sig_atomic_t never_interrupted;

/*
 * Read the compressed trace.dat @path through an uncompressed copy?  With
 * --low-memory, or when its decompressed data (taken as 12 times the file:
 * zstd makes trace data about 7 to 10 times smaller) would need more than
 * half the free memory, which libtracecmd would hold until the end.
 */
static bool want_spill(const struct ingest_opts *o, const char *path)
{
	struct stat st;
	uint64_t avail;

	if (o->low_memory)
		return true;
	avail = vr_mem_available_bytes();
	if (stat(path, &st) || !avail || (uint64_t)st.st_size * 12 <= avail / 2)
		return false;
	vr_warn_plain("%s: about %llu MiB once decompressed, more than half the free memory:"
		      " reading an uncompressed copy instead (--low-memory)", path,
		      (unsigned long long)st.st_size * 12 >> 20);
	return true;
}

/*
 * Decompressed data a compressed trace.dat may keep in memory while its
 * uncompressed copy is being made (libtracecmd keeps every chunk it
 * decompressed until the file is closed).
 */
#define IN_MEMORY_CAP (64ull << 20)

/* IN_MEMORY_CAP, or VR_TEST_IN_MEMORY_CAP (bytes), which lets the tests
 * make small files take the copy path. */
static uint64_t in_memory_cap(void)
{
	const char *s = getenv("VR_TEST_IN_MEMORY_CAP");

	return s && *s ? strtoull(s, NULL, 10) : IN_MEMORY_CAP;
}

/*
 * Start an uncompressed copy of the trace.dat @path before libtracecmd
 * opens it (about 0.2 s of parsing, the other CPU idle meanwhile)?  If its
 * header says it is compressed (@h), the copy is wanted with --low-memory,
 * or when the decompressed data (taken as 10 times the file) would pass
 * IN_MEMORY_CAP and the copies' directory is on disk (a copy in tmpfs
 * saves no memory).
 */
static bool copy_early(const struct ingest_opts *o, const char *path,
		       const struct ingest_head *h)
{
	uint64_t need;
	struct stat st;

	if (!h->dat_compressed || stat(path, &st))
		return false;
	if (o->low_memory)
		return true;
	need = (uint64_t)st.st_size * 10;
	if (need <= in_memory_cap())
		return false;
	if (ingest_dat_spill_in_memory()) {
		vr_warn("%s: read in memory (about %llu MiB once decompressed): %s is a tmpfs, where"
			" an uncompressed copy would save nothing; set TMPDIR to a directory on disk",
			path, (unsigned long long)(need >> 20), ingest_dat_spill_dir());
		return false;
	}
	if (ingest_dat_spill_free_bytes() < need + need / 4 + (64ull << 20)) {
		vr_warn("%s: read in memory (about %llu MiB once decompressed): too little free space"
			" in %s for an uncompressed copy", path, (unsigned long long)(need >> 20),
			ingest_dat_spill_dir());
		return false;
	}
	return true;
}

/* Replace ds->d by a reader of an uncompressed copy of @path; the run's
 * metadata (hash, compression, path) stays the original's.  When the copy
 * cannot be made and the user did not @asked for it, keep reading the file
 * in memory.  @started: the copy, if already started (taken over).
 * 0 or -1. */
static int reopen_uncompressed(struct dat_source *ds, const char *path, bool asked,
			       struct ingest_spill *started, const volatile sig_atomic_t *stop)
{
	char *copy = started ? ingest_dat_spill_finish(started, stop) : ingest_dat_spill(path, stop);
	struct ingest_meta copy_meta;

	if (!copy) {
		if (asked || *stop)
			return -1;
		vr_warn("%s: reading it in memory after all", path);
		return 0;
	}
	ingest_close_dat(ds->d);
	ds->d = ingest_open_dat_probed(copy, &copy_meta);
	ingest_dat_spill_remove(copy);	/* open files stay readable */
	if (!ds->d)
		return vr_error("%s: its uncompressed copy cannot be read", path);
	ingest_meta_release(&copy_meta);
	ingest_dat_set_path(ds->d, path);	/* messages name the user's file */
	ds->from_copy = true;
	return 0;
}

static const char *dat_how_read(void *state, char *buf, size_t len)
{
	struct dat_source *ds = state;
	int64_t at = ingest_dat_copy_taken_at(ds->d);

	if (!ds->compression)
		snprintf(buf, len, "not compressed: read from the file");
	else if (ds->from_copy)
		snprintf(buf, len, "%s-compressed: read from an uncompressed copy",
			 ds->compression);
	else if (at >= 0)
		snprintf(buf, len, "%s-compressed: %.1f MiB decompressed in memory, the rest read"
			 " from an uncompressed copy", ds->compression, (double)at / (1 << 20));
	else
		snprintf(buf, len, "%s-compressed: read in memory", ds->compression);
	return buf;
}

/* The hash of the trace.dat @path: taken over from *@sha256 (the probe
 * made it), or probed now unless a supervisor watches (only our own
 * header check then; the hash is made when the run begins).  0 or -1. */
static int probe_dat(const char *path, const struct ingest_opts *o, char **sha256, char **sha)
{
	*sha = NULL;
	if (sha256) {
		*sha = *sha256;
		*sha256 = NULL;
		return 0;
	}
	if (o->supervised ? ingest_dat_check_headers(path) : ingest_probe_dat(path, sha)) {
		free(*sha);
		*sha = NULL;
		return -1;
	}
	return 0;
}

/* Open the probed trace.dat @path into @ds, its copy started early when
 * copy_early() says so, read through it at once when want_spill() does.
 * @sha: taken over.  0 or -1. */
static int open_dat(struct dat_source *ds, const char *path, const struct ingest_head *h,
		    const struct ingest_opts *o, struct ingest_meta *meta, char *sha)
{
	struct ingest_spill *copy = NULL;
	bool copy_failed = false;

	if (copy_early(o, path, h) && !(copy = ingest_dat_spill_start(path))) {
		if (o->low_memory) {	/* asked for: the message said why not */
			free(sha);
			return -1;
		}
		vr_warn("%s: reading it in memory after all", path);
		copy_failed = true;
	}
	ds->d = ingest_open_dat_probed(path, meta);
	if (!ds->d) {
		ingest_dat_spill_cancel(copy);
		free(sha);
		return -1;
	}
	meta->content_sha256 = sha;
	ds->compression = meta->compression;
	if (!meta->compression) {
		ingest_dat_spill_cancel(copy);
	} else if (!copy_failed && want_spill(o, path)) {
		if (reopen_uncompressed(ds, path, o->low_memory, copy, ds->interrupted)) {
			ingest_close_dat(ds->d);
			ds->d = NULL;
			ingest_meta_release(meta);
			return -1;
		}
	} else {	/* go on from the copy once it is made */
		ingest_dat_switch_when_copied(ds->d, copy, in_memory_cap());
	}
	return 0;
}

static void *dat_open(const char *path, const struct ingest_head *h, const struct ingest_opts *o,
		      char **sha256, struct ingest_meta *meta)
{
	struct dat_source *ds = vr_calloc(1, sizeof(*ds));
	char *sha;

	ds->interrupted = o->interrupted ? o->interrupted : &never_interrupted;
	if (probe_dat(path, o, sha256, &sha) || open_dat(ds, path, h, o, meta, sha)) {
		free(ds);
		return NULL;
	}
	return ds;
}

static int dat_start(void *state, const struct ingest_early *early)
{
	struct dat_source *ds = state;
	struct ingest_early e;

	if (!early)
		return ingest_start_dat(ds->d, NULL);
	e = *early;
	e.interrupted = ds->interrupted;
	return ingest_start_dat(ds->d, &e);
}

static int dat_read(void *state, const struct ingest_sink *sink)
{
	return ingest_read_dat(((struct dat_source *)state)->d, sink);
}

static void dat_progress(const void *state, uint64_t *done, uint64_t *total, uint64_t *events)
{
	ingest_dat_progress(((const struct dat_source *)state)->d, done, total, events);
}

static int dat_has_field(void *state, const char *system, const char *event, const char *field)
{
	return ingest_dat_has_field(((struct dat_source *)state)->d, system, event, field);
}

static int dat_kswapd_pid(void *state, int nid)
{
	return ingest_dat_kswapd_pid(((struct dat_source *)state)->d, nid);
}

static int dat_quality(const void *state,
		       int (*quality)(void *, const char *, int64_t, const char *), void *arg)
{
	return ingest_dat_comm_quality(((const struct dat_source *)state)->d, quality, arg);
}

static void dat_leave_to_exit(void *state)
{
	ingest_dat_leave_to_exit(((struct dat_source *)state)->d);
}

static void dat_stop(void *state)
{
	ingest_stop_dat(((struct dat_source *)state)->d);
}

static void dat_close(void *state)
{
	struct dat_source *ds = state;

	ingest_close_dat(ds->d);	/* joins the reader thread first */
	free(ds);
}

static const struct ingest_reader dat_reader = {
	.format = "trace.dat",
	.open = dat_open,
	.start = dat_start,
	.read = dat_read,
	.progress = dat_progress,
	.has_field = dat_has_field,
	.kswapd_pid = dat_kswapd_pid,
	.quality = dat_quality,
	.how_read = dat_how_read,
	.leave_to_exit = dat_leave_to_exit,
	.stop = dat_stop,
	.close = dat_close,
};

/* A text trace: hashed and indexed as it opens (ingest-text-file.c); a
 * pipe's or a compressed text's read once into a scratch file first. */
static void *text_open(const char *path, const struct ingest_head *h, const struct ingest_opts *o,
		       char **sha256, struct ingest_meta *meta)
{
	(void)sha256;
	return ingest_open_text(path, h, o->release, o->interrupted, meta);
}

static int text_read(void *state, const struct ingest_sink *sink)
{
	return ingest_read_text(state, sink);
}

/* All of a text's events are indexed when it opens: 1 of 1 done. */
static void text_progress(const void *state, uint64_t *done, uint64_t *total, uint64_t *events)
{
	*done = *total = 1;
	*events = ingest_text_nevents(state);
}

static int text_quality(const void *state,
			int (*quality)(void *, const char *, int64_t, const char *), void *arg)
{
	return ingest_text_quality(state, quality, arg);
}

static void text_close(void *state)
{
	ingest_close_text(state);
}

static const struct ingest_reader text_reader = {
	.format = "text",
	.fields_printed = true,
	.open = text_open,
	.read = text_read,
	.progress = text_progress,
	.has_field = ingest_text_has_field,
	.quality = text_quality,
	.close = text_close,
};

/*
 * The reader of each kind.  A file that cannot be read, or is empty, goes
 * to the trace.dat reader, which says why; a pipe and a compressed text go
 * to the text reader, which reads them once into a scratch file (and says
 * what a pipe carries that must be a file); kinds without a reader of their
 * own (an SQLite database, binary data) go to the text reader too, which
 * refuses binary data at its line.
 */
static const struct ingest_reader *reader_for(enum ingest_kind kind)
{
	switch (kind) {
	case INGEST_KIND_NONE:
	case INGEST_KIND_DAT:
	case INGEST_KIND_DAT_CUT:
		return &dat_reader;
	case INGEST_KIND_PERF:
		return &ingest_perf_reader;
	case INGEST_KIND_PIPE:
	case INGEST_KIND_TEXT:
	case INGEST_KIND_TEXT_COMPRESSED:
	case INGEST_KIND_SQLITE:
	case INGEST_KIND_BINARY:
		break;
	}
	return &text_reader;
}

int ingest_probe(const char *path, char **sha256)
{
	struct ingest_head h;

	*sha256 = NULL;
	if (reader_for(ingest_kind_of(path, &h)) != &dat_reader)
		return 0;
	return ingest_probe_dat(path, sha256) ? -1 : 0;
}

struct ingest_source *ingest_open(const char *path, const struct ingest_opts *o,
				  char **sha256)
{
	struct ingest_source *s = vr_calloc(1, sizeof(*s));
	struct ingest_head h;

	s->o = *o;
	s->r = reader_for(ingest_kind_of(path, &h));
	s->state = s->r->open(path, &h, o, sha256, &s->meta);
	if (!s->state) {
		free(s);
		return NULL;
	}
	return s;
}

const struct ingest_meta *ingest_meta(const struct ingest_source *s)
{
	return &s->meta;
}

const char *ingest_hash(struct ingest_source *s)
{
	if (!s->meta.content_sha256)
		s->meta.content_sha256 = ingest_sha256_file(s->meta.path);
	return s->meta.content_sha256;
}

void ingest_hash_ahead(struct ingest_source *s)
{
	if (!s->meta.content_sha256)
		s->meta.content_sha256 = ingest_sha256_file_quiet(s->meta.path);
}

const char *ingest_format(const struct ingest_source *s)
{
	return s->r->format;
}

bool ingest_decodes_ahead(const struct ingest_source *s)
{
	return s->r->start != NULL;
}

int ingest_start(struct ingest_source *s, const struct ingest_early *early)
{
	return s->r->start ? s->r->start(s->state, early) : 0;
}

int ingest_read(struct ingest_source *s, const struct ingest_sink *sink)
{
	return s->r->read(s->state, sink);
}

void ingest_progress(const struct ingest_source *s, uint64_t *done, uint64_t *total,
		     uint64_t *events)
{
	*done = *total = *events = 0;
	if (s->r->progress)
		s->r->progress(s->state, done, total, events);
}

int ingest_has_field(void *arg, const char *system, const char *event, const char *field)
{
	struct ingest_source *s = arg;

	return s->r->has_field(s->state, system, event, field);
}

bool ingest_fields_printed(const struct ingest_source *s)
{
	return s->r->fields_printed;
}

int ingest_kswapd_pid(void *arg, int nid)
{
	struct ingest_source *s = arg;

	return s->r->kswapd_pid ? s->r->kswapd_pid(s->state, nid) : -1;
}

int ingest_quality(const struct ingest_source *s,
		   int (*quality)(void *arg, const char *item, int64_t count, const char *detail),
		   void *arg)
{
	return s->r->quality ? s->r->quality(s->state, quality, arg) : 0;
}

const char *ingest_how_read(const struct ingest_source *s, char *buf, size_t len)
{
	return s->r->how_read ? s->r->how_read(s->state, buf, len) : NULL;
}

void ingest_leave_to_exit(struct ingest_source *s)
{
	if (s->r->leave_to_exit)
		s->r->leave_to_exit(s->state);
}

void ingest_stop(struct ingest_source *s)
{
	if (s && s->r->stop)
		s->r->stop(s->state);
}

void ingest_close(struct ingest_source *s)
{
	if (!s)
		return;
	s->r->close(s->state);
	ingest_meta_release(&s->meta);
	free(s);
}

void ingest_remove_stale(int wait_ms)
{
	ingest_dat_spill_remove_stale();
	ingest_scratch_remove_stale(wait_ms);
}
