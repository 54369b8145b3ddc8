/* SPDX-License-Identifier: GPL-2.0 */
/*
 * recorded.h - what a run recorded (src/recorded.c): for each need of a
 * metric (the events it is counted from, or the counter snapshots), whether
 * the run has it, and if not why: "not recorded" (the events are not in the
 * recording), "not traced" (they were recorded, but this kernel does not
 * emit them on its reclaim path: the multi-gen LRU before 6.7) or "not
 * inferred" (the pgdat flags, which the model could not infer).  Every
 * table, chart and database column that prints a metric asks here, so a
 * metric a run did not record is NULL in the database and "-" with its
 * reason in summary, compare (text, Markdown, CSV, JSON, index.md's
 * headline) and the charts, never 0.  Zero is not missing: a need the run
 * has gives the metric's value, 0 included.
 *
 * How "recorded" is judged, per input kind (run.source_format):
 *  - trace.dat and perf.data hold the format of every event that was
 *    enabled (trace-cmd record, perf record -e): an event is recorded when
 *    its format is in the file, fired or not (run_event_count has its row,
 *    count 0 when it never fired).
 *  - the text forms (trace-cmd report, trace_pipe, perf script) show only
 *    events that fired: a text that shows any vmscan event is taken to have
 *    recorded the whole vmscan system (every recorder and guide enables it
 *    whole), so an event it does not show counts 0.
 *  - a run without any run_event_count row (a database made before the
 *    counts were kept) is taken as recorded: nothing says otherwise.
 * Then, whatever the input: the LRU events (mm_vmscan_lru_isolate,
 * mm_vmscan_lru_shrink_inactive) are "not traced" in a run that has
 * neither while kswapd woke or direct reclaim ran and multi-gen LRU is not
 * known to be off: 6.1-6.6's lru_gen_shrink_lruvec()/evict_folios()
 * (mm/vmscan.c) reclaim without any LRU tracepoint ("mm: multi-gen LRU:
 * reuse some legacy trace events" added them in 6.7).
 */
#ifndef VR_RECORDED_H
#define VR_RECORDED_H

#include <stddef.h>
#include <stdint.h>

struct store;

/* What a metric is counted from. */
enum recorded_need {
	RN_VMSCAN = 0,		/* any vmscan tracepoint */
	RN_KSWAPD,		/* mm_vmscan_kswapd_wake, _sleep */
	RN_KSWAPD_TIME,		/* RN_KSWAPD, and kswapd's state known over
				 * the whole trace: not an excerpt cut by
				 * marker lines (run_quality
				 * text_excerpt_gaps), across which an awake
				 * or asleep kswapd cannot be followed */
	RN_DIRECT,		/* mm_vmscan_direct_reclaim_begin, _end */
	RN_LRU_PAGES,		/* mm_vmscan_lru_shrink_inactive (nr_scanned,
				 * nr_reclaimed), emitted on this kernel */
	RN_LRU_ISOLATE,		/* mm_vmscan_lru_isolate, likewise */
	RN_WRITE,		/* mm_vmscan_write_folio (5.19+) or _writepage */
	RN_THROTTLED,		/* mm_vmscan_throttled (5.16+) */
	RN_PGDAT_FLAGS,		/* pgdat flags the model inferred: the LRU
				 * events, no run_quality
				 * pgdat_flag_not_inferred, and no excerpt
				 * gap (a flag's time across one is unknown) */
	RN_VMSTAT,		/* /proc/vmstat at the start and the end
				 * (snapshot_counter, file vmstat) */
	RN_COUNT
};

/* Multi-gen LRU state of a run. */
enum recorded_mglru {
	RM_UNKNOWN = 0,
	RM_OFF,
	RM_ON,
};

enum { RECORDED_WHY_MAX = 512 };

/**
 * recorded_check - does run @run_id have need @need?  1 (it does: the
 * metric's value, 0 included, is the trace's), 0 (it does not: @why, when
 * not NULL, gets "not recorded: ...", "not traced: ..." or "not inferred:
 * ..." in at most @len bytes, NUL-terminated), or -1 after a message (an
 * SQLite error).
 */
int recorded_check(struct store *s, int64_t run_id, enum recorded_need need, char *why,
		   size_t len);

/*
 * recorded_check()'s answers already given, per run and need, for a caller
 * that asks the same runs again and again (a counter per run: most
 * counters share a need).  Zero-initialise it; release it with
 * recorded_cache_release().  It holds while the database does not change
 * (a report or compare reads one state of it).
 */
struct recorded_answer;
struct recorded_cache {
	struct recorded_answer *a;	/* owned */
	size_t n;
};

/**
 * recorded_check_cached - recorded_check() of run @run_id and need @need,
 * asked of the database the first time only: later the answer (and @why)
 * kept in @cache (NULL: none kept, recorded_check() itself).  An error is
 * not kept.  1, 0 or -1 as recorded_check().
 */
int recorded_check_cached(struct recorded_cache *cache, struct store *s, int64_t run_id,
			  enum recorded_need need, char *why, size_t len);

/** recorded_cache_release - free what @cache holds; empty after. */
void recorded_cache_release(struct recorded_cache *cache);

/**
 * recorded_mglru - was multi-gen LRU on in run @run_id?  *@state gets
 * RM_ON, RM_OFF or RM_UNKNOWN, @how (when not NULL; @len bytes) how it is
 * known: "lru_gen/enabled 0x0007 (the recorder's snapshot)" from
 * run_snapshot's lru_gen-enabled at the start (bit 0, LRU_GEN_CORE, of
 * /sys/kernel/mm/lru_gen/enabled: mm/vmscan.c enabled_show()), else
 * "inferred: ..." from the trace (lru_isolate nr_requested 4096, the
 * MAX_LRU_BATCH of 6.7+'s scan_folios(); or kswapd and direct reclaim
 * events without a single LRU event), else why it is unknown.  Returns 0
 * or -1 after a message.
 */
int recorded_mglru(struct store *s, int64_t run_id, enum recorded_mglru *state, char *how,
		   size_t len);

/**
 * recorded_apply - at load, with the run's rows, counts and snapshots
 * written: the derived columns of needs the run does not have become NULL
 * (kswapd_cycle.nr_scanned and nr_reclaimed without RN_LRU_PAGES: they
 * would read 0 pages for a kswapd that reclaimed).  reclaim_stall's
 * nr_reclaimed stays: it is mm_vmscan_direct_reclaim_end's own, counted by
 * do_try_to_free_pages() whatever the LRU.  Returns 0 or -1 after a
 * message.
 */
int recorded_apply(struct store *s, int64_t run_id);

#endif /* VR_RECORDED_H */
