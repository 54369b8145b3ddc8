/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model-misc.h - the machines without cross-event state except one open
 * shrinker call per task (model-misc.c): throttling and congestion waits
 * (reclaim_throttle), slab shrinking (the pairing in mm_shrink_slab_end,
 * and slab_shrink_stored), pages written by reclaim (reclaim_write).
 * Called by the dispatcher (model.c) only.
 */
#ifndef VR_MODEL_MISC_H
#define VR_MODEL_MISC_H

#include "model-pidmap.h"
#include "model-priv.h"

struct misc_machine {
	const struct model_ctx *cx;	/* borrowed from the dispatcher */
	struct model_pidmap slabs;	/* pid -> open shrinker call */
	/* counts for run_quality */
	uint64_t slab_no_end, slab_no_begin, slab_lost;
};

void model_misc_init(struct misc_machine *mm, const struct model_ctx *cx);
void model_misc_release(struct misc_machine *mm);

/* A throttled / congestion_wait / wait_iff_congested event: one row. */
int model_throttle(struct misc_machine *mm, const struct ingest_event *ev, int mev);
/* mm_shrink_slab_start: opens the task's call (a call still open is
 * emitted as unended). */
int model_slab_start(struct misc_machine *mm, const struct ingest_event *ev, int mev);
/* mm_shrink_slab_end: writes the pairing into @ev (model.h, model_event()). */
int model_slab_end(struct misc_machine *mm, struct ingest_event *ev, int mev);
/* A writepage / write_folio event; @by_kswapd: the task is a kswapd. */
int model_write(struct misc_machine *mm, const struct ingest_event *ev, int mev, bool by_kswapd);
/* Emit the shrinker calls still open as unended. */
int model_misc_finish(struct misc_machine *mm);

#endif /* VR_MODEL_MISC_H */
