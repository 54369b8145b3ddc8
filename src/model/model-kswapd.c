// SPDX-License-Identifier: GPL-2.0
/*
 * model-kswapd.c - kswapd cycles per node, their sleep decisions, and the
 * wakeup requests with the time each took to be served.
 *
 * Kernel facts (mm/vmscan.c kswapd() and kswapd_try_to_sleep(), unchanged
 * in logic 4.12-6.18, the nap from "vmscan: have kswapd sleep for a short
 * interval and double check it should be asleep", Mel Gorman):
 * - mm_vmscan_kswapd_wake is emitted before every balance_pgdat(); a cycle
 *   runs from one wake of a node to the next.
 * - After balance_pgdat(), kswapd queues itself on pgdat->kswapd_wait; if
 *   the node is balanced it naps schedule_timeout(HZ/10) (100 ms for HZ
 *   100/250/300/1000; a timer never fires early).  If the nap was not
 *   interrupted and the node is still balanced it emits
 *   mm_vmscan_kswapd_sleep and sleeps fully.  Otherwise the kernel counts
 *   KSWAPD_LOW_WMARK_HIT_QUICKLY (woken during the nap) or
 *   KSWAPD_HIGH_WMARK_HIT_QUICKLY (nap timed out unbalanced, or no nap).
 * - mm_vmscan_wakeup_kswapd fires only while kswapd is on its wait queue
 *   (wakeup_kswapd() returns early unless waitqueue_active()).
 * - Each sleep check is prepare_kswapd_sleep(); from 4.12 it clears the
 *   node's flags (clear_pgdat_congested()) when the node is balanced, and
 *   nothing else does (631b6e083ec3 "mm, vmscan: only clear pgdat
 *   congested/dirty/writeback state when balanced"): a nap, or a full
 *   sleep, means the flags were cleared at its start; no nap clears
 *   nothing.  The machine reports that time (struct kswapd_effect).
 *
 * Decision, with E = kswapd's last traced activity after the wake (or the
 * wake itself) and g = next wake - E:
 *   kswapd_sleep seen                          -> full_sleep (exact)
 *   sched_switch/sched_wakeup of the pid seen  -> exact: no switch-out in
 *       state S after E: nap_woken_early if a sched_wakeup of kswapd came
 *       after E (it was queued in TASK_INTERRUPTIBLE and, preempted there
 *       (prev_state R+), woken before schedule_timeout(), which then returns
 *       at once with time left), else no_nap; running again (switch-in, else wakeup)
 *       less than nap - 1 ms after switching out: nap_woken_early; else
 *       nap_timed_out.  schedule_timeout() returns the jiffies left when
 *       kswapd runs again, not when it was woken: a task woken at 97 ms that
 *       runs at 101 ms gets remaining == 0 and the kernel counts
 *       HIGH_WMARK_HIT_QUICKLY (seen in a real 6.18 recording).  The nap
 *       expires (N - f) jiffies after the switch-out (f: the elapsed part of
 *       the current jiffy, not traced), while the timer itself fires only
 *       after N jiffies (timer-wheel rounding up), so a timed-out nap always
 *       runs again >= 100 ms later; a woken kswapd that runs in the last
 *       f jiffy before 100 ms is the one case called early wrongly.
 *   otherwise request before E + nap           -> nap_woken_early (the
 *                 request proves kswapd was queued; even with g of 30-40 us
 *                 the kernel counted LOW_WMARK in the samples)
 *             g < 50 us                        -> no_nap
 *             g < nap                          -> nap_woken_early
 *             g <= nap + 30 ms (1 jiffy rounding + wake latency)
 *                                              -> nap_timed_out
 *             else (late, lost events, trace end) -> unknown
 */
#include "model-kswapd.h"
#include "vr.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define NO_NAP_MAX_NS 50000		/* B3: back-to-back wakes */
#define NAP_SLACK_NS 30000000		/* rounding (<= 1 jiffy at HZ 100, 8 ms
					 * at HZ 1000) + wake latency */
#define SCHED_NAP_SLACK_NS 1000000	/* sleep this soon after E: no nap (A') */
#define TASK_INTERRUPTIBLE 1		/* sched_switch prev_state "S" */
#define IDLE_NS 1000000			/* no kswapd event for 1 ms: not reclaiming */
#define JIFFY_MAX_NS 10000000		/* one jiffy at HZ 100, the longest */

/*
 * kswapd's state on one node.  The transitions, all of them (ks_enter()
 * refuses any other):
 *   UNSEEN -> AWAKE   kswapd_wake opens the first cycle; or kswapd's first
 *                     activity or kswapd_sleep comes before any wake (a
 *                     cycle with wake_ns NULL)
 *   AWAKE  -> AWAKE   kswapd_wake: the cycle closes and the next opens
 *   AWAKE  -> ASLEEP  kswapd_sleep (a second one in the cycle is counted
 *                     and changes nothing)
 *   ASLEEP -> AWAKE   kswapd_wake
 *   UNSEEN, AWAKE, ASLEEP -> DONE   trace end closes the open cycle
 *   AWAKE, ASLEEP -> UNSEEN   a gap of an excerpt closes it (what follows
 *                     is as after the trace start)
 * Activity keeps the state.  A nap is not a state of its own: it is
 * inferred inside AWAKE, from sched events or from the gap to the next
 * wake (classify()).  A cycle is open in AWAKE and ASLEEP only.
 */
enum ks_state { KS_UNSEEN, KS_AWAKE, KS_ASLEEP, KS_DONE, KS_COUNT };

static const bool ks_legal[KS_COUNT][KS_COUNT] = {
	[KS_UNSEEN] = { [KS_AWAKE] = true, [KS_DONE] = true },
	[KS_AWAKE] = { [KS_UNSEEN] = true, [KS_AWAKE] = true, [KS_ASLEEP] = true,
		       [KS_DONE] = true },
	[KS_ASLEEP] = { [KS_UNSEEN] = true, [KS_AWAKE] = true, [KS_DONE] = true },
};

/* Per-node kswapd state. */
struct kswapd_node {
	enum ks_state state;
	int64_t pid;			/* kswapd pid, MODEL_NULL if unknown */
	struct model_kswapd_cycle cur;	/* the open cycle */
	int64_t last_act;		/* E_i, or the wake if no activity */
	int64_t req_after_act;		/* first wakeup request after E_i */
	int64_t req_after_sleep;	/* first wakeup request after sleep */
	unsigned int lost_gen_wake, lost_gen_act;
	bool cut;			/* the open cycle ends at a gap */
	bool sched_seen;		/* sched events of the pid were seen */
	bool running;			/* switched in and not out (sched) */
	int64_t switch_out_s;		/* first switch-out in S after E_i */
	int64_t woken;			/* first sched wakeup after E_i */
	int64_t switched_in;		/* first switch-in after switch_out_s */
	struct model_wakeup *pend;	/* requests waiting for the next wake */
	size_t npend, apend;
	uint64_t sleep_twice;
};

/* What each state implies of the cycle (as SQLite's assert_pager_state()). */
static bool ks_state_ok(const struct kswapd_node *n)
{
	switch (n->state) {
	case KS_AWAKE:
		return n->cur.sleep_ns == MODEL_NULL;
	case KS_ASLEEP:
		return n->cur.sleep_ns != MODEL_NULL && !strcmp(n->cur.decision, "full_sleep");
	case KS_UNSEEN: case KS_DONE:
		return true;
	default:
		return false;
	}
}

static void ks_enter(struct kswapd_node *n, enum ks_state to)
{
	assert(ks_legal[n->state][to]);
	n->state = to;
	assert(ks_state_ok(n));
}

static bool ks_open(const struct kswapd_node *n)
{
	return n->state == KS_AWAKE || n->state == KS_ASLEEP;
}

static void no_effect(struct kswapd_effect *eff)
{
	*eff = (struct kswapd_effect){ .nid = -1, .pass_end = false, .balanced_ns = MODEL_NULL,
				       .balanced_after_ns = MODEL_NULL,
				       .balanced_by_ns = MODEL_NULL };
}

/* Node @nid's state, growing the array; NULL for an absurd nid. */
static struct kswapd_node *knode(struct kswapd_machine *k, int64_t nid)
{
	if (nid < 0 || nid >= MODEL_MAX_NODES)
		return NULL;
	if (nid >= k->nnodes) {
		int n = (int)nid + 1;

		k->kn = vr_realloc(k->kn, (size_t)n * sizeof(*k->kn));
		memset(k->kn + k->nnodes, 0, (size_t)(n - k->nnodes) * sizeof(*k->kn));
		for (int i = k->nnodes; i < n; i++) {
			k->kn[i].state = KS_UNSEEN;
			k->kn[i].pid = MODEL_NULL;
			k->kn[i].cur.nid = i;
		}
		k->nnodes = n;
	}
	return &k->kn[nid];
}

int model_kswapd_nid(const struct kswapd_machine *k, int pid)
{
	for (int i = 0; i < k->nnodes; i++)
		if (k->kn[i].pid == pid)
			return i;
	return -1;
}

void model_kswapd_init(struct kswapd_machine *k, const struct model_ctx *cx,
		       const struct model_config *cfg)
{
	memset(k, 0, sizeof(*k));
	k->cx = cx;
	k->premature_ns = cfg->premature_ns ? cfg->premature_ns : 100000000ULL;
	k->nap_ns = cfg->nap_ns ? cfg->nap_ns : 100000000ULL;
	k->has_sched = cfg->has_field &&
		       cfg->has_field(cfg->has_field_arg, "sched", "sched_switch", NULL);
	for (int nid = 0; cfg->kswapd_pid && nid < MODEL_MAX_NODES; nid++) {
		int pid = cfg->kswapd_pid(cfg->kswapd_pid_arg, nid);

		if (pid < 0) {
			if (nid >= 64)	/* node ids are dense in practice */
				break;
			continue;
		}
		if (model_kswapd_nid(k, pid) < 0)
			knode(k, nid)->pid = pid;
	}
}

void model_kswapd_release(struct kswapd_machine *k)
{
	for (int i = 0; i < k->nnodes; i++)
		free(k->kn[i].pend);
	free(k->kn);
	k->kn = NULL;
	k->nnodes = 0;
}

/*
 * kswapd's state at @now: asleep after kswapd_sleep; with sched events,
 * napping once switched out in S after its last activity; without them,
 * napping after a traced request (the tracepoint fires only with kswapd on
 * its wait queue) or more than IDLE_NS after its last activity.
 */
static const char *state_name(const struct kswapd_node *n, bool request, int64_t now)
{
	if (!n || !ks_open(n))
		return "unknown";
	if (n->state == KS_ASLEEP)
		return "asleep";
	if (n->sched_seen) {
		if (n->running)
			return "awake";
		return n->switch_out_s != MODEL_NULL ? "napping" : "awake";
	}
	/* the request tracepoint fires only with kswapd on its wait queue */
	if (request || n->req_after_act != MODEL_NULL)
		return "napping";
	return n->last_act != MODEL_NULL && now - n->last_act > IDLE_NS ? "napping" : "awake";
}

const char *model_kswapd_state(const struct kswapd_machine *k, int64_t nid, int64_t now)
{
	if (nid < 0 || nid >= k->nnodes)
		return "unknown";
	return state_name(&k->kn[nid], false, now);
}

static void open_cycle(struct kswapd_machine *k, struct kswapd_node *n, int64_t wake_ns)
{
	unsigned int lost_gen = k->cx->lost_gen;
	int nid = n->cur.nid;

	n->cur = (struct model_kswapd_cycle){
		.nid = nid, .pid = n->pid, .wake_ns = wake_ns,
		.order = MODEL_NULL, .highest_zoneidx = MODEL_NULL,
		.last_activity_ns = MODEL_NULL, .nap_ns = MODEL_NULL,
		.sleep_ns = MODEL_NULL, .next_wake_ns = MODEL_NULL,
		.decision = "unknown", .nr_scanned = 0, .nr_reclaimed = 0,
		.nap_margin_ns = MODEL_NULL,
	};
	n->last_act = wake_ns;
	n->req_after_act = MODEL_NULL;
	n->req_after_sleep = MODEL_NULL;
	n->switch_out_s = MODEL_NULL;
	n->woken = MODEL_NULL;
	n->switched_in = MODEL_NULL;
	n->lost_gen_wake = wake_ns == MODEL_NULL ? lost_gen - 1 : lost_gen;
	n->lost_gen_act = lost_gen;
	n->cut = false;
	ks_enter(n, KS_AWAKE);
}

/* Decide how the cycle ended (see the table at the top). */
static void classify(const struct kswapd_machine *k, struct kswapd_node *n, int64_t next)
{
	struct model_kswapd_cycle *c = &n->cur;
	int64_t e = n->last_act, g;

	c->decision_exact = false;
	if (c->sleep_ns != MODEL_NULL) {
		c->decision = "full_sleep";
		c->decision_exact = true;
		return;
	}
	c->decision = "unknown";
	if (next == MODEL_NULL || e == MODEL_NULL || n->lost_gen_act != k->cx->lost_gen)
		return;
	if (n->sched_seen && k->has_sched) {
		c->decision_exact = true;
		if (n->switch_out_s == MODEL_NULL) {
			c->decision = n->woken != MODEL_NULL ? "nap_woken_early" : "no_nap";
			return;
		}
		int64_t back = n->switched_in != MODEL_NULL ? n->switched_in : n->woken;

		if (back != MODEL_NULL) {
			int64_t margin = (int64_t)k->nap_ns - (back - n->switch_out_s);

			c->decision = margin > 0 ? "nap_woken_early" : "nap_timed_out";
			/* the nap expires N - f jiffies after the switch-out (f
			 * not traced): within the last jiffy a woken nap and a
			 * timed-out one look alike */
			if (margin > 0) {
				c->nap_margin_ns = margin;
				c->decision_exact = margin >= JIFFY_MAX_NS;
			}
			return;
		}
		c->decision_exact = false;	/* no wakeup event: infer */
	}
	g = next - e;
	if (n->req_after_act != MODEL_NULL && n->req_after_act < e + (int64_t)k->nap_ns)
		c->decision = "nap_woken_early";
	else if (g < NO_NAP_MAX_NS)
		c->decision = "no_nap";
	else if (g < (int64_t)k->nap_ns)
		c->decision = "nap_woken_early";
	else if (g <= (int64_t)k->nap_ns + NAP_SLACK_NS)
		c->decision = "nap_timed_out";
}

/* The bounds of the balanced sleep check (struct kswapd_effect). */
static void clear_bounds(const struct kswapd_node *n, struct kswapd_effect *eff)
{
	eff->balanced_after_ns = n->last_act;
	eff->balanced_by_ns = n->switch_out_s;
}

/* When did the balanced sleep check clear the flags, or MODEL_NULL. */
static int64_t clear_time(const struct kswapd_node *n)
{
	const struct model_kswapd_cycle *c = &n->cur;

	if (!strcmp(c->decision, "no_nap") || !strcmp(c->decision, "unknown"))
		return MODEL_NULL;
	if (n->switch_out_s != MODEL_NULL)
		return n->switch_out_s;
	if (c->sleep_ns != MODEL_NULL &&
	    (n->last_act == MODEL_NULL || c->sleep_ns - n->last_act < SCHED_NAP_SLACK_NS))
		return c->sleep_ns;	/* A': first check failed, second passed */
	return n->last_act;
}

/* Emit the open cycle, ending at @next; a cycle without a full sleep
 * reports its balanced check in @eff (a full sleep reported it already). */
static int close_cycle(struct kswapd_machine *k, struct kswapd_node *n, int64_t next,
		       struct kswapd_effect *eff)
{
	const struct model_ctx *cx = k->cx;
	struct model_kswapd_cycle *c = &n->cur;
	int ret;

	c->next_wake_ns = next;
	c->pid = n->pid;
	c->nap_ns = n->switch_out_s;
	if (strcmp(c->decision, "full_sleep"))	/* full sleeps were decided at sleep */
		classify(k, n, next);
	c->premature = c->sleep_ns != MODEL_NULL && n->req_after_sleep != MODEL_NULL &&
		       n->req_after_sleep - c->sleep_ns <= (int64_t)k->premature_ns;
	c->complete = c->wake_ns != MODEL_NULL && next != MODEL_NULL &&
		      n->lost_gen_wake == cx->lost_gen;
	if (!strcmp(c->decision, "unknown"))
		k->cycles_unknown++;
	c->incomplete_reason = NULL;
	if (c->wake_ns == MODEL_NULL)
		c->incomplete_reason = "wake_not_seen";
	else if (n->cut)
		c->incomplete_reason = "excerpt_gap";
	else if (next == MODEL_NULL)
		c->incomplete_reason = "no_next_wake";
	else if (!c->complete)
		c->incomplete_reason = "lost_events";
	if (!c->complete)
		k->cycles_incomplete++;
	ret = cx->sink.kswapd_cycle ? cx->sink.kswapd_cycle(cx->sink.arg, c) : 0;
	if (c->sleep_ns == MODEL_NULL) {
		eff->balanced_ns = clear_time(n);
		clear_bounds(n, eff);
	}
	return ret;
}

static int flush_requests(struct kswapd_machine *k, struct kswapd_node *n, int64_t served)
{
	const struct model_ctx *cx = k->cx;
	int ret = 0;

	for (size_t i = 0; !ret && i < n->npend; i++) {
		struct model_wakeup *w = &n->pend[i];

		w->served_ns = served;
		w->delay_ns = served == MODEL_NULL ? MODEL_NULL : served - w->ts_ns;
		ret = cx->sink.wakeup ? cx->sink.wakeup(cx->sink.arg, w) : 0;
	}
	n->npend = 0;
	return ret;
}

int model_kswapd_wake(struct kswapd_machine *k, const struct ingest_event *ev, int mev,
		      struct kswapd_effect *eff)
{
	int64_t nid = model_val(k->cx, ev, mev, MF_NID), ts = (int64_t)ev->ts_ns;
	struct kswapd_node *n = knode(k, nid);
	int ret = 0;

	no_effect(eff);
	if (!n)
		return 0;
	k->n_wake++;
	n->pid = ev->pid;
	eff->nid = (int)nid;
	eff->pass_end = true;
	if (ks_open(n))
		ret = close_cycle(k, n, ts, eff);
	if (!ret)
		ret = flush_requests(k, n, ts);
	open_cycle(k, n, ts);
	n->cur.comm = ev->comm;
	n->cur.order = model_val(k->cx, ev, mev, MF_ORDER);
	n->cur.highest_zoneidx = model_val(k->cx, ev, mev, MF_ZID);
	n->running = true;
	return ret;
}

int model_kswapd_sleep(struct kswapd_machine *k, const struct ingest_event *ev, int mev,
		       struct kswapd_effect *eff)
{
	int64_t nid = model_val(k->cx, ev, mev, MF_NID), ts = (int64_t)ev->ts_ns;
	struct kswapd_node *n = knode(k, nid);

	no_effect(eff);
	if (!n)
		return 0;
	if (n->pid == MODEL_NULL)
		n->pid = ev->pid;
	if (!ks_open(n))
		open_cycle(k, n, MODEL_NULL);	/* activity before the first wake */
	if (!n->cur.comm)
		n->cur.comm = ev->comm;
	eff->nid = (int)nid;
	eff->pass_end = true;
	if (n->state == KS_ASLEEP) {
		n->sleep_twice++;
		k->sleep_no_wake++;
		return 0;
	}
	n->cur.sleep_ns = ts;
	n->cur.decision = "full_sleep";
	n->cur.decision_exact = true;
	n->req_after_sleep = MODEL_NULL;
	ks_enter(n, KS_ASLEEP);
	/* both sleep checks passed: the flags are clear by now (4.12+) */
	eff->balanced_ns = clear_time(n);
	clear_bounds(n, eff);
	return 0;
}

int model_kswapd_request(struct kswapd_machine *k, const struct ingest_event *ev, int mev)
{
	const struct model_ctx *cx = k->cx;
	int64_t nid = model_val(cx, ev, mev, MF_NID), ts = (int64_t)ev->ts_ns;
	struct kswapd_node *n = knode(k, nid);
	struct model_wakeup *w;

	if (!n)
		return 0;
	if (n->npend == n->apend) {
		n->apend = n->apend ? n->apend * 2 : 16;
		n->pend = vr_realloc(n->pend, n->apend * sizeof(*n->pend));
	}
	w = &n->pend[n->npend++];
	*w = (struct model_wakeup){
		.ts_ns = ts, .pid = ev->pid, .comm = ev->comm, .nid = (int)nid,
		.zid = model_val(cx, ev, mev, MF_ZID),
		.order = model_val(cx, ev, mev, MF_ORDER),
		.gfp_flags = model_val(cx, ev, mev, MF_GFP_FLAGS),
		.kswapd_state = state_name(n, true, ts),
		.served_ns = MODEL_NULL, .delay_ns = MODEL_NULL,
	};
	if (ks_open(n) && n->req_after_act == MODEL_NULL)
		n->req_after_act = ts;
	if (n->state == KS_ASLEEP && n->req_after_sleep == MODEL_NULL)
		n->req_after_sleep = ts;
	return 0;
}

int model_kswapd_activity(struct kswapd_machine *k, int nid, const struct ingest_event *ev,
			  int mev)
{
	struct kswapd_node *n = &k->kn[nid];
	int64_t v;

	if (!ks_open(n))
		open_cycle(k, n, MODEL_NULL);
	if (!n->cur.comm && n->cur.pid == ev->pid)
		n->cur.comm = ev->comm;
	n->cur.last_activity_ns = (int64_t)ev->ts_ns;
	n->last_act = (int64_t)ev->ts_ns;
	n->lost_gen_act = k->cx->lost_gen;
	n->req_after_act = MODEL_NULL;
	n->switch_out_s = MODEL_NULL;
	n->woken = MODEL_NULL;
	n->switched_in = MODEL_NULL;
	if (mev == MEV_SHRINK_INACTIVE) {
		/* a multi-gen LRU retry pass repeats nr_scanned (model.c lru_note()) */
		if (model_val(k->cx, ev, mev, MF_MGLRU_RETRY) != 1 &&
		    model_get(k->cx, ev, mev, MF_NR_SCANNED, &v))
			n->cur.nr_scanned += v;
		if (model_get(k->cx, ev, mev, MF_NR_RECLAIMED, &v))
			n->cur.nr_reclaimed += v;
	}
	return 0;
}

/* "kswapd12" -> 12; -1 if @comm is not a kswapd thread name. */
static int kswapd_comm_nid(const char *comm)
{
	char *end;
	long nid;

	if (!comm || strncmp(comm, "kswapd", 6) || comm[6] < '0' || comm[6] > '9')
		return -1;
	nid = strtol(comm + 6, &end, 10);
	return *end || nid > 1023 ? -1 : (int)nid;
}

/* Learn a kswapd pid from its comm before its first kswapd event. */
static void learn_pid(struct kswapd_machine *k, int64_t pid, const char *comm)
{
	int nid = kswapd_comm_nid(comm);
	struct kswapd_node *n;

	if (nid < 0 || pid == MODEL_NULL || model_kswapd_nid(k, (int)pid) >= 0)
		return;
	n = knode(k, nid);
	if (n && n->pid == MODEL_NULL)
		n->pid = pid;
}

int model_kswapd_learn(struct kswapd_machine *k, int pid, const char *comm)
{
	if (comm)
		learn_pid(k, pid, comm);
	return model_kswapd_nid(k, pid);
}

/* sched_switch of @n's kswapd: switched out (@in false) or in at @ts. */
static void switched(const struct kswapd_machine *k, struct kswapd_node *n,
		     const struct ingest_event *ev, int mev, bool in, int64_t ts)
{
	int64_t state;

	n->sched_seen = true;
	n->running = in;
	if (in) {
		if (n->switch_out_s != MODEL_NULL && n->switched_in == MODEL_NULL)
			n->switched_in = ts;
		return;
	}
	state = model_val(k->cx, ev, mev, MF_PREV_STATE);
	/* S is 1 in every version; preemption adds a bit above 0xff */
	if (state != MODEL_NULL && (state & 0xff) == TASK_INTERRUPTIBLE &&
	    !(state & ~0xffLL) && ks_open(n) && n->switch_out_s == MODEL_NULL)
		n->switch_out_s = ts;
}

int model_kswapd_sched(struct kswapd_machine *k, const struct ingest_event *ev, int mev)
{
	const struct model_ctx *cx = k->cx;
	int64_t ts = (int64_t)ev->ts_ns, prev, next, pid;
	int nid;

	if (mev == MEV_SCHED_WAKEUP) {
		pid = model_val(cx, ev, mev, MF_PID);
		if (pid == MODEL_NULL || (nid = model_kswapd_nid(k, (int)pid)) < 0)
			return 0;
		/* traced only if kswapd was in TASK_INTERRUPTIBLE: on its wait
		 * queue, since the last activity reset `woken` */
		k->kn[nid].sched_seen = true;
		if (ks_open(&k->kn[nid]) && k->kn[nid].woken == MODEL_NULL)
			k->kn[nid].woken = ts;
		return 0;
	}
	prev = model_val(cx, ev, mev, MF_PREV_PID);
	next = model_val(cx, ev, mev, MF_NEXT_PID);
	learn_pid(k, prev, model_str(cx, ev, mev, MF_PREV_COMM));
	learn_pid(k, next, model_str(cx, ev, mev, MF_NEXT_COMM));
	if (prev != MODEL_NULL && (nid = model_kswapd_nid(k, (int)prev)) >= 0)
		switched(k, &k->kn[nid], ev, mev, false, ts);
	if (next != MODEL_NULL && (nid = model_kswapd_nid(k, (int)next)) >= 0)
		switched(k, &k->kn[nid], ev, mev, true, ts);
	return 0;
}

int model_kswapd_gap_node(struct kswapd_machine *k, int nid, struct kswapd_effect *eff)
{
	struct kswapd_node *n = &k->kn[nid];
	int ret;

	no_effect(eff);
	eff->nid = nid;
	if (!ks_open(n))
		return 0;
	n->cut = true;
	ret = close_cycle(k, n, MODEL_NULL, eff) ?: flush_requests(k, n, MODEL_NULL);
	ks_enter(n, KS_UNSEEN);
	return ret;
}

int model_kswapd_finish_node(struct kswapd_machine *k, int nid, struct kswapd_effect *eff)
{
	struct kswapd_node *n = &k->kn[nid];
	int ret = 0;

	no_effect(eff);
	eff->nid = nid;
	if (ks_open(n))
		ret = close_cycle(k, n, MODEL_NULL, eff);
	if (!ret)
		ret = flush_requests(k, n, MODEL_NULL);
	ks_enter(n, KS_DONE);
	return ret;
}
