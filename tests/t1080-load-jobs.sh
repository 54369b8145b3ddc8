#!/usr/bin/env bash
# -j N bounds the files decoded at once by the CPUs (and the memory): a
# large -j is not that many files in memory at once.
. "$(dirname "$0")/lib.sh"

# the 12 smallest recordings of samples/: different contents, each a run
files=$(ls -S -r "$TOP"/samples/*.dat "$TOP"/samples/lab/*.dat 2>/dev/null | head -12)

test_expect_success '-j 1000000 decodes no more files at once than there are CPUs: peak memory within 1.5 times that of -j 1' '
	test -x /usr/bin/time || test_skip_because "no /usr/bin/time (GNU time) to measure peak memory"
	test "$(echo "$files" | wc -l)" = 12 || test_skip_because "fewer than 12 recordings in samples/"
	: two CPUs, whatever the machine has: each file decodes on one thread &&
	pin= && if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then pin="taskset -c 0,1"; fi &&
	for j in 1 1000000; do
		$pin /usr/bin/time -f %M -o rss.$j "$VR" load -q -j $j -d j$j.db $files || exit 1
		test "$(sqlite3 j$j.db "SELECT count(*) FROM run")" = 12 || exit 1
	done &&
	echo "peak RSS: -j 1 $(cat rss.1) KiB, -j 1000000 $(cat rss.1000000) KiB" &&
	test "$(cat rss.1000000)" -le "$(( $(cat rss.1) * 3 / 2 ))"
'
test_done
