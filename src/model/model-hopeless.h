/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model-hopeless.h - kswapd's hopeless state per node (model-hopeless.c):
 * the episodes from mm_vmscan_kswapd_reclaim_fail and
 * mm_vmscan_kswapd_clear_hopeless (or its earlier name
 * mm_vmscan_reset_kswapd_failures) to the kswapd_hopeless table.  Called
 * by the dispatcher (model.c) only.
 */
#ifndef VR_MODEL_HOPELESS_H
#define VR_MODEL_HOPELESS_H

#include "model-priv.h"

/* One node's failure count as the trace shows it. */
struct hopeless_node {
	int64_t failures;	/* last failures of a reclaim_fail, -1: none since
				 * the trace's start, a clear, lost events or a gap */
	bool open;		/* an episode is open */
	bool start_seen;	/* ... and its start (failures == 16) was traced */
	int64_t start_ns;	/* of the open episode (MODEL_NULL: not seen) */
	int64_t first_ns;	/* its first reclaim_fail at >= 16 */
	int64_t last_ns;	/* its last reclaim_fail */
	int64_t fail_events;	/* reclaim_fail events in it */
	const char *interrupted;	/* "lost_events", "excerpt_gap" since
					 * its start, else NULL */
};

struct hopeless_machine {
	const struct model_ctx *cx;	/* borrowed from the dispatcher */
	struct hopeless_node *nodes;
	int nnodes;
	/* counts for run_quality */
	uint64_t clears_not_hopeless;	/* a clear of 1..15 failures */
	uint64_t clears_unplaced;	/* a clear with no count known before */
	uint64_t episodes;
};

void model_hopeless_init(struct hopeless_machine *h, const struct model_ctx *cx);
void model_hopeless_release(struct hopeless_machine *h);
/* mm_vmscan_kswapd_reclaim_fail (nid, failures). */
int model_hopeless_fail(struct hopeless_machine *h, const struct ingest_event *ev, int mev);
/* mm_vmscan_kswapd_clear_hopeless / mm_vmscan_reset_kswapd_failures (nid, reason). */
int model_hopeless_clear(struct hopeless_machine *h, const struct ingest_event *ev, int mev);
/* Lost events (@gap false) or an excerpt's gap: the counts are no longer
 * known, and an open episode may have ended untraced. */
void model_hopeless_unknown(struct hopeless_machine *h, bool gap);
/* Trace end: the open episodes as still hopeless; then the quality items. */
int model_hopeless_finish(struct hopeless_machine *h);

#endif /* VR_MODEL_HOPELESS_H */
