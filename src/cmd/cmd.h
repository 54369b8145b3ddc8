/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cmd.h - the command layer: each command is a struct cmd (one per
 * src/cmd/cmd-NAME.c, listed in src/cmd/cmd-table.c) that describes its options
 * and text in tables and gives a few hooks; the shared work - the option
 * parsing, -h, -d and opening the store, the exit status - is done once,
 * by cmd_run() (src/cmd/cmd-run.c) with the tables of src/cmd/cmd-options.c.
 * Only the command layer (src/cmd/) includes this header: `make
 * check-layers`, run by `make test`, fails otherwise.
 *
 * The order cmd_run() follows for `vmscan-report NAME ARGS...`:
 *   1. the options, in command-line order: -h prints the usage to stdout
 *      and ends with VR_EXIT_OK; -d is kept in cmd_ctx.db; every other
 *      option goes to ->option();
 *   2. without -d the database is $VMSCAN_REPORT_DB, else vmscan.db (not
 *      for a CMD_DB_OPTIONAL command given operands);
 *   3. ->check() sees the operands (what follows the options);
 *   4. the store is opened as the command's flags say (CMD_DB_RDONLY,
 *      CMD_DB_RW; CMD_DB_PATH: the command opens it itself);
 *   5. ->run() does the work and returns an enum vr_exit status;
 *   6. the store is closed, ->release() frees the options.
 * A usage error (unknown option, missing argument, a hook's CMD_USAGE*)
 * ends with VR_EXIT_USAGE, its one line followed by "see 'vmscan-report
 * NAME -h'" on stderr (no usage text that would scroll it away).
 */
#ifndef VR_CMD_H
#define VR_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct store;

/* Option keys from CMD_OPT_LONG up have no short letter (--from, --mount). */
#define CMD_OPT_LONG 256

/*
 * struct cmd_option - one option of a command, one row of its table.
 * The getopt_long() string, its struct option array and the -h lines are
 * made from these rows (src/cmd/cmd-options.c); -h itself is added to every
 * table.  A table ends with a row whose name is NULL.
 */
struct cmd_option {
	int key;		/* short letter, or CMD_OPT_LONG + n: long only */
	const char *name;	/* long name without "--" */
	const char *arg;	/* argument name ("DB", "MS"), NULL: takes none */
	const char *help;	/* text of the -h line; '\n' starts a line
				 * indented to the help column */
};

/* enum cmd_db - what the command does with the database named by -d. */
enum cmd_db {
	CMD_DB_NONE,		/* no -d option (record) */
	CMD_DB_RDONLY,		/* opened read-only before ->run() */
	CMD_DB_RW,		/* opened for writing before ->run(); a database
				 * that did not exist is removed again when ->run()
				 * fails (no empty database left behind) */
	CMD_DB_PATH,		/* required, but ->run() opens it (load opens it
				 * in a worker process) */
};

/* Flags of struct cmd. */
#define CMD_DB_OPTIONAL	0x1	/* -d may be left out (compare NAME=FILE) */
#define CMD_DB_MANY	0x4	/* -d may be given several times: the databases
				 * are read as one (store_open_many()) */
#define CMD_STOP_AT_OPERAND 0x2	/* options end at the first operand
				 * (record -- COMMAND ARGS: getopt's '+') */

/* enum cmd_status - what ->option() and ->check() return to cmd_run(). */
enum cmd_status {
	CMD_OK,			/* go on */
	CMD_USAGE,		/* usage error, message printed: VR_EXIT_USAGE */
	CMD_USAGE_HELP,		/* the same (kept for the hooks that return it) */
	CMD_FAIL,		/* runtime failure, message printed: VR_EXIT_FAIL */
};

/*
 * struct cmd_ctx - one run of a command, as cmd_run() hands it to the
 * hooks.  Everything here is owned by cmd_run(): the hooks read it, and
 * write only *opts.
 */
struct cmd_ctx {
	const struct cmd *cmd;
	void *opts;		/* the command's options: a copy of ->defaults */
	const char *db;		/* the -d argument (the first with CMD_DB_MANY), else
				 * $VMSCAN_REPORT_DB, else "vmscan.db"; NULL for
				 * CMD_DB_NONE and for compare NAME=FILE without -d */
	const char **dbs;	/* CMD_DB_MANY: every -d argument, in order */
	int ndbs;
	bool db_default;	/* ->db was not given by -d */
	bool db_kept;		/* set by ->run(): it committed something, so a
				 * CMD_DB_RW database it created stays even when
				 * it fails later (import-latency FILE...) */
	struct store *st;	/* open per ->db (NULL for CMD_DB_NONE,
				 * CMD_DB_PATH, or no -d) */
	int argc;		/* the operands: what follows the options */
	char **argv;
};

/*
 * struct cmd - a command: its text (for -h, the help list and, later,
 * man pages), options and hooks.  Each src/cmd/cmd-NAME.c defines one, next
 * to the code it describes.
 */
struct cmd {
	const char *name;
	const char *summary;	/* one line for `vmscan-report help` */
	/* Synopsis forms, NULL-terminated: what follows "vmscan-report NAME "
	 * on each "usage:" / "or:" line; '\n' continues a form on a line
	 * indented under its first argument. */
	const char *const *synopsis;
	const char *description; /* between synopsis and options ('\n' lines) */
	const char *notes;	/* after the options, or NULL */
	const struct cmd_option *options;
	int help_col;		/* column of the help text in the -h lines */
	enum cmd_db db;
	unsigned int flags;	/* CMD_DB_OPTIONAL, CMD_STOP_AT_OPERAND */
	size_t opts_size;	/* sizeof the command's option struct */
	const void *defaults;	/* its initial value (opts_size bytes) */
	/* @key: the row's key; @arg: its argument (NULL for none).  Keeps the
	 * value in ctx->opts; checks it (message naming the option). */
	enum cmd_status (*option)(struct cmd_ctx *ctx, int key, const char *arg);
	/* After all options: the operands, required options, combinations. */
	enum cmd_status (*check)(struct cmd_ctx *ctx);
	/* The work; returns an enum vr_exit status (messages printed). */
	int (*run)(struct cmd_ctx *ctx);
	/* Frees what ->option() allocated in ctx->opts; NULL: nothing. */
	void (*release)(void *opts);
};

/* The commands, in the order `vmscan-report help` lists them
 * (src/cmd/cmd-table.c). */
extern const struct cmd *const cmd_table[];
extern const size_t cmd_table_size;

/**
 * cmd_default_db - the database when -d is not given: $VMSCAN_REPORT_DB
 * (when set and not empty), else "vmscan.db" in the current directory.
 * The string is borrowed (the environment's or static).
 */
const char *cmd_default_db(void);

/** cmd_find - the command named @name, or NULL. */
const struct cmd *cmd_find(const char *name);

/**
 * cmd_run - run command @c with the arguments after its name (@argv[0]
 * is the name getopt's messages start with, "vmscan-report NAME").
 * Returns the exit status (enum vr_exit); see the top of this file.
 */
int cmd_run(const struct cmd *c, int argc, char **argv);

/**
 * cmd_parse - parse the options of @argv (@argv[0]: the command's name for
 * getopt's messages) by ctx->cmd's table: -d into ctx->db, -h sets *@help
 * (OUT) and stops, the rest to ->option(); then ctx->argc/argv are the
 * operands.  Returns CMD_OK or what ->option() returned; CMD_USAGE_HELP
 * after getopt's message for an unknown option or a missing argument.
 */
enum cmd_status cmd_parse(struct cmd_ctx *ctx, int argc, char **argv, bool *help);

/**
 * cmd_print_usage - write @c's -h text to @out: synopsis, description,
 * one line per option (and -h), notes.  Returns nothing; write errors
 * show in ferror(@out).
 */
void cmd_print_usage(const struct cmd *c, FILE *out);

/**
 * cmd_option_label - the option part of @o's -h line ("  -d, --database DB",
 * "      --from S") into @buf of @size bytes (truncated, always terminated).
 * Returns @buf.
 */
char *cmd_option_label(const struct cmd_option *o, char *buf, size_t size);

/**
 * cmd_print_man - write the manual page vmscan-report-NAME(1) of @c to
 * @out in roff (man(7)), from the same fields and option table as -h.
 * cmd_print_man_index - the same for vmscan-report(1): the command list.
 * Return nothing; write errors show in ferror(@out).
 */
void cmd_print_man(const struct cmd *c, FILE *out);
void cmd_print_man_index(FILE *out);

/**
 * cmd_print_completion - write the bash completion script of every
 * command in cmd_table to @out (commands, options, option values, and
 * kernels, runs and metrics read with sqlite3 from the database that -d,
 * $VMSCAN_REPORT_DB or ./vmscan.db names).
 */
void cmd_print_completion(FILE *out);

/**
 * cmd_show_man - `vmscan-report help NAME`: run man(1) on the installed
 * page vmscan-report-NAME, or `man -l` on the one built in this tree, or
 * print @c's -h text to stdout when man or both pages are missing.
 * Returns an enum vr_exit status (man's failure is VR_EXIT_FAIL).
 */
int cmd_show_man(const struct cmd *c);

/**
 * cmd_nearest - the command nearest to the unknown @name by edit distance
 * (Damerau-Levenshtein, as git's help.c suggests commands), or NULL when
 * none is within 1 + strlen(@name)/2 edits (at most 3) or two tie.
 */
const struct cmd *cmd_nearest(const char *name);

/** cmd_help_option - the -h row every command has after its own. */
extern const struct cmd_option cmd_help_option;

/* The commands, one src/cmd/cmd-NAME.c each. */
extern const struct cmd cmd_load_desc, cmd_runs_desc, cmd_compare_desc,
	cmd_import_latency_desc, cmd_summary_desc, cmd_timeline_desc, cmd_chart_desc,
	cmd_report_desc, cmd_record_desc, cmd_rm_desc;

struct compare_opts;
struct compare_stat;

/*
 * compare's options that choose what the table shows, shared by report
 * (the same rows in both option tables, the same parsing, in
 * src/cmd/cmd-compare.c): --kernels LIST, --metrics LIST, --stats LIST into
 * a struct compare_opts (compare.h), whose arrays point into struct
 * cmd_trim's copies.
 */
struct cmd_trim {
	char *kernels_arg, *metrics_arg;	/* owned copies, split in place */
	struct compare_stat *stats;		/* owned */
};

#define CMD_TRIM_OPTION_ROWS \
	{ 'k', "kernels", "LIST", "kernels to compare, baseline first (default: all, in\n" \
				  "load order)" }, \
	{ 'm', "metrics", "LIST", "show only these operations (p95-DirectReclaim,\n" \
		"p95-Write) or metrics (DirectReclaim, Write; names are\n" \
		"case-sensitive, an unknown one is an error); the\n" \
		"counters block is then left out unless the LIST\n" \
		"has 'counters' (default: everything)" }, \
	{ 's', "stats", "LIST", "Min, Amean, Hmean, Stddev, CoeffVar, Max, BAmean-NN,\n" \
		"Pctile-NN (default: Min,Amean,Stddev,CoeffVar,Max,\n" \
		"BAmean-95)" }

/** cmd_trim_key - is @key one of CMD_TRIM_OPTION_ROWS? */
bool cmd_trim_key(int key);

/**
 * cmd_trim_option - option @key (cmd_trim_key()) with @arg into @t and @o;
 * messages start with @cmd.  CMD_OK, or CMD_USAGE after a message (an
 * unknown statistic, an empty --stats).
 */
enum cmd_status cmd_trim_option(struct cmd_trim *t, struct compare_opts *o, const char *cmd,
				int key, const char *arg);

/** cmd_trim_check - CMD_USAGE after a message if a --kernels item repeats. */
enum cmd_status cmd_trim_check(const struct compare_opts *o, const char *cmd);

/** cmd_trim_release - free what cmd_trim_option() put in @t and @o. */
void cmd_trim_release(struct cmd_trim *t, struct compare_opts *o);

#endif /* VR_CMD_H */
