#!/usr/bin/env bash
# index.md's "What changed" section (src/whatchanged.c) and compare's
# vmstat block (src/compare/compare-vmstat.c).
#
# Six hand-written 6.18 text traces, kernels base and patched, three runs
# each.  Every run: kswapd0 wakes once and sleeps (1 wake, the same in
# both: no change).  base runs have 3, 2 and 3 complete direct reclaim
# stalls of dd (pid 300) of 2, 4 and 6 ms each in turn (run 1: 2+4+6 = 12
# ms, run 2: 2+4 = 6 ms, run 3: 12 ms); patched has none.  Worked out:
#   Direct reclaim stalls complete: base (3+2+3)/3 = 2.67, patched 0.00;
#     Welch: var 1/3, t = 2.667 / sqrt(1/9) = 8.0, df 2, p = 0.015 < 0.10;
#   Direct reclaim stall time ms: base (12+6+12)/3 = 10.00, patched 0.00;
#     var 12, t = 10 / 2 = 5.0, df 2, p = 0.038 < 0.10.
#   (df 2: p = 1 - t / sqrt(t^2 + 2), 0.01527 and 0.03775.)  No other
#   counter differs (the same in every run, or 0), so m = 2 tests:
#   Benjamini-Hochberg gives 0.01527 * 2 / 1 = 0.031 and 0.03775 * 2 / 2 =
#   0.038, both below 0.10.
# Both are changes from a nonzero base to 0, 100 %: equal sizes, so by
# text: "Direct reclaim stall time ms" before "Direct reclaim stalls
# complete".  No run has snapshots: the caveat says 6 runs.  Where and
# when: base's 8 stalls reclaim no page (no node); each run is 1.0-2.0 s,
# windows of 0.05 s, 21 a run: stalls at 1.1, 1.2, 1.3 s lie in windows 2,
# 4, 6 (runs 1, 3) and 2, 4 (run 2): 8 of 63, from 0.10 s to the end of
# window 6, 0.35 s; patched none.
. "$(dirname "$0")/lib.sh"

# trace NAME STALLS...: stalls of 2, 4, 6 ms in turn; each file its own
# (load refuses the same contents twice): kswapd0's pid is 50 + N
n_trace=0
trace() {
	local name=$1 i=0 ms
	shift
	n_trace=$((n_trace + 1))
	{
		printf "     kswapd0-%d    [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0\n" $((50 + n_trace))
		for ms in "$@"; do
			i=$((i + 1))
			printf "          dd-300   [001] .....     1.%03d000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE\n" $((i * 100))
			printf "          dd-300   [001] .....     1.%03d000: mm_vmscan_direct_reclaim_end: nr_reclaimed=32\n" $((i * 100 + ms))
		done
		printf "     kswapd0-%d    [000] .....     2.000000: mm_vmscan_kswapd_sleep: nid=0\n" $((50 + n_trace))
	} >"$name.txt"
}

make_db() {
	trace base-1 2 4 6 && trace base-2 2 4 && trace base-3 2 4 6 &&
	trace patched-1 && trace patched-2 && trace patched-3 &&
	"$VR" load -q -d db --kernel base base-1.txt base-2.txt base-3.txt &&
	"$VR" load -q -d db --kernel patched patched-1.txt patched-2.txt patched-3.txt
}

test_expect_success 'the section worked out by hand, first in index.md' '
	make_db &&
	"$VR" report -q -d db -o out &&
	sed -n "4,6p" out/index.md >head && printf "%s\n" "" "## What changed" "" >expect &&
	test_cmp expect head &&
	sed -n "/^## What changed/,/^Caveats:/p" out/index.md | grep " -> " >actual &&
	cat >expect <<-EOF &&
	Direct reclaim stall time ms: base 10.00 -> patched 0.00 (means of 3 and 3 runs, the counters block; their per-run values differ by Welch'"'"'s t-test: p = 0.038, 0.038 adjusted over the 2 counters tested by Benjamini-Hochberg, below 0.1). Per run (summary.txt): base 12.00, 6.00, 12.00; patched 0.00, 0.00, 0.00. Where (complete direct reclaim stalls by the nodes they reclaimed from, one on two nodes counted on each, reclaim_stall): base no node traced: 8; patched none. When (reclaim_window): base in 8 of 63 windows (0.10-0.35 s after a run'"'"'s first event); patched in 0 of 63 windows.
	Direct reclaim stalls complete: base 2.67 -> patched 0.00 (means of 3 and 3 runs, the counters block; their per-run values differ by Welch'"'"'s t-test: p = 0.015, 0.031 adjusted over the 2 counters tested by Benjamini-Hochberg, below 0.1). Per run (summary.txt): base 3, 2, 3; patched 0, 0, 0. Where (complete direct reclaim stalls by the nodes they reclaimed from, one on two nodes counted on each, reclaim_stall): base no node traced: 8; patched none. When (reclaim_window): base in 8 of 63 windows (0.10-0.35 s after a run'"'"'s first event); patched in 0 of 63 windows.
	EOF
	test_cmp expect actual &&
	grep -q "^6 run(s) have no counter snapshots" out/index.md &&
	grep -q "^- run 1 (base, iteration 1): no counter snapshots$" out/index.md
'

# Each number of a sentence recomputed from the database with SQL of its
# own (not counters.c's), and found in compare.txt as printed there.
test_expect_success 'every number of the section recomputed from the database, and in compare.txt' '
	make_db &&
	"$VR" report -q -d db -o out &&
	sed -n "/^## What changed/,/^Caveats:/p" out/index.md | grep " -> " >sentences &&
	while IFS= read -r line; do
		name=${line%%:*}
		base=$(echo "$line" | sed -n "s/.*: base \([0-9.]*\) -> .*/\1/p")
		new=$(echo "$line" | sed -n "s/.* -> patched \([0-9.]*\) .*/\1/p")
		case $name in
		"Direct reclaim stalls complete")
			sql="SELECT printf('\''%.2f'\'', avg(n)) FROM (SELECT r.id, (SELECT count(*) FROM reclaim_stall s WHERE s.run_id = r.id AND s.kind = '\''direct'\'' AND s.complete) AS n FROM run r WHERE r.kernel = '\''KERNEL'\'')" ;;
		"Direct reclaim stall time ms")
			sql="SELECT printf('\''%.2f'\'', avg(n)) FROM (SELECT r.id, (SELECT coalesce(sum(duration_ns), 0) / 1e6 FROM reclaim_stall s WHERE s.run_id = r.id AND s.kind = '\''direct'\'' AND s.complete) AS n FROM run r WHERE r.kernel = '\''KERNEL'\'')" ;;
		*) echo "no check for: $name"; exit 1 ;;
		esac
		test "$(sqlite3 db "${sql/KERNEL/base}")" = "$base" &&
		test "$(sqlite3 db "${sql/KERNEL/patched}")" = "$new" &&
		grep -Eq "^$name +$base +$new\$" out/compare.txt || { echo "wrong: $line"; exit 1; }
	done <sentences &&
	test $(wc -l <sentences) = 2
'

# base against fast, whose three runs have one 1 ms stall each: the
# DirectReclaim latency rows compare marks are sentences too, each number
# recomputed by tests/check-whatchanged.py from reclaim_stall (per-run
# nearest-rank percentiles, their mean, the gain 100 - new*100/base).
test_expect_success 'latency sentences: every number recomputed from the database' '
	trace base-1 2 4 6 && trace base-2 2 4 && trace base-3 2 4 6 &&
	trace fast-1 1 && trace fast-2 1 && trace fast-3 1 &&
	"$VR" load -q -d db --kernel base base-1.txt base-2.txt base-3.txt &&
	"$VR" load -q -d db --kernel fast fast-1.txt fast-2.txt fast-3.txt &&
	"$VR" report -q -d db -o out &&
	sed -n "/^## What changed/,/^Caveats:/p" out/index.md | grep "^Amean " >sentences &&
	grep -q "^Amean p95-DirectReclaim: base 5333.33 us -> fast 1000.00 us (gain 81.25%" sentences &&
	python3 "$TOP/tests/check-whatchanged.py" db sentences
'

# classic: kswapd scans 64, 96 and 80 pages in its three runs (Welch against
# 0, 0, 0: t = 80 / sqrt(256/3) = 8.66, df 2, p = 0.013: significant);
# mglru: none traced, its snapshots saying the multi-gen LRU is on
# (lru_gen/enabled 0x0007, pgscan_kswapd +500): "not traced", so no
# sentence may compare its pages (0 in the tables), and a caveat says why.
test_expect_success 'pages the trace cannot see (multi-gen LRU) are left out, with a caveat' '
	for i in 1 2 3; do
		n=$((32 + 32 * i)); [ $i = 3 ] && n=80
		printf "%s\n" \
		"     kswapd0-5$i    [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0" \
		"     kswapd0-5$i    [000] .....     1.100000: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=$n nr_reclaimed=$n nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC" \
		"     kswapd0-5$i    [000] .....     2.000000: mm_vmscan_kswapd_sleep: nid=0" >classic-$i.txt &&
		printf "%s\n" \
		"     kswapd0-6$i    [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0" \
		"     kswapd0-6$i    [000] .....     2.000000: mm_vmscan_kswapd_sleep: nid=0" >mglru-$i.txt &&
		mkdir mglru-$i.txt.snap && echo 0x0007 >mglru-$i.txt.snap/start-lru_gen-enabled &&
		echo 0x0007 >mglru-$i.txt.snap/end-lru_gen-enabled &&
		echo "pgscan_kswapd 100" >mglru-$i.txt.snap/start-vmstat &&
		echo "pgscan_kswapd 600" >mglru-$i.txt.snap/end-vmstat || exit 1
	done &&
	"$VR" load -q -d db --kernel classic classic-1.txt classic-2.txt classic-3.txt &&
	"$VR" load -q -d db --kernel mglru mglru-1.txt mglru-2.txt mglru-3.txt 2>/dev/null &&
	test "$(sqlite3 db "SELECT DISTINCT verdict FROM counter_coverage")" = "not traced" &&
	"$VR" report -q -d db -o out &&
	grep -Eq "^Pages scanned by kswapd\[1\] +80\.00 +-$" out/compare.txt &&
	grep -q "^\[1\] mglru: not traced in 3 of 3 runs" out/compare.txt &&
	! grep -q "^Pages scanned by kswapd:" out/index.md &&
	grep -q "^mglru: the trace does not see the pages its kernel scanned and reclaimed" out/index.md
'

test_expect_success 'no difference: said so; one kernel: nothing to compare' '
	trace a-1 2 && trace a-2 2 && trace b-1 2 && trace b-2 2 &&
	"$VR" load -q -d db --kernel a a-1.txt a-2.txt &&
	"$VR" load -q -d db --kernel b b-1.txt b-2.txt &&
	"$VR" report -q -d db -o out &&
	grep -q "^No difference from a is significant" out/index.md &&
	"$VR" report -q -d db -o one --kernels a &&
	grep -q "^One kernel only: nothing to compare" one/index.md
'

test_expect_success 'compare: a vmstat block of the deltas' '
	make_db &&
	for r in base-1 patched-1; do
		mkdir $r.txt.snap &&
		printf "pageoutrun 10\nallocstall_normal 0\n" >$r.txt.snap/start-vmstat || exit 1
	done &&
	printf "pageoutrun 11\nallocstall_normal 3\n" >base-1.txt.snap/end-vmstat &&
	printf "pageoutrun 13\nallocstall_normal 0\n" >patched-1.txt.snap/end-vmstat &&
	"$VR" load -q -d db --replace --kernel base --iteration 1 base-1.txt 2>err &&
	"$VR" load -q -d db --replace --kernel patched --iteration 1 patched-1.txt 2>>err &&
	test $(grep -c "has no .vmscan-report: snapshot start. marker" err) = 2 &&
	"$VR" compare --width 0 -d db >out &&
	grep -Eq "^allocstall +3\.00 +0\.00$" out &&
	grep -Eq "^pageoutrun +1\.00 +3\.00$" out &&
	grep -q "^base-1: trace = vmstat, exact: all counters$" out &&
	grep -q "^patched-1: trace = vmstat, exact: 0 of 2 counters; allocstall: not recorded; pageoutrun: vmstat - trace = 2, unexplained$" out &&
	"$VR" report -q -d db -o rep &&
	grep -q "^In 1 run(s) the trace does not account for every change" rep/index.md &&
	grep -q "^- run 4 (patched, iteration 1): trace = vmstat, exact: 0 of 2 counters; allocstall: not recorded; pageoutrun" rep/index.md
'

test_done
