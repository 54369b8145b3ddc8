// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-kallsyms.c - tep_parse_kallsyms() of this program: libtraceevent's
 * function, same calls and result, without sscanf().
 *
 * libtracecmd 3.1.6 hands a trace.dat's saved /proc/kallsyms to
 * tep_parse_kallsyms() inside tracecmd_open(), and so does a perf.data
 * reader (ingest-perf.c).  libtraceevent 1.7.1 (src/event-parse.c) parses
 * each line with sscanf(line, "%16llx %c %n%*s%n%*1[\t][%n%*s%n"): on the
 * six wsf recordings of samples/ that sscanf() was a sixth of a whole
 * `load` (each file's kallsyms are parsed by the load's open and, for a
 * large compressed file, again by the open of its uncompressed copy).
 * Defined here, in the executable, this definition is the one the dynamic
 * linker binds libtracecmd's call to (the executable comes first in the
 * lookup order); the library's own stays reachable with
 * dlsym(RTLD_NEXT, "tep_parse_kallsyms"), which tests/unit/
 * test-ingest-kallsyms.c compares this one with.
 *
 * What is kept, exactly as libtraceevent 1.7.1 does it: the text is split
 * at '\n' (empty lines skipped, as strtok_r() does); a line is read as
 *   - an address: leading white space skipped, then at most 16 characters
 *     of an optional sign, an optional "0x" after a leading 0, hex digits
 *     (glibc's %llx; a '-' negates it as strtoull() does);
 *   - white space, one character (the symbol type), white space;
 *   - the name: the characters up to the next white space;
 *   - optionally a tab, '[', white space, and the module: the characters
 *     up to the next white space, less the last one (the ']').
 * A line whose address, type or name is missing ends the parse there
 * (tep_warning() says so, -1 returned; the lines before it stay
 * registered).  Names starting with '$' (arm's mapping symbols) and
 * symbols of type 'A' or 'a' (absolute, x86-64's per-cpu offsets) are
 * skipped; every other symbol goes to tep_register_function() in the
 * order of the text, so that the table it builds is the same.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/event-utils.h>

/* A character sscanf() takes for white space. */
static bool ws(char c)
{
	return c && isspace((unsigned char)c);
}

static int hex_value(char c)
{
	return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
}

/*
 * "%16llx" at @p: the address into *@addr; the end of what was read, or
 * NULL when there is no number (*@eof: nothing but white space was left,
 * sscanf()'s EOF).
 */
static const char *scan_hex16(const char *p, unsigned long long *addr, bool *eof)
{
	unsigned long long v = 0;
	int width = 16, digits = 0;
	bool neg = false;

	while (ws(*p))
		p++;
	*eof = !*p;
	if (!*p)
		return NULL;
	if (*p == '+' || *p == '-') {
		neg = *p++ == '-';
		width--;
	}
	if (width && *p == '0') {
		digits++;
		p++;
		width--;
		if (width && (*p | 0x20) == 'x') {
			p++;
			width--;
		}
	}
	for (; width && *p && isxdigit((unsigned char)*p); p++, width--, digits++)
		v = v * 16 + (unsigned long long)hex_value(*p);
	if (!digits)
		return NULL;
	*addr = neg ? -v : v;
	return p;
}

/* The positions of one line's fields (offsets into the line, as %n
 * gives them), 0 where sscanf() would not have reached. */
struct ksym_line {
	int n;			/* conversions: sscanf()'s return value */
	unsigned long long addr;
	char type;
	int func_start, func_end, mod_start, mod_end;
};

static void scan_line(const char *line, struct ksym_line *k)
{
	const char *p;
	bool eof;

	*k = (struct ksym_line){ 0 };
	p = scan_hex16(line, &k->addr, &eof);
	if (!p) {
		k->n = eof ? -1 : 0;
		return;
	}
	k->n = 1;
	while (ws(*p))
		p++;
	if (!*p)
		return;
	k->type = *p++;
	k->n = 2;
	while (ws(*p))
		p++;
	k->func_start = (int)(p - line);
	if (!*p)
		return;
	while (*p && !ws(*p))
		p++;
	k->func_end = (int)(p - line);
	if (*p != '\t' || p[1] != '[')
		return;
	p += 2;
	k->mod_start = (int)(p - line);
	while (ws(*p))
		p++;
	if (!*p)
		return;
	while (*p && !ws(*p))
		p++;
	k->mod_end = (int)(p - line);
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	/* one line at a time in @buf (not a copy of the whole text, which
	 * was 1 % of a load of the wsf recordings in page faults alone) */
	size_t cap = 256;
	char *buf = malloc(cap);
	int ret = 0;

	if (!buf)
		return -1;
	for (const char *line = kallsyms, *next; *line; line = next) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		struct ksym_line k;

		next = end ? end + 1 : line + len;
		if (!len)	/* strtok_r() skips empty lines */
			continue;
		if (len >= cap) {
			char *bigger = realloc(buf, len + 1);

			if (!bigger) {
				ret = -1;
				break;
			}
			buf = bigger;
			cap = len + 1;
		}
		memcpy(buf, line, len);
		buf[len] = '\0';
		scan_line(buf, &k);
		if (k.n != 2 || !k.func_end) {
			tep_warning("Failed to parse kallsyms n=%d func_end=%d", k.n, k.func_end);
			ret = -1;
			break;
		}
		if (buf[k.func_start] == '$' || k.type == 'A' || k.type == 'a')
			continue;
		buf[k.func_end] = '\0';
		if (k.mod_end)
			buf[k.mod_end - 1] = '\0';
		tep_register_function(tep, buf + k.func_start, k.addr,
				      k.mod_end ? buf + k.mod_start : NULL);
	}
	free(buf);
	return ret;
}
