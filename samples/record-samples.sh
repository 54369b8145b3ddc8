#!/bin/bash
# record-samples.sh - record the vmscan sample traces in samples/ with
# "vmscan-report record".
#
# The simoop-lite workload runs under memory pressure (an anonymous hog leaves
# only a few GiB for the page cache) while "vmscan-report record" traces it in
# a tracefs instance of its own (mono clock, per-CPU buffers drained while
# recording) and writes the trace.dat.  The top-level tracefs settings are not
# touched.  vm.watermark_scale_factor, the one sysctl changed here, is restored
# on exit, on Ctrl-C and on SIGTERM, and the hog and workload are stopped.
#
# Run as root from anywhere:   make record-samples   (or VR=./vmscan-report samples/record-samples.sh)
# Settings can be overridden from the environment, e.g.
#   WSF_LIST="10 200" ITERATIONS=3 RUNTIME=10 samples/record-samples.sh
#   OUT_DIR=/var/tmp/samples-new samples/record-samples.sh   # staging directory
#
# Outputs per run NAME (wsf<factor>-<iteration>):
#   NAME.dat            the trace (file version 7 + zstd; runs listed in V6_RUNS:
#                       version 6, uncompressed, trimmed kallsyms)
#   NAME.latency.txt    simoop-lite's latency report
#   NAME.vmstat-before  /proc/vmstat just before the workload's start signal
#   NAME.vmstat-after   /proc/vmstat just after the workload exited
#                       (both taken while tracing is on)
# and record-samples.log with the settings, the recorder's per-CPU statistics
# (events read and lost) and event counts of every run.
#
# This script is also sourced by tests/bench/make-big-trace.sh, which uses its
# functions (set RS_LIBRARY_ONLY=1 before sourcing); it still records the old
# way (setup_tracefs, enable_events, buffer_stats, extract_v7 below: events
# enabled at the top level of tracefs, "trace-cmd extract").

set -u

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
WORKLOAD_DIR=$SCRIPT_DIR/workload
WORKLOAD=$WORKLOAD_DIR/simoop-lite

VR=${VR:-$SCRIPT_DIR/../vmscan-report}     # the vmscan-report that records
RECORD_EVENTS=${RECORD_EVENTS:-full}      # vmscan-report record --events
OUT_DIR=${OUT_DIR:-$SCRIPT_DIR}
DATA_DIR=${DATA_DIR:-/var/tmp/simoop-lite-data}
WSF_LIST=${WSF_LIST:-"10 200"}
ITERATIONS=${ITERATIONS:-3}
RUNTIME=${RUNTIME:-10}              # seconds of workload per recording
INTERVAL=${INTERVAL:-2}             # latency report interval
BUFFER_KB=${BUFFER_KB:-16384}       # ring buffer per CPU (record --buffer-kb; drained while recording)
LEAVE_MB=${LEAVE_MB:-4608}          # MemAvailable the hog leaves to the workload
FLOOR_MB=${FLOOR_MB:-2560}          # never let MemAvailable drop below this
NO_HOG=${NO_HOG:-0}                 # 1: do not start a hog (one is already running)
READERS=${READERS:-2}
WRITERS=${WRITERS:-1}
ALLOCATORS=${ALLOCATORS:-1}
ALLOC_MB=${ALLOC_MB:-512}           # anonymous memory per allocator burst
ALLOC_CHUNK_KB=${ALLOC_CHUNK_KB:-2048} # one timed allocation
ALLOC_PAUSE_MS=${ALLOC_PAUSE_MS:-500}  # pause after freeing a burst
READ_RATE=${READ_RATE:-120}         # MiB/s per reader thread (0 = unlimited)
WRITE_RATE=${WRITE_RATE:-0}         # MiB/s per writer thread (0 = unlimited)
FILE_MB=${FILE_MB:-}                # default: LEAVE_MB/2 (files total 1.5x LEAVE_MB)
EXTRA_WORKLOAD_ARGS=${EXTRA_WORKLOAD_ARGS:-}
V6_RUNS=${V6_RUNS:-"wsf200-1"}      # runs written as file version 6, uncompressed
MAX_FILE_BYTES=${MAX_FILE_BYTES:-5000000} # a v6 file this big is converted to v7
CMDLINES_SIZE=${CMDLINES_SIZE:-8192}
LOG=${LOG:-$OUT_DIR/record-samples.log}

T=${TRACEFS:-/sys/kernel/tracing}

# ------------------------------------------------------------------ helpers

log() {
	echo "record-samples: $*" >&2
	if [ -n "${LOG:-}" ]; then echo "$*" >>"$LOG"; fi
}

fail() {
	echo "record-samples: error: $*" >&2
	exit 1
}

mem_available_mb() {
	awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo
}

# "7 (expanded: 1408)" -> 1408, "1408" -> 1408
buffer_kb_value() {
	local v
	v=$(cat "$T/buffer_size_kb")
	case $v in
	*expanded:*) v=${v##*expanded: }; v=${v%)} ;;
	esac
	echo "$v"
}

current_clock() {
	sed -n 's/.*\[\(.*\)\].*/\1/p' "$T/trace_clock"
}

# write VALUE to tracefs FILE, failing loudly
tset() {
	local file=$1 value=$2
	if ! echo "$value" >"$T/$file" 2>/dev/null; then
		fail "cannot write '$value' to $T/$file"
	fi
}

# ------------------------------------------------------------------ state save/restore

RS_MOUNTED_TRACEFS=0
RS_SAVED=0
RS_SAVED_WSF=0
RS_HOG_PID=
RS_WORKLOAD_PID=
RS_WORK=

save_state() {
	SAVED_TRACING_ON=$(cat "$T/tracing_on")
	SAVED_CLOCK=$(current_clock)
	SAVED_BUFFER_KB=$(buffer_kb_value)
	SAVED_CMDLINES=$(cat "$T/saved_cmdlines_size")
	SAVED_SET_EVENT=$(cat "$T/set_event")
	SAVED_SWITCH_FILTER=$(cat "$T/events/sched/sched_switch/filter")
	SAVED_WAKEUP_FILTER=$(cat "$T/events/sched/sched_wakeup/filter")
	RS_SAVED=1
	save_sysctl
}

save_sysctl() {
	SAVED_WSF=$(cat /proc/sys/vm/watermark_scale_factor)
	RS_SAVED_WSF=1
}

restore_filter() {
	local file=$1 saved=$2
	if [ "$saved" = "none" ] || [ -z "$saved" ]; then
		echo 0 >"$T/$file" 2>/dev/null
	else
		echo "$saved" >"$T/$file" 2>/dev/null
	fi
}

restore_state() {
	local rc=$?
	trap - EXIT INT TERM HUP
	if [ -n "$RS_WORKLOAD_PID" ] && kill -0 "$RS_WORKLOAD_PID" 2>/dev/null; then
		kill -TERM "$RS_WORKLOAD_PID" 2>/dev/null
		wait "$RS_WORKLOAD_PID" 2>/dev/null
	fi
	if [ -n "$RS_HOG_PID" ] && kill -0 "$RS_HOG_PID" 2>/dev/null; then
		kill -TERM "$RS_HOG_PID" 2>/dev/null
		wait "$RS_HOG_PID" 2>/dev/null
	fi
	if [ "$RS_SAVED" = 1 ]; then
		echo 0 >"$T/tracing_on"
		# events: back to exactly the saved set
		echo >"$T/set_event"
		if [ -n "$SAVED_SET_EVENT" ]; then
			while read -r ev; do
				echo "$ev" >>"$T/set_event"
			done <<<"$SAVED_SET_EVENT"
		fi
		restore_filter events/sched/sched_switch/filter "$SAVED_SWITCH_FILTER"
		restore_filter events/sched/sched_wakeup/filter "$SAVED_WAKEUP_FILTER"
		echo >"$T/trace"
		echo "$SAVED_CLOCK" >"$T/trace_clock"
		echo "$SAVED_BUFFER_KB" >"$T/buffer_size_kb"
		echo "$SAVED_CMDLINES" >"$T/saved_cmdlines_size"
		echo "$SAVED_TRACING_ON" >"$T/tracing_on"
		echo "record-samples: restored tracefs settings" >&2
	fi
	if [ "$RS_SAVED_WSF" = 1 ]; then
		echo "$SAVED_WSF" >/proc/sys/vm/watermark_scale_factor
		echo "record-samples: restored vm.watermark_scale_factor=$SAVED_WSF" >&2
	fi
	rm -rf "$DATA_DIR"/simoop-lite.* 2>/dev/null
	[ -n "$RS_WORK" ] && rm -rf "$RS_WORK"
	if [ "$RS_MOUNTED_TRACEFS" = 1 ]; then
		umount "$T" 2>/dev/null
	fi
	exit "$rc"
}

on_signal() {
	echo "record-samples: interrupted, restoring settings" >&2
	exit 130
}

# setup_common SAVE: root, tracefs mounted, a work directory, the exit and
# signal traps, then SAVE (the function that saves what will be changed).
setup_common() {
	[ "$(id -u)" = 0 ] || fail "must run as root"
	if [ ! -e "$T/trace" ]; then
		mount -t tracefs nodev "$T" || fail "cannot mount tracefs on $T"
		RS_MOUNTED_TRACEFS=1
	fi
	RS_WORK=$(mktemp -d /tmp/record-samples.XXXXXX)
	trap restore_state EXIT
	trap on_signal INT TERM HUP
	"$1"
}

setup_tracefs() {
	command -v trace-cmd >/dev/null || fail "trace-cmd is not installed"
	setup_common save_state
}

# setup_record: what the vmscan-report recording needs.  Only the sysctl is
# saved: "vmscan-report record" traces in an instance of its own and removes
# it, so the top-level tracefs settings stay as they are.  trace-cmd is still
# needed to count the events of each file.
setup_record() {
	[ -x "$VR" ] || fail "no vmscan-report at $VR (make, or set VR=)"
	command -v trace-cmd >/dev/null || fail "trace-cmd is not installed (needed to count events)"
	setup_common save_sysctl
}

# Enable the events. The filter files are read back to check the kernel
# accepted the filters.
enable_events() {
	tset tracing_on 0
	tset trace_clock mono
	[ "$(current_clock)" = mono ] || fail "trace_clock mono not accepted"
	tset buffer_size_kb "$BUFFER_KB"
	tset saved_cmdlines_size "$CMDLINES_SIZE"
	echo >"$T/set_event"
	tset events/vmscan/enable 1
	local ev
	for ev in writeback/writeback_congestion_wait writeback/writeback_wait_iff_congested \
		  compaction/mm_compaction_begin compaction/mm_compaction_end; do
		if [ -d "$T/events/$ev" ]; then
			tset "events/$ev/enable" 1
		elif [ "${RS_SKIP_LOGGED:-0}" = 0 ]; then
			log "event ${ev/\//:} not present on this kernel, skipped"
		fi
	done
	tset events/sched/sched_switch/filter 'prev_comm ~ "kswapd*" || next_comm ~ "kswapd*"'
	tset events/sched/sched_wakeup/filter 'comm ~ "kswapd*"'
	grep -q kswapd "$T/events/sched/sched_switch/filter" || fail "sched_switch filter not accepted"
	grep -q kswapd "$T/events/sched/sched_wakeup/filter" || fail "sched_wakeup filter not accepted"
	tset events/sched/sched_switch/enable 1
	tset events/sched/sched_wakeup/enable 1
	tset trace ""
	RS_SKIP_LOGGED=1
}

# ------------------------------------------------------------------ hog and workload

build_workload() {
	make -s -C "$WORKLOAD_DIR" >&2 || fail "cannot build $WORKLOAD"
}

# start_hog: fill memory with anonymous memory until LEAVE_MB are left
# (never below FLOOR_MB; the hog gives memory back if MemAvailable drops
# below FLOOR_MB while it runs).  Waits until the hog is resident.
start_hog() {
	local avail hog_mb
	if [ "$NO_HOG" = 1 ]; then
		log "NO_HOG=1: not starting a hog, MemAvailable $(mem_available_mb) MB"
		return 0
	fi
	avail=$(mem_available_mb)
	hog_mb=$((avail - LEAVE_MB))
	if [ "$hog_mb" -lt 256 ]; then
		log "MemAvailable ${avail} MB: no room for a hog, running without one"
		return 0
	fi
	log "starting hog: MemAvailable ${avail} MB, hog about ${hog_mb} MB, leave ${LEAVE_MB} MB, floor ${FLOOR_MB} MB"
	: >"$RS_WORK/hog.log"
	# -H is only a cap: the hog grows until MemAvailable is down to LEAVE_MB
	"$WORKLOAD" --hog-only -H "$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)" \
		-L "$LEAVE_MB" -F "$FLOOR_MB" -r 0 2>"$RS_WORK/hog.log" &
	RS_HOG_PID=$!
	while ! grep -q "hog ready" "$RS_WORK/hog.log"; do
		kill -0 "$RS_HOG_PID" 2>/dev/null || fail "hog exited: $(cat "$RS_WORK/hog.log")"
		sleep 1
	done
	log "$(grep "hog ready" "$RS_WORK/hog.log")"
}

# retarget_hog: before each run, grow or shrink the hog so that MemAvailable
# is back at LEAVE_MB (other users' memory use changes between runs).  This
# is done at the machine's own vm.watermark_scale_factor: a larger factor
# raises the watermarks and so lowers MemAvailable (by 1.2 GB for 200 on the
# sample machine) without changing the memory the workload really has.
retarget_hog() {
	[ -n "$RS_HOG_PID" ] || return 0
	local n wsf
	wsf=$(cat /proc/sys/vm/watermark_scale_factor)
	echo "$SAVED_WSF" >/proc/sys/vm/watermark_scale_factor
	n=$(grep -c "hog ready" "$RS_WORK/hog.log")
	kill -USR1 "$RS_HOG_PID"
	while [ "$(grep -c "hog ready" "$RS_WORK/hog.log")" -le "$n" ]; do
		kill -0 "$RS_HOG_PID" 2>/dev/null || fail "hog exited: $(cat "$RS_WORK/hog.log")"
		sleep 0.5
	done
	log "$(grep "hog ready" "$RS_WORK/hog.log" | tail -1) (at vm.watermark_scale_factor=$SAVED_WSF)"
	echo "$wsf" >/proc/sys/vm/watermark_scale_factor
}

stop_hog() {
	if [ -n "$RS_HOG_PID" ]; then
		kill -TERM "$RS_HOG_PID" 2>/dev/null
		wait "$RS_HOG_PID" 2>/dev/null
		cat "$RS_WORK/hog.log" >&2
		sed 's/^/    hog: /' "$RS_WORK/hog.log" >>"$LOG"
		RS_HOG_PID=
	fi
}

# Sum "overrun" and "dropped events" over the per-CPU ring buffers.
buffer_stats() {
	local f entries=0 overrun=0 commit=0 dropped=0 bytes=0 v
	for f in "$T"/per_cpu/cpu*/stats; do
		v=$(awk '/^entries:/ { print $2 }' "$f"); entries=$((entries + v))
		v=$(awk '/^overrun:/ { print $2 }' "$f"); overrun=$((overrun + v))
		v=$(awk '/^commit overrun:/ { print $3 }' "$f"); commit=$((commit + v))
		v=$(awk '/^dropped events:/ { print $3 }' "$f"); dropped=$((dropped + v))
		v=$(awk '/^bytes:/ { print $2 }' "$f"); bytes=$((bytes + v))
	done
	echo "entries=$entries bytes=$bytes overrun=$overrun commit_overrun=$commit dropped=$dropped"
}

# Extract the ring buffer to a version 7, zstd compressed trace.dat.
extract_v7() {
	local out=$1
	(cd "$RS_WORK" && trace-cmd extract --compression zstd -o "$out") >"$RS_WORK/extract.log" 2>&1 ||
		fail "trace-cmd extract failed: $(cat "$RS_WORK/extract.log")"
}

# trim_kallsyms: write $RS_WORK/kallsyms, the symbol table saved in the
# version 6 file ("vmscan-report record --kallsyms").  With all of
# /proc/kallsyms (5.4 MB on the sample kernel) a version 6 uncompressed file
# is over 5 MB before its first event, so the copy holds only function (text)
# symbols, without the symbols no vmscan field can point to: __pfx_* padding,
# compiler clones (.cold, .part.N, .isra.N, .constprop.N) and the tracepoint
# boilerplate (trace_event_raw_event_*, perf_trace_*, __bpf_trace_*, ...);
# the shrinker callbacks printed by mm_shrink_slab_* all stay.
trim_kallsyms() {
	awk '$2 ~ /^[tTwW]$/ && $3 !~ /\.(cold|part\.[0-9]+|isra\.[0-9]+|constprop\.[0-9]+)/ &&
	     $3 !~ /^(__pfx_|__SCT__|__bpf_trace_|__probestub_|__traceiter_|trace_event_raw_event_|perf_trace_|trace_raw_output_)/' \
		/proc/kallsyms >"$RS_WORK/kallsyms"
	[ -s "$RS_WORK/kallsyms" ] || fail "cannot read /proc/kallsyms"
}

# Count events by name in a trace file (trace-cmd report's 4th column is
# "name:" after "comm-pid [cpu] ts:").
count_events() {
	trace-cmd report "$1" 2>/dev/null |
		awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[a-z_0-9]+:$/ && $(i-1) ~ /:$/ && $(i-1) ~ /^[0-9.]+:$/) { sub(/:$/, "", $i); n[$i]++; t++; break } }
		     END { for (e in n) printf "%s %d\n", e, n[e]; printf "TOTAL %d\n", t }' |
		sort
}

# "cpuN: R events read, L lost (...)" lines of vmscan-report record -> sum of L
recorder_lost() {
	awk '/^cpu[0-9]+: / { for (i = 2; i <= NF; i++) if ($i == "lost") n += $(i - 1) } END { print n + 0 }' "$1"
}

# record_run NAME FORMAT(v6|v7) [extra workload args]: one recording.  The
# workload creates its files first (not traced) and waits for SIGUSR1;
# "vmscan-report record" starts tracing, then runs a small command that sends
# SIGUSR1 and waits for the workload to exit, so the trace holds the run only.
record_run() {
	local name=$1 format=$2 file_mb
	shift 2
	file_mb=${FILE_MB:-$((LEAVE_MB / 2))}
	local dat=$OUT_DIR/$name.dat tmp=$RS_WORK/$name.dat
	local wlog=$RS_WORK/$name.workload.log rlog=$RS_WORK/$name.record.log

	rm -f "$DATA_DIR"/simoop-lite.*
	mkdir -p "$DATA_DIR"
	retarget_hog

	# create the data files before tracing starts; the run starts on SIGUSR1
	log "$name: workload: simoop-lite --wait-start -d $DATA_DIR -r $RUNTIME -i $INTERVAL -R $READERS -W $WRITERS -A $ALLOCATORS -f $file_mb -a $ALLOC_MB -c $ALLOC_CHUNK_KB -p $ALLOC_PAUSE_MS -t $READ_RATE -T $WRITE_RATE $EXTRA_WORKLOAD_ARGS $*"
	"$WORKLOAD" --wait-start -d "$DATA_DIR" -r "$RUNTIME" -i "$INTERVAL" \
		-R "$READERS" -W "$WRITERS" -A "$ALLOCATORS" -f "$file_mb" \
		-a "$ALLOC_MB" -c "$ALLOC_CHUNK_KB" -p "$ALLOC_PAUSE_MS" -t "$READ_RATE" -T "$WRITE_RATE" \
		$EXTRA_WORKLOAD_ARGS "$@" \
		>"$OUT_DIR/$name.latency.txt" 2>"$wlog" &
	RS_WORKLOAD_PID=$!
	while ! grep -q "setup complete" "$wlog"; do
		kill -0 "$RS_WORKLOAD_PID" 2>/dev/null ||
			fail "workload exited during setup: $(cat "$wlog")"
		sleep 0.2
	done
	sync
	sleep 1

	local fmt=(--file-version 7 --compression zstd)
	[ "$format" = v6 ] && fmt=(--file-version 6 --compression none --kallsyms "$RS_WORK/kallsyms")
	# --duration is only a safety limit: the workload stops after RUNTIME
	local rec=(record -o "$tmp" --events "$RECORD_EVENTS" --buffer-kb "$BUFFER_KB"
		"${fmt[@]}" --duration $((RUNTIME + 120)))
	# The /proc/vmstat snapshots are taken by the command, while tracing is
	# on, right before the start signal and right after the workload exited:
	# taken outside "record", they would also count the reclaim that the
	# recorder's own ring-buffer allocation causes before tracing starts.
	local kick='cat /proc/vmstat >"$2" && kill -USR1 "$1" && while kill -0 "$1" 2>/dev/null; do sleep 0.05; done; cat /proc/vmstat >"$3"'
	log "$name: vmscan-report ${rec[*]/#$RS_WORK\//} -- sh -c '$kick' sh WORKLOAD_PID $name.vmstat-before $name.vmstat-after"
	"$VR" "${rec[@]}" -- sh -c "$kick" sh "$RS_WORKLOAD_PID" \
		"$OUT_DIR/$name.vmstat-before" "$OUT_DIR/$name.vmstat-after" >"$rlog" 2>&1
	local rrc=$?
	# a failed recorder may not have started the workload: restore_state stops it
	[ "$rrc" = 0 ] || fail "$name: vmscan-report record failed (exit $rrc): $(cat "$rlog")"
	wait "$RS_WORKLOAD_PID"
	local wrc=$?
	RS_WORKLOAD_PID=
	[ "$wrc" = 0 ] || fail "workload failed (exit $wrc): $(cat "$wlog")"

	local size lost
	size=$(stat -c %s "$tmp")
	if [ "$format" = v6 ] && [ "$size" -ge "$MAX_FILE_BYTES" ]; then
		log "$name: the version 6 file has $size bytes (>= $MAX_FILE_BYTES): converted to version 7 + zstd, the next run becomes v6"
		trace-cmd convert --file-version 7 --compression zstd -i "$tmp" -o "$tmp.v7" >>"$rlog" 2>&1 ||
			fail "trace-cmd convert failed: $(cat "$rlog")"
		mv "$tmp.v7" "$tmp"
		format=v7-converted
		RS_V6_PENDING=1
		size=$(stat -c %s "$tmp")
	fi
	mv "$tmp" "$dat" || fail "cannot move $tmp to $dat"
	lost=$(recorder_lost "$rlog")
	log "$name: format=$format size=$size bytes lost=$lost"
	[ "$lost" = 0 ] || log "$name: WARNING: $lost events lost (raise BUFFER_KB)"
	sed "s|$RS_WORK/||; s/^/    record: /" "$rlog" >>"$LOG"
	sed 's/^/    workload: /' "$wlog" >>"$LOG"
	count_events "$dat" | sed 's/^/    events: /' >>"$LOG"
}

# ------------------------------------------------------------------ main

main() {
	mkdir -p "$OUT_DIR"
	: >"$LOG"
	setup_record
	build_workload
	trim_kallsyms
	log "recorded on $(uname -r) $(uname -m), $(nproc) CPUs, $(awk '/MemTotal/ { print int($2/1024) " MB" }' /proc/meminfo), no swap: $(awk 'NR>1' /proc/swaps | wc -l | awk '{ print ($1 == 0) ? "yes" : "no" }')"
	log "recorder: $("$VR" --version) ($VR); $(trace-cmd version 2>/dev/null | grep -m1 version || true) (counts events only)"
	log "settings: RUNTIME=${RUNTIME}s BUFFER_KB=$BUFFER_KB/cpu EVENTS=$RECORD_EVENTS clock=mono (record's default) LEAVE_MB=$LEAVE_MB FLOOR_MB=$FLOOR_MB READERS=$READERS WRITERS=$WRITERS ALLOCATORS=$ALLOCATORS ALLOC_MB=$ALLOC_MB ALLOC_CHUNK_KB=$ALLOC_CHUNK_KB ALLOC_PAUSE_MS=$ALLOC_PAUSE_MS READ_RATE=$READ_RATE WRITE_RATE=$WRITE_RATE FILE_MB=${FILE_MB:-$((LEAVE_MB / 2))} extra='$EXTRA_WORKLOAD_ARGS'"
	log "kallsyms for version 6 files: $(stat -c %s "$RS_WORK/kallsyms") of $(wc -c </proc/kallsyms) bytes"
	start_hog

	local wsf i name format
	for wsf in $WSF_LIST; do
		echo "$wsf" >/proc/sys/vm/watermark_scale_factor
		for i in $(seq 1 "$ITERATIONS"); do
			name=wsf$wsf-$i
			format=v7
			case " $V6_RUNS " in *" $name "*) format=v6 ;; esac
			if [ "${RS_V6_PENDING:-0}" = 1 ]; then
				format=v6
				RS_V6_PENDING=0
			fi
			log "=== $name: vm.watermark_scale_factor=$wsf, MemAvailable $(mem_available_mb) MB"
			record_run "$name" "$format"
		done
	done
	stop_hog
	if [ "${RS_V6_PENDING:-0}" = 1 ]; then
		log "warning: no run was small enough for a v6 file under 5 MB (MAX_FILE_BYTES=$MAX_FILE_BYTES)"
	fi
	log "done"
}

if [ "${RS_LIBRARY_ONLY:-0}" != 1 ]; then
	main "$@"
fi
