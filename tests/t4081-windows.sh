#!/usr/bin/env bash
# The reclaim_window table (src/windows.c) and compare's windows block
# (src/compare/compare-windows.c), worked out by hand on a two-node text trace:
# first event 1.0 s, last 3.0 s: 2 s, so windows of 0.1 s (the largest
# 1, 2 or 5 x 10^k ns giving at least 20), 21 of them (2.0 / 0.1 + 1).
#   kswapd0 (nid 0) runs 1.00-1.30 (full sleep): 0.1 s in windows 0, 1, 2;
#     scans 64 and reclaims 60 at 1.05 (window 0);
#   kswapd1 (nid 1) runs 1.20-1.45: 0.1 s in windows 2 and 3, 0.05 s in 4;
#     scans 32, reclaims 30 at 1.25 (window 2);
#   dd stalls in direct reclaim 1.50-1.75: 0.1 s in windows 5 and 6, 0.05
#     s in 7; scans 16 and reclaims 8 on node 0 at 1.60 (window 6);
#   dd is throttled WRITEBACK on node 0, the wait ending at 2.05 (window 10).
# Compare, one run: pages scanned per window 64, 32, 16 and 18 zeros (sum
# 112): window 0 alone holds half (64 >= 56): 1 of 21 = 4.76 %; p95 is the
# 20th of 21 ascending (ceil(0.95 * 21) = 20): 32, over the mean 112/21:
# 6.00.  Stall time 0.1, 0.1, 0.05 s: two windows hold half (0.1 < 0.125 <=
# 0.2): 2/21 = 9.52 %; p95 = 0.1 s over 0.25/21 s: 8.40.  --window 0.5: 5
# windows (2.0 / 0.5 + 1).
. "$(dirname "$0")/lib.sh"

trace() {
	cat >w.txt <<-'EOF'
	     kswapd0-50    [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	     kswapd0-50    [000] .....     1.050000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=64 nr_reclaimed=60 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	     kswapd1-51    [001] .....     1.200000: mm_vmscan_kswapd_wake: nid=1 order=0
	     kswapd1-51    [001] .....     1.250000: mm_vmscan_lru_shrink_inactive: nid=1 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	     kswapd0-50    [000] .....     1.300000: mm_vmscan_kswapd_sleep: nid=0
	     kswapd1-51    [001] .....     1.450000: mm_vmscan_kswapd_sleep: nid=1
	          dd-300   [002] .....     1.500000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	          dd-300   [002] .....     1.600000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=16 nr_reclaimed=8 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	          dd-300   [002] .....     1.750000: mm_vmscan_direct_reclaim_end: nr_reclaimed=8
	          dd-300   [002] .....     2.050000: mm_vmscan_throttled: nid=0 usec_timeout=100000 usect_delayed=8000 reason=VMSCAN_THROTTLE_WRITEBACK
	          dd-300   [002] .....     3.000000: mm_vmscan_wakeup_kswapd: nid=0 zid=2 order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	EOF
}

test_expect_success 'the windows worked out by hand' '
	trace && "$VR" load -q -d db w.txt &&
	sqlite3 db "SELECT count(*), min(width_ns), max(width_ns), min(start_ns), max(window)
		    FROM reclaim_window WHERE nid IS NULL" >actual &&
	echo "21|100000000|100000000|1000000000|20" >expect && test_cmp expect actual &&
	sqlite3 db "SELECT coalesce(nid, '\''all'\''), window, kswapd_scanned, kswapd_reclaimed,
		    other_scanned, other_reclaimed, kswapd_running_ns, coalesce(stall_ns, '\''-'\''),
		    throttled_writeback + throttled_isolated + throttled_noprogress + throttled_congested
		    FROM reclaim_window WHERE kswapd_scanned + other_scanned + kswapd_running_ns +
		    coalesce(stall_ns, 0) + throttled_writeback > 0 ORDER BY nid IS NOT NULL, nid, window" >actual &&
	cat >expect <<-EOF &&
	all|0|64|60|0|0|100000000|0|0
	all|1|0|0|0|0|100000000|0|0
	all|2|32|30|0|0|200000000|0|0
	all|3|0|0|0|0|100000000|0|0
	all|4|0|0|0|0|50000000|0|0
	all|5|0|0|0|0|0|100000000|0
	all|6|0|0|16|8|0|100000000|0
	all|7|0|0|0|0|0|50000000|0
	all|10|0|0|0|0|0|0|1
	0|0|64|60|0|0|100000000|-|0
	0|1|0|0|0|0|100000000|-|0
	0|2|0|0|0|0|100000000|-|0
	0|6|0|0|16|8|0|-|0
	0|10|0|0|0|0|0|-|1
	1|2|32|30|0|0|100000000|-|0
	1|3|0|0|0|0|100000000|-|0
	1|4|0|0|0|0|50000000|-|0
	EOF
	test_cmp expect actual &&
	test "$(sqlite3 db "SELECT sum(throttled_writeback) FROM reclaim_window WHERE nid = 0")" = 1
'

test_expect_success 'compare: steady or bursty, worked out by hand' '
	trace && "$VR" load -q -d db --kernel k w.txt &&
	"$VR" compare -d db >out &&
	grep -Eq "^Window width ms +100\.00$" out &&
	grep -Eq "^Windows with half of pages scanned % +4\.76$" out &&
	grep -Eq "^Pages scanned per window p95/mean +6\.00$" out &&
	grep -Eq "^Windows with half of stall time % +9\.52$" out &&
	grep -Eq "^Stall time per window p95/mean +8\.40$" out
'

test_expect_success 'load --window S; bad values are usage errors' '
	trace && "$VR" load -q -d db --window 0.5 w.txt &&
	test "$(sqlite3 db "SELECT count(*), max(width_ns) FROM reclaim_window WHERE nid IS NULL")" = "5|500000000" &&
	for bad in 0 -1 x 1e-10 1e9; do
		test_expect_code 2 "$VR" load -q -d db2 --window "$bad" w.txt 2>err &&
		grep -q -- "--window wants seconds from 1e-9 (1 ns) to 1e6, not .$bad.$" err || exit 1
	done &&
	test_expect_code 2 "$VR" load -q -d db2 --premature-ms 1e20 w.txt 2>err &&
	grep -q -- "--premature-ms wants a whole number from 1 to 2147483647, not .1e20.$" err
'

# --window 0.03: windows of 30 ms from 1.000 s, window k = [1.00 + 0.03k,
# 1.03 + 0.03k).  kswapd1 runs 1.20-1.45: 10 ms of window 6 (1.18-1.21),
# all of windows 7 to 14 (1.21-1.45): 250 ms.  dd stalls 1.50-1.75: 10 ms
# of window 16 (1.48-1.51), all of 17 to 24 (1.51-1.75): 250 ms.  Each
# interval crosses many windows (src/windows.c walks it window by window).
test_expect_success 'load --window 0.03: intervals across many windows, by hand' '
	trace && "$VR" load -q -d db --window 0.03 w.txt &&
	sqlite3 db "SELECT window, kswapd_running_ns FROM reclaim_window WHERE nid = 1 AND
		    kswapd_running_ns > 0 ORDER BY window" >actual &&
	printf "%s\n" 6\|10000000 7\|30000000 8\|30000000 9\|30000000 10\|30000000 \
		11\|30000000 12\|30000000 13\|30000000 14\|30000000 >expect &&
	test_cmp expect actual &&
	sqlite3 db "SELECT window, stall_ns FROM reclaim_window WHERE nid IS NULL AND stall_ns > 0
		    ORDER BY window" >actual &&
	printf "%s\n" 16\|10000000 17\|30000000 18\|30000000 19\|30000000 20\|30000000 \
		21\|30000000 22\|30000000 23\|30000000 24\|30000000 >expect &&
	test_cmp expect actual &&
	test "$(sqlite3 db "SELECT sum(kswapd_running_ns) FROM reclaim_window WHERE nid IS NULL")" = 550000000
'

# 2000 windows of 1 ms, each scanning another count (1 to 13 pages: 1000 to
# 13000 pages/s), drawn in a plot about 700 px wide: the data keep every
# step, the drawing one column of steps a pixel (their extremes), so no path
# of the 800 px wide SVG has more than 4 points a pixel of the image (drawn
# step by step, the shaded range alone had 4 a step: 8000).
many_windows() {
	awk 'BEGIN {
		for (i = 0; i < 2000; i++)
			printf "     kswapd0-50    [000] .....  %.6f: mm_vmscan_lru_shrink_inactive:" \
			       " nid=0 nr_scanned=%d nr_reclaimed=1 nr_dirty=0 nr_writeback=0" \
			       " nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0" \
			       " nr_ref_keep=0 nr_unmap_fail=0 priority=12" \
			       " flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n", 1.0005 + i * 0.001, (i * 7) % 13 + 1
	}' >many.txt
}

# The most line points ("L") in one path of the SVG $1.
most_points() {
	python3 - "$1" <<-'EOF'
	import re, sys
	paths = re.findall(r' d="([^"]*)"', open(sys.argv[1]).read())
	print(max(p.count(' L ') for p in paths))
	EOF
}

test_expect_success 'windows chart of 2000 windows: drawn by pixel columns, data whole' '
	many_windows && "$VR" load -q -d db --window 0.001 many.txt &&
	"$VR" chart -d db --kind windows --metric scanned --dump-data >dump &&
	grep -q "steps=2000$" dump &&
	grep -q "^step 0.001 median=8000 lo=8000 hi=8000$" dump &&
	"$VR" chart -d db --kind windows --metric scanned -o w.svg &&
	grep -q "<svg[^>]* viewBox=\"0 0 800 600\"" w.svg &&
	n=$(most_points w.svg) && echo "$n points" &&
	test "$n" -gt 1000 && test "$n" -le 3200
'

# Two runs of kernel k, the second scanning twice as much in window 0 (128
# pages): at step 0 (0.1 s, the middle 0.05 s) 640 and 1280 pages/s, median
# 960; 21 steps (21 windows of 0.1 s); step 2: 320 pages/s in both.
test_expect_success 'the windows chart: median and range over the runs (--dump-data), drawn' '
	trace && sed "s/nr_scanned=64 /nr_scanned=128 /" w.txt >w2.txt &&
	"$VR" load -q -d db --kernel k w.txt w2.txt &&
	"$VR" chart -d db --kind windows --metric scanned --dump-data >dump &&
	head -2 dump >actual &&
	printf "%s\n" "windows metric=scanned unit=pages/s step_s=0.1 steps=21" "kernel k runs=2" >expect &&
	test_cmp expect actual &&
	grep -q "^step 0 median=960 lo=640 hi=1280$" dump &&
	grep -q "^step 0.2 median=320 lo=320 hi=320$" dump &&
	test $(grep -c "^step " dump) = 21 &&
	"$VR" chart -d db --kind windows --metric stall -o s.png && test -s s.png &&
	test_expect_code 2 "$VR" chart -d db --kind windows --metric nope -o x.png 2>err &&
	grep -q "needs --metric scanned, reclaimed, stall or kswapd" err
'

test_done
