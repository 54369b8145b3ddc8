// SPDX-License-Identifier: GPL-2.0
/*
 * cmdlines-preload.c - an LD_PRELOAD library for t1900: every open() of
 * tracefs's saved_cmdlines gets one line more than the open before it, as
 * the kernel's table grows while processes start on a busy machine.  A
 * writer that reads the file twice (its size, then its bytes, as
 * libtracecmd 3.1.6's save_tracing_file_data() does) sees two sizes.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int opens;

static int grown_cmdlines(void)
{
	int fd = memfd_create("saved_cmdlines", 0);
	char line[64];

	if (fd < 0)
		return -1;
	opens++;
	for (int i = 0; i < 2 + opens; i++) {
		int n = snprintf(line, sizeof(line), "%d preload-comm-%d\n", 40000 + i, i);

		if (write(fd, line, (size_t)n) != n)
			return -1;
	}
	lseek(fd, 0, SEEK_SET);
	return fd;
}

static int is_cmdlines(const char *path)
{
	size_t n = strlen(path), k = strlen("/saved_cmdlines");

	return n > k && !strcmp(path + n - k, "/saved_cmdlines") &&
	       !strncmp(path, "/sys/kernel/", strlen("/sys/kernel/"));
}

#define OPEN_WRAPPER(name)                                                        \
	int name(const char *path, int flags, ...)                                \
	{                                                                         \
		static int (*real)(const char *, int, ...);                       \
		va_list ap;                                                       \
		mode_t mode;                                                      \
                                                                                  \
		if (is_cmdlines(path))                                            \
			return grown_cmdlines();                                  \
		if (!real)                                                        \
			real = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, #name); \
		va_start(ap, flags);                                              \
		mode = va_arg(ap, mode_t);                                        \
		va_end(ap);                                                       \
		return real(path, flags, mode);                                   \
	}
OPEN_WRAPPER(open)
OPEN_WRAPPER(open64)
