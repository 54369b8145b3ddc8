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
 * Witnesses: kswapd nr_immediate > 0 => WRITEBACK; kswapd writing a FILE
 * page => DIRTY; kswapd congestion_wait (<= 5.15) or throttled WRITEBACK
 * => WRITEBACK; a non-kswapd throttled CONGESTED (5.16+) or
 * wait_iff_congested (4.17-5.15, called only when the flag is set) => the
 * congested flag.
 * Clearing (4.12+, 631b6e083ec3 "mm, vmscan: only clear pgdat
 * congested/dirty/writeback state when balanced"): clear_pgdat_congested()
 * runs only from prepare_kswapd_sleep() when the node is balanced, at the
 * nap start or before kswapd_sleep; the kswapd machine reports when, and
 * the dispatcher calls model_flags_clear().
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

struct flag_node {
	bool set[FL_COUNT];
	int64_t set_ns[FL_COUNT], last_ev_ns[FL_COUNT];
	char evidence[FL_COUNT][128];
	/* kswapd's current shrink_node() pass (4.17+) */
	int ncalls, taken_unknown;	/* calls; those without nr_taken */
	int64_t taken, file_taken, dirty, congested, writeback, immediate, unqueued;
	int64_t last_call_ns, priority;
};

/* The value of the isolate map: the pid's last inactive-list lru_isolate. */
struct isolate_last {
	int64_t nr_taken;
	int64_t nid;			/* node of the pid's last shrink_inactive */
};

static const char *const rule_names[] = {
	[FR_NONE] = "none", [FR_PER_CALL] = "4.11-4.16 per-call",
	[FR_PER_PASS] = "4.17-5.4 per-pass", [FR_LRUVEC] = "5.5-6.4 lruvec",
	[FR_NODE_CGROUP] = "6.5+ node/cgroup",
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
	snprintf(fm->rule_detail, sizeof(fm->rule_detail), "%s; %s; release %s%s", fm->rule_name,
		 basis, cfg->release ? cfg->release : "unknown",
		 fm->dirty_needs_unqueued ? "; PGDAT_DIRTY needs unqueued dirty > 0 (6.13+)" : "");
}

void model_flags_init(struct flag_machine *fm, const struct model_ctx *cx,
		      const struct model_config *cfg, int release)
{
	memset(fm, 0, sizeof(*fm));
	fm->cx = cx;
	fm->release = release;
	model_pidmap_init(&fm->isolate, sizeof(struct isolate_last));
	choose_rule(fm, cfg);
}

void model_flags_release(struct flag_machine *fm)
{
	model_pidmap_release(&fm->isolate);
	free(fm->fn);
	fm->fn = NULL;
	fm->nnodes = 0;
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

#define EV_LEN sizeof(((struct flag_node *)0)->evidence[0])

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
		ev = f->evidence[fl];
		ev[0] = '\0';
	}
	if (ts > f->last_ev_ns[fl])
		f->last_ev_ns[fl] = ts;
	return ev;
}

static int emit_flag(struct flag_machine *fm, int nid, int fl, int64_t clear)
{
	struct flag_node *f = &fm->fn[nid];
	struct model_flag r = {
		.nid = nid, .flag = flag_name(fm, fl), .set_ns = f->set_ns[fl], .clear_ns = clear,
		.rule = fm->rule_name, .evidence = f->evidence[fl], .inferred = true,
	};

	f->set[fl] = false;
	fm->rows++;
	return fm->cx->sink.flag ? fm->cx->sink.flag(fm->cx->sink.arg, &r) : 0;
}

int model_flags_clear(struct flag_machine *fm, int nid, int64_t ts_ns)
{
	int ret = 0;

	if (fm->rule == FR_NONE || nid < 0 || nid >= fm->nnodes)
		return 0;
	for (int fl = 0; !ret && fl < FL_COUNT; fl++) {
		struct flag_node *f = &fm->fn[nid];
		int64_t clear = ts_ns;

		if (!f->set[fl])
			continue;
		if (f->last_ev_ns[fl] > clear) {	/* seen set after the check */
			clear = f->last_ev_ns[fl];
			fm->evidence_after_clear++;
		}
		ret = emit_flag(fm, nid, fl, clear);
	}
	return ret;
}

/* End of kswapd's current pass window on @nid: test the pass sums. */
int model_flags_pass_end(struct flag_machine *fm, int nid)
{
	struct flag_node *f;
	int64_t t;
	char *e;

	if (fm->rule == FR_NONE || fm->rule == FR_PER_CALL || nid < 0 || nid >= fm->nnodes)
		return 0;
	f = &fm->fn[nid];
	if (!f->ncalls)
		return 0;
	t = f->last_call_ns;
	/* a call without nr_taken leaves Σtaken unknown: only CONGESTED */
	if (!f->taken_unknown && f->writeback > 0 && f->writeback == f->taken &&
	    (e = set_flag(fm, nid, FL_WRITEBACK, t)))
		snprintf(e, EV_LEN, "kswapd pass of %d calls: nr_writeback=%lld == nr_taken=%lld",
			 f->ncalls, (long long)f->writeback, (long long)f->taken);
	if (f->dirty > 0 && f->dirty == f->congested && (e = set_flag(fm, nid, FL_CONGESTED, t)))
		snprintf(e, EV_LEN, "kswapd pass of %d calls: nr_dirty=%lld == nr_congested=%lld",
			 f->ncalls, (long long)f->dirty, (long long)f->congested);
	if (!f->taken_unknown && f->unqueued == f->file_taken &&
	    (!fm->dirty_needs_unqueued || f->unqueued > 0) &&
	    (e = set_flag(fm, nid, FL_DIRTY, t)))
		snprintf(e, EV_LEN, "kswapd pass of %d calls: unqueued_dirty=%lld =="
			 " file_taken=%lld", f->ncalls, (long long)f->unqueued,
			 (long long)f->file_taken);
	f->ncalls = f->taken_unknown = 0;
	f->taken = f->file_taken = f->dirty = f->congested = 0;
	f->writeback = f->immediate = f->unqueued = 0;
	f->priority = MODEL_NULL;
	return 0;
}

/* A priority change in kswapd's events ends a pass window. */
static void priority_boundary(struct flag_machine *fm, int nid, int64_t prio)
{
	struct flag_node *f = fnode(fm, nid);

	if (!f || prio == MODEL_NULL)
		return;
	if (f->ncalls && f->priority != MODEL_NULL && prio != f->priority)
		model_flags_pass_end(fm, nid);
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
}

static void per_call(struct flag_machine *fm, int pid, int64_t nid, int64_t ts, int64_t taken,
		     int64_t dirty, int64_t wb, int64_t congested, int64_t unqueued)
{
	char *e;

	if (taken != MODEL_NULL && wb > 0 && wb == taken &&
	    (e = set_flag(fm, nid, FL_WRITEBACK, ts)))
		snprintf(e, EV_LEN, "call of pid %d: nr_writeback=%lld == nr_taken=%lld", pid,
			 (long long)wb, (long long)taken);
	if (dirty > 0 && dirty == congested && (e = set_flag(fm, nid, FL_CONGESTED, ts)))
		snprintf(e, EV_LEN, "call of pid %d: nr_dirty=%lld == nr_congested=%lld", pid,
			 (long long)dirty, (long long)congested);
	if (taken != MODEL_NULL && unqueued == taken && (e = set_flag(fm, nid, FL_DIRTY, ts)))
		snprintf(e, EV_LEN, "call of pid %d: unqueued_dirty=%lld == nr_taken=%lld", pid,
			 (long long)unqueued, (long long)taken);
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
	int64_t taken, unqueued;
	struct flag_node *f;
	char *e;

	fm->n_shrink_inactive++;
	if (nid == MODEL_NULL || dirty == MODEL_NULL || wb == MODEL_NULL || cong == MODEL_NULL ||
	    imm == MODEL_NULL || !(f = fnode(fm, nid)))
		return;
	if (ks >= 0 && imm > 0 && (e = set_flag(fm, nid, FL_WRITEBACK, ts)))
		snprintf(e, EV_LEN, "witness: kswapd lru_shrink_inactive nr_immediate=%lld",
			 (long long)imm);
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
	unqueued = file ? dirty - wb - imm : 0;
	if (unqueued < 0)
		unqueued = 0;
	if (fm->rule == FR_PER_CALL) {
		per_call(fm, ev->pid, nid, ts, taken, dirty, wb, cong, unqueued);
		return;
	}
	if (ks < 0 || in_softlimit)
		return;	/* only kswapd's own passes count from 4.17 */
	priority_boundary(fm, (int)nid, model_val(fm->cx, ev, mev, MF_PRIORITY));
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

static void throttle_witness(struct flag_machine *fm, const struct ingest_event *ev, int mev, int ks)
{
	int64_t ts = (int64_t)ev->ts_ns, nid;
	struct isolate_last *il;
	char *e;

	switch (mev) {
	case MEV_THROTTLED:
		nid = model_val(fm->cx, ev, mev, MF_NID);
		if (ks >= 0 && model_val(fm->cx, ev, mev, MF_REASON) == 0x1) {
			model_flags_pass_end(fm, (int)nid);
			if ((e = set_flag(fm, nid, FL_WRITEBACK, ts)))
				snprintf(e, EV_LEN, "witness: kswapd throttled WRITEBACK");
		} else if (ks < 0 && model_val(fm->cx, ev, mev, MF_REASON) == 0x8 &&
			   (e = set_flag(fm, nid, FL_CONGESTED, ts))) {
			snprintf(e, EV_LEN, "witness: pid %d throttled CONGESTED", ev->pid);
		}
		break;
	case MEV_CONGESTION_WAIT:
		if (ks >= 0) {
			model_flags_pass_end(fm, ks);
			if ((e = set_flag(fm, ks, FL_WRITEBACK, ts)))
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
		      bool in_softlimit)
{
	int64_t flags;
	char *e;

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
		shrink_inactive(fm, ev, mev, ks, in_softlimit);
		break;
	case MEV_SHRINK_ACTIVE: case MEV_SLAB_START:
		if (ks >= 0 && fm->rule != FR_PER_CALL)
			priority_boundary(fm, ks, model_val(fm->cx, ev, mev, MF_PRIORITY));
		break;
	case MEV_SOFT_BEGIN:
		if (ks >= 0)
			model_flags_pass_end(fm, ks);
		break;
	case MEV_WRITEPAGE:
		flags = model_val(fm->cx, ev, mev, MF_RECLAIM_FLAGS);
		if (ks >= 0 && flags != MODEL_NULL && (flags & RECLAIM_WB_FILE) &&
		    (e = set_flag(fm, ks, FL_DIRTY, (int64_t)ev->ts_ns)))
			snprintf(e, EV_LEN, "witness: kswapd wrote file pfn %lld",
				 (long long)model_val(fm->cx, ev, mev, MF_PFN));
		break;
	default:
		throttle_witness(fm, ev, mev, ks);
		break;
	}
	return 0;
}


int model_flags_finish(struct flag_machine *fm, uint64_t kswapd_wakes)
{
	int ret = 0;
	const char *reason = fm->no_rule_reason;

	for (int nid = 0; nid < fm->nnodes; nid++) {
		model_flags_pass_end(fm, nid);
		for (int fl = 0; !ret && fl < FL_COUNT; fl++)
			if (fm->fn[nid].set[fl])
				ret = emit_flag(fm, nid, fl, MODEL_NULL);
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
	if (reason)
		return model_quality(fm->cx, "pgdat_flag_not_inferred", 1, reason);
	return model_quality(fm->cx, "pgdat_flag_rule", 1, fm->rule_detail) ?:
	       model_quality(fm->cx, "pgdat_flag_intervals", fm->rows, NULL) ?:
	       model_quality(fm->cx, "pgdat_flag_evidence_after_clear", fm->evidence_after_clear,
			     "flag evidence seen after kswapd's balanced check; clear moved to it") ?:
	       model_quality(fm->cx, "pgdat_flag_call_without_isolate", fm->call_no_isolate,
			     "lru_shrink_inactive without a preceding lru_isolate of the pid"
			     " (nr_taken unknown: only the CONGESTED test made)");
}
