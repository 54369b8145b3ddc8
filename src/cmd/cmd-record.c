// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-record.c - `vmscan-report record`: options, checks, and the report
 * of lost events; the work is in record.c, record-events.c, record-dat.c.
 */
#include "cmd.h"
#include "record.h"
#include "vr.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define RECORD_DEFAULT_BUFFER_KB 8192

struct record_cli {
	struct record_opts o;
	const char *events;
	bool mount;
	bool verbose;		/* -v: name the preset's events the kernel lacks */
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

enum { OPT_FILE_VERSION = CMD_OPT_LONG, OPT_COMPRESSION, OPT_MOUNT, OPT_KALLSYMS, OPT_CGROUP };

static const struct cmd_option record_options[] = {
	{ 'o', "output", "FILE", "trace.dat to write (default: trace.dat)" },
	{ 'e', "events", "SPEC", "preset or comma-separated list (default: full)\n"
		"presets: reclaim  every vmscan event\n"
		"         full     reclaim + writeback congestion waits\n"
		"                  (kernels <= 5.17), compaction begin/end,\n"
		"                  sched_switch/sched_wakeup of kswapd\n"
		"list items: a preset, SYSTEM, SYSTEM:* or SYSTEM:EVENT\n"
		"events of a preset the kernel lacks are skipped (named\n"
		"with -v); a listed event it lacks is an error" },
	{ 'b', "buffer-kb", "N", "ring buffer per CPU in KiB (default: 8192)" },
	{ 'D', "duration", "S", "stop after S seconds (decimals allowed)" },
	{ 'C', "clock", "NAME", "trace clock (default: mono)" },
	{ OPT_FILE_VERSION, "file-version", "V", "trace.dat version 6 or 7 (default: 7)" },
	{ OPT_COMPRESSION, "compression", "C", "version 7 compression: any, none, zstd, zlib\n"
					      "(default: any)" },
	{ OPT_KALLSYMS, "kallsyms", "FILE", "save FILE as the kernel symbols instead of\n"
		"/proc/kallsyms (e.g. a copy keeping only text symbols,\n"
		"for smaller files)" },
	{ OPT_CGROUP, "cgroup", "DIR", "save DIR/memory.stat with the counter snapshots\n"
		"(a cgroup v2 directory, e.g. /sys/fs/cgroup/bench)" },
	{ OPT_MOUNT, "mount", NULL, "mount tracefs first if it is not mounted" },
	{ 'q', "quiet", NULL, "print nothing but errors and warnings" },
	{ 'v', "verbose", NULL, "name each event of a preset the kernel lacks" },
	{ 0 }
};

static enum cmd_status record_option(struct cmd_ctx *ctx, int key, const char *arg)
{
	struct record_cli *c = ctx->opts;
	int n;

	switch (key) {
	case 'o': c->o.output = arg; break;
	case 'e': c->events = arg; break;
	case 'b':
		if (vr_parse_int(arg, &n) || n < 1 || n > 16 * 1024 * 1024)
			return vr_error("record: --buffer-kb wants a number of KiB from 1 "
					"to 16777216, not '%s'", arg), CMD_USAGE;
		c->o.buffer_kb = (unsigned int)n;
		break;
	case 'D':
		if (parse_seconds(arg, &c->o.duration_ms))
			return vr_error("record: --duration wants seconds > 0, not '%s'", arg),
			       CMD_USAGE;
		break;
	case 'C':
		if (!*arg || strpbrk(arg, " \t\n[]"))
			return vr_error("record: bad clock name '%s'", arg), CMD_USAGE;
		c->o.clock = arg;
		break;
	case OPT_FILE_VERSION:
		if (vr_parse_int(arg, &c->o.file_version) ||
		    (c->o.file_version != 6 && c->o.file_version != 7))
			return vr_error("record: --file-version wants 6 or 7, not '%s'", arg),
			       CMD_USAGE;
		break;
	case OPT_COMPRESSION: c->o.compression = arg; break;
	case OPT_MOUNT: c->mount = true; break;
	case OPT_CGROUP: {
		struct vr_buf b;

		vr_buf_init(&b);
		vr_buf_addf(&b, "%s/memory.stat", arg);
		n = access(b.buf, R_OK);
		if (n)
			vr_error("record: --cgroup: %s: %s", b.buf, strerror(errno));
		vr_buf_release(&b);
		if (n)
			return CMD_USAGE;
		c->o.cgroup = arg;
		break;
	}
	case OPT_KALLSYMS:
		if (access(arg, R_OK))
			return vr_error("record: --kallsyms: %s: %s", arg, strerror(errno)),
			       CMD_USAGE;
		c->o.kallsyms = arg;
		break;
	case 'q': c->o.quiet = true; break;
	case 'v': c->verbose = true; break;
	}
	return CMD_OK;
}

static enum cmd_status record_check(struct cmd_ctx *ctx)
{
	struct record_cli *c = ctx->opts;

	if (!c->o.output)
		c->o.output = "trace.dat";
	if (c->o.file_version == 6 && strcmp(c->o.compression, "any") &&
	    strcmp(c->o.compression, "none"))
		return vr_error("record: file version 6 cannot be compressed"), CMD_USAGE;
	c->o.argv = ctx->argc ? ctx->argv : NULL;
	return CMD_OK;
}

/* Events read and lost per CPU, on stderr: stdout is the command's (perf's
 * convention; `record -- workload > latency.txt` keeps the report clean).
 * Returns the number lost. */
static uint64_t print_stats(const struct record_cli *c, const struct record_result *res)
{
	uint64_t total = 0, bytes = 0, read = 0;

	for (int cpu = 0; cpu < res->ncpus; cpu++) {
		const struct record_cpu_stats *s = &res->cpu[cpu];
		uint64_t lost = s->overrun + s->commit_overrun + s->dropped;

		total += lost;
		bytes += s->bytes;
		read += s->read;
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
	if (read <= (uint64_t)res->markers && !total)
		vr_warn("%s holds no events: none of the traced events happened while it "
			"recorded", c->o.output);
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

static int record_cmd_run(struct cmd_ctx *ctx)
{
	struct record_cli *c = ctx->opts;
	struct record_events asked, events;
	struct record_kernel k;
	struct record_result res;
	uint64_t lost;
	int ret;

	if (record_events_parse(c->events, &asked))
		return VR_EXIT_USAGE;
	if (record_check_tracefs(c->mount)) {
		record_events_release(&asked);
		return VR_EXIT_FAIL;
	}
	k = record_tracefs_kernel();
	k.verbose = c->verbose;
	ret = record_events_resolve(&asked, &k, &events);
	record_events_release(&asked);
	if (ret)
		return VR_EXIT_FAIL;
	c->o.events = &events;
	ret = record_run(&c->o, &res);
	record_events_release(&events);
	if (ret) {
		record_result_release(&res);
		return VR_EXIT_FAIL;
	}
	lost = print_stats(c, &res);
	if (lost)
		vr_warn("%llu events were lost (overwritten before they were read); raise "
			"--buffer-kb", (unsigned long long)lost);
	if (res.interrupted && !c->o.quiet)
		fprintf(stderr, "vmscan-report: recording stopped by a signal\n");
	ret = command_status(c, &res);
	record_result_release(&res);
	return ret;
}

static const char *const record_synopsis[] = {
	"[-o FILE] [--events PRESET|LIST] [--buffer-kb N]\n"
	"[--duration S] [--clock NAME] [-- COMMAND ...]",
	NULL
};

const struct cmd cmd_record_desc = {
	.name = "record",
	.summary = "record reclaim tracepoints into a trace.dat (needs root)",
	.synopsis = record_synopsis,
	.description =
		"Record reclaim tracepoints into FILE (a trace.dat that trace-cmd and\n"
		"'vmscan-report load' read) while COMMAND runs, for S seconds, or until Ctrl-C.\n"
		"Tracing happens in a tracefs instance of its own (vmscan-report-PID) that is\n"
		"removed on exit, error and Ctrl-C, so other tracing users are not disturbed.\n"
		"Needs root.  With COMMAND, --duration is a limit: when it passes, COMMAND is\n"
		"sent SIGINT (SIGTERM 2 s later if it still runs, then SIGKILL); Ctrl-C is\n"
		"passed on to COMMAND and the recording ends with it.\n"
		"At the start and the end, /proc/vmstat, /proc/zoneinfo, /proc/pressure/memory,\n"
		"/sys/kernel/mm/lru_gen/enabled (and --cgroup's memory.stat) are saved in\n"
		"OUTPUT.snap/, each moment marked in the trace; load reads them.",
	.notes =
		"At the end, the events read and lost per CPU are printed on stderr (lost:\n"
		"overwritten before they could be read; raise --buffer-kb); stdout is\n"
		"COMMAND's alone.  Exit status 0, or 1 when\n"
		"recording failed or COMMAND did not exit with status 0.",
	.options = record_options,
	.help_col = 25,
	.db = CMD_DB_NONE,
	.flags = CMD_STOP_AT_OPERAND,
	.opts_size = sizeof(struct record_cli),
	.defaults = &(const struct record_cli){
		.o = { .clock = "mono", .buffer_kb = RECORD_DEFAULT_BUFFER_KB,
		       .file_version = 7, .compression = "any" },
		.events = "full" },
	.option = record_option,
	.check = record_check,
	.run = record_cmd_run,
};
