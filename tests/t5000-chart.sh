#!/usr/bin/env bash
# chart and report on a fabricated database (tests/unit/test-chart.c writes
# it with --fixture; its rows and the values worked out by hand from them
# are described there).  Files are checked for what they claim to be: PNG
# signature and IHDR size, SVG parsed by python3's xml.etree, PDF header.
. "$(dirname "$0")/lib.sh"

FIXTURE="$BUILD/unit/test-chart"

# check_image FILE [WIDTH HEIGHT]: valid PNG (of that size), SVG or PDF.
check_image() {
	python3 - "$@" <<'EOF'
import struct, sys, xml.etree.ElementTree as ET
path = sys.argv[1]
data = open(path, 'rb').read()
if path.endswith('.png'):
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    assert data[12:16] == b'IHDR'
    w, h = struct.unpack('>II', data[16:24])
    if len(sys.argv) > 2:
        assert (w, h) == (int(sys.argv[2]), int(sys.argv[3])), (w, h)
    assert data[-8:-4] == b'IEND', 'truncated PNG'
elif path.endswith('.svg'):
    root = ET.fromstring(data)
    assert root.tag.endswith('svg'), root.tag
    if len(sys.argv) > 2:
        assert root.get('width').startswith(sys.argv[2]), root.get('width')
elif path.endswith('.pdf'):
    assert data[:5] == b'%PDF-', 'not a PDF'
    assert b'%%EOF' in data[-32:], 'truncated PDF'
else:
    raise SystemExit('unknown type ' + path)
EOF
}

test_expect_success 'every kind renders to PNG, SVG and PDF' '
	"$FIXTURE" --fixture f.db &&
	for ext in png svg pdf; do
		"$VR" chart -d f.db --kind timeline --run 1 -o t.$ext &&
		check_image t.$ext 800 600 &&
		"$VR" chart -d f.db --kind latency --metric DirectReclaim -o l.$ext &&
		check_image l.$ext 800 600 &&
		"$VR" chart -d f.db --kind cdf --metric DirectReclaim -o c.$ext &&
		check_image c.$ext 800 600 &&
		"$VR" chart -d f.db --kind counters -o n.$ext &&
		check_image n.$ext 800 600 || exit 1
	done
'
test_expect_success 'size options' '
	"$FIXTURE" --fixture f.db &&
	"$VR" chart -d f.db -T timeline -r 1 -W 1200 -H 700 -o t.png &&
	check_image t.png 1200 700 &&
	"$VR" chart -d f.db -T latency -m DirectReclaim --width 400 --height 320 -o l.svg &&
	check_image l.svg 400 320
'
test_expect_success 'a timeline of three nodes grows to 830 px unless -H is given' '
	"$FIXTURE" --fixture f.db &&
	python3 -c "
import sqlite3
db = sqlite3.connect(\"f.db\")
for nid in (1, 2):
    db.execute(\"INSERT INTO kswapd_cycle (run_id, nid, wake_ns, decision, complete)\"
               \" VALUES (1, ?, 2000000000, \x27unknown\x27, 0)\", (nid,))
db.commit()" &&
	"$VR" chart -d f.db -T timeline -r 1 -o t.png && check_image t.png 800 830 &&
	"$VR" chart -d f.db -T timeline -r 1 -H 600 -o t.png && check_image t.png 800 600 &&
	"$VR" chart -d f.db -T timeline -r 1 --dump-data >out &&
	grep -c "^node" out >n && echo 3 >expect && test_cmp expect n
'
# the legend: what the lines below draw (no unknown state, no premature
# sleep, no kswapd rate in the window)
test_expect_success 'timeline data of run 1, node 0, 2..3.5 s' '
	"$FIXTURE" --fixture f.db &&
	"$VR" chart -d f.db -T timeline -r 1 -n 0 --from 2 --to 3.5 --dump-data >out &&
	cat >expect <<-EOF &&
	timeline run 1 kernel 4.11.0-vanilla iteration 1 duration_s 10
	window_s 2 3.5 bin_s 0.02
	legend awake napping asleep WRITEBACK stall_direct rate_others
	node 0
	kswapd asleep 2 3
	kswapd awake 3 3.2
	kswapd napping 3.2 3.25
	kswapd awake 3.25 3.5
	flag PGDAT_DIRTY note never set
	flag PGDAT_WRITEBACK set 2 3
	flag CONGESTED note never set
	stall 2.5 2 direct
	rate 2.5 kswapd 0 direct 500
	EOF
	test_cmp expect out
'
test_expect_success 'timeline with an explicit bin width' '
	"$FIXTURE" --fixture f.db &&
	"$VR" chart -d f.db -T timeline -r 1 --bin 1 --dump-data >out &&
	grep "^rate" out >got &&
	printf "rate 1 kswapd 64 direct 0\nrate 2 kswapd 0 direct 10\n" >expect &&
	test_cmp expect got
'
# A text trace of 3000 kswapd cycles of 1 ms (woken every 1 ms, asleep after
# 0.5 ms, reclaiming 1 to 13 pages) in 3 s, drawn on an 800 px wide SVG: the
# spans of one colour that touch once a pixel wide are filled as one (one
# path a span was 6000 in the kswapd band alone), and --bin 0.0001 (30,000
# bins) draws the rate by columns of about a pixel (a step a bin was two
# points each: 60,000); the data keep every bin.
many_cycles() {
	awk 'BEGIN {
		for (i = 0; i < 3000; i++) {
			t = 1 + i * 0.001
			printf "     kswapd0-50    [000] .....  %.6f: mm_vmscan_kswapd_wake: nid=0 order=0\n", t
			printf "     kswapd0-50    [000] .....  %.6f: mm_vmscan_lru_shrink_inactive: nid=0" \
			       " nr_scanned=%d nr_reclaimed=%d nr_dirty=0 nr_writeback=0 nr_congested=0" \
			       " nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0" \
			       " nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n",
			       t + 0.0002, (i * 7) % 13 + 1, (i * 7) % 13 + 1
			printf "     kswapd0-50    [000] .....  %.6f: mm_vmscan_kswapd_sleep: nid=0\n", t + 0.0005
		}
	}' >cycles.txt
}

# svg_paths FILE: the number of paths, then the most line points in one.
svg_paths() {
	python3 - "$1" <<-'EOF'
	import re, sys
	paths = re.findall(r' d="([^"]*)"', open(sys.argv[1]).read())
	print(len(paths), max(p.count(' L ') for p in paths))
	EOF
}

test_expect_success 'timeline of 3000 cycles: spans merged per pixel, the rate by pixel columns' '
	many_cycles && "$VR" load -q -d c.db cycles.txt &&
	test "$(sqlite3 c.db "SELECT count(*) FROM kswapd_cycle")" -ge 2999 &&
	"$VR" chart -d c.db -T timeline -r 1 --bin 0.0001 --dump-data >dump &&
	grep -q " bin_s 0.0001$" dump && test "$(grep -c "^rate " dump)" = 3000 &&
	"$VR" chart -d c.db -T timeline -r 1 --bin 0.0001 -o t.svg && check_image t.svg 800 &&
	set -- $(svg_paths t.svg) && echo "$1 paths, at most $2 points" &&
	test "$1" -lt 1000 && test "$2" -le 4800
'

test_expect_success 'latency candles: per-run p50 2000 and 3000 us for vanilla' '
	"$FIXTURE" --fixture f.db &&
	"$VR" chart -d f.db -T latency -m DirectReclaim --dump-data >out &&
	grep -q "^candle p50 4.11.0-vanilla n 2 min 2000 box_lo 2000 mean 2500 box_hi 3000 max 3000 stddev 707.107$" out &&
	grep -q "^candle max 4.11.0-patched n 1 min 500 box_lo 500 mean 500 box_hi 500 max 500 stddev 0$" out
'
test_expect_success 'cdf data: all samples per kernel' '
	"$FIXTURE" --fixture f.db &&
	"$VR" chart -d f.db -T cdf -m DirectReclaim --dump-data >out &&
	cat >expect <<-EOF &&
	cdf metric DirectReclaim unit us
	series 4.11.0-vanilla n 5 min 1000 median 3000 max 20000
	series 4.11.0-patched n 1 min 500 median 500 max 500
	EOF
	test_cmp expect out
'
# vanilla: run 1 has 2 complete direct stalls (2 + 20 ms) and 1 incomplete,
# run 2 has 3 complete (1 + 3 + 5 ms); patched: run 3 one of 0.5 ms.
test_expect_success 'counters data: direct stalls per kernel (mean over runs)' '
	"$FIXTURE" --fixture f.db &&
	"$VR" chart -d f.db -T counters --dump-data >out &&
	grep -q "^counter Direct reclaim stalls complete \[count\] 4.11.0-vanilla mean 2.5$" out &&
	grep -q "^counter Direct reclaim stalls incomplete \[count\] 4.11.0-vanilla mean 0.5$" out &&
	grep -q "^counter Direct reclaim stall time \[ms\] 4.11.0-vanilla mean 15.5$" out &&
	grep -q "^counter Direct reclaim stalls complete \[count\] 4.11.0-patched mean 1$" out &&
	grep -q "^counter Direct reclaim stalls incomplete \[count\] 4.11.0-patched mean 0$" out
'
test_expect_success 'empty data gives a picture with a message, not an error' '
	"$FIXTURE" --fixture f.db &&
	"$VR" chart -d f.db -T latency -m SlabShrink -o e.png && check_image e.png 800 600 &&
	"$VR" chart -d f.db -T timeline -r 2 -o e.svg && check_image e.svg &&
	"$VR" chart -d f.db -T cdf -m SlabShrink -o e.pdf && check_image e.pdf
'
test_expect_success 'usage errors exit 2' '
	"$FIXTURE" --fixture f.db &&
	test_expect_code 2 "$VR" chart -d f.db -T pie -o x.png 2>err &&
	grep -q "unknown kind" err &&
	test_expect_code 2 "$VR" chart -d f.db -T timeline -o x.png 2>err &&
	grep -q "needs --run" err &&
	test_expect_code 2 "$VR" chart -d f.db -T latency -o x.png 2>err &&
	test_expect_code 2 "$VR" chart -d f.db -T counters -o x.gif 2>err &&
	grep -q "x.gif: unknown chart format" err &&
	test_expect_code 2 "$VR" chart -d f.db -T counters -W 10 -o x.png &&
	test_expect_code 2 "$VR" chart -d f.db -T timeline -r 1 --from -1 -o x.png &&
	test_expect_code 2 "$VR" chart -d f.db -T counters &&
	test_expect_code 2 "$VR" chart -d f.db -T timeline -r 1 --bin 0 -o x.png 2>err &&
	grep -q "bad value .0. for --bin" err &&
	test ! -e x.png
'
# The fixture has trace metrics and the imported operations p95-Write,
# max-Write (metric Write) and final-p95-Write (metric final-Write).
test_expect_success 'unknown metric names exit 2 and list the known ones' '
	"$FIXTURE" --fixture f.db &&
	for m in Nope directreclaim p95-Nope; do
		test_expect_code 2 "$VR" chart -d f.db -T latency -m $m -o x.png 2>err &&
		grep -q "^vmscan-report: unknown metric .$m." err &&
		grep -q "^known metrics: trace metrics DirectReclaim .* SlabShrink; imported metrics Write final-Write$" err &&
		test "$(tail -1 err)" = "see '\''vmscan-report chart -h'\''" || exit 1
	done &&
	test_expect_code 2 "$VR" chart -d f.db -T latency -m directreclaim -o x.png 2>err &&
	grep -q "did you mean .DirectReclaim." err &&
	test_expect_code 2 "$VR" chart -d f.db -T cdf -m directreclaim -o x.png 2>err &&
	grep -q "unknown metric .directreclaim." err &&
	test_expect_code 2 "$VR" chart -d f.db -T cdf -m Write -o x.png 2>err &&
	grep -q "is an imported metric" err &&
	test ! -e x.png
'
# p95-Write is the row compare prints: charted as metric Write, whose
# candles are p95 (run 1's reports: 100 and 200, mean 150) and max (900).
test_expect_success 'an operation name is charted as its metric' '
	"$FIXTURE" --fixture f.db &&
	"$VR" chart -d f.db -T latency -m p95-Write --dump-data >out 2>err &&
	grep -q "charting metric .Write." err &&
	grep -q "^latency metric Write unit as reported$" out &&
	grep -q "^candle p95 4.11.0-vanilla n 2 min 100 .* mean 150 .* max 200 " out &&
	grep -q "^candle max 4.11.0-vanilla n 1 min 900 " out &&
	"$VR" chart -d f.db -T cdf -m max-DirectReclaim --dump-data >out 2>err &&
	grep -q "^cdf metric DirectReclaim unit us$" out
'
test_expect_success 'runtime errors exit 1' '
	"$FIXTURE" --fixture f.db &&
	ids=$(sqlite3 f.db "SELECT id FROM run ORDER BY id" | awk "
		NR > 1 && \$1 != prev + 1 { add(first, prev); first = \$1 }
		NR == 1 { first = \$1 }
		{ prev = \$1 }
		END { add(first, prev); print out }
		function add(a, b) { out = out (out == \"\" ? \"\" : \", \") (a == b ? a : a \"-\" b) }") &&
	test "$ids" = "1-3" &&
	test_expect_code 1 "$VR" chart -d f.db -T timeline -r 99 -o x.png 2>err &&
	grep -qx "vmscan-report: f.db: no run 99 (its runs: $ids)" err &&
	nodes=$(sqlite3 f.db "SELECT group_concat(nid, \", \") FROM (SELECT nid FROM kswapd_cycle
		WHERE run_id = 1 UNION SELECT nid FROM pgdat_flag WHERE run_id = 1 UNION SELECT nid
		FROM reclaim_stall WHERE run_id = 1 AND nid IS NOT NULL UNION SELECT nid FROM
		mm_vmscan_kswapd_wake WHERE run_id = 1 UNION SELECT nid FROM
		mm_vmscan_lru_shrink_inactive WHERE run_id = 1 AND nid IS NOT NULL ORDER BY 1)") &&
	test -n "$nodes" &&
	test_expect_code 1 "$VR" chart -d f.db -T timeline -r 1 -n 5 -o x.png 2>err &&
	grep -qx "vmscan-report: f.db: run 1 has no data for node 5 (its nodes: $nodes)" err &&
	test_expect_code 1 "$VR" chart -d missing.db -T counters -o x.png &&
	test_expect_code 1 "$VR" chart -d f.db -T counters -o no/such/dir/x.png 2>err &&
	grep -q "no/such/dir/x.png: cannot write the chart: no/such/dir: No such file or directory" err
'
test_expect_success 'report writes the bundle; every image is valid' '
	"$FIXTURE" --fixture f.db &&
	"$VR" report -d f.db -o out &&
	for f in compare.txt compare.md runs.txt summary.txt index.md MANIFEST counters.png \
		 counters.svg latency-DirectReclaim.png cdf-DirectReclaim.svg \
		 latency-KswapdAwake.png timeline-run-1.png timeline-run-3.svg; do
		test -s out/$f || { echo "missing $f"; exit 1; }
	done &&
	for f in out/*.png out/*.svg; do check_image $f || exit 1; done &&
	grep -q "p50-DirectReclaim" out/compare.txt &&
	grep -q "4.11.0-vanilla" out/runs.txt &&
	grep -q "^run 3: 4.11.0-patched" out/summary.txt &&
	grep -q "^## Headline" out/index.md && ! grep -q "^Min  *p50-DirectReclaim" out/index.md &&
	grep -q "(timeline-run-2.png)" out/index.md &&
	grep -q "(compare.txt)" out/index.md
'
test_expect_success 'report on a database without runs: a bundle that says so, exit 0' '
	"$FIXTURE" --fixture f.db &&
	python3 -c "
import sqlite3
db = sqlite3.connect(\"f.db\")
for t in (\"reclaim_stall\", \"kswapd_cycle\", \"app_latency\", \"run_quality\", \"pgdat_flag\",
          \"task\", \"lru_call\", \"run\"):
    db.execute(\"DELETE FROM \" + t)
db.commit()" &&
	"$VR" report -d f.db -o out 2>err &&
	check_image out/counters.png 800 600 &&
	grep -q "no changelog table" out/index.md &&
	grep -q "No latency metric has samples" out/index.md
'
# run 1 is one event (first = last event: no length), run 2 lasts 0.1 s
test_expect_success 'report with a run of no length: the bundle is written, the run says so' '
	printf "     kswapd0-50    [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0\n" >one.txt &&
	printf "%s\n" "     kswapd0-50    [000] .....     2.000000: mm_vmscan_kswapd_wake: nid=0 order=0" \
		"     kswapd0-50    [000] .....     2.100000: mm_vmscan_kswapd_sleep: nid=0" >two.txt &&
	"$VR" load -q -d z.db --kernel 6.18.0 one.txt two.txt &&
	test "$(sqlite3 z.db "SELECT id, last_ts_ns - first_ts_ns FROM run ORDER BY id" | tr "\n" " ")" = "1|0 2|100000000 " &&
	"$VR" report -q -d z.db -o out &&
	check_image out/timeline-run-1.png 800 600 && check_image out/timeline-run-2.png 800 600 &&
	grep -qx "Run 1 has no length: its first and last events are at the same time, so its timeline has no time axis and draws nothing." out/index.md &&
	! grep -q "^Run 2 has no length" out/index.md &&
	"$VR" chart -d z.db -T timeline --run 1 --dump-data >dump &&
	grep -qx "window_s 0 0 bin_s 0.001" dump &&
	"$VR" chart -d z.db -T timeline --run 1 -o t.svg && check_image t.svg &&
	test_expect_code 1 "$VR" chart -d z.db -T timeline --run 1 --to 1 -o t.png 2>err &&
	grep -q "run 1 lasts 0.000 s: --to 1 s is past its end" err
'
test_expect_success 'report re-run replaces its own files and nothing else' '
	"$FIXTURE" --fixture f.db &&
	"$VR" report -d f.db -o out &&
	echo stale >out/latency-Gone.png &&
	echo "$(sha256sum <out/latency-Gone.png | cut -c1-64)  latency-Gone.png" >>out/MANIFEST &&
	echo mine >out/notes.txt &&
	"$VR" report -d f.db -o out &&
	test ! -e out/latency-Gone.png && test -s out/notes.txt &&
	! grep -q notes.txt out/MANIFEST &&
	ls out | grep -v -e notes.txt -e "^MANIFEST$" >files &&
	sed -n "s/^[0-9a-f]\{64\}  //p" out/MANIFEST | sort >listed && test_cmp listed files
'

# report -9: its bundle is written by a child process, which dies with it
# (before: the child went on, and two seconds later renamed a whole bundle
# into the directory of a command that had exited 137)
# index.md names the command that regenerates the bundle: with names a
# shell reads back as they are (a space, a quote, a newline, an ESC, a
# backtick), on one line; the names were printed raw
test_expect_success 'index.md: the command, quoted for a shell, on one line' '
	"$FIXTURE" --fixture "f '\''x.db" &&
	for d in "o'\''k dir" "$(printf "r\nx")" "$(printf "e\033[1mz")" "b\`q" "d\`\`q" plain; do
		"$VR" report -q -d "f '\''x.db" -o "$d" &&
		line=$(grep "^Written by " "$d/index.md") &&
		test "$(grep -c "" "$d/index.md")" -gt 3 &&
		python3 - "$line" "$d" <<-\EOF || exit 1
		import re, subprocess, sys
		line, d = sys.argv[1], sys.argv[2]
		m = re.match(r"Written by (`+) ?(vmscan-report report .*?) ?\1; every file", line)
		assert m and "\033" not in line, line
		# CommonMark: a run of backticks as long as the fence would close the span
		assert max([len(x) for x in re.findall("`+", m.group(2))] + [0]) < len(m.group(1)), line
		got = subprocess.run(["bash", "-c", "printf \"%s\\0\" " + m.group(2)],
		                     capture_output=True, text=True, check=True).stdout.split("\0")[:-1]
		assert got == ["vmscan-report", "report", "-d", "f \x27x.db", "-o", d], got
		EOF
	done
'

# every database and every option that shapes the bundle (before: only the
# first -d and -o; a bundle of two databases trimmed to a kernel and drawn
# 640 px wide was "regenerated" whole, of one database, at 800 px)
test_expect_success 'index.md: its command names every -d and option; run again, the same bundle' '
	"$FIXTURE" --fixture f.db && cp f.db g.db &&
	k=$(sqlite3 f.db "SELECT kernel FROM run ORDER BY id LIMIT 1") &&
	"$VR" report -q -d f.db -d g.db -o out --kernels "$k" -W 640 --stats Amean,Max &&
	line=$(grep "^Written by " out/index.md) &&
	test "$line" = "Written by \`vmscan-report report -d f.db -d g.db -o out --kernels $k --width 640 --stats Amean,Max\`; every file is regenerated by running it again." &&
	test "$(sqlite3 out/evidence.db "SELECT group_concat(source_path) FROM evidence")" = f.db,g.db &&
	cp out/MANIFEST before &&
	cmd=$(echo "$line" | sed "s/^Written by \`vmscan-report \(.*\)\`; every file.*/\1/") &&
	eval "\"\$VR\" $cmd -q" && test_cmp before out/MANIFEST
'

test_expect_success 'report killed with SIGKILL: its writer dies too, nothing renamed into place' '
	"$VR" load -q -d lab.db "$TOP"/samples/lab/vanilla-[1-9].dat 2>/dev/null &&
	{ "$VR" report -q -d lab.db -o b >/dev/null 2>&1 & } && p=$! &&
	for i in $(seq 100); do k=$(pgrep -P $p) && break; sleep 0.02; done &&
	test -n "$k" && kill -KILL $p && { wait $p; test $? = 137; } &&
	for i in $(seq 100); do
		st=$(awk "{ print \$3 }" /proc/$k/stat 2>/dev/null) || break
		test "$st" = Z && break; sleep 0.05
	done &&
	test "${st:-gone}" = Z -o ! -e /proc/$k && sleep 3 &&
	test -z "$(ls b 2>/dev/null)"
'

test_expect_success 'report -o an existing file: exit 1, one message, the file untouched' '
	"$FIXTURE" --fixture f.db &&
	echo keep >notadir &&
	test_expect_code 1 "$VR" report -d f.db -o notadir 2>err &&
	test $(wc -l <err) = 1 &&
	grep -q "^vmscan-report: notadir: cannot write the bundle there: not a directory" err &&
	echo keep >expect && test_cmp expect notadir
'
# tests/data/compare/synthetic.sql's run 1 (0 to 10 ms): direct stalls of
# 1, 2, 3, 4 ms begun at 1, 2, 4, 5 ms (pid 104's has no end: not drawn) and
# an incomplete memcg stall 1 to 2 ms; here a throttling wait of 500 us that
# ended at 6 ms (mm_vmscan_throttled gives the end and usec_delayed).
syn_db() {
	printf "x 1\n" >x.txt &&
	"$VR" import-latency -q -d syn.db --kernel dummy x.txt &&
	sqlite3 syn.db "DELETE FROM app_latency; DELETE FROM run;" &&
	sqlite3 syn.db <"$TOP/tests/data/compare/synthetic.sql" &&
	sqlite3 syn.db "INSERT INTO reclaim_throttle (run_id, kind, pid, nid, reason, begin_ns,
		end_ns, usec_timeout, usec_delayed) VALUES (1, 'throttled', 106, 0,
		'VMSCAN_THROTTLE_WRITEBACK', NULL, 6000000, 100000, 500)"
}
test_expect_success 'timeline: memcg stalls and throttling are drawn beside direct stalls' '
	syn_db &&
	"$VR" chart -d syn.db -T timeline --run 1 --dump-data >out &&
	grep "^stall " out >stalls &&
	cat >expect <<-EOF &&
	stall 0.001 1 direct
	stall 0.001 1 memcg
	stall 0.002 2 direct
	stall 0.004 3 direct
	stall 0.005 4 direct
	stall 0.0055 0.5 throttle
	EOF
	test_cmp expect stalls &&
	"$VR" chart -d syn.db -T timeline --run 1 -o t.png --width 500 --height 400 &&
	check_image t.png 500 400
'
# The legend names what the chart draws: its dump's "legend" line equals
# the set worked out here from the dump's own data lines (kswapd states,
# premature marks, flag colours with a set interval, stall kinds, rate
# lines not 0); a run without direct reclaim has no direct entry.
legend_check() {
	python3 - "$1" <<-'EOF'
	import sys
	lines = open(sys.argv[1]).read().splitlines()
	want = set()
	for l in lines:
	    w = l.split()
	    if w[0] == 'kswapd':
	        want.add(w[1])
	    elif w[0] == 'premature':
	        want.add('premature')
	    elif w[0] == 'flag' and w[2] == 'set':
	        # a band's colour: the first of these words its name has
	        want |= set([f for f in ('DIRTY', 'WRITEBACK', 'CONGESTED') if f in w[1]][:1])
	    elif w[0] == 'stall':
	        want.add('stall_' + w[3])
	    elif w[0] == 'rate':
	        if float(w[3]): want.add('rate_kswapd')
	        if float(w[5]): want.add('rate_others')
	    elif w[0] == 'legend':
	        got = set(w[1:])
	if got != want:
	    sys.exit('legend %s, drawn %s' % (sorted(got), sorted(want)))
	EOF
}
test_expect_success 'timeline: the legend lists what is drawn, no direct stall entry without one' '
	"$FIXTURE" --fixture f.db &&
	"$VR" chart -d f.db -T timeline --run 1 --dump-data >f1 &&
	legend_check f1 && grep -q "^legend .*stall_direct" f1 &&
	printf "%s\n" "     kswapd0-50    [000] .....     2.000000: mm_vmscan_kswapd_wake: nid=0 order=0" \
		"          dd-300   [001] .....     2.030000: mm_vmscan_throttled: nid=0 usec_timeout=10000 usect_delayed=10000 reason=VMSCAN_THROTTLE_CONGESTED" \
		"     kswapd0-50    [000] .....     2.100000: mm_vmscan_kswapd_sleep: nid=0" >thr.txt &&
	"$VR" load -q -d thr.db --kernel 6.18.0 thr.txt &&
	"$VR" chart -d thr.db -T timeline --run 1 --dump-data >t1 &&
	legend_check t1 && grep -q "^legend .*stall_throttle" t1 && ! grep -q "^legend .*stall_direct" t1 &&
	syn_db &&
	"$VR" chart -d syn.db -T timeline --run 1 --dump-data >s1 && legend_check s1
'
test_expect_success 'timeline: --from/--to past the end of the run is an error naming its length' '
	syn_db &&
	test_expect_code 1 "$VR" chart -d syn.db -T timeline --run 1 --to 1 -o t.png 2>err &&
	grep -q "run 1 lasts 0.010 s: --to 1 s is past its end" err &&
	test_expect_code 1 "$VR" chart -d syn.db -T timeline --run 1 --from 0.02 -o t.png 2>err &&
	grep -q "run 1 lasts 0.010 s: --from 0.02 s is past its end" err &&
	test ! -e t.png &&
	"$VR" chart -d syn.db -T timeline --run 1 --from 0.002 --to 0.01 --dump-data >out &&
	grep -q "^window_s 0.002 0.01 " out
'
# report: the bin is the 1-2-5 width giving at most 100 bins over the
# longest run (worked out here), and the rate axis tops at the highest rate
# of any run in bins of that width
test_expect_success 'report: every timeline has the same rate bin and rate axis' '
	"$FIXTURE" --fixture f.db &&
	"$VR" report -d f.db -o bundle &&
	runs=$(sqlite3 f.db "SELECT id FROM run WHERE source_format <> '"'latency'"'") &&
	longest=$(sqlite3 f.db "SELECT max(last_ts_ns - first_ts_ns) FROM run") &&
	bin=$(python3 -c "
import math, sys
L = int(sys.argv[1]) / 1e9
w = min(m * 10.0 ** e for e in range(-3, 6) for m in (1, 2, 5) if math.ceil(L / (m * 10.0 ** e) - 1e-9) <= 100)
print(\"%g\" % w)" $longest) &&
	for r in $runs; do
		"$VR" chart -d f.db -T timeline --run $r --bin $bin --dump-data || exit 1
	done >dumps &&
	top=$(awk "/^rate /{ if (\$4 > m) m = \$4; if (\$6 > m) m = \$6 } END { printf \"%.3g\", m }" dumps) &&
	grep -q "^Every timeline has reclaim-rate bins of $bin s and the same rate axis, whose top is set by the highest rate of any run ($top pages/s)" \
		bundle/index.md
'
# the fixture's direct stalls: vanilla run 1 2 and 20 ms, run 2 1, 3 and 5 ms;
# patched run 3 0.5 ms.  Per-run p50 (nearest rank) 2000, 3000 -> Amean 2500,
# max 20000, 5000 -> 12500; patched 500 as baseline: gain 100 - 2500*100/500
test_expect_success 'report --kernels --metrics --stats trim its tables as compare does' '
	"$FIXTURE" --fixture f.db &&
	"$VR" report -d f.db -o b --kernels 4.11.0-patched,4.11.0-vanilla \
		--metrics DirectReclaim --stats Amean &&
	cat >expect <<-EOF &&
	                                             4.11.0                4.11.0
	                                            patched               vanilla
	Amean    p50-DirectReclaim         500.00 (  0.00%)     2500.00 (-400.00%)
	Amean    p95-DirectReclaim         500.00 (  0.00%)    12500.00 (-2400.00%)
	Amean    p99-DirectReclaim         500.00 (  0.00%)    12500.00 (-2400.00%)
	Amean    max-DirectReclaim         500.00 (  0.00%)    12500.00 (-2400.00%)
	EOF
	grep -v "^Unit:\|^Significance:\|^    [a-z(]" b/compare.txt >got &&
	test_cmp expect got &&
	"$VR" report -d f.db -o b -k 4.11.0-vanilla,4.11.0-patched -m p50-DirectReclaim,counters -s Max &&
	grep -q "^Max      p50-DirectReclaim        3000.00 (  0.00%)      500.00 ( 83.33%)$" b/compare.txt &&
	grep -q "^Direct reclaim stalls complete " b/compare.txt &&
	test_expect_code 2 "$VR" report -d f.db -o c -m Nope 2>err &&
	grep -q "unknown metric .Nope." err && test ! -e c &&
	test_expect_code 2 "$VR" report -d f.db -o c -s Nope 2>err &&
	grep -q "report: unknown statistic .Nope." err &&
	test_expect_code 1 "$VR" report -d f.db -o b -k nosuch 2>err &&
	grep -q "no runs of kernel .nosuch." err &&
	grep -q "^Max      p50-DirectReclaim " b/compare.txt
'
# panel titles: at 500x400 each title is drawn no wider than its panel
test_expect_success 'counters chart at 500x400 draws' '
	"$FIXTURE" --fixture f.db &&
	"$VR" chart -d f.db -T counters --width 500 --height 400 -o c.png &&
	check_image c.png 500 400
'
test_done
