// SPDX-License-Identifier: GPL-2.0
/*
 * record-dat.c - write a trace.dat from drained per-CPU ring-buffer pages
 * with libtracecmd's output API, in the order trace-cmd 3.1.6's
 * record_data() (tracecmd/trace-record.c) uses: headers and event formats,
 * options, saved_cmdlines, then the CPU data.
 */
#include "record.h"
#include "vr.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <trace-cmd/trace-cmd.h>
#include <tracefs/tracefs.h>

/*
 * Exported by libtracecmd.so.1 (trace-cmd 3.1.6) but declared only in its
 * private header lib/trace-cmd/include/private/trace-cmd-private.h; the
 * prototypes and option numbers below are copied from there.
 */
struct tracecmd_output;
struct tracecmd_option;
struct tracecmd_event_list {
	struct tracecmd_event_list *next;
	const char *glob;		/* "system:event" */
};
enum {
	VR_TRACECMD_OPTION_CPUSTAT = 2,
	VR_TRACECMD_OPTION_TRACECLOCK = 4,
	VR_TRACECMD_OPTION_UNAME = 5,
	VR_TRACECMD_OPTION_VERSION = 9,
};
struct tracecmd_output *tracecmd_output_create(const char *output_file);
int tracecmd_output_set_version(struct tracecmd_output *handle, int file_version);
int tracecmd_output_set_compression(struct tracecmd_output *handle, const char *compression);
bool tracecmd_compress_is_supported(const char *name, const char *version);
int tracecmd_output_set_kallsyms(struct tracecmd_output *handle, const char *kallsyms);
int tracecmd_output_set_trace_dir(struct tracecmd_output *handle, const char *tracing_dir);
int tracecmd_output_write_headers(struct tracecmd_output *handle,
				  struct tracecmd_event_list *list);
void tracecmd_set_quiet(struct tracecmd_output *handle, bool set_quiet);
void tracecmd_set_out_clock(struct tracecmd_output *handle, const char *clock);
struct tracecmd_option *tracecmd_add_option(struct tracecmd_output *handle,
					    unsigned short id, int size, const void *data);
int tracecmd_write_cmdlines(struct tracecmd_output *handle);
int tracecmd_append_cpu_data(struct tracecmd_output *handle, int cpus,
			     char *const *cpu_data_files);
void tracecmd_output_close(struct tracecmd_output *handle);

static void add_string_option(struct tracecmd_output *out, unsigned short id, const char *s)
{
	tracecmd_add_option(out, id, (int)strlen(s) + 1, s);
}

/* The options trace-cmd record writes: trace clock, uname, version, stats. */
static void add_options(struct tracecmd_output *out, const char *clock, int ncpus,
			char *const *stats)
{
	struct utsname u;
	struct vr_buf b;

	/*
	 * The clock in the trace_clock file's form, "[mono]".  trace-record.c
	 * writes this option with size 0 ("saved with the data"), but
	 * libtracecmd 3.1.6 then parses it past its end when the file is read
	 * (or converted to version 6), which gives a garbage clock name.
	 */
	vr_buf_init(&b);
	vr_buf_addf(&b, "[%s]", clock);
	add_string_option(out, VR_TRACECMD_OPTION_TRACECLOCK, b.buf);
	vr_buf_reset(&b);
	if (uname(&u) == 0) {
		vr_buf_addf(&b, "%s %s %s %s", u.sysname, u.nodename, u.release, u.machine);
		add_string_option(out, VR_TRACECMD_OPTION_UNAME, b.buf);
	}
	vr_buf_reset(&b);
	vr_buf_addf(&b, "vmscan-report %s", VR_VERSION);
	add_string_option(out, VR_TRACECMD_OPTION_VERSION, b.buf);
	for (int c = 0; c < ncpus; c++) {
		if (!stats[c])
			continue;
		vr_buf_reset(&b);
		vr_buf_addf(&b, "CPU: %d\n%s", c, stats[c]);
		add_string_option(out, VR_TRACECMD_OPTION_CPUSTAT, b.buf);
	}
	vr_buf_release(&b);
}

/* "system:event" globs of the events recorded, for their formats only. */
static struct tracecmd_event_list *event_list(const struct record_events *e)
{
	struct tracecmd_event_list *list = vr_calloc(e->n ? e->n : 1, sizeof(*list));

	for (size_t i = 0; i < e->n; i++) {
		struct vr_buf b;

		vr_buf_init(&b);
		vr_buf_addf(&b, "%s:%s", e->ev[i].system, e->ev[i].name);
		list[i].glob = vr_buf_detach(&b);
		list[i].next = i + 1 < e->n ? &list[i + 1] : NULL;
	}
	return list;
}

static void event_list_free(struct tracecmd_event_list *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free((char *)list[i].glob);
	free(list);
}

/*
 * libtracecmd 3.1.6 writes saved_cmdlines as its size, from one read of the
 * tracefs file, then the file's content, from a second read
 * (save_tracing_file_data() in lib/trace-cmd/trace-output.c).  On a busy
 * machine the kernel's table changes between the two reads: the size no
 * longer matches the bytes after it, and a version 6 file, which has no
 * section sizes to fall back on, reads as garbage from there on (12 of 150
 * short recordings under load; trace-cmd report could not read them
 * either).  So libtracecmd reads a directory of our own: a link to each
 * tracefs entry, and saved_cmdlines read once into a regular file.
 */

/* Remove the directory stable_trace_dir() made, and free its name. */
static void stable_trace_dir_free(char *dir)
{
	DIR *d;
	struct dirent *de;

	if (!dir)
		return;
	d = opendir(dir);
	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(dirfd(d), de->d_name, 0);
	if (d)
		closedir(d);
	rmdir(dir);
	free(dir);
}

/* Read the whole of @path into @b (appended); 0, or -1 with errno. */
static int read_whole(const char *path, struct vr_buf *b)
{
	char chunk[65536];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			close(fd);
			return -1;
		}
		vr_buf_add(b, chunk, (size_t)n);
	}
	close(fd);
	return 0;
}

/* Write @len bytes of @data to a new file @path; 0, or -1 with errno. */
static int write_new_file(const char *path, const char *data, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);

	if (fd < 0)
		return -1;
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			close(fd);
			errno = e;
			return -1;
		}
		data += n;
		len -= (size_t)n;
	}
	return close(fd);
}

/*
 * A temporary directory (under $TMPDIR or /tmp) that shows tracefs (@top)
 * to libtracecmd with saved_cmdlines frozen: caller frees it with
 * stable_trace_dir_free().  NULL after an error message.
 */
static char *stable_trace_dir(const char *top)
{
	const char *tmpdir = getenv("TMPDIR");
	struct vr_buf path, cmdlines;
	struct dirent *de;
	char *dir;
	DIR *d;
	int fd, err = 0;

	vr_buf_init(&path);
	vr_buf_addf(&path, "%s/vmscan-report-tracefs.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	dir = vr_buf_detach(&path);
	if (!mkdtemp(dir)) {
		vr_error("record: cannot make a temporary directory %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	d = opendir(top);
	if (!d) {
		vr_error("record: cannot read %s: %s", top, strerror(errno));
		stable_trace_dir_free(dir);
		return NULL;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	while (fd >= 0 && !err && (de = readdir(d))) {
		struct vr_buf target;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, "saved_cmdlines"))
			continue;
		vr_buf_init(&target);
		vr_buf_addf(&target, "%s/%s", top, de->d_name);
		err = symlinkat(target.buf, fd, de->d_name) ? errno : 0;
		vr_buf_release(&target);
	}
	closedir(d);
	vr_buf_init(&path);
	vr_buf_addf(&path, "%s/saved_cmdlines", top);
	vr_buf_init(&cmdlines);
	if (!err && read_whole(path.buf, &cmdlines) == 0) {
		vr_buf_release(&path);
		vr_buf_addf(&path, "%s/saved_cmdlines", dir);
		err = write_new_file(path.buf, cmdlines.buf ? cmdlines.buf : "", cmdlines.len) ? errno : 0;
	} else if (!err) {
		err = errno;
	}
	vr_buf_release(&path);
	vr_buf_release(&cmdlines);
	if (fd >= 0)
		close(fd);
	if (fd < 0 || err) {
		vr_error("record: cannot make the view of %s in %s: %s", top, dir,
			 strerror(fd < 0 ? errno : err));
		stable_trace_dir_free(dir);
		return NULL;
	}
	return dir;
}

/* The file record writes before renaming it to @o->output (caller frees). */
static char *temp_output(const struct record_opts *o)
{
	struct vr_buf b;

	vr_buf_init(&b);
	vr_buf_addf(&b, "%s.vr-tmp%d", o->output, (int)getpid());
	return vr_buf_detach(&b);
}

int record_check_output(const struct record_opts *o)
{
	struct stat st;
	char *tmp;
	int fd;

	/* as chart -o (outfile.c): a link is not replaced by the trace, nor
	 * followed; anything else there but a regular file is not replaced */
	if (!lstat(o->output, &st) && !S_ISREG(st.st_mode))
		return S_ISLNK(st.st_mode) ?
		       vr_error("record: %s: is a symbolic link: not followed, not replaced",
				o->output) :
		       vr_error("record: %s: not a regular file; the trace is written to a new"
				" file and renamed over the output", o->output);
	if (o->file_version >= 7 && strcmp(o->compression, "any") &&
	    strcmp(o->compression, "none") &&
	    !tracecmd_compress_is_supported(o->compression, NULL))
		return vr_error("record: compression '%s' is not supported by libtracecmd"
				" (see 'trace-cmd list -c')", o->compression);
	/* can the file be created there?  (the directory exists and is writable) */
	tmp = temp_output(o);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0) {
		vr_error("record: %s: cannot create the output: %s", o->output, strerror(errno));
		free(tmp);
		return -1;
	}
	close(fd);
	unlink(tmp);
	free(tmp);
	return 0;
}

int record_write_dat(const struct record_opts *o, int ncpus, char *const *files,
		     char *const *stats)
{
	struct tracecmd_event_list *list = event_list(o->events);
	struct tracecmd_output *out;
	char *tmp = temp_output(o);
	char *view;
	int ret = -1;

	/* ERROR: a version 6 file makes libtracecmd warn "Cannot find description
	 * for buffer" for the top buffer, which needs none */
	tracecmd_set_loglevel(TEP_LOG_ERROR);
	/* written beside the output and renamed at the end, so that a failure
	 * never removes or truncates a file the user already had */
	view = stable_trace_dir(tracefs_tracing_dir());
	if (!view)
		goto out_list;
	out = tracecmd_output_create(tmp);
	if (!out) {
		vr_error("record: %s: cannot create: %s", tmp, strerror(errno));
		goto out_list;
	}
	if (tracecmd_output_set_trace_dir(out, view)) {
		vr_error("record: %s: libtracecmd does not take the tracing directory %s", tmp,
			 view);
		goto out_close;
	}
	if (tracecmd_output_set_version(out, o->file_version)) {
		vr_error("record: trace.dat file version %d is not supported by libtracecmd",
			 o->file_version);
		goto out_close;
	}
	if (o->file_version >= 7 && tracecmd_output_set_compression(out, o->compression)) {
		vr_error("record: compression '%s' is not supported by libtracecmd",
			 o->compression);
		goto out_close;
	}
	if (o->kallsyms && tracecmd_output_set_kallsyms(out, o->kallsyms)) {
		vr_error("record: cannot use '%s' as kallsyms", o->kallsyms);
		goto out_close;
	}
	tracecmd_set_quiet(out, true);
	tracecmd_set_out_clock(out, o->clock);
	if (tracecmd_output_write_headers(out, list)) {
		vr_error("record: %s: cannot write the headers and event formats", o->output);
		goto out_close;
	}
	add_options(out, o->clock, ncpus, stats);
	if (tracecmd_write_cmdlines(out)) {
		vr_error("record: %s: cannot write saved_cmdlines", o->output);
		goto out_close;
	}
	if (tracecmd_append_cpu_data(out, ncpus, files)) {
		vr_error("record: %s: cannot write the CPU data", o->output);
		goto out_close;
	}
	ret = 0;
out_close:
	tracecmd_output_close(out);
	if (!ret && rename(tmp, o->output)) {
		vr_error("record: %s: cannot rename %s to it: %s", o->output, tmp, strerror(errno));
		ret = -1;
	}
	if (ret)
		unlink(tmp);
out_list:
	stable_trace_dir_free(view);
	free(tmp);
	event_list_free(list, o->events->n);
	return ret;
}
