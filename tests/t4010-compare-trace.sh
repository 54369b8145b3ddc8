#!/usr/bin/env bash
# compare on trace metrics and counters: a database of hand-made derived rows
# (tests/data/compare/synthetic.sql) whose table was worked out by hand:
#   DirectReclaim samples (us) per run: base [1000 2000 3000 4000] and
#   [2000 6000]; patched [500 1500] and [1000]; nearest-rank p50 per run:
#   2000 2000 | 500 1000 -> Amean 2000 | 750, gain 100-750*100/2000 = 62.50;
#   p95/p99/max: 4000 6000 | 1500 1000 -> 5000 | 1250, 75.00.
#   Welch p (mpmath): p50 0.12567, p95 0.14866 -> marked at alpha 0.13 only
#   for p50, each row on its own (--p-adjust none); adjusted together
#   (Benjamini-Hochberg over the 4 rows: p50 0.12567 * 4 / 1 = 0.503, the
#   others 0.14866 * 4 / 4; the running minimum gives every row 0.14866)
#   none is marked.  Counters are means over the two runs of each kernel: direct
#   stalls complete 4 and 2 -> 3.00 | 2 and 1 -> 1.50, incomplete (run 1's
#   open-ended stall of pid 104) 1 and 0 -> 0.50 | 0.00, stall time of the
#   complete ones (1+2+3+4 and 2+6 ms) -> 9.00 | (0.5+1.5 and 1) 1.50.
#   kswapd running: run 1 wake 1-3 ms (full sleep) + 4-5 ms (last activity
#   before a nap) = 3 ms of 10 -> 30.00; awake to full sleep: 1-3 ms + 4 ms to
#   the trace end (no full sleep after the nap) = 8 ms -> 80.00 (run 2 has no
#   kswapd: NULL, skipped).  Memcg reclaim: pid 105's shrink_inactive (40
#   scanned, 10 reclaimed) inside its incomplete memcg stall of run 1 -> 20.00
#   and 5.00; its stall rows (no complete stall) are left out.
. "$(dirname "$0")/lib.sh"
D="$TOP/tests/data/compare"

make_db() {
	printf "x 1\n" >x.txt &&
	"$VR" import-latency -q -d syn.db --kernel dummy x.txt &&
	sqlite3 syn.db "DELETE FROM app_latency; DELETE FROM run;" &&
	sqlite3 syn.db <"$D/synthetic.sql" &&
	# its raw rows are made by hand, not by load: the sums are read from
	# them, as in a database loaded before load wrote its sums
	for t in lru_isolate_pages lru_shrink_pages lru_shrink_stall kswapd_wake_node \
		 slab_shrink_ns; do
		sqlite3 syn.db "DROP TABLE $t" || return 1
	done
}

test_expect_success 'latency rows and counters match the hand-computed table' '
	make_db &&
	"$VR" compare --width 0 -d syn.db --metrics DirectReclaim,counters --stats Amean --alpha 0.13 \
		--p-adjust none >out &&
	test_cmp "$TOP/tests/expect/compare-synthetic.txt" out &&
	"$VR" compare --width 0 -d syn.db --metrics DirectReclaim --stats Amean --alpha 0.13 \
		--format csv >out.csv &&
	python3 - out.csv <<-\PY
	import csv, sys
	want = {"p50-DirectReclaim": 0.12567, "p95-DirectReclaim": 0.14866,
	        "p99-DirectReclaim": 0.14866, "max-DirectReclaim": 0.14866}
	rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["kernel"].endswith("patched")]
	assert len(rows) == 4, rows
	for r in rows:
	    assert abs(float(r["p"]) - want[r["operation"]]) < 5e-6, r
	    assert abs(float(r["p_adj"]) - 0.14866) < 5e-6, r
	    assert r["significant"] == "0", r
	PY
'
test_expect_success 'the counters of its evidence.db are the same (sum lru_shrink_stall)' '
	make_db &&
	"$VR" report -q -d syn.db -o b &&
	"$VR" compare --width 0 -d syn.db --metrics counters >want &&
	"$VR" compare --width 0 -d b/evidence.db --metrics counters >got &&
	test_cmp want got &&
	grep -q "^Pages scanned in memcg reclaim  *20.00  *0.00$" got &&
	grep -q "^Pages reclaimed in memcg reclaim  *5.00  *0.00$" got &&
	test "$(sqlite3 b/evidence.db "SELECT run_id, kind, nr_scanned, nr_reclaimed, events
		FROM lru_shrink_stall WHERE kind = '\''memcg'\''")" = "1|memcg|40|10|1"
'
test_expect_success 'no marker at the default alpha 0.10 (p = 0.126)' '
	make_db &&
	"$VR" compare --width 0 -d syn.db --metrics p50-DirectReclaim --stats Amean >out &&
	grep -q "^Amean    p50-DirectReclaim        2000.00 (  0.00%)      750.00 ( 62.50%)$" out &&
	test $(wc -l <out) = 5	# header, row, unit and test notes
'
test_expect_success 'metrics without samples are left out, not printed as zeros' '
	make_db &&
	"$VR" compare --width 0 -d syn.db --stats Max >out &&
	grep -q "^Max      max-KswapdAwake\[1\] " out &&
	grep -q "^Max      p50-DirectReclaim " out &&
	! grep -q "MemcgReclaim\|NodeReclaim\|Throttle\|CongestionWait\|SlabShrink\|WakeupDelay" out
'
test_expect_success 'KswapdAwake is wake to full sleep (2000 us in run 1 only)' '
	make_db &&
	"$VR" compare --width 0 -d syn.db --metrics max-KswapdAwake --stats Amean >out &&
	grep -q "^Amean    max-KswapdAwake\[1\]       2000.00 (  0.00%)           -$" out &&
	grep -qxF "[1] KswapdAwake: 6.1.0-base samples in 1 of 2 runs (statistics over those); 6.1.0-patched not recorded (its events are not in the recording) (shown as -)" out
'
# tests/data-model/per-call-4.11.spec has one direct stall, 1.010 s to
# 1.013 s: 3000 us, and one kswapd_wake.
test_expect_success 'A/A: one recording given for two kernels' '
	python3 "$TOP/tests/mkdat.py" "$TOP/tests/data-model/per-call-4.11.spec" p.dat &&
	"$VR" compare --width 0 --metrics p50-DirectReclaim,counters --stats Amean a=p.dat b=p.dat >out &&
	grep -q "^Amean    p50-DirectReclaim        3000.00 (  0.00%)     3000.00 (  0.00%)$" out &&
	grep -q "^Direct reclaim stalls complete  *1.00  *1.00$" out &&
	grep -q "^Direct reclaim stall time ms  *3.00  *3.00$" out &&
	grep -q "^Kswapd wakes  *1.00  *1.00$" out
'
test_expect_success 'a kernel named twice is refused (exit 2), one file twice for a kernel too' '
	python3 "$TOP/tests/mkdat.py" "$TOP/tests/data-model/per-call-4.11.spec" p.dat &&
	test_expect_code 2 "$VR" compare --width 0 a=p.dat a=p.dat 2>err &&
	grep -q "kernel .a. is named twice" err &&
	test_expect_code 2 "$VR" compare --width 0 a=p.dat,p.dat 2>err &&
	grep -q "p.dat is given twice for kernel .a." err
'
# A release from the trace's uname with an ESC sequence and a BEL: the
# kernel label, release and path are printed escaped as git quotes a path
# (\033, \a), in compare's header (text, Markdown), summary's and runs'
# lines, and report's index.md; no control byte reaches the output.
test_expect_success 'a kernel label from the uname: control bytes escaped in every header' '
	sed "s/^uname .*/uname Linux box 6.18.0-$(printf "\033")[31mred$(printf "\007") #1 SMP x86_64/" \
		"$TOP/tests/data-model/two-nodes-6.18.spec" >esc.spec &&
	python3 "$TOP/tests/mkdat.py" esc.spec esc.dat &&
	"$VR" load -q -d e.db esc.dat &&
	test "$(sqlite3 e.db "SELECT hex(kernel) FROM run")" = 362E31382E302D1B5B33316D72656407 &&
	"$VR" compare --width 0 -d e.db >cmp.txt &&
	"$VR" compare --width 0 -d e.db --format markdown >cmp.md &&
	"$VR" summary -d e.db >sum.txt &&
	"$VR" runs -d e.db >runs.txt &&
	"$VR" report -q -d e.db -o b &&
	sed -n 2p cmp.txt | grep -q "^ *\\\\033\[31mred\\\\a$" &&
	grep -qF "| 6.18.0-\033[31mred\a |" cmp.md &&
	head -1 sum.txt | grep -qF "run 1: 6.18.0-\033[31mred\a iteration 1, release 6.18.0-\033[31mred\a," &&
	grep -qF "6.18.0-\033[31mred\a local" runs.txt &&
	grep -qF "Run 1: 6.18.0-\033[31mred\a, iteration 1" b/index.md &&
	for f in cmp.txt cmp.md sum.txt runs.txt b/index.md b/compare.txt b/summary.txt; do
		if LC_ALL=C grep -q "[[:cntrl:]]" <(tr -d "\n\t" <$f); then
			echo "control byte in $f"; exit 1
		fi
	done
'
test_expect_success 'interrupted while loading trace files: its temporary database is removed' '
	mkdir tmp bin &&
	sample=$(ls "${VR_SAMPLES_DIR:-$TOP/samples}"/*.dat | head -1) &&
	# the load waits for a copy that a fake trace-cmd never makes
	printf "#!/bin/bash\nexec -a vr-t4010-$$ sleep 3600\n" >bin/trace-cmd && chmod +x bin/trace-cmd &&
	{ VR_TEST_IN_MEMORY_CAP=1 TMPDIR=$PWD/tmp PATH=$PWD/bin:$PATH \
		"$VR" compare --width 0 a="$sample" b="$sample" >out 2>err & }
	pid=$! &&
	for i in $(seq 100); do pgrep -f "vr-t4010-$$ 3600" >/dev/null && break; sleep 0.05; done &&
	pgrep -f "vr-t4010-$$ 3600" >/dev/null && ls tmp | grep -q "^vmscan-report-compare\." &&
	# SIGTERM: a background job of a script starts with SIGINT ignored
	kill -TERM $pid &&
	for i in $(seq 200); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done &&
	if kill -0 $pid 2>/dev/null; then kill -9 $pid; echo "still running"; false; fi &&
	test_expect_code 143 wait $pid &&
	! ls tmp | grep -q "^vmscan-report-compare\." &&
	for i in $(seq 100); do pgrep -f "vr-t4010-$$ 3600" >/dev/null || break; sleep 0.05; done &&
	! pgrep -f "vr-t4010-$$ 3600"
'
test_done
