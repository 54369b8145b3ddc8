#!/usr/bin/env bash
# A trace.dat pid's rows before any sched event names it (issue 25 item 9):
# trace-cmd saves the cmdlines at the end of the recording, so the saved
# name is the pid's last; a task that exec'ed during the trace had another
# name for its early rows.  Those rows take the first name the trace shows
# for the pid (a sched_switch's prev_comm/next_comm, a sched_wakeup's comm),
# the saved cmdline only a pid the trace never names, and task.comm_source
# says where each span's comm came from.  Input: tests/data-model/
# comm-exec-6.18.spec (tests/mkdat.py); expected values by hand from it:
# pid 200 is "sh" from 1.000 (its first stall, 32 scanned / 30 reclaimed)
# to the sched_switch at 1.020 that shows "sh", "stress" from the one at
# 1.050 that shows "stress" to 1.070 (its second stall, 16 / 12); pid 300
# keeps its saved "kworker/u8:1".
. "$(dirname "$0")/lib.sh"

MKDAT="$TOP/tests/mkdat.py"
DATA="$TOP/tests/data-model"

load() {
	python3 "$MKDAT" "$DATA/comm-exec-6.18.spec" ce.dat &&
	"$VR" load -q -d ce.db ce.dat
}

test_expect_success 'task: spans with the first shown name and where each came from' '
	load &&
	sqlite3 ce.db "SELECT pid, comm, first_ns, last_ns, comm_source FROM task
		WHERE pid != 0 ORDER BY first_ns" >got &&
	cat >expect <<-EOF &&
	200|sh|1000000000|1020000000|sched_switch
	300|kworker/u8:1|1030000000|1035000000|saved_cmdline
	200|stress|1050000000|1070000000|sched_switch
	EOF
	test_cmp expect got
'

test_expect_success 'derived rows and sums: the early stall is sh'\''s, the late one stress'\''s' '
	load &&
	sqlite3 ce.db "SELECT pid, comm, begin_ns, nr_reclaimed FROM reclaim_stall ORDER BY begin_ns;
		SELECT pid, comm, nr_scanned FROM lru_isolate_pages ORDER BY comm;
		SELECT pid, comm, nr_reclaimed FROM lru_shrink_pages ORDER BY comm" >got &&
	cat >expect <<-EOF &&
	200|sh|1000000000|32
	300|kworker/u8:1|1030000000|8
	200|stress|1060000000|16
	200|sh|32
	200|stress|16
	200|sh|30
	200|stress|12
	EOF
	test_cmp expect got
'

test_expect_success 'summary: a row per name of the pid, with its own stall and pages' '
	load &&
	"$VR" summary -d ce.db >out &&
	sed -n "/Process (comm-pid)/,/^$/p" out | grep -- "-[0-9]" | sed "s/  */ /g" >got &&
	cat >expect <<-EOF &&
	 sh-200 1 0 32 30 0 0 10.000 direct-0=1
	 stress-200 1 0 16 12 0 0 10.000 direct-0=1
	 kworker/u8:1-300 1 0 0 0 0 0 5.000 direct-0=1
	EOF
	test_cmp expect got
'

test_expect_success 'a text trace: the comm of each line, source line' '
	cat >t.txt <<-'EOF' &&
	              sh-200   [000] .....     1.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
	              sh-200   [000] .....     1.010000: mm_vmscan_direct_reclaim_end: nr_reclaimed=32
	          stress-200   [000] .....     1.060000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
	          stress-200   [000] .....     1.070000: mm_vmscan_direct_reclaim_end: nr_reclaimed=16
	EOF
	"$VR" load -q -d t.db --kernel 6.18 t.txt &&
	sqlite3 t.db "SELECT pid, comm, comm_source FROM task ORDER BY first_ns" >got &&
	printf "%s\n" "200|sh|line" "200|stress|line" >expect &&
	test_cmp expect got
'

# comm-exec-back-6.18.spec: pid 200 is "sh" again from 1.080; by hand,
# lru_isolate_pages: sh lru 2 = 32 (1.005) + 4 (1.085) in 2 events, sh lru 0
# = 5, stress lru 2 = 16; lru_shrink_pages (nid 0): sh file 2 (reclaim_flags
# 10) 32/30, sh file 0 (flags 9) 4/3, stress file 2 16/12
test_expect_success 'sums of a task named sh, stress, then sh again: each row under its name then' '
	python3 "$MKDAT" "$DATA/comm-exec-back-6.18.spec" cb.dat &&
	"$VR" load -q -d cb.db cb.dat &&
	sqlite3 cb.db "SELECT pid, comm, lru, nr_scanned, events FROM lru_isolate_pages
			ORDER BY comm, lru;
		SELECT pid, comm, nid, file, nr_scanned, nr_reclaimed, events FROM lru_shrink_pages
			ORDER BY comm, file" >got &&
	cat >expect <<-EOF &&
	200|sh|0|5|1
	200|sh|2|36|2
	200|stress|2|16|1
	200|sh|0|0|4|3|1
	200|sh|0|2|32|30|1
	200|stress|0|2|16|12|1
	EOF
	test_cmp expect got
'

# The renames of a run read its own rows only (the rows after each table's
# largest rowid when the run began): ce.dat loaded after cb.dat into one
# database gets the same rows, comms renamed, as ce.dat alone, the early
# stall sh's (worked out above).
test_expect_success 'a second run in the database: its rows renamed as when loaded alone' '
	load &&
	python3 "$MKDAT" "$DATA/comm-exec-back-6.18.spec" cb.dat &&
	"$VR" load -q -d two.db cb.dat && "$VR" load -q -d two.db ce.dat &&
	test "$(sqlite3 two.db "SELECT count(*) FROM reclaim_stall WHERE run_id = 1")" -gt 0 &&
	for t in reclaim_stall kswapd_cycle kswapd_wakeup reclaim_throttle slab_shrink_stored \
		reclaim_write kswapd_hopeless task; do
		sqlite3 ce.db "SELECT * FROM $t WHERE run_id = 1" | cut -d"|" -f2- >expect &&
		sqlite3 two.db "SELECT * FROM $t WHERE run_id = 2" | cut -d"|" -f2- >got &&
		test_cmp expect got || return 1
	done &&
	sqlite3 two.db "SELECT pid, comm, begin_ns, nr_reclaimed FROM reclaim_stall WHERE run_id = 2
		ORDER BY begin_ns" >got &&
	printf "%s\n" "200|sh|1000000000|32" "300|kworker/u8:1|1030000000|8" \
		"200|stress|1060000000|16" >expect &&
	test_cmp expect got
'

test_done
