#!/usr/bin/env bash
# Reclaim per cgroup id (issue 25 item 7): the memcg_id that 7.1 adds to the
# reclaim begin/end events (874a0a566ede "mm: vmscan: add cgroup IDs to vmscan
# tracepoints"), bound by name, goes to reclaim_stall.memcg_id and gives per
# cgroup rows in summary and compare; a run without it has '-' there.  Text
# traces in trace-cmd's format, worked out by hand:
#   7.1:  cgroup 5: two memcg stalls of dd, 4 + 6 = 10 ms, 32 + 16 = 48 pages;
#         cgroup 9: one of cc, 2 ms, 8 pages; cgroup 0: one direct stall of
#         cat, 1 ms, 4 pages.
#   6.18: one memcg stall without memcg_id: no cgroup rows, '-' in compare.
. "$(dirname "$0")/lib.sh"

traces() {
	cat >a.txt <<-'EOF' &&
	          dd-300   [000] .....     1.000000: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_KERNEL memcg_id=5
	          dd-300   [000] .....     1.004000: mm_vmscan_memcg_reclaim_end: nr_reclaimed=32 memcg_id=5
	          dd-300   [000] .....     1.010000: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_KERNEL memcg_id=5
	          dd-300   [000] .....     1.016000: mm_vmscan_memcg_reclaim_end: nr_reclaimed=16 memcg_id=5
	          cc-400   [001] .....     1.020000: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_KERNEL memcg_id=9
	          cc-400   [001] .....     1.022000: mm_vmscan_memcg_reclaim_end: nr_reclaimed=8 memcg_id=9
	         cat-500   [001] .....     1.030000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL memcg_id=0
	         cat-500   [001] .....     1.031000: mm_vmscan_direct_reclaim_end: nr_reclaimed=4 memcg_id=0
	EOF
	cat >b.txt <<-'EOF' &&
	          dd-300   [000] .....     2.000000: mm_vmscan_memcg_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
	          dd-300   [000] .....     2.003000: mm_vmscan_memcg_reclaim_end: nr_reclaimed=12
	EOF
	"$VR" load -q -d m.db --kernel 7.1 a.txt &&
	"$VR" load -q -d m.db --kernel 6.18 b.txt
}

test_expect_success 'reclaim_stall.memcg_id: the begin'\''s cgroup id, NULL before 7.1' '
	traces &&
	sqlite3 m.db "SELECT run_id, kind, pid, memcg_id, duration_ns, nr_reclaimed
		FROM reclaim_stall ORDER BY run_id, begin_ns" >got &&
	cat >expect <<-EOF &&
	1|memcg|300|5|4000000|32
	1|memcg|300|5|6000000|16
	1|memcg|400|9|2000000|8
	1|direct|500|0|1000000|4
	2|memcg|300||3000000|12
	EOF
	test_cmp expect got
'

test_expect_success 'summary: a row per cgroup id and kind; none for the 6.18 run' '
	traces &&
	"$VR" summary -d m.db --run 1 >s1 &&
	sed -n "/Cgroup id/,/^$/p" s1 | sed "s/  */ /g" >got &&
	cat >expect <<-EOF &&
	 Cgroup id Reclaim kind stalls stall time ms pages rclmed
	 0 direct 1 1.000 4
	 5 memcg 2 10.000 48
	 9 memcg 1 2.000 8

	EOF
	test_cmp expect got &&
	"$VR" summary -d m.db --run 2 >s2 && ! grep -q "Cgroup id" s2
'

test_expect_success 'compare: reclaim per cgroup id, - for the kernel without ids' '
	traces &&
	"$VR" compare -d m.db --metrics counters --width 0 >out &&
	grep "cgroup" out | sed "s/  */ /g" >got &&
	cat >expect <<-EOF &&
	Reclaim stalls of cgroup 0 1.00 -
	Reclaim stalls of cgroup 5 2.00 -
	Reclaim stalls of cgroup 9 1.00 -
	Reclaim stall time of cgroup 0 ms 1.00 -
	Reclaim stall time of cgroup 5 ms 10.00 -
	Reclaim stall time of cgroup 9 ms 2.00 -
	Pages reclaimed for cgroup 0 4.00 -
	Pages reclaimed for cgroup 5 48.00 -
	Pages reclaimed for cgroup 9 8.00 -
	EOF
	test_cmp expect got
'

test_done
