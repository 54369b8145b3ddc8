/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model-kswapd.h - the kswapd machine (model-kswapd.c): per node, kswapd's
 * cycles from one mm_vmscan_kswapd_wake to the next with their sleep
 * decisions (kswapd_cycle), and the wakeup requests with the time each
 * took to be served (kswapd_wakeup).  Called by the dispatcher (model.c)
 * only; what a cycle means for the flags comes back as a struct
 * kswapd_effect, which the dispatcher hands to the flag machine.
 */
#ifndef VR_MODEL_KSWAPD_H
#define VR_MODEL_KSWAPD_H

#include "model-priv.h"

struct kswapd_node;

struct kswapd_machine {
	const struct model_ctx *cx;	/* borrowed from the dispatcher */
	uint64_t premature_ns, nap_ns;
	bool has_sched;			/* sched_switch in the formats */
	struct kswapd_node *kn;		/* per node, grown on demand */
	int nnodes;
	/* counts for run_quality, and for the flags' MGLRU test */
	uint64_t cycles_unknown, cycles_incomplete, sleep_no_wake, n_wake;
};

/*
 * What a kswapd event means for the flag machine, for the dispatcher to
 * pass on: @pass_end, kswapd's shrink_node() pass window on @nid ended
 * (model_flags_pass_end()); @balanced_ns, kswapd's sleep check found @nid
 * balanced then (model_flags_clear()), MODEL_NULL if not.  @nid -1: none.
 */
struct kswapd_effect {
	int nid;
	bool pass_end;
	int64_t balanced_ns;
	/* where that check lies: after kswapd's last activity (@balanced_after_ns)
	 * and, with sched events, no later than the nap's switch-out
	 * (@balanced_by_ns; MODEL_NULL: only the event that told bounds it) */
	int64_t balanced_after_ns, balanced_by_ns;
};

/*
 * model_kswapd_init - no nodes yet; the kswapd pids @cfg knows from the
 * recording's comms, the nap and premature-sleep lengths (0: 100 ms).
 */
void model_kswapd_init(struct kswapd_machine *k, const struct model_ctx *cx,
		       const struct model_config *cfg);
void model_kswapd_release(struct kswapd_machine *k);

/* model_kswapd_nid - the node whose kswapd has pid @pid, or -1. */
int model_kswapd_nid(const struct kswapd_machine *k, int pid);
/* model_kswapd_state - kswapd of @nid at @now_ns: "asleep", "napping",
 * "awake" or "unknown" (static strings). */
const char *model_kswapd_state(const struct kswapd_machine *k, int64_t nid, int64_t now_ns);

/* The events; each returns 0 or the sink's value, and fills @eff. */
int model_kswapd_wake(struct kswapd_machine *k, const struct ingest_event *ev, int mev,
		      struct kswapd_effect *eff);
int model_kswapd_sleep(struct kswapd_machine *k, const struct ingest_event *ev, int mev,
		       struct kswapd_effect *eff);
/* mm_vmscan_wakeup_kswapd: queued until the node's next kswapd_wake. */
int model_kswapd_request(struct kswapd_machine *k, const struct ingest_event *ev, int mev);
/* Any event of kswapd @nid's own task that shows it working. */
int model_kswapd_activity(struct kswapd_machine *k, int nid, const struct ingest_event *ev,
			  int mev);
/* sched_switch / sched_wakeup(ing): kswapd's naps, when recorded. */
/*
 * model_kswapd_learn - @pid is kswapd<nid> if @comm says so (a text
 * trace's line prints the comm): kswapd's reclaim before its first
 * kswapd_wake/kswapd_sleep is then credited to it (a cycle with wake_ns
 * NULL).  @comm may be NULL.  Returns the node, or -1.
 */
int model_kswapd_learn(struct kswapd_machine *k, int pid, const char *comm);

int model_kswapd_sched(struct kswapd_machine *k, const struct ingest_event *ev, int mev);
/* model_kswapd_gap_node - a gap of an excerpt on node @nid (< k->nnodes):
 * close its open cycle (reason excerpt_gap), flush its requests (not
 * served: the wake after the gap may not answer them); fills @eff.  What
 * follows the gap is taken as after the trace start. */
int model_kswapd_gap_node(struct kswapd_machine *k, int nid, struct kswapd_effect *eff);
/* model_kswapd_finish_node - trace end on node @nid (< k->nnodes): close
 * its cycle, flush its requests; fills @eff. */
int model_kswapd_finish_node(struct kswapd_machine *k, int nid, struct kswapd_effect *eff);

#endif /* VR_MODEL_KSWAPD_H */
