// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the model's dispatcher: maps each known event (by its spec
 * index) to the state machines that use it, resolves the fields they read
 * once per run, and keeps the per-pid hash and the per-node arrays.
 * The state machines are in model-stall.c, model-kswapd.c, model-flags.c
 * and model-misc.c; the rules are cited there.
 */
#include "model-priv.h"
#include "vr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MODEL_MAX_NODES 1024	/* MAX_NUMNODES is at most 1 << 10 */

/* ---- pid map ---------------------------------------------------------- */

void model_pidmap_init(struct model_pidmap *pm, size_t vsize)
{
	memset(pm, 0, sizeof(*pm));
	pm->vsize = vsize;
}

void model_pidmap_release(struct model_pidmap *pm)
{
	free(pm->keys);
	free(pm->vals);
	model_pidmap_init(pm, pm->vsize);
}

static size_t pm_hash(int64_t key, size_t cap)
{
	uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & (cap - 1);
}

static size_t pm_slot(const struct model_pidmap *pm, int64_t key)
{
	size_t i = pm_hash(key, pm->cap);

	while (pm->keys[i] != MODEL_NULL && pm->keys[i] != key)
		i = (i + 1) & (pm->cap - 1);
	return i;
}

void *model_pidmap_find(const struct model_pidmap *pm, int64_t key)
{
	size_t i;

	if (!pm->n)
		return NULL;
	i = pm_slot(pm, key);
	return pm->keys[i] == key ? pm->vals + i * pm->vsize : NULL;
}

static void pm_grow(struct model_pidmap *pm)
{
	struct model_pidmap old = *pm;
	size_t cap = old.cap ? old.cap * 2 : 64;

	pm->cap = cap;
	pm->n = 0;
	pm->keys = vr_malloc(cap * sizeof(*pm->keys));
	pm->vals = vr_calloc(cap, pm->vsize);
	for (size_t i = 0; i < cap; i++)
		pm->keys[i] = MODEL_NULL;
	for (size_t i = 0; i < old.cap; i++) {
		if (old.keys[i] == MODEL_NULL)
			continue;
		size_t j = pm_slot(pm, old.keys[i]);

		pm->keys[j] = old.keys[i];
		memcpy(pm->vals + j * pm->vsize, old.vals + i * old.vsize, pm->vsize);
		pm->n++;
	}
	free(old.keys);
	free(old.vals);
}

void *model_pidmap_get(struct model_pidmap *pm, int64_t key, bool *fresh)
{
	size_t i;

	if ((pm->n + 1) * 4 > pm->cap * 3)
		pm_grow(pm);
	i = pm_slot(pm, key);
	*fresh = pm->keys[i] != key;
	if (*fresh) {
		pm->keys[i] = key;
		memset(pm->vals + i * pm->vsize, 0, pm->vsize);
		pm->n++;
	}
	return pm->vals + i * pm->vsize;
}

void model_pidmap_remove(struct model_pidmap *pm, int64_t key)
{
	size_t mask, i, j;

	if (!pm->n)
		return;
	mask = pm->cap - 1;
	i = pm_slot(pm, key);
	if (pm->keys[i] != key)
		return;
	/* backward shift: move later entries of the run into the hole */
	for (j = (i + 1) & mask; pm->keys[j] != MODEL_NULL; j = (j + 1) & mask) {
		size_t home = pm_hash(pm->keys[j], pm->cap);

		/* can the entry at j live at i?  only if home is not in (i, j] */
		if (((j - home) & mask) >= ((j - i) & mask)) {
			pm->keys[i] = pm->keys[j];
			memcpy(pm->vals + i * pm->vsize, pm->vals + j * pm->vsize, pm->vsize);
			i = j;
		}
	}
	pm->keys[i] = MODEL_NULL;
	pm->n--;
}

/* ---- nodes ------------------------------------------------------------ */

struct kswapd_node *model_node(struct model *m, int64_t nid)
{
	if (nid < 0 || nid >= MODEL_MAX_NODES)
		return NULL;
	if (nid >= m->nnodes) {
		int n = (int)nid + 1;

		m->kn = vr_realloc(m->kn, (size_t)n * sizeof(*m->kn));
		m->fn = vr_realloc(m->fn, (size_t)n * sizeof(*m->fn));
		memset(m->kn + m->nnodes, 0, (size_t)(n - m->nnodes) * sizeof(*m->kn));
		memset(m->fn + m->nnodes, 0, (size_t)(n - m->nnodes) * sizeof(*m->fn));
		for (int i = m->nnodes; i < n; i++) {
			m->kn[i].pid = MODEL_NULL;
			m->kn[i].cur.nid = i;
		}
		m->nnodes = n;
	}
	return &m->kn[nid];
}

int model_kswapd_nid(const struct model *m, int pid)
{
	for (int i = 0; i < m->nnodes; i++)
		if (m->kn[i].pid == pid)
			return i;
	return -1;
}

/* ---- setup ------------------------------------------------------------ */

static const struct {
	const char *system, *name;
	enum mev mev;
} mev_table[] = {
	{ "vmscan", "mm_vmscan_kswapd_sleep", MEV_KSWAPD_SLEEP },
	{ "vmscan", "mm_vmscan_kswapd_wake", MEV_KSWAPD_WAKE },
	{ "vmscan", "mm_vmscan_wakeup_kswapd", MEV_WAKEUP_KSWAPD },
	{ "vmscan", "mm_vmscan_direct_reclaim_begin", MEV_DIRECT_BEGIN },
	{ "vmscan", "mm_vmscan_direct_reclaim_end", MEV_DIRECT_END },
	{ "vmscan", "mm_vmscan_memcg_reclaim_begin", MEV_MEMCG_BEGIN },
	{ "vmscan", "mm_vmscan_memcg_reclaim_end", MEV_MEMCG_END },
	{ "vmscan", "mm_vmscan_memcg_softlimit_reclaim_begin", MEV_SOFT_BEGIN },
	{ "vmscan", "mm_vmscan_memcg_softlimit_reclaim_end", MEV_SOFT_END },
	{ "vmscan", "mm_vmscan_node_reclaim_begin", MEV_NODE_BEGIN },
	{ "vmscan", "mm_vmscan_node_reclaim_end", MEV_NODE_END },
	{ "vmscan", "mm_shrink_slab_start", MEV_SLAB_START },
	{ "vmscan", "mm_shrink_slab_end", MEV_SLAB_END },
	{ "vmscan", "mm_vmscan_lru_isolate", MEV_LRU_ISOLATE },
	{ "vmscan", "mm_vmscan_writepage", MEV_WRITEPAGE },
	{ "vmscan", "mm_vmscan_write_folio", MEV_WRITEPAGE },
	{ "vmscan", "mm_vmscan_lru_shrink_inactive", MEV_SHRINK_INACTIVE },
	{ "vmscan", "mm_vmscan_lru_shrink_active", MEV_SHRINK_ACTIVE },
	{ "vmscan", "mm_vmscan_throttled", MEV_THROTTLED },
	{ "writeback", "writeback_congestion_wait", MEV_CONGESTION_WAIT },
	{ "writeback", "writeback_wait_iff_congested", MEV_WAIT_IFF_CONGESTED },
	{ "sched", "sched_switch", MEV_SCHED_SWITCH },
	{ "sched", "sched_wakeup", MEV_SCHED_WAKEUP },
	{ "sched", "sched_waking", MEV_SCHED_WAKEUP },
	{ "vmscan", "mm_vmscan_inactive_list_is_low", MEV_ACTIVITY },
	{ "vmscan", "mm_vmscan_memcg_isolate", MEV_ACTIVITY },
	{ "compaction", "mm_compaction_wakeup_kcompactd", MEV_ACTIVITY },
};

/* Kernel field names per enum mf; lru_isolate's zone field has two names. */
static const char *const mf_names[MF_COUNT] = {
	[MF_NID] = "nid", [MF_ZID] = "zid", [MF_ORDER] = "order",
	[MF_GFP_FLAGS] = "gfp_flags", [MF_NR_RECLAIMED] = "nr_reclaimed",
	[MF_NR_SCANNED] = "nr_scanned", [MF_NR_TAKEN] = "nr_taken",
	[MF_NR_DIRTY] = "nr_dirty", [MF_NR_WRITEBACK] = "nr_writeback",
	[MF_NR_CONGESTED] = "nr_congested", [MF_NR_IMMEDIATE] = "nr_immediate",
	[MF_PRIORITY] = "priority", [MF_RECLAIM_FLAGS] = "reclaim_flags", [MF_LRU] = "lru",
	[MF_NR_REQUESTED] = "nr_requested", [MF_PFN] = "pfn",
	[MF_USEC_TIMEOUT] = "usec_timeout", [MF_USEC_DELAYED] = "usec_delayed",
	[MF_REASON] = "reason", [MF_SHRINK] = "shrink",
	[MF_NR_OBJECTS] = "nr_objects_to_shrink", [MF_TOTAL_SCAN] = "total_scan",
	[MF_RETVAL] = "retval", [MF_PREV_PID] = "prev_pid", [MF_PREV_STATE] = "prev_state",
	[MF_NEXT_PID] = "next_pid", [MF_PID] = "pid", [MF_PREV_COMM] = "prev_comm",
	[MF_NEXT_COMM] = "next_comm", [MF_SLAB_BEGIN_NS] = "slab_begin_ns",
	[MF_SLAB_NR_OBJECTS] = "slab_nr_objects_to_shrink", [MF_SLAB_COMPLETE] = "slab_complete",
};

static int spec_field_index(int spec, const char *name)
{
	for (int f = 0; f < spec_nfields(spec); f++)
		if (!strcmp(vr_event_specs[spec].fields[f].name, name))
			return f;
	return -1;
}

static void resolve_fields(struct model *m)
{
	memset(m->fi, -1, sizeof(m->fi));
	for (size_t t = 0; t < VR_ARRAY_SIZE(mev_table); t++) {
		int spec = spec_find(mev_table[t].system, mev_table[t].name);
		int mev = mev_table[t].mev;

		if (spec < 0 || spec >= (int)sizeof(m->mev_of_spec))
			continue;
		m->mev_of_spec[spec] = (int8_t)mev;
		for (int f = 0; f < MF_COUNT; f++) {
			int idx = spec_field_index(spec, mf_names[f]);

			/* writepage and write_folio, sched_wakeup and
			 * sched_waking share an mev and the same field list */
			if (idx >= 0)
				m->fi[mev][f] = (int8_t)idx;
		}
	}
}

struct model *model_create(const struct model_config *cfg, const struct model_sink *sink)
{
	struct model *m = vr_calloc(1, sizeof(*m));

	m->sink = *sink;
	m->premature_ns = cfg->premature_ns ? cfg->premature_ns : 100000000ULL;
	m->nap_ns = cfg->nap_ns ? cfg->nap_ns : 100000000ULL;
	resolve_fields(m);
	model_pidmap_init(&m->stalls, sizeof(struct stall_open));
	model_pidmap_init(&m->slabs, sizeof(struct slab_open));
	model_pidmap_init(&m->isolate, sizeof(struct isolate_last));
	m->has_sched = cfg->has_field &&
		       cfg->has_field(cfg->has_field_arg, "sched", "sched_switch", NULL);
	if (cfg->release)
		sscanf(cfg->release, "%d.%d", &m->release_major, &m->release_minor);
	model_flags_choose(m, cfg);
	for (int nid = 0; cfg->kswapd_pid && nid < MODEL_MAX_NODES; nid++) {
		int pid = cfg->kswapd_pid(cfg->kswapd_pid_arg, nid);

		if (pid < 0) {
			if (nid >= 64)	/* node ids are dense in practice */
				break;
			continue;
		}
		if (model_kswapd_nid(m, pid) < 0)
			model_node(m, nid)->pid = pid;
	}
	return m;
}

const char *model_flag_rule(const struct model *m)
{
	return m->rule == FR_NONE ? NULL : m->rule_name;
}

void model_free(struct model *m)
{
	if (!m)
		return;
	model_kswapd_release(m);
	model_pidmap_release(&m->stalls);
	model_pidmap_release(&m->slabs);
	model_pidmap_release(&m->isolate);
	free(m->kn);
	free(m->fn);
	free(m);
}

/* ---- dispatch --------------------------------------------------------- */

/* Events that show kswapd working (kernel-vmscan.md 4.3, step 1). */
static bool is_activity(int mev)
{
	switch (mev) {
	case MEV_SOFT_BEGIN: case MEV_SOFT_END: case MEV_SLAB_START: case MEV_SLAB_END:
	case MEV_LRU_ISOLATE: case MEV_WRITEPAGE: case MEV_SHRINK_INACTIVE:
	case MEV_SHRINK_ACTIVE: case MEV_THROTTLED: case MEV_CONGESTION_WAIT:
	case MEV_WAIT_IFF_CONGESTED: case MEV_ACTIVITY:
		return true;
	default:
		return false;
	}
}

static int dispatch(struct model *m, struct ingest_event *ev, int mev, int ks)
{
	switch (mev) {
	case MEV_KSWAPD_WAKE:
		return model_kswapd_wake(m, ev, mev);
	case MEV_KSWAPD_SLEEP:
		return model_kswapd_sleep(m, ev, mev);
	case MEV_WAKEUP_KSWAPD:
		return model_kswapd_request(m, ev, mev);
	case MEV_DIRECT_BEGIN: return model_stall_begin(m, ev, mev, SK_DIRECT);
	case MEV_DIRECT_END: return model_stall_end(m, ev, mev, SK_DIRECT);
	case MEV_MEMCG_BEGIN: return model_stall_begin(m, ev, mev, SK_MEMCG);
	case MEV_MEMCG_END: return model_stall_end(m, ev, mev, SK_MEMCG);
	case MEV_SOFT_BEGIN:
		return model_flags_event(m, ev, mev, ks) ?:
		       model_stall_begin(m, ev, mev, SK_SOFTLIMIT);
	case MEV_SOFT_END: return model_stall_end(m, ev, mev, SK_SOFTLIMIT);
	case MEV_NODE_BEGIN: return model_stall_begin(m, ev, mev, SK_NODE);
	case MEV_NODE_END: return model_stall_end(m, ev, mev, SK_NODE);
	case MEV_SLAB_START:
		return model_flags_event(m, ev, mev, ks) ?: model_slab_start(m, ev, mev);
	case MEV_SLAB_END:
		return model_slab_end(m, ev, mev);
	case MEV_WRITEPAGE:
		return model_flags_event(m, ev, mev, ks) ?: model_write(m, ev, mev, ks);
	case MEV_THROTTLED: case MEV_CONGESTION_WAIT: case MEV_WAIT_IFF_CONGESTED:
		return model_flags_event(m, ev, mev, ks) ?: model_throttle(m, ev, mev);
	case MEV_LRU_ISOLATE: case MEV_SHRINK_INACTIVE: case MEV_SHRINK_ACTIVE:
		return model_flags_event(m, ev, mev, ks);
	case MEV_SCHED_SWITCH: case MEV_SCHED_WAKEUP:
		return model_kswapd_sched(m, ev, mev);
	default:
		return 0;
	}
}

int model_event(struct model *m, struct ingest_event *ev)
{
	int mev, ks, ret;

	if (ev->spec < 0 || ev->spec >= (int)sizeof(m->mev_of_spec))
		return 0;
	mev = m->mev_of_spec[ev->spec];
	if (mev == MEV_NONE)
		return 0;
	ks = model_kswapd_nid(m, ev->pid);
	ret = dispatch(m, ev, mev, ks);
	if (!ret && ks >= 0 && is_activity(mev))
		ret = model_kswapd_activity(m, ks, ev, mev);
	return ret;
}

int model_lost(struct model *m, int cpu, uint64_t ts_ns, int64_t count)
{
	(void)cpu;
	(void)ts_ns;
	(void)count;
	m->lost_gen++;
	m->lost_notices++;
	return 0;
}

static int quality(struct model *m, const char *item, uint64_t count, const char *detail)
{
	if (!m->sink.quality)
		return 0;
	return m->sink.quality(m->sink.arg, item, (int64_t)count, detail);
}

int model_finish(struct model *m)
{
	static const char *const kind_item[SK_COUNT] = {
		"stalls_direct", "stalls_memcg", "stalls_memcg_softlimit", "stalls_node" };
	int ret = model_stall_finish(m) ?: model_misc_finish(m) ?: model_kswapd_finish(m) ?:
		  model_flags_finish(m);

	for (int k = 0; !ret && k < SK_COUNT; k++)
		ret = quality(m, kind_item[k], m->stall_rows[k], "reclaim_stall rows of this kind");
	if (ret)
		return ret;
	return quality(m, "lost_event_notices", m->lost_notices,
		       "ring-buffer lost-event notices; episodes open at one are incomplete") ?:
	       quality(m, "stall_begin_without_end", m->stall_no_end,
		       "reclaim begin with no end at trace end") ?:
	       quality(m, "stall_end_without_begin", m->stall_no_begin,
		       "reclaim end with no begin (trace start or lost begin)") ?:
	       quality(m, "stall_lost_events", m->stall_lost,
		       "episodes with lost events inside") ?:
	       quality(m, "stall_second_begin", m->stall_second_begin,
		       "a begin before the previous end on the same pid (lost end or pid"
		       " reuse); the earlier begin is kept as unterminated") ?:
	       quality(m, "slab_start_without_end", m->slab_no_end, NULL) ?:
	       quality(m, "slab_end_without_start", m->slab_no_begin, NULL) ?:
	       quality(m, "slab_lost_events", m->slab_lost, NULL) ?:
	       quality(m, "kswapd_cycles_unknown", m->cycles_unknown,
		       "cycles whose sleep decision could not be made") ?:
	       quality(m, "kswapd_cycles_incomplete", m->cycles_incomplete,
		       "cycles without both wakes seen or with lost events inside") ?:
	       quality(m, "kswapd_sleep_without_wake", m->kswapd_sleep_no_wake,
		       "a second kswapd_sleep in one cycle (freezer or lost wake)");
}
