#!/usr/bin/env bash
# lru_shrink_stall, the shrink_inactive calls made inside a reclaim stall of
# the same task per stall kind, counted by the model while the events
# stream (model_stall_pages()), against the sums worked out by hand from
# tests/data-model/stall-pages-6.18.spec (its comments give each call's
# fate):
#   direct: 2 (pid 200), 8 + 16 (201, end without a begin), 64 + 128 (202,
#     a begin left unended), 1024 + 2048 (204, at the begin's and the end's
#     times), 4096 + 8192 (205, open at the trace's end), 16384 + 0 (206,
#     a retry pass counts 0 scanned): 11 calls, 31962 scanned, reclaimed
#     the same but 206's 10 + 5: 15593;
#   memcg: 256 + 512 (0 reclaimed): 2 calls, 768, 256;
#   memcg_softlimit: 256: 1 call, 256, 256.
# The same rows come from the SQL over the raw rows (the table dropped and
# made again by the next load) and from a text trace out of order (the
# model cannot count it: the SQL does).
. "$(dirname "$0")/lib.sh"

MKDAT="$TOP/tests/mkdat.py"
DATA="$TOP/tests/data-model"

expect() {
	printf "%s\n" "1|direct|31962|15593|11" "1|memcg|768|256|2" \
		"1|memcg_softlimit|256|256|1" >expect
}

test_expect_success 'counted while streaming: the sums worked out by hand' '
	python3 "$MKDAT" "$DATA/stall-pages-6.18.spec" s.dat &&
	"$VR" load -q -d s.db s.dat &&
	sqlite3 s.db "SELECT * FROM lru_shrink_stall" >actual &&
	expect && test_cmp expect actual
'

test_expect_success 'the SQL over the raw rows gives the same rows' '
	python3 "$MKDAT" "$DATA/stall-pages-6.18.spec" s.dat &&
	"$VR" load -q -d s.db s.dat &&
	sqlite3 s.db "DROP TABLE lru_shrink_stall" &&
	python3 "$MKDAT" "$DATA/slab-6.18.spec" other.dat &&
	"$VR" load -q -d s.db other.dat 2>err &&
	grep -q "made from the raw rows" err &&
	sqlite3 s.db "SELECT * FROM lru_shrink_stall WHERE run_id = 1" >actual &&
	expect && test_cmp expect actual
'

test_expect_success 'a text trace out of time order: summed by the SQL, the same rows' '
	python3 "$MKDAT" "$DATA/stall-pages-6.18.spec" s.dat &&
	trace-cmd report s.dat >s.txt 2>/dev/null &&
	grep -q "a-200 .* 1\.000000: mm_vmscan_lru_shrink_inactive" s.txt &&
	{ grep -v "a-200 .* 1\.000000:" s.txt; grep "a-200 .* 1\.000000:" s.txt; } >late.txt &&
	"$VR" load -q -d t.db late.txt &&
	sqlite3 t.db "SELECT * FROM lru_shrink_stall" >actual &&
	expect && test_cmp expect actual
'

test_done
