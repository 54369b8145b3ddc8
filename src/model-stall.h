/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model-stall.h - the reclaim-stall machine (model-stall.c): one open
 * episode per task and kind, closed by the end event; rows of the
 * reclaim_stall table.  Called by the dispatcher (model.c) only.
 */
#ifndef VR_MODEL_STALL_H
#define VR_MODEL_STALL_H

#include "model-pidmap.h"
#include "model-priv.h"

/* Stall kinds; also the low bits of the per-pid key. */
enum stall_kind { SK_DIRECT, SK_MEMCG, SK_SOFTLIMIT, SK_NODE, SK_COUNT };

struct stall_machine {
	const struct model_ctx *cx;	/* borrowed from the dispatcher */
	struct model_pidmap open;	/* pid * SK_COUNT + kind -> open episode */
	/* counts for run_quality */
	uint64_t rows[SK_COUNT], no_end, no_begin, lost, second_begin;
};

void model_stall_init(struct stall_machine *s, const struct model_ctx *cx);
void model_stall_release(struct stall_machine *s);

/*
 * model_stall_begin - a begin event of @kind; @kswapd_state is kswapd's
 * state on the node at the begin (asleep, napping, awake, unknown; static
 * string), given by the dispatcher.  A second begin before the end emits
 * the earlier one as unterminated.  0 or the sink's value.
 */
int model_stall_begin(struct stall_machine *s, const struct ingest_event *ev, int mev,
		      enum stall_kind kind, const char *kswapd_state);
/* model_stall_end - the end event of @kind: emits the episode. */
int model_stall_end(struct stall_machine *s, const struct ingest_event *ev, int mev,
		    enum stall_kind kind);
/* model_stall_open - is an episode of @kind open on @pid? */
bool model_stall_open(const struct stall_machine *s, int pid, enum stall_kind kind);
/* model_stall_finish - emit the episodes still open as unterminated. */
int model_stall_finish(struct stall_machine *s);

#endif /* VR_MODEL_STALL_H */
