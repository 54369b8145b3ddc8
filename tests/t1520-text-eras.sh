#!/usr/bin/env bash
# Text traces of each era, written by hand in the line layout of the
# release's TP_printk formats (include/trace/events/vmscan.h) and of
# ftrace's trace file: the flag rule set, LRU names, task names, kswapd's
# time before its first event.  Expected values are worked out by hand in
# the comments.
. "$(dirname "$0")/lib.sh"
MKDAT="$TOP/tests/mkdat.py"

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
	0|PGDAT_DIRTY|300000600000|1|call of pid 700: unqueued_dirty=4 == nr_taken=4 (estimate)
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
	grep -q "^  Outside kswapd pages unclassified: *32 scanned, 0 reclaimed" out &&
	grep -q "^  Outside kswapd shrink_inactive nr_reclaimed: *10 (file 10, anon 0)$" out &&
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
	grep -q "^  0          97       1        0       2 .*  0.100  *13.33%$" out &&
	grep -q "^  Kswapd awake to full sleep %  *13.33$" out &&
	grep -q "^  Kswapd running %  *13.33$" out &&
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

# trace-cmd report -l (libtraceevent's latency format "%8.8s-%-5d %3d" and
# the flags glued to the CPU): the comm is the 8 printed characters
# without the padding ("simoop-l", "Web Cont", " kswapd0" -> kswapd0), the
# pid after the last '-' before the CPU, CPU 12 before "dN.2.".  kswapd0
# is known by its comm: its reclaim (30 pages) before any kswapd_wake is
# its cycle's.  "<...>" has no comm: no task row, comm NULL.
test_expect_success 'trace-cmd report -l lines: comm, pid, cpu and timestamp' '
	cat >l.txt <<-\EOF &&
	simoop-l-8293    1..... 14262.995617: mm_vmscan_wakeup_kswapd: nid=0 order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	 kswapd0-45      0..... 14262.996100: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	 kswapd0-45      0..... 14262.996211: mm_vmscan_kswapd_sleep: nid=0
	simoop-l-8293    1d..1. 14262.997000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	Web Cont-4711   12dN.2. 14262.997100: mm_vmscan_direct_reclaim_begin: order=2 gfp_flags=GFP_KERNEL
	simoop-l-8293    1..... 14262.998000: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
	Web Cont-4711   12..... 14262.999100: mm_vmscan_direct_reclaim_end: nr_reclaimed=8
	   <...>-123456   3..... 14263.000000: mm_vmscan_wakeup_kswapd: nid=0 order=1 gfp_flags=GFP_KERNEL
	EOF
	"$VR" load -q -d l.db --kernel 6.8.0 l.txt &&
	sqlite3 l.db "SELECT pid, comm FROM task ORDER BY pid;
		SELECT pid, cpu, ts_ns FROM mm_vmscan_direct_reclaim_begin ORDER BY ts_ns;
		SELECT pid, cpu, ts_ns FROM mm_vmscan_wakeup_kswapd ORDER BY ts_ns;
		SELECT pid, duration_ns, nr_reclaimed FROM reclaim_stall ORDER BY begin_ns;
		SELECT pid, wake_ns IS NULL, nr_reclaimed FROM kswapd_cycle" >actual &&
	printf "%s\n" "45|kswapd0" "4711|Web Cont" "8293|simoop-l" \
		"8293|1|14262997000000" "4711|12|14262997100000" \
		"8293|1|14262995617000" "123456|3|14263000000000" \
		"8293|1000000|32" "4711|2000000|8" "45|1|30" >expect &&
	test_cmp expect actual
'

# A task that exec'ed (pid 500: sh, then a.out) and a pid reused (600:
# cc1, then make).  Each row has the comm of its own time:
#   stall 100.000100-100.001100 sh (1.000 ms), scanned 16, reclaimed 8;
#   wakeup 100.002000 and stall 100.003000-100.006000 a.out (3.000 ms,
#   order 1), scanned 32, reclaimed 24; pid 600 stall 100.004000-100.005000
#   cc1 (1.000 ms), stall 100.007000-100.009000 make (2.000 ms, order 2).
# The task table has one span per comm: first and last event under it.
# summary has a row per comm, the pages split by the rows' time.
comm_trace() {
	cat <<-\EOF
	              sh-500     [001] ....   100.000100: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
	              sh-500     [001] ....   100.000600: mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 order=0 nr_requested=32 nr_scanned=16 nr_skipped=0 nr_taken=16 lru=inactive_file
	              sh-500     [001] ....   100.000700: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=16 nr_reclaimed=8 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	              sh-500     [001] ....   100.001100: mm_vmscan_direct_reclaim_end: nr_reclaimed=8
	           a.out-500     [001] ....   100.002000: mm_vmscan_wakeup_kswapd: nid=0 order=1 gfp_flags=GFP_KERNEL
	           a.out-500     [001] ....   100.003000: mm_vmscan_direct_reclaim_begin: order=1 gfp_flags=GFP_KERNEL
	           a.out-500     [001] ....   100.003100: mm_vmscan_lru_isolate: isolate_mode=0 classzone=2 order=1 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 lru=inactive_file
	           a.out-500     [001] ....   100.003200: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=24 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	             cc1-600     [002] ....   100.004000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
	             cc1-600     [002] ....   100.005000: mm_vmscan_direct_reclaim_end: nr_reclaimed=0
	           a.out-500     [001] ....   100.006000: mm_vmscan_direct_reclaim_end: nr_reclaimed=24
	            make-600     [002] ....   100.007000: mm_vmscan_direct_reclaim_begin: order=2 gfp_flags=GFP_KERNEL
	            make-600     [002] ....   100.009000: mm_vmscan_direct_reclaim_end: nr_reclaimed=4
	EOF
}

test_expect_success 'a pid whose comm changes: every row has the comm of its own time' '
	comm_trace >c.txt &&
	"$VR" load -q -d c.db --kernel 5.10.0 c.txt &&
	sqlite3 c.db "SELECT pid, comm, first_ns, last_ns FROM task ORDER BY first_ns;
		SELECT pid, comm, begin_ns, duration_ns FROM reclaim_stall ORDER BY begin_ns;
		SELECT pid, comm, ts_ns FROM kswapd_wakeup" >actual &&
	cat >expect <<-\EOF &&
	500|sh|100000100000|100001100000
	500|a.out|100002000000|100006000000
	600|cc1|100004000000|100005000000
	600|make|100007000000|100009000000
	500|sh|100000100000|1000000
	500|a.out|100003000000|3000000
	600|cc1|100004000000|1000000
	600|make|100007000000|2000000
	500|a.out|100002000000
	EOF
	test_cmp expect actual &&
	"$VR" summary -d c.db >out &&
	grep "^  [a-z.0-9]*-[56]00 " out >actual &&
	cat >expect <<-\EOF &&
	  a.out-500                       1        1         32         24        0        0        3.000  direct-1=1 wakeup-1=1
	  make-600                        1        0          0          0        0        0        2.000  direct-2=1
	  sh-500                          1        0         16          8        0        0        1.000  direct-0=1
	  cc1-600                         1        0          0          0        0        0        1.000  direct-0=1
	EOF
	test_cmp expect actual &&
	"$VR" timeline -d c.db --run 1 --min-stall-ms 0 | grep "reclaim stall" | sed "s/.*stall //" >actual &&
	printf "%s\n" "1.000 ms: sh-500 order=0, nodes 0, kswapd0 unknown" \
		"3.000 ms: a.out-500 order=1, nodes 0, kswapd0 unknown" \
		"1.000 ms: cc1-600 order=0, kswapd unknown" "2.000 ms: make-600 order=2, kswapd unknown" >expect &&
	test_cmp expect actual
'

# The same in a trace.dat (tests/mkdat.py): pid 500 saved as "a.out" (the
# name at the end of the recording); a sched_switch at 1.002 s names it
# "sh", one at 1.006 s "a.out" again.  Stall 1 (1.000 s) comes before any
# sched event: the first name the trace shows for the pid, sh (issue 25
# item 9: the saved cmdline is its last name, not that of its early rows);
# stall 2 (1.004 s) sh; stall 3 (1.007 s) a.out.  run_quality says one span
# was first given the saved cmdline and then the name shown.  trace-cmd
# report prints a.out on every line.
test_expect_success 'trace.dat: the comm sched events give, the first shown before them' '
	cat >c.spec <<-\EOF &&
	era 4.11
	cpus 2
	uname Linux box 4.11.0 x86_64
	comm 500 a.out
	ev 0 1000000000 500 mm_vmscan_direct_reclaim_begin order=0 may_writepage=1 gfp_flags=0x24200ca classzone_idx=2
	ev 0 1001000000 500 mm_vmscan_direct_reclaim_end nr_reclaimed=4
	ev 0 1002000000 500 sched_switch prev_comm=sh prev_pid=500 prev_prio=120 prev_state=2 next_comm=swapper/0 next_pid=0 next_prio=120
	ev 0 1004000000 500 mm_vmscan_direct_reclaim_begin order=1 may_writepage=1 gfp_flags=0x24200ca classzone_idx=2
	ev 0 1005000000 500 mm_vmscan_direct_reclaim_end nr_reclaimed=8
	ev 0 1006000000 500 sched_switch prev_comm=a.out prev_pid=500 prev_prio=120 prev_state=2 next_comm=swapper/0 next_pid=0 next_prio=120
	ev 0 1007000000 500 mm_vmscan_direct_reclaim_begin order=2 may_writepage=1 gfp_flags=0x24200ca classzone_idx=2
	ev 0 1009000000 500 mm_vmscan_direct_reclaim_end nr_reclaimed=16
	EOF
	python3 "$MKDAT" c.spec c.dat &&
	"$VR" load -q -d cd.db c.dat &&
	sqlite3 cd.db "SELECT pid, comm, begin_ns FROM reclaim_stall ORDER BY begin_ns;
		SELECT pid, comm, first_ns, last_ns FROM task ORDER BY first_ns, pid;
		SELECT count FROM run_quality WHERE item = '\''task_comm_saved_cmdline'\''" >actual &&
	cat >expect <<-\EOF &&
	500|sh|1000000000
	500|sh|1004000000
	500|a.out|1007000000
	500|sh|1000000000|1005000000
	0|swapper/0|1002000000|1006000000
	500|a.out|1006000000|1009000000
	1
	EOF
	test_cmp expect actual &&
	trace-cmd report -i c.dat 2>/dev/null | grep -c "a.out-500" >actual &&
	echo 8 >expect && test_cmp expect actual
'

# A mail-wrapped excerpt (w.txt) of a 6.8 trace (o.txt): a terminal cut
# its lines at 80 columns, inside words too ("nr_unmap_fai" / "l=0",
# "lru=inactiv" / "e_file", "nid=" / "0"), then a mail client broke them
# at a space before column 73 and dropped it (the headers end at the
# timestamp colon, "mm_vmscan_lru_shrink_inactive" / ": nid=0").  Its 25
# continuation lines (hand count: 2 + 2 + 2 + 4 + 6 + 6 + 2 + 1, the
# first at line 4) are joined again: the same rows as the original, in
# every table; quoted with "> " as a reply, the same.  By hand: the stall
# of a.out-500 200.000200-200.000900 (700 us, 12 pages), kswapd0's cycle
# 64 scanned / 60 reclaimed, shrink_inactive flags 0xa and 0x9.
orig_excerpt() {
	cat <<-\EOF
	# tracer: nop
	#
	           a.out-500     [001] .....   200.000100: mm_vmscan_wakeup_kswapd: nid=0 order=0 gfp_flags=GFP_KERNEL|__GFP_NOWARN
	         kswapd0-97      [002] .....   200.000150: mm_vmscan_kswapd_wake: nid=0 order=0
	           a.out-500     [001] .....   200.000200: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL|__GFP_NOWARN
	           a.out-500     [001] .....   200.000300: mm_vmscan_lru_isolate: classzone=2 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 lru=inactive_file
	           a.out-500     [001] .....   200.000400: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=12 nr_dirty=32 nr_writeback=32 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	         kswapd0-97      [002] .....   200.000500: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=64 nr_reclaimed=60 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=11 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC
	           a.out-500     [001] .....   200.000900: mm_vmscan_direct_reclaim_end: nr_reclaimed=12
	         kswapd0-97      [002] .....   200.010000: mm_vmscan_kswapd_sleep: nid=0
	EOF
}
wrapped_excerpt() {
	cat <<-\EOF
	# tracer: nop
	#
	           a.out-500     [001] .....   200.000100:
	mm_vmscan_wakeup_kswapd: nid=
	0 order=0 gfp_flags=GFP_KERNEL|__GFP_NOWARN
	         kswapd0-97      [002] .....   200.000150:
	mm_vmscan_kswapd_wake: nid=0 
	order=0
	           a.out-500     [001] .....   200.000200:
	mm_vmscan_direct_reclaim_begi
	n: order=0 gfp_flags=GFP_KERNEL|__GFP_NOWARN
	           a.out-500     [001] .....   200.000300:
	mm_vmscan_lru_isolate: classz
	one=2 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32
	lru=inactiv
	e_file
	           a.out-500     [001] .....   200.000400:
	mm_vmscan_lru_shrink_inactive
	: nid=0 nr_scanned=32 nr_reclaimed=12 nr_dirty=32 nr_writeback=32
	nr_congested=0
	 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0
	nr_unmap_fai
	l=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	         kswapd0-97      [002] .....   200.000500:
	mm_vmscan_lru_shrink_inactive
	: nid=0 nr_scanned=64 nr_reclaimed=60 nr_dirty=0 nr_writeback=0
	nr_congested=0 n
	r_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0
	nr_unmap_fail=
	0 priority=11 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC
	           a.out-500     [001] .....   200.000900:
	mm_vmscan_direct_reclaim_end:
	 nr_reclaimed=12
	         kswapd0-97      [002] .....   200.010000:
	mm_vmscan_kswapd_sleep: nid=0
	EOF
}
dump_all() {
	for t in $(sqlite3 "$1" "SELECT name FROM sqlite_master WHERE type = 'table'
			AND name NOT IN ('run', 'run_quality') ORDER BY name"); do
		echo "== $t" && sqlite3 "$1" "SELECT * FROM \"$t\"" || return 1
	done
	sqlite3 "$1" "SELECT item, count, detail FROM run_quality
		WHERE item != 'text_rejoined_lines' ORDER BY item"
}

test_expect_success 'mail-wrapped excerpt (hard and soft wraps): the same rows as its original' '
	orig_excerpt >o.txt && wrapped_excerpt >w.txt &&
	test $(wc -l <w.txt) = 35 &&
	"$VR" load -q -d o.db --kernel 6.8.0 o.txt &&
	"$VR" load -q -d w.db --kernel 6.8.0 w.txt 2>err &&
	grep -q "^vmscan-report: warning: w.txt: rejoined 25 wrapped line(s) to the event lines before them (first at line 4;" err &&
	dump_all o.db >expect && dump_all w.db >actual && test_cmp expect actual &&
	sed "s/^/> /" w.txt >q.txt &&
	"$VR" load -q -d q.db --kernel 6.8.0 q.txt 2>/dev/null &&
	dump_all q.db >actual && test_cmp expect actual &&
	sqlite3 w.db "SELECT event_count FROM run;
		SELECT count FROM run_quality WHERE item = '\''text_rejoined_lines'\'';
		SELECT pid, comm, duration_ns, nr_reclaimed FROM reclaim_stall;
		SELECT pid, comm, nr_scanned, nr_reclaimed FROM kswapd_cycle;
		SELECT nr_taken, lru FROM mm_vmscan_lru_isolate;
		SELECT pid, nr_scanned, nr_reclaimed, printf('\''0x%x'\'', reclaim_flags)
			FROM mm_vmscan_lru_shrink_inactive ORDER BY ts_ns" >actual &&
	printf "%s\n" 8 25 "500|a.out|700000|12" "97|kswapd0|64|60" "32|2" \
		"500|32|12|0xa" "97|64|60|0x9" >expect &&
	test_cmp expect actual
'

# A continuation that reads neither way is an error naming its line, the
# database unchanged: prose after the excerpt (line 36), and a hard wrap
# whose seam joins to no label=value word ("nr_scan" / "ned=6x4", line 2).
test_expect_success 'a continuation that reads neither way: FILE:LINE, nothing loaded' '
	orig_excerpt >o.txt && wrapped_excerpt >w.txt && echo "Thanks, John" >>w.txt &&
	"$VR" load -q -d keep.db --kernel 6.8.0 o.txt &&
	dump_all keep.db >before &&
	test_expect_code 1 "$VR" load -q -d keep.db --kernel 6.8.0 w.txt 2>err &&
	grep -q "^vmscan-report: w.txt:36: this line is no event line; as the continuation of the event at line 34 (a wrapped line?) it reads as label=value neither joined directly nor after a space" err &&
	printf "%s\n" "         kswapd0-97      [002] .....   200.000150: mm_vmscan_lru_shrink_inactive: nid=0 nr_scan" \
		"ned=6x4 nr_reclaimed=60" >bad.txt &&
	test_expect_code 1 "$VR" load -q -d keep.db --kernel 6.8.0 bad.txt 2>err &&
	grep -q "^vmscan-report: bad.txt:2: this line is no event line; as the continuation of the event at line 1 (a wrapped line?) it reads" err &&
	dump_all keep.db >after && test_cmp before after
'

# Lines around events that are no continuation: a stack trace of the
# stacktrace option, markup after a systrace excerpt, a signature.  They
# are skipped (6: lines 2-4 and 6-8, "John" too, since no event is open
# after the "-- "), nothing is rejoined, both events load.
test_expect_success 'stack traces, markup and a signature after events: skipped, not rejoined' '
	printf "%s\n" "         kswapd0-97      [002] .....   200.000150: mm_vmscan_kswapd_wake: nid=0 order=0" \
		" <stack trace>" " => balance_pgdat" " => kswapd" \
		"         kswapd0-97      [002] .....   200.010000: mm_vmscan_kswapd_sleep: nid=0" \
		"</script>" "-- " "John" >s.txt &&
	"$VR" load -q -d s.db --kernel 6.8.0 s.txt 2>err &&
	grep -q "skipped 6 line(s) that are not trace events (first at line 2)" err &&
	sqlite3 s.db "SELECT event_count FROM run;
		SELECT count(*) FROM run_quality WHERE item = '\''text_rejoined_lines'\''" >actual &&
	printf "%s\n" 2 0 >expect && test_cmp expect actual
'

test_done
