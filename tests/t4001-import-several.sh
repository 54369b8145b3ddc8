#!/usr/bin/env bash
# import-latency FILE...: one run per file like load, iterations counting up,
# one transaction per file (a bad file is named, the others stay imported).
. "$(dirname "$0")/lib.sh"
S="$TOP/samples"

test_expect_success 'three files: three runs, iterations 1-3, each with its own samples' '
	"$VR" import-latency -d l.db -k k "$S/wsf10-1.latency.txt" "$S/wsf10-2.latency.txt" \
		"$S/wsf10-3.latency.txt" >out &&
	test $(wc -l <out) = 3 &&
	sqlite3 l.db "SELECT kernel, iteration FROM run ORDER BY id" >actual &&
	printf "k|1\nk|2\nk|3\n" >expect && test_cmp expect actual &&
	for i in 1 2 3; do
		# each "latency usec:" line gives four samples (p50, p95, p99, max)
		want=$(( $(grep -c "latency usec:" "$S/wsf10-$i.latency.txt") * 4 )) &&
		got=$(sqlite3 l.db "SELECT count(*) FROM app_latency JOIN run ON run.id = run_id
			WHERE iteration = $i") &&
		test "$got" = "$want" || exit 1
	done
'
test_expect_success '--iteration N numbers the first file; a bad file fails alone (exit 1)' '
	printf "p95-Write nonsense\n" >bad.txt &&
	test_expect_code 1 "$VR" import-latency -d m.db -k j -i 4 "$S/wsf10-1.latency.txt" \
		bad.txt "$S/wsf10-2.latency.txt" >out 2>err &&
	grep -q "bad.txt" err &&
	sqlite3 m.db "SELECT iteration FROM run ORDER BY id" >actual &&
	printf "4\n6\n" >expect && test_cmp expect actual
'
test_expect_success 'compare and chart take the same metric names (final-Read, Read), as --metric or --metrics' '
	"$VR" import-latency -q -d n.db -k k "$S/wsf10-1.latency.txt" "$S/wsf10-2.latency.txt" &&
	sqlite3 n.db "SELECT DISTINCT operation FROM app_latency WHERE operation GLOB '\''final-*-Read'\''" |
		sort >expect && test $(wc -l <expect) = 4 &&
	for opt in --metric --metrics -m; do
		"$VR" compare -d n.db -f csv $opt final-Read >out &&
		awk -F, "NR > 1 && \$1 == \"latency\" { print \$3 }" out | sort -u >actual &&
		test_cmp expect actual || exit 1
	done &&
	"$VR" compare -d n.db -f csv --metric Read >out &&
	awk -F, "NR > 1 && \$1 == \"latency\" { print \$3 }" out | sort -u >actual &&
	printf "max-Read\np50-Read\np95-Read\np99-Read\n" >expect && test_cmp expect actual &&
	for opt in --metric --metrics -m; do
		"$VR" chart -d n.db -T latency $opt final-Read --dump-data >out &&
		grep -q "^latency metric final-Read" out || exit 1
	done
'
test_expect_success 'import-latency of a directory: exit 1 saying it is one, database unchanged' '
	"$VR" import-latency -q -d n.db -k k "$S/wsf10-1.latency.txt" &&
	sqlite3 n.db .dump >before && mkdir d &&
	test_expect_code 1 "$VR" import-latency -d n.db -k k d 2>err &&
	grep -q "^vmscan-report: d: cannot read: Is a directory$" err &&
	sqlite3 n.db .dump >after && test_cmp before after
'
test_done
