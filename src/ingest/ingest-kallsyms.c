// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-kallsyms.c - tep_parse_kallsyms() of this program, in place of
 * libtraceevent's: the same symbols, found by tep_find_function() the same
 * way, without sscanf() and without a malloc() per symbol.
 *
 * libtracecmd 3.1.6 hands a trace.dat's saved /proc/kallsyms to
 * tep_parse_kallsyms() inside tracecmd_open(), and so does a perf.data
 * reader (ingest-perf.c).  libtraceevent 1.7.1 (src/event-parse.c) parses
 * each line with sscanf(line, "%16llx %c %n%*s%n%*1[\t][%n%*s%n") and
 * registers each symbol with tep_register_function() (a list item and two
 * strdup()s); its first tep_find_function() sorts them (func_map_init()).
 * On the six wsf recordings of samples/ the sscanf()s were a sixth of a
 * whole `load`, the registering and sorting a sixth more (each file's
 * kallsyms are parsed by the load's open and, for a large compressed file,
 * again by the open of its uncompressed copy).  Defined here, in the
 * executable, these definitions are the ones the dynamic linker binds
 * libtracecmd's calls to (the executable comes first in the lookup
 * order); the library's own stay reachable with dlsym(RTLD_NEXT, ...),
 * which tests/unit/test-ingest-kallsyms.c compares them with.
 *
 * The lines, exactly as libtraceevent 1.7.1 reads them: the text is split
 * at '\n' (empty lines skipped, as strtok_r() does); a line is read as
 *   - an address: leading white space skipped, then at most 16 characters
 *     of an optional sign, an optional "0x" after a leading 0, hex digits
 *     (glibc's %llx; a '-' negates it as strtoull() does);
 *   - white space, one character (the symbol type), white space;
 *   - the name: the characters up to the next white space;
 *   - optionally a tab, '[', white space, and the module: the characters
 *     up to the next white space, less the last one (the ']').
 * A line whose address, type or name is missing ends the parse there
 * (tep_warning() says so, -1 returned; the lines before it stay).  Names
 * starting with '$' (arm's mapping symbols) and symbols of type 'A' or 'a'
 * (absolute, x86-64's per-cpu offsets) are skipped.
 *
 * The lookup, exactly as libtraceevent 1.7.1 makes it: the symbols in the
 * order of its list (the last registered first), sorted by address with
 * qsort() (func_cmp()), a sentinel of address 0 after the last, and
 * glibc's bsearch() with func_bcmp(): a symbol matches an address equal to
 * its own, or above its own and below the next one's.  The table is the
 * tep handle's function resolver (tep_set_function_resolver(), so every
 * tep_find_function() of the handle reads it) and is freed with the handle:
 * tep_free() is ours too, and forgets the table before it calls the
 * library's on the handle's last reference (libtracecmd's tracecmd_close()
 * calls tep_free(); a tep_unref() in this program is a tep_free() call).
 */
#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
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

/* One symbol, as libtraceevent's struct func_map. */
struct ksym {
	unsigned long long addr;
	const char *func, *mod;		/* mod: NULL if none */
};

/* The names of one tep_parse_kallsyms() call. */
struct ksym_names {
	char *buf;
	struct ksym_names *next;
};

/* The symbols of one tep handle. */
struct ksym_table {
	struct tep_handle *tep;
	struct ksym *reg;		/* in the order registered: nreg */
	size_t nreg, capreg;
	struct ksym *map;		/* sorted, nreg + 1 (the sentinel) */
	struct ksym_names *names;
	struct ksym_table *next;
};

/* Every table, by tep handle. */
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;
static struct ksym_table *tables;

/* libtraceevent 1.7.1 func_bcmp(): @b matches @a->addr from its own
 * address up to the next symbol's (the sentinel's is 0). */
static int ksym_bcmp(const struct ksym *a, const struct ksym *b)
{
	if (a->addr == b->addr || (a->addr > b->addr && a->addr < (b + 1)->addr))
		return 0;
	return a->addr < b->addr ? -1 : 1;
}

/* glibc's bsearch() (bits/stdlib-bsearch.h), the probes in its order. */
static const struct ksym *ksym_find(const struct ksym_table *t, unsigned long long addr)
{
	struct ksym key = { .addr = addr };
	size_t l = 0, u = t->nreg;

	while (l < u) {
		size_t idx = (l + u) / 2;
		int c = ksym_bcmp(&key, &t->map[idx]);

		if (c < 0)
			u = idx;
		else if (c > 0)
			l = idx + 1;
		else
			return &t->map[idx];
	}
	return NULL;
}

/* The resolver of a table's tep handle (find_func() of libtraceevent
 * calls it with the address in *@addrp). */
static char *ksym_resolve(void *priv, unsigned long long *addrp, char **modp)
{
	const struct ksym *k = ksym_find(priv, *addrp);

	if (!k)
		return NULL;
	*addrp = k->addr;
	*modp = (char *)k->mod;
	return (char *)k->func;
}

/* Merge the sorted runs a[0..n1) and a[n1..n) into @tmp, the left one
 * first among equal addresses (stable), and back. */
static void merge_runs(struct ksym *a, size_t n1, size_t n, struct ksym *tmp)
{
	size_t i = 0, j = n1, k = 0;

	while (i < n1 && j < n)
		tmp[k++] = a[j].addr < a[i].addr ? a[j++] : a[i++];
	while (i < n1)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, n * sizeof(*a));
}

/*
 * Sort @a by address, stably: the order glibc's qsort() (a merge sort,
 * stable, for an array this size) gives with func_cmp(), but from the runs
 * the array already has (kallsyms lists a kernel's symbols by address, so
 * the library's list, the last first, is mostly descending): a strictly
 * descending run is reversed (no two of its symbols share an address), a
 * non-decreasing one kept, then neighbouring runs are merged.  0, or -1
 * when out of memory.
 */
static int sort_by_addr(struct ksym *a, size_t n)
{
	struct ksym *tmp = malloc((n ? n : 1) * sizeof(*tmp));
	size_t *run = malloc((n + 1) * sizeof(*run)), nrun = 0;

	if (!tmp || !run) {
		free(tmp);
		free(run);
		return -1;
	}
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		run[nrun++] = i;
		if (j < n && a[j].addr < a[i].addr) {
			while (j < n && a[j].addr < a[j - 1].addr)
				j++;
			for (size_t l = i, r = j - 1; l < r; l++, r--) {
				struct ksym t = a[l];

				a[l] = a[r];
				a[r] = t;
			}
		} else {
			while (j < n && a[j].addr >= a[j - 1].addr)
				j++;
		}
		i = j;
	}
	run[nrun] = n;
	while (nrun > 1) {	/* merge runs 0+1, 2+3, ... */
		size_t m = 0;

		for (size_t r = 0; r < nrun; r += 2) {
			if (r + 1 < nrun)
				merge_runs(a + run[r], run[r + 1] - run[r], run[r + 2] - run[r], tmp);
			run[m++] = run[r];
		}
		run[m] = n;
		nrun = m;
	}
	free(tmp);
	free(run);
	return 0;
}

/* The map of @t again: its list's order (the last registered first), sorted
 * by address as func_map_init() sorts it.  0 or -1 (out of memory). */
static int ksym_sort(struct ksym_table *t)
{
	struct ksym *map = malloc((t->nreg + 1) * sizeof(*map));

	if (!map)
		return -1;
	for (size_t i = 0; i < t->nreg; i++)
		map[i] = t->reg[t->nreg - 1 - i];
	if (sort_by_addr(map, t->nreg)) {
		free(map);
		return -1;
	}
	map[t->nreg] = (struct ksym){ 0 };
	free(t->map);
	t->map = map;
	return 0;
}

static void ksym_table_free(struct ksym_table *t)
{
	while (t->names) {
		struct ksym_names *n = t->names;

		t->names = n->next;
		free(n->buf);
		free(n);
	}
	free(t->reg);
	free(t->map);
	free(t);
}

/* The table of @tep, made (and set as its resolver) if it has none;
 * NULL when out of memory.  Under tables_lock. */
static struct ksym_table *table_of(struct tep_handle *tep)
{
	struct ksym_table *t;

	for (t = tables; t; t = t->next)
		if (t->tep == tep)
			return t;
	t = calloc(1, sizeof(*t));
	if (!t || tep_set_function_resolver(tep, ksym_resolve, t)) {
		free(t);
		return NULL;
	}
	t->tep = tep;
	t->next = tables;
	tables = t;
	return t;
}

/* Add @func (and @mod, or NULL) at @addr to the symbols @reg being read,
 * their names in @names (offsets now, pointers once the names are in
 * place: names_place()).  0 or -1 (out of memory). */
static int ksym_add(struct ksym_table *t, unsigned long long addr, const char *func,
		    const char *mod, char *names, size_t *used)
{
	struct ksym *k;
	size_t n;

	if (t->nreg == t->capreg) {
		size_t cap = t->capreg ? 2 * t->capreg : 4096;
		struct ksym *reg = realloc(t->reg, cap * sizeof(*reg));

		if (!reg)
			return -1;
		t->reg = reg;
		t->capreg = cap;
	}
	k = &t->reg[t->nreg++];
	k->addr = addr;
	n = strlen(func) + 1;
	memcpy(names + *used, func, n);
	k->func = (const char *)(uintptr_t)*used;
	*used += n;
	k->mod = NULL;
	if (mod) {
		n = strlen(mod) + 1;
		memcpy(names + *used, mod, n);
		k->mod = (const char *)(uintptr_t)(*used + 1);	/* 0 stays NULL */
		*used += n;
	}
	return 0;
}

/* The symbols reg[from..] read with their names as offsets into @names:
 * pointers now. */
static void names_place(struct ksym_table *t, size_t from, const char *names)
{
	for (size_t i = from; i < t->nreg; i++) {
		struct ksym *k = &t->reg[i];

		k->func = names + (uintptr_t)k->func;
		if (k->mod)
			k->mod = names + ((uintptr_t)k->mod - 1);
	}
}

/* Room in @t->reg for a symbol per line of @kallsyms (no growing by
 * copies while reading).  0 or -1 (out of memory). */
static int reserve_lines(struct ksym_table *t, const char *kallsyms)
{
	size_t lines = 1;
	struct ksym *reg;

	for (const char *p = kallsyms; (p = strchr(p, '\n')); p++)
		lines++;
	if (t->nreg + lines <= t->capreg)
		return 0;
	reg = realloc(t->reg, (t->nreg + lines) * sizeof(*reg));
	if (!reg)
		return -1;
	t->reg = reg;
	t->capreg = t->nreg + lines;
	return 0;
}

/*
 * The lines of @kallsyms into @t; the names into @names (room for the
 * whole text).  0, or -1 when a line cannot be read (said) or memory ran
 * out; the lines before it stay.
 */
static int parse_lines(struct ksym_table *t, const char *kallsyms, char *names, size_t *used)
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
		if (ksym_add(t, k.addr, buf + k.func_start, k.mod_end ? buf + k.mod_start : NULL,
			     names, used)) {
			ret = -1;
			break;
		}
	}
	free(buf);
	return ret;
}

int tep_parse_kallsyms(struct tep_handle *tep, const char *kallsyms)
{
	struct ksym_names *n = calloc(1, sizeof(*n));
	struct ksym_table *t;
	size_t used = 0, from;
	int ret;

	/* the names of a line are at most as long as the line */
	if (!n || !(n->buf = malloc(strlen(kallsyms) + 1))) {
		free(n);
		return -1;
	}
	pthread_mutex_lock(&tables_lock);
	t = table_of(tep);
	if (!t) {
		pthread_mutex_unlock(&tables_lock);
		free(n->buf);
		free(n);
		return -1;
	}
	from = t->nreg;
	ret = reserve_lines(t, kallsyms) ? -1 : parse_lines(t, kallsyms, n->buf, &used);
	n->next = t->names;
	t->names = n;
	names_place(t, from, n->buf);
	if (ksym_sort(t))
		ret = -1;
	pthread_mutex_unlock(&tables_lock);
	return ret;
}

/* libtraceevent's tep_free(), found once. */
static void (*library_tep_free)(struct tep_handle *);
static pthread_once_t library_once = PTHREAD_ONCE_INIT;

static void find_library_tep_free(void)
{
	library_tep_free = (void (*)(struct tep_handle *))dlsym(RTLD_NEXT, "tep_free");
}

void tep_free(struct tep_handle *tep)
{
	struct ksym_table *t = NULL;

	pthread_once(&library_once, find_library_tep_free);
	if (tep && tep_get_ref(tep) == 1) {	/* this call frees it */
		pthread_mutex_lock(&tables_lock);
		for (struct ksym_table **p = &tables; *p; p = &(*p)->next)
			if ((*p)->tep == tep) {
				t = *p;
				*p = t->next;
				break;
			}
		pthread_mutex_unlock(&tables_lock);
	}
	if (library_tep_free)
		library_tep_free(tep);
	if (t)
		ksym_table_free(t);
}
