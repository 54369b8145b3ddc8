// SPDX-License-Identifier: GPL-2.0
/*
 * outfile.c - output files written to a temporary, checked, then renamed
 * (struct outfile), and directories of them tracked by a MANIFEST of
 * SHA-256 hashes (struct outdir).  See outfile.h for the rules.
 */
#define _GNU_SOURCE
#include "outfile.h"
#include "vr.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <libgen.h>
#include <openssl/evp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TMP_PREFIX ".vmscan-report-"
#define MANIFEST_NAME "MANIFEST"
#define MANIFEST_HEADER "# vmscan-report"
#define MANIFEST_MAX_BYTES (1 << 20)
#define NAME_MAX_BYTES 200	/* a name plus TMP_PREFIX, pid and suffix fit NAME_MAX */
#define SHA256_HEX 64
/* TMP_PREFIX "PID." then this: the new MANIFEST of a commit under way (its
 * intent); no file's temporary has the name, as a plain name never starts
 * with '.' */
#define INTENT_NAME ".intent"

enum of_state { OF_OPEN, OF_DONE, OF_FAILED };

struct outfile {
	char *path;		/* the name as the user sees it: messages */
	char *name;		/* last component, in dirfd */
	char *tmp;		/* the temporary's name in dirfd */
	int dirfd;
	bool own_dirfd;		/* outfile_create(): closed with the file */
	int fd;			/* the temporary, -1 once closed */
	FILE *stream;		/* outfile_stream(), or NULL */
	int err;		/* errno of the first failed write */
	enum of_state state;
	char sha256[SHA256_HEX + 1];
};

/* ---- hashing ---------------------------------------------------------- */

/* SHA-256 of @fd's content from offset 0 into @hex; 0, or -1 with errno set. */
static int sha256_fd(int fd, char hex[SHA256_HEX + 1])
{
	static const char hexdig[] = "0123456789abcdef";
	unsigned char buf[1 << 16], md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	off_t off = 0;
	ssize_t n;

	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		EVP_MD_CTX_free(ctx);
		errno = ENOSYS;
		return -1;
	}
	while ((n = pread(fd, buf, sizeof(buf), off)) > 0 || (n < 0 && errno == EINTR)) {
		if (n > 0) {
			EVP_DigestUpdate(ctx, buf, (size_t)n);
			off += n;
		}
	}
	if (n == 0)
		EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_MD_CTX_free(ctx);
	if (n < 0 || mdlen * 2 != SHA256_HEX)
		return -1;
	for (unsigned int i = 0; i < mdlen; i++) {
		hex[2 * i] = hexdig[md[i] >> 4];
		hex[2 * i + 1] = hexdig[md[i] & 15];
	}
	hex[SHA256_HEX] = '\0';
	return 0;
}

/*
 * Hash the regular file @name in @dirfd without following a symbolic link
 * or blocking on a FIFO.  Returns 0, 1 when it is not a regular file
 * (symbolic link, directory, device...), or -1 with errno set.
 */
static int sha256_name(int dirfd, const char *name, char hex[SHA256_HEX + 1])
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	struct stat st;
	int ret;

	if (fd < 0)
		return errno == ELOOP ? 1 : -1;
	if (fstat(fd, &st))
		ret = -1;
	else
		ret = S_ISREG(st.st_mode) ? sha256_fd(fd, hex) : 1;
	close(fd);
	return ret;
}

/* ---- one file --------------------------------------------------------- */

/* Create the temporary of @of in its directory; 0 or -1 with errno set. */
static int of_create_tmp(struct outfile *of)
{
	struct vr_buf b;

	vr_buf_init(&b);
	for (int k = 0; k < 100; k++) {
		vr_buf_reset(&b);
		vr_buf_addf(&b, TMP_PREFIX "%d.", (int)getpid());
		if (k)
			vr_buf_addf(&b, "%d.", k);
		vr_buf_add(&b, of->name, strnlen(of->name, NAME_MAX_BYTES));
		of->fd = openat(of->dirfd, b.buf, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW |
				O_CLOEXEC, 0666);
		if (of->fd >= 0) {
			of->tmp = vr_buf_detach(&b);
			return 0;
		}
		if (errno != EEXIST)
			break;
	}
	vr_buf_release(&b);
	return -1;
}

static struct outfile *of_new(int dirfd, bool own_dirfd, const char *path, const char *name)
{
	struct outfile *of = vr_calloc(1, sizeof(*of));

	of->path = vr_strdup(path);
	of->name = vr_strdup(name);
	of->dirfd = dirfd;
	of->own_dirfd = own_dirfd;
	if (of_create_tmp(of)) {
		vr_error("%s: cannot create a temporary file next to it: %s", path,
			 strerror(errno));
		if (own_dirfd)
			close(dirfd);
		free(of->path);
		free(of->name);
		free(of);
		return NULL;
	}
	return of;
}

static void of_free(struct outfile *of)
{
	if (of->own_dirfd)
		close(of->dirfd);
	free(of->path);
	free(of->name);
	free(of->tmp);
	free(of);
}

/* Is whatever @dirfd holds at @name something a new file may replace
 * without asking (absent or a regular file)?  0, or -1 after a message. */
static int check_replaceable(int dirfd, const char *name, const char *path)
{
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno == ENOENT)
			return 0;
		return vr_error("%s: %s", path, strerror(errno));
	}
	if (S_ISLNK(st.st_mode))
		return vr_error("%s: is a symbolic link: not followed, not replaced", path);
	if (!S_ISREG(st.st_mode))
		return vr_error("%s: %s: not replaced", path,
				S_ISDIR(st.st_mode) ? "is a directory" : "not a regular file");
	return 0;
}

struct outfile *outfile_create(const char *path)
{
	char *dcopy = vr_strdup(path), *bcopy = vr_strdup(path);
	const char *dir = dirname(dcopy), *name = basename(bcopy);
	struct outfile *of = NULL;
	int dirfd = -1;
	size_t len = strlen(path);

	if (!len || path[len - 1] == '/' || !strcmp(name, ".") || !strcmp(name, "..")) {
		vr_error("%s: not a file name", path);
		goto out;
	}
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0) {
		vr_error("%s: cannot write there: %s: %s", path, dir, strerror(errno));
		goto out;
	}
	if (check_replaceable(dirfd, name, path)) {
		close(dirfd);
		goto out;
	}
	of = of_new(dirfd, true, path, name);
out:
	free(dcopy);
	free(bcopy);
	return of;
}

int outfile_write(struct outfile *of, const void *buf, size_t len)
{
	const char *p = buf;

	if (of->state != OF_OPEN || of->err)
		return -1;
	while (len) {
		ssize_t n = write(of->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			of->err = n < 0 ? errno : EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* fopencookie's write: the bytes written, 0 on error (glibc's contract). */
static ssize_t cookie_write(void *cookie, const char *buf, size_t len)
{
	return outfile_write(cookie, buf, len) ? 0 : (ssize_t)len;
}

FILE *outfile_stream(struct outfile *of)
{
	if (!of->stream && of->state == OF_OPEN) {
		of->stream = fopencookie(of, "w", (cookie_io_functions_t){ .write = cookie_write });
		if (!of->stream)
			outfile_fail(of, errno);
	}
	return of->stream;
}

const char *outfile_path(const struct outfile *of)
{
	return of->path;
}

int outfile_error(const struct outfile *of)
{
	return of->err;
}

void outfile_fail(struct outfile *of, int err)
{
	if (of->state == OF_FAILED)
		return;
	of->state = OF_FAILED;	/* first: the stream's last flush writes nothing */
	if (err)
		vr_error("%s: cannot write: %s", of->path, strerror(err));
	if (of->stream)
		fclose(of->stream);	/* its failed flush only sets of->err */
	of->stream = NULL;
	if (of->fd >= 0)
		close(of->fd);
	of->fd = -1;
	if (of->tmp)
		unlinkat(of->dirfd, of->tmp, 0);
	free(of->tmp);
	of->tmp = NULL;
}

int outfile_finish(struct outfile *of)
{
	if (of->state != OF_OPEN)
		return of->state == OF_DONE ? 0 : -1;
	if (of->stream) {
		FILE *f = of->stream;

		of->stream = NULL;
		if (fclose(f) && !of->err)
			of->err = errno ? errno : EIO;
	}
	if (!of->err && fsync(of->fd))
		of->err = errno;
	if (!of->err && sha256_fd(of->fd, of->sha256))
		of->err = errno;
	if (close(of->fd) && !of->err)
		of->err = errno;
	of->fd = -1;
	if (of->err) {
		outfile_fail(of, of->err);
		return -1;
	}
	of->state = OF_DONE;
	return 0;
}

/* Rename @of's finished temporary over its name; 0 or -1 after a message. */
static int of_rename(struct outfile *of)
{
	if (renameat(of->dirfd, of->tmp, of->dirfd, of->name)) {
		int err = errno;

		unlinkat(of->dirfd, of->tmp, 0);
		of->state = OF_FAILED;
		return vr_error("%s: cannot replace it: %s", of->path, strerror(err));
	}
	free(of->tmp);
	of->tmp = NULL;
	return 0;
}

int outfile_commit(struct outfile *of)
{
	int ret = outfile_finish(of);

	if (!ret)
		ret = of_rename(of);
	if (!ret && fsync(of->dirfd) && errno != EINVAL)
		ret = vr_error("%s: cannot write its directory: %s", of->path, strerror(errno));
	of_free(of);
	return ret;
}

void outfile_abort(struct outfile *of)
{
	if (!of)
		return;
	outfile_fail(of, 0);
	of_free(of);
}

/* ---- a directory of files and its MANIFEST ----------------------------- */

struct manifest_entry {
	char *name;
	char sha256[SHA256_HEX + 1];	/* "" for an entry of a MANIFEST without hashes */
	bool trusted;			/* may be replaced or removed (content checked) */
};

struct outdir {
	char *dir;			/* as given: messages */
	int dirfd;
	struct manifest_entry *old;	/* the MANIFEST found */
	size_t nold;
	struct outfile **files;		/* being written, in order */
	size_t nfiles;
	bool failed;
	bool created;			/* outdir_open() made @dir */
};

static char *dir_path(const struct outdir *d, const char *name)
{
	struct vr_buf b;

	vr_buf_init(&b);
	vr_buf_addf(&b, "%s/%s", d->dir, name);
	return vr_buf_detach(&b);
}

static bool plain_name(const char *name)
{
	if (!*name || *name == '.' || strlen(name) > NAME_MAX_BYTES)
		return false;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == '/')
			return false;
	return true;
}

static bool is_hex64(const char *s)
{
	for (int i = 0; i < SHA256_HEX; i++)
		if (!s[i] || !strchr("0123456789abcdef", s[i]))
			return false;
	return true;
}

static void add_old(struct outdir *d, const char *name, const char *sha256, bool trusted)
{
	struct manifest_entry *e;

	d->old = vr_realloc(d->old, (d->nold + 1) * sizeof(*d->old));
	e = &d->old[d->nold++];
	e->name = vr_strdup(name);
	memcpy(e->sha256, sha256, strnlen(sha256, SHA256_HEX));
	e->sha256[strnlen(sha256, SHA256_HEX)] = '\0';
	e->trusted = trusted;
}

static bool matches_any(const char *name, const char *const *patterns)
{
	for (; patterns && *patterns; patterns++)
		if (!fnmatch(*patterns, name, 0))
			return true;
	return false;
}

/* Split @text (NUL-terminated, modified) at its newlines; returns the count. */
static size_t split_lines(char *text, char ***lines)
{
	size_t n = 0;

	*lines = NULL;
	for (char *p = text; *p;) {
		char *nl = strchr(p, '\n');

		*lines = vr_realloc(*lines, (n + 1) * sizeof(**lines));
		(*lines)[n++] = p;
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	return n;
}

/* A MANIFEST with hashes: "HEX  NAME" lines after the comment line. */
static int parse_hashed(struct outdir *d, char **lines, size_t n, const char *mpath)
{
	for (size_t i = 1; i < n; i++) {
		const char *l = lines[i];

		if (!*l || *l == '#')
			continue;
		if (strlen(l) < SHA256_HEX + 3 || !is_hex64(l) || l[SHA256_HEX] != ' ' ||
		    (l[SHA256_HEX + 1] != ' ' && l[SHA256_HEX + 1] != '*') ||
		    !plain_name(l + SHA256_HEX + 2))
			return vr_error("%s:%zu: not a line vmscan-report writes (SHA-256, two"
					" spaces, a plain file name): nothing replaced", mpath, i + 1);
		if (strcmp(l + SHA256_HEX + 2, MANIFEST_NAME))
			add_old(d, l + SHA256_HEX + 2, l, true);
	}
	return 0;
}

/* A MANIFEST of an older vmscan-report: plain names, the last "MANIFEST". */
static int parse_legacy(struct outdir *d, char **lines, size_t n, const char *mpath,
			const char *const *legacy)
{
	size_t last = n;

	while (last && !*lines[last - 1])
		last--;
	if (!last || strcmp(lines[last - 1], MANIFEST_NAME))
		goto not_ours;
	for (size_t i = 0; i + 1 < last; i++)
		if (*lines[i] && !plain_name(lines[i]))
			goto not_ours;
	for (size_t i = 0; i + 1 < last; i++) {
		if (!*lines[i] || !strcmp(lines[i], MANIFEST_NAME))
			continue;
		if (matches_any(lines[i], legacy))
			add_old(d, lines[i], "", true);
		else
			vr_warn("%s lists %s, a name vmscan-report never writes there: left alone",
				mpath, lines[i]);
	}
	return 0;
not_ours:
	return vr_error("%s: not written by vmscan-report (neither its SHA-256 list nor an"
			" older list of names ending in MANIFEST): not replaced; choose another"
			" directory", mpath);
}

/* Read DIR/MANIFEST into d->old; 0 (also when absent) or -1 after a message. */
static int read_manifest(struct outdir *d, const char *const *legacy)
{
	char *mpath = dir_path(d, MANIFEST_NAME), *text = NULL, **lines = NULL;
	int fd = openat(d->dirfd, MANIFEST_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
			O_NOCTTY);
	struct stat st;
	ssize_t len = 0;
	int ret = 0;

	if (fd < 0) {
		int err = errno;

		if (err != ENOENT && !check_replaceable(d->dirfd, MANIFEST_NAME, mpath))
			vr_error("%s: %s", mpath, strerror(err));
		ret = err == ENOENT ? 0 : -1;
		goto out;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > MANIFEST_MAX_BYTES) {
		ret = vr_error("%s: not a MANIFEST vmscan-report writes (not a regular file of"
			       " at most 1 MiB): not replaced; choose another directory", mpath);
		goto out;
	}
	text = vr_malloc((size_t)st.st_size + 1);
	len = pread(fd, text, (size_t)st.st_size, 0);
	if (len != st.st_size) {
		ret = vr_error("%s: %s", mpath, len < 0 ? strerror(errno) : "changed while read");
		goto out;
	}
	text[len] = '\0';
	if (memchr(text, '\0', (size_t)len)) {
		ret = vr_error("%s: not written by vmscan-report (binary): not replaced", mpath);
		goto out;
	}
	size_t n = split_lines(text, &lines);

	if (n && !strncmp(lines[0], MANIFEST_HEADER, strlen(MANIFEST_HEADER)))
		ret = parse_hashed(d, lines, n, mpath);
	else
		ret = parse_legacy(d, lines, n, mpath, legacy);
out:
	if (fd >= 0)
		close(fd);
	free(lines);
	free(text);
	free(mpath);
	return ret;
}

/* The intent's name of process @pid in @buf. */
static const char *intent_name(char *buf, size_t len, long pid)
{
	snprintf(buf, len, TMP_PREFIX "%ld." INTENT_NAME, pid);
	return buf;
}

/* Is @name the intent of a process that is gone?  Its pid in *@pid. */
static bool dead_intent(const char *name, long *pid)
{
	char want[64];

	if (!vr_name_of_dead_process(name, TMP_PREFIX, '.'))
		return false;
	*pid = strtol(name + strlen(TMP_PREFIX), NULL, 10);
	return !strcmp(name, intent_name(want, sizeof(want), *pid));
}

/* The entries of the intent @name (a MANIFEST with hashes), or -1. */
static int read_intent(struct outdir *d, const char *name, struct manifest_entry **e, size_t *n)
{
	struct outdir tmp = { .dir = d->dir, .dirfd = d->dirfd };
	int fd = openat(d->dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	char *text = NULL, **lines = NULL;
	struct stat st;
	int ret = -1;

	if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size <= MANIFEST_MAX_BYTES) {
		text = vr_malloc((size_t)st.st_size + 1);
		if (pread(fd, text, (size_t)st.st_size, 0) == st.st_size) {
			size_t nl;

			text[st.st_size] = '\0';
			nl = memchr(text, '\0', (size_t)st.st_size) ? 0 : split_lines(text, &lines);
			if (nl && !strncmp(lines[0], MANIFEST_HEADER, strlen(MANIFEST_HEADER)))
				ret = parse_hashed(&tmp, lines, nl, name);
		}
	}
	if (fd >= 0)
		close(fd);
	free(lines);
	free(text);
	*e = tmp.old;
	*n = tmp.nold;
	return ret;
}

static void free_entries(struct manifest_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(e[i].name);
	free(e);
}

static int is_ours(const struct outdir *d, const char *name, const char **why);

/*
 * Put entry @e of the intent of dead process @pid in place: its file has
 * the intent's content already (renamed before the process died), or its
 * temporary has, and what is at its name is ours (old MANIFEST): then it
 * is renamed.  0 in place, -1 not.
 */
static int finish_entry(struct outdir *d, const struct manifest_entry *e, long pid)
{
	char tmp[NAME_MAX_BYTES + 64], hex[SHA256_HEX + 1];
	const char *why;

	if (!sha256_name(d->dirfd, e->name, hex) && !strcmp(hex, e->sha256))
		return 0;
	snprintf(tmp, sizeof(tmp), TMP_PREFIX "%ld.%s", pid, e->name);
	if (sha256_name(d->dirfd, tmp, hex) || strcmp(hex, e->sha256) ||
	    is_ours(d, e->name, &why) != 1)
		return -1;
	return renameat(d->dirfd, tmp, d->dirfd, e->name) ? -1 : 0;
}

/*
 * A report killed during its renames (outdir_commit()) left its intent
 * @name (the new MANIFEST, whole) and some of its files still as
 * temporaries: finish what it began, the files then MANIFEST, so that the
 * directory is the new bundle whole.  When that cannot be done (a file
 * changed since, a temporary gone), the files of both MANIFESTs are taken
 * as report's own, so that this report replaces them.  Said either way.
 * Returns 1 finished, 0 not.
 */
static int finish_intent(struct outdir *d, const char *name, long pid)
{
	struct manifest_entry *e;
	size_t n, done = 0;
	bool whole;

	if (read_intent(d, name, &e, &n)) {
		free_entries(e, n);
		unlinkat(d->dirfd, name, 0);
		return 0;
	}
	for (size_t i = 0; i < n; i++)
		done += !finish_entry(d, &e[i], pid);
	whole = done == n;
	if (whole) {
		/* the old files it no longer lists, as outdir_commit() removes them */
		for (size_t i = 0; i < d->nold; i++) {
			const char *why;
			bool listed = false;

			for (size_t j = 0; j < n && !listed; j++)
				listed = !strcmp(e[j].name, d->old[i].name);
			if (!listed && is_ours(d, d->old[i].name, &why) == 1)
				unlinkat(d->dirfd, d->old[i].name, 0);
		}
		whole = !renameat(d->dirfd, name, d->dirfd, MANIFEST_NAME);
		if (whole && fsync(d->dirfd) && errno != EINVAL)
			whole = false;
	}
	if (whole) {
		vr_warn("%s: a report (pid %ld) was killed while it replaced the bundle's files: its"
			" replacement is finished (%zu files, MANIFEST), the bundle is the new one,"
			" whole", d->dir, pid, n);
		free_entries(d->old, d->nold);
		d->old = NULL;
		d->nold = 0;
	} else {
		vr_warn("%s: a report (pid %ld) was killed while it replaced the bundle's files, and"
			" %zu of its %zu files cannot be put in place (changed or gone since): its"
			" files and the old ones are taken as report's own", d->dir, pid, n - done, n);
		unlinkat(d->dirfd, name, 0);
	}
	for (size_t i = 0; i < n; i++)
		add_old(d, e[i].name, e[i].sha256, true);
	free_entries(e, n);
	return whole;
}

/* Finish the commits of dead reports in @d (finish_intent()): the number finished. */
static int finish_dead_intents(struct outdir *d)
{
	int fd = openat(d->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dh = fd >= 0 ? fdopendir(fd) : NULL;
	char **names = NULL;
	size_t n = 0;
	struct dirent *de;
	int finished = 0;

	if (!dh) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((de = readdir(dh))) {
		long pid;

		if (dead_intent(de->d_name, &pid)) {
			names = vr_realloc(names, (n + 1) * sizeof(*names));
			names[n++] = vr_strdup(de->d_name);
		}
	}
	closedir(dh);
	for (size_t i = 0; i < n; i++) {
		long pid = strtol(names[i] + strlen(TMP_PREFIX), NULL, 10);

		finished += finish_intent(d, names[i], pid);
		free(names[i]);
	}
	free(names);
	return finished;
}

/* Remove the temporaries of vmscan-reports that died writing in @d. */
static void sweep_dead_temporaries(struct outdir *d)
{
	int fd = openat(d->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dh = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;

	if (!dh) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(dh))) {
		struct stat st;

		if (vr_name_of_dead_process(de->d_name, TMP_PREFIX, '.') &&
		    !fstatat(d->dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) &&
		    S_ISREG(st.st_mode))
			unlinkat(d->dirfd, de->d_name, 0);
	}
	closedir(dh);
}

void outdir_remove_temporaries(const char *dir, pid_t pid)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *dh = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	char prefix[64];
	size_t len;

	if (!dh) {
		if (fd >= 0)
			close(fd);
		return;
	}
	len = (size_t)snprintf(prefix, sizeof(prefix), TMP_PREFIX "%d.", (int)pid);
	while ((de = readdir(dh))) {
		struct stat st;

		if (!strncmp(de->d_name, prefix, len) &&
		    !fstatat(dirfd(dh), de->d_name, &st, AT_SYMLINK_NOFOLLOW) && S_ISREG(st.st_mode))
			unlinkat(dirfd(dh), de->d_name, 0);
	}
	closedir(dh);
}

static void outdir_free(struct outdir *d)
{
	for (size_t i = 0; i < d->nold; i++)
		free(d->old[i].name);
	free(d->old);
	free(d->files);
	if (d->dirfd >= 0)
		close(d->dirfd);
	free(d->dir);
	free(d);
}

struct outdir *outdir_open(const char *dir, const char *const *legacy)
{
	struct outdir *d;
	int fd;

	bool created = !mkdir(dir, 0777);

	if (!created && errno != EEXIST) {
		vr_error("%s: cannot write the bundle there: %s", dir, strerror(errno));
		return NULL;
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		vr_error("%s: cannot write the bundle there: %s", dir,
			 errno == ENOTDIR ? "not a directory" : strerror(errno));
		return NULL;
	}
	d = vr_calloc(1, sizeof(*d));
	d->dir = vr_strdup(dir);
	d->dirfd = fd;
	d->created = created;
	if (read_manifest(d, legacy)) {
		outdir_free(d);
		return NULL;
	}
	finish_dead_intents(d);
	sweep_dead_temporaries(d);
	return d;
}

int outdir_settle(const char *dir, const char *const *legacy)
{
	struct outdir *d = vr_calloc(1, sizeof(*d));
	int finished = 0;

	d->dir = vr_strdup(dir);
	d->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->dirfd >= 0 && !read_manifest(d, legacy))
		finished = finish_dead_intents(d);
	if (d->dirfd >= 0)
		sweep_dead_temporaries(d);
	outdir_free(d);
	return finished;
}

static const struct manifest_entry *old_entry(const struct outdir *d, const char *name)
{
	for (size_t i = 0; i < d->nold; i++)
		if (!strcmp(d->old[i].name, name))
			return &d->old[i];
	return NULL;
}

/*
 * Is the file at @name ours (absent, or a regular file whose content is
 * what MANIFEST records)?  1 ours, 0 not ours (*@why says why), -1 error
 * with errno set.
 */
static int is_ours(const struct outdir *d, const char *name, const char **why)
{
	const struct manifest_entry *e = old_entry(d, name);
	char hex[SHA256_HEX + 1];
	struct stat st;
	int r;

	if (fstatat(d->dirfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 1 : -1;
	*why = S_ISLNK(st.st_mode) ? "is a symbolic link: not followed" :
		S_ISDIR(st.st_mode) ? "is a directory" :
		!S_ISREG(st.st_mode) ? "is not a regular file" :
		!e || !e->trusted ? "not written by vmscan-report (not in its MANIFEST)" : NULL;
	if (*why)
		return 0;
	if (!*e->sha256)	/* MANIFEST without hashes: trusted by name */
		return 1;
	r = sha256_name(d->dirfd, name, hex);
	if (r < 0)
		return -1;
	*why = "changed since vmscan-report wrote it (its SHA-256 is not MANIFEST's)";
	return r == 0 && !strcmp(hex, e->sha256);
}

static bool created_before(const struct outdir *d, const char *name)
{
	for (size_t i = 0; i < d->nfiles; i++)
		if (!strcmp(d->files[i]->name, name))
			return true;
	return false;
}

struct outfile *outdir_create(struct outdir *d, const char *name)
{
	char *path = dir_path(d, name);
	struct outfile *of = NULL;
	const char *why = NULL;
	int ours;

	if (!plain_name(name) || !strcmp(name, MANIFEST_NAME) || created_before(d, name)) {
		vr_error("%s: not a plain file name of its own (a '/', a leading '.', a control"
			 " character, MANIFEST or written twice): not written", path);
		goto fail;
	}
	ours = is_ours(d, name, &why);
	if (ours < 0) {
		vr_error("%s: %s", path, strerror(errno));
		goto fail;
	}
	if (!ours) {
		vr_error("%s: %s: not replaced; move it away or choose another directory", path,
			 why);
		goto fail;
	}
	if (d->failed)
		goto out;
	of = of_new(d->dirfd, false, path, name);
	if (!of)
		goto fail;
	d->files = vr_realloc(d->files, (d->nfiles + 1) * sizeof(*d->files));
	d->files[d->nfiles++] = of;
	goto out;
fail:
	d->failed = true;
out:
	free(path);
	return of;
}

/* The new MANIFEST: the header, then "HEX  NAME" per file. */
static struct outfile *write_manifest(struct outdir *d)
{
	char *mpath = dir_path(d, MANIFEST_NAME);
	struct outfile *m = of_new(d->dirfd, false, mpath, MANIFEST_NAME);
	struct vr_buf b;

	free(mpath);
	if (!m)
		return NULL;
	vr_buf_init(&b);
	vr_buf_addstr(&b, MANIFEST_HEADER ": the files written here by `vmscan-report report` and"
		      " their SHA-256 (sha256sum -c MANIFEST checks them)\n");
	for (size_t i = 0; i < d->nfiles; i++)
		vr_buf_addf(&b, "%s  %s\n", d->files[i]->sha256, d->files[i]->name);
	outfile_write(m, b.buf, b.len);		/* its failure is outfile_finish()'s */
	if (outfile_finish(m)) {
		of_free(m);
		m = NULL;
	}
	vr_buf_release(&b);
	return m;
}

/* Remove the previous MANIFEST's files that are not written again and are
 * still ours; keep (and say so) those changed since. */
static void remove_stale(struct outdir *d)
{
	for (size_t i = 0; i < d->nold; i++) {
		const char *name = d->old[i].name, *why = NULL;
		char *path;
		int ours;

		if (created_before(d, name))
			continue;
		ours = is_ours(d, name, &why);
		path = dir_path(d, name);
		if (ours > 0 && unlinkat(d->dirfd, name, 0) && errno != ENOENT)
			vr_warn("%s: cannot remove it: %s", path, strerror(errno));
		else if (!ours)
			vr_warn("%s: %s: kept, no longer listed in MANIFEST", path, why);
		free(path);
	}
}

/* File @failed of @d could not be renamed into place: say exactly which
 * files are new and which are not yet; -1. */
static int say_part_replaced(struct outdir *d, size_t failed, const char *intent)
{
	struct vr_buf b;

	vr_buf_init(&b);
	for (size_t i = 0; i < failed; i++)
		vr_buf_addf(&b, "%s%s", i ? ", " : "", d->files[i]->name);
	if (!failed)
		vr_buf_addstr(&b, "nothing");
	vr_buf_addstr(&b, "; not yet");
	for (size_t i = failed; i < d->nfiles; i++)
		vr_buf_addf(&b, "%s%s", i > failed ? ", " : ": ", d->files[i]->name);
	vr_error("%s: replaced %s, nor MANIFEST (the next report finishes the replacement from"
		 " %s/%s)", d->dir, b.buf, d->dir, intent);
	vr_buf_release(&b);
	return -1;
}

int outdir_commit(struct outdir *d)
{
	struct outfile *m = NULL;
	int ret = d->failed ? -1 : 0;

	for (size_t i = 0; i < d->nfiles && !ret; i++)
		if (outfile_finish(d->files[i]))
			ret = -1;
	if (!ret && !(m = write_manifest(d)))
		ret = -1;
	if (ret) {
		vr_error("%s: nothing replaced, the directory is as it was", d->dir);
		outdir_abort(d);
		return -1;
	}
	/*
	 * The intent: the new MANIFEST, whole, under a name of its own before
	 * the first rename; a report killed during the renames leaves it, and
	 * the next report (or the one waiting for this process) finishes them
	 * from it (finish_intent()).  The renames are not cut by a signal that
	 * can be held: SIGINT, SIGTERM, SIGHUP wait for their end.
	 */
	sigset_t hold, old;
	char intent[64];

	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigprocmask(SIG_BLOCK, &hold, &old);
	intent_name(intent, sizeof(intent), (long)getpid());
	if (renameat(d->dirfd, m->tmp, d->dirfd, intent) ||
	    (fsync(d->dirfd) && errno != EINVAL)) {
		ret = vr_error("%s: cannot write the directory: %s: nothing replaced, the directory"
			       " is as it was", d->dir, strerror(errno));
		unlinkat(d->dirfd, intent, 0);
		outfile_fail(m, 0);
		of_free(m);
		outdir_abort(d);
		sigprocmask(SIG_SETMASK, &old, NULL);
		return ret;
	}
	free(m->tmp);
	m->tmp = vr_strdup(intent);
	for (size_t i = 0; i < d->nfiles && !ret; i++)
		if (of_rename(d->files[i]))
			ret = say_part_replaced(d, i, intent);
	if (!ret)
		remove_stale(d);
	if (!ret && of_rename(m))
		ret = -1;
	if (!ret && fsync(d->dirfd) && errno != EINVAL)
		ret = vr_error("%s: cannot write the directory: %s", d->dir, strerror(errno));
	if (m->tmp && ret)	/* the intent stays: the next report finishes the renames */
		free(m->tmp), m->tmp = NULL;
	of_free(m);
	if (ret)	/* the files not renamed stay for the next report to put in place */
		for (size_t i = 0; i < d->nfiles; i++)
			free(d->files[i]->tmp), d->files[i]->tmp = NULL;
	outdir_abort(d);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}

void outdir_abort(struct outdir *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nfiles; i++) {
		struct outfile *of = d->files[i];

		if (of->tmp)
			outfile_fail(of, 0);
		of_free(of);
	}
	/* a directory this writer made and left empty (nothing committed)
	 * goes again: rmdir takes only an empty one, so a bundle committed or
	 * a file someone else put there keeps it */
	if (d->created)
		rmdir(d->dir);
	outdir_free(d);
}
