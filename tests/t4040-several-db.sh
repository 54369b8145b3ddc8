#!/usr/bin/env bash
# compare, chart, report and runs with several -d: the samples split over
# two databases (one run in both) read as the samples in one database.
. "$(dirname "$0")/lib.sh"
sdir=${VR_SAMPLES_DIR:-$TOP/samples}
shared=$test_root/shared
mkdir -p "$shared"
cd "$shared"
# load_into DB NAME-ITER...: each sample with its latency report, as make reports does
load_into() {
	local db=$1 b k i; shift
	for b in "$@"; do
		k=${b%-*} i=${b##*-}
		"$VR" load -q -d $db --kernel $k --iteration $i "$sdir/$b.dat" || return 1
		"$VR" import-latency -q -d $db --kernel $k --iteration $i "$sdir/$b.latency.txt" ||
			return 1
	done
}
load_into all.db wsf10-1 wsf10-2 wsf10-3 wsf200-1 wsf200-2 wsf200-3 >/dev/null 2>&1
# wsf10-1 in both: its contents count once; all.db run 4 (wsf200-1) is run 3 of a.db + b.db
load_into a.db wsf10-1 wsf10-2 wsf200-1 >/dev/null 2>&1
load_into b.db wsf10-3 wsf200-2 wsf200-3 wsf10-1 >/dev/null 2>&1
cd - >/dev/null

test_expect_success 'compare -d a.db -d b.db prints the table of one database (4 formats)' '
	cd "$shared" &&
	for f in text markdown csv json; do
		"$VR" compare -d all.db --format $f >want.$f &&
		"$VR" compare -d a.db -d b.db --format $f >got.$f &&
		test_cmp want.$f got.$f || return 1
	done &&
	grep -q "^Amean  *p95-Read " want.text
'
test_expect_success 'runs: the second database numbered after the first, the duplicate once' '
	"$VR" runs -d "$shared/a.db" -d "$shared/b.db" >out &&
	awk "NR > 1 {print \$1, \$2, \$3}" out >got &&
	printf "%s\n" "1 wsf10 1" "2 wsf10 2" "3 wsf200 1" "4 wsf10 3" "5 wsf200 2" "6 wsf200 3" >want &&
	test_cmp want got
'
test_expect_success 'chart data of several databases: latency and counters as from one' '
	for m in DirectReclaim Read; do
		"$VR" chart -d "$shared/all.db" --kind latency --metric $m --dump-data >want &&
		"$VR" chart -d "$shared/a.db" -d "$shared/b.db" --kind latency --metric $m \
			--dump-data >got && test_cmp want got || return 1
	done &&
	"$VR" chart -d "$shared/all.db" --kind counters --dump-data >want &&
	"$VR" chart -d "$shared/a.db" -d "$shared/b.db" --kind counters --dump-data >got &&
	test_cmp want got &&
	"$VR" chart -d "$shared/all.db" --kind timeline --run 4 --dump-data >want &&
	"$VR" chart -d "$shared/a.db" -d "$shared/b.db" --kind timeline --run 3 --dump-data |
		sed "1s/^timeline run 3 /timeline run 4 /" >got &&
	test_cmp want got
'
test_expect_success 'report of several databases: same table, its evidence.db compares the same' '
	"$VR" report -d "$shared/a.db" -d "$shared/b.db" -o b >/dev/null &&
	"$VR" compare -d "$shared/all.db" >want &&
	test_cmp want b/compare.txt &&
	"$VR" compare -d b/evidence.db >got && test_cmp want got &&
	test "$(sqlite3 b/evidence.db "PRAGMA application_id")" = $((0x564d5352)) &&
	test "$(sqlite3 b/evidence.db "SELECT count(*) FROM run")" = 6
'
test_expect_success 'an evidence.db and a loaded database together' '
	"$VR" report -d "$shared/b.db" -o eb >/dev/null &&
	"$VR" compare -d "$shared/a.db" -d eb/evidence.db >got &&
	"$VR" compare -d "$shared/all.db" >want && test_cmp want got
'
test_expect_success 'several -d: every database is checked, read-only; timeline takes one' '
	sum=$(cat "$shared/a.db" | sha256sum) &&
	test_expect_code 1 "$VR" compare -d "$shared/a.db" -d nosuch.db 2>err &&
	grep -q "nosuch.db: no such database" err &&
	test "$(cat "$shared/a.db" | sha256sum)" = "$sum"
'
test_done
