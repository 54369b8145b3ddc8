// SPDX-License-Identifier: GPL-2.0
/*
 * cmd-trim.c - the options that trim compare's tables (--kernels, --metrics,
 * --stats; CMD_TRIM_OPTION_ROWS in cmd.h), shared by `compare` and `report`,
 * and vr_split_list(), which `import-latency` uses too.  The statistics
 * are parsed by compare_stat_parse() (include/compare.h).
 */
#include "cmd.h"
#include "compare.h"
#include "vr.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int parse_stats(struct cmd_trim *t, struct compare_opts *o, const char *cmd,
		       const char *arg)
{
	char *copy = vr_strdup(arg);
	size_t n;
	char **names = vr_split_list(copy, &n);
	int ret = 0;

	t->stats = vr_calloc(n + 1, sizeof(*t->stats));
	for (size_t i = 0; i < n && !ret; i++)
		if (compare_stat_parse(names[i], &t->stats[i]))
			ret = vr_error("%s: unknown statistic '%s' (valid: Min, Amean, Hmean,"
				       " Stddev, CoeffVar, Max, BAmean-NN, Pctile-NN)", cmd, names[i]);
	o->stats = t->stats;
	o->nstats = n;
	if (!ret && !n)
		ret = vr_error("%s: --stats needs at least one statistic (Min, Amean,"
			       " Hmean, Stddev, CoeffVar, Max, BAmean-NN, Pctile-NN)", cmd);
	free(names);
	free(copy);
	return ret;
}

bool cmd_trim_key(int key)
{
	return key == 'k' || key == 'm' || key == 's';
}

enum cmd_status cmd_trim_option(struct cmd_trim *t, struct compare_opts *o, const char *cmd,
				int key, const char *arg)
{
	switch (key) {
	case 'k':
		free(t->kernels_arg);
		t->kernels_arg = vr_strdup(arg);
		free(o->kernels);
		o->kernels = vr_split_list(t->kernels_arg, &o->nkernels);
		break;
	case 'm':
		free(t->metrics_arg);
		t->metrics_arg = vr_strdup(arg);
		free(o->metrics);
		o->metrics = vr_split_list(t->metrics_arg, &o->nmetrics);
		break;
	case 's':
		free(t->stats);
		if (parse_stats(t, o, cmd, arg))
			return CMD_USAGE;
		break;
	}
	return CMD_OK;
}

enum cmd_status cmd_trim_check(const struct compare_opts *o, const char *cmd)
{
	for (size_t i = 0; i < o->nkernels; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(o->kernels[i], o->kernels[j]))
				return vr_error("%s: kernel '%s' is named twice in --kernels", cmd,
						o->kernels[i]), CMD_USAGE;
	return CMD_OK;
}

void cmd_trim_release(struct cmd_trim *t, struct compare_opts *o)
{
	free(o->kernels);
	free(o->metrics);
	free(t->kernels_arg);
	free(t->metrics_arg);
	free(t->stats);
}
