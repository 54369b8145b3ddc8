// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-load.c - `vmscan-report load`: options, then load_files() (load.h)
 * does the work; this file prints what it did.
 */
#include "cmd.h"
#include "load.h"
#include "vr.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

static const char *const load_usage[] = {
	"usage: vmscan-report load -d DB [--kernel NAME] [--iteration N] [--replace] [-j N] [-q]",
	"                          [-v] [--low-memory] [--premature-ms MS] FILE...",
	"",
	"Load trace.dat recordings (file version 6 or 7, compressed or not) into DB,",
	"one run per file.  Every event is stored; vmscan, writeback congestion,",
	"compaction and sched events in typed tables named after the event.",
	"",
	"  -d, --database DB   SQLite database to create or extend",
	"  -k, --kernel NAME   kernel label of the runs (default: the uname release",
	"                      saved in each file)",
	"  -i, --iteration N   iteration number of the first file (default: the next",
	"                      free number for the kernel); later files count up",
	"  -r, --replace       reload a file loaded before (same contents) into its run,",
	"                      keeping the run's id, label, iteration and latencies",
	"  -j, --jobs N        files decoded in parallel (default: number of CPUs)",
	"  -q, --quiet         do not print a line per loaded run",
	"      --premature-ms MS  a kswapd full sleep followed by a wakeup request",
	"                      within MS milliseconds is flagged premature (default 100)",
	"      --low-memory    read compressed trace.dat files only from an uncompressed",
	"                      copy (below), waiting for it first: the least memory, the",
	"                      load takes longer.  Done anyway when a file would not fit",
	"                      in half the free memory",
	"  -v, --verbose       say how each trace.dat was read",
	"  -h, --help          show this help",
	"",
	"A compressed trace.dat of more than a few MB is decoded in memory up to 64 MiB",
	"of decompressed data, meanwhile trace-cmd convert makes an uncompressed copy",
	"in $TMPDIR (default /var/tmp, deleted once open); the rest is read from the",
	"copy.  libtracecmd keeps all it decompressed, so memory would otherwise grow",
	"with the trace.",
	NULL
};

/* What the command says after each run: its options. */
struct load_say {
	bool quiet;		/* no "run N: ..." line */
	bool verbose;		/* say how each trace.dat was read */
};

/* "run N: KERNEL iteration I <- FILE" (stdout, flushed), and with -v how
 * a trace.dat was read; called in the process that stored the run. */
static void say_loaded(void *arg, const struct load_done *d)
{
	const struct load_say *say = arg;

	if (!say->quiet)
		printf("run %lld: %s iteration %d <- %s%s\n", d->run_id, d->kernel, d->iteration,
		       d->path, d->replaced ? " (replaced)" : "");
	fflush(stdout);
	if (say->verbose && d->how_read)
		fprintf(stderr, "vmscan-report: %s: %s\n", d->path, d->how_read);
}

static int parse_load_opts(int argc, char **argv, struct load_opts *o, struct load_say *say)
{
	static const struct option longopts[] = {
		{ "database", required_argument, NULL, 'd' },
		{ "kernel", required_argument, NULL, 'k' },
		{ "iteration", required_argument, NULL, 'i' },
		{ "replace", no_argument, NULL, 'r' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "premature-ms", required_argument, NULL, 'P' },
		{ "low-memory", no_argument, NULL, 'L' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	optind = 1;
	while ((c = getopt_long(argc, argv, "d:k:i:rj:qvh", longopts, NULL)) != -1) {
		switch (c) {
		case 'd': o->db = optarg; break;
		case 'k': o->kernel = optarg; break;
		case 'i':
			if (vr_parse_int(optarg, &o->iteration) || o->iteration < 1)
				return vr_error("--iteration wants a number >= 1, not '%s'", optarg),
				       VR_EXIT_USAGE;
			break;
		case 'r': o->replace = true; break;
		case 'j':
			if (vr_parse_int(optarg, &o->jobs) || o->jobs < 1)
				return vr_error("--jobs wants a number >= 1, not '%s'", optarg),
				       VR_EXIT_USAGE;
			break;
		case 'q': say->quiet = true; break;
		case 'L': o->low_memory = true; break;
		case 'v': say->verbose = true; break;
		case 'P':
			if (vr_parse_int(optarg, &o->premature_ms) || o->premature_ms < 1)
				return vr_error("--premature-ms wants a number >= 1, not '%s'",
						optarg), VR_EXIT_USAGE;
			break;
		case 'h': return cmd_usage(load_usage, 0) - 1; /* -1: help shown */
		default: return cmd_usage(load_usage, VR_EXIT_USAGE);
		}
	}
	if (!o->db)
		return vr_error("load: -d DB is required"), cmd_usage(load_usage, VR_EXIT_USAGE);
	if (optind >= argc)
		return vr_error("load: no trace file given"), cmd_usage(load_usage, VR_EXIT_USAGE);
	return 0;
}

int cmd_load(int argc, char **argv)
{
	struct load_say say = { 0 };
	struct load_opts o = { .premature_ms = LOAD_PREMATURE_MS_DEFAULT, .loaded = say_loaded,
			       .loaded_arg = &say };
	struct load_result r;
	int ret = parse_load_opts(argc, argv, &o, &say);

	if (ret)
		return ret < 0 ? VR_EXIT_OK : ret;
	if (!load_files(&o, argv + optind, argc - optind, &r))
		return VR_EXIT_OK;
	if (r.interrupted)
		vr_error("interrupted by signal %d; runs loaded before it are kept", r.interrupted);
	return VR_EXIT_FAIL;
}
