/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model-stall.h - the reclaim-stall machine (model-stall.c): one open
 * episode per task and kind, closed by the end event; rows of the
 * reclaim_stall table, with the nodes each episode reclaimed from and
 * kswapd's state on its first node at its begin.  Called by the
 * dispatcher (model.c) only.
 */
#ifndef VR_MODEL_STALL_H
#define VR_MODEL_STALL_H

#include "model-pidmap.h"
#include "model-priv.h"

/* Stall kinds; also the low bits of the per-pid key. */
enum stall_kind { SK_DIRECT, SK_MEMCG, SK_SOFTLIMIT, SK_NODE, SK_COUNT };

/* kswapd's state is kept for the nodes below this at a stall's begin; a
 * stall whose first node is not among them gets "unknown". */
#define STALL_KS_NODES 16

/*
 * kswapd's state on each node at a stall's begin (static strings: asleep,
 * napping, awake, unknown), for nodes 0..@n-1; bit nid of @unsettled: that
 * node's state may still turn out to be "throttled" (kswapd was napping or
 * awake, and an mm_vmscan_throttled WRITEBACK of kswapd is reported only
 * when its wait ends: model_stall_kswapd()).
 */
struct stall_ks {
	const char *state[STALL_KS_NODES];
	int n;
	uint32_t unsettled;
};

struct stall_node_watch;
struct stall_open;

/* Sums of shrink_inactive calls (one per stall kind, model_stall_pages()). */
struct stall_sum {
	int64_t nr_scanned, nr_reclaimed, events;
	bool have_scanned, have_reclaimed;	/* some call had the field */
};

struct stall_machine {
	const struct model_ctx *cx;	/* borrowed from the dispatcher */
	struct model_pidmap open;	/* pid * SK_COUNT + kind -> open episode */
	/* per node below STALL_KS_NODES: open episodes whose kswapd state on
	 * it is not settled yet */
	struct stall_node_watch *watch;
	/* ended episodes held until kswapd's state on their first node is
	 * settled */
	struct stall_open *held;
	size_t nheld, aheld;
	char nids_buf[64];		/* the emitted row's nids when short */
	char *nids_long;		/* ... else (owned, freed after the row) */
	/* counts for run_quality */
	uint64_t rows[SK_COUNT], no_end, no_begin, lost, gapped, second_begin;
	/*
	 * The shrink_inactive calls inside a stall of their task, per kind
	 * (model_stall_call()): @inside the counted ones; per pid (struct
	 * stall_calls) those not inside one so far, which a later end
	 * without a begin covers; @disorder: an event came before an earlier
	 * one (a text trace out of order), the sums are not these.
	 */
	struct stall_sum inside[SK_COUNT];
	struct model_pidmap calls;	/* pid -> struct stall_calls */
	int64_t last_ts;
	bool disorder;
};

void model_stall_init(struct stall_machine *s, const struct model_ctx *cx);
void model_stall_release(struct stall_machine *s);

/*
 * model_stall_begin - a begin event of @kind; @ks is kswapd's state on
 * each node at the begin, given by the dispatcher (copied).  A second
 * begin before the end emits the earlier one as unterminated.  0 or the
 * sink's value.
 */
int model_stall_begin(struct stall_machine *s, const struct ingest_event *ev, int mev,
		      enum stall_kind kind, const struct stall_ks *ks);
/*
 * model_stall_node - task @pid reclaimed from node @nid (an
 * mm_vmscan_lru_shrink_inactive or _active of the task: shrink_node() of
 * that pgdat, mm/vmscan.c): every episode open on @pid gets @nid.
 */
void model_stall_node(struct stall_machine *s, int pid, int64_t nid);
/*
 * model_stall_kswapd - kswapd of node @nid has an event at @ts_ns: its
 * state on @nid is settled for every episode begun before @ts_ns: it was
 * "throttled" for those begun at or after @throttle_begin_ns (the begin of
 * the mm_vmscan_throttled WRITEBACK wait that event ends, MODEL_NULL if it
 * is another event).  Held episodes that were waiting for it are emitted.
 * 0 or the sink's value.
 */
int model_stall_kswapd(struct stall_machine *s, int nid, int64_t ts_ns,
		       int64_t throttle_begin_ns);
/* model_stall_end - the end event of @kind: emits the episode. */
int model_stall_end(struct stall_machine *s, const struct ingest_event *ev, int mev,
		    enum stall_kind kind);
/*
 * model_stall_call - an mm_vmscan_lru_shrink_inactive of the task (after
 * lru_note() marked a retry pass): for each kind, counted in inside[] when
 * a stall of the kind covers it as the lru_shrink_stall sum's SQL decides
 * (store-schema.c: begun at or before it, begin NULL as 0, and ended at or
 * after it, end NULL as never), else kept per pid for a later end without
 * a begin.  @scanned/@reclaimed MODEL_NULL: not in the event.
 */
void model_stall_call(struct stall_machine *s, int pid, int64_t ts_ns, int64_t scanned,
		      int64_t reclaimed);
/* model_stall_pages_of - model_stall_pages() (model.h) of @s. */
int model_stall_pages_of(const struct stall_machine *s, struct model_stall_pages *out, int max);
/* model_stall_time - every event's time, for the order check. */
void model_stall_time(struct stall_machine *s, int64_t ts_ns);
/* model_stall_open - is an episode of @kind open on @pid? */
bool model_stall_open(const struct stall_machine *s, int pid, enum stall_kind kind);
/* model_stall_gap - a gap of an excerpt: emit the episodes open (and the
 * held ones) as unterminated (reason excerpt_gap); nothing pairs across
 * it, and the machine goes on as at the trace start. */
int model_stall_gap(struct stall_machine *s);
/* model_stall_finish - emit the episodes still open as unterminated, and
 * the held ones as they are. */
int model_stall_finish(struct stall_machine *s);

#endif /* VR_MODEL_STALL_H */
