/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model-priv.h - what the model's state machines share (not a public
 * interface; see include/model.h): the events and fields the model reads,
 * and struct model_ctx, the read-only context the dispatcher (model.c)
 * gives every machine: where rows go, where each field is in an event, and
 * the lost-events generation.
 *
 * The model group: model.c dispatches every event to the machines and
 * carries the effects between them; model-stall.c, model-kswapd.c,
 * model-flags.c and model-misc.c are the machines, each with its own state
 * struct and header, and none calls another; model-pidmap.c is their
 * per-task hash.
 */
#ifndef VR_MODEL_PRIV_H
#define VR_MODEL_PRIV_H

#include "model.h"
#include "spec.h"

#include <stddef.h>

/* MAX_NUMNODES is at most 1 << 10 (include/linux/numa.h, NODES_SHIFT <= 10). */
#define MODEL_MAX_NODES 1024

/* The events the model uses (dispatch is one table lookup per event). */
enum mev {
	MEV_NONE = 0,
	MEV_KSWAPD_SLEEP, MEV_KSWAPD_WAKE, MEV_WAKEUP_KSWAPD,
	MEV_DIRECT_BEGIN, MEV_DIRECT_END, MEV_MEMCG_BEGIN, MEV_MEMCG_END,
	MEV_SOFT_BEGIN, MEV_SOFT_END, MEV_NODE_BEGIN, MEV_NODE_END,
	MEV_SLAB_START, MEV_SLAB_END, MEV_LRU_ISOLATE, MEV_WRITEPAGE,
	MEV_SHRINK_INACTIVE, MEV_SHRINK_ACTIVE, MEV_THROTTLED,
	MEV_CONGESTION_WAIT, MEV_WAIT_IFF_CONGESTED,
	MEV_SCHED_SWITCH, MEV_SCHED_WAKEUP,
	MEV_KSWAPD_FAIL, MEV_KSWAPD_CLEAR,	/* kswapd_failures, 7.0 */
	MEV_ACTIVITY,		/* other vmscan/compaction events: kswapd activity */
	MEV_COUNT
};

/* Fields the model reads, looked up by name once per spec. */
enum mf {
	MF_NID, MF_ZID, MF_ORDER, MF_GFP_FLAGS, MF_NR_RECLAIMED, MF_NR_SCANNED,
	MF_NR_TAKEN, MF_NR_DIRTY, MF_NR_WRITEBACK, MF_NR_CONGESTED, MF_NR_IMMEDIATE,
	MF_PRIORITY, MF_RECLAIM_FLAGS, MF_LRU, MF_NR_REQUESTED, MF_PFN,
	MF_USEC_TIMEOUT, MF_USEC_DELAYED, MF_REASON, MF_SHRINK, MF_NR_OBJECTS,
	MF_TOTAL_SCAN, MF_RETVAL, MF_PREV_PID, MF_PREV_STATE, MF_NEXT_PID, MF_PID,
	MF_PREV_COMM, MF_NEXT_COMM, MF_FILE, MF_FAILURES, MF_MEMCG_ID,
	/* VR_FF_MODEL fields the model writes (spec.h) */
	MF_SLAB_BEGIN_NS, MF_SLAB_NR_OBJECTS, MF_SLAB_COMPLETE, MF_MGLRU_RETRY,
	MF_COUNT
};

/* reclaim_flags bits (include/trace/events/vmscan.h, trace_reclaim_flags()). */
#define RECLAIM_WB_ANON 0x01
#define RECLAIM_WB_FILE 0x02
#define RECLAIM_WB_SYNC 0x04

/* Shared by all machines; written only by the dispatcher. */
struct model_ctx {
	struct model_sink sink;
	int8_t fi[MEV_COUNT][MF_COUNT];	/* field index in the spec, -1 absent */
	unsigned int lost_gen;		/* bumped on every lost-events notice
					 * and every gap */
};

/* Field access: value of field @mf of event @ev (model event @mev). */
static inline bool model_get(const struct model_ctx *cx, const struct ingest_event *ev, int mev,
			     int mf, int64_t *out)
{
	int f = cx->fi[mev][mf];

	if (f < 0 || !(ev->present & (1u << f)))
		return false;
	*out = ev->val[f];
	return true;
}

static inline int64_t model_val(const struct model_ctx *cx, const struct ingest_event *ev,
				int mev, int mf)
{
	int64_t v;

	return model_get(cx, ev, mev, mf, &v) ? v : MODEL_NULL;
}

/* Set VR_FF_MODEL field @mf of @ev to @v (MODEL_NULL: no value, stored
 * as NULL); nothing when the spec has no such field. */
static inline void model_set(const struct model_ctx *cx, struct ingest_event *ev, int mev,
			     int mf, int64_t v)
{
	int f = cx->fi[mev][mf];

	if (f < 0)
		return;
	if (v == MODEL_NULL) {
		ev->present &= ~(1u << f);
		return;
	}
	ev->val[f] = v;
	ev->present |= 1u << f;
}

/*
 * The symbol of kernel-address field @mf, or NULL: also when the address
 * itself is absent (a text trace prints the symbol, not the address).
 * Both readers clear str[] for every event.
 */
static inline const char *model_sym(const struct model_ctx *cx, const struct ingest_event *ev,
				    int mev, int mf)
{
	int f = cx->fi[mev][mf];

	return f < 0 ? NULL : ev->str[f];
}

/* The string of field @mf (KSYM symbol or text), or NULL. */
static inline const char *model_str(const struct model_ctx *cx, const struct ingest_event *ev,
				    int mev, int mf)
{
	int f = cx->fi[mev][mf];

	if (f < 0 || !(ev->present & (1u << f)))
		return NULL;
	return ev->str[f];
}

/* One run_quality item to the sink; 0 or the sink's value. */
static inline int model_quality(const struct model_ctx *cx, const char *item, uint64_t count,
				const char *detail)
{
	if (!cx->sink.quality)
		return 0;
	return cx->sink.quality(cx->sink.arg, item, (int64_t)count, detail);
}

#endif /* VR_MODEL_PRIV_H */
