#!/usr/bin/env bash
# Windows aligned at a marker the user names (issue 26 item 2): compare
# --align-marker TEXT, chart --kind windows --align-marker TEXT and report
# --align-marker TEXT read each run from its first window that starts at or
# after its first trace_marker (print) event containing TEXT; a run
# without one is left out and named.  Worked out by hand on text traces
# whose first event is at 1.0 s and last at 21.0 s: 20 s, windows of 1 s
# (the largest 1, 2 or 5 x 10^k ns giving at least 20), 21 of them, window
# i = [1 + i, 2 + i) s.
#   a-1: kswapd0 scans 1000 pages at 2.5 s (window 1), marker "phase 2" at
#     6.5 s (5.5 s after the start: first window ceil(5.5) = 6), then 100
#     pages at 7.5, 8.5, 9.5 and 10.5 s (windows 6-9).
#     From the start: 21 windows, sum 1400: window 1 alone holds half
#     (1000 >= 700): 1/21 = 4.76 %; p95 = the 20th of 21 ascending
#     (ceil(0.95 * 21) = 20) = 100, over the mean 1400/21: 1.50.
#     Aligned: windows 6-20, 15 of them, sum 400: two hold half (200):
#     2/15 = 13.33 %; p95 = the 15th of 15 (ceil(14.25)) = 100 over 400/15:
#     3.75; the marker 5.500 s after the start.
#   b-1: scans 500 at 1.5 s (window 0), marker "phase 2 begins" at 3.0 s
#     (2.0 s: first window 2), 100 at 3.5 and 4.5 s (windows 2, 3).
#     Aligned: windows 2-20, 19 of them, sum 200: one holds half: 1/19 =
#     5.26 %; p95 = the 19th of 19 (ceil(18.05)) = 100 over 200/19: 9.50.
#   b-2: the same without a marker: left out when aligned.
. "$(dirname "$0")/lib.sh"

# run FILE MARKER_TIME|- SCAN_AT:PAGES...; kswapd0's pid differs per file
n_run=0
run() {
	local f=$1 m=$2 sp
	shift 2
	n_run=$((n_run + 1))
	{
		printf "     kswapd0-%d    [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0\n" $((50 + n_run))
		for sp in "$@"; do
			printf "     kswapd0-%d    [000] .....     %s: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=%d nr_reclaimed=%d nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n" \
				$((50 + n_run)) "${sp%%:*}" "${sp#*:}" "${sp#*:}"
		done
		[ "$m" = - ] || printf "          bash-9     [000] .....     %s: print: tracing_mark_write: %s\n" "${m%% *}" "${m#* }"
		printf "     kswapd0-%d    [000] .....    21.000000: mm_vmscan_kswapd_sleep: nid=0\n" $((50 + n_run))
	} >"$f.unsorted" &&
	# keep the events in time order (the marker among them)
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { print $i + 0 "\t" $0; break } }' \
		"$f.unsorted" | sort -s -g -k1,1 | cut -f2- >"$f"
}

make_db() {
	run a-1.txt "6.500000 phase 2" 2.500000:1000 7.500000:100 8.500000:100 9.500000:100 10.500000:100 &&
	run b-1.txt "3.000000 phase 2 begins" 1.500000:500 3.500000:100 4.500000:100 &&
	run b-2.txt - 1.500000:500 3.500000:100 4.500000:100 &&
	"$VR" load -q -d db --kernel a a-1.txt &&
	"$VR" load -q -d db --kernel b b-1.txt b-2.txt
}

row() { grep -E "^$1 " out | sed "s/  */ /g"; }

test_expect_success 'compare --align-marker: the windows block from the marker, worked out by hand' '
	make_db &&
	"$VR" compare --width 0 -d db --kernels a >out &&
	test "$(row "Windows with half of pages scanned %")" = "Windows with half of pages scanned % 4.76" &&
	test "$(row "Pages scanned per window p95/mean")" = "Pages scanned per window p95/mean 1.50" &&
	! grep -q "^Marker" out &&
	"$VR" compare --width 0 -d db --kernels a,b --align-marker "phase 2" >out &&
	test "$(row "Windows with half of pages scanned %")" = "Windows with half of pages scanned % 13.33 5.26" &&
	test "$(row "Pages scanned per window p95/mean")" = "Pages scanned per window p95/mean 3.75 9.50" &&
	test "$(row "Marker after the start s")" = "Marker after the start s 5.500 2.000" &&
	grep -q "aligned at the marker .phase 2." out &&
	grep -q "^b: no marker .phase 2. in iteration 2: left out" out
'

test_expect_success 'chart --kind windows --align-marker: time 0 at the first window after the marker' '
	make_db &&
	"$VR" chart -d db --kind windows --metric scanned --align-marker "phase 2" --dump-data >dump &&
	grep -q "^aligned at .phase 2.; no marker: b iteration 2$" dump &&
	grep -q "^kernel a runs=1$" dump && grep -q "^kernel b runs=1$" dump &&
	sed -n "/^kernel a/,/^kernel b/p" dump | grep "^step" | head -5 | cut -d" " -f2,3 >got &&
	printf "%s\n" "0 median=100" "1 median=100" "2 median=100" "3 median=100" "4 median=0" >want &&
	test_cmp want got &&
	sed -n "/^kernel b/,\$p" dump | grep "^step" | head -3 | cut -d" " -f2,3 >got &&
	printf "%s\n" "0 median=100" "1 median=100" "2 median=0" >want &&
	test_cmp want got &&
	"$VR" chart -d db --kind windows --metric scanned --dump-data >dump &&
	sed -n "/^kernel a/,/^kernel b/p" dump | grep "^step" | sed -n 2p | cut -d" " -f2,3 >got &&
	echo "1 median=1000" >want && test_cmp want got
'

test_expect_success 'report --align-marker; an evidence database has no markers: an error' '
	make_db &&
	"$VR" report -q -d db -o rep --align-marker "phase 2" &&
	grep -q "^Marker after the start s" rep/compare.txt &&
	test -s rep/windows-scanned.png &&
	! "$VR" compare -d rep/evidence.db --align-marker "phase 2" 2>err &&
	grep -q "no print events" err &&
	! "$VR" chart -d db --kind latency --metric DirectReclaim -o x.png --align-marker x 2>err &&
	grep -q "align-marker is for --kind windows" err
'

# c-1: scans 500 at 1.5 s, kswapd sleeps at 21.0 s, marker "phase 2" at
# 21.5 s, its last event: 20.5 s long, windows of 1 s (20.5 / 20 >= 1), 21
# of them (0-20), the last starting at 21.0 s; the marker 20.5 s after the
# start asks for window ceil(20.5) = 21, which is not there.
test_expect_success 'a marker after the last window start: the run left out and said, not a mean over no window' '
	make_db &&
	run c-1.txt "21.500000 phase 2" 1.500000:500 &&
	"$VR" load -q -d db --kernel c c-1.txt &&
	"$VR" compare --width 0 -d db --kernels a,c --align-marker "phase 2" >out &&
	test "$(row "Marker after the start s")" = "Marker after the start s 5.500 -" &&
	test "$(row "Window width ms")" = "Window width ms 1000.00 -" &&
	grep -q "^c: the marker .phase 2. after the last window.s start in iteration 1: left out" out &&
	"$VR" chart -d db --kind windows --metric scanned --align-marker "phase 2" --dump-data >dump &&
	grep -q "^aligned at .phase 2.; no marker: b iteration 2, c iteration 1 (marker after its last window.s start)$" dump &&
	grep -q "^kernel c runs=0$" dump
'

test_done
