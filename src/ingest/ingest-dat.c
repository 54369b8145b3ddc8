// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-dat.c - read trace.dat files with libtracecmd and decode their
 * records with libtraceevent, using the event formats stored in the file.
 * Records are read per CPU with tracecmd_read_data() and merged by
 * timestamp (the per-CPU path is about twice as fast as
 * tracecmd_iterate_events() on compressed version 7 files with
 * libtracecmd 3.1.6; see the load issue's measurements).
 */
#include "child.h"
#include "ingest-priv.h"
#include "vr.h"

#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>

/*
 * Exported by libtracecmd 3.1.6 but declared only in its private header
 * (lib/trace-cmd/include/private/trace-cmd-private.h); the strings are
 * borrowed from the handle.
 */
const char *tracecmd_get_uname(struct tracecmd_input *handle);
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
const char *tracecmd_get_cpustats(struct tracecmd_input *handle);
int tracecmd_cpus(struct tracecmd_input *handle);
unsigned long tracecmd_get_in_file_version(struct tracecmd_input *handle);
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle,
				     const char **name, const char **version);
int tracecmd_page_size(struct tracecmd_input *handle);

#include "ingest-dat-priv.h"

/* "Linux host 6.18.44-fc #1 SMP ..." -> "6.18.44-fc" (third word). */
static char *release_from_uname(const char *uname)
{
	const char *p = uname;
	size_t len;

	for (int word = 0; word < 2; word++) {
		p = strchr(p, ' ');
		if (!p)
			return NULL;
		p += strspn(p, " ");
	}
	len = strcspn(p, " ");
	return len ? g_strndup(p, len) : NULL;
}

/* Check that PATH looks like a trace.dat before libtracecmd sees it (its
 * kind as ingest_kind_of() decides it). */
static int check_magic(const char *path)
{
	struct ingest_head h;
	struct stat st;

	if (ingest_kind_of(path, &h) == INGEST_KIND_DAT)
		return 0;
	if (h.err)
		return vr_error("%s: %s", path, strerror(h.err));
	if (h.is_dir)
		return vr_error("%s: is a directory, not a trace.dat file", path);
	if (!h.err && !stat(path, &st) && !S_ISREG(st.st_mode))	/* /dev/stdin, a FIFO */
		return vr_error("%s: is %s, not a file: load reads a trace from a file (it reads it"
				" more than once); save it to one first", path,
				S_ISFIFO(st.st_mode) ? "a pipe (FIFO)" : S_ISCHR(st.st_mode)
				? "a character device" : S_ISSOCK(st.st_mode) ? "a socket"
				: "not a regular file");
	if (h.len == 0)
		return vr_error("%s: empty file, not a trace.dat file", path);
	return vr_error("%s: not a trace.dat file (bad magic at offset 0)", path);
}

/* ingest-dat-priv.h */
struct dat_cursor *dat_open_cursors(struct tracecmd_input *top, struct tracecmd_input **inst,
				    int *ninst, int *n, struct tracecmd_input **clock_from)
{
	int nbuf = tracecmd_buffer_instances(top);
	struct dat_cursor *cur = NULL;

	*n = 0;
	for (int b = -1; b < nbuf; b++) {
		struct tracecmd_input *h = b < 0 ? top : tracecmd_buffer_instance_handle(top, b);
		int ncpu = h ? tracecmd_cpus(h) : 0;

		if (!h)
			continue;
		if (b >= 0)
			inst[(*ninst)++] = h;
		cur = vr_realloc(cur, (size_t)(*n + ncpu + 1) * sizeof(*cur));
		for (int c = 0; c < ncpu; c++) {
			struct tep_record *rec = tracecmd_read_data(h, c);

			int64_t size = tracecmd_get_cpu_file_size(h, c);

			cur[*n] = (struct dat_cursor){ .handle = h, .cpu = c, .rec = rec,
						       .base = rec ? rec->offset : 0,
						       .size = size > 0 ? (unsigned long long)size : 0 };
			if (rec && !*clock_from)
				*clock_from = h;
			(*n)++;
		}
	}
	return cur;
}

/*
 * Events the kernel's ring buffer lost, from the per-CPU stats trace-cmd
 * saves (the per_cpu/cpuN/stats files: "overrun: N", "dropped events: N").
 * Lost-event markers inside the data can undercount them.  -1: no stats, or
 * stats that do not fit int64_t (warned about, naming @path).
 */
static int64_t ring_overrun(const char *path, const char *stats)
{
	int64_t total = -1;
	const char *p = stats;

	while (p && *p) {
		long long n;

		if (sscanf(p, "overrun: %lld", &n) == 1 || sscanf(p, "dropped events: %lld", &n) == 1) {
			if (n < 0 || n == LLONG_MAX ||
			    __builtin_add_overflow(total < 0 ? 0 : total, n, &total)) {
				vr_warn("%s: ring-buffer stats: an overrun count is negative or the"
					" total exceeds 2^63 - 1; run.ring_overrun left NULL", path);
				return -1;
			}
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return total;
}

static void fill_meta(struct ingest_dat *d, struct ingest_meta *meta,
		      struct tracecmd_input *clock_from)
{
	const char *s, *name = NULL, *ver = NULL;

	memset(meta, 0, sizeof(*meta));
	meta->path = vr_strdup(d->path);
	meta->file_version = (int)tracecmd_get_in_file_version(d->handle);
	if (tracecmd_get_file_compress_proto(d->handle, &name, &ver) == 0 && name)
		meta->compression = vr_strdup(name);
	s = tracecmd_get_uname(d->handle);
	if (s) {
		meta->uname = vr_strdup(s);
		meta->release = release_from_uname(s);
	}
	s = tracecmd_get_trace_clock(clock_from ? clock_from : d->handle);
	meta->clock = vr_strdup(s && *s ? s : "local");
	/* the saved clock is the trace_clock file: "[mono] local ..." */
	if (strchr(meta->clock, '[')) {
		char *b = strchr(meta->clock, '[') + 1;
		size_t len = strcspn(b, "]");

		memmove(meta->clock, b, len);
		meta->clock[len] = '\0';
	}
	/*
	 * libtracecmd 3.1.6 parses a TRACECLOCK option of size 0 (which some
	 * writers use to say "the clock is saved with the buffer") past its
	 * end, so the name may be garbage: keep only a plausible clock name.
	 */
	if (!*meta->clock || strspn(meta->clock, "abcdefghijklmnopqrstuvwxyz0123456789_-") !=
			     strlen(meta->clock)) {
		free(meta->clock);
		meta->clock = vr_strdup("unknown");
	}
	meta->cpus = tracecmd_cpus(d->handle);
	meta->long_size = tep_get_long_size(d->tep);
	meta->big_endian = tep_is_file_bigendian(d->tep);
	meta->page_size = tracecmd_page_size(d->handle);
	meta->ring_overrun = ring_overrun(d->path, tracecmd_get_cpustats(d->handle));
}

/*
 * Open the file and every buffer instance in a child process first:
 * libtracecmd 3.1.6 crashes inside tracecmd_open() (tracecmd_open_fd()'s
 * error path calls tracecmd_close() on a half-built handle; found by
 * tests/fuzz/fuzz-dat.c, tests/fuzz/crashes/dat-open-close) and inside
 * tracecmd_buffer_instance_handle() on some truncated version 6 files, and
 * a crash must become an error message, not a lost load.
 */
static void probe_first_records(struct tracecmd_input *h)
{
	for (int c = 0; c < tracecmd_cpus(h); c++)
		tracecmd_free_record(tracecmd_read_data(h, c));
}

/* In the probe's child: open @arg (the path) and read the first records;
 * exit status 0, 1 (it does not open: the real open says why) or 2 (a
 * buffer instance cannot be read), or death by the crash. */
static int probe_child(void *arg)
{
	static const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
	const char *path = arg;
	struct tracecmd_input *h;

	/* die by the signal even under sanitizer or fuzzer handlers */
	for (size_t i = 0; i < VR_ARRAY_SIZE(fatal); i++)
		signal(fatal[i], SIG_DFL);
	tracecmd_set_loglevel(TEP_LOG_NONE);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h)
		return 1;
	/* the first record of every CPU, as open_cursors() reads them
	 * (fuzz-dat: a CPU's data made tracecmd_peek_data() crash) */
	probe_first_records(h);
	for (int i = 0; i < tracecmd_buffer_instances(h); i++) {
		struct tracecmd_input *b = tracecmd_buffer_instance_handle(h, i);

		if (!b)
			return 2;
		probe_first_records(b);
		tracecmd_close(b);
	}
	return 0;
}

int ingest_probe_dat(const char *path, char **sha256)
{
	struct child probe;
	int sig;

	if (sha256)
		*sha256 = NULL;

	if (ingest_dat_check_headers(path))
		return -1;
	if (child_start(&probe, probe_child, (void *)path, 0))
		return 0;	/* cannot probe; the real open still checks */
	/* the parent would only wait: hash the file meanwhile */
	if (sha256)
		*sha256 = ingest_sha256_file(path);
	/* a signal (a timer, SIGWINCH) must not turn the probe into a pass */
	if (child_wait(&probe))
		return 0;
	sig = child_signalled(&probe);
	if (sig == SIGINT || sig == SIGTERM)
		return vr_error("%s: interrupted while checking it", path);
	if (sig)
		return vr_error("%s: corrupt or truncated trace.dat (libtracecmd crashed on it with"
				" signal %d while reading the headers or first records)", path, sig);
	if (WIFEXITED(probe.status) && WEXITSTATUS(probe.status) == 2)
		return vr_error("%s: corrupt or truncated trace.dat (a buffer instance cannot be"
				" read)", path);
	return 0;	/* status 1: the real open reports it */
}

/* Per spec: the fields that are VR_FT_TEXT (their strings live in the
 * record and must be copied); built once, read by any thread. */
static uint32_t *spec_text_mask;
static pthread_once_t spec_text_once = PTHREAD_ONCE_INIT;

static void build_text_masks(void)
{
	spec_text_mask = vr_calloc(vr_event_specs_count, sizeof(*spec_text_mask));
	for (size_t i = 0; i < vr_event_specs_count; i++)
		for (int f = 0; f < VR_SPEC_MAX_FIELDS && vr_event_specs[i].fields[f].name; f++)
			if (vr_event_specs[i].fields[f].type == VR_FT_TEXT)
				spec_text_mask[i] |= 1u << f;
}

/* Index of field @name in spec @spec (the field must exist). */
static int field_index(int spec, const char *name)
{
	for (int f = 0; f < spec_nfields(spec); f++)
		if (!strcmp(vr_event_specs[spec].fields[f].name, name))
			return f;
	return 0;
}

/* What decoding records with @tep needs (borrowed: the handle's). */
static void init_decoding(struct ingest_dat *d, struct tep_handle *tep)
{
	d->tep = tep;
	d->swap = tep_is_file_bigendian(d->tep) != tep_is_local_bigendian(d->tep);
	pthread_once(&spec_text_once, build_text_masks);
	vr_buf_init(&d->json);
	for (int i = 0; i < VR_SPEC_MAX_FIELDS; i++)
		vr_buf_init(&d->text[i]);
	d->tasks = ingest_tasks_new();
	d->spec_switch = spec_find("sched", "sched_switch");
	d->spec_wakeup = spec_find("sched", "sched_wakeup");
	d->spec_waking = spec_find("sched", "sched_waking");
	d->f_prev_comm = field_index(d->spec_switch, "prev_comm");
	d->f_prev_pid = field_index(d->spec_switch, "prev_pid");
	d->f_next_comm = field_index(d->spec_switch, "next_comm");
	d->f_next_pid = field_index(d->spec_switch, "next_pid");
	d->f_comm = field_index(d->spec_wakeup, "comm");
	d->f_pid = field_index(d->spec_wakeup, "pid");
}

struct ingest_dat *ingest_dat_decoder(const char *path, struct tep_handle *tep)
{
	struct ingest_dat *d = vr_calloc(1, sizeof(*d));

	d->path = vr_strdup(path);
	d->copy_taken_at = -1;
	init_decoding(d, tep);
	return d;
}

struct ingest_dat *ingest_open_dat(const char *path, struct ingest_meta *meta)
{
	struct ingest_dat *d;

	memset(meta, 0, sizeof(*meta));
	if (check_magic(path) || ingest_probe_dat(path, NULL))
		return NULL;
	d = ingest_open_dat_probed(path, meta);
	if (d && !(meta->content_sha256 = ingest_sha256_file(path))) {
		ingest_meta_release(meta);
		ingest_close_dat(d);
		return NULL;
	}
	return d;
}

pthread_mutex_t dat_open_lock = PTHREAD_MUTEX_INITIALIZER;

struct ingest_dat *ingest_open_dat_probed(const char *path, struct ingest_meta *meta)
{
	struct ingest_dat *d;

	memset(meta, 0, sizeof(*meta));
	if (check_magic(path))
		return NULL;
	d = vr_calloc(1, sizeof(*d));
	d->path = vr_strdup(path);
	d->copy_taken_at = -1;
	tracecmd_set_loglevel(TEP_LOG_NONE);
	pthread_mutex_lock(&dat_open_lock);
	d->handle = tracecmd_open(path, TRACECMD_FL_LOAD_NO_SYSTEM_PLUGINS);
	pthread_mutex_unlock(&dat_open_lock);
	if (!d->handle) {
		vr_error("%s: cannot read trace.dat headers (truncated or corrupt file,"
			 " or a file version libtracecmd does not support)", path);
		ingest_close_dat(d);
		return NULL;
	}
	init_decoding(d, tracecmd_get_tep(d->handle));
	d->instances = vr_calloc((size_t)tracecmd_buffer_instances(d->handle) + 1,
				 sizeof(*d->instances));
	struct tracecmd_input *clock_from = NULL;

	d->cur = dat_open_cursors(d->handle, d->instances, &d->ninstances, &d->ncur, &clock_from);
	for (int c = 0; c < d->ncur; c++)
		d->data_bytes += d->cur[c].size;
	fill_meta(d, meta, clock_from);
	if (!meta->compression)		/* read through mappings of it */
		dat_drop_init(&d->drop, path);
	return d;
}

static void stop_reader(struct ingest_dat *d);

/* ingest-dat-priv.h */
void dat_close_handles(struct dat_cursor *cur, int ncur, struct tracecmd_input **inst,
		       int ninst, struct tracecmd_input *h)
{
	for (int c = 0; c < ncur; c++)
		tracecmd_free_record(cur[c].rec);
	free(cur);
	for (int i = 0; i < ninst; i++)
		tracecmd_close(inst[i]);
	free(inst);
	if (h)
		tracecmd_close(h);
}

/* ingest-dat-priv.h */
void dat_release_tracecmd(struct ingest_dat *d)
{
	dat_close_handles(d->cur, d->ncur, d->instances, d->ninstances, d->handle);
	d->cur = NULL;
	d->ncur = 0;
	d->instances = NULL;
	d->ninstances = 0;
	d->handle = NULL;
	d->tep = NULL;
}

void ingest_dat_set_path(struct ingest_dat *d, const char *path)
{
	free(d->path);
	d->path = vr_strdup(path);
}

void ingest_dat_leave_to_exit(struct ingest_dat *d)
{
	d->leave_to_exit = true;
}

void ingest_close_dat(struct ingest_dat *d)
{
	if (!d)
		return;
	stop_reader(d);
	dat_copy_end(d);
	if (!d->leave_to_exit) {
		dat_release_tracecmd(d);
		if (d->old_tep)
			tep_unref(d->old_tep);
	} else {	/* libtracecmd's state stays; our arrays of it go */
		free(d->cur);
		free(d->instances);
	}
	for (int i = 0; i < d->nevents; i++)
		free(d->events[i].extra);
	free(d->events);
	vr_buf_release(&d->json);
	for (int i = 0; i < VR_SPEC_MAX_FIELDS; i++)
		vr_buf_release(&d->text[i]);
	ingest_tasks_free(d->tasks);
	free(d->path);
	free(d);
}

/* Does spec @spec decode a field @name (VR_FF_MODEL fields are not decoded)? */
static bool spec_has_field(int spec, const char *name)
{
	for (int f = 0; f < VR_SPEC_MAX_FIELDS && vr_event_specs[spec].fields[f].name; f++)
		if (spec_decoded(spec, f) && !strcmp(vr_event_specs[spec].fields[f].name, name))
			return true;
	return false;
}

/* Build the decoding plan of event @ev: look its fields up once. */
static void plan_event(struct dat_event *de, struct tep_event *ev)
{
	struct tep_format_field *fld;
	int nf = 0;

	de->ev = ev;
	de->spec = spec_find(ev->system, ev->name);
	if (de->spec >= 0) {
		nf = de->nfields = spec_nfields(de->spec);
		for (int f = 0; f < nf; f++) {
			const char *name = vr_event_specs[de->spec].fields[f].name;

			de->field[f] = spec_decoded(de->spec, f) ? tep_find_field(ev, name) : NULL;
			if (de->field[f] && !(de->field[f]->flags & TEP_FIELD_IS_SIGNED) &&
			    spec_field_is_counter(name))
				de->counters |= 1u << f;
		}
	}
	for (fld = ev->format.fields; fld; fld = fld->next)
		if (de->spec < 0 || !spec_has_field(de->spec, fld->name))
			de->nextra++;
	if (de->nextra) {
		int i = 0;

		de->extra = vr_calloc((size_t)de->nextra, sizeof(*de->extra));
		for (fld = ev->format.fields; fld; fld = fld->next)
			if (de->spec < 0 || !spec_has_field(de->spec, fld->name))
				de->extra[i++] = fld;
	}
	de->ready = true;
}

static struct dat_event *lookup_event(struct ingest_dat *d, int id)
{
	struct tep_event *ev;

	if (id < 0)
		return NULL;
	if (id >= d->nevents) {
		int n = id + 64;

		d->events = vr_realloc(d->events, (size_t)n * sizeof(*d->events));
		memset(d->events + d->nevents, 0, (size_t)(n - d->nevents) * sizeof(*d->events));
		d->nevents = n;
	}
	if (!d->events[id].ready) {
		ev = tep_find_event(d->tep, id);
		if (!ev)
			return NULL;
		plan_event(&d->events[id], ev);
	}
	return &d->events[id];
}

/* An unsigned integer of @size bytes at @p in the file's byte order (what
 * tep_read_number() does, without a call per field). */
static unsigned long long read_raw(const struct ingest_dat *d, const void *p, int size)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		return *(const uint8_t *)p;
	case 2:
		memcpy(&v16, p, 2);
		return d->swap ? __builtin_bswap16(v16) : v16;
	case 4:
		memcpy(&v32, p, 4);
		return d->swap ? __builtin_bswap32(v32) : v32;
	case 8:
		memcpy(&v64, p, 8);
		return d->swap ? __builtin_bswap64(v64) : v64;
	default:
		return tep_read_number(d->tep, p, size);
	}
}

/* Read an integer field, sign-extended when the format says signed. */
static int read_int(const struct ingest_dat *d, struct tep_format_field *f,
		    const struct tep_record *rec, int64_t *out)
{
	unsigned long long v;
	int size = f->size;

	if (f->offset < 0 || f->offset + size > rec->size)
		return -1;
	if (f->flags & TEP_FIELD_IS_ARRAY)
		size = (int)f->elementsize;	/* first element of an array */
	if (size <= 0 || size > 8)
		return -1;
	v = read_raw(d, (char *)rec->data + f->offset, size);
	if ((f->flags & TEP_FIELD_IS_SIGNED) && size < 8) {
		unsigned long long sign = 1ULL << (size * 8 - 1);

		v = (v ^ sign) - sign;
	}
	*out = (int64_t)v;
	return 0;
}

/* Locate a string field: fixed char array or __data_loc/__rel_loc. */
static int read_str(struct tep_format_field *f, const struct tep_record *rec,
		    const char **s, size_t *len)
{
	if (f->offset < 0 || f->offset + f->size > rec->size)
		return -1;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		unsigned int loc = (unsigned int)tep_read_number(f->event->tep,
						(char *)rec->data + f->offset, 4);
		unsigned int off = loc & 0xffff, l = loc >> 16;

		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += (unsigned int)(f->offset + f->size);
		if ((int)(off + l) > rec->size)
			return -1;
		*s = (char *)rec->data + off;
		*len = l;
	} else {
		*s = (char *)rec->data + f->offset;
		/* a flexible array (ftrace print's "char buf[]", size 0) runs
		 * to the end of the record */
		*len = f->size ? (size_t)f->size : (size_t)(rec->size - f->offset);
	}
	*len = strnlen(*s, *len);
	return 0;
}

static bool field_is_text(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) ||
	       ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) && f->elementsize == 1 &&
		strstr(f->type, "char"));
}

/* Append field @f of @rec to d->json as "name":value. */
static int json_field(struct ingest_dat *d, struct tep_format_field *f,
		      const struct tep_record *rec)
{
	struct vr_buf *b = &d->json;
	const char *s;
	size_t len;
	int64_t v;

	vr_buf_addstr(b, b->len ? "," : "{");
	vr_buf_add_json_str(b, f->name, strlen(f->name));
	vr_buf_addstr(b, ":");
	if (field_is_text(f)) {
		if (read_str(f, rec, &s, &len))
			return -1;
		vr_buf_add_json_str(b, s, len);
	} else if (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) {
		/* binary array: hex bytes */
		const unsigned char *p;

		if (f->flags & TEP_FIELD_IS_DYNAMIC) {
			if (read_str(f, rec, &s, &len))
				return -1;
			unsigned int loc = (unsigned int)tep_read_number(d->tep,
						(char *)rec->data + f->offset, 4);
			len = loc >> 16;
			p = (const unsigned char *)s;
		} else {
			if (f->offset + f->size > rec->size)
				return -1;
			p = (const unsigned char *)rec->data + f->offset;
			len = (size_t)f->size;
		}
		vr_buf_addstr(b, "\"");
		for (size_t i = 0; i < len; i++)
			vr_buf_addf(b, "%02x", p[i]);
		vr_buf_addstr(b, "\"");
	} else {
		if (read_int(d, f, rec, &v))
			return -1;
		if (f->flags & TEP_FIELD_IS_SIGNED)
			vr_buf_addf(b, "%lld", (long long)v);
		else
			vr_buf_addf(b, "%llu", (unsigned long long)(uint64_t)v);
	}
	return 0;
}

/*
 * tep_find_function() through a small direct-mapped cache: the kernel
 * addresses in vmscan events (shrinker callbacks) are few and repeat
 * millions of times, and each lookup is a binary search of kallsyms.
 */
static const char *ksym_name(struct ingest_dat *d, unsigned long long addr)
{
	struct ksym_cache *k = &d->ksym[(addr ^ (addr >> 8) ^ (addr >> 16)) % VR_ARRAY_SIZE(d->ksym)];

	if (!k->valid || k->addr != addr) {
		k->addr = addr;
		k->name = tep_find_function(d->tep, addr);
		k->valid = true;
	}
	return k->name;
}

/* A counter above 2^63 - 1 (read negative): refused, as the text reader
 * refuses it (spec_field_is_counter()).  Returns -1 after the message. */
static int counter_out_of_range(const struct ingest_dat *d, const struct dat_event *de,
				const struct tep_record *rec, int f, int64_t v)
{
	return vr_error("%s: cpu %d offset %llu, %llu.%09llu s: %s:%s: %s=%llu: out of range (a"
			" counter above 2^63 - 1)", d->path, rec->cpu, rec->offset,
			rec->ts / 1000000000ULL, rec->ts % 1000000000ULL, de->ev->system,
			de->ev->name, vr_event_specs[de->spec].fields[f].name,
			(unsigned long long)(uint64_t)v);
}

/* The spec's fields of @rec into @out: 0, -1 (the record is too short for
 * its format) or -2 (a counter out of range, said). */
static int decode_known(struct ingest_dat *d, struct dat_event *de,
			const struct tep_record *rec, struct ingest_event *out)
{
	const struct vr_event_spec *sp = &vr_event_specs[de->spec];
	for (int f = 0; f < de->nfields; f++) {
		struct tep_format_field *fld = de->field[f];
		const char *s;
		size_t len;

		if (!fld)
			continue;
		if (sp->fields[f].type == VR_FT_TEXT) {
			if (read_str(fld, rec, &s, &len))
				return -1;
			vr_buf_reset(&d->text[f]);
			vr_buf_add(&d->text[f], s, len);
			out->str[f] = d->text[f].buf;
		} else {
			if (read_int(d, fld, rec, &out->val[f]))
				return -1;
			if ((de->counters & (1u << f)) && out->val[f] < 0)
				return counter_out_of_range(d, de, rec, f, out->val[f]) - 1;
			if (sp->fields[f].flags & VR_FF_KSYM)
				out->str[f] = ksym_name(d, (unsigned long long)out->val[f]);
		}
		out->present |= 1u << f;
	}
	return 0;
}

static int decode_record(struct ingest_dat *d, const struct tep_record *rec,
			 struct ingest_event *out)
{
	struct dat_event *de = lookup_event(d, tep_data_type(d->tep, (struct tep_record *)rec));

	if (!de)
		return vr_error("%s: cpu %d offset %llu: record of unknown event type %d",
				d->path, rec->cpu, rec->offset,
				tep_data_type(d->tep, (struct tep_record *)rec));
	/* ts_ns is a signed 64-bit SQLite integer: 2^63 ns is 292 years, beyond
	 * any trace clock (x86-tsc counts would reach it after 97 years at 3 GHz) */
	if (rec->ts > (unsigned long long)INT64_MAX)
		return vr_error("%s: cpu %d offset %llu: timestamp %llu out of range (2^63 ns or"
				" more): corrupt trace.dat", d->path, rec->cpu, rec->offset,
				rec->ts);
	out->ts_ns = rec->ts;
	out->cpu = rec->cpu;
	out->pid = tep_data_pid(d->tep, (struct tep_record *)rec);
	out->spec = de->spec;
	out->system = de->ev->system;
	out->name = de->ev->name;
	out->present = 0;
	out->extra_json = NULL;
	out->comm = NULL;
	/* str[] of a field this format lacks must not keep a stale pointer
	 * (fuzz-dat: a mangled sched_switch format crashed run_fill) */
	memset(out->str, 0, sizeof(out->str));
	if (de->spec >= 0) {
		int rc = decode_known(d, de, rec, out);

		if (rc == -2)
			return -1;
		if (rc)
			goto bad;
	}
	if (de->nextra) {
		vr_buf_reset(&d->json);
		for (int i = 0; i < de->nextra; i++)
			if (json_field(d, de->extra[i], rec))
				goto bad;
		vr_buf_addstr(&d->json, "}");
		out->extra_json = d->json.buf;
	}
	return 0;
bad:
	return vr_error("%s: cpu %d offset %llu: %s:%s record too short for its format"
			" (%d bytes)", d->path, rec->cpu, rec->offset, de->ev->system,
			de->ev->name, rec->size);
}

/* A sched event names task @pid_f with comm @comm_f at the event's time. */
static void note_comm(struct ingest_dat *d, const struct ingest_event *ev, int comm_f, int pid_f,
		      const char *source)
{
	if (!(ev->present & (1u << comm_f)) || !(ev->present & (1u << pid_f)) || !ev->str[comm_f])
		return;
	ingest_tasks_note_from(d->tasks, (int)ev->val[pid_f], ev->str[comm_f],
			       strlen(ev->str[comm_f]), ev->ts_ns, source);
}

/*
 * The comm of @ev's task at its time (events in timestamp order, on the
 * reader thread): the one the last sched_switch (prev_comm, next_comm) or
 * sched_wakeup/sched_waking (comm) naming the pid gave; before any, the
 * saved cmdline (trace-cmd saves the kernel's saved_cmdlines at the end of
 * the recording: the name the pid had then, a later one if it exec'ed
 * meanwhile), provisionally: the first name a sched event then gives the
 * pid replaces it for those rows (ingest-tasks.c); NULL for a pid without
 * either.  Spans go to the task table.
 */
static void event_comm(struct ingest_dat *d, struct ingest_event *ev)
{
	if (ev->spec >= 0 && ev->spec == d->spec_switch) {
		note_comm(d, ev, d->f_prev_comm, d->f_prev_pid, "sched_switch");
		note_comm(d, ev, d->f_next_comm, d->f_next_pid, "sched_switch");
	} else if (ev->spec >= 0 && (ev->spec == d->spec_wakeup || ev->spec == d->spec_waking)) {
		/* sched_waking has the same fields as sched_wakeup */
		note_comm(d, ev, d->f_comm, d->f_pid,
			  ev->spec == d->spec_wakeup ? "sched_wakeup" : "sched_waking");
	}
	ev->comm = ingest_tasks_current(d->tasks, ev->pid, ev->ts_ns);
	if (!ev->comm && tep_is_pid_registered(d->tep, ev->pid)) {
		const char *saved = tep_data_comm_from_pid(d->tep, ev->pid);

		/* pid 0 is "<idle>" by the tracing code's fixed rule (kernel/
		 * trace/trace.c __trace_find_cmdline()), not a name saved at the
		 * end: nothing for sched events' swapper/N to contradict */
		ev->comm = ev->pid ? ingest_tasks_note_saved(d->tasks, ev->pid, saved, ev->ts_ns)
				   : ingest_tasks_note_from(d->tasks, 0, saved, strlen(saved),
							    ev->ts_ns, "idle");
	}
}

/*
 * Decoding and storing overlap: a reader thread merges and decodes records
 * into batches (strings copied into the batch's arena), the calling thread
 * hands them to the sink.  At most QUEUE_BATCHES batches are in flight, so
 * memory stays flat whatever the trace size.
 */
enum { BATCH_EVENTS = 4096, QUEUE_BATCHES = 8, ARENA_BYTES = 1 << 18 };
#define LOST_MARK (-2)	/* ingest_event.spec of a lost-events marker */

struct batch {
	int n;
	struct ingest_event ev[BATCH_EVENTS];
	char *arena;
	size_t used, cap;
	int status;		/* last batch: 0 end of trace, -1 read error */
	bool last;
	struct batch *next;	/* free list */
};

struct pipe_state {
	struct ingest_dat *d;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct batch *queue[QUEUE_BATCHES];
	int head, count;
	struct batch *free_list;
	bool stop;		/* consumer asks the reader to stop */
};

/*
 * Batches of readers that ended, kept for the next file's reader (at most
 * SPARE_BATCHES): a new batch is 1.6 MB of fresh pages (mapped: load sets
 * M_MMAP_THRESHOLD), whose page faults, taken again by every file, were 3%
 * of a load of the six wsf recordings in perf.  A load decodes several
 * files at once, and a file's reader uses up to QUEUE_BATCHES + 2 of them:
 * the spares are what ended readers freed, so the peak stays that of the
 * files decoding at once.
 */
enum { SPARE_BATCHES = QUEUE_BATCHES + 2 };
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static struct batch *spare;	/* under spare_lock */
static int nspare;

/* A spare batch, or NULL. */
static struct batch *spare_get(void)
{
	struct batch *b;

	pthread_mutex_lock(&spare_lock);
	b = spare;
	if (b) {
		spare = b->next;
		nspare--;
	}
	pthread_mutex_unlock(&spare_lock);
	return b;
}

/* Keep @b for a later reader, or free it when there are enough. */
static void spare_put(struct batch *b)
{
	pthread_mutex_lock(&spare_lock);
	if (nspare < SPARE_BATCHES) {
		b->next = spare;
		spare = b;
		nspare++;
		b = NULL;
	}
	pthread_mutex_unlock(&spare_lock);
	if (b) {
		free(b->arena);
		free(b);
	}
}

static struct batch *batch_get(struct pipe_state *p)
{
	struct batch *b;

	pthread_mutex_lock(&p->lock);
	b = p->free_list;
	if (b)
		p->free_list = b->next;
	pthread_mutex_unlock(&p->lock);
	if (!b)
		b = spare_get();
	if (!b) {
		b = vr_calloc(1, sizeof(*b));
		b->cap = ARENA_BYTES;
		b->arena = vr_malloc(b->cap);
	}
	b->n = 0;
	b->used = 0;
	b->status = 0;
	b->last = false;
	return b;
}

static void batch_put(struct pipe_state *p, struct batch *b)
{
	pthread_mutex_lock(&p->lock);
	b->next = p->free_list;
	p->free_list = b;
	pthread_mutex_unlock(&p->lock);
}

/* Reader side: queue @b, waiting while the queue is full.  False: stop. */
static bool batch_push(struct pipe_state *p, struct batch *b)
{
	bool stop;

	pthread_mutex_lock(&p->lock);
	while (p->count == QUEUE_BATCHES && !p->stop)
		pthread_cond_wait(&p->cond, &p->lock);
	stop = p->stop;
	if (!stop) {
		p->queue[(p->head + p->count) % QUEUE_BATCHES] = b;
		p->count++;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	if (stop)
		batch_put(p, b);
	return !stop;
}

static struct batch *batch_pop(struct pipe_state *p)
{
	struct batch *b;

	pthread_mutex_lock(&p->lock);
	while (!p->count)
		pthread_cond_wait(&p->cond, &p->lock);
	b = p->queue[p->head];
	p->head = (p->head + 1) % QUEUE_BATCHES;
	p->count--;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	return b;
}

static const char *arena_copy(char *arena, size_t *used, const char *s)
{
	size_t len = strlen(s) + 1;
	char *dst = arena + *used;

	memcpy(dst, s, len);
	*used += len;
	return dst;
}

/* The text fields @ev has a string for (bit f: str[f] to copy). */
static uint32_t text_fields(const struct ingest_event *ev)
{
	uint32_t m = ev->spec >= 0 ? spec_text_mask[ev->spec] & ev->present : 0, out = 0;

	for (; m; m &= m - 1)
		if (ev->str[__builtin_ctz(m)])
			out |= m & -m;
	return out;
}

static size_t event_strings_size(const struct ingest_event *ev)
{
	size_t n = ev->extra_json ? strlen(ev->extra_json) + 1 : 0;

	for (uint32_t m = text_fields(ev); m; m &= m - 1)
		n += strlen(ev->str[__builtin_ctz(m)]) + 1;
	return n;
}

/*
 * Copy @ev to @out, its strings that live in the record (text fields and
 * the extra JSON) into @arena at *@used; the caller made room
 * (event_strings_size()).  Symbol names stay borrowed from libtraceevent.
 */
static void event_copy(struct ingest_event *out, const struct ingest_event *ev, char *arena,
		       size_t *used)
{
	*out = *ev;
	if (ev->extra_json)
		out->extra_json = arena_copy(arena, used, ev->extra_json);
	for (uint32_t m = text_fields(ev); m; m &= m - 1) {
		int f = __builtin_ctz(m);

		out->str[f] = arena_copy(arena, used, ev->str[f]);
	}
}

/* Copy @ev into @b (room checked by batch_room()). */
static void batch_add(struct batch *b, const struct ingest_event *ev)
{
	event_copy(&b->ev[b->n++], ev, b->arena, &b->used);
}

/* Make room for @need arena bytes and one event; may push @*b. */
static bool batch_room(struct pipe_state *p, struct batch **b, size_t need)
{
	if ((*b)->n < BATCH_EVENTS && (*b)->used + need <= (*b)->cap)
		return true;
	if ((*b)->n) {
		if (!batch_push(p, *b))
			return false;
		*b = batch_get(p);
	}
	if (need > (*b)->cap) {	/* one huge event: grow the empty arena */
		(*b)->cap = need;
		(*b)->arena = vr_realloc((*b)->arena, need);
	}
	return true;
}

/*
 * Records of one CPU stream, decoded ahead in a run.  libtracecmd 3.1.6
 * pays for every switch between CPU streams (about 1 s per 3 million
 * records on a compressed file when the streams are merged record by
 * record), so each stream is read sequentially in runs and the merge by
 * timestamp works on the decoded runs.
 */
struct cpu_run {
	struct ingest_event *ev;	/* cap entries */
	size_t *strsize;		/* event_strings_size() of each (cap) */
	int n, pos, cap;
	char *arena;			/* strings of the decoded events */
	size_t used, arena_cap;
};

/* ingest-dat-priv.h */
/*
 * libtracecmd 3.1.6's tracecmd_read_data() returns NULL at the end of a
 * CPU's data and also when the next page cannot be had: a compressed chunk
 * that fails to decompress or an allocation that fails (trace-input.c
 * read_zpage()), a page header saying more than a page (update_page_info()),
 * both through get_page() and get_next_page(), which tell no one.  The end
 * is where tracecmd_read_cpu_last() finds the CPU's last record, reading
 * back from the end of the data the file records for the CPU (the BUFFER
 * option's or flyrecord's per-CPU offset and size): a stream that stopped
 * before that record stopped early, and a CPU with data but no record that
 * can be read is unreadable.  Costs one page per CPU, at its end.
 */
int dat_check_cpu_end(struct ingest_dat *d, struct dat_cursor *c)
{
	/* -1 for a CPU past those the file has data for: tracecmd_cpus()
	 * counts all, and tracecmd_read_cpu_last() does not check */
	int64_t size = tracecmd_get_cpu_file_size(c->handle, c->cpu);
	struct tep_record *last = size > 0 ? tracecmd_read_cpu_last(c->handle, c->cpu) : NULL;
	unsigned long long end = last ? last->offset : 0;
	int ret = 0;

	tracecmd_free_record(last);
	if (c->any && last && end == c->last)
		return 0;
	if (!c->any && !last && size <= 0)
		return 0;	/* no data for this CPU */
	if (!c->any)
		ret = vr_error("%s: cpu %d: none of its %lld bytes of data can be read: corrupt or"
			       " truncated trace.dat (a compressed chunk that does not"
			       " decompress), or out of memory", d->path, c->cpu, (long long)size);
	else if (!last)
		ret = vr_error("%s: cpu %d: reading stopped at offset %llu, after %llu of its %lld"
			       " bytes of data, and the end of its data cannot be read: corrupt"
			       " or truncated trace.dat (a compressed chunk that does not"
			       " decompress), or out of memory", d->path, c->cpu, c->last,
			       c->last - c->base, (long long)size);
	else
		ret = vr_error("%s: cpu %d: reading stopped at offset %llu, after %llu of its %lld"
			       " bytes of data, before its last record (offset %llu): corrupt or"
			       " truncated trace.dat (a compressed chunk that does not"
			       " decompress), or out of memory", d->path, c->cpu, c->last,
			       c->last - c->base, (long long)size, end);
	return ret;
}

/*
 * The header of the ring-buffer page @rec is on, once per page: u64 time
 * stamp, then commit (the kernel's long, tep_get_header_page_size()) whose
 * low 27 bits are the bytes of data (kernel/trace/ring_buffer.c; kbuffer.c
 * COMMIT_MASK).  The kernel writes events 4-byte aligned (RB_ALIGNMENT),
 * so the data size is a multiple of 4, and a CPU's pages follow in the
 * order they were written, so their time stamps do not decrease.  A
 * compressed chunk can decompress to other bytes (trace-cmd writes zstd
 * frames without checksums): a page whose header breaks either rule is
 * corrupt, and libtracecmd would read fewer events from it, silently.
 * 0, or -1 after "PATH: cpu N: ring-buffer page at offset X ...".
 */
static int check_page(struct ingest_dat *d, struct dat_cursor *c, struct tep_record *rec)
{
	unsigned long long at = rec->offset & ~(unsigned long long)(tracecmd_page_size(c->handle) - 1);
	const unsigned char *page;
	unsigned long long ts, commit;
	int lsize;

	if (c->page == at + 1)
		return 0;
	page = tracecmd_record_page(c->handle, rec);
	if (page)
		dat_drop_behind(d, c, page, at);
	lsize = tep_get_header_page_size(d->tep);
	if (!page || (lsize != 4 && lsize != 8))
		return 0;
	ts = read_raw(d, page, 8);
	commit = read_raw(d, page + 8, lsize) & ((1u << 27) - 1);
	if (commit % 4)
		return vr_error("%s: cpu %d: ring-buffer page at offset %llu says it holds %llu bytes,"
				" not a multiple of 4: corrupt trace.dat", d->path, c->cpu, at,
				commit);
	if (c->page && ts < c->page_ts)
		return vr_error("%s: cpu %d: ring-buffer page at offset %llu has a time stamp (%llu)"
				" before the previous page's (%llu): corrupt trace.dat", d->path,
				c->cpu, at, ts, c->page_ts);
	c->page = at + 1;
	c->page_ts = ts;
	return 0;
}

/*
 * Add the @nev events cursor @c has just decoded to d->read_events, and
 * what it has decoded since the last call to d->read_bytes: its
 * last record's offset from its first (the same in an uncompressed copy,
 * see align_cursors()), or all of its data once it has ended (checked by
 * dat_check_cpu_end()).  The offsets are those of the CPU's data as
 * libtracecmd sees it, decompressed: the sizes of the flyrecord or BUFFER
 * sections (trace-cmd's trace-input.c, 3.1.6).
 */
static void count_read(struct ingest_dat *d, struct dat_cursor *c, uint64_t nev)
{
	unsigned long long now = !c->rec ? c->size : c->any ? c->last - c->base : 0;

	__atomic_add_fetch(&d->read_events, nev, __ATOMIC_RELAXED);
	if (now > c->size)
		now = c->size;
	if (now > c->counted) {
		__atomic_add_fetch(&d->read_bytes, now - c->counted, __ATOMIC_RELAXED);
		c->counted = now;
	}
}

void ingest_dat_progress(const struct ingest_dat *d, uint64_t *done, uint64_t *total,
			 uint64_t *events)
{
	*events = __atomic_load_n(&d->read_events, __ATOMIC_RELAXED);
	*done = __atomic_load_n(&d->read_bytes, __ATOMIC_RELAXED);
	*total = d->data_bytes;
}

/* Decode the next run of cursor @c into @r.  0, or -1 on a decode error or
 * when the CPU's data ends early. */
static int run_fill(struct ingest_dat *d, struct dat_cursor *c, struct cpu_run *r)
{
	struct ingest_event ev;
	uint64_t nev = 0;

	r->n = r->pos = 0;
	r->used = 0;
	while (c->rec && r->n + 2 <= r->cap) {
		struct tep_record *rec = c->rec;
		size_t need;

		if (check_page(d, c, rec) || decode_record(d, rec, &ev))
			return -1;
		need = event_strings_size(&ev);
		if (r->used + need > r->arena_cap) {
			if (r->n)
				break;		/* this record starts the next run */
			r->arena_cap = need;
			r->arena = vr_realloc(r->arena, need);
		}
		if (rec->missed_events > 0 &&
		    __builtin_add_overflow(d->lost_total, rec->missed_events, &d->lost_total))
			return vr_error("%s: cpu %d: lost-events marker at %llu ns: lost-events total"
					" exceeds 2^63 - 1 (run.lost_events cannot hold it)",
					d->path, c->cpu, (unsigned long long)rec->ts);
		if (rec->missed_events) {
			struct ingest_event *m = &r->ev[r->n++];

			memset(m, 0, sizeof(*m));
			m->spec = LOST_MARK;
			m->ts_ns = rec->ts;
			m->cpu = rec->cpu;
			m->val[0] = rec->missed_events > 0 ? rec->missed_events : -1;
			r->strsize[r->n - 1] = 0;
		}
		r->strsize[r->n] = need;
		event_copy(&r->ev[r->n++], &ev, r->arena, &r->used);
		nev++;
		c->last = rec->offset;
		c->any = true;
		tracecmd_free_record(rec);
		c->rec = tracecmd_read_data(c->handle, c->cpu);
		if (!c->rec && dat_check_cpu_end(d, c))
			return -1;
	}
	count_read(d, c, nev);
	return 0;
}

/* The run whose next event is earliest, refilling empty runs; NULL at the end. */
static struct cpu_run *next_run(struct ingest_dat *d, struct cpu_run *runs, int *status)
{
	struct cpu_run *best = NULL;

	for (int c = 0; c < d->ncur; c++) {
		struct cpu_run *r = &runs[c];

		if (r->pos == r->n && d->cur[c].rec && run_fill(d, &d->cur[c], r)) {
			*status = -1;
			return NULL;
		}
		if (r->pos < r->n && (!best || r->ev[r->pos].ts_ns < best->ev[best->pos].ts_ns))
			best = r;
	}
	return best;
}

static struct cpu_run *runs_new(int n)
{
	struct cpu_run *runs = vr_calloc((size_t)(n ? n : 1), sizeof(*runs));
	int cap = n ? 65536 / n : 4096;

	cap = cap < 256 ? 256 : cap > 4096 ? 4096 : cap;
	for (int i = 0; i < n; i++) {
		runs[i].cap = cap;
		runs[i].ev = vr_malloc((size_t)cap * sizeof(*runs[i].ev));
		runs[i].strsize = vr_malloc((size_t)cap * sizeof(*runs[i].strsize));
		runs[i].arena_cap = 1 << 16;
		runs[i].arena = vr_malloc(runs[i].arena_cap);
	}
	return runs;
}

static void runs_free(struct cpu_run *runs, int n)
{
	for (int i = 0; i < n; i++) {
		free(runs[i].ev);
		free(runs[i].strsize);
		free(runs[i].arena);
	}
	free(runs);
}

/* Has the consumer asked the reader to stop?  (for dat_poll_copy()) */
static bool stopping(void *arg)
{
	struct pipe_state *p = arg;
	bool stop;

	pthread_mutex_lock(&p->lock);
	stop = p->stop;
	pthread_mutex_unlock(&p->lock);
	return stop;
}

/* The early callbacks for @ev (an event or a lost-events marker). */
static int early_work(struct ingest_dat *d, struct ingest_event *ev)
{
	const struct ingest_early *e = &d->early;

	if (ev->spec == LOST_MARK)
		return e->lost ? e->lost(e->arg, ev->cpu, ev->ts_ns, ev->val[0]) : 0;
	return e->event ? e->event(e->arg, ev) : 0;
}

static void *reader_thread(void *arg)
{
	struct pipe_state *p = arg;
	struct ingest_dat *d = p->d;
	struct cpu_run *runs = runs_new(d->ncur), *r;
	struct batch *b = batch_get(p);
	int status = 0;

	for (int c = 0; c < d->ncur && !status; c++)	/* CPUs without a first record */
		if (!d->cur[c].rec && dat_check_cpu_end(d, &d->cur[c]))
			status = -1;
	while (!status && (r = next_run(d, runs, &status))) {
		size_t need = r->strsize[r->pos];
		const struct ingest_event *ev = &r->ev[r->pos++];

		if (d->copy && !(++d->copy_tick & 1023))
			dat_poll_copy(d, stopping, p);

		if (!batch_room(p, &b, need)) {
			runs_free(runs, d->ncur);
			return NULL;
		}
		if (ev->spec == LOST_MARK) {
			b->ev[b->n++] = *ev;
		} else {
			batch_add(b, ev);
			event_comm(d, &b->ev[b->n - 1]);
		}
		if (early_work(d, &b->ev[b->n - 1])) {
			status = -1;
			break;
		}
	}
	runs_free(runs, d->ncur);
	b->last = true;
	b->status = status;
	batch_push(p, b);
	return NULL;
}

/* Hand the events of @b to @sink: runs of events between lost-event
 * markers through sink->events when it has one.  0, or what a callback
 * returned. */
static int deliver(const struct batch *b, const struct ingest_sink *sink)
{
	int ret = 0;

	for (int i = 0; !ret && i < b->n;) {
		const struct ingest_event *ev = &b->ev[i];
		int j = i;

		if (ev->spec == LOST_MARK) {
			ret = sink->lost ? sink->lost(sink->arg, ev->cpu, ev->ts_ns, ev->val[0]) : 0;
			i++;
			continue;
		}
		if (!sink->events) {
			ret = sink->event(sink->arg, ev);
			i++;
			continue;
		}
		while (j < b->n && b->ev[j].spec != LOST_MARK)
			j++;
		ret = sink->events(sink->arg, ev, j - i);
		i = j;
	}
	return ret;
}

static int consume(struct pipe_state *p, const struct ingest_sink *sink)
{
	int ret = 0;

	for (;;) {
		struct batch *b = batch_pop(p);
		bool last = b->last;

		ret = deliver(b, sink);
		if (!ret && last)
			ret = b->status;
		batch_put(p, b);
		if (ret && !last) {	/* stop the reader and let it finish */
			pthread_mutex_lock(&p->lock);
			p->stop = true;
			pthread_cond_broadcast(&p->cond);
			pthread_mutex_unlock(&p->lock);
			return ret;
		}
		if (last)
			return ret;
	}
}

static void pipe_free(struct pipe_state *p)
{
	while (p->count) {
		batch_put(p, p->queue[p->head]);
		p->head = (p->head + 1) % QUEUE_BATCHES;
		p->count--;
	}
	while (p->free_list) {
		struct batch *b = p->free_list;

		p->free_list = b->next;
		spare_put(b);
	}
	pthread_mutex_destroy(&p->lock);
	pthread_cond_destroy(&p->cond);
}

int ingest_start_dat(struct ingest_dat *d, const struct ingest_early *early)
{
	struct pipe_state *p;

	if (d->pipe)
		return 0;
	if (early)
		d->early = *early;
	p = vr_calloc(1, sizeof(*p));
	p->d = d;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->cond, NULL);
	if (pthread_create(&d->reader, NULL, reader_thread, p)) {
		pipe_free(p);
		free(p);
		return vr_error("%s: cannot start the reader thread", d->path);
	}
	d->pipe = p;
	return 0;
}

/* Stop (if still running) and join the reader thread. */
static void stop_reader(struct ingest_dat *d)
{
	struct pipe_state *p = d->pipe;

	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	pthread_cond_broadcast(&p->cond);
	pthread_mutex_unlock(&p->lock);
	pthread_join(d->reader, NULL);
	pipe_free(p);
	free(p);
	d->pipe = NULL;
}

void ingest_stop_dat(struct ingest_dat *d)
{
	stop_reader(d);
}

int ingest_dat_comm_quality(const struct ingest_dat *d,
			    int (*quality)(void *arg, const char *item, int64_t count,
					   const char *detail),
			    void *arg)
{
	uint64_t n = ingest_tasks_saved_later(d->tasks);

	if (!n || !quality)
		return 0;
	return quality(arg, "task_comm_saved_cmdline", (int64_t)n,
		       "tasks whose rows before the first sched event naming them were given the"
		       " saved cmdline (the name at the end of the recording) and then the name"
		       " that sched event showed, which differed (task.comm_source)");
}

int ingest_dat_decode(struct ingest_dat *d, const struct tep_record *rec,
		      struct ingest_event *out)
{
	if (decode_record(d, rec, out))
		return -1;
	event_comm(d, out);
	return 0;
}

void ingest_dat_note_comm(struct ingest_dat *d, int pid, const char *comm, uint64_t ts_ns)
{
	ingest_tasks_note_from(d->tasks, pid, comm, strlen(comm), ts_ns, "sample");
}

int ingest_dat_emit_tasks(const struct ingest_dat *d, const struct ingest_sink *sink)
{
	return ingest_tasks_emit(d->tasks, sink);
}

int ingest_read_dat(struct ingest_dat *d, const struct ingest_sink *sink)
{
	int ret;

	if (ingest_start_dat(d, NULL))
		return -1;
	ret = consume(d->pipe, sink);
	stop_reader(d);
	if (!ret)
		ret = ingest_tasks_emit(d->tasks, sink);
	return ret;
}

/*
 * Walks the event array read-only instead of tep_find_event_by_name(),
 * which writes tep->last_event: the reader thread may already be decoding
 * (ingest_start_dat()) and writes it too.
 */
int ingest_dat_has_field(void *arg, const char *system, const char *event, const char *field)
{
	struct ingest_dat *d = arg;
	int n = tep_get_events_count(d->tep);

	for (int i = 0; i < n; i++) {
		struct tep_event *ev = tep_get_event(d->tep, i);

		if (ev && !strcmp(ev->name, event) && !strcmp(ev->system, system))
			return !field || tep_find_field(ev, field) ? 1 : 0;
	}
	return 0;
}

/* tep_data_pid_from_comm() only reads the saved comms, which the reader
 * thread does not touch (the task list is emitted after it is joined). */
int ingest_dat_kswapd_pid(void *arg, int nid)
{
	struct ingest_dat *d = arg;
	struct tep_cmdline *c;
	char comm[32];

	snprintf(comm, sizeof(comm), "kswapd%d", nid);
	c = tep_data_pid_from_comm(d->tep, comm, NULL);
	return c ? tep_cmdline_pid(d->tep, c) : -1;
}
