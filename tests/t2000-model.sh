#!/usr/bin/env bash
# model: the derived tables written during load, `summary` and `timeline`.
# Synthetic recordings (tests/mkdat.py from tests/data-model/*.spec) give
# rows worked out by hand from the spec lines; tests/check-model.py
# rebuilds stalls, kswapd wakes/sleeps and wakeup delays from
# `trace-cmd report` text for those and for every samples/*.dat.
. "$(dirname "$0")/lib.sh"

MKDAT="$TOP/tests/mkdat.py"
DATA="$TOP/tests/data-model"
sdir=${VR_SAMPLES_DIR:-$TOP/samples}

derived() {	# DB: every derived row, in a fixed order
	sqlite3 "$1" "
	SELECT 'stall', kind, pid, begin_ns, end_ns, duration_ns, \"order\", gfp_flags,
	       nr_reclaimed, kswapd_state, complete, incomplete_reason
	       FROM reclaim_stall ORDER BY pid;
	SELECT 'cycle', nid, pid, wake_ns, \"order\", highest_zoneidx, last_activity_ns,
	       sleep_ns, next_wake_ns, decision, decision_exact, premature, nr_scanned,
	       nr_reclaimed, complete FROM kswapd_cycle ORDER BY nid, wake_ns;
	SELECT 'wakeup', ts_ns, pid, nid, zid, \"order\", gfp_flags, kswapd_state, served_ns,
	       delay_ns FROM kswapd_wakeup ORDER BY ts_ns;
	SELECT 'flag', nid, flag, set_ns, clear_ns, rule, evidence FROM pgdat_flag
	       ORDER BY nid, flag, set_ns;
	SELECT 'throttle', kind, pid, nid, reason, begin_ns, end_ns, usec_timeout, usec_delayed
	       FROM reclaim_throttle ORDER BY end_ns;
	SELECT 'write', ts_ns, pid, by_kswapd, pfn, file, sync FROM reclaim_write;"
}

# Worked out from tests/data-model/two-nodes-6.18.spec (release 6.15):
# - stalls: 100 1.050->1.080; 102 1.020->1.030 with events lost on its CPU in
#   between (incomplete); 101 begins 1.190 and never ends.  Node 0's kswapd
#   last worked at 1.003 (and 1.153), more than 1 ms before each begin and
#   before any sleep: napping.
# - node 0: wake 1.000, last activity 1.003 (write_folio), sleep 1.104
#   (full sleep; lost events inside: incomplete), request at 1.150 = 46 ms
#   after the sleep (premature), wake 1.151, activity to 1.153, wake 1.200:
#   47 ms < 100 ms without a sleep: nap woken early.  Scanned 32, reclaimed
#   20 then 32/30.
# - node 1: wake 1.010, activity 1.011, wake 1.01102: 20 us: no nap.
# - flags (6.18: rule "6.5+ node/cgroup"): kswapd's pass 32 writeback == 32
#   taken sets PGDAT_WRITEBACK at 1.002; its file write_folio at 1.003 sets
#   PGDAT_DIRTY; both cleared at the nap start 1.003.  pid 101, in direct
#   reclaim since 1.190, throttled CONGESTED on node 1 at 1.195 after
#   1000 us: LRUVEC_NODE_CONGESTED was set when its wait began, 1.194 (a
#   proof: the interval opens there), never cleared.
#   The anon pass at 1.153 sets nothing (6.13+: DIRTY needs unqueued > 0).
cat >"$test_root/expect-two-nodes" <<'EOF'
stall|direct|100|1050000000|1080000000|30000000|0|3264|16|napping|1|
stall|direct|101|1190000000|||3|1051850||napping|0|no_end_at_trace_end
stall|direct|102|1020000000|1030000000|10000000|0|3264|4|napping|0|lost_events
cycle|0|50|1000000000|0|2|1003000000|1104000000|1151000000|full_sleep|1|1|32|20|0
cycle|0|50|1151000000|2|2|1153000000||1200000000|nap_woken_early|0|0|32|30|1
cycle|0|50|1200000000|0|2||||unknown|0|0|0|0|0
cycle|1|51|1010000000|0|2|1011000000||1011020000|no_nap|0|0|0|0|1
cycle|1|51|1011020000|0|2||||unknown|0|0|0|0|0
wakeup|1150000000|100|0|2|2|3264|asleep|1151000000|1000000
flag|0|PGDAT_DIRTY|1003000000|1003000000|6.5+ node/cgroup|witness: kswapd wrote file pfn 4096
flag|0|PGDAT_WRITEBACK|1002000000|1003000000|6.5+ node/cgroup|kswapd pass of 1 calls: nr_writeback=32 == nr_taken=32
flag|1|LRUVEC_NODE_CONGESTED|1194000000||6.5+ node/cgroup|proof: pid 101 throttled CONGESTED in global reclaim (set when its wait began)
throttle|throttled|101|1|CONGESTED|1194000000|1195000000|10000|1000
write|1003000000|50|1|4096|1|0
EOF

test_expect_success 'two nodes, 6.18 formats: every derived row as worked out by hand' '
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" t.dat &&
	"$VR" load -q -d t.db t.dat &&
	derived t.db >actual &&
	test_cmp "$test_root/expect-two-nodes" actual &&
	sqlite3 t.db "SELECT item, count FROM run_quality WHERE count != 0
		AND item NOT GLOB \"pgdat_flag_*\" ORDER BY item" >q &&
	printf "%s\n" "kswapd_cycles_incomplete|3" "kswapd_cycles_unknown|2" \
		"lost_event_notices|1" "stall_begin_without_end|1" "stall_lost_events|1" \
		"stalls_direct|3" >expect && test_cmp expect q
'

test_expect_success 'load --premature-ms: 46 ms after the sleep is premature at 50, not at 40' '
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" t.dat &&
	"$VR" load -q -d a.db --premature-ms 50 t.dat &&
	"$VR" load -q -d b.db --premature-ms 40 t.dat &&
	test "$(sqlite3 a.db "SELECT sum(premature) FROM kswapd_cycle")" = 1 &&
	test "$(sqlite3 b.db "SELECT sum(premature) FROM kswapd_cycle")" = 0 &&
	test_expect_code 2 "$VR" load -q -d c.db --premature-ms 0 t.dat 2>err &&
	grep -q "premature-ms wants a whole number from 1 to" err
'

# Worked out from tests/data-model/proofs-writeback-6.18.spec (rule 6.5+
# node/cgroup; 6.18: a kswapd call's nr_immediate > 0 proves
# PGDAT_WRITEBACK set through it, nr_congested > 0 with nr_immediate 0
# proves it clear through it; a call runs from its lru_isolate):
# - pass 1 (call 1.001-1.002): writeback 32 == taken 32; the priority
#   change at 1.004 ends it: PGDAT_WRITEBACK inferred set at 1.002;
# - call 1.003-1.004 has 8 congested, 0 immediate: clear from 1.003, so the
#   interval is cut there: [1.002, 1.003], proof "cut"; its pass: dirty 8
#   == congested 8, LRUVEC_NODE_CONGESTED set at 1.004 (at the next
#   priority change, 1.021);
# - call 1.020-1.021 has 4 immediate: set from 1.020, where nothing was
#   inferred: a new interval from 1.020, proof "extended";
# - kswapd naps at its last event 1.021 and sleeps at 1.130: both flags
#   cleared at 1.021.  DIRTY: unqueued 0, 8 and 0 against 32 file pages
#   taken in the three passes: never set, 3 tests, all estimates.
cat >"$test_root/expect-proofs-wb" <<'EOF'
flag|0|PGDAT_WRITEBACK|1002000000|1003000000|kswapd pass of 1 calls: nr_writeback=32 == nr_taken=32|cut
flag|0|PGDAT_WRITEBACK|1020000000|1021000000|proof: kswapd call nr_immediate=4 (set during the call)|extended
flag|0|LRUVEC_NODE_CONGESTED|1004000000|1021000000|kswapd pass of 1 calls: nr_dirty=8 == nr_congested=8|
quality|pgdat_flag_cut|1
quality|pgdat_flag_dirty|3
quality|pgdat_flag_extended|1
quality|pgdat_flag_proofs_cgroup|0
quality|pgdat_flag_proofs_clear|1
quality|pgdat_flag_proofs_congested|0
quality|pgdat_flag_proofs_set|1
quality|pgdat_flag_throttle_no_context|0
EOF
# Worked out from tests/data-model/proofs-congested-6.18.spec:
# - kswapd's call at 1.002 (no lru_isolate: nr_taken unknown) has dirty 8
#   == congested 8; the priority change at 1.006 ends its pass:
#   LRUVEC_NODE_CONGESTED inferred set at 1.002.  It is also a proven-clear
#   call of PGDAT_WRITEBACK (nothing set: nothing cut);
# - pid 100, in direct reclaim, waited 9 ms to 1.010: the flag was set at
#   1.001, so the interval starts there (extended); its wait of 4 ms to
#   1.012 began at 1.008: covered, and kswapd's balanced check, dated at
#   its nap start 1.006, must have come after 1.008: cleared at 1.008
#   (evidence after the check);
# - pid 102's wait is in memcg reclaim (that memcg's flag, not the node's),
#   pid 103 has no reclaim begin (no proof): neither changes anything;
# - pid 101, in direct reclaim since 1.300, waited 4 ms to 1.305: set at
#   1.301, where nothing was: a new interval, still set at the end.
# - DIRTY: no kswapd call with nr_taken: cannot be inferred.
cat >"$test_root/expect-proofs-cong" <<'EOF'
flag|0|LRUVEC_NODE_CONGESTED|1001000000|1008000000|kswapd pass of 1 calls: nr_dirty=8 == nr_congested=8|extended
flag|0|LRUVEC_NODE_CONGESTED|1301000000||proof: pid 101 throttled CONGESTED in global reclaim (set when its wait began)|extended
quality|pgdat_flag_cut|0
quality|pgdat_flag_dirty|0
quality|pgdat_flag_extended|2
quality|pgdat_flag_proofs_cgroup|1
quality|pgdat_flag_proofs_clear|1
quality|pgdat_flag_proofs_congested|3
quality|pgdat_flag_proofs_set|0
quality|pgdat_flag_throttle_no_context|1
EOF
proof_rows() {	# DB: flag rows in table order, then the proof counts
	sqlite3 "$1" "SELECT 'flag', nid, flag, set_ns, clear_ns, evidence, proof FROM pgdat_flag
		ORDER BY rowid;
		SELECT 'quality', item, count FROM run_quality WHERE item IN ('pgdat_flag_cut',
		'pgdat_flag_dirty', 'pgdat_flag_extended', 'pgdat_flag_throttle_no_context')
		OR item GLOB 'pgdat_flag_proofs_*' ORDER BY item"
}

test_expect_success 'proofs: a proven-clear kswapd call cuts PGDAT_WRITEBACK, a proven-set one opens it' '
	python3 "$MKDAT" "$DATA/proofs-writeback-6.18.spec" pw.dat &&
	"$VR" load -q -d pw.db pw.dat &&
	proof_rows pw.db >actual &&
	test_cmp "$test_root/expect-proofs-wb" actual
'

test_expect_success 'proofs: throttled CONGESTED moves the interval back to the wait start; memcg waits do not' '
	python3 "$MKDAT" "$DATA/proofs-congested-6.18.spec" pc.dat &&
	"$VR" load -q -d pc.db pc.dat &&
	proof_rows pc.db >actual &&
	test_cmp "$test_root/expect-proofs-cong" actual &&
	test "$(sqlite3 pc.db "SELECT count FROM run_quality
		WHERE item = \"pgdat_flag_evidence_after_clear\"")" = 1
'

# Worked out from tests/data-model/clear-rule-6.18.spec: kswapd's call
# 1.001-1.002 has nr_immediate 4 (PGDAT_WRITEBACK set through it), its
# call 1.003-1.004 8 congested and none immediate (clear from 1.003); no
# kswapd wake or sleep between, so no prepare_kswapd_sleep() ran there:
# kswapd-sleep (6.18's own rule) allows no clear, the trace contradicts it
# at 1 point, the second call's start 1.003; balanced-check allows a clear
# at balance_pgdat()'s check before pass 2: no contradiction.
cr_said="the trace contradicts rule kswapd-sleep at 1 point (first at 1.003000 s, node 0, PGDAT_WRITEBACK: proven clear after a kswapd call proved it set, with no sleep check of kswapd between)"
contradictions() {	# DB: count|detail of pgdat_flag_contradictions
	sqlite3 "$1" "SELECT count, detail FROM run_quality WHERE item = 'pgdat_flag_contradictions'"
}

test_expect_success 'load --flag-clear: the clearing rule is recorded, a contradicting trace says so' '
	python3 "$MKDAT" "$DATA/clear-rule-6.18.spec" cr.dat &&
	"$VR" load -q -d a.db cr.dat 2>err &&
	echo "1|$cr_said" >expect && contradictions a.db >actual && test_cmp expect actual &&
	echo "vmscan-report: warning: cr.dat: run 1: $cr_said" >expect && test_cmp expect err &&
	"$VR" summary -d a.db >s &&
	grep -q "^  pgdat_flag_contradictions  *1  $cr_said\$" s &&
	grep -q "^  pgdat_flag_clear_rule  *kswapd-sleep: cleared only by kswapd.s balanced sleep check (prepare_kswapd_sleep(), 4.12+); the release.s\$" s &&
	"$VR" load -q -d b.db --flag-clear balanced-check cr.dat 2>err &&
	! test -s err &&
	echo "0|the trace contradicts rule balanced-check at no point" >expect &&
	contradictions b.db >actual && test_cmp expect actual &&
	sqlite3 b.db "SELECT detail FROM run_quality WHERE item = \"pgdat_flag_clear_rule\"" >d &&
	grep -q "^balanced-check: .*; chosen for the run (load --flag-clear)\$" d
'

test_expect_success 'load --flag-clear LABEL=RULE: the runs of that label; another label or a bad rule is a usage error' '
	python3 "$MKDAT" "$DATA/clear-rule-6.18.spec" cr.dat &&
	"$VR" load -q -d c.db -k patched --flag-clear patched=balanced-check cr.dat 2>err &&
	! test -s err &&
	"$VR" load -q -d e.db -k vanilla cr.dat 2>err &&
	test -s err &&
	# with --kernel, a rule for another label is refused (t1065), not ignored
	test_expect_code 2 "$VR" load -q -d e.db -k vanilla --flag-clear patched=balanced-check \
		cr.dat 2>err && grep -q patched err &&
	for db in c e; do
		sqlite3 $db.db "SELECT r.kernel, q.count FROM run r JOIN run_quality q
			ON q.run_id = r.id AND q.item = \"pgdat_flag_contradictions\"" || exit 1
	done >actual &&
	printf "%s\n" "patched|0" "vanilla|1" >expect && test_cmp expect actual &&
	test_expect_code 2 "$VR" load -q -d d.db --flag-clear sleep cr.dat 2>err &&
	grep -q "flag-clear: unknown rule .sleep. (kswapd-sleep or balanced-check)" err &&
	! test -e d.db
'

# The windows in proofs-writeback-6.18.spec: the cut lies after the
# interval's last evidence (its set, 0.002) and by the proving call's
# lru_isolate (0.003); pass 2's LRUVEC_NODE_CONGESTED after its last call
# (0.004) and by the priority change that ended it (0.021); the sleep check
# after kswapd's last event (0.021) and by its kswapd_sleep (0.130).
test_expect_success 'timeline, summary, chart: cut and moved intervals; PGDAT_DIRTY an estimate, or cannot be inferred' '
	for s in writeback congested; do
		python3 "$MKDAT" "$DATA/proofs-$s-6.18.spec" $s.dat || exit 1
	done &&
	"$VR" load -q -d pw.db writeback.dat && "$VR" load -q -d pc.db congested.dat &&
	"$VR" timeline -d pw.db -r 1 >tw &&
	grep -q "^ *0.003000  0     PGDAT_WRITEBACK cleared (cut: a kswapd call proves it clear from here) \[cleared between 0.002000 and 0.003000 s\]\$" tw &&
	grep -q "^ *0.021000  0     PGDAT_WRITEBACK cleared (kswapd found the node balanced) \[cleared between 0.021000 and 0.130000 s\]\$" tw &&
	grep -q "^ *0.004000  0     LRUVEC_NODE_CONGESTED set (kswapd pass of 1 calls: nr_dirty=8 == nr_congested=8, rule 6.5+ node/cgroup) \[set between 0.004000 and 0.021000 s\]\$" tw &&
	"$VR" timeline -d pc.db -r 1 >tc &&
	grep -q "^ *0.001000  0     LRUVEC_NODE_CONGESTED set (kswapd pass of 1 calls: nr_dirty=8 == nr_congested=8, rule 6.5+ node/cgroup) \[moved back to cover a proof\]\$" tc &&
	"$VR" summary -d pw.db >sw &&
	grep -q "^  PGDAT_DIRTY is an estimate from the rule (nr_unqueued_dirty is not traced: nr_dirty - nr_writeback - nr_immediate of file calls); nothing can witness it on 6.16+: reclaim writes no file folio (pageout() activates them, 6b0dfabb3555 \"fs: Remove aops->writepage\")\$" sw &&
	"$VR" summary -d pc.db >sc &&
	grep -q "^  PGDAT_DIRTY cannot be inferred: no kswapd call with nr_taken (its lru_isolate) was traced, and no kswapd file write\$" sc &&
	"$VR" chart -d pc.db -T timeline -r 1 --dump-data >dc &&
	grep -q "^flag PGDAT_DIRTY note cannot be inferred\$" dc &&
	"$VR" chart -d pw.db -T timeline -r 1 --dump-data >dw &&
	grep -q "^flag PGDAT_DIRTY note never set (an estimate: nr_unqueued_dirty is not traced)\$" dw
'

test_expect_success 'timeline: a PGDAT_DIRTY set from the counters says it is an estimate, a witnessed one does not' '
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" t.dat &&
	"$VR" load -q -d t.db t.dat && "$VR" timeline -d t.db -r 1 >tt &&
	grep "PGDAT_DIRTY set (witness: kswapd wrote file pfn 4096" tt >d1 && ! grep -q estimate d1 &&
	sed -e "s/nr_dirty=32 nr_writeback=32/nr_dirty=32 nr_writeback=0/" -e "/write_folio/d" \
		"$DATA/two-nodes-6.18.spec" >est.spec &&
	python3 "$MKDAT" est.spec est.dat && "$VR" load -q -d est.db est.dat &&
	"$VR" timeline -d est.db -r 1 >te &&
	grep -q "PGDAT_DIRTY set (kswapd pass of 1 calls: unqueued_dirty=32 == file_taken=32 (estimate), rule 6.5+ node/cgroup) \[estimate: nr_unqueued_dirty is not traced\] \[set between 0.002000 and 0.104000 s\]\$" te
'

# check-model.py must fail where the database disagrees with the trace:
# a wrapper loads with vmscan-report, then changes one derived table.
test_expect_success 'check-model.py fails on a disagreement: a cut interval reopened, a write, wait or memcg stall dropped' '
	python3 "$MKDAT" "$DATA/proofs-writeback-6.18.spec" pw.dat &&
	python3 "$MKDAT" "$DATA/proofs-congested-6.18.spec" pc.dat &&
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" t.dat &&
	for sql in "UPDATE pgdat_flag SET clear_ns = NULL" "DELETE FROM reclaim_write" \
		"DELETE FROM reclaim_throttle" "UPDATE pgdat_flag SET set_ns = set_ns + 1" \
		"DELETE FROM reclaim_stall WHERE kind = '"'"'memcg'"'"'"; do
		printf "%s\n" "#!/bin/sh" "\"$VR\" \"\$@\" || exit" \
			"[ \"\$1\" = load ] && sqlite3 \"\$4\" \"$sql\"" "exit 0" >vr &&
		chmod +x vr &&
		test_expect_code 1 python3 "$TOP/tests/check-model.py" ./vr pw.dat pc.dat t.dat >out &&
		grep -q MISMATCH out || exit 1
	done &&
	printf "%s\n" "#!/bin/sh" "exec \"$VR\" \"\$@\"" >vr &&
	python3 "$TOP/tests/check-model.py" ./vr pw.dat pc.dat t.dat >out && ! grep -q MISMATCH out
'

# Per-call rule (4.11): pid 10 took 16 pages, 16 under writeback, 16 dirty,
# 16 congested at 1.012: WRITEBACK and CONGESTED set (DIRTY: unqueued
# 16-16-0 = 0 != 16); kswapd napped from its last call at 1.021 and slept at
# 1.122: cleared at 1.021.  As 4.10 (no counters): no intervals, a reason.
test_expect_success '4.11 formats: per-call flags; 4.10 formats: none, reason recorded' '
	python3 "$MKDAT" "$DATA/per-call-4.11.spec" p11.dat &&
	sed "s/^era 4.11/era 4.10/" "$DATA/per-call-4.11.spec" >p10.spec &&
	python3 "$MKDAT" p10.spec p10.dat &&
	"$VR" load -q -d p11.db p11.dat && "$VR" load -q -d p10.db p10.dat &&
	sqlite3 p11.db "SELECT flag, set_ns, clear_ns, rule FROM pgdat_flag ORDER BY flag" >a11 &&
	printf "%s\n" "PGDAT_CONGESTED|1012000000|1021000000|4.11-4.16 per-call" \
		"PGDAT_WRITEBACK|1012000000|1021000000|4.11-4.16 per-call" >expect &&
	test_cmp expect a11 &&
	test "$(sqlite3 p10.db "SELECT count(*) FROM pgdat_flag")" = 0 &&
	sqlite3 p10.db "SELECT detail FROM run_quality WHERE item = \"pgdat_flag_not_inferred\"" >r &&
	grep -q "no nr_dirty/nr_writeback counters (4.10 and older formats)" r &&
	for db in p10.db p11.db; do
		test "$(sqlite3 $db "SELECT kind, duration_ns, kswapd_state, complete
			FROM reclaim_stall")" = "direct|3000000|awake|1" &&
		test "$(sqlite3 $db "SELECT decision, nr_scanned, nr_reclaimed
			FROM kswapd_cycle")" = "full_sleep|8|8" || exit 1
	done
'

# kswapd0 works at 1.000-1.001 before its first wake at 1.102 (g = 101 ms,
# no sleep: nap timed out), then sleeps at 1.300 without further activity.
test_expect_success 'activity before the first kswapd_wake: a cycle with wake_ns NULL' '
	python3 "$MKDAT" "$DATA/prewake-6.18.spec" w.dat &&
	"$VR" load -q -d w.db w.dat &&
	sqlite3 w.db "SELECT nid, pid, wake_ns, last_activity_ns, sleep_ns, next_wake_ns,
		decision, nr_scanned, nr_reclaimed, complete FROM kswapd_cycle
		ORDER BY coalesce(wake_ns, 0)" >actual &&
	printf "%s\n" "0|50||1001000000||1102000000|nap_timed_out|32|20|0" \
		"0|50|1102000000||1300000000||full_sleep|0|0|0" >expect &&
	test_cmp expect actual
'

# Worked out from tests/data-model/throttled-nodes-6.18.spec:
# - kswapd0's mm_vmscan_throttled WRITEBACK at 1.105 waited 100000 us: it
#   was blocked in reclaim_throttle() from 1.005 to 1.105, awake; its last
#   other event was at 1.002, so from 1.003 on it looked napping.
# - pid 101 (1.030-1.040) reclaimed from node 1 only: nids 1; kswapd1 slept
#   at 1.020: asleep (main said napping: node 0's kswapd).
# - pid 100 (1.050-1.080) reclaimed from node 0 at 1.0605, node 1 at
#   1.0705: nids 0,1; its first node 0's kswapd was throttled since 1.005
#   (it ended before the throttle was traced at 1.105).
# - pid 104 (1.090-1.120), node 0, open at 1.105: throttled.
# - pid 102 (1.150-1.160) has no shrink event: no nids, node 0's state:
#   kswapd0 quiet since 1.105 and next seen waking at 1.180: napping.
# Chart, times from 1.000: kswapd0 awake 0-0.005, throttled 0.005-0.105,
# napping 0.105-0.18 (woken at 75 ms); node 0 draws the stalls at 0.05,
# 0.09, 0.15 (and kswapd's wait at 0.005), node 1 those at 0.03, 0.05, 0.15.
test_expect_success 'kswapd throttled WRITEBACK is awake; stalls on the nodes they reclaimed from' '
	python3 "$MKDAT" "$DATA/throttled-nodes-6.18.spec" tn.dat &&
	"$VR" load -q -d tn.db tn.dat &&
	sqlite3 tn.db "SELECT pid, begin_ns, end_ns, kswapd_state, nids FROM reclaim_stall
		ORDER BY pid" >actual &&
	printf "%s\n" "100|1050000000|1080000000|throttled|0,1" \
		"101|1030000000|1040000000|asleep|1" "102|1150000000|1160000000|napping|" \
		"104|1090000000|1120000000|throttled|0" >expect &&
	test_cmp expect actual &&
	"$VR" timeline -d tn.db -r 1 >tl &&
	grep -F "0.005000  0     kswapd0 throttled WRITEBACK 100.000 ms: awake, waiting in reclaim_throttle()" tl &&
	grep -F "0.050000  0     direct reclaim stall 30.000 ms: alloc-100 order=0, nodes 0,1, kswapd0 throttled" tl &&
	"$VR" timeline -d tn.db -r 1 --node 1 >tl1 &&
	grep "reclaim stall" tl1 | sed "s/^ *//" >actual &&
	printf "%s\n" \
		"0.030000  1     direct reclaim stall 10.000 ms: alloc1-101 order=0, nodes 1, kswapd1 asleep" \
		"0.050000  1     direct reclaim stall 30.000 ms: alloc-100 order=0, nodes 0,1, kswapd0 throttled" \
		"0.150000  -     direct reclaim stall 10.000 ms: idle-102 order=0, kswapd napping" \
		>expect && test_cmp expect actual &&
	"$VR" chart -d tn.db -r 1 -T timeline --dump-data >dump &&
	sed -n "/^node 0/,/^node 1/p" dump | grep -E "^(kswapd|stall)" | head -7 >actual &&
	printf "%s\n" "kswapd awake 0 0.005" "kswapd throttled 0.005 0.105" \
		"kswapd napping 0.105 0.18" "kswapd awake 0.18 0.18" "stall 0.005 100 throttle" \
		"stall 0.05 30 direct" "stall 0.09 30 direct" >expect && test_cmp expect actual &&
	sed -n "/^node 1/,\$p" dump | grep "^stall" >actual &&
	printf "%s\n" "stall 0.03 10 direct" "stall 0.05 30 direct" "stall 0.15 10 direct" >expect &&
	test_cmp expect actual
'

# Worked out from tests/data-model/mglru-retry-6.18.spec: kswapd0 scanned a
# file batch of 64 (lru_isolate 64) and an anon batch of 32, reclaiming
# 40 + 20 (retry) + 32 = 92; pid 100 scanned 16 anon and reclaimed 8 + 4
# (retry) = 12.  Pages scanned count each batch once: kswapd 64 + 32 = 96
# (file 64, anon 32), direct 16, as the lru_isolate lines say; two retry
# passes.  (71333ad counted 160 and 32.)
test_expect_success 'multi-gen LRU retry pass: its pages scanned are counted once' '
	python3 "$MKDAT" "$DATA/mglru-retry-6.18.spec" mg.dat &&
	"$VR" load -q -d mg.db mg.dat &&
	test "$(sqlite3 mg.db "SELECT nr_scanned, nr_reclaimed FROM kswapd_cycle
		WHERE wake_ns IS NOT NULL")" = "96|92" &&
	test "$(sqlite3 mg.db "SELECT count FROM run_quality WHERE item = \"mglru_retry_passes\"")" = 2 &&
	"$VR" summary -d mg.db >out &&
	grep -E "^  (Pages (scanned|reclaimed) (by kswapd|in direct reclaim)|(Kswapd|Outside kswapd) (lru_isolate|shrink_inactive))" out |
		sed "s/  */ /g" >actual &&
	printf "%s\n" " Pages scanned by kswapd 96" " Pages reclaimed by kswapd 92" \
		" Pages scanned in direct reclaim 16" " Pages reclaimed in direct reclaim 12" \
		" Outside kswapd lru_isolate nr_scanned: 16 (file 0, anon 16)" \
		" Outside kswapd shrink_inactive nr_reclaimed: 12 (file 0, anon 12)" \
		" Kswapd lru_isolate nr_scanned: 96 (file 64, anon 32)" \
		" Kswapd shrink_inactive nr_reclaimed: 92 (file 60, anon 32)" >expect &&
	test_cmp expect actual
'

# Worked out from tests/data-model/slab-6.18.spec: pid 100's calls of 2 us
# and of 10 us (events lost inside: not complete); pid 101's end at 1.000
# without a start and its start at 1.005 without an end; pid 102's start at
# 1.002 followed by another start (no end), whose call lasts 5 us.  A call
# with an end is its mm_shrink_slab_end row (shrinker and nid from the end,
# total_scan and retval from the end, nr_objects_to_shrink from the start);
# one without is stored whole, from its start.  The text of `trace-cmd
# report` gives the same rows: it prints symbols, not addresses, and the
# name goes to shrink_sym as from trace.dat.
cat >"$test_root/expect-slab" <<'EOF'
101|0|deferred_split_scan||1000000000|||7|3|0
100|0|super_cache_scan|1001000000|1001002000|2000|128|64|40|1
102|1|super_cache_scan|1002000000|||9|10||0
102|1|deferred_split_scan|1003000000|1003005000|5000|50|2|12|1
100|0|super_cache_scan|1004000000|1004010000|10000|256|284|100|0
101|0|super_cache_scan|1005000000|||1|1||0
EOF
slab_rows() {	# DB RUN: the run's slab_shrink rows in time order
	sqlite3 "$1" "SELECT pid, nid, shrinker, begin_ns, end_ns, duration_ns,
		nr_objects_to_shrink, total_scan, retval, complete FROM slab_shrink
		WHERE run_id = $2 ORDER BY coalesce(begin_ns, end_ns)"
}

test_expect_success 'slab_shrink: shrinker calls as worked out by hand, from trace.dat and from text' '
	python3 "$MKDAT" "$DATA/slab-6.18.spec" s.dat &&
	"$VR" load -q -d s.db s.dat &&
	slab_rows s.db 1 >actual &&
	test_cmp "$test_root/expect-slab" actual &&
	sqlite3 s.db "SELECT item, count FROM run_quality WHERE item GLOB \"slab_*\"
		ORDER BY item" >q &&
	printf "%s\n" "slab_end_without_start|1" "slab_lost_events|1" \
		"slab_start_without_end|2" >expect && test_cmp expect q &&
	test "$(sqlite3 s.db "SELECT count(*) FROM slab_shrink_stored")" = 2 &&
	trace-cmd report s.dat >s.txt 2>/dev/null &&
	"$VR" load -q -d st.db s.txt &&
	slab_rows st.db 1 >actual &&
	test_cmp "$test_root/expect-slab" actual &&
	sqlite3 st.db "SELECT DISTINCT shrink IS NULL, shrink_sym FROM mm_shrink_slab_start
		ORDER BY 2" >sym &&
	printf "%s\n" "1|deferred_split_scan" "1|super_cache_scan" >expect && test_cmp expect sym
'

# tests/data-model/schema-v1-slab.sql is the database that the release
# before slab_shrink became a view made of the same trace.  Loads that fail
# leave it as it was (the upgrade is in the run's transaction); a user's
# view on slab_shrink reads the new view after the upgrade.
test_expect_success 'schema version 1 database: read as it is, upgraded by the next load, rows kept' '
	python3 "$MKDAT" "$DATA/slab-6.18.spec" s.dat &&
	rm -f v1.db && sqlite3 v1.db <"$DATA/schema-v1-slab.sql" &&
	test "$(sqlite3 v1.db "SELECT type FROM sqlite_master WHERE name = \"slab_shrink\"")" = table &&
	slab_rows v1.db 1 >before1 && test "$(wc -l <before1)" = 6 &&
	sqlite3 v1.db "CREATE VIEW mine AS SELECT run_id FROM slab_shrink" &&
	sqlite3 v1.db .dump >dump0 &&
	"$VR" summary -d v1.db >sum && grep -q "^run 1: 6.18.0-test" sum &&
	printf "not a trace\n" >bad.txt &&
	test_expect_code 1 "$VR" load -q -d v1.db bad.txt 2>err &&
	test_expect_code 1 "$VR" load -q -d v1.db s.dat 2>err &&
	grep -q "already loaded as run 1" err &&
	test_expect_code 1 "$VR" import-latency -d v1.db --kernel x bad.txt 2>err &&
	sqlite3 v1.db .dump >dump1 && test_cmp dump0 dump1 &&
	test "$(sqlite3 v1.db "PRAGMA user_version")" = 1 &&
	trace-cmd report s.dat >s.txt 2>/dev/null &&
	"$VR" load -q -d v1.db s.txt &&
	test "$(sqlite3 v1.db "PRAGMA user_version")" = 7 &&
	test "$(sqlite3 v1.db "SELECT type FROM sqlite_master WHERE name = \"slab_shrink\"")" = view &&
	test "$(sqlite3 v1.db "SELECT group_concat(n) FROM (SELECT run_id || \":\" || count(*) AS n
		FROM mine GROUP BY run_id)")" = 1:6,2:6 &&
	slab_rows v1.db 1 >actual1 && slab_rows v1.db 2 >actual2 &&
	sort before1 >expect && sort actual1 >sorted1 && test_cmp expect sorted1 &&
	test_cmp "$test_root/expect-slab" actual2 &&
	test "$(sqlite3 v1.db "SELECT count(*) FROM mm_shrink_slab_end
		WHERE run_id = 1 AND slab_complete IS NULL")" = 4 &&
	"$VR" load -q -d v1.db --replace s.dat &&
	test "$(sqlite3 v1.db "SELECT group_concat(id) FROM run")" = 1,2 &&
	slab_rows v1.db 1 >actual1 && test_cmp "$test_root/expect-slab" actual1 &&
	test "$(sqlite3 v1.db "SELECT count(*) FROM mm_shrink_slab_end
		WHERE slab_complete IS NULL")" = 0 &&
	sqlite3 v1.db "PRAGMA user_version=99" &&
	test_expect_code 1 "$VR" summary -d v1.db 2>err &&
	grep -q "schema version 99, this vmscan-report reads version 7" err
'

test_expect_success 'summary: totals, per-process and per-node kswapd tables' '
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" t.dat &&
	"$VR" load -q -d t.db t.dat &&
	"$VR" summary -d t.db --run 1 >out &&
	grep -q "^  Direct reclaim stalls, all: *3 (2 incomplete)$" out &&
	grep -q "^  Direct reclaim stalls complete  *1$" out &&
	grep -q "^  Direct reclaim stalls incomplete  *2$" out &&
	# complete stalls only: pid 100 1.050-1.080 (pid 102 lost events, 101 no end)
	grep -q "^  Direct reclaim stall time ms  *30.00$" out &&
	grep -q "^  Kswapd lru_isolate nr_scanned: *72 (file 32, anon 40)$" out &&
	grep -q "^  Kswapd shrink_inactive nr_reclaimed: *50 (file 20, anon 30)$" out &&
	grep -q "^  Kswapd writes file sync/async: *0 / 1 folios$" out &&
	grep -q "^  Wake kswapd requests per order: *2:1$" out &&
	grep -q "^  alloc-100  *1  *1  *0  *0  *0  *0  *30.000  direct-0=1 wakeup-2=1$" out &&
	# wakes per order; re-wakes: 1.200 (node 0, after a nap), 1.01102 (node 1)
	grep -q "^  0    wake-0=2 wake-2=1 rewake-0=1$" out &&
	grep -q "^  1    wake-0=2 rewake-0=1$" out &&
	# node 0: 3 wakes, 1 re-wake (1.200 after a nap), awake 1.000-1.104 and
	# 1.151-1.200 (trace end): 0.153 s of 0.200 s; node 1: 1.010-1.200
	grep -q "^  0  *50  *3  *1  *1  *1  *1  *0  *0  *1  *0.153  *76.50%$" out &&
	grep -q "^  1  *51  *2  *1  *0  *0  *0  *0  *1  *1  *0.190  *95.00%$" out &&
	# the counter over both nodes: (0.153 + 0.190) / (2 * 0.200)
	grep -q "^  Kswapd awake to full sleep %  *85.75$" out &&
	"$VR" summary -d t.db >all && test_cmp out all
'

# The windows (set between, cleared between; no sched events): the pass's
# last call 0.002, its end shown only by kswapd_sleep at 0.104; the sleep
# check after kswapd's last event 0.003 and before its kswapd_sleep 0.104.
test_expect_success 'timeline: one line per state change, node and time filters' '
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" t.dat &&
	"$VR" load -q -d t.db t.dat &&
	"$VR" timeline -d t.db --run 1 --node 0 --from 0.1 --to 0.2 --min-stall-ms 5 >out &&
	cat >expect <<-\EOF &&
	       seconds  node  event
	      0.104000  0     kswapd full sleep, PREMATURE: wakeup request soon after
	      0.151000  0     kswapd0 wake order=2 zid=2
	      0.153000  0     kswapd nap, woken early after 47.000 ms (LOW_WMARK_HIT_QUICKLY)
	      0.200000  0     kswapd0 wake order=0 zid=2
	EOF
	test_cmp expect out &&
	"$VR" timeline -d t.db --run 1 --to 0.011 --min-stall-ms 5 >out &&
	cat >expect <<-\EOF &&
	       seconds  node  event
	      0.000000  0     kswapd0 wake order=0 zid=2
	      0.002000  0     PGDAT_WRITEBACK set (kswapd pass of 1 calls: nr_writeback=32 == nr_taken=32, rule 6.5+ node/cgroup) [set between 0.002000 and 0.104000 s]
	      0.003000  0     kswapd nap, node balanced [exact]
	      0.003000  0     PGDAT_DIRTY set (witness: kswapd wrote file pfn 4096, rule 6.5+ node/cgroup)
	      0.003000  0     PGDAT_WRITEBACK cleared (kswapd found the node balanced) [cleared between 0.003000 and 0.104000 s]
	      0.003000  0     PGDAT_DIRTY cleared (kswapd found the node balanced) [cleared between 0.003000 and 0.104000 s]
	      0.010000  1     kswapd1 wake order=0 zid=2
	      0.011000  1     kswapd no nap: node unbalanced at the first check (HIGH_WMARK_HIT_QUICKLY)
	EOF
	test_cmp expect out &&
	"$VR" timeline -d t.db --run 1 --from 0.02 --to 0.06 >out &&
	cat >expect <<-\EOF &&
	       seconds  node  event
	      0.020000  -     direct reclaim stall 10.000 ms: reader-102 order=0, kswapd napping (incomplete: lost_events)
	      0.050000  -     direct reclaim stall 30.000 ms: alloc-100 order=0, kswapd napping
	EOF
	test_cmp expect out &&
	"$VR" timeline -d t.db --run 1 --from 0.02 --to 0.06 --min-stall-ms 20 >out &&
	test $(grep -c "reclaim stall" out) = 1
'

test_expect_success 'summary and timeline: usage errors exit 2, a missing run exits 1' '
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" t.dat &&
	"$VR" load -q -d t.db t.dat &&
	test_expect_code 2 "$VR" timeline -d t.db 2>err && grep -q "timeline: --run ID is required" err &&
	test_expect_code 2 "$VR" timeline -d t.db --run 1 --from x 2>err &&
	test_expect_code 2 "$VR" timeline -d t.db --run 1 --from 2 --to 1 2>err &&
	test_expect_code 1 "$VR" summary 2>err &&
	grep -q "^vmscan-report: vmscan.db: no such database" err &&
	test_expect_code 1 "$VR" summary -d t.db --run 7 2>err &&
	grep -q "^vmscan-report: t.db: no run 7 (its runs: 1)$" err &&
	test_expect_code 1 "$VR" timeline -d t.db --run 7 2>err &&
	grep -q "^vmscan-report: t.db: no run 7 (its runs: 1)$" err &&
	test_expect_code 1 "$VR" summary -d nonexistent.db 2>err &&
	test_expect_code 2 "$VR" timeline -d t.db --run 1 --min-stall-ms -5 2>err &&
	grep -q "min-stall-ms wants milliseconds >= 0, not .-5." err &&
	test_expect_code 1 "$VR" timeline -d t.db --run 1 --node 5 2>err &&
	grep -q "^vmscan-report: t.db: run 1 has no node 5 (its nodes: 0, 1)$" err
'

test_expect_success 'check-model.py: stalls, kswapd, wakeups, pages, writes, throttling and flag proofs match trace-cmd report' '
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" t.dat &&
	python3 "$MKDAT" "$DATA/per-call-4.11.spec" p.dat &&
	python3 "$MKDAT" "$DATA/proofs-writeback-6.18.spec" pw.dat &&
	python3 "$MKDAT" "$DATA/proofs-congested-6.18.spec" pc.dat &&
	python3 "$TOP/tests/check-model.py" "$VR" t.dat p.dat pw.dat pc.dat \
		$(ls "$sdir"/*.dat 2>/dev/null)
'
test_done
