// SPDX-License-Identifier: GPL-2.0
/*
 * model-kswapd.c - kswapd cycles per node, their sleep decisions, and the
 * wakeup requests with the time each took to be served.
 *
 * Kernel facts (mm/vmscan.c kswapd() and kswapd_try_to_sleep(), unchanged
 * in logic 4.12-6.18; kernel-vmscan.md 4.1-4.3):
 * - mm_vmscan_kswapd_wake is emitted before every balance_pgdat(); a cycle
 *   runs from one wake of a node to the next.
 * - After balance_pgdat(), kswapd queues itself on pgdat->kswapd_wait; if
 *   the node is balanced it naps schedule_timeout(HZ/10) (100 ms for HZ
 *   100/250/300/1000; a timer never fires early).  If the nap was not
 *   interrupted and the node is still balanced it emits
 *   mm_vmscan_kswapd_sleep and sleeps fully.  Otherwise the kernel counts
 *   KSWAPD_LOW_WMARK_HIT_QUICKLY (woken during the nap) or
 *   KSWAPD_HIGH_WMARK_HIT_QUICKLY (nap timed out unbalanced, or no nap).
 * - mm_vmscan_wakeup_kswapd fires only while kswapd is on its wait queue.
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
#include "model-priv.h"
#include "vr.h"

#include <stdlib.h>
#include <string.h>

#define NO_NAP_MAX_NS 50000		/* B3: back-to-back wakes */
#define NAP_SLACK_NS 30000000		/* rounding (<= 1 jiffy at HZ 100, 8 ms
					 * at HZ 1000) + wake latency */
#define SCHED_NAP_SLACK_NS 1000000	/* sleep this soon after E: no nap (A') */
#define TASK_INTERRUPTIBLE 1		/* sched_switch prev_state "S" */
#define IDLE_NS 1000000			/* no kswapd event for 1 ms: not reclaiming */

/*
 * kswapd's state at @now: asleep after kswapd_sleep; with sched events,
 * napping once switched out in S after its last activity; without them,
 * napping after a traced request (the tracepoint fires only with kswapd on
 * its wait queue) or more than IDLE_NS after its last activity.
 */
static const char *state_name(struct model *m, struct kswapd_node *n, bool request, int64_t now)
{
	(void)m;
	if (!n || !n->seen)
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

const char *model_kswapd_state(struct model *m, int64_t nid, int64_t now)
{
	if (nid < 0 || nid >= m->nnodes)
		return "unknown";
	return state_name(m, &m->kn[nid], false, now);
}

static void open_cycle(struct model *m, struct kswapd_node *n, int64_t wake_ns)
{
	int nid = n->cur.nid;

	n->cur = (struct model_kswapd_cycle){
		.nid = nid, .pid = n->pid, .wake_ns = wake_ns,
		.order = MODEL_NULL, .highest_zoneidx = MODEL_NULL,
		.last_activity_ns = MODEL_NULL, .nap_ns = MODEL_NULL,
		.sleep_ns = MODEL_NULL, .next_wake_ns = MODEL_NULL,
		.decision = "unknown", .nr_scanned = 0, .nr_reclaimed = 0,
	};
	n->open = true;
	n->seen = true;
	n->last_act = wake_ns;
	n->req_after_act = MODEL_NULL;
	n->req_after_sleep = MODEL_NULL;
	n->switch_out_s = MODEL_NULL;
	n->woken = MODEL_NULL;
	n->switched_in = MODEL_NULL;
	n->lost_gen_wake = wake_ns == MODEL_NULL ? m->lost_gen - 1 : m->lost_gen;
	n->lost_gen_act = m->lost_gen;
	n->state = KS_AWAKE;
}

/* Decide how the cycle ended (see the table at the top). */
static void classify(struct model *m, struct kswapd_node *n, int64_t next)
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
	if (next == MODEL_NULL || e == MODEL_NULL || n->lost_gen_act != m->lost_gen)
		return;
	if (n->sched_seen && m->has_sched) {
		c->decision_exact = true;
		if (n->switch_out_s == MODEL_NULL) {
			c->decision = n->woken != MODEL_NULL ? "nap_woken_early" : "no_nap";
			return;
		}
		int64_t back = n->switched_in != MODEL_NULL ? n->switched_in : n->woken;

		if (back != MODEL_NULL) {
			c->decision = back - n->switch_out_s < (int64_t)m->nap_ns ?
				      "nap_woken_early" : "nap_timed_out";
			return;
		}
		c->decision_exact = false;	/* no wakeup event: infer */
	}
	g = next - e;
	if (n->req_after_act != MODEL_NULL && n->req_after_act < e + (int64_t)m->nap_ns)
		c->decision = "nap_woken_early";
	else if (g < NO_NAP_MAX_NS)
		c->decision = "no_nap";
	else if (g < (int64_t)m->nap_ns)
		c->decision = "nap_woken_early";
	else if (g <= (int64_t)m->nap_ns + NAP_SLACK_NS)
		c->decision = "nap_timed_out";
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

static int close_cycle(struct model *m, struct kswapd_node *n, int64_t next)
{
	struct model_kswapd_cycle *c = &n->cur;
	int64_t clr;
	int ret;

	c->next_wake_ns = next;
	c->pid = n->pid;
	c->nap_ns = n->switch_out_s;
	if (strcmp(c->decision, "full_sleep"))	/* full sleeps were decided at sleep */
		classify(m, n, next);
	c->premature = c->sleep_ns != MODEL_NULL && n->req_after_sleep != MODEL_NULL &&
		       n->req_after_sleep - c->sleep_ns <= (int64_t)m->premature_ns;
	c->complete = c->wake_ns != MODEL_NULL && next != MODEL_NULL &&
		      n->lost_gen_wake == m->lost_gen;
	if (!strcmp(c->decision, "unknown"))
		m->cycles_unknown++;
	if (!c->complete)
		m->cycles_incomplete++;
	ret = m->sink.kswapd_cycle ? m->sink.kswapd_cycle(m->sink.arg, c) : 0;
	if (!ret && c->sleep_ns == MODEL_NULL && (clr = clear_time(n)) != MODEL_NULL)
		ret = model_flags_clear(m, c->nid, clr);
	n->open = false;
	return ret;
}

static int flush_requests(struct model *m, struct kswapd_node *n, int64_t served)
{
	int ret = 0;

	for (size_t i = 0; !ret && i < n->npend; i++) {
		struct model_wakeup *w = &n->pend[i];

		w->served_ns = served;
		w->delay_ns = served == MODEL_NULL ? MODEL_NULL : served - w->ts_ns;
		ret = m->sink.wakeup ? m->sink.wakeup(m->sink.arg, w) : 0;
	}
	n->npend = 0;
	return ret;
}

int model_kswapd_wake(struct model *m, const struct ingest_event *ev, int mev)
{
	int64_t nid = model_val(m, ev, mev, MF_NID), ts = (int64_t)ev->ts_ns;
	struct kswapd_node *n = model_node(m, nid);
	int ret;

	if (!n)
		return 0;
	m->n_kswapd_wake++;
	n->pid = ev->pid;
	ret = model_flags_boundary(m, (int)nid);
	if (!ret && n->open)
		ret = close_cycle(m, n, ts);
	if (!ret)
		ret = flush_requests(m, n, ts);
	open_cycle(m, n, ts);
	n->cur.order = model_val(m, ev, mev, MF_ORDER);
	n->cur.highest_zoneidx = model_val(m, ev, mev, MF_ZID);
	n->running = true;
	return ret;
}

int model_kswapd_sleep(struct model *m, const struct ingest_event *ev, int mev)
{
	int64_t nid = model_val(m, ev, mev, MF_NID), ts = (int64_t)ev->ts_ns, clr;
	struct kswapd_node *n = model_node(m, nid);
	int ret;

	if (!n)
		return 0;
	if (n->pid == MODEL_NULL)
		n->pid = ev->pid;
	if (!n->open)
		open_cycle(m, n, MODEL_NULL);	/* activity before the first wake */
	ret = model_flags_boundary(m, (int)nid);
	if (n->cur.sleep_ns != MODEL_NULL) {
		n->sleep_twice++;
		m->kswapd_sleep_no_wake++;
		return ret;
	}
	n->cur.sleep_ns = ts;
	n->cur.decision = "full_sleep";
	n->cur.decision_exact = true;
	n->state = KS_ASLEEP;
	n->req_after_sleep = MODEL_NULL;
	/* both sleep checks passed: the flags are clear by now (4.12+) */
	if (!ret && (clr = clear_time(n)) != MODEL_NULL)
		ret = model_flags_clear(m, (int)nid, clr);
	return ret;
}

int model_kswapd_request(struct model *m, const struct ingest_event *ev, int mev)
{
	int64_t nid = model_val(m, ev, mev, MF_NID), ts = (int64_t)ev->ts_ns;
	struct kswapd_node *n = model_node(m, nid);
	struct model_wakeup *w;

	if (!n)
		return 0;
	if (n->npend == n->apend) {
		n->apend = n->apend ? n->apend * 2 : 16;
		n->pend = vr_realloc(n->pend, n->apend * sizeof(*n->pend));
	}
	w = &n->pend[n->npend++];
	*w = (struct model_wakeup){
		.ts_ns = ts, .pid = ev->pid, .nid = (int)nid,
		.zid = model_val(m, ev, mev, MF_ZID),
		.order = model_val(m, ev, mev, MF_ORDER),
		.gfp_flags = model_val(m, ev, mev, MF_GFP_FLAGS),
		.kswapd_state = state_name(m, n, true, ts),
		.served_ns = MODEL_NULL, .delay_ns = MODEL_NULL,
	};
	if (n->open && n->req_after_act == MODEL_NULL)
		n->req_after_act = ts;
	if (n->open && n->cur.sleep_ns != MODEL_NULL && n->req_after_sleep == MODEL_NULL)
		n->req_after_sleep = ts;
	return 0;
}

int model_kswapd_activity(struct model *m, int nid, const struct ingest_event *ev, int mev)
{
	struct kswapd_node *n = &m->kn[nid];
	int64_t v;

	if (!n->open)
		open_cycle(m, n, MODEL_NULL);
	n->cur.last_activity_ns = (int64_t)ev->ts_ns;
	n->last_act = (int64_t)ev->ts_ns;
	n->lost_gen_act = m->lost_gen;
	n->req_after_act = MODEL_NULL;
	n->switch_out_s = MODEL_NULL;
	n->woken = MODEL_NULL;
	n->switched_in = MODEL_NULL;
	if (n->state != KS_ASLEEP)
		n->state = KS_AWAKE;
	if (mev == MEV_SHRINK_INACTIVE) {
		if (model_get(m, ev, mev, MF_NR_SCANNED, &v))
			n->cur.nr_scanned += v;
		if (model_get(m, ev, mev, MF_NR_RECLAIMED, &v))
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
static void learn_pid(struct model *m, int64_t pid, const char *comm)
{
	int nid = kswapd_comm_nid(comm);
	struct kswapd_node *n;

	if (nid < 0 || pid == MODEL_NULL || model_kswapd_nid(m, (int)pid) >= 0)
		return;
	n = model_node(m, nid);
	if (n && n->pid == MODEL_NULL)
		n->pid = pid;
}

int model_kswapd_sched(struct model *m, const struct ingest_event *ev, int mev)
{
	int64_t ts = (int64_t)ev->ts_ns, prev, next, state, pid;
	int nid;

	if (mev == MEV_SCHED_WAKEUP) {
		pid = model_val(m, ev, mev, MF_PID);
		if (pid == MODEL_NULL || (nid = model_kswapd_nid(m, (int)pid)) < 0)
			return 0;
		/* traced only if kswapd was in TASK_INTERRUPTIBLE: on its wait
		 * queue, since the last activity reset `woken` */
		m->kn[nid].sched_seen = true;
		if (m->kn[nid].open && m->kn[nid].woken == MODEL_NULL)
			m->kn[nid].woken = ts;
		return 0;
	}
	prev = model_val(m, ev, mev, MF_PREV_PID);
	next = model_val(m, ev, mev, MF_NEXT_PID);
	learn_pid(m, prev, model_str(m, ev, mev, MF_PREV_COMM));
	learn_pid(m, next, model_str(m, ev, mev, MF_NEXT_COMM));
	if (prev != MODEL_NULL && (nid = model_kswapd_nid(m, (int)prev)) >= 0) {
		struct kswapd_node *n = &m->kn[nid];

		n->sched_seen = true;
		n->running = false;
		state = model_val(m, ev, mev, MF_PREV_STATE);
		/* S is 1 in every version; preemption adds a bit above 0xff */
		if (state != MODEL_NULL && (state & 0xff) == TASK_INTERRUPTIBLE &&
		    !(state & ~0xffLL) && n->open && n->switch_out_s == MODEL_NULL)
			n->switch_out_s = ts;
	}
	if (next != MODEL_NULL && (nid = model_kswapd_nid(m, (int)next)) >= 0) {
		struct kswapd_node *n = &m->kn[nid];

		n->sched_seen = true;
		n->running = true;
		if (n->switch_out_s != MODEL_NULL && n->switched_in == MODEL_NULL)
			n->switched_in = ts;
	}
	return 0;
}

int model_kswapd_finish(struct model *m)
{
	int ret = 0;

	for (int i = 0; !ret && i < m->nnodes; i++) {
		struct kswapd_node *n = &m->kn[i];

		if (n->open)
			ret = close_cycle(m, n, MODEL_NULL);
		if (!ret)
			ret = flush_requests(m, n, MODEL_NULL);
	}
	return ret;
}

void model_kswapd_release(struct model *m)
{
	for (int i = 0; i < m->nnodes; i++)
		free(m->kn[i].pend);
}
