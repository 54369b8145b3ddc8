#!/usr/bin/env bash
# Text traces and 4.x trace.dat files: `load` takes trace-cmd report output
# in every layout into the same tables as the trace.dat it came from (up to
# the precision the text carries), hand-built ftrace text of several eras
# gives hand-worked derived values, and tests/mkdat.py builds 4.10/4.11,
# two-node, big-endian and 32-bit recordings.
. "$(dirname "$0")/lib.sh"

MKDAT="$TOP/tests/mkdat.py"
DATA="$TOP/tests/data-text"

# q DB ROUND_ADD DIVISOR ["nozone nogfp"]: the derived tables and counters,
# times divided (with rounding added: trace-cmd rounds to the microsecond)
# so that a trace.dat in ns and a text in µs compare; rows sorted as text.
# nozone: leave out the zone of kswapd_wake/wakeup_kswapd, which 5.2+
# kernels record but do not print; nogfp: leave out gfp_flags (names whose
# values the parser knows only for 6.18).
q() {
	local db=$1 r=$2 d=$3 zid=zid hz=highest_zoneidx gfp=gfp_flags
	case " ${4:-} " in *" nozone "*) zid=NULL hz=NULL ;; esac
	case " ${4:-} " in *" nogfp "*) gfp=NULL ;; esac
	sqlite3 "$db" "
	SELECT 'stall', kind, pid, (begin_ns+$r)/$d, (end_ns+$r)/$d, \"order\", nr_reclaimed,
	       $gfp, kswapd_state, complete FROM reclaim_stall ORDER BY begin_ns, pid;
	SELECT 'cycle', nid, pid, (wake_ns+$r)/$d, \"order\", $hz,
	       (last_activity_ns+$r)/$d, (sleep_ns+$r)/$d, (next_wake_ns+$r)/$d, decision,
	       premature, nr_scanned, nr_reclaimed, complete FROM kswapd_cycle ORDER BY nid, wake_ns;
	SELECT 'wakeup', (ts_ns+$r)/$d, pid, nid, $zid, \"order\", $gfp, kswapd_state,
	       (served_ns+$r)/$d FROM kswapd_wakeup ORDER BY ts_ns, pid;
	SELECT 'flag', nid, flag, (set_ns+$r)/$d, (clear_ns+$r)/$d, rule, evidence
	       FROM pgdat_flag ORDER BY nid, flag, set_ns;
	SELECT 'throttle', kind, pid, (end_ns+$r)/$d, usec_timeout, usec_delayed
	       FROM reclaim_throttle ORDER BY end_ns;
	SELECT 'write', (ts_ns+$r)/$d, pid, by_kswapd, pfn, file, sync FROM reclaim_write;
	SELECT 'inactive', count(*), sum(nr_scanned), sum(nr_reclaimed), sum(nr_dirty),
	       sum(nr_writeback), sum(nr_immediate), sum(reclaim_flags)
	       FROM mm_vmscan_lru_shrink_inactive;
	SELECT 'isolate', count(*), sum(nr_taken), sum(classzone_idx), sum(lru), sum(file)
	       FROM mm_vmscan_lru_isolate;
	SELECT 'lost', cpu, (ts_ns+$r)/$d, count FROM lost_events;
	SELECT 'events', event_count, lost_events FROM run;" >q.out &&
	sort q.out	# rows equal to the microsecond may come in any order
}

test_expect_success 'trace.dat and trace-cmd report text (plain, -N, -l) agree to the microsecond' '
	python3 "$MKDAT" "$DATA/numa-4.11.spec" n.dat &&
	"$VR" load -q -d dat.db n.dat &&
	q dat.db 500 1000 nogfp >expect &&
	grep -q "^stall|direct|1234|1000500|1002901|0|31||awake|1" expect &&
	for m in "" -N -l; do
		trace-cmd report $m -i n.dat >"n$m.txt" &&
		"$VR" load -q -d "t$m.db" --kernel 4.11.0 "n$m.txt" &&
		q "t$m.db" 0 1000 nogfp >actual &&
		test_cmp expect actual || exit 1
	done
'

test_expect_success 'trace-cmd report -t and -R -t text agree to the nanosecond' '
	python3 "$MKDAT" "$DATA/numa-4.11.spec" n.dat &&
	"$VR" load -q -d dat.db n.dat &&
	q dat.db 0 1 >expect &&
	q dat.db 0 1 nogfp >expect.nogfp &&
	trace-cmd report -R -t -i n.dat >n.txt &&
	"$VR" load -q -d t.db --kernel 4.11.0 n.txt &&
	q t.db 0 1 >actual && test_cmp expect actual &&
	trace-cmd report -t -i n.dat >n.txt &&
	"$VR" load -q -d tt.db --kernel 4.11.0 n.txt &&
	q tt.db 0 1 nogfp >actual && test_cmp expect.nogfp actual &&
	# raw fields carry gfp_flags and the reclaim_flags number as well
	sqlite3 dat.db "SELECT ts_ns, gfp_flags, classzone_idx FROM mm_vmscan_direct_reclaim_begin" >expect &&
	sqlite3 t.db "SELECT ts_ns, gfp_flags, classzone_idx FROM mm_vmscan_direct_reclaim_begin" >actual &&
	test_cmp expect actual
'

# The real 6.18 recordings (samples/, made by samples/record-samples.sh):
# a version 7 one and the version 6 one (whichever run the script wrote as
# v6: byte 10 of the file is the version, after "\027\010\104tracing").
v6_sample=wsf200-1
for f in "$TOP"/samples/*.dat; do
	if [ "$(head -c 11 "$f" | tail -c 1)" = 6 ]; then v6_sample=$(basename "$f" .dat); break; fi
done
for sample in wsf10-3 $v6_sample; do
	test_expect_success "sample $sample: trace.dat and its trace-cmd report text agree" '
		S="$TOP/samples/'$sample'.dat" && test -f "$S" &&
		"$VR" load -q -d dat.db "$S" &&
		q dat.db 0 1 >expect.ns && q dat.db 500 1000 nozone >expect.us &&
		q dat.db 0 1 nozone >expect.tns &&
		test $(grep -c "^cycle|" expect.ns) -gt 0 &&
		test $(grep -c "^wakeup|" expect.ns) -gt 0 &&
		trace-cmd report -R -t -i "$S" >raw.txt &&
		"$VR" load -q -d raw.db --kernel 6.18.44 raw.txt &&
		q raw.db 0 1 >actual && test_cmp expect.ns actual &&
		trace-cmd report -t -i "$S" >ns.txt &&
		"$VR" load -q -d ns.db --kernel 6.18.44 ns.txt &&
		q ns.db 0 1 nozone >actual && test_cmp expect.tns actual &&
		trace-cmd report -i "$S" >us.txt &&
		"$VR" load -q -d us.db --kernel 6.18.44 us.txt &&
		q us.db 0 1000 nozone >actual && test_cmp expect.us actual &&
		# 6.18 gfp names were read as numbers (--kernel 6.18.44)
		sqlite3 us.db "SELECT count(*) FROM kswapd_wakeup WHERE gfp_flags IS NULL" >actual &&
		echo 0 >expect && test_cmp expect actual
	'
done

test_expect_success 'text run: source_format text, kernel_release from --kernel, quality rows' '
	python3 "$MKDAT" "$DATA/numa-4.11.spec" n.dat &&
	trace-cmd report -i n.dat >n.txt &&
	"$VR" load -q -d t.db --kernel 4.11.0-vanilla n.txt 2>err &&
	sqlite3 t.db "SELECT source_format, kernel_release, cpus FROM run" >actual &&
	echo "text|4.11.0-vanilla|4" >expect && test_cmp expect actual &&
	sqlite3 t.db "SELECT item, count FROM run_quality WHERE item LIKE '\''text_%'\'' ORDER BY item" >actual &&
	# 20 events; 2 gfp_flags printed as names; 1 "[5 EVENTS DROPPED]" line
	printf "%s\n" "text_lost_markers|1" "text_source|20" "text_symbolic_values|2" >expect &&
	test_cmp expect actual &&
	sqlite3 t.db "SELECT rule FROM pgdat_flag LIMIT 1" >actual &&
	echo "4.11-4.16 per-call" >expect && test_cmp expect actual
'

# Hand-built 6.x ftrace text (5-character flags): one direct reclaim stall
# of 2.5 ms (100.002600 - 100.000100), one kswapd cycle that ends in a full
# sleep at 100.050000, a wakeup request 20 ms after it (premature: < 100 ms).
test_expect_success 'hand-built 6.x ftrace text: stall, kswapd cycle, premature wakeup' '
	cat >six.txt <<-\EOF &&
	# tracer: nop
	#
	#           TASK-PID     CPU#  |||||  TIMESTAMP  FUNCTION
	#              | |         |   |||||     |         |
	         kswapd0-97      [002] ..... 100.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	           a.out-500     [001] ..... 100.000100: mm_vmscan_direct_reclaim_begin: order=2 gfp_flags=GFP_KERNEL
	         kswapd0-97      [002] ..... 100.000200: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=2 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	           a.out-500     [001] ..... 100.002600: mm_vmscan_direct_reclaim_end: nr_reclaimed=64
	         kswapd0-97      [002] ..... 100.050000: mm_vmscan_kswapd_sleep: nid=0
	           a.out-500     [001] ..... 100.070000: mm_vmscan_wakeup_kswapd: nid=0 order=0 gfp_flags=GFP_KERNEL
	EOF
	"$VR" load -q -d six.db --kernel 6.18.44 six.txt &&
	sqlite3 six.db "SELECT kind, pid, begin_ns, end_ns, duration_ns, \"order\", nr_reclaimed, complete FROM reclaim_stall" >actual &&
	echo "direct|500|100000100000|100002600000|2500000|2|64|1" >expect && test_cmp expect actual &&
	sqlite3 six.db "SELECT nid, pid, wake_ns, sleep_ns, decision, premature, nr_scanned, nr_reclaimed FROM kswapd_cycle" >actual &&
	echo "0|97|100000000000|100050000000|full_sleep|1|32|30" >expect && test_cmp expect actual &&
	sqlite3 six.db "SELECT nr_activate0, nr_activate1, reclaim_flags FROM mm_vmscan_lru_shrink_inactive" >actual &&
	echo "0|2|10" >expect && test_cmp expect actual
'

# 3.x-era trace_pipe text: no irq-flags column, lru_isolate with contig_*.
test_expect_success 'hand-built 3.x trace_pipe text without the flags column' '
	cat >old.txt <<-\EOF &&
	            bash-1234  [000]  1234.567890: mm_vmscan_direct_reclaim_begin: order=0 may_writepage=1 gfp_flags=GFP_KERNEL
	            bash-1234  [000]  1234.567990: mm_vmscan_lru_isolate: isolate_mode=1 order=0 nr_requested=32 nr_scanned=32 nr_taken=30 contig_taken=0 contig_dirty=0 contig_failed=0 file=1
	            bash-1234  [000]  1234.568890: mm_vmscan_direct_reclaim_end: nr_reclaimed=30
	EOF
	"$VR" load -q -d old.db old.txt &&
	sqlite3 old.db "SELECT duration_ns, nr_reclaimed, complete FROM reclaim_stall" >actual &&
	echo "1000000|30|1" >expect && test_cmp expect actual &&
	sqlite3 old.db "SELECT kernel, kernel_release IS NULL FROM run" >actual &&
	echo "unknown|1" >expect && test_cmp expect actual
'

test_expect_success '4.10 trace.dat (no shrink counters): flags not inferred, witnesses kept' '
	python3 "$MKDAT" "$DATA/numa-4.10.spec" o.dat &&
	"$VR" load -q -d o.db o.dat &&
	sqlite3 o.db "SELECT kernel_release FROM run; SELECT count(*) FROM pgdat_flag;
		SELECT count(*) FROM run_quality WHERE item = '\''pgdat_flag_not_inferred'\'';
		SELECT nr_dirty IS NULL, nr_scanned FROM mm_vmscan_lru_shrink_inactive ORDER BY ts_ns;
		SELECT file, lru IS NULL FROM mm_vmscan_lru_isolate ORDER BY ts_ns" >actual &&
	printf "%s\n" 4.10.0-vanilla 0 1 "1|32" "1|32" "1|1" "1|1" >expect &&
	test_cmp expect actual &&
	# its trace-cmd text loads to the same stalls and cycles
	q o.db 500 1000 nogfp >expect &&
	trace-cmd report -i o.dat >o.txt && "$VR" load -q -d ot.db --kernel 4.10.0 o.txt &&
	q ot.db 0 1000 nogfp >actual && test_cmp expect actual
'

test_expect_success 'big-endian and 32-bit recordings decode to the same rows' '
	python3 "$MKDAT" "$DATA/numa-4.11.spec" le.dat &&
	{ echo "endian big"; echo "long 4"; cat "$DATA/numa-4.11.spec"; } >be.spec &&
	python3 "$MKDAT" be.spec be.dat &&
	{ echo "long 4"; cat "$DATA/numa-4.11.spec"; } >le32.spec &&
	python3 "$MKDAT" le32.spec le32.dat &&
	"$VR" load -q -d le.db le.dat && q le.db 0 1 >expect &&
	for f in be le32; do
		"$VR" load -q -d $f.db $f.dat && q $f.db 0 1 >actual && test_cmp expect actual || exit 1
	done &&
	sqlite3 be.db "SELECT big_endian, long_size FROM run" >actual &&
	echo "1|4" >expect && test_cmp expect actual
'

# Malformed input: a clear FILE:LINE error, exit 1, the database unchanged.
test_expect_success 'binary garbage: error naming file and line, database unchanged' '
	printf "# tracer: nop\n\001\002\003garbage\n" >bin.txt &&
	python3 "$MKDAT" "$DATA/numa-4.11.spec" n.dat && "$VR" load -q -d keep.db n.dat &&
	sqlite3 keep.db .dump >before &&
	test_expect_code 1 "$VR" load -q -d keep.db bin.txt 2>err &&
	grep -q "^vmscan-report: bin.txt:2: binary data (byte 0x01 at column 1)" err &&
	sqlite3 keep.db .dump >after && test_cmp before after
'

# Inputs the fuzz targets found (tests/fuzz/crashes/): clear errors now.
test_expect_success 'corrupt version 6 headers: an error with the offset, no crash' '
	test_expect_code 1 "$VR" load -q -d f.db "$TOP/tests/fuzz/crashes/dat-uname-unterminated" 2>err &&
	grep -q "corrupt or truncated trace.dat: option data at offset 7022 (a string option) has no terminating NUL" err &&
	test_expect_code 1 "$VR" load -q -d f.db "$TOP/tests/fuzz/crashes/dat-open-close" 2>err &&
	grep -q "CPU data offset at offset 7957 points past the end of the file" err &&
	test ! -e f.db
'

test_expect_success 'a 1 MiB line, an absurd timestamp, an absurd CPU: errors with the line' '
	python3 -c "print(\"a\" * (1 << 20))" >long.txt &&
	test_expect_code 1 "$VR" load -q -d e.db long.txt 2>err &&
	grep -q "^vmscan-report: long.txt:1: line of 1048576 bytes" err &&
	printf "  a-1 [000] .... 1.000000: mm_vmscan_kswapd_sleep: nid=0\n  a-1 [000] .... 99999999999999.000000: mm_vmscan_kswapd_sleep: nid=0\n" >ts.txt &&
	test_expect_code 1 "$VR" load -q -d e.db ts.txt 2>err &&
	grep -q "^vmscan-report: ts.txt:2: timestamp out of range" err &&
	printf "  a-1 [4294967296] .... 1.000000: mm_vmscan_kswapd_sleep: nid=0\n" >cpu.txt &&
	test_expect_code 1 "$VR" load -q -d e.db cpu.txt 2>err &&
	grep -q "^vmscan-report: cpu.txt:1: CPU number out of range" err &&
	test ! -e e.db
'

# bad_text NAME LINE MESSAGE: loading NAME into keep.db (which holds a run)
# exits 1 with "NAME:LINE: MESSAGE" and leaves its rows as they were
bad_text() {
	dump_rows keep.db >before &&
	test_expect_code 1 "$VR" load -q -d keep.db "$1" 2>err &&
	grep -q "^vmscan-report: $1:$2: $3" err &&
	dump_rows keep.db >after && test_cmp before after
}
ok_line="  a-1 [000] .... 1.000000: mm_vmscan_kswapd_sleep: nid=0"
test_expect_success 'numbers no kernel field holds: FILE:LINE errors, the database unchanged' '
	python3 "$MKDAT" "$DATA/numa-4.11.spec" n.dat && "$VR" load -q -d keep.db n.dat &&
	printf "%s\nCPU:0 [LOST 99999999999999999999 EVENTS]\n%s\n" "$ok_line" "$ok_line" >lost.txt &&
	bad_text lost.txt 2 "lost-events marker with a count above 2^63 - 1" &&
	# each marker fits, their sum (2^64 - 2) does not: the second one is named
	printf "%s\nCPU:1 [LOST 9223372036854775807 EVENTS]\n%s\nCPU:0 [LOST 9223372036854775807 EVENTS]\n%s\n" \
		"$ok_line" "$ok_line" "$ok_line" >lost2.txt &&
	bad_text lost2.txt 4 "lost-events total exceeds 2^63 - 1 at this marker" &&
	printf "%s\nCPU:4294967296 [LOST 5 EVENTS]\n%s\n" "$ok_line" "$ok_line" >lostcpu.txt &&
	bad_text lostcpu.txt 2 "lost-events marker with an absurd CPU number" &&
	printf "%s\n  a-1 [000] .... 18446744073709551615: mm_vmscan_kswapd_sleep: nid=0\n" \
		"$ok_line" >tsmax.txt &&
	bad_text tsmax.txt 2 "timestamp out of range" &&
	printf "%s\n  a-1 [000] .... 2.000000: mm_vmscan_kswapd_sleep: nid=99999999999\n" \
		"$ok_line" >nid.txt &&
	bad_text nid.txt 2 "nid=99999999999: out of range (the kernel.s field is a 32-bit integer)" &&
	printf "%s\n  a-1 [000] .... 2.000000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=18446744073709551616 nr_reclaimed=0\n" \
		"$ok_line" >big.txt &&
	bad_text big.txt 2 "nr_scanned=18446744073709551616: out of range (more than 64 bits)" &&
	printf "%s\n  a-1 [000] .... 2.000000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=0 nr_reclaimed=999999\n" \
		"$ok_line" >twice.txt &&
	bad_text twice.txt 2 "nr_reclaimed=999999: given twice in the line (no kernel event prints a field twice"
'
test_expect_success 'negative values and counters past 2^63 - 1 of unsigned fields: FILE:LINE errors' '
	python3 "$MKDAT" "$DATA/numa-4.11.spec" n.dat && "$VR" load -q -d keep.db n.dat &&
	# nr_scanned and nr_reclaimed are unsigned long, printed %lu
	# (vmscan.h mm_vmscan_lru_shrink_inactive); pfn is unsigned long, %lx
	printf "%s\n  a-1 [000] .... 2.000000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=-1 nr_reclaimed=0\n" \
		"$ok_line" >neg.txt &&
	bad_text neg.txt 2 "nr_scanned=-1: out of range (the kernel.s field is an unsigned counter)" &&
	printf "%s\n%s\n  a-1 [000] .... 2.000000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=18446744073709551615\n" \
		"$ok_line" "$ok_line" >wrap.txt &&
	bad_text wrap.txt 3 "nr_reclaimed=18446744073709551615: out of range (a counter above 2^63 - 1)" &&
	printf "%s\n  a-1 [000] .... 2.000000: mm_vmscan_write_folio: pfn=-5 flags=RECLAIM_WB_ANON\n" \
		"$ok_line" >pfn.txt &&
	bad_text pfn.txt 2 "pfn=-5: out of range (the kernel.s field is unsigned)" &&
	# a signed field may be negative: shrink_slab_end total_scan is long (%ld)
	printf "%s\n  a-1 [000] .... 2.000000: mm_shrink_slab_end: super_cache_scan+0x0/0x1a0 0000000000000000: nid: 0 unused scan count 0 new scan count -3 total_scan -3 last shrinker return val -1\n" \
		"$ok_line" >signed.txt &&
	"$VR" load -q -d s.db signed.txt &&
	test "$(sqlite3 s.db "SELECT new_scan, total_scan, retval FROM mm_shrink_slab_end")" = "-3|-3|-1"
'
# trace.dat: nr_reclaimed (unsigned long) of 2^63 is refused as the
# text reader refuses it, naming the file, CPU, time and event; 2^63 - 1
# is stored as it is; the database is left as it was
test_expect_success 'trace.dat: a counter past 2^63 - 1 is refused at its CPU and time, as in text' '
	python3 "$MKDAT" "$DATA/numa-4.11.spec" n.dat && "$VR" load -q -d keep.db n.dat &&
	spec="$TOP/tests/data-model/proofs-congested-6.18.spec" &&
	ev="ev 0 1002000000 50 mm_vmscan_lru_shrink_inactive nid=0 nr_scanned=8 nr_reclaimed=0 " &&
	grep -q "^$ev" "$spec" &&
	sed "s/^$ev/${ev% nr_reclaimed=0 } nr_reclaimed=0x8000000000000000 /" "$spec" >big.spec &&
	sed "s/^$ev/${ev% nr_reclaimed=0 } nr_reclaimed=0x7fffffffffffffff /" "$spec" >max.spec &&
	python3 "$MKDAT" big.spec big.dat && python3 "$MKDAT" max.spec max.dat &&
	dump_rows keep.db >before &&
	test_expect_code 1 "$VR" load -q -d keep.db big.dat 2>err &&
	grep -qx "vmscan-report: big.dat: cpu 0 offset [0-9]*, 1.002000000 s: vmscan:mm_vmscan_lru_shrink_inactive: nr_reclaimed=9223372036854775808: out of range (a counter above 2^63 - 1)" err &&
	dump_rows keep.db >after && test_cmp before after &&
	# the kernel prints it with %ld (vmscan.h): trace-cmd shows the bit pattern
	trace-cmd report -i big.dat >big.txt 2>/dev/null &&
	grep -q "nr_reclaimed=-9223372036854775808 " big.txt &&
	test_expect_code 1 "$VR" load -q -d keep.db --kernel 6.18.0 big.txt 2>err &&
	grep -q "nr_reclaimed=-9223372036854775808: out of range (the kernel.s field is an unsigned counter)" err &&
	"$VR" load -q -d max.db max.dat &&
	test "$(sqlite3 max.db "SELECT nr_reclaimed FROM mm_vmscan_lru_shrink_inactive WHERE ts_ns = 1002000000")" = 9223372036854775807
'
test_expect_success 'a text without events is no run: blanks, a cpus= header, lost markers only' '
	python3 "$MKDAT" "$DATA/numa-4.11.spec" n.dat && "$VR" load -q -d keep.db n.dat &&
	python3 -c "import sys; sys.stdout.write(\"\\n\" * 1000000)" >blank.txt &&
	dump_rows keep.db >before &&
	test_expect_code 1 "$VR" load -q -d keep.db blank.txt 2>err &&
	grep -q "^vmscan-report: blank.txt: no trace events: its 1000000 line(s) are blanks, comments and headers" err &&
	printf "cpus=2\n" >cpus.txt &&
	test_expect_code 1 "$VR" load -q -d keep.db cpus.txt 2>err &&
	grep -q "^vmscan-report: cpus.txt: no trace events: its 1 line(s) are blanks" err &&
	printf "CPU:0 [LOST 3 EVENTS]\n" >onlylost.txt &&
	test_expect_code 1 "$VR" load -q -d keep.db onlylost.txt 2>err &&
	grep -q "^vmscan-report: onlylost.txt: no trace events: only 1 lost-events marker(s)" err &&
	dump_rows keep.db >after && test_cmp before after &&
	test_expect_code 1 "$VR" load -q -d new.db cpus.txt && test ! -e new.db
'

test_expect_success 'a cut-off last line and junk lines: counted, warned, loaded' '
	printf "junk\n  a-1 [000] .... 1.000000: mm_vmscan_kswapd_wake: nid=0 order=0\n  a-1 [000] .... 1.000100: mm_vmscan_kswapd_sl" >cut.txt &&
	"$VR" load -q -d c.db cut.txt 2>err &&
	grep -q "warning: cut.txt: skipped 2 line(s) that are not trace events (first at line 1)" err &&
	grep -q "warning: cut.txt: last line has no newline" err &&
	sqlite3 c.db "SELECT item, count FROM run_quality WHERE item IN ('\''text_skipped_lines'\'', '\''text_truncated_line'\'') ORDER BY item" >actual &&
	printf "%s\n" "text_skipped_lines|2" "text_truncated_line|1" >expect && test_cmp expect actual
'

# Lines out of time order.  Two events 0.000069 s out of order (as ftrace's
# merging of its CPUs can print them): loaded, sorted, warned with the first
# such line; so are per-CPU files pasted one after the other (CPU 1's lines
# start 2 s before CPU 0's end).  The same trace twice in one file (CPU 1's
# second copy starts 1.5 s before its first ends) and one line of 0.5 s
# pasted into a trace at 100 s: errors naming the line, the database
# unchanged (sorted, they gave every event twice and a run 99.5 s too long).
test_expect_success 'lines back in time: a little is warned and sorted, seconds are an error' '
	printf "%s\n" "  a-1 [000] .... 100.000000: mm_vmscan_kswapd_wake: nid=0 order=0" \
		"  a-1 [000] .... 100.500069: mm_vmscan_kswapd_sleep: nid=0" \
		"  b-2 [001] .... 100.500000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=0x0" \
		"  b-2 [001] .... 102.000000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1" >one.txt &&
	"$VR" load -q -d o.db one.txt 2>err &&
	grep -q "warning: one.txt: 1 event line(s) earlier than the line before (the first: line 3, 0.000069 s before it); sorted by time stamp" err &&
	test "$(sqlite3 o.db "SELECT count FROM run_quality WHERE item = '\''text_reordered_lines'\''")" = 1 &&
	cat one.txt one.txt >twice.txt &&
	dump_rows o.db >before &&
	test_expect_code 1 "$VR" load -q -d o.db twice.txt 2>err &&
	grep -q "^vmscan-report: twice.txt:7: its time stamp is 1.500000 s before line 4.s, of the same CPU: two traces joined" err &&
	sed "2i\\  c-3 [000] .... 0.500000: mm_vmscan_kswapd_wake: nid=0 order=0" one.txt >early.txt &&
	test_expect_code 1 "$VR" load -q -d o.db early.txt 2>err &&
	grep -q "^vmscan-report: early.txt:2: its time stamp is 99.500000 s before line 1.s, of the same CPU" err &&
	dump_rows o.db >after && test_cmp before after &&
	printf "%s\n" "  a-1 [000] .... 100.000000: mm_vmscan_kswapd_wake: nid=0 order=0" \
		"  a-1 [000] .... 104.000000: mm_vmscan_kswapd_sleep: nid=0" \
		"  b-2 [001] .... 102.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=0x0" \
		"  b-2 [001] .... 103.000000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1" >percpu.txt &&
	"$VR" load -q -d p.db percpu.txt 2>err &&
	grep -q "warning: percpu.txt: 1 event line(s) earlier than the line before (the first: line 3, 2.000000 s before it)" err &&
	test "$(sqlite3 p.db "SELECT count(*), sum(complete) FROM reclaim_stall")" = "1|1"
'

test_done
