#!/usr/bin/env bash
# Text traces of each era, written by hand in the line layout of the
# release's TP_printk formats (include/trace/events/vmscan.h) and of
# ftrace's trace file: the flag rule set, LRU names, task names, kswapd's
# time before its first event.  Expected values are worked out by hand in
# the comments.
. "$(dirname "$0")/lib.sh"

# era_trace ERA: a direct reclaimer (a.out-500) whose one inactive-file
# call isolated 32 pages, all under writeback (nr_writeback=32 ==
# nr_taken=32), gfp_flags printed by name.  Before 4.17 that call sets
# PGDAT_WRITEBACK (shrink_inactive_list()); from 4.17 only kswapd's
# shrink_node() sets the flags, and kswapd here reclaims nothing: no flag.
era_trace() {
	case $1 in
	4.17)	# kswapd_wake/wakeup_kswapd print zid; direct_reclaim_begin
		# may_writepage and classzone_idx; one nr_activate; 4 flag chars
		cat <<-\EOF
		# tracer: nop
		#
		#                              _-----=> irqs-off
		#                             / _----=> need-resched
		#                            | / _---=> hardirq/softirq
		#                            || / _--=> preempt-depth
		#                            ||| /     delay
		#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION
		#              | |       |   ||||       |         |
		           a.out-500   [001] ....   200.000100: mm_vmscan_wakeup_kswapd: nid=0 zid=2 order=0 gfp_flags=GFP_KERNEL|__GFP_NOWARN
		         kswapd0-97    [002] ....   200.000150: mm_vmscan_kswapd_wake: nid=0 zid=2 order=0
		           a.out-500   [001] ....   200.000200: mm_vmscan_direct_reclaim_begin: order=0 may_writepage=1 gfp_flags=GFP_KERNEL|__GFP_NOWARN classzone_idx=2
		           a.out-500   [001] ....   200.000300: mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 lru=inactive_file
		           a.out-500   [001] ....   200.000400: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=0 nr_dirty=32 nr_writeback=32 nr_congested=0 nr_immediate=0 nr_activate=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
		           a.out-500   [001] ....   200.000900: mm_vmscan_direct_reclaim_end: nr_reclaimed=0
		         kswapd0-97    [002] ....   200.010000: mm_vmscan_kswapd_sleep: nid=0
		EOF
		;;
	5.10)	# no zid printed, nr_activate_anon/_file
		cat <<-\EOF
		# tracer: nop
		#
		#           TASK-PID     CPU#  ||||    TIMESTAMP  FUNCTION
		#              | |         |   ||||       |         |
		           a.out-500     [001] ....   200.000100: mm_vmscan_wakeup_kswapd: nid=0 order=0 gfp_flags=GFP_KERNEL|__GFP_NOWARN
		         kswapd0-97      [002] ....   200.000150: mm_vmscan_kswapd_wake: nid=0 order=0
		           a.out-500     [001] ....   200.000200: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL|__GFP_NOWARN
		           a.out-500     [001] ....   200.000300: mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 lru=inactive_file
		           a.out-500     [001] ....   200.000400: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=0 nr_dirty=32 nr_writeback=32 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
		           a.out-500     [001] ....   200.000900: mm_vmscan_direct_reclaim_end: nr_reclaimed=0
		         kswapd0-97      [002] ....   200.010000: mm_vmscan_kswapd_sleep: nid=0
		EOF
		;;
	6.8)	# 5 flag chars; lru_isolate without isolate_mode
		cat <<-\EOF
		# tracer: nop
		#
		#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
		#              | |         |   |||||     |         |
		           a.out-500     [001] .....   200.000100: mm_vmscan_wakeup_kswapd: nid=0 order=0 gfp_flags=GFP_KERNEL|__GFP_NOWARN
		         kswapd0-97      [002] .....   200.000150: mm_vmscan_kswapd_wake: nid=0 order=0
		           a.out-500     [001] .....   200.000200: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL|__GFP_NOWARN
		           a.out-500     [001] .....   200.000300: mm_vmscan_lru_isolate: classzone=2 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 lru=inactive_file
		           a.out-500     [001] .....   200.000400: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=0 nr_dirty=32 nr_writeback=32 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
		           a.out-500     [001] .....   200.000900: mm_vmscan_direct_reclaim_end: nr_reclaimed=0
		         kswapd0-97      [002] .....   200.010000: mm_vmscan_kswapd_sleep: nid=0
		EOF
		;;
	esac
}

rule_q="SELECT detail FROM run_quality WHERE item = 'pgdat_flag_rule';
	SELECT count(*) FROM pgdat_flag;"

# With the release label: 4.17 -> 4.17-5.4 per-pass, 5.10 -> 5.5-6.4
# lruvec, 6.8 -> 6.5+ node/cgroup (mm/vmscan.c shrink_node() of each);
# the printed fields (gfp_flags present by name) agree; no flag interval.
for era in 4.17 5.10 6.8; do
	case $era in
	4.17) rule="4.17-5.4 per-pass" ;;
	5.10) rule="5.5-6.4 lruvec" ;;
	6.8) rule="6.5+ node/cgroup" ;;
	esac
	test_expect_success "$era text, gfp_flags by name, --kernel $era.0: $rule, no direct-reclaim flag" '
		era_trace '"$era"' >t.txt &&
		"$VR" load -q -d t.db --kernel '"$era"'.0 t.txt &&
		sqlite3 t.db "$rule_q" >actual &&
		printf "%s\n" "'"$rule"'; release label of a text trace; the printed fields agree; release '"$era"'.0" 0 >expect &&
		test_cmp expect actual
	'
done

# Without a label the printed fields decide: gfp_flags printed => 4.17+;
# 6.8's lru_isolate without isolate_mode (and classzone=) => 6.7+.
test_expect_success 'symbolic-gfp text without a release: the printed fields name the basis' '
	era_trace 4.17 >a.txt && era_trace 6.8 >b.txt &&
	"$VR" load -q -d a.db a.txt && "$VR" load -q -d b.db b.txt &&
	sqlite3 a.db "$rule_q" >actual && sqlite3 b.db "$rule_q" >>actual &&
	printf "%s\n" "4.17-5.4 per-pass; formats: wakeup_kswapd has gfp_flags (4.17+), release splits; release unknown" 0 \
		"6.5+ node/cgroup; formats: lru_isolate without isolate_mode (6.7+); release unknown" 0 >expect &&
	test_cmp expect actual
'

# 4.11 text (per-call rules of shrink_inactive_list()): a call of pid 500
# with no lru_isolate before it still has nr_dirty=16 == nr_congested=16:
# PGDAT_CONGESTED at 300.000200 (the test needs no nr_taken).  lru=2
# (numeric: inactive_file) and lru=ia_file (4.7-mmotm spelling, 2) are
# read: pid 600 nr_writeback=8 == nr_taken=8 -> PGDAT_WRITEBACK; pid 700
# unqueued 4-0-0 == nr_taken=4 -> PGDAT_DIRTY; lru sum 2+2 = 4.  Nothing
# clears them (no kswapd).
test_expect_success '4.11 text: CONGESTED without an isolate line, lru=2 and lru=ia_file read' '
	cat >c.txt <<-\EOF &&
	           a.out-500   [001] ....   300.000100: mm_vmscan_direct_reclaim_begin: order=0 may_writepage=1 gfp_flags=GFP_KERNEL classzone_idx=2
	           a.out-500   [001] ....   300.000200: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=0 nr_dirty=16 nr_writeback=0 nr_congested=16 nr_immediate=0 nr_activate=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	           b.out-600   [002] ....   300.000300: mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 order=0 nr_requested=32 nr_scanned=8 nr_skipped=0 nr_taken=8 lru=2
	           b.out-600   [002] ....   300.000400: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=8 nr_reclaimed=0 nr_dirty=8 nr_writeback=8 nr_congested=0 nr_immediate=0 nr_activate=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	           c.out-700   [003] ....   300.000500: mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 order=0 nr_requested=32 nr_scanned=4 nr_skipped=0 nr_taken=4 lru=ia_file
	           c.out-700   [003] ....   300.000600: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=4 nr_reclaimed=0 nr_dirty=4 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	EOF
	"$VR" load -d c.db --kernel 4.11.0 c.txt 2>err &&
	! grep -q "could not be read" err &&
	sqlite3 c.db "SELECT nid, flag, set_ns, clear_ns IS NULL, evidence FROM pgdat_flag ORDER BY flag;
		SELECT sum(lru), count(*) FROM mm_vmscan_lru_isolate;
		SELECT count FROM run_quality WHERE item = '\''pgdat_flag_call_without_isolate'\''" >actual &&
	cat >expect <<-\EOF &&
	0|PGDAT_CONGESTED|300000200000|1|call of pid 500: nr_dirty=16 == nr_congested=16
	0|PGDAT_DIRTY|300000600000|1|call of pid 700: unqueued_dirty=4 == nr_taken=4
	0|PGDAT_WRITEBACK|300000400000|1|call of pid 600: nr_writeback=8 == nr_taken=8
	4|2
	1
	EOF
	test_cmp expect actual
'

# 5.10 kswapd pass (shrink_node()) of one call without lru_isolate:
# Σtaken is unknown, so no WRITEBACK (8 == ? cannot be tested) and no
# DIRTY, but Σdirty 8 == Σcongested 8 sets LRUVEC_CONGESTED at the call
# (400.000200); the balanced check before the sleep clears it at kswapd's
# last activity, the same call.
test_expect_success '5.10 text: a kswapd pass without nr_taken still tests CONGESTED' '
	cat >k.txt <<-\EOF &&
	         kswapd0-97      [002] ....   400.000100: mm_vmscan_kswapd_wake: nid=0 order=0
	         kswapd0-97      [002] ....   400.000200: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=0 nr_dirty=8 nr_writeback=8 nr_congested=8 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	         kswapd0-97      [002] ....   400.200000: mm_vmscan_kswapd_sleep: nid=0
	EOF
	"$VR" load -q -d k.db --kernel 5.10.0 k.txt &&
	sqlite3 k.db "SELECT nid, flag, set_ns, clear_ns, evidence FROM pgdat_flag" >actual &&
	echo "0|LRUVEC_CONGESTED|400000200000|400000200000|kswapd pass of 1 calls: nr_dirty=8 == nr_congested=8" >expect &&
	test_cmp expect actual
'

# Damaged 5.10 lines: kswapd's shrink_inactive lost its flags= (20 pages
# reclaimed, neither file nor anon), a direct reclaimer's lru_isolate has
# lru=inact (32 pages scanned on no list).  Summary names them in the
# unclassified lines; run_quality counts one row of each.
test_expect_success 'damaged rows: counted as unclassified in summary and run_quality' '
	cat >d.txt <<-\EOF &&
	         kswapd0-97      [002] ....   500.000100: mm_vmscan_kswapd_wake: nid=0 order=0
	         kswapd0-97      [002] ....   500.000200: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=20 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12
	           a.out-500     [001] ....   500.000300: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
	           a.out-500     [001] ....   500.000400: mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 lru=inact
	           a.out-500     [001] ....   500.000500: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=10 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	           a.out-500     [001] ....   500.000900: mm_vmscan_direct_reclaim_end: nr_reclaimed=10
	         kswapd0-97      [002] ....   500.010000: mm_vmscan_kswapd_sleep: nid=0
	EOF
	"$VR" load -q -d d.db --kernel 5.10.0 d.txt &&
	"$VR" summary -d d.db >out &&
	grep -q "^  Direct reclaim pages unclassified: *32 scanned, 0 reclaimed" out &&
	grep -q "^  Direct reclaim pages reclaimed: *10 (file 10, anon 0)$" out &&
	grep -q "^  Kswapd pages unclassified: *0 scanned, 20 reclaimed" out &&
	sqlite3 d.db "SELECT item, count FROM run_quality WHERE item LIKE '\''%unclassified'\'' ORDER BY item" >actual &&
	printf "%s\n" "lru_isolate_unclassified|1" "lru_shrink_inactive_unclassified|1" >expect &&
	test_cmp expect actual
'

# 6.8 text: kswapd0 (pid 97, known only by its comm) reclaims at 600.100
# and sleeps at 600.250 before any kswapd_wake; woken at 600.400, asleep
# at 600.500; the trace spans 600.000-601.000.  The first cycle (wake_ns
# NULL) is kswapd's: its shrink_inactive 32 scanned / 24 reclaimed.  Its
# state before 600.250 is unknown: Awake is 600.400-600.500 = 0.100 s of
# the known 0.750 s = 13.3 % (not 0.350 s, 35 %, from the trace start), a
# line says so; the chart draws 0-0.1 unknown, the nap from 0.1 (after
# the reclaim), asleep 0.25-0.4.
test_expect_success 'kswapd before its first event: credited, unknown time has no duration' '
	cat >s.txt <<-\EOF &&
	           a.out-500     [001] .....   600.000000: mm_vmscan_wakeup_kswapd: nid=0 order=0 gfp_flags=GFP_KERNEL
	         kswapd0-97      [002] .....   600.100000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=24 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	         kswapd0-97      [002] .....   600.250000: mm_vmscan_kswapd_sleep: nid=0
	         kswapd0-97      [002] .....   600.400000: mm_vmscan_kswapd_wake: nid=0 order=0
	         kswapd0-97      [002] .....   600.500000: mm_vmscan_kswapd_sleep: nid=0
	           a.out-500     [001] .....   601.000000: mm_vmscan_wakeup_kswapd: nid=0 order=0 gfp_flags=GFP_KERNEL
	EOF
	"$VR" load -q -d s.db --kernel 6.8.0 s.txt &&
	sqlite3 s.db "SELECT pid, wake_ns IS NULL, last_activity_ns, sleep_ns, next_wake_ns, decision,
		nr_scanned, nr_reclaimed FROM kswapd_cycle ORDER BY coalesce(wake_ns, -1) LIMIT 1" >actual &&
	echo "97|1|600100000000|600250000000|600400000000|full_sleep|32|24" >expect &&
	test_cmp expect actual &&
	"$VR" summary -d s.db >out &&
	grep -q "^  0          97       1        0       2 .*  0.100   13.3%$" out &&
	grep -q "^  node 0: kswapd.s state before its first kswapd_wake (the first 0.250 s of the trace) is unknown" out &&
	"$VR" chart -d s.db --kind timeline --run 1 --dump-data | grep "^kswapd " | head -4 >actual &&
	printf "%s\n" "kswapd unknown 0 0.1" "kswapd awake 0.1 0.1" "kswapd napping 0.1 0.25" \
		"kswapd asleep 0.25 0.4" >expect &&
	test_cmp expect actual
'

# trace-cmd report's header lines and TAB-indented event lines: the file
# version 6 is the run's file_version, "CPU 0 is empty" is counted, and a
# comm keeps no TAB (kswapd0, a.out).
test_expect_success 'version = 6, CPU N is empty, TAB-indented lines' '
	printf "version = 6\nCPU 0 is empty\ncpus=4\n\t kswapd0-97    [002]   700.000100: mm_vmscan_kswapd_wake: nid=0 order=0\n\t   a.out-500   [001]   700.000200: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL\n\t   a.out-500   [001]   700.000900: mm_vmscan_direct_reclaim_end: nr_reclaimed=12\n\t kswapd0-97    [002]   700.005000: mm_vmscan_kswapd_sleep: nid=0\n" >tab.txt &&
	"$VR" load -q -d t.db tab.txt &&
	sqlite3 t.db "SELECT file_version FROM run; SELECT pid, comm FROM task ORDER BY pid;
		SELECT count FROM run_quality WHERE item = '\''text_cpus_empty'\'';
		SELECT pid, duration_ns FROM reclaim_stall" >actual &&
	printf "%s\n" 6 "97|kswapd0" "500|a.out" 1 "500|700000" >expect &&
	test_cmp expect actual
'

test_done
