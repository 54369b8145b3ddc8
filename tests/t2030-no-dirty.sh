#!/usr/bin/env bash
# PGDAT_DIRTY is gone from 6.19 (issue 25 item 7: Baolin Wang's patch of Oct
# 2025 removes it from enum pgdat_flags): a recording whose release is 6.19
# or later says "no such flag" for it in summary, compare ('-') and the
# timeline chart (band note and legend), never "never set" or 0 ms.  Inputs:
# tests/data-model/two-nodes-6.18.spec (release 6.15) as it is and with its
# uname changed to 7.0.0 and 6.19.0 (the same events), made by tests/mkdat.py.
# By hand, from the spec's comments: kswapd0's pass ending at 1.003 s has
# unqueued dirty == file taken > 0, so 6.15 sets PGDAT_DIRTY on node 0 at
# 1.003 s (an interval of 0 ms: cleared at once at the balanced nap); 7.0
# and 6.19 infer no PGDAT_DIRTY at all, the other flags as 6.15.
. "$(dirname "$0")/lib.sh"

MKDAT="$TOP/tests/mkdat.py"
SPEC="$TOP/tests/data-model/two-nodes-6.18.spec"

runs() {
	python3 "$MKDAT" "$SPEC" r615.dat &&
	sed "s/^uname .*/uname Linux box 7.0.0-test #1 SMP PREEMPT_DYNAMIC x86_64 GNU\/Linux/" \
		"$SPEC" >r70.spec && python3 "$MKDAT" r70.spec r70.dat &&
	sed "s/^uname .*/uname Linux box 6.19.0-test #1 SMP PREEMPT_DYNAMIC x86_64 GNU\/Linux/" \
		"$SPEC" >r619.spec && python3 "$MKDAT" r619.spec r619.dat &&
	"$VR" load -q -d t.db --kernel k615 r615.dat &&
	"$VR" load -q -d t.db --kernel k70 r70.dat &&
	"$VR" load -q -d t.db --kernel k619 r619.dat
}

test_expect_success 'model: no PGDAT_DIRTY interval from 6.19, the others as before' '
	runs &&
	sqlite3 t.db "SELECT run_id, nid, flag, set_ns, clear_ns FROM pgdat_flag
		ORDER BY run_id, nid, flag; SELECT run_id, count FROM run_quality
		WHERE item = '\''pgdat_flag_dirty_absent'\'' ORDER BY run_id" >got &&
	cat >expect <<-EOF &&
	1|0|PGDAT_DIRTY|1003000000|1003000000
	1|0|PGDAT_WRITEBACK|1002000000|1003000000
	1|1|LRUVEC_NODE_CONGESTED|1194000000|
	2|0|PGDAT_WRITEBACK|1002000000|1003000000
	2|1|LRUVEC_NODE_CONGESTED|1194000000|
	3|0|PGDAT_WRITEBACK|1002000000|1003000000
	3|1|LRUVEC_NODE_CONGESTED|1194000000|
	2|1
	3|1
	EOF
	test_cmp expect got
'

test_expect_success 'compare: the PGDAT_DIRTY row is - for 7.0 and 6.19, a number for 6.15' '
	runs &&
	"$VR" compare -d t.db --metrics counters --width 0 >out &&
	grep "^pgdat PGDAT_DIRTY set ms" out | sed "s/  */ /g" >got &&
	echo "pgdat PGDAT_DIRTY set ms 0.00 - -" >expect &&
	test_cmp expect got
'

test_expect_success 'summary: "no such flag" for 7.0, the estimate note for 6.15' '
	runs &&
	"$VR" summary -d t.db --run 2 >s70 &&
	grep -q "^  no such flag: PGDAT_DIRTY is gone from 6.19" s70 &&
	! grep -q "never set\|PGDAT_DIRTY is an estimate" s70 &&
	grep "pgdat_flag_dirty_absent" s70 | sed "s/  */ /g" >got &&
	echo " pgdat_flag_dirty_absent 1" >expect && test_cmp expect got &&
	"$VR" summary -d t.db --run 1 >s615 &&
	! grep -q "no such flag" s615 && grep -q "PGDAT_DIRTY is an estimate" s615
'

test_expect_success 'timeline chart: the band says no such flag, the legend names it' '
	runs &&
	"$VR" chart -d t.db --kind timeline --run 2 --dump-data >d70 &&
	grep "PGDAT_DIRTY" d70 >got &&
	printf "%s\n" "flag PGDAT_DIRTY note no such flag on this kernel (6.19+)" \
		"flag PGDAT_DIRTY note no such flag on this kernel (6.19+)" >expect &&
	test_cmp expect got &&
	grep "^legend" d70 | grep -q " no_dirty" &&
	"$VR" chart -d t.db --kind timeline --run 1 --dump-data >d615 &&
	! grep -q "no such flag\|no_dirty" d615 &&
	"$VR" chart -d t.db --kind timeline --run 2 -o t.png && test -s t.png
'

test_expect_success 'a text trace without a release keeps the flag (it may exist)' '
	cat >u.txt <<-'EOF' &&
	     kswapd0-50    [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0
	     kswapd0-50    [000] .....     1.100000: mm_vmscan_kswapd_sleep: nid=0
	EOF
	"$VR" load -q -d u.db --kernel unlabelled u.txt &&
	test "$(sqlite3 u.db "SELECT count(*) FROM run_quality WHERE item = '\''pgdat_flag_dirty_absent'\''")" = 0
'

test_done
