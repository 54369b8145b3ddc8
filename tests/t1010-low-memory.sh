#!/usr/bin/env bash
# load --low-memory: a compressed trace.dat is read through an uncompressed
# copy made by trace-cmd convert in $TMPDIR; the database gets exactly the
# rows of a normal load, the run describes the original file, and no copy
# is left behind, also when trace-cmd cannot be run.
. "$(dirname "$0")/lib.sh"
sample=$(ls "${VR_SAMPLES_DIR:-$TOP/samples}"/*.dat 2>/dev/null | head -1)


algo=$(trace-cmd dump --summary "$sample" 2>&1 | awk '/\[Compression algorithm\]/ { print $1 }')

test_expect_success 'a compressed sample exists' '
	test -n "$sample" && test -n "$algo" && test "$algo" != none
'
test_expect_success 'the same rows as a normal load; the run is the original file' '
	mkdir tmp &&
	"$VR" load -q -d normal.db "$sample" &&
	TMPDIR=$PWD/tmp "$VR" load -q -d low.db --low-memory "$sample" &&
	dump_rows normal.db >expect && dump_rows low.db >actual && test_cmp expect actual &&
	sha256sum "$sample" | cut -d" " -f1 >expect &&
	sqlite3 low.db "SELECT content_sha256 FROM run" >actual && test_cmp expect actual &&
	test "$(sqlite3 low.db "SELECT source_path FROM run")" = "$sample" &&
	test "$(sqlite3 low.db "SELECT compression FROM run")" = "$algo" &&
	test -z "$(ls -A tmp)"
'
test_expect_success 'trace-cmd missing: exit 1, says so, no database and no copy left' '
	mkdir tmp &&
	TMPDIR=$PWD/tmp PATH=/nonexistent test_expect_code 1 "$VR" load -q -d x.db --low-memory \
		"$sample" 2>err &&
	grep -q "vmscan-report: $sample: trace-cmd convert failed making an uncompressed copy: cannot run trace-cmd" err &&
	test ! -e x.db && test -z "$(ls -A tmp)"
'
test_expect_success 'an uncompressed file is read as it is' '
	mkdir tmp &&
	trace-cmd convert -i "$sample" -o plain.dat --compression none 2>/dev/null &&
	# LeakSanitizer cannot run under ptrace (make asan)
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=mkdir -o trace.log env TMPDIR=$PWD/tmp \
		"$VR" load -q -d plain.db --low-memory plain.dat &&
	! grep -q "vmscan-report-" trace.log &&
	test -z "$(sqlite3 plain.db "SELECT compression FROM run")" &&
	test "$(sqlite3 plain.db "SELECT count(*) FROM slab_shrink")" = \
	     "$(sqlite3 plain.db "SELECT count(*) FROM mm_shrink_slab_end")"
'
test_expect_success 'a copy left by a killed load is removed, a live one is not' '
	mkdir tmp && pid_max=$(cat /proc/sys/kernel/pid_max) &&
	dead=$pid_max && ! kill -0 $dead 2>/dev/null &&
	mkdir tmp/vmscan-report-$dead-abcdef tmp/vmscan-report-$$-abcdef &&
	echo x >tmp/vmscan-report-$dead-abcdef/uncompressed.dat &&
	TMPDIR=$PWD/tmp "$VR" load -q -d db --low-memory "$sample" 2>err &&
	grep -q "removed $PWD/tmp/vmscan-report-$dead-abcdef, left by a load that was killed" err &&
	test ! -e tmp/vmscan-report-$dead-abcdef && test -d tmp/vmscan-report-$$-abcdef
'
test_done
