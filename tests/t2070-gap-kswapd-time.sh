#!/usr/bin/env bash
# kswapd's time shares across an excerpt gap (a marker line such as '...'
# between event lines): kswapd's state across the gap is unknown, so
# "Kswapd running %" and "Kswapd awake to full sleep %" (summary, compare)
# and the per-node Awake to full sleep columns print "-" with the reason,
# never a number.  Before, the time across the gap counted as awake and the
# cycle after it as unknown from the trace start: a lab trace cut once read
# 207194.94 % awake.  Lines in the layout of kernel/trace/trace_output.c;
# values by hand.
. "$(dirname "$0")/lib.sh"

# kswapd0 (node 0) wakes at 10.0 s and sleeps at 10.5 s; then wakes at
# 20.0 s and sleeps at 21.0 s; a direct reclaim of pid 500 in between
# keeps the trace from 10.0 to 30.0 s.  $1 is put between 10.5 and 20.0.
trace() {
	cat <<-EOF
	# tracer: nop
	#
	         kswapd0-97      [002] .....    10.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	         kswapd0-97      [002] .....    10.500000: mm_vmscan_kswapd_sleep: nid=0
	$1
	         kswapd0-97      [002] .....    20.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	         kswapd0-97      [002] .....    21.000000: mm_vmscan_kswapd_sleep: nid=0
	           a.out-500     [001] .....    29.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	           a.out-500     [001] .....    30.000000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1
	EOF
}

test_expect_success 'whole trace: kswapd running % is 1.5 s of 20 s = 7.50' '
	trace "" | grep -v "^$" >whole.txt &&
	"$VR" load -q -d w.db -k whole whole.txt &&
	"$VR" summary -d w.db --run 1 >out &&
	grep -E "^  Kswapd running % +7\.50$" out &&
	grep -E "^  Kswapd awake to full sleep % +7\.50$" out
'

test_expect_success 'a gap: the kswapd time shares are "-" with the reason, in summary and compare' '
	trace "..." >cut.txt &&
	"$VR" load -q -d c.db -k cut cut.txt 2>err && grep -q "1 gap" err &&
	"$VR" summary -d c.db --run 1 >out &&
	grep -E "^  Kswapd running % +-$" out &&
	grep -E "^  Kswapd awake to full sleep % +-$" out &&
	grep -E "^  0 +97 .* -  +-$" out &&
	grep -q "not known: the trace is an excerpt with 1 gap" out &&
	"$VR" compare -d c.db --metrics counters >cmp &&
	grep -E "^Kswapd running %\[[0-9]+\] +-$" cmp &&
	grep -E "^Kswapd awake to full sleep %\[[0-9]+\] +-$" cmp &&
	grep -q "not known in 1 of 1 runs: the trace is an excerpt" cmp
'

# A lab recording's text cut once ('...' for its lines 201-29999): the
# PGDAT_WRITEBACK interval set before the gap was cleared after it, 10.4 s
# later, though kswapd may have slept (and the flag been cleared and set
# again) in the gap: its time is "-", the intervals still counted; the
# whole text gives a time.
test_expect_success 'a gap: pgdat flag time is "-" in summary and compare, the whole trace has one' '
	command -v trace-cmd >/dev/null || test_skip_because "no trace-cmd"
	trace-cmd report "$TOP/samples/lab/vanilla-1.dat" >v1.txt 2>/dev/null &&
	{ sed -n 1,200p v1.txt; echo "..."; sed -n "30000,\$p" v1.txt; } >v1cut.txt &&
	"$VR" load -q -d lc.db -k cut v1cut.txt 2>/dev/null &&
	"$VR" summary -d lc.db --run 1 >out &&
	grep -E "^  [01] +PGDAT_WRITEBACK +[0-9]+ +- " out &&
	"$VR" compare -d lc.db --metrics counters >cmp &&
	grep -E "^pgdat PGDAT_WRITEBACK set ms\[[0-9]+\] +-$" cmp &&
	"$VR" load -q -d lw.db -k whole v1.txt 2>/dev/null &&
	"$VR" compare -d lw.db --metrics counters >cmpw &&
	grep -E "^pgdat PGDAT_WRITEBACK set ms +[0-9]+\.[0-9]+$" cmpw
'

test_done
