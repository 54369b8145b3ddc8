// SPDX-License-Identifier: GPL-2.0
/*
 * model-stall.c - reclaim episodes of one task: direct reclaim
 * (mm_vmscan_direct_reclaim_begin/end, do_try_to_free_pages() in
 * try_to_free_pages()), memcg reclaim (try_to_free_mem_cgroup_pages()),
 * memcg soft-limit reclaim (mem_cgroup_shrink_node()) and node reclaim
 * (__node_reclaim(), 5.2+).  mm/vmscan.c emits begin and end on the same
 * task; one kind never nests on one task, but soft-limit reclaim can run
 * inside direct reclaim (shrink_zones()) and inside kswapd, so each kind
 * has its own open slot per pid.
 *
 * A second begin of a kind before its end means the end was lost or the
 * pid was reused: the end pairs with the latest begin and the earlier begin
 * is emitted as unterminated.  An end without a begin is kept with begin
 * NULL.  An episode open when events were lost is incomplete.
 */
#include "model-stall.h"

#include <string.h>

/* The value of the per-pid map. */
struct stall_open {
	struct model_stall row;		/* begin side filled in */
	unsigned int lost_gen;		/* the context's lost_gen at begin */
};

static const char *const kind_name[SK_COUNT] = {
	[SK_DIRECT] = "direct", [SK_MEMCG] = "memcg",
	[SK_SOFTLIMIT] = "memcg_softlimit", [SK_NODE] = "node",
};

static int64_t stall_key(int pid, enum stall_kind kind)
{
	return (int64_t)pid * SK_COUNT + kind;
}

void model_stall_init(struct stall_machine *s, const struct model_ctx *cx)
{
	memset(s, 0, sizeof(*s));
	s->cx = cx;
	model_pidmap_init(&s->open, sizeof(struct stall_open));
}

void model_stall_release(struct stall_machine *s)
{
	model_pidmap_release(&s->open);
}

static int emit(struct stall_machine *s, const struct model_stall *r)
{
	for (int k = 0; k < SK_COUNT; k++)
		if (r->kind == kind_name[k])
			s->rows[k]++;
	return s->cx->sink.stall ? s->cx->sink.stall(s->cx->sink.arg, r) : 0;
}

bool model_stall_open(const struct stall_machine *s, int pid, enum stall_kind kind)
{
	return model_pidmap_find(&s->open, stall_key(pid, kind)) != NULL;
}

int model_stall_begin(struct stall_machine *s, const struct ingest_event *ev, int mev,
		      enum stall_kind kind, const char *kswapd_state)
{
	const struct model_ctx *cx = s->cx;
	bool fresh;
	struct stall_open *so = model_pidmap_get(&s->open, stall_key(ev->pid, kind), &fresh);
	int ret = 0;

	if (!fresh) {
		so->row.incomplete_reason = "second_begin_before_end";
		s->second_begin++;
		ret = emit(s, &so->row);
	}
	so->row = (struct model_stall){
		.kind = kind_name[kind],
		.pid = ev->pid,
		.comm = ev->comm,
		.nid = model_val(cx, ev, mev, MF_NID),
		.begin_ns = (int64_t)ev->ts_ns,
		.end_ns = MODEL_NULL,
		.duration_ns = MODEL_NULL,
		.order = model_val(cx, ev, mev, MF_ORDER),
		.gfp_flags = model_val(cx, ev, mev, MF_GFP_FLAGS),
		.nr_reclaimed = MODEL_NULL,
		.kswapd_state = kswapd_state,
		.complete = false,
		.incomplete_reason = NULL,
	};
	so->lost_gen = cx->lost_gen;
	return ret;
}

int model_stall_end(struct stall_machine *s, const struct ingest_event *ev, int mev,
		    enum stall_kind kind)
{
	const struct model_ctx *cx = s->cx;
	int64_t key = stall_key(ev->pid, kind);
	struct stall_open *so = model_pidmap_find(&s->open, key);
	int ret;

	if (!so) {
		struct model_stall r = {
			.kind = kind_name[kind], .pid = ev->pid, .comm = ev->comm, .nid = MODEL_NULL,
			.begin_ns = MODEL_NULL, .end_ns = (int64_t)ev->ts_ns,
			.duration_ns = MODEL_NULL, .order = MODEL_NULL, .gfp_flags = MODEL_NULL,
			.nr_reclaimed = model_val(cx, ev, mev, MF_NR_RECLAIMED),
			.kswapd_state = NULL, .complete = false,
			.incomplete_reason = "end_without_begin",
		};
		s->no_begin++;
		return emit(s, &r);
	}
	so->row.end_ns = (int64_t)ev->ts_ns;
	so->row.duration_ns = so->row.end_ns - so->row.begin_ns;
	so->row.nr_reclaimed = model_val(cx, ev, mev, MF_NR_RECLAIMED);
	so->row.complete = so->lost_gen == cx->lost_gen;
	if (!so->row.complete) {
		so->row.incomplete_reason = "lost_events";
		s->lost++;
	}
	ret = emit(s, &so->row);
	model_pidmap_remove(&s->open, key);
	return ret;
}

int model_stall_finish(struct stall_machine *s)
{
	struct stall_open *so;
	size_t slot = 0;
	int64_t key;
	int ret = 0;

	while (!ret && (so = model_pidmap_next(&s->open, &slot, &key))) {
		so->row.incomplete_reason = "no_end_at_trace_end";
		s->no_end++;
		ret = emit(s, &so->row);
	}
	model_pidmap_release(&s->open);
	return ret;
}
