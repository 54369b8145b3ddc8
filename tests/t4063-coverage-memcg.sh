#!/usr/bin/env bash
# The cgroup's memory.stat in the coverage table (issue 26 item 1): record
# --cgroup saves it (cgroup v2: pgscan, pgsteal and their _kswapd/_direct
# parts, counted by shrink_inactive_list() for the lruvec's cgroup and its
# ancestors, whatever reclaimed: mm/vmscan.c 6.1, 6.18).  The trace names no
# cgroup: it gives the pages of memcg reclaim, and those of kswapd and
# direct reclaim, some of which may be the cgroup's.
#
# hand.txt (as tests/t4065-coverage.sh's), worked out by hand, between the
# markers: kswapd0 scans 64 and reclaims 60, dd (direct reclaim) 32 and 30,
# cat inside a memcg reclaim 16 and 8.  memory.stat (cgroup v2) deltas:
#   pgscan 30 = memcg 16 + 14 of the 96 others': explained (14 <= 96);
#   pgsteal 8 = memcg 8: exact; pgscan_direct 16, pgsteal_direct 8: exact;
#   pgscan_kswapd 9, pgsteal_kswapd 5: not traced.
# A second run's pgscan rises by 200: 184 more than memcg reclaim's 16,
# more than the 96 pages of all other reclaim: unexplained.  A cgroup v1
# memory.stat (no pgscan) has no rows.
. "$(dirname "$0")/lib.sh"

hand_trace() { # NAME
	cat >"$1" <<-'EOF'
	   vmscan-report-9 [000] .....     1.000000: print: tracing_mark_write: vmscan-report: snapshot start
	     kswapd0-50    [000] .....     1.100000: mm_vmscan_kswapd_wake: nid=0 order=0
	     kswapd0-50    [000] .....     1.200000: mm_vmscan_lru_isolate: classzone=2 order=0 nr_requested=64 nr_scanned=64 nr_skipped=0 nr_taken=64 lru=inactive_file
	     kswapd0-50    [000] .....     1.210000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=64 nr_reclaimed=60 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	     kswapd0-50    [000] .....     1.400000: mm_vmscan_kswapd_sleep: nid=0
	          dd-300   [001] .....     1.500000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	          dd-300   [001] .....     1.510000: mm_vmscan_lru_isolate: classzone=2 order=0 nr_requested=32 nr_scanned=32 nr_skipped=0 nr_taken=32 lru=inactive_anon
	          dd-300   [001] .....     1.520000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC
	          dd-300   [001] .....     1.600000: mm_vmscan_direct_reclaim_end: nr_reclaimed=30
	         cat-400   [001] .....     1.700000: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
	         cat-400   [001] .....     1.710000: mm_vmscan_lru_isolate: classzone=2 order=0 nr_requested=16 nr_scanned=16 nr_skipped=0 nr_taken=16 lru=inactive_file
	         cat-400   [001] .....     1.720000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=16 nr_reclaimed=8 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	         cat-400   [001] .....     1.800000: mm_vmscan_memcg_reclaim_end: nr_reclaimed=8
	   vmscan-report-9 [000] .....     2.000000: print: tracing_mark_write: vmscan-report: snapshot end
	EOF
	mkdir "$1.snap" && echo "pageoutrun 7" >"$1.snap/start-vmstat" &&
	echo "pageoutrun 8" >"$1.snap/end-vmstat"
}

memstat() { # NAME PGSCAN_DELTA: cgroup v2 memory.stat start and end
	printf "%s\n" "anon 0" "file 4096" "pgscan 100" "pgsteal 100" "pgscan_kswapd 50" \
		"pgscan_direct 50" "pgsteal_kswapd 60" "pgsteal_direct 40" >"$1.snap/start-memory.stat" &&
	printf "%s\n" "anon 0" "file 4096" "pgscan $((100 + $2))" "pgsteal 108" "pgscan_kswapd 59" \
		"pgscan_direct 66" "pgsteal_kswapd 65" "pgsteal_direct 48" >"$1.snap/end-memory.stat"
}

rows() {
	sqlite3 db "SELECT counter, vmstat_delta, coalesce(trace_value, '-'), coalesce(difference,
		    '-'), verdict FROM counter_coverage WHERE run_id = $1 AND counter LIKE 'memory.stat%'
		    ORDER BY position"
}

test_expect_success 'memory.stat rows worked out by hand' '
	hand_trace a.txt && memstat a.txt 30 &&
	"$VR" load -q -d db --kernel a a.txt &&
	printf "%s\n" "memory.stat pgscan|30|16|14|explained" "memory.stat pgsteal|8|8|0|exact" \
		"memory.stat pgscan_direct|16|16|0|exact" "memory.stat pgsteal_direct|8|8|0|exact" \
		"memory.stat pgscan_kswapd|9|-|-|not traced" \
		"memory.stat pgsteal_kswapd|5|-|-|not traced" >expect &&
	rows 1 >actual && test_cmp expect actual &&
	sqlite3 db "SELECT explanation FROM counter_coverage WHERE counter = '\''memory.stat pgscan'\''" >why &&
	grep -q "^96 pages of kswapd, direct or khugepaged reclaim in the window" why &&
	"$VR" summary -d db >out &&
	grep -q "memory.stat pgscan: vmstat - trace = 14, explained" out
'

test_expect_success 'memory.stat above all the reclaim the trace saw: unexplained' '
	hand_trace b.txt && memstat b.txt 200 &&
	"$VR" load -q -d db --kernel b b.txt &&
	rows 1 | head -1 >actual && echo "memory.stat pgscan|200|16|184|unexplained" >expect &&
	test_cmp expect actual
'

test_expect_success 'a cgroup v1 memory.stat (no pgscan): no rows' '
	hand_trace c.txt &&
	printf "%s\n" "cache 0" "pgpgin 10" >c.txt.snap/start-memory.stat &&
	printf "%s\n" "cache 0" "pgpgin 20" >c.txt.snap/end-memory.stat &&
	"$VR" load -q -d db c.txt && test -z "$(rows 1)" &&
	test "$(sqlite3 db "SELECT count(*) FROM counter_coverage")" = 1
'

test_done
