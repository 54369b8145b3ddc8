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
#include "model-priv.h"

static const char *const kind_name[SK_COUNT] = {
	[SK_DIRECT] = "direct", [SK_MEMCG] = "memcg",
	[SK_SOFTLIMIT] = "memcg_softlimit", [SK_NODE] = "node",
};

static int64_t stall_key(int pid, int kind)
{
	return (int64_t)pid * SK_COUNT + kind;
}

static int emit(struct model *m, const struct model_stall *r)
{
	for (int k = 0; k < SK_COUNT; k++)
		if (r->kind == kind_name[k])
			m->stall_rows[k]++;
	return m->sink.stall ? m->sink.stall(m->sink.arg, r) : 0;
}

bool model_stall_open(const struct model *m, int pid, int kind)
{
	return model_pidmap_find(&m->stalls, stall_key(pid, kind)) != NULL;
}

int model_stall_begin(struct model *m, const struct ingest_event *ev, int mev, int kind)
{
	bool fresh;
	struct stall_open *so = model_pidmap_get(&m->stalls, stall_key(ev->pid, kind), &fresh);
	int64_t nid = model_val(m, ev, mev, MF_NID);
	int ret = 0;

	if (!fresh) {
		so->row.incomplete_reason = "second_begin_before_end";
		m->stall_second_begin++;
		ret = emit(m, &so->row);
	}
	so->row = (struct model_stall){
		.kind = kind_name[kind],
		.pid = ev->pid,
		.nid = nid,
		.begin_ns = (int64_t)ev->ts_ns,
		.end_ns = MODEL_NULL,
		.duration_ns = MODEL_NULL,
		.order = model_val(m, ev, mev, MF_ORDER),
		.gfp_flags = model_val(m, ev, mev, MF_GFP_FLAGS),
		.nr_reclaimed = MODEL_NULL,
		.kswapd_state = model_kswapd_state(m, nid == MODEL_NULL ? 0 : nid,
						   (int64_t)ev->ts_ns),
		.complete = false,
		.incomplete_reason = NULL,
	};
	so->lost_gen = m->lost_gen;
	return ret;
}

int model_stall_end(struct model *m, const struct ingest_event *ev, int mev, int kind)
{
	int64_t key = stall_key(ev->pid, kind);
	struct stall_open *so = model_pidmap_find(&m->stalls, key);
	int ret;

	if (!so) {
		struct model_stall r = {
			.kind = kind_name[kind], .pid = ev->pid, .nid = MODEL_NULL,
			.begin_ns = MODEL_NULL, .end_ns = (int64_t)ev->ts_ns,
			.duration_ns = MODEL_NULL, .order = MODEL_NULL, .gfp_flags = MODEL_NULL,
			.nr_reclaimed = model_val(m, ev, mev, MF_NR_RECLAIMED),
			.kswapd_state = NULL, .complete = false,
			.incomplete_reason = "end_without_begin",
		};
		m->stall_no_begin++;
		return emit(m, &r);
	}
	so->row.end_ns = (int64_t)ev->ts_ns;
	so->row.duration_ns = so->row.end_ns - so->row.begin_ns;
	so->row.nr_reclaimed = model_val(m, ev, mev, MF_NR_RECLAIMED);
	so->row.complete = so->lost_gen == m->lost_gen;
	if (!so->row.complete) {
		so->row.incomplete_reason = "lost_events";
		m->stall_lost++;
	}
	ret = emit(m, &so->row);
	model_pidmap_remove(&m->stalls, key);
	return ret;
}

int model_stall_finish(struct model *m)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < m->stalls.cap; i++) {
		struct stall_open *so;

		if (m->stalls.keys[i] == MODEL_NULL)
			continue;
		so = (struct stall_open *)(m->stalls.vals + i * m->stalls.vsize);
		so->row.incomplete_reason = "no_end_at_trace_end";
		m->stall_no_end++;
		ret = emit(m, &so->row);
	}
	model_pidmap_release(&m->stalls);
	return ret;
}
