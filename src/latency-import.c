// SPDX-License-Identifier: GPL-2.0
/*
 * latency-import.c - one latency report file into the database: read and
 * parse it (ingest-latency.c), hash it, store it (store-latency.c).
 */
#include "latency-import.h"
#include "ingest.h"
#include "ingest-latency.h"
#include "metrics.h"
#include "store.h"
#include "metrics.h"
#include "vr.h"

#include <stdbool.h>
#include <string.h>

#include <stdlib.h>

/* Is operation @op named by @names[0..@n-1]: its own name or its metric's
 * (metric_op_split(), as compare's --metrics)? */
static bool op_named(const char *op, char *const *names, size_t n)
{
	char *pct, *metric;
	bool yes = false;

	metric_op_split(op, &pct, &metric);
	for (size_t i = 0; i < n && !yes; i++)
		yes = !strcmp(names[i], op) || !strcmp(names[i], metric);
	free(pct);
	free(metric);
	return yes;
}

/* Each name of @names[0..@n-1] names an operation of @lat; else -1 after a
 * message naming @path and @option. */
static int names_found(const struct ingest_latency *lat, char *const *names, size_t n,
		       const char *path, const char *option)
{
	for (size_t i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < lat->n && !op_named(lat->s[j].operation, &names[i], 1); j++)
			;
		if (j == lat->n)
			return vr_error("%s: %s %s: no such operation or metric in the file", path,
					option, names[i]);
	}
	return 0;
}

/* Mark the samples of @lat as @decl declares; 0 or -1 after a message. */
static int apply_decl(struct ingest_latency *lat, const struct latency_import_decl *decl,
		      const char *path)
{
	if (!decl)
		return 0;
	if (names_found(lat, decl->higher, decl->nhigher, path, "--higher-is-better") ||
	    names_found(lat, decl->zeros_real, decl->nzeros_real, path, "--real-zeros"))
		return -1;
	for (size_t i = 0; i < lat->n; i++) {
		lat->s[i].higher_is_better = op_named(lat->s[i].operation, decl->higher,
						      decl->nhigher);
		lat->s[i].zeros_real = op_named(lat->s[i].operation, decl->zeros_real,
						decl->nzeros_real);
	}
	return 0;
}

void latency_import_warn(const char *path, const struct latency_import_result *r)
{
	if (r->nskipped)
		vr_warn("%s: %zu line%s not samples and %s skipped (the first: line %zu)",
			path, r->nskipped, r->nskipped == 1 ? " is" : "s are",
			r->nskipped == 1 ? "was" : "were", r->first_skipped);
}

int latency_import_file(struct store *st, const char *path, const char *kernel, int iteration,
			bool replace, const struct latency_import_decl *decl,
			struct latency_import_result *r)
{
	struct ingest_latency lat;
	char *sha;
	int created = 0, ret = -1;

	if (ingest_latency_read(path, metric_op_name_bad, &lat))
		return -1;
	if (apply_decl(&lat, decl, path)) {
		ingest_latency_release(&lat);
		return -1;
	}
	sha = ingest_sha256_file(path);
	if (sha && !store_import_app_latency(st, kernel, iteration, path, sha, &lat, replace,
					     &r->run_id, &r->iteration, &created)) {
		r->nsamples = lat.n;
		r->nskipped = lat.nskipped;
		r->first_skipped = lat.first_skipped;
		r->created = created;
		ret = 0;
	}
	free(sha);
	ingest_latency_release(&lat);
	return ret;
}
