// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-import-latency.c - `vmscan-report import-latency`: store a workload's
 * latency report as the application latencies of one run.
 */
#include "cmd.h"
#include "ingest.h"
#include "ingest-latency.h"
#include "store.h"
#include "vr.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const import_usage[] = {
	"usage: vmscan-report import-latency -d DB --kernel NAME [--iteration N] [--replace]",
	"                                    FILE",
	"",
	"Store application latencies from FILE as run (NAME, N) of DB, so that",
	"`compare` shows them next to the reclaim latencies (values kept as given).",
	"FILE holds simoop reports (\"Read latency usec: (p50: 1,234) (p95: ...)",
	"(p99: ...)\"; each report is one sample of p50-Read, p95-Read, ..., unit us)",
	"or one \"OPERATION VALUE\" pair per line (e.g. \"p95-Write 1362.62\"; unit as",
	"reported).  The run is created when no trace was loaded for it; earlier",
	"imported latencies of the run are replaced.  The same contents are imported",
	"once per kernel: again, they are refused (exit 1) naming the run they are",
	"in, unless --replace.  A bad line leaves the database unchanged.",
	"",
	"  -d, --database DB   SQLite database to create or extend",
	"  -k, --kernel NAME   kernel label of the run",
	"  -i, --iteration N   iteration of the run (default: the kernel's first run",
	"                      without latencies, else a new one)",
	"  -r, --replace       import contents already imported for NAME again, into",
	"                      the run holding them (or run N of --iteration, which",
	"                      they then leave)",
	"  -q, --quiet         do not print the run imported into",
	"  -h, --help          show this help",
	NULL
};

int cmd_import_latency_file(struct store *st, const char *path, const char *kernel,
			    int iteration, int quiet, bool replace)
{
	struct ingest_latency lat;
	char *sha;
	int64_t run_id;
	int iter_used, created, ret = -1;

	if (ingest_latency_read(path, &lat))
		return -1;
	sha = ingest_sha256_file(path);
	if (sha && !store_import_app_latency(st, kernel, iteration, path, sha, &lat, replace,
					     &run_id, &iter_used, &created)) {
		if (!quiet)
			printf("run %lld: %s iteration %d <- %s (%zu latency samples%s)\n",
			       (long long)run_id, kernel, iter_used, path, lat.n,
			       created ? ", new run" : "");
		ret = 0;
	}
	free(sha);
	ingest_latency_release(&lat);
	return ret;
}

int cmd_import_latency(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "iteration", required_argument, NULL, 'i' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "replace", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	const char *db = NULL, *kernel = NULL;
	int iteration = 0, quiet = 0, c, ret;
	bool existed, replace = false;
	struct store *st;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:k:i:qrh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': db = optarg; break;
		case 'k': kernel = optarg; break;
		case 'i':
			if (vr_parse_int(optarg, &iteration) || iteration < 1)
				return vr_error("--iteration wants a number >= 1, not '%s'", optarg),
				       VR_EXIT_USAGE;
			break;
		case 'q': quiet = 1; break;
		case 'r': replace = true; break;
		case 'h': return cmd_usage(import_usage, VR_EXIT_OK);
		default: return cmd_usage(import_usage, VR_EXIT_USAGE);
		}
	}
	if (!db || !kernel || optind != argc - 1) {
		vr_error("import-latency: -d DB, --kernel NAME and one FILE are required");
		return cmd_usage(import_usage, VR_EXIT_USAGE);
	}
	existed = access(db, F_OK) == 0;
	st = store_open(db, STORE_RW);
	if (!st)
		return VR_EXIT_FAIL;
	ret = cmd_import_latency_file(st, argv[optind], kernel, iteration, quiet, replace);
	store_close(st);
	if (ret && !existed)
		unlink(db);	/* leave no empty database behind */
	return ret ? VR_EXIT_FAIL : VR_EXIT_OK;
}
