// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-perf.c - perf.data recordings of tracepoints (`perf record -e
 * 'vmscan:*' -a`), read into the same struct ingest_event stream as a
 * trace.dat.
 *
 * The layout (tools/perf/Documentation/perf.data-file-format.txt and
 * tools/perf/util/header.c, perf 4.x-6.x): a struct perf_file_header
 * ("PERFILE2", its size, the size of one attribute entry, and the
 * attrs, data and event_types sections as {offset, size}, then a 256-bit
 * feature bitmap); after the data section one {offset, size} per feature
 * bit set, in bit order.  Feature 1, HEADER_TRACING_DATA, holds the same
 * headers a trace.dat version 6 starts with (tools/perf/util/trace-event-
 * read.c, trace_report()): "\027\010\104tracing", a version string, the
 * byte order, the long size, the page size, header_page, header_event,
 * the ftrace formats, the event formats per system, kallsyms, the printk
 * formats and (version 0.6+) the saved cmdlines.  Those formats are
 * parsed by libtraceevent and every sample's raw record is decoded by
 * ingest-dat.c's decoder, as a trace.dat record is.  Feature 4,
 * HEADER_OSRELEASE, gives the kernel release.
 *
 * Records of the data section (include/uapi/linux/perf_event.h): a
 * struct perf_event_header {u32 type; u16 misc; u16 size}, then
 * PERF_RECORD_SAMPLE's fields in the order perf_output_sample() writes
 * them for the attribute's sample_type (IDENTIFIER, IP, TID, TIME, ADDR,
 * ID, STREAM_ID, CPU, PERIOD, READ, CALLCHAIN, RAW, ...); other records
 * end with the sample_id fields (sample_id_all) read from the end.
 * PERF_RECORD_COMM names a task from its time on; PERF_RECORD_LOST and
 * PERF_RECORD_LOST_SAMPLES count lost events.  perf writes the records in
 * rounds, not in time order: they are sorted here (stable).
 *
 * Only files in the byte order of this machine are read, and only
 * perf.data written to a file (not perf's pipe mode, whose headers are
 * records).  Plugged in as ingest_perf_reader (ingest-priv.h), the reader
 * ingest-source.c's reader_for() gives INGEST_KIND_PERF.
 */
#include "ingest-dat-priv.h"
#include "vr.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#define HEADER_TRACING_DATA 1	/* tools/perf/util/header.h */
#define HEADER_OSRELEASE 4
#define HEADER_NRCPUS 7
#define HEADER_FEAT_BITS 256

enum {	/* include/uapi/linux/perf_event.h */
	PERF_TYPE_TRACEPOINT = 2,
	PERF_RECORD_LOST = 2, PERF_RECORD_COMM = 3, PERF_RECORD_SAMPLE = 9,
	PERF_RECORD_LOST_SAMPLES = 13,
	PS_IP = 1 << 0, PS_TID = 1 << 1, PS_TIME = 1 << 2, PS_ADDR = 1 << 3, PS_READ = 1 << 4,
	PS_CALLCHAIN = 1 << 5, PS_ID = 1 << 6, PS_CPU = 1 << 7, PS_PERIOD = 1 << 8,
	PS_STREAM_ID = 1 << 9, PS_RAW = 1 << 10, PS_IDENTIFIER = 1 << 16,
	PF_TOTAL_TIME_ENABLED = 1 << 0, PF_TOTAL_TIME_RUNNING = 1 << 1, PF_ID = 1 << 2,
	PF_GROUP = 1 << 3, PF_LOST = 1 << 4,
	ATTR_SAMPLE_ID_ALL = 1 << 18,	/* bit of perf_event_attr's flag word */
};

struct perf_section {
	uint64_t offset, size;
};

/* One attribute (one event of the recording). */
struct perf_attr {
	uint32_t type;
	uint64_t sample_type, read_format;
	bool sample_id_all;
	uint64_t *ids;
	size_t nids;
};

/* A record to pass on, in the order of time (then of the file). */
struct perf_item {
	uint64_t ts_ns;
	uint64_t off;		/* of the record in the file */
	uint32_t raw_off, raw_size;	/* SAMPLE: its raw data, in the record */
	int32_t cpu;
	int32_t tid;
	int64_t lost;		/* LOST: events lost (-1 for a SAMPLE, -2 COMM) */
};

struct ingest_perf {
	char *path;
	const unsigned char *data;	/* the mapped file */
	size_t len;
	struct tep_handle *tep;
	struct ingest_dat *dec;		/* decodes the raw records */
	struct perf_attr *attr;
	size_t nattr;
	struct perf_item *items;
	size_t nitems, aitems;
	uint64_t samples, lost_records, lost_total, other_samples;
	int cpus;
	char *release;
};

/* ---- bytes --------------------------------------------------------------- */

static uint64_t get64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t get32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* Is [off, off + size) inside the file? */
static bool inside(const struct ingest_perf *p, uint64_t off, uint64_t size)
{
	return off <= p->len && size <= p->len - off;
}

/* ---- the tracing-data feature ---------------------------------------------- */

/* A cursor over the tracing-data section (trace-event-read.c's do_read()). */
struct cursor {
	const unsigned char *p;
	size_t left;
	struct tep_handle *tep;	/* for the file's byte order */
};

static const unsigned char *take(struct cursor *c, size_t n)
{
	const unsigned char *at = c->p;

	if (n > c->left)
		return NULL;
	c->p += n;
	c->left -= n;
	return at;
}

static int take_num(struct cursor *c, int size, uint64_t *out)
{
	const unsigned char *at = take(c, (size_t)size);

	if (!at)
		return -1;
	*out = tep_read_number(c->tep, at, size);
	return 0;
}

/* A NUL-terminated copy of @n bytes at the cursor (kallsyms, printk
 * formats and cmdlines are parsed as strings), or NULL if cut. */
static char *take_text(struct cursor *c, uint64_t n)
{
	const unsigned char *at = n <= c->left ? take(c, (size_t)n) : NULL;
	char *s;

	if (!at)
		return NULL;
	s = vr_malloc((size_t)n + 1);
	memcpy(s, at, (size_t)n);
	s[n] = '\0';
	return s;
}

/* Formats of @count events of @sys, each a u64 size and its text. */
static int parse_formats(struct ingest_perf *p, struct cursor *c, uint64_t count, const char *sys)
{
	uint64_t size;
	const unsigned char *at;

	for (uint64_t i = 0; i < count; i++) {
		if (take_num(c, 8, &size) || size > c->left || !(at = take(c, (size_t)size)))
			return vr_error("%s: tracing data: the format %llu of %s is cut", p->path,
					(unsigned long long)i + 1, sys);
		if (tep_parse_event(p->tep, (const char *)at, (unsigned long)size, sys))
			return vr_error("%s: tracing data: libtraceevent cannot parse format %llu"
					" of %s", p->path, (unsigned long long)i + 1, sys);
	}
	return 0;
}

/* trace_report() of tools/perf/util/trace-event-read.c, over @s. */
static int parse_tracing_data(struct ingest_perf *p, const struct perf_section *s)
{
	struct cursor c = { p->data + s->offset, (size_t)s->size, NULL };
	const unsigned char *at;
	const char *version;
	uint64_t size, count, nsys;
	int big, long_size;
	char *text;
	size_t vl;

	p->tep = tep_alloc();
	c.tep = p->tep;
	at = take(&c, 10);
	if (!at || memcmp(at, "\027\010\104tracing", 10))
		return vr_error("%s: the tracing-data section does not start with"
				" \"\\027\\010\\104tracing\"", p->path);
	version = (const char *)c.p;
	vl = strnlen(version, c.left);
	if (vl == c.left || !take(&c, vl + 1) || !(at = take(&c, 2)))
		return vr_error("%s: tracing data cut in its header", p->path);
	big = at[0];
	long_size = at[1];
	tep_set_file_bigendian(p->tep, big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(p->tep, tep_is_local_bigendian(p->tep));
	tep_set_long_size(p->tep, long_size);
	if (take_num(&c, 4, &size) || !size)
		return vr_error("%s: tracing data without a page size", p->path);
	tep_set_page_size(p->tep, (int)size);
	/* header_page, header_event: each a name, a u64 size and the text */
	if (!(at = take(&c, 12)) || memcmp(at, "header_page", 12) || take_num(&c, 8, &size) ||
	    size > c.left)
		return vr_error("%s: tracing data: no header_page", p->path);
	at = take(&c, (size_t)size);
	if (!tep_parse_header_page(p->tep, (char *)at, (unsigned long)size, long_size))
		tep_set_long_size(p->tep, tep_get_header_page_size(p->tep));
	if (!(at = take(&c, 13)) || memcmp(at, "header_event", 13) || take_num(&c, 8, &size) ||
	    !take(&c, (size_t)(size <= c.left ? size : c.left + 1)))
		return vr_error("%s: tracing data: no header_event", p->path);
	if (take_num(&c, 4, &count) || parse_formats(p, &c, count, "ftrace"))
		return vr_error("%s: tracing data: the ftrace formats cannot be read", p->path);
	if (take_num(&c, 4, &nsys))
		return vr_error("%s: tracing data: no event systems", p->path);
	for (uint64_t i = 0; i < nsys; i++) {
		const char *sys = (const char *)c.p;
		size_t sl = strnlen(sys, c.left);

		if (sl == c.left || !take(&c, sl + 1) || take_num(&c, 4, &count))
			return vr_error("%s: tracing data: system %llu cut", p->path,
					(unsigned long long)i + 1);
		if (parse_formats(p, &c, count, sys))
			return -1;
	}
	/* kallsyms and printk formats: a u32 size and the text */
	for (int k = 0; k < 2; k++) {
		if (take_num(&c, 4, &size) || !(text = take_text(&c, size)))
			return vr_error("%s: tracing data: %s cut", p->path,
					k ? "printk formats" : "kallsyms");
		/* what they cannot read only costs names: not an error */
		if (size && k)
			tep_parse_printk_formats(p->tep, text);
		else if (size)
			tep_parse_kallsyms(p->tep, text);
		free(text);
	}
	if (strtod(version, NULL) >= 0.6) {	/* saved cmdlines: a u64 size */
		if (take_num(&c, 8, &size) || !(text = take_text(&c, size)))
			return vr_error("%s: tracing data: saved cmdlines cut", p->path);
		if (size)
			tep_parse_saved_cmdlines(p->tep, text);
		free(text);
	}
	return 0;
}

/* ---- header, attributes, features ------------------------------------------ */

/* The {offset, size} of feature @bit (after the data section), or -1 if
 * the file does not have it. */
static int feature(const struct ingest_perf *p, const unsigned char *bits, uint64_t table,
		   int bit, struct perf_section *out)
{
	int idx = 0;

	if (!(bits[bit / 8] & (1u << (bit % 8))))
		return -1;
	for (int b = 0; b < bit; b++)
		idx += !!(bits[b / 8] & (1u << (b % 8)));
	if (!inside(p, table + (uint64_t)idx * 16, 16))
		return -1;
	out->offset = get64(p->data + table + (uint64_t)idx * 16);
	out->size = get64(p->data + table + (uint64_t)idx * 16 + 8);
	return inside(p, out->offset, out->size) ? 0 : -1;
}

/*
 * Every feature section the header's bitmap (256 bits at offset 72) names
 * is in the file: its {offset, size} entry (one per set bit, in bit order,
 * from @table) and the bytes it points at.  perf writes them after the
 * data, so a file cut there loses them first: without this check a cut
 * perf.data lost its tracing data and was taken for a profile without
 * tracepoints, or (cut in the last feature) loaded as if whole.  0, or -1
 * after "FILE: ... cut".
 */
static int check_features(const struct ingest_perf *p, const unsigned char *bits, uint64_t table)
{
	int idx = 0;

	for (int bit = 0; bit < 256; bit++) {
		uint64_t e = table + (uint64_t)idx * 16, off, size;

		if (!(bits[bit / 8] & (1u << (bit % 8))))
			continue;
		idx++;
		if (!inside(p, e, 16))
			return vr_error("%s: perf.data cut: the entry of feature %d's section (at"
					" offset %llu) is past its end (%zu bytes)", p->path, bit,
					(unsigned long long)e, p->len);
		off = get64(p->data + e);
		size = get64(p->data + e + 8);
		if (!inside(p, off, size))
			return vr_error("%s: perf.data cut: feature %d's section (offset %llu, %llu"
					" bytes) goes past its end (%zu bytes)", p->path, bit,
					(unsigned long long)off, (unsigned long long)size, p->len);
	}
	return 0;
}

/* A perf header string (u32 length, then the text padded with NULs). */
static char *feature_string(const struct ingest_perf *p, const struct perf_section *s)
{
	uint32_t n;

	if (s->size < 4)
		return NULL;
	n = get32(p->data + s->offset);
	if (n > s->size - 4)
		return NULL;
	const char *t = (const char *)p->data + s->offset + 4;
	size_t l = strnlen(t, n);
	char *out = vr_malloc(l + 1);

	memcpy(out, t, l);
	out[l] = '\0';
	return out;
}

static int read_attrs(struct ingest_perf *p, uint64_t attr_size, const struct perf_section *s)
{
	if (attr_size < 64 + 16 || s->size % attr_size)
		return vr_error("%s: perf.data attribute entries of %llu bytes: not a perf.data"
				" this reader knows", p->path, (unsigned long long)attr_size);
	p->nattr = (size_t)(s->size / attr_size);
	p->attr = vr_calloc(p->nattr + 1, sizeof(*p->attr));
	for (size_t i = 0; i < p->nattr; i++) {
		const unsigned char *a = p->data + s->offset + i * attr_size;
		struct perf_attr *pa = &p->attr[i];
		uint64_t ioff = get64(a + attr_size - 16), isize = get64(a + attr_size - 8);

		pa->type = get32(a);
		pa->sample_type = get64(a + 24);
		pa->read_format = get64(a + 32);
		pa->sample_id_all = get64(a + 40) & ATTR_SAMPLE_ID_ALL;
		if (!inside(p, ioff, isize) || isize % 8)
			return vr_error("%s: the ids of event %zu are outside the file", p->path, i);
		pa->nids = (size_t)(isize / 8);
		pa->ids = vr_calloc(pa->nids + 1, sizeof(*pa->ids));
		for (size_t k = 0; k < pa->nids; k++)
			pa->ids[k] = get64(p->data + ioff + k * 8);
	}
	if (!p->nattr)
		return vr_error("%s: a perf.data without events", p->path);
	return 0;
}

/* The attribute of sample id @id (NULL if none), or the only layout. */
static const struct perf_attr *attr_of(const struct ingest_perf *p, uint64_t id)
{
	for (size_t i = 0; i < p->nattr; i++)
		for (size_t k = 0; k < p->attr[i].nids; k++)
			if (p->attr[i].ids[k] == id)
				return &p->attr[i];
	return NULL;
}

/* All attributes lay out samples alike (needed without IDENTIFIER). */
static bool one_layout(const struct ingest_perf *p)
{
	for (size_t i = 1; i < p->nattr; i++)
		if (p->attr[i].sample_type != p->attr[0].sample_type)
			return false;
	return true;
}

/* ---- records --------------------------------------------------------------- */

static void add_item(struct ingest_perf *p, const struct perf_item *it)
{
	if (p->nitems == p->aitems) {
		p->aitems = p->aitems ? p->aitems * 2 : 4096;
		p->items = vr_realloc(p->items, p->aitems * sizeof(*p->items));
	}
	p->items[p->nitems++] = *it;
}

/* The sample_id fields at the end of a non-sample record (@r, @size
 * bytes): time, cpu and tid, as perf's perf_evsel__parse_id_sample(). */
static int id_sample(const struct ingest_perf *p, const unsigned char *r, size_t size,
		     struct perf_item *it)
{
	const struct perf_attr *a = &p->attr[0];
	const unsigned char *q = r + size;

	if (a->sample_type & PS_IDENTIFIER) {
		if (size < 16)
			return -1;
		a = attr_of(p, get64(q - 8));
		if (!a)
			return -1;
	}
	if (!a->sample_id_all)
		return 0;
#define BACK() do { if (q - r < 16) return -1; q -= 8; } while (0)
	if (a->sample_type & PS_IDENTIFIER)
		BACK();
	if (a->sample_type & PS_CPU) {
		BACK();
		it->cpu = (int32_t)get32(q);
	}
	if (a->sample_type & PS_STREAM_ID)
		BACK();
	if (a->sample_type & PS_ID)
		BACK();
	if (a->sample_type & PS_TIME) {
		BACK();
		it->ts_ns = get64(q);
	}
	if (a->sample_type & PS_TID) {
		BACK();
		it->tid = (int32_t)get32(q + 4);
	}
#undef BACK
	return 0;
}

/* Size of the READ field of @a at @q (at most @left bytes), or -1. */
static int64_t read_size(const struct perf_attr *a, const unsigned char *q, size_t left)
{
	uint64_t one = 8 + (a->read_format & PF_ID ? 8 : 0) + (a->read_format & PF_LOST ? 8 : 0);
	uint64_t head = (a->read_format & PF_TOTAL_TIME_ENABLED ? 8 : 0) +
			(a->read_format & PF_TOTAL_TIME_RUNNING ? 8 : 0);

	if (!(a->read_format & PF_GROUP))
		return (int64_t)(head + one);
	if (left < 8 || get64(q) > left / one)
		return -1;
	return (int64_t)(8 + head + get64(q) * one);
}

/* PERF_RECORD_SAMPLE at @r (@size bytes, @off in the file). */
static int sample(struct ingest_perf *p, const unsigned char *r, size_t size, uint64_t off)
{
	const struct perf_attr *a = &p->attr[0];
	struct perf_item it = { .off = off, .cpu = -1, .tid = -1, .lost = -1 };
	size_t at = 8;
	uint64_t st;

#define NEED(n) do { if (size - at < (size_t)(n)) goto cut; } while (0)
	if (a->sample_type & PS_IDENTIFIER) {
		NEED(8);
		a = attr_of(p, get64(r + at));
		if (!a)
			return vr_error("%s: offset %llu: a sample of an event the header does not"
					" list", p->path, (unsigned long long)off);
	}
	st = a->sample_type;
	if (a->type != PERF_TYPE_TRACEPOINT || !(st & PS_RAW)) {
		p->other_samples++;
		return 0;
	}
	if (!(st & PS_TIME) || !(st & PS_CPU))
		return vr_error("%s: samples without their %s (perf record of tracepoints records"
				" both): not read", p->path, st & PS_TIME ? "CPU" : "time");
	at += (st & PS_IDENTIFIER ? 8 : 0) + (st & PS_IP ? 8 : 0);
	if (st & PS_TID) {
		NEED(8);
		it.tid = (int32_t)get32(r + at + 4);
		at += 8;
	}
	NEED(8);
	it.ts_ns = get64(r + at);
	at += 8 + (st & PS_ADDR ? 8 : 0) + (st & PS_ID ? 8 : 0) + (st & PS_STREAM_ID ? 8 : 0);
	NEED(8);
	it.cpu = (int32_t)get32(r + at);
	at += 8 + (st & PS_PERIOD ? 8 : 0);
	if (st & PS_READ) {
		int64_t n;

		n = read_size(a, r + at, size - at);
		if (n < 0)
			goto cut;
		NEED(n);
		at += (size_t)n;
	}
	if (st & PS_CALLCHAIN) {
		NEED(8);
		if (get64(r + at) > (size - at - 8) / 8)
			goto cut;
		at += 8 + 8 * get64(r + at);
	}
	NEED(4);
	it.raw_size = get32(r + at);
	at += 4;
	NEED(it.raw_size);
	it.raw_off = (uint32_t)at;
#undef NEED
	if (it.ts_ns > (uint64_t)INT64_MAX)
		return vr_error("%s: offset %llu: timestamp %llu out of range (2^63 ns or more)",
				p->path, (unsigned long long)off, (unsigned long long)it.ts_ns);
	if (it.cpu + 1 > p->cpus)
		p->cpus = it.cpu + 1;
	p->samples++;
	add_item(p, &it);
	return 0;
cut:
	return vr_error("%s: offset %llu: a sample shorter than its fields", p->path,
			(unsigned long long)off);
}

/* Every record of the data section @s, into p->items. */
static int read_records(struct ingest_perf *p, const struct perf_section *s)
{
	uint64_t off = s->offset, end = s->offset + s->size;

	while (off < end) {
		const unsigned char *r = p->data + off;
		struct perf_item it = { .off = off, .cpu = -1, .tid = -1 };
		uint32_t type;
		uint16_t size;

		if (end - off < 8)
			return vr_error("%s: offset %llu: a record header cut by the end of the data",
					p->path, (unsigned long long)off);
		type = get32(r);
		memcpy(&size, r + 6, 2);
		if (size < 8 || size > end - off)
			return vr_error("%s: offset %llu: a record of %u bytes%s", p->path,
					(unsigned long long)off, size,
					size < 8 ? "" : ", past the end of the data");
		if (type == PERF_RECORD_SAMPLE) {
			if (sample(p, r, size, off))
				return -1;
		} else if (type == PERF_RECORD_LOST || type == PERF_RECORD_LOST_SAMPLES) {
			size_t at = type == PERF_RECORD_LOST ? 16 : 8;

			if (size < at + 8 || id_sample(p, r, size, &it))
				return vr_error("%s: offset %llu: a lost-events record too short",
						p->path, (unsigned long long)off);
			it.lost = (int64_t)get64(r + at);
			if (it.lost < 0 || __builtin_add_overflow(p->lost_total, (uint64_t)it.lost,
								  &p->lost_total))
				return vr_error("%s: offset %llu: lost events past 2^63 - 1", p->path,
						(unsigned long long)off);
			p->lost_records++;
			add_item(p, &it);
		} else if (type == PERF_RECORD_COMM && size > 16) {
			if (!id_sample(p, r, size, &it)) {
				it.tid = (int32_t)get32(r + 12);
				it.lost = -2;
				add_item(p, &it);
			}
		}
		off += size;
	}
	return 0;
}

static int cmp_item(const void *a, const void *b)
{
	const struct perf_item *x = a, *y = b;

	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* ---- the handle ------------------------------------------------------------- */

static int map_file(struct ingest_perf *p)
{
	struct stat st;
	int fd = open(p->path, O_RDONLY | O_CLOEXEC);
	void *m;

	if (fd < 0)
		return vr_error("%s: %s", p->path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 104) {
		close(fd);
		return vr_error("%s: a perf.data shorter than its header", p->path);
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return vr_error("%s: cannot map: %s", p->path, strerror(errno));
	p->data = m;
	p->len = (size_t)st.st_size;
	return 0;
}

static int open_perf(struct ingest_perf *p)
{
	struct perf_section attrs, data, fs;
	const unsigned char *bits;
	uint64_t attr_size;

	if (map_file(p))
		return -1;
	if (get64(p->data + 8) < 104)
		return vr_error("%s: perf.data header of %llu bytes", p->path,
				(unsigned long long)get64(p->data + 8));
	attr_size = get64(p->data + 16);
	attrs = (struct perf_section){ get64(p->data + 24), get64(p->data + 32) };
	data = (struct perf_section){ get64(p->data + 40), get64(p->data + 48) };
	bits = p->data + 72;
	if (!inside(p, attrs.offset, attrs.size) || !inside(p, data.offset, data.size))
		return vr_error("%s: perf.data sections outside the file (cut, or written by"
				" perf record in pipe mode, which this reader does not take)",
				p->path);
	if (read_attrs(p, attr_size, &attrs))
		return -1;
	if (!(p->attr[0].sample_type & PS_IDENTIFIER) && !one_layout(p))
		return vr_error("%s: events with different sample layouts and no sample"
				" identifier: not read", p->path);
	if (check_features(p, bits, data.offset + data.size))
		return -1;
	if (feature(p, bits, data.offset + data.size, HEADER_TRACING_DATA, &fs))
		return vr_error("%s: a perf.data without tracing data (no tracepoint was"
				" recorded: a profile such as cycles?); record the vmscan"
				" tracepoints: perf record -e 'vmscan:*' -a", p->path);
	if (parse_tracing_data(p, &fs))
		return -1;
	if (!feature(p, bits, data.offset + data.size, HEADER_OSRELEASE, &fs))
		p->release = feature_string(p, &fs);
	if (!feature(p, bits, data.offset + data.size, HEADER_NRCPUS, &fs) && fs.size >= 4 &&
	    (int)get32(p->data + fs.offset) > 0 && get32(p->data + fs.offset) < 65536)
		p->cpus = (int)get32(p->data + fs.offset);
	if (read_records(p, &data))
		return -1;
	if (!p->samples)
		return vr_error("%s: no tracepoint samples in the perf.data (%llu other sample(s))",
				p->path, (unsigned long long)p->other_samples);
	qsort(p->items, p->nitems, sizeof(*p->items), cmp_item);
	p->dec = ingest_dat_decoder(p->path, p->tep);
	return 0;
}

static void ingest_close_perf(struct ingest_perf *p);

static struct ingest_perf *ingest_open_perf(const char *path, struct ingest_meta *meta)
{
	struct ingest_perf *p = vr_calloc(1, sizeof(*p));

	memset(meta, 0, sizeof(*meta));
	p->path = vr_strdup(path);
	if (open_perf(p)) {
		ingest_close_perf(p);
		return NULL;
	}
	meta->path = vr_strdup(path);
	meta->content_sha256 = ingest_sha256_file(path);
	meta->release = p->release ? vr_strdup(p->release) : NULL;
	meta->clock = vr_strdup("perf");
	meta->cpus = p->cpus;
	meta->long_size = tep_get_long_size(p->tep);
	meta->big_endian = tep_is_file_bigendian(p->tep);
	meta->page_size = tep_get_page_size(p->tep);
	meta->ring_overrun = -1;
	if (!meta->content_sha256) {
		ingest_meta_release(meta);
		ingest_close_perf(p);
		return NULL;
	}
	return p;
}

static int ingest_read_perf(struct ingest_perf *p, const struct ingest_sink *sink)
{
	struct ingest_event ev;
	int ret = 0;

	for (size_t i = 0; !ret && i < p->nitems; i++) {
		const struct perf_item *it = &p->items[i];
		const unsigned char *r = p->data + it->off;

		if (it->lost == -2) {
			char comm[17];
			size_t n = strnlen((const char *)r + 16, 16);

			memcpy(comm, r + 16, n);
			comm[n] = '\0';
			ingest_dat_note_comm(p->dec, it->tid, comm, it->ts_ns);
		} else if (it->lost >= 0) {
			ret = sink->lost ? sink->lost(sink->arg, it->cpu < 0 ? 0 : it->cpu, it->ts_ns,
						      it->lost) : 0;
		} else {
			struct tep_record rec = {
				.ts = it->ts_ns, .offset = it->off, .size = (int)it->raw_size,
				.cpu = it->cpu, .data = (void *)(r + it->raw_off),
			};

			ret = ingest_dat_decode(p->dec, &rec, &ev) ?: sink->event(sink->arg, &ev);
		}
	}
	return ret ? ret : ingest_dat_emit_tasks(p->dec, sink);
}

static size_t ingest_perf_nevents(const struct ingest_perf *p)
{
	return (size_t)p->samples;
}

static int ingest_perf_has_field(void *arg, const char *system, const char *event, const char *field)
{
	struct ingest_perf *p = arg;
	struct tep_event *ev = tep_find_event_by_name(p->tep, system, event);

	if (!ev)
		return 0;
	return !field || tep_find_field(ev, field) != NULL;
}

static int ingest_perf_quality(const struct ingest_perf *p,
			int (*quality)(void *arg, const char *item, int64_t count,
				       const char *detail),
			void *arg)
{
	int ret = quality ? quality(arg, "perf_samples", (int64_t)p->samples,
				    "perf.data tracepoint samples, decoded with the formats of its"
				    " tracing data") : 0;

	if (!ret && p->lost_records) {
		vr_warn("%s: %llu lost-events record(s) of perf, %llu event(s) lost", p->path,
			(unsigned long long)p->lost_records, (unsigned long long)p->lost_total);
		ret = quality ? quality(arg, "perf_lost_records", (int64_t)p->lost_records,
					"PERF_RECORD_LOST(_SAMPLES) records; stored in lost_events")
			      : 0;
	}
	if (!ret && p->other_samples && quality)
		ret = quality(arg, "perf_other_samples", (int64_t)p->other_samples,
			      "samples of events that are no tracepoint (not stored)");
	return ret;
}

static void ingest_close_perf(struct ingest_perf *p)
{
	if (!p)
		return;
	ingest_close_dat(p->dec);
	if (p->tep)
		tep_free(p->tep);
	for (size_t i = 0; i < p->nattr; i++)
		free(p->attr[i].ids);
	free(p->attr);
	free(p->items);
	free(p->release);
	if (p->data)
		munmap((void *)p->data, p->len);
	free(p->path);
	free(p);
}

/* ---- the reader (struct ingest_reader, ingest-source.c's reader_for()) --- */

/* "6.18.44-vanilla" looks like a release; "vanilla" does not. */
static bool looks_like_release(const char *s)
{
	int major, minor;

	return s && sscanf(s, "%d.%d", &major, &minor) == 2 && major >= 2 && major < 100 &&
	       minor >= 0;
}

static void *perf_open(const char *path, const struct ingest_head *h, const struct ingest_opts *o,
		       char **sha256, struct ingest_meta *meta)
{
	struct ingest_perf *p = ingest_open_perf(path, meta);

	(void)h;
	(void)sha256;
	if (p && looks_like_release(o->release)) {	/* --kernel over the osrelease */
		free(meta->release);
		meta->release = vr_strdup(o->release);
	}
	return p;
}

static int perf_read(void *state, const struct ingest_sink *sink)
{
	return ingest_read_perf(state, sink);
}

/* Every sample is indexed when the file opens: 1 of 1 done. */
static void perf_progress(const void *state, uint64_t *done, uint64_t *total, uint64_t *events)
{
	*done = *total = 1;
	*events = ingest_perf_nevents(state);
}

static int perf_quality(const void *state,
			int (*quality)(void *, const char *, int64_t, const char *), void *arg)
{
	return ingest_perf_quality(state, quality, arg);
}

static void perf_close(void *state)
{
	ingest_close_perf(state);
}

const struct ingest_reader ingest_perf_reader = {
	.format = "perf.data",
	.fields_printed = false,
	.open = perf_open,
	.read = perf_read,
	.progress = perf_progress,
	.has_field = ingest_perf_has_field,
	.quality = perf_quality,
	.close = perf_close,
};
