/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - streaming state machines that rebuild what reclaim did from the
 * event stream of one run: reclaim stalls, kswapd cycles and their sleep
 * decisions, wakeup requests, pgdat flag intervals, throttling, slab
 * shrinking and writes from reclaim.  Events must be fed in timestamp order
 * (ingest merges the CPUs).  The model never touches SQL: finished rows go
 * to a struct model_sink (the load module wires it to store-derived.c; unit
 * tests capture rows in memory).  Per-event work is O(1) and allocation free
 * except for amortised growth of the per-pid and per-node tables.
 *
 * The rules are stated, with their kernel sources (mm/vmscan.c functions,
 * releases, commits), at the top of each src/model-*.c, and for users in
 * README.md "How reclaim is reconstructed" and "Kernel rules by version".
 */
#ifndef VR_MODEL_H
#define VR_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include "ingest.h"

/* Value of an optional int64 row field that is unknown (stored as NULL). */
#define MODEL_NULL INT64_MIN

/* One reclaim episode of one task (reclaim_stall table). */
struct model_stall {
	const char *kind;	/* "direct", "memcg", "memcg_softlimit", "node" */
	int pid;
	const char *comm;	/* the task's comm at the begin (the end without one) (ingest_event.comm,
				 * borrowed from the reader), or NULL */
	int64_t nid;		/* node_reclaim only, else MODEL_NULL */
	int64_t begin_ns, end_ns, duration_ns;	/* MODEL_NULL when unseen */
	int64_t order, gfp_flags, nr_reclaimed;	/* MODEL_NULL when unseen */
	int64_t memcg_id;	/* the cgroup reclaimed (7.1+ memcg_id of the
				 * begin, else of the end: 874a0a566ede "mm:
				 * vmscan: add cgroup IDs to vmscan tracepoints";
				 * the kernel gives 0 where no cgroup is meant),
				 * MODEL_NULL before 7.1 */
	const char *kswapd_state;	/* kswapd's state at begin on the
					 * stall's first node (node reclaim: its
					 * node; else the first of @nids; node 0
					 * when it has none): asleep, napping,
					 * awake, throttled (in reclaim_throttle()
					 * WRITEBACK inside balance_pgdat()),
					 * unknown */
	bool complete;
	const char *incomplete_reason;	/* NULL when complete */
	const char *nids;	/* the nodes it reclaimed from (the nid of its
				 * task's lru_shrink_inactive/_active events
				 * while open), ascending, comma-separated
				 * ("0,1"); NULL when none was traced */
};

/* One kswapd cycle: from one kswapd_wake of a node to the next. */
struct model_kswapd_cycle {
	int nid;
	int64_t pid;		/* kswapd pid, MODEL_NULL if never seen */
	const char *comm;	/* the task's comm at the wake (its first event without one) (ingest_event.comm,
				 * borrowed from the reader), or NULL */
	int64_t wake_ns;	/* MODEL_NULL: activity before the first wake */
	int64_t order, highest_zoneidx;		/* of the kswapd_wake */
	int64_t last_activity_ns;	/* last event of kswapd before the sleep
					 * decision (E_i), MODEL_NULL if none */
	int64_t nap_ns;		/* nap (or full sleep) start from sched_switch */
	int64_t sleep_ns;	/* kswapd_sleep, MODEL_NULL if no full sleep */
	int64_t next_wake_ns;	/* MODEL_NULL at trace end */
	const char *decision;	/* full_sleep, nap_woken_early,
				 * nap_timed_out, no_nap, unknown */
	bool decision_exact;	/* decided from sched_switch/sched_wakeup */
	int64_t nap_margin_ns;	/* a nap_woken_early decided from sched
				 * events: the nap's timeout less the time
				 * kswapd was off the CPU (ns before the
				 * timeout), else MODEL_NULL; under one jiffy
				 * (10 ms, HZ >= 100) the trace cannot tell it
				 * from a timeout: decision_exact is then 0 */
	bool premature;		/* full sleep, then a wakeup request for the
				 * node within the premature threshold */
	int64_t nr_scanned, nr_reclaimed;	/* kswapd's lru_shrink_inactive sums */
	bool complete;		/* both ends seen, no lost events inside */
	const char *incomplete_reason;	/* NULL when complete: wake_not_seen,
					 * no_next_wake, excerpt_gap, lost_events */
};

/* One mm_vmscan_wakeup_kswapd request (kswapd_wakeup table). */
struct model_wakeup {
	int64_t ts_ns;
	int pid, nid;
	const char *comm;	/* the task's comm at the request (ingest_event.comm,
				 * borrowed from the reader), or NULL */
	int64_t zid, order, gfp_flags;	/* MODEL_NULL when not in the format */
	const char *kswapd_state;	/* asleep, napping, awake, unknown */
	int64_t served_ns, delay_ns;	/* next kswapd_wake of the node */
};

/* One interval during which a pgdat/lruvec flag was (inferred to be) set. */
struct model_flag {
	int nid;
	const char *flag;	/* PGDAT_WRITEBACK, PGDAT_DIRTY, PGDAT_CONGESTED,
				 * LRUVEC_CONGESTED, LRUVEC_NODE_CONGESTED */
	int64_t set_ns, clear_ns;	/* clear MODEL_NULL: still set at end */
	const char *rule;	/* rule set, e.g. "4.17-5.4 per-pass" */
	const char *evidence;	/* counters or witness event (borrowed) */
	bool inferred;		/* 0 only for a directly traced flag */
	const char *proof;	/* NULL: as inferred; "extended", "cut" or
				 * "extended and cut": changed to agree with
				 * what the trace proves (static) */
	/*
	 * Where the kernel's set and clear lie, as its code orders them
	 * (src/model/model-flags.c): set_ns and clear_ns are the model's points
	 * within.  set_earliest_ns MODEL_NULL: a witness or proof shows the
	 * flag set by set_latest_ns, not since when; clear bounds MODEL_NULL
	 * while still set at the end, clear_latest_ns also when the trace
	 * ended before the point was known.
	 */
	int64_t set_earliest_ns, set_latest_ns, clear_earliest_ns, clear_latest_ns;
};

/* One throttle or congestion wait (reclaim_throttle table). */
struct model_throttle {
	const char *kind;	/* throttled, congestion_wait, wait_iff_congested */
	int pid;
	const char *comm;	/* the task's comm at the event (ingest_event.comm,
				 * borrowed from the reader), or NULL */
	int64_t nid;		/* MODEL_NULL for the writeback events */
	const char *reason;	/* WRITEBACK, ISOLATED, NOPROGRESS, CONGESTED
				 * (names joined by '|'), or NULL */
	int64_t begin_ns, end_ns;	/* begin = end - usec_delayed */
	int64_t usec_timeout, usec_delayed;
};

/*
 * A do_shrink_slab() call whose mm_shrink_slab_end was not traced (trace
 * end, or a second start on the task first): the rows of the
 * slab_shrink_stored table.  A call that has an end is not a row: the
 * model writes its pairing into the end event itself (model_event()).
 */
struct model_slab {
	int pid;
	const char *comm;	/* the task's comm at the start (ingest_event.comm,
				 * borrowed from the reader), or NULL */
	int64_t nid;
	const char *shrinker;	/* symbol of the shrinker's scan function */
	int64_t begin_ns, end_ns, duration_ns;
	int64_t nr_objects_to_shrink, total_scan, retval;
	bool complete;
};

/* One page written by reclaim (reclaim_write table). */
struct model_write {
	int64_t ts_ns;
	int pid;
	const char *comm;	/* the task's comm at the write (ingest_event.comm,
				 * borrowed from the reader), or NULL */
	bool by_kswapd;
	int64_t pfn;
	bool file;		/* RECLAIM_WB_FILE, else anon (swap) */
	bool sync;		/* RECLAIM_WB_SYNC */
};

/*
 * One hopeless episode of a node's kswapd (kswapd_hopeless table): from the
 * mm_vmscan_kswapd_reclaim_fail whose failures reached MAX_RECLAIM_RETRIES
 * (16: kswapd_test_hopeless() is then true and wakeup_kswapd() leaves the
 * node to direct reclaim) to the mm_vmscan_kswapd_clear_hopeless that reset
 * the count (src/model/model-hopeless.c).
 */
struct model_hopeless {
	int nid;
	int64_t start_ns;	/* the reclaim_fail at 16; MODEL_NULL: hopeless
				 * before the trace (or a loss) showed it */
	int64_t first_fail_ns;	/* first reclaim_fail of the episode traced */
	int64_t last_fail_ns;	/* and its last (the episode's end is after it) */
	int64_t end_ns;		/* the clear; MODEL_NULL: still hopeless at the
				 * trace's end, or the clear was not traced */
	int64_t failures;	/* the last failures count traced in it */
	int64_t fail_events;	/* reclaim_fail events in it */
	int64_t reset_reason;	/* enum kswapd_clear_hopeless_reason, MODEL_NULL */
	const char *reset_reason_name;	/* KSWAPD, DIRECT, PCP, OTHER, or NULL */
	int64_t reset_pid;	/* the task that cleared it, MODEL_NULL */
	const char *reset_comm;	/* its comm (borrowed), or NULL */
	bool complete;		/* start and end traced, nothing lost between */
	const char *incomplete_reason;	/* NULL when complete, else every one of
					 * (comma-separated) start_not_traced,
					 * lost_events or excerpt_gap, still_hopeless
					 * or clear_not_traced */
};

/*
 * Where finished rows go.  Every callback returns 0, or non-zero to stop
 * (the value is passed back by model_event()/model_finish()).  A NULL
 * callback drops that kind of row.  Row pointers and their strings are
 * valid only during the call.
 */
struct model_sink {
	int (*stall)(void *arg, const struct model_stall *r);
	int (*kswapd_cycle)(void *arg, const struct model_kswapd_cycle *r);
	int (*wakeup)(void *arg, const struct model_wakeup *r);
	int (*flag)(void *arg, const struct model_flag *r);
	int (*throttle)(void *arg, const struct model_throttle *r);
	int (*slab)(void *arg, const struct model_slab *r);
	int (*write)(void *arg, const struct model_write *r);
	int (*hopeless)(void *arg, const struct model_hopeless *r);
	/* one data-quality item of the run (run_quality table) */
	int (*quality)(void *arg, const char *item, int64_t count, const char *detail);
	void *arg;
};

/* What the model needs to know about the recording before the first event. */
struct model_config {
	const char *release;	/* kernel release from uname, or NULL */
	/*
	 * has_field - does the recording's format of @system:@event have
	 * @field (@field NULL: does the event exist at all)?  Returns 1 or 0.
	 */
	int (*has_field)(void *arg, const char *system, const char *event, const char *field);
	void *has_field_arg;
	/*
	 * fields_printed - has_field() answers from the fields a text trace's
	 * lines print, not from format files: the release, when known,
	 * decides the flag rule set (src/model/model-flags.c choose_rule()).
	 */
	bool fields_printed;
	/*
	 * kswapd_pid - pid of the thread "kswapd<nid>" in the recording's
	 * saved comms, or -1 (so that kswapd's activity before its first
	 * kswapd_wake/kswapd_sleep is recognised).  May be NULL.
	 */
	int (*kswapd_pid)(void *arg, int nid);
	void *kswapd_pid_arg;
	uint64_t premature_ns;	/* premature-sleep threshold; 0: 100 ms */
	uint64_t nap_ns;	/* kswapd nap HZ/10; 0: 100 ms */
	/*
	 * flag_clear - the rule by which the pgdat flags are cleared, one of
	 * model_flag_clear_names (load --flag-clear: a patched kernel may
	 * follow another than its release); NULL: the release's own
	 * (src/model/model-flags.c choose_clear()).
	 */
	const char *flag_clear;
};

/*
 * The pgdat flag clearing rules a run can be given (model_config.flag_clear),
 * NULL-terminated: "kswapd-sleep" (4.12+: only kswapd's balanced sleep
 * check, 631b6e083ec3) and "balanced-check" (4.11, and kernels patched back
 * to it: every balance check that finds a zone balanced).
 */
extern const char *const model_flag_clear_names[];

struct model;

/**
 * model_create - a model for one run.
 * @cfg: recording facts; read during the call only.
 * @sink: where rows go; copied.
 *
 * Chooses the pgdat flag rule set from the formats first (fields that
 * appeared in a known release: wakeup_kswapd gfp_flags 4.17, lru_isolate
 * highest_zoneidx 5.8, lru_isolate without isolate_mode 6.7) and the
 * release second (src/model/model-flags.c).  Never fails; free with
 * model_free().
 */
struct model *model_create(const struct model_config *cfg, const struct model_sink *sink);

/**
 * model_event - feed one event (timestamp order).  Events the model does
 * not use are ignored cheaply.  The model may fill in the event's
 * VR_FF_MODEL fields (spec.h), so feed an event before storing it: an
 * mm_shrink_slab_end gets slab_begin_ns and slab_nr_objects_to_shrink of
 * its start (left absent when no start was seen on the task) and
 * slab_complete (1 when the start was seen and no events were lost between
 * the two, else 0).  Returns 0 or a sink callback's non-zero value.
 */
int model_event(struct model *m, struct ingest_event *ev);

/**
 * model_lost - events were lost on @cpu before @ts_ns (@count -1: unknown
 * number).  Every episode open at that moment becomes incomplete.
 */
int model_lost(struct model *m, int cpu, uint64_t ts_ns, int64_t count);

/**
 * model_gap - the trace is an excerpt with events cut out before @ts_ns
 * (struct ingest_sink.gap): nothing pairs across it.  The reclaim episodes
 * and kswapd cycles open at it end there, incomplete with reason
 * excerpt_gap (their other end, after the gap, is a row of its own), the
 * wakeup requests waiting for a kswapd_wake are not served, and what is
 * open otherwise (shrinker calls) is as at a lost-events notice.
 */
int model_gap(struct model *m, uint64_t ts_ns);

/**
 * model_finish - close what is still open at trace end (as incomplete rows)
 * and emit the data-quality items.  Call once.  Returns 0 or a sink value.
 */
int model_finish(struct model *m);

/**
 * model_flag_contradictions - after model_finish(): "the trace contradicts
 * rule X at N points (first at ...)" when the trace proves a flag state the
 * clearing rule cannot explain (run_quality pgdat_flag_contradictions;
 * borrowed, valid until model_free()), or NULL.
 */
const char *model_flag_contradictions(const struct model *m);

/*
 * The lru_shrink_stall sum of one stall kind (store-schema.c, README
 * "Derived tables"): the mm_vmscan_lru_shrink_inactive calls made inside a
 * reclaim stall of that kind of the same task, each counted once per kind
 * (a stall covers the calls of its task from its begin, NULL: the trace's
 * start, to its end, NULL: the trace's end, both included); a multi-gen
 * LRU retry pass's nr_scanned counts 0 (lru_note() in model.c).
 */
struct model_stall_pages {
	const char *kind;		/* direct, memcg, memcg_softlimit, node (static) */
	int64_t nr_scanned, nr_reclaimed;	/* pages; MODEL_NULL: no call had the field */
	int64_t events;			/* calls counted, > 0 */
};

/**
 * model_stall_pages - after model_finish(): the kinds that have calls
 * inside a stall, in the order of their names, into @out (room for @max,
 * 4 kinds at most).  Returns their number, or -1 when the events came out
 * of time order (a text trace whose lines are not sorted): the sums are
 * then to be made from the rows (the SQL of lru_shrink_stall).
 */
int model_stall_pages(const struct model *m, struct model_stall_pages *out, int max);

/** model_flag_rule - the rule set chosen (borrowed), or NULL if none. */
const char *model_flag_rule(const struct model *m);

/** model_free - free @m; NULL is allowed. */
void model_free(struct model *m);

#endif /* VR_MODEL_H */
