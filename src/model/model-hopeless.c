// SPDX-License-Identifier: GPL-2.0
/*
 * model-hopeless.c - kswapd's hopeless state per node.
 *
 * kswapd gives up on a node after MAX_RECLAIM_RETRIES (16) runs of
 * balance_pgdat() that reclaimed nothing: pgdat->kswapd_failures >= 16 is
 * "hopeless" (c73322d0 "mm: fix 100% CPU kswapd busyloop on unreclaimable
 * nodes", 4.12); wakeup_kswapd() then leaves the node to direct reclaim and
 * prepare_kswapd_sleep() lets kswapd sleep without the node balanced.  The
 * count is reset to 0 by kswapd when the node is balanced, by direct
 * reclaim that finds it balanced, by freeing pages to the PCP lists, and by
 * the memory tiers code.
 *
 * a45088376d8a "mm/vmscan: add tracepoint and reason for kswapd_failures
 * reset" (Jiayuan Chen, Jan 2026; in the mm tree for 7.0, the release not
 * checked against a tagged tree here) traces both:
 * - mm_vmscan_kswapd_reclaim_fail (nid, failures) in balance_pgdat() after
 *   the count was raised, so failures is the new count: the event with
 *   failures 16 is the moment the node became hopeless;
 * - mm_vmscan_kswapd_clear_hopeless (nid, reason) in kswapd_clear_hopeless()
 *   (mm/vmscan.c), only when atomic_xchg() found the count non-zero: every
 *   reset of 1..15 failures is traced too.  reason is enum
 *   kswapd_clear_hopeless_reason (include/linux/mmzone.h): OTHER 0,
 *   KSWAPD 1, DIRECT 2, PCP 3 (as in v4 of the series; the event was named
 *   mm_vmscan_reset_kswapd_failures in an earlier version, read alike).
 *
 * An episode runs from the reclaim_fail at 16 to the next clear of the
 * node.  A reclaim_fail above 16 with no episode open means the node was
 * hopeless before the trace (or a loss) showed it: the start is unknown.
 * A clear with no count known before it (trace start, lost events) cannot
 * be told from the reset of a node that was not hopeless: counted, no row.
 * A reclaim_fail below the count before it, with no clear between, shows a
 * reset that was not traced: an open episode ends there, its end unknown.
 */
#include "model-hopeless.h"
#include "vr.h"

#include <stdlib.h>
#include <string.h>

/* MAX_RECLAIM_RETRIES, include/linux/mmzone.h (mm/internal.h before 5.9). */
#define HOPELESS_FAILURES 16

void model_hopeless_init(struct hopeless_machine *h, const struct model_ctx *cx)
{
	memset(h, 0, sizeof(*h));
	h->cx = cx;
}

void model_hopeless_release(struct hopeless_machine *h)
{
	free(h->nodes);
	h->nodes = NULL;
	h->nnodes = 0;
}

static struct hopeless_node *node(struct hopeless_machine *h, int64_t nid)
{
	if (nid < 0 || nid >= MODEL_MAX_NODES)
		return NULL;
	if (nid >= h->nnodes) {
		int n = (int)nid + 1;

		h->nodes = vr_realloc(h->nodes, (size_t)n * sizeof(*h->nodes));
		for (int i = h->nnodes; i < n; i++)
			h->nodes[i] = (struct hopeless_node){ .failures = -1 };
		h->nnodes = n;
	}
	return &h->nodes[nid];
}

/* enum kswapd_clear_hopeless_reason names (v4 of the series). */
static const char *reason_name(int64_t reason)
{
	switch (reason) {
	case 0: return "OTHER";
	case 1: return "KSWAPD";
	case 2: return "DIRECT";
	case 3: return "PCP";
	default: return NULL;
	}
}

/* Emit @n's open episode ending at @end_ns (MODEL_NULL: unknown). */
static int emit(struct hopeless_machine *h, int nid, struct hopeless_node *n, int64_t end_ns,
		const struct ingest_event *clear, int64_t reason, const char *open_end)
{
	const struct model_ctx *cx = h->cx;
	struct model_hopeless r = {
		.nid = nid, .start_ns = n->start_ns, .first_fail_ns = n->first_ns,
		.last_fail_ns = n->last_ns,
		.end_ns = end_ns, .failures = n->failures, .fail_events = n->fail_events,
		.reset_reason = reason, .reset_reason_name = reason_name(reason),
		.reset_pid = clear ? clear->pid : MODEL_NULL,
		.reset_comm = clear ? clear->comm : NULL,
	};

	char why[64] = "";

	/* every reason that applies, comma-separated: start, inside, end */
	if (!n->start_seen)
		strcat(why, "start_not_traced");
	if (n->interrupted)
		strcat(strcat(why, *why ? "," : ""), n->interrupted);
	if (open_end)
		strcat(strcat(why, *why ? "," : ""), open_end);
	r.incomplete_reason = *why ? why : NULL;
	r.complete = !r.incomplete_reason;
	n->open = false;
	h->episodes++;
	return cx->sink.hopeless ? cx->sink.hopeless(cx->sink.arg, &r) : 0;
}

int model_hopeless_fail(struct hopeless_machine *h, const struct ingest_event *ev, int mev)
{
	int64_t nid = model_val(h->cx, ev, mev, MF_NID);
	int64_t failures = model_val(h->cx, ev, mev, MF_FAILURES);
	struct hopeless_node *n = node(h, nid);
	int ret = 0;

	if (!n || failures == MODEL_NULL)
		return 0;
	if (n->open && n->failures >= 0 && failures < n->failures)
		ret = emit(h, (int)nid, n, MODEL_NULL, NULL, MODEL_NULL, "clear_not_traced");
	if (!n->open && failures >= HOPELESS_FAILURES) {
		n->open = true;
		n->start_seen = failures == HOPELESS_FAILURES;
		n->start_ns = n->start_seen ? (int64_t)ev->ts_ns : MODEL_NULL;
		n->first_ns = (int64_t)ev->ts_ns;
		n->fail_events = 0;
		n->interrupted = NULL;
	}
	if (n->open) {
		n->fail_events++;
		n->last_ns = (int64_t)ev->ts_ns;
	}
	n->failures = failures;
	return ret;
}

int model_hopeless_clear(struct hopeless_machine *h, const struct ingest_event *ev, int mev)
{
	int64_t nid = model_val(h->cx, ev, mev, MF_NID);
	struct hopeless_node *n = node(h, nid);
	int ret = 0;

	if (!n)
		return 0;
	if (n->open)
		ret = emit(h, (int)nid, n, (int64_t)ev->ts_ns, ev,
			   model_val(h->cx, ev, mev, MF_REASON), NULL);
	else if (n->failures > 0)
		h->clears_not_hopeless++;
	else
		h->clears_unplaced++;
	n->failures = 0;	/* the count is known again: 0 */
	return ret;
}

void model_hopeless_unknown(struct hopeless_machine *h, bool gap)
{
	for (int i = 0; i < h->nnodes; i++) {
		struct hopeless_node *n = &h->nodes[i];

		if (n->open && !n->interrupted)
			n->interrupted = gap ? "excerpt_gap" : "lost_events";
		if (!n->open)
			n->failures = -1;
	}
}

int model_hopeless_finish(struct hopeless_machine *h)
{
	const struct model_ctx *cx = h->cx;
	int ret = 0;

	for (int i = 0; !ret && i < h->nnodes; i++)
		if (h->nodes[i].open)
			ret = emit(h, i, &h->nodes[i], MODEL_NULL, NULL, MODEL_NULL,
				   "still_hopeless");
	if (ret || !(h->episodes || h->clears_not_hopeless || h->clears_unplaced))
		return ret;
	return model_quality(cx, "kswapd_hopeless_episodes", h->episodes,
			     "kswapd_hopeless rows: a node's kswapd_failures at 16"
			     " (MAX_RECLAIM_RETRIES) until the reset") ?:
	       model_quality(cx, "kswapd_resets_before_hopeless", h->clears_not_hopeless,
			     "mm_vmscan_kswapd_clear_hopeless of a node with 1-15 failures: not an"
			     " episode") ?:
	       model_quality(cx, "kswapd_clear_hopeless_unplaced", h->clears_unplaced,
			     "mm_vmscan_kswapd_clear_hopeless with no failure count traced before it"
			     " (trace start, lost events, a gap): whether the node was hopeless is"
			     " not known; no row");
}
