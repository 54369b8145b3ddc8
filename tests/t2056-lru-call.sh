#!/usr/bin/env bash
# Schema version 5: an mm_vmscan_lru_isolate and the shrink of the same
# task that follows it (shrink_inactive_list()/shrink_active_list() in
# mm/vmscan.c) are one row of lru_call; the views mm_vmscan_lru_isolate,
# mm_vmscan_lru_shrink_inactive and mm_vmscan_lru_shrink_active give every
# event as trace-cmd report prints it, in its order.
# tests/data-model/lru-call-6.18.spec, by hand: 10 events, 7 rows (pid 301's
# isolate and shrink apart: pid 302's isolate and shrink came between; pid
# 304's shrink and pid 305's isolate alone); pid 303's active shrink in the
# inactive's columns with shrink_active 1; no lru_call_more row (a 6.18
# kernel has every field a column of lru_call; a 4.11 kernel's classzone_idx
# and nr_activate are in lru_call_more, per-call-4.11.spec).
# tests/data-model/schema-v4-lru.sql is the version 4
# database vmscan-report d78ad7b made of that spec (trace.dat and its text).
. "$(dirname "$0")/lib.sh"

MKDAT="$TOP/tests/mkdat.py"
DATA="$TOP/tests/data-model"

load_both() {	# DB: l.dat as run 1, its text as run 2
	python3 "$MKDAT" "$DATA/lru-call-6.18.spec" l.dat &&
	trace-cmd report l.dat >l.txt 2>/dev/null &&
	"$VR" load -q -d "$1" l.dat l.txt
}

# report_rows EVENT: pid|cpu|us and each number trace-cmd report prints as
# NAME=N for EVENT, in the order it prints them (the text's words, not
# vmscan-report's parse)
report_rows() {
	awk -v ev="$1:" '$4 == ev {
		pid = $1; sub(/.*-/, "", pid); cpu = $2; gsub(/[][]/, "", cpu)
		us = $3; sub(/:$/, "", us); split(us, t, ".")
		out = pid "|" cpu + 0 "|" t[1] t[2]
		for (i = 5; i <= NF; i++) { split($i, kv, "="); if (kv[2] ~ /^[0-9]+$/) out = out "|" kv[2] }
		print out }' l.txt
}

# view_rows DB RUN EVENT: the same columns of the view, in its own order
view_rows() {
	local cols
	case $3 in
	mm_vmscan_lru_isolate) cols='highest_zoneidx, "order", nr_requested, nr_scanned,
		nr_skipped, nr_taken' ;;
	mm_vmscan_lru_shrink_inactive) cols='nid, nr_scanned, nr_reclaimed, nr_dirty,
		nr_writeback, nr_congested, nr_immediate, nr_activate0, nr_activate1, nr_ref_keep,
		nr_unmap_fail, priority' ;;
	mm_vmscan_lru_shrink_active) cols='nid, nr_taken, nr_active, nr_deactivated,
		nr_referenced, priority' ;;
	esac
	sqlite3 "$1" "SELECT pid, cpu, ts_ns / 1000, $cols FROM $3 WHERE run_id = $2"
}

test_expect_success 'lru_call: 7 rows of the 10 events, as worked out by hand' '
	load_both l.db &&
	test "$(sqlite3 l.db "PRAGMA user_version")" = 7 &&
	for run in 1 2; do
		test "$(sqlite3 l.db "SELECT group_concat(pid || \":\" || (ts_ns IS NOT NULL) ||
			(shrink_offset_ns IS NOT NULL), \",\") FROM (SELECT * FROM lru_call
			WHERE run_id = $run ORDER BY id)")" = 300:11,301:10,302:11,301:01,303:11,304:01,305:10 &&
		test "$(sqlite3 l.db "SELECT group_concat(pid || \":\" || shrink_active)
			FROM lru_call WHERE run_id = $run AND shrink_active IS NOT NULL")" = 303:1 &&
		test "$(sqlite3 l.db "SELECT group_concat(pid || \":\" || shrink_cpu) FROM
			(SELECT * FROM lru_call WHERE run_id = $run AND shrink_cpu IS NOT NULL
			ORDER BY id)")" = 301:1,303:1,304:1 || return 1
	done &&
	test "$(sqlite3 l.db "SELECT count(*) FROM lru_call_more")" = 0
'

test_expect_success 'a 4.11 kernel: classzone_idx and nr_activate in lru_call_more, the views give them' '
	python3 "$MKDAT" "$DATA/per-call-4.11.spec" p.dat &&
	trace-cmd report p.dat >p.txt 2>/dev/null &&
	"$VR" load -q -d p.db p.dat &&
	grep -c "mm_vmscan_lru_isolate:" p.txt >n-isolate &&
	grep -c "mm_vmscan_lru_shrink_inactive:" p.txt >n-shrink &&
	test "$(sqlite3 p.db "SELECT count(*) FROM lru_call_more WHERE classzone_idx IS NOT NULL")" = \
	     "$(cat n-isolate)" &&
	test "$(sqlite3 p.db "SELECT count(*) FROM lru_call_more WHERE nr_activate IS NOT NULL")" = \
	     "$(cat n-shrink)" &&
	sed -n "s/.* mm_vmscan_lru_isolate: .*classzone=\([0-9]*\) .*/\1/p" p.txt >expect &&
	test -s expect &&
	sqlite3 p.db "SELECT classzone_idx FROM mm_vmscan_lru_isolate" >actual &&
	test_cmp expect actual &&
	sed -n "s/.* mm_vmscan_lru_shrink_inactive: .* nr_activate=\([0-9]*\) .*/\1/p" p.txt >expect &&
	test -s expect &&
	sqlite3 p.db "SELECT nr_activate FROM mm_vmscan_lru_shrink_inactive" >actual &&
	test_cmp expect actual
'

test_expect_success 'the views give each event as trace-cmd report prints it, in its order' '
	load_both l.db &&
	for ev in mm_vmscan_lru_isolate:5 mm_vmscan_lru_shrink_inactive:4 mm_vmscan_lru_shrink_active:1; do
		report_rows ${ev%:*} >expect &&
		test $(wc -l <expect) = ${ev#*:} &&
		for run in 1 2; do
			view_rows l.db $run ${ev%:*} >actual &&
			test_cmp expect actual || return 1
		done
	done
'

test_expect_success 'rm: the run'"'"'s calls go' '
	load_both l.db &&
	"$VR" rm -q -d l.db 1 &&
	test "$(sqlite3 l.db "SELECT count(*) FROM lru_call WHERE run_id = 1")" = 0 &&
	test "$(sqlite3 l.db "SELECT count(*) FROM lru_call_more WHERE run_id = 1")" = 0 &&
	test "$(sqlite3 l.db "SELECT count(*) FROM mm_vmscan_lru_isolate")" = 5
'

test_expect_success 'schema version 4: read as it is, upgraded by the next load, rows kept' '
	sqlite3 v4.db <"$DATA/schema-v4-lru.sql" &&
	sqlite3 v4.db "CREATE VIEW mine AS SELECT run_id, cpu, nr_reclaimed
		FROM mm_vmscan_lru_shrink_inactive" &&
	for t in mm_vmscan_lru_isolate mm_vmscan_lru_shrink_inactive mm_vmscan_lru_shrink_active mine; do
		sqlite3 -header v4.db "SELECT * FROM $t" >before-$t || return 1
	done &&
	test $(wc -l <before-mm_vmscan_lru_isolate) = 11 &&
	"$VR" summary -d v4.db >sum && grep -q "^run 1: 6.18.0-test" sum &&
	sqlite3 v4.db .dump >dump0 &&
	printf "not a trace\n" >bad.txt &&
	test_expect_code 1 "$VR" load -q -d v4.db bad.txt 2>err &&
	sqlite3 v4.db .dump >dump1 && test_cmp dump0 dump1 &&
	test "$(sqlite3 v4.db "PRAGMA user_version")" = 4 &&
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" other.dat &&
	"$VR" load -q -d v4.db other.dat 2>err &&
	test "$(sqlite3 v4.db "PRAGMA user_version")" = 7 &&
	for t in mm_vmscan_lru_isolate mm_vmscan_lru_shrink_inactive mm_vmscan_lru_shrink_active mine; do
		sqlite3 -header v4.db "SELECT * FROM $t WHERE run_id < 3" >after-$t &&
		test_cmp before-$t after-$t || return 1
	done &&
	load_both e.db &&
	for t in lru_call lru_call_more; do
		test "$(sqlite3 v4.db "SELECT group_concat(name) FROM pragma_table_info(\"$t\")")" = \
		     "$(sqlite3 e.db "SELECT group_concat(name) FROM pragma_table_info(\"$t\")")" || return 1
	done &&
	test "$(sqlite3 v4.db "SELECT group_concat(pid) FROM (SELECT pid FROM lru_call
		WHERE run_id = 1 ORDER BY id)")" = 300,301,302,301,303,304,305 &&
	test -z "$(sqlite3 v4.db "SELECT name FROM sqlite_master WHERE name LIKE \"vr_v4%\"")" &&
	"$VR" summary -d v4.db >sum && grep -q "^run 3: " sum
'

test_done
