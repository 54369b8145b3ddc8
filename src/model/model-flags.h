/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model-flags.h - the pgdat flag machine (model-flags.c): per node, the
 * intervals during which PGDAT_WRITEBACK, PGDAT_DIRTY and the congested
 * flag were (inferred to be) set; rows of the pgdat_flag table.  Called by
 * the dispatcher (model.c) only, which also passes on kswapd's pass ends
 * and balanced sleep checks (struct kswapd_effect, model-kswapd.h).
 */
#ifndef VR_MODEL_FLAGS_H
#define VR_MODEL_FLAGS_H

#include "model-pidmap.h"
#include "model-priv.h"

/* Rule sets of the flag inference (model-flags.c, top). */
enum flag_rule { FR_NONE, FR_PER_CALL, FR_PER_PASS, FR_LRUVEC, FR_NODE_CGROUP };
/* Clearing rules (model-flags.c, top; the order of model_flag_clear_names). */
enum flag_clear { FC_KSWAPD_SLEEP, FC_BALANCED_CHECK };

struct flag_node;
struct flag_closed;

/*
 * What the task of an event is doing, for the flag machine (the stall
 * machine knows; the dispatcher asks it): bits of the context argument of
 * model_flags_event().
 */
enum {
	FCTX_SOFTLIMIT = 1,	/* inside memcg soft-limit reclaim */
	FCTX_GLOBAL = 2,	/* inside direct or node reclaim: target the root lruvec */
	FCTX_MEMCG = 4,		/* inside memcg reclaim: target that memcg's lruvec */
};

struct flag_machine {
	const struct model_ctx *cx;	/* borrowed from the dispatcher */
	enum flag_rule rule;
	int dirty_needs_unqueued;	/* 6.13+: PGDAT_DIRTY needs unqueued > 0 */
	const char *rule_name;
	char rule_detail[256];
	const char *no_rule_reason;
	enum flag_clear clear;
	char clear_detail[256];
	int release;			/* major * 100 + minor, 0 unknown */
	bool mglru;			/* lru_isolate nr_requested == 4096 seen */
	struct model_pidmap isolate;	/* pid -> last inactive lru_isolate */
	struct flag_node *fn;		/* per node, grown on demand */
	int nnodes;
	/* which proofs hold for the recording's kernel (model-flags.c, top) */
	bool proof_set, proof_clear, proof_congested;
	/* intervals that ended, not yet emitted (FIFO, oldest at qhead) */
	struct flag_closed *q;
	size_t qhead, qlen, qcap;
	/* proofs seen; intervals changed to agree with them */
	uint64_t n_proof_set, n_proof_clear, n_proof_congested, n_proof_cgroup;
	uint64_t n_throttle_no_context, n_extended, n_cut;
	/* proofs the clearing rule cannot explain; the first one said */
	uint64_t n_contradict;
	char contradict_first[200];
	char contradict_said[320];	/* run_quality's detail, at finish */
	/* PGDAT_DIRTY tests made (estimated nr_unqueued_dirty) and witnesses */
	uint64_t n_dirty_tests, n_dirty_witness;
	/* counts for run_quality */
	uint64_t n_shrink_inactive, n_isolate;
	uint64_t rows, evidence_after_clear, call_no_isolate;
	/* rows summary cannot split file/anon: an lru_isolate without lru
	 * and file, an lru_shrink_inactive without reclaim_flags */
	uint64_t unclassified_isolate, unclassified_shrink;
};

/*
 * model_flags_init - choose the rule set from @cfg's formats first and
 * @release (major * 100 + minor, 0: unknown) second.
 */
void model_flags_init(struct flag_machine *f, const struct model_ctx *cx,
		      const struct model_config *cfg, int release);
void model_flags_release(struct flag_machine *f);

/*
 * model_flags_event - an event the flags read: lru_isolate,
 * lru_shrink_inactive/active, slab start, writepage, soft-limit begin,
 * throttled and the congestion waits.  @ks: the node whose kswapd is the
 * event's task, or -1; @ctx: FCTX_* bits of what the task is doing (asked
 * for lru_shrink_inactive and mm_vmscan_throttled only).  Intervals that
 * ended more than a second before @ev go to the sink.  Returns 0 or the
 * sink's value.
 */
int model_flags_event(struct flag_machine *f, const struct ingest_event *ev, int mev, int ks,
		      unsigned int ctx);
/* model_flags_pass_end - kswapd_wake or kswapd_sleep on @nid at @now_ns
 * (INT64_MAX: trace end): kswapd's shrink_node() pass window ends; test
 * its sums.  Returns 0. */
int model_flags_pass_end(struct flag_machine *f, int nid, int64_t now_ns);
/* model_flags_clear - kswapd's sleep check found @nid balanced at @ts_ns,
 * after @earliest_ns (kswapd's last activity; MODEL_NULL: unknown) and no
 * later than @latest_ns (the nap's switch-out, or the event that told): the
 * flags set are cleared (4.12+); 0 or the sink's value. */
int model_flags_clear(struct flag_machine *f, int nid, int64_t ts_ns, int64_t earliest_ns,
		      int64_t latest_ns);
/* model_flags_sleep_check - kswapd of @nid woke or slept at @now_ns
 * (INT64_MAX: trace end): a sleep check (prepare_kswapd_sleep()) may have
 * run before it; call after model_flags_clear() of the same event. */
void model_flags_sleep_check(struct flag_machine *f, int nid, int64_t now_ns);
/* model_flags_finish - emit the flags still set (clear NULL) and the
 * run_quality items; @kswapd_wakes: kswapd_wake events seen. */
int model_flags_finish(struct flag_machine *f, uint64_t kswapd_wakes);
/* model_flags_contradictions - after finish: "the trace contradicts rule
 * X at N points (...)" (borrowed), or NULL when N is 0. */
const char *model_flags_contradictions(const struct flag_machine *f);
/* model_flags_rule - the rule set's name (static), or NULL if none. */
const char *model_flags_rule(const struct flag_machine *f);

#endif /* VR_MODEL_FLAGS_H */
