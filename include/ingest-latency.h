/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ingest-latency.h - read application latency reports for `import-latency`:
 * simoop's periodic reports and a plain "operation value" format.
 */
#ifndef VR_INGEST_LATENCY_H
#define VR_INGEST_LATENCY_H

#include <stdbool.h>
#include <stddef.h>

struct ingest_latency_sample {
	char *operation;	/* e.g. "p95-Write"; owned */
	int sample;		/* 0, 1, ... per operation, in file order */
	double value;		/* as given in the file, no unit conversion */
	const char *unit;	/* "us" when the report names it (simoop "usec");
				 * NULL: not named, "as reported"; static */
	bool higher_is_better;	/* declared by the user (import-latency
				 * --higher-is-better): a throughput */
	bool zeros_real;	/* declared by the user (--real-zeros): a run
				 * whose values are all 0 measured 0 */
};

struct ingest_latency {
	struct ingest_latency_sample *s;	/* owned */
	size_t n;
	size_t nskipped;	/* lines that are not samples (a workload's banner) */
	size_t first_skipped;	/* the line number of the first of them */
};

/* Why the operation name @op cannot be taken (a static string), or NULL
 * when it can: the rule of the caller's (metric_op_name_bad(), metrics.h,
 * for what report can chart), so that this reader calls nothing above it. */
typedef const char *(*ingest_latency_name_bad_fn)(const char *op);

/**
 * ingest_latency_parse - parse the text @buf[0..@len-1] read from @path
 * (named in messages only).  Line by line:
 *  - simoop's report lines "Read latency usec: (p50: 1,234) (p95: 5,678)
 *    (p99: 9,012) (max: 12,345)" (the "usec" and ':' optional, digits may
 *    carry thousands commas): each "(KEY: N)" is one sample of operation
 *    "KEY-Name" (p50-Read, ...), with unit "us" when the line says "usec";
 *    after a "Final stats:" line the operations are named "final-KEY-Name"
 *    as mmtests does;
 *  - "Run time: ...", "Warmup complete ...", blank lines and lines starting
 *    with '#' are skipped;
 *  - "OPERATION VALUE": one sample of OPERATION (the value a finite decimal
 *    number; no unit); a line of two words whose second starts like a
 *    number (a digit, '-', '+', '.') is such a line, and an error if the
 *    number or the name is bad;
 *  - any other line is not a sample (a workload's banner, "Starting 16
 *    threads"): skipped and counted in nskipped (first_skipped its number),
 *    for the caller to warn once.
 * @name_bad: an operation name it refuses is an error at its line
 * ("PATH:LINE: 'NAME': why"); NULL: every name is taken.
 * @out: OUT: the samples; release with ingest_latency_release().
 * Returns 0, or -1 after "vmscan-report: PATH:LINE: what is wrong" (@out
 * empty then).  A file with no sample at all is an error too.
 */
int ingest_latency_parse(const char *path, const char *buf, size_t len,
			 ingest_latency_name_bad_fn name_bad, struct ingest_latency *out);

/**
 * ingest_latency_read - read file @path and parse it as above.
 * Returns 0, or -1 after a message naming the file.
 */
int ingest_latency_read(const char *path, ingest_latency_name_bad_fn name_bad,
			struct ingest_latency *out);

/** ingest_latency_release - free the samples; @l is empty after. */
void ingest_latency_release(struct ingest_latency *l);

#endif /* VR_INGEST_LATENCY_H */
