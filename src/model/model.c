// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the model's dispatcher: maps each known event (by its spec
 * index) to the state machines that use it, resolves the fields they read
 * once per run, and carries what one machine's event means for another:
 * a stall begin gets kswapd's state on its node, a kswapd lru_shrink_inactive
 * whether its task is in soft-limit reclaim, and kswapd's pass ends and
 * balanced sleep checks go to the flag machine (struct kswapd_effect).
 * The machines (model-stall.c, model-kswapd.c, model-flags.c,
 * model-misc.c) never call each other; their rules are cited there.
 */
#include "model-flags.h"
#include "model-hopeless.h"
#include "model-kswapd.h"
#include "model-misc.h"
#include "model-priv.h"
#include "model-stall.h"
#include "vr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A task's last lru_isolate or lru_shrink_inactive (struct model.lru_last):
 * multi-gen LRU's evict_folios() (mm/vmscan.c, tracepoints from 6.7,
 * "mm: multi-gen LRU: reuse some legacy trace events"; unchanged in 6.18)
 * isolates once (scan_folios() traces mm_vmscan_lru_isolate), then
 * `retry: reclaimed = shrink_folio_list(...); trace_mm_vmscan_lru_shrink_
 * inactive(pgdat->node_id, scanned, reclaimed, ...)` and goes back to retry
 * for the clean folios that missed folio_rotate_reclaimable(): a second
 * lru_shrink_inactive with the same `scanned` and no lru_isolate between,
 * for folios the first already counted (its nr_reclaimed is the retry's
 * own).  The classic LRU's shrink_inactive_list() isolates before every
 * lru_shrink_inactive.
 */
struct lru_last {
	bool shrink;			/* the last one was lru_shrink_inactive */
	bool after_isolate;		/* ... right after an lru_isolate */
	int64_t nid, nr_scanned;
	unsigned int lost_gen;
};

struct model {
	struct model_ctx cx;		/* shared with the machines (read-only there) */
	int8_t mev_of_spec[128];	/* enum mev per spec index */
	uint64_t lost_notices;
	bool has_isolate;		/* mm_vmscan_lru_isolate in the formats */
	struct model_pidmap lru_last;	/* pid -> struct lru_last */
	uint64_t mglru_retries;		/* shrink_inactive marked mglru_retry */
	uint64_t gaps;
	struct stall_machine stall;
	struct kswapd_machine kswapd;
	struct flag_machine flags;
	struct misc_machine misc;
	struct hopeless_machine hopeless;
};

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
	{ "vmscan", "mm_vmscan_kswapd_reclaim_fail", MEV_KSWAPD_FAIL },
	{ "vmscan", "mm_vmscan_kswapd_clear_hopeless", MEV_KSWAPD_CLEAR },
	{ "vmscan", "mm_vmscan_reset_kswapd_failures", MEV_KSWAPD_CLEAR },
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
	[MF_NEXT_COMM] = "next_comm", [MF_FILE] = "file", [MF_SLAB_BEGIN_NS] = "slab_begin_ns",
	[MF_SLAB_NR_OBJECTS] = "slab_nr_objects_to_shrink", [MF_SLAB_COMPLETE] = "slab_complete",
	[MF_MGLRU_RETRY] = "mglru_retry", [MF_FAILURES] = "failures",
	[MF_MEMCG_ID] = "memcg_id",
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
	memset(m->cx.fi, -1, sizeof(m->cx.fi));
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
				m->cx.fi[mev][f] = (int8_t)idx;
		}
	}
}

struct model *model_create(const struct model_config *cfg, const struct model_sink *sink)
{
	struct model *m = vr_calloc(1, sizeof(*m));
	int major = 0, minor = 0;

	m->cx.sink = *sink;
	resolve_fields(m);
	m->has_isolate = cfg->has_field &&
			 cfg->has_field(cfg->has_field_arg, "vmscan", "mm_vmscan_lru_isolate", NULL);
	model_pidmap_init(&m->lru_last, sizeof(struct lru_last));
	if (cfg->release)
		sscanf(cfg->release, "%d.%d", &major, &minor);
	model_stall_init(&m->stall, &m->cx);
	model_misc_init(&m->misc, &m->cx);
	model_flags_init(&m->flags, &m->cx, cfg, major * 100 + minor);
	model_kswapd_init(&m->kswapd, &m->cx, cfg);
	model_hopeless_init(&m->hopeless, &m->cx);
	return m;
}

const char *model_flag_rule(const struct model *m)
{
	return model_flags_rule(&m->flags);
}

const char *model_flag_contradictions(const struct model *m)
{
	return model_flags_contradictions(&m->flags);
}

void model_free(struct model *m)
{
	if (!m)
		return;
	model_kswapd_release(&m->kswapd);
	model_hopeless_release(&m->hopeless);
	model_stall_release(&m->stall);
	model_misc_release(&m->misc);
	model_flags_release(&m->flags);
	model_pidmap_release(&m->lru_last);
	free(m);
}

/* ---- dispatch --------------------------------------------------------- */


/*
 * Mark @ev (an lru_shrink_inactive) mglru_retry = 1 when the task's
 * previous lru_isolate/lru_shrink_inactive was an lru_shrink_inactive of
 * the same node and nr_scanned that itself came right after an
 * lru_isolate (evict_folios() retries once: skip_retry), with no events
 * lost between, in a recording that has lru_isolate events (else nothing
 * can tell; a task whose isolates are not traced is never marked).  Its
 * nr_scanned is then counted nowhere: kswapd_cycle, the page sums.
 */
static void lru_note(struct model *m, struct ingest_event *ev, int mev)
{
	bool fresh;
	struct lru_last *l;

	if (!m->has_isolate)
		return;
	l = model_pidmap_get(&m->lru_last, ev->pid, &fresh);
	if (mev == MEV_LRU_ISOLATE) {
		*l = (struct lru_last){ false, false, MODEL_NULL, MODEL_NULL, m->cx.lost_gen };
		return;
	}
	{
		int64_t nid = model_val(&m->cx, ev, mev, MF_NID);
		int64_t scanned = model_val(&m->cx, ev, mev, MF_NR_SCANNED);
		bool after_isolate = !fresh && !l->shrink && l->lost_gen == m->cx.lost_gen;
		bool retry = !fresh && l->shrink && l->after_isolate &&
			     l->lost_gen == m->cx.lost_gen && nid == l->nid &&
			     scanned == l->nr_scanned && scanned != MODEL_NULL;

		if (retry) {
			model_set(&m->cx, ev, mev, MF_MGLRU_RETRY, 1);
			m->mglru_retries++;
		}
		*l = (struct lru_last){ true, after_isolate, nid, scanned, m->cx.lost_gen };
	}
}

/*
 * Events that show kswapd working: everything kswapd emits between its
 * wake and its sleep checks in balance_pgdat() (mm/vmscan.c): lru_*,
 * shrink_slab_*, writepage/write_folio, inactive_list_is_low, soft-limit
 * reclaim, throttling and congestion waits, kcompactd wakeups.
 */
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

/*
 * Pass what a kswapd event at @now_ns (INT64_MAX: trace end) meant (@ret
 * 0: it went through) to the flags: a wake or sleep ends kswapd's pass and
 * may follow a sleep check; a balanced check came no later than @now_ns.
 */
static int kswapd_effect(struct model *m, int ret, const struct kswapd_effect *eff,
			 int64_t now_ns)
{
	int64_t by = eff->balanced_by_ns != MODEL_NULL && eff->balanced_by_ns < now_ns ?
		     eff->balanced_by_ns : now_ns;	/* the pass ended before the check */

	if (ret || eff->nid < 0)
		return ret;
	if (eff->pass_end)
		model_flags_pass_end(&m->flags, eff->nid, by);
	if (eff->balanced_ns != MODEL_NULL)
		ret = model_flags_clear(&m->flags, eff->nid, eff->balanced_ns,
					eff->balanced_after_ns, by);
	if (eff->pass_end)
		model_flags_sleep_check(&m->flags, eff->nid, now_ns);
	return ret;
}

/*
 * A stall begin: kswapd's state on every node then goes with it (the row
 * takes its first node's, model-stall.c).  Napping or awake may still turn
 * out to be throttled: kswapd's WRITEBACK throttle is traced at its end.
 */
static int stall_begin(struct model *m, const struct ingest_event *ev, int mev,
		       enum stall_kind kind)
{
	struct stall_ks ks = { .n = m->kswapd.nnodes < STALL_KS_NODES ? m->kswapd.nnodes :
				    STALL_KS_NODES };

	for (int nid = 0; nid < ks.n; nid++) {
		ks.state[nid] = model_kswapd_state(&m->kswapd, nid, (int64_t)ev->ts_ns);
		if (!strcmp(ks.state[nid], "napping") || !strcmp(ks.state[nid], "awake"))
			ks.unsettled |= 1u << nid;
	}
	return model_stall_begin(&m->stall, ev, mev, kind, &ks);
}

/*
 * An event of kswapd @ks's own task settles its state for the stalls begun
 * before it (model_stall_kswapd()): an mm_vmscan_throttled with reason
 * WRITEBACK (bit 0, 1 << VMSCAN_THROTTLE_WRITEBACK) ends a wait that began
 * usec_delayed earlier (reclaim_throttle(), mm/vmscan.c 5.16-6.18).
 */
static int kswapd_settles(struct model *m, const struct ingest_event *ev, int mev, int ks)
{
	int64_t begin = MODEL_NULL, reason, delayed;

	if (mev == MEV_THROTTLED &&
	    (reason = model_val(&m->cx, ev, mev, MF_REASON)) != MODEL_NULL && (reason & 1) &&
	    (delayed = model_val(&m->cx, ev, mev, MF_USEC_DELAYED)) != MODEL_NULL)
		begin = (int64_t)ev->ts_ns - delayed * 1000;
	return model_stall_kswapd(&m->stall, ks, (int64_t)ev->ts_ns, begin);
}

/*
 * The flag machine's view of @ev; @ks: the node whose kswapd sent it, or
 * -1.  What the task is doing (FCTX_*, model-flags.h) comes from the open
 * stalls: a kswapd call inside soft-limit reclaim, and for a throttled
 * event whether its task is in direct/node reclaim or in memcg reclaim.
 */
static int flags_event(struct model *m, const struct ingest_event *ev, int mev, int ks)
{
	unsigned int ctx = 0;

	if (mev == MEV_SHRINK_INACTIVE && ks >= 0 &&
	    model_stall_open(&m->stall, ev->pid, SK_SOFTLIMIT))
		ctx |= FCTX_SOFTLIMIT;
	if (mev == MEV_THROTTLED && ks < 0) {
		if (model_stall_open(&m->stall, ev->pid, SK_DIRECT) ||
		    model_stall_open(&m->stall, ev->pid, SK_NODE))
			ctx |= FCTX_GLOBAL;
		if (model_stall_open(&m->stall, ev->pid, SK_MEMCG))
			ctx |= FCTX_MEMCG;
	}
	return model_flags_event(&m->flags, ev, mev, ks, ctx);
}

static int dispatch(struct model *m, struct ingest_event *ev, int mev, int ks)
{
	struct kswapd_effect eff;

	switch (mev) {
	case MEV_KSWAPD_WAKE:
		return kswapd_effect(m, model_kswapd_wake(&m->kswapd, ev, mev, &eff), &eff,
				     (int64_t)ev->ts_ns);
	case MEV_KSWAPD_SLEEP:
		return kswapd_effect(m, model_kswapd_sleep(&m->kswapd, ev, mev, &eff), &eff,
				     (int64_t)ev->ts_ns);
	case MEV_WAKEUP_KSWAPD:
		return model_kswapd_request(&m->kswapd, ev, mev);
	case MEV_DIRECT_BEGIN: return stall_begin(m, ev, mev, SK_DIRECT);
	case MEV_DIRECT_END: return model_stall_end(&m->stall, ev, mev, SK_DIRECT);
	case MEV_MEMCG_BEGIN: return stall_begin(m, ev, mev, SK_MEMCG);
	case MEV_MEMCG_END: return model_stall_end(&m->stall, ev, mev, SK_MEMCG);
	case MEV_SOFT_BEGIN:
		return flags_event(m, ev, mev, ks) ?: stall_begin(m, ev, mev, SK_SOFTLIMIT);
	case MEV_SOFT_END: return model_stall_end(&m->stall, ev, mev, SK_SOFTLIMIT);
	case MEV_NODE_BEGIN: return stall_begin(m, ev, mev, SK_NODE);
	case MEV_NODE_END: return model_stall_end(&m->stall, ev, mev, SK_NODE);
	case MEV_SLAB_START:
		return flags_event(m, ev, mev, ks) ?: model_slab_start(&m->misc, ev, mev);
	case MEV_SLAB_END:
		return model_slab_end(&m->misc, ev, mev);
	case MEV_WRITEPAGE:
		return flags_event(m, ev, mev, ks) ?: model_write(&m->misc, ev, mev, ks >= 0);
	case MEV_THROTTLED: case MEV_CONGESTION_WAIT: case MEV_WAIT_IFF_CONGESTED:
		return flags_event(m, ev, mev, ks) ?: model_throttle(&m->misc, ev, mev);
	case MEV_SHRINK_INACTIVE: case MEV_SHRINK_ACTIVE:
		model_stall_node(&m->stall, ev->pid, model_val(&m->cx, ev, mev, MF_NID));
		if (mev == MEV_SHRINK_INACTIVE) {
			lru_note(m, ev, mev);
			/* a retry pass's nr_scanned is counted nowhere (lru_note()) */
			model_stall_call(&m->stall, ev->pid, (int64_t)ev->ts_ns,
					 model_val(&m->cx, ev, mev, MF_MGLRU_RETRY) == 1 ? 0 :
					 model_val(&m->cx, ev, mev, MF_NR_SCANNED),
					 model_val(&m->cx, ev, mev, MF_NR_RECLAIMED));
		}
		return flags_event(m, ev, mev, ks);
	case MEV_LRU_ISOLATE:
		lru_note(m, ev, mev);
		return flags_event(m, ev, mev, ks);
	case MEV_SCHED_SWITCH: case MEV_SCHED_WAKEUP:
		return model_kswapd_sched(&m->kswapd, ev, mev);
	case MEV_KSWAPD_FAIL:
		return model_hopeless_fail(&m->hopeless, ev, mev);
	case MEV_KSWAPD_CLEAR:
		return model_hopeless_clear(&m->hopeless, ev, mev);
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
	model_stall_time(&m->stall, (int64_t)ev->ts_ns);
	ks = model_kswapd_nid(&m->kswapd, ev->pid);
	if (ks < 0 && ev->comm)
		ks = model_kswapd_learn(&m->kswapd, ev->pid, ev->comm);
	if (ks >= 0 && mev != MEV_SCHED_SWITCH && mev != MEV_SCHED_WAKEUP &&
	    (ret = kswapd_settles(m, ev, mev, ks)))
		return ret;
	ret = dispatch(m, ev, mev, ks);
	if (!ret && ks >= 0 && is_activity(mev))
		ret = model_kswapd_activity(&m->kswapd, ks, ev, mev);
	return ret;
}

int model_stall_pages(const struct model *m, struct model_stall_pages *out, int max)
{
	return model_stall_pages_of(&m->stall, out, max);
}

int model_lost(struct model *m, int cpu, uint64_t ts_ns, int64_t count)
{
	(void)cpu;
	(void)ts_ns;
	(void)count;
	m->cx.lost_gen++;
	m->lost_notices++;
	model_hopeless_unknown(&m->hopeless, false);
	return 0;
}

int model_gap(struct model *m, uint64_t ts_ns)
{
	struct kswapd_effect eff;
	int ret = model_stall_gap(&m->stall);

	m->cx.lost_gen++;
	m->gaps++;
	model_hopeless_unknown(&m->hopeless, true);
	for (int nid = 0; !ret && nid < m->kswapd.nnodes; nid++)
		ret = kswapd_effect(m, model_kswapd_gap_node(&m->kswapd, nid, &eff), &eff,
				    (int64_t)ts_ns);
	return ret;
}

/* Trace end on every node: close kswapd's cycles, with their effects. */
static int kswapd_finish(struct model *m)
{
	struct kswapd_effect eff;
	int ret = 0;

	for (int nid = 0; !ret && nid < m->kswapd.nnodes; nid++)
		ret = kswapd_effect(m, model_kswapd_finish_node(&m->kswapd, nid, &eff), &eff,
				    INT64_MAX);
	return ret;
}

int model_finish(struct model *m)
{
	static const char *const kind_item[SK_COUNT] = {
		"stalls_direct", "stalls_memcg", "stalls_memcg_softlimit", "stalls_node" };
	const struct model_ctx *cx = &m->cx;
	const struct stall_machine *st = &m->stall;
	const struct kswapd_machine *k = &m->kswapd;
	int ret = model_stall_finish(&m->stall) ?: model_misc_finish(&m->misc) ?:
		  kswapd_finish(m) ?: model_flags_finish(&m->flags, k->n_wake) ?:
		  model_hopeless_finish(&m->hopeless);

	for (int kind = 0; !ret && kind < SK_COUNT; kind++)
		ret = model_quality(cx, kind_item[kind], st->rows[kind],
				    "reclaim_stall rows of this kind");
	if (ret)
		return ret;
	return model_quality(cx, "lost_event_notices", m->lost_notices,
			     "ring-buffer lost-event notices; episodes open at one are incomplete") ?:
	       model_quality(cx, "stall_begin_without_end", st->no_end,
			     "reclaim begin with no end at trace end") ?:
	       model_quality(cx, "stall_end_without_begin", st->no_begin,
			     "reclaim end with no begin (trace start or lost begin)") ?:
	       model_quality(cx, "stall_lost_events", st->lost,
			     "episodes with lost events inside") ?:
	       model_quality(cx, "stall_excerpt_gaps", st->gapped,
			     "episodes open at a gap of the excerpt (events cut out): they end there") ?:
	       model_quality(cx, "stall_second_begin", st->second_begin,
			     "a begin before the previous end on the same pid (lost end or pid"
			     " reuse); the earlier begin is kept as unterminated") ?:
	       model_quality(cx, "slab_start_without_end", m->misc.slab_no_end, NULL) ?:
	       model_quality(cx, "slab_end_without_start", m->misc.slab_no_begin, NULL) ?:
	       model_quality(cx, "slab_lost_events", m->misc.slab_lost, NULL) ?:
	       model_quality(cx, "kswapd_cycles_unknown", k->cycles_unknown,
			     "cycles whose sleep decision could not be made") ?:
	       model_quality(cx, "kswapd_cycles_incomplete", k->cycles_incomplete,
			     "cycles without both wakes seen or with lost events or a gap"
			     " inside") ?:
	       model_quality(cx, "kswapd_sleep_without_wake", k->sleep_no_wake,
			     "a second kswapd_sleep in one cycle (freezer or lost wake)") ?:
	       model_quality(cx, "mglru_retry_passes", m->mglru_retries,
			     "lru_shrink_inactive of a multi-gen LRU retry pass (evict_folios()):"
			     " its nr_scanned repeats folios already counted and is not counted"
			     " again; its nr_reclaimed is");
}
