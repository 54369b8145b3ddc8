// SPDX-License-Identifier: GPL-2.0
/*
 * model-flags.c - intervals during which the node's reclaim flags were
 * set.  The flags are not traced; they are inferred from the counters of
 * mm_vmscan_lru_shrink_inactive (nr_dirty, nr_writeback, nr_congested,
 * nr_immediate; 4.11+) with nr_taken from the same task's preceding
 * mm_vmscan_lru_isolate, and from witness events, by the rules of the
 * recording's kernel (mm/vmscan.c of each release):
 *
 * "4.11-4.16 per-call"  any reclaimer, in shrink_inactive_list() after
 *     each shrink_page_list():
 *     WRITEBACK: nr_writeback > 0 && nr_writeback == nr_taken
 *     CONGESTED: nr_dirty > 0 && nr_dirty == nr_congested
 *     DIRTY:     nr_unqueued_dirty == nr_taken
 * "4.17-5.4 per-pass"   kswapd only, in shrink_node() at the end of each
 *     pass, the same tests on the sc->nr sums (DIRTY: Σunqueued ==
 *     Σfile_taken) (4.17, "mm/vmscan: don't change pgdat state on base of
 *     a single LRU list state", Andrey Ryabinin); pass boundaries:
 *     kswapd_wake/sleep, a priority change, kswapd's congestion_wait /
 *     throttled WRITEBACK (both at the end of a pass), soft-limit reclaim
 *     begin (balance_pgdat()'s next priority loop).  Soft-limit reclaim
 *     inside kswapd (mem_cgroup_shrink_node(), its own scan_control) is
 *     excluded from the sums.
 * "5.5-6.4 lruvec"      as 4.17, PGDAT_CONGESTED is LRUVEC_CONGESTED of
 *     the root lruvec (9f124d740916 "mm: vmscan: harmonize writeback
 *     congestion tracking for nodes & memcgs").
 * "6.5+ node/cgroup"    kswapd sets LRUVEC_NODE_CONGESTED ("mm/vmscan: fix
 *     root proactive reclaim unthrottling unbalanced node"); from 6.13
 *     shrink_node() sets PGDAT_DIRTY only if Σunqueued_dirty > 0 too.
 * nr_unqueued_dirty is not traced: shrink_page_list() counts a dirty or
 * writeback page in nr_dirty, a dirty one not under writeback in
 * unqueued, and a page under writeback in nr_immediate (kswapd, PageReclaim,
 * PGDAT_WRITEBACK set) or else nr_writeback; so for file calls it is
 * nr_dirty - nr_writeback - nr_immediate (exact for global and cgroup-v2
 * reclaim), and 0 for anon calls (page_check_dirty_writeback() reports
 * swap-backed pages clean).
 * Witnesses: kswapd nr_immediate > 0 => WRITEBACK (4.11-4.16; a proof
 * from 4.17, below); kswapd writing a FILE page => DIRTY; kswapd
 * congestion_wait (<= 5.15) or throttled WRITEBACK => WRITEBACK;
 * wait_iff_congested of another task (4.17-5.15, called only when the
 * flag is set) => the congested flag.  nr_unqueued_dirty being estimated,
 * every PGDAT_DIRTY interval from the counters is an estimate (its
 * evidence says so, and run_quality pgdat_flag_dirty counts the tests).
 * Proofs (hard constraints on the intervals; mm/vmscan.c read in 6.6,
 * gregkh/linux 029c9408, and 6.18):
 * - shrink_folio_list() counts a folio under writeback in nr_immediate
 *   only if current_is_kswapd() && folio_test_reclaim() &&
 *   test_bit(PGDAT_WRITEBACK); from 4.17 only kswapd sets the flag (end of
 *   shrink_node(), sc->nr.writeback == sc->nr.taken) and only kswapd
 *   clears it (clear_pgdat_congested() from prepare_kswapd_sleep()), so it
 *   is constant through one kswapd call: nr_immediate > 0 proves it set
 *   from the call's lru_isolate to its lru_shrink_inactive.  The same
 *   folio counts in nr_congested when folio_check_dirty_writeback()
 *   reports writeback and PG_reclaim is set, so nr_congested > 0 with
 *   nr_immediate == 0 proves it clear through the call - from 5.18, when
 *   nr_congested stopped counting folios of congested devices ("Remove
 *   inode_congested()", NeilBrown); up to a writeback ending between the
 *   two tests and ->is_dirty_writeback overrides (block device, NFS).
 * - shrink_node() throttles a non-kswapd task CONGESTED only when the
 *   target lruvec's flag is set (5.16+: LRUVEC_CONGESTED; 6.5+:
 *   LRUVEC_NODE_CONGESTED or LRUVEC_CGROUP_CONGESTED); for direct and node
 *   reclaim the target is the root lruvec (the node's flag), for memcg
 *   reclaim the memcg's own (not modelled).  reclaim_throttle() emits
 *   mm_vmscan_throttled after the wait, usec_delayed (whole jiffies) after
 *   it began.  No wait proves nothing: reclaim_throttle() returns at once
 *   for kthreads and when skip_throttle_noprogress() finds at most half of
 *   the reclaimable pages pending writeback.
 * An interval never overlaps a proven-clear call (it ends at the call's
 * start, or is dropped when it would start inside) and always covers a
 * proven-set call or wait start (its start moves back, or a new one opens:
 * only a balanced check clears the flag).  Intervals that ended are held
 * back FLAG_LOOKBACK_NS before they go to the sink, for waits dated in the
 * past.
 * Clearing (4.12+, 631b6e083ec3 "mm, vmscan: only clear pgdat
 * congested/dirty/writeback state when balanced"): clear_pgdat_congested()
 * runs only from prepare_kswapd_sleep() when the node is balanced, at the
 * nap start or before kswapd_sleep; the kswapd machine reports when, and
 * the dispatcher calls model_flags_clear().
 *
 * Clearing rules (load --flag-clear; run_quality pgdat_flag_clear_rule):
 * "kswapd-sleep"   4.12+: only clear_pgdat_congested() from
 *     prepare_kswapd_sleep() on a balanced node, the only caller in
 *     mm/vmscan.c of 6.1 (Debian's linux-source-6.1, 6.1.192) and later;
 *     each run of balance_pgdat() is preceded by mm_vmscan_kswapd_wake and
 *     each sleep check followed by one or by mm_vmscan_kswapd_sleep
 *     (kswapd()), so between two events of kswapd with no wake or sleep of
 *     its node in between nothing clears the flags.
 * "balanced-check" 4.11 (zone_balanced() cleared all three whenever it
 *     found a zone balanced: from prepare_kswapd_sleep(), from
 *     balance_pgdat() before each pass and from wakeup_kswapd()), and
 *     kernels patched back to it: a clear may come before any kswapd pass.
 * The default is the release's (4.11: balanced-check; else kswapd-sleep).
 * Contradictions (run_quality pgdat_flag_contradictions): a proof the
 * chosen rule cannot explain, counted, never silently absorbed:
 * - a kswapd call proves PGDAT_WRITEBACK clear (5.18+) after an earlier
 *   kswapd call proved it set, with no wake or sleep of the node (no sleep
 *   check) between them: "kswapd-sleep" allows no clear there;
 * - a proof of a flag set (nr_immediate > 0; a throttled CONGESTED wait
 *   start) after the rule's balanced sleep check cleared it, with no
 *   kswapd call between that could make its pass set it again
 *   (nr_writeback > 0 for PGDAT_WRITEBACK, nr_congested > 0 for the
 *   congested flag; shrink_node() sets them only on the pass sums), for
 *   either rule.
 * Lost events between the two make either undecidable (not counted).  A
 * hopeless node (kswapd_failures >= MAX_RECLAIM_RETRIES, not traced
 * before 7.0) naps without clearing; a proof after such a nap is counted
 * as a contradiction although none is.
 *
 * The rule set is chosen from the event formats first (distribution
 * kernels backport tracepoints) and the release second; for a text trace
 * the release label decides when it is given (its formats are only the
 * fields its lines print), and a field printed by name (gfp_flags=
 * GFP_KERNEL, stored NULL) is a field the format has.  Without the
 * counters (4.10 and older) or with multi-gen LRU (from 6.3 shrink_node()
 * hands global reclaim to lru_gen_shrink_node() and skips the flag logic)
 * no interval is produced and the reason is recorded.
 */
#include "model-flags.h"
#include "vr.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The flags, per node. */
enum { FL_WRITEBACK, FL_CONGESTED, FL_DIRTY, FL_COUNT };

#define EVIDENCE_LEN 160

struct flag_node {
	bool set[FL_COUNT];
	int64_t set_ns[FL_COUNT], last_ev_ns[FL_COUNT];
	char evidence[FL_COUNT][EVIDENCE_LEN];
	const char *proof[FL_COUNT];	/* NULL, "extended", "cut", ... (static) */
	/* where the kernel's set lies (model_flag.set_earliest_ns) */
	int64_t set_lo[FL_COUNT], set_hi[FL_COUNT];
	int64_t ks_last_ns;		/* kswapd's last event the flags saw, or 0 */
	/* kswapd's current shrink_node() pass (4.17+) */
	int ncalls, taken_unknown;	/* calls; those without nr_taken */
	int64_t taken, file_taken, dirty, congested, writeback, immediate, unqueued;
	int64_t last_call_ns, priority;
	/* contradictions of the clearing rule (model-flags.c, top) */
	unsigned int sleep_checks;	/* kswapd wakes and sleeps of the node */
	bool proven_set;		/* a kswapd call proved WRITEBACK set ... */
	int64_t proven_set_ns;		/* ... ending then */
	unsigned int proven_checks, proven_lost;	/* sleep_checks, lost_gen then */
	bool cleared[FL_COUNT];		/* the rule's balanced check cleared it ... */
	int64_t cleared_ns[FL_COUNT];	/* ... no later than this */
	unsigned int cleared_lost[FL_COUNT];	/* lost_gen then */
	bool could_set[FL_COUNT];	/* a kswapd call since could let a pass set it */
};

/*
 * An interval that ended, held back FLAG_LOOKBACK_NS before it is emitted
 * so that a proof dated in the past (a throttled event is emitted after
 * its wait) can still extend it.
 */
struct flag_closed {
	int nid, fl;
	bool dropped;			/* a proof showed it never held: not emitted */
	int64_t set_ns, clear_ns;
	int64_t set_lo, set_hi, clear_lo, clear_hi, last_ev;
	const char *proof;
	char evidence[EVIDENCE_LEN];
};

/* The value of the isolate map: the pid's last inactive-list lru_isolate. */
struct isolate_last {
	int64_t nr_taken;
	int64_t ts_ns;			/* its time: the start of the call */
	int64_t nid;			/* node of the pid's last shrink_inactive */
};

static const char *const rule_names[] = {
	[FR_NONE] = "none", [FR_PER_CALL] = "4.11-4.16 per-call",
	[FR_PER_PASS] = "4.17-5.4 per-pass", [FR_LRUVEC] = "5.5-6.4 lruvec",
	[FR_NODE_CGROUP] = "6.5+ node/cgroup",
};

const char *const model_flag_clear_names[] = {
	[FC_KSWAPD_SLEEP] = "kswapd-sleep", [FC_BALANCED_CHECK] = "balanced-check", NULL,
};

static const char *flag_name(const struct flag_machine *fm, int fl)
{
	if (fl == FL_WRITEBACK)
		return "PGDAT_WRITEBACK";
	if (fl == FL_DIRTY)
		return "PGDAT_DIRTY";
	return fm->rule == FR_NODE_CGROUP ? "LRUVEC_NODE_CONGESTED" :
	       fm->rule == FR_LRUVEC ? "LRUVEC_CONGESTED" : "PGDAT_CONGESTED";
}

/* 1 / 0 from the formats, -1 when the event's format is not in the file. */
static int fmt(const struct model_config *cfg, const char *sys, const char *ev, const char *f)
{
	if (!cfg->has_field || !cfg->has_field(cfg->has_field_arg, sys, ev, NULL))
		return -1;
	return cfg->has_field(cfg->has_field_arg, sys, ev, f) ? 1 : 0;
}

/* The rule set of release @rel (411 for 4.11; >= 411). */
static enum flag_rule rule_of_release(int rel)
{
	return rel >= 605 ? FR_NODE_CGROUP : rel >= 505 ? FR_LRUVEC :
	       rel >= 417 ? FR_PER_PASS : FR_PER_CALL;
}

/*
 * The rule set, from the formats first and the release second - except for
 * a text trace with a release label (cfg->fields_printed): its "formats"
 * are only the fields its first lines print, so the release decides, and
 * the basis says whether the printed fields agree.
 */
static void choose_rule(struct flag_machine *fm, const struct model_config *cfg)
{
	int rel = fm->release;
	int counters = fmt(cfg, "vmscan", "mm_vmscan_lru_shrink_inactive", "nr_dirty");
	int gfp = fmt(cfg, "vmscan", "mm_vmscan_wakeup_kswapd", "gfp_flags");
	int hzi = fmt(cfg, "vmscan", "mm_vmscan_lru_isolate", "highest_zoneidx");
	int iso = fmt(cfg, "vmscan", "mm_vmscan_lru_isolate", "isolate_mode");
	const char *basis;

	fm->rule = FR_NONE;
	if (counters < 0) {
		fm->no_rule_reason = "mm_vmscan_lru_shrink_inactive is not in the recording";
		return;
	}
	if (!counters) {
		fm->no_rule_reason = "mm_vmscan_lru_shrink_inactive has no nr_dirty/nr_writeback"
				    " counters (4.10 and older formats)";
		return;
	}
	if (gfp == 0) {
		fm->rule = FR_PER_CALL;
		basis = "formats: wakeup_kswapd without gfp_flags (before 4.17)";
	} else if (hzi == 1 && iso == 0) {
		fm->rule = FR_NODE_CGROUP;
		basis = "formats: lru_isolate without isolate_mode (6.7+)";
	} else if (hzi == 1) {
		fm->rule = rel >= 605 ? FR_NODE_CGROUP : FR_LRUVEC;
		basis = "formats: lru_isolate has highest_zoneidx (5.8+), release splits";
	} else if (gfp == 1) {
		fm->rule = rel >= 605 ? FR_NODE_CGROUP : rel >= 505 ? FR_LRUVEC : FR_PER_PASS;
		basis = "formats: wakeup_kswapd has gfp_flags (4.17+), release splits";
	} else if (rel) {
		fm->rule = rule_of_release(rel);
		basis = "release only (formats do not decide)";
	} else {
		fm->rule = FR_PER_PASS;
		basis = "formats and release do not decide; assumed 4.17+";
	}
	if (cfg->fields_printed && rel) {
		basis = rule_of_release(rel) == fm->rule ?
			"release label of a text trace; the printed fields agree" :
			"release label of a text trace (the printed fields alone suggest another)";
		fm->rule = rule_of_release(rel);
	}
	fm->dirty_needs_unqueued = rel >= 613 ||
		fmt(cfg, "vmscan", "mm_vmscan_reclaim_pages", "nid") == 1;
	fm->rule_name = rule_names[fm->rule];
	fm->proof_set = fm->rule >= FR_PER_PASS;
	fm->proof_clear = fm->proof_set &&
		(rel >= 518 || fmt(cfg, "vmscan", "mm_vmscan_write_folio", "pfn") == 1);
	fm->proof_congested = fm->rule >= FR_LRUVEC;
	snprintf(fm->rule_detail, sizeof(fm->rule_detail), "%s; %s; release %s%s", fm->rule_name,
		 basis, cfg->release ? cfg->release : "unknown",
		 rel >= 619 ? "; no PGDAT_DIRTY (6.19+)" :
		 fm->dirty_needs_unqueued ? "; PGDAT_DIRTY needs unqueued dirty > 0 (6.13+)" : "");
}

/*
 * Can reclaim write a file folio on the recording's kernel?  From 6.16
 * pageout() returns PAGE_ACTIVATE for every file folio but shmem (mm/vmscan.c
 * pageout(), after 6b0dfabb3555 "fs: Remove aops->writepage", vfs for 6.16):
 * file writes from reclaim are not 0 there but impossible, and no rule may
 * wait for one as a witness.  An unknown release: possible.
 */
static bool file_writes_possible(const struct flag_machine *fm)
{
	return !fm->release || fm->release < 616;
}

/*
 * Has the recording's kernel PGDAT_DIRTY?  Baolin Wang's "mm: vmscan"
 * patch of Oct 2025 (linux-mm, series cover.1760687075; after 6b0dfabb3555
 * "fs: Remove aops->writepage" reclaim writes no file folio, so the flag
 * gated nothing) deletes PGDAT_DIRTY from enum pgdat_flags
 * (include/linux/mmzone.h) and its test and set from shrink_folio_list()
 * and shrink_node() (mm/vmscan.c).  It went to the mm tree for the 6.19
 * merge window: from release 6.19 (PGDAT_DIRTY_GONE) a kernel has no such
 * flag, and the model infers none ("no such flag", never "never set").
 * The release is the only mark: the flag has no tracepoint.  An unknown
 * release: the flag may exist.
 */
#define PGDAT_DIRTY_GONE 619

static bool dirty_exists(const struct flag_machine *fm)
{
	return !fm->release || fm->release < PGDAT_DIRTY_GONE;
}

/*
 * The clearing rule: @cfg->flag_clear when given (load --flag-clear), else
 * the release's: 4.11 balanced-check (zone_balanced(), v4.11 mm/vmscan.c),
 * 4.12+ and unknown releases kswapd-sleep (631b6e083ec3).
 */
static void choose_clear(struct flag_machine *fm, const struct model_config *cfg)
{
	const char *basis = "the release's";

	fm->clear = fm->release == 411 ? FC_BALANCED_CHECK : FC_KSWAPD_SLEEP;
	if (!fm->release)
		basis = "release unknown: assumed 4.12+";
	for (int i = 0; cfg->flag_clear && model_flag_clear_names[i]; i++) {
		if (!strcmp(cfg->flag_clear, model_flag_clear_names[i])) {
			fm->clear = (enum flag_clear)i;
			basis = "chosen for the run (load --flag-clear)";
		}
	}
	snprintf(fm->clear_detail, sizeof(fm->clear_detail), "%s; %s", fm->clear ==
		 FC_KSWAPD_SLEEP ? "kswapd-sleep: cleared only by kswapd's balanced sleep check"
		 " (prepare_kswapd_sleep(), 4.12+)" : "balanced-check: cleared by every balance"
		 " check that finds the node balanced (4.11 zone_balanced(); patched kernels),"
		 " possibly before any kswapd pass", basis);
}

void model_flags_init(struct flag_machine *fm, const struct model_ctx *cx,
		      const struct model_config *cfg, int release)
{
	memset(fm, 0, sizeof(*fm));
	fm->cx = cx;
	fm->release = release;
	model_pidmap_init(&fm->isolate, sizeof(struct isolate_last));
	choose_rule(fm, cfg);
	choose_clear(fm, cfg);
}

void model_flags_release(struct flag_machine *fm)
{
	model_pidmap_release(&fm->isolate);
	free(fm->fn);
	fm->fn = NULL;
	fm->nnodes = 0;
	free(fm->q);
	fm->q = NULL;
	fm->qhead = fm->qlen = fm->qcap = 0;
}

const char *model_flags_rule(const struct flag_machine *fm)
{
	return fm->rule == FR_NONE ? NULL : fm->rule_name;
}

/* Node @nid's state, growing the array (zero-filled); NULL for an absurd nid. */
static struct flag_node *fnode(struct flag_machine *fm, int64_t nid)
{
	if (nid < 0 || nid >= MODEL_MAX_NODES)
		return NULL;
	if (nid >= fm->nnodes) {
		int n = (int)nid + 1;

		fm->fn = vr_realloc(fm->fn, (size_t)n * sizeof(*fm->fn));
		memset(fm->fn + fm->nnodes, 0, (size_t)(n - fm->nnodes) * sizeof(*fm->fn));
		fm->nnodes = n;
	}
	return &fm->fn[nid];
}

#define EV_LEN EVIDENCE_LEN

/*
 * How long an interval that ended is held back for proofs dated in the
 * past: reclaim_throttle() waits at most HZ (its default case; WRITEBACK
 * HZ/10, ISOLATED HZ/50, CONGESTED and NOPROGRESS one jiffy), so a
 * throttled event's start lies at most a second before it.
 */
#define FLAG_LOOKBACK_NS 1000000000LL

/*
 * Mark flag @fl of @nid set at @ts (if it is not yet).  Returns the
 * evidence buffer to fill when the flag was newly set, else NULL.
 */
static char *set_flag(struct flag_machine *fm, int64_t nid, int fl, int64_t ts)
{
	struct flag_node *f = fnode(fm, nid);
	char *ev = NULL;

	if (!f)
		return NULL;
	if (!f->set[fl]) {
		f->set[fl] = true;
		f->set_ns[fl] = ts;
		f->set_lo[fl] = MODEL_NULL;	/* a witness: set by @ts, since when unknown */
		f->set_hi[fl] = ts;
		f->proof[fl] = NULL;
		ev = f->evidence[fl];
		ev[0] = '\0';
	}
	if (ts > f->last_ev_ns[fl])
		f->last_ev_ns[fl] = ts;
	return ev;
}

/* Where a point lies: [@lo, @hi] around the model's @t (INT64_MAX: not known). */
struct bounds {
	int64_t lo, hi;
};

static int emit_row(struct flag_machine *fm, int nid, int fl, int64_t set, int64_t clear,
		    struct bounds sb, struct bounds cb, const char *evidence, const char *proof)
{
	struct model_flag r = {
		.nid = nid, .flag = flag_name(fm, fl), .set_ns = set, .clear_ns = clear,
		.rule = fm->rule_name, .evidence = evidence, .inferred = true, .proof = proof,
		.set_earliest_ns = sb.lo, .set_latest_ns = sb.hi == INT64_MAX ? MODEL_NULL : sb.hi,
		.clear_earliest_ns = cb.lo, .clear_latest_ns = cb.hi == INT64_MAX ? MODEL_NULL : cb.hi,
	};

	fm->rows++;
	return fm->cx->sink.flag ? fm->cx->sink.flag(fm->cx->sink.arg, &r) : 0;
}

/* The proof note after @old (static strings): "extended" and "cut" add up. */
static const char *proof_note(const char *old, const char *add)
{
	if (!old || !strcmp(old, add))
		return add;
	return "extended and cut";
}

/* End the open interval of @fl on @nid at @clear: into the queue. */
static void close_flag(struct flag_machine *fm, int nid, int fl, int64_t clear,
		       struct bounds cb)
{
	struct flag_node *f = &fm->fn[nid];
	struct flag_closed *c;

	f->set[fl] = false;
	if (fm->qhead + fm->qlen == fm->qcap) {
		if (fm->qhead) {	/* slide the live entries to the front */
			memmove(fm->q, fm->q + fm->qhead, fm->qlen * sizeof(*fm->q));
			fm->qhead = 0;
		} else {
			fm->qcap = fm->qcap ? 2 * fm->qcap : 16;
			fm->q = vr_realloc(fm->q, fm->qcap * sizeof(*fm->q));
		}
	}
	c = &fm->q[fm->qhead + fm->qlen++];
	*c = (struct flag_closed){ .nid = nid, .fl = fl, .set_ns = f->set_ns[fl],
				   .clear_ns = clear, .proof = f->proof[fl],
				   .set_lo = f->set_lo[fl], .set_hi = f->set_hi[fl],
				   .clear_lo = cb.lo, .clear_hi = cb.hi, .last_ev = f->last_ev_ns[fl] };
	memcpy(c->evidence, f->evidence[fl], sizeof(c->evidence));
}

/* Emit the held-back intervals that ended before @before_ns (all: INT64_MAX). */
static int flush_closed(struct flag_machine *fm, int64_t before_ns)
{
	int ret = 0;

	while (!ret && fm->qlen && fm->q[fm->qhead].clear_ns < before_ns) {
		const struct flag_closed *c = &fm->q[fm->qhead];

		if (!c->dropped)
			ret = emit_row(fm, c->nid, c->fl, c->set_ns, c->clear_ns,
				       (struct bounds){ c->set_lo, c->set_hi },
				       (struct bounds){ c->clear_lo, c->clear_hi }, c->evidence,
				       c->proof);
		fm->qhead++;
		fm->qlen--;
	}
	if (!fm->qlen)
		fm->qhead = 0;
	return ret;
}

/*
 * A proof: flag @fl of @nid was set at @t (not after the current event).
 * Makes an interval cover @t (set_ns <= @t <= clear_ns): the held-back or
 * open interval that ends at or after @t starts no later than @t (moved
 * back; an open one will not be cleared before @t), or a new one opens at @t
 * (the flag is cleared only at kswapd's balanced checks, all of which
 * before now are seen, so it stays set).  Fills @what into a new
 * interval's evidence.  Returns true when an interval had to change.
 */
static bool require_set(struct flag_machine *fm, int64_t nid, int fl, int64_t t,
			const char *what)
{
	struct flag_node *f = fnode(fm, nid);
	char *e;

	if (!f)
		return false;
	for (size_t i = fm->qhead; i < fm->qhead + fm->qlen; i++) {
		struct flag_closed *c = &fm->q[i];

		if (c->dropped || c->nid != nid || c->fl != fl || c->clear_ns < t)
			continue;
		if (c->set_ns <= t)
			return false;
		c->set_ns = t;
		c->set_lo = MODEL_NULL;	/* set by @t, since when not traced */
		c->set_hi = t;
		c->proof = proof_note(c->proof, "extended");
		return true;
	}
	if (f->set[fl] && t > f->last_ev_ns[fl])
		f->last_ev_ns[fl] = t;	/* a balanced check before @t came later */
	if (f->set[fl] && f->set_ns[fl] <= t)
		return false;
	if (f->set[fl]) {
		f->set_ns[fl] = t;
		f->set_lo[fl] = MODEL_NULL;
		f->set_hi[fl] = t;
	} else if ((e = set_flag(fm, nid, fl, t))) {
		snprintf(e, EV_LEN, "%s", what);
	}
	f->proof[fl] = proof_note(f->proof[fl], "extended");
	return true;
}

/*
 * A proof: flag @fl of @nid was clear from @t to now.  Every interval
 * reaching past @t ends at @t; one that starts at or after @t never held
 * and is dropped.  Returns true when an interval had to change.
 */
static bool forbid_set(struct flag_machine *fm, int64_t nid, int fl, int64_t t)
{
	struct flag_node *f = fnode(fm, nid);
	bool changed = false;

	if (!f)
		return false;
	for (size_t i = fm->qhead; i < fm->qhead + fm->qlen; i++) {
		struct flag_closed *c = &fm->q[i];

		if (c->dropped || c->nid != nid || c->fl != fl || c->clear_ns <= t)
			continue;
		if (c->set_ns >= t)
			c->dropped = true;
		c->clear_ns = t;
		c->clear_lo = c->last_ev < t ? c->last_ev : c->set_ns;
		c->clear_hi = t;
		c->proof = proof_note(c->proof, "cut");
		changed = true;
	}
	if (f->set[fl]) {
		f->proof[fl] = proof_note(f->proof[fl], "cut");
		if (f->set_ns[fl] < t)
			close_flag(fm, (int)nid, fl, t, (struct bounds){
				   f->last_ev_ns[fl] < t ? f->last_ev_ns[fl] : f->set_ns[fl], t });
		else
			f->set[fl] = false;
		changed = true;
	}
	return changed;
}

/*
 * A proof the clearing rule cannot explain (model-flags.c, top): counted,
 * and the first one described for run_quality.
 */
static void contradiction(struct flag_machine *fm, int64_t nid, int fl, int64_t t,
			  const char *why)
{
	if (!fm->n_contradict++)
		snprintf(fm->contradict_first, sizeof(fm->contradict_first),
			 "first at %.6f s, node %lld, %s: %s", t / 1e9, (long long)nid,
			 flag_name(fm, fl), why);
}

/*
 * A proof that flag @fl of @nid was set at @t: a contradiction when the
 * rule's balanced sleep check cleared it before @t and no kswapd call
 * since could have let a pass set it again.
 */
static void check_set_proof(struct flag_machine *fm, int64_t nid, int fl, int64_t t)
{
	struct flag_node *f = fnode(fm, nid);

	if (!f || !f->cleared[fl])
		return;
	if (f->cleared_ns[fl] < t && !f->could_set[fl] &&
	    f->cleared_lost[fl] == fm->cx->lost_gen)
		contradiction(fm, nid, fl, t, "proven set after the rule's balanced sleep check"
			      " cleared it, with no kswapd call since that could set it");
	if (f->cleared_ns[fl] < t)
		f->cleared[fl] = false;
}

void model_flags_sleep_check(struct flag_machine *fm, int nid, int64_t now_ns)
{
	struct flag_node *f = fnode(fm, nid);

	if (!f)
		return;
	f->sleep_checks++;
	if (now_ns != INT64_MAX)
		f->ks_last_ns = now_ns;	/* a balance check after it follows it */
}

/*
 * The balanced sleep check of kswapd on @nid cleared the flags (4.12+):
 * the model puts it at @ts_ns (the kswapd machine's nap start), and it lies
 * after kswapd's last event before it and no later than @latest_ns.  Under
 * balanced-check a check before any later pass may have cleared a flag
 * already: from its last evidence on.
 */
int model_flags_clear(struct flag_machine *fm, int nid, int64_t ts_ns, int64_t earliest_ns,
		      int64_t latest_ns)
{
	if (fm->rule == FR_NONE || nid < 0 || nid >= fm->nnodes)
		return 0;
	for (int fl = 0; fl < FL_COUNT; fl++) {
		struct flag_node *f = &fm->fn[nid];
		int64_t clear = ts_ns;
		struct bounds cb = { earliest_ns != MODEL_NULL && earliest_ns > f->ks_last_ns ?
				     earliest_ns : f->ks_last_ns, latest_ns };

		f->cleared[fl] = true;
		f->cleared_ns[fl] = latest_ns;
		f->cleared_lost[fl] = fm->cx->lost_gen;
		f->could_set[fl] = false;
		if (!f->set[fl])
			continue;
		if (f->last_ev_ns[fl] > clear) {	/* seen set after the check */
			clear = f->last_ev_ns[fl];
			fm->evidence_after_clear++;
		}
		if (fm->clear == FC_BALANCED_CHECK || cb.lo < f->last_ev_ns[fl])
			cb.lo = f->last_ev_ns[fl];
		if (cb.lo > clear)
			cb.lo = clear;
		if (cb.hi < clear)
			cb.hi = clear;
		close_flag(fm, nid, fl, clear, cb);
	}
	return 0;
}

/*
 * Set flag @fl of @nid from a pass's sums at @t, the kernel's set lying in
 * @b; fills the evidence when newly set.  Returns the evidence buffer or
 * NULL (as set_flag()).
 */
static char *set_in(struct flag_machine *fm, int64_t nid, int fl, int64_t t, struct bounds b)
{
	char *e = set_flag(fm, nid, fl, t);

	if (e) {
		fm->fn[nid].set_lo[fl] = b.lo;
		fm->fn[nid].set_hi[fl] = b.hi;
	}
	return e;
}

/*
 * End of kswapd's current pass window on @nid, known by @end_ns (the event
 * that showed it, or the start of kswapd's wait; INT64_MAX: trace end):
 * test the pass sums, in the order of shrink_node()'s code after
 * shrink_node_memcgs() (mm/vmscan.c): 4.17-5.4 PGDAT_WRITEBACK,
 * PGDAT_CONGESTED, PGDAT_DIRTY, then congestion_wait() if Σimmediate;
 * from 5.5 (9f124d740916) PGDAT_WRITEBACK, PGDAT_DIRTY, the wait
 * (congestion_wait(), reclaim_throttle(WRITEBACK) from 5.16), and only
 * after it the congested flag (6.1.192 lines 6209-6237; the same in 6.6
 * and 6.18 for LRUVEC_NODE_CONGESTED).  So a set lies between the pass's
 * last call and @end_ns, except the 5.5+ congested flag of a pass that
 * ended in kswapd's wait, set when the wait returned: @after_wait_ns, the
 * wait's event (MODEL_NULL: no wait).
 */
static int pass_end_at(struct flag_machine *fm, int nid, int64_t end_ns, int64_t after_wait_ns)
{
	struct flag_node *f;
	struct bounds b, bc;
	int64_t t, tc;
	char *e;

	if (fm->rule == FR_NONE || fm->rule == FR_PER_CALL || nid < 0 || nid >= fm->nnodes)
		return 0;
	f = &fm->fn[nid];
	if (!f->ncalls)
		return 0;
	t = f->last_call_ns;
	b = (struct bounds){ t, end_ns < t ? t : end_ns };
	tc = t;
	bc = b;
	if (fm->rule >= FR_LRUVEC && after_wait_ns != MODEL_NULL) {
		tc = after_wait_ns;
		bc = (struct bounds){ tc, tc };
	}
	/* a call without nr_taken leaves Σtaken unknown: only CONGESTED */
	if (!f->taken_unknown && f->writeback > 0 && f->writeback == f->taken &&
	    (e = set_in(fm, nid, FL_WRITEBACK, t, b)))
		snprintf(e, EV_LEN, "kswapd pass of %d calls: nr_writeback=%lld == nr_taken=%lld",
			 f->ncalls, (long long)f->writeback, (long long)f->taken);
	if (!f->taken_unknown && dirty_exists(fm))
		fm->n_dirty_tests++;
	if (!f->taken_unknown && dirty_exists(fm) && f->unqueued == f->file_taken &&
	    (!fm->dirty_needs_unqueued || f->unqueued > 0) &&
	    (e = set_in(fm, nid, FL_DIRTY, t, b)))
		snprintf(e, EV_LEN, "kswapd pass of %d calls: unqueued_dirty=%lld =="
			 " file_taken=%lld (estimate)", f->ncalls, (long long)f->unqueued,
			 (long long)f->file_taken);
	if (f->dirty > 0 && f->dirty == f->congested &&
	    (e = set_in(fm, nid, FL_CONGESTED, tc, bc)))
		snprintf(e, EV_LEN, "kswapd pass of %d calls: nr_dirty=%lld == nr_congested=%lld%s",
			 f->ncalls, (long long)f->dirty, (long long)f->congested,
			 tc != t ? " (set after kswapd's wait)" : "");
	f->ncalls = f->taken_unknown = 0;
	f->taken = f->file_taken = f->dirty = f->congested = 0;
	f->writeback = f->immediate = f->unqueued = 0;
	f->priority = MODEL_NULL;
	return 0;
}

int model_flags_pass_end(struct flag_machine *fm, int nid, int64_t now_ns)
{
	return pass_end_at(fm, nid, now_ns, MODEL_NULL);
}

/* A priority change in kswapd's event at @ts ends a pass window. */
static void priority_boundary(struct flag_machine *fm, int nid, int64_t prio, int64_t ts)
{
	struct flag_node *f = fnode(fm, nid);

	if (!f || prio == MODEL_NULL)
		return;
	if (f->ncalls && f->priority != MODEL_NULL && prio != f->priority)
		model_flags_pass_end(fm, nid, ts);
	f->priority = prio;
}

static void isolate(struct flag_machine *fm, const struct ingest_event *ev, int mev)
{
	int64_t lru = model_val(fm->cx, ev, mev, MF_LRU);
	bool fresh;

	fm->n_isolate++;
	if (model_val(fm->cx, ev, mev, MF_NR_REQUESTED) == 4096)	/* MGLRU, 6.7+ */
		fm->mglru = true;
	if (lru != MODEL_NULL && lru != 0 && lru != 2)		/* not an inactive list */
		return;
	struct isolate_last *il = model_pidmap_get(&fm->isolate, ev->pid, &fresh);

	if (fresh)
		il->nid = MODEL_NULL;
	il->nr_taken = model_val(fm->cx, ev, mev, MF_NR_TAKEN);
	il->ts_ns = (int64_t)ev->ts_ns;
}

/*
 * 4.11-4.16: shrink_inactive_list() tests its own call's counters after
 * shrink_page_list(), before its waits and the tracepoint at its end (v4.11
 * mm/vmscan.c): a set lies between the call's lru_isolate @start and @ts.
 */
static void per_call(struct flag_machine *fm, int pid, int64_t nid, int64_t start, int64_t ts,
		     int64_t taken, int64_t dirty, int64_t wb, int64_t congested, int64_t unqueued)
{
	struct bounds b = { start, ts };
	char *e;

	if (taken != MODEL_NULL && wb > 0 && wb == taken &&
	    (e = set_in(fm, nid, FL_WRITEBACK, ts, b)))
		snprintf(e, EV_LEN, "call of pid %d: nr_writeback=%lld == nr_taken=%lld", pid,
			 (long long)wb, (long long)taken);
	if (dirty > 0 && dirty == congested && (e = set_in(fm, nid, FL_CONGESTED, ts, b)))
		snprintf(e, EV_LEN, "call of pid %d: nr_dirty=%lld == nr_congested=%lld", pid,
			 (long long)dirty, (long long)congested);
	if (taken != MODEL_NULL && dirty_exists(fm))
		fm->n_dirty_tests++;
	if (taken != MODEL_NULL && dirty_exists(fm) && unqueued == taken &&
	    (e = set_in(fm, nid, FL_DIRTY, ts, b)))
		snprintf(e, EV_LEN, "call of pid %d: unqueued_dirty=%lld == nr_taken=%lld"
			 " (estimate)", pid, (long long)unqueued, (long long)taken);
}

/*
 * The proofs of one kswapd shrink_folio_list() call on @nid that ran from
 * @start to @ts (model-flags.c, top): nr_immediate > 0 proves
 * PGDAT_WRITEBACK set through it (4.17+), nr_congested > 0 with
 * nr_immediate == 0 proves it clear through it (5.18+).
 */
static void kswapd_call_proofs(struct flag_machine *fm, int64_t nid, int64_t start, int64_t ts,
			       int64_t cong, int64_t imm)
{
	char what[EV_LEN];

	struct flag_node *f = fnode(fm, nid);

	if (imm > 0 && fm->proof_set) {
		fm->n_proof_set++;
		check_set_proof(fm, nid, FL_WRITEBACK, start);
		f->proven_set = true;
		f->proven_set_ns = ts;
		f->proven_checks = f->sleep_checks;
		f->proven_lost = fm->cx->lost_gen;
		snprintf(what, sizeof(what), "proof: kswapd call nr_immediate=%lld (set during"
			 " the call)", (long long)imm);
		fm->n_extended += require_set(fm, nid, FL_WRITEBACK, start, what);
		require_set(fm, nid, FL_WRITEBACK, ts, what);	/* and to the call's end */
	} else if (imm > 0 && fm->rule == FR_PER_CALL) {
		char *e = set_flag(fm, nid, FL_WRITEBACK, ts);

		if (e)
			snprintf(e, EV_LEN, "witness: kswapd lru_shrink_inactive nr_immediate=%lld",
				 (long long)imm);
	} else if (imm == 0 && cong > 0 && fm->proof_clear) {
		fm->n_proof_clear++;
		if (f->proven_set && fm->clear == FC_KSWAPD_SLEEP && f->proven_set_ns <= start &&
		    f->proven_checks == f->sleep_checks && f->proven_lost == fm->cx->lost_gen)
			contradiction(fm, nid, FL_WRITEBACK, start, "proven clear after a kswapd"
				      " call proved it set, with no sleep check of kswapd between");
		f->proven_set = false;
		fm->n_cut += forbid_set(fm, nid, FL_WRITEBACK, start);
	}
}

static void shrink_inactive(struct flag_machine *fm, const struct ingest_event *ev, int mev, int ks,
			    bool in_softlimit)
{
	int64_t nid = model_val(fm->cx, ev, mev, MF_NID), ts = (int64_t)ev->ts_ns;
	int64_t dirty = model_val(fm->cx, ev, mev, MF_NR_DIRTY);
	int64_t wb = model_val(fm->cx, ev, mev, MF_NR_WRITEBACK);
	int64_t cong = model_val(fm->cx, ev, mev, MF_NR_CONGESTED);
	int64_t imm = model_val(fm->cx, ev, mev, MF_NR_IMMEDIATE);
	int64_t flags = model_val(fm->cx, ev, mev, MF_RECLAIM_FLAGS);
	struct isolate_last *il = model_pidmap_find(&fm->isolate, ev->pid);
	bool file = flags != MODEL_NULL && (flags & RECLAIM_WB_FILE);
	int64_t taken, unqueued, start;
	struct flag_node *f;

	fm->n_shrink_inactive++;
	if (nid == MODEL_NULL || dirty == MODEL_NULL || wb == MODEL_NULL || cong == MODEL_NULL ||
	    imm == MODEL_NULL || !(f = fnode(fm, nid)))
		return;
	if (il)
		il->nid = nid;
	if (!il || il->nr_taken == MODEL_NULL) {
		/* nr_taken unknown: WRITEBACK and DIRTY cannot be tested, but
		 * CONGESTED (nr_dirty == nr_congested) can */
		fm->call_no_isolate++;
		taken = MODEL_NULL;
	} else {
		taken = il->nr_taken;
	}
	start = il && il->ts_ns <= ts ? il->ts_ns : ts;
	unqueued = file ? dirty - wb - imm : 0;
	if (unqueued < 0)
		unqueued = 0;
	if (fm->rule == FR_PER_CALL) {
		if (ks >= 0)
			kswapd_call_proofs(fm, nid, start, ts, cong, imm);
		per_call(fm, ev->pid, nid, start, ts, taken, dirty, wb, cong, unqueued);
		return;
	}
	if (ks < 0)
		return;	/* only kswapd's own passes count from 4.17 */
	if (!in_softlimit)	/* the window may end here: its flags first */
		priority_boundary(fm, (int)nid, model_val(fm->cx, ev, mev, MF_PRIORITY), ts);
	kswapd_call_proofs(fm, nid, start, ts, cong, imm);
	if (in_softlimit)
		return;	/* soft-limit reclaim has its own scan_control */
	/* after the proofs: this call's own pass ends after it */
	f->could_set[FL_WRITEBACK] |= wb > 0;
	f->could_set[FL_CONGESTED] |= cong > 0;
	f->could_set[FL_DIRTY] = true;
	f->ncalls++;
	if (taken == MODEL_NULL)
		f->taken_unknown++;
	else {
		f->taken += taken;
		f->file_taken += file ? taken : 0;
	}
	f->dirty += dirty;
	f->congested += cong;
	f->writeback += wb;
	f->immediate += imm;
	f->unqueued += unqueued;
	f->last_call_ns = ts;
}

/*
 * A user task's mm_vmscan_throttled CONGESTED (5.16+): shrink_node() found
 * the target lruvec's congested flag set just before the wait, which
 * began usec_delayed before the event (to a jiffy: the kernel counts
 * whole jiffies).  In direct or node reclaim the target is the root
 * lruvec, whose flag is the node's; in memcg reclaim it is the memcg's
 * own (LRUVEC_CGROUP_CONGESTED, not modelled); without a begin of either
 * the context is unknown and nothing is proven.
 */
static void congested_proof(struct flag_machine *fm, const struct ingest_event *ev, int mev,
			    int64_t nid, unsigned int ctx)
{
	int64_t delayed = model_val(fm->cx, ev, mev, MF_USEC_DELAYED);
	int64_t t = (int64_t)ev->ts_ns;
	char what[EV_LEN];

	if (ctx & FCTX_MEMCG) {
		fm->n_proof_cgroup++;
		return;
	}
	if (!(ctx & FCTX_GLOBAL)) {
		fm->n_throttle_no_context++;
		return;
	}
	if (delayed != MODEL_NULL && delayed > 0 && delayed <= FLAG_LOOKBACK_NS / 1000)
		t -= delayed * 1000;
	fm->n_proof_congested++;
	check_set_proof(fm, nid, FL_CONGESTED, t);
	snprintf(what, sizeof(what), "proof: pid %d throttled CONGESTED in global reclaim"
		 " (set when its wait began)", ev->pid);
	fm->n_extended += require_set(fm, nid, FL_CONGESTED, t, what);
}

/*
 * The start of the wait that ended at @ev (usec_delayed before it, whole
 * jiffies), or @ev's time when the field is missing or absurd.
 */
static int64_t wait_start(const struct flag_machine *fm, const struct ingest_event *ev, int mev)
{
	int64_t delayed = model_val(fm->cx, ev, mev, MF_USEC_DELAYED);

	if (delayed == MODEL_NULL || delayed <= 0 || delayed > FLAG_LOOKBACK_NS / 1000)
		return (int64_t)ev->ts_ns;
	return (int64_t)ev->ts_ns - delayed * 1000;
}

/*
 * kswapd's own waits end its pass (shrink_node(): congestion_wait() to
 * 5.15, reclaim_throttle(WRITEBACK) from 5.16, both when Σnr_immediate >
 * 0, which needs PGDAT_WRITEBACK set during the pass: set by the wait's
 * start); other tasks' waits are witnesses or proofs of the congested flag.
 */
static void throttle_witness(struct flag_machine *fm, const struct ingest_event *ev, int mev, int ks,
			     unsigned int ctx)
{
	int64_t ts = (int64_t)ev->ts_ns, nid;
	struct isolate_last *il;
	char *e;

	switch (mev) {
	case MEV_THROTTLED:
		nid = model_val(fm->cx, ev, mev, MF_NID);
		if (ks >= 0 && model_val(fm->cx, ev, mev, MF_REASON) == 0x1) {
			pass_end_at(fm, (int)nid, wait_start(fm, ev, mev), ts);
			if ((e = set_flag(fm, nid, FL_WRITEBACK, wait_start(fm, ev, mev))))
				snprintf(e, EV_LEN, "witness: kswapd throttled WRITEBACK");
		} else if (ks < 0 && model_val(fm->cx, ev, mev, MF_REASON) == 0x8 &&
			   fm->proof_congested && nid != MODEL_NULL) {
			congested_proof(fm, ev, mev, nid, ctx);
		}
		break;
	case MEV_CONGESTION_WAIT:
		if (ks >= 0) {
			pass_end_at(fm, ks, wait_start(fm, ev, mev), ts);
			if ((e = set_flag(fm, ks, FL_WRITEBACK, wait_start(fm, ev, mev))))
				snprintf(e, EV_LEN, "witness: kswapd congestion_wait");
		}
		break;
	case MEV_WAIT_IFF_CONGESTED:
		il = model_pidmap_find(&fm->isolate, ev->pid);
		if (ks < 0 && fm->rule != FR_PER_CALL && il && il->nid != MODEL_NULL &&
		    (e = set_flag(fm, il->nid, FL_CONGESTED, ts)))
			snprintf(e, EV_LEN, "witness: pid %d wait_iff_congested", ev->pid);
		break;
	}
}

int model_flags_event(struct flag_machine *fm, const struct ingest_event *ev, int mev, int ks,
		      unsigned int ctx)
{
	int64_t flags;
	char *e;

	if (ks >= 0 && fnode(fm, ks))	/* kswapd's last event, for the clear's bounds */
		fm->fn[ks].ks_last_ns = (int64_t)ev->ts_ns;
	if (mev == MEV_LRU_ISOLATE) {
		if (model_val(fm->cx, ev, mev, MF_LRU) == MODEL_NULL &&
		    model_val(fm->cx, ev, mev, MF_FILE) == MODEL_NULL)
			fm->unclassified_isolate++;
		isolate(fm, ev, mev);
		return 0;
	}
	if (mev == MEV_SHRINK_INACTIVE &&
	    model_val(fm->cx, ev, mev, MF_RECLAIM_FLAGS) == MODEL_NULL)
		fm->unclassified_shrink++;
	if (fm->rule == FR_NONE || fm->mglru) {
		if (mev == MEV_SHRINK_INACTIVE)
			fm->n_shrink_inactive++;
		return 0;
	}
	switch (mev) {
	case MEV_SHRINK_INACTIVE:
		shrink_inactive(fm, ev, mev, ks, ctx & FCTX_SOFTLIMIT);
		break;
	case MEV_SHRINK_ACTIVE: case MEV_SLAB_START:
		if (ks >= 0 && fm->rule != FR_PER_CALL)
			priority_boundary(fm, ks, model_val(fm->cx, ev, mev, MF_PRIORITY),
					  (int64_t)ev->ts_ns);
		break;
	case MEV_SOFT_BEGIN:
		if (ks >= 0)
			model_flags_pass_end(fm, ks, (int64_t)ev->ts_ns);
		break;
	case MEV_WRITEPAGE:
		flags = model_val(fm->cx, ev, mev, MF_RECLAIM_FLAGS);
		if (ks >= 0 && flags != MODEL_NULL && (flags & RECLAIM_WB_FILE) &&
		    file_writes_possible(fm)) {
			fm->n_dirty_witness++;
			if ((e = set_flag(fm, ks, FL_DIRTY, (int64_t)ev->ts_ns)))
				snprintf(e, EV_LEN, "witness: kswapd wrote file pfn %lld",
					 (long long)model_val(fm->cx, ev, mev, MF_PFN));
		}
		break;
	default:
		throttle_witness(fm, ev, mev, ks, ctx);
		break;
	}
	return flush_closed(fm, (int64_t)ev->ts_ns - FLAG_LOOKBACK_NS);
}

#define DIRTY_ABSENT_NOTE \
	"no such flag: PGDAT_DIRTY is gone from 6.19 (Baolin Wang, Oct 2025: removed from" \
	" enum pgdat_flags with its test in shrink_folio_list(), as reclaim writes no file" \
	" folio since 6.16): nothing to infer on this kernel"

/*
 * What the timeline, summary and chart say of PGDAT_DIRTY (run_quality
 * pgdat_flag_dirty; its count is the tests made).  nr_unqueued_dirty is
 * not traced, so every interval from the counters is an estimate; the
 * only witness is kswapd writing a file folio (shrink_folio_list() lets
 * only kswapd write one, and only with PGDAT_DIRTY set), which needs a
 * filesystem with ->writepage: pageout() activates a folio whose mapping
 * has none (mm/vmscan.c of 6.6, gregkh/linux 029c9408), ext4 and xfs
 * provide none in 6.x trees, and 6.18's pageout() writes only shmem and
 * swap-cache folios ("We no longer attempt to writeback filesystem folios
 * here").
 */
static const char *dirty_note(const struct flag_machine *fm)
{
	if (!dirty_exists(fm))
		return DIRTY_ABSENT_NOTE;
	if (!fm->n_dirty_tests && !fm->n_dirty_witness)
		return "PGDAT_DIRTY cannot be inferred: no kswapd call with nr_taken"
		       " (its lru_isolate) was traced, and no kswapd file write";
	if (fm->n_dirty_witness)
		return "PGDAT_DIRTY is an estimate from the rule (nr_unqueued_dirty is not"
		       " traced: nr_dirty - nr_writeback - nr_immediate of file calls) except"
		       " where kswapd's file writes witness it";
	if (!file_writes_possible(fm))
		return "PGDAT_DIRTY is an estimate from the rule (nr_unqueued_dirty is not"
		       " traced: nr_dirty - nr_writeback - nr_immediate of file calls);"
		       " nothing can witness it on 6.16+: reclaim writes no file folio"
		       " (pageout() activates them, 6b0dfabb3555 \"fs: Remove aops->writepage\")";
	return "PGDAT_DIRTY is an estimate from the rule (nr_unqueued_dirty is not"
	       " traced: nr_dirty - nr_writeback - nr_immediate of file calls); no kswapd"
	       " file write witnessed it (kswapd writes a file folio only on a filesystem"
	       " with ->writepage, as ext4's ext4_aops in 6.1)";
}

/* The run_quality items of the proofs (model-flags.c, top). */
static int proof_quality(struct flag_machine *fm)
{
	const struct model_ctx *cx = fm->cx;

	return model_quality(cx, "pgdat_flag_proofs_set", fm->n_proof_set, fm->proof_set ?
			     "kswapd lru_shrink_inactive with nr_immediate > 0: PGDAT_WRITEBACK"
			     " set through the call (4.17+)" : "not a proof before 4.17") ?:
	       model_quality(cx, "pgdat_flag_proofs_clear", fm->n_proof_clear, fm->proof_clear ?
			     "kswapd lru_shrink_inactive with nr_congested > 0 and nr_immediate"
			     " = 0: PGDAT_WRITEBACK clear through the call (5.18+)" :
			     "not a proof before 5.18 (nr_congested also counted congested"
			     " devices)") ?:
	       model_quality(cx, "pgdat_flag_proofs_congested", fm->n_proof_congested,
			     "a user task's throttled CONGESTED in direct or node reclaim: the"
			     " node's congested flag set when its wait began (5.16+)") ?:
	       model_quality(cx, "pgdat_flag_proofs_cgroup", fm->n_proof_cgroup,
			     "throttled CONGESTED in memcg reclaim: that memcg's"
			     " LRUVEC_CGROUP_CONGESTED (LRUVEC_CONGESTED before 6.5) was set,"
			     " not the node's; not modelled") ?:
	       model_quality(cx, "pgdat_flag_throttle_no_context", fm->n_throttle_no_context,
			     "throttled CONGESTED of a task with no reclaim begin traced: which"
			     " lruvec it tested is unknown, no proof") ?:
	       model_quality(cx, "pgdat_flag_extended", fm->n_extended,
			     "intervals opened or moved back to cover a proven-set time") ?:
	       model_quality(cx, "pgdat_flag_cut", fm->n_cut,
			     "intervals ended (or dropped) at a proven-clear kswapd call") ?:
	       model_quality(cx, "pgdat_flag_dirty", fm->n_dirty_tests, dirty_note(fm));
}

/*
 * The run_quality items of the clearing rule: which, and the proofs it
 * cannot explain ("the trace contradicts rule X at N points").
 */
static int clear_quality(struct flag_machine *fm)
{
	const char *name = model_flag_clear_names[fm->clear];
	char *detail = fm->contradict_said;
	size_t len = sizeof(fm->contradict_said);

	if (fm->n_contradict)
		snprintf(detail, len, "the trace contradicts rule %s at %llu point%s (%s)",
			 name, (unsigned long long)fm->n_contradict,
			 fm->n_contradict == 1 ? "" : "s", fm->contradict_first);
	else
		snprintf(detail, len, "the trace contradicts rule %s at no point", name);
	return model_quality(fm->cx, "pgdat_flag_clear_rule", 1, fm->clear_detail) ?:
	       model_quality(fm->cx, "pgdat_flag_contradictions", fm->n_contradict, detail);
}

const char *model_flags_contradictions(const struct flag_machine *fm)
{
	return fm->n_contradict ? fm->contradict_said : NULL;
}

int model_flags_finish(struct flag_machine *fm, uint64_t kswapd_wakes)
{
	int ret = 0;
	const char *reason = fm->no_rule_reason;

	for (int nid = 0; nid < fm->nnodes; nid++)
		model_flags_pass_end(fm, nid, INT64_MAX);
	ret = flush_closed(fm, INT64_MAX);
	for (int nid = 0; !ret && nid < fm->nnodes; nid++) {
		for (int fl = 0; !ret && fl < FL_COUNT; fl++) {
			struct flag_node *f = &fm->fn[nid];

			if (f->set[fl]) {
				f->set[fl] = false;
				ret = emit_row(fm, nid, fl, f->set_ns[fl], MODEL_NULL,
					       (struct bounds){ f->set_lo[fl], f->set_hi[fl] },
					       (struct bounds){ MODEL_NULL, MODEL_NULL },
					       f->evidence[fl], f->proof[fl]);
			}
		}
	}
	if (ret)
		return ret;
	if (fm->unclassified_isolate)
		ret = model_quality(fm->cx, "lru_isolate_unclassified", (int64_t)fm->unclassified_isolate,
				    "lru_isolate without lru or file: its pages scanned are in"
				    " summary's unclassified total, not file or anon");
	if (!ret && fm->unclassified_shrink)
		ret = model_quality(fm->cx, "lru_shrink_inactive_unclassified",
				    (int64_t)fm->unclassified_shrink,
				    "lru_shrink_inactive without reclaim_flags: its pages reclaimed are"
				    " in summary's unclassified total, not file or anon");
	if (ret)
		return ret;
	if (!reason && fm->mglru)
		reason = "multi-gen LRU reclaim (lru_isolate nr_requested=4096): global MGLRU"
			 " reclaim skips the flag logic from 6.3";
	if (!reason && fm->release >= 603 && kswapd_wakes &&
	    !fm->n_shrink_inactive && !fm->n_isolate)
		reason = "reclaim without lru_isolate/lru_shrink_inactive events on 6.3+:"
			 " multi-gen LRU skips the flag logic, or the events were not recorded";
	/*
	 * 6.1-6.2 with multi-gen LRU on: shrink_lruvec() hands every lruvec to
	 * lru_gen_shrink_lruvec() (no LRU event before 6.7's) and shrink_node()
	 * then runs its flag code on sc->nr, which only shrink_inactive_list()
	 * fills: all 0, so kswapd sets PGDAT_DIRTY on every pass (0 == 0) and
	 * never the others (mm/vmscan.c shrink_node(), shrink_lruvec(), 6.1.192).
	 */
	if (!reason && fm->release >= 601 && fm->release < 603 && kswapd_wakes &&
	    !fm->n_shrink_inactive && !fm->n_isolate)
		reason = "reclaim without lru_isolate/lru_shrink_inactive events on 6.1-6.2:"
			 " multi-gen LRU, whose shrink_node() runs the flag code with all sums 0,"
			 " so kswapd sets PGDAT_DIRTY on every pass (0 == 0) and never"
			 " PGDAT_WRITEBACK or LRUVEC_CONGESTED; when, the trace cannot show (or the"
			 " LRU events were not recorded)";
	if (!ret && !dirty_exists(fm))
		ret = model_quality(fm->cx, "pgdat_flag_dirty_absent", 1, DIRTY_ABSENT_NOTE);
	if (!ret && !file_writes_possible(fm))
		ret = model_quality(fm->cx, "reclaim_file_writes_na", 1,
				    "6.16+: reclaim writes no file folio (pageout() activates"
				    " them, 6b0dfabb3555 \"fs: Remove aops->writepage\"): file"
				    " writes from reclaim are n/a on this kernel, not 0");
	if (ret)
		return ret;
	if (reason)
		return model_quality(fm->cx, "pgdat_flag_not_inferred", 1, reason);
	return model_quality(fm->cx, "pgdat_flag_rule", 1, fm->rule_detail) ?:
	       clear_quality(fm) ?:
	       model_quality(fm->cx, "pgdat_flag_intervals", fm->rows, NULL) ?:
	       model_quality(fm->cx, "pgdat_flag_evidence_after_clear", fm->evidence_after_clear,
			     "flag evidence seen after kswapd's balanced check; clear moved to it") ?:
	       model_quality(fm->cx, "pgdat_flag_call_without_isolate", fm->call_no_isolate,
			     "lru_shrink_inactive without a preceding lru_isolate of the pid"
			     " (nr_taken unknown: only the CONGESTED test made)") ?:
	       proof_quality(fm);
}
