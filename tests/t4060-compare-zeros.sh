#!/usr/bin/env bash
# Honest zeros (issue 26 item 4): a kernel without samples is 0 with its
# footnote on the row, in every format and in index.md's headline; CoeffVar
# of a mean of 0 is "-"; a single value's spread is 0.00 (0.00%) as mmtests
# prints it; an imported run whose values are all 0 is not recorded unless
# its zeros are declared real; a real 0 is never drawn on a log axis.
# Every expected number is worked out by hand in the comments.
. "$(dirname "$0")/lib.sh"
D="$TOP/tests/data/compare"

# base: 10 12 11 13 (one run, four reports): Amean 11.50, Stddev
# sqrt((2.25+0.25+0.25+2.25)/3) = 1.29, CoeffVar 1.29099*100/11.5 = 11.23.
# one: a single value, 20: no spread is measured (mmtests Stat.pm
# calc_stddev: NaN for n <= 1, printed 0.00 (0.00%)), where 100 - 0*100/1.29
# would claim a 100% better Stddev.
test_expect_success 'a single value: Stddev and CoeffVar 0.00 (0.00%), no gain against it' '
	printf "p95-Write 20\n" >one.txt &&
	"$VR" compare --width 0 --stats Stddev,CoeffVar a="$D/base.latency.txt" one=one.txt >out &&
	grep -q "^Stddev   p95-Write  *1.29 (  0.00%)  *0.00 (  0.00%)$" out &&
	grep -q "^CoeffVar p95-Write  *11.23 (  0.00%)  *0.00 (  0.00%)$" out &&
	"$VR" compare --width 0 --stats Stddev one=one.txt a="$D/base.latency.txt" >out &&
	grep -q "^Stddev   p95-Write  *0.00 (  0.00%)  *1.29$" out
'
# tests/data-model/per-call-4.11.spec has one direct stall of 3000 us;
# "fixed" is it without the stall's events (recorded, 0 samples, 1 run):
# every statistic 0 but CoeffVar (0/0: "-"), Stddev of its one run 0.00
# (0.00%); the rows carry [1] and the footnote says why.  Imported zeros
# declared real, 0 0 0 0: Stddev 0.00 (a measured spread), CoeffVar "-".
test_expect_success 'CoeffVar of an all-zero column is -, the row marked with its footnote' '
	M="$TOP/tests/data-model/per-call-4.11.spec" &&
	python3 "$TOP/tests/mkdat.py" "$M" base.dat &&
	grep -v direct_reclaim "$M" >fixed.spec && python3 "$TOP/tests/mkdat.py" fixed.spec fixed.dat &&
	"$VR" load -q -d z.db --kernel base base.dat && "$VR" load -q -d z.db --kernel fixed fixed.dat &&
	"$VR" compare --width 0 -d z.db --metrics p50-DirectReclaim --stats Amean,Stddev,CoeffVar >out &&
	grep -q "^Amean    p50-DirectReclaim\[1\]  *3000.00 (  0.00%)  *0.00 (100.00%)$" out &&
	grep -q "^Stddev   p50-DirectReclaim\[1\]  *0.00 (  0.00%)  *0.00 (  0.00%)$" out &&
	grep -q "^CoeffVar p50-DirectReclaim\[1\]  *0.00 (  0.00%)  *-$" out &&
	grep -qxF "[1] DirectReclaim: fixed 0 samples in 1 run (shown as 0)" out &&
	"$VR" compare --width 0 -d z.db --metrics p50-DirectReclaim --stats CoeffVar --format csv >out.csv &&
	grep -qxF "latency,CoeffVar,p50-DirectReclaim,fixed,,,,0,us,zero,0,1,DirectReclaim: fixed 0 samples in 1 run (shown as 0)," out.csv &&
	"$VR" compare --width 0 -d z.db --metrics p50-DirectReclaim --stats CoeffVar --format markdown >out.md &&
	grep -qxF "| CoeffVar | p50-DirectReclaim[1] | 0.00 (0.00%) | - |" out.md &&
	grep -qxF "[1] DirectReclaim: fixed 0 samples in 1 run (shown as 0)" out.md &&
	printf "p95-Write 0\n%.0s" 1 2 3 4 >zero.txt &&
	"$VR" compare --width 0 --real-zeros Write --stats Stddev,CoeffVar a="$D/base.latency.txt" z=zero.txt >out &&
	grep -q "^Stddev   p95-Write  *1.29 (  0.00%)  *0.00 (100.00%)$" out &&
	grep -q "^CoeffVar p95-Write  *11.23 (  0.00%)  *-$" out
'
# b's three runs: 20 22 | 0 0 | 21 25.  The run of zeros did not do the
# operation: left out, Amean (20+22+21+25)/4 = 22.00, gain 100 - 22*100/11.5
# = -91.30, Min 20.00 (-100.00%).  Declared real: (20+22+0+0+21+25)/6 =
# 14.67, gain -27.54; Min 0.00 (100.00%).
# a: base's four reports as two runs (10 12 | 11 13: run means 11, 12), so
# that the test has runs on both sides (a kernel with one run is one value,
# no test); b's runs with values: 21, 23; Welch t = 10.5 / sqrt(0.5/2 + 2/2)
# = 9.39 on df 1.47: p between df 1's 0.068 and df 2's 0.011: marked.
runs_b() {
	printf "p95-Write 10\np95-Write 12\n" >a1.txt &&
	printf "p95-Write 11\np95-Write 13\n" >a2.txt &&
	printf "p95-Write 20\np95-Write 22\n" >b1.txt &&
	printf "p95-Write 0\np95-Write 0\n" >b2.txt &&
	printf "p95-Write 21\np95-Write 25\n" >b3.txt
}
test_expect_success 'an imported run whose values are all 0 is not recorded, unless declared real' '
	runs_b &&
	"$VR" compare --width 0 --stats Min,Amean a=a1.txt,a2.txt b=b1.txt,b2.txt,b3.txt >out &&
	grep -q "^Min      p95-Write\[1\]  *10.00 (  0.00%)  *20.00 (-100.00%)$" out &&
	grep -q "^Amean    p95-Write\[1\]  *11.50 (  0.00%)  *22.00 \*-91.30%\*$" out &&
	grep -qxF "[1] Write: b all 0 in 1 of 3 runs (counted as not recorded; --real-zeros if measured) (statistics over the others)" out &&
	"$VR" compare --width 0 --real-zeros p95-Write --stats Min,Amean a=a1.txt,a2.txt \
		b=b1.txt,b2.txt,b3.txt >out &&
	grep -q "^Min      p95-Write  *10.00 (  0.00%)  *0.00 (100.00%)$" out &&
	grep -q "^Amean    p95-Write  *11.50 (  0.00%)  *14.67 (-27.54%)$" out &&
	! grep -q "^\[1\]" out
'
test_expect_success 'import-latency --real-zeros and --higher-is-better are kept per sample' '
	runs_b &&
	"$VR" import-latency -q -d d.db --kernel b --real-zeros Write b2.txt &&
	"$VR" import-latency -q -d d.db --kernel b --higher-is-better p95-Write b1.txt &&
	sqlite3 d.db "SELECT r.iteration, a.value, coalesce(a.zeros_real, 0),
		      coalesce(a.higher_is_better, 0) FROM app_latency a JOIN run r ON r.id = a.run_id
		      ORDER BY a.rowid" >out &&
	printf "1|0.0|1|0\n1|0.0|1|0\n2|20.0|0|1\n2|22.0|0|1\n" >want && test_cmp want out &&
	sqlite3 d.db .dump >before &&
	test_expect_code 1 "$VR" import-latency -d d.db --kernel b --real-zeros Read b3.txt 2>err &&
	grep -qxF "vmscan-report: b3.txt: --real-zeros Read: no such operation or metric in the file" err &&
	sqlite3 d.db .dump >after && test_cmp before after &&
	test_expect_code 2 "$VR" compare --width 0 -d d.db --real-zeros Write 2>err &&
	grep -q "are for NAME=FILE.txt imports" err
'
# The headline is the significant rows of compare.txt: p95-Write's Amean
# (22.00 against 11.50, Welch p = 0.000445) carries its [1] there, and the
# footnote follows it.
test_expect_success 'the headline keeps a row'\''s footnote' '
	runs_b &&
	"$VR" import-latency -q -d h.db --kernel a a1.txt a2.txt &&
	"$VR" import-latency -q -d h.db --kernel b b1.txt b2.txt b3.txt &&
	"$VR" report -q -d h.db -o r &&
	sed -n "/^## Headline/,/^## /p" r/index.md >head.md &&
	grep -q "^Amean    p95-Write\[1\]  *11.50 (  0.00%)  *22.00 \*-91.30%\*$" head.md &&
	# wrapped at 80 columns, continuation lines indented by 4
	sed -n "/^\[1\] /,/^[^ ]/p" head.md | sed "\$d" | tr -s " \n" "  " >note &&
	printf "[1] Write: b all 0 in 1 of 3 runs (counted as not recorded; --real-zeros if measured) (statistics over the others) " >want &&
	test_cmp want note
'
# a: 1 and 1000 (a factor 1000 apart): a log axis.  With z's zeros declared
# real a candle reaches 0, which a log axis cannot show: linear.
test_expect_success 'no 0 on a log axis: a real 0 makes the latency axis linear' '
	printf "p95-Write 1\np95-Write 1000\n" >a.txt &&
	printf "p95-Write 0\np95-Write 0\n" >z.txt &&
	"$VR" import-latency -q -d c.db --kernel a a.txt &&
	"$VR" chart -d c.db -T latency -m Write --dump-data >out &&
	test "$(tail -1 out)" = "axis log" &&
	"$VR" import-latency -q -d c.db --kernel z --real-zeros Write z.txt &&
	"$VR" chart -d c.db -T latency -m Write --dump-data >out &&
	grep -q "^candle p95 z n 2 min 0 " out &&
	test "$(tail -1 out)" = "axis linear" &&
	"$VR" import-latency -q -d n.db --kernel a a.txt &&
	"$VR" import-latency -q -d n.db --kernel z z.txt &&
	"$VR" chart -d n.db -T latency -m Write --dump-data >out &&
	! grep -q "^candle p95 z " out && test "$(tail -1 out)" = "axis log"
'
test_done
