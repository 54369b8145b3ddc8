/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd.h - the subcommands.  Each takes the arguments after its name
 * (argv[0] is the command name) and returns an exit status from enum
 * vr_exit: 0 success, 1 runtime failure, 2 usage error.  The command table
 * in src/main.c lists them; one src/cmd-NAME.c file each.
 */
#ifndef VR_CMD_H
#define VR_CMD_H

int cmd_load(int argc, char **argv);
int cmd_runs(int argc, char **argv);

/**
 * cmd_usage - print @lines (NULL-terminated) to stdout for -h (status 0) or
 * to stderr after a usage error; returns @status for `return cmd_usage(...)`.
 */
int cmd_usage(const char *const *lines, int status);

#endif /* VR_CMD_H */
