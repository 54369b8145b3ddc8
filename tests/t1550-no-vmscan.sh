#!/usr/bin/env bash
# A recording without a single vmscan event (issue 25 item 8: only sched
# events, the wrong instance) is refused, exit 1, naming the events it
# has (and whether the vmscan tracepoints were recorded at all), the
# database unchanged; --empty-run loads it as a run deliberately
# without reclaim.
. "$(dirname "$0")/lib.sh"

MKDAT="$TOP/tests/mkdat.py"

sched_text() {
	printf "%s\n" \
	"          a.out-500     [001] .....   200.000100: sched_switch: prev_comm=a.out prev_pid=500 prev_prio=120 prev_state=S ==> next_comm=swapper/1 next_pid=0 next_prio=120" \
	"         <idle>-0       [001] d....   200.000900: sched_wakeup: comm=a.out pid=500 prio=120 target_cpu=001" \
	"         <idle>-0       [001] .....   200.001000: sched_switch: prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=a.out next_pid=500 next_prio=120"
}

test_expect_success 'a text with sched events only: refused, naming them; the database unchanged' '
	sched_text >sched.txt &&
	printf "%s\n" "         kswapd0-97      [002] .....   200.000150: mm_vmscan_kswapd_wake: nid=0 order=0" >k.txt &&
	"$VR" load -q -d keep.db k.txt &&
	sqlite3 keep.db "SELECT id, event_count FROM run" >before &&
	test_expect_code 1 "$VR" load -q -d keep.db sched.txt 2>err &&
	grep -q "^vmscan-report: sched.txt: no vmscan event in the recording (it has sched:sched_switch 2, sched:sched_wakeup 1); a run without one shows nothing of reclaim: record vmscan:\* (the right instance?), or load it with --empty-run if it is a run deliberately without reclaim" err &&
	grep -q "^vmscan-report: sched.txt: not loaded; the database is unchanged" err &&
	sqlite3 keep.db "SELECT id, event_count FROM run" >after && test_cmp before after &&
	test_expect_code 1 "$VR" load -q -d new.db sched.txt 2>/dev/null && test ! -e new.db
'

# What it did not record is "-", never 0: summary says why, compare's
# counter rows are "-" for it (the other kernel's run has its 1 wake).
test_expect_success '--empty-run: the same text loads; its reclaim counts are -, not 0' '
	sched_text >sched.txt &&
	"$VR" load -q -d e.db --empty-run --kernel empty sched.txt &&
	sqlite3 e.db "SELECT event_count FROM run; SELECT count(*) FROM reclaim_stall" >actual &&
	printf "%s\n" 3 0 >expect && test_cmp expect actual &&
	"$VR" summary -d e.db -r 1 >sum &&
	grep -qx "  Not recorded: no vmscan tracepoint in this run (loaded with --empty-run): every reclaim count is -, not 0" sum &&
	! grep -q "Direct reclaim stalls" sum &&
	printf "%s\n" "         kswapd0-97      [002] .....   200.000150: mm_vmscan_kswapd_wake: nid=0 order=0" >k.txt &&
	"$VR" load -q -d e.db --kernel other k.txt &&
	"$VR" compare -d e.db >cmp &&
	grep -E "^Kswapd wakes\[1\] +- +1\.00\$" cmp &&
	grep -E "^Direct reclaim stalls complete\[1\] +- +0\.00\$" cmp &&
	grep -q "^\[1\] empty: not recorded in 1 of 1 runs: no vmscan tracepoint in this run" cmp
'

test_expect_success 'a trace.dat with sched events only: refused the same way' '
	printf "%s\n" "era 4.11" "cpus 2" "uname Linux box 4.11.0 x86_64" "comm 500 a.out" \
		"ev 1 1000000000 500 sched_switch prev_comm=a.out prev_pid=500 prev_prio=120 prev_state=1 next_comm=swapper/1 next_pid=0 next_prio=120" \
		"ev 1 1000500000 0 sched_switch prev_comm=swapper/1 prev_pid=0 prev_prio=120 prev_state=0 next_comm=a.out next_pid=500 next_prio=120" >s.spec &&
	python3 "$MKDAT" s.spec s.dat &&
	test_expect_code 1 "$VR" load -q -d new.db s.dat 2>err &&
	grep -q "^vmscan-report: s.dat: no vmscan event in the recording (it has sched:sched_switch 2; the vmscan tracepoints were recorded and none fired)" err &&
	test ! -e new.db &&
	"$VR" load -q -d e.db --empty-run s.dat &&
	test "$(sqlite3 e.db "SELECT event_count FROM run")" = 2
'

# perf record -e sched:sched_switch -o X -- sleep 0.01 (6.18.44, perf 6.1):
# one sample, no vmscan format in its tracing data.
test_expect_success 'a perf.data of sched_switch only: refused, no vmscan tracepoint recorded' '
	xz -dc "$TOP/tests/data-text/perf-sched-only.data.xz" >sched.data &&
	test_expect_code 1 "$VR" load -q -d new.db sched.data 2>err &&
	grep -q "^vmscan-report: sched.data: no vmscan event in the recording (it has sched:sched_switch 1); a run" err &&
	test ! -e new.db
'

# A run of imported latencies alone (import-latency, no trace): summary's
# counts are "-" with the reason, its length "- s", as compare and runs say.
test_expect_success 'a run of imported latencies alone: summary says - and why, not 0' '
	printf "p95-Write 3\np50-Write 1\n" >lat.txt &&
	"$VR" import-latency -q -d l.db -k b lat.txt &&
	"$VR" summary -d l.db -r 1 >sum &&
	grep -qx "run 1: b iteration 1, release -, - s (no trace) <- lat.txt" sum &&
	grep -qx "  Not recorded: no trace in this run (its latencies were imported alone): every reclaim count is -, not 0" sum &&
	! grep -q "Kswapd wakes" sum && ! grep -v "every reclaim count" sum | grep -Eq " 0$| 0\.000 s"
'

test_done
