// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-latency.c - parse application latency reports (simoop's periodic
 * "X latency usec: (p50: N) ..." lines, or "operation value" pairs) into
 * samples.  Pure apart from ingest_latency_read(); see ingest-latency.h.
 */
#include "ingest-latency.h"
#include "vr.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct parser {
	const char *path;
	size_t lineno;
	bool final;		/* after "Final stats:" */
	struct ingest_latency *out;
	ingest_latency_name_bad_fn name_bad;	/* or NULL */
};

static int add_sample(struct parser *p, const char *op, size_t oplen, double value,
		      const char *unit)
{
	struct ingest_latency *l = p->out;
	int sample = 0;
	char *name = vr_malloc(oplen + 1);
	const char *why;

	memcpy(name, op, oplen);
	name[oplen] = '\0';
	why = p->name_bad ? p->name_bad(name) : NULL;	/* refused here, not when charted */
	if (why) {
		vr_error("%s:%zu: '%s': %s", p->path, p->lineno, name, why);
		free(name);
		return -1;
	}
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->s[i].operation, name))
			sample++;
	l->s = vr_realloc(l->s, (l->n + 1) * sizeof(*l->s));
	l->s[l->n++] = (struct ingest_latency_sample){ name, sample, value, unit, false, false };
	return 0;
}

static bool starts_with(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Thousands commas where they can stand: each after 1-3 digits (the first)
 * or 3 digits (the others) of the integer part, with 3 digits after it
 * ("1,234,567.5").  "1,5" is a decimal comma, or a typo: not 15. */
static bool commas_ok(const char *s, size_t n)
{
	size_t run = 0, groups = 0;

	for (size_t i = 0; i < n && s[i] != '.' && s[i] != 'e' && s[i] != 'E'; i++) {
		if (s[i] == ',') {
			if (!run || run > 3 || (groups && run != 3))
				return false;
			groups++;
			run = 0;
		} else if (isdigit((unsigned char)s[i])) {
			run++;
		}
	}
	return !groups || run == 3;
}

/* A latency: a number >= 0 with optional thousands commas ("1,234.5");
 * end in *end.  0, or -1 for anything else (a negative number too). */
static int parse_number(const char *s, const char **end, double *out)
{
	const char *start = s;
	char buf[64];
	size_t n = 0;
	char *e;

	while ((isdigit((unsigned char)*s) || *s == ',' || *s == '.' || *s == '-' ||
		*s == '+' || *s == 'e' || *s == 'E') && n + 1 < sizeof(buf)) {
		if (*s != ',')
			buf[n++] = *s;
		s++;
	}
	buf[n] = '\0';
	if (!n || !commas_ok(start, (size_t)(s - start)))
		return -1;
	errno = 0;
	*out = strtod(buf, &e);
	if (*e || errno || !isfinite(*out) || *out < 0)
		return -1;
	*end = s;
	return 0;
}

/* "Name latency[ usec][:] (KEY: N) (KEY: N) ..." */
static int parse_simoop(struct parser *p, const char *line, const char *lat)
{
	const char *name = line, *s = lat + strlen(" latency");
	size_t name_len = (size_t)(lat - line);
	const char *unit = NULL;

	if (starts_with(s, " usec")) {
		s += 5;
		unit = "us";
	}
	if (*s == ':')
		s++;
	while (*s == ' ')
		s++;
	if (*s != '(')
		return vr_error("%s:%zu: expected '(p50: N)' after 'latency'", p->path, p->lineno);
	while (*s) {
		const char *key, *end;
		double v;
		size_t key_len;
		struct vr_buf op;

		if (*s != '(')
			return vr_error("%s:%zu: expected '(' at column %zu", p->path, p->lineno,
					(size_t)(s - line) + 1);
		key = ++s;
		while (isalnum((unsigned char)*s) || *s == '.')
			s++;
		key_len = (size_t)(s - key);
		if (!key_len || *s++ != ':')
			return vr_error("%s:%zu: expected 'KEY:' at column %zu", p->path, p->lineno,
					(size_t)(key - line) + 1);
		while (*s == ' ')
			s++;
		if (parse_number(s, &end, &v) || *end != ')')
			return vr_error("%s:%zu: bad number at column %zu", p->path, p->lineno,
					(size_t)(s - line) + 1);
		s = end + 1;
		while (*s == ' ')
			s++;
		vr_buf_init(&op);
		vr_buf_addf(&op, "%s%.*s-%.*s", p->final ? "final-" : "", (int)key_len, key,
			    (int)name_len, name);
		if (add_sample(p, op.buf, op.len, v, unit)) {
			vr_buf_release(&op);
			return -1;
		}
		vr_buf_release(&op);
	}
	return 0;
}

/* Is @line "OPERATION VALUE" in shape: two words, the second starting like a
 * number?  Such a line is a sample, or an error; any other is skipped. */
static bool sample_shaped(const char *line)
{
	const char *s = line + strcspn(line, " \t");

	s += strspn(s, " \t");
	if (!*s || s == line || s[strcspn(s, " \t")])
		return false;	/* one word, or more than two */
	return isdigit((unsigned char)*s) || *s == '-' || *s == '+' || *s == '.';
}

/* "OPERATION VALUE" */
static int parse_plain(struct parser *p, const char *line)
{
	const char *op = line, *s = line, *end;
	size_t op_len;
	double v;

	if (!sample_shaped(line)) {
		if (!p->out->nskipped++)
			p->out->first_skipped = p->lineno;
		return 0;
	}
	while (*s && !isspace((unsigned char)*s))
		s++;
	op_len = (size_t)(s - op);
	while (isspace((unsigned char)*s))
		s++;
	if (parse_number(s, &end, &v) || *end)
		return vr_error("%s:%zu: '%s' is not a number%s", p->path, p->lineno, s,
				*s == '-' ? " (a latency is not negative)" :
				strchr(s, ',') ? " (commas only between groups of three digits:"
				" 1,234.5)" : "");
	return add_sample(p, op, op_len, v, NULL);
}

static int parse_line(struct parser *p, char *line)
{
	size_t len = strlen(line);
	const char *lat;

	while (len && isspace((unsigned char)line[len - 1]))
		line[--len] = '\0';
	while (isspace((unsigned char)*line))
		line++;
	if (!*line || *line == '#' || starts_with(line, "Run time:") ||
	    starts_with(line, "Warmup complete"))
		return 0;
	if (!strcmp(line, "Final stats:")) {
		p->final = true;
		return 0;
	}
	lat = strstr(line, " latency");
	if (lat && strchr(lat, '(') && !memchr(line, ' ', (size_t)(lat - line)))
		return parse_simoop(p, line, lat);
	return parse_plain(p, line);
}

int ingest_latency_parse(const char *path, const char *buf, size_t len,
			 ingest_latency_name_bad_fn name_bad, struct ingest_latency *out)
{
	struct parser p = { path, 0, false, out, name_bad };
	size_t pos = 0;

	out->s = NULL;
	out->n = 0;
	out->nskipped = out->first_skipped = 0;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - buf) : len;
		char *line = vr_malloc(end - pos + 1);
		int r;

		memcpy(line, buf + pos, end - pos);
		line[end - pos] = '\0';
		p.lineno++;
		r = memchr(line, '\0', end - pos) ? vr_error("%s:%zu: NUL byte in text", path,
							      p.lineno)
						   : parse_line(&p, line);
		free(line);
		if (r) {
			ingest_latency_release(out);
			return -1;
		}
		pos = end + 1;
	}
	if (!out->n) {
		ingest_latency_release(out);
		return vr_error("%s: no latency samples found", path);
	}
	return 0;
}

int ingest_latency_read(const char *path, ingest_latency_name_bad_fn name_bad,
			struct ingest_latency *out)
{
	FILE *f = fopen(path, "rb");
	struct vr_buf b;
	char chunk[65536];
	size_t n;
	int ret;

	out->s = NULL;
	out->n = 0;
	out->nskipped = out->first_skipped = 0;
	if (!f)
		return vr_error("%s: cannot open: %s", path, strerror(errno));
	vr_buf_init(&b);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		vr_buf_add(&b, chunk, n);
	if (ferror(f)) {
		int e = errno;	/* EISDIR: a directory opens but does not read */

		fclose(f);
		vr_buf_release(&b);
		return vr_error("%s: cannot read: %s", path, strerror(e));
	}
	fclose(f);
	ret = ingest_latency_parse(path, b.buf, b.len, name_bad, out);
	vr_buf_release(&b);
	return ret;
}

void ingest_latency_release(struct ingest_latency *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->s[i].operation);
	free(l->s);
	l->s = NULL;
	l->n = 0;
	l->nskipped = l->first_skipped = 0;
}
