// SPDX-License-Identifier: GPL-2.0
/*
 * load-input.c - opening one input of a load: text or trace.dat (decided
 * here only), the probe, and for a compressed trace.dat whether and when
 * it is read through an uncompressed copy (libtracecmd 3.1.6 keeps every
 * chunk it decompressed until the file is closed: ingest-dat-spill.c).
 */
#include "load-priv.h"
#include "model.h"
#include "store.h"
#include "vr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool load_is_dat(const char *path)
{
	return ingest_file_is_dat(path);
}

struct model *load_model(struct ingest_dat *d, struct ingest_text *t,
			 const struct ingest_meta *meta, const struct load_opts *o,
			 struct store_derived *sd)
{
	struct model_sink ms;
	struct model_config cfg = {
		.release = meta->release,
		.has_field = t ? ingest_text_has_field : ingest_dat_has_field,
		.has_field_arg = t ? (void *)t : (void *)d,
		.fields_printed = t != NULL,
		.kswapd_pid = t ? NULL : ingest_dat_kswapd_pid,
		.kswapd_pid_arg = d,
		.premature_ns = (uint64_t)o->premature_ms * 1000000ULL,
	};

	store_derived_sink(sd, &ms);
	return model_create(&cfg, &ms);
}

/* The model of a trace.dat runs on its reader thread, rows deferred. */
static int model_early_event(void *arg, struct ingest_event *ev)
{
	return model_event(arg, ev);
}

static int model_early_lost(void *arg, int cpu, uint64_t ts_ns, int64_t count)
{
	return model_lost(arg, cpu, ts_ns, count);
}

/* Bytes of free memory (MemAvailable), or 0 if unknown. */
static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kb = 0;
	char line[256];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return (uint64_t)kb * 1024;
}

/*
 * Read the compressed trace.dat @path through an uncompressed copy?  With
 * --low-memory, or when its decompressed data (taken as 12 times the file:
 * zstd makes trace data about 7 to 10 times smaller) would need more than
 * half the free memory, which libtracecmd would hold until the end.
 */
static bool want_spill(const struct load_opts *o, const char *path)
{
	struct stat st;
	uint64_t avail;

	if (o->low_memory)
		return true;
	avail = mem_available();
	if (stat(path, &st) || !avail || (uint64_t)st.st_size * 12 <= avail / 2)
		return false;
	vr_warn_plain("%s: about %llu MiB once decompressed, more than half the free memory:"
		      " reading an uncompressed copy instead (--low-memory)", path,
		      (unsigned long long)st.st_size * 12 >> 20);
	return true;
}

/*
 * Decompressed data a compressed trace.dat may keep in memory while its
 * uncompressed copy is being made (libtracecmd keeps every chunk it
 * decompressed until the file is closed).
 */
#define IN_MEMORY_CAP (64ull << 20)

/* IN_MEMORY_CAP, or VR_TEST_IN_MEMORY_CAP (bytes), which lets the tests
 * make small files take the copy path. */
static uint64_t in_memory_cap(void)
{
	const char *s = getenv("VR_TEST_IN_MEMORY_CAP");

	return s && *s ? strtoull(s, NULL, 10) : IN_MEMORY_CAP;
}

/*
 * Start an uncompressed copy of the trace.dat @path before libtracecmd
 * opens it (about 0.2 s of parsing, the other CPU idle meanwhile)?  If its
 * header says it is compressed, the copy is wanted with --low-memory,
 * or when the decompressed data (taken as 10 times the file) would pass
 * IN_MEMORY_CAP and the copies' directory is on disk (a copy in tmpfs
 * saves no memory).
 */
static bool copy_early(const struct load_opts *o, const char *path)
{
	uint64_t need;
	struct stat st;

	if (!ingest_dat_head_compressed(path) || stat(path, &st))
		return false;
	if (o->low_memory)
		return true;
	need = (uint64_t)st.st_size * 10;
	if (need <= in_memory_cap())
		return false;
	if (ingest_dat_spill_in_memory()) {
		vr_warn("%s: read in memory (about %llu MiB once decompressed): %s is a tmpfs, where"
			" an uncompressed copy would save nothing; set TMPDIR to a directory on disk",
			path, (unsigned long long)(need >> 20), ingest_dat_spill_dir());
		return false;
	}
	if (ingest_dat_spill_free_bytes() < need + need / 4 + (64ull << 20)) {
		vr_warn("%s: read in memory (about %llu MiB once decompressed): too little free space"
			" in %s for an uncompressed copy", path, (unsigned long long)(need >> 20),
			ingest_dat_spill_dir());
		return false;
	}
	return true;
}

/* Replace in->d by a reader of an uncompressed copy of @path; the run's
 * metadata (hash, compression, path) stays the original's.  When the copy
 * cannot be made and the user did not @asked for it, keep reading the file
 * in memory.  @started: the copy, if already started (taken over).
 * 0 or -1. */
static int reopen_uncompressed(struct load_input *in, const char *path, bool asked,
			       struct ingest_spill *started, const volatile sig_atomic_t *stop)
{
	char *copy = started ? ingest_dat_spill_finish(started, stop) : ingest_dat_spill(path, stop);
	struct ingest_meta copy_meta;

	if (!copy) {
		if (asked || *stop)
			return -1;
		vr_warn("%s: reading it in memory after all", path);
		return 0;
	}
	ingest_close_dat(in->d);
	in->d = ingest_open_dat_probed(copy, &copy_meta);
	ingest_dat_spill_remove(copy);	/* open files stay readable */
	if (!in->d)
		return vr_error("%s: its uncompressed copy cannot be read", path);
	ingest_meta_release(&copy_meta);
	ingest_dat_set_path(in->d, path);	/* messages name the user's file */
	in->from_copy = true;
	return 0;
}

const char *load_how_read(const struct load_input *in, char *buf, size_t len)
{
	int64_t at = ingest_dat_copy_taken_at(in->d);

	if (!in->meta.compression)
		snprintf(buf, len, "not compressed: read from the file");
	else if (in->from_copy)
		snprintf(buf, len, "%s-compressed: read from an uncompressed copy",
			 in->meta.compression);
	else if (at >= 0)
		snprintf(buf, len, "%s-compressed: %.1f MiB decompressed in memory, the rest read"
			 " from an uncompressed copy", in->meta.compression, (double)at / (1 << 20));
	else
		snprintf(buf, len, "%s-compressed: read in memory", in->meta.compression);
	return buf;
}

/* The hash of the trace.dat @path: taken over from *@sha256 (the probe
 * made it), or probed now unless a supervisor watches (only our own
 * header check then; the hash is made when the run begins).  0 or -1. */
static int probe_dat(const char *path, const struct load_ctx *c, char **sha256, char **sha)
{
	*sha = NULL;
	if (sha256) {
		*sha = *sha256;
		*sha256 = NULL;
		return 0;
	}
	if (c->supervised ? ingest_dat_check_headers(path) : ingest_probe_dat(path, sha)) {
		free(*sha);
		*sha = NULL;
		return -1;
	}
	return 0;
}

/* Open the probed trace.dat @path into @in, its copy started early when
 * copy_early() says so, read through it at once when want_spill() does.
 * @sha: taken over.  0 or -1. */
static int open_dat(struct load_input *in, const char *path, const struct load_ctx *c,
		    char *sha)
{
	struct ingest_spill *copy = NULL;
	bool copy_failed = false;

	if (copy_early(&c->o, path) && !(copy = ingest_dat_spill_start(path))) {
		if (c->o.low_memory) {	/* asked for: the message said why not */
			free(sha);
			return -1;
		}
		vr_warn("%s: reading it in memory after all", path);
		copy_failed = true;
	}
	in->d = ingest_open_dat_probed(path, &in->meta);
	if (!in->d) {
		ingest_dat_spill_cancel(copy);
		free(sha);
		return -1;
	}
	in->meta.content_sha256 = sha;
	if (!in->meta.compression) {
		ingest_dat_spill_cancel(copy);
	} else if (!copy_failed && want_spill(&c->o, path)) {
		if (reopen_uncompressed(in, path, c->o.low_memory, copy, c->interrupted)) {
			ingest_close_dat(in->d);
			in->d = NULL;
			ingest_meta_release(&in->meta);
			return -1;
		}
	} else {	/* go on from the copy once it is made */
		ingest_dat_switch_when_copied(in->d, copy, in_memory_cap());
	}
	return 0;
}

int load_input_open(struct load_input *in, struct store *st, const char *path,
		    const struct load_ctx *c, char **sha256)
{
	char *sha;

	memset(in, 0, sizeof(*in));
	in->path = path;
	if (!load_is_dat(path)) {
		in->t = ingest_open_text(path, c->o.kernel, &in->meta);
		return in->t ? 0 : -1;
	}
	if (probe_dat(path, c, sha256, &sha) || open_dat(in, path, c, sha))
		return -1;
	in->sd = store_derived_open(st, 0);
	store_derived_defer(in->sd);
	in->model = load_model(in->d, NULL, &in->meta, &c->o, in->sd);

	struct ingest_early early = { model_early_event, model_early_lost, in->model,
				      c->interrupted };

	return ingest_start_dat(in->d, &early);
}

void load_input_close(struct load_input *in)
{
	ingest_close_dat(in->d);	/* joins the reader thread first */
	ingest_close_text(in->t);
	model_free(in->model);
	store_derived_close(in->sd);
	if (in->d || in->t)
		ingest_meta_release(&in->meta);
	memset(in, 0, sizeof(*in));
}
