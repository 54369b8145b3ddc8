// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-kind.c - what a trace file is, decided once from its first bytes
 * (trace.dat, perf.data, text, compressed text, an SQLite database, other
 * binary data), and its content hash.  The bottom of the ingest module: the
 * readers, the trace source (ingest-source.c) and the store's "not a
 * database" message all ask here instead of reading the file themselves.
 */
#include "ingest-priv.h"
#include "vr.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first bytes of every trace.dat file (trace-cmd.dat.v6(5)/v7(5)). */
#define INGEST_DAT_MAGIC_LEN 10
static const unsigned char ingest_dat_magic[INGEST_DAT_MAGIC_LEN] = {
	0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g'
};

/* Compressed data by its magic: gzip (RFC 1952 2.3.1), xz (The .xz File
 * Format 1.0.4, 2.1.1.1), zstd (RFC 8878 3.1.1), bzip2 ("BZh" and the
 * block size digit, bzip2 1.0.8 compress.c). */
static const struct {
	const char *name;
	const char *magic;
	size_t len;
} compressions[] = {
	{ "gzip", "\x1f\x8b", 2 },
	{ "xz", "\xfd" "7zXZ\0", 6 },
	{ "zstd", "\x28\xb5\x2f\xfd", 4 },
	{ "bzip2", "BZh", 3 },
};

/*
 * perf.data: "PERFILE2" as a little-endian u64, or byte-swapped when
 * recorded on a machine of the other endianness (linux
 * tools/perf/util/header.c, __perf_magic2 and perf_file_header__read()).
 */
#define PERF_MAGIC "PERFILE2"
#define PERF_MAGIC_SWAPPED "2ELIFREP"
/* SQLite database file header (sqlite.org/fileformat.html, 1.3). */
#define SQLITE_MAGIC "SQLite format 3"	/* and its NUL: 16 bytes */

/* Up to @len bytes from the start of @path into @buf, @st its stat: the
 * bytes read (0 for an empty file or one that is not a regular file), or -1
 * with errno set when it cannot be opened or read.  A FIFO or socket is not
 * opened: opening and closing it would end its writer (SIGPIPE) and lose
 * what it sent; its reader opens it once. */
static ssize_t read_head(const char *path, void *buf, size_t len, struct stat *st)
{
	ssize_t n;
	int fd;

	if (!stat(path, st) && (S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode)))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, st)) {
		close(fd);
		return -1;
	}
	n = S_ISREG(st->st_mode) ? read(fd, buf, len) : 0;
	close(fd);
	return n;
}

/* No control byte but tab, CR and LF, no DEL: text (the rule the store's
 * "not a database" message has always used). */
static bool head_is_text(const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((b[i] < 0x20 && !strchr("\t\r\n", b[i])) || b[i] == 0x7f)
			return false;
	return true;
}

/*
 * A version 7 header (trace-cmd.dat.v7(5)): magic, "7\0", endianness (1
 * byte), long size (1), page size (4), then the compression algorithm and
 * its version as strings, "none" when the file is not compressed.  Only
 * the first 64 bytes are looked at, as before libtracecmd parses the file.
 */
static bool dat_head_compressed(const unsigned char *head, size_t n)
{
	const size_t algo = INGEST_DAT_MAGIC_LEN + 2 + 1 + 1 + 4;

	if (n > 64)
		n = 64;
	if (n < algo + 1 || memcmp(head + INGEST_DAT_MAGIC_LEN, "7", 2))
		return false;
	if (!memchr(head + algo, '\0', n - algo))
		return false;	/* not a name: libtracecmd will say what is wrong */
	return strcmp((const char *)head + algo, "none") != 0 && head[algo] != '\0';
}

static enum ingest_kind head_kind(struct ingest_head *h, const unsigned char *b, size_t n)
{
	if (h->err || !n)
		return INGEST_KIND_NONE;
	if (n < INGEST_DAT_MAGIC_LEN && !memcmp(b, ingest_dat_magic, n))
		return INGEST_KIND_DAT_CUT;
	if (n >= INGEST_DAT_MAGIC_LEN && !memcmp(b, ingest_dat_magic, INGEST_DAT_MAGIC_LEN)) {
		h->dat_compressed = dat_head_compressed(b, n);
		return INGEST_KIND_DAT;
	}
	if (n >= 8 && (!memcmp(b, PERF_MAGIC, 8) || !memcmp(b, PERF_MAGIC_SWAPPED, 8)))
		return INGEST_KIND_PERF;
	if (n >= sizeof(SQLITE_MAGIC) && !memcmp(b, SQLITE_MAGIC, sizeof(SQLITE_MAGIC)))
		return INGEST_KIND_SQLITE;
	for (size_t i = 0; i < VR_ARRAY_SIZE(compressions); i++)
		if (n >= compressions[i].len && !memcmp(b, compressions[i].magic, compressions[i].len)) {
			h->compression = compressions[i].name;
			return INGEST_KIND_TEXT_COMPRESSED;
		}
	return head_is_text(b, n) ? INGEST_KIND_TEXT : INGEST_KIND_BINARY;
}

enum ingest_kind ingest_kind_of(const char *path, struct ingest_head *h)
{
	struct stat st;
	ssize_t n;

	memset(h, 0, sizeof(*h));
	n = read_head(path, h->bytes, sizeof(h->bytes), &st);
	if (n < 0) {
		h->err = errno ? errno : EIO;
	} else {
		h->len = (size_t)n;
		h->is_dir = S_ISDIR(st.st_mode);
		if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
			return h->kind = INGEST_KIND_PIPE;
	}
	h->kind = head_kind(h, h->bytes, h->len);
	return h->kind;
}

enum ingest_kind ingest_kind_of_bytes(const void *b, size_t n, struct ingest_head *h)
{
	memset(h, 0, sizeof(*h));
	h->kind = head_kind(h, b, n);
	return h->kind;
}

/* SHA-256 with OpenSSL's libcrypto: it uses the CPU's SHA instructions
 * (about 1.5 GB/s here, GLib's GChecksum about 0.18 GB/s), and a large
 * uncompressed trace.dat is hashed before its load can start.  @say:
 * give the error message. */
static char *sha256_file(const char *path, bool say)
{
	static const char hexdig[] = "0123456789abcdef";
	unsigned char buf[1 << 16], md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	EVP_MD_CTX *ctx;
	char *hex = NULL;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0) {
		if (say)
			vr_error("%s: %s", path, strerror(errno));
		return NULL;
	}
	ctx = EVP_MD_CTX_new();
	if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha256(), NULL)) {
		if (say)
			vr_error("%s: cannot hash: OpenSSL has no SHA-256", path);
		goto out;
	}
	while ((n = read(fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		if (n > 0)
			EVP_DigestUpdate(ctx, buf, (size_t)n);
	if (n < 0) {
		if (say)
			vr_error("%s: read failed: %s", path, strerror(errno));
		goto out;
	}
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	hex = vr_malloc(2 * mdlen + 1);
	for (unsigned int i = 0; i < mdlen; i++) {
		hex[2 * i] = hexdig[md[i] >> 4];
		hex[2 * i + 1] = hexdig[md[i] & 15];
	}
	hex[2 * mdlen] = '\0';
out:
	EVP_MD_CTX_free(ctx);
	close(fd);
	return hex;
}

char *ingest_sha256_file(const char *path)
{
	return sha256_file(path, true);
}

char *ingest_sha256_file_quiet(const char *path)
{
	return sha256_file(path, false);
}

void ingest_meta_release(struct ingest_meta *m)
{
	free(m->path);
	free(m->content_sha256);
	free(m->compression);
	free(m->uname);
	free(m->release);
	free(m->clock);
	memset(m, 0, sizeof(*m));
}
