#!/usr/bin/env bash
# compare on the recorded samples (samples/wsf<factor>-<i>.dat and
# .latency.txt, two vm.watermark_scale_factor settings x 3 iterations):
# the table's numbers match the derived tables queried directly and the
# latency reports parsed independently (tests/check-compare.py).
. "$(dirname "$0")/lib.sh"
sdir=${VR_SAMPLES_DIR:-$TOP/samples}
settings=$(ls "$sdir"/wsf*-*.dat 2>/dev/null | sed 's|.*/\(wsf[0-9]*\)-.*|\1|' | sort -u -V)

test_expect_success 'samples of two settings exist' '
	test $(echo $settings | wc -w) -ge 2
'
load_samples() {
	for s in $settings; do
		"$VR" load -q -d s.db --kernel $s "$sdir"/$s-*.dat || return 1
		for f in "$sdir"/$s-*.latency.txt; do
			[ -f "$f" ] || continue
			i=$(basename "$f" .latency.txt); i=${i##*-}
			"$VR" import-latency -q -d s.db --kernel $s --iteration $i "$f" || return 1
		done
	done
}
test_expect_success 'compare between the settings matches the tables queried directly' '
	load_samples &&
	"$VR" compare -d s.db --stats Amean,Min,Max,Pctile-95,BAmean-95 --format csv >out.csv &&
	args="" &&
	for s in $settings; do
		for f in "$sdir"/$s-*.latency.txt; do [ -f "$f" ] && args="$args $f=$s"; done
	done &&
	python3 "$TOP/tests/check-compare.py" s.db out.csv $args >check.out && cat check.out &&
	grep -q "zero: [1-9]" check.out &&
	"$VR" compare -d s.db >out.txt &&
	grep -q "^Amean  *p95-DirectReclaim\[1\] " out.txt &&
	grep -q "^Direct reclaim stalls complete  *[0-9]" out.txt
'
test_expect_success 'a counter is one number under one name in summary, compare and the chart' '
	load_samples &&
	"$VR" summary -d s.db >sum.txt &&
	"$VR" compare -d s.db >cmp.txt &&
	"$VR" chart -d s.db -T counters --dump-data >dump.txt &&
	python3 "$TOP/tests/check-counters.py" s.db sum.txt cmp.txt dump.txt
'
test_expect_success 'README lists every counter of the definitions table, as it says' '
	"$BUILD/cmd-doc" counters | sed "s/cgroup %s/cgroup ID/; s/%s/FLAG/" |
		awk -F"\t" "{print \"| \" \$1 \" | \" \$2 \" | \" \$3 \" |\"}" >rows &&
	test $(wc -l <rows) -ge 20 &&
	while read -r n; do
		grep -qxF "$n" "$TOP/README.md" || { echo "README lacks: $n"; exit 1; }
	done <rows
'
# index.md opens with the headline: the latency rows compare.txt marks
# significant (*gain%*), found here by a regex over compare.txt, then the
# counters; no picture before it
test_expect_success 'report: index.md starts with the headline table, before any picture' '
	load_samples &&
	"$VR" report -d s.db -o b --p-adjust none &&
	grep -E "^Amean .*\*[ -]*[0-9.]+%\*" b/compare.txt | tr -s " " >marked &&
	test -s marked &&
	sed -n "/^## Headline/,/^Unit:/p" b/index.md | grep -E "^Amean " | tr -s " " >headline &&
	test_cmp marked headline &&
	head=$(grep -n "^## Headline" b/index.md | cut -d: -f1) &&
	pic=$(grep -n "^!\[" b/index.md | head -1 | cut -d: -f1) &&
	test "$head" -lt "$pic" &&
	sed -n "/^## Headline/,/^## /p" b/index.md | grep -q "^Kswapd running %  *[0-9]" &&
	! grep -q "^Stddev\|^Max " b/index.md
'
# the headline keeps of compare.txt's notes the unit and the test line (and
# says so), not the notes on samples missing per kernel
test_expect_success 'report: the headline keeps the unit and test notes only' '
	load_samples &&
	"$VR" report -q -d s.db -o b --p-adjust none &&
	grep -q "samples in [0-9]* runs" b/compare.txt &&
	sed -n "/^## Headline/,/^## /p" b/index.md >head.md &&
	grep -q "with the notes needed to read them (unit, test)" head.md &&
	for n in "^Unit: " "^Significance: "; do
		test "$(grep "$n" head.md)" = "$(grep "$n" b/compare.txt)" || exit 1
	done &&
	! grep -q "samples in\|^inf%" head.md
'
# issue 26 item 7: a mail is 80 columns; compare's text, compare.txt and
# the headline's table keep to it on the samples (three runs of two settings)
test_expect_success 'compare, compare.txt and the headline fit 80 columns' '
	load_samples &&
	"$VR" compare -d s.db >c.txt && "$VR" compare -d s.db --ci >ci.txt &&
	"$VR" report -q -d s.db -o b &&
	awk "/^## Headline/ { h = 1 } h && /^\\140\\140\\140/ { n++; next } h && n == 1" b/index.md >head.txt &&
	test -s head.txt &&
	for f in c.txt ci.txt b/compare.txt head.txt; do
		! awk "length(\$0) > 80 { print FILENAME \": \" length(\$0) \": \" \$0; bad = 1 } END { exit !bad }" $f ||
		exit 1
	done
'
# The default adjusts: each kernel's p-values (CSV p, not adjusted) taken
# through Benjamini-Hochberg here, in Python, give the rows compare marks;
# on these three runs a kernel none is left, and the headline says so
test_expect_success 'the marks are the rows whose Benjamini-Hochberg p < 0.10 (recomputed)' '
	load_samples &&
	"$VR" compare -d s.db --format csv >out.csv &&
	python3 - out.csv <<-\PY &&
	import csv, sys
	rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["table"] == "latency" and r["p"]]
	for k in {r["kernel"] for r in rows}:
	    mine = sorted((float(r["p"]), i) for i, r in enumerate(rows) if r["kernel"] == k)
	    m, adj, run = len(mine), {}, 1.0
	    for rank in range(m, 0, -1):
	        p, i = mine[rank - 1]
	        run = min(run, p * m / rank)
	        adj[i] = run
	    for i, q in adj.items():
	        assert abs(float(rows[i]["p_adj"]) - q) < 1e-9, (rows[i], q)
	        assert rows[i]["significant"] == ("1" if q < 0.10 else "0"), rows[i]
	    assert sum(float(r["p"]) < 0.10 for r in rows if r["kernel"] == k) > 0
	PY
	"$VR" report -q -d s.db -o b &&
	grep -q "^No latency mean differs significantly" b/index.md
'

test_done
