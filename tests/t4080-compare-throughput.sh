#!/usr/bin/env bash
# Throughput (issue 26 item 5): imported metrics declared higher-is-better
# get the statistics compare-mmtests.pl prints for a preferred value of
# Higher (Hmean, HStddev, HCoeffVar, BHmean-NN: Summarise.pm runStatFunc
# maps "_mean" to hmean) with pdiff gains; import-latency skips a workload's
# banner lines, with one warning.  Expected values from Python's statistics
# module and mmtests' formulas written out here (Stat.pm calc_stddev).
. "$(dirname "$0")/lib.sh"

# a: 100 110 90 105, b: 120 130 125 118 operations per second.
test_expect_success '--higher-is-better: Hmean, HStddev, HCoeffVar, BHmean-95 and pdiff gains' '
	printf "Ops 100\nOps 110\nOps 90\nOps 105\n" >a.txt &&
	printf "Ops 120\nOps 130\nOps 125\nOps 118\n" >b.txt &&
	"$VR" compare --higher-is-better Ops a=a.txt b=b.txt >out &&
	"$VR" compare --higher-is-better Ops --layout mmtests a=a.txt b=b.txt >out.mm &&
	python3 - <<-\PY
	import math, statistics
	a, b = [100, 110, 90, 105], [120, 130, 125, 118]
	def hstd(v):  # Stat.pm calc_stddev, meanname hmean
	    h = statistics.harmonic_mean(v)
	    return math.sqrt(sum((1 / x - 1 / h) ** 2 for x in v) * h ** 4 / len(v))
	def stats(v):
	    best = sorted(v, reverse=True)[:max(1, math.floor(len(v) * 95 / 100))]
	    h = statistics.harmonic_mean(v)
	    return {"Min": min(v), "Hmean": h, "HStddev": hstd(v),
	            "HCoeffVar": hstd(v) * 100 / h, "Max": max(v),
	            "BHmean-95": statistics.harmonic_mean(best)}
	sa, sb = stats(a), stats(b)
	lines = open("out").read().split("\n")
	mm = open("out.mm").read().split("\n")
	for st in ("Min", "Hmean", "HStddev", "HCoeffVar", "Max", "BHmean-95"):
	    lower = st in ("HStddev", "HCoeffVar")  # mmtests stat_compare: pndiff
	    g = 100 - sb[st] * 100 / sa[st] if lower else sb[st] * 100 / sa[st] - 100
	    want = "%-9s %-20s%12.2f (%6.2f%%)%12.2f" % (st, "Ops", sa[st], 0, sb[st])
	    row = [l for l in lines if l.startswith(st + " ")]
	    assert len(row) == 1 and row[0].startswith(want), (st, row, want)
	    assert ("(%6.2f%%)" % g) in row[0] or ("*%6.2f%%*" % g) in row[0], (row, g)
	    mst = st.replace("BHmean-95", "BHmean.95")
	    assert any(l.startswith(mst + " ") for l in mm), (mst, mm)
	assert not any(l.startswith(("Amean", "Stddev", "CoeffVar", "BAmean")) for l in lines), lines
	PY
'
test_expect_success 'Amean and Hmean asked for together: both, Amean arithmetic' '
	printf "Ops 100\nOps 110\nOps 90\nOps 105\n" >a.txt &&
	printf "Ops 120\nOps 130\nOps 125\nOps 118\n" >b.txt &&
	"$VR" compare --higher-is-better Ops --stats Amean,Hmean a=a.txt b=b.txt >out &&
	grep -q "^Amean    Ops  *101.25 (  0.00%)  *123.25 \*" out &&
	grep -q "^Hmean    Ops  *100.69 (  0.00%)  *123.08 \* 22.23%\*$" out &&
	test $(grep -c "^Hmean " out) = 1
'
test_expect_success 'import-latency skips lines that are not samples, with one warning' '
	printf "simoop v2 starting\nRunning 16 threads for 60s\np95-Write 5\nWarmup done\np95-Write 7\n" >ban.txt &&
	"$VR" import-latency -d b.db --kernel k ban.txt >out 2>err &&
	grep -q "(2 latency samples, new run)" out &&
	test $(wc -l <err) = 1 &&
	grep -qxF "vmscan-report: warning: ban.txt: 3 lines are not samples and were skipped (the first: line 1)" err &&
	test "$(sqlite3 b.db "SELECT group_concat(value) FROM app_latency")" = "5.0,7.0" &&
	printf "p95-Write 5\np95-Write 1x3\n" >bad.txt &&
	test_expect_code 1 "$VR" import-latency -d b.db --kernel k2 bad.txt 2>err &&
	grep -q "^vmscan-report: bad.txt:2: " err &&
	"$VR" compare --stats Amean k=ban.txt 2>err >out &&
	grep -q "warning: ban.txt: 3 lines are not samples" err
'
test_done
