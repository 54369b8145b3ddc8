#!/usr/bin/env bash
# "What changed" says where and when each difference shows and in which
# runs (issue 26 item 6), every number recomputed from the raw events by
# tests/check-whatchanged.py (not from vmscan-report's derived tables).
#
# Hand-written text traces on two nodes, kernels base and patched, three
# runs each, every run from 1.0 s to 2.0 s (windows of 0.05 s, 21 a run,
# window i = [1.0 + 0.05 i, 1.05 + 0.05 i)).  Every run: kswapd0 wakes at
# 1.0, scans 64 / reclaims 60 on node 0 at 1.01, sleeps at 1.02.  base's dd
# (pid 300) stalls in direct reclaim 1.20 to 1.25, 1.24 and 1.26 s in runs
# 1-3 (scanning 32, reclaiming 30 on node 1 at 1.21) and 1.50-1.52 s
# (16/16 on node 0 at 1.51); patched has no stall.  Worked out:
#   stall time per run 50+20 = 70, 60, 80 ms (mean 70.00); 2 stalls a run;
#   stalls by node: node 0: 3, node 1: 3; windows with a stall: 4 (1.20)
#   in every run, 5 (to 1.26) in run 3, 10 (1.50): 2 + 2 + 3 = 7 of 63,
#   from 0.20 s to the end of window 10, 0.55 s;
#   pages in direct reclaim per run 48 scanned, 46 reclaimed; by node over
#   the runs: scanned node 0: 48, node 1: 96, reclaimed 48 and 90; windows
#   4 and 10 of each run: 6 of 63 (0.20-0.55 s); patched node 0: 0 (its
#   kswapd's node), in 0 of 63.
. "$(dirname "$0")/lib.sh"

n_trace=0
# trace NAME [END1_MS]: base's stalls when END1_MS is given
trace() {
	local name=$1 end=${2:-} k
	n_trace=$((n_trace + 1))
	k="     kswapd0-$((50 + n_trace))    [000] ....."
	{
		echo "$k     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0"
		echo "$k     1.010000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=64 nr_reclaimed=60 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"
		echo "$k     1.020000: mm_vmscan_kswapd_sleep: nid=0"
		if [ -n "$end" ]; then
			d="          dd-300   [001] ....."
			echo "$d     1.200000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
			echo "$d     1.210000: mm_vmscan_lru_shrink_inactive: nid=1 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"
			echo "$d     1.${end}000: mm_vmscan_direct_reclaim_end: nr_reclaimed=30"
			echo "$d     1.500000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
			echo "$d     1.510000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=16 nr_reclaimed=16 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC"
			echo "$d     1.520000: mm_vmscan_direct_reclaim_end: nr_reclaimed=16"
		fi
		echo "          dd-300   [001] .....     2.000000: mm_vmscan_wakeup_kswapd: nid=0 zid=2 order=0 gfp_flags=GFP_HIGHUSER_MOVABLE"
	} >"$name.txt"
}

make_db() {
	trace base-1 250 && trace base-2 240 && trace base-3 260 &&
	trace patched-1 && trace patched-2 && trace patched-3 &&
	"$VR" load -q -d db --kernel base base-1.txt base-2.txt base-3.txt &&
	"$VR" load -q -d db --kernel patched patched-1.txt patched-2.txt patched-3.txt &&
	"$VR" report -q -d db -o out &&
	sed -n "/^## What changed/,/^Caveats:/p" out/index.md | grep " -> " >sentences
}

W="When (reclaim_window): base in"
test_expect_success 'where, when and per run, worked out by hand' '
	make_db &&
	sed "s/ (means of .*below 0.1)\./:/" sentences >got &&
	cat >want <<-EOF &&
	Direct reclaim stall time ms: base 70.00 -> patched 0.00: Per run (summary.txt): base 70.00, 60.00, 80.00; patched 0.00, 0.00, 0.00. Where (complete direct reclaim stalls by the nodes they reclaimed from, one on two nodes counted on each, reclaim_stall): base node 0: 3, node 1: 3; patched none. $W 7 of 63 windows (0.20-0.55 s after a run'"'"'s first event); patched in 0 of 63 windows.
	Direct reclaim stalls complete: base 2.00 -> patched 0.00: Per run (summary.txt): base 2, 2, 2; patched 0, 0, 0. Where (complete direct reclaim stalls by the nodes they reclaimed from, one on two nodes counted on each, reclaim_stall): base node 0: 3, node 1: 3; patched none. $W 7 of 63 windows (0.20-0.55 s after a run'"'"'s first event); patched in 0 of 63 windows.
	Pages reclaimed in direct reclaim: base 46.00 -> patched 0.00: Per run (summary.txt): base 46, 46, 46; patched 0, 0, 0. Where (pages reclaimed outside kswapd by node, reclaim_window): base node 0: 48, node 1: 90; patched node 0: 0. $W 6 of 63 windows (0.20-0.55 s after a run'"'"'s first event); patched in 0 of 63 windows.
	Pages scanned in direct reclaim: base 48.00 -> patched 0.00: Per run (summary.txt): base 48, 48, 48; patched 0, 0, 0. Where (pages scanned outside kswapd by node, reclaim_window): base node 0: 48, node 1: 96; patched node 0: 0. $W 6 of 63 windows (0.20-0.55 s after a run'"'"'s first event); patched in 0 of 63 windows.
	EOF
	test_cmp want got
'

test_expect_success 'check-whatchanged.py recomputes every number from the raw events' '
	make_db &&
	python3 "$TOP/tests/check-whatchanged.py" db sentences >log &&
	grep -q "^24 numbers checked, 0 wrong$" log &&
	sed "s/node 1: 96/node 1: 95/" sentences >bad &&
	! python3 "$TOP/tests/check-whatchanged.py" db bad >log &&
	grep -q "where base: recomputed node 0: 48, node 1: 96" log &&
	sed "s/in 7 of 63/in 8 of 63/" sentences >bad &&
	! python3 "$TOP/tests/check-whatchanged.py" db bad >log &&
	grep -q "when base: recomputed in 7 of 63" log
'

# The per-run values are the ones summary.txt prints ("run N: base ...").
test_expect_success 'the per-run values are those summary.txt prints' '
	make_db &&
	awk "/^run [0-9]+: base / { on = 1; next } /^run [0-9]+: / { on = 0 }
	     on && /^  Direct reclaim stall time ms / { print \$NF }" out/summary.txt |
		paste -sd, | sed "s/,/, /g" >got &&
	echo "70.00, 60.00, 80.00" >want && test_cmp want got &&
	grep -q "Per run (summary.txt): base $(cat got); " sentences
'

# kernel n: one run whose kswapd0 naps 1.010-1.108 s (98 ms) and 1.120-1.218
# s (98 ms), each within a jiffy (10 ms) of the 100 ms timeout: two cycle
# decisions inferred, not seen (counted from the text by awk); then a full
# sleep.  The caveat names the kernel and both counts.
test_expect_success 'caveat: kswapd cycle decisions that are estimates' '
	make_db &&
	k="     kswapd0-90    [000]" && i="      <idle>-0     [000]" &&
	cat >n.txt <<-EOF &&
	$k     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	$k     1.010000: sched_switch: kswapd0:90 [120] S ==> swapper/0:0 [120]
	$i     1.108000: sched_wakeup: kswapd0:90 [120] CPU:000
	$i     1.108000: sched_switch: swapper/0:0 [120] R ==> kswapd0:90 [120]
	$k     1.108100: mm_vmscan_kswapd_wake: nid=0 order=0
	$k     1.120000: sched_switch: kswapd0:90 [120] S ==> swapper/0:0 [120]
	$i     1.218000: sched_wakeup: kswapd0:90 [120] CPU:000
	$i     1.218000: sched_switch: swapper/0:0 [120] R ==> kswapd0:90 [120]
	$k     1.218100: mm_vmscan_kswapd_wake: nid=0 order=0
	$k     1.230000: mm_vmscan_kswapd_sleep: nid=0
	EOF
	n=$(awk "/S ==>/ { out = \$3 + 0 } /sched_wakeup/ { d = (\$3 - out) * 1000; if (d >= 90 && d < 100) n++ }
		 END { print n + 0 }" n.txt) && test "$n" = 2 &&
	"$VR" load -q -d db --kernel n n.txt &&
	"$VR" report -q -d db -o o2 --kernels base,n &&
	grep -q "^n: $n kswapd cycle decisions are inferred, not seen (kswapd_cycle decision_exact 0; $n of them naps ended within a jiffy of the timeout)" o2/index.md
'

test_done
