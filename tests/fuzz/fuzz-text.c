// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz-text.c - libFuzzer target for the text trace parser
 * (ingest_text_parse(), src/ingest/ingest-text*.c), in the manner of jq's
 * jq_fuzz_parse.c.  Besides "no crash, no sanitizer report" it checks the
 * parser's promises: events reach the sink in timestamp order, every
 * present field is a field of the event's spec, strings are terminated.
 *
 * Built two ways: by `make fuzz` with clang -fsanitize=fuzzer, and with
 * -DVR_FUZZ_REPLAY by the normal build (main() below), so that `make test`
 * replays the committed corpus and every past crash (tests/fuzz/crashes/).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ingest-priv.h"
#include "spec.h"

struct fuzz_state {
	uint64_t last_ts;
	size_t bytes;
};

static int fuzz_event(void *arg, const struct ingest_event *ev)
{
	struct fuzz_state *st = arg;

	if (ev->ts_ns < st->last_ts)
		abort();	/* the parser promises timestamp order */
	st->last_ts = ev->ts_ns;
	st->bytes += strlen(ev->name) + strlen(ev->system);
	if (ev->extra_json)
		st->bytes += strlen(ev->extra_json);
	if (ev->spec < 0) {
		if (ev->present)
			abort();
		return 0;
	}
	if (ev->spec >= (int)vr_event_specs_count ||
	    (ev->present >> spec_nfields(ev->spec)) != 0)
		abort();
	for (int f = 0; f < spec_nfields(ev->spec); f++)
		if ((ev->present & (1u << f)) && vr_event_specs[ev->spec].fields[f].type == VR_FT_TEXT)
			st->bytes += strlen(ev->str[f]);
	return 0;
}

static int fuzz_lost(void *arg, int cpu, uint64_t ts_ns, int64_t count)
{
	(void)arg;
	if (cpu < 0 || count < -1 || (int64_t)ts_ns < -1)
		abort();
	return 0;
}

static int fuzz_task(void *arg, int pid, const char *comm, int64_t first_ns, int64_t last_ns)
{
	struct fuzz_state *st = arg;

	/* a span: a known comm, first before last, both real timestamps */
	if (pid < 0 || !*comm || first_ns > last_ns || first_ns < 0)
		abort();
	st->bytes += strlen(comm);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_state st = { 0, 0 };
	struct ingest_sink sink = { .event = fuzz_event, .lost = fuzz_lost, .task = fuzz_task, .arg = &st };
	struct ingest_text_stats stats;
	/* the first byte picks the release: unknown, 4.11 or 6.18 */
	static const char *const releases[] = { NULL, "4.11.0", "6.18.44" };
	struct ingest_text_opts opts = { releases[size ? data[0] % 3 : 0] };
	/* an exact-size copy, so that ASan sees any read past the end */
	char *copy = malloc(size ? size : 1);

	memcpy(copy, data, size);
	ingest_text_parse("fuzz", copy, size, &opts, &sink, &stats);
	free(copy);
	return 0;
}

#ifdef VR_FUZZ_REPLAY
#include "fuzz-replay.h"
#endif
