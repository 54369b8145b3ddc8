/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vr.h - small utilities shared by every module: error reporting, growable
 * buffers and checked allocation.  Modules report errors with vr_error() and
 * return -1; only main() and the commands (src/cmd/) decide to exit.
 */
#ifndef VR_H
#define VR_H

#include <stddef.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>

#define VR_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Exit statuses of the binary, as README.md ("Usage") and `vmscan-report
 * help` give them; only main() returns one, the commands decide which. */
enum vr_exit {
	VR_EXIT_OK = 0,		/* success */
	VR_EXIT_FAIL = 1,	/* runtime failure: bad trace, SQLite error, I/O */
	VR_EXIT_USAGE = 2,	/* unknown command or option, bad argument */
};

/* What a module function returns on error (0 is success): VR_ERR after
 * any message, VR_ERR_USAGE when the error is in what the user asked for
 * (an unknown metric name), which the command turns into VR_EXIT_USAGE. */
enum vr_err {
	VR_ERR = -1,
	VR_ERR_USAGE = -2,
};

/** vr_exit_of - the exit status for a module's return value @ret: 0
 * VR_EXIT_OK, VR_ERR_USAGE VR_EXIT_USAGE, anything else VR_EXIT_FAIL. */
static inline int vr_exit_of(int ret)
{
	return !ret ? VR_EXIT_OK : ret == VR_ERR_USAGE ? VR_EXIT_USAGE : VR_EXIT_FAIL;
}

/**
 * vr_error - print "vmscan-report: <message>" to stderr.
 * @fmt: printf format; the message is lower case, without a final period.
 *
 * Returns -1 so that callers can write `return vr_error(...)`.
 * Thread safe (one fprintf call per message).
 */
int vr_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/** vr_warn - like vr_error() but prefixed "warning: "; returns nothing. */
void vr_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** vr_warn_plain - a note on stderr, "vmscan-report: " and the text
 * (escaped as vr_warn() escapes it), without "warning: ". */
void vr_warn_plain(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * vr_malloc/vr_calloc/vr_realloc/vr_strdup - allocation that never returns
 * NULL for a non-zero size: on exhaustion the process aborts with a message
 * (there is no sensible recovery from a failed small allocation in a CLI).
 * The caller owns the memory and frees it with free().
 */
void *vr_malloc(size_t size);
void *vr_calloc(size_t nmemb, size_t size);
void *vr_realloc(void *ptr, size_t size);
char *vr_strdup(const char *s);

/*
 * struct vr_buf - growable NUL-terminated byte buffer (git's strbuf idea).
 * Invariants: buf is never NULL after vr_buf_init(); buf[len] == '\0'.
 */
struct vr_buf {
	char *buf;	/* owned; freed by vr_buf_release() */
	size_t len;	/* bytes used, excluding the terminating NUL */
	size_t alloc;	/* bytes allocated */
};

/** vr_buf_init - make @b an empty buffer; no allocation. */
void vr_buf_init(struct vr_buf *b);
/** vr_buf_release - free the contents of @b and re-initialise it. */
void vr_buf_release(struct vr_buf *b);
/** vr_buf_reset - empty @b, keeping its allocation. */
void vr_buf_reset(struct vr_buf *b);
/** vr_buf_add - append @len bytes from @data. */
void vr_buf_add(struct vr_buf *b, const void *data, size_t len);
/** vr_buf_addstr - append a NUL-terminated string. */
void vr_buf_addstr(struct vr_buf *b, const char *s);
/** vr_buf_addf - append printf-formatted text. */
void vr_buf_addf(struct vr_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/** vr_buf_vaddf - va_list variant of vr_buf_addf(). */
void vr_buf_vaddf(struct vr_buf *b, const char *fmt, va_list ap);
/**
 * vr_buf_add_json_str - append @s (at most @len bytes, stopping at NUL) as a
 * JSON string literal with quotes and escapes (RFC 8259).
 */
void vr_buf_add_json_str(struct vr_buf *b, const char *s, size_t len);
/**
 * vr_buf_add_escaped - append the NUL-terminated @s with each control
 * byte (below 0x20, and 0x7f) written as a C escape (\t, \n, \r, ...,
 * else \ooo octal), as git quotes a path (quote.c quote_c_style()), so
 * that a file name cannot break a message line or drive the terminal.
 * A NULL @s appends "(null)", as glibc's printf() does.
 */
void vr_buf_add_escaped(struct vr_buf *b, const char *s);
/**
 * vr_escaped - @s escaped as by vr_buf_add_escaped(), in @b (reset first;
 * the caller's, released by it): for a user's path in a printf() of its
 * own.  Returns @b->buf.
 */
const char *vr_escaped(struct vr_buf *b, const char *s);
/**
 * vr_buf_add_shell_word - append @s as one word a POSIX shell reads back as
 * @s: as it is when made only of letters, digits and "%+,-./:=@_" (and not
 * starting with '-' or empty), else in single quotes ("'" as '\''), or, when
 * it holds a control byte, in bash's $'...' with C escapes (\n, \t, \ooo),
 * so that a name cannot break the line it is printed on.
 */
void vr_buf_add_shell_word(struct vr_buf *b, const char *s);
/**
 * vr_buf_detach - return the string and leave @b empty; the caller frees the
 * result with free().
 */
char *vr_buf_detach(struct vr_buf *b);

/**
 * vr_parse_u64 - parse a whole decimal string into *@out (OUT).
 * Returns 0, or -1 if @s is empty, not a number, or out of range.
 */
int vr_parse_u64(const char *s, uint64_t *out);

/**
 * vr_name_of_dead_process - is @name "@prefix PID" followed by @after
 * ('\0': nothing) where PID is not this process and no longer runs (gone,
 * or a zombie: exited, not yet reaped)?  For removing what a killed
 * vmscan-report left (tracefs instances, copies, temporaries).
 */
bool vr_name_of_dead_process(const char *name, const char *prefix, char after);

/**
 * vr_proc_start_time - the start time of process @pid (field 22 of
 * /proc/PID/stat, clock ticks since boot; proc(5)), with which a pid that
 * was reused is told from the process once known by it; its state letter
 * into *@state unless NULL.  0 when it does not run (gone, or a zombie).
 */
unsigned long long vr_proc_start_time(pid_t pid, char *state);

/** vr_mem_available_bytes - the memory the kernel says is available for
 * new work without swapping (MemAvailable of /proc/meminfo, Linux 3.14+),
 * in bytes; 0 if unknown. */
uint64_t vr_mem_available_bytes(void);

/** vr_cpus_usable - the CPUs this process may run on (its affinity mask,
 * sched_getaffinity(2): taskset and cpuset cgroups narrow it), else the
 * online CPUs; at least 1. */
int vr_cpus_usable(void);

/** vr_as_limit_mib - the address-space limit (ulimit -v, RLIMIT_AS) in
 * MiB, or 0 when there is none. */
unsigned long long vr_as_limit_mib(void);

/* The handlers of the signals that interrupt a command (SIGINT, SIGTERM,
 * SIGHUP) before vr_catch_interrupts(), for vr_restore_interrupts(). */
struct vr_interrupts {
	struct sigaction old[3];
};

/**
 * vr_catch_interrupts - handle SIGINT, SIGTERM and SIGHUP with @handler
 * (empty mask, no flags), except those this process was started ignoring
 * (nohup, a background job of a script), which stay ignored.  @saved: OUT,
 * what vr_restore_interrupts() puts back.
 */
void vr_catch_interrupts(void (*handler)(int), struct vr_interrupts *saved);

/** vr_restore_interrupts - put back the handlers @saved by vr_catch_interrupts(). */
void vr_restore_interrupts(const struct vr_interrupts *saved);

/** vr_parse_nonneg_double - parse a whole finite number >= 0 (e.g. "0.5",
 * "1e3") into *@out (OUT); 0, or -1 leaving *@out alone. */
int vr_parse_nonneg_double(const char *s, double *out);

/** vr_parse_int - like vr_parse_u64 for a non-negative int. */
int vr_parse_int(const char *s, int *out);

/**
 * vr_split_list - split @s at commas in place into a malloc'ed array of
 * pointers into @s (the caller frees the array); empty items skipped.
 * @n: OUT: the items.  (Option lists: --kernels, --metrics, NAME=FILE,....)
 */
char **vr_split_list(char *s, size_t *n);

/**
 * vr_label_ok - whether @s can be a kernel label (--kernel, compare's
 * NAME=FILE): not empty, not only blanks, and no control character (bytes
 * below 0x20, and 0x7f), so that every table header prints it readably.
 * Printable ASCII and UTF-8 bytes are allowed.
 */
bool vr_label_ok(const char *s);

/* The words of a usage error about a rejected label. */
#define VR_LABEL_RULE "a label must not be empty or only blanks and may hold no control characters"

#endif /* VR_H */
