// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-completion.c - the bash completion script, made from the command
 * tables (src/cmd/cmd.h) at build time: build/vmscan-report.bash.
 */
#include "chart-draw.h"
#include "cmd.h"
#include "metrics.h"
#include "vr.h"

#include <stdio.h>
#include <string.h>

/* The parts that do not depend on the tables: where the database is, and
 * the values read from it. */
static const char completion_head[] =
	"# bash completion for vmscan-report (generated from its option tables)\n"
	"\n"
	"# The database the command line names: -d/--database, else\n"
	"# $VMSCAN_REPORT_DB, else vmscan.db.\n"
	"_vmscan_report_db()\n"
	"{\n"
	"\tlocal i db=${VMSCAN_REPORT_DB:-vmscan.db}\n"
	"\tfor ((i = 2; i < ${#COMP_WORDS[@]} - 1; i++)); do\n"
	"\t\tcase ${COMP_WORDS[i]} in\n"
	"\t\t-d|--database) db=${COMP_WORDS[i + 1]} ;;\n"
	"\t\t--database=*) db=${COMP_WORDS[i]#--database=} ;;\n"
	"\t\tesac\n"
	"\tdone\n"
	"\tprintf '%s' \"${db/#\\~/$HOME}\"\n"
	"}\n"
	"\n"
	"# Kernels, run ids or metrics of the database (sqlite3, else\n"
	"# 'vmscan-report runs').\n"
	"_vmscan_report_query()\n"
	"{\n"
	"\tlocal db; db=$(_vmscan_report_db)\n"
	"\t[ -r \"$db\" ] || { [ \"$1\" = metric ] && echo \"$_vmscan_report_metrics\"; return 0; }\n"
	"\tif command -v sqlite3 >/dev/null 2>&1; then\n"
	"\t\tcase $1 in\n"
	"\t\tkernel) sqlite3 -readonly \"$db\" 'SELECT DISTINCT kernel FROM run' ;;\n"
	"\t\trun) sqlite3 -readonly \"$db\" 'SELECT id FROM run' ;;\n"
	"\t\tmetric) echo \"$_vmscan_report_metrics\"\n"
	"\t\t\tsqlite3 -readonly \"$db\" 'SELECT DISTINCT operation FROM app_latency' ;;\n"
	"\t\tesac 2>/dev/null\n"
	"\telse\n"
	"\t\tcase $1 in\n"
	"\t\tkernel) vmscan-report runs -d \"$db\" | awk 'NR > 1 { print $2 }' | sort -u ;;\n"
	"\t\trun) vmscan-report runs -d \"$db\" | awk 'NR > 1 { print $1 }' ;;\n"
	"\t\tmetric) echo \"$_vmscan_report_metrics\" ;;\n"
	"\t\tesac 2>/dev/null\n"
	"\tfi\n"
	"}\n"
	"\n"
	"# Complete the value $2 (a spec of the option tables) of an option.\n"
	"_vmscan_report_value()\n"
	"{\n"
	"\tlocal spec=$1 cur=$2 words w prefix=\n"
	"\tif [ \"${spec#,}\" != \"$spec\" ]; then\n"
	"\t\tspec=${spec#,}\n"
	"\t\tcase $cur in *,*) prefix=${cur%,*},; cur=${cur##*,} ;; esac\n"
	"\tfi\n"
	"\tif [ -z \"$spec\" ]; then\n"
	"\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tfor w in $spec; do\n"
	"\t\tcase $w in\n"
	"\t\t@*) words+=\" $(_vmscan_report_query \"${w#@}\")\" ;;\n"
	"\t\t*) words+=\" $w\" ;;\n"
	"\t\tesac\n"
	"\tdone\n"
	"\tCOMPREPLY=($(compgen -P \"$prefix\" -W \"$words\" -- \"$cur\"))\n"
	"}\n"
	"\n";

/* The static metric names, for the "@metric" values of the tables (the
 * imported ones are read from the database). */
static void put_metric_names(FILE *out)
{
	fputs("_vmscan_report_metrics='", out);
	for (size_t i = 0; i < metric_specs_count; i++)
		fprintf(out, "%s%s", i ? " " : "", metric_specs[i].name);
	fputs(" counters'\n\n", out);
}

/*
 * The values completion offers for an option's argument, by long name (a
 * long name means one thing in every command): blank-separated; a ','
 * first: a comma-separated list of them; "@kernel", "@run", "@metric":
 * read from the database on the command line.  Not listed: a file name,
 * and --kind, whose values are chart_kinds' names (value_spec()).
 */
static const struct {
	const char *name, *values;
} option_values[] = {
	{ "kernel", "@kernel" },
	{ "kernels", ",@kernel" },
	{ "run", "@run" },
	{ "metric", "@metric" },
	{ "metrics", ",@metric" },
	{ "format", "text markdown csv json" },
	{ "stats", ",Min Amean Hmean Stddev CoeffVar Max BAmean-95 Pctile-95" },
	{ "significance", "welch ci" },
	{ "layout", "2017 mmtests" },
	{ "events", ",reclaim full vmscan vmscan:* sched compaction writeback" },
	{ "compression", "any none zstd zlib" },
	{ "clock", "mono local global boot perf" },
	{ "file-version", "6 7" },
	{ "flag-clear", "kswapd-sleep balanced-check" },
	{ "iteration", "" }, { "node", "" }, { "jobs", "" }, { "from", "" }, { "to", "" },
	{ "bin", "" }, { "width", "" }, { "height", "" }, { "alpha", "" },
	{ "premature-ms", "" }, { "min-stall-ms", "" }, { "buffer-kb", "" }, { "duration", "" },
};

/* The spec of @o's argument as _vmscan_report_value takes it: "-" when
 * @o takes none, "" for a file name; a number offers nothing (" "). */
static const char *value_spec(const struct cmd_option *o)
{
	static char kinds[128];

	if (!o->arg)
		return "-";
	if (!strcmp(o->name, "kind"))	/* chart's kinds, from their one table */
		return chart_kind_names(" ", kinds, sizeof(kinds));
	for (size_t i = 0; i < VR_ARRAY_SIZE(option_values); i++)
		if (!strcmp(option_values[i].name, o->name))
			return *option_values[i].values ? option_values[i].values : " ";
	return "";
}

/* case arm for option @o of a command: "-k|--kernel) spec=...;;". */
static void put_option_arm(FILE *out, const struct cmd_option *o)
{
	if (!o->arg)
		return;
	fputs("\t\t", out);
	if (o->key < CMD_OPT_LONG)
		fprintf(out, "-%c|", o->key);
	fprintf(out, "--%s) spec='%s' ;;\n", o->name, value_spec(o));
}

static void put_command(FILE *out, const struct cmd *c)
{
	fprintf(out, "\t%s)\n\t\topts='", c->name);
	for (const struct cmd_option *o = c->options; o && o->name; o++) {
		if (o->key < CMD_OPT_LONG)
			fprintf(out, "-%c ", o->key);
		fprintf(out, "--%s ", o->name);
	}
	fputs("-h --help'\n\t\tcase $prev in\n", out);
	for (const struct cmd_option *o = c->options; o && o->name; o++)
		put_option_arm(out, o);
	fputs("\t\tesac ;;\n", out);
}

/* Every command's name, each followed by a space. */
static void put_command_names(FILE *out)
{
	for (size_t i = 0; i < cmd_table_size; i++)
		fprintf(out, "%s ", cmd_table[i]->name);
}

void cmd_print_completion(FILE *out)
{
	fputs(completion_head, out);
	put_metric_names(out);
	fputs("_vmscan_report()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	      "\tlocal cmd=${COMP_WORDS[1]} opts spec=-\n"
	      "\tCOMPREPLY=()\n"
	      "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W '", out);
	put_command_names(out);
	fputs("help version --version --help' -- \"$cur\"))\n"
	      "\t\treturn\n\tfi\n"
	      "\tcase $cmd in\n"
	      "\thelp)\n"
	      "\t\t[ \"$COMP_CWORD\" -eq 2 ] && COMPREPLY=($(compgen -W '", out);
	put_command_names(out);
	fputs("' -- \"$cur\"))\n\t\treturn ;;\n", out);
	for (size_t i = 0; i < cmd_table_size; i++)
		put_command(out, cmd_table[i]);
	fputs("\t*) return ;;\n\tesac\n"
	      "\tif [ \"$spec\" != - ]; then\n"
	      "\t\t_vmscan_report_value \"$spec\" \"$cur\"\n"
	      "\telif [ \"${cur#-}\" != \"$cur\" ]; then\n"
	      "\t\tCOMPREPLY=($(compgen -W \"$opts\" -- \"$cur\"))\n"
	      "\telse\n"
	      "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "\tfi\n"
	      "}\n"
	      "complete -o filenames -F _vmscan_report vmscan-report\n", out);
}

