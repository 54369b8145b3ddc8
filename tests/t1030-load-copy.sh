#!/usr/bin/env bash
# load of a compressed trace.dat past the in-memory cap: decoded in memory
# until an uncompressed copy made meanwhile by trace-cmd convert is ready,
# then from the copy (libtracecmd keeps every decompressed chunk of the
# file in memory).  The database gets exactly the rows of a load read
# wholly in memory; no copy is left behind; a copy that cannot be made only
# costs memory.  VR_TEST_IN_MEMORY_CAP (bytes) puts the samples, a few MB,
# past the cap: with 1 byte the reader stops at its first look (after 1024
# events) and waits for the copy, so both parts are always exercised.
. "$(dirname "$0")/lib.sh"
samples=$(ls "${VR_SAMPLES_DIR:-$TOP/samples}"/*.dat 2>/dev/null)
sample=$(echo "$samples" | head -1)

algo=$(trace-cmd dump --summary "$sample" 2>&1 | awk '/\[Compression algorithm\]/ { print $1 }')
in_memory="vmscan-report: $sample: $algo-compressed: read in memory"
switched="vmscan-report: $sample: $algo-compressed: [0-9.]* MiB decompressed in memory, the rest read from an uncompressed copy"

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
test_expect_success 'every sample, two files decoded at once, the same rows' '
	mkdir tmp &&
	"$VR" load -q -d normal.db $samples &&
	VR_TEST_IN_MEMORY_CAP=1 TMPDIR=$PWD/tmp "$VR" load -q -v -j 2 -d copy.db $samples 2>err &&
	test $(grep -c "the rest read from an uncompressed copy" err) = \
	     $(for f in $samples; do trace-cmd dump --summary "$f" 2>&1; done |
	       grep "\[Compression algorithm\]" | grep -vc "^none") &&
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
	{ VR_TEST_IN_MEMORY_CAP=1 TMPDIR=$PWD/tmp PATH=$PWD/bin:$PATH \
		"$VR" load -q -d db --replace "$sample" 2>err & }
	pid=$! &&
	for i in $(seq 100); do pgrep -f "vr-t1030-$$ 3600" >/dev/null && break; sleep 0.05; done &&
	pgrep -f "vr-t1030-$$ 3600" >/dev/null &&
	sleep 0.2 && kill -INT $pid &&
	for i in $(seq 200); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done &&
	if kill -0 $pid 2>/dev/null; then kill -9 $pid; echo "still running"; false; fi &&
	test_expect_code 1 wait $pid &&
	grep -q "interrupted" err &&
	! pgrep -f "vr-t1030-$$ 3600" &&
	dump_rows before.db >expect && dump_rows db >actual && test_cmp expect actual &&
	test -z "$(ls -A tmp)"
'
test_done
