// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-ksyms.c - tep_parse_kallsyms() for the whole process, at a
 * fraction of the library's cost on the text the kernel writes.
 *
 * tracecmd_open() (libtracecmd 3.1.6, trace-input.c read_proc_kallsyms())
 * gives a trace.dat's saved /proc/kallsyms to libtraceevent's
 * tep_parse_kallsyms(), which (1.7.1, event-parse.c) reads each line with
 * sscanf("%16llx %c %n%*s%n%*1[\t][%n%*s%n"): 57-123 ms for the 122,136
 * symbols of a wsf recording, most of an open, paid by every file a load
 * opens (and by its probe); the first file's open is the store thread's
 * first wait.  This definition comes before the library's in the dynamic
 * linker's search (libtracecmd calls it through its PLT, ingest-perf.c
 * directly), so every caller gets it.  When every line is in the form the
 * kernel writes (kernel/kallsyms.c s_show(): "%px %c %s\n", or
 * "%px %c %s\t[%s]\n" for a module's symbol, the address 16 hex digits on
 * a 64-bit kernel), the lines are cut by hand and registered as the
 * library registers them: in the same order, the name starting with '$'
 * and the types 'A' and 'a' skipped, the module without its ']'
 * (tep_register_function(), which copies both); 16-22 ms for the same
 * text.  A text with any other line goes to the library's own function
 * (dlsym(RTLD_NEXT)), whole, so what is registered never differs.
 */
#define _GNU_SOURCE	/* RTLD_NEXT */
#include "vr.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

/* One line of @s (up to '\n' or the end), cut as s_show() writes it. */
struct ksym_line {
	unsigned long long addr;
	char type;
	size_t name, name_end;		/* offsets in the line */
	size_t mod, mod_end;		/* the module's, ']' left out; 0, 0: none */
};

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
		: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* sscanf's %s stops at these (isspace() in the C locale but '\n', which
 * ends the line). */
static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

/* Cut the line @l of @len bytes (no '\n'): true if it is in the kernel's
 * form, which sscanf() reads as cut here. */
static bool cut_line(const char *l, size_t len, struct ksym_line *k)
{
	size_t i = 0;

	memset(k, 0, sizeof(*k));
	if (len < 20)
		return false;
	for (; i < 16; i++) {
		int d = hex_digit(l[i]);

		if (d < 0)
			return false;
		k->addr = k->addr << 4 | (unsigned long long)d;
	}
	if (l[16] != ' ' || is_space(l[17]) || l[18] != ' ' || is_space(l[19]))
		return false;
	k->type = l[17];
	k->name = 19;
	for (i = 19; i < len && !is_space(l[i]); i++)
		;
	k->name_end = i;
	if (i == len)
		return true;
	/* "\t[MODULE]" to the end of the line, MODULE without spaces */
	if (len - i < 4 || l[i] != '\t' || l[i + 1] != '[' || l[len - 1] != ']')
		return false;
	for (size_t j = i + 2; j < len; j++)
		if (is_space(l[j]))
			return false;
	k->mod = i + 2;
	k->mod_end = len - 1;
	return true;
}

/* The next line of @s from *@at (empty lines skipped, as strtok_r() does):
 * its start, *@len its length; NULL at the end.  *@at goes past its '\n',
 * which the caller may then overwrite. */
static char *next_line(char *s, size_t *at, size_t *len)
{
	char *l, *nl;

	while (s[*at] == '\n')
		(*at)++;
	if (!s[*at])
		return NULL;
	l = s + *at;
	nl = strchr(l, '\n');
	*len = nl ? (size_t)(nl - l) : strlen(l);
	*at += *len + (nl ? 1 : 0);
	return l;
}

/* Is every line of @s in the kernel's form? */
static bool all_cut(char *s)
{
	struct ksym_line k;
	size_t at = 0, len;
	char *l;

	while ((l = next_line(s, &at, &len)))
		if (!cut_line(l, len, &k))
			return false;
	return true;
}

/* Register the symbols of @s (all_cut()), NUL-terminating names and
 * modules in place. */
static void register_all(struct tep_handle *tep, char *s)
{
	struct ksym_line k;
	size_t at = 0, len;
	char *l;

	while ((l = next_line(s, &at, &len))) {
		cut_line(l, len, &k);
		if (l[k.name] == '$' || k.type == 'A' || k.type == 'a')
			continue;
		l[k.name_end] = '\0';
		if (k.mod_end)
			l[k.mod_end] = '\0';
		tep_register_function(tep, l + k.name, k.addr, k.mod_end ? l + k.mod : NULL);
	}
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	int (*library)(struct tep_handle *, const char *);
	char *copy = strdup(kallsyms);

	if (!copy)
		return -1;
	if (all_cut(copy)) {
		register_all(tep, copy);
		free(copy);
		return 0;
	}
	free(copy);
	*(void **)&library = dlsym(RTLD_NEXT, "tep_parse_kallsyms");
	return library ? library(tep, kallsyms) : -1;
}
