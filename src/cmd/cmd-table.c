// SPDX-License-Identifier: GPL-2.0
/* cmd-table.c - the commands, in the order `vmscan-report help` lists them. */
#include "cmd.h"
#include "vr.h"

#include <string.h>

const struct cmd *const cmd_table[] = {
	&cmd_load_desc,
	&cmd_runs_desc,
	&cmd_rm_desc,
	&cmd_compare_desc,
	&cmd_import_latency_desc,
	&cmd_summary_desc,
	&cmd_timeline_desc,
	&cmd_chart_desc,
	&cmd_report_desc,
	&cmd_record_desc,
};

const size_t cmd_table_size = VR_ARRAY_SIZE(cmd_table);

const struct cmd *cmd_find(const char *name)
{
	for (size_t i = 0; i < cmd_table_size; i++)
		if (!strcmp(cmd_table[i]->name, name))
			return cmd_table[i];
	return NULL;
}
