#!/usr/bin/env bash
# A text trace that another program cuts short, grows or rewrites while load
# reads it: said as such, naming the file and its sizes, the run rolled
# back, exit 1 (it was called a crash inside libtracecmd: a text is read
# through a mapping of the file, and a page past the end of a file cut
# short raises SIGBUS).  The change is made by tests/crash-preload.c right
# after load maps the file (VR_CHANGE_MAPPED), so that it always falls
# while the file is read.
. "$(dirname "$0")/lib.sh"

# N lines of events (4 per cycle: kswapd wakes, a direct stall of 700 us,
# kswapd sleeps), 10 ms apart; $2 shifts the pid so that files differ
trace() {
	awk -v n="$1" -v p="${2:-0}" 'BEGIN { for (i = 0; i < n; i++) { t = 100 + i * 0.01;
		printf " kswapd0-52    [000]   %.6f: mm_vmscan_kswapd_wake: nid=0 order=0\n", t;
		printf "     dd-%d  [001]   %.6f: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL\n", 1234 + p, t + 0.0002;
		printf "     dd-%d  [001]   %.6f: mm_vmscan_direct_reclaim_end: nr_reclaimed=30\n", 1234 + p, t + 0.0009;
		printf " kswapd0-52    [000]   %.6f: mm_vmscan_kswapd_sleep: nid=0\n", t + 0.002 } }'
}

build_preload() {
	command -v cc >/dev/null || test_skip_because "no C compiler for the preload library"
	cc -shared -fPIC -o change.so "$TOP/tests/crash-preload.c" -ldl
}

test_expect_success 'a text trace cut short while it is read: "changed while it was read", sizes named, exit 1, database as it was' '
	build_preload &&
	trace 10 >a.txt && "$VR" load -q -d a.db a.txt && dump_rows a.db >before &&
	trace 20000 1 >cut.txt && size=$(stat -c %s cut.txt) &&
	rc=0 && VR_CHANGE_MAPPED=cut.txt,4096 LD_PRELOAD=$PWD/change.so "$VR" load -d a.db cut.txt 2>err || rc=$? &&
	cat err && test $rc = 1 &&
	grep -q "cut.txt: changed while it was read (size was $size bytes, now 4096)" err &&
	! grep -qi "crash\|libtracecmd" err &&
	dump_rows a.db >after && test_cmp before after
'
test_expect_success 'a text trace grown while it is read: refused the same, not loaded as the part read' '
	build_preload &&
	trace 10 >a.txt && "$VR" load -q -d a.db a.txt && dump_rows a.db >before &&
	trace 200 1 >grow.txt && size=$(stat -c %s grow.txt) &&
	rc=0 && VR_CHANGE_MAPPED=grow.txt,$((size + 100000)) LD_PRELOAD=$PWD/change.so "$VR" load -d a.db grow.txt 2>err || rc=$? &&
	cat err && test $rc = 1 &&
	grep -q "grow.txt: changed while it was read (size was $size bytes, now $((size + 100000)))" err &&
	dump_rows a.db >after && test_cmp before after
'
test_expect_success 'among several files (decoded ahead or not), only the one cut short fails; the others load' '
	build_preload &&
	trace 100 1 >f1.txt && trace 20000 2 >f2.txt && trace 100 3 >f3.txt && size=$(stat -c %s f2.txt) &&
	rc=0 && VR_CHANGE_MAPPED=f2.txt,4096 LD_PRELOAD=$PWD/change.so "$VR" load -j 2 -d b.db f1.txt f2.txt f3.txt >out 2>err || rc=$? &&
	cat out err && test $rc = 1 &&
	grep -q "f2.txt: changed while it was read (size was $size bytes, now 4096)" err &&
	test "$(grep -c "changed while it was read" err)" = 1 &&
	! grep -qi "crash" err &&
	test "$(sqlite3 b.db "SELECT group_concat(source_path) FROM (SELECT source_path FROM run ORDER BY id)")" = f1.txt,f3.txt &&
	test "$(sqlite3 b.db "SELECT count(*) FROM reclaim_stall")" = 200
'
test_done
