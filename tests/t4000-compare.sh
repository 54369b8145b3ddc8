#!/usr/bin/env bash
# compare and import-latency: the changelog tables of the 2017 seed mails
# come out line for line; statistics, markers and imports against values
# computed outside vmscan-report (python3 statistics/mpmath, by hand).
. "$(dirname "$0")/lib.sh"
D="$TOP/tests/data/compare"
E="$TOP/tests/expect"

import() { # DB KERNEL FILE
	"$VR" import-latency -q -d "$1" --kernel "$2" "$3"
}

# refused DB KERNEL FILE:LINE:MESSAGE...: import-latency of each FILE into
# DB exits 1 with one line of error, "FILE:LINE: MESSAGE..."
refused() {
	local db=$1 k=$2 f file rest
	shift 2
	for f in "$@"; do
		file=${f%%:*} rest=${f#*:}
		test_expect_code 1 "$VR" import-latency -d "$db" --kernel "$k" "$file" 2>err &&
		test $(wc -l <err) = 1 &&
		grep -q "^vmscan-report: $file:${rest%%:*}: ${rest#*:}" err ||
		{ echo "$file: $(cat err)"; return 1; }
	done
}

test_expect_success 'seed table: kswapd-sleeps-prematurely cover letter' '
	import g.db 4.11.0-rc1-vanilla "$D/4.11.0-rc1-vanilla.latency.txt" &&
	import g.db 4.11.0-rc1-keepawake-v2 "$D/4.11.0-rc1-keepawake-v2.latency.txt" &&
	"$VR" compare --width 0 -d g.db --stats Amean >out &&
	test_cmp "$E/compare-keepawake.txt" out
'
test_expect_success 'seed table: clear-pgdat-congested changelog (3 kernels)' '
	for k in vanilla fixcheck-v2 clear-v2; do
		import g.db 4.11.0-rc1-$k "$D/4.11.0-rc1-$k.latency.txt" || exit 1
	done &&
	"$VR" compare --width 0 -d g.db --stats Amean >out &&
	test_cmp "$E/compare-clear.txt" out
'
test_expect_success '--kernels picks and orders the columns' '
	for k in keepawake-v2 vanilla; do
		import g.db 4.11.0-rc1-$k "$D/4.11.0-rc1-$k.latency.txt" || exit 1
	done &&
	"$VR" compare --width 0 -d g.db --stats Amean --kernels 4.11.0-rc1-vanilla,4.11.0-rc1-keepawake-v2 >out &&
	test_cmp "$E/compare-keepawake.txt" out
'
test_expect_success 'shortcut NAME=FILE loads into a temporary database' '
	"$VR" compare --width 0 --stats Amean 4.11.0-rc1-vanilla="$D/4.11.0-rc1-vanilla.latency.txt" \
		4.11.0-rc1-keepawake-v2="$D/4.11.0-rc1-keepawake-v2.latency.txt" >out &&
	test_cmp "$E/compare-keepawake.txt" out
'
# base 10 12 11 13, worse 20 22 21 25, similar 12 14 11 15.5 (four reports
# each).  Welch p (mpmath betainc): worse 0.000445, similar 0.231439.
test_expect_success 'statistics rows and t-test markers (alpha 0.10)' '
	for k in base worse similar; do
		import s.db 4.11.0-rc1-$k "$D/$k.latency.txt" || exit 1
	done &&
	"$VR" compare --width 0 -d s.db --stats Min,Amean,Stddev,CoeffVar,Max,BAmean-50,Pctile-75 >out &&
	test_cmp "$E/compare-stats.txt" out
'
test_expect_success '--alpha 0.25 marks p = 0.23, --alpha 0.0001 marks nothing' '
	for k in base worse similar; do
		import s.db 4.11.0-rc1-$k "$D/$k.latency.txt" || exit 1
	done &&
	"$VR" compare --width 0 -d s.db --stats Amean --alpha 0.25 >out &&
	grep -q "22.00 \*-91.30%\*       13.12 \*-14.13%\*$" out &&
	"$VR" compare --width 0 -d s.db --stats Amean --alpha 0.0001 >out &&
	! grep -q "^Amean .*\*" out && grep -q "where p < 0.0001 after Benjamini-Hochberg" out
'
test_expect_success 'csv and json carry values, gains and p-values' '
	for k in base worse similar; do
		import s.db 4.11.0-rc1-$k "$D/$k.latency.txt" || exit 1
	done &&
	"$VR" compare --width 0 -d s.db --stats Amean --format csv >out.csv &&
	head -1 out.csv >h &&
	echo "table,stat,operation,kernel,value,gain_pct,p,significant,unit,data,nvalues,nruns,note,p_adj" >w &&
	test_cmp w h &&
	grep -q "^latency,Amean,p95-Write,4.11.0-rc1-similar,13.125,-14.130434782608[0-9]*,0.231438759[0-9]*,0,,values,4,1,,0.231438759[0-9]*$" out.csv &&
	"$VR" compare --width 0 -d s.db --stats Amean --format json >out.json &&
	python3 -c "
import json, sys
t = json.load(open(\"out.json\"))[\"tables\"][0]
c = t[\"rows\"][0][\"cells\"]
assert t[\"kernels\"][1] == \"4.11.0-rc1-worse\"
assert c[1][\"value\"] == 22 and c[1][\"significant\"] is True
assert abs(c[1][\"p\"] - 0.000445454) < 1e-8, c[1][\"p\"]
assert c[0][\"p\"] is None
" &&
	"$VR" compare --width 0 -d s.db --stats Amean --format markdown >out.md &&
	grep -q "^| Amean | p95-Write | 11.50 (0.00%) | \*\*22.00 (-91.30%)\*\* | 13.12 (-14.13%) |$" out.md
'
test_expect_success 'import-latency reads simoop reports (one sample per report)' '
	import i.db k1 "$D/simoop-report.txt" &&
	sqlite3 i.db "SELECT operation, sample, value FROM app_latency ORDER BY rowid" >out &&
	test_cmp "$E/simoop-import.txt" out &&
	sqlite3 i.db "SELECT kernel, iteration, source_format FROM run" >out &&
	echo "k1|1|latency" >want && test_cmp want out
'
test_expect_success 'import-latency: a bad line names file and line, database unchanged' '
	import b.db k1 "$D/simoop-report.txt" &&
	sqlite3 b.db .dump >before &&
	printf "p95-Write 12\np95-Write 1x3\n" >bad.txt &&
	test_expect_code 1 "$VR" import-latency -d b.db --kernel k2 bad.txt 2>err &&
	grep -q "^vmscan-report: bad.txt:2: " err &&
	printf "Read latency usec: (p50: 1) (p95 2)\n" >bad2.txt &&
	test_expect_code 1 "$VR" import-latency -d b.db --kernel k1 bad2.txt 2>err &&
	grep -q "^vmscan-report: bad2.txt:1: " err &&
	sqlite3 b.db .dump >after && test_cmp before after &&
	test_expect_code 1 "$VR" import-latency -d new.db --kernel k1 bad.txt 2>err &&
	! test -e new.db
'
# report names each chart file latency-METRIC.png: an operation whose
# metric has a '/' or a control byte, is only a percentile (p50: metric
# ''), or is longer than 188 bytes (200 - "latency-" - ".png") could not
# be charted, so import refuses it at its line; 188 bytes is charted.
# Misleading: "1,5" is not 15 (a decimal comma, or a typo), a latency is not
# negative, and an operation named like a metric the trace gives
# (p95-DirectReclaim, any case) would be stored and never shown (compare
# and report take the trace's).
test_expect_success 'import-latency: a name report cannot chart, or a value or name that would mislead: refused at its line' '
	import b.db k1 "$D/simoop-report.txt" &&
	sqlite3 b.db .dump >before &&
	x188=$(printf "%188s" "" | tr " " x) &&
	printf "ok 1\na/b 5\n" >slash.txt &&
	printf "ok 1\nok 2\nx$(printf "\033")y 5\n" >ctl.txt &&
	printf "p50 5\n" >pct.txt &&
	printf "p50-${x188}y 5\n" >long.txt &&
	printf "Read latency usec: (p50: 1)\nR/W latency usec: (p50: 1)\n" >simoop.txt &&
	printf "p95-Read 1,5\n" >comma.txt &&
	printf "p95-Read 1234,567\n" >comma2.txt &&
	printf "p95-Write 3\np95-Write -5\n" >neg.txt &&
	printf "p95-Write 3\np95-DirectReclaim 5\n" >trace.txt &&
	printf "max-kswapdawake 5\n" >trace2.txt &&
	refused b.db k2 slash.txt:2:"'\''a/b'\'': a '\''/'\'' in the operation name" \
		ctl.txt:3:"'\''x\\\\033y'\'': a control character in the operation name" \
		pct.txt:1:"'\''p50'\'': an operation name that is only a percentile" \
		long.txt:1:"'\''p50-${x188}y'\'': an operation name whose metric is longer than 188 bytes" \
		simoop.txt:2:"'\''p50-R/W'\'': a '\''/'\''" \
		comma.txt:1:"'\''1,5'\'' is not a number (commas only between groups of three" \
		comma2.txt:1:"'\''1234,567'\'' is not a number" \
		neg.txt:2:"'\''-5'\'' is not a number (a latency is not negative)" \
		trace.txt:2:"'\''p95-DirectReclaim'\'': the name of a metric vmscan-report takes from the trace" \
		trace2.txt:1:"'\''max-kswapdawake'\'': the name of a metric" &&
	sqlite3 b.db .dump >after && test_cmp before after &&
	test_expect_code 1 "$VR" compare --width 0 --metrics counters k=slash.txt 2>err &&
	grep -q "^vmscan-report: slash.txt:2: " err &&
	printf "p50-$x188 5\np50-$x188 6\n" >edge.txt &&
	"$VR" import-latency -q -d e.db --kernel k edge.txt &&
	"$VR" report -q -d e.db -o out &&
	test -s "out/latency-$x188.png" && test -s "out/latency-$x188.svg"
'
# Commas between groups of three digits are thousands (and "1,5" is refused,
# above).
test_expect_success 'import-latency: thousands commas' '
	printf "p95-Read 1,234.5\np95-Read 12,345,678\n" >thousands.txt &&
	"$VR" import-latency -q -d t.db --kernel k thousands.txt &&
	test "$(sqlite3 t.db "SELECT group_concat(value, '\'' '\'') FROM app_latency")" = "1234.5 12345678.0"
'
test_expect_success 'import-latency again replaces the run latencies' '
	printf "p95-Write 1\np95-Write 2\n" >a.txt && printf "p95-Write 3\n" >b.txt &&
	import r.db k1 a.txt && "$VR" import-latency -q -d r.db --kernel k1 --iteration 1 b.txt &&
	sqlite3 r.db "SELECT run_id, operation, sample, value FROM app_latency" >out &&
	echo "1|p95-Write|0|3.0" >want && test_cmp want out
'
test_expect_success 'usage errors exit 2, unknown kernel exits 1' '
	import u.db k1 "$D/base.latency.txt" &&
	test_expect_code 2 "$VR" compare --width 0 -d u.db --stats Bogus 2>err &&
	grep -q "unknown statistic" err &&
	test_expect_code 2 "$VR" compare --width 0 -d u.db --format xml &&
	test_expect_code 2 "$VR" compare --width 0 -d u.db --alpha 2 &&
	test_expect_code 1 "$VR" compare --width 0 2>err &&
	grep -q "^vmscan-report: vmscan.db: no such database" err &&
	test_expect_code 2 "$VR" import-latency -d u.db x.txt &&
	test_expect_code 1 "$VR" compare --width 0 -d u.db --kernels k1,nosuch 2>err &&
	grep -q "no runs of kernel .nosuch." err &&
	test_expect_code 2 "$VR" compare --width 0 -d u.db --stats "" 2>err &&
	grep -q "^vmscan-report: compare: --stats needs at least one statistic" err &&
	test_expect_code 2 "$VR" compare --width 0 -d u.db --stats , 2>err &&
	grep -q "needs at least one statistic" err &&
	for a in x= x=, x=a, x=,b x=a,,b; do
		test_expect_code 2 "$VR" compare --width 0 "$a" 2>err &&
		grep -qx "vmscan-report: compare: .$a.: an empty FILE in NAME=FILE,..." err || exit 1
	done
'
# u.db holds one imported operation, p95-Write (base.latency.txt).
test_expect_success 'unknown --metrics names exit 2 with the known names' '
	import u.db k1 "$D/base.latency.txt" &&
	for m in NoSuch directreclaim p95-write Write,Nope; do
		test_expect_code 2 "$VR" compare --width 0 -d u.db --metrics $m >out 2>err &&
		test ! -s out &&
		grep -q "^vmscan-report: unknown metric .[A-Za-z]*." err &&
		grep -q "^known metrics: DirectReclaim MemcgReclaim .* SlabShrink, .*imported operations p95-Write .*counters" err &&
		test "$(tail -1 err)" = "see '\''vmscan-report compare -h'\''" || exit 1
	done &&
	grep -q "unknown metric .Nope." err &&
	test_expect_code 2 "$VR" compare --width 0 -d u.db --metrics directreclaim 2>err &&
	grep -q "did you mean .DirectReclaim." err &&
	test_expect_code 2 "$VR" compare --width 0 -d u.db --metrics p95-write 2>err &&
	grep -q "did you mean .p95-Write." err
'
# base 10 12 11 13: Amean 11.50; known names without samples are no error.
test_expect_success 'known --metrics names without samples (NodeReclaim) are accepted' '
	import u.db k1 "$D/base.latency.txt" &&
	"$VR" compare --width 0 -d u.db --metrics Write,NodeReclaim,counters --stats Amean >out &&
	grep -q "^Amean    p95-Write                  11.50 (  0.00%)$" out &&
	test $(wc -l <out) = 4	# k1 has no "-": one header line, one row, 2 notes
'
test_expect_success 'a kernel repeated in --kernels or NAME=FILE exits 2' '
	import u.db k1 "$D/base.latency.txt" &&
	test_expect_code 2 "$VR" compare --width 0 -d u.db --kernels k1,k1 2>err &&
	grep -q "kernel .k1. is named twice in --kernels" err &&
	test_expect_code 2 "$VR" compare --width 0 x="$D/base.latency.txt" x="$D/worse.latency.txt" 2>err &&
	grep -q "kernel .x. is named twice" err
'
# A/A: the same report for both kernels, 10 12 11 13 -> 11.50 twice, gain 0.
test_expect_success 'shortcut: one latency report for two kernels (A/A)' '
	"$VR" compare --width 0 --stats Amean x="$D/base.latency.txt" y="$D/base.latency.txt" >out &&
	grep -q "^Amean    p95-Write                  11.50 (  0.00%)       11.50 (  0.00%)$" out
'
# The header lines of long, short and hyphen-free names, split by hand as
# mmtests cuts them (first "-", kept past "-rcN"; a name without "-" whole on
# the second line).  Every line is the expected parts with at least one
# space before each, and each part ends where its column's "%)" ends.
test_expect_success 'header cells never touch and sit over their columns' '
	names="mm-unstable-20251201 mm-unstable-20251201-lru-fix 6.18.0-rc3-mm-unstable-base" &&
	names="$names 6.18.0-rc3-mm-unstable-patched-v2 wsf10 a" &&
	args="" && for n in $names; do args="$args $n=$D/base.latency.txt"; done &&
	"$VR" compare --width 0 --stats Amean $args >out &&
	python3 - out <<-\EOF
	import re, sys
	lines = open(sys.argv[1]).read().split("\n")
	first = ["mm", "mm", "6.18.0-rc3", "6.18.0-rc3"]
	second = ["unstable-20251201", "unstable-20251201-lru-fix", "mm-unstable-base",
	          "mm-unstable-patched-v2", "wsf10", "a"]
	for line, parts in ((lines[0], first), (lines[1], second)):
	    assert re.fullmatch(" +" + " +".join(map(re.escape, parts)), line), line
	row = lines[2]
	assert row.startswith("Amean    p95-Write "), row
	ends = [m.end() for m in re.finditer(r"%\)", row)]
	assert len(ends) == 6, row
	assert [m.end() for m in re.finditer(r"\S+", lines[1])] == ends, (lines[1], row)
	assert [m.end() for m in re.finditer(r"\S+", lines[0])] == ends[:4], (lines[0], row)
	EOF
'
# All names without "-": no first header line at all (not an empty one).
test_expect_success 'hyphen-free names give one header line' '
	"$VR" compare --width 0 --stats Amean wsf10="$D/base.latency.txt" wsf30="$D/worse.latency.txt" >out &&
	head -1 out | grep -q "^  *wsf10  *wsf30$" &&
	sed -n 2p out | grep -q "^Amean    p95-Write "
'
# Two text-trace runs of kernel k (t1.txt, t2.txt differ by a timestamp):
# the same report imported twice would go to run 2 as well (before: exit
# 0, twice the samples); it is refused, the database unchanged.
two_trace_runs() {
	for i in 1 2; do
		printf "bash-1234  [000]  100.00000$i: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL\n" >t$i.txt &&
		printf "bash-1234  [000]  100.00100$i: mm_vmscan_direct_reclaim_end: nr_reclaimed=3\n" >>t$i.txt &&
		"$VR" load -q -d $1 --kernel k t$i.txt || return 1
	done
}
test_expect_success 're-importing the same report is refused, naming its run' '
	two_trace_runs d.db &&
	printf "p95-Write 1\np95-Write 2\n" >a.txt &&
	"$VR" import-latency -q -d d.db --kernel k a.txt &&
	sqlite3 d.db .dump >before &&
	test_expect_code 1 "$VR" import-latency -d d.db --kernel k a.txt 2>err &&
	grep -q "^vmscan-report: a.txt: already imported as the latencies of run 1 (kernel k iteration 1, same contents); use --replace" err &&
	test_expect_code 1 "$VR" import-latency -d d.db --kernel k --iteration 2 a.txt 2>err &&
	grep -q "already imported as the latencies of run 1 " err &&
	sqlite3 d.db .dump >after && test_cmp before after &&
	test "$(sqlite3 d.db "SELECT count(*) FROM app_latency")" = 2
'
test_expect_success 'import-latency --replace: same run, or the run --iteration names' '
	two_trace_runs d.db &&
	printf "p95-Write 1\np95-Write 2\n" >a.txt &&
	"$VR" import-latency -q -d d.db --kernel k a.txt &&
	"$VR" import-latency -d d.db --kernel k --replace a.txt >out &&
	grep -q "^run 1: k iteration 1 <- a.txt (2 latency samples)$" out &&
	"$VR" import-latency -q -d d.db --kernel k --replace --iteration 2 a.txt &&
	sqlite3 d.db "SELECT run_id, sample, value FROM app_latency ORDER BY rowid" >out &&
	printf "2|0|1.0\n2|1|2.0\n" >want && test_cmp want out &&
	"$VR" import-latency -q -d d.db --kernel other a.txt &&
	test "$(sqlite3 d.db "SELECT count(*) FROM app_latency")" = 4
'
# A simoop line saying usec: unit us; its second Read line does not say it,
# and OPERATION VALUE lines never do (NULL: as reported).
test_expect_success 'import-latency stores the unit the report names' '
	import i.db k1 "$D/simoop-report.txt" &&
	import i.db k2 "$D/base.latency.txt" &&
	sqlite3 i.db "SELECT r.kernel, a.operation, a.sample, coalesce(a.unit, '\''NULL'\'')
		      FROM app_latency a JOIN run r ON r.id = a.run_id
		      WHERE a.operation IN ('\''p50-Read'\'', '\''p50-Write'\'', '\''p95-Write'\'')
		      ORDER BY a.rowid" >out &&
	printf "k1|p50-Read|0|us\nk1|p50-Write|0|us\nk1|p95-Write|0|us\n" >want &&
	printf "k1|p50-Read|1|NULL\nk1|p50-Write|1|us\nk1|p95-Write|1|us\n" >>want &&
	printf "k2|p95-Write|0|NULL\nk2|p95-Write|1|NULL\nk2|p95-Write|2|NULL\nk2|p95-Write|3|NULL\n" >>want &&
	test_cmp want out &&
	"$VR" chart -d i.db --kind latency --metric Allocation --dump-data | head -1 >out &&
	echo "latency metric Allocation unit us" >want && test_cmp want out &&
	"$VR" chart -d i.db --kind latency --metric Read --dump-data | head -1 >out &&
	echo "latency metric Read unit as reported" >want && test_cmp want out &&
	"$VR" compare --width 0 -d i.db --metrics Allocation,Read --stats Amean >out &&
	grep -q "^Unit: us (microseconds), but as reported by the workload (its report names none) for: Read$" out
'
# --layout mmtests, worked out from compare-mmtests.pl's formats (Compare.pm:
# "%-S" stat, " %-O" operation, "%18.2f" + " (%7.2f%%)" per kernel, the
# header "%(S+1+O)s" then "%29s"): BAmean.95 of 4 values = mean of the best
# floor(3.8) = 3 (10 11 12 -> 11; 20 21 22 -> 21), Pctile.95 = the 3rd best
# (12, 22).  A value the baseline lacks (p95-Read, imported for patched
# only) is "-" with no gain, and its rows carry footnote [1], where
# compare-mmtests.pl prints 0.00 (0.00%) and nan%: never a 0 that was not
# measured.
test_expect_success '--layout mmtests: labels, widths as mmtests; a missing value is -' '
	printf "p95-Write 10\np95-Write 12\np95-Write 11\np95-Write 13\n" >va.txt &&
	printf "p95-Write 20\np95-Write 22\np95-Write 21\np95-Write 25\np95-Read 5\n" >pb.txt &&
	"$VR" compare --width 0 --layout mmtests --stats Min,Amean,BAmean-95,Pctile-95 \
		4.11.0-rc1-vanilla=va.txt 4.11.0-rc1-patched=pb.txt >out &&
	python3 - >want <<-\EOF &&
	print("%21s%29s%29s" % ("", "4.11.0-rc1", "4.11.0-rc1"))
	print("%21s%29s%29s" % ("", "vanilla", "patched"))
	def row(st, op, a, ga, b, gb, mark=False):
	    gfmt = " *%7.2f%%*" if mark else " (%7.2f%%)"
	    print(("%-9s %-11s%18.2f (%7.2f%%)%18.2f" + gfmt) % (st, op, a, ga, b, gb))
	for st, w, wg, mark in (("Min", 20, 100 - 20 * 100 / 10, False),
	                        ("Amean", 22, 100 - 22 * 100 / 11.5, True),
	                        ("BAmean.95", 21, 100 - 21 * 100 / 11, False),
	                        ("Pctile.95", 22, 100 - 22 * 100 / 12, False)):
	    base = {"Min": 10, "Amean": 11.5, "BAmean.95": 11, "Pctile.95": 12}[st]
	    row(st, "p95-Write", base, 0, w, wg, mark)
	    print("%-9s %-11s%18s%11s%18.2f" % (st, "p95-Read[1]", "-", "", 5))
	print("Unit: as reported by the workload (its report names none), every row")
	print("Significance: Welch\x27s t-test (two-sided), marked on mean rows where p < 0.1"
	      " after Benjamini-Hochberg over a kernel\x27s mean rows, the 1 tested; on one value per run (the"
	      " mean of its samples) where either kernel has two runs or more, else (one run"
	      " each) on the samples; none with fewer than two values per kernel")
	print("[1] Read: 4.11.0-rc1-vanilla no value in 1 of 1 runs (shown as -)")
	EOF
	test_cmp want out
'
# base 10 11 12 13 vs 12 13 14 15: Welch t = 2 / sqrt(2 * 1.6667 / 4) = 2.19,
# df 6, p = 0.071 < 0.10: marked.  mmtests' intervals 11.5 +/- 1.96 * 1.29
# and 13.5 +/- 1.96 * 1.29 overlap (cidiff 2 / 5.06 = 0.40): not marked;
# worse (cidiff 1.55) is marked by both.
test_expect_success '--significance ci: mmtests'\''s rule, named under the table' '
	printf "p95-Write 12\np95-Write 13\np95-Write 14\np95-Write 15\n" >shift.txt &&
	"$VR" compare --width 0 --stats Amean a="$D/base.latency.txt" b=shift.txt c="$D/worse.latency.txt" >out &&
	grep -q "^Amean    p95-Write  .* \*-17.39%\* .* \*-91.30%\*$" out &&
	grep -q "^Significance: Welch.s t-test (two-sided), marked on mean rows where p < 0.1 after" out &&
	"$VR" compare --width 0 --significance ci --stats Amean a="$D/base.latency.txt" b=shift.txt \
		c="$D/worse.latency.txt" >out &&
	grep -q "^Amean    p95-Write  .* (-17.39%) .* \*-91.30%\*$" out &&
	grep -q "^Significance (mmtests. rule): marked on mean rows where the intervals mean +/- 1.96 stddev" out &&
	test_expect_code 2 "$VR" compare --width 0 --significance bogus a=shift.txt &&
	test_expect_code 2 "$VR" compare --width 0 --layout 2018 a=shift.txt
'
# Every operation here is lower-is-better: mmtests never computes an Hmean.
test_expect_success 'Hmean rows only for higher-is-better data (none here)' '
	"$VR" compare --width 0 --stats Amean,Hmean a="$D/base.latency.txt" b="$D/worse.latency.txt" >out &&
	! grep -q "^Hmean  *p95" out && grep -q "^Amean " out &&
	grep -q "^Hmean: left out, every operation here is lower-is-better" out &&
	"$VR" compare --width 0 --stats Hmean,Min a="$D/base.latency.txt" b="$D/worse.latency.txt" >out &&
	grep -q "^Hmean: left out" out && ! grep -q "^Significance" out &&
	"$VR" compare --width 0 --stats Hmean a="$D/base.latency.txt" b="$D/worse.latency.txt" >out &&
	test $(wc -l <out) = 2 && grep -q "^Hmean: left out" out
'
# Pctile-75 of 10 11 12 13 (best first): floor(3) = 3rd = 12; Pctile-95:
# floor(3.8) = 3rd = 12, where the nearest rank (ceil) would give 13.
test_expect_success 'Pctile-NN takes the rank rounded down, as mmtests' '
	"$VR" compare --width 0 --stats Pctile-95,Pctile-75,Pctile-10 a="$D/base.latency.txt" >out &&
	grep -q "^Pctile-95 p95-Write  *12.00 (  0.00%)$" out &&
	grep -q "^Pctile-75 p95-Write  *12.00 (  0.00%)$" out &&
	grep -q "^Pctile-10 p95-Write  *10.00 (  0.00%)$" out
'
# A baseline of 0: 100 - new*100/0 has no finite value; mmtests' pndiff
# prints -99 there.  zero: 0 0 0 0; worse 20 22 21 25: Min 20, Amean 22,
# gain -inf; Welch (base variance 0, worse 14/3): t = 22/sqrt(14/12) =
# 20.37 on 3 df, p = 0.00026 < 0.10, marked.  The other way round the gain
# is 100 - 0*100/22 = 100.
test_expect_success 'a gain against a baseline of 0 is -inf%, said under the table' '
	printf "p95-Write 0\n%.0s" 1 2 3 4 >zero.txt &&
	"$VR" compare --width 0 --real-zeros Write --stats Min,Amean zero=zero.txt worse="$D/worse.latency.txt" >out &&
	grep -q "^Min      p95-Write  *0.00 (  0.00%)  *20.00 (  -inf%)$" out &&
	grep -q "^Amean    p95-Write  *0.00 (  0.00%)  *22.00 \*  -inf%\*$" out &&
	grep -q "^inf% / -inf%: the baseline is 0 and this value is not" out &&
	! grep -q "(-99.00%)" out &&
	"$VR" compare --width 0 --real-zeros Write --stats Amean --layout mmtests zero=zero.txt worse="$D/worse.latency.txt" >out &&
	grep -q "^Amean p95-Write  *0.00 (   0.00%)  *22.00 \*   -inf%\*$" out &&
	"$VR" compare --width 0 --real-zeros Write --stats Amean --format csv zero=zero.txt worse="$D/worse.latency.txt" >out.csv &&
	grep -q "^latency,Amean,p95-Write,worse,22,-inf,0.0002587[0-9]*,1,,values,4,1,,0.0002587[0-9]*$" out.csv &&
	"$VR" compare --width 0 --real-zeros Write --stats Amean --format json zero=zero.txt worse="$D/worse.latency.txt" >out.json &&
	python3 -c "
import json
t = json.load(open(\"out.json\"))[\"tables\"][0]
c = t[\"rows\"][0][\"cells\"]
assert c[1][\"value\"] == 22 and c[1][\"gain_pct\"] is None, c
assert any(n.startswith(\"inf% / -inf%\") for n in t[\"notes\"]), t[\"notes\"]
" &&
	"$VR" compare --width 0 --real-zeros p95-Write --stats Amean worse="$D/worse.latency.txt" zero=zero.txt >out &&
	grep -q "^Amean    p95-Write  *22.00 (  0.00%)  *0.00 \*100.00%\*$" out &&
	! grep -q "^inf%" out
'
# Zero is not missing.  tests/data-model/per-call-4.11.spec has one direct
# stall, 1.010 to 1.013 s: 3000 us.  "fixed" is the same recording without
# the stall's two events: mkdat.py writes every format of its era, so direct
# reclaim was recorded, with 0 samples: 0.00, gain 100 - 0*100/3000 = 100%.
# "text" is a text trace showing no direct reclaim event: not recorded, "-".
test_expect_success 'a kernel without direct reclaim stalls shows 0, one not recording them -' '
	M="$TOP/tests/data-model/per-call-4.11.spec" &&
	python3 "$TOP/tests/mkdat.py" "$M" base.dat &&
	grep -v direct_reclaim "$M" >fixed.spec && python3 "$TOP/tests/mkdat.py" fixed.spec fixed.dat &&
	printf "kswapd0-50 [000] 1.000000: mm_vmscan_kswapd_wake: nid=0 zid=1 order=0\n" >text.txt &&
	"$VR" load -q -d z.db --kernel base base.dat && "$VR" load -q -d z.db --kernel fixed fixed.dat &&
	"$VR" load -q -d z.db --kernel 4.11.0-text text.txt &&
	test "$(sqlite3 z.db "SELECT count FROM run_event_count WHERE run_id = 2
		AND name = '\''mm_vmscan_direct_reclaim_begin'\''")" = 0 &&
	"$VR" compare --width 0 -d z.db --metrics p50-DirectReclaim --stats Amean >out &&
	grep -q "^Amean    p50-DirectReclaim\[1\]     3000.00 (  0.00%)        0.00 (100.00%)           -$" out &&
	note="DirectReclaim: fixed 0 samples in 1 run (shown as 0); 4.11.0-text not recorded (its events are not in the recording) (shown as -)" &&
	grep -qxF "[1] $note" out &&
	"$VR" compare --width 0 -d z.db --metrics p50-DirectReclaim --stats Amean --format csv >out.csv &&
	grep -qxF "latency,Amean,p50-DirectReclaim,fixed,0,100,,0,us,zero,0,1,$note," out.csv &&
	grep -qxF "latency,Amean,p50-DirectReclaim,4.11.0-text,,,,0,us,not recorded,0,1,$note," out.csv &&
	grep -qxF "latency,Amean,p50-DirectReclaim,base,3000,0,,0,us,values,1,1,$note," out.csv &&
	"$VR" compare --width 0 -d z.db --metrics p50-DirectReclaim --stats Amean --format json >out.json &&
	python3 -c "
import json
t = json.load(open(\"out.json\"))[\"tables\"][0]
r = t[\"rows\"][0]
assert r[\"unit\"] == \"us\", r
assert [c[\"data\"] for c in r[\"cells\"]] == [\"values\", \"zero\", \"not recorded\"], r
assert r[\"cells\"][1][\"value\"] == 0 and r[\"cells\"][2][\"value\"] is None, r
assert r[\"note\"].startswith(\"DirectReclaim: fixed 0 samples in 1 run\"), r
" &&
	"$VR" chart -d z.db --kind latency --metric DirectReclaim --dump-data >dump &&
	grep -q "^no candle fixed: 0 samples in 1 run$" dump &&
	grep -q "^no candle 4.11.0-text: not recorded (its events are not in the recording)$" dump
'
# Two runs a kernel, one sample per operation and run, so each run's mean is
# its sample: Welch with 2 and 2 values of equal spread has df = 2, where
# the two-sided p is 1 - t / sqrt(t^2 + 2) (the t distribution with 2
# degrees of freedom has a closed form).  a: 10, 12 for every operation;
# b: Write 20, 22 (t = 7.07, p = 0.0194), Allocation 14.5, 16.5 (t = 3.18,
# p = 0.0862), Read 13, 15 (t = 2.12, p = 0.1680).  Benjamini-Hochberg over
# the three: 0.0194 * 3 / 1 = 0.0583, 0.0862 * 3 / 2 = 0.1293, 0.1680:
# only Write stays below 0.10; each on its own (--p-adjust none) Write and
# Allocation are marked.
test_expect_success '--p-adjust: Benjamini-Hochberg over a kernel'\''s mean rows (by hand)' '
	printf "p95-Write %s\np95-Allocation %s\np95-Read %s\n" 10 10 10 >a1.txt &&
	printf "p95-Write %s\np95-Allocation %s\np95-Read %s\n" 12 12 12 >a2.txt &&
	printf "p95-Write %s\np95-Allocation %s\np95-Read %s\n" 20 14.5 13 >b1.txt &&
	printf "p95-Write %s\np95-Allocation %s\np95-Read %s\n" 22 16.5 15 >b2.txt &&
	import h.db a a1.txt && import h.db a a2.txt && import h.db b b1.txt && import h.db b b2.txt &&
	"$VR" compare --width 0 -d h.db --stats Amean --format csv >out.csv &&
	python3 - out.csv <<-\PY &&
	import csv, math, sys
	rows = {r["operation"]: r for r in csv.DictReader(open(sys.argv[1])) if r["kernel"] == "b"}
	def p2(d, s2a, s2b):	# Welch, 2 and 2 values: df = 2 when the variances are equal
	    t = d / math.sqrt(s2a / 2 + s2b / 2)
	    return 1 - t / math.sqrt(t * t + 2)
	p = {"p95-Write": p2(10, 2, 2), "p95-Allocation": p2(4.5, 2, 2), "p95-Read": p2(3, 2, 2)}
	order = sorted(p, key=p.get)
	adj, run = {}, 1.0
	for rank in range(len(order), 0, -1):
	    run = min(run, p[order[rank - 1]] * len(order) / rank)
	    adj[order[rank - 1]] = run
	for op in p:
	    assert abs(float(rows[op]["p"]) - p[op]) < 1e-9, (op, rows[op]["p"], p[op])
	    assert abs(float(rows[op]["p_adj"]) - adj[op]) < 1e-9, (op, rows[op]["p_adj"], adj[op])
	    assert rows[op]["significant"] == ("1" if adj[op] < 0.10 else "0"), op
	assert [op for op in p if adj[op] < 0.10] == ["p95-Write"]
	PY
	"$VR" compare --width 0 -d h.db --stats Amean >out &&
	grep -q "^Amean    p95-Write .*\*-90.91%\*$" out &&
	grep -q "^Amean    p95-Allocation .*(-40.91%)$" out &&
	"$VR" compare --width 0 -d h.db --stats Amean --p-adjust none >out &&
	grep -q "^Amean    p95-Allocation .*\*-40.91%\*$" out &&
	grep -q "^Amean    p95-Read .*(-27.27%)$" out &&
	grep -q "where p < 0.1, each row on its own;" out &&
	test_expect_code 2 "$VR" compare -d h.db --p-adjust holm &&
	test_expect_code 2 "$VR" compare -d h.db --significance ci --p-adjust none 2>err &&
	grep -q "(mmtests. interval rule) has none to adjust" err
'
# The test's unit is the run: a: runs of 10 x 4 and 12 x 4, b: 13 x 4 and
# 15 x 4.  On the 8 samples a side (one run each, mmtests' way) the
# difference 3 would be t = 3 / sqrt(2 * 1.143 / 8) = 5.6, p < 0.001; on the
# two run means a side t = 3 / sqrt(2 / 2 + 2 / 2) = 2.12, df 2, p = 0.1680:
# not marked.  With one run a kernel the samples are all there is.
test_expect_success 'samples of one run are not independent: the test takes one value per run' '
	printf "p95-Write 10\n%.0s" 1 2 3 4 >a1.txt && printf "p95-Write 12\n%.0s" 1 2 3 4 >a2.txt &&
	printf "p95-Write 13\n%.0s" 1 2 3 4 >b1.txt && printf "p95-Write 15\n%.0s" 1 2 3 4 >b2.txt &&
	import r.db a a1.txt && import r.db a a2.txt && import r.db b b1.txt && import r.db b b2.txt &&
	"$VR" compare --width 0 -d r.db --stats Amean --format csv >out.csv &&
	p=$(awk -F, "\$4 == \"b\" { print \$7 }" out.csv) &&
	python3 -c "import math, sys; t = 3 / math.sqrt(2); assert abs(float(sys.argv[1]) - (1 - t / math.sqrt(t * t + 2))) < 1e-9, sys.argv[1]" "$p" &&
	grep -q ",0,,values,8,2,," out.csv &&
	cat a1.txt a2.txt >a.txt && cat b1.txt b2.txt >b.txt &&
	"$VR" compare --width 0 --stats Amean --format csv a=a.txt b=b.txt >one.csv &&
	grep -q "^latency,Amean,p95-Write,b,14,-27.27[0-9]*,6.4030[0-9]*e-05,1,,values,8,1," one.csv
'

# a has two runs (10 x 4, 12 x 4), b values in one run only (13 x 4, 15 x 4
# as one report): b is one value, no test, though the 8 samples a side
# would give p = 6.4e-05 (found by newuser on the lab: a kernel whose
# latency was imported for one run was tested on its samples)
test_expect_success 'one kernel with values in one run: no test, not its samples' '
	printf "p95-Write 10\n%.0s" 1 2 3 4 >a1.txt && printf "p95-Write 12\n%.0s" 1 2 3 4 >a2.txt &&
	{ printf "p95-Write 13\n%.0s" 1 2 3 4; printf "p95-Write 15\n%.0s" 1 2 3 4; } >b1.txt &&
	import m.db a a1.txt && import m.db a a2.txt && import m.db b b1.txt &&
	"$VR" compare --width 0 -d m.db --stats Amean --format csv >out.csv &&
	grep -qx "latency,Amean,p95-Write,b,14,-27.272727272727266,,0,,values,8,1,," out.csv
'

test_done
