/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ingest-text-priv.h - state shared by the two halves of the text trace
 * parser: ingest-text.c (lines, prefixes, sorting, emitting) and
 * ingest-text-body.c (event bodies -> spec fields).  Not a public API.
 */
#ifndef VR_INGEST_TEXT_PRIV_H
#define VR_INGEST_TEXT_PRIV_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include "ingest-priv.h"
#include "vr.h"

struct text_entry;

/* The parsed start of an event line. */
struct line_prefix {
	const char *comm;
	size_t comm_len;
	int pid, cpu;
	uint64_t ts_ns;
	int ts_decimals;
	const char *name, *body;
	size_t name_len, body_len;
};

/* A physical line of the event being gathered: its header line (an event
 * line, or a header cut after the timestamp) and the lines continuing it. */
struct text_part {
	size_t off;		/* in the buffer, after any mail quote prefix */
	uint32_t len;		/* without the newline */
	uint32_t lineno;	/* 1-based */
};

/* One parse: the input, the index of its lines and per-event buffers. */
struct text_ctx {
	const char *name;
	const char *buf;
	size_t len;
	const struct ingest_sink *sink;
	struct ingest_text_stats *st;
	bool zone_new;			/* classzone label -> highest_zoneidx */
	bool gfp_6_18;			/* gfp flag names have 6.18's values */
	struct text_entry *ent;
	size_t nent, aent;
	struct vr_buf json;
	struct vr_buf text[VR_SPEC_MAX_FIELDS];
	struct vr_buf evname;
	struct ingest_tasks *tasks;	/* comms of each pid over time */
	uint32_t *seen;			/* per spec: fields its lines carry */
	uint32_t printed;		/* fields the current line prints, whatever
					 * their value (a name is printed too) */
	bool *seen_event;		/* per spec: the event occurs */
	size_t *first;			/* per spec: index of its first line */
	bool bad_value;			/* the body last decoded has a value out of
					 * range: an error, said by bad_why */
	char bad_why[160];
	int64_t lost_total;		/* sum of the known lost-events counts so
					 * far: it must fit run.lost_events */
	struct text_part *part;		/* the event being gathered (pass 1) */
	size_t npart, apart;
	bool part_header_only;		/* part[0] is a header without its event */
	struct line_prefix head;	/* part[0] parsed, unless header only */
	struct vr_buf joined;		/* rejoined event lines (text_entry.joined) */
	struct vr_buf scratch;		/* header_fragment()'s copy */
	bool gap_open;			/* the last entry is a gap (no event since) */
};

/**
 * ingest_text_prefix - parse the start of event line @s (@n bytes):
 * "COMM-PID [CPU] FLAGS TIMESTAMP: EVENT: BODY" in its layouts (file
 * comment of ingest-text.c).  Returns 1 with @p filled (pointing into
 * @s), 0 if @s is not an event line, -1 with *@why set for an event line
 * with an absurd pid, CPU or timestamp.
 */
int ingest_text_prefix(const char *s, size_t n, struct line_prefix *p, const char **why);

/**
 * ingest_text_header_fragment - is @s (@n bytes) an event line cut after
 * its timestamp, or inside its event name ("... 200.000100:", "...
 * 200.000100: mm_vmscan_lru_shr"), as a wrap leaves it?  Uses c->scratch.
 */
bool ingest_text_header_fragment(struct text_ctx *c, const char *s, size_t n);

/* Lines continuing one event, at most (a 64 KiB event line wrapped at
 * ~1 KiB; an 80-column wrap of any vmscan event needs a handful). */
#define TEXT_MAX_PARTS 64

/**
 * ingest_text_rejoin - join the @n >= 2 physical lines @parts of one
 * event (a terminal's hard wrap at a column, a mail client's soft wrap at
 * a space that it removed) into one line appended to c->joined: each
 * continuation either directly or after a space, whichever reads as the
 * event's key=value body (or its header, when the wrap cut the header).
 * *@off and *@len: where in c->joined.  0, or -1 after
 * "NAME:LINE: ..." for a continuation that reads neither way, or both ways
 * differently (never a guess), or lines that joined are no event line.
 */
int ingest_text_rejoin(struct text_ctx *c, const struct text_part *parts, size_t n, size_t *off,
		       uint32_t *len);

/**
 * ingest_text_body - decode event body @body (@n bytes) of event @ename
 * (spec index @spec, -1 for other events) into @ev's fields, leaving labels
 * without a field, and values that cannot be read, in c->json; @lineno for
 * the bad-field counter.  What cannot be read is counted; a number too big
 * for its field (beyond 64 bits, or beyond 32 bits for a field the kernel
 * declares int) sets c->bad_value and c->bad_why ("nid=... out of range"),
 * for the caller to report as an error.
 */
void ingest_text_body(struct text_ctx *c, int spec, const char *ename, const char *body,
		      size_t n, struct ingest_event *ev, uint32_t lineno);

/* What the value of a label may look like (ingest_text_label_kind()). */
enum text_label_kind {
	TL_UNKNOWN,	/* the event is known and has no such label */
	TL_NUMBER,	/* a decimal or 0x number (a numeric field, CV_NUM) */
	TL_ANY,		/* names, flags, symbols, text; or an unknown event */
};

/**
 * ingest_text_label_kind - label @l (@ll bytes) of event @ename (spec
 * index @spec, -1 for events without one), by the label maps and spec
 * fields the body decoder uses.
 */
enum text_label_kind ingest_text_label_kind(int spec, const char *ename, const char *l,
					    size_t ll);

/* ingest_text_label_prefix - could label @l (@ll bytes) of event @ename go
 * on to one the event has (a label a wrap cut)?  Always, for spec -1. */
bool ingest_text_label_prefix(int spec, const char *ename, const char *l, size_t ll);

/**
 * ingest_text_json_add - append "key":value to c->json (opening it with
 * '{' when empty); a plain decimal value becomes a JSON number when
 * @as_number, anything else a JSON string.
 */
void ingest_text_json_add(struct text_ctx *c, const char *key, size_t klen, const char *v,
			  size_t vlen, bool as_number);

#endif /* VR_INGEST_TEXT_PRIV_H */
