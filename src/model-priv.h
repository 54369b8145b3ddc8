/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model-priv.h - internals shared by the model-*.c files (not a public
 * interface; see include/model.h).
 */
#ifndef VR_MODEL_PRIV_H
#define VR_MODEL_PRIV_H

#include "model.h"
#include "spec.h"

#include <stddef.h>

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
	MF_PREV_COMM, MF_NEXT_COMM,
	/* VR_FF_MODEL fields the model writes (spec.h) */
	MF_SLAB_BEGIN_NS, MF_SLAB_NR_OBJECTS, MF_SLAB_COMPLETE,
	MF_COUNT
};

/* Stall kinds; also the low bits of the per-pid key. */
enum stall_kind { SK_DIRECT, SK_MEMCG, SK_SOFTLIMIT, SK_NODE, SK_COUNT };

/* reclaim_flags bits (include/trace/events/vmscan.h). */
#define RECLAIM_WB_ANON 0x01
#define RECLAIM_WB_FILE 0x02
#define RECLAIM_WB_SYNC 0x04

/*
 * struct model_pidmap - open-addressing hash (linear probing, backward
 * shift deletion) from an int64 key to a fixed-size value.  Allocates only
 * when it grows.
 */
struct model_pidmap {
	size_t vsize;		/* bytes per value */
	size_t cap, n;		/* slots (power of two), used */
	int64_t *keys;		/* MODEL_NULL marks an empty slot */
	unsigned char *vals;
};

void model_pidmap_init(struct model_pidmap *pm, size_t vsize);
void model_pidmap_release(struct model_pidmap *pm);
/* The value of @key, or NULL. */
void *model_pidmap_find(const struct model_pidmap *pm, int64_t key);
/* The value of @key, inserted zero-filled if missing (*@fresh = true). */
void *model_pidmap_get(struct model_pidmap *pm, int64_t key, bool *fresh);
void model_pidmap_remove(struct model_pidmap *pm, int64_t key);

enum ks_state { KS_UNKNOWN, KS_AWAKE, KS_ASLEEP };

/* Values of the per-pid maps. */
struct stall_open {
	struct model_stall row;		/* begin side filled in */
	unsigned int lost_gen;		/* model lost_gen at begin */
};
struct slab_open {
	int64_t begin_ns, nid, nr_objects, total_scan;
	unsigned int lost_gen;
	char shrinker[64];		/* the start's symbol ("": none), cut at 63 */
};
struct isolate_last {			/* last inactive-list lru_isolate */
	int64_t nr_taken;
	int64_t nid;			/* node of the pid's last shrink_inactive */
};

/* Per-node kswapd state (model-kswapd.c). */
struct kswapd_node {
	bool seen;			/* a kswapd event of the node was seen */
	int64_t pid;			/* kswapd pid, MODEL_NULL if unknown */
	bool open;			/* cycle `cur` is being built */
	struct model_kswapd_cycle cur;
	int64_t last_act;		/* E_i, or the wake if no activity */
	int64_t req_after_act;		/* first wakeup request after E_i */
	int64_t req_after_sleep;	/* first wakeup request after sleep */
	unsigned int lost_gen_wake, lost_gen_act;
	enum ks_state state;
	bool sched_seen;		/* sched events of the pid were seen */
	bool running;			/* switched in and not out (sched) */
	int64_t switch_out_s;		/* first switch-out in S after E_i */
	int64_t woken;			/* first sched wakeup after E_i */
	int64_t switched_in;		/* first switch-in after switch_out_s */
	struct model_wakeup *pend;	/* requests waiting for the next wake */
	size_t npend, apend;
	/* counts for run_quality */
	uint64_t sleep_twice;
};

/* Per-node flag inference state (model-flags.c). */
enum { FL_WRITEBACK, FL_CONGESTED, FL_DIRTY, FL_COUNT };
struct flag_node {
	bool set[FL_COUNT];
	int64_t set_ns[FL_COUNT], last_ev_ns[FL_COUNT];
	char evidence[FL_COUNT][128];
	/* kswapd's current shrink_node pass (4.17+) */
	int ncalls;
	int64_t taken, file_taken, dirty, congested, writeback, immediate, unqueued;
	int64_t last_call_ns, priority;
};

/* Rule sets of the flag inference (kernel-vmscan.md sections 2-3). */
enum flag_rule { FR_NONE, FR_PER_CALL, FR_PER_PASS, FR_LRUVEC, FR_NODE_CGROUP };

struct model {
	struct model_sink sink;
	uint64_t premature_ns, nap_ns;
	int8_t mev_of_spec[128];		/* enum mev per spec index */
	int8_t fi[MEV_COUNT][MF_COUNT];	/* field index in the spec, -1 absent */
	unsigned int lost_gen;		/* bumped on every lost-events notice */
	uint64_t lost_notices;
	bool has_sched;			/* sched_switch in the formats */
	/* stalls (model-stall.c): key pid * SK_COUNT + kind */
	struct model_pidmap stalls;
	uint64_t stall_rows[SK_COUNT], stall_no_end, stall_no_begin, stall_lost,
		 stall_second_begin;
	/* slab shrinking and isolate pairing (model-misc.c, model-flags.c) */
	struct model_pidmap slabs;
	uint64_t slab_no_end, slab_no_begin, slab_lost;
	struct model_pidmap isolate;	/* pid -> last inactive lru_isolate */
	/* nodes */
	struct kswapd_node *kn;
	struct flag_node *fn;
	int nnodes;
	uint64_t cycles_unknown, cycles_incomplete, kswapd_sleep_no_wake;
	/* flags */
	enum flag_rule rule;
	int dirty_needs_unqueued;	/* 6.13+: PGDAT_DIRTY needs unqueued > 0 */
	const char *rule_name;
	char rule_detail[256];
	const char *no_rule_reason;
	bool mglru;			/* lru_isolate nr_requested == 4096 seen */
	uint64_t n_shrink_inactive, n_isolate, n_kswapd_wake;
	uint64_t flag_rows, flag_evidence_after_clear, flag_call_no_isolate;
	int release_major, release_minor;
};

/* Field access: value of field @mf of event @ev (model event @mev). */
static inline bool model_get(const struct model *m, const struct ingest_event *ev, int mev,
			     int mf, int64_t *out)
{
	int f = m->fi[mev][mf];

	if (f < 0 || !(ev->present & (1u << f)))
		return false;
	*out = ev->val[f];
	return true;
}

static inline int64_t model_val(const struct model *m, const struct ingest_event *ev, int mev,
				int mf)
{
	int64_t v;

	return model_get(m, ev, mev, mf, &v) ? v : MODEL_NULL;
}

/* Set VR_FF_MODEL field @mf of @ev to @v (MODEL_NULL: no value, stored
 * as NULL); nothing when the spec has no such field. */
static inline void model_set(const struct model *m, struct ingest_event *ev, int mev, int mf,
			     int64_t v)
{
	int f = m->fi[mev][mf];

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
static inline const char *model_sym(const struct model *m, const struct ingest_event *ev,
				    int mev, int mf)
{
	int f = m->fi[mev][mf];

	return f < 0 ? NULL : ev->str[f];
}

/* The string of field @mf (KSYM symbol or text), or NULL. */
static inline const char *model_str(const struct model *m, const struct ingest_event *ev,
				    int mev, int mf)
{
	int f = m->fi[mev][mf];

	if (f < 0 || !(ev->present & (1u << f)))
		return NULL;
	return ev->str[f];
}

/* Node state, growing the node arrays; NULL for an absurd nid. */
struct kswapd_node *model_node(struct model *m, int64_t nid);
/* The node whose kswapd has pid @pid, or -1. */
int model_kswapd_nid(const struct model *m, int pid);

/* model-stall.c */
int model_stall_begin(struct model *m, const struct ingest_event *ev, int mev, int kind);
int model_stall_end(struct model *m, const struct ingest_event *ev, int mev, int kind);
int model_stall_finish(struct model *m);
bool model_stall_open(const struct model *m, int pid, int kind);

/* model-kswapd.c */
int model_kswapd_wake(struct model *m, const struct ingest_event *ev, int mev);
int model_kswapd_sleep(struct model *m, const struct ingest_event *ev, int mev);
int model_kswapd_request(struct model *m, const struct ingest_event *ev, int mev);
int model_kswapd_activity(struct model *m, int nid, const struct ingest_event *ev, int mev);
int model_kswapd_sched(struct model *m, const struct ingest_event *ev, int mev);
/* kswapd state of node @nid at @now_ns: asleep, napping, awake, unknown. */
const char *model_kswapd_state(struct model *m, int64_t nid, int64_t now_ns);
int model_kswapd_finish(struct model *m);
void model_kswapd_release(struct model *m);

/* model-misc.c: throttling, slab shrinking, writes */
int model_throttle(struct model *m, const struct ingest_event *ev, int mev);
int model_slab_start(struct model *m, const struct ingest_event *ev, int mev);
int model_slab_end(struct model *m, struct ingest_event *ev, int mev);
int model_write(struct model *m, const struct ingest_event *ev, int mev, int ks_nid);
int model_misc_finish(struct model *m);

/* model-flags.c */
void model_flags_choose(struct model *m, const struct model_config *cfg);
int model_flags_event(struct model *m, const struct ingest_event *ev, int mev, int ks_nid);
/* kswapd's sleep check passed on @nid at @ts_ns: clear the flags (4.12+). */
int model_flags_clear(struct model *m, int nid, int64_t ts_ns);
/* a kswapd_wake or kswapd_sleep: a pass boundary on @nid. */
int model_flags_boundary(struct model *m, int nid);
int model_flags_finish(struct model *m);

#endif /* VR_MODEL_PRIV_H */
