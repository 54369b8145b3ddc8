#!/usr/bin/env bash
# load: samples load and match trace-cmd; bad input fails cleanly and leaves
# the database content unchanged.
. "$(dirname "$0")/lib.sh"
sdir=${VR_SAMPLES_DIR:-$TOP/samples}
samples=$(ls "$sdir"/*.dat 2>/dev/null)
first=$(echo $samples | cut -d" " -f1)

test_expect_success 'the samples exist' '
	test -n "$first"
'
test_expect_success 'every sample matches trace-cmd report (counts, 300 random events each)' '
	python3 "$TOP/tests/check-load.py" "$VR" $samples
'
test_expect_success 'runs lists one line per loaded file with its kernel and iteration' '
	"$VR" load -q -d db --kernel base $samples &&
	"$VR" runs -d db >out &&
	test $(grep -c " base " out) = $(echo $samples | wc -w) &&
	sqlite3 db "SELECT group_concat(iteration) FROM run" >iters &&
	seq -s, 1 $(echo $samples | wc -w) >expect && test_cmp expect iters
'
test_expect_success 'loading the same file twice is refused and changes nothing' '
	"$VR" load -q -d db "$first" &&
	sqlite3 db .dump >before &&
	test_expect_code 1 "$VR" load -q -d db "$first" 2>err &&
	grep -q "vmscan-report: $first: already loaded as run 1" err &&
	sqlite3 db .dump >after && test_cmp before after
'
test_expect_success '--replace loads it again as one run, keeping id, label and latencies' '
	"$VR" load -q -d db --kernel base --iteration 4 "$first" &&
	sqlite3 db "INSERT INTO app_latency (run_id, operation, sample, value) VALUES (1, '\''p95-Read'\'', 0, 5.5)" &&
	"$VR" load -d db --replace "$first" >out &&
	echo "run 1: base iteration 4 <- $first (replaced)" >expect && test_cmp expect out &&
	test "$(sqlite3 db "SELECT id, kernel, iteration FROM run")" = "1|base|4" &&
	test $(sqlite3 db "SELECT count(*) FROM app_latency WHERE run_id = 1") = 1
'
test_expect_success 'a taken kernel/iteration: exit 1, the database and the file named' '
	"$VR" load -q -d db --kernel base --iteration 1 "$first" &&
	sqlite3 db .dump >before &&
	second=$(echo $samples | cut -d" " -f2) &&
	test_expect_code 1 "$VR" load -q -d db --kernel base --iteration 1 "$second" 2>err &&
	grep -q "^vmscan-report: db: run base iteration 1 already exists" err &&
	grep -q "^vmscan-report: $second: not loaded" err &&
	sqlite3 db .dump >after && test_cmp before after
'
# race LOAD-ARGS-1 -- LOAD-ARGS-2: two loads into new.db started together
# (each spins until the file go appears); their exit statuses (sorted) in
# rcs, their messages in err
race() {
	local a=() b=()
	while [ "$1" != -- ]; do a+=("$1"); shift; done; shift; b=("$@")
	rm -f new.db new.db-journal rc1 rc2 go
	{ until [ -e go ]; do :; done; "$VR" load -q -d new.db "${a[@]}" 2>err1; echo $? >rc1; } &
	{ until [ -e go ]; do :; done; "$VR" load -q -d new.db "${b[@]}" 2>err2; echo $? >rc2; } &
	sleep 0.1; touch go; wait
	cat rc1 rc2 | sort | tr "\n" " " >rcs
	cat err1 err2 >err
}
test_expect_success 'two loads of one file into a new database at once: one run, kept, "already loaded"' '
	for i in 1 2 3 4 5; do
		race "$first" -- "$first" &&
		test "$(cat rcs)" = "0 1 " &&
		test "$(sqlite3 new.db "SELECT count(*) FROM run")" = 1 &&
		grep -q "^vmscan-report: $first: already loaded as run 1 (same contents)" err &&
		! grep -q "iteration .* already exists" err || exit 1
	done
'
test_expect_success 'two loads of one kernel/iteration into a new database at once: one run, kept' '
	second=$(echo $samples | cut -d" " -f2) &&
	for i in 1 2 3 4 5; do
		race -k k -i 1 "$first" -- -k k -i 1 "$second" &&
		test "$(cat rcs)" = "0 1 " &&
		test "$(sqlite3 new.db "SELECT count(*) FROM run")" = 1 &&
		grep -q "^vmscan-report: new.db: run k iteration 1 already exists" err || exit 1
	done
'
test_expect_success 'missing file: exit 1, message names it, no database left behind' '
	test_expect_code 1 "$VR" load -d new.db no-such.dat 2>err &&
	grep -q "^vmscan-report: no-such.dat: No such file or directory" err &&
	test ! -e new.db
'
check_bad_file() {	# FILE: load into an existing db must fail and change nothing
	{ test -e db || "$VR" load -q -d db "$first"; } &&
	sqlite3 db .dump >before &&
	test_expect_code 1 "$VR" load -q -d db "$1" 2>err &&
	grep -q "^vmscan-report: $1:" err &&
	sqlite3 db .dump >after && test_cmp before after
}
test_expect_success 'empty file' '
	: >empty.dat && check_bad_file empty.dat
'
test_expect_success 'text file passed as trace.dat' '
	printf "hello\nthis is not a trace\n" >notes.dat && check_bad_file notes.dat
'
test_expect_success 'binary garbage' '
	head -c 100000 /dev/urandom >garbage.dat && check_bad_file garbage.dat
'
test_expect_success 'truncated trace.dat (half, and all but the last page)' '
	size=$(stat -c %s "$first") &&
	head -c $((size / 2)) "$first" >half.dat && check_bad_file half.dat &&
	head -c $((size - 4096)) "$first" >short.dat && check_bad_file short.dat
'
test_expect_success 'truncated version 6 trace.dat (libtracecmd crashes on it; we must not)' '
	trace-cmd convert -i "$first" -o v6.dat --file-version 6 --compression none >/dev/null 2>&1 &&
	size=$(stat -c %s v6.dat) &&
	head -c $((size - 1)) v6.dat >v6short.dat && check_bad_file v6short.dat
'
test_expect_success 'directory passed as a trace' '
	mkdir adir && check_bad_file adir
'
test_expect_success 'unwritable database: exit 1 and a message naming it' '
	mkdir dbdir &&
	test_expect_code 1 "$VR" load -q -d dbdir "$first" 2>err &&
	grep -q "^vmscan-report: dbdir: " err
'
test_expect_success 'a database of something else is refused, untouched' '
	sqlite3 foreign.db "CREATE TABLE t(x); INSERT INTO t VALUES (1)" &&
	sqlite3 foreign.db .dump >before &&
	test_expect_code 1 "$VR" load -q -d foreign.db "$first" 2>err &&
	grep -q "not a vmscan-report database" err &&
	sqlite3 foreign.db .dump >after && test_cmp before after
'
test_expect_success 'one bad file among good ones: the good ones load, exit 1' '
	test_expect_code 1 "$VR" load -q -d mixed.db "$first" empty.dat 2>err &&
	test $(sqlite3 mixed.db "SELECT count(*) FROM run") = 1
'
# 2 million kswapd_sleep lines of text: a load of several seconds
make_big_text() {
	python3 -c '
import sys
w = sys.stdout.write
w("cpus=1\n")
for i in range(2000000):
    w("  kswapd0-45  [000] %.6f: mm_vmscan_kswapd_sleep: nid=0\n" % (1000 + i / 1e5))
'
}

test_expect_success 'Ctrl-C during a load: that run rolls back, exit 1, no hot journal left' '
	"$VR" load -q -d db "$first" &&
	sqlite3 db .dump >before &&
	make_big_text >big.txt &&
	# a background job of a script starts with SIGINT ignored, which load keeps
	{ env --default-signal=INT "$VR" load -q -d db big.txt 2>err & pid=$!; } &&
	# the signal once the load writes (its journal is there), not after a
	# fixed 0.5 s: on a loaded machine that came before its handler did
	for i in $(seq 200); do test -e db-journal && break; sleep 0.05; done &&
	kill -INT $pid && { wait $pid; rc=$?; } ; cat err; echo "rc=$rc"; test "$rc" = 1 &&
	grep -q "^vmscan-report: big.txt: interrupted; the database is unchanged" err &&
	grep -q "^vmscan-report: interrupted by signal 2" err &&
	test ! -e db-journal &&
	sqlite3 db .dump >after && test_cmp before after
'
test_expect_success 'SIGHUP during a multi-file load into a new database: no database is left' '
	make_big_text >big.txt &&
	{ "$VR" load -q -d new.db big.txt "$first" 2>err & pid=$!; } &&
	sleep 0.5 && kill -HUP $pid && { wait $pid; rc=$?; } ; test "$rc" = 1 &&
	grep -q "^vmscan-report: interrupted by signal 1" err &&
	test ! -e new.db && test ! -e new.db-journal
'
test_expect_success 'a database locked for 10 s by another writer: exit 1, who holds it, what to do' '
	"$VR" load -q -d db "$first" 2>/dev/null &&
	python3 -c "
import sqlite3, sys, time
c = sqlite3.connect(\"db\", isolation_level=None)
c.execute(\"BEGIN EXCLUSIVE\")
open(\"locked\", \"w\").close()
time.sleep(13)
" & holder=$! &&
	for i in $(seq 100); do test -e locked && break; sleep 0.05; done &&
	test_expect_code 1 "$VR" runs -d db 2>err; rc=$?; kill $holder; wait $holder; test $rc = 0 &&
	grep -q "^vmscan-report: db: cannot open database: database is locked (another program held its lock for 10 s: a load, rm or schema upgrade of vmscan-report, or another program reading or writing it, such as an sqlite3 session; try again when it is done)$" err
'
test_expect_success 'runs on a missing database: exit 1 and how to make one' '
	test_expect_code 1 "$VR" runs -d missing.db 2>err &&
	grep -q "^vmscan-report: missing.db: no such database (make one with" err &&
	test ! -e missing.db
'
test_expect_success 'writeback hints never close a descriptor of the database before SQLite does' '
	# closing any descriptor of a file drops the process'"'"'s POSIX locks on
	# it, SQLite'"'"'s too: another connection would roll the open run back
	sample=$(ls "${VR_SAMPLES_DIR:-$TOP/samples}"/*.dat | head -1) &&
	# -ff: one file per thread, so that no call is split by another thread
	VR_TEST_WRITEBACK_BATCHES=2 ASAN_OPTIONS=detect_leaks=0 strace -ff -qq \
		-e trace=openat,close,sync_file_range -o trace "$VR" load -q -d db "$sample" &&
	log=$(grep -l "openat(AT_FDCWD, \"$PWD/db\", O_RDWR" trace.* | head -1) && test -n "$log" &&
	db_fd=$(sed -n "s|^openat(AT_FDCWD, \"$PWD/db\", O_RDWR.* = \([0-9]*\)$|\1|p" $log | head -1) &&
	hint_fd=$(sed -n "s/^sync_file_range(\([0-9]*\),.*/\1/p" $log | head -1) &&
	test -n "$db_fd" && test -n "$hint_fd" &&
	test "$(grep -c "^sync_file_range($hint_fd," $log)" -ge 2 &&
	# from the first hint on, the hint descriptor is closed once: after
	# the last hint and after SQLite closed the database
	first_hint=$(grep -n "^sync_file_range($hint_fd," $log | head -1 | cut -d: -f1) &&
	last_hint=$(grep -n "^sync_file_range($hint_fd," $log | tail -1 | cut -d: -f1) &&
	tail -n +$first_hint $log | grep -n "^close($hint_fd)" | cut -d: -f1 >closes &&
	test $(wc -l <closes) = 1 && hint_close=$(( $(cat closes) + first_hint - 1 )) &&
	last_db_close=$(grep -n "^close($db_fd)" $log | tail -1 | cut -d: -f1) &&
	test "$hint_close" -gt "$last_db_close" && test "$hint_close" -gt "$last_hint"
'
test_expect_success 'a trace.dat timestamp of 2^63 ns: an error naming CPU and offset, no run' '
	printf "era 6.18\ncpus 1\nuname Linux t 6.18.0 x86_64\n" >big.spec &&
	echo "ev 0 9223372036854775000 1 mm_vmscan_kswapd_sleep nid=0" >>big.spec &&
	echo "ev 0 9223372036854775808 1 mm_vmscan_kswapd_sleep nid=0" >>big.spec &&
	python3 "$TOP/tests/mkdat.py" big.spec big.dat &&
	trace-cmd report -t big.dat 2>/dev/null | grep -q " 9223372036.854775808: mm_vmscan_kswapd_sleep" &&
	test_expect_code 1 "$VR" load -q -d big.db big.dat 2>err &&
	grep -q "^vmscan-report: big.dat: cpu 0 offset [0-9]*: timestamp 9223372036854775808 out of range" err &&
	test ! -e big.db
'
test_expect_success "another program's SQLite file whose user_version is ours: refused, untouched" '
	sqlite3 other.db "CREATE TABLE run (x); CREATE TABLE t (y); INSERT INTO t VALUES (1);
			  PRAGMA user_version = 2" &&
	sqlite3 other.db .dump >before &&
	test_expect_code 1 "$VR" load -q -d other.db "$first" 2>err &&
	grep -q "^vmscan-report: other.db: not a vmscan-report database (an SQLite database with neither our application_id nor our .run. table)" err &&
	test_expect_code 1 "$VR" runs -d other.db 2>err &&
	grep -q "not a vmscan-report database" err &&
	sqlite3 other.db .dump >after && test_cmp before after &&
	test "$(sqlite3 other.db "PRAGMA application_id")" = 0
'
test_expect_success 'a database with the application_id of another program: refused' '
	"$VR" load -q -d db "$first" &&
	sqlite3 db "PRAGMA application_id = 1196444487" &&
	test_expect_code 1 "$VR" runs -d db 2>err &&
	grep -q "not a vmscan-report database (another program.s: its SQLite application_id is 0x47504b47, ours 0x564d5352)" err
'
# 0x564d5352 ("VMSR") = 1447908178
test_expect_success 'our application_id: set on a new database; an unmarked one of ours gets it when written' '
	"$VR" load -q -d db "$first" &&
	test "$(sqlite3 db "PRAGMA application_id")" = 1447908178 &&
	sqlite3 db "PRAGMA application_id = 0" &&
	"$VR" runs -d db >/dev/null && test "$(sqlite3 db "PRAGMA application_id")" = 0 &&
	"$VR" load -q -d db $(echo $samples | cut -d" " -f2) &&
	test "$(sqlite3 db "PRAGMA application_id")" = 1447908178 &&
	test "$(sqlite3 db "SELECT count(*) FROM run")" = 2
'
# kill_mid_write DB: a writer killed by SIGKILL inside a transaction whose
# changes reached the file (the cache spilt), leaving a hot journal
kill_mid_write() {
	python3 - "$1" <<-'EOF'
	import os, signal, sqlite3, sys
	con = sqlite3.connect(sys.argv[1], isolation_level=None)
	con.execute('PRAGMA cache_size = 1')
	con.execute('BEGIN')
	con.execute('DELETE FROM sched_switch_ids')
	con.execute('DELETE FROM run_event_count')
	os.kill(os.getpid(), signal.SIGKILL)
	EOF
}
test_expect_success 'a hot journal: read-only commands say what happened and how to recover' '
	"$VR" load -q -d db "$first" && dump_rows db >before &&
	{ kill_mid_write db || :; } && test -s db-journal &&
	test_expect_code 1 "$VR" runs -d db 2>err &&
	grep -q "^vmscan-report: db: a write to it was interrupted (a load killed, or a crash) and left its rollback journal db-journal, which a read-only command cannot roll back: any write does" err &&
	grep -q "sqlite3 db .PRAGMA user_version." err &&
	test_expect_code 1 "$VR" summary -d db 2>err && grep -q "left its rollback journal" err &&
	sqlite3 db "PRAGMA user_version" >/dev/null && test ! -e db-journal &&
	"$VR" runs -d db >/dev/null && dump_rows db >after && test_cmp before after
'
test_expect_success 'a load rolls a hot journal back and keeps the runs before' '
	"$VR" load -q -d db "$first" &&
	sqlite3 db "SELECT count(*) FROM sched_switch; SELECT * FROM run_event_count ORDER BY name" >before &&
	{ kill_mid_write db || :; } && test -s db-journal &&
	"$VR" load -q -d db $(echo $samples | cut -d" " -f2) && test ! -e db-journal &&
	test "$(sqlite3 db "SELECT count(*) FROM run")" = 2 &&
	sqlite3 db "SELECT count(*) FROM sched_switch WHERE run_id = 1;
		    SELECT * FROM run_event_count WHERE run_id = 1 ORDER BY name" >after && test_cmp before after
'
test_expect_success 'a trace given as the database (-d) is named as a trace, untouched' '
	cp "$first" x.dat && sha256sum x.dat >sum &&
	test_expect_code 1 "$VR" runs -d x.dat 2>err &&
	grep -q "^vmscan-report: x.dat: is a trace.dat file, not a database" err &&
	test_expect_code 1 "$VR" load -q -d x.dat "$first" 2>err &&
	grep -q "^vmscan-report: x.dat: is a trace.dat file, not a database" err &&
	printf "  a-1 [000] .... 1.000000: mm_vmscan_kswapd_sleep: nid=0\n" >t.txt &&
	sha256sum t.txt >>sum &&
	test_expect_code 1 "$VR" summary -d t.txt 2>err &&
	grep -q "^vmscan-report: t.txt: is a text file (a text trace?), not a database" err &&
	sha256sum -c --quiet sum
'
test_expect_success 'runs: what a run does not have (cpus, seconds, ver) prints "-", never 0' '
	"$VR" import-latency -q -d n.db --kernel lat "$TOP/samples/wsf10-1.latency.txt" &&
	printf "  a-1 [000] .... 1.000000: mm_vmscan_kswapd_sleep: nid=0\n" >one.txt &&
	"$VR" load -q -d n.db --kernel txt one.txt &&
	"$VR" runs -d n.db | awk "NR > 1 { print \$2, \$6, \$7, \$11 }" >out &&
	printf "%s\n" "lat - - -" "txt 1 0.000 -" >expect &&
	test_cmp expect out
'

test_expect_success 'a kernel label that is empty, only blanks or holds a control character: usage error, exit 2, no run' '
	printf "  a-1 [000] .... 1.000000: mm_vmscan_kswapd_sleep: nid=0\n" >one.txt &&
	for k in "" "   " "$(printf "x\ny")" "$(printf "x\033y")"; do
		test_expect_code 2 "$VR" load -q -d k.db --kernel "$k" one.txt 2>err &&
		grep -q "^vmscan-report: --kernel: a label must not be empty or only blanks and may hold no control characters$" err &&
		test_expect_code 2 "$VR" import-latency -q -d k.db --kernel "$k" "$TOP/samples/wsf10-1.latency.txt" 2>err &&
		grep -q "^vmscan-report: --kernel: a label must not be empty" err || return 1
	done &&
	test ! -e k.db &&
	"$VR" load -q -d k.db --kernel "6.18 rc1" one.txt && "$VR" runs -d k.db | grep -q "^   1  6.18 rc1 "
'
test_expect_success 'control bytes of a file name are escaped in every message; compare NAMEs are labels' '
	printf "  a-1 [000] .... 1.000000: mm_vmscan_kswapd_sleep: nid=0\n" >one.txt &&
	bad=$(printf "x\ny\033[31mz\tw.txt") &&
	# a missing file: one line, the newline, ESC and TAB written as escapes
	test_expect_code 1 "$VR" load -q -d m.db "$bad" 2>err &&
	test $(wc -l <err) = 1 &&
	grep -qxF "vmscan-report: x\ny\033[31mz\tw.txt: No such file or directory" err &&
	# a loaded one: the run line on stdout too
	cp one.txt "$bad" && "$VR" load -d m.db "$bad" >out 2>err &&
	test $(wc -l <out) = 1 && grep -qF "<- x\ny\033[31mz\tw.txt" out &&
	! grep -q "$(printf "\033")" out err &&
	"$VR" runs -d m.db >runs && test $(wc -l <runs) = 2 && grep -qF "x\ny\033[31mz\tw.txt" runs &&
	# compare: a NAME with a control byte is refused as --kernel is
	test_expect_code 2 "$VR" compare "$(printf "a\tb")=one.txt" b=one.txt 2>err &&
	grep -q "^vmscan-report: compare: NAME of NAME=FILE,...: a label must not be empty or only blanks and may hold no control characters$" err &&
	test_expect_code 2 "$VR" compare "  =one.txt" b=one.txt 2>err &&
	grep -q "NAME of NAME=FILE,...: a label must not be empty" err
'

test_expect_success 'a database of one small recording is at most 5 times its size' '
	# 45 tables and indexes, most of them nearly empty for one lab run: with
	# 64 KiB pages their pages alone were 3 MB, and this database 12.5 MB
	# (6.8 times the 1.8 MB trace)
	rm -f small.db && "$VR" load -q -d small.db "$TOP/samples/lab/vanilla-1.dat" &&
	db=$(stat -c %s small.db) && trace=$(stat -c %s "$TOP/samples/lab/vanilla-1.dat") &&
	test $((db)) -le $((5 * trace))
'

test_done
