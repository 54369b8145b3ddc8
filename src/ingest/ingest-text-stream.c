// SPDX-License-Identifier: GPL-2.0
/*
 * ingest-text-stream.c - a text trace that is not a plain file to map: one
 * that arrives through a pipe (a FIFO, /dev/stdin fed by `trace-cmd report
 * |`), or one compressed with gzip, xz or zstd (a file or a pipe).  Its
 * text is written once, as it arrives, decompressed on the way by zlib,
 * liblzma or libzstd, into a scratch file without a name (O_TMPFILE in
 * $TMPDIR, default /var/tmp), which the text reader then maps as it maps a
 * plain file: nothing is left behind whatever stops the load, and memory is
 * that of a plain text.  The content hash is that of the text (SHA-256 of
 * the decompressed bytes): a text and its compressed copy are the same
 * contents.
 */
#define _GNU_SOURCE	/* O_TMPFILE */
#include "ingest-priv.h"
#include "vr.h"

#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define CHUNK (1 << 16)

/* Where the text goes: the scratch file, its hash, what was read. */
struct text_out {
	const char *path;	/* the user's file, for messages */
	const char *what;	/* "gzip", "xz", "zstd", or NULL: as it is */
	int fd;			/* the scratch file */
	EVP_MD_CTX *md;
	uint64_t in;		/* bytes read from @path */
	uint64_t out;		/* bytes of text written */
	int src;		/* @path, open */
	const volatile sig_atomic_t *stop;
	unsigned char head[INGEST_HEAD_LEN];	/* the first bytes, read before */
	size_t head_len, head_used;
};

/* A scratch file without a name in @dir (O_TMPFILE, Linux 3.11+; else one
 * made with a name and unlinked at once).  The fd, or -1 with errno set. */
static int scratch_file(const char *dir)
{
	struct vr_buf b;
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd;
	vr_buf_init(&b);
	vr_buf_addf(&b, "%s/vmscan-report-text-XXXXXX", dir);
	fd = mkostemp(b.buf, O_CLOEXEC);
	if (fd >= 0)
		unlink(b.buf);
	vr_buf_release(&b);
	return fd;
}

/* Up to @len bytes of the input (the head first): the bytes read, 0 at its
 * end, -1 after a message, -2 once *stop is set (no message). */
static ssize_t take(struct text_out *o, void *buf, size_t len)
{
	ssize_t n;

	if (o->head_used < o->head_len) {
		n = (ssize_t)(o->head_len - o->head_used < len ? o->head_len - o->head_used : len);
		memcpy(buf, o->head + o->head_used, (size_t)n);
		o->head_used += (size_t)n;
		return n;
	}
	for (;;) {
		if (*o->stop)
			return -2;
		n = read(o->src, buf, len);
		if (n >= 0) {
			o->in += (uint64_t)n;
			return n;
		}
		if (errno != EINTR)
			return vr_error("%s: read failed after %llu bytes: %s", o->path,
					(unsigned long long)o->in, strerror(errno));
	}
}

/* Write @n bytes of text to the scratch file and the hash.  0 or -1. */
static int put(struct text_out *o, const void *buf, size_t n)
{
	const char *p = buf;

	EVP_DigestUpdate(o->md, buf, n);
	o->out += n;
	while (n) {
		ssize_t w = write(o->fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return vr_error("%s: cannot keep its text (%llu bytes so far) in a scratch file"
					" in %s: %s", o->path, (unsigned long long)o->out,
					ingest_dat_spill_dir(), strerror(errno));
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* "PATH: corrupt or truncated FORMAT data at byte N of the file: WHY". */
static int corrupt(const struct text_out *o, const char *why)
{
	return vr_error("%s: corrupt or truncated %s data at byte %llu of the file (%llu bytes of"
			" text before it): %s", o->path, o->what, (unsigned long long)o->in,
			(unsigned long long)o->out, why);
}

/* As it is (a pipe's text). */
static int copy_plain(struct text_out *o)
{
	unsigned char buf[CHUNK];
	ssize_t n;

	while ((n = take(o, buf, sizeof(buf))) > 0)
		if (put(o, buf, (size_t)n))
			return -1;
	return n < 0 ? -1 : 0;
}

/* gzip (RFC 1952) with zlib; members one after another are one text, as
 * gzip -d reads them. */
static int copy_gzip(struct text_out *o)
{
	unsigned char in[CHUNK], out[CHUNK];
	z_stream z = { 0 };
	ssize_t n = 1;
	int rc = Z_OK, ret = 0;

	if (inflateInit2(&z, 15 + 16) != Z_OK)
		return vr_error("%s: zlib cannot start: out of memory?", o->path);
	while (!ret) {
		if (!z.avail_in) {
			n = take(o, in, sizeof(in));
			if (n <= 0)
				break;
			z.next_in = in;
			z.avail_in = (uInt)n;
		}
		if (rc == Z_STREAM_END)	/* another member follows */
			inflateReset(&z);
		z.next_out = out;
		z.avail_out = sizeof(out);
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
			ret = corrupt(o, z.msg ? z.msg : "zlib error");
		else
			ret = put(o, out, sizeof(out) - z.avail_out);
	}
	inflateEnd(&z);
	if (ret || n < 0)
		return -1;
	return rc == Z_STREAM_END ? 0 : corrupt(o, "the data ends inside a member (cut off?)");
}

/* xz (The .xz File Format 1.0.4) with liblzma; concatenated streams as xz
 * -d reads them. */
static int copy_xz(struct text_out *o)
{
	unsigned char in[CHUNK], out[CHUNK];
	lzma_stream z = LZMA_STREAM_INIT;
	lzma_action act = LZMA_RUN;
	lzma_ret rc;
	ssize_t n = 1;
	int ret = 0;

	if (lzma_stream_decoder(&z, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
		return vr_error("%s: liblzma cannot start: out of memory?", o->path);
	do {
		if (!z.avail_in && act == LZMA_RUN) {
			n = take(o, in, sizeof(in));
			if (n < 0)
				break;
			z.next_in = in;
			z.avail_in = (size_t)n;
			if (!n)
				act = LZMA_FINISH;
		}
		z.next_out = out;
		z.avail_out = sizeof(out);
		rc = lzma_code(&z, act);
		if (rc != LZMA_OK && rc != LZMA_STREAM_END)
			ret = corrupt(o, rc == LZMA_BUF_ERROR ? "the data ends inside a stream (cut"
				      " off?)" : rc == LZMA_MEM_ERROR ? "out of memory" :
				      rc == LZMA_FORMAT_ERROR ? "not xz data" : "corrupt data");
		else
			ret = put(o, out, sizeof(out) - z.avail_out);
	} while (!ret && rc != LZMA_STREAM_END);
	lzma_end(&z);
	return ret || n < 0 ? -1 : 0;
}

/* zstd (RFC 8878) with libzstd; frames one after another are one text. */
static int copy_zstd(struct text_out *o)
{
	unsigned char in[CHUNK], out[CHUNK];
	ZSTD_DCtx *z = ZSTD_createDCtx();
	size_t rc = 1;
	ssize_t n;
	int ret = 0;

	if (!z)
		return vr_error("%s: libzstd cannot start: out of memory?", o->path);
	while (!ret && (n = take(o, in, sizeof(in))) > 0) {
		ZSTD_inBuffer ib = { in, (size_t)n, 0 };

		while (!ret && ib.pos < ib.size) {
			ZSTD_outBuffer ob = { out, sizeof(out), 0 };

			rc = ZSTD_decompressStream(z, &ob, &ib);
			ret = ZSTD_isError(rc) ? corrupt(o, ZSTD_getErrorName(rc))
					       : put(o, out, ob.pos);
		}
		/* a frame's last bytes may still be inside the decoder */
		while (!ret && rc && !ZSTD_isError(rc)) {
			ZSTD_outBuffer ob = { out, sizeof(out), 0 };

			rc = ZSTD_decompressStream(z, &ob, &ib);
			ret = ZSTD_isError(rc) ? corrupt(o, ZSTD_getErrorName(rc))
					       : put(o, out, ob.pos);
			if (!ob.pos)
				break;
		}
	}
	ZSTD_freeDCtx(z);
	if (ret || n < 0)
		return -1;
	return rc == 0 ? 0 : corrupt(o, "the data ends inside a frame (cut off?)");
}

/* "is a pipe (FIFO)" and the like, for messages. */
static const char *pipe_word(const struct stat *st)
{
	return S_ISFIFO(st->st_mode) ? "a pipe (FIFO)" : S_ISSOCK(st->st_mode) ? "a socket"
									      : "not a regular file";
}

/* The first bytes of the pipe @o->src into o->head (up to its end or
 * INGEST_HEAD_LEN), and what they are into @h.  0 or -1. */
static int read_head(struct text_out *o, struct ingest_head *h)
{
	while (o->head_len < sizeof(o->head)) {
		ssize_t n;

		if (*o->stop)
			return -1;
		n = read(o->src, o->head + o->head_len, sizeof(o->head) - o->head_len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return vr_error("%s: read failed: %s", o->path, strerror(errno));
		if (!n)
			break;
		o->head_len += (size_t)n;
		o->in += (uint64_t)n;
	}
	ingest_kind_of_bytes(o->head, o->head_len, h);
	return 0;
}

/* The compressed text or pipe @path (what @h says of it) into @o. */
static int copy_text(struct text_out *o, const struct ingest_head *h)
{
	struct ingest_head ph;
	struct stat st = { 0 };	/* a FIFO's, for messages; an fstat that fails: neither */
	enum ingest_kind kind = h->kind;
	const char *compression = h->compression;

	if (kind == INGEST_KIND_PIPE) {	/* a pipe: what it carries, by its head */
		if (read_head(o, &ph))
			return -1;
		if (fstat(o->src, &st))
			st.st_mode = 0;
		kind = ph.kind;
		compression = ph.compression;
		if (kind == INGEST_KIND_NONE)
			return vr_error("%s: is %s that carried nothing (empty): no trace", o->path,
					pipe_word(&st));
		if (kind == INGEST_KIND_DAT || kind == INGEST_KIND_DAT_CUT ||
		    kind == INGEST_KIND_PERF || kind == INGEST_KIND_SQLITE)
			return vr_error("%s: is %s carrying %s: load reads such a file only from a"
					" file (its library seeks in it); save it to one first"
					" (cat > FILE) and load that", o->path, pipe_word(&st),
					kind == INGEST_KIND_PERF ? "a perf.data file" :
					kind == INGEST_KIND_SQLITE ? "an SQLite database" :
					"a trace.dat file");
	}
	o->what = compression;
	if (kind != INGEST_KIND_TEXT_COMPRESSED)
		return copy_plain(o);	/* text; binary data is the parser's to refuse */
	if (!strcmp(compression, "gzip"))
		return copy_gzip(o);
	if (!strcmp(compression, "xz"))
		return copy_xz(o);
	if (!strcmp(compression, "zstd"))
		return copy_zstd(o);
	return vr_error("%s: is %s-compressed (text?): load reads gzip, xz and zstd; decompress"
			" it first", o->path, compression);
}

/* Hex SHA-256 of what o->md was given; malloc'ed. */
static char *hex_digest(struct text_out *o)
{
	static const char hexdig[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	char *hex;

	EVP_DigestFinal_ex(o->md, md, &len);
	hex = vr_malloc(2 * len + 1);
	for (unsigned int i = 0; i < len; i++) {
		hex[2 * i] = hexdig[md[i] >> 4];
		hex[2 * i + 1] = hexdig[md[i] & 15];
	}
	hex[2 * len] = '\0';
	return hex;
}

int ingest_text_stream(const char *path, const struct ingest_head *h,
		       const volatile sig_atomic_t *stop, char **sha256)
{
	static const volatile sig_atomic_t never;
	struct text_out o = { .path = path, .fd = -1, .stop = stop ? stop : &never };
	int rc = -1;

	*sha256 = NULL;
	o.src = open(path, O_RDONLY | O_CLOEXEC);	/* a FIFO: waits for its writer */
	if (o.src < 0) {
		if (!*o.stop)
			vr_error("%s: %s", path, strerror(errno));
		return -1;
	}
	o.fd = scratch_file(ingest_dat_spill_dir());
	o.md = EVP_MD_CTX_new();
	if (o.fd < 0)
		vr_error("%s: cannot make a scratch file for its text in %s: %s", path,
			 ingest_dat_spill_dir(), strerror(errno));
	else if (!o.md || !EVP_DigestInit_ex(o.md, EVP_sha256(), NULL))
		vr_error("%s: cannot hash: OpenSSL has no SHA-256", path);
	else
		rc = copy_text(&o, h);
	close(o.src);
	if (!rc && *o.stop)
		rc = -1;
	if (!rc)
		*sha256 = hex_digest(&o);
	EVP_MD_CTX_free(o.md);
	if (rc && o.fd >= 0) {
		close(o.fd);
		o.fd = -1;
	}
	return o.fd;
}
