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
test_done
