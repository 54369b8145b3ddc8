#!/usr/bin/env bash
# -j N bounds the files decoded at once by the CPUs (and the memory): a
# large -j is not that many files in memory at once.
. "$(dirname "$0")/lib.sh"

# the 12 smallest recordings of samples/: different contents, each a run
files=$(ls -S -r "$TOP"/samples/*.dat "$TOP"/samples/lab/*.dat 2>/dev/null | head -12)

# Pinned to two CPUs, -j 1000000 must be -j 2: within 1.25 times its peak
# memory (12 files decoded at once would be several times it; two at once
# is up to twice -j 1's, more as the files grow, so -j 1 is no yardstick).
test_expect_success '-j 1000000 decodes no more files at once than there are CPUs: peak memory that of -j 2 on two CPUs' '
	test -x /usr/bin/time || test_skip_because "no /usr/bin/time (GNU time) to measure peak memory"
	test "$(echo "$files" | wc -l)" = 12 || test_skip_because "fewer than 12 recordings in samples/"
	: two CPUs, whatever the machine has: each file decodes on one thread &&
	pin= && if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then pin="taskset -c 0,1"; fi &&
	test -n "$pin" || test_skip_because "fewer than two CPUs, or no taskset"
	for j in 2 1000000; do
		$pin /usr/bin/time -f %M -o rss.$j "$VR" load -q -j $j -d j$j.db $files 2>/dev/null || exit 1
		test "$(sqlite3 j$j.db "SELECT count(*) FROM run")" = 12 || exit 1
	done &&
	echo "peak RSS: -j 2 $(cat rss.2) KiB, -j 1000000 $(cat rss.1000000) KiB" &&
	test "$(cat rss.1000000)" -le "$(( $(cat rss.2) * 5 / 4 ))"
'
test_done
