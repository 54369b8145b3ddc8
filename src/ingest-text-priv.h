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
#include "ingest.h"
#include "vr.h"

struct text_entry;

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
};

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

/**
 * ingest_text_json_add - append "key":value to c->json (opening it with
 * '{' when empty); a plain decimal value becomes a JSON number when
 * @as_number, anything else a JSON string.
 */
void ingest_text_json_add(struct text_ctx *c, const char *key, size_t klen, const char *v,
			  size_t vlen, bool as_number);

#endif /* VR_INGEST_TEXT_PRIV_H */
