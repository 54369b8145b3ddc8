#!/usr/bin/env bash
# Schema version 4: the end's columns of a shrinker call that repeat its
# start's (cpu, shrinker, nid, memcg_id, and unused_scan, the start's
# nr_objects_to_shrink) are stored, in shrink_call_more with end_own 1,
# only for a call whose end differs or has no start; the views
# mm_shrink_slab_start and mm_shrink_slab_end give every event as
# trace-cmd report prints it.  tests/data-model/slab-echo-6.18.spec, by
# hand: pid 200 ends on another cpu, pid 201 repeats all, pid 202's
# unused_scan is not its nr_objects_to_shrink, pid 203's end names another
# shrinker and node, pid 204's end has no start: end_own for 200, 202, 203
# and 204.  tests/data-model/schema-v3-slab.sql is the version 3 database
# vmscan-report 467e7d1 made of that spec (trace.dat and its text).
. "$(dirname "$0")/lib.sh"

MKDAT="$TOP/tests/mkdat.py"
DATA="$TOP/tests/data-model"

cols() {	# DB T: the names of T's columns, in order
	sqlite3 "$1" "SELECT group_concat(name, ',') FROM pragma_table_info('$2')"
}

load_both() {	# DB: e.dat as run 1, its text as run 2
	python3 "$MKDAT" "$DATA/slab-echo-6.18.spec" e.dat &&
	trace-cmd report e.dat >e.txt 2>/dev/null &&
	"$VR" load -q -d "$1" e.dat e.txt
}

# report_rows EVENT: pid cpu us sym and the numbers trace-cmd report prints
# for EVENT, in time order (the text's words, not vmscan-report's parse)
report_rows() {
	awk -v ev="$1:" '$4 == ev {
		pid = $1; sub(/.*-/, "", pid); cpu = $2; gsub(/[][]/, "", cpu)
		us = $3; sub(/:$/, "", us); split(us, t, "."); sym = $5; sub(/\+.*/, "", sym)
		out = pid "|" cpu + 0 "|" t[1] t[2] "|" sym
		for (i = 7; i <= NF; i++) if ($i ~ /^[0-9]+$/) out = out "|" $i
		print out }' e.txt
}

test_expect_success 'shrink_call: no column that repeats the start, 18 in all' '
	load_both e.db &&
	test "$(cols e.db shrink_call)" = "id,run_id,pid,ts_ns,cpu,shrinker_id,nid,nr_objects_to_shrink,gfp_flags,cache_items,delta,total_scan,priority,memcg_id,end_offset_ns,new_scan,retval,end_total_scan" &&
	test "$(sqlite3 e.db "PRAGMA user_version")" = 7
'

test_expect_success 'the views give each event as trace-cmd report prints it' '
	load_both e.db &&
	report_rows mm_shrink_slab_end >expect &&
	test $(wc -l <expect) = 5 &&
	for run in 1 2; do
		sqlite3 e.db "SELECT pid, cpu, ts_ns / 1000, shrink_sym, nid, unused_scan,
			new_scan, total_scan, retval FROM mm_shrink_slab_end WHERE run_id = $run
			ORDER BY ts_ns" >actual &&
		test_cmp expect actual || return 1
	done &&
	report_rows mm_shrink_slab_start >expect &&
	test $(wc -l <expect) = 4 &&
	for run in 1 2; do
		sqlite3 e.db "SELECT pid, cpu, ts_ns / 1000, shrink_sym, nid, nr_objects_to_shrink,
			cache_items, delta, total_scan, priority FROM mm_shrink_slab_start
			WHERE run_id = $run ORDER BY ts_ns" >actual &&
		test_cmp expect actual || return 1
	done
'

test_expect_success 'the end'"'"'s own values only where it differs' '
	load_both e.db &&
	test "$(sqlite3 e.db "SELECT count(*) FROM shrink_call WHERE run_id = 1")" = 5 &&
	test "$(sqlite3 e.db "SELECT group_concat(c.pid) FROM shrink_call c JOIN shrink_call_more m
		ON m.call_id = c.id WHERE c.run_id = 1 AND m.end_own = 1 ORDER BY c.id")" = 200,202,203,204 &&
	test "$(sqlite3 e.db "SELECT count(*) FROM shrink_call_more WHERE run_id = 1")" = 4 &&
	test "$(sqlite3 e.db "SELECT group_concat(c.pid) FROM shrink_call c JOIN shrink_call_more m
		ON m.call_id = c.id WHERE c.run_id = 2 AND m.end_own = 1 ORDER BY c.id")" = 200,202,203,204
'

test_expect_success 'schema version 3: read as it is, upgraded by the next load, rows kept' '
	sqlite3 v3.db <"$DATA/schema-v3-slab.sql" &&
	sqlite3 v3.db "CREATE VIEW mine AS SELECT run_id, cpu, shrink_sym FROM mm_shrink_slab_end" &&
	for t in mm_shrink_slab_start mm_shrink_slab_end slab_shrink mine; do
		sqlite3 -header v3.db "SELECT * FROM $t" >before-$t || return 1
	done &&
	"$VR" summary -d v3.db >sum && grep -q "^run 1: 6.18.0-test" sum &&
	sqlite3 v3.db .dump >dump0 &&
	printf "not a trace\n" >bad.txt &&
	test_expect_code 1 "$VR" load -q -d v3.db bad.txt 2>err &&
	sqlite3 v3.db .dump >dump1 && test_cmp dump0 dump1 &&
	test "$(sqlite3 v3.db "PRAGMA user_version")" = 3 &&
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" other.dat &&
	"$VR" load -q -d v3.db other.dat 2>err &&
	test "$(sqlite3 v3.db "PRAGMA user_version")" = 7 &&
	for t in mm_shrink_slab_start mm_shrink_slab_end slab_shrink mine; do
		sqlite3 -header v3.db "SELECT * FROM $t WHERE run_id < 3" >after-$t &&
		test_cmp before-$t after-$t || return 1
	done &&
	test "$(cols v3.db shrink_call)" = "$(load_both e.db && cols e.db shrink_call)" &&
	test "$(cols v3.db shrink_call_more)" = "$(cols e.db shrink_call_more)" &&
	test "$(sqlite3 v3.db "SELECT group_concat(c.pid) FROM shrink_call c JOIN shrink_call_more m
		ON m.call_id = c.id WHERE c.run_id = 1 ORDER BY c.id")" = 200,202,203,204 &&
	test -z "$(sqlite3 v3.db "SELECT name FROM sqlite_master WHERE name LIKE \"vr_v3%\"")" &&
	"$VR" summary -d v3.db >sum && grep -q "^run 3: " sum
'

test_done
