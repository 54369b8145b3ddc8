#!/usr/bin/env bash
# Schema version 7: the comms of sched_switch (prev_comm, next_comm),
# sched_wakeup and sched_waking (comm) are stored once each, in the table
# comm, and named by id in sched_switch_ids (and the other two's _ids
# tables); sched_switch and the others are views with the columns and rows
# they had as tables.  tests/data-model/comm-ids-6.18.spec, by hand: 6
# switches name 4 comms 12 times (kswapd0 4, swapper/0 4, sh 2,
# kworker/u8:1 2).  tests/data-model/schema-v6-comm.sql is the version 6
# database vmscan-report d206421 made of that spec (trace.dat and its text).
. "$(dirname "$0")/lib.sh"

MKDAT="$TOP/tests/mkdat.py"
DATA="$TOP/tests/data-model"

load_both() {	# DB: c.dat as run 1, its text as run 2
	python3 "$MKDAT" "$DATA/comm-ids-6.18.spec" c.dat &&
	trace-cmd report c.dat >c.txt 2>/dev/null &&
	"$VR" load -q -d "$1" c.dat c.txt
}

# switches TXT: prev_comm|prev_pid|next_comm|next_pid of each sched_switch
# line trace-cmd report prints ("prev:pid [prio] S ==> next:pid [prio]"),
# in order: the text's words, not vmscan-report's parse
switches() {
	awk '$4 == "sched_switch:" {
		for (i = 5; i <= NF; i++) if ($i == "==>") arrow = i
		p = $5; n = $(arrow + 1)
		pc = p; sub(/:[0-9]+$/, "", pc); pp = p; sub(/.*:/, "", pp)
		nc = n; sub(/:[0-9]+$/, "", nc); np = n; sub(/.*:/, "", np)
		print pc "|" pp "|" nc "|" np }' "$1"
}

view_switches() {	# DB RUN
	sqlite3 "$1" "SELECT prev_comm, prev_pid, next_comm, next_pid FROM sched_switch
		WHERE run_id = $2"
}

test_expect_success 'each comm once in comm; sched_switch as trace-cmd report prints it' '
	load_both c.db &&
	test "$(sqlite3 c.db "PRAGMA user_version")" = 7 &&
	test "$(sqlite3 c.db "SELECT type FROM sqlite_master WHERE name = \"sched_switch\"")" = view &&
	switches c.txt >expect && test $(wc -l <expect) = 6 &&
	view_switches c.db 1 >actual1 && test_cmp expect actual1 &&
	view_switches c.db 2 >actual2 && test_cmp expect actual2 &&
	test "$(sqlite3 c.db "SELECT group_concat(comm, \",\") FROM (SELECT comm FROM comm ORDER BY comm)")" = \
	     "kswapd0,kworker/u8:1,sh,swapper/0" &&
	test "$(sqlite3 c.db "SELECT count(*) FROM sched_switch_ids WHERE prev_comm_id IS NULL
		OR next_comm_id IS NULL")" = 0 &&
	test "$(sqlite3 c.db "SELECT count(*) FROM sched_switch_ids s JOIN comm c
		ON c.id = s.prev_comm_id WHERE c.comm = \"kswapd0\"")" = 4
'

# wakeups TXT: comm|pid of each sched_wakeup line ("comm:pid [prio] CPU:n")
wakeups() {
	awk '$4 == "sched_wakeup:" { w = $5; c = w; sub(/:[0-9]+$/, "", c); p = w; sub(/.*:/, "", p)
		print c "|" p }' "$1"
}

test_expect_success 'a lab recording: sched_wakeup and sched_switch as trace-cmd report prints them' '
	f="$TOP/samples/lab/vanilla-1.dat" &&
	"$VR" load -q -d lab.db "$f" &&
	trace-cmd report "$f" >lab.txt 2>/dev/null &&
	wakeups lab.txt >expect && test -s expect &&
	sqlite3 lab.db "SELECT comm, wakee_pid FROM sched_wakeup" >actual && test_cmp expect actual &&
	switches lab.txt >expect && test -s expect &&
	view_switches lab.db 1 >actual && test_cmp expect actual &&
	{ cut -d"|" -f1,3 expect | tr "|" "\n"; wakeups lab.txt | cut -d"|" -f1; } | sort -u >comms &&
	test "$(sqlite3 lab.db "SELECT count(*) FROM comm")" = "$(wc -l <comms)" &&
	sqlite3 lab.db "SELECT comm FROM comm" | sort >actual && test_cmp comms actual
'

test_expect_success 'schema version 6: read as it is, upgraded by the next load, rows kept' '
	sqlite3 v6.db <"$DATA/schema-v6-comm.sql" &&
	sqlite3 v6.db "CREATE VIEW mine AS SELECT next_comm, count(*) AS n FROM sched_switch
		GROUP BY next_comm; CREATE INDEX my_idx ON sched_switch (run_id, ts_ns);
		ALTER TABLE sched_switch ADD COLUMN note TEXT" &&
	for t in sched_wakeup sched_waking mine; do
		sqlite3 -header v6.db "SELECT * FROM $t" >before-$t || return 1
	done &&
	sqlite3 -header v6.db "SELECT run_id, ts_ns, cpu, pid, prev_comm, prev_pid, prev_prio,
		prev_state, next_comm, next_pid, next_prio, extra FROM sched_switch" >before-sched_switch &&
	test $(wc -l <before-sched_switch) = 13 &&
	"$VR" summary -d v6.db >sum && grep -q "^run 1: 6.18.0-test" sum &&
	test "$(sqlite3 v6.db "PRAGMA user_version")" = 6 &&
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" other.dat &&
	"$VR" load -q -d v6.db other.dat 2>err &&
	grep -q "warning: v6.db: the schema upgrade to version 7 (written with this command.s changes) drops index my_idx on sched_switch (its rows move to sched_switch_ids, whose columns may differ; make it again there if you need it; it was: CREATE INDEX my_idx ON \"sched_switch\" (run_id, ts_ns))$" err &&
	grep -q "warning: v6.db: the schema upgrade to version 7 (written with this command.s changes) drops column note of sched_switch, not one of vmscan-report.s, with its values (sched_switch is a view now, over sched_switch_ids)$" err &&
	test "$(sqlite3 v6.db "PRAGMA user_version")" = 7 &&
	for t in sched_switch sched_wakeup sched_waking; do
		sqlite3 -header v6.db "SELECT * FROM $t WHERE run_id < 3" >after-$t &&
		test_cmp before-$t after-$t || return 1
	done &&
	sqlite3 -header v6.db "SELECT * FROM mine" >after-mine && test_cmp before-mine after-mine &&
	load_both c.db &&
	test "$(sqlite3 v6.db "SELECT group_concat(name) FROM pragma_table_info(\"sched_switch_ids\")")" = \
	     "$(sqlite3 c.db "SELECT group_concat(name) FROM pragma_table_info(\"sched_switch_ids\")")" &&
	test "$(sqlite3 v6.db "SELECT count(*) FROM comm")" = 4 &&
	test -z "$(sqlite3 v6.db "SELECT name FROM sqlite_master WHERE name LIKE \"vr_v%\"")" &&
	"$VR" summary -d v6.db >sum && grep -q "^run 3: " sum
'

test_expect_success 'comm or sched_switch_ids dropped by hand: refused, nothing written' '
	load_both c.db &&
	for t in comm sched_switch_ids; do
		cp c.db d.db && sqlite3 d.db "DROP TABLE $t" && sqlite3 d.db .dump >before &&
		python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" other.dat &&
		test_expect_code 1 "$VR" load -q -d d.db other.dat 2>err &&
		grep -q "^vmscan-report: d.db: table $t (2 runs had sched_switch events) is missing while the database holds 2 runs (dropped by hand?)" err &&
		sqlite3 d.db .dump >after && test_cmp before after || return 1
	done
'

test_expect_success 'a table comm of the user'"'"'s in a version 6 database: the upgrade refused, said why' '
	sqlite3 v6.db <"$DATA/schema-v6-comm.sql" &&
	sqlite3 v6.db "CREATE TABLE comm AS SELECT DISTINCT pid, comm FROM task" &&
	sqlite3 v6.db .dump >before &&
	python3 "$MKDAT" "$DATA/two-nodes-6.18.spec" other.dat &&
	test_expect_code 1 "$VR" load -q -d v6.db other.dat 2>err &&
	grep -q "^vmscan-report: v6.db: cannot upgrade schema version 6 to 7: a table or view comm, not one of vmscan-report.s, is in the way" err &&
	sqlite3 v6.db .dump >after && test_cmp before after
'

test_expect_success 'evidence.db: no comm, no sched table nor view' '
	load_both c.db &&
	"$VR" report -d c.db -o out >/dev/null 2>&1 &&
	test -z "$(sqlite3 out/evidence.db "SELECT name FROM sqlite_master WHERE name GLOB \"sched*\"
		OR name = \"comm\"")"
'

test_done
