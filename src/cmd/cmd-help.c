// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-help.c - what is made from the command tables besides -h
 * (src/cmd/cmd.h): the manual pages (roff, written at build time by
 * build/cmd-doc into build/man/), `help CMD` showing one, the bash
 * completion script, and the nearest command to a mistyped one.
 */
#include "child.h"
#include "cmd.h"
#include "vr.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Write @s escaped for roff: '\' as \e, '-' as \-, a '.' or '\'' that
 * would start a request behind \&. */
static void roff_put(FILE *out, const char *s, size_t len, bool line_start)
{
	for (size_t i = 0; i < len; i++) {
		if (line_start && (s[i] == '.' || s[i] == '\''))
			fputs("\\&", out);
		line_start = false;
		if (s[i] == '\\')
			fputs("\\e", out);
		else if (s[i] == '-')
			fputs("\\-", out);
		else
			fputc(s[i], out);
	}
}

static void roff_str(FILE *out, const char *s)
{
	roff_put(out, s, strlen(s), false);
}

/* A line of -h text laid out by hand (indented, or aligned with two
 * spaces): kept as it is in the page instead of filled. */
static bool verbatim_line(const char *line, size_t len)
{
	for (size_t i = 1; i + 1 < len; i++)
		if (line[i] == ' ' && line[i + 1] == ' ' && !strchr(".?!", line[i - 1]))
			return true;
	return len && line[0] == ' ';
}

/* @text ('\n' lines, as -h prints it) in roff: a blank line is a
 * paragraph break; a line laid out by hand, or every line when @keep,
 * stands alone; other lines are filled into paragraphs. */
static void roff_text(FILE *out, const char *text, bool keep)
{
	while (*text) {
		size_t len = strcspn(text, "\n");
		size_t lead = strspn(text, " ");

		if (len == 0 || lead >= len) {
			fputs(".PP\n", out);
		} else {
			bool alone = keep || verbatim_line(text, len);

			if (alone)
				fputs(".br\n", out);
			if (lead)
				fprintf(out, "\\h'%zun'", lead);
			roff_put(out, text + lead, len - lead, !lead);
			fputs(alone ? "\n.br\n" : "\n", out);
		}
		text += len + (text[len] == '\n');
	}
}

static void roff_lines(FILE *out, const char *text)
{
	roff_text(out, text, true);
}

/* "-d, --database DB" in roff: bold option names, italic argument. */
static void roff_option(FILE *out, const struct cmd_option *o)
{
	fputs(".TP\n", out);
	if (o->key < CMD_OPT_LONG)
		fprintf(out, "\\fB\\-%c\\fR, ", o->key);
	fputs("\\fB\\-\\-", out);
	roff_str(out, o->name);
	fputs("\\fR", out);
	if (o->arg) {
		fputs(" \\fI", out);
		roff_str(out, o->arg);
		fputs("\\fR", out);
	}
	fputs("\n", out);
	roff_lines(out, o->help);
}

static void man_header(FILE *out, const char *page, const char *summary)
{
	char upper[64];
	size_t i;

	for (i = 0; page[i] && i < sizeof(upper) - 1; i++)
		upper[i] = (char)(page[i] >= 'a' && page[i] <= 'z' ? page[i] - 32 : page[i]);
	upper[i] = '\0';
	fprintf(out, ".TH %s 1 \"\" \"vmscan-report %s\" \"vmscan-report manual\"\n", upper,
		VR_VERSION);
	fputs(".ad l\n.nh\n.SH NAME\n", out);
	roff_str(out, page);
	fputs(" \\- ", out);
	roff_str(out, summary);
	fputs("\n", out);
}

void cmd_print_man(const struct cmd *c, FILE *out)
{
	char page[64];

	snprintf(page, sizeof(page), "vmscan-report-%s", c->name);
	man_header(out, page, c->summary);
	fputs(".SH SYNOPSIS\n", out);
	for (size_t i = 0; c->synopsis && c->synopsis[i]; i++) {
		const char *form = c->synopsis[i];

		fprintf(out, ".br\n\\fBvmscan\\-report %s\\fR ", c->name);
		while (*form) {
			size_t len = strcspn(form, "\n");
			size_t lead = strspn(form, " ");

			roff_put(out, form + lead, len - lead, false);
			fputs("\n", out);
			form += len + (form[len] == '\n');
		}
	}
	if (c->description) {
		fputs(".SH DESCRIPTION\n", out);
		roff_text(out, c->description, false);
	}
	fputs(".SH OPTIONS\n", out);
	for (const struct cmd_option *o = c->options; o && o->name; o++)
		roff_option(out, o);
	roff_option(out, &cmd_help_option);
	if (c->notes) {
		fputs(".SH NOTES\n", out);
		roff_text(out, c->notes, false);
	}
	fputs(".SH ENVIRONMENT\n.TP\n.B VMSCAN_REPORT_DB\n"
	      "the database when \\fB\\-d\\fR is not given (default: vmscan.db in the current\n"
	      "directory)\n"
	      ".SH SEE ALSO\n\\fBvmscan\\-report\\fR(1)\n", out);
}

void cmd_print_man_index(FILE *out)
{
	man_header(out, "vmscan-report", "reports on Linux page reclaim from vmscan tracepoints");
	fputs(".SH SYNOPSIS\n\\fBvmscan\\-report\\fR \\fICOMMAND\\fR [\\fIOPTIONS\\fR] ...\n.br\n"
	      "\\fBvmscan\\-report help\\fR [\\fICOMMAND\\fR]\n.br\n"
	      "\\fBvmscan\\-report\\fR \\fB\\-\\-version\\fR | \\fB\\-v\\fR | \\fB\\-V\\fR |"
	      " \\fBversion\\fR\n"
	      ".SH DESCRIPTION\n"
	      "vmscan\\-report loads vmscan tracepoint recordings (trace.dat files and\n"
	      "text traces) into a SQLite database, rebuilds per-node kswapd timelines,\n"
	      "pgdat flag timelines, reclaim stalls, throttling and writeback from\n"
	      "reclaim, and prints comparison tables and charts.\n"
	      ".SH COMMANDS\n", out);
	for (size_t i = 0; i < cmd_table_size; i++) {
		fprintf(out, ".TP\n\\fBvmscan\\-report\\-%s\\fR(1)\n", cmd_table[i]->name);
		roff_str(out, cmd_table[i]->summary);
		fputs("\n", out);
	}
	fputs(".SH OPTIONS\n"
	      "Each command's options are in its page.  A short option letter means the\n"
	      "same in every command that has it (\\fB\\-d\\fR the database, \\fB\\-k\\fR a\n"
	      "kernel, \\fB\\-r\\fR a run, \\fB\\-o\\fR the output).\n"
	      ".SH ENVIRONMENT\n.TP\n.B VMSCAN_REPORT_DB\n"
	      "the database when \\fB\\-d\\fR is not given\n"
	      ".SH FILES\n.TP\n.B vmscan.db\n"
	      "the database in the current directory when neither \\fB\\-d\\fR nor\n"
	      "\\fBVMSCAN_REPORT_DB\\fR names one\n"
	      ".SH EXIT STATUS\n0 success, 1 failure, 2 usage error\n"
	      ".SH SEE ALSO\n\\fBtrace\\-cmd\\fR(1), \\fBsqlite3\\fR(1)\n", out);
}

/* What the program's child is given. */
struct program {
	char *const *argv;
	bool quiet;
	int err[2];		/* the child writes execvp()'s errno to err[1] */
};

/* In the child: exec the program; 127 when it cannot be run. */
static int program_child(void *arg)
{
	const struct program *p = arg;
	int e;

	close(p->err[0]);
	if (p->quiet && !freopen("/dev/null", "w", stdout))
		return 127;
	if (p->quiet && !freopen("/dev/null", "w", stderr))
		return 127;
	execvp(p->argv[0], p->argv);
	e = errno;
	if (write(p->err[1], &e, sizeof(e)) < 0)
		return 127;
	return 127;
}

/* Run @argv (a NULL-terminated list), its output to /dev/null if @quiet;
 * its exit status, or -1 when it could not be run (errno: ENOENT when the
 * program is missing). */
static int run_program(char *const *argv, bool quiet)
{
	struct program p = { argv, quiet, { -1, -1 } };
	struct child c;
	int e = 0;

	if (pipe(p.err))
		return -1;
	if (child_start(&c, program_child, &p, 0))
		return close(p.err[0]), close(p.err[1]), -1;
	close(p.err[1]);
	if (read(p.err[0], &e, sizeof(e)) == sizeof(e)) {
		close(p.err[0]);
		child_wait(&c);
		errno = e;
		return -1;
	}
	close(p.err[0]);
	if (child_wait(&c))
		return -1;
	return child_signalled(&c) ? 128 : WEXITSTATUS(c.status);
}

/* The page built next to the program: build/man/ of the tree it was built
 * in (VR_BUILD_MANDIR, set by the Makefile).  NULL when it is not there. */
static const char *built_page(const struct cmd *c, char *buf, size_t size)
{
#ifdef VR_BUILD_MANDIR
	snprintf(buf, size, "%s/vmscan-report-%s.1", VR_BUILD_MANDIR, c->name);
	if (access(buf, R_OK) == 0)
		return buf;
#else
	(void)c, (void)buf, (void)size;
#endif
	return NULL;
}

int cmd_show_man(const struct cmd *c)
{
	char page[64], buf[4096];
	const char *path;
	int ret;

	snprintf(page, sizeof(page), "vmscan-report-%s", c->name);
	ret = run_program((char *[]){ "man", "-w", page, NULL }, true);
	if (ret == 0)
		ret = run_program((char *[]){ "man", page, NULL }, false);
	else if (ret > 0 && (path = built_page(c, buf, sizeof(buf))))
		ret = run_program((char *[]){ "man", "-l", (char *)path, NULL }, false);
	else
		ret = -1;
	if (ret == 0)
		return VR_EXIT_OK;
	if (ret > 0)
		return VR_EXIT_FAIL;
	cmd_print_usage(c, stdout);	/* no man, or no page */
	return VR_EXIT_OK;
}

/* Damerau-Levenshtein distance (optimal string alignment: adjacent
 * transpositions count 1, as git's levenshtein.c) of @a and @b, both
 * shorter than 64 bytes (longer: a large distance). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[64][64];

	if (la >= 64 || lb >= 64)
		return SIZE_MAX;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1], v = d[i - 1][j - 1] + cost;

			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

const struct cmd *cmd_nearest(const char *name)
{
	const struct cmd *best = NULL;
	size_t best_d = SIZE_MAX, limit = strlen(name) / 2 + 1;
	bool tie = false;

	if (limit > 3)
		limit = 3;
	for (size_t i = 0; i < cmd_table_size; i++) {
		size_t d = edit_distance(name, cmd_table[i]->name);

		if (d < best_d) {
			best_d = d;
			best = cmd_table[i];
			tie = false;
		} else if (d == best_d) {
			tie = true;
		}
	}
	return best && best_d <= limit && !tie ? best : NULL;
}
