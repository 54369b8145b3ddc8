#!/usr/bin/env bash
# Per-node vmstat in a snapshot directory (X.snap/start-nodeN-vmstat and
# end-nodeN-vmstat, /sys/devices/system/node/nodeN/vmstat): stored in
# snapshot_counter under file "nodeN-vmstat", start and end values as the
# files hold them; the coverage table still reads /proc/vmstat's file
# alone; a node file without its other moment, or a name that is not
# nodeN-vmstat, is an error naming the file, and the database is as it was.
. "$(dirname "$0")/lib.sh"

trace() {
	cat >t.txt <<-'EOF'
	   vmscan-report-9 [000] .....     1.000000: print: tracing_mark_write: vmscan-report: snapshot start
	     kswapd1-51    [000] .....     1.100000: mm_vmscan_kswapd_wake: nid=1 order=0
	     kswapd1-51    [000] .....     1.210000: mm_vmscan_lru_shrink_inactive: nid=1 nr_scanned=64 nr_reclaimed=60 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
	     kswapd1-51    [000] .....     1.400000: mm_vmscan_kswapd_sleep: nid=1
	   vmscan-report-9 [000] .....     2.000000: print: tracing_mark_write: vmscan-report: snapshot end
	EOF
	mkdir t.txt.snap &&
	printf '%s\n' "pgscan_kswapd 100" "pgsteal_kswapd 0" >t.txt.snap/start-vmstat &&
	printf '%s\n' "pgscan_kswapd 164" "pgsteal_kswapd 60" >t.txt.snap/end-vmstat &&
	printf '%s\n' "nr_free_pages 1000" "nr_vmscan_write 0" >t.txt.snap/start-node0-vmstat &&
	printf '%s\n' "nr_free_pages 900" "nr_vmscan_write 0" >t.txt.snap/end-node0-vmstat &&
	printf '%s\n' "nr_free_pages 2000" "nr_vmscan_write 7" >t.txt.snap/start-node1-vmstat &&
	printf '%s\n' "nr_free_pages 2060" "nr_vmscan_write 9" >t.txt.snap/end-node1-vmstat
}

test_expect_success 'node files: stored per node, start and end as written; coverage reads vmstat' '
	trace &&
	"$VR" load -q -d db -k 6.1 t.txt &&
	sqlite3 db "SELECT file, name, start_value, end_value FROM snapshot_counter
		WHERE file GLOB '"'"'node*'"'"' ORDER BY file, name;
		SELECT file, moment FROM run_snapshot WHERE file GLOB '"'"'node*'"'"' ORDER BY file, moment DESC" >actual &&
	printf "%s\n" "node0-vmstat|nr_free_pages|1000|900" "node0-vmstat|nr_vmscan_write|0|0" \
		"node1-vmstat|nr_free_pages|2000|2060" "node1-vmstat|nr_vmscan_write|7|9" \
		"node0-vmstat|start" "node0-vmstat|end" "node1-vmstat|start" "node1-vmstat|end" >expect &&
	test_cmp expect actual &&
	sqlite3 db "SELECT vmstat_delta FROM counter_coverage WHERE counter = '"'"'pgscan_kswapd'"'"'" >actual &&
	echo 64 >expect && test_cmp expect actual
'

test_expect_success 'a node file without its other moment: an error naming it, nothing loaded' '
	trace &&
	rm t.txt.snap/end-node1-vmstat &&
	test_expect_code 1 "$VR" load -q -d db -k 6.1 t.txt 2>err &&
	grep -q "t.txt.snap/end-node1-vmstat: missing: start-node1-vmstat is there" err &&
	! test -e db
'

test_expect_success 'not nodeN-vmstat: an unknown file' '
	for bad in node01-vmstat nodeX-vmstat node1-zoneinfo node1024-vmstat node-vmstat; do
		rm -rf t.txt.snap db && trace &&
		printf "%s\n" "a 1" >t.txt.snap/start-$bad &&
		test_expect_code 1 "$VR" load -q -d db -k 6.1 t.txt 2>err &&
		grep -q "t.txt.snap: unknown file .start-$bad.: .*nodeN-vmstat (N from 0 to 1023)" err ||
		return 1
	done
'
# A trace named with 252 bytes (NAME_MAX is 255): NAME.snap cannot exist,
# so there is no snapshot; load took stat()'s ENAMETOOLONG for something
# there that is not a directory and refused the file
test_expect_success 'a trace whose name leaves no room for .snap: loaded, no snapshot' '
	n=$(printf "L%.0s" $(seq 248)).dat &&
	cp "$TOP/samples/wsf200-1.dat" "$n" &&
	"$VR" load -q -d long.db "$n" 2>err &&
	! grep -q "not a directory" err &&
	test "$(sqlite3 long.db "SELECT count(*) FROM run")" = 1
'
test_done
