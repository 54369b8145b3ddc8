// SPDX-License-Identifier: GPL-2.0
/*
 * crash-preload.c - an LD_PRELOAD library for tests: makes libtracecmd
 * "crash" (SIGSEGV) on chosen files, as it does on some corrupt ones, so
 * that load's handling of a crash can be tested with good recordings.
 *   VR_CRASH_OPEN=S   tracecmd_open() of a path containing S crashes;
 *   VR_CRASH_READ=S   the 1000th tracecmd_read_data() on such a file does;
 *   VR_CRASH_SIGNAL=N raise signal N instead of SIGSEGV (9: as if killed);
 *   VR_CRASH_ENOMEM=1 crash with errno ENOMEM, as after a failed allocation;
 *   VR_CRASH_ONCE=F   crash only if file F does not exist, making it first
 *                     (a second worker reading the file again does not);
 *   VR_CRASH_WAIT=F   before crashing, wait (up to 10 s) for file F to
 *                     exist, then 0.2 s more (a child's file to be seen);
 *   VR_EXIT_READ=S    the 1000th read of such a file ends the process with
 *                     exit status 0 instead, as if it had stopped reading;
 *   VR_CRASH_EXIT=S   a process that opened such a file crashes as it exits;
 *   VR_HANG_READ=S    the 1000th read of such a file hangs for 100 s, deaf to
 *                     the load's interrupt flag (as libtracecmd reading 2 GiB
 *                     of zeros 8 bytes at a time was), after making the file
 *                     VR_HANG_MARK names, if any;
 *   VR_SIGNAL_RENAME=K,N  the K-th renameat() by which a process puts one of
 *                     its own temporaries (".vmscan-report-PID.") in place
 *                     raises signal N (9, 2, ...) just before it (the
 *                     renames of a dead process's files by another are not
 *                     counted);
 *   VR_SIGNAL_PROGRESS=W,I,N  a load's worker raises signal N just before
 *                     it writes its progress line W ('s', 'c', 'd') of
 *                     file I (counted from 0 among the command line's
 *                     files; VR_CRASH_ONCE applies), as the kernel killing
 *                     it (OOM) between a commit and its report would;
 *   VR_SIGNAL_UNLINK=S,K,N  the K-th unlink() of a path containing S raises
 *                     signal N just before it (VR_CRASH_ONCE applies): with
 *                     S "-journal", a worker killed in its COMMIT before the
 *                     commit point of SQLite's rollback journal;
 *   VR_CHANGE_MAPPED=S,SIZE  right after a process maps a file whose path
 *                     contains S (mmap(), as the text reader maps a text
 *                     trace), the file is cut to SIZE bytes (or grown to
 *                     them with zeros), as another program writing it would.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

struct tracecmd_input;
struct tep_record;

static struct tracecmd_input *marked;	/* the file VR_CRASH_READ names */
static struct tracecmd_input *marked_exit;	/* the file VR_EXIT_READ names */
static struct tracecmd_input *marked_hang;	/* the file VR_HANG_READ names */
static int reads, crash_at_exit;

static void crash(void)
{
	const char *s = getenv("VR_CRASH_SIGNAL"), *once = getenv("VR_CRASH_ONCE");
	const char *wait = getenv("VR_CRASH_WAIT");
	int fd;

	if (once && *once) {
		fd = open(once, O_WRONLY | O_CREAT | O_EXCL, 0600);
		if (fd < 0)
			return;
		close(fd);
	}
	if (wait && *wait) {
		for (int i = 0; i < 200 && access(wait, F_OK); i++)
			usleep(50000);
		usleep(200000);
	}
	if (getenv("VR_CRASH_ENOMEM"))
		errno = ENOMEM;
	raise(s && *s ? atoi(s) : SIGSEGV);
}

/* crash() by signal @sig (VR_CRASH_ONCE and VR_CRASH_WAIT apply). */
static void crash_by(int sig)
{
	char num[16];

	snprintf(num, sizeof(num), "%d", sig);
	setenv("VR_CRASH_SIGNAL", num, 1);
	crash();
}

__attribute__((destructor)) static void crash_on_exit(void)
{
	if (crash_at_exit)
		crash();
}

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
		crash();
	h = real(file, flags);
	if (matches("VR_CRASH_READ", file))
		marked = h;
	if (matches("VR_EXIT_READ", file))
		marked_exit = h;
	if (matches("VR_CRASH_EXIT", file))
		crash_at_exit = 1;
	if (matches("VR_HANG_READ", file))
		marked_hang = h;
	return h;
}

struct tep_record *tracecmd_read_data(struct tracecmd_input *h, int cpu)
{
	struct tep_record *(*real)(struct tracecmd_input *, int) =
		dlsym(RTLD_NEXT, "tracecmd_read_data");

	if (h && h == marked && ++reads == 1000)
		crash();
	if (h && h == marked_exit && ++reads == 1000)
		_exit(0);
	if (h && h == marked_hang && ++reads == 1000) {
		const char *mark = getenv("VR_HANG_MARK");

		if (mark && *mark)
			close(open(mark, O_WRONLY | O_CREAT, 0600));
		for (int i = 0; i < 100; i++)
			sleep(1);	/* (a signal handler's return ends one sleep only) */
	}
	return real(h, cpu);
}

int renameat(int olddirfd, const char *oldpath, int newdirfd, const char *newpath)
{
	static int (*real)(int, const char *, int, const char *);
	static int renames;
	const char *spec = getenv("VR_SIGNAL_RENAME");
	char own[64];
	int k, sig;

	if (!real)
		real = (int (*)(int, const char *, int, const char *))dlsym(RTLD_NEXT, "renameat");
	snprintf(own, sizeof(own), ".vmscan-report-%d.", (int)getpid());
	if (spec && sscanf(spec, "%d,%d", &k, &sig) == 2 && !strncmp(oldpath, own, strlen(own)) &&
	    ++renames == k)
		raise(sig);
	return real(olddirfd, oldpath, newdirfd, newpath);
}

int unlink(const char *path)
{
	static int (*real)(const char *);
	static int seen;
	const char *spec = getenv("VR_SIGNAL_UNLINK");
	char want[64];
	int k, sig;

	if (!real)
		real = (int (*)(const char *))dlsym(RTLD_NEXT, "unlink");
	if (spec && sscanf(spec, "%63[^,],%d,%d", want, &k, &sig) == 3 && strstr(path, want) &&
	    ++seen == k)
		crash_by(sig);
	return real(path);
}

int dprintf(int fd, const char *fmt, ...)
{
	const char *spec = getenv("VR_SIGNAL_PROGRESS");
	char want;
	int i, sig, ret;
	va_list ap;

	va_start(ap, fmt);
	if (spec && sscanf(spec, "%c,%d,%d", &want, &i, &sig) == 3 && !strncmp(fmt, "%c %d ", 6)) {
		va_list look;
		int what, file;

		va_copy(look, ap);
		what = va_arg(look, int);
		file = va_arg(look, int);
		va_end(look);
		if (what == want && file == i)
			crash_by(sig);
	}
	ret = vdprintf(fd, fmt, ap);
	va_end(ap);
	return ret;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);
	const char *spec = getenv("VR_CHANGE_MAPPED");
	char link[64], path[4096], want[256];
	long long size;
	void *p;
	ssize_t n;

	if (!real)
		real = (void *(*)(void *, size_t, int, int, int, off_t))dlsym(RTLD_NEXT, "mmap");
	p = real(addr, len, prot, flags, fd, off);
	if (p == MAP_FAILED || fd < 0 || !spec || sscanf(spec, "%255[^,],%lld", want, &size) != 2)
		return p;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, path, sizeof(path) - 1);
	if (n > 0) {
		path[n] = '\0';
		if (strstr(path, want) && truncate(path, (off_t)size))
			perror("crash-preload: truncate");
	}
	return p;
}
