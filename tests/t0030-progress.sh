#!/usr/bin/env bash
# Progress lines on stderr: under a terminal (script -qc) load names the file
# and its events and report counts its charts; in a pipe, or with -q, nothing.
. "$(dirname "$0")/lib.sh"

command -v script >/dev/null || { echo "# SKIP $test_name: no script(1)"; test_done; exit; }
python3 "$TOP/tests/mkdat.py" "$TOP/tests/data-model/two-nodes-6.18.spec" "$test_root/two.dat" ||
	exit 1

# tty CMD...: run CMD with stdout and stderr on a terminal; its output in tty.out
tty() { script -qec "$*" /dev/null >tty.out; }

test_expect_success 'load: a progress line on a terminal (file, events, rate), then the run line' '
	tty "\"$VR\" load -d t.db \"$test_root/two.dat\"" &&
	grep -q "load: $test_root/two.dat: [0-9][0-9]* events, [0-9][0-9]* events/s, [0-9.]* s" tty.out &&
	grep -q "run 1: " tty.out
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
test_done
