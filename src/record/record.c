// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - the tracefs side of `record`: a private tracefs instance
 * configured through libtracefs 1.6, a command run under tracing, the
 * per-CPU trace_pipe_raw files drained into temporary files while it runs,
 * and the instance removed on every way out.  record-dat.c writes the
 * trace.dat.
 *
 * Draining: every 50 ms, tracefs_cpu_buffered_read() splices the full
 * sub-buffers (pages) of each CPU; at the end, after tracing is off,
 * tracefs_cpu_flush() read()s the last, partly filled pages.  This is what
 * trace-cmd's recorder does (splice while running, read to finish), minus
 * its recorder processes.
 */
#define _GNU_SOURCE
#include "record.h"
#include "vr.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <tracefs/tracefs.h>

#define RECORD_INSTANCE_PREFIX "vmscan-report-"
#define RECORD_TICK_MS 50
#define RECORD_TRACEFS "/sys/kernel/tracing"

/* Per-CPU reader state. */
struct rec_cpu {
	struct tracefs_cpu *tcpu;	/* trace_pipe_raw reader, non-blocking */
	int fd;				/* temporary data file, -1 when closed */
	char *path;			/* its name, "OUTPUT.cpuN" (owned) */
	char *stats;			/* per_cpu/cpuN/stats at the end (owned) */
};

/* One recording. */
struct rec {
	const struct record_opts *o;
	struct record_result *res;
	struct tracefs_instance *inst;	/* our instance, NULL before created */
	struct rec_cpu *cpu;		/* res->ncpus entries */
	char *page;			/* one sub-buffer */
	struct pollfd *pfd;		/* the trace_pipe_raw fds, for poll() */
	pid_t child;			/* running command, 0 if none */
	int marker_fd;			/* the instance's trace_marker, -1 */
	char *snap_dir;			/* OUTPUT.snap, NULL before made (owned) */
};

/* Signals caught while recording: the last one and how many. */
static volatile sig_atomic_t rec_signal, rec_nsignals;

static void rec_on_signal(int sig)
{
	rec_signal = sig;
	rec_nsignals++;
}

/* how long a command may outlive --duration before SIGTERM (and again before SIGKILL) */
#define RECORD_GRACE_MS 2000

static const int rec_signals[] = { SIGINT, SIGTERM, SIGHUP };

static int mount_tracefs_dir(const char *dir)
{
	return mount("nodev", dir, "tracefs", 0, NULL);
}

/*
 * Where is tracefs mounted?  (/proc/mounts; libtracefs 1.6.4's own check,
 * tracefs_tracing_dir_is_mounted(), leaks the path it finds.)  Returns
 * false when no tracefs is mounted; *canonical says whether one of the
 * mounts is RECORD_TRACEFS itself.
 */
static bool tracefs_mounted(bool *canonical)
{
	FILE *f = fopen("/proc/mounts", "re");
	char line[4096], dir[4096], type[64];
	bool found = false;

	*canonical = false;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %4095s %63s", dir, type) != 2 || strcmp(type, "tracefs"))
			continue;
		found = true;
		*canonical |= !strcmp(dir, RECORD_TRACEFS);
	}
	if (f)
		fclose(f);
	return found;
}

int record_check_tracefs(bool mount)
{
	if (geteuid() != 0)
		return vr_error("record: tracing needs root (writes to tracefs); run it with sudo");
	bool canonical;

	if (!tracefs_mounted(&canonical)) {
		if (!mount)
			return vr_error("record: tracefs is not mounted; mount it with 'mount -t "
					"tracefs nodev " RECORD_TRACEFS "' or run 'vmscan-report "
					"record --mount ...'");
		if (mount_tracefs_dir(RECORD_TRACEFS))
			return vr_error("record: cannot mount tracefs on " RECORD_TRACEFS ": %s",
					strerror(errno));
		fprintf(stderr, "vmscan-report: mounted tracefs on " RECORD_TRACEFS "\n");
		canonical = true;
	}
	/* libtracefs takes the first tracefs in /proc/mounts, which can be the
	 * automount under debugfs (/sys/kernel/debug/tracing); both show the
	 * same tracefs, but messages and users expect the canonical path. */
	if (canonical && tracefs_set_tracing_dir(RECORD_TRACEFS))
		return vr_error("record: cannot use tracefs on " RECORD_TRACEFS ": %s",
				strerror(errno));
	if (!tracefs_tracing_dir())
		return vr_error("record: cannot find the tracefs directory");
	return 0;
}

/*
 * Remove instances named vmscan-report-PID whose recorder no longer runs.
 * (Reads the directory itself: tracefs_instances() of libtracefs 1.6.4
 * leaks its compiled regex.)
 */
static void remove_stale_instances(void)
{
	char *dir = tracefs_get_tracing_file("instances");
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *de;

	while (d && (de = readdir(d))) {
		struct tracefs_instance *inst;

		if (!vr_name_of_dead_process(de->d_name, RECORD_INSTANCE_PREFIX, '\0'))
			continue;
		inst = tracefs_instance_alloc(NULL, de->d_name);
		if (inst && tracefs_instance_destroy(inst) == 0)
			vr_warn("removed tracefs instance '%s' left by a recorder that was killed",
				de->d_name);
		tracefs_instance_free(inst);
	}
	if (d)
		closedir(d);
	tracefs_put_tracing_file(dir);
}

static int inst_write(struct rec *r, const char *file, const char *val)
{
	if (tracefs_instance_file_write(r->inst, file, val) < 0)
		return vr_error("record: cannot write '%s' to %s of tracefs instance '%s': %s",
				val, file, r->res->instance, strerror(errno ? errno : EINVAL));
	return 0;
}

/* Set the trace clock and check the kernel took it ("[mono] local ..."). */
static int set_clock(struct rec *r)
{
	char *now;
	int ok;

	if (tracefs_instance_file_write(r->inst, "trace_clock", r->o->clock) < 0) {
		char *avail = tracefs_instance_file_read(r->inst, "trace_clock", NULL);

		vr_error("record: trace clock '%s' is not available (this kernel has: %s)",
			 r->o->clock, avail ? strtok(avail, "\n") : "?");
		free(avail);
		return -1;
	}
	now = tracefs_get_clock(r->inst);
	ok = now && !strcmp(now, r->o->clock);
	free(now);
	return ok ? 0 : vr_error("record: the kernel did not take trace clock '%s'", r->o->clock);
}

static int enable_events(struct rec *r)
{
	const struct record_events *e = r->o->events;
	char file[512];

	for (size_t i = 0; i < e->n; i++) {
		const struct record_event *ev = &e->ev[i];

		if (ev->filter) {
			snprintf(file, sizeof(file), "events/%s/%s/filter", ev->system, ev->name);
			if (tracefs_instance_file_write(r->inst, file, ev->filter) < 0)
				return vr_error("record: the kernel rejected the filter '%s' of "
						"%s:%s", ev->filter, ev->system, ev->name);
		}
		snprintf(file, sizeof(file), "events/%s/%s/enable", ev->system, ev->name);
		if (inst_write(r, file, "1"))
			return -1;
	}
	return 0;
}

/* The ring-buffer sub-buffer size from events/header_page, as
 * tracefs_cpu_open() computes it (libtracefs 1.6 src/tracefs-record.c). */
static int subbuf_size(struct rec *r)
{
	struct tep_handle *tep = tep_alloc();
	int len = 0, size = -1;
	char *buf = tracefs_instance_file_read(r->inst, "events/header_page", &len);

	if (tep && buf && tep_parse_header_page(tep, buf, (unsigned long)len, sizeof(long)) == 0)
		size = tep_get_sub_buffer_size(tep);
	free(buf);
	tep_free(tep);
	if (size <= 0)
		return vr_error("record: cannot read the sub-buffer size from events/header_page");
	return size;
}

/* Open trace_pipe_raw of CPU @c ourselves, to poll() it. */
static struct tracefs_cpu *open_cpu(struct rec *r, int c, int size, int *fd)
{
	char file[64];
	struct tracefs_cpu *tcpu;

	snprintf(file, sizeof(file), "per_cpu/cpu%d/trace_pipe_raw", c);
	*fd = tracefs_instance_file_open(r->inst, file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0)
		return NULL;
	tcpu = tracefs_cpu_alloc_fd(*fd, size, true);
	if (!tcpu) {
		close(*fd);
		*fd = -1;
	}
	return tcpu;
}

static int open_cpus(struct rec *r)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	int size;

	if (n < 1)
		return vr_error("record: cannot count the CPUs: %s", strerror(errno));
	r->res->ncpus = (int)n;
	r->res->cpu = vr_calloc((size_t)n, sizeof(*r->res->cpu));
	r->cpu = vr_calloc((size_t)n, sizeof(*r->cpu));
	r->pfd = vr_calloc((size_t)n, sizeof(*r->pfd));
	for (int c = 0; c < n; c++)
		r->cpu[c].fd = -1;
	size = subbuf_size(r);
	if (size < 0)
		return -1;
	for (int c = 0; c < n; c++) {
		struct rec_cpu *rc = &r->cpu[c];
		struct vr_buf b;

		rc->tcpu = open_cpu(r, c, size, &r->pfd[c].fd);
		if (!rc->tcpu)
			return vr_error("record: cannot open per_cpu/cpu%d/trace_pipe_raw: %s", c,
					strerror(errno));
		r->pfd[c].events = POLLIN;
		vr_buf_init(&b);
		vr_buf_addf(&b, "%s.cpu%d", r->o->output, c);
		rc->path = vr_buf_detach(&b);
		rc->fd = open(rc->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (rc->fd < 0)
			return vr_error("record: %s: %s", rc->path, strerror(errno));
	}
	r->page = vr_malloc((size_t)size);
	return 0;
}

static int write_all(int fd, const char *p, size_t len, const char *path)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return vr_error("record: %s: write failed: %s", path,
					n < 0 ? strerror(errno) : "no space");
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Move what the ring buffer of CPU @c holds into its file: the full pages,
 * and with @final (tracing off) the partly filled ones too.
 */
static int drain_cpu(struct rec *r, int c, bool final)
{
	struct rec_cpu *rc = &r->cpu[c];
	int n;

	for (;;) {
		errno = 0;
		n = tracefs_cpu_buffered_read(rc->tcpu, r->page, true);
		if (n <= 0)
			break;
		if (write_all(rc->fd, r->page, (size_t)n, rc->path))
			return -1;
		r->res->cpu[c].bytes += (uint64_t)n;
	}
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		return vr_error("record: reading the ring buffer of cpu%d: %s", c, strerror(errno));
	while (final) {
		errno = 0;
		n = tracefs_cpu_flush(rc->tcpu, r->page);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return vr_error("record: reading the ring buffer of cpu%d: %s", c,
					strerror(errno));
		if (n == 0)
			break;
		if (write_all(rc->fd, r->page, (size_t)n, rc->path))
			return -1;
		r->res->cpu[c].bytes += (uint64_t)n;
	}
	return 0;
}

static int drain_all(struct rec *r, bool final)
{
	for (int c = 0; c < r->res->ncpus; c++)
		if (drain_cpu(r, c, final))
			return -1;
	return 0;
}

static void set_signals(struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = rec_on_signal;
	sigemptyset(&sa.sa_mask);
	rec_signal = 0;
	rec_nsignals = 0;
	for (size_t i = 0; i < VR_ARRAY_SIZE(rec_signals); i++)
		sigaction(rec_signals[i], &sa, &old[i]);
}

static void restore_signals(const struct sigaction *old)
{
	for (size_t i = 0; i < VR_ARRAY_SIZE(rec_signals); i++)
		sigaction(rec_signals[i], &old[i], NULL);
}

/* Start the command with the signal dispositions the recorder started with. */
static int start_command(struct rec *r, const struct sigaction *old)
{
	int pfd[2], err = 0;
	ssize_t n;

	sigset_t block, saved;

	if (pipe2(pfd, O_CLOEXEC))
		return vr_error("record: pipe: %s", strerror(errno));
	/* the signals stay blocked in the child until it has the recorder's
	 * old dispositions back: a SIGINT passed on right after the fork (one
	 * that came while the start snapshot was taken) is then not caught by
	 * our handler in the child, but acts on the command */
	sigemptyset(&block);
	for (size_t i = 0; i < VR_ARRAY_SIZE(rec_signals); i++)
		sigaddset(&block, rec_signals[i]);
	sigprocmask(SIG_BLOCK, &block, &saved);
	r->child = fork();
	if (r->child != 0)
		sigprocmask(SIG_SETMASK, &saved, NULL);
	if (r->child < 0) {
		close(pfd[0]);
		close(pfd[1]);
		r->child = 0;
		return vr_error("record: fork: %s", strerror(errno));
	}
	if (r->child == 0) {
		restore_signals(old);
		sigprocmask(SIG_SETMASK, &saved, NULL);
		close(pfd[0]);
		execvp(r->o->argv[0], r->o->argv);
		err = errno;
		if (write(pfd[1], &err, sizeof(err)) < 0)
			_exit(127);
		_exit(127);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], &err, sizeof(err))) < 0 && errno == EINTR)
		;
	close(pfd[0]);
	if (n == (ssize_t)sizeof(err)) {
		waitpid(r->child, NULL, 0);
		r->child = 0;
		return vr_error("record: cannot run '%s': %s", r->o->argv[0], strerror(err));
	}
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Has the command ended?  Reaps it and keeps its status. */
static bool command_done(struct rec *r)
{
	int status;
	pid_t p;

	if (!r->child)
		return true;
	p = waitpid(r->child, &status, WNOHANG);
	if (p == r->child || (p < 0 && errno == ECHILD)) {
		r->res->cmd_status = p == r->child ? status : -1;
		r->child = 0;
		return true;
	}
	return false;
}

/*
 * Drain until the command ends, the duration passes or a signal comes.  A
 * signal (or the end of --duration) is passed on to the command, which is
 * then waited for; a second signal kills it.  A command that outlives the
 * end of --duration by RECORD_GRACE_MS (it ignores SIGINT, or inherited
 * SIG_IGN for it) gets SIGTERM, then SIGKILL after as long again, each said
 * on stderr: --duration is a limit.
 */
static int record_loop(struct rec *r)
{
	uint64_t end = r->o->duration_ms ? now_ns() + r->o->duration_ms * 1000000u : 0;
	uint64_t grace = RECORD_GRACE_MS * 1000000ull;
	bool sent = false;	/* the command was sent the stop signal */
	int seen = 0;		/* signals of ours seen when it was sent */
	int escalated = 0;	/* SIGTERM, SIGKILL sent after --duration */

	for (;;) {
		if (drain_all(r, false))
			return -1;
		if (r->o->argv && command_done(r))
			return 0;
		if (rec_nsignals)
			r->res->interrupted = true;
		if (!r->o->argv && (rec_nsignals || (end && now_ns() >= end)))
			return 0;
		if (r->o->argv && !sent && (rec_nsignals || (end && now_ns() >= end))) {
			kill(r->child, rec_nsignals ? rec_signal : SIGINT);
			sent = true;
			seen = rec_nsignals;
		} else if (r->o->argv && sent && rec_nsignals > seen) {
			kill(r->child, SIGKILL);	/* a second Ctrl-C */
		} else if (r->o->argv && sent && !rec_nsignals && escalated < 2 &&
			   now_ns() >= end + grace * (uint64_t)(escalated + 1)) {
			int sig = escalated ? SIGKILL : SIGTERM;

			vr_warn("record: the command (pid %d) still runs %.0f s after --duration "
				"ended; sending it %s", (int)r->child,
				(double)(grace * (uint64_t)(escalated + 1)) / 1e9,
				sig == SIGTERM ? "SIGTERM" : "SIGKILL");
			kill(r->child, sig);
			escalated++;
		}
		/* wakes when a buffer is buffer_percent (default 50%) full */
		poll(r->pfd, (nfds_t)r->res->ncpus, RECORD_TICK_MS);
	}
}

static void read_stats(struct rec *r)
{
	char file[64];

	for (int c = 0; c < r->res->ncpus; c++) {
		uint64_t bytes = r->res->cpu[c].bytes;

		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", c);
		r->cpu[c].stats = tracefs_instance_file_read(r->inst, file, NULL);
		if (r->cpu[c].stats)
			record_parse_cpu_stats(r->cpu[c].stats, &r->res->cpu[c]);
		r->res->cpu[c].bytes = bytes;
	}
}

/* Close the readers and data files (the instance cannot go while open). */
static void close_cpus(struct rec *r)
{
	for (int c = 0; r->cpu && c < r->res->ncpus; c++) {
		tracefs_cpu_close(r->cpu[c].tcpu);
		r->cpu[c].tcpu = NULL;
		if (r->cpu[c].fd >= 0)
			close(r->cpu[c].fd);
		r->cpu[c].fd = -1;
	}
}

static void cleanup(struct rec *r)
{
	if (r->child) {
		kill(r->child, SIGKILL);
		waitpid(r->child, NULL, 0);
		r->child = 0;
	}
	close_cpus(r);
	if (r->inst) {
		tracefs_trace_off(r->inst);
		if (tracefs_instance_destroy(r->inst))
			vr_error("record: cannot remove tracefs instance '%s': %s; remove it with "
				 "'rmdir %s/instances/%s'", r->res->instance,
				 strerror(errno), tracefs_tracing_dir(), r->res->instance);
		tracefs_instance_free(r->inst);
		r->inst = NULL;
	}
	for (int c = 0; r->cpu && c < r->res->ncpus; c++) {
		if (r->cpu[c].path)
			unlink(r->cpu[c].path);
		free(r->cpu[c].path);
		free(r->cpu[c].stats);
	}
	free(r->cpu);
	r->cpu = NULL;
	free(r->pfd);
	r->pfd = NULL;
	free(r->page);
	r->page = NULL;
}

static int setup_instance(struct rec *r)
{
	struct vr_buf b;

	remove_stale_instances();
	vr_buf_init(&b);
	vr_buf_addf(&b, RECORD_INSTANCE_PREFIX "%d", (int)getpid());
	r->res->instance = vr_buf_detach(&b);
	if (tracefs_instance_exists(r->res->instance))
		return vr_error("record: tracefs instance '%s' exists already", r->res->instance);
	r->inst = tracefs_instance_create(r->res->instance);
	if (!r->inst)
		return vr_error("record: cannot create tracefs instance '%s': %s (a kernel older "
				"than 3.10 has no instances)", r->res->instance, strerror(errno));
	if (tracefs_trace_off(r->inst) < 0)
		return vr_error("record: cannot stop tracing in instance '%s'", r->res->instance);
	if (set_clock(r))
		return -1;
	if (r->o->buffer_kb) {
		char kb[32];

		snprintf(kb, sizeof(kb), "%u", r->o->buffer_kb);
		if (inst_write(r, "buffer_size_kb", kb))
			return -1;
	}
	if (enable_events(r) || open_cpus(r))
		return -1;
	return 0;
}

/* The start snapshot: OUTPUT.snap made, the marker file opened, the
 * files saved (tracing is on: the marker is in the trace). */
static int snapshot_begin(struct rec *r)
{
	r->marker_fd = tracefs_instance_file_open(r->inst, "trace_marker", O_WRONLY | O_CLOEXEC);
	if (r->marker_fd < 0)
		return vr_error("record: cannot open trace_marker of tracefs instance '%s': %s",
				r->res->instance, strerror(errno));
	if (record_snapshot_dir(r->o->output, &r->snap_dir))
		return -1;
	r->res->markers++;
	return record_snapshot(r->marker_fd, r->snap_dir, "start", r->o->cgroup);
}

int record_run(const struct record_opts *o, struct record_result *res)
{
	struct rec r = { .o = o, .res = res, .marker_fd = -1 };
	struct sigaction old[VR_ARRAY_SIZE(rec_signals)];
	int ret = -1;

	memset(res, 0, sizeof(*res));
	res->cmd_status = -1;
	if (record_check_output(o))
		return -1;
	set_signals(old);
	if (setup_instance(&r))
		goto out;
	if (tracefs_trace_on(r.inst) < 0) {
		vr_error("record: cannot start tracing in instance '%s'", res->instance);
		goto out;
	}
	if (!o->quiet)
		fprintf(stderr, "vmscan-report: recording %zu events in tracefs instance '%s' "
			"(clock %s)%s\n", o->events->n, res->instance, o->clock,
			o->argv ? "" : o->duration_ms ? "" : "; Ctrl-C stops");
	if (snapshot_begin(&r))
		goto out;
	if (o->argv && start_command(&r, old))
		goto out;
	if (record_loop(&r))
		goto out;
	res->markers++;
	if (record_snapshot(r.marker_fd, r.snap_dir, "end", o->cgroup))
		goto out;
	tracefs_trace_off(r.inst);
	if (drain_all(&r, true))
		goto out;
	read_stats(&r);
	close_cpus(&r);
	{
		char **files = vr_calloc((size_t)res->ncpus, sizeof(*files));
		char **stats = vr_calloc((size_t)res->ncpus, sizeof(*stats));

		for (int c = 0; c < res->ncpus; c++) {
			files[c] = r.cpu[c].path;
			stats[c] = r.cpu[c].stats;
		}
		ret = record_write_dat(o, res->ncpus, files, stats);
		free(files);
		free(stats);
	}
out:
	if (ret)
		record_snapshot_remove(r.snap_dir);
	free(r.snap_dir);
	if (r.marker_fd >= 0)
		close(r.marker_fd);
	cleanup(&r);
	restore_signals(old);
	return ret;
}

void record_result_release(struct record_result *r)
{
	free(r->cpu);
	free(r->instance);
	memset(r, 0, sizeof(*r));
}
