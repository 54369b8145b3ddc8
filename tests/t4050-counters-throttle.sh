#!/usr/bin/env bash
# The throttling and anon/file write counters (src/counters.c) on three
# hand-written 6.18 text traces, two runs of setting "slow" and one of
# "fast", worked out by hand:
#   slow-1: kswapd0 throttled WRITEBACK once (8000 us); dd (pid 300)
#           throttled CONGESTED twice (10000 + 2500 us); kswapd0 writes two
#           anon pages, dd one file page.
#   slow-2: kswapd0 throttled WRITEBACK twice (4000 + 6000 us); dd (pid 301)
#           throttled ISOLATED (1000 us) and NOPROGRESS (3000 us); dd writes
#           one anon page (RECLAIM_WB_SYNC).
#   fast-1: no write; one wait of dd whose reason has two bits
#           (ISOLATED|CONGESTED, 0xa), which no reason's row counts.
# Means of slow over its two runs: kswapd WRITEBACK (1 + 2) / 2 = 1.50,
# (8 + 10) / 2 = 9.00 ms; outside kswapd CONGESTED 2 / 2 = 1.00,
# 12.5 / 2 = 6.25 ms; ISOLATED 0.50, 0.50 ms; NOPROGRESS 0.50, 1.50 ms;
# anon pages (2 + 1) / 2 = 1.50, file pages 1 / 2 = 0.50; fast: all 0.00.
# Rows 0 in every kernel (kswapd ISOLATED, WRITEBACK outside kswapd, ...)
# are left out.
. "$(dirname "$0")/lib.sh"

traces() {
	cat >slow-1.txt <<-'EOF'
	     kswapd0-50    [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	     kswapd0-50    [000] .....     1.010000: mm_vmscan_throttled: nid=0 usec_timeout=100000 usect_delayed=8000 reason=VMSCAN_THROTTLE_WRITEBACK
	     kswapd0-50    [000] .....     1.020000: mm_vmscan_write_folio: page=00000000deadbeef pfn=0x100 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC
	     kswapd0-50    [000] .....     1.021000: mm_vmscan_write_folio: page=00000000deadbeef pfn=0x101 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC
	          dd-300   [001] .....     1.030000: mm_vmscan_throttled: nid=0 usec_timeout=10000 usect_delayed=10000 reason=VMSCAN_THROTTLE_CONGESTED
	          dd-300   [001] .....     1.040000: mm_vmscan_throttled: nid=0 usec_timeout=10000 usect_delayed=2500 reason=VMSCAN_THROTTLE_CONGESTED
	          dd-300   [001] .....     1.041000: mm_vmscan_write_folio: page=00000000deadbeef pfn=0x200 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	     kswapd0-50    [000] .....     1.100000: mm_vmscan_kswapd_sleep: nid=0
	EOF
	cat >slow-2.txt <<-'EOF'
	     kswapd0-50    [000] .....     2.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	     kswapd0-50    [000] .....     2.010000: mm_vmscan_throttled: nid=0 usec_timeout=100000 usect_delayed=4000 reason=VMSCAN_THROTTLE_WRITEBACK
	     kswapd0-50    [000] .....     2.020000: mm_vmscan_throttled: nid=0 usec_timeout=100000 usect_delayed=6000 reason=VMSCAN_THROTTLE_WRITEBACK
	          dd-301   [001] .....     2.030000: mm_vmscan_throttled: nid=0 usec_timeout=1000 usect_delayed=1000 reason=VMSCAN_THROTTLE_ISOLATED
	          dd-301   [001] .....     2.040000: mm_vmscan_throttled: nid=0 usec_timeout=10000 usect_delayed=3000 reason=VMSCAN_THROTTLE_NOPROGRESS
	          dd-301   [001] .....     2.041000: mm_vmscan_write_folio: page=00000000deadbeef pfn=0x300 flags=RECLAIM_WB_ANON|RECLAIM_WB_SYNC
	     kswapd0-50    [000] .....     2.100000: mm_vmscan_kswapd_sleep: nid=0
	EOF
	cat >fast-1.txt <<-'EOF'
	     kswapd0-50    [000] .....     3.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	          dd-302   [001] .....     3.030000: mm_vmscan_throttled: nid=0 usec_timeout=1000 usect_delayed=700 reason=VMSCAN_THROTTLE_ISOLATED|VMSCAN_THROTTLE_CONGESTED
	     kswapd0-50    [000] .....     3.100000: mm_vmscan_kswapd_sleep: nid=0
	EOF
	"$VR" load -q -d t.db --kernel slow slow-1.txt slow-2.txt &&
	"$VR" load -q -d t.db --kernel fast fast-1.txt
}

test_expect_success 'compare: throttling per reason and kswapd / other tasks, anon / file writes' '
	traces &&
	"$VR" compare -d t.db --metrics counters >out &&
	sed -n "/^Folios written by kswapd /,/^Means/p" out | sed "s/  */ /g" >rows &&
	cat >expect <<-EOF &&
	Folios written by kswapd 1.00 0.00
	Folios written by reclaim outside kswapd 1.00 0.00
	Anon folios written by reclaim 1.50 0.00
	File folios written by reclaim 0.50 0.00
	Kswapd throttled WRITEBACK 1.50 0.00
	Kswapd throttled WRITEBACK time ms 9.00 0.00
	Throttled ISOLATED outside kswapd 0.50 0.00
	Throttled ISOLATED outside kswapd time ms 0.50 0.00
	Throttled NOPROGRESS outside kswapd 0.50 0.00
	Throttled NOPROGRESS outside kswapd time ms 1.50 0.00
	Throttled CONGESTED outside kswapd 1.00 0.00
	Throttled CONGESTED outside kswapd time ms 6.25 0.00
	EOF
	grep -v "^Means" rows >got &&
	test_cmp expect got
'
test_expect_success 'summary: the run'\''s own values, rows of 0 left out' '
	traces &&
	"$VR" summary -d t.db --run 2 >out &&
	sed -n "/^  Counters/,/^$/p" out | grep -i "throttl\|folios written" | sed "s/  */ /g" >got &&
	cat >expect <<-EOF &&
	 Folios written by kswapd 0
	 Folios written by reclaim outside kswapd 1
	 Anon folios written by reclaim 1
	 Kswapd throttled WRITEBACK 2
	 Kswapd throttled WRITEBACK time ms 10.00
	 Throttled ISOLATED outside kswapd 1
	 Throttled ISOLATED outside kswapd time ms 1.00
	 Throttled NOPROGRESS outside kswapd 1
	 Throttled NOPROGRESS outside kswapd time ms 3.00
	EOF
	test_cmp expect got
'
test_expect_success 'the counters chart and check-counters.py (own SQL over the raw tables) agree' '
	traces &&
	"$VR" summary -d t.db >sum.txt &&
	"$VR" compare -d t.db >cmp.txt &&
	"$VR" chart -d t.db -T counters --dump-data >dump.txt &&
	grep -q "^counter Throttled CONGESTED outside kswapd time \[ms\] slow mean 6.25$" dump.txt &&
	! grep -q "^counter Kswapd throttled ISOLATED" dump.txt &&
	python3 "$TOP/tests/check-counters.py" t.db sum.txt cmp.txt dump.txt
'
test_done
