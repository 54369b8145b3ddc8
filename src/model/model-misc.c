// SPDX-License-Identifier: GPL-2.0
/*
 * model-misc.c - throttling and congestion waits, slab shrinking, and
 * pages written by reclaim.
 *
 * - mm_vmscan_throttled (5.16+, reclaim_throttle() in mm/vmscan.c) is
 *   emitted after the sleep, so it began usec_delayed earlier; reason is
 *   1 << VMSCAN_THROTTLE_{WRITEBACK,ISOLATED,NOPROGRESS,CONGESTED}.
 * - writeback_congestion_wait (<= 5.17) and writeback_wait_iff_congested
 *   (<= 5.15) (mm/backing-dev.c) are also emitted after the wait.
 * - mm_shrink_slab_start/end bracket one do_shrink_slab() call on one task
 *   (mm/vmscan.c, mm/shrinker.c from 6.7); they do not nest.
 * - mm_vmscan_writepage (<= 5.17) / mm_vmscan_write_folio (5.18+) follow a
 *   successful ->writepage in pageout(); reclaim_flags has RECLAIM_WB_FILE
 *   or RECLAIM_WB_ANON (trace_reclaim_flags() always adds ASYNC).
 */
#include "model-misc.h"

#include <string.h>

/* The value of the per-pid map. */
struct slab_open {
	int64_t begin_ns, nid, nr_objects, total_scan;
	const char *comm;		/* of the start (borrowed, interned) */
	unsigned int lost_gen;
	char shrinker[64];		/* the start's symbol ("": none), cut at 63 */
};

void model_misc_init(struct misc_machine *mm, const struct model_ctx *cx)
{
	memset(mm, 0, sizeof(*mm));
	mm->cx = cx;
	model_pidmap_init(&mm->slabs, sizeof(struct slab_open));
}

void model_misc_release(struct misc_machine *mm)
{
	model_pidmap_release(&mm->slabs);
}

static const char *throttle_reason(int64_t bits)
{
	switch (bits) {
	case 0x1: return "WRITEBACK";
	case 0x2: return "ISOLATED";
	case 0x4: return "NOPROGRESS";
	case 0x8: return "CONGESTED";
	case MODEL_NULL: return NULL;
	default: return "OTHER";
	}
}

int model_throttle(struct misc_machine *mm, const struct ingest_event *ev, int mev)
{
	const struct model_ctx *cx = mm->cx;
	struct model_throttle r = {
		.kind = mev == MEV_THROTTLED ? "throttled" :
			mev == MEV_CONGESTION_WAIT ? "congestion_wait" : "wait_iff_congested",
		.pid = ev->pid,
		.comm = ev->comm,
		.nid = model_val(cx, ev, mev, MF_NID),
		.reason = mev == MEV_THROTTLED ?
			  throttle_reason(model_val(cx, ev, mev, MF_REASON)) : NULL,
		.end_ns = (int64_t)ev->ts_ns,
		.usec_timeout = model_val(cx, ev, mev, MF_USEC_TIMEOUT),
		.usec_delayed = model_val(cx, ev, mev, MF_USEC_DELAYED),
	};

	r.begin_ns = r.usec_delayed == MODEL_NULL ? MODEL_NULL
						  : r.end_ns - r.usec_delayed * 1000;
	return cx->sink.throttle ? cx->sink.throttle(cx->sink.arg, &r) : 0;
}

/* Task @pid's open call @so ends unseen (slab_shrink_stored row). */
static int emit_unended(struct misc_machine *mm, int pid, const struct slab_open *so)
{
	struct model_slab r = {
		.pid = pid, .comm = so->comm, .nid = so->nid, .shrinker = so->shrinker[0] ? so->shrinker : NULL,
		.begin_ns = so->begin_ns, .end_ns = MODEL_NULL, .duration_ns = MODEL_NULL,
		.nr_objects_to_shrink = so->nr_objects, .total_scan = so->total_scan,
		.retval = MODEL_NULL, .complete = false,
	};

	mm->slab_no_end++;
	return mm->cx->sink.slab ? mm->cx->sink.slab(mm->cx->sink.arg, &r) : 0;
}

int model_slab_start(struct misc_machine *mm, const struct ingest_event *ev, int mev)
{
	const struct model_ctx *cx = mm->cx;
	bool fresh;
	struct slab_open *so = model_pidmap_get(&mm->slabs, ev->pid, &fresh);
	const char *sym;
	size_t n;
	int ret = 0;

	if (!fresh)
		ret = emit_unended(mm, ev->pid, so);
	so->begin_ns = (int64_t)ev->ts_ns;
	so->comm = ev->comm;
	so->nid = model_val(cx, ev, mev, MF_NID);
	so->nr_objects = model_val(cx, ev, mev, MF_NR_OBJECTS);
	so->total_scan = model_val(cx, ev, mev, MF_TOTAL_SCAN);
	so->lost_gen = cx->lost_gen;
	sym = model_sym(cx, ev, mev, MF_SHRINK);
	n = sym ? strnlen(sym, sizeof(so->shrinker) - 1) : 0;
	if (n)
		memcpy(so->shrinker, sym, n);
	so->shrinker[n] = '\0';
	return ret;
}

/* The pairing of end event @ev with its start (model.h, model_event()). */
static void slab_pair(const struct model_ctx *cx, struct ingest_event *ev, int mev,
		      int64_t begin_ns, int64_t nr_objects, bool complete)
{
	model_set(cx, ev, mev, MF_SLAB_BEGIN_NS, begin_ns);
	model_set(cx, ev, mev, MF_SLAB_NR_OBJECTS, nr_objects);
	model_set(cx, ev, mev, MF_SLAB_COMPLETE, complete);
}

/*
 * The end of a do_shrink_slab() call: paired with the task's open start,
 * in the event itself; the slab_shrink view (store.c) reads the pairing
 * from the mm_shrink_slab_end table.
 */
int model_slab_end(struct misc_machine *mm, struct ingest_event *ev, int mev)
{
	struct slab_open *so = model_pidmap_find(&mm->slabs, ev->pid);
	bool complete;

	if (!so) {
		mm->slab_no_begin++;
		slab_pair(mm->cx, ev, mev, MODEL_NULL, MODEL_NULL, false);
		return 0;
	}
	complete = so->lost_gen == mm->cx->lost_gen;
	if (!complete)
		mm->slab_lost++;
	slab_pair(mm->cx, ev, mev, so->begin_ns, so->nr_objects, complete);
	model_pidmap_remove(&mm->slabs, ev->pid);
	return 0;
}

int model_write(struct misc_machine *mm, const struct ingest_event *ev, int mev, bool by_kswapd)
{
	const struct model_ctx *cx = mm->cx;
	int64_t flags = model_val(cx, ev, mev, MF_RECLAIM_FLAGS);
	struct model_write r = {
		.ts_ns = (int64_t)ev->ts_ns, .pid = ev->pid, .comm = ev->comm, .by_kswapd = by_kswapd,
		.pfn = model_val(cx, ev, mev, MF_PFN),
		.file = flags != MODEL_NULL && (flags & RECLAIM_WB_FILE),
		.sync = flags != MODEL_NULL && (flags & RECLAIM_WB_SYNC),
	};

	return cx->sink.write ? cx->sink.write(cx->sink.arg, &r) : 0;
}

int model_misc_finish(struct misc_machine *mm)
{
	const struct slab_open *so;
	size_t slot = 0;
	int64_t pid;
	int ret = 0;

	while (!ret && (so = model_pidmap_next(&mm->slabs, &slot, &pid)))
		ret = emit_unended(mm, (int)pid, so);
	model_pidmap_release(&mm->slabs);
	return ret;
}
