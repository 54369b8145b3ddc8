/* SPDX-License-Identifier: GPL-2.0 */
/*
 * progress.h - a progress line on stderr while a long command works (git's
 * and perf's convention): shown only when stderr is a terminal, rewritten
 * in place at most a few times a second, cleared when done; nothing when
 * stderr is a pipe or a file, or the command was given -q.
 */
#ifndef VR_PROGRESS_H
#define VR_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

/* struct progress - one progress line; the caller owns it (no globals). */
struct progress {
	bool on;		/* stderr is a terminal and not quiet */
	bool shown;		/* a line is on the screen (to clear) */
	int64_t start_ns;	/* CLOCK_MONOTONIC at progress_start() */
	int64_t last_ns;	/* when the line was last written */
};

/**
 * progress_start - begin a progress line in @p: on when @quiet is false
 * and stderr is a terminal.  Returns nothing.
 */
void progress_start(struct progress *p, bool quiet);

/**
 * progress_due - whether a new line may be written now (a quarter of a
 * second since the last; always true the first time).  False when off.
 */
bool progress_due(const struct progress *p);

/** progress_elapsed_s - seconds since progress_start(). */
double progress_elapsed_s(const struct progress *p);

/**
 * progress_show - write the line (printf format) over the previous one,
 * "\r...\033[K" on stderr, and note the time.  Nothing when off.
 */
void progress_show(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * progress_say - write a line of its own on stderr (printf format; a
 * newline is added), whether or not the progress line is on: a -v detail.
 * A progress line on the screen is cleared first and comes back with the
 * next progress_show().
 */
void progress_say(struct progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** progress_end - clear the line (if one is shown); @p is off after. */
void progress_end(struct progress *p);

#endif /* VR_PROGRESS_H */
