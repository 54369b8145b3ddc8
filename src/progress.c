// SPDX-License-Identifier: GPL-2.0
/*
 * progress.c - the progress line on stderr (include/progress.h).
 */
#include "progress.h"
#include "vr.h"

#include <stdarg.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define PROGRESS_INTERVAL_NS 250000000LL

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void progress_start(struct progress *p, bool quiet)
{
	*p = (struct progress){ .start_ns = now_ns() };
	p->on = !quiet && isatty(STDERR_FILENO);
}

bool progress_due(const struct progress *p)
{
	return p->on && (!p->last_ns || now_ns() - p->last_ns >= PROGRESS_INTERVAL_NS);
}

double progress_elapsed_s(const struct progress *p)
{
	return (double)(now_ns() - p->start_ns) / 1e9;
}

void progress_show(struct progress *p, const char *fmt, ...)
{
	struct vr_buf text, line;
	va_list ap;

	if (!p->on)
		return;
	vr_buf_init(&text);
	vr_buf_init(&line);
	va_start(ap, fmt);
	vr_buf_vaddf(&text, fmt, ap);
	va_end(ap);
	/* a file name's control bytes escaped, as in messages */
	fprintf(stderr, "\r%s\033[K", vr_escaped(&line, text.buf));
	vr_buf_release(&text);
	vr_buf_release(&line);
	fflush(stderr);
	p->shown = true;
	p->last_ns = now_ns();
}

void progress_say(struct progress *p, const char *fmt, ...)
{
	va_list ap;

	if (p->on && p->shown)
		fputs("\r\033[K", stderr);
	p->shown = false;
	p->last_ns = 0;		/* the line is shown again at once */
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

void progress_end(struct progress *p)
{
	if (p->on && p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	p->on = p->shown = false;
}
