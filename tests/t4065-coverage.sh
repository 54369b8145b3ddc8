#!/usr/bin/env bash
# Counter snapshots beside a trace (TRACE.snap/start-* and end-*, the
# markers "vmscan-report: snapshot start|end" in the trace) and the
# coverage table load makes of them (counter_coverage).
#
# hand.txt, worked out by hand: between the markers (1.0 s .. 2.0 s)
# kswapd0 (pid 50) wakes once (pageoutrun 1), scans 64 inactive file pages
# and reclaims 60 of them, writes one anon folio and sleeps; dd (pid 300)
# enters direct reclaim once (allocstall 1), scans 32 inactive anon pages
# and reclaims 30; cat (pid 400), inside a memcg reclaim, scans 16 file
# pages and reclaims 8 (cgroup reclaim: not in pgscan/pgsteal_direct, in
# pgscan_file/pgsteal_file).  After the end marker kswapd0 wakes again and
# scans 99 pages: not counted.  The vmstat deltas:
#   pgscan_kswapd 164-100 = 64, pgscan_direct 42-10 = 32, pgsteal_kswapd 60,
#   pgsteal_direct 30: exact; pgscan_file 80 (64 + 16), pgscan_anon 32,
#   pgsteal_file 68 (60 + 8), pgsteal_anon 30: exact; allocstall_normal
#   5->6 + allocstall_movable 2->2 = 1: exact; pageoutrun 7->8: exact;
#   nr_vmscan_write 0->512 and pswpout 0->512 against one folio: explained
#   (a folio of 512 pages); kswapd_high_wmark_hit_quickly 0->1 with
#   kswapd's first wake in the window and no cycle before it: explained (a
#   nap running at the start); pgrefill 0->5 against no active-list scan:
#   unexplained; kswapd_low_wmark_hit_quickly 3->3: exact.
. "$(dirname "$0")/lib.sh"
DATA="$TOP/tests/data-coverage"

hand_trace() {
	cat >hand.txt <<-'EOF'
	   vmscan-report-9 [000] .....     1.000000: print: tracing_mark_write: vmscan-report: snapshot start
	     kswapd0-50    [000] .....     1.100000: mm_vmscan_kswapd_wake: nid=0 order=0
	     kswapd0-50    [000] .....     1.200000: mm_vmscan_lru_isolate: classzone=2 order=0 nr_requested=64 nr_scanned=64 nr_skipped=0 nr_taken=64 lru=inactive_file
	     kswapd0-50    [000] .....     1.210000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=64 nr_reclaimed=60 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	     kswapd0-50    [000] .....     1.300000: mm_vmscan_write_folio: page=0x100 pfn=0x100 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC
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
	     kswapd0-50    [000] .....     2.100000: mm_vmscan_kswapd_wake: nid=0 order=0
	     kswapd0-50    [000] .....     2.200000: mm_vmscan_lru_isolate: classzone=2 order=0 nr_requested=99 nr_scanned=99 nr_skipped=0 nr_taken=99 lru=inactive_file
	EOF
	mkdir hand.txt.snap &&
	printf '%s\n' "pgscan_kswapd 100" "pgscan_direct 10" "pgsteal_kswapd 0" "pgsteal_direct 0" \
		"pgscan_anon 0" "pgscan_file 0" "pgsteal_anon 0" "pgsteal_file 0" "pgrefill 0" \
		"allocstall_normal 5" "allocstall_movable 2" "pageoutrun 7" \
		"kswapd_low_wmark_hit_quickly 3" "kswapd_high_wmark_hit_quickly 0" \
		"nr_vmscan_write 0" "pswpout 0" >hand.txt.snap/start-vmstat &&
	printf '%s\n' "pgscan_kswapd 164" "pgscan_direct 42" "pgsteal_kswapd 60" "pgsteal_direct 30" \
		"pgscan_anon 32" "pgscan_file 80" "pgsteal_anon 30" "pgsteal_file 68" "pgrefill 5" \
		"allocstall_normal 6" "allocstall_movable 2" "pageoutrun 8" \
		"kswapd_low_wmark_hit_quickly 3" "kswapd_high_wmark_hit_quickly 1" \
		"nr_vmscan_write 512" "pswpout 512" >hand.txt.snap/end-vmstat
}

rows() { # DB: counter|vmstat_delta|trace_value|difference|verdict
	sqlite3 "$1" "SELECT counter, vmstat_delta, coalesce(trace_value, '-'),
		      coalesce(difference, '-'), verdict FROM counter_coverage ORDER BY position"
}

test_expect_success 'hand trace: the table worked out by hand' '
	hand_trace &&
	"$VR" load -q -d db hand.txt &&
	cat >expect <<-EOF &&
	pgscan_kswapd|64|64|0|exact
	pgscan_direct|32|32|0|exact
	pgsteal_kswapd|60|60|0|exact
	pgsteal_direct|30|30|0|exact
	pgscan_anon|32|32|0|exact
	pgsteal_anon|30|30|0|exact
	pgscan_file|80|80|0|exact
	pgsteal_file|68|68|0|exact
	pgrefill|5|0|5|unexplained
	allocstall|1|1|0|exact
	pageoutrun|1|1|0|exact
	kswapd_low_wmark_hit_quickly|0|0|0|exact
	kswapd_high_wmark_hit_quickly|1|0|1|explained
	nr_vmscan_write|512|1|511|explained
	pswpout|512|1|511|explained
	EOF
	rows db >actual &&
	test_cmp expect actual &&
	sqlite3 db "SELECT explanation FROM counter_coverage WHERE counter = '\''nr_vmscan_write'\''" |
		grep -q "one event per folio" &&
	sqlite3 db "SELECT explanation FROM counter_coverage WHERE counter LIKE '\''kswapd_high%'\''" |
		grep -q "first kswapd_wake ends a nap" &&
	test "$(sqlite3 db "SELECT group_concat(moment || '\'' '\'' || ts_ns, '\'','\'') FROM run_snapshot")" = \
		"start 1000000000,end 2000000000"
'

test_expect_success 'summary says it in one line and a table' '
	hand_trace &&
	"$VR" load -q -d db hand.txt &&
	"$VR" summary -d db >out &&
	grep -q "^  trace = vmstat, exact: pgscan_kswapd, pgscan_direct, pgsteal_kswapd, pgsteal_direct, pgscan_anon, pgsteal_anon, pgscan_file, pgsteal_file, allocstall, pageoutrun, kswapd_low_wmark_hit_quickly; pgrefill: vmstat - trace = 5, unexplained; kswapd_high_wmark_hit_quickly: vmstat - trace = 1, explained; nr_vmscan_write: vmstat - trace = 511, explained; pswpout: vmstat - trace = 511, explained$" out &&
	grep -q "^  nr_vmscan_write  *512 pages  *1 folios  *511  explained: vmstat counts pages" out
'

test_expect_success 'a recording without snapshots: summary says so' '
	hand_trace && rm -r hand.txt.snap &&
	"$VR" load -q -d db hand.txt &&
	"$VR" summary -d db >out &&
	grep -q "^Coverage: - (no counter snapshots" out
'

test_expect_success 'no markers: the whole trace, a difference where the trace counts more is explained' '
	hand_trace && grep -v "snapshot" hand.txt >x.txt && mv hand.txt.snap x.txt.snap &&
	"$VR" load -q -d db x.txt 2>err &&
	grep -q "x.txt.snap: the trace has no .vmscan-report: snapshot start. marker" err &&
	sqlite3 db "SELECT trace_value, verdict FROM counter_coverage WHERE counter = '\''pageoutrun'\''" >actual &&
	echo "2|explained" >expect && test_cmp expect actual &&
	sqlite3 db "SELECT explanation FROM counter_coverage WHERE counter = '\''pgscan_kswapd'\''" |
		grep -q "no snapshot marker in the trace"
'

test_expect_success 'bad snapshot directories: an error naming the file, database unchanged' '
	hand_trace &&
	"$VR" load -q -d db hand.txt && cp db db.orig && rm -f db-only &&
	cp hand.txt other.txt && echo "   x-1 [000] .....     3.0: mm_vmscan_kswapd_sleep: nid=0" >>other.txt &&
	cp -r hand.txt.snap other.txt.snap &&
	echo "pgscan_kswapd x12" >>other.txt.snap/end-vmstat &&
	test_expect_code 1 "$VR" load -q -d db other.txt 2>err &&
	grep -q "other.txt.snap/end-vmstat:17: not a .name value. counter line" err &&
	grep -q "other.txt: not loaded; the database is unchanged" err &&
	cp hand.txt.snap/end-vmstat other.txt.snap/end-vmstat &&
	echo "pgscan_kswapd 1" >>other.txt.snap/end-vmstat &&
	test_expect_code 1 "$VR" load -q -d db other.txt 2>err &&
	grep -q "other.txt.snap/end-vmstat:17: counter .pgscan_kswapd. given twice" err &&
	rm other.txt.snap/end-vmstat &&
	test_expect_code 1 "$VR" load -q -d db other.txt 2>err &&
	grep -q "other.txt.snap/end-vmstat: missing" err &&
	cp hand.txt.snap/end-vmstat other.txt.snap/end-vmstat && touch other.txt.snap/vmstat-before &&
	test_expect_code 1 "$VR" load -q -d db other.txt 2>err &&
	grep -q "other.txt.snap: unknown file .vmstat-before." err &&
	rm other.txt.snap/vmstat-before && mkdir other.txt.snap/end-zoneinfo &&
	test_expect_code 1 "$VR" load -q -d db other.txt 2>err &&
	grep -q "other.txt.snap/end-zoneinfo: cannot read: Is a directory" err &&
	rmdir other.txt.snap/end-zoneinfo &&
	rm -r other.txt.snap && touch other.txt.snap &&
	test_expect_code 1 "$VR" load -q -d db other.txt 2>err &&
	grep -q "other.txt.snap: not a directory" err &&
	sqlite3 db.orig .dump >expect && sqlite3 db .dump >actual && test_cmp expect actual
'

test_expect_success 'a 6.18 recording under memcg pressure: the table equals the snapshots and trace-cmd report' '
	cp -r "$DATA"/memcg-6.18.dat "$DATA"/memcg-6.18.dat.snap . &&
	python3 "$TOP/tests/check-coverage.py" "$VR" memcg-6.18.dat >out &&
	cat out && grep -q "^memcg-6.18.dat: 17 exact$" out &&
	"$VR" load -q -d db memcg-6.18.dat &&
	test "$(sqlite3 db "SELECT vmstat_delta || '\'' '\'' || trace_value FROM counter_coverage WHERE counter = '\''pgscan_file'\''")" = \
		"$(( $(sed -n "s/^pgscan_file //p" memcg-6.18.dat.snap/end-vmstat) - $(sed -n "s/^pgscan_file //p" memcg-6.18.dat.snap/start-vmstat) )) $(trace-cmd report memcg-6.18.dat 2>/dev/null | sed -n "s/.*lru_isolate:.*nr_scanned=\([0-9]*\) .*lru=inactive_file$/\1/p" | paste -sd+ | bc)" &&
	test "$(sqlite3 db "SELECT count(*) FROM snapshot_counter WHERE file = '\''memory.stat'\''")" -gt 10 &&
	test "$(sqlite3 db "SELECT count(DISTINCT file) FROM run_snapshot")" = 4
'

# A text trace shows no event that did not happen: the counters of events
# absent from it are "not recorded" there; the others are the same.
test_expect_success 'the same recording as trace-cmd report text, snapshots beside it: the same table' '
	cp -r "$DATA"/memcg-6.18.dat "$DATA"/memcg-6.18.dat.snap . &&
	trace-cmd report memcg-6.18.dat >m.txt 2>/dev/null && cp -r memcg-6.18.dat.snap m.txt.snap &&
	"$VR" load -q -d a.db memcg-6.18.dat && "$VR" load -q -d b.db m.txt &&
	rows a.db | head -11 >expect && rows b.db | head -11 >actual && test_cmp expect actual &&
	rows b.db | tail -n +12 | cut -d"|" -f5 | sort -u >actual &&
	echo "not recorded" >expect && test_cmp expect actual
'

# Each run's table counts its own events only, whatever runs the database
# holds: a run's LRU rows are read by the ids its load gave them
# (store_run_event_source()).  Three recordings loaded one after another
# into one database: each run's table equals the snapshots and trace-cmd
# report's text of its own trace (check-coverage.py --one-db); then the
# first reloaded into its run (--replace: its rows get ids after the
# others'), its table the same as before.
test_expect_success 'several runs in one database: each table counts its own run only' '
	cp -r "$DATA"/memcg-6.18.dat "$DATA"/memcg-6.18.dat.snap . &&
	for f in vanilla-1 patched-1; do
		cp -r "$TOP/samples/lab/$f.dat" "$TOP/samples/lab/$f.dat.snap" . || return 1
	done &&
	python3 "$TOP/tests/check-coverage.py" --one-db "$VR" vanilla-1.dat memcg-6.18.dat \
		patched-1.dat >out &&
	cat out &&
	printf "%s\n" "vanilla-1.dat: 13 exact, 2 explained" "memcg-6.18.dat: 17 exact" \
		"patched-1.dat: 13 exact, 2 explained" >expect &&
	test_cmp expect out &&
	for f in vanilla-1 memcg-6.18 patched-1; do
		"$VR" load -q -d db $f.dat || return 1
	done &&
	sqlite3 db "SELECT * FROM counter_coverage WHERE run_id = 1" >before &&
	test "$(wc -l <before)" = 15 &&
	"$VR" load -q --replace -d db vanilla-1.dat &&
	sqlite3 db "SELECT * FROM counter_coverage WHERE run_id = 1" >after &&
	test_cmp before after &&
	test "$(sqlite3 db "SELECT count(*) FROM lru_call WHERE run_id = 1 AND id >
		(SELECT max(id) FROM lru_call WHERE run_id = 3)")" -gt 1000
'

test_done
