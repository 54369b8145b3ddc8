// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-dat-check.c - walk the headers of a version 6 trace.dat before
 * libtracecmd sees them, so that a corrupt file is an error with an offset
 * instead of undefined behaviour inside the library.  Layout from
 * trace-cmd.dat.v6(5) (trace-cmd Documentation/trace-cmd/
 * trace-cmd.dat.v6.5.txt): magic, version string, endianness, long size,
 * page size; header_page and header_event (u64 sizes); ftrace formats (u32
 * count, u64 sizes); event systems (u32 count; name, u32 count, u64 sizes);
 * kallsyms and printk formats (u32 sizes); saved cmdlines (u64 size); u32
 * CPU count; optional "options  " (u16 id, u32 size, data; id 0 ends);
 * "flyrecord" with a u64 offset and size per CPU, or "latency  ".
 *
 * Found by tests/fuzz/fuzz-dat.c: libtracecmd 3.1.6 strdup()s the uname,
 * version, date and hook options without checking that the data holds a
 * terminating NUL (a heap over-read; tests/fuzz/crashes/dat-uname-unterminated).
 * Version 7 files: their BUFFER options and compressed chunk tables
 * (walk_v7() below); the rest is left to libtracecmd.
 */
#define _GNU_SOURCE	/* memmem */
#include "ingest-priv.h"
#include "vr.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct dat_walk {
	const unsigned char *d;
	size_t len, pos;
	bool big_endian;
	uint64_t page_size;	/* ring-buffer page size from the file header */
	int commit_size;	/* bytes of header_page's `commit` (kernel long) */
	const char *path;
	const char *what;	/* section being read, for messages */
};

static int walk_fail(struct dat_walk *w, const char *why)
{
	return vr_error("%s: corrupt or truncated trace.dat: %s at offset %zu %s", w->path,
			w->what, w->pos, why);
}

static int need(struct dat_walk *w, uint64_t n)
{
	if (n > w->len - w->pos)
		return walk_fail(w, "runs past the end of the file");
	return 0;
}

static int read_num(struct dat_walk *w, int size, uint64_t *out)
{
	uint64_t v = 0;

	if (need(w, (uint64_t)size))
		return -1;
	for (int i = 0; i < size; i++) {
		int b = w->big_endian ? i : size - 1 - i;

		v = v << 8 | w->d[w->pos + (size_t)b];
	}
	w->pos += (size_t)size;
	*out = v;
	return 0;
}

/* A u32/u64 size followed by that many bytes. */
static int skip_sized(struct dat_walk *w, int size_bytes, const char *what)
{
	uint64_t n;

	w->what = what;
	if (read_num(w, size_bytes, &n) || need(w, n))
		return -1;
	w->pos += (size_t)n;
	return 0;
}

static int expect_str(struct dat_walk *w, const char *s, size_t n, const char *what)
{
	w->what = what;
	if (need(w, n))
		return -1;
	if (memcmp(w->d + w->pos, s, n))
		return walk_fail(w, "does not start as expected");
	w->pos += n;
	return 0;
}

/* A NUL-terminated name of at most 256 bytes. */
static int skip_name(struct dat_walk *w, const char *what)
{
	size_t max = w->len - w->pos < 256 ? w->len - w->pos : 256;

	w->what = what;
	const unsigned char *z = memchr(w->d + w->pos, 0, max);

	if (!z)
		return walk_fail(w, "is not a terminated string");
	w->pos = (size_t)(z - w->d) + 1;
	return 0;
}

static int walk_events(struct dat_walk *w)
{
	uint64_t n, systems, events;

	w->what = "ftrace event formats";
	if (read_num(w, 4, &n))
		return -1;
	for (uint64_t i = 0; i < n; i++)
		if (skip_sized(w, 8, "ftrace event format"))
			return -1;
	w->what = "event systems";
	if (read_num(w, 4, &systems))
		return -1;
	for (uint64_t s = 0; s < systems; s++) {
		if (skip_name(w, "event system name"))
			return -1;
		w->what = "event count";
		if (read_num(w, 4, &events))
			return -1;
		for (uint64_t e = 0; e < events; e++)
			if (skip_sized(w, 8, "event format"))
				return -1;
	}
	return 0;
}

/* Options whose data libtracecmd copies with strdup(): DATE 1, UNAME 5,
 * HOOK 6, VERSION 9 (trace-cmd.h enum TRACECMD_OPTION_*). */
static bool option_is_string(uint64_t id)
{
	return id == 1 || id == 5 || id == 6 || id == 9;
}

static int walk_options(struct dat_walk *w)
{
	uint64_t id, size;

	for (;;) {
		w->what = "option id";
		if (read_num(w, 2, &id))
			return -1;
		if (!id)
			return 0;
		w->what = "option size";
		if (read_num(w, 4, &size))
			return -1;
		w->what = "option data";
		if (need(w, size))
			return -1;
		if (option_is_string(id) && !memchr(w->d + w->pos, 0, (size_t)size))
			return walk_fail(w, "(a string option) has no terminating NUL");
		w->pos += (size_t)size;
	}
}

/*
 * Every ring-buffer page of one CPU: u64 timestamp, commit (kernel long),
 * data.  libtraceevent's kbuffer_load_subbuffer() takes the data size from
 * commit & (2^27 - 1) (kbuffer.c COMMIT_MASK) and, with the missed-events
 * bits 31 and 30 set, reads a long after the data: both must stay inside
 * the page (fuzz-dat: a larger size crashed kbuffer on the reader thread;
 * tests/fuzz/crashes/dat-page-commit).
 */
/*
 * The events of one page's @size data bytes at @at: each must end inside
 * the data, or kbuffer hands out a record that runs past the page and its
 * fields are read from beyond it.  Event headers as libtraceevent's
 * kbuffer.c translate_data() reads them: a u32 with type_len in its low 5
 * bits (high 5 on big-endian); 1-28: type_len * 4 bytes; 0: a u32 length
 * that counts itself; 30 (time extend): one more u32; 29 (padding) and 31
 * (absolute time stamp) end the walk of the page (their layout changed
 * between versions, so nothing after them is judged).
 */
static int walk_page_events(struct dat_walk *w, size_t at, uint64_t size)
{
	uint64_t i = 0, word, len;

	while (i + 4 <= size) {
		unsigned int type_len;

		w->pos = at + (size_t)i;
		if (read_num(w, 4, &word))
			return -1;
		type_len = w->big_endian ? (unsigned int)(word >> 27) : (unsigned int)(word & 31);
		i += 4;
		if (type_len == 29 || type_len == 31)
			return 0;
		if (type_len == 30) {
			len = 4;
		} else if (type_len == 0) {
			if (i + 4 > size || read_num(w, 4, &len))
				return walk_fail(w, "has an event length past the page data");
			if (len < 4)
				return walk_fail(w, "has an event length below 4");
			len = (len - 4 + 3) & ~(uint64_t)3;
			i += 4;
		} else {
			len = (uint64_t)type_len * 4;
		}
		if (len > size - i) {
			w->pos = at + (size_t)i - 4;
			return walk_fail(w, "has an event that runs past the page data");
		}
		i += len;
	}
	return 0;
}

/*
 * What a page header says that a zeroed page (a 4 KiB block of zeros in a
 * crash-damaged copy) contradicts: the kernel stamps every ring-buffer page
 * with the time of its first event (kernel/trace/ring_buffer.c,
 * rb_reset_tail()/rb_move_tail() set the new page's time stamp), so the
 * pages of one CPU, as trace-cmd splices them out in order, never go back
 * in time, and a page with a time stamp of 0 and no data is none the kernel
 * wrote between two written ones.  libtracecmd 3.1.6 reads such a page as
 * empty and loses its events without a word (trace-cmd report too).
 */
static int page_time(struct dat_walk *w, uint64_t p, uint64_t commit, uint64_t *prev_ts,
		     bool *any)
{
	uint64_t ts;
	char why[160];

	w->pos = (size_t)p;
	w->what = "ring-buffer page";
	if (read_num(w, 8, &ts))
		return -1;
	w->pos = (size_t)p;
	if (!ts && !(commit & ((1u << 27) - 1)))
		return walk_fail(w, "is zeroed (time stamp 0, no data) among the pages of its CPU:"
				 " a damaged copy?");
	if (*any && ts < *prev_ts) {
		snprintf(why, sizeof(why), "has the time stamp %llu, earlier than the page before it"
			 " (%llu): pages of one CPU never go back in time", (unsigned long long)ts,
			 (unsigned long long)*prev_ts);
		return walk_fail(w, why);
	}
	*prev_ts = ts;
	*any = true;
	return 0;
}

static int walk_pages(struct dat_walk *w, uint64_t off, uint64_t size)
{
	uint64_t hdr = 8 + (uint64_t)w->commit_size, commit, data, prev_ts = 0;
	size_t keep = w->pos;
	bool any = false;

	if (w->page_size < hdr + 8 || w->page_size > (1 << 27))
		return walk_fail(w, "has an impossible page size");
	for (uint64_t p = off; p < off + size; p += w->page_size) {
		uint64_t room = off + size - p < w->page_size ? off + size - p : w->page_size;

		w->pos = (size_t)p + 8;
		w->what = "ring-buffer page";
		if (room < hdr)
			return walk_fail(w, "is shorter than its header");
		if (read_num(w, w->commit_size, &commit))
			return -1;
		data = (commit & ((1u << 27) - 1)) +
		       ((commit & (1u << 30)) && (commit & (1u << 31)) ? (uint64_t)w->commit_size : 0);
		if (hdr + data > room)
			return walk_fail(w, "says it holds more data than the page has");
		if (page_time(w, p, commit, &prev_ts, &any))
			return -1;
		w->what = "ring-buffer event";
		if (walk_page_events(w, (size_t)(p + hdr), commit & ((1u << 27) - 1)))
			return -1;
	}
	w->pos = keep;
	return 0;
}

/*
 * Bytes past what a file records are refused before libtracecmd reads it:
 * a copy preallocated or damaged to 2 GiB of zeros after its data kept the
 * library reading it 8 bytes at a time for many minutes, deaf to SIGINT.
 * @end: where the last thing the file records ends; @slack: bytes of
 * alignment that may follow it.
 */
static int past_the_end(struct dat_walk *w, uint64_t end, uint64_t slack, const char *what)
{
	char why[256];

	if (w->len <= end + slack)
		return 0;
	w->pos = (size_t)end;
	w->what = what;
	snprintf(why, sizeof(why), "is followed by %llu more bytes that no section or size of the"
		 " file accounts for (%s; a preallocated or damaged copy?)",
		 (unsigned long long)(w->len - end),
		 memchr(w->d + end, 0, 1) && !memcmp(w->d + end, w->d + end + 1,
						     (size_t)(w->len - end - 1 < 4096 ?
							      w->len - end - 1 : 4096))
		 ? "zeros" : "data");
	return walk_fail(w, why);
}

static int walk_cpu_data(struct dat_walk *w, uint64_t cpus)
{
	uint64_t end = 0;

	for (uint64_t c = 0; c < cpus; c++) {
		uint64_t off, size;

		w->what = "CPU data offset";
		if (read_num(w, 8, &off) || read_num(w, 8, &size))
			return -1;
		if (off > w->len || size > w->len - off) {
			w->pos -= 16;
			return walk_fail(w, "points past the end of the file");
		}
		if (size && walk_pages(w, off, size))
			return -1;
		if (size && off + size > end)
			end = off + size;
	}
	/* the last CPU's data ends the file; with no data at all, trace-cmd
	 * may have padded the table to a page */
	return past_the_end(w, end ? end : w->pos, end ? 0 : w->page_size,
			    end ? "the end of the last CPU's data" : "the end of the CPU table");
}

/* header_page text: "field: local_t commit;\toffset:8;\tsize:8;..." */
static int header_page_commit(struct dat_walk *w, const unsigned char *t, size_t n)
{
	const unsigned char *c = memmem(t, n, "commit;", 7);
	const unsigned char *sz = c ? memmem(c, n - (size_t)(c - t), "size:", 5) : NULL;

	w->commit_size = sz && sz + 5 < t + n ? sz[5] - '0' : 0;
	if (w->commit_size != 4 && w->commit_size != 8)
		return walk_fail(w, "has no commit field of 4 or 8 bytes");
	return 0;
}

static int walk_v6(struct dat_walk *w)
{
	uint64_t v, cpus;

	w->what = "file header";
	if (need(w, 6))
		return -1;
	w->big_endian = w->d[w->pos] == 1;
	w->pos += 2;	/* endianness, long size */
	if (read_num(w, 4, &w->page_size) ||
	    expect_str(w, "header_page", 12, "header_page") || read_num(w, 8, &v) || need(w, v) ||
	    header_page_commit(w, w->d + w->pos, (size_t)v))
		return -1;
	w->pos += (size_t)v;
	if (expect_str(w, "header_event", 13, "header_event") ||
	    skip_sized(w, 8, "header_event") || walk_events(w) ||
	    skip_sized(w, 4, "kallsyms") || skip_sized(w, 4, "printk formats") ||
	    skip_sized(w, 8, "saved cmdlines"))
		return -1;
	w->what = "CPU count";
	if (read_num(w, 4, &cpus) || need(w, 10))
		return -1;
	if (!memcmp(w->d + w->pos, "options  ", 10)) {
		w->pos += 10;
		if (walk_options(w) || need(w, 10))
			return -1;
	}
	w->what = "data kind";
	if (!memcmp(w->d + w->pos, "latency  ", 10))
		return 0;
	if (expect_str(w, "flyrecord", 10, "flyrecord"))
		return -1;
	return walk_cpu_data(w, cpus);
}

/*
 * Version 7 (trace-cmd.dat.v7(5), trace-cmd Documentation/trace-cmd/
 * trace-cmd.dat.v7.5.txt; libtracecmd 3.1.6 lib/trace-cmd/trace-input.c):
 * after the magic and "7": endianness (1 byte), long size (1), page size
 * (u32), the compression algorithm and its version (strings, "none" when
 * not compressed), then the u64 offset of the first options section.  A
 * section is u16 id, u16 flags (bit 0: compressed), u32 description, u64
 * size, then its data; an options section (id 0) holds options (u16 id,
 * u32 size, data), its DONE option (id 0) the u64 offset of the next
 * options section or 0.  A BUFFER option (id 3) is u64 offset of the
 * buffer's data section, name and clock (strings), u32 page size, u32 CPU
 * count, then per CPU u32 id, u64 offset and u64 size of its data.  A
 * compressed CPU's data is u32 chunk count, then per chunk u32 compressed
 * size, u32 uncompressed size and the compressed bytes (trace-compress.c
 * tracecmd_load_chunks_info()); the recorded size covers the chunks (not
 * the count).
 *
 * Walked here: every BUFFER option's CPU data lies inside the file and,
 * when compressed, its chunk table covers exactly the recorded size with
 * whole pages.  libtracecmd 3.1.6 reads a chunk table whose count or sizes
 * were damaged as a CPU with less data, or none, and says nothing (a zeroed
 * 4 KiB block at the start of a CPU's data lost its events silently).
 * Options sections that are themselves compressed are left unwalked.
 */
enum { V7_OPT_DONE = 0, V7_OPT_BUFFER = 3, V7_SEC_COMPRESSED = 1 };

struct v7_walk {
	struct dat_walk *w;
	bool compressed;	/* the file's CPU data is compressed */
	char what[96];		/* the CPU being walked, for messages */
};

static int v7_chunks(struct v7_walk *v, uint64_t cpu, uint64_t off, uint64_t size)
{
	struct dat_walk *w = v->w;
	uint64_t count, zsize, usize, total = 0;

	snprintf(v->what, sizeof(v->what), "CPU %llu's compressed data", (unsigned long long)cpu);
	w->what = v->what;
	w->pos = (size_t)off;
	if (read_num(w, 4, &count))
		return -1;
	for (uint64_t i = 0; i < count && w->pos - off <= size + 4; i++) {
		if (read_num(w, 4, &zsize) || read_num(w, 4, &usize) || need(w, zsize))
			return -1;
		w->pos += (size_t)zsize;
		total += usize;
	}
	if (w->pos - off != size + 4) {
		char why[160];

		snprintf(why, sizeof(why), "has a table of %llu compressed chunks that covers %llu of"
			 " the %llu bytes the BUFFER option records", (unsigned long long)count,
			 (unsigned long long)(w->pos - off - 4), (unsigned long long)size);
		w->pos = (size_t)off;
		return walk_fail(w, why);
	}
	if (total % w->page_size) {
		w->pos = (size_t)off;
		return walk_fail(w, "has chunks that do not add up to whole ring-buffer pages");
	}
	return 0;
}

/* The BUFFER option at w->pos, @size bytes. */
static int v7_buffer(struct v7_walk *v, uint64_t size)
{
	struct dat_walk *w = v->w;
	size_t end = w->pos + (size_t)size, keep;
	uint64_t data_sec, page, cpus, id, off, len;

	w->what = "BUFFER option";
	if (read_num(w, 8, &data_sec) || skip_name(w, "BUFFER option name") ||
	    skip_name(w, "BUFFER option clock") || read_num(w, 4, &page) || read_num(w, 4, &cpus))
		return -1;
	for (uint64_t c = 0; c < cpus; c++) {
		w->what = "BUFFER option CPU data";
		if (w->pos + 20 > end)
			return walk_fail(w, "lists more CPUs than it holds");
		if (read_num(w, 4, &id) || read_num(w, 8, &off) || read_num(w, 8, &len))
			return -1;
		if (off > w->len || len > w->len - off) {
			w->pos -= 16;
			return walk_fail(w, "points past the end of the file");
		}
		keep = w->pos;
		if (len && v->compressed && v7_chunks(v, id, off, len))
			return -1;
		w->pos = keep;
	}
	w->pos = end;
	return 0;
}

/* One options section at @at: its BUFFER options; *@next: the next one,
 * whose offset the file holds at *@next_at. */
static int v7_options(struct v7_walk *v, uint64_t at, uint64_t *next, size_t *next_at)
{
	struct dat_walk *w = v->w;
	uint64_t id, flags, desc, size, oid, osize;
	size_t end;

	*next = 0;
	w->what = "options section";
	w->pos = (size_t)at;
	if (read_num(w, 2, &id) || read_num(w, 2, &flags) ||
	    read_num(w, 4, &desc) || read_num(w, 8, &size) || need(w, size))
		return -1;
	if (id != 0 || (flags & V7_SEC_COMPRESSED))
		return 0;	/* not walked: libtracecmd judges it */
	end = w->pos + (size_t)size;
	while (w->pos + 6 <= end) {
		w->what = "option";
		if (read_num(w, 2, &oid) || read_num(w, 4, &osize))
			return -1;
		if (osize > end - w->pos)
			return walk_fail(w, "runs past the end of its options section");
		if (oid == V7_OPT_DONE) {
			*next_at = w->pos;
			return osize == 8 ? read_num(w, 8, next) : 0;
		}
		if (oid == V7_OPT_BUFFER) {
			if (v7_buffer(v, osize))
				return -1;
		} else {
			w->pos += (size_t)osize;
		}
	}
	return 0;
}

/*
 * From its first options section on, a version 7 file is sections one
 * after the other (u16 id, u16 flags, u32 description, u64 size, data) to
 * its end, as trace-cmd writes them and libtracecmd 3.1.6 reads them: on
 * the samples the last one (the strings, id 15) ends the file exactly.  A
 * 16-byte header of zeros (an options section of no size: it would hold at
 * least its DONE option) or bytes past the last section are refused.
 */
static int v7_sections(struct dat_walk *w, uint64_t first)
{
	uint64_t id, flags, desc, size;

	w->pos = (size_t)first;
	while (w->len - w->pos >= 16) {
		size_t at = w->pos;

		w->what = "section";
		if (read_num(w, 2, &id) || read_num(w, 2, &flags) || read_num(w, 4, &desc) ||
		    read_num(w, 8, &size))
			return -1;
		if (!id && !size)
			return past_the_end(w, at, 0, "the end of the last section");
		if (size > w->len - w->pos) {
			w->pos = at;
			return walk_fail(w, "runs past the end of the file");
		}
		w->pos += (size_t)size;
	}
	return past_the_end(w, w->pos, 0, "the end of the last section");
}

static int walk_v7(struct dat_walk *w)
{
	struct v7_walk v = { .w = w };
	uint64_t next, first;
	size_t next_at;
	const char *algo;

	w->what = "file header";
	if (need(w, 6))
		return -1;
	w->big_endian = w->d[w->pos] == 1;
	w->pos += 2;	/* endianness, long size */
	if (read_num(w, 4, &w->page_size))
		return -1;
	if (!w->page_size || w->page_size & (w->page_size - 1) || w->page_size > (1 << 27))
		return walk_fail(w, "has an impossible page size");
	algo = (const char *)w->d + w->pos;
	if (skip_name(w, "compression algorithm") || skip_name(w, "compression version"))
		return -1;
	v.compressed = strcmp(algo, "none") != 0 && *algo;
	w->what = "first options offset";
	next_at = w->pos;
	if (read_num(w, 8, &next))
		return -1;
	first = next;
	for (int n = 0; next && n < 1024; n++) {	/* a loop of sections ends too */
		if (next >= w->len) {
			w->pos = next_at;
			w->what = "options section offset";
			return walk_fail(w, "points past the end of the file");
		}
		if (v7_options(&v, next, &next, &next_at))
			return -1;
	}
	return first && first < w->len ? v7_sections(w, first) : 0;
}

int ingest_dat_check_headers(const char *path)
{
	struct dat_walk w = { .path = path };
	struct stat st;
	void *map;
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return vr_error("%s: %s", path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < 13) {
		close(fd);
		return 0;	/* the magic check and libtracecmd say why */
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return 0;
	w.d = map;
	w.len = (size_t)st.st_size;
	/* magic (10 bytes), then the version as a string: only "6" is walked */
	if (!memcmp(w.d + 10, "6", 2)) {
		w.pos = 12;
		ret = walk_v6(&w);
	} else if (!memcmp(w.d + 10, "7", 2)) {
		w.pos = 12;
		ret = walk_v7(&w);
	}
	munmap(map, w.len);
	return ret;
}
