#!/usr/bin/env bash
# report's evidence.db: the database without raw event rows; every reading
# command prints from it what it prints from the database it was made from,
# and what needs the raw rows says which table is missing.
. "$(dirname "$0")/lib.sh"
sdir=${VR_SAMPLES_DIR:-$TOP/samples}
# one database of the samples and its bundle, shared by the tests below
shared=$test_root/shared
mkdir -p "$shared"
(cd "$shared" && SAMPLES=$sdir REPORTS=$shared/b VR=$VR LAB_BUNDLES=0 "$TOP/tests/make-reports.sh" \
	>/dev/null 2>&1)
D=$shared/b/vmscan.db E=$shared/b/evidence.db
RAW="SELECT count(*) FROM sqlite_master WHERE name LIKE 'mm\_%' ESCAPE '\\'
	OR name LIKE 'sched\_%' ESCAPE '\\' OR name LIKE 'writeback\_%' ESCAPE '\\'
	OR name = 'other_event'"

test_expect_success 'report writes evidence.db, in MANIFEST, its size in index.md' '
	test -s "$E" &&
	(cd "$shared/b" && sha256sum -c --quiet MANIFEST) &&
	grep -q "  evidence.db\$" "$shared/b/MANIFEST" &&
	size=$(stat -c %s "$E") &&
	grep -q "(evidence.db).*, $size bytes)" "$shared/b/index.md"
'
test_expect_success 'evidence.db: our application_id and user_version, no raw table' '
	test "$(sqlite3 "$E" "PRAGMA application_id")" = $((0x564d5352)) &&
	test "$(sqlite3 "$E" "PRAGMA user_version")" = "$(sqlite3 "$D" "PRAGMA user_version")" &&
	test "$(sqlite3 "$D" "$RAW")" -gt 30 &&
	test "$(sqlite3 "$E" "$RAW")" = 0 &&
	test "$(sqlite3 "$E" "SELECT count(*) FROM sqlite_master WHERE type = '\''view'\''")" = 0
'
test_expect_success 'evidence.db: run metadata, derived tables and latencies as in the database' '
	for t in run run_event_count run_quality lost_events task reclaim_stall kswapd_cycle \
		 kswapd_wakeup pgdat_flag reclaim_throttle slab_shrink_stored \
		 reclaim_write app_latency; do
		sqlite3 "$D" "SELECT * FROM $t" | sort >want.$t &&
		sqlite3 "$E" "SELECT * FROM $t" | sort >got.$t &&
		test_cmp want.$t got.$t || return 1
	done &&
	test -s want.app_latency
'
test_expect_success 'evidence.db of a database whose path holds ?, # and %: read from that file' '
	mkdir "a?b#c" && cp "$D" "a?b#c/x%41.db" &&
	"$VR" report -q -d "a?b#c/x%41.db" -o b3 &&
	sqlite3 "$D" "SELECT id, content_sha256 FROM run" >want.runs &&
	sqlite3 b3/evidence.db "SELECT id, content_sha256 FROM run" >got.runs &&
	test_cmp want.runs got.runs && test -s want.runs &&
	test "$(sqlite3 b3/evidence.db "SELECT source_path FROM evidence")" = "a?b#c/x%41.db"
'
test_expect_success 'evidence.db: the shrinker calls counted per duration, not a row per call' '
	sqlite3 "$D" "SELECT run_id, complete, duration_ns, count(*) FROM slab_shrink
		GROUP BY 1, 2, 3" >want.slab &&
	sqlite3 "$E" "SELECT run_id, complete, duration_ns, calls FROM slab_shrink_ns
		ORDER BY 1, 2, 3" >got.slab &&
	test_cmp want.slab got.slab && test -s want.slab &&
	test "$(sqlite3 "$E" "SELECT count(*) FROM sqlite_master WHERE name = '\''slab_shrink'\''")" = 0
'
test_expect_success 'evidence.db: its sums are those of the raw rows' '
	sqlite3 "$D" "SELECT run_id, sum(nr_reclaimed), sum(nr_scanned), count(*)
		FROM mm_vmscan_lru_shrink_inactive GROUP BY 1" >want.shrink &&
	sqlite3 "$E" "SELECT run_id, sum(nr_reclaimed), sum(nr_scanned), sum(events)
		FROM lru_shrink_pages GROUP BY 1" >got.shrink &&
	test_cmp want.shrink got.shrink &&
	sqlite3 "$E" "SELECT run_id, sum(nr_reclaimed), sum(events) FROM lru_reclaim_ms
		GROUP BY 1" >got.ms &&
	awk -F"|" "{print \$1 \"|\" \$2 \"|\" \$4}" want.shrink >want.ms &&
	test_cmp want.ms got.ms &&
	sqlite3 "$D" "SELECT run_id, sum(nr_scanned) FROM mm_vmscan_lru_isolate GROUP BY 1" >want.iso &&
	sqlite3 "$E" "SELECT run_id, sum(nr_scanned) FROM lru_isolate_pages GROUP BY 1" >got.iso &&
	test_cmp want.iso got.iso && test -s want.iso
'
test_expect_success 'compare -d evidence.db prints what compare -d vmscan.db prints' '
	for f in text markdown csv json; do
		"$VR" compare -d "$D" --format $f >want.$f &&
		"$VR" compare -d "$E" --format $f >got.$f &&
		test_cmp want.$f got.$f || return 1
	done &&
	grep -q "^Pages reclaimed in direct reclaim  *[1-9]" want.text
'
test_expect_success 'summary, runs, timeline and charts read evidence.db as the database' '
	for db in "$D" "$E"; do
		n=$(basename "$db") &&
		"$VR" summary -d "$db" >$n.out &&
		"$VR" runs -d "$db" >>$n.out &&
		"$VR" chart -d "$db" --kind counters --dump-data >>$n.out &&
		for m in DirectReclaim KswapdAwake SlabShrink Read; do
			"$VR" chart -d "$db" --kind latency --metric $m --dump-data >>$n.out || return 1
		done &&
		for id in $(sqlite3 "$D" "SELECT id FROM run WHERE event_count > 0"); do
			"$VR" timeline -d "$db" --run $id >>$n.out &&
			"$VR" chart -d "$db" --kind timeline --run $id --dump-data >>$n.out &&
			"$VR" chart -d "$db" --kind timeline --run $id --from 1 --bin 0.5 \
				--dump-data >>$n.out || return 1
		done || return 1
	done &&
	test_cmp vmscan.db.out evidence.db.out
'
test_expect_success 'a report of evidence.db is the bundle of the database' '
	"$VR" report -d "$E" -o b2 >/dev/null &&
	(cd "$shared/b" && sha256sum *) | grep -v " \(MANIFEST\|index.md\|evidence.db\|vmscan.db\)\$" >want &&
	(cd b2 && sha256sum *) | grep -v " \(MANIFEST\|index.md\|evidence.db\)\$" >got &&
	test_cmp want got &&
	test "$(sqlite3 b2/evidence.db "$RAW")" = 0
'
test_expect_success 'what needs raw rows says so: a timeline window not on whole ms' '
	"$VR" chart -d "$D" --kind timeline --run 1 --from 0.0005 --dump-data >/dev/null &&
	test_expect_code 1 "$VR" chart -d "$E" --kind timeline --run 1 --from 0.0005 \
		--dump-data >out 2>err &&
	grep -q "evidence.db: no table mm_vmscan_lru_shrink_inactive" err
'
SUMS="lru_isolate_pages lru_shrink_pages lru_shrink_stall kswapd_wake_node slab_shrink_ns
	lru_reclaim_ms"
test_expect_success 'load writes the sums: those of the raw rows, per task under its comm then' '
	sqlite3 "$D" "SELECT run_id, pid, coalesce(lru, 2 * file), sum(nr_scanned), count(*)
		FROM mm_vmscan_lru_isolate GROUP BY 1, 2, 3" >want.iso &&
	sqlite3 "$D" "SELECT run_id, pid, lru, sum(nr_scanned), sum(events)
		FROM lru_isolate_pages GROUP BY 1, 2, 3" >got.iso &&
	test_cmp want.iso got.iso && test -s want.iso &&
	sqlite3 "$D" "SELECT run_id, pid, nid, reclaim_flags & 2, sum(nr_scanned),
		sum(nr_reclaimed), count(*) FROM mm_vmscan_lru_shrink_inactive
		GROUP BY 1, 2, 3, 4" >want.sh &&
	sqlite3 "$D" "SELECT run_id, pid, nid, file, sum(nr_scanned), sum(nr_reclaimed),
		sum(events) FROM lru_shrink_pages GROUP BY 1, 2, 3, 4" >got.sh &&
	test_cmp want.sh got.sh &&
	# the comm: the task row whose span began last at or before the event
	sqlite3 "$D" "SELECT r.run_id, r.pid, (SELECT comm FROM task t WHERE t.run_id = r.run_id
		AND t.pid = r.pid AND t.first_ns <= r.ts_ns ORDER BY t.first_ns DESC LIMIT 1) c,
		sum(r.nr_scanned) FROM mm_vmscan_lru_shrink_inactive r GROUP BY 1, 2, 3" >want.comm &&
	sqlite3 "$D" "SELECT run_id, pid, comm, sum(nr_scanned) FROM lru_shrink_pages
		GROUP BY 1, 2, 3" >got.comm &&
	test_cmp want.comm got.comm &&
	sqlite3 "$D" "SELECT run_id, count(*) FROM mm_vmscan_kswapd_wake GROUP BY 1" >want.wk &&
	sqlite3 "$D" "SELECT run_id, sum(events) FROM kswapd_wake_node GROUP BY 1" >got.wk &&
	test_cmp want.wk got.wk &&
	sqlite3 "$D" "SELECT run_id, slab_complete, ts_ns - slab_begin_ns, count(*) FROM
		mm_shrink_slab_end WHERE slab_complete IS NOT NULL GROUP BY 1, 2, 3" >want.sl &&
	sqlite3 "$D" "SELECT run_id, complete, duration_ns, calls FROM slab_shrink_ns
		WHERE (run_id, complete, duration_ns) NOT IN (SELECT run_id, complete,
		duration_ns FROM slab_shrink_stored) ORDER BY 1, 2, 3" >got.sl &&
	test_cmp want.sl got.sl &&
	sqlite3 "$D" "SELECT s.run_id, s.nid, s.pid, (s.ts_ns - r.first_ts_ns) / 1000000,
		sum(coalesce(s.nr_reclaimed, 0)), count(*) FROM mm_vmscan_lru_shrink_inactive s,
		run r WHERE r.id = s.run_id GROUP BY 1, 2, 3, 4" >want.ms &&
	sqlite3 "$D" "SELECT * FROM lru_reclaim_ms ORDER BY 1, 2, 3, 4" >got.ms &&
	test_cmp want.ms got.ms && test -s want.ms
'
test_expect_success 'a database loaded before the sums: read as it is, given them by a load' '
	cp "$D" old.db &&
	for t in $SUMS; do sqlite3 old.db "DROP TABLE $t" || return 1; done &&
	"$VR" summary -d old.db >old.summary && "$VR" summary -d "$D" >want.summary &&
	test_cmp want.summary old.summary &&
	"$VR" compare -d old.db >old.compare && "$VR" compare -d "$D" >want.compare &&
	test_cmp want.compare old.compare &&
	"$VR" load -q -d old.db --replace "$sdir"/wsf10-2.dat &&
	for t in $SUMS; do
		sqlite3 "$D" "SELECT * FROM $t" | sort >want.$t &&
		sqlite3 old.db "SELECT * FROM $t" | sort >got.$t &&
		test_cmp want.$t got.$t || return 1
	done
'
test_expect_success 'load and import-latency refuse evidence.db, leaving it unchanged' '
	sum=$(sha256sum <"$E") &&
	test_expect_code 1 "$VR" load -q -d "$E" --kernel x "$sdir"/wsf10-1.dat 2>err &&
	grep -q "is an evidence database" err &&
	test_expect_code 1 "$VR" import-latency -q -d "$E" --kernel x \
		"$sdir"/wsf10-1.latency.txt 2>err &&
	grep -q "is an evidence database" err &&
	test "$(sha256sum <"$E")" = "$sum"
'
test_done
