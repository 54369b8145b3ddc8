#!/usr/bin/env bash
# Schema version 6: in a row of lru_call with an isolate and its shrink,
# the shrink's nr_scanned (an active shrink's nr_taken, in the same column
# shrink_nr_scanned) is stored only when it is not the isolate's
# (shrink_inactive_list() and shrink_active_list() in mm/vmscan.c trace
# what isolate_lru_folios() traced); a shrink without one while its isolate
# has one is flagged shrink_nr_scanned_null in lru_call_more.  The views
# give every event as trace-cmd report prints it.
# tests/data-model/lru-echo-6.18.spec, by hand: pid 400's and 402's repeat
# their isolate's (NULL), pid 401's 25 and 403's 15 differ, pid 404's 8 has
# no isolate.  tests/data-model/schema-v5-lru.sql is the version 5 database
# vmscan-report af48cf5 made of that spec (trace.dat, and its text with
# nr_scanned cut from pid 400's shrink).
. "$(dirname "$0")/lib.sh"

MKDAT="$TOP/tests/mkdat.py"
DATA="$TOP/tests/data-model"

# load_both DB: le.dat as run 1, its text with pid 400's shrink's
# nr_scanned cut as run 2
load_both() {
	python3 "$MKDAT" "$DATA/lru-echo-6.18.spec" le.dat &&
	trace-cmd report le.dat >le.txt 2>/dev/null &&
	sed "/400.*shrink_inactive/s/nr_scanned=32 //" le.txt >cut.txt &&
	! cmp -s le.txt cut.txt &&
	"$VR" load -q -d "$1" le.dat cut.txt
}

# stored DB RUN: pid:shrink_nr_scanned of the rows with both, in id order
stored() {
	sqlite3 "$1" "SELECT group_concat(pid || \":\" || coalesce(shrink_nr_scanned, \"-\"))
		FROM (SELECT * FROM lru_call WHERE run_id = $2 AND ts_ns IS NOT NULL
		AND shrink_offset_ns IS NOT NULL ORDER BY id)"
}

# counts TXT: pid|count of each shrink in TXT, the shrink's own number
# (nr_scanned= of an inactive, nr_taken= of an active; - when the line has
# none), in its order: the text's words, not vmscan-report's parse
counts() {
	awk '$4 ~ /^mm_vmscan_lru_shrink_/ {
		pid = $1; sub(/.*-/, "", pid); n = "-"
		for (i = 5; i <= NF; i++) if ($i ~ /^nr_(scanned|taken)=/) { split($i, kv, "="); n = kv[2] }
		print pid "|" n }' "$1"
}

view_counts() {	# DB RUN
	sqlite3 "$1" "SELECT pid, coalesce(n, \"-\") FROM (SELECT pid, ts_ns, nr_scanned AS n
		FROM mm_vmscan_lru_shrink_inactive WHERE run_id = $2 UNION ALL SELECT pid, ts_ns,
		nr_taken FROM mm_vmscan_lru_shrink_active WHERE run_id = $2) ORDER BY ts_ns"
}

test_expect_success 'the shrink'"'"'s count stored only where it is not its isolate'"'"'s' '
	load_both l.db &&
	test "$(stored l.db 1)" = 400:-,401:25,402:-,403:15 &&
	test "$(stored l.db 2)" = 400:-,401:25,402:-,403:15 &&
	test "$(sqlite3 l.db "SELECT shrink_nr_scanned FROM lru_call WHERE pid = 404 AND run_id = 1")" = 8 &&
	test "$(sqlite3 l.db "SELECT group_concat(c.run_id || \":\" || c.pid) FROM lru_call c
		JOIN lru_call_more m ON m.call_id = c.id WHERE m.shrink_nr_scanned_null = 1")" = 2:400 &&
	test "$(sqlite3 l.db "SELECT count(*) FROM lru_call_more")" = 1
'

test_expect_success 'the views give each shrink'"'"'s count as the text prints it' '
	load_both l.db &&
	counts le.txt >expect1 && test $(wc -l <expect1) = 5 &&
	counts cut.txt >expect2 && grep -q "^400|-$" expect2 &&
	view_counts l.db 1 >actual1 && test_cmp expect1 actual1 &&
	view_counts l.db 2 >actual2 && test_cmp expect2 actual2
'

test_expect_success 'schema version 5: read as it is, upgraded by the next load, rows kept' '
	sqlite3 v5.db <"$DATA/schema-v5-lru.sql" &&
	sqlite3 v5.db "CREATE VIEW mine AS SELECT run_id, pid, nr_scanned
		FROM mm_vmscan_lru_shrink_inactive; CREATE VIEW raw AS SELECT shrink_nr_scanned
		FROM lru_call; CREATE INDEX my_idx ON lru_call (run_id)" &&
	sqlite3 v5.db "SELECT id, run_id, pid FROM lru_call" >ids-before &&
	for t in mm_vmscan_lru_isolate mm_vmscan_lru_shrink_inactive mm_vmscan_lru_shrink_active mine; do
		sqlite3 -header v5.db "SELECT * FROM $t" >before-$t || return 1
	done &&
	grep -q "^2|400|$" before-mine &&
	"$VR" summary -d v5.db >sum && grep -q "^run 1: 6.18.0-test" sum &&
	test "$(sqlite3 v5.db "PRAGMA user_version")" = 5 &&
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" other.dat &&
	"$VR" load -q -d v5.db other.dat 2>err &&
	test "$(sqlite3 v5.db "PRAGMA user_version")" = 7 &&
	grep -q "warning: v5.db: the schema upgrade to version 7 (written with this command.s changes): view raw reads lru_call (or its _more table), whose values change: a shrink" err &&
	! grep -q "view mine" err &&
	: in place: ids and the index kept &&
	sqlite3 v5.db "SELECT id, run_id, pid FROM lru_call WHERE run_id < 3" >ids-after &&
	test_cmp ids-before ids-after &&
	test "$(sqlite3 v5.db "SELECT count(*) FROM sqlite_master WHERE name = \"my_idx\"")" = 1 &&
	for t in mm_vmscan_lru_isolate mm_vmscan_lru_shrink_inactive mm_vmscan_lru_shrink_active mine; do
		sqlite3 -header v5.db "SELECT * FROM $t WHERE run_id < 3" >after-$t &&
		test_cmp before-$t after-$t || return 1
	done &&
	load_both l.db &&
	for t in lru_call lru_call_more; do
		test "$(sqlite3 v5.db "SELECT group_concat(name) FROM pragma_table_info(\"$t\")")" = \
		     "$(sqlite3 l.db "SELECT group_concat(name) FROM pragma_table_info(\"$t\")")" || return 1
	done &&
	test "$(stored v5.db 1)" = 400:-,401:25,402:-,403:15 &&
	test "$(stored v5.db 2)" = 400:-,401:25,402:-,403:15 &&
	test -z "$(sqlite3 v5.db "SELECT name FROM sqlite_master WHERE name LIKE \"vr_v%\"")" &&
	"$VR" summary -d v5.db >sum && grep -q "^run 3: " sum
'

test_done
