#!/usr/bin/env bash
# Schema version 3: one row of shrink_call per shrinker call (the model's
# pairing of mm_shrink_slab_start and _end), the shrinker named by an id of
# the table shrinker, and the event tables of version 2 as views with the
# same columns and values (src/store/store-slab.c).  The rows version 2's
# tables held for tests/data-model/slab-6.18.spec, as trace.dat and as
# trace-cmd report's text, are tests/data-model/schema-v2-slab.sql (made by
# vmscan-report a82f226).  That spec's calls, by hand: pid 101's end without
# a start, pid 100's two calls, pid 102's start without an end and its next
# call, pid 101's start still open at the end: 6 rows; two shrinkers
# (0x...1000 deferred_split_scan, 0x...2000 super_cache_scan), and in the
# text, which prints the symbols without the addresses, two more; the
# text's printed values it could not convert (extra) are in
# shrink_call_more, a row for each of its 6 calls; the trace.dat's only
# for pid 101's end without a start (its own cpu, shrinker, nid and
# unused_scan, end_own: schema version 4, t2055; its slab_complete 0) and
# for pid 100's second call, paired but not complete (events lost inside
# it: slab_complete 0, schema version 6; the 2 other paired calls' 1 is
# not stored).
. "$(dirname "$0")/lib.sh"

MKDAT="$TOP/tests/mkdat.py"
DATA="$TOP/tests/data-model"

# rows DB T: the rows of table or view T in a fixed order, with a header
rows() {
	if [ "$2" = slab_shrink ]; then
		sqlite3 -header "$1" "SELECT * FROM $2 ORDER BY run_id, begin_ns, end_ns, pid"
	else
		sqlite3 -header "$1" "SELECT * FROM $2 ORDER BY run_id, ts_ns, pid"
	fi
}

# cols DB T: the names of T's columns, in order
cols() {
	sqlite3 "$1" "SELECT group_concat(name, ',') FROM pragma_table_info('$2')"
}

load_both() {	# DB: s.dat as run 1, its text as run 2
	python3 "$MKDAT" "$DATA/slab-6.18.spec" s.dat &&
	trace-cmd report s.dat >s.txt 2>/dev/null &&
	"$VR" load -q -d "$1" s.dat s.txt
}

test_expect_success 'the views: version 2 tables columns and rows, one row per call' '
	load_both s.db &&
	sqlite3 v2.db <"$DATA/schema-v2-slab.sql" &&
	for t in mm_shrink_slab_start mm_shrink_slab_end; do
		test "$(sqlite3 s.db "SELECT type FROM sqlite_master WHERE name = \"$t\"")" = view &&
		test "$(cols s.db $t)" = "$(cols v2.db $t)" &&
		rows v2.db $t >expect && rows s.db $t >actual && test_cmp expect actual ||
		return 1
	done &&
	test "$(sqlite3 s.db "SELECT count(*) FROM shrink_call WHERE run_id = 1")" = 6 &&
	test "$(sqlite3 s.db "SELECT count(*) FROM shrink_call WHERE run_id = 2")" = 6 &&
	sqlite3 s.db "SELECT printf(\"%x\", shr), shr IS NULL, shrink IS NULL, shrink_sym
		FROM shrinker ORDER BY id" >actual &&
	printf "%s\n" "ffff888100001000|0|0|deferred_split_scan" \
		"ffff888100002000|0|0|super_cache_scan" "0|1|1|deferred_split_scan" \
		"0|1|1|super_cache_scan" >expect &&
	test_cmp expect actual &&
	test "$(sqlite3 s.db "SELECT group_concat(c.pid || \":\" || m.slab_complete) FROM
		(SELECT * FROM shrink_call_more ORDER BY call_id) m JOIN shrink_call c
		ON c.id = m.call_id WHERE m.run_id = 1")" = 101:0,100:0 &&
	test "$(sqlite3 s.db "SELECT count(*) FROM shrink_call WHERE run_id = 1 AND ts_ns IS NOT NULL
		AND end_offset_ns IS NOT NULL")" = 3 &&
	test "$(sqlite3 s.db "SELECT count(*) FROM shrink_call_more WHERE run_id = 2")" = 6
'

test_expect_success 'a second load names the same shrinkers by the same ids' '
	load_both s.db &&
	python3 "$MKDAT" "$DATA/slab-6.18.spec" s.dat &&
	"$VR" load -q -d s.db --kernel again --iteration 1 --replace s.dat &&
	test "$(sqlite3 s.db "SELECT count(*) FROM shrinker")" = 4 &&
	test "$(sqlite3 s.db "SELECT group_concat(DISTINCT shrinker_id) FROM
		(SELECT shrinker_id FROM shrink_call WHERE run_id = 1 AND shrinker_id IS NOT NULL
		 ORDER BY 1)")" = 1,2
'

test_expect_success 'schema version 2: read as it is, upgraded by the next load, rows kept' '
	sqlite3 v2.db <"$DATA/schema-v2-slab.sql" &&
	sqlite3 v2.db "CREATE VIEW mine AS SELECT run_id, shrink_sym FROM mm_shrink_slab_start" &&
	for t in mm_shrink_slab_start mm_shrink_slab_end slab_shrink; do
		rows v2.db $t >before-$t || return 1
	done &&
	"$VR" summary -d v2.db >sum && grep -q "^run 1: 6.18.0-test" sum &&
	sqlite3 v2.db .dump >dump0 &&
	printf "not a trace\n" >bad.txt &&
	test_expect_code 1 "$VR" load -q -d v2.db bad.txt 2>err &&
	sqlite3 v2.db .dump >dump1 && test_cmp dump0 dump1 &&
	test "$(sqlite3 v2.db "PRAGMA user_version")" = 2 &&
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" other.dat &&
	"$VR" load -q -d v2.db other.dat 2>err &&
	test "$(sqlite3 v2.db "PRAGMA user_version")" = 7 &&
	for t in mm_shrink_slab_start mm_shrink_slab_end slab_shrink; do
		rows v2.db $t >after-$t && test_cmp before-$t after-$t || return 1
	done &&
	test "$(sqlite3 v2.db "SELECT count(*) FROM mine")" = 10 &&
	test "$(sqlite3 v2.db "SELECT count(*) FROM shrink_call")" = 12 &&
	test "$(sqlite3 v2.db "SELECT count(*) FROM shrinker")" = 4 &&
	test -z "$(sqlite3 v2.db "SELECT name FROM sqlite_master WHERE name LIKE \"vr_v2%\"")" &&
	"$VR" summary -d v2.db >sum && grep -q "^run 3: " sum
'

# schema-v5-slab.sql: slab-6.18.spec (run 1), slab-echo-6.18.spec (run 2),
# the first as text (run 3), made by af48cf5 (slab_complete in every row of
# shrink_call).  By hand (the specs' comments): run 1 keeps slab_complete for
# pid 101's end alone (0) and pid 100's incomplete call (0); run 2 for pid
# 204's end alone (0); run 3 as run 1; the 8 other paired calls' 1s go.
test_expect_success 'schema version 5: slab_complete moved to shrink_call_more, views the same' '
	sqlite3 v5.db <"$DATA/schema-v5-slab.sql" &&
	sqlite3 v5.db "CREATE VIEW mine AS SELECT run_id, ts_ns, pid, slab_complete FROM mm_shrink_slab_end;
		CREATE VIEW raw AS SELECT slab_complete FROM shrink_call;
		CREATE INDEX my_idx ON shrink_call (run_id)" &&
	for t in mm_shrink_slab_start mm_shrink_slab_end slab_shrink mine; do
		rows v5.db $t >before-$t || return 1
	done &&
	"$VR" summary -d v5.db >sum && grep -q "^run 1: 6.18.0-test" sum &&
	test "$(sqlite3 v5.db "PRAGMA user_version")" = 5 &&
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" other.dat &&
	"$VR" load -q -d v5.db other.dat 2>err &&
	test "$(sqlite3 v5.db "PRAGMA user_version")" = 7 &&
	grep -q "warning: v5.db: the schema upgrade to version 7 (written with this command.s changes): view raw reads shrink_call (or its _more table), whose values change: slab_complete moved" err &&
	grep -q "warning: v5.db: the schema upgrade to version 7 (written with this command.s changes) drops index my_idx on shrink_call (its rows move to a new shrink_call, whose columns may differ; make it again there if you need it; it was: CREATE INDEX my_idx ON shrink_call (run_id))$" err &&
	! grep -q "view mine" err &&
	for t in mm_shrink_slab_start mm_shrink_slab_end slab_shrink mine; do
		rows v5.db $t | grep -v "^4|" >after-$t && test_cmp before-$t after-$t || return 1
	done &&
	load_both s.db &&
	test "$(cols v5.db shrink_call)" = "$(cols s.db shrink_call)" &&
	test "$(cols v5.db shrink_call_more)" = "$(cols s.db shrink_call_more)" &&
	! cols v5.db shrink_call | grep -q slab_complete &&
	test "$(sqlite3 v5.db "SELECT group_concat(run_id || \":\" || pid || \":\" || slab_complete)
		FROM (SELECT c.run_id, c.pid, m.slab_complete FROM shrink_call c JOIN shrink_call_more m
		ON m.call_id = c.id WHERE c.run_id < 4 AND m.slab_complete IS NOT NULL
		ORDER BY c.id)")" = 1:101:0,1:100:0,2:204:0,3:101:0,3:100:0 &&
	test -z "$(sqlite3 v5.db "SELECT name FROM sqlite_master WHERE name LIKE \"vr_v5%\"")" &&
	"$VR" summary -d v5.db >sum && grep -q "^run 4: " sum
'

test_expect_success 'evidence.db: no shrink_call, shrinker nor the views' '
	load_both s.db &&
	"$VR" report -d s.db -o out >/dev/null 2>&1 &&
	test -z "$(sqlite3 out/evidence.db "SELECT name FROM sqlite_master WHERE name GLOB \"shrink*\"
		OR name GLOB \"mm_shrink*\"")" &&
	test "$(sqlite3 out/evidence.db "SELECT sum(calls) FROM slab_shrink_ns WHERE run_id = 1")" = 6
'

test_done
