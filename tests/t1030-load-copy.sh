#!/usr/bin/env bash
# load of a compressed trace.dat past the in-memory cap: decoded in memory
# until an uncompressed copy made meanwhile by trace-cmd convert is ready,
# then from the copy (libtracecmd keeps every decompressed chunk of the
# file in memory).  The database gets exactly the rows of a load read
# wholly in memory; no copy is left behind; a copy that cannot be made only
# costs memory.  VR_TEST_IN_MEMORY_CAP (bytes) puts the samples, a few MB,
# past the cap: with 1 byte the reader stops at its first look (after 1024
# events) and waits for the copy, so both parts are always exercised.
# a /tmp of its own: loads elsewhere must not take its scratch-named files
VR_PRIVATE_TMP=want
. "$(dirname "$0")/lib.sh"
samples=$(ls "${VR_SAMPLES_DIR:-$TOP/samples}"/*.dat 2>/dev/null)
sample=$(echo "$samples" | head -1)

algo=$(trace-cmd dump --summary "$sample" 2>&1 | awk '/\[Compression algorithm\]/ { print $1 }')
in_memory="vmscan-report: $sample: $algo-compressed: read in memory"
switched="vmscan-report: $sample: $algo-compressed: [0-9.]* MiB decompressed in memory, the rest read from an uncompressed copy"

# wait_started PATTERN: true once a process whose command line matches
# PATTERN runs (up to 5 s)
wait_started() {
	for i in $(seq 100); do pgrep -f "$1" >/dev/null && return 0; sleep 0.05; done
	return 1
}
# signal_and_wait PID SIGNAL: send it, true once PID has ended (up to 10 s;
# else PID is killed and this fails)
signal_and_wait() {
	kill -"$2" "$1" || return 1
	for i in $(seq 200); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.05; done
	kill -9 "$1"; echo "still running"; return 1
}

test_expect_success 'the first sample is compressed and smaller than the cap' '
	test -n "$algo" && test "$algo" != none &&
	test $(stat -c %s "$sample") -lt 6000000
'
test_expect_success 'under the cap: read in memory, no copy made' '
	mkdir tmp &&
	TMPDIR=$PWD/tmp "$VR" load -q -v -d db "$sample" 2>err &&
	grep -qx "$in_memory" err &&
	! grep -q uncompressed err && test -z "$(ls -A tmp)"
'
test_expect_success 'uncompressed files (version 7 and 6) past the cap: no copy made' '
	mkdir tmp &&
	trace-cmd convert -i "$sample" -o plain7.dat --compression none 2>/dev/null &&
	trace-cmd convert -i "$sample" -o plain6.dat --file-version 6 2>/dev/null &&
	# LeakSanitizer cannot run under ptrace (make asan)
	VR_TEST_IN_MEMORY_CAP=1 ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=mkdir,execve \
		-o trace.log env TMPDIR=$PWD/tmp "$VR" load -q -v -d db plain7.dat plain6.dat 2>err &&
	! grep -q "vmscan-report-" trace.log && ! grep -q "trace-cmd" trace.log &&
	test $(grep -c "not compressed: read from the file" err) = 2
'
test_expect_success 'past the cap: part in memory, the rest from the copy, the same rows' '
	mkdir tmp &&
	"$VR" load -q -d normal.db "$sample" &&
	VR_TEST_IN_MEMORY_CAP=1 TMPDIR=$PWD/tmp "$VR" load -q -v -d copy.db "$sample" 2>err &&
	grep -qx "$switched" err &&
	# the part in memory is 1024 events: more than nothing, less than the file
	mib=$(sed -n "s/.*: \([0-9.]*\) MiB decompressed.*/\1/p" err) &&
	awk -v m="$mib" "BEGIN { exit !(m > 0 && m < 4) }" &&
	dump_rows normal.db >expect && dump_rows copy.db >actual && test_cmp expect actual &&
	test -z "$(ls -A tmp)"
'
test_expect_success 'a CPU whose records end early: still switches, the same rows' '
	# CPU 1 has 10 events, all read before the switch; CPU 0 the rest (sched
	# events only: a run deliberately without vmscan events, --empty-run)
	python3 -c "
print(\"era 6.18\\nuname Linux t 6.18.0-t x86_64\\ncomm 100 a\\ncpus 2\\npage 4096\")
for i in range(20000):
    print(\"ev %d %d 100 sched_switch prev_comm=\\\"a\\\" prev_pid=100 prev_prio=120\"
          \" prev_state=1 next_comm=\\\"b\\\" next_pid=200 next_prio=120\" % (i < 10, 1000000 + i * 1000))
" >t.spec &&
	python3 "$TOP/tests/mkdat.py" t.spec t6.dat &&
	trace-cmd convert -i t6.dat -o t7.dat --file-version 7 --compression zstd 2>/dev/null &&
	"$VR" load -q -d normal.db --empty-run t7.dat &&
	VR_TEST_IN_MEMORY_CAP=1 "$VR" load -q -v -d copy.db --empty-run t7.dat 2>err &&
	grep -q "t7.dat: zstd-compressed: .* MiB decompressed in memory, the rest read from an uncompressed copy" err &&
	! grep -q warning err &&
	test "$(sqlite3 copy.db "SELECT count(*) FROM sched_switch WHERE cpu = 1")" = 10 &&
	dump_rows normal.db >expect && dump_rows copy.db >actual && test_cmp expect actual
'
test_expect_success 'a copy cut short is refused: read in memory, the same rows' '
	mkdir bin &&
	trace-cmd split -i "$sample" -o prefix -e 20000 >/dev/null 2>&1 && test -s prefix.1 &&
	# a trace-cmd convert that copies only the first 20000 events
	printf "#!/bin/sh\nexec %s convert -i %s -o \"\$5\" --compression none\n" \
		"$(command -v trace-cmd)" "$PWD/prefix.1" >bin/trace-cmd && chmod +x bin/trace-cmd &&
	"$VR" load -q -d normal.db "$sample" &&
	VR_TEST_IN_MEMORY_CAP=1 PATH=$PWD/bin:$PATH "$VR" load -q -v -d copy.db "$sample" 2>err &&
	grep -q "warning: $sample: its uncompressed copy does not match it: reading it in memory" err &&
	grep -qx "$in_memory" err &&
	dump_rows normal.db >expect && dump_rows copy.db >actual && test_cmp expect actual
'
test_expect_success 'every sample, two files decoded at once, the same rows' '
	mkdir tmp &&
	"$VR" load -q -d normal.db $samples &&
	VR_TEST_IN_MEMORY_CAP=1 TMPDIR=$PWD/tmp "$VR" load -q -v -j 2 -d copy.db $samples 2>err &&
	test $(grep -c "the rest read from an uncompressed copy\|zstd-compressed: read in memory" err) = \
	     $(for f in $samples; do trace-cmd dump --summary "$f" 2>&1; done |
	       grep "\[Compression algorithm\]" | grep -vc "^none") &&
	test $(grep -c "the rest read from an uncompressed copy" err) -ge 8 &&
	dump_rows normal.db >expect && dump_rows copy.db >actual && test_cmp expect actual &&
	test -z "$(ls -A tmp)"
'
test_expect_success 'trace-cmd missing: says so, loads in memory, the same rows' '
	mkdir tmp &&
	"$VR" load -q -d normal.db "$sample" &&
	VR_TEST_IN_MEMORY_CAP=1 TMPDIR=$PWD/tmp PATH=/nonexistent "$VR" load -q -v -d copy.db \
		"$sample" 2>err &&
	grep -q "vmscan-report: $sample: trace-cmd convert failed making an uncompressed copy: cannot run trace-cmd" err &&
	grep -q "warning: $sample: reading it in memory after all" err &&
	grep -qx "$in_memory" err &&
	dump_rows normal.db >expect && dump_rows copy.db >actual && test_cmp expect actual &&
	test -z "$(ls -A tmp)"
'
test_expect_success 'no directory for the copy: says so, loads in memory' '
	VR_TEST_IN_MEMORY_CAP=1 TMPDIR=$PWD/missing "$VR" load -q -v -d db "$sample" 2>err &&
	grep -q "vmscan-report: $sample: cannot make a directory for its uncompressed copy" err &&
	grep -qx "$in_memory" err &&
	test "$(sqlite3 db "SELECT count(*) FROM run")" = 1
'
test_expect_success 'interrupted while waiting for the copy: rolled back, trace-cmd killed' '
	mkdir tmp bin &&
	# a trace-cmd that never finishes; its command line names this test
	printf "#!/bin/bash\nexec -a vr-t1030-$$ sleep 3600\n" >bin/trace-cmd && chmod +x bin/trace-cmd &&
	"$VR" load -q -d db "$sample" &&
	cp db before.db &&
	# a background job of a script starts with SIGINT ignored, which load keeps
	{ VR_TEST_IN_MEMORY_CAP=1 TMPDIR=$PWD/tmp PATH=$PWD/bin:$PATH \
		env --default-signal=INT "$VR" load -q -d db --replace "$sample" 2>err & }
	pid=$! &&
	wait_started "vr-t1030-$$ 3600" &&
	sleep 0.2 && signal_and_wait $pid INT &&
	test_expect_code 1 wait $pid &&
	grep -q "interrupted" err &&
	! pgrep -f "vr-t1030-$$ 3600" &&
	dump_rows before.db >expect && dump_rows db >actual && test_cmp expect actual &&
	test -z "$(ls -A tmp)"
'
test_expect_success 'interrupted while trace-cmd makes the copy: the scratch files it writes in /tmp go, nothing else' '
	mkdir tmp bin &&
	# libtracecmd makes them with mkstemp("/tmp/trace_cpu_dataXXXXXX") and
	# deletes them only when done.  This trace-cmd holds one open for
	# writing, another of that shape for reading only, and its input,
	# itself named like one (a trace may be called anything), then waits.
	# (The files are held open until then: the start of a load removes scratch
	# files that no process has open.)
	scratch=$(mktemp /tmp/trace_cpu_dataXXXXXX) && other=$(mktemp /tmp/trace_cpu_dataXXXXXX) &&
	{ sleep 60 5<"$scratch" 6<"$other" & } && holder=$! &&
	input=$(mktemp /tmp/trace_cpu_dataXXXXXX) && cp "$sample" "$input" &&
	printf "#!/bin/bash\nexec 5<>%s 6<%s 7<\"\$3\"\nkill %s\nexec -a vr-t1030-s$$ sleep 3600\n" \
		"$scratch" "$other" "$holder" >bin/trace-cmd &&
	chmod +x bin/trace-cmd &&
	{ VR_TEST_IN_MEMORY_CAP=1 TMPDIR=$PWD/tmp PATH=$PWD/bin:$PATH \
		env --default-signal=INT "$VR" load -q -d db "$input" 2>err & }
	pid=$! &&
	wait_started "vr-t1030-s$$ 3600" &&
	sleep 0.2 && signal_and_wait $pid INT &&
	test_expect_code 1 wait $pid &&
	! pgrep -f "vr-t1030-s$$ 3600" &&
	test ! -e "$scratch" && test -e "$other" && test -e "$input" &&
	rm -f "$other" "$input" &&
	test -z "$(ls -A tmp)"
'
test_expect_success 'trace-cmd convert killed by someone else: read in memory, its scratch files go' '
	mkdir tmp bin &&
	printf "#!/bin/bash\ns=\$(mktemp /tmp/trace_cpu_dataXXXXXX)\necho \$s >%s/scratch.name\nexec 5<>\$s\nexec -a vr-t1030-o$$ sleep 3600\n" \
		"$PWD" >bin/trace-cmd && chmod +x bin/trace-cmd &&
	"$VR" load -q -d normal.db "$sample" &&
	{ VR_TEST_IN_MEMORY_CAP=1 TMPDIR=$PWD/tmp PATH=$PWD/bin:$PATH \
		"$VR" load -q -v -d db "$sample" 2>err & }
	pid=$! &&
	wait_started "vr-t1030-o$$ 3600" && sleep 0.2 &&
	pkill -KILL -f "vr-t1030-o$$ 3600" &&
	test_expect_code 0 wait $pid &&
	grep -q "trace-cmd convert was killed by signal 9" err &&
	grep -q "reading it in memory after all" err &&
	scratch=$(cat scratch.name) && test ! -e "$scratch" &&
	grep -q "removed $scratch, left by a trace-cmd convert that was killed" err &&
	dump_rows normal.db >expect && dump_rows db >actual && test_cmp expect actual &&
	test -z "$(ls -A tmp)"
'
test_expect_success '--low-memory, no directory for the copy: said once, exit 1, no database' '
	TMPDIR=$PWD/missing test_expect_code 1 "$VR" load -q --low-memory -d db "$sample" 2>err &&
	test $(grep -c "cannot make a directory for its uncompressed copy" err) = 1 &&
	! grep -q "in memory" err && test ! -e db
'
test_expect_success 'a tmpfs TMPDIR past the cap: says why, read in memory' '
	test "$(stat -f -c %T /dev/shm)" = tmpfs || test_skip_because "/dev/shm is no tmpfs"
	VR_TEST_IN_MEMORY_CAP=1 TMPDIR=/dev/shm "$VR" load -q -v -d db "$sample" 2>err &&
	grep -q "warning: $sample: read in memory (about .* MiB once decompressed): /dev/shm is a tmpfs" err &&
	grep -qx "$in_memory" err
'
test_expect_success 'waiting for the copy, the command is killed (SIGKILL): nothing commits, nothing left running' '
	mkdir tmp bin &&
	printf "#!/bin/bash\nexec -a vr-t1030-k$$ sleep 3600\n" >bin/trace-cmd && chmod +x bin/trace-cmd &&
	"$VR" load -q -d db "$sample" && dump_rows db >expect &&
	{ VR_TEST_IN_MEMORY_CAP=1 TMPDIR=$PWD/tmp PATH=$PWD/bin:$PATH \
		"$VR" load -q -d db --replace "$sample" 2>err & }
	pid=$! &&
	wait_started "vr-t1030-k$$ 3600" &&
	sleep 0.2 && kill -KILL $pid && { wait $pid || true; } &&
	for i in $(seq 100); do pgrep -f "vr-t1030-k$$ 3600" >/dev/null || break; sleep 0.05; done &&
	! pgrep -f "vr-t1030-k$$ 3600" &&
	sleep 0.2 && dump_rows db >actual && test_cmp expect actual
'
test_expect_success '--low-memory, interrupted while waiting for the copy: exit 1, trace-cmd killed' '
	mkdir tmp bin &&
	printf "#!/bin/bash\nexec -a vr-t1030-l$$ sleep 3600\n" >bin/trace-cmd && chmod +x bin/trace-cmd &&
	{ TMPDIR=$PWD/tmp PATH=$PWD/bin:$PATH "$VR" load -q --low-memory -d db "$sample" 2>err & }
	pid=$! &&
	wait_started "vr-t1030-l$$ 3600" &&
	signal_and_wait $pid TERM &&
	test_expect_code 1 wait $pid &&
	! pgrep -f "vr-t1030-l$$ 3600" && test ! -e db && test -z "$(ls -A tmp)"
'
test_expect_success 'started with SIGHUP ignored (nohup): a hangup does not stop the load' '
	mkdir tmp bin &&
	# a trace-cmd that takes a second before making the copy
	printf "#!/bin/bash\nsleep 1\nexec %s \"\\$@\"\n" "$(command -v trace-cmd)" >bin/trace-cmd &&
	chmod +x bin/trace-cmd &&
	{ VR_TEST_IN_MEMORY_CAP=1 TMPDIR=$PWD/tmp PATH=$PWD/bin:$PATH \
		env --ignore-signal=HUP "$VR" load -q -d db "$sample" 2>err & }
	pid=$! &&
	sleep 0.5 && kill -HUP $pid &&
	test_expect_code 0 wait $pid &&
	test "$(sqlite3 db "SELECT count(*) FROM run")" = 1 && ! grep -q interrupted err
'
test_expect_success 'trace-cmd convert that fails: its scratch files go, a file alike made meanwhile stays' '
	mkdir tmp bin &&
	# as libtracecmd does when the disk fills: a scratch file written,
	# then an error, the file left behind.  While it runs, the user makes
	# a file named alike (mktemp): not made by the convert, it stays
	printf "#!/bin/bash\ns=\$(mktemp /tmp/trace_cpu_dataXXXXXX)\necho \$s >%s/scratch.name\nexec 5<>\$s\necho data >&5\ntouch %s/started\nuntil [ -e %s/go ]; do sleep 0.05; done\nsleep 0.5\necho \"trace-cmd: No space left on device\" >&2\nexit 1\n" \
		"$PWD" "$PWD" "$PWD" >bin/trace-cmd && chmod +x bin/trace-cmd &&
	{ VR_TEST_IN_MEMORY_CAP=1 TMPDIR=$PWD/tmp PATH=$PWD/bin:$PATH "$VR" load -q -d db "$sample" 2>err & }
	pid=$! &&
	for i in $(seq 200); do test -e started && break; sleep 0.05; done && test -e started &&
	user=$(mktemp /tmp/trace_cpu_dataXXXXXX) && touch go &&
	test_expect_code 0 wait $pid &&
	grep -q "trace-cmd convert failed making an uncompressed copy: trace-cmd: No space left on device" err &&
	scratch=$(cat scratch.name) && test -n "$scratch" && test ! -e "$scratch" &&
	grep -q "removed $scratch, left by a trace-cmd convert that failed" err &&
	test -e "$user" && ! grep -q "$user" err && rm -f "$user" &&
	test "$(sqlite3 db "SELECT count(*) FROM run")" = 1 && test -z "$(ls -A tmp)"
'
test_expect_success 'a load killed (SIGKILL) while trace-cmd makes the copy: the next load removes its scratch file' '
	mkdir tmp bin &&
	printf "#!/bin/bash\ns=\$(mktemp /tmp/trace_cpu_dataXXXXXX)\necho \$s >%s/scratch.name\nexec 5<>\$s\nexec -a vr-t1030-c$$ sleep 3600\n" \
		"$PWD" >bin/trace-cmd && chmod +x bin/trace-cmd &&
	{ VR_TEST_IN_MEMORY_CAP=1 TMPDIR=$PWD/tmp PATH=$PWD/bin:$PATH "$VR" load -q -d db "$sample" 2>err & }
	pid=$! &&
	wait_started "vr-t1030-c$$ 3600" && sleep 0.3 &&
	kill -KILL $pid && { wait $pid || true; } &&
	for i in $(seq 100); do pgrep -f "vr-t1030-c$$ 3600" >/dev/null || break; sleep 0.05; done &&
	! pgrep -f "vr-t1030-c$$ 3600" &&
	# left behind, as a real convert killed with its load leaves them
	scratch=$(cat scratch.name) && test -n "$scratch" && test -f "$scratch" &&
	rm -rf tmp/* && TMPDIR=$PWD/tmp "$VR" load -q -d db2 "$sample" 2>err2 &&
	test ! -e "$scratch" &&
	grep -q "removed $scratch, left by a trace-cmd convert that was killed with its load" err2
'
test_expect_success 'the copy of a killed load goes at the start of any load; the files of the user named like scratch files stay' '
	mkdir tmp && dead=$(cat /proc/sys/kernel/pid_max) && ! kill -0 $dead 2>/dev/null &&
	mkdir tmp/vmscan-report-$dead-abcdef && echo x >tmp/vmscan-report-$dead-abcdef/uncompressed.dat &&
	# files of the user named as libtracecmd names its scratch files:
	# one old and closed, one open, and the input itself: no load made
	# them, none is touched
	left=$(mktemp /tmp/trace_cpu_dataXXXXXX) && touch -d "1 hour ago" "$left" &&
	busy=$(mktemp /tmp/trace_cpu_dataXXXXXX) && { sleep 60 5<"$busy" & } && holder=$! &&
	input=$(mktemp /tmp/trace_cpu_dataXXXXXX) && cp "$sample" "$input" &&
	# a load under the cap: it makes no copy of its own
	TMPDIR=$PWD/tmp "$VR" load -q -d db "$input" 2>err &&
	test ! -e tmp/vmscan-report-$dead-abcdef &&
	grep -q "removed $PWD/tmp/vmscan-report-$dead-abcdef, left by a load that was killed" err &&
	test -e "$left" && test -e "$busy" && test -e "$input" && ! grep -q trace_cpu_data err &&
	kill $holder && rm -f "$left" "$busy" "$input"
'
test_done
