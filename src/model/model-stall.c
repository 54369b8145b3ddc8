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
 * NULL.  An episode open when events were lost is incomplete; one open at
 * a gap of an excerpt (model_gap()) ends there, without an end: an end
 * after the gap is one without a begin.
 *
 * Nodes: direct reclaim walks the zonelist in shrink_zones() and calls
 * shrink_node() per pgdat; each shrink_node() -> shrink_lruvec() ->
 * shrink_list() emits mm_vmscan_lru_shrink_inactive/_active with
 * pgdat->node_id on the reclaiming task (mm/vmscan.c, 4.11-6.18; with
 * multi-gen LRU evict_folios() emits lru_shrink_inactive from 6.7).  An
 * episode's nodes are the nids of its task's such events while it is open
 * (row nids); an episode with none has no node of its own.
 *
 * kswapd's state: the dispatcher gives every begin kswapd's state on each
 * node then; the row takes that of its first node.  kswapd sleeping in
 * reclaim_throttle(pgdat, VMSCAN_THROTTLE_WRITEBACK) (shrink_node()'s
 * kswapd block when sc->nr.immediate, called from balance_pgdat() via
 * kswapd_shrink_node(); mm/vmscan.c 5.16-6.18) is awake and blocked in
 * TASK_UNINTERRUPTIBLE, but mm_vmscan_throttled is emitted only after the
 * wait, with usec_delayed (jiffies resolution): at the begin kswapd looks
 * napping (no event for a while) or awake.  Such a state stays unsettled
 * until kswapd's next event on the node (model_stall_kswapd()); an episode
 * that ends before it is held, then emitted.
 */
#include "model-stall.h"
#include "vr.h"

#include <stdlib.h>
#include <string.h>

/* The value of the per-pid map, and of the held list. */
struct stall_open {
	struct model_stall row;		/* begin side filled in */
	unsigned int lost_gen;		/* the context's lost_gen at begin */
	struct stall_ks ks;		/* kswapd's state per node at begin */
	int64_t first_nid;		/* first node reclaimed from, or MODEL_NULL */
	int *nids;			/* nodes reclaimed from, ascending (owned) */
	int nnids, anids;
};

/*
 * A task's shrink_inactive calls that no stall of a kind has covered so
 * far (model_stall_call()), per kind: @out, and apart the last of them at
 * one time (@tail at @tail_ts: a stall begun at that very time covers
 * them, as the SQL orders a stall before a call of the same time); the
 * latest end of a stall of the kind, and @forever when one never ended.
 */
struct stall_calls {
	struct stall_sum out[SK_COUNT], tail[SK_COUNT];
	int64_t tail_ts[SK_COUNT], end_ns[SK_COUNT];
	bool have_tail[SK_COUNT], have_end[SK_COUNT], forever[SK_COUNT];
};

/* One episode waiting for kswapd's state on a node: its key and begin. */
struct stall_watch_item {
	int64_t key, begin_ns;
};

struct stall_node_watch {
	struct stall_watch_item *it;
	size_t n, a;
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
	model_pidmap_init(&s->calls, sizeof(struct stall_calls));
	s->watch = vr_calloc(STALL_KS_NODES, sizeof(*s->watch));
	s->last_ts = INT64_MIN;
}

/* ---- the lru_shrink_stall sums ------------------------------------------ */

static void sum_call(struct stall_sum *d, int64_t scanned, int64_t reclaimed)
{
	d->events++;
	if (scanned != MODEL_NULL) {
		d->nr_scanned += scanned;
		d->have_scanned = true;
	}
	if (reclaimed != MODEL_NULL) {
		d->nr_reclaimed += reclaimed;
		d->have_reclaimed = true;
	}
}

/* Add @src to @d and empty @src. */
static void sum_move(struct stall_sum *d, struct stall_sum *src)
{
	d->events += src->events;
	d->nr_scanned += src->nr_scanned;
	d->nr_reclaimed += src->nr_reclaimed;
	d->have_scanned |= src->have_scanned;
	d->have_reclaimed |= src->have_reclaimed;
	memset(src, 0, sizeof(*src));
}

void model_stall_time(struct stall_machine *s, int64_t ts_ns)
{
	if (ts_ns < s->last_ts)
		s->disorder = true;
	else
		s->last_ts = ts_ns;
}

static struct stall_calls *calls_of(struct stall_machine *s, int pid)
{
	bool fresh;

	return model_pidmap_get(&s->calls, pid, &fresh);
}

void model_stall_call(struct stall_machine *s, int pid, int64_t ts_ns, int64_t scanned,
		      int64_t reclaimed)
{
	struct stall_calls *c = calls_of(s, pid);

	for (int k = 0; k < SK_COUNT; k++) {
		if (model_stall_open(s, pid, k) || c->forever[k] ||
		    (c->have_end[k] && ts_ns <= c->end_ns[k])) {
			sum_call(&s->inside[k], scanned, reclaimed);
			continue;
		}
		if (c->have_tail[k] && c->tail_ts[k] != ts_ns)
			sum_move(&c->out[k], &c->tail[k]);
		c->have_tail[k] = true;
		c->tail_ts[k] = ts_ns;
		sum_call(&c->tail[k], scanned, reclaimed);
	}
}

/* A stall of @kind begun on @pid at @ts_ns (@second: while one was open,
 * which then never ends: it covers every later call). */
static void calls_begin(struct stall_machine *s, int pid, enum stall_kind kind, int64_t ts_ns,
			bool second)
{
	struct stall_calls *c = calls_of(s, pid);

	if (second)
		c->forever[kind] = true;
	if (c->have_tail[kind] && c->tail_ts[kind] == ts_ns)
		sum_move(&s->inside[kind], &c->tail[kind]);
}

/* A stall of @kind ended on @pid at @ts_ns; without a begin it covers
 * every call of the task so far. */
static void calls_end(struct stall_machine *s, int pid, enum stall_kind kind, int64_t ts_ns,
		      bool no_begin)
{
	struct stall_calls *c = calls_of(s, pid);

	if (no_begin) {
		sum_move(&s->inside[kind], &c->out[kind]);
		sum_move(&s->inside[kind], &c->tail[kind]);
		c->have_tail[kind] = false;
	}
	if (!c->have_end[kind] || ts_ns > c->end_ns[kind])
		c->end_ns[kind] = ts_ns;
	c->have_end[kind] = true;
}

int model_stall_pages_of(const struct stall_machine *s, struct model_stall_pages *out, int max)
{
	int n = 0;

	if (s->disorder)
		return -1;
	for (int k = 0; k < SK_COUNT && n < max; k++) {
		const struct stall_sum *v = &s->inside[k];

		if (!v->events)
			continue;
		out[n++] = (struct model_stall_pages){
			.kind = kind_name[k],
			.nr_scanned = v->have_scanned ? v->nr_scanned : MODEL_NULL,
			.nr_reclaimed = v->have_reclaimed ? v->nr_reclaimed : MODEL_NULL,
			.events = v->events,
		};
	}
	return n;
}

void model_stall_release(struct stall_machine *s)
{
	struct stall_open *so;
	size_t slot = 0;
	int64_t key;

	while ((so = model_pidmap_next(&s->open, &slot, &key)))
		free(so->nids);
	model_pidmap_release(&s->open);
	model_pidmap_release(&s->calls);
	for (size_t i = 0; i < s->nheld; i++)
		free(s->held[i].nids);
	free(s->held);
	s->held = NULL;
	s->nheld = s->aheld = 0;
	if (s->watch)
		for (int n = 0; n < STALL_KS_NODES; n++)
			free(s->watch[n].it);
	free(s->watch);
	s->watch = NULL;
	free(s->nids_long);
	s->nids_long = NULL;
}

/* The node whose kswapd state the row takes (model.h, kswapd_state). */
static int64_t state_node(const struct stall_open *so)
{
	if (so->row.nid != MODEL_NULL)
		return so->row.nid;
	return so->first_nid != MODEL_NULL ? so->first_nid : 0;
}

/* Is kswapd's state on the row's node still to be settled? */
static bool unsettled(const struct stall_open *so)
{
	int64_t nid = state_node(so);

	return nid >= 0 && nid < so->ks.n && (so->ks.unsettled & (1u << nid));
}

/* "0,1": @so's nodes, in s->nids_buf or s->nids_long; NULL if none. */
static const char *nids_text(struct stall_machine *s, const struct stall_open *so)
{
	struct vr_buf b;

	if (!so->nnids)
		return NULL;
	vr_buf_init(&b);
	for (int i = 0; i < so->nnids; i++)
		vr_buf_addf(&b, "%s%d", i ? "," : "", so->nids[i]);
	if (b.len < sizeof(s->nids_buf)) {
		memcpy(s->nids_buf, b.buf, b.len + 1);
		vr_buf_release(&b);
		return s->nids_buf;
	}
	free(s->nids_long);
	s->nids_long = vr_buf_detach(&b);
	return s->nids_long;
}

/* Emit @so now (its kswapd_state from its node), freeing its nodes. */
static int emit_now(struct stall_machine *s, struct stall_open *so)
{
	struct model_stall *r = &so->row;
	int64_t nid = state_node(so);
	int ret;

	for (int k = 0; k < SK_COUNT; k++)
		if (r->kind == kind_name[k])
			s->rows[k]++;
	if (r->kswapd_state)	/* NULL: an end without a begin */
		r->kswapd_state = nid >= 0 && nid < so->ks.n ? so->ks.state[nid] : "unknown";
	r->nids = nids_text(s, so);
	ret = s->cx->sink.stall ? s->cx->sink.stall(s->cx->sink.arg, r) : 0;
	free(so->nids);
	so->nids = NULL;
	so->nnids = so->anids = 0;
	return ret;
}

/* Emit @so, or hold a copy while kswapd's state on its node is unsettled
 * (@so's nodes move to the copy). */
static int emit(struct stall_machine *s, struct stall_open *so)
{
	if (!unsettled(so))
		return emit_now(s, so);
	if (s->nheld == s->aheld) {
		s->aheld = s->aheld ? s->aheld * 2 : 16;
		s->held = vr_realloc(s->held, s->aheld * sizeof(*s->held));
	}
	s->held[s->nheld++] = *so;
	so->nids = NULL;
	so->nnids = so->anids = 0;
	return 0;
}

bool model_stall_open(const struct stall_machine *s, int pid, enum stall_kind kind)
{
	return model_pidmap_find(&s->open, stall_key(pid, kind)) != NULL;
}

/* Watch node @nid's kswapd state for the episode @key begun at @begin. */
static void watch_add(struct stall_machine *s, int nid, int64_t key, int64_t begin)
{
	struct stall_node_watch *w = &s->watch[nid];

	if (w->n == w->a) {
		w->a = w->a ? w->a * 2 : 16;
		w->it = vr_realloc(w->it, w->a * sizeof(*w->it));
	}
	w->it[w->n++] = (struct stall_watch_item){ key, begin };
}

int model_stall_begin(struct stall_machine *s, const struct ingest_event *ev, int mev,
		      enum stall_kind kind, const struct stall_ks *ks)
{
	const struct model_ctx *cx = s->cx;
	int64_t key = stall_key(ev->pid, kind);
	bool fresh;
	struct stall_open *so = model_pidmap_get(&s->open, key, &fresh);
	int ret = 0;

	if (!fresh) {
		so->row.incomplete_reason = "second_begin_before_end";
		s->second_begin++;
		ret = emit(s, so);
	}
	calls_begin(s, ev->pid, kind, (int64_t)ev->ts_ns, !fresh);
	so->ks = *ks;
	if (so->ks.n > STALL_KS_NODES)
		so->ks.n = STALL_KS_NODES;
	for (int nid = 0; nid < so->ks.n; nid++)
		if (so->ks.unsettled & (1u << nid))
			watch_add(s, nid, key, (int64_t)ev->ts_ns);
	so->first_nid = MODEL_NULL;
	so->nids = NULL;
	so->nnids = so->anids = 0;
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
		.memcg_id = model_val(cx, ev, mev, MF_MEMCG_ID),
		.kswapd_state = "unknown",	/* set from ks at emission */
		.complete = false,
		.incomplete_reason = NULL,
		.nids = NULL,
	};
	so->lost_gen = cx->lost_gen;
	return ret;
}

/* Add @nid to @so's nodes (ascending, once). */
static void add_nid(struct stall_open *so, int nid)
{
	int i = 0;

	while (i < so->nnids && so->nids[i] < nid)
		i++;
	if (i < so->nnids && so->nids[i] == nid)
		return;
	if (so->nnids == so->anids) {
		so->anids = so->anids ? so->anids * 2 : 4;
		so->nids = vr_realloc(so->nids, (size_t)so->anids * sizeof(*so->nids));
	}
	memmove(so->nids + i + 1, so->nids + i, (size_t)(so->nnids - i) * sizeof(*so->nids));
	so->nids[i] = nid;
	so->nnids++;
	if (so->first_nid == MODEL_NULL)
		so->first_nid = nid;
}

void model_stall_node(struct stall_machine *s, int pid, int64_t nid)
{
	if (nid < 0 || nid >= MODEL_MAX_NODES)
		return;
	for (int kind = 0; kind < SK_COUNT; kind++) {
		struct stall_open *so = model_pidmap_find(&s->open, stall_key(pid, kind));

		if (so)
			add_nid(so, (int)nid);
	}
}

/* kswapd's state on @nid for @so, settled by an event at @ts. */
static void settle(struct stall_open *so, int nid, int64_t throttle_begin)
{
	if (throttle_begin != MODEL_NULL && so->row.begin_ns != MODEL_NULL &&
	    throttle_begin <= so->row.begin_ns)
		so->ks.state[nid] = "throttled";
	so->ks.unsettled &= ~(1u << nid);
}

int model_stall_kswapd(struct stall_machine *s, int nid, int64_t ts_ns, int64_t throttle_begin_ns)
{
	struct stall_node_watch *w;
	size_t keep = 0;
	int ret = 0;

	if (nid < 0 || nid >= STALL_KS_NODES)
		return 0;
	w = &s->watch[nid];
	for (size_t i = 0; i < w->n; i++) {
		struct stall_open *so = model_pidmap_find(&s->open, w->it[i].key);

		if (w->it[i].begin_ns >= ts_ns) {
			w->it[keep++] = w->it[i];	/* begun at this very event */
			continue;
		}
		if (so && so->row.begin_ns == w->it[i].begin_ns)
			settle(so, nid, throttle_begin_ns);
	}
	w->n = keep;
	for (size_t i = 0; i < s->nheld; ) {
		struct stall_open *so = &s->held[i];

		if (!(so->ks.unsettled & (1u << nid)) || so->row.begin_ns >= ts_ns) {
			i++;
			continue;
		}
		settle(so, nid, throttle_begin_ns);
		if (unsettled(so)) {
			i++;
			continue;
		}
		if (!ret)
			ret = emit_now(s, so);
		else
			free(so->nids);
		s->held[i] = s->held[--s->nheld];
	}
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
		struct stall_open o = { .row = {
			.kind = kind_name[kind], .pid = ev->pid, .comm = ev->comm, .nid = MODEL_NULL,
			.begin_ns = MODEL_NULL, .end_ns = (int64_t)ev->ts_ns,
			.duration_ns = MODEL_NULL, .order = MODEL_NULL, .gfp_flags = MODEL_NULL,
			.nr_reclaimed = model_val(cx, ev, mev, MF_NR_RECLAIMED),
			.memcg_id = model_val(cx, ev, mev, MF_MEMCG_ID),
			.kswapd_state = NULL, .complete = false,
			.incomplete_reason = "end_without_begin", .nids = NULL,
		}, .first_nid = MODEL_NULL };

		s->no_begin++;
		calls_end(s, ev->pid, kind, (int64_t)ev->ts_ns, true);
		return emit_now(s, &o);
	}
	calls_end(s, ev->pid, kind, (int64_t)ev->ts_ns, false);
	so->row.end_ns = (int64_t)ev->ts_ns;
	so->row.duration_ns = so->row.end_ns - so->row.begin_ns;
	so->row.nr_reclaimed = model_val(cx, ev, mev, MF_NR_RECLAIMED);
	if (so->row.memcg_id == MODEL_NULL)	/* the end's, if the begin had none */
		so->row.memcg_id = model_val(cx, ev, mev, MF_MEMCG_ID);
	so->row.complete = so->lost_gen == cx->lost_gen;
	if (!so->row.complete) {
		so->row.incomplete_reason = "lost_events";
		s->lost++;
	}
	ret = emit(s, so);
	model_pidmap_remove(&s->open, key);
	return ret;
}

/*
 * Emit every open stall as incomplete with @reason (counted in *@count)
 * and every held one, none waiting for a later kswapd event.  @gap: the
 * stall covers every later call of its task (it never ends).
 */
static int emit_open(struct stall_machine *s, const char *reason, uint64_t *count, bool gap)
{
	struct stall_open *so;
	size_t slot = 0;
	int64_t key;
	int ret = 0;

	while (!ret && (so = model_pidmap_next(&s->open, &slot, &key))) {
		if (gap)
			calls_of(s, (int)(key / SK_COUNT))->forever[key % SK_COUNT] = true;
		so->row.incomplete_reason = reason;
		(*count)++;
		so->ks.unsettled = 0;
		ret = emit_now(s, so);
	}
	for (size_t i = 0; !ret && i < s->nheld; i++) {
		s->held[i].ks.unsettled = 0;
		ret = emit_now(s, &s->held[i]);
	}
	return ret;
}

int model_stall_gap(struct stall_machine *s)
{
	/* no kswapd event across the gap counts */
	int ret = emit_open(s, "excerpt_gap", &s->gapped, true);

	model_pidmap_release(&s->open);	/* emit_now() freed their nodes */
	model_pidmap_init(&s->open, sizeof(struct stall_open));
	s->nheld = 0;
	for (int n = 0; s->watch && n < STALL_KS_NODES; n++)
		s->watch[n].n = 0;
	return ret;
}

int model_stall_finish(struct stall_machine *s)
{
	/* no later kswapd event: as it was */
	int ret = emit_open(s, "no_end_at_trace_end", &s->no_end, false);

	model_stall_release(s);
	return ret;
}
