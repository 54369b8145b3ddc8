// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-dat.c - libFuzzer target for the trace.dat path of `load`:
 * ingest_open_dat() and ingest_read_dat() (src/ingest/ingest-dat.c over
 * libtracecmd/libtraceevent) on arbitrary bytes written to a file, plus the
 * format sniffing ingest_file_is_dat().  Seeds are small v6 files from
 * tests/mkdat.py (4.10, 4.11, 6.18, big-endian, 32-bit).  Checks: no crash
 * or sanitizer report, events in timestamp order.
 *
 * Built by `make fuzz` (clang -fsanitize=fuzzer) and, with
 * -DVR_FUZZ_REPLAY, by the normal build for the corpus replay in `make test`.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ingest-priv.h"
#include "spec.h"

static int fuzz_event(void *arg, const struct ingest_event *ev)
{
	uint64_t *last = arg;

	if (ev->ts_ns < *last)
		abort();
	*last = ev->ts_ns;
	if (ev->spec >= (int)vr_event_specs_count || strlen(ev->name) > 4096)
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char path[64];
	uint64_t last = 0;
	struct ingest_sink sink = { .event = fuzz_event, .arg = &last };
	struct ingest_meta meta;
	struct ingest_head head;
	struct ingest_dat *d;
	enum ingest_kind kind;
	FILE *f;

	if (!path[0])
		snprintf(path, sizeof(path), "/tmp/vr-fuzz-dat.%d", (int)getpid());
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	kind = ingest_kind_of(path, &head);
	/* what the trace source hands the trace.dat reader */
	if (kind == INGEST_KIND_DAT || kind == INGEST_KIND_DAT_CUT || kind == INGEST_KIND_NONE) {
		d = ingest_open_dat(path, &meta);
		if (d) {
			ingest_read_dat(d, &sink);
			ingest_close_dat(d);
			ingest_meta_release(&meta);
		}
	}
	unlink(path);
	return 0;
}

#ifdef VR_FUZZ_REPLAY
#include "fuzz-replay.h"
#endif
