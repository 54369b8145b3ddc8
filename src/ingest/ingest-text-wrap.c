// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-text-wrap.c - event lines that a terminal or a mail client
 * wrapped, joined again.  A terminal cuts a line at its width wherever
 * that falls, inside a word too ("nr_writ" / "eback=0"): the pieces join
 * directly.  A mail client breaks at a space and drops it ("200.000100:"
 * / "mm_vmscan_kswapd_wake: nid=0"): the pieces join after a space.  Which
 * one happened is read from the text: a body is "label=value" words
 * (TP_printk() of include/trace/events/vmscan.h and the others), with the
 * labels and value kinds the body decoder knows for the event (a number
 * for a numeric field), so the join whose words at each seam are such
 * words is the one; at a seam in the header, the join that parses as an
 * event header.  Every way of joining the pieces is tried; exactly one
 * must read right.  None, or several that read differently, is an error:
 * never a guess.
 */
#include "ingest-text-priv.h"

#include <ctype.h>
#include <string.h>

#define REJOIN_MAX_TRIES 4096	/* joins tried for one event, at most */
#define REJOIN_MAX_LINE (64 * 1024)	/* a joined event line, as a line */

static bool is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/* A decimal or 0x number (with @partial: the start of one). */
static bool number_ok(const char *v, size_t n, bool partial)
{
	size_t i = n && v[0] == '-';

	if (i == n)
		return partial;
	if (v[i] == '0' && i + 1 < n && (v[i + 1] == 'x' || v[i + 1] == 'X')) {
		if (i + 2 == n)
			return partial;
		for (i += 2; i < n; i++)
			if (!isxdigit((unsigned char)v[i]))
				return false;
		return true;
	}
	for (; i < n; i++)
		if (!isdigit((unsigned char)v[i]))
			return false;
	return true;
}

/* The event a candidate line names, for its labels. */
struct seam_event {
	int spec;
	char name[132];
};

/*
 * Is @t (@n bytes) a body word "label=value" of event @e (a label it has,
 * a number where its field is numeric, no second '='), or the "==>" of
 * sched_switch?  With @partial, also the start of one that the next line
 * goes on with ("nr_writ", "nr_writeback=", "nr_scanned=3").
 */
static bool kv_word(const char *t, size_t n, bool partial, const struct seam_event *e)
{
	size_t i = 0;
	enum text_label_kind kind;

	if (n == 3 && !memcmp(t, "==>", 3))
		return true;
	while (i < n && is_ident((unsigned char)t[i]))
		i++;
	if (!i)
		return false;
	if (i == n)	/* a label the next line goes on with */
		return partial && ingest_text_label_prefix(e->spec, e->name, t, n);
	if (t[i] != '=')
		return false;
	kind = ingest_text_label_kind(e->spec, e->name, t, i);
	if (kind == TL_UNKNOWN || memchr(t + i + 1, '=', n - i - 1))
		return false;
	if (i + 1 == n)
		return partial;
	return kind != TL_NUMBER || number_ok(t + i + 1, n - i - 1, partial);
}

static void seam_event_of(const struct line_prefix *p, struct seam_event *e)
{
	size_t l = p->name_len < sizeof(e->name) - 1 ? p->name_len : sizeof(e->name) - 1;

	memcpy(e->name, p->name, l);
	e->name[l] = '\0';
	e->spec = -1;
	for (size_t i = 0; i < vr_event_specs_count; i++)
		if (!strcmp(vr_event_specs[i].name, e->name))
			e->spec = (int)i;
}

/*
 * Does @s (@n bytes), joined at @at (the first byte from the
 * continuation), read right?  @sep: joined after a space.  @more: more
 * continuation lines follow (the last word may go on there).
 */
static bool seam_ok(struct text_ctx *c, const char *s, size_t n, size_t at, bool sep, bool more)
{
	struct line_prefix p;
	struct seam_event e;
	const char *why = NULL;
	size_t body, a0, aend = sep ? at - 1 : at, b1 = at;
	int r = ingest_text_prefix(s, n, &p, &why);

	if (r <= 0)	/* the header is still cut: fine if lines follow */
		return r == 0 && more && ingest_text_header_fragment(c, s, n);
	body = (size_t)(p.body - s);
	if (at <= body)
		return true;	/* the seam is in the header, which parses */
	seam_event_of(&p, &e);
	a0 = aend;
	while (a0 > body && s[a0 - 1] != ' ')
		a0--;
	while (b1 < n && s[b1] != ' ')
		b1++;
	bool last = b1 == n && more;

	if (!sep)
		return kv_word(s + a0, b1 - a0, last, &e);
	return (a0 == aend || kv_word(s + a0, aend - a0, false, &e)) &&
	       kv_word(s + at, b1 - at, last, &e);
}

/*
 * A continuation that keeps its blanks (or follows one) joins as it is,
 * but only where its first word, at @at, reads right too: a label=value
 * word of the event (or the header still being put together).  Not an
 * event line printed in another layout, a stack trace's header, prose.
 */
static bool plain_seam_ok(struct text_ctx *c, const char *s, size_t n, size_t at, bool more)
{
	struct line_prefix p;
	struct seam_event e;
	const char *why = NULL;
	size_t b1 = at;
	int r = ingest_text_prefix(s, n, &p, &why);

	if (r <= 0)
		return r == 0 && more && ingest_text_header_fragment(c, s, n);
	if (at <= (size_t)(p.body - s) || at >= n)
		return true;
	seam_event_of(&p, &e);
	while (b1 < n && s[b1] != ' ' && s[b1] != '\t')
		b1++;
	return kv_word(s + at, b1 - at, b1 == n && more, &e);
}

/* The search over the ways to join one event's lines. */
struct rejoin {
	struct text_ctx *c;
	const struct text_part *parts;
	size_t n;
	unsigned tries;
	unsigned found;			/* joins that read right, distinct */
	struct vr_buf result;		/* the first of them */
	uint32_t dead_line;		/* the last line some join reached: where
					 * every way of joining failed */
	uint32_t split_line;		/* the first line read both ways */
};

/* @p's bytes without a trailing CR. */
static size_t part_len(const struct text_ctx *c, const struct text_part *p)
{
	size_t n = p->len;

	while (n && c->buf[p->off + n - 1] == '\r')
		n--;
	return n;
}

/* Do event lines @x and @y say the same (spaces where they do not count
 * aside: "end:nr_reclaimed=12" is "end: nr_reclaimed=12")? */
static bool same_event(const struct line_prefix *x, const struct line_prefix *y)
{
	return x->ts_ns == y->ts_ns && x->pid == y->pid && x->cpu == y->cpu &&
	       x->comm_len == y->comm_len && !memcmp(x->comm, y->comm, x->comm_len) &&
	       x->name_len == y->name_len && !memcmp(x->name, y->name, x->name_len) &&
	       x->body_len == y->body_len && !memcmp(x->body, y->body, x->body_len);
}

/* A join that reads right (@p, parsed from @line). */
static void found(struct rejoin *r, const struct vr_buf *line, const struct line_prefix *p)
{
	struct line_prefix first;
	const char *why = NULL;

	if (r->found && ingest_text_prefix(r->result.buf, r->result.len, &first, &why) == 1 &&
	    same_event(&first, p))
		return;
	if (!r->found++)
		vr_buf_add(&r->result, line->buf, line->len);
}

/* Join part @i and the rest to @acc, every way that reads right. */
static void search(struct rejoin *r, size_t i, const struct vr_buf *acc)
{
	struct line_prefix p;
	const char *why = NULL;
	const char *b;
	size_t bn, at = acc->len;
	bool plain, ok_any = false;

	if (i == r->n) {
		if (ingest_text_prefix(acc->buf, acc->len, &p, &why) == 1)
			found(r, acc, &p);
		return;
	}
	if (r->tries++ > REJOIN_MAX_TRIES || at > REJOIN_MAX_LINE)
		return;
	if (r->parts[i].lineno > r->dead_line)
		r->dead_line = r->parts[i].lineno;
	b = r->c->buf + r->parts[i].off;
	bn = part_len(r->c, &r->parts[i]);
	/* a space at the seam: nothing was removed */
	plain = !bn || (at && (acc->buf[at - 1] == ' ' || acc->buf[at - 1] == '\t')) || *b == ' ' ||
		*b == '\t';
	for (int sep = 0; sep < (plain ? 1 : 2); sep++) {
		struct vr_buf j;

		vr_buf_init(&j);
		vr_buf_add(&j, acc->buf, at);
		if (sep)
			vr_buf_addstr(&j, " ");
		vr_buf_add(&j, b, bn);
		size_t w = at;

		while (plain && w < j.len && (j.buf[w] == ' ' || j.buf[w] == '\t'))
			w++;
		if (plain ? plain_seam_ok(r->c, j.buf, j.len, w, i + 1 < r->n) :
			    seam_ok(r->c, j.buf, j.len, at + (size_t)sep, sep, i + 1 < r->n)) {
			if (ok_any && !r->split_line)
				r->split_line = r->parts[i].lineno;
			ok_any = true;
			search(r, i + 1, &j);
		}
		vr_buf_release(&j);
	}
}

int ingest_text_rejoin(struct text_ctx *c, const struct text_part *parts, size_t n, size_t *off,
		       uint32_t *len)
{
	struct rejoin r = { .c = c, .parts = parts, .n = n };
	struct vr_buf head;
	int ret = 0;

	vr_buf_init(&r.result);
	vr_buf_init(&head);
	vr_buf_add(&head, c->buf + parts[0].off, part_len(c, &parts[0]));
	search(&r, 1, &head);
	if (r.tries > REJOIN_MAX_TRIES)
		ret = vr_error("%s:%u: lines %u-%u (an event line and its wrapped lines?) can be"
			       " joined too many ways; join them by hand", c->name, parts[0].lineno,
			       parts[0].lineno, parts[n - 1].lineno);
	else if (!r.found)
		ret = vr_error("%s:%u: this line is no event line; as the continuation of the"
			       " event at line %u (a wrapped line?) it reads as label=value"
			       " neither joined directly nor after a space", c->name,
			       r.dead_line, parts[0].lineno);
	else if (r.found > 1)
		ret = vr_error("%s:%u: this line continues the event at line %u (a wrapped line?)"
			       " and reads both joined directly and after a space; join it by hand",
			       c->name, r.split_line, parts[0].lineno);
	else if (r.result.len > REJOIN_MAX_LINE)
		ret = vr_error("%s:%u: lines %u-%u joined are over 64 KiB; not a text trace",
			       c->name, parts[0].lineno, parts[0].lineno, parts[n - 1].lineno);
	if (!ret) {
		*off = c->joined.len;
		*len = (uint32_t)r.result.len;
		vr_buf_add(&c->joined, r.result.buf, r.result.len);
	}
	vr_buf_release(&r.result);
	vr_buf_release(&head);
	return ret;
}
