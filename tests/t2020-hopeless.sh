#!/usr/bin/env bash
# kswapd's hopeless state (issue 25 item 7): the episodes of
# mm_vmscan_kswapd_reclaim_fail / mm_vmscan_kswapd_clear_hopeless (7.0,
# a45088376d8a), in kswapd_hopeless, summary and the timeline chart's lane,
# worked out by hand from a text trace in trace-cmd's format and a trace.dat
# made by tests/mkdat.py (tests/data-model/hopeless-7.0.spec).
. "$(dirname "$0")/lib.sh"

MKDAT="$TOP/tests/mkdat.py"
DATA="$TOP/tests/data-model"

# By hand, h.txt (run start 27.000000):
# - node 0: failures 15 at 27.216563 (not hopeless), 16 at 27.217169 (the
#   start), 17 at 27.300000; reset by dd (pid 300) with reason DIRECT at
#   27.500000: one complete episode, 0.217169 .. 0.500000 s from the start,
#   2 reclaim_fail events, failures 17.  Then failures 1 and a KSWAPD reset
#   at 27.700000: a reset before hopeless, no episode.
# - node 1: failures 20 at 27.310000 with nothing before: hopeless before the
#   trace showed it, never reset: start NULL, end NULL, failures 20.
text_trace() {
	cat >h.txt <<-'EOF'
	     kswapd0-71    [000] .....    27.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	     kswapd0-71    [000] .....    27.216563: mm_vmscan_kswapd_reclaim_fail: nid=0 failures=15
	     kswapd0-71    [000] .....    27.217169: mm_vmscan_kswapd_reclaim_fail: nid=0 failures=16
	     kswapd0-71    [000] .....    27.300000: mm_vmscan_kswapd_reclaim_fail: nid=0 failures=17
	     kswapd1-72    [001] .....    27.310000: mm_vmscan_kswapd_reclaim_fail: nid=1 failures=20
	          dd-300   [001] .....    27.500000: mm_vmscan_kswapd_clear_hopeless: nid=0 reason=DIRECT
	     kswapd0-71    [000] .....    27.600000: mm_vmscan_kswapd_reclaim_fail: nid=0 failures=1
	     kswapd0-71    [000] .....    27.700000: mm_vmscan_kswapd_clear_hopeless: nid=0 reason=KSWAPD
	     kswapd0-71    [000] .....    28.000000: mm_vmscan_kswapd_sleep: nid=0
	EOF
	"$VR" load -q -d h.db --kernel 7.0 h.txt
}

test_expect_success 'text: episodes per node, start, end, failures, reset reason and task' '
	text_trace &&
	sqlite3 h.db "SELECT nid, start_ns, first_fail_ns, last_fail_ns, end_ns, failures,
		fail_events, reset_reason, reset_reason_name, reset_pid, reset_comm, complete,
		incomplete_reason FROM kswapd_hopeless ORDER BY nid;
		SELECT item, count FROM run_quality WHERE item GLOB '\''kswapd_*hopeless*'\''
		ORDER BY item" >got &&
	cat >expect <<-EOF &&
	0|27217169000|27217169000|27300000000|27500000000|17|2|2|DIRECT|300|dd|1|
	1||27310000000|27310000000||20|1|||||0|start_not_traced,still_hopeless
	kswapd_clear_hopeless_unplaced|0
	kswapd_hopeless_episodes|2
	kswapd_resets_before_hopeless|1
	EOF
	test_cmp expect got
'

test_expect_success 'summary: the episodes, a start or end the trace did not show in words' '
	text_trace &&
	"$VR" summary -d h.db >out &&
	sed -n "/kswapd hopeless episodes/,/^$/p" out | sed "s/  */ /g" >got &&
	cat >expect <<-EOF &&
	 kswapd hopeless episodes (kswapd_failures >= 16, MAX_RECLAIM_RETRIES):
	 Node hopeless from s until s failures fails reset (reason, by)
	 0 0.217169 0.500000 17 2 DIRECT, dd 300
	 1 before the trace showed it still hopeless at the end 20 1 -

	EOF
	test_cmp expect got
'

test_expect_success 'timeline chart: a kswapd hopeless lane per node, in the legend' '
	text_trace &&
	"$VR" chart -d h.db --kind timeline --run 1 --dump-data >dump &&
	grep "^legend" dump | grep -q " hopeless" &&
	grep "kswapd hopeless" dump >got &&
	cat >expect <<-EOF &&
	flag kswapd hopeless set 0.217169 0.5
	flag kswapd hopeless set 0 1
	EOF
	test_cmp expect got &&
	"$VR" chart -d h.db --kind timeline --run 1 -o h.png && test -s h.png
'

test_expect_success 'timeline: a line at each episode'\''s start and reset' '
	text_trace &&
	"$VR" timeline -d h.db -r 1 >out &&
	grep "hopeless" out | sed "s/  */ /g" >got &&
	cat >expect <<-EOF &&
	 0.217169 0 kswapd0 hopeless: 16 runs of balance_pgdat() reclaimed nothing (MAX_RECLAIM_RETRIES); the node is left to direct reclaim
	 0.500000 0 kswapd0 no longer hopeless after 17 failures: reset by DIRECT (dd-300)
	EOF
	test_cmp expect got
'

# By hand, hopeless-7.0.spec (run start 2.000): node 0 from 2.016 to the PCP
# reset (reason 3) by worker 400 at 2.300, failures 17; node 1 from 2.100,
# failures 18, still hopeless; the loss at 2.250 makes both incomplete; the
# reset at 2.500 has no count before it: unplaced.
test_expect_success 'trace.dat: the reason as a number, lost events, an unplaced reset' '
	python3 "$MKDAT" "$DATA/hopeless-7.0.spec" h.dat &&
	"$VR" load -q -d d.db h.dat &&
	sqlite3 d.db "SELECT nid, start_ns, end_ns, failures, fail_events, reset_reason,
		reset_reason_name, reset_pid, complete, incomplete_reason FROM kswapd_hopeless
		ORDER BY nid; SELECT count FROM run_quality
		WHERE item = '\''kswapd_clear_hopeless_unplaced'\''" >got &&
	cat >expect <<-EOF &&
	0|2016000000|2300000000|17|2|3|PCP|400|0|lost_events
	1|2100000000||18|2||||0|lost_events,still_hopeless
	1
	EOF
	test_cmp expect got &&
	"$VR" chart -d d.db --kind timeline --run 1 --dump-data | grep "kswapd hopeless" >lanes &&
	printf "%s\n" "flag kswapd hopeless set 0.016 0.3" "flag kswapd hopeless set 0.1 0.6" >expect &&
	test_cmp expect lanes
'

test_expect_success 'a recording without the kswapd_failures events: no section, no lane' '
	cat >old.txt <<-'EOF' &&
	     kswapd0-71    [000] .....    27.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	     kswapd0-71    [000] .....    28.000000: mm_vmscan_kswapd_sleep: nid=0
	EOF
	"$VR" load -q -d o.db --kernel 6.18 old.txt &&
	"$VR" summary -d o.db >out && ! grep -q hopeless out &&
	"$VR" chart -d o.db --kind timeline --run 1 --dump-data >dump && ! grep -q hopeless dump
'

test_done
