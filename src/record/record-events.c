// SPDX-License-Identifier: GPL-2.0
/*
 * record-events.c - the event side of `record`: presets, --events parsing,
 * resolution against the running kernel's events, and the per-CPU ring
 * buffer statistics text.  No tracefs writes here (see record.c).
 */
#include "record.h"
#include "vr.h"

#include <stdlib.h>
#include <string.h>

#include <tracefs/tracefs.h>

/*
 * sched_switch/sched_wakeup restricted to kswapd: enough to tell a kswapd
 * nap from a full sleep (kswapd_try_to_sleep() in mm/vmscan.c: the nap is
 * a switch-out in state S with no mm_vmscan_kswapd_sleep before it; README.md
 * "kswapd's nap and full sleep") without recording every
 * context switch.  The '~' glob operator of event filters exists since
 * Linux 4.7 (kernel/trace/trace_events_filter.c, regex_match_glob).
 */
#define KSWAPD_SWITCH_FILTER "prev_comm ~ \"kswapd*\" || next_comm ~ \"kswapd*\""
#define KSWAPD_WAKEUP_FILTER "comm ~ \"kswapd*\""

struct preset_event {
	const char *system;
	const char *name;	/* NULL: the whole system */
	const char *filter;
	bool optional;
};

/*
 * The presets.  writeback_congestion_wait / writeback_wait_iff_congested
 * are the congestion waits of reclaim up to 5.17 (removed by the 2021-22
 * "mm/vmscan: throttle reclaim" series; newer kernels report
 * vmscan:mm_vmscan_throttled, already in vmscan:*).
 */
static const struct preset_event preset_reclaim[] = {
	{ "vmscan", NULL, NULL, false },
	{ NULL, NULL, NULL, false }
};

static const struct preset_event preset_full[] = {
	{ "vmscan", NULL, NULL, false },
	{ "writeback", "writeback_congestion_wait", NULL, true },
	{ "writeback", "writeback_wait_iff_congested", NULL, true },
	{ "compaction", "mm_compaction_begin", NULL, true },
	{ "compaction", "mm_compaction_end", NULL, true },
	{ "sched", "sched_switch", KSWAPD_SWITCH_FILTER, true },
	{ "sched", "sched_wakeup", KSWAPD_WAKEUP_FILTER, true },
	{ NULL, NULL, NULL, false }
};

static const struct {
	const char *name;
	const struct preset_event *events;
} presets[] = {
	{ "reclaim", preset_reclaim },
	{ "full", preset_full },
};

const char *const record_preset_names[] = { "reclaim", "full", NULL };

static void events_add(struct record_events *e, const char *system, const char *name,
		       const char *filter, bool optional)
{
	struct record_event *ev;

	e->ev = vr_realloc(e->ev, (e->n + 1) * sizeof(*e->ev));
	ev = &e->ev[e->n++];
	ev->system = vr_strdup(system);
	ev->name = name ? vr_strdup(name) : NULL;
	ev->filter = filter ? vr_strdup(filter) : NULL;
	ev->optional = optional;
}

void record_events_release(struct record_events *e)
{
	for (size_t i = 0; i < e->n; i++) {
		free(e->ev[i].system);
		free(e->ev[i].name);
		free(e->ev[i].filter);
	}
	free(e->ev);
	e->ev = NULL;
	e->n = 0;
}

void record_strv_free(char **v)
{
	if (!v)
		return;
	for (char **p = v; *p; p++)
		free(*p);
	free(v);
}

static bool valid_name(const char *s, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = s[i];

		if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9')))
			return false;
	}
	return true;
}

/* One item of the list: a preset, "system", "system:*" or "system:event". */
static int parse_item(const char *item, size_t len, struct record_events *out)
{
	size_t sep = strcspn(item, ":/");
	char sys[256], ev[256];

	if (!len)
		return vr_error("--events: empty item in the list");
	if (len >= sizeof(sys))
		return vr_error("--events: '%.*s' is too long", (int)len, item);
	if (sep >= len) {
		for (size_t p = 0; p < VR_ARRAY_SIZE(presets); p++) {
			if (strlen(presets[p].name) != len || strncmp(presets[p].name, item, len))
				continue;
			for (const struct preset_event *pe = presets[p].events; pe->system; pe++)
				events_add(out, pe->system, pe->name, pe->filter, pe->optional);
			return 0;
		}
		if (!valid_name(item, len))
			return vr_error("--events: '%.*s' is not a preset, system or event "
					"(presets: reclaim, full)", (int)len, item);
		memcpy(sys, item, len);
		sys[len] = '\0';
		events_add(out, sys, NULL, NULL, false);
		return 0;
	}
	size_t elen = len - sep - 1;

	if (!valid_name(item, sep))
		return vr_error("--events: bad system name in '%.*s'", (int)len, item);
	if (memchr(item + sep + 1, ':', elen) || memchr(item + sep + 1, '/', elen))
		return vr_error("--events: '%.*s' has more than one ':' (want SYSTEM:EVENT)",
				(int)len, item);
	if (!(elen == 1 && item[sep + 1] == '*') && !valid_name(item + sep + 1, elen))
		return vr_error("--events: bad event name in '%.*s'", (int)len, item);
	memcpy(sys, item, sep);
	sys[sep] = '\0';
	memcpy(ev, item + sep + 1, elen);
	ev[elen] = '\0';
	events_add(out, sys, strcmp(ev, "*") ? ev : NULL, NULL, false);
	return 0;
}

int record_events_parse(const char *spec, struct record_events *out)
{
	const char *p = spec;

	memset(out, 0, sizeof(*out));
	for (;;) {
		size_t len = strcspn(p, ",");

		if (parse_item(p, len, out)) {
			record_events_release(out);
			return -1;
		}
		if (!p[len])
			return 0;
		p += len + 1;
	}
}

static bool strv_has(char *const *v, const char *s)
{
	for (; v && *v; v++)
		if (!strcmp(*v, s))
			return true;
	return false;
}

/* Add one concrete event to @out, merging with an earlier request. */
static void add_merged(struct record_events *out, const char *system, const char *name,
		       const char *filter)
{
	for (size_t i = 0; i < out->n; i++) {
		struct record_event *ev = &out->ev[i];

		if (strcmp(ev->system, system) || strcmp(ev->name, name))
			continue;
		if (!ev->filter)
			return;
		if (!filter) {
			free(ev->filter);
			ev->filter = NULL;
		} else if (strcmp(ev->filter, filter)) {
			struct vr_buf b;

			vr_buf_init(&b);
			vr_buf_addf(&b, "(%s) || (%s)", ev->filter, filter);
			free(ev->filter);
			ev->filter = vr_buf_detach(&b);
		}
		return;
	}
	events_add(out, system, name, filter, false);
}

static int resolve_one(const struct record_event *req, char **names, struct record_events *out,
		       bool verbose)
{
	const char *what = req->optional ? "skipped" : NULL;

	if (!names) {
		if (what && !verbose)
			return 0;
		if (what && req->name) {
			vr_warn("event %s:%s is not on this kernel; %s", req->system, req->name,
				what);
			return 0;
		}
		if (what) {
			vr_warn("event system '%s' is not on this kernel; %s", req->system, what);
			return 0;
		}
		return vr_error("event system '%s' is not on this kernel (see the directories "
				"of %s/events)", req->system, tracefs_tracing_dir());
	}
	if (!req->name) {
		for (char **n = names; *n; n++)
			add_merged(out, req->system, *n, req->filter);
		return 0;
	}
	if (strv_has(names, req->name)) {
		add_merged(out, req->system, req->name, req->filter);
		return 0;
	}
	if (what) {
		if (verbose)
			vr_warn("event %s:%s is not on this kernel; %s", req->system, req->name,
				what);
		return 0;
	}
	return vr_error("event %s:%s is not on this kernel (see 'trace-cmd list -e %s')",
			req->system, req->name, req->system);
}

int record_events_resolve(const struct record_events *in, const struct record_kernel *k,
			  struct record_events *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < in->n; i++) {
		char **names = k->system_events(k->arg, in->ev[i].system);
		int ret = resolve_one(&in->ev[i], names, out, k->verbose);

		record_strv_free(names);
		if (ret) {
			record_events_release(out);
			return -1;
		}
	}
	if (!out->n)
		return vr_error("no event to record on this kernel");
	return 0;
}

/* tracefs_system_events() returns a tracefs_list_free() list; copy it. */
static char **tracefs_system_events_copy(void *arg, const char *system)
{
	char **list, **v;
	size_t n = 0;

	(void)arg;
	list = tracefs_system_events(NULL, system);
	if (!list)
		return NULL;
	while (list[n])
		n++;
	v = vr_calloc(n + 1, sizeof(*v));
	for (size_t i = 0; i < n; i++)
		v[i] = vr_strdup(list[i]);
	tracefs_list_free(list);
	return v;
}

struct record_kernel record_tracefs_kernel(void)
{
	return (struct record_kernel){ tracefs_system_events_copy, NULL, false };
}

/* "name: value" lines of per_cpu/cpuN/stats (kernel/trace/trace.c,
 * tracing_stats_read(), same names from 3.x to 6.18). */
int record_parse_cpu_stats(const char *text, struct record_cpu_stats *st)
{
	static const struct {
		const char *key;
		size_t off;
	} keys[] = {
		{ "entries: ", offsetof(struct record_cpu_stats, entries) },
		{ "overrun: ", offsetof(struct record_cpu_stats, overrun) },
		{ "commit overrun: ", offsetof(struct record_cpu_stats, commit_overrun) },
		{ "dropped events: ", offsetof(struct record_cpu_stats, dropped) },
		{ "read events: ", offsetof(struct record_cpu_stats, read) },
	};
	int found = 0;

	memset(st, 0, sizeof(*st));
	for (const char *line = text; line && *line; ) {
		const char *end = strchr(line, '\n');

		for (size_t i = 0; i < VR_ARRAY_SIZE(keys); i++) {
			size_t kl = strlen(keys[i].key);

			if (strncmp(line, keys[i].key, kl))
				continue;
			*(uint64_t *)((char *)st + keys[i].off) = strtoull(line + kl, NULL, 10);
			found++;
		}
		line = end ? end + 1 : NULL;
	}
	return found ? 0 : -1;
}
