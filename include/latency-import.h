/* SPDX-License-Identifier: GPL-2.0 */
/*
 * latency-import.h - import a workload's latency report file into a
 * database as the application latencies of one run: what `import-latency`
 * does per FILE, and `compare NAME=FILE.txt` per latency file.
 */
#ifndef VR_LATENCY_IMPORT_H
#define VR_LATENCY_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct store;

/* What latency_import_file() imported. */
struct latency_import_result {
	int64_t run_id;		/* the run the samples went into */
	int iteration;		/* its iteration (the one picked when 0 was asked) */
	size_t nsamples;	/* samples imported (one per value of the report) */
	size_t nskipped;	/* lines that are not samples, skipped */
	size_t first_skipped;	/* the first of them (line number) */
	bool created;		/* the run row was new (a latency-only run) */
};

/*
 * What the user declares of imported metrics (names as compare's --metrics
 * takes them: an operation, p95-Read, or its metric, Read, for all its
 * rows); the arrays are borrowed.
 */
struct latency_import_decl {
	char **higher;		/* higher-is-better (throughputs) */
	size_t nhigher;
	char **zeros_real;	/* all-0 values of a run are measurements */
	size_t nzeros_real;
};

/**
 * latency_import_file - read the latency report @path (ingest_latency_read():
 * simoop reports or "OPERATION VALUE" lines) and store it, with the file's
 * SHA-256, as the app_latency rows of run (@kernel, @iteration) of @st
 * (opened STORE_RW) in one transaction (store_import_app_latency(): @iteration
 * 0 picks the run; @replace imports contents already imported for @kernel
 * again).  Each sample keeps what @decl (NULL: nothing) declares of its
 * operation (app_latency.higher_is_better, .zeros_real); a name of @decl
 * that is no operation or metric of the file is an error.  @r: OUT, filled
 * on success.  Prints nothing but errors.
 * Returns 0, or -1 after "vmscan-report: FILE[:LINE]: what" (the database
 * unchanged).
 */
int latency_import_file(struct store *st, const char *path, const char *kernel, int iteration,
			bool replace, const struct latency_import_decl *decl,
			struct latency_import_result *r);

/**
 * latency_import_warn - the one warning for the lines of @path that
 * latency_import_file() skipped (@r->nskipped, none: nothing printed):
 * "warning: FILE: N lines are not samples and were skipped (the first:
 * line L)".
 */
void latency_import_warn(const char *path, const struct latency_import_result *r);

#endif /* VR_LATENCY_IMPORT_H */
