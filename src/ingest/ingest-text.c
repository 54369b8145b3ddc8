// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-text.c - read text traces into the same struct ingest_event stream
 * as the trace.dat reader: `trace-cmd report` output (plain, -l latency
 * flags, -t nanoseconds, -R raw fields), ftrace `trace` / `trace_pipe`
 * dumps (kernel/trace/trace_output.c: "TASK-PID [CPU] FLAGS TIMESTAMP:
 * EVENT: BODY", the flags column 4 characters before 5.15 and 5 after, none
 * with irq-info off, the "( TGID)" column with record-tgid) and Android
 * systrace text.
 *
 * Two passes over the bytes: the first checks every line and records the
 * timestamp, CPU and position of each event line and lost-events marker;
 * the entries are sorted by (timestamp, line) - a stable sort - and the
 * second pass decodes the bodies in that order into the sink.  Memory is
 * one small entry per line; the text itself is not copied.
 *
 * Event bodies are decoded by ingest-text-body.c.  Pure: bytes in, events
 * out through struct ingest_sink; the file side is ingest-text-file.c.
 */
#define _GNU_SOURCE	/* memmem */
#include "ingest-priv.h"
#include "ingest-text-priv.h"
#include "vr.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define TEXT_MAX_LINE (64 * 1024)	/* longer lines are an error: an event
					 * body fits in one ring-buffer page */
#define TEXT_MAX_BACK_NS 1000000000ull	/* an event line this much before the one
					 * before it is an error (check_order()) */
#define TEXT_MAX_CPU 65535

/* One event line or lost marker, in file order before the sort. */
struct text_entry {
	uint64_t ts_ns;
	size_t off;		/* line start in the buffer */
	uint32_t len;		/* line length without the newline */
	uint32_t lineno;	/* 1-based */
	int32_t cpu;
	int64_t lost;		/* TE_EVENT, TE_GAP; else lost count (-1 unknown) */
	bool timed;		/* lost marker, gap: time taken from a later event */
	bool joined;		/* off is in c->joined: wrapped lines rejoined */
};

#define TE_EVENT (-2)	/* text_entry.lost of an event line */
#define TE_GAP (-3)	/* ... of an elision marker: a gap in an excerpt */

/* Kernel release "4.11.0-rc1" -> 411; 0 if it does not look like one. */
static int release_code(const char *r)
{
	int major = 0, minor = 0, n = 0;

	if (!r || sscanf(r, "%d.%d%n", &major, &minor, &n) != 2 || major < 2 || major > 99 ||
	    minor < 0 || minor > 99)
		return 0;
	return major * 100 + minor;
}

static bool is_ident(int c)
{
	return isalnum(c) || c == '_';
}

/* ---- line prefix --------------------------------------------------------- */

/*
 * Timestamp token "SECS[.FRAC]:" -> ns.  Returns 1 ok, 0 not a timestamp,
 * -1 absurd (too many digits, or more ns than a signed 64-bit integer holds:
 * the database's ts_ns is an SQLite integer, and about 292 years of ns is
 * beyond any clock a kernel traces with).
 */
static int parse_ts(const char *s, size_t n, uint64_t *ns, int *decimals)
{
	size_t i = 0, si, fi = 0, fn = 0;
	uint64_t secs = 0, frac = 0;

	if (n < 2 || s[n - 1] != ':')
		return 0;
	n--;
	while (i < n && isdigit((unsigned char)s[i]))
		i++;
	si = i;
	if (!si)
		return 0;
	if (i < n) {
		if (s[i] != '.')
			return 0;
		fi = ++i;
		while (i < n && isdigit((unsigned char)s[i]))
			i++;
		if (i != n || i == fi)
			return 0;
		fn = n - fi;
	}
	if ((fn && si > 11) || si > 20 || fn > 9)
		return -1;
	for (size_t k = 0; k < si; k++) {
		uint64_t d = (uint64_t)(s[k] - '0');

		if (secs > ((uint64_t)INT64_MAX - d) / 10)
			return -1;
		secs = secs * 10 + d;
	}
	for (size_t k = 0; k < fn; k++)
		frac = frac * 10 + (uint64_t)(s[fi + k] - '0');
	for (size_t k = fn; k < 9 && fn; k++)
		frac *= 10;
	if (!fn) {	/* counter and TSC clocks print a bare number: keep it */
		*ns = secs;
	} else {
		if (secs > ((uint64_t)INT64_MAX - frac) / 1000000000ULL)
			return -1;
		*ns = secs * 1000000000ULL + frac;
	}
	*decimals = (int)fn;
	return 1;
}

/* Digits -> int with a bound; -1 when there are none or it is too big. */
static int parse_small(const char *s, size_t n, long max)
{
	long v = 0;

	if (!n || n > 10)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (!isdigit((unsigned char)s[i]))
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v > max ? -1 : (int)v;
}

/* After the timestamp (at @b): "EVENT: BODY".  1, or 0 if no event name. */
static int name_and_body(const char *s, size_t n, size_t b, struct line_prefix *p)
{
	size_t a;

	while (b < n && s[b] == ' ')
		b++;
	a = b;
	while (b < n && is_ident((unsigned char)s[b]))
		b++;
	if (b == a || b >= n || s[b] != ':' || b - a > 128)
		return 0;
	p->name = s + a;
	p->name_len = b - a;
	b++;
	while (b < n && (s[b] == ' ' || s[b] == '\t'))
		b++;
	p->body = s + b;
	p->body_len = n - b;
	while (p->body_len && (p->body[p->body_len - 1] == ' ' || p->body[p->body_len - 1] == '\t' ||
			       p->body[p->body_len - 1] == '\r'))
		p->body_len--;	/* trailing blanks, a TAB as a space */
	return 1;
}

/*
 * Try the "[CPU]" at @i as the CPU column.  Returns 1 with @p filled, 0 if
 * this bracket is not it, -1 with *@why set if the line is an event line
 * with an absurd number.
 */
static int prefix_at(const char *s, size_t n, size_t i, struct line_prefix *p, const char **why)
{
	size_t j = i + 1, k = i, pe, a, b;
	int r;

	while (j < n && isdigit((unsigned char)s[j]))
		j++;
	if (j == i + 1 || j >= n || s[j] != ']' || (i > 0 && s[i - 1] != ' '))
		return 0;
	while (k > 0 && s[k - 1] == ' ')
		k--;
	if (k > 0 && s[k - 1] == ')') {		/* "(  1234)" or "(-------)" tgid */
		size_t q = k - 1;

		while (q > 0 && s[q - 1] != '(')
			q--;
		if (q == 0)
			return 0;
		for (size_t t = q; t < k - 1; t++)
			if (!isdigit((unsigned char)s[t]) && s[t] != ' ' && s[t] != '-')
				return 0;
		k = q - 1;
		while (k > 0 && s[k - 1] == ' ')
			k--;
	}
	pe = k;
	while (k > 0 && isdigit((unsigned char)s[k - 1]))
		k--;
	if (k == pe || k == 0 || s[k - 1] != '-')
		return 0;
	/* from here on the line has the shape of an event line */
	p->pid = parse_small(s + k, pe - k, 0x7fffffff);
	if (p->pid < 0)
		return *why = "pid out of range", -1;
	p->cpu = parse_small(s + i + 1, j - i - 1, TEXT_MAX_CPU);
	if (p->cpu < 0)
		return *why = "CPU number out of range", -1;
	p->comm = s;
	p->comm_len = k - 1;
	while (p->comm_len && (*p->comm == ' ' || *p->comm == '\t'))
		p->comm++, p->comm_len--;
	a = j + 1;
	for (int t = 0; t < 2; t++) {	/* optional flags column, then the time */
		while (a < n && s[a] == ' ')
			a++;
		b = a;
		while (b < n && s[b] != ' ')
			b++;
		r = parse_ts(s + a, b - a, &p->ts_ns, &p->ts_decimals);
		if (r < 0)
			return *why = "timestamp out of range", -1;
		if (r > 0)
			break;
		if (t == 1 || b == a || b - a > 8)
			return 0;
		a = b;
	}
	return name_and_body(s, n, b, p);
}

/*
 * `trace-cmd report -l`: "COMM-PID   CPUFLAGS  TIME: EVENT: BODY", printed
 * by libtraceevent's tep_print_event() with "%8.8s-%-5d %3d" and the
 * latency flags glued to the CPU number ("  1d..1."): the comm is right-
 * aligned in 8 columns and cut to 8 characters ("simoop-latency" prints
 * "simoop-l"); it is kept as printed, without the padding.  The comm may
 * itself hold '-' and digits: the pid is the first "-DIGITS " whose tail
 * has the CPU, flags and timestamp.  Tried when no "[CPU]" column is found.
 */
static int prefix_latency(const char *s, size_t n, struct line_prefix *p, const char **why)
{
	for (size_t i = 1; i + 1 < n; i++) {
		size_t k = i + 1, a, b, c0;
		int r;

		if (s[i] != '-' || !isdigit((unsigned char)s[k]))
			continue;
		while (k < n && isdigit((unsigned char)s[k]))
			k++;
		if (k >= n || s[k] != ' ')
			continue;
		a = k;
		while (a < n && s[a] == ' ')
			a++;
		c0 = a;
		while (a < n && isdigit((unsigned char)s[a]))
			a++;
		b = a;
		while (b < n && s[b] != ' ')
			b++;
		if (a == c0 || b - a < 4 || b - a > 6 || isdigit((unsigned char)s[a]))
			continue;
		while (b < n && s[b] == ' ')
			b++;
		size_t t = b;

		while (t < n && s[t] != ' ')
			t++;
		r = parse_ts(s + b, t - b, &p->ts_ns, &p->ts_decimals);
		if (r <= 0) {
			if (r < 0)
				return *why = "timestamp out of range", -1;
			continue;
		}
		p->pid = parse_small(s + i + 1, k - i - 1, 0x7fffffff);
		p->cpu = parse_small(s + c0, a - c0, TEXT_MAX_CPU);
		if (p->pid < 0 || p->cpu < 0)
			return *why = p->pid < 0 ? "pid out of range" : "CPU number out of range", -1;
		p->comm = s;
		p->comm_len = i;
		while (p->comm_len && (*p->comm == ' ' || *p->comm == '\t'))
			p->comm++, p->comm_len--;
		return name_and_body(s, n, t, p);
	}
	return 0;
}

/* The token "SYSTEM:EVENT:" at @i (after a blank): its length, else 0. */
static size_t perf_event_token(const char *s, size_t n, size_t i)
{
	size_t a = i, colons = 0;

	if (i == 0 || s[i - 1] != ' ')
		return 0;
	for (; i < n && s[i] != ' '; i++) {
		if (s[i] == ':') {
			if (i == a || !is_ident((unsigned char)s[i - 1]) || ++colons > 2)
				return 0;
		} else if (!is_ident((unsigned char)s[i])) {
			return 0;
		}
	}
	return colons == 2 && s[i - 1] == ':' ? i - a : 0;
}

/* The blank-separated token ending at @end (exclusive): its start. */
static size_t token_before(const char *s, size_t end)
{
	while (end > 0 && s[end - 1] != ' ')
		end--;
	return end;
}

/*
 * The body of a perf script line without the columns -F ip,sym,dso print
 * after it (builtin-script.c: the ip as "%16" PRIx64, then the symbol
 * and "(dso)"): the last blank-separated token of 16 hex digits, with at
 * most two tokens after it, and the rest.  A trace body prints pointers
 * with "0x" (libtraceevent's %p), so such a token is no value of it.
 * Returns the body's new length.
 */
static size_t perf_ip_cut(const char *b, size_t n)
{
	size_t cut = n, tokens = 0, e = n;

	while (e > 0 && tokens < 3) {
		size_t t = e;

		while (t > 0 && b[t - 1] != ' ')
			t--;
		bool hex = e - t == 16;

		for (size_t i = t; hex && i < e; i++)
			hex = isxdigit((unsigned char)b[i]);
		if (hex && t > 0)
			cut = t;
		tokens++;
		while (t > 0 && b[t - 1] == ' ')
			t--;
		e = t;
		if (cut < n)
			break;
	}
	while (cut > 0 && cut < n && b[cut - 1] == ' ')
		cut--;
	return cut;
}

/*
 * `perf script` of tracepoint samples (tools/perf/builtin-script.c,
 * perf_sample__fprintf_start() and process_event()): "COMM TID [CPU]
 * SECS.USECS: [PERIOD] SYSTEM:EVENT: [FLAGS] BODY", the comm right-aligned
 * in 16 columns and optional (-F), "PID/TID" with -F pid,tid, "%5lu.%09lu"
 * with --ns, the period's column with -F period, blanks in place of the
 * flags with -F flags; the body is the event's TP_printk(), as in ftrace.
 * A lone number is taken as the tid (perf's default column for
 * tracepoints); the ip, symbol and dso columns after the body are dropped
 * (perf_ip_cut()).  Lines without the CPU or a pid column are refused (-1):
 * no number may be made up for them.
 */
static int prefix_perf(const char *s, size_t n, struct line_prefix *p, const char **why)
{
	size_t e = 0, el = 0, t, te, k, ke, a;
	int r;

	for (size_t i = 1; i < n && !el; i++)
		if (s[i - 1] == ' ' && s[i] != ' ' && (el = perf_event_token(s, n, i)))
			e = i;
	if (!el)
		return 0;
	te = e;
	while (te > 0 && s[te - 1] == ' ')
		te--;
	t = token_before(s, te);
	if (t < te && s[te - 1] != ':') {	/* the period's column */
		for (k = t; k < te; k++)
			if (!isdigit((unsigned char)s[k]))
				return 0;
		while (t > 0 && s[t - 1] == ' ')
			t--;
		te = t;
		t = token_before(s, te);
	}
	r = parse_ts(s + t, te - t, &p->ts_ns, &p->ts_decimals);
	if (r <= 0)
		return r < 0 ? (*why = "timestamp out of range", -1) : 0;
	ke = t;
	while (ke > 0 && s[ke - 1] == ' ')
		ke--;
	k = token_before(s, ke);
	if (ke == 0 || s[ke - 1] != ']' || s[k] != '[')
		return *why = "perf script line without the CPU column ([CPU]; perf script"
			      " -F +cpu prints it)", -1;
	p->cpu = parse_small(s + k + 1, ke - k - 2, TEXT_MAX_CPU);
	if (p->cpu < 0)
		return *why = "CPU number out of range", -1;
	ke = k;
	while (ke > 0 && s[ke - 1] == ' ')
		ke--;
	k = token_before(s, ke);
	a = k;
	while (a < ke && isdigit((unsigned char)s[a]))
		a++;
	if (a < ke && s[a] == '/' && a > k)	/* PID/TID: the tid is the task */
		k = a + 1;
	p->pid = parse_small(s + k, ke - k, 0x7fffffff);
	if (ke == k || p->pid < 0)
		return *why = "perf script line without a tid column (perf script -F +tid"
			      " prints it), or a tid out of range", -1;
	k = token_before(s, ke);
	p->comm = s;
	p->comm_len = k;
	while (p->comm_len && (*p->comm == ' ' || *p->comm == '\t'))
		p->comm++, p->comm_len--;
	while (p->comm_len && p->comm[p->comm_len - 1] == ' ')
		p->comm_len--;
	/* the event without its system: the name the specs use */
	a = e;
	while (s[a] != ':')
		a++;
	p->name = s + a + 1;
	p->name_len = el - (a + 1 - e) - 1;
	if (p->name_len > 128)
		return 0;
	a = e + el;
	while (a < n && (s[a] == ' ' || s[a] == '\t'))
		a++;
	p->body = s + a;
	p->body_len = n - a;
	while (p->body_len && (p->body[p->body_len - 1] == ' ' || p->body[p->body_len - 1] == '\r'))
		p->body_len--;
	p->body_len = perf_ip_cut(p->body, p->body_len);
	return 1;
}

/* Find the CPU column (the comm may itself contain "[1]"); else the
 * layouts of trace-cmd report -l and of perf script. */
static int parse_prefix(const char *s, size_t n, struct line_prefix *p, const char **why)
{
	int r;

	for (size_t i = 0; i < n; i++) {
		if (s[i] != '[')
			continue;
		r = prefix_at(s, n, i, p, why);

		if (r)
			return r;
	}
	r = prefix_latency(s, n, p, why);
	return r ? r : prefix_perf(s, n, p, why);
}

int ingest_text_prefix(const char *s, size_t n, struct line_prefix *p, const char **why)
{
	return parse_prefix(s, n, p, why);
}

/*
 * A header cut after its timestamp or inside its event name: with a
 * placeholder name ("_") or the colon after the cut name it parses as an
 * event line with an empty body.
 */
bool ingest_text_header_fragment(struct text_ctx *c, const char *s, size_t n)
{
	struct line_prefix p;
	const char *why = NULL;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	if (!n || (s[n - 1] != ':' && !is_ident((unsigned char)s[n - 1])))
		return false;
	vr_buf_reset(&c->scratch);
	vr_buf_add(&c->scratch, s, n);
	vr_buf_addstr(&c->scratch, s[n - 1] == ':' ? " _:" : ":");
	return parse_prefix(c->scratch.buf, c->scratch.len, &p, &why) == 1 && !p.body_len;
}

/*
 * Unsigned decimal of @s at *@i (at most 19 digits, no sign), advancing
 * *@i: 1 read, 0 no digit there, -1 more than @max.
 */
static int lost_number(const char *s, size_t n, size_t *i, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	size_t a = *i;

	while (*i < n && isdigit((unsigned char)s[*i])) {
		uint64_t d = (uint64_t)(s[*i] - '0');

		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
		(*i)++;
	}
	*out = v;
	return *i > a;
}

static bool lost_word(const char *s, size_t n, size_t *i, const char *w)
{
	size_t l = strlen(w);

	if (n - *i < l || memcmp(s + *i, w, l))
		return false;
	*i += l;
	return true;
}

/*
 * "CPU:3 [LOST 12 EVENTS]", "CPU:3 [12 EVENTS DROPPED]", "CPU:3 [EVENTS
 * DROPPED]" (trace-cmd's trace-read.c and the kernel's trace.c print
 * them).  1 with *@cpu and *@count (-1: no count), 0 if the line is not a
 * marker, -1 with *@why if it is one with a CPU above TEXT_MAX_CPU or a
 * count above INT64_MAX (read exactly: sscanf() would wrap or clamp them).
 */
static int parse_lost(const char *s, size_t n, int *cpu, int64_t *count, const char **why)
{
	uint64_t cp, c = 0;
	size_t i = 4;
	int r, rc = 0;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	if (n < 8 || memcmp(s, "CPU:", 4))
		return 0;
	r = lost_number(s, n, &i, UINT64_MAX / 2, &cp);
	if (r <= 0 || !lost_word(s, n, &i, " ["))
		return r < 0 ? (*why = "lost-events marker with an absurd CPU number", -1) : 0;
	if (lost_word(s, n, &i, "LOST ")) {
		rc = lost_number(s, n, &i, INT64_MAX, &c);
		if (rc <= 0 || !lost_word(s, n, &i, " EVENTS]"))
			rc = rc < 0 ? -1 : -2;
	} else if (lost_word(s, n, &i, "EVENTS DROPPED]")) {
		rc = 2;
	} else {
		rc = lost_number(s, n, &i, INT64_MAX, &c);
		if (rc <= 0 || !lost_word(s, n, &i, " EVENTS DROPPED]"))
			rc = rc < 0 ? -1 : -2;
	}
	if (rc == -1)
		return *why = "lost-events marker with a count above 2^63 - 1", -1;
	if (rc == -2 || i != n)
		return 0;
	if (cp > TEXT_MAX_CPU)
		return *why = "lost-events marker with an absurd CPU number", -1;
	*cpu = (int)cp;
	*count = rc == 2 ? -1 : (int64_t)c;
	return 1;
}

/* Header and decoration lines that carry no events. */
static bool is_noise(const char *s, size_t n, struct ingest_text_stats *st)
{
	size_t i = 0;
	int v;

	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
		i++;
	if (i == n || s[i] == '#')
		return true;
	s += i;
	n -= i;
	if (n > 5 && !memcmp(s, "cpus=", 5)) {
		v = parse_small(s + 5, n - 5, TEXT_MAX_CPU + 1);
		if (v > st->cpus)
			st->cpus = v;
		return true;
	}
	if (n > 10 && !memcmp(s, "version = ", 10)) {
		/* trace-cmd report's first line: the trace.dat file version */
		v = parse_small(s + 10, n - 10, 99);
		if (v > 0)
			st->file_version = v;
		return true;
	}
	if (n == 6 && !memcmp(s, "TRACE:", 6))
		return true;
	if (n > 4 && n < 200 && !memcmp(s, "CPU ", 4) && memmem(s, n, " is empty", 9)) {
		st->cpus_empty++;
		return true;
	}
	if (n > 4 && n < 200 && !memcmp(s, "CPU ", 4) && memmem(s, n, " data ", 6))
		return true;
	return false;
}

/* ---- pass 1: index the lines --------------------------------------------- */

static void add_entry(struct text_ctx *c, const struct text_entry *e)
{
	if (c->nent == c->aent) {
		c->aent = c->aent ? c->aent * 2 : 1024;
		c->ent = vr_realloc(c->ent, c->aent * sizeof(*c->ent));
	}
	c->ent[c->nent++] = *e;
}

static void note_skip(struct text_ctx *c, uint32_t lineno)
{
	if (!c->st->skipped++)
		c->st->first_skipped = lineno;
}

/*
 * Era hints from the events a text shows: events only kernels after 5.8
 * have (where 97a225e69a1f made `classzone=` print highest_zoneidx):
 * mm_vmscan_throttled (5.16), mm_vmscan_write_folio (5.18, in place of
 * mm_vmscan_writepage), mm_vmscan_reclaim_pages (6.13), and
 * mm_vmscan_lru_isolate without isolate_mode= (6.7); all in
 * include/trace/events/vmscan.h of those releases.
 */
static void note_era(struct text_ctx *c, const struct line_prefix *p)
{
	static const char *const since_5_8[] = { "mm_vmscan_throttled", "mm_vmscan_write_folio",
						 "mm_vmscan_reclaim_pages", NULL };

	for (int i = 0; since_5_8[i]; i++)
		if (strlen(since_5_8[i]) == p->name_len && !memcmp(p->name, since_5_8[i], p->name_len))
			c->zone_new = true;
	/* lru_isolate without isolate_mode: 6.7+ */
	if (p->name_len == 21 && !memcmp(p->name, "mm_vmscan_lru_isolate", 21) &&
	    !memmem(p->body, p->body_len, "isolate_mode=", 13) &&
	    memmem(p->body, p->body_len, "classzone=", 10))
		c->zone_new = true;
}

static int spec_by_len(const char *name, size_t len)
{
	for (size_t i = 0; i < vr_event_specs_count; i++)
		if (strlen(vr_event_specs[i].name) == len && !memcmp(vr_event_specs[i].name, name, len))
			return (int)i;
	return -1;
}

static int check_bytes(struct text_ctx *c, const char *s, size_t n, uint32_t lineno)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if ((ch < 0x20 && ch != '\t' && ch != '\r') || ch == 0x7f)
			return vr_error("%s:%u: binary data (byte 0x%02x at column %zu); not a"
					" trace.dat file nor a text trace", c->name, lineno, ch, i + 1);
	}
	return 0;
}

/* Length of a mail quote prefix ("> ", ">> ") of a pasted trace, else 0. */
static size_t quote_len(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] == ' ')
		i++;
	if (i == n || s[i] != '>')
		return 0;
	while (i < n && (s[i] == '>' || s[i] == ' ' || s[i] == '\t'))
		i++;
	return i;
}

/* The event line @p (@n bytes at @off, in c->joined when @joined). */
static void add_event(struct text_ctx *c, const struct line_prefix *p, size_t off, size_t n,
		      uint32_t lineno, bool joined)
{
	struct text_entry e = { p->ts_ns, off, (uint32_t)n, lineno, p->cpu, TE_EVENT, false, joined };
	int spec;

	if (p->ts_decimals > 6)
		c->st->us_only = 0;
	if (p->cpu + 1 > c->st->cpus)
		c->st->cpus = p->cpu + 1;
	note_era(c, p);
	spec = spec_by_len(p->name, p->name_len);
	if (spec >= 0 && !c->seen_event[spec]) {
		c->seen_event[spec] = true;
		c->first[spec] = c->nent;
	}
	add_entry(c, &e);
	c->gap_open = false;
}

/*
 * The event gathered in c->part is complete (the next line is another
 * event, a marker, a header or comment, or the end): an entry for it,
 * its wrapped lines rejoined; a header cut after its timestamp that
 * nothing continued is a skipped line.  0 or -1 after the message.
 */
static int close_event(struct text_ctx *c)
{
	const struct text_part *h = c->part;
	struct line_prefix p;
	const char *why = NULL;
	size_t off;
	uint32_t len;

	if (!c->npart)
		return 0;
	if (c->npart == 1) {
		c->npart = 0;
		if (c->part_header_only)
			note_skip(c, h->lineno);
		else
			add_event(c, &c->head, h->off, h->len, h->lineno, false);
		return 0;
	}
	if (ingest_text_rejoin(c, c->part, c->npart, &off, &len))
		return -1;
	if (parse_prefix(c->joined.buf + off, len, &p, &why) != 1)
		return vr_error("%s:%u: lines %u-%u joined: %s", c->name, h->lineno, h->lineno,
				c->part[c->npart - 1].lineno, why ? why : "not an event line");
	if (!c->st->rejoined)
		c->st->first_rejoined = c->part[1].lineno;
	c->st->rejoined += c->npart - 1;
	add_event(c, &p, off, len, h->lineno, true);
	c->npart = 0;
	return 0;
}

static void add_part(struct text_ctx *c, size_t off, size_t n, uint32_t lineno)
{
	if (c->npart == c->apart) {
		c->apart = c->apart ? c->apart * 2 : 8;
		c->part = vr_realloc(c->part, c->apart * sizeof(*c->part));
	}
	c->part[c->npart++] = (struct text_part){ off, (uint32_t)n, lineno };
}

/* @s (@n bytes) ends with the word @w. */
static bool ends_with(const char *s, size_t n, const char *w)
{
	size_t l = strlen(w);

	return n >= l && !memcmp(s + n - l, w, l);
}

/*
 * Lines around events that are no continuation of the event before them:
 * kernel stack traces of the stacktrace option or trigger - an entry of
 * its own, printed with the event prefix and "<stack trace>" (or "<user
 * stack trace>") in place of "EVENT: BODY", then one " => fn" line per
 * frame (trace_stack_print() and trace_user_stack_print() in
 * kernel/trace/trace_output.c, 2.6.30-7.0; trace-cmd prints its
 * kernel_stack event as "=> fn (addr)" lines) -, markup around a trace
 * (systrace's "<script ...>", "</script>", "<!-- ... -->"), a mail
 * signature's "-- ".  Skipped (counted).
 */
static bool is_other_line(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r'))
		n--;
	while (n && (*s == ' ' || *s == '\t'))
		s++, n--;
	return (n >= 3 && !memcmp(s, "=> ", 3)) || (n >= 2 && s[0] == '<' && s[n - 1] == '>') ||
	       (n == 2 && !memcmp(s, "--", 2)) ||
	       ((ends_with(s, n, ": <stack trace>") || ends_with(s, n, ": <user stack trace>")) &&
		memchr(s, '[', n));
}

/* Words an elision marker may hold; those up to the NULL mark a cut. */
static const char *const elision_words[] = {
	"snip", "snipped", "snipping", "cut", "omitted", "elided", "trimmed", "skipped",
	"removed", "deleted", NULL,
	"lines", "line", "more", "events", "entries", "of", "here", "output", "trace", "similar",
	"same", "the", "and", "so", "on", "etc", NULL,
};

/* Is the lower-case word @w (@n bytes) an elision word?  2: one that marks
 * a cut, 1: one that may stand beside it, 0: neither. */
static int elision_word(const char *w, size_t n)
{
	int kind = 2;

	for (size_t i = 0; i < VR_ARRAY_SIZE(elision_words); i++) {
		if (!elision_words[i]) {
			kind--;
			continue;
		}
		if (strlen(elision_words[i]) == n && !strncasecmp(elision_words[i], w, n))
			return kind;
	}
	return 0;
}

/*
 * An elision marker: the line people put where they cut lines out of a
 * trace they quote - "...", "[...]", "(...)", "…", "[…]", "<snip>",
 * "[snip]", "--- snip ---", scissors ("8<---", "-- >8 --"), "[... 4000
 * lines cut ...]".  The whole line (blanks and a mail quote aside) is
 * such punctuation, numbers and the words above, with a mark of a cut: a
 * run of three dots, an ellipsis (U+2026, U+22EE), scissors or a word
 * such as "snip" or "cut".
 */
static bool is_elision(const char *s, size_t n)
{
	bool mark = false;
	size_t i = 0;

	while (n && (s[n - 1] == ' ' || s[n - 1] == '\r' || s[n - 1] == '\t'))
		n--;
	if (n > 160)
		return false;
	while (i < n) {
		unsigned char ch = (unsigned char)s[i];

		if (i + 3 <= n && !memcmp(s + i, "...", 3)) {
			mark = true;
			while (i < n && s[i] == '.')
				i++;
		} else if (i + 3 <= n && (!memcmp(s + i, "\xe2\x80\xa6", 3) ||
					  !memcmp(s + i, "\xe2\x8b\xae", 3))) {
			mark = true;
			i += 3;
		} else if (i + 2 <= n && (!memcmp(s + i, "8<", 2) || !memcmp(s + i, ">8", 2))) {
			mark = true;
			i += 2;
		} else if (isalpha(ch)) {
			size_t a = i;
			int k;

			while (i < n && isalpha((unsigned char)s[i]))
				i++;
			k = elision_word(s + a, i - a);
			if (!k)
				return false;
			mark |= k == 2;
		} else if (isdigit(ch) || strchr(" \t-=~*_[](){}<>|,.:", ch)) {
			i++;
		} else {
			return false;
		}
	}
	return mark;
}

/*
 * A shell prompt and the command after it, as a paste shows them around
 * the output: "$ cmd", "% cmd", "user@host:~$ cmd", "root@host:/sys#",
 * "[user@host dir]$ cmd", "bash-5.2# cmd", "(venv) user@host:~$ cmd".
 * (A "# ..." line is a comment of the trace header anyway.)
 */
static bool is_prompt(const char *s, size_t n)
{
	size_t i = 0, a;

	while (i < n && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i < n && s[i] == '(') {	/* a virtualenv's or conda's "(name) " */
		while (i < n && s[i] != ')' && s[i] != ' ')
			i++;
		if (i + 1 >= n || s[i] != ')' || s[i + 1] != ' ')
			return false;
		i += 2;
	}
	if (i < n && (s[i] == '$' || s[i] == '%'))
		return i + 1 == n || s[i + 1] == ' ' || s[i + 1] == '\r';
	if (i < n && s[i] == '[') {	/* "[user@host dir]$ " */
		a = i;
		while (i < n && s[i] != ']')
			i++;
		return i + 1 < n && memchr(s + a, '@', i - a) && (s[i + 1] == '$' || s[i + 1] == '#') &&
		       (i + 2 == n || s[i + 2] == ' ');
	}
	a = i;
	while (i < n && s[i] != ' ')
		i++;
	if (i - a < 2 || (s[i - 1] != '$' && s[i - 1] != '#'))
		return false;
	if (memchr(s + a, '@', i - a) || memchr(s + a, ':', i - a))
		return true;
	/* "bash-5.2$", "sh-4.4#" */
	size_t w = a;

	while (w < i && isalpha((unsigned char)s[w]))
		w++;
	if (w == a || w >= i - 1 || s[w] != '-')
		return false;
	for (w++; w < i - 1; w++)
		if (!isdigit((unsigned char)s[w]) && s[w] != '.')
			return false;
	return true;
}

/* An elision marker at line @lineno: a gap, unless the entry before is a
 * gap already (markers with no event between them are one gap). */
static void add_gap(struct text_ctx *c, size_t off, size_t n, uint32_t lineno)
{
	struct text_entry e = { 0, off, (uint32_t)n, lineno, -1, TE_GAP, false, false };

	if (c->gap_open)
		return;
	if (!c->st->gaps++)
		c->st->first_gap = lineno;
	c->gap_open = true;
	add_entry(c, &e);
}

/*
 * One physical line: an event line or a header cut after its timestamp
 * starts an event (ingest_text_rejoin() joins what continues it); a lost
 * marker, header, comment or blank line ends it; any other line after an
 * event continues it (a wrapped line), before any event it is skipped.
 */
static int index_line(struct text_ctx *c, size_t off, size_t n, uint32_t lineno)
{
	const char *s = c->buf + off;
	struct line_prefix p;
	struct text_entry e = { 0 };
	const char *why = NULL;
	int r, cpu;
	int64_t lost;

	if (n > TEXT_MAX_LINE)
		return vr_error("%s:%u: line of %zu bytes (at most %d expected); not a text trace",
				c->name, lineno, n, TEXT_MAX_LINE);
	if (check_bytes(c, s, n, lineno))
		return -1;
	size_t q = quote_len(s, n);

	s += q, off += q, n -= q;
	r = parse_prefix(s, n, &p, &why);
	if (r < 0)
		return vr_error("%s:%u: %s", c->name, lineno, why);
	if (r > 0 || ingest_text_header_fragment(c, s, n)) {
		if (close_event(c))
			return -1;
		c->part_header_only = r == 0;
		c->head = p;
		add_part(c, off, n, lineno);
		return 0;
	}
	r = parse_lost(s, n, &cpu, &lost, &why);
	if (r < 0)
		return vr_error("%s:%u: %s", c->name, lineno, why);
	if (r > 0) {
		if (close_event(c))
			return -1;
		if (lost >= 0 && __builtin_add_overflow(c->lost_total, lost, &c->lost_total))
			return vr_error("%s:%u: lost-events total exceeds 2^63 - 1 at this marker"
					" (run.lost_events cannot hold it)", c->name, lineno);
		e = (struct text_entry){ 0, off, (uint32_t)n, lineno, cpu, lost, false, false };
		c->st->lost_markers++;
		add_entry(c, &e);
		return 0;
	}
	if (is_elision(c->buf + off - q, n + q) || is_elision(s, n)) {
		if (close_event(c))
			return -1;
		add_gap(c, off, n, lineno);
		return 0;
	}
	bool other = is_other_line(s, n) || is_prompt(s, n);

	if (other || is_noise(s, n, c->st)) {
		if (close_event(c))
			return -1;
		if (other)
			note_skip(c, lineno);
		return 0;
	}
	if (!c->npart) {
		note_skip(c, lineno);
		return 0;
	}
	if (c->npart > TEXT_MAX_PARTS) {	/* say which line does not read, if one */
		size_t joff;
		uint32_t jlen;

		if (ingest_text_rejoin(c, c->part, c->npart, &joff, &jlen))
			return -1;
		return vr_error("%s:%u: more than %d lines continue the event at line %u; not a"
				" wrapped event line", c->name, lineno, TEXT_MAX_PARTS,
				c->part[0].lineno);
	}
	add_part(c, off, n, lineno);
	return 0;
}

/* A lost marker takes the time of the next event line of its CPU (the
 * record that carried the missed-events flag), a gap that of the next
 * event line of any CPU; else either takes the time of the line before. */
static void time_lost_markers(struct text_ctx *c)
{
	uint64_t *next = vr_calloc((size_t)c->st->cpus + 1, sizeof(*next));
	bool *have = vr_calloc((size_t)c->st->cpus + 1, sizeof(*have));
	uint64_t prev = 0, next_any = 0;
	bool have_any = false;

	for (size_t i = c->nent; i-- > 0;) {
		struct text_entry *e = &c->ent[i];

		if (e->lost == TE_EVENT) {
			next[e->cpu] = e->ts_ns;
			have[e->cpu] = true;
			next_any = e->ts_ns;
			have_any = true;
		} else if (e->lost == TE_GAP) {
			e->ts_ns = next_any;
			e->timed = have_any;
		} else if (e->cpu <= c->st->cpus && have[e->cpu]) {
			e->ts_ns = next[e->cpu];
			e->timed = true;
		}
	}
	for (size_t i = 0; i < c->nent; i++) {
		struct text_entry *e = &c->ent[i];

		if (e->lost == TE_EVENT)
			prev = e->ts_ns;
		else if (!e->timed)
			e->ts_ns = prev;
	}
	free(next);
	free(have);
}

/*
 * Event lines earlier than the line before, counted (sorted by time stamp
 * later).  ftrace prints each CPU's buffer merged in time order: lines go
 * back only by the little an event's commit can lag its time stamp, and
 * per-CPU files pasted one after the other go back at each new CPU, by
 * any amount, and are sorted into one trace.  One CPU's own lines going
 * back more than TEXT_MAX_BACK_NS is two traces joined (a trace pasted
 * twice sorts into each event twice) or a line from elsewhere (one line of
 * 1.0 s in a trace of 14337 s makes a run 14345 s long): an error, not a
 * count.  0, or -1 after "FILE:LINE: ...".
 */
static int check_order(struct text_ctx *c)
{
	const struct text_entry *prev = NULL, **last = vr_calloc((size_t)c->st->cpus + 1,
								   sizeof(*last));
	int ret = 0;

	for (size_t i = 0; i < c->nent && !ret; i++) {
		const struct text_entry *e = &c->ent[i];
		const struct text_entry **own;

		if (e->lost != TE_EVENT)
			continue;
		own = e->cpu >= 0 && e->cpu <= c->st->cpus ? &last[e->cpu] : NULL;
		if (own && *own && (*own)->ts_ns > e->ts_ns &&
		    (*own)->ts_ns - e->ts_ns > TEXT_MAX_BACK_NS)
			ret = vr_error("%s:%u: its time stamp is %.6f s before line %u's, of the same"
				       " CPU: two traces joined, or a line from another trace? (one"
				       " CPU's lines go back in time by far less than %d s)", c->name,
				       e->lineno, (double)((*own)->ts_ns - e->ts_ns) / 1e9,
				       (*own)->lineno, (int)(TEXT_MAX_BACK_NS / 1000000000));
		else if (prev && e->ts_ns < prev->ts_ns && !c->st->reordered++) {
			c->st->first_reordered = e->lineno;
			c->st->first_reordered_ns = prev->ts_ns - e->ts_ns;
		}
		prev = e;
		if (own)
			*own = e;
	}
	free(last);
	return ret;
}

/* (timestamp, line): a stable order.  A lost marker precedes, in the file,
 * the event whose time it takes, so it stays before that event. */
static int cmp_entry(const void *a, const void *b)
{
	const struct text_entry *x = a, *y = b;

	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return x->lineno < y->lineno ? -1 : x->lineno > y->lineno;
}

static int index_all(struct text_ctx *c)
{
	size_t off = 0;
	uint32_t lineno = 0;

	c->st->us_only = 1;
	while (off < c->len) {
		const char *nl = memchr(c->buf + off, '\n', c->len - off);
		size_t n = nl ? (size_t)(nl - (c->buf + off)) : c->len - off;

		if (lineno == UINT32_MAX)
			return vr_error("%s:%u: too many lines", c->name, lineno);
		lineno++;
		if (!nl && n) {		/* no final newline: a cut-off line */
			if (n > TEXT_MAX_LINE || check_bytes(c, c->buf + off, n, lineno))
				return n > TEXT_MAX_LINE ?
					vr_error("%s:%u: line of %zu bytes (at most %d expected);"
						 " not a text trace", c->name, lineno, n,
						 TEXT_MAX_LINE) : -1;
			c->st->truncated = 1;
			note_skip(c, lineno);
			break;
		}
		if (index_line(c, off, n, lineno))
			return -1;
		off += n + 1;
	}
	if (close_event(c))
		return -1;
	c->st->lines = lineno;
	return check_order(c);
}

/* Event system from the name: a text line does not print it. */
static const char *guess_system(int spec, const char *name)
{
	static const struct { const char *prefix, *system; } sys[] = {
		{ "mm_vmscan_", "vmscan" }, { "mm_shrink_slab", "vmscan" },
		{ "writeback_", "writeback" }, { "mm_compaction_", "compaction" },
		{ "sched_", "sched" }, { "mm_page_", "kmem" }, { "kmalloc", "kmem" },
		{ "kfree", "kmem" }, { "kmem_", "kmem" }, { "timer_", "timer" },
		{ "irq_", "irq" }, { "tracing_mark_write", "ftrace" }, { "print", "ftrace" },
	};

	if (spec >= 0)
		return vr_event_specs[spec].system;
	for (size_t i = 0; i < VR_ARRAY_SIZE(sys); i++)
		if (!strncmp(name, sys[i].prefix, strlen(sys[i].prefix)))
			return sys[i].system;
	return "unknown";
}

/* "<...>": the printing tool did not know the comm (no saved cmdline). */
static bool comm_known(const struct line_prefix *p)
{
	return p->comm_len && !(p->comm_len == 5 && !memcmp(p->comm, "<...>", 5));
}

/* Decode the line of @e into @ev (valid until the next call). */
static int decode_line(struct text_ctx *c, const struct text_entry *e, struct ingest_event *ev,
		       struct line_prefix *p)
{
	const char *why = NULL;
	const char *ename;
	int spec;

	if (parse_prefix((e->joined ? c->joined.buf : c->buf) + e->off, e->len, p, &why) != 1)
		return vr_error("%s:%u: line changed between passes", c->name, e->lineno);
	vr_buf_reset(&c->evname);
	vr_buf_add(&c->evname, p->name, p->name_len);
	ename = c->evname.buf;
	spec = spec_by_len(p->name, p->name_len);
	memset(ev, 0, sizeof(*ev));
	ev->ts_ns = p->ts_ns;
	ev->cpu = p->cpu;
	ev->pid = p->pid;
	ev->spec = spec;
	ev->system = guess_system(spec, ename);
	ev->name = ename;
	vr_buf_reset(&c->json);
	c->bad_value = false;
	ingest_text_body(c, spec, ename, p->body, p->body_len, ev, e->lineno);
	if (c->bad_value)
		return vr_error("%s:%u: %s", c->name, e->lineno, c->bad_why);
	if (c->json.len) {
		vr_buf_addstr(&c->json, "}");
		ev->extra_json = c->json.buf;
	}
	return 0;
}

static int emit_event(struct text_ctx *c, const struct text_entry *e, struct ingest_event *ev)
{
	struct line_prefix p;

	if (decode_line(c, e, ev, &p))
		return -1;
	/* the comm of this line's time: a pid's comm may change (exec, reuse);
	 * a "<...>" line keeps the one the pid had before (NULL before any) */
	if (comm_known(&p))
		ev->comm = ingest_tasks_note(c->tasks, p.pid, p.comm, p.comm_len, p.ts_ns);
	else
		ev->comm = ingest_tasks_current(c->tasks, p.pid, p.ts_ns);
	c->st->events++;
	return c->sink->event(c->sink->arg, ev);
}

/*
 * Fields each known event's lines carry, from its first line: a field the
 * line prints is there whatever its value (gfp_flags=GFP_KERNEL is stored
 * NULL, but the format has gfp_flags).  0, or -1 after the message when
 * such a line has a value out of range.
 */
static int learn_fields(struct text_ctx *c)
{
	struct ingest_text_stats keep = *c->st;
	struct ingest_event ev;
	struct line_prefix p;

	for (size_t i = 0; i < vr_event_specs_count; i++) {
		if (!c->seen_event[i])
			continue;
		if (decode_line(c, &c->ent[c->first[i]], &ev, &p))
			return -1;
		c->seen[i] = ev.present | c->printed;
	}
	*c->st = keep;
	return 0;
}

static int emit_all(struct text_ctx *c)
{
	struct ingest_event ev;
	int ret = 0;

	for (size_t i = 0; !ret && i < c->nent; i++) {
		const struct text_entry *e = &c->ent[i];

		if (e->lost == TE_GAP)
			ret = c->sink->gap ? c->sink->gap(c->sink->arg, e->ts_ns, e->lineno) : 0;
		else if (e->lost != TE_EVENT)
			ret = c->sink->lost ? c->sink->lost(c->sink->arg, e->cpu, e->ts_ns, e->lost)
					    : 0;
		else
			ret = emit_event(c, e, &ev);
	}
	return ret ? ret : ingest_tasks_emit(c->tasks, c->sink);
}

static size_t count_events(const struct text_ctx *c)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nent; i++)
		n += c->ent[i].lost == TE_EVENT;
	return n;
}

/*
 * Texts of other tools people take for a trace, by a line they print
 * (perf's builtin-report.c, builtin-stat.c; bpftrace; the kernel's
 * fs/proc/meminfo.c, mm/vmstat.c, printk): what to say instead of "no
 * trace events".
 */
static const struct { const char *start, *what; } other_formats[] = {
	{ "# Overhead", "perf report output (a profile's summary, no events: load the"
			" perf.data itself, or its perf script text)" },
	{ "# Samples:", "perf report output (a profile's summary, no events: load the"
			" perf.data itself, or its perf script text)" },
	{ "# Total Lost Samples", "perf report output (a profile's summary, no events: load the"
				  " perf.data itself, or its perf script text)" },
	{ "Performance counter stats for", "perf stat output (counts, no events)" },
	{ "Attaching ", "bpftrace output (its own printout, no trace events)" },
	{ "MemTotal:", "/proc/meminfo (counters, no events)" },
	{ "nr_free_pages ", "/proc/vmstat (counters, no events: see `compare` for counter"
			    " snapshots)" },
	{ "Node 0, zone", "/proc/zoneinfo (counters, no events)" },
	{ "[    0.000000] ", "a kernel log (dmesg), no trace events" },
};

/* The other tool's text @c is, by its first lines, or NULL. */
static const char *other_format(const struct text_ctx *c)
{
	size_t off = 0;

	for (int line = 0; line < 64 && off < c->len; line++) {
		const char *s = c->buf + off, *nl = memchr(s, '\n', c->len - off);
		size_t n = nl ? (size_t)(nl - s) : c->len - off;

		while (n && (*s == ' ' || *s == '\t'))
			s++, n--;
		for (size_t i = 0; i < VR_ARRAY_SIZE(other_formats); i++) {
			size_t l = strlen(other_formats[i].start);

			if (n >= l && !memcmp(s, other_formats[i].start, l))
				return other_formats[i].what;
		}
		off += (size_t)(s - (c->buf + off)) + n + 1;
	}
	return NULL;
}

/* A text without a single event line is no run (as a trace.dat without
 * records is not): say what it held instead. */
static int no_events(const struct text_ctx *c)
{
	const char *other = other_format(c);

	if (other)
		return vr_error("%s: not a trace: %s", c->name, other);
	if (c->st->skipped)
		return vr_error("%s:%llu: no trace events found (not a trace.dat or perf.data"
				" file, nor trace-cmd report, ftrace or perf script text)", c->name,
				(unsigned long long)c->st->first_skipped);
	if (c->st->lost_markers)
		return vr_error("%s: no trace events: only %llu lost-events marker(s)", c->name,
				(unsigned long long)c->st->lost_markers);
	return vr_error("%s: no trace events: its %llu line(s) are blanks, comments and headers",
			c->name, (unsigned long long)c->st->lines);
}

struct ingest_text_parser {
	struct text_ctx c;
	struct ingest_text_stats own;
};

void ingest_text_parser_free(struct ingest_text_parser *tp)
{
	struct text_ctx *c;

	if (!tp)
		return;
	c = &tp->c;
	free(c->ent);
	vr_buf_release(&c->json);
	vr_buf_release(&c->evname);
	vr_buf_release(&c->joined);
	vr_buf_release(&c->scratch);
	free(c->part);
	for (int i = 0; i < VR_SPEC_MAX_FIELDS; i++)
		vr_buf_release(&c->text[i]);
	ingest_tasks_free(c->tasks);
	free(c->seen);
	free(c->seen_event);
	free(c->first);
	free(tp);
}

struct ingest_text_parser *ingest_text_index(const char *name, const char *buf, size_t len,
					     const struct ingest_text_opts *opts,
					     struct ingest_text_stats *stats)
{
	struct ingest_text_parser *tp = vr_calloc(1, sizeof(*tp));
	struct text_ctx *c = &tp->c;
	int ret;

	*c = (struct text_ctx){ .name = name, .buf = buf, .len = len };
	c->st = stats ? stats : &tp->own;
	memset(c->st, 0, sizeof(*c->st));
	vr_buf_init(&c->json);
	vr_buf_init(&c->evname);
	vr_buf_init(&c->joined);
	vr_buf_init(&c->scratch);
	for (int i = 0; i < VR_SPEC_MAX_FIELDS; i++)
		vr_buf_init(&c->text[i]);
	c->tasks = ingest_tasks_new();
	c->seen = vr_calloc(vr_event_specs_count, sizeof(*c->seen));
	c->seen_event = vr_calloc(vr_event_specs_count, sizeof(*c->seen_event));
	c->first = vr_calloc(vr_event_specs_count, sizeof(*c->first));
	ret = index_all(c);
	if (!ret && !count_events(c))
		ret = no_events(c);
	/* the release, when known, decides; else the era the events show */
	if (opts && release_code(opts->release))
		c->zone_new = release_code(opts->release) >= 508;
	c->gfp_6_18 = opts && release_code(opts->release) == 618;
	if (ret || learn_fields(c)) {
		ingest_text_parser_free(tp);
		return NULL;
	}
	time_lost_markers(c);
	if (c->nent)
		qsort(c->ent, c->nent, sizeof(*c->ent), cmp_entry);
	return tp;
}

int ingest_text_emit(struct ingest_text_parser *tp, const struct ingest_sink *sink)
{
	tp->c.sink = sink;
	return emit_all(&tp->c);
}

size_t ingest_text_parser_nevents(const struct ingest_text_parser *tp)
{
	return count_events(&tp->c);
}

int ingest_text_parser_has_field(const struct ingest_text_parser *tp, const char *event,
				 const char *field)
{
	int spec = spec_by_len(event, strlen(event));

	if (spec < 0 || !tp->c.seen_event[spec])
		return 0;
	if (!field)
		return 1;
	for (int f = 0; f < spec_nfields(spec); f++)
		if (!strcmp(vr_event_specs[spec].fields[f].name, field))
			return !!(tp->c.seen[spec] & (1u << f));
	return 0;
}

int ingest_text_parse(const char *name, const char *buf, size_t len,
		      const struct ingest_text_opts *opts, const struct ingest_sink *sink,
		      struct ingest_text_stats *stats)
{
	struct ingest_text_parser *tp = ingest_text_index(name, buf, len, opts, stats);
	int ret;

	if (!tp)
		return -1;
	ret = ingest_text_emit(tp, sink);
	ingest_text_parser_free(tp);
	return ret;
}
