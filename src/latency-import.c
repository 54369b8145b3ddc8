// SPDX-License-Identifier: GPL-2.0
/*
 * latency-import.c - one latency report file into the database: read and
 * parse it (ingest-latency.c), hash it, store it (store-latency.c).
 */
#include "latency-import.h"
#include "ingest.h"
#include "ingest-latency.h"
#include "store.h"

#include <stdlib.h>

int latency_import_file(struct store *st, const char *path, const char *kernel, int iteration,
			bool replace, struct latency_import_result *r)
{
	struct ingest_latency lat;
	char *sha;
	int created = 0, ret = -1;

	if (ingest_latency_read(path, &lat))
		return -1;
	sha = ingest_sha256_file(path);
	if (sha && !store_import_app_latency(st, kernel, iteration, path, sha, &lat, replace,
					     &r->run_id, &r->iteration, &created)) {
		r->nsamples = lat.n;
		r->created = created;
		ret = 0;
	}
	free(sha);
	ingest_latency_release(&lat);
	return ret;
}
