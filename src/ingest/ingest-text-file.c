// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-text-file.c - the file side of text traces: format sniffing for
 * `load`, mapping the file (or the scratch file ingest-text-stream.c wrote a
 * pipe's or a compressed text's text to) and running the pure parser of
 * ingest-text.c over it.
 */
#include "ingest-priv.h"
#include "vr.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

struct ingest_text {
	const char *data;	/* mapped file, or "" when empty */
	size_t len;
	int fd;			/* the mapped file, kept open to tell whether it
				 * changed while it was read; -1 */
	struct stat st;		/* its stat when it was mapped */
	char *path;
	char *release;		/* owned, or NULL */
	struct ingest_text_stats stats;
	struct ingest_text_parser *tp;
};

/* "6.18.44-vanilla" looks like a release; "vanilla" does not. */
static bool looks_like_release(const char *s)
{
	int major, minor;

	return s && sscanf(s, "%d.%d", &major, &minor) == 2 && major >= 2 && major < 100 &&
	       minor >= 0;
}

/* Map @fd (the text of @path, which t->fd takes over) into @t. */
static int map_file(struct ingest_text *t, const char *path, int fd)
{
	t->fd = fd;
	if (fd < 0)
		return -1;
	if (fstat(fd, &t->st) || !S_ISREG(t->st.st_mode))
		return vr_error("%s: not a regular file", path);
	t->data = "";
	if (t->st.st_size > 0) {
		void *p = mmap(NULL, (size_t)t->st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (p == MAP_FAILED)
			return vr_error("%s: cannot map: %s", path, strerror(errno));
		madvise(p, (size_t)t->st.st_size, MADV_SEQUENTIAL);
		t->data = p;
		t->len = (size_t)t->st.st_size;
	}
	return 0;
}

/* The text file @path, opened; -1 after the message. */
static int open_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		vr_error("%s: %s", path, strerror(errno));
	return fd;
}

/*
 * Has the mapped file of @t changed since it was mapped (truncated, grown,
 * written in place)?  A mapping shows a file's pages as they are now, not
 * as they were: the text read may be neither the old file nor the new.
 * -1 after "PATH: changed while it was read (...)", else 0.
 */
static int check_unchanged(const struct ingest_text *t)
{
	struct stat now;

	if (fstat(t->fd, &now))
		return vr_error("%s: cannot tell whether it changed while it was read: %s", t->path,
				strerror(errno));
	if (now.st_size != t->st.st_size)
		return vr_error("%s: changed while it was read (size was %lld bytes, now %lld)",
				t->path, (long long)t->st.st_size, (long long)now.st_size);
	if (now.st_mtim.tv_sec != t->st.st_mtim.tv_sec ||
	    now.st_mtim.tv_nsec != t->st.st_mtim.tv_nsec)
		return vr_error("%s: changed while it was read (size %lld bytes, written to"
				" meanwhile)", t->path, (long long)now.st_size);
	return 0;
}

struct ingest_text *ingest_open_text(const char *path, const struct ingest_head *h,
				     const char *release, const volatile sig_atomic_t *stop,
				     struct ingest_meta *meta)
{
	struct ingest_text *t = vr_calloc(1, sizeof(*t));
	struct ingest_text_opts opts;
	bool stream = h && (h->kind == INGEST_KIND_PIPE || h->kind == INGEST_KIND_TEXT_COMPRESSED);
	char *sha = NULL;
	size_t skip;

	memset(meta, 0, sizeof(*meta));
	meta->ring_overrun = -1;	/* text carries no ring-buffer stats */
	t->path = vr_strdup(path);
	t->fd = -1;
	/* a pipe's or a compressed text: its text, once, in a scratch file */
	if (map_file(t, path, stream ? ingest_text_stream(path, h, stop, &sha) : open_file(path)))
		goto fail;
	if (looks_like_release(release))
		t->release = vr_strdup(release);
	opts.release = t->release;
	/* a UTF-8 byte order mark (EF BB BF, as editors on Windows save a
	 * file) is no part of the first line: not its comm */
	skip = t->len >= 3 && !memcmp(t->data, "\xef\xbb\xbf", 3) ? 3 : 0;
	t->tp = ingest_text_index(path, t->data + skip, t->len - skip, &opts, &t->stats);
	if (!t->tp)
		goto fail;
	meta->path = vr_strdup(path);
	meta->content_sha256 = sha ? sha : ingest_sha256_file(path);
	sha = NULL;
	meta->release = t->release ? vr_strdup(t->release) : NULL;
	meta->cpus = t->stats.cpus;
	meta->file_version = t->stats.file_version;
	if (!meta->content_sha256)
		goto fail;
	return t;
fail:
	free(sha);
	ingest_meta_release(meta);
	ingest_close_text(t);
	return NULL;
}

int ingest_read_text(struct ingest_text *t, const struct ingest_sink *sink)
{
	return ingest_text_emit(t->tp, sink) ?: check_unchanged(t);
}

size_t ingest_text_nevents(const struct ingest_text *t)
{
	return ingest_text_parser_nevents(t->tp);
}

const struct ingest_text_stats *ingest_text_stats(const struct ingest_text *t)
{
	return &t->stats;
}

int ingest_text_has_field(void *arg, const char *system, const char *event, const char *field)
{
	struct ingest_text *t = arg;

	(void)system;
	return ingest_text_parser_has_field(t->tp, event, field);
}

void ingest_close_text(struct ingest_text *t)
{
	if (!t)
		return;
	ingest_text_parser_free(t->tp);
	if (t->len)
		munmap((void *)t->data, t->len);
	if (t->fd >= 0)
		close(t->fd);
	free(t->path);
	free(t->release);
	free(t);
}

static int quality_item(int (*quality)(void *, const char *, int64_t, const char *), void *arg,
			const char *item, uint64_t count, const char *detail)
{
	return quality ? quality(arg, item, (int64_t)count, detail) : 0;
}

/* Warn "PATH: VERB COUNT WHAT (first at line FIRST_LINE[; NOTE])" and store
 * it as quality @item with that detail. */
static int lines_item(const struct ingest_text *t,
		      int (*quality)(void *, const char *, int64_t, const char *), void *arg,
		      const char *item, uint64_t count, uint64_t first_line, const char *verb,
		      const char *what, const char *note)
{
	char detail[160];

	snprintf(detail, sizeof(detail), "first at line %llu%s%s", (unsigned long long)first_line,
		 note ? "; " : "", note ? note : "");
	vr_warn("%s: %s%llu %s (%s)", t->path, verb, (unsigned long long)count, what, detail);
	return quality_item(quality, arg, item, count, detail);
}

int ingest_text_quality(const struct ingest_text *t,
			int (*quality)(void *arg, const char *item, int64_t count,
				       const char *detail),
			void *arg)
{
	const struct ingest_text_stats *s = &t->stats;
	char detail[160];
	int ret;

	snprintf(detail, sizeof(detail), "text trace, %s timestamps; fields a line does not"
		 " print are NULL", s->us_only ? "microsecond" : "nanosecond");
	ret = quality_item(quality, arg, "text_source", s->events, detail);
	if (!ret && s->skipped)
		ret = lines_item(t, quality, arg, "text_skipped_lines", s->skipped,
				 s->first_skipped, "skipped ", "line(s) that are not trace events",
				 NULL);
	if (!ret && s->rejoined)
		ret = lines_item(t, quality, arg, "text_rejoined_lines", s->rejoined,
				 s->first_rejoined, "rejoined ",
				 "wrapped line(s) to the event lines before them",
				 "wrapped lines (terminal or mail) joined to the event line before them");
	if (!ret && s->gaps)
		ret = lines_item(t, quality, arg, "text_excerpt_gaps", s->gaps, s->first_gap,
				 "", "gap(s) where lines were cut out ('[...]', '<snip>' and such)",
				 "events on both sides loaded, nothing paired across a gap");
	if (!ret && s->truncated) {
		vr_warn("%s: last line has no newline (cut off?); skipped", t->path);
		ret = quality_item(quality, arg, "text_truncated_line", 1, "last line skipped");
	}
	if (!ret && s->bad_fields)
		ret = lines_item(t, quality, arg, "text_bad_fields", s->bad_fields,
				 s->first_bad_field, "", "field value(s) could not be read",
				 "stored NULL, text in extra");
	if (!ret && s->failed_to_parse) {
		vr_warn("%s: %llu event(s) printed as [FAILED TO PARSE]; their fields are NULL",
			t->path, (unsigned long long)s->failed_to_parse);
		ret = quality_item(quality, arg, "text_failed_to_parse", s->failed_to_parse,
				   "fields NULL, text in extra");
	}
	if (!ret && s->symbolic)
		ret = quality_item(quality, arg, "text_symbolic_values", s->symbolic,
				   "gfp flag names, task states or statuses whose numbers depend"
				   " on the kernel build: NULL, text in extra");
	if (!ret && s->reordered) {
		vr_warn("%s: %llu event line(s) earlier than the line before (the first: line %llu,"
			" %.6f s before it); sorted by time stamp", t->path,
			(unsigned long long)s->reordered, (unsigned long long)s->first_reordered,
			(double)s->first_reordered_ns / 1e9);
		ret = quality_item(quality, arg, "text_reordered_lines", s->reordered,
				   "lines earlier than the line before; sorted by timestamp");
	}
	if (!ret && s->cpus_empty)
		ret = quality_item(quality, arg, "text_cpus_empty", s->cpus_empty,
				   "'CPU N is empty' lines: those CPUs recorded no events");
	if (!ret && s->lost_markers)
		ret = quality_item(quality, arg, "text_lost_markers", s->lost_markers,
				   "CPU:N [LOST N EVENTS] lines");
	return ret;
}
