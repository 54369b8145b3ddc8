#!/usr/bin/env bash
# record: option errors (anyone), and on a machine where we are root with
# tracefs mounted, short real recordings in the recorder's own tracefs
# instance: the file loads, holds the exec events of the command we ran, is
# in the mono clock, and every top-level tracefs setting is as it was after
# an interrupted recording.  Only the instance is written, never the top level.
. "$(dirname "$0")/lib.sh"
T=/sys/kernel/tracing
# tracefs is the machine's: these checks compare its top level and its
# instances before and after, and one of them has the next recorder remove
# an instance left by a killed one.  Two runs of this script at once (make
# test in two checkouts) see each other's instances and take each other's
# leftovers, so the script holds a machine-wide lock while it runs.
exec 8>/tmp/vmscan-report-t1900.lock && flock 8

test_expect_success 'bad --events items are usage errors (2)' '
	for spec in "" "reclaim," "sched:" "sched:a:b" "vm\$scan" "sched:sched-switch"; do
		test_expect_code 2 "$VR" record -o x.dat --events "$spec" -- true 2>err &&
		grep -q "^vmscan-report: --events: " err || exit 1
	done
'
test_expect_success 'bad numbers are usage errors (2)' '
	test_expect_code 2 "$VR" record -o x.dat --buffer-kb 0 -- true 2>err &&
	grep -q "buffer-kb wants" err &&
	test_expect_code 2 "$VR" record -o x.dat --duration -1 2>err &&
	grep -q "duration wants" err &&
	test_expect_code 2 "$VR" record -o x.dat --duration 1x 2>err &&
	test_expect_code 2 "$VR" record -o x.dat --file-version 5 2>err &&
	grep -q "file-version wants 6 or 7" err &&
	test_expect_code 2 "$VR" record -o x.dat --kallsyms no-such-file 2>err &&
	grep -q "kallsyms: no-such-file: No such file" err &&
	test ! -e x.dat
'

can_trace=yes
if [ "$(id -u)" != 0 ]; then
	can_trace="not root"
elif [ ! -e "$T/instances" ] && ! mount -t tracefs nodev "$T" 2>/dev/null; then
	# a fresh boot mounts tracefs on first access from the root mount
	# namespace only; the tests may run in a private one (tests/lib.sh)
	can_trace="tracefs not mounted on $T and mount -t tracefs failed"
fi
if [ "$can_trace" != yes ]; then
	test_skip_script "recording tests: $can_trace"
fi

test_expect_success 'no -o writes trace.dat; the preset is quiet without -v; no events is said' '
	mkdir noo && (cd noo && "$VR" record -e vmscan:mm_vmscan_node_reclaim_begin -D 0.3 2>../err) &&
	test -s noo/trace.dat && grep -q "wrote trace.dat" err &&
	grep -q "warning: trace.dat holds no events" err &&
	(cd noo && "$VR" record -D 0.2 -o full.dat 2>../err) &&
	! grep -q "is not on this kernel" err
'

# the top-level settings the recorder must never change
top_state() {
	for f in tracing_on trace_clock buffer_size_kb set_event current_tracer \
		 events/sched/sched_process_exec/enable events/sched/sched_process_exec/filter \
		 events/vmscan/enable; do
		echo "== $f"; cat "$T/$f"
	done
	ls "$T/instances"
}

# A command started with & by a shell without job control (a script, or
# make test's pool) begins with SIGINT and SIGQUIT ignored, and the recorder
# starts the traced command with the dispositions it was given: the SIGINT
# it passes on would then be ignored and `sleep 30` would run its 30 s.
# The recorder runs here as from a terminal: SIGINT at its default.
vr_bg() { exec env --default-signal=INT,QUIT "$VR" "$@"; }
# run_fg ARGS...: run the recorder, setting $rc and $pid (its instance name)
run_fg() { (vr_bg "$@") & pid=$!; wait $pid; rc=$?; }
no_instance() { test ! -e "$T/instances/vmscan-report-$pid"; }

test_expect_success 'not root: exit 1 and a clear message' '
	test_expect_code 1 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$VR" record -o /tmp/never.dat -- true 2>err &&
	grep -q "record: tracing needs root" err && test ! -e /tmp/never.dat
'
test_expect_success 'a short command: the file loads and holds its exec events' '
	cp /bin/true marker-true &&
	run_fg record -o rec.dat --events reclaim,sched:sched_process_exec \
		-- sh -c "$PWD/marker-true; $PWD/marker-true; $PWD/marker-true; exit 0" \
		>out 2>err; test $rc = 0 &&
	grep -q "^cpu0: [0-9]* events read, 0 lost" err &&
	grep -q "^wrote rec.dat: [0-9]* CPUs, clock mono" err &&
	test ! -s out &&
	no_instance &&
	ls -d rec.dat* >files && printf "rec.dat\nrec.dat.snap\n" >expect && test_cmp expect files &&
	trace-cmd report -i rec.dat >report 2>/dev/null &&
	test $(grep -c "sched_process_exec: *filename=$PWD/marker-true " report) = 3 &&
	"$VR" load -q -d db --empty-run rec.dat &&
	test "$(sqlite3 db "SELECT clock FROM run")" = mono &&
	test $(sqlite3 db "SELECT count(*) FROM other_event WHERE name = '\''sched_process_exec'\''
			   AND json_extract(fields, '\''\$.filename'\'') = '\''$PWD/marker-true'\''") = 3
'
# the workload's stdout is the latency report import-latency reads
test_expect_success 'stdout is the command'\''s alone, the statistics go to stderr' '
	run_fg record -o hi.dat --events sched:sched_process_exec -- sh -c "echo hi" >f 2>err &&
	test $rc = 0 && echo hi >expect && test_cmp expect f &&
	grep -q "^wrote hi.dat: " err
'
test_expect_success 'per event name, the database counts what trace-cmd report shows' '
	cp /bin/true marker-true &&
	"$VR" record -q -o rec.dat --events reclaim,sched:sched_process_exec \
		-- sh -c "$PWD/marker-true; $PWD/marker-true" &&
	trace-cmd report -i rec.dat 2>/dev/null |
		sed -n "s/^.*\] *[0-9.]*: *\([a-z_0-9]*\): .*/\1/p" | sort | uniq -c |
		awk "{ print \$2, \$1 }" >expect &&
	grep -q "^sched_process_exec " expect &&
	"$VR" load -q -d db --empty-run rec.dat &&
	sqlite3 -separator " " db "SELECT name, count FROM run_event_count WHERE count > 0 ORDER BY name" >actual &&
	test_cmp expect actual
'
test_expect_success 'version 6, uncompressed, with our kallsyms, also loads' '
	grep -m 2 " [tT] " /proc/kallsyms >ks &&
	# detect_leaks=0: tracecmd_output_free() of libtracecmd 3.1.6 does not
	# free the kallsyms path it strdup()ed (only matters under make asan)
	ASAN_OPTIONS=detect_leaks=0 "$VR" record -q -o v6.dat --file-version 6 --kallsyms ks \
		--events sched:sched_process_exec -- true &&
	trace-cmd dump --summary -i v6.dat >dump 2>&1 &&
	grep -q "^[[:space:]]*6[[:space:]]*\[Version\]" dump &&
	grep -q "\[Kallsyms, $(wc -c <ks) bytes\]" dump &&
	"$VR" load -q -d db --empty-run v6.dat && test "$(sqlite3 db "SELECT clock FROM run")" = mono
'
test_expect_success 'saved_cmdlines changing while the file is written: version 6 still loads' '
	# the bug: libtracecmd wrote the size of one read of saved_cmdlines and
	# the bytes of a second; 12 of 150 version 6 recordings on a busy
	# machine could not be read back (flyrecord ... not as expected)
	cc -shared -fPIC -o cmdlines.so "$TOP/tests/cmdlines-preload.c" -ldl &&
	LD_PRELOAD=$PWD/cmdlines.so ASAN_OPTIONS=detect_leaks=0 "$VR" record -q -o v6.dat \
		--file-version 6 --events sched:sched_process_exec -- true &&
	trace-cmd report -i v6.dat >report 2>&1 &&
	"$VR" load -q -d db --empty-run v6.dat &&
	LD_PRELOAD=$PWD/cmdlines.so "$VR" record -q -o v7.dat \
		--events sched:sched_process_exec -- true &&
	"$VR" load -q -d db --empty-run v7.dat &&
	test "$(sqlite3 db "SELECT count(*) FROM run")" = 2
'
# start_bg ARGS...: run the recorder in the background as $pid (exec, so the
# pid is the recorder's own and names its instance) and wait until its
# instance traces; on failure stop it.
start_bg() {
	(vr_bg "$@") >out 2>err &
	pid=$!
	for i in $(seq 100); do
		test "$(cat $T/instances/vmscan-report-$pid/tracing_on 2>/dev/null)" = 1 && return 0
		sleep 0.1
	done
	stop_bg; return 1
}
stop_bg() { kill -INT $pid 2>/dev/null; wait $pid; }

# sigint_run: a recording without a command, stopped by SIGINT, checking the
# instance was configured and that the top-level settings are the same
# before and after.  Other tracing users of this machine may change the top
# level meanwhile (the sample recorder does), so the caller tries 3 times: a
# recorder that changed them would fail every time.
sigint_run() {
	top_state >before &&
	start_bg record -o int.dat --events reclaim,sched:sched_process_exec --buffer-kb 1024 \
		--clock global &&
	i=$T/instances/vmscan-report-$pid &&
	{ grep -q "\[global\]" $i/trace_clock &&
	  awk "{ exit !(\$1 >= 1024 && \$1 < 1100) }" $i/buffer_size_kb &&
	  test "$(cat $i/events/sched/sched_process_exec/enable)" = 1 || { stop_bg; false; }; } &&
	/bin/true && stop_bg &&
	top_state >after && test ! -e $i && test_cmp before after
}
test_expect_success 'Ctrl-C (SIGINT) stops it, the file loads, top-level tracefs unchanged' '
	{ sigint_run || sigint_run || sigint_run; } &&
	grep -q "recording stopped by a signal" err &&
	"$VR" load -q -d db --empty-run int.dat && test "$(sqlite3 db "SELECT clock FROM run")" = global &&
	test $(sqlite3 db "SELECT count(*) FROM other_event WHERE name = '\''sched_process_exec'\''
			   AND json_extract(fields, '\''$.filename'\'') = '\''/bin/true'\''") -ge 1
'
test_expect_success 'SIGINT with a command: passed on to it, exit 1, instance removed' '
	start_bg record -q -o cmd.dat --events sched:sched_process_exec -- sleep 30 &&
	{ stop_bg; rc=$?; } ; test $rc = 1 &&
	grep -q "'\''sleep'\'' was killed by signal 2" err &&
	test ! -e "$T/instances/vmscan-report-$pid" && test -s cmd.dat
'
test_expect_success 'tracefs writes (open for writing, mkdir, rmdir) stay in its instance' '
	# LeakSanitizer cannot run under ptrace (make asan)
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=openat,open,mkdir,mkdirat,rmdir,unlinkat \
		-o trace.log "$VR" record -q -o st.dat --events full -- /bin/true &&
	# strace -f starts each line with the pid, padded to 5 columns
	pid=$(awk "NR == 1 { print \$1 }" trace.log) &&
	test -n "$pid" &&
	inst="$T/instances/vmscan-report-$pid" &&
	# every tracefs mount (the automount under debugfs shows the same files)
	mounts=$(awk "\$3 == \"tracefs\" { print \$2 }" /proc/mounts | paste -sd "|") &&
	# all but the removal of instances left by killed recorders (which a
	# concurrent test run may have made)
	grep -E "\"($mounts)/" trace.log | grep -E "O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|mkdir|rmdir|unlink" |
		grep -v "\"$inst[/\"]" |
		grep -Ev "^[0-9]+ +rmdir\(\"$T/instances/vmscan-report-[0-9]+\"" >outside || true &&
	test_cmp /dev/null outside &&
	# with -f a syscall can be split into "<unfinished ...>" and "resumed" lines
	grep -Eq "^$pid +mkdir\(\"$inst\"" trace.log &&
	grep -Eq "^[0-9]+ +rmdir\(\"$inst\"" trace.log &&
	test ! -e "$inst" &&
	grep -q "\"$inst/trace_clock\", O_WRONLY" trace.log || {
		grep -E "mkdir|rmdir|trace_clock" trace.log; false; }
'
test_expect_success 'an instance left by a killed recorder is removed by the next one' '
	start_bg record -q -o killed.dat --events sched:sched_process_exec &&
	kill -KILL $pid && wait $pid; dead=$pid &&
	test -d "$T/instances/vmscan-report-$dead" &&
	run_fg record -q -o next.dat --events sched:sched_process_exec -- true 2>err; test $rc = 0 &&
	test ! -e "$T/instances/vmscan-report-$dead" &&
	grep -q "removed tracefs instance '\''vmscan-report-$dead'\'' left by a recorder" err
'
test_expect_success 'the command inherits no trace_pipe_raw or data file descriptors' '
	"$VR" record -q -o fd.dat --events sched:sched_process_exec -- ls -l /proc/self/fd >fds &&
	grep -q " -> " fds && ! grep -E "tracing|fd\.dat" fds
'
test_expect_success '--duration without a command: stops by itself, exit 0' '
	run_fg record -q -o dur.dat --events sched:sched_process_exec --duration 0.3; test $rc = 0 &&
	no_instance && "$VR" load -q -d db --empty-run dur.dat
'
test_expect_success '--duration with a command: SIGINT to it when the time is up' '
	run_fg record -q -o durc.dat --events sched:sched_process_exec --duration 0.3 \
		-- sleep 30 2>err; test $rc = 1 &&
	grep -q "'\''sleep'\'' was killed by signal 2" err && no_instance && test -s durc.dat
'
# A command that ignores SIGINT (here: it is ignored before the exec, as a
# command started with & from a script inherits it) is not waited for
# forever: 2 s after the SIGINT of --duration it gets SIGTERM, said on
# stderr.  Before, the recording ran until the command ended by itself.
test_expect_success '--duration with a command that ignores SIGINT: SIGTERM 2 s later, said' '
	run_fg record -q -o durt.dat --events sched:sched_process_exec --duration 0.3 \
		-- env --ignore-signal=INT sleep 30 2>err; test $rc = 1 &&
	grep -q "still runs 2 s after --duration ended; sending it SIGTERM" err &&
	grep -q "was killed by signal 15" err && no_instance && test -s durt.dat &&
	"$VR" load -q -d db --empty-run durt.dat
'
test_expect_success 'errors after the instance exists remove it: bad clock' '
	run_fg record -o clk.dat --clock nosuchclock -- true 2>err; test $rc = 1 &&
	grep -q "trace clock '\''nosuchclock'\'' is not available" err && no_instance && test ! -e clk.dat && test ! -e clk.dat.cpu0
'
test_expect_success 'an event this kernel lacks: exit 1, named' '
	test_expect_code 1 "$VR" record -o ev.dat --events sched:no_such_event -- true 2>err &&
	grep -q "event sched:no_such_event is not on this kernel" err && test ! -e ev.dat
'
test_expect_success 'the command not found: exit 1, instance removed' '
	run_fg record -o nf.dat --events sched:sched_process_exec -- /no/such/command 2>err;
	test $rc = 1 && grep -q "cannot run '\''/no/such/command'\''" err && no_instance &&
	test ! -e nf.dat && test ! -e nf.dat.cpu0
'
test_expect_success 'a failed recording keeps a file that was already at the output path' '
	echo keep >keep.dat &&
	test_expect_code 1 "$VR" record -q -o keep.dat --events sched:sched_process_exec \
		--compression no-such-algorithm --duration 0.2 2>err &&
	grep -q "compression '\''no-such-algorithm'\'' is not supported" err &&
	echo keep >expect && test_cmp expect keep.dat && ! ls keep.dat.* 2>/dev/null
'
test_expect_success 'a device as output is refused before tracing and left alone' '
	test_expect_code 1 "$VR" record -q -o /dev/null --events sched:sched_process_exec \
		--duration 0.2 2>err &&
	grep -q "record: /dev/null: not a regular file" err && test -c /dev/null
'
test_expect_success 'a symbolic link as output is refused before tracing, not replaced' '
	echo precious >target.dat && ln -s target.dat link.dat &&
	test_expect_code 1 "$VR" record -q -o link.dat --events sched:sched_process_exec \
		--duration 0.2 2>err &&
	grep -q "record: link.dat: is a symbolic link: not followed, not replaced" err &&
	test -L link.dat && echo precious >expect && test_cmp expect target.dat
'
test_expect_success 'an output in a missing directory: the message names the output' '
	test_expect_code 1 "$VR" record -q -o no/such/dir/x.dat --events sched:sched_process_exec \
		--duration 0.2 2>err &&
	grep -q "record: no/such/dir/x.dat: cannot create the output: No such file or directory" err
'
test_expect_success 'a successful recording replaces an older file at the output path' '
	echo old >re.dat &&
	"$VR" record -q -o re.dat --events sched:sched_process_exec -- true &&
	trace-cmd report -i re.dat >report 2>&1 && grep -q sched_process_exec report &&
	test "$(ls -d re.dat.*)" = re.dat.snap
'
# The snapshots (src/record/record-snap.c): the files at both moments, each moment
# a print event of the trace, between the command's exec and the end.
test_expect_success 'counter snapshots beside the trace, their markers in it; load stores them' '
	cp /bin/true snap-true &&
	"$VR" record -q -o s.dat --events sched:sched_process_exec -- "$PWD/snap-true" &&
	for m in start end; do
		for f in vmstat zoneinfo; do cmp -s /dev/null s.dat.snap/$m-$f && exit 1; done
		grep -q "^pgscan_kswapd [0-9]*$" s.dat.snap/$m-vmstat || exit 1
	done &&
	there() { test -e "$1" && echo yes; } &&
	test "$(there /proc/pressure/memory)" = "$(there s.dat.snap/start-pressure-memory)" &&
	test "$(there /sys/kernel/mm/lru_gen/enabled)" = "$(there s.dat.snap/end-lru_gen-enabled)" &&
	ls /sys/devices/system/node | grep -E "^node[0-9]+$" | sed "s/\$/-vmstat/" | sort >nodes &&
	test -s nodes &&
	for m in start end; do
		(cd s.dat.snap && ls | sed -n "s/^$m-\(node[0-9]*-vmstat\)\$/\1/p" | sort) >got &&
		test_cmp nodes got &&
		while read -r n; do
			cut -d" " -f1 /sys/devices/system/node/${n%-vmstat}/vmstat >names &&
			cut -d" " -f1 s.dat.snap/$m-$n | test_cmp names - || exit 1
		done <nodes || exit 1
	done &&
	! test -e s.dat.snap/start-memory.stat &&
	trace-cmd report -i s.dat 2>/dev/null | grep -E "snapshot (start|end)|filename=$PWD/snap-true " |
		sed -e "s/.*snapshot /snapshot /" -e "s/.*sched_process_exec.*/exec/" >actual &&
	printf "%s\n" "snapshot start" exec "snapshot end" >expect && test_cmp expect actual &&
	"$VR" load -q -d db --empty-run s.dat &&
	sqlite3 db "SELECT moment, count(*), count(ts_ns) FROM run_snapshot GROUP BY 1 ORDER BY 1" >actual &&
	n=$(ls s.dat.snap | grep -c ^end-) &&
	printf "end|%s|%s\nstart|%s|%s\n" $n $n $n $n >expect && test_cmp expect actual &&
	sqlite3 db "SELECT json_extract(fields, '\''$.buf'\'') FROM other_event WHERE name = '\''print'\'' ORDER BY ts_ns" >actual &&
	printf "vmscan-report: snapshot %s\n\n" start end >expect && test_cmp expect actual
'
test_expect_success '--cgroup: its memory.stat is saved too; a missing one is a usage error' '
	cg=$(ls -d /sys/fs/cgroup/memory /sys/fs/cgroup/unified /sys/fs/cgroup 2>/dev/null |
	     while read -r d; do test -r $d/memory.stat && echo $d && break; done) &&
	if test -n "$cg"; then
		"$VR" record -q -o c.dat --cgroup "$cg" --events sched:sched_process_exec -- true &&
		grep -q . c.dat.snap/start-memory.stat && grep -q . c.dat.snap/end-memory.stat
	fi &&
	test_expect_code 2 "$VR" record -q -o d.dat --cgroup /no/such/cg -- true 2>err &&
	grep -q "record: --cgroup: /no/such/cg/memory.stat: No such file" err && ! test -e d.dat.snap
'
test_done
