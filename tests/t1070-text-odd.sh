#!/usr/bin/env bash
# Text traces as they arrive: a UTF-8 byte order mark, a TAB at the end of
# every line, a pipe instead of a file, a compressed text.
. "$(dirname "$0")/lib.sh"

trace() {
	cat <<EOT
 kswapd0-52    [000]   100.000100: mm_vmscan_kswapd_wake: nid=0 order=0
     dd-1234  [001]   100.000200: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
     dd-1234  [001]   100.000900: mm_vmscan_direct_reclaim_end: nr_reclaimed=30
 kswapd0-52    [000]   100.002000: mm_vmscan_kswapd_sleep: nid=0
EOT
}

test_expect_success 'a UTF-8 byte order mark before the first line is not part of its comm' '
	{ printf "\357\273\277"; trace; } >bom.txt &&
	"$VR" load -q -d a.db bom.txt &&
	test "$(sqlite3 a.db "SELECT group_concat(pid || \"=\" || hex(comm)) FROM (SELECT * FROM task ORDER BY pid)")" = "52=6B737761706430,1234=6464"
'
test_expect_success 'a TAB at the end of every line is a blank as a trailing space is: every last value read' '
	trace | sed "s/\$/	/" >tab.txt && grep -q "	\$" tab.txt &&
	"$VR" load -q -d a.db tab.txt 2>err && ! grep -q "could not be read" err &&
	test "$(sqlite3 a.db "SELECT nr_reclaimed FROM mm_vmscan_direct_reclaim_end")" = 30 &&
	test "$(sqlite3 a.db "SELECT nid FROM mm_vmscan_kswapd_sleep")" = 0 &&
	test "$(sqlite3 a.db "SELECT \"order\" FROM mm_vmscan_kswapd_wake")" = 0
'
test_expect_success 'a pipe (/dev/stdin) is named as a pipe, not an empty file' '
	trace >t.txt &&
	cat t.txt | { test_expect_code 1 "$VR" load -d a.db /dev/stdin 2>err; } &&
	grep -q "/dev/stdin: is a pipe (FIFO), not a file" err && ! grep -q empty err &&
	test ! -e a.db
'
test_expect_success 'a compressed text trace (gzip, xz, zstd) is named by its compression, not "binary data"' '
	trace >t.txt &&
	gzip -c t.txt >t.txt.gz && xz -c t.txt >t.txt.xz &&
	for f in t.txt.gz:gzip t.txt.xz:xz; do
		test_expect_code 1 "$VR" load -d a.db ${f%%:*} 2>err &&
		grep -q "${f%%:*}: is ${f#*:}-compressed" err && ! grep -q "binary data" err || exit 1
	done &&
	if command -v zstd >/dev/null; then
		zstd -q -c t.txt >t.txt.zst &&
		test_expect_code 1 "$VR" load -d a.db t.txt.zst 2>err &&
		grep -q "t.txt.zst: is zstd-compressed" err
	fi
'
test_done
