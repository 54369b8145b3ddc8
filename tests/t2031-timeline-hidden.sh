#!/usr/bin/env bash
# timeline leaves out reclaim stalls shorter than --min-stall-ms (default
# 10) and says on stderr how many it left out; stdout stays the timeline.
# By hand: dd stalls in direct reclaim five times, 2, 5, 9.999, 10 and 30
# ms long, beginning at 1.0, 1.1, 1.2, 1.3 and 1.4 s (the trace starts at
# 1.0 s).  Default 10 ms: 2, 5 and 9.999 are left out (3), 10 and 30
# printed (>= 10).  --min-stall-ms 3: only the 2 ms one (1).  --from 0.15:
# the stalls from 1.2 s on, of which 9.999 is short (1).  --min-stall-ms 0:
# none left out, no note.  On the lab's vanilla-1.dat the number is checked
# against the direct reclaim begin/end pairs of `trace-cmd report` (awk,
# per pid), not against the database.
. "$(dirname "$0")/lib.sh"

trace() {
	cat >s.txt <<-'EOF'
	# tracer: nop
	          dd-300   [002] .....     1.000000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	          dd-300   [002] .....     1.002000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1
	          dd-300   [002] .....     1.100000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	          dd-300   [002] .....     1.105000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1
	          dd-300   [002] .....     1.200000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	          dd-300   [002] .....     1.209999: mm_vmscan_direct_reclaim_end: nr_reclaimed=1
	          dd-300   [002] .....     1.300000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	          dd-300   [002] .....     1.310000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1
	          dd-300   [002] .....     1.400000: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_HIGHUSER_MOVABLE
	          dd-300   [002] .....     1.430000: mm_vmscan_direct_reclaim_end: nr_reclaimed=1
	EOF
	"$VR" load -q -d db s.txt
}

note() { echo "vmscan-report: timeline: $1 reclaim stall$2 shorter than $3 ms not shown (--min-stall-ms 0 shows them)"; }

test_expect_success 'default 10 ms: 3 stalls left out, said on stderr' '
	trace && "$VR" timeline -d db --run 1 >out 2>err &&
	grep -c "reclaim stall" out >n && echo 2 >expect && test_cmp expect n &&
	note 3 s 10 >expect && test_cmp expect err
'
test_expect_success '--min-stall-ms 3: 1 left out' '
	trace && "$VR" timeline -d db --run 1 --min-stall-ms 3 >out 2>err &&
	grep -c "reclaim stall" out >n && echo 4 >expect && test_cmp expect n &&
	note 1 "" 3 >expect && test_cmp expect err
'
test_expect_success '--from 0.15: only the window'"'"'s stalls counted' '
	trace && "$VR" timeline -d db --run 1 --from 0.15 >out 2>err &&
	note 1 "" 10 >expect && test_cmp expect err
'
test_expect_success '--min-stall-ms 0: every stall printed, no note' '
	trace && "$VR" timeline -d db --run 1 --min-stall-ms 0 >out 2>err &&
	grep -c "reclaim stall" out >n && echo 5 >expect && test_cmp expect n &&
	test ! -s err
'
# pairs: direct reclaim begin/end of `trace-cmd report` on stdin, per pid
# (comm-pid, the first field); prints "stalls short": how many pairs and how
# many shorter than 10 ms (in integer us, from the printed timestamps)
pairs() {
	awk '{
		for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
		t = $i; sub(/:$/, "", t); sub(/\./, "", t); t += 0
	}
	/ mm_vmscan_direct_reclaim_begin: / { b[$1] = t }
	/ mm_vmscan_direct_reclaim_end: / && ($1 in b) {
		n++; if (t - b[$1] < 10000) short++; delete b[$1]
	}
	END { print n + 0, short + 0 }'
}

test_expect_success 'lab vanilla-1: the number left out is that of trace-cmd report' '
	command -v trace-cmd >/dev/null || test_skip_because "no trace-cmd" &&
	dat=$TOP/samples/lab/vanilla-1.dat &&
	"$VR" load -q -d db "$dat" &&
	trace-cmd report "$dat" 2>/dev/null | pairs >pairs &&
	read -r total short <pairs &&
	echo "$total stalls, $short shorter than 10 ms" &&
	test "$total" -gt 0 && test "$short" -gt 0 &&
	"$VR" timeline -d db --run 1 >out 2>err &&
	note "$short" s 10 >expect && test_cmp expect err &&
	grep -c "reclaim stall" out >n && echo $((total - short)) >expect && test_cmp expect n
'
test_done
