#!/usr/bin/env bash
# Excerpts cut in the middle (issue 25 item 1): an elision marker is a gap
# (nothing pairs across it, what is open there ends there, counted and
# warned), shell prompts around the output are no events and no error,
# ftrace's <stack trace> blocks are no continuation of the event before
# them, and a line continues an event only where its seam reads as
# label=value.  Lines are in the layout of kernel/trace/trace_output.c
# (print_trace_fmt(), trace_stack_print()); expected rows worked out by hand.
. "$(dirname "$0")/lib.sh"

# A direct reclaim of pid 500 begins at 200.000100 and kswapd0 wakes; the
# marker $1 cuts the excerpt; after it pid 500's reclaim ends (400 ms
# later) and kswapd0 sleeps.  Without the cut these would be a 400.8 ms
# stall and a kswapd cycle that ends in a full sleep.
excerpt() {
	cat <<-EOF
	# tracer: nop
	#
	           a.out-500     [001] .....   200.000100: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE|__GFP_COMP
	         kswapd0-97      [002] .....   200.000150: mm_vmscan_kswapd_wake: nid=0 order=0
	$1
	           a.out-500     [001] .....   200.400900: mm_vmscan_direct_reclaim_end: nr_reclaimed=12
	         kswapd0-97      [002] .....   200.410000: mm_vmscan_kswapd_sleep: nid=0
	EOF
}

# By hand: the begin ends at the gap (no end), the end after it has no
# begin; kswapd's cycle from the wake ends at the gap, the sleep after it
# belongs to a cycle whose wake is not in the excerpt.
gap_rows() {
	printf "%s\n" "direct|500|200000100000||0|excerpt_gap" \
		"direct|500||200400900000|0|end_without_begin" \
		"97|200000150000||0|excerpt_gap" "97||200410000000|0|wake_not_seen" \
		"events|4" "gaps|1"
}
q_gap() {
	sqlite3 "$1" "SELECT kind, pid, begin_ns, end_ns, complete, incomplete_reason
			FROM reclaim_stall ORDER BY pid, coalesce(begin_ns, end_ns);
		SELECT pid, wake_ns, sleep_ns, complete, incomplete_reason
			FROM kswapd_cycle ORDER BY coalesce(wake_ns, sleep_ns);
		SELECT 'events', event_count FROM run;
		SELECT 'gaps', count FROM run_quality WHERE item = 'text_excerpt_gaps'"
}

test_expect_success 'each elision marker is a gap: both sides load, nothing pairs across it' '
	gap_rows >expect &&
	i=0 &&
	for m in "..." "[...]" "(...)" "…" "[…]" "<snip>" "[snip]" "--- snip ---" "8<---" \
		"-- >8 --" "[... 4000 lines cut ...]" "  ...  "; do
		i=$((i + 1)) &&
		excerpt "$m" >m$i.txt &&
		"$VR" load -q -d m$i.db --kernel 6.8.0 m$i.txt 2>err &&
		q_gap m$i.db >actual && test_cmp expect actual &&
		grep -q "^vmscan-report: warning: m$i.txt: 1 gap(s) where lines were cut out (.*first at line 5; events on both sides loaded, nothing paired across a gap)" err ||
		{ echo "marker: $m"; exit 1; }
	done
'

# Blank lines and prose around the marker, markers in a row (one gap), and
# the whole excerpt in a "> "-quoted reply.
test_expect_success 'marker with blank lines and prose around it, markers in a row, a quoted reply' '
	gap_rows >expect &&
	excerpt "
[...]

(a few thousand lines later)

<snip>
" >p.txt &&
	"$VR" load -q -d p.db --kernel 6.8.0 p.txt 2>err &&
	q_gap p.db >actual && test_cmp expect actual &&
	grep -q "skipped 1 line(s) that are not trace events (first at line 8)" err &&
	sed "s/^/> /" p.txt >quoted.txt &&
	"$VR" load -q -d q.db --kernel 6.8.0 quoted.txt 2>/dev/null &&
	q_gap q.db >actual && test_cmp expect actual
'

test_expect_success 'two gaps are two: counted, and what opens between them ends at the second' '
	printf "%s\n" "           a.out-500     [001] .....   200.000100: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=0x0" \
		"[...]" \
		"           a.out-501     [001] .....   200.100100: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=0x0" \
		"..." \
		"           a.out-501     [001] .....   200.300900: mm_vmscan_direct_reclaim_end: nr_reclaimed=3" >two.txt &&
	"$VR" load -q -d two.db --kernel 6.8.0 two.txt 2>err &&
	sqlite3 two.db "SELECT pid, begin_ns, end_ns, incomplete_reason FROM reclaim_stall ORDER BY pid, coalesce(begin_ns, end_ns);
		SELECT count FROM run_quality WHERE item IN (\"text_excerpt_gaps\", \"stall_excerpt_gaps\") ORDER BY item" >actual &&
	printf "%s\n" "500|200000100000||excerpt_gap" "501|200100100000||excerpt_gap" \
		"501||200300900000|end_without_begin" 2 2 >expect &&
	test_cmp expect actual
'

# A paste of trace_pipe that ends with a marker was refused whole.
test_expect_success 'an excerpt that ends with a marker loads' '
	excerpt "" | sed "\$a ..." >end.txt &&
	tail -n 1 end.txt | grep -qx "\.\.\." &&
	"$VR" load -q -d end.db --kernel 6.8.0 end.txt 2>err &&
	sqlite3 end.db "SELECT event_count FROM run;
		SELECT kind, pid, begin_ns, end_ns, complete FROM reclaim_stall" >actual &&
	printf "%s\n" 4 "direct|500|200000100000|200400900000|1" >expect &&
	test_cmp expect actual
'

test_expect_success 'shell prompts before and after the output: no event, no error' '
	{ echo "user@vm:~\$ sudo cat /sys/kernel/tracing/trace_pipe" &&
	  excerpt "" | grep -v "^#" | grep -v "^\$" &&
	  echo "root@vm:/sys/kernel/tracing# echo 0 > tracing_on" &&
	  echo "\$ trace-cmd report" && echo "[user@vm ~]\$ exit"; } >prompt.txt &&
	"$VR" load -q -d prompt.db --kernel 6.8.0 prompt.txt 2>err &&
	sqlite3 prompt.db "SELECT event_count FROM run;
		SELECT kind, pid, begin_ns, end_ns, complete FROM reclaim_stall;
		SELECT count FROM run_quality WHERE item = \"text_skipped_lines\"" >actual &&
	printf "%s\n" 4 "direct|500|200000100000|200400900000|1" 4 >expect &&
	test_cmp expect actual
'

# A stacktrace trigger on mm_vmscan_lru_shrink_inactive: after each event
# an entry of its own, "<stack trace>" with the event prefix, then " => "
# frames (trace_stack_print()).  The events keep every field: the same
# rows as the text without the stacks; by hand, reclaim_flags 0x9
# (RECLAIM_WB_ANON 0x1 | RECLAIM_WB_ASYNC 0x8, include/trace/events/vmscan.h).
shrink() {
	echo "         kswapd0-97      [002] .....   200.00$1: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=$2 nr_reclaimed=$3 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_ANON|RECLAIM_WB_ASYNC"
}
stack() {
	printf "%s\n" "         kswapd0-97      [002] .....   200.00$1: <stack trace>" \
		" => shrink_lruvec+0x5a4/0xc80" " => shrink_node+0x2d9/0x7b0" \
		" => balance_pgdat+0x2f0/0x6f0" " => kswapd+0x1f7/0x3a0" " => kthread+0xe8/0x120"
}
test_expect_success 'stack trace blocks after events: skipped, no field of the event lost' '
	{ shrink 0100 32 30 && shrink 0200 64 60; } >plain.txt &&
	{ shrink 0100 32 30 && stack 0101 && shrink 0200 64 60 && stack 0201; } >st.txt &&
	"$VR" load -q -d plain.db --kernel 6.8.0 plain.txt &&
	"$VR" load -q -d st.db --kernel 6.8.0 st.txt 2>err &&
	grep -q "skipped 12 line(s) that are not trace events (first at line 2)" err &&
	! grep -q rejoined err &&
	sqlite3 st.db "SELECT ts_ns, nr_scanned, nr_reclaimed, priority, printf(\"0x%x\", reclaim_flags), extra
		FROM mm_vmscan_lru_shrink_inactive ORDER BY ts_ns" >actual &&
	printf "%s\n" "200000100000|32|30|12|0x9|" "200000200000|64|60|12|0x9|" >expect &&
	test_cmp expect actual &&
	for t in mm_vmscan_lru_shrink_inactive kswapd_cycle; do
		sqlite3 plain.db "SELECT * FROM $t" >expect &&
		sqlite3 st.db "SELECT * FROM $t" >actual && test_cmp expect actual || exit 1
	done
'

# Rejoining stays for wrapped lines whose seam reads as label=value, and
# only there: an indented line that is no body of the event is an error at
# its line, not glued into the last field.
test_expect_success 'an indented line continues an event only as label=value' '
	printf "%s\n" "         kswapd0-97      [002] .....   200.000100: mm_vmscan_wakeup_kswapd: nid=0 order=0 gfp_flags=GFP_KERNEL" \
		"    zid=2" >wrap.txt &&
	"$VR" load -q -d wrap.db --kernel 6.8.0 wrap.txt 2>/dev/null &&
	test "$(sqlite3 wrap.db "SELECT zid FROM mm_vmscan_wakeup_kswapd")" = 2 &&
	printf "%s\n" "         kswapd0-97      [002] .....   200.000100: mm_vmscan_wakeup_kswapd: nid=0 order=0 gfp_flags=GFP_KERNEL" \
		"    then it went on" >prose.txt &&
	test_expect_code 1 "$VR" load -q -d new.db --kernel 6.8.0 prose.txt 2>err &&
	grep -q "^vmscan-report: prose.txt:2: this line is no event line; as the continuation of the event at line 1" err &&
	test ! -e new.db
'

test_done
