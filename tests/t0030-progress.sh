#!/usr/bin/env bash
# Progress lines on stderr: under a terminal (script -qc) load names the file,
# the share stored, its events, rate and ETA, report counts its charts; in a
# pipe, or with -q, nothing.  -v details of report and compare, in a pipe too.
. "$(dirname "$0")/lib.sh"

command -v script >/dev/null || test_skip_script "no script(1)"
python3 "$TOP/tests/mkdat.py" "$TOP/tests/data-model/two-nodes-6.18.spec" "$test_root/two.dat" ||
	exit 1

# tty CMD...: run CMD with stdout and stderr on a terminal; its output in tty.out
tty() { script -qec "$*" /dev/null >tty.out; }
# lines FILE: the progress lines of FILE, one a line ("\r...ESC[K" rewrites)
lines() { tr "\r" "\n" <"$1" | sed "s/$(printf "\033")\[K//g" | grep "^load: "; }

# A text trace of a sample (trace-cmd report), long enough for several
# progress lines; its events counted here: the lines with a CPU and a time.
sample=$TOP/samples/wsf10-1.dat
trace-cmd report -i "$sample" >"$test_root/w.txt" 2>/dev/null || exit 1
text_events=$(grep -cE "\[[0-9]+\] +[0-9]+\.[0-9]+: " "$test_root/w.txt")

test_expect_success 'load: a progress line on a terminal (file, %, events, rate, time, ETA), then the run line' '
	tty "\"$VR\" load -d t.db \"$sample\"" &&
	lines tty.out >l &&
	grep -qE "^load: $sample: [0-9]+%, [0-9]+ events, [0-9]+ events/s, [0-9.]+ s, ETA ([0-9.]+ s|-)\$" l &&
	! grep -vE "^load: $sample: [0-9]+%, [0-9]+ events, [0-9]+ events/s, [0-9.]+ s, ETA ([0-9.]+ s|-)\$" l &&
	awk -F"[:%]" "{ if (\$3 + 0 > 100) exit 1 }" l &&
	grep -q "run 1: " tty.out &&
	{ test $(wc -l <l) -lt 2 || tail -1 l | grep -qE "ETA [0-9.]+ s\$"; }
'
test_expect_success 'load: a text trace: % is the share of its events stored, every line' '
	tty "\"$VR\" load -d t.db \"$test_root/w.txt\"" &&
	lines tty.out >l && test -s l &&
	sed -E "s/^load: [^:]*: ([0-9]+)%, ([0-9]+) events.*/\1 \2/" l >got &&
	awk -v t=$text_events "{ printf \"%.0f %d\\n\", 100 * \$2 / t, \$2 }" got >want &&
	test_cmp want got &&
	test "$(sqlite3 t.db "SELECT event_count FROM run")" = "$text_events"
'
test_expect_success 'load: no progress in a pipe, nor with -q on a terminal' '
	"$VR" load -d p.db "$test_root/two.dat" 2>err | cat >out &&
	! grep -q "events/s" err out && grep -q "run 1: " out &&
	tty "\"$VR\" load -q -d q.db \"$test_root/two.dat\"" &&
	! grep -q "events/s" tty.out
'
test_expect_success 'report: chart N of M on a terminal, M the charts it writes; none in a pipe' '
	"$VR" load -q -d t.db "$test_root/two.dat" &&
	tty "\"$VR\" report -d t.db -o rep" &&
	n=$(ls rep/*.png | wc -l) && test "$n" -ge 3 &&
	tr "\r" "\n" <tty.out | grep -q "^report: chart 1 of $n (" &&
	tr "\r" "\n" <tty.out | grep -q "^report: chart $n of $n (" &&
	"$VR" report -d t.db -o rep2 2>err | cat &&
	! grep -q "chart 1 of" err &&
	tty "\"$VR\" report -q -d t.db -o rep3" && test -s rep3/index.md &&
	! grep -q "chart 1 of" tty.out
'
test_expect_success 'compare NAME=FILE: a progress line per file on a terminal' '
	tty "\"$VR\" compare a=\"$test_root/two.dat\" b=\"$test_root/two.dat\"" &&
	test $(tr "\r" "\n" <tty.out | grep -c "^load: $test_root/two.dat: ") -ge 2 &&
	tty "\"$VR\" compare -q a=\"$test_root/two.dat\" b=\"$test_root/two.dat\"" &&
	! grep -q "events/s" tty.out && grep -q Amean tty.out
'
test_expect_success 'report -v: each part made, in a pipe too; none without -v' '
	"$VR" load -q -d t.db "$test_root/two.dat" &&
	"$VR" report -v -d t.db -o rep 2>err >out &&
	! grep -q "chart 1 of" err &&
	grep -q "^report: made rep/compare.txt, compare.md, runs.txt ([0-9.]* s)\$" err &&
	grep -q "^report: made rep/summary.txt ([0-9.]* s)\$" err &&
	grep -q "^report: made rep/evidence.db ([0-9.]* s)\$" err &&
	ls rep/*.png | sed "s|^rep/||; s|\.png\$||" | sort >charts &&
	sed -n "s|^report: made rep/\([^ ]*\)\.png, \1\.svg ([0-9.]* s)\$|\1|p" err | sort >said &&
	test_cmp charts said &&
	"$VR" report -d t.db -o rep2 2>err2 && ! grep -q "made" err2 &&
	tty "\"$VR\" report -v -d t.db -o rep3" &&
	tr "\r" "\n" <tty.out | grep -q "^report: chart 1 of " &&
	tr "\r" "\n" <tty.out | grep -q "report: made rep3/evidence.db ("
'
test_expect_success 'compare -v: each NAME=FILE file and its events (as trace-cmd report counts them)' '
	n=$(trace-cmd report -i "$test_root/two.dat" 2>/dev/null | grep -cE "\[[0-9]+\] +[0-9]+\.[0-9]+: ") &&
	test "$n" -gt 0 &&
	printf "p95-Read 10\np95-Read 12\n" >lat.txt &&
	"$VR" compare -v a="$test_root/two.dat",lat.txt b="$test_root/two.dat" 2>err >out &&
	grep -q Amean out && ! grep -q "^compare: " out &&
	grep -q "^compare: a: $test_root/two.dat: $n events; " err &&
	grep -q "^compare: a: lat.txt: 2 latency samples\$" err &&
	grep -q "^compare: b: $test_root/two.dat: $n events; " err &&
	"$VR" compare a="$test_root/two.dat" b="$test_root/two.dat" 2>err >out &&
	! grep -q "^compare: " err
'
test_done
