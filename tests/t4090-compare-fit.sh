#!/usr/bin/env bash
# Fits a mail (issue 26 item 7): compare's text and index.md's headline are
# at most 80 columns: kernels in blocks after the baseline, notes wrapped,
# long names shortened alike everywhere with a legend; --width 0 keeps the
# old one-block table.  And --print-ratio (item 5), worked out by hand.
. "$(dirname "$0")/lib.sh"
D="$TOP/tests/data/compare"

widest() { awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$1"; }

# Four kernels at the 2017 widths (29 + 4 x 22 = 117 columns): blocks of the
# baseline and one more kernel (29 + 2 x 22 = 73; a third would make 95),
# each headed by the baseline; the interval and note lines wrapped.
test_expect_success 'four kernels: blocks of the baseline and what fits, every line <= 80' '
	"$VR" compare --ci base="$D/base.latency.txt" worse="$D/worse.latency.txt" \
		similar="$D/similar.latency.txt" again="$D/worse.latency.txt" >out &&
	test $(widest out) -le 80 &&
	test $(grep -c "^ *base  *worse$" out) = 1 &&
	test $(grep -c "^ *base  *similar$" out) = 1 &&
	test $(grep -c "^ *base  *again$" out) = 1 &&
	test $(grep -c "^Amean  *p95-Write  *11.50 (  0.00%)  *22.00 \*-91.30%\*$" out) = 2 &&
	grep -q "^Significance: Welch.s t-test (two-sided), marked on mean rows where p < 0.1$" out &&
	grep -q "^    after Benjamini-Hochberg over a kernel.s mean rows, the 1 tested; on one$" out &&
	grep -q "^    more, else (one run each) on the samples; none with fewer than two values$" out &&
	"$VR" compare --width 0 --ci base="$D/base.latency.txt" worse="$D/worse.latency.txt" \
		similar="$D/similar.latency.txt" again="$D/worse.latency.txt" >wide &&
	test $(widest wide) -gt 80 && test $(grep -c "^ *base  *worse  *similar  *again$" wide) = 1 &&
	test_expect_code 2 "$VR" compare --width 30 base="$D/base.latency.txt"
'
# final-p95-KswapdWakeupDelay (27 characters) with values of 9 digits: the
# label (9 + 27) and two 23-wide columns make 82; shortened to
# final-p95-KsWakeDelay, 76.  The headline (its only row, marked) names it
# the same way.
test_expect_success 'a name too long is shortened the same way in compare.txt and the headline' '
	for v in 123456789.01 123456780.5 123456799.25 123456785; do
		echo "final-p95-KswapdWakeupDelay $v"; done >s1.txt &&
	for v in 223456789.01 223456780.5 223456799.25 223456785; do
		echo "final-p95-KswapdWakeupDelay $v"; done >s2.txt &&
	"$VR" compare --stats Amean a=s1.txt b=s2.txt >out &&
	test $(widest out) -le 80 &&
	grep -q "^Amean    final-p95-KsWakeDelay 123456788.44 (  0.00%) 223456788.44 \*-81.00%\*$" out &&
	grep -qx "Shortened: KsWakeDelay = KswapdWakeupDelay" out &&
	"$VR" import-latency -q -d r.db --kernel a s1.txt && "$VR" import-latency -q -d r.db --kernel b s2.txt &&
	"$VR" report -q -d r.db -o rep &&
	test $(widest rep/compare.txt) -le 80 &&
	grep -q "^Amean     final-p95-KsWakeDelay " rep/compare.txt &&
	sed -n "/^## Headline/,/^## /p" rep/index.md >head.md &&
	sed -n "/^\`\`\`$/,/^\`\`\`$/p" head.md >block &&
	test $(widest block) -le 80 &&
	grep -q "^Amean    final-p95-KsWakeDelay " block &&
	grep -qx "Shortened: KsWakeDelay = KswapdWakeupDelay" block
'
# a: p95-Write 10 12 11 13 (mean 11.5), Ops 100 110 90 105 (a throughput:
# Hmean 100.69); b: 20 22 21 25 (22), Ops 120 130 125 118 (123.08).  The
# table is Lower (not every operation is higher-is-better): Ratio p95-Write
# 22/11.5 = 1.91, gain 100 - 191.30 = -91.30; Ops inverted, 100.69/123.08 =
# 0.82, gain 18.19; Gmean sqrt(1.913 * 0.818) = 1.25.  b alone has
# p95-Read: no ratio ("-"), left out of b's Gmean, said in its footnote.
test_expect_success '--print-ratio: Ratio rows and Gmean, as compare-mmtests.pl --print-ratio' '
	printf "p95-Write 10\np95-Write 12\np95-Write 11\np95-Write 13\nOps 100\nOps 110\nOps 90\nOps 105\n" >a.txt &&
	printf "p95-Write 20\np95-Write 22\np95-Write 21\np95-Write 25\nOps 120\nOps 130\nOps 125\nOps 118\np95-Read 7\n" >b.txt &&
	"$VR" compare --print-ratio --higher-is-better Ops --format csv a=a.txt b=b.txt >out.csv &&
	"$VR" compare --print-ratio --higher-is-better Ops a=a.txt b=b.txt >out &&
	python3 - <<-\PY &&
	import csv, math, statistics
	rows = {(r["stat"], r["operation"], r["kernel"]): r for r in csv.DictReader(open("out.csv"))}
	w = 22 / 11.5
	o = statistics.harmonic_mean([100, 110, 90, 105]) / statistics.harmonic_mean([120, 130, 125, 118])
	for (st, op, k), want, gain in ((("Ratio", "p95-Write", "b"), w, 100 - w * 100),
	                                 (("Ratio", "Ops", "b"), o, 100 - o * 100),
	                                 (("Ratio", "Ops", "a"), 1, 0),
	                                 (("Gmean", "Lower", "b"), math.sqrt(w * o), None),
	                                 (("Gmean", "Lower", "a"), 1, None)):
	    r = rows[(st, op, k)]
	    assert abs(float(r["value"]) - want) < 1e-9, (r, want)
	    assert (r["gain_pct"] == "") if gain is None else abs(float(r["gain_pct"]) - gain) < 1e-9, r
	assert rows[("Ratio", "p95-Read", "b")]["value"] == "", rows[("Ratio", "p95-Read", "b")]
	assert "b over 2 of 3 operations" in rows[("Gmean", "Lower", "b")]["note"]
	PY
	grep -q "^Ratio    p95-Write  *1.00 (  0.00%)  *1.91 (-91.30%)$" out &&
	grep -q "^Ratio    Ops  *1.00 (  0.00%)  *0.82 ( 18.19%)$" out &&
	grep -q "^Gmean    Lower\[2\]  *1.00  *1.25$" out &&
	! grep -q "^Amean\|^Min " out
'
test_done
