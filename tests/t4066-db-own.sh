#!/usr/bin/env bash
# The database is the user's too: what they add to it (tables, views,
# triggers, a table named like one of ours) never goes into evidence.db and
# never changes what vmscan-report takes the file for; what vmscan-report
# derived is never silently made again empty; a run is removed whole.
. "$(dirname "$0")/lib.sh"

# a small text trace: kswapd wakes, one direct stall of 700 us with one
# shrink (32 scanned, 30 reclaimed), kswapd sleeps; $1 changes the pid of
# the stall so that two files have different contents
trace() {
	cat <<EOT
 kswapd0-52    [000]   100.000100: mm_vmscan_kswapd_wake: nid=0 order=0
     dd-${1:-1234}  [001]   100.000200: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
     dd-${1:-1234}  [001]   100.000300: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
     dd-${1:-1234}  [001]   100.000900: mm_vmscan_direct_reclaim_end: nr_reclaimed=30
 kswapd0-52    [000]   100.002000: mm_vmscan_kswapd_sleep: nid=0
EOT
}

test_expect_success 'evidence.db holds only our tables: not a private table, view, trigger, its audit table or an index of the user' '
	trace >a.txt && "$VR" load -q -d a.db a.txt &&
	sqlite3 a.db "CREATE TABLE private (secret TEXT, run_id INTEGER);
		INSERT INTO private VALUES (\"password\", 1);
		CREATE VIEW my_view AS SELECT secret FROM private;
		CREATE TABLE audit (run_id INTEGER, what TEXT);
		CREATE TRIGGER my_trigger AFTER DELETE ON run BEGIN
			INSERT INTO audit VALUES (old.id, \"gone\"); END;
		INSERT INTO audit VALUES (1, \"loaded\");
		CREATE INDEX my_index ON reclaim_stall (kind)" &&
	"$VR" report -q -d a.db -o b &&
	sqlite3 b/evidence.db "SELECT name FROM sqlite_master" >names &&
	! grep -E "^(private|my_view|audit|my_trigger|my_index)\$" names &&
	! grep -a password b/evidence.db &&
	grep -qx reclaim_stall names && grep -qx run names &&
	test "$(sqlite3 b/evidence.db "SELECT duration_ns FROM reclaim_stall")" = 700000 &&
	: two databases read as one: the same &&
	trace 4321 >c.txt && "$VR" load -q -d c.db c.txt &&
	"$VR" report -q -d a.db -d c.db -o b2 &&
	sqlite3 b2/evidence.db "SELECT name FROM sqlite_master" >names2 &&
	! grep -E "^(private|my_view|audit|my_trigger|my_index)\$" names2 &&
	! grep -a password b2/evidence.db &&
	test "$(sqlite3 b2/evidence.db "SELECT count(*) FROM reclaim_stall")" = 2
'

test_expect_success 'evidence.db holds only our columns: not one a user added to one of our tables' '
	trace >a.txt && "$VR" load -q -d a.db a.txt &&
	sqlite3 a.db "ALTER TABLE run ADD COLUMN my_note TEXT;
		UPDATE run SET my_note = \"hunter2\";
		ALTER TABLE reclaim_stall ADD COLUMN my_flag INTEGER DEFAULT 7" &&
	"$VR" report -q -d a.db -o b &&
	sqlite3 b/evidence.db "SELECT name FROM pragma_table_info(\"run\")
		UNION ALL SELECT name FROM pragma_table_info(\"reclaim_stall\")" >cols &&
	! grep -E "^(my_note|my_flag)\$" cols && grep -qx kernel cols && grep -qx duration_ns cols &&
	! grep -a hunter2 b/evidence.db &&
	test "$(sqlite3 b/evidence.db "SELECT duration_ns FROM reclaim_stall")" = 700000 &&
	test "$(sqlite3 b/evidence.db "SELECT source_path FROM run")" = a.txt &&
	: two databases read as one: the same &&
	trace 4321 >c.txt && "$VR" load -q -d c.db c.txt &&
	"$VR" report -q -d a.db -d c.db -o b2 &&
	sqlite3 b2/evidence.db "SELECT name FROM pragma_table_info(\"run\")
		UNION ALL SELECT name FROM pragma_table_info(\"reclaim_stall\")" >cols2 &&
	! grep -E "^(my_note|my_flag)\$" cols2 && grep -qx kernel cols2 &&
	! grep -a hunter2 b2/evidence.db &&
	test "$(sqlite3 b2/evidence.db "SELECT count(*) FROM reclaim_stall")" = 2
'

test_expect_success 'a user table named evidence: still a loaded database, not sent as evidence' '
	trace >a.txt && "$VR" load -q -d a.db a.txt &&
	sqlite3 a.db "CREATE TABLE evidence (note TEXT); INSERT INTO evidence VALUES (\"mine\")" &&
	trace 4321 >c.txt && "$VR" load -d a.db c.txt >out &&
	grep -q "^run 2: " out &&
	"$VR" report -q -d a.db -o b &&
	test "$(sqlite3 b/evidence.db "SELECT * FROM evidence")" = a.db &&
	! grep -a "mine" b/evidence.db &&
	: the evidence file itself is still refused as one &&
	test_expect_code 1 "$VR" load -d b/evidence.db a.txt 2>err &&
	grep -q "is an evidence database" err
'
test_expect_success 'a derived table dropped by hand: the next load refuses, nothing made again empty' '
	trace >a.txt && "$VR" load -q -d a.db a.txt &&
	sqlite3 a.db "DROP TABLE reclaim_stall" &&
	trace 4321 >c.txt &&
	test_expect_code 1 "$VR" load -d a.db c.txt >out 2>err &&
	grep -q "a.db: table reclaim_stall is missing while the database holds 1 run" err &&
	test "$(sqlite3 a.db "SELECT count(*) FROM sqlite_master WHERE name = \"reclaim_stall\"")" = 0 &&
	test "$(sqlite3 a.db "SELECT count(*) FROM run")" = 1 &&
	: import-latency writes too: the same &&
	echo "p95-Read 10" >lat.txt &&
	test_expect_code 1 "$VR" import-latency -d a.db --kernel x lat.txt 2>err &&
	grep -q "table reclaim_stall is missing" err
'
test_expect_success 'an event table dropped while a run has such events: refused; one no run had: made' '
	trace >a.txt && "$VR" load -q -d a.db a.txt &&
	sqlite3 a.db "DROP TABLE mm_compaction_begin" && cp a.db b.db &&
	sqlite3 a.db "DROP TABLE mm_vmscan_kswapd_wake" &&
	trace 4321 >c.txt &&
	test_expect_code 1 "$VR" load -d a.db c.txt 2>err &&
	grep -q "table mm_vmscan_kswapd_wake (1 run had mm_vmscan_kswapd_wake events) is missing" err &&
	: no run had a compaction event: that table is made again &&
	"$VR" load -q -d b.db c.txt &&
	test "$(sqlite3 b.db "SELECT count(*) FROM sqlite_master WHERE name = \"mm_compaction_begin\"")" = 1 -a \
		"$(sqlite3 b.db "SELECT count(*) FROM run")" = 2
'
test_expect_success 'a run row deleted by hand: its orphan rows go (said), the next load gets clean rows' '
	trace >a.txt && trace 4321 >b.txt && trace 999 >c.txt &&
	"$VR" load -q -d a.db a.txt b.txt &&
	sqlite3 a.db "DELETE FROM run WHERE id = 2" &&
	"$VR" load -d a.db c.txt >out 2>err &&
	grep -q "^run 2: " out &&
	grep -q "warning: a.db: run 2 has rows but no run row" err &&
	: the stalls: run 1 pid 1234 and the new run 2 pid 999, none of pid 4321 &&
	test "$(sqlite3 a.db "SELECT group_concat(run_id || \":\" || pid, \" \") FROM
		(SELECT run_id, pid FROM reclaim_stall ORDER BY run_id)")" = "1:1234 2:999" &&
	test "$(sqlite3 a.db "SELECT sum(nr_scanned) FROM lru_shrink_pages WHERE run_id = 2")" = 32
'
test_expect_success 'rm RUN: the run and every row of it, in one transaction; an unknown run removes nothing' '
	trace >a.txt && trace 4321 >b.txt && trace 999 >c.txt &&
	"$VR" load -q -d a.db a.txt b.txt c.txt &&
	echo "p95-Read 10" >lat.txt && "$VR" import-latency -q -d a.db --kernel unknown -i 2 lat.txt &&
	dump_rows a.db >before &&
	test_expect_code 1 "$VR" rm -d a.db 2 7 2>err &&
	grep -q "a.db: no run 7" err &&
	dump_rows a.db >after && test_cmp before after &&
	"$VR" rm -d a.db 2 >out &&
	test "$(cat out)" = "removed run 2" &&
	for t in $(sqlite3 a.db "SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) c
			WHERE m.type = \"table\" AND c.name = \"run_id\""); do
		test "$(sqlite3 a.db "SELECT count(*) FROM \"$t\" WHERE run_id = 2")" = 0 ||
			{ echo "$t has rows of run 2"; return 1; }
	done &&
	test "$(sqlite3 a.db "SELECT group_concat(id) FROM run")" = "1,3" &&
	test "$(sqlite3 a.db "SELECT group_concat(pid) FROM (SELECT pid FROM reclaim_stall ORDER BY run_id)")" = "1234,999" &&
	test_expect_code 2 "$VR" rm -d a.db x 2>err && grep -q "not a run id" err &&
	test_expect_code 1 "$VR" rm -d nothere.db 1 && test ! -e nothere.db
'
test_expect_success '-d /dev/null or a directory: refused as not a regular file, no /dev/null-journal left' '
	had=no; test ! -e /dev/null-journal || had=yes &&
	trace >a.txt &&
	"$VR" load -d /dev/null a.txt 2>err; rc=$? &&
	if [ $had = no ] && [ -e /dev/null-journal ]; then rm -f /dev/null-journal; echo left; exit 1; fi &&
	test $rc = 1 && grep -q "/dev/null: not a regular file (a character device)" err &&
	mkdir d.db &&
	test_expect_code 1 "$VR" load -d d.db a.txt 2>err &&
	grep -q "d.db: not a regular file (a directory)" err &&
	test_expect_code 1 "$VR" runs -d /dev/null 2>err &&
	grep -q "not a regular file" err
'
test_expect_success 'load > /dev/full: exit 1, said (every command whose output is lost fails)' '
	trace >a.txt &&
	test_expect_code 1 "$VR" load -d a.db a.txt >/dev/full 2>err &&
	grep -q "cannot write to standard output" err &&
	test_expect_code 1 "$VR" runs -d a.db >/dev/full
'
test_done
