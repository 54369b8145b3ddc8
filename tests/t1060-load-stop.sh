#!/usr/bin/env bash
# A trace.dat that libtracecmd would read for minutes is refused before it
# reads it (bytes past what the file records, a zeroed page), and a load
# that still does not stop after Ctrl-C has its worker killed after a grace
# period: the run rolled back, exit 1.
VR_PRIVATE_TMP=want
. "$(dirname "$0")/lib.sh"
S=${VR_SAMPLES_DIR:-$TOP/samples}
V6=$S/wsf200-2.dat V7=$S/wsf200-1.dat

test_expect_success 'the samples: wsf200-2 is version 6, wsf200-1 version 7' '
	test "$(head -c 12 "$V6" | tail -c 2 | od -An -c | tr -d " ")" = "6\\0" &&
	test "$(head -c 12 "$V7" | tail -c 2 | od -An -c | tr -d " ")" = "7\\0"
'
test_expect_success 'a trace.dat followed by zeros to 2 GiB (versions 6 and 7): refused at once, naming where its data ends' '
	"$VR" load -q -d a.db "$S/wsf200-3.dat" && dump_rows a.db >before &&
	for f in "$V6" "$V7"; do
		cp "$f" pad.dat && truncate -s 2G pad.dat &&
		end=$(stat -c %s "$f") &&
		rc=0 && timeout -k 5 60 "$VR" load -d a.db pad.dat 2>err || rc=$? &&
		test $rc = 1 || { echo "exit $rc"; cat err; exit 1; }
		grep -q "pad.dat: corrupt or truncated trace.dat: the end of the .* at offset $end is followed by $((2147483648 - end)) more bytes that no section or size of the file accounts for (zeros" err ||
			{ cat err; exit 1; }
	done &&
	dump_rows a.db >after && test_cmp before after
'
test_expect_success 'a version 7 header followed by zeros to 2 GiB: refused at once' '
	head -c 600000 "$V7" >hz.dat && truncate -s 2G hz.dat &&
	rc=0 && timeout -k 5 60 "$VR" load -d a.db hz.dat 2>err || rc=$? &&
	test $rc = 1 && grep -q "hz.dat: corrupt or truncated trace.dat: " err &&
	test ! -e a.db
'
test_expect_success 'a load that does not stop within 1 s of SIGTERM: its worker is killed, the run rolled back, exit 1' '
	: a background job of a script ignores SIGINT: SIGTERM stands for Ctrl-C here &&
	cc -shared -fPIC -o crash.so "$TOP/tests/crash-preload.c" -ldl &&
	"$VR" load -q -d a.db "$S/wsf200-3.dat" && dump_rows a.db >before
	(VR_HANG_READ=wsf200-1 VR_HANG_MARK=$PWD/hanging LD_PRELOAD=$PWD/crash.so \
		exec "$VR" load -d a.db "$V7" 2>err) &
	pid=$!
	for i in $(seq 1 600); do test -e hanging && break; sleep 0.05; done
	test -e hanging &&
	kill -TERM $pid &&
	start=$(date +%s%N) && rc=0 && wait $pid || rc=$? &&
	took_ms=$(( ($(date +%s%N) - start) / 1000000 )) &&
	{ test $rc = 1 || { echo "exit $rc"; cat err; exit 1; }; } &&
	grep -q "wsf200-1.dat: loading it did not stop within 1000 ms of SIGTERM (waiting to open or read it, such as a FIFO no one writes to, inside libtracecmd, or in SQLite, such as a long schema upgrade of the database): its worker was killed, the run rolled back" err &&
	echo "stopped in $took_ms ms" && test $took_ms -lt 10000 &&
	test ! -e a.db-journal && dump_rows a.db >after && test_cmp before after
'
test_expect_success 'Ctrl-C during a long schema upgrade: it stops at once, rolled back in the worker, said so' '
	sqlite3 v6.db <"$TOP/tests/data-model/schema-v6-comm.sql" &&
	sqlite3 v6.db "INSERT INTO sched_switch SELECT run_id, ts_ns + value, cpu, pid, prev_comm,
		prev_pid, prev_prio, prev_state, next_comm, next_pid, next_prio, extra FROM sched_switch,
		generate_series(1, 150000)" &&
	python3 "$TOP/tests/mkdat.py" "$TOP/tests/data-model/two-nodes-6.18.spec" o.dat &&
	cp v6.db x.db &&
	{ env --default-signal=INT "$VR" load -q -d x.db o.dat 2>err & pid=$!; } &&
	for i in $(seq 1 400); do test -e x.db-journal && break; sleep 0.01; done &&
	test -e x.db-journal && kill -INT $pid &&
	start=$(date +%s%N) && test_expect_code 1 wait $pid &&
	took_ms=$(( ($(date +%s%N) - start) / 1000000 )) && echo "stopped in $took_ms ms" &&
	grep -q "^vmscan-report: x.db: cannot upgrade schema version 6: interrupted$" err &&
	grep -q "^vmscan-report: o.dat: not loaded; the database is unchanged$" err &&
	! grep -q "did not stop" err && test ! -e x.db-journal && cmp v6.db x.db
'
test_expect_success 'a zeroed page in a version 6 trace.dat: refused, by the page header it contradicts' '
	"$VR" load -q -d a.db "$S/wsf200-3.dat" && dump_rows a.db >before &&
	cp "$V6" z.dat &&
	size=$(stat -c %s z.dat) && page=$(( size / 4096 - 10 )) &&
	dd if=/dev/zero of=z.dat bs=4096 seek=$page count=1 conv=notrunc 2>/dev/null &&
	test_expect_code 1 "$VR" load -d a.db z.dat 2>err &&
	grep -q "z.dat: corrupt or truncated trace.dat: ring-buffer page at offset $((page * 4096)) is zeroed (time stamp 0, no data)" err &&
	dump_rows a.db >after && test_cmp before after &&
	: a page whose time stamp goes back: refused too &&
	cp "$V6" t.dat &&
	python3 -c "
import sys
d = bytearray(open(\"t.dat\", \"rb\").read())
off = $(( page * 4096 ))
d[off:off + 8] = (1).to_bytes(8, \"little\")     # time stamp 1: before the page before it
open(\"t.dat\", \"wb\").write(d)
" &&
	test_expect_code 1 "$VR" load -d a.db t.dat 2>err &&
	grep -q "ring-buffer page at offset $((page * 4096)) has the time stamp 1, earlier than the page before it" err
'
test_done
