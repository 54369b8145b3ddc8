#!/usr/bin/env bash
# Per-node truth (issue 24 item 5): kswapd cycles and decisions, pages
# scanned and reclaimed per kswapd and outside it, and direct reclaim
# stalls, per node, against rows worked out by hand (a synthetic two-node
# trace.dat, tests/mkdat.py) and against tests/check-nodes.py's own count
# from `trace-cmd report`, for that file and for every recording of the
# lab (a trace.dat with its /proc/vmstat snapshots in X.dat.snap/ under
# samples/), whose trace sums it also holds against the vmstat deltas.
. "$(dirname "$0")/lib.sh"

MKDAT="$TOP/tests/mkdat.py"
DATA="$TOP/tests/data-model"
CHECK="$TOP/tests/check-nodes.py"
sdir=${VR_SAMPLES_DIR:-$TOP/samples}

# Worked out from tests/data-model/nodes-sched-6.18.spec:
# - node 0: wakes 1.000, 1.0401, 1.1501, 1.2471; kswapd0 switched out in S
#   at 1.003 and ran again at 1.040 (37 ms < 100 ms: woken early, 63 ms
#   before the timeout), out at 1.042 and back at 1.150 (108 ms: timed
#   out), out at 1.152 and back at 1.247 (95 ms: woken early 5 ms before
#   the timeout, within a jiffy at HZ 100: not exact, margin 5000000 ns);
#   the last cycle has no next wake (unknown).  Scanned 32 + 16 + 4 = 52,
#   reclaimed 30 + 16 + 4 = 50.
# - node 1: wake 1.010, nap from 1.012, kswapd_sleep 1.1121 (full sleep);
#   scanned 8, reclaimed 4.
# - pid 100 (1.020-1.022) reclaimed from node 1 (4/4), pid 101
#   (1.030-1.033) from node 0 (2/2) and node 1 (2/1): outside kswapd node 0
#   2/2, node 1 6/5; node 0 has one stall, node 1 two.
test_expect_success 'two nodes: cycles, decisions, pages and stalls per node as worked out by hand' '
	python3 "$MKDAT" "$DATA/nodes-sched-6.18.spec" ns.dat &&
	"$VR" load -q -d ns.db ns.dat &&
	sqlite3 ns.db "SELECT nid, wake_ns, decision, decision_exact, nap_margin_ns, nr_scanned,
		nr_reclaimed FROM kswapd_cycle ORDER BY nid, wake_ns;
		SELECT pid, nids FROM reclaim_stall ORDER BY pid" >actual &&
	printf "%s\n" "0|1000000000|nap_woken_early|1|63000000|32|30" \
		"0|1040100000|nap_timed_out|1||16|16" "0|1150100000|nap_woken_early|0|5000000|4|4" \
		"0|1247100000|unknown|0||0|0" "1|1010000000|full_sleep|1||8|4" "100|1" "101|0,1" \
		>expect &&
	"$VR" timeline -d ns.db -r 1 --node 0 | grep -c "woken early.*\[uncertain: 5.000 ms before the timeout, within a jiffy\]" >u &&
	echo 1 >expect1 && test_cmp expect1 u &&
	test_cmp expect actual &&
	"$VR" summary -d ns.db >out &&
	sed -n "/^  Pages per node/,/^$/p" out | sed "s/  */ /g" >actual &&
	printf "%s\n" " Pages per node (mm_vmscan_lru_shrink_inactive, pages)" \
		" Node kswapd scanned kswapd reclaimed outside scanned outside reclaimed" \
		" 0 52 50 2 2" " 1 8 4 6 5" "" >expect &&
	test_cmp expect actual &&
	"$VR" timeline -d ns.db -r 1 --node 0 --min-stall-ms 0 | grep -c "reclaim stall" >n0 && echo 1 >expect &&
	test_cmp expect n0 &&
	python3 "$CHECK" "$VR" ns.dat
'

# A model that puts every cycle, page and stall on node 0 (a wrapper loads
# with vmscan-report, then moves the rows there) must fail the check.
test_expect_success 'check-nodes.py fails on a single-node model (and leaves no temporary behind)' '
	python3 "$MKDAT" "$DATA/nodes-sched-6.18.spec" ns.dat &&
	cat >one-node <<-EOF &&
	#!/bin/sh
	case "\$1" in load) "$VR" "\$@" || exit 1
		sqlite3 "\$4" "UPDATE kswapd_cycle SET nid = 0; UPDATE lru_shrink_pages SET nid = 0;
			UPDATE reclaim_stall SET nids = 0 WHERE nids IS NOT NULL" ;;
	*) exec "$VR" "\$@" ;; esac
	EOF
	chmod +x one-node && mkdir tmp &&
	TMPDIR=$PWD/tmp test_expect_code 1 python3 "$CHECK" ./one-node ns.dat >out &&
	test -z "$(ls -A tmp)" &&
	grep -q "node 1 kswapd wakes: trace 1, vmscan-report 0" out &&
	grep -q "node 0 kswapd pages scanned: trace 52, vmscan-report 60" out &&
	grep -q "node 1 direct reclaim stalls: trace 2, vmscan-report 0" out &&
	grep -q "summary pages per node 0" out
'

test_expect_success 'lab recordings: per node as trace-cmd report counts, sums as /proc/vmstat' '
	ls "$sdir"/*.dat.snap "$sdir"/*/*.dat.snap "$sdir"/*/*/*.dat.snap -d 2>/dev/null |
		sed "s/\.snap$//" >lab &&
	if ! test -s lab; then test_skip_because "no lab recording (X.dat with X.dat.snap/) in $sdir"; fi &&
	python3 "$CHECK" "$VR" $(cat lab)
'
test_done
