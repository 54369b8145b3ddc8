#!/usr/bin/env bash
# perf (issue 25 item 2): perf.data of tracepoints and its `perf script`
# text load into the same rows, which agree with counts made from the
# perf script text by awk; perf script's -F layouts; lost records; a
# perf.data without tracing data and other tools' texts are named.
#
# tests/data-text/perf-memcg-6.18.data.xz was recorded on 6.18.44 (perf
# 6.1) as root with a cgroup v1 memory limit of 32 MiB:
#   perf record -e 'vmscan:*' -a -o vm.data -- sh -c 'echo $$ >
#     /sys/fs/cgroup/memory/G/cgroup.procs; dd if=/dev/zero of=F bs=1M
#     count=96; cat F >/dev/null'
# its .txt.xz is `perf script -i vm.data`, perf-script/*.txt the first 40
# lines of `perf script` (default.txt), of --ns (ns.txt) and of `perf
# script -F trace:comm,FIELDS` with FIELDS pid,tid,cpu,time,event,trace
# (pidtid.txt), tid,cpu,time,period,event,trace (period.txt),
# tid,cpu,time,event,flags,trace (flags.txt), tid,cpu,time,event,trace,
# ip,sym,dso (ipsym.txt), tid,time,event,trace (nocpu.txt), and without
# comm, tid,cpu,time,event,trace (nocomm.txt); perf-cpu-clock.data is
# `perf record -e cpu-clock -- true`.
. "$(dirname "$0")/lib.sh"

DATA="$TOP/tests/data-text"
PS="$DATA/perf-script"

# The rows both forms carry, times truncated to the microsecond as perf
# script prints them (builtin-script.c: nsecs / NSEC_PER_USEC).  Not the
# shrinker's symbol: perf.data keeps no kallsyms (perf resolves the address
# when it prints), the text no address.
q() {
	sqlite3 "$1" "
	SELECT 'stall', kind, pid, comm, begin_ns/1000, end_ns/1000, \"order\", nr_reclaimed,
	       gfp_flags, complete FROM reclaim_stall;
	SELECT 'throttle', kind, pid, end_ns/1000, usec_timeout, usec_delayed, reason
	       FROM reclaim_throttle;
	SELECT 'inactive', ts_ns/1000, cpu, pid, nid, nr_scanned, nr_reclaimed, nr_dirty,
	       nr_writeback, nr_immediate, priority, reclaim_flags FROM mm_vmscan_lru_shrink_inactive;
	SELECT 'isolate', ts_ns/1000, cpu, pid, nr_requested, nr_scanned, nr_skipped, nr_taken, lru
	       FROM mm_vmscan_lru_isolate;
	SELECT 'slab', ts_ns/1000, cpu, pid, nid, nr_objects_to_shrink, cache_items, delta,
	       total_scan, priority FROM mm_shrink_slab_start;
	SELECT 'slabend', ts_ns/1000, cpu, pid, nid, unused_scan, new_scan, retval, total_scan
	       FROM mm_shrink_slab_end;
	SELECT 'events', event_count, lost_events FROM run;" | sort
}

test_expect_success 'perf.data and its perf script text: the same rows' '
	xz -dc "$DATA/perf-memcg-6.18.data.xz" >vm.data &&
	xz -dc "$DATA/perf-memcg-6.18.txt.xz" >vm.txt &&
	"$VR" load -q -d d.db vm.data &&
	"$VR" load -q -d t.db --kernel 6.18.44 vm.txt &&
	q d.db >expect && q t.db >actual && test_cmp expect actual &&
	test $(wc -l <expect) = 1609 &&
	sqlite3 d.db "SELECT source_format, kernel, kernel_release, cpus FROM run" >actual &&
	echo "perf.data|6.18.44-fc-v1098|6.18.44-fc-v1098|2" >expect && test_cmp expect actual &&
	test "$(sqlite3 t.db "SELECT source_format FROM run")" = text
'

# Counted from the text by awk, independently of vmscan-report: memcg
# stalls (begin/end lines of one pid pair in order), their pages, the
# lru_shrink_inactive lines and pages, the throttles and their delay.
test_expect_success 'the rows agree with counts from the perf script text' '
	xz -dc "$DATA/perf-memcg-6.18.data.xz" >vm.data &&
	xz -dc "$DATA/perf-memcg-6.18.txt.xz" >vm.txt &&
	"$VR" load -q -d d.db vm.data &&
	awk "
	/vmscan:mm_vmscan_memcg_reclaim_end:/ { n++; sub(/.*nr_reclaimed=/, \"\"); r += \$1 }
	/vmscan:mm_vmscan_lru_shrink_inactive:/ { i++; match(\$0, /nr_scanned=[0-9]+/);
		s += substr(\$0, RSTART + 11, RLENGTH - 11) }
	/vmscan:mm_vmscan_throttled:/ { t++; match(\$0, /usect_delayed=[0-9]+/);
		d += substr(\$0, RSTART + 14, RLENGTH - 14) }
	END { print n, r; print i, s; print t, d }" vm.txt >expect &&
	sqlite3 -separator " " d.db "SELECT count(*), sum(nr_reclaimed) FROM reclaim_stall
			WHERE kind = \"memcg\" AND complete;
		SELECT count(*), sum(nr_scanned) FROM mm_vmscan_lru_shrink_inactive;
		SELECT count(*), sum(usec_delayed) FROM reclaim_throttle" >actual &&
	test_cmp expect actual &&
	test "$(head -n 1 expect)" != "0 0"
'

# perf script -F: pid/tid (the tid is the task), the period and the flags
# columns, ip, sym and dso after the body, no comm (NULL), --ns (ns as
# printed): the rows of the default layout.  Without the CPU column a line is refused at its line.
test_expect_success 'perf script -F layouts: the same rows; no CPU column is an error' '
	"$VR" load -q -d def.db --kernel 6.18.44 "$PS/default.txt" &&
	q def.db >expect && test $(wc -l <expect) -gt 30 &&
	for v in pidtid period flags ipsym; do
		"$VR" load -q -d $v.db --kernel 6.18.44 "$PS/$v.txt" &&
		q $v.db >actual && test_cmp expect actual || exit 1
	done &&
	sed "s/^stall|memcg|20536|dd|/stall|memcg|20536||/" expect >expect.nocomm &&
	"$VR" load -q -d nocomm.db --kernel 6.18.44 "$PS/nocomm.txt" &&
	q nocomm.db >actual && test_cmp expect.nocomm actual &&
	"$VR" load -q -d ns.db --kernel 6.18.44 "$PS/ns.txt" &&
	q ns.db >actual && test_cmp expect actual &&
	test "$(sqlite3 ns.db "SELECT min(ts_ns) FROM mm_vmscan_memcg_reclaim_begin")" = 1339785498964 &&
	test_expect_code 1 "$VR" load -q -d new.db "$PS/nocpu.txt" 2>err &&
	grep -q "nocpu.txt:1: perf script line without the CPU column" err && test ! -e new.db
'

# A PERF_RECORD_LOST_SAMPLES (include/uapi/linux/perf_event.h: u64 lost,
# then the sample_id fields TID, TIME, CPU, IDENTIFIER of this recording's
# sample_type) put in front of the data section, the feature table and
# sections after it moved: lost events at its time and CPU, and the memcg
# stall open then (1339.785498964-1339.885885136) is incomplete.
add_lost() {
	python3 - "$1" "$2" <<-EOF
	import struct, sys
	d = bytearray(open(sys.argv[1], "rb").read())
	attr_size, attrs_off = struct.unpack_from("<QQ", d, 16)
	data_off, data_size = struct.unpack_from("<QQ", d, 40)
	ids_off = struct.unpack_from("<Q", d, attrs_off + attr_size - 16)[0]
	ident = struct.unpack_from("<Q", d, ids_off)[0]
	body = struct.pack("<QIIQIIQ", 7, 1, 1, 1339800000000, 1, 0, ident)
	rec = struct.pack("<IHH", 13, 0, 8 + len(body)) + body
	feats = sum(bin(b).count("1") for b in d[72:104])
	table = data_off + data_size
	for i in range(feats):
	    o, s = struct.unpack_from("<QQ", d, table + 16 * i)
	    struct.pack_into("<Q", d, table + 16 * i, o + len(rec))
	struct.pack_into("<Q", d, 48, data_size + len(rec))
	d[data_off:data_off] = rec
	open(sys.argv[2], "wb").write(d)
	EOF
}
test_expect_success 'perf lost-samples records are lost events' '
	xz -dc "$DATA/perf-memcg-6.18.data.xz" >vm.data &&
	add_lost vm.data lost.data &&
	"$VR" load -q -d lost.db lost.data 2>err &&
	grep -q "lost.data: 1 lost-events record(s) of perf, 7 event(s) lost" err &&
	sqlite3 lost.db "SELECT cpu, ts_ns, count FROM lost_events; SELECT lost_events FROM run;
		SELECT begin_ns, complete, incomplete_reason FROM reclaim_stall
			WHERE begin_ns < 1339800000000 OR NOT complete" >actual &&
	printf "%s\n" "1|1339800000000|7" 7 "1339785498964|0|lost_events" >expect &&
	test_cmp expect actual
'

# perf writes its feature sections (the tracing data among them) after the
# samples: a file cut there lost them, and was taken for a profile without
# tracepoints, or, cut in its last section, loaded as if whole
test_expect_success 'a perf.data cut in its feature sections: refused as cut, naming the section' '
	xz -dc "$DATA/perf-memcg-6.18.data.xz" >p.data && size=$(stat -c %s p.data) &&
	head -c $((size * 90 / 100)) p.data >cut90.data &&
	test_expect_code 1 "$VR" load -q -d new.db cut90.data 2>err &&
	grep -q "^vmscan-report: cut90.data: perf.data cut: feature 1.s section (offset [0-9]*, [0-9]* bytes) goes past its end ($((size * 90 / 100)) bytes)$" err &&
	head -c $((size - 1)) p.data >cut1.data &&
	test_expect_code 1 "$VR" load -q -d new.db cut1.data 2>err &&
	grep -q "^vmscan-report: cut1.data: perf.data cut: feature [0-9]*.s section .* goes past its end ($((size - 1)) bytes)$" err &&
	test ! -e new.db && "$VR" load -q -d whole.db p.data
'
test_expect_success 'a perf.data without tracing data (a profile): refused, saying so' '
	test_expect_code 1 "$VR" load -q -d new.db "$DATA/perf-cpu-clock.data" 2>err &&
	grep -q "perf-cpu-clock.data: a perf.data without tracing data (no tracepoint was recorded: a profile such as cycles?)" err &&
	test ! -e new.db
'

# Lines these tools print first (tools/perf/builtin-report.c, builtin-stat.c).
test_expect_success 'perf report and perf stat text: named, not "no trace events"' '
	printf "%s\n" "# To display the perf.data header info, please use --header/--header-only options." \
		"#" "# Total Lost Samples: 0" "#" "# Samples: 145  of event '\''vmscan:mm_vmscan_memcg_reclaim_begin'\''" \
		"# Event count (approx.): 145" "#" "# Overhead  Command  Shared Object      Symbol" \
		"   100.00%  dd       [kernel.kallsyms]  [k] try_to_free_mem_cgroup_pages" >report.txt &&
	test_expect_code 1 "$VR" load -q -d new.db report.txt 2>err &&
	grep -q "^vmscan-report: report.txt: not a trace: perf report output" err &&
	printf "%s\n" "" " Performance counter stats for '\''system wide'\'':" "" \
		"               145      vmscan:mm_vmscan_memcg_reclaim_begin" >stat.txt &&
	test_expect_code 1 "$VR" load -q -d new.db stat.txt 2>err &&
	grep -q "^vmscan-report: stat.txt: not a trace: perf stat output" err &&
	test ! -e new.db
'

test_done
