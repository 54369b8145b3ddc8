#!/usr/bin/env bash
# A metric a run did not record is "-" with its reason, never 0 (issue 25
# items 3, 4, 8; issue 26 item 4), on the lab's real 6.1 recordings
# (samples/lab/: classic-1 with lru_gen/enabled 0x0000, mglru-1 with
# 0x0007), every expected number counted here from `trace-cmd report` and
# the snapshot files, never by vmscan-report:
#   mglru-1: 2741 mm_vmscan_kswapd_wake, 30 mm_vmscan_direct_reclaim_begin
#     and not one mm_vmscan_lru_* event (6.1's multi-gen LRU reclaims
#     without them): its pages scanned/reclaimed are "not traced";
#   classic-1: kswapd's lru_shrink_inactive nr_scanned sums to 1355433 (awk
#     over the report), 909 write_folio events, and nr_vmscan_write goes
#     from 0 to 909 between start-vmstat and end-vmstat.
# The text test: a hand-written text with kswapd wakes and a direct reclaim
# but no LRU line and no release: "not traced or not recorded".
. "$(dirname "$0")/lib.sh"

lab=${VR_SAMPLES_DIR:-$TOP/samples}/lab

have_lab() {
	test -f "$lab/mglru-1.dat" && test -f "$lab/classic-1.dat" && command -v trace-cmd >/dev/null
}

# Count @2 (an event name) in trace-cmd report of @1.
count() {
	trace-cmd report "$1" 2>/dev/null | grep -c " $2: "
}

load_lab() {
	"$VR" load -q -d lab.db --kernel classic "$lab/classic-1.dat" &&
	"$VR" load -q -d lab.db --kernel mglru "$lab/mglru-1.dat"
}

test_expect_success 'lab: mglru-1 has reclaim events and no LRU event (trace-cmd report)' '
	if ! have_lab; then test_skip_because "no lab samples or trace-cmd"; fi
	test "$(count "$lab/mglru-1.dat" mm_vmscan_kswapd_wake)" = 2741 &&
	test "$(count "$lab/mglru-1.dat" mm_vmscan_direct_reclaim_begin)" = 30 &&
	test "$(trace-cmd report "$lab/mglru-1.dat" 2>/dev/null | grep -c "mm_vmscan_lru_")" = 0 &&
	cat "$lab/mglru-1.dat.snap/start-lru_gen-enabled" | grep -qx "0x0007" &&
	cat "$lab/classic-1.dat.snap/start-lru_gen-enabled" | grep -qx "0x0000"
'

test_expect_success 'lab: kswapd_cycle pages NULL for the multi-gen LRU run, not 0' '
	if ! have_lab; then test_skip_because "no lab samples or trace-cmd"; fi
	load_lab &&
	sqlite3 lab.db "SELECT r.kernel, count(*), count(c.nr_scanned), count(c.nr_reclaimed)
		FROM kswapd_cycle c JOIN run r ON r.id = c.run_id GROUP BY 1 ORDER BY 1" >got &&
	n=$(sqlite3 lab.db "SELECT count(*) FROM kswapd_cycle c JOIN run r ON r.id = c.run_id
		WHERE r.kernel = '\''classic'\''") &&
	m=$(sqlite3 lab.db "SELECT count(*) FROM kswapd_cycle c JOIN run r ON r.id = c.run_id
		WHERE r.kernel = '\''mglru'\''") &&
	printf "%s\n" "classic|$n|$n|$n" "mglru|$m|0|0" >expect &&
	test_cmp expect got &&
	sqlite3 lab.db "SELECT r.kernel, count(w.kswapd_scanned), count(w.other_reclaimed),
		count(*) > 0 FROM reclaim_window w JOIN run r ON r.id = w.run_id
		GROUP BY 1 ORDER BY 1" >got &&
	w=$(sqlite3 lab.db "SELECT count(*) FROM reclaim_window WHERE run_id = 1") &&
	printf "%s\n" "classic|$w|$w|1" "mglru|0|0|1" >expect &&
	test_cmp expect got
'

test_expect_success 'lab: summary names the LRU and prints - with the reason' '
	if ! have_lab; then test_skip_because "no lab samples or trace-cmd"; fi
	load_lab &&
	"$VR" summary -d lab.db -r 2 >sum2 &&
	"$VR" summary -d lab.db -r 1 >sum1 &&
	grep -q "^  Multi-gen LRU: on (lru_gen/enabled 0x0007, the recorder" sum2 &&
	grep -q "^  Multi-gen LRU: off (lru_gen/enabled 0x0000, the recorder" sum1 &&
	grep -Eq "^  Pages scanned by kswapd +-$" sum2 &&
	grep -Eq "^  Pages reclaimed in direct reclaim +-$" sum2 &&
	grep -q "^  -: not traced: multi-gen LRU before 6.7 reclaims without LRU events (no lru_isolate or lru_shrink_inactive beside 2741 kswapd wakes and 30 direct reclaims)" sum2 &&
	grep -Eq "^  Kswapd lru_isolate nr_scanned: +-" sum2 &&
	! grep -Eq "^  simoop-lite-[0-9]+ +[0-9]+ +[0-9]+ +0 +0 " sum2 &&
	grep -Eq "^  Pages scanned by kswapd +1355433$" sum1 &&
	grep -Eq "^  Kswapd wakes +2741$" sum2
'

test_expect_success 'lab: compare text, JSON and the chart: - and the reason, never 0' '
	if ! have_lab; then test_skip_because "no lab samples or trace-cmd"; fi
	load_lab &&
	ks=$(trace-cmd report "$lab/classic-1.dat" 2>/dev/null | awk "/kswapd[0-9]+-[0-9]+ .*mm_vmscan_lru_shrink_inactive:/ { for (i = 1; i <= NF; i++) if (\$i ~ /^nr_scanned=/) { split(\$i, a, \"=\"); s += a[2] } } END { print s }") &&
	test "$ks" = 1355433 &&
	"$VR" compare -d lab.db --width 0 >cmp &&
	grep -Eq "^Pages scanned by kswapd\[1\] +$ks\.00 +-$" cmp &&
	grep -Eq "^Direct reclaim efficiency %\[1\] +[0-9.]+ +-$" cmp &&
	grep -Eq "^pgdat PGDAT_WRITEBACK set ms\[[0-9]\] +[0-9.]+ +-$" cmp &&
	grep -q "^\[1\] mglru: not traced in 1 of 1 runs: multi-gen LRU before 6.7" cmp &&
	"$VR" compare -d lab.db -f json >cmp.json &&
	python3 -c "
import json, sys
t = [t for t in json.load(open(\"cmp.json\"))[\"tables\"] if t[\"name\"] == \"counters\"][0]
r = [r for r in t[\"rows\"] if r[\"operation\"] == \"Pages scanned by kswapd\"][0]
assert [c[\"value\"] for c in r[\"cells\"]] == [$ks, None], r
assert r[\"note\"].startswith(\"mglru: not traced\"), r
" &&
	"$VR" chart -d lab.db -T counters --dump-data -o c.png >dump &&
	grep -qx "counter Pages scanned by kswapd \[pages\] mglru mean nan (not traced)" dump
'

test_expect_success 'lab: pages written (nr_vmscan_write) beside the folios written' '
	if ! have_lab; then test_skip_because "no lab samples or trace-cmd"; fi
	load_lab &&
	s=$(sed -n "s/^nr_vmscan_write //p" "$lab/classic-1.dat.snap/start-vmstat") &&
	e=$(sed -n "s/^nr_vmscan_write //p" "$lab/classic-1.dat.snap/end-vmstat") &&
	f=$(count "$lab/classic-1.dat" mm_vmscan_write_folio) &&
	test $((e - s)) = 909 && test "$f" = 909 &&
	"$VR" summary -d lab.db -r 1 >sum1 &&
	grep -Eq "^  Pages written by reclaim \(nr_vmscan_write\) +$((e - s))$" sum1 &&
	"$VR" compare -d lab.db --width 0 >cmp &&
	ms=$(sed -n "s/^nr_vmscan_write //p" "$lab/mglru-1.dat.snap/start-vmstat") &&
	me=$(sed -n "s/^nr_vmscan_write //p" "$lab/mglru-1.dat.snap/end-vmstat") &&
	test $((me - ms)) = 4510 &&
	grep -Eq "^Pages written by reclaim \(nr_vmscan_write\) +$((e - s))\.00 +$((me - ms))\.00$" cmp
'

test_expect_success 'lab: compare names the multi-gen LRU runs; windows block, windows and timeline charts: not traced, not 0' '
	if ! have_lab; then test_skip_because "no lab samples or trace-cmd"; fi
	load_lab &&
	"$VR" compare -d lab.db --width 0 >cmp &&
	grep -q "^Multi-gen LRU on: mglru in 1 of 1 runs (lru_gen/enabled 0x0007, the recorder.s snapshot). Under multi-gen LRU pages scanned and reclaimed" cmp &&
	grep -Eq "^Windows with half of pages scanned %\[1\] +[0-9.]+ +-$" cmp &&
	grep -q "^\[1\] mglru: not traced in 1 of 1 runs (pages not in the trace" cmp &&
	"$VR" chart -d lab.db -T windows --metric scanned --dump-data -o w.png >wdump &&
	grep -qx "kernel mglru runs=0 left_out=1 (not traced)" wdump &&
	grep -qx "kernel classic runs=1" wdump &&
	"$VR" chart -d lab.db -T timeline --run 2 --dump-data -o t.png >tdump &&
	test "$(grep -c "^rate_missing not traced: multi-gen LRU before 6.7" tdump)" = 2 &&
	! grep -q "^rate [0-9]" tdump &&
	test "$(grep -c "^flag .* note not inferable: 6.1-6.2 multi-gen LRU runs the flag code on zero sums (PGDAT_DIRTY set on every kswapd pass)$" tdump)" = 6 &&
	"$VR" chart -d lab.db -T timeline --run 1 --dump-data -o t1.png >t1dump &&
	grep -q "^rate [0-9]" t1dump
'

test_expect_success 'a text without LRU lines and no snapshots: - (not traced or not recorded); no snapshots: the pages-written row is left out' '
	printf "%s\n" \
	"     kswapd0-50    [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0" \
	"          dd-300   [001] .....     1.100000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE" \
	"          dd-300   [001] .....     1.200000: mm_vmscan_direct_reclaim_end: nr_reclaimed=32" \
	"     kswapd0-50    [000] .....     1.500000: mm_vmscan_kswapd_sleep: nid=0" >t.txt &&
	"$VR" load -q -d t.db --kernel t t.txt &&
	"$VR" summary -d t.db >sum &&
	grep -Eq "^  Pages scanned by kswapd +-$" sum &&
	grep -q "^  -: not traced or not recorded: multi-gen LRU before 6.7 reclaims without LRU events (no lru_isolate or lru_shrink_inactive beside 1 kswapd wakes and 1 direct reclaims, or the text left them out)" sum &&
	grep -q "^  Multi-gen LRU: on (inferred from 1 kswapd wakes and 1 direct reclaims" sum &&
	grep -Eq "^  Direct reclaim stalls complete +1$" sum &&
	"$VR" compare -d t.db --width 0 >cmp &&
	grep -Eq "^Pages scanned by kswapd\[1\] +-$" cmp &&
	! grep -q "nr_vmscan_write" cmp
'

# A trace.dat whose recorder enabled neither the LRU nor the write events
# (tests/mkdat.py omit: their formats are not in the file): one kswapd cycle
# and one direct reclaim stall of 100 ms, counted by hand.
test_expect_success 'a trace.dat without the LRU and write formats: those counters are - (not recorded), the others counted' '
	cat >o.spec <<-EOF &&
	era 6.18
	cpus 2
	uname Linux box 6.18.0 x86_64
	comm 50 kswapd0
	comm 300 dd
	omit mm_vmscan_lru_isolate mm_vmscan_lru_shrink_inactive mm_vmscan_lru_shrink_active mm_vmscan_write_folio mm_vmscan_writepage
	ev 0 1000000000 50 mm_vmscan_kswapd_wake nid=0 order=0
	ev 1 1100000000 300 mm_vmscan_direct_reclaim_begin order=0 gfp_flags=0x100cca
	ev 1 1200000000 300 mm_vmscan_direct_reclaim_end nr_reclaimed=32
	ev 0 1500000000 50 mm_vmscan_kswapd_sleep nid=0
	EOF
	python3 "$TOP/tests/mkdat.py" o.spec o.dat &&
	if command -v trace-cmd >/dev/null; then
		test "$(trace-cmd report --events o.dat 2>/dev/null | grep -c "name: mm_vmscan_kswapd_wake")" = 1 &&
		test "$(trace-cmd report --events o.dat 2>/dev/null | grep -c "name: mm_vmscan_lru_\|name: mm_vmscan_write")" = 0 || exit 1
	fi &&
	"$VR" load -q -d o.db o.dat &&
	"$VR" summary -d o.db >sum &&
	grep -Eq "^  Direct reclaim stalls complete +1$" sum &&
	grep -Eq "^  Direct reclaim stall time ms +100.00$" sum &&
	grep -Eq "^  Kswapd wakes +1$" sum &&
	grep -Eq "^  Pages scanned by kswapd +-$" sum &&
	grep -Eq "^  Folios written by kswapd +-$" sum &&
	grep -qx "  -: not recorded: the run has no format of mm_vmscan_lru_shrink_inactive (the event was not enabled)" sum &&
	grep -q "^  -: not recorded: the run has no format of mm_vmscan_write_folio" sum &&
	grep -Eq "^  Kswapd writes anon sync/async: +-" sum &&
	grep -Eq "^  dd-300 +1 +0 +- +- +- +- +100.000" sum &&
	! grep -q "nr_vmscan_write" sum &&
	test "$(sqlite3 o.db "SELECT count(*), count(nr_scanned) FROM kswapd_cycle")" = "1|0"
'

test_done
