#!/usr/bin/env bash
# report's evidence.db: the database without raw event rows; every reading
# command prints from it what it prints from the database it was made from,
# and what needs the raw rows says which table is missing.
. "$(dirname "$0")/lib.sh"
sdir=${VR_SAMPLES_DIR:-$TOP/samples}
# one database of the samples and its bundle, shared by the tests below
shared=$test_root/shared
mkdir -p "$shared"
(cd "$shared" && SAMPLES=$sdir REPORTS=$shared/b VR=$VR "$TOP/tests/make-reports.sh" \
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
		 kswapd_wakeup pgdat_flag reclaim_throttle slab_shrink slab_shrink_stored \
		 reclaim_write app_latency; do
		sqlite3 "$D" "SELECT * FROM $t" | sort >want.$t &&
		sqlite3 "$E" "SELECT * FROM $t" | sort >got.$t &&
		test_cmp want.$t got.$t || return 1
	done &&
	test -s want.slab_shrink && test -s want.app_latency
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
	grep -q "^Direct pages reclaimed  *[1-9]" want.text
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
