// SPDX-License-Identifier: GPL-2.0
/* util.c - error reporting, allocation and vr_buf; see include/vr.h. */
#define _GNU_SOURCE	/* sched_getaffinity, CPU_COUNT */
#include "vr.h"
#include <sched.h>

#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <unistd.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

/* Every message is one line of printable text: the file names, labels and
 * values it quotes have their control bytes escaped (vr_buf_add_escaped()). */
static void vr_vreport(const char *prefix, const char *fmt, va_list ap)
{
	struct vr_buf b, text;

	vr_buf_init(&b);
	vr_buf_init(&text);
	vr_buf_vaddf(&text, fmt, ap);
	vr_buf_addstr(&b, "vmscan-report: ");
	vr_buf_addstr(&b, prefix);
	vr_buf_add_escaped(&b, text.buf);
	vr_buf_addstr(&b, "\n");
	fputs(b.buf, stderr);
	vr_buf_release(&text);
	vr_buf_release(&b);
}

void vr_buf_add_escaped(struct vr_buf *b, const char *s)
{
	static const char names[] = "abtnvfr";	/* \a (7) to \r (13) */

	if (!s)
		s = "(null)";	/* as glibc's printf("%s", NULL) */
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p >= 0x20 && *p != 0x7f)
			vr_buf_add(b, p, 1);
		else if (*p >= '\a' && *p <= '\r')
			vr_buf_addf(b, "\\%c", names[*p - '\a']);
		else
			vr_buf_addf(b, "\\%03o", *p);
	}
}

void vr_buf_add_shell_word(struct vr_buf *b, const char *s)
{
	static const char safe[] = "%+,-./:=@_";
	bool plain = *s && *s != '-', control = false;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (!isalnum(*p) && !strchr(safe, *p))
			plain = false;
		if (*p < 0x20 || *p == 0x7f)
			control = true;
	}
	if (plain) {
		vr_buf_addstr(b, s);
		return;
	}
	vr_buf_addstr(b, control ? "$'" : "'");
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (control && (*p == '\\' || *p == '\''))
			vr_buf_addf(b, "\\%c", *p);
		else if (*p == '\'')
			vr_buf_addstr(b, "'\\''");
		else if (*p < 0x20 || *p == 0x7f)
			vr_buf_add_escaped(b, (const char[]){ (char)*p, 0 });
		else
			vr_buf_add(b, (const char *)p, 1);
	}
	vr_buf_addstr(b, "'");
}

const char *vr_escaped(struct vr_buf *b, const char *s)
{
	vr_buf_reset(b);
	vr_buf_add_escaped(b, s);
	return b->buf;
}

int vr_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vr_vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void vr_warn(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vr_vreport("warning: ", fmt, ap);
	va_end(ap);
}

void vr_warn_plain(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vr_vreport("", fmt, ap);
	va_end(ap);
}

static void *vr_check_alloc(void *p, size_t size)
{
	if (!p && size) {
		fputs("vmscan-report: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *vr_malloc(size_t size)
{
	return vr_check_alloc(malloc(size), size);
}

void *vr_calloc(size_t nmemb, size_t size)
{
	return vr_check_alloc(calloc(nmemb, size), nmemb * size);
}

void *vr_realloc(void *ptr, size_t size)
{
	return vr_check_alloc(realloc(ptr, size), size);
}

char *vr_strdup(const char *s)
{
	return vr_check_alloc(strdup(s), 1);
}

static char vr_buf_empty[1];

void vr_buf_init(struct vr_buf *b)
{
	b->buf = vr_buf_empty;
	b->len = 0;
	b->alloc = 0;
}

void vr_buf_release(struct vr_buf *b)
{
	if (b->alloc)
		free(b->buf);
	vr_buf_init(b);
}

void vr_buf_reset(struct vr_buf *b)
{
	b->len = 0;
	if (b->alloc)
		b->buf[0] = '\0';
}

static void vr_buf_grow(struct vr_buf *b, size_t extra)
{
	size_t want = b->len + extra + 1;

	if (want <= b->alloc)
		return;
	size_t n = b->alloc ? b->alloc : 64;
	while (n < want)
		n *= 2;
	if (!b->alloc) {
		b->buf = vr_malloc(n);
		b->buf[0] = '\0';
	} else {
		b->buf = vr_realloc(b->buf, n);
	}
	b->alloc = n;
}

void vr_buf_add(struct vr_buf *b, const void *data, size_t len)
{
	vr_buf_grow(b, len);
	memcpy(b->buf + b->len, data, len);
	b->len += len;
	b->buf[b->len] = '\0';
}

void vr_buf_addstr(struct vr_buf *b, const char *s)
{
	vr_buf_add(b, s, strlen(s));
}

void vr_buf_vaddf(struct vr_buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	vr_buf_grow(b, (size_t)n);
	vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void vr_buf_addf(struct vr_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vr_buf_vaddf(b, fmt, ap);
	va_end(ap);
}

void vr_buf_add_json_str(struct vr_buf *b, const char *s, size_t len)
{
	vr_buf_add(b, "\"", 1);
	for (size_t i = 0; i < len && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			char esc[2] = { '\\', (char)c };
			vr_buf_add(b, esc, 2);
		} else if (c < 0x20 || c >= 0x7f) {
			vr_buf_addf(b, "\\u%04x", c);
		} else {
			vr_buf_add(b, &s[i], 1);
		}
	}
	vr_buf_add(b, "\"", 1);
}

char *vr_buf_detach(struct vr_buf *b)
{
	char *s = b->alloc ? b->buf : vr_strdup("");

	vr_buf_init(b);
	return s;
}

int vr_parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

bool vr_name_of_dead_process(const char *name, const char *prefix, char after)
{
	size_t len = strlen(prefix);
	char *end;
	long pid;

	if (strncmp(name, prefix, len))
		return false;
	pid = strtol(name + len, &end, 10);
	if (end == name + len || *end != after || pid <= 0 || pid == (long)getpid())
		return false;
	if (kill((pid_t)pid, 0) != 0 && errno == ESRCH)
		return true;
	/* a zombie (exited, not yet reaped by its parent) writes nothing more */
	char state = 0;

	return !vr_proc_start_time((pid_t)pid, &state) && (state == 'Z' || state == 'X');
}

uint64_t vr_mem_available_bytes(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kb = 0;
	char line[256];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return (uint64_t)kb * 1024;
}

int vr_cpus_usable(void)
{
	cpu_set_t set;
	long n;

	if (!sched_getaffinity(0, sizeof(set), &set) && CPU_COUNT(&set) > 0)
		return CPU_COUNT(&set);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (int)n : 1;
}

unsigned long long vr_as_limit_mib(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_AS, &rl) || rl.rlim_cur == RLIM_INFINITY)
		return 0;
	return (unsigned long long)rl.rlim_cur >> 20;
}

unsigned long long vr_proc_start_time(pid_t pid, char *state)
{
	char path[64], buf[1024], st = 0, *p;
	unsigned long long start = 0;
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	p = strrchr(buf, ')');	/* the comm may hold blanks and parentheses */
	/* after the comm: state (field 3), then 18 fields to starttime (22) */
	if (!p || sscanf(p + 1, " %c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s"
			 " %*s %*s %*s %*s %llu", &st, &start) != 2)
		return 0;
	if (state)
		*state = st;
	return st == 'Z' || st == 'X' ? 0 : start;
}

int vr_parse_nonneg_double(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !isfinite(v) || v < 0)
		return -1;
	*out = v;
	return 0;
}

int vr_parse_int(const char *s, int *out)
{
	uint64_t v;

	if (vr_parse_u64(s, &v) || v > INT_MAX)
		return -1;
	*out = (int)v;
	return 0;
}

static const int interrupt_signals[] = { SIGINT, SIGTERM, SIGHUP };

void vr_catch_interrupts(void (*handler)(int), struct vr_interrupts *saved)
{
	struct sigaction sa = { .sa_handler = handler };

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < VR_ARRAY_SIZE(interrupt_signals); i++) {
		sigaction(interrupt_signals[i], NULL, &saved->old[i]);
		if (saved->old[i].sa_handler != SIG_IGN)
			sigaction(interrupt_signals[i], &sa, NULL);
	}
}

void vr_restore_interrupts(const struct vr_interrupts *saved)
{
	for (size_t i = 0; i < VR_ARRAY_SIZE(interrupt_signals); i++)
		sigaction(interrupt_signals[i], &saved->old[i], NULL);
}

bool vr_label_ok(const char *s)
{
	bool seen = false;

	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			return false;
		seen |= *p != ' ';
	}
	return seen;
}

char **vr_split_list(char *s, size_t *n)
{
	char **v = NULL;

	*n = 0;
	while (s) {
		char *comma = strchr(s, ',');

		if (comma)
			*comma = '\0';
		if (*s) {
			v = vr_realloc(v, (*n + 1) * sizeof(*v));
			v[(*n)++] = s;
		}
		s = comma ? comma + 1 : NULL;
	}
	return v;
}
