#!/usr/bin/env bash
# Text traces as they arrive: a UTF-8 byte order mark, a TAB at the end of
# every line, a pipe instead of a file (read), a compressed text (read
# through its decompressor).
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
# the values the trace above gives, by hand: 4 events, one direct stall of
# 100.000900 - 100.000200 s = 700000 ns that reclaimed 30 pages, kswapd's
# cycle from 100.000100 to 100.002000 s
values() {
	sqlite3 "$1" "SELECT (SELECT count(*) FROM mm_vmscan_kswapd_wake) + (SELECT count(*) FROM
		mm_vmscan_kswapd_sleep) + (SELECT count(*) FROM mm_vmscan_direct_reclaim_begin) +
		(SELECT count(*) FROM mm_vmscan_direct_reclaim_end),
		(SELECT group_concat(duration_ns) FROM reclaim_stall),
		(SELECT group_concat(nr_reclaimed) FROM mm_vmscan_direct_reclaim_end)"
}
# every table but run, whose source_path differs
rows() { dump_rows "$1" | awk '/^== /{ skip = ($2 == "run") } !skip'; }

test_expect_success 'a pipe (/dev/stdin) is read: the same rows as the file' '
	trace >t.txt && "$VR" load -q -d f.db t.txt &&
	cat t.txt | "$VR" load -d a.db /dev/stdin >out 2>err &&
	grep -q "^run 1: .* <- /dev/stdin" out &&
	test "$(values a.db)" = "4|700000|30" &&
	rows f.db >want && rows a.db >got && test_cmp want got &&
	test "$(sqlite3 a.db "SELECT source_path || \" \" || source_format FROM run")" = "/dev/stdin text" &&
	: its contents are the text it carried: loaded already &&
	cat t.txt | test_expect_code 1 "$VR" load -d a.db /dev/stdin 2>err &&
	grep -q "/dev/stdin: already loaded as run 1 (same contents)" err
'
test_expect_success 'a FIFO (mkfifo) is read once, its writer not cut off; one carrying a trace.dat or nothing is named' '
	trace >t.txt && mkfifo ff &&
	: a load that opened the FIFO twice would wait for a writer for ever &&
	{ timeout 60 cat t.txt >ff & } && timeout -k 5 60 "$VR" load -d a.db ff >out && wait &&
	grep -q "^run 1: .* <- ff" out && test "$(values a.db)" = "4|700000|30" &&
	S=${VR_SAMPLES_DIR:-$TOP/samples} &&
	{ timeout 60 cat "$S/wsf200-1.dat" >ff 2>/dev/null & } &&
	test_expect_code 1 timeout -k 5 60 "$VR" load -d a.db ff 2>err && wait &&
	grep -q "ff: is a pipe (FIFO) carrying a trace.dat file: .*save it to one first" err &&
	{ timeout 60 sh -c ": >ff" & } && test_expect_code 1 timeout -k 5 60 "$VR" load -d a.db ff 2>err &&
	wait &&
	grep -q "ff: is a pipe (FIFO) that carried nothing (empty)" err &&
	test "$(sqlite3 a.db "SELECT count(*) FROM run")" = 1
'
test_expect_success 'a compressed text trace (gzip, xz, zstd; a file or a pipe) is read through its decompressor: the same rows as the text' '
	trace >t.txt && "$VR" load -q -d f.db t.txt && rows f.db >want &&
	gzip -c t.txt >t.txt.gz && xz -c t.txt >t.txt.xz && zstd -q -c t.txt >t.txt.zst &&
	: two gzip members, as cat a.gz b.gz makes, are one text &&
	head -n 2 t.txt | gzip -c >two.gz && tail -n +3 t.txt | gzip -c >>two.gz &&
	for f in t.txt.gz t.txt.xz t.txt.zst two.gz; do
		rm -f c.db && "$VR" load -q -d c.db $f && rows c.db >got &&
		test_cmp want got && test "$(values c.db)" = "4|700000|30" || exit 1
	done &&
	rm -f c.db && cat t.txt.xz | "$VR" load -q -d c.db /dev/stdin && rows c.db >got && test_cmp want got &&
	: the same contents as the text: the hash is the text s &&
	test_expect_code 1 "$VR" load -d f.db t.txt.zst 2>err &&
	grep -q "t.txt.zst: already loaded as run 1 (same contents)" err
'
test_expect_success 'a compressed text cut off or corrupt: refused, naming the format and the byte; bzip2 named' '
	trace >t.txt && "$VR" load -q -d a.db t.txt && dump_rows a.db >before &&
	gzip -c t.txt >t.gz && head -c 60 t.gz >cut.gz && xz -c t.txt >t.xz && head -c 60 t.xz >cut.xz &&
	zstd -q -c t.txt >t.zst && head -c 30 t.zst >cut.zst &&
	for f in cut.gz:gzip cut.xz:xz cut.zst:zstd; do
		test_expect_code 1 "$VR" load -d a.db ${f%%:*} 2>err &&
		grep -q "${f%%:*}: corrupt or truncated ${f#*:} data at byte [0-9]* of the file" err || { cat err; exit 1; }
	done &&
	: a byte of the deflate data changed: the CRC or the code says so &&
	cp t.gz bad.gz && printf "\377\377" | dd of=bad.gz bs=1 seek=30 conv=notrunc 2>/dev/null &&
	test_expect_code 1 "$VR" load -d a.db bad.gz 2>err && grep -q "bad.gz: corrupt or truncated gzip data" err &&
	bzip2 -c t.txt >t.bz2 && test_expect_code 1 "$VR" load -d a.db t.bz2 2>err &&
	grep -q "t.bz2: is bzip2-compressed" err && ! grep -q "binary data" err &&
	dump_rows a.db >after && test_cmp before after
'
test_done
