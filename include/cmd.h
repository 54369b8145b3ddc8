/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd.h - the subcommands.  Each takes the arguments after its name
 * (argv[0] is the command name) and returns an exit status from enum
 * vr_exit: 0 success, 1 runtime failure, 2 usage error.  The command table
 * in src/main.c lists them; one src/cmd-NAME.c file each.
 */
#ifndef VR_CMD_H
#define VR_CMD_H

#include <stdbool.h>

int cmd_load(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_import_latency(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_timeline(int argc, char **argv);

struct store;

/**
 * cmd_import_latency_file - import latency report @path as the application
 * latencies of run (@kernel, @iteration; 0: see store_import_app_latency())
 * into @st, as `import-latency` does (@replace: its --replace).  Returns 0
 * or -1 (message printed, the database unchanged).
 */
int cmd_import_latency_file(struct store *st, const char *path, const char *kernel,
			    int iteration, int quiet, bool replace);
int cmd_chart(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_record(int argc, char **argv);

/**
 * cmd_usage - print @lines (NULL-terminated) to stdout for -h (status 0) or
 * to stderr after a usage error; returns @status for `return cmd_usage(...)`.
 */
int cmd_usage(const char *const *lines, int status);

#endif /* VR_CMD_H */
