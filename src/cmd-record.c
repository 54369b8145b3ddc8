// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-record.c - `vmscan-report record`: options, checks, and the report
 * of lost events; the work is in record.c, record-events.c, record-dat.c.
 */
#include "cmd.h"
#include "record.h"
#include "vr.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RECORD_DEFAULT_BUFFER_KB 8192

static const char *const record_usage[] = {
	"usage: vmscan-report record -o FILE [--events PRESET|LIST] [--buffer-kb N]",
	"                            [--duration S] [--clock NAME] [-- COMMAND ...]",
	"",
	"Record reclaim tracepoints into FILE (a trace.dat that trace-cmd and",
	"'vmscan-report load' read) while COMMAND runs, for S seconds, or until Ctrl-C.",
	"Tracing happens in a tracefs instance of its own (vmscan-report-PID) that is",
	"removed on exit, error and Ctrl-C, so other tracing users are not disturbed.",
	"Needs root.  With COMMAND, --duration is a limit: when it passes, COMMAND is",
	"sent SIGINT; Ctrl-C is passed on to COMMAND and the recording ends with it.",
	"",
	"  -o, --output FILE      trace.dat to write (required)",
	"  -e, --events SPEC      preset or comma-separated list (default: full)",
	"                         presets: reclaim  every vmscan event",
	"                                  full     reclaim + writeback congestion waits",
	"                                           (kernels <= 5.17), compaction begin/end,",
	"                                           sched_switch/sched_wakeup of kswapd",
	"                         list items: a preset, SYSTEM, SYSTEM:* or SYSTEM:EVENT",
	"                         events of a preset the kernel lacks are skipped with a",
	"                         warning; a listed event it lacks is an error",
	"  -b, --buffer-kb N      ring buffer per CPU in KiB (default: 8192)",
	"  -D, --duration S       stop after S seconds (decimals allowed)",
	"  -C, --clock NAME       trace clock (default: mono)",
	"      --file-version V   trace.dat version 6 or 7 (default: 7)",
	"      --compression C    version 7 compression: any, none, zstd, zlib",
	"                         (default: any)",
	"      --kallsyms FILE    save FILE as the kernel symbols instead of",
	"                         /proc/kallsyms (e.g. a copy keeping only text symbols,",
	"                         for smaller files)",
	"      --mount            mount tracefs first if it is not mounted",
	"  -q, --quiet            print nothing but errors and warnings",
	"  -h, --help             show this help",
	"",
	"At the end, the events read and lost per CPU are printed on stderr (lost:",
	"overwritten before they could be read; raise --buffer-kb); stdout is",
	"COMMAND's alone.  Exit status 0, or 1 when",
	"recording failed or COMMAND did not exit with status 0.",
	NULL
};

struct record_cli {
	struct record_opts o;
	const char *events;
	bool mount;
};

/* "2", "0.5" seconds -> ms; 0 < S <= 10^7. */
static int parse_seconds(const char *s, uint64_t *ms)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !isfinite(v) || v <= 0 || v > 1e7)
		return -1;
	*ms = (uint64_t)(v * 1000.0 + 0.5);
	if (!*ms)
		*ms = 1;
	return 0;
}

enum { OPT_FILE_VERSION = 256, OPT_COMPRESSION, OPT_MOUNT, OPT_KALLSYMS };

static int parse_record_opts(int argc, char **argv, struct record_cli *c)
{
	static const struct option longopts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "events", required_argument, NULL, 'e' },
		{ "buffer-kb", required_argument, NULL, 'b' },
		{ "duration", required_argument, NULL, 'D' },
		{ "clock", required_argument, NULL, 'C' },
		{ "file-version", required_argument, NULL, OPT_FILE_VERSION },
		{ "compression", required_argument, NULL, OPT_COMPRESSION },
		{ "mount", no_argument, NULL, OPT_MOUNT },
		{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int opt, n;

	optind = 1;
	/* '+': stop at the first non-option, the command */
	while ((opt = getopt_long(argc, argv, "+o:e:b:D:C:qh", longopts, NULL)) != -1) {
		switch (opt) {
		case 'o': c->o.output = optarg; break;
		case 'e': c->events = optarg; break;
		case 'b':
			if (vr_parse_int(optarg, &n) || n < 1 || n > 16 * 1024 * 1024)
				return vr_error("record: --buffer-kb wants a number of KiB from 1 "
						"to 16777216, not '%s'", optarg), VR_EXIT_USAGE;
			c->o.buffer_kb = (unsigned int)n;
			break;
		case 'D':
			if (parse_seconds(optarg, &c->o.duration_ms))
				return vr_error("record: --duration wants seconds > 0, not '%s'",
						optarg), VR_EXIT_USAGE;
			break;
		case 'C':
			if (!*optarg || strpbrk(optarg, " \t\n[]"))
				return vr_error("record: bad clock name '%s'", optarg),
				       VR_EXIT_USAGE;
			c->o.clock = optarg;
			break;
		case OPT_FILE_VERSION:
			if (vr_parse_int(optarg, &c->o.file_version) ||
			    (c->o.file_version != 6 && c->o.file_version != 7))
				return vr_error("record: --file-version wants 6 or 7, not '%s'",
						optarg), VR_EXIT_USAGE;
			break;
		case OPT_COMPRESSION: c->o.compression = optarg; break;
		case OPT_MOUNT: c->mount = true; break;
		case OPT_KALLSYMS:
			if (access(optarg, R_OK))
				return vr_error("record: --kallsyms: %s: %s", optarg,
						strerror(errno)), VR_EXIT_USAGE;
			c->o.kallsyms = optarg;
			break;
		case 'q': c->o.quiet = true; break;
		case 'h': return cmd_usage(record_usage, 0) - 1; /* -1: help shown */
		default: return cmd_usage(record_usage, VR_EXIT_USAGE);
		}
	}
	if (!c->o.output)
		return vr_error("record: -o FILE is required"), cmd_usage(record_usage, VR_EXIT_USAGE);
	if (c->o.file_version == 6 && strcmp(c->o.compression, "any") &&
	    strcmp(c->o.compression, "none"))
		return vr_error("record: file version 6 cannot be compressed"), VR_EXIT_USAGE;
	c->o.argv = optind < argc ? argv + optind : NULL;
	return 0;
}

/* Events read and lost per CPU, on stderr: stdout is the command's (perf's
 * convention; `record -- workload > latency.txt` keeps the report clean).
 * Returns the number lost. */
static uint64_t print_stats(const struct record_cli *c, const struct record_result *res)
{
	uint64_t total = 0, bytes = 0;

	for (int cpu = 0; cpu < res->ncpus; cpu++) {
		const struct record_cpu_stats *s = &res->cpu[cpu];
		uint64_t lost = s->overrun + s->commit_overrun + s->dropped;

		total += lost;
		bytes += s->bytes;
		if (!c->o.quiet)
			fprintf(stderr, "cpu%d: %llu events read, %llu lost (overrun %llu, commit"
			       " overrun %llu, dropped %llu), %llu bytes\n", cpu,
			       (unsigned long long)s->read, (unsigned long long)lost,
			       (unsigned long long)s->overrun,
			       (unsigned long long)s->commit_overrun,
			       (unsigned long long)s->dropped, (unsigned long long)s->bytes);
	}
	if (!c->o.quiet)
		fprintf(stderr, "wrote %s: %d CPUs, clock %s, %llu bytes of ring-buffer pages\n",
		       c->o.output, res->ncpus, c->o.clock, (unsigned long long)bytes);
	return total;
}

static int command_status(const struct record_cli *c, const struct record_result *res)
{
	int st = res->cmd_status;

	if (!c->o.argv)
		return VR_EXIT_OK;
	if (st == -1)
		return vr_error("record: the status of '%s' is unknown", c->o.argv[0]),
		       VR_EXIT_FAIL;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return VR_EXIT_OK;
	if (WIFEXITED(st))
		vr_warn("'%s' exited with status %d", c->o.argv[0], WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		vr_warn("'%s' was killed by signal %d", c->o.argv[0], WTERMSIG(st));
	return VR_EXIT_FAIL;
}

int cmd_record(int argc, char **argv)
{
	struct record_cli c = { .o = { .clock = "mono", .buffer_kb = RECORD_DEFAULT_BUFFER_KB,
				       .file_version = 7, .compression = "any" },
				.events = "full" };
	struct record_events asked, events;
	struct record_kernel k;
	struct record_result res;
	uint64_t lost;
	int ret = parse_record_opts(argc, argv, &c);

	if (ret)
		return ret < 0 ? VR_EXIT_OK : ret;
	if (record_events_parse(c.events, &asked))
		return VR_EXIT_USAGE;
	if (record_check_tracefs(c.mount)) {
		record_events_release(&asked);
		return VR_EXIT_FAIL;
	}
	k = record_tracefs_kernel();
	ret = record_events_resolve(&asked, &k, &events);
	record_events_release(&asked);
	if (ret)
		return VR_EXIT_FAIL;
	c.o.events = &events;
	ret = record_run(&c.o, &res);
	record_events_release(&events);
	if (ret) {
		record_result_release(&res);
		return VR_EXIT_FAIL;
	}
	lost = print_stats(&c, &res);
	if (lost)
		vr_warn("%llu events were lost (overwritten before they were read); raise "
			"--buffer-kb", (unsigned long long)lost);
	if (res.interrupted && !c.o.quiet)
		fprintf(stderr, "vmscan-report: recording stopped by a signal\n");
	ret = command_status(&c, &res);
	record_result_release(&res);
	return ret;
}
