// SPDX-License-Identifier: GPL-2.0
/*
 * crash-preload.c - an LD_PRELOAD library for tests: makes libtracecmd
 * "crash" (SIGSEGV) on chosen files, as it does on some corrupt ones, so
 * that load's handling of a crash can be tested with good recordings.
 *   VR_CRASH_OPEN=S   tracecmd_open() of a path containing S crashes;
 *   VR_CRASH_READ=S   the 1000th tracecmd_read_data() on such a file does.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

struct tracecmd_input;
struct tep_record;

static struct tracecmd_input *marked;	/* the file VR_CRASH_READ names */
static int reads;

static int matches(const char *var, const char *path)
{
	const char *s = getenv(var);

	return s && *s && path && strstr(path, s);
}

struct tracecmd_input *tracecmd_open(const char *file, int flags)
{
	struct tracecmd_input *(*real)(const char *, int) = dlsym(RTLD_NEXT, "tracecmd_open");
	struct tracecmd_input *h;

	if (matches("VR_CRASH_OPEN", file))
		raise(SIGSEGV);
	h = real(file, flags);
	if (matches("VR_CRASH_READ", file))
		marked = h;
	return h;
}

struct tep_record *tracecmd_read_data(struct tracecmd_input *h, int cpu)
{
	struct tep_record *(*real)(struct tracecmd_input *, int) =
		dlsym(RTLD_NEXT, "tracecmd_read_data");

	if (h && h == marked && ++reads == 1000)
		raise(SIGSEGV);
	return real(h, cpu);
}
