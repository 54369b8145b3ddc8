#!/usr/bin/env bash
# load survives libtracecmd crashing on a file (it does on some corrupt
# ones): files are loaded in a worker process, a crash rolls back the file
# it happened on and is reported, and the other files still load.  The
# crash is injected with tests/crash-preload.c (LD_PRELOAD) into good
# recordings: at tracecmd_open(), or in the middle of reading.
# a /tmp of its own: loads elsewhere must not take its scratch-named files
VR_PRIVATE_TMP=want
. "$(dirname "$0")/lib.sh"
samples=$(ls "${VR_SAMPLES_DIR:-$TOP/samples}"/*.dat 2>/dev/null | head -3)
# the ASan build: no report of the injected SIGSEGV, no link-order check
export ASAN_OPTIONS="handle_segv=0:verify_asan_link_order=0:detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"

setup() {
	set -- $samples
	cc -shared -fPIC -o crash.so "$TOP/tests/crash-preload.c" -ldl &&
	cp "$1" a.dat && cp "$2" crashme.dat && cp "$3" c.dat
}
crashing() { LD_PRELOAD=$PWD/crash.so "$@"; }
runs() { sqlite3 db "SELECT group_concat(source_path || ':' || iteration, ' ') FROM run"; }

test_expect_success 'three samples exist' '
	test $(echo $samples | wc -w) = 3
'
test_expect_success 'a crash opening the middle file: the others load, exit 1, it is named' '
	setup &&
	VR_CRASH_OPEN=crashme test_expect_code 1 crashing "$VR" load -d db a.dat crashme.dat c.dat \
		>out 2>err &&
	grep -q "^vmscan-report: crashme.dat: loading it crashed (signal 11)" err &&
	test "$(runs)" = "a.dat:1 c.dat:2" &&
	grep -q "<- a.dat" out && grep -q "<- c.dat" out &&
	test ! -e db-journal
'
test_expect_success 'a crash while reading the first file: its rows are gone, the others load' '
	setup &&
	VR_CRASH_READ=crashme test_expect_code 1 crashing "$VR" load -q -d db crashme.dat a.dat c.dat \
		2>err &&
	grep -q "^vmscan-report: crashme.dat: loading it crashed" err &&
	test "$(runs)" = "a.dat:1 c.dat:2" &&
	test "$(sqlite3 db "SELECT count(*) FROM mm_vmscan_lru_isolate WHERE run_id NOT IN (SELECT id FROM run)")" = 0 &&
	test ! -e db-journal
'
test_expect_success 'with -j 1 and a crash while reading the last file' '
	setup &&
	VR_CRASH_READ=crashme test_expect_code 1 crashing "$VR" load -q -j 1 -d db a.dat c.dat crashme.dat \
		2>err &&
	test $(grep -c "loading it crashed" err) = 1 &&
	test "$(runs)" = "a.dat:1 c.dat:2" && test ! -e db-journal
'
test_expect_success '--replace of a loaded run that crashes leaves the run as it was' '
	setup &&
	"$VR" load -q -d db crashme.dat && sqlite3 db .dump >before &&
	VR_CRASH_READ=crashme test_expect_code 1 crashing "$VR" load -q -d db --replace crashme.dat \
		2>err &&
	grep -q "crashme.dat: loading it crashed" err &&
	sqlite3 db .dump >after && test_cmp before after && test ! -e db-journal
'
test_expect_success 'a crash while trace-cmd makes a copy: the scratch files it was writing in /tmp go' '
	setup && mkdir tmp bin &&
	# a trace-cmd that, as libtracecmd does, writes through a file it
	# makes with mkstemp("/tmp/trace_cpu_dataXXXXXX"), then waits; it dies
	# with the worker, the file stays.  The worker crashes once the file is
	# open (VR_CRASH_WAIT), as the scratch files of a real convert are open for
	# seconds: the load notes the files it finds its convert writing (in
	# its record, /tmp/vmscan-report-UID/convert-PID-START: the crash waits
	# for that, up to 10 s, as a loaded machine may take long to look)
	printf "#!/bin/bash\ns=\$(mktemp /tmp/trace_cpu_dataXXXXXX)\nexec 5<>\$s\nfor i in {1..500}; do grep -qs \" \${s##*/}\$\" /tmp/vmscan-report-\$(id -u)/convert-\$\$-* && break; sleep 0.02; done\necho \$s >%s/scratch.name\nexec -a vr-t1020-$$ sleep 3600\n" \
		"$PWD" >bin/trace-cmd && chmod +x bin/trace-cmd && cat bin/trace-cmd &&
	# alike but open: not touched
	busy=$(mktemp /tmp/trace_cpu_dataXXXXXX) &&
	{ sleep 60 5<>"$busy" & } && holder=$! &&
	# and the input itself named like one, written just before
	input=$(mktemp /tmp/trace_cpu_dataXXXXXX) && cp crashme.dat "$input" &&
	VR_CRASH_READ=trace_cpu_data VR_CRASH_WAIT=$PWD/scratch.name VR_TEST_IN_MEMORY_CAP=1 \
		TMPDIR=$PWD/tmp PATH=$PWD/bin:$PATH \
		test_expect_code 1 crashing "$VR" load -q -d db "$input" 2>err &&
	{ grep -q "^vmscan-report: $input: loading it crashed" err &&
	scratch=$(cat scratch.name) && test -n "$scratch" && test ! -e "$scratch" &&
	grep -q "removed $scratch, left by a trace-cmd convert that was killed" err &&
	! pgrep -f "vr-t1020-$$ 3600" || { cat err scratch.name; pgrep -fa "vr-t1020-$$"; false; }; } &&
	test -e "$busy" && test -e "$input" &&
	kill $holder && rm -f "$busy" "$input" &&
	test -z "$(ls -A tmp)"
'
test_expect_success 'a worker that ends while reading a file (exit 0): that file fails, exit 1, the next loads' '
	setup &&
	VR_EXIT_READ=crashme test_expect_code 1 crashing "$VR" load -q -j 1 -d db a.dat crashme.dat c.dat \
		2>err &&
	grep -q "^vmscan-report: crashme.dat: not loaded: the load.s worker ended (exit status 0) while loading it" err &&
	test "$(runs)" = "a.dat:1 c.dat:2" && test ! -e db-journal
'
test_expect_success 'a worker that dies after storing its last file: the run, whole and announced, is kept, said so' '
	setup &&
	"$VR" load -q -d clean.db a.dat crashme.dat && dump_rows clean.db >expect &&
	"$VR" load -q -d db a.dat &&
	VR_CRASH_EXIT=crashme test_expect_code 0 crashing "$VR" load -d db crashme.dat >out 2>err &&
	grep -q "^run 2: .* <- crashme.dat" out &&
	grep -q "^vmscan-report: warning: crashme.dat: stored as run 2; the load.s worker then crashed (signal 11): the run is kept, whole$" err &&
	dump_rows db >actual && test_cmp expect actual && test ! -e db-journal
'
test_expect_success 'a worker that dies after storing its last file, whose run another command removed meanwhile: said so' '
	setup &&
	"$VR" load -q -d db a.dat &&
	{ VR_CRASH_EXIT=crashme VR_CRASH_WAIT=$PWD/go LD_PRELOAD=$PWD/crash.so "$VR" load -q -d db \
		crashme.dat 2>err & pid=$!; } &&
	for i in $(seq 100); do test "$(sqlite3 db "SELECT count(*) FROM run")" = 2 && break; sleep 0.1; done &&
	"$VR" rm -q -d db 2 && touch go &&
	test_expect_code 1 wait $pid &&
	grep -q "^vmscan-report: crashme.dat: stored as run 2; the load.s worker then crashed (signal 11), and another command has removed that run since" err &&
	test "$(runs)" = "a.dat:1" && test ! -e db-journal
'
test_expect_success 'a worker killed (SIGKILL) while reading: said so, not blamed on libtracecmd' '
	setup &&
	VR_CRASH_READ=crashme VR_CRASH_SIGNAL=9 test_expect_code 1 crashing "$VR" load -q -j 1 -d db \
		a.dat crashme.dat 2>err &&
	grep -q "^vmscan-report: crashme.dat: loading it was stopped: the worker was killed by signal 9 (SIGKILL)" err &&
	! grep -q "libtracecmd" err &&
	test "$(runs)" = "a.dat:1" && test ! -e db-journal
'
test_expect_success 'a worker that crashes right after an allocation failed: out of memory, said so' '
	setup &&
	VR_CRASH_READ=crashme VR_CRASH_ENOMEM=1 test_expect_code 1 crashing "$VR" load -q -d db \
		crashme.dat 2>err &&
	grep -q "^vmscan-report: crashme.dat: loading it ran out of memory: the worker crashed (signal 11) right after an allocation failed (ENOMEM)" err &&
	! grep -q "libtracecmd" err && test ! -e db && test ! -e db-journal
'
test_expect_success 'default -j, a worker killed once (SIGKILL): said so, loaded again one at a time, exit 0' '
	setup &&
	VR_CRASH_READ=crashme VR_CRASH_SIGNAL=9 VR_CRASH_ONCE=$PWD/once \
		test_expect_code 0 crashing "$VR" load -q -d db a.dat crashme.dat c.dat 2>err &&
	test -e once &&
	grep -q "^vmscan-report: warning: [a-z]*.dat: the load.s worker was killed by signal 9 (SIGKILL) while loading it or a file after it (they are decoded at once)[^:]*: loading again from it, one file at a time" err &&
	test "$(runs)" = "a.dat:1 crashme.dat:2 c.dat:3" && test ! -e db-journal
'
test_expect_success 'default -j, a worker killed again on the retry: that file fails, named, exit 1' '
	setup &&
	VR_CRASH_READ=crashme VR_CRASH_SIGNAL=9 \
		test_expect_code 1 crashing "$VR" load -q -d db a.dat crashme.dat c.dat 2>err &&
	grep -q "^vmscan-report: warning: [a-z]*.dat: the load.s worker was killed by signal 9 (SIGKILL) while loading it or a file after it" err &&
	grep -q "^vmscan-report: crashme.dat: loading it was stopped: the worker was killed by signal 9 (SIGKILL)" err &&
	test "$(runs)" = "a.dat:1 c.dat:2" && test ! -e db-journal
'
test_expect_success 'default -j, a worker killed after a run committed, before it said so: the run is kept once, the others load' '
	setup &&
	"$VR" load -q -d clean.db a.dat crashme.dat c.dat && dump_rows clean.db >expect &&
	VR_SIGNAL_PROGRESS=d,0,9 test_expect_code 0 crashing "$VR" load -d db a.dat crashme.dat c.dat \
		>out 2>err &&
	grep -q "^vmscan-report: warning: a.dat: stored as run 1; the load.s worker then was killed by signal 9 (SIGKILL): the run is kept, whole (its .run. line above may be missing)$" err &&
	test "$(grep -c "^run 1: .* <- a.dat" out)" = 1 &&
	dump_rows db >actual && test_cmp expect actual && test ! -e db-journal
'
test_expect_success 'default -j, a worker killed as it begins a commit: nothing of that run kept, loaded again, once' '
	setup &&
	"$VR" load -q -d clean.db a.dat crashme.dat c.dat && dump_rows clean.db >expect &&
	VR_SIGNAL_PROGRESS=c,0,9 VR_CRASH_ONCE=$PWD/once \
		test_expect_code 0 crashing "$VR" load -q -d db a.dat crashme.dat c.dat 2>err &&
	test -e once && ! grep -q "kept" err &&
	grep -q "^vmscan-report: warning: a.dat: the load.s worker was killed by signal 9 (SIGKILL) while loading it or a file after it (they are decoded at once): loading again from it" err &&
	dump_rows db >actual && test_cmp expect actual && test ! -e db-journal
'
test_expect_success 'the same with -j 1, after the middle file: kept, not failed, the last file loads' '
	setup &&
	VR_SIGNAL_PROGRESS=d,1,9 test_expect_code 0 crashing "$VR" load -q -j 1 -d db a.dat crashme.dat c.dat 2>err &&
	grep -q "^vmscan-report: warning: crashme.dat: stored as run 2; the load.s worker then was killed by signal 9 (SIGKILL): the run is kept, whole" err &&
	test "$(runs)" = "a.dat:1 crashme.dat:2 c.dat:3" && test ! -e db-journal
'
test_expect_success 'with --replace, a worker killed after committing a replacing run: not known which run is there, said so, exit 1' '
	setup &&
	"$VR" load -q -d db a.dat crashme.dat c.dat &&
	VR_SIGNAL_PROGRESS=d,1,9 test_expect_code 1 crashing "$VR" load -q --replace -d db \
		a.dat crashme.dat c.dat 2>err &&
	grep -q "^vmscan-report: crashme.dat: the load.s worker was killed by signal 9 (SIGKILL) as it committed run [0-9]* in place of the run loaded before: whether the database holds the new run or the old one is not known (load it again with --replace)$" err &&
	! grep -q "kept" err &&
	test "$(sqlite3 db "SELECT group_concat(source_path, \" \") FROM (SELECT source_path FROM run ORDER BY source_path)")" = "a.dat c.dat crashme.dat" &&
	test ! -e db-journal
'
test_expect_success 'with --replace, a worker killed in a COMMIT before its commit point: never said kept' '
	setup &&
	"$VR" load -q -d old.db --kernel OLD a.dat crashme.dat c.dat &&
	unknown=0 &&
	for k in 1 2 3 4 5 6; do
		cp old.db db && rm -f once &&
		{ VR_CRASH_ONCE=$PWD/once VR_SIGNAL_UNLINK=-journal,$k,9 crashing "$VR" load -q \
			--replace --kernel NEW -d db a.dat crashme.dat c.dat 2>err; true; } &&
		if grep -q "not known" err; then unknown=$((unknown + 1)); fi &&
		for f in $(sed -n "s/^vmscan-report: warning: \([a-z]*.dat\): stored as run.*kept, whole.*/\1/p" err); do
			test "$(sqlite3 db "SELECT kernel FROM run WHERE source_path = \"$f\"")" = NEW ||
				{ echo "k=$k: $f said kept, but the run is the old one"; cat err; exit 1; }
		done &&
		test "$(sqlite3 db "SELECT count(*) FROM run")" = 3 && test ! -e db-journal || exit 1
	done &&
	test $unknown -ge 1
'
test_expect_success 'Ctrl-C, and a worker that does not stop after committing a run: killed, the run kept as said' '
	setup &&
	"$VR" load -q -d db c.dat &&
	{ VR_SIGNAL_PROGRESS=d,0,19 LD_PRELOAD=$PWD/crash.so env --default-signal=INT "$VR" load -d db \
		a.dat crashme.dat >out 2>err & pid=$!; } &&
	for i in $(seq 100); do ps -o stat= --ppid $pid | grep -q T && break; sleep 0.1; done &&
	{ ps -o stat= --ppid $pid | grep -q T || { pkill -KILL -P $pid; kill -KILL $pid; false; }; } &&
	kill -INT $pid && test_expect_code 1 wait $pid &&
	grep -q "^run 2: .* <- a.dat" out &&
	grep -q "^vmscan-report: warning: a.dat: stored as run 2; the load.s worker then was stopped by us (signal 9, SIGKILL): the run is kept, whole" err &&
	grep -q "^vmscan-report: a.dat: loading it did not stop within 1000 ms of SIGINT .*: its worker was killed$" err &&
	test "$(runs)" = "c.dat:1 a.dat:2" && test ! -e db-journal
'
test_expect_success 'a SIGINT sent to the worker alone after its last file was stored: nothing lost, exit 0' '
	setup &&
	VR_SIGNAL_PROGRESS=d,1,2 test_expect_code 0 crashing "$VR" load -q -d db a.dat crashme.dat 2>err &&
	test ! -s err && test "$(runs)" = "a.dat:1 crashme.dat:2" && test ! -e db-journal
'
test_expect_success 'a crash under an address-space limit (ulimit -v) says memory may have run out' '
	if ldd "$VR" | grep -q libasan; then test_skip_because "ASan needs the address space"; fi
	setup &&
	(ulimit -v 16000000 && VR_CRASH_READ=crashme test_expect_code 1 crashing "$VR" load -q -d db \
		crashme.dat 2>err) &&
	grep -q "crashme.dat: loading it crashed (signal 11), .*, or by memory running out under the address-space limit of 15625 MiB (ulimit -v)" err
'
test_expect_success 'the only file of a new database crashes: no database is left' '
	setup &&
	VR_CRASH_OPEN=crashme test_expect_code 1 crashing "$VR" load -q -d new.db crashme.dat 2>err &&
	grep -q "crashme.dat: loading it crashed" err &&
	test ! -e new.db && test ! -e new.db-journal
'
test_done
