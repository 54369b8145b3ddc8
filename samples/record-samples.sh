#!/bin/bash
# record-samples.sh - record the vmscan sample traces in samples/ with
# "vmscan-report record".  Two sets (SAMPLE_SETS, default "wsf pressure"):
#
#   wsf       vm.watermark_scale_factor 10 and 200 (WSF_LIST) x ITERATIONS,
#             no swap, the workload's files in DATA_DIR: wsf<factor>-<i>
#   pressure  swap on zram0, the workload's files on ext4 on a loop device
#             whose writes the cgroup v1 blkio controller throttles
#             (THROTTLE_MBPS, 4 MiB/s), the hog mlocked, vm.swappiness=10,
#             two allocators whose bursts (2 x 1.25 GiB) do not fit beside
#             the page cache, a 20 s warmup so that the page cache holds
#             dirty pages and pages under writeback: a large dirty limit,
#             vm.dirty_ratio=80 (zram-dirtyratio80-<i>), against a small one,
#             vm.dirty_bytes=32M (zram-dirtybytes32m-<i>) x PRESSURE_ITERATIONS,
#             then MEMCG_RUNS runs in a cgroup v1 memory cgroup of
#             MEMCG_LIMIT_MB, without the hog (zram-memcg1024m-<i>)
#
#   SAMPLE_SETS=pressure make record-samples      # only the pressure set
#
# The simoop-lite workload runs under memory pressure (an anonymous hog leaves
# only a few GiB for the page cache) while "vmscan-report record" traces it in
# a tracefs instance of its own (mono clock, per-CPU buffers drained while
# recording) and writes the trace.dat.  The top-level tracefs settings are not
# touched.  Everything changed (vm.watermark_scale_factor, the vm.dirty_*
# sysctls, vm.swappiness, swap and zram0, the blkio throttle, the loop device, its mount and
# image, the memory cgroup) is restored on exit, on error, on Ctrl-C and on
# SIGTERM; the hog and workload run in process groups of their own (setsid)
# and are stopped with them.  The script then compares /proc/swaps, the
# mounts, the loop devices, the blkio throttle file, those sysctls, zram0 and
# the memory cgroups with a snapshot taken when it started, and fails if any
# differs.
#
# Run as root from anywhere:   make record-samples   (or VR=./vmscan-report samples/record-samples.sh)
# Settings can be overridden from the environment, e.g.
#   WSF_LIST="10 200" ITERATIONS=3 RUNTIME=10 samples/record-samples.sh
#   OUT_DIR=/var/tmp/samples-new samples/record-samples.sh   # staging directory
#
# Outputs per run NAME:
#   NAME.dat            the trace (file version 7 + zstd; runs listed in V6_RUNS:
#                       version 6, uncompressed, trimmed kallsyms)
#   NAME.latency.txt    simoop-lite's latency report
#   NAME.vmstat-before  /proc/vmstat just before the workload's start signal
#                       (pressure set: just after tracing started)
#   NAME.vmstat-after   /proc/vmstat just after the workload exited
#                       (both taken while tracing is on)
# and record-samples.log (wsf) and record-samples-pressure.log (pressure)
# with the settings, the recorder's per-CPU statistics (events read and
# lost) and event counts of every run.
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
WSF_LOG=${LOG:-$OUT_DIR/record-samples.log}   # the log of the wsf set

# Which sets to record: "wsf" (vm.watermark_scale_factor 10 and 200, no swap),
# "pressure" (swap on zram, throttled writeback, two dirty limits, memcg)
SAMPLE_SETS=${SAMPLE_SETS:-"wsf pressure"}
# The pressure set (files zram-dirtyratio80-N, zram-dirtybytes32m-N,
# zram-memcg1024m-N; see pressure_main)
PRESSURE_LOG=${PRESSURE_LOG:-$OUT_DIR/record-samples-pressure.log}
PRESSURE_SETTINGS=${PRESSURE_SETTINGS:-"ratio bytes"}  # ratio: DIRTY_RATIO; bytes: DIRTY_BYTES_MB
PRESSURE_ITERATIONS=${PRESSURE_ITERATIONS:-3}
DIRTY_RATIO=${DIRTY_RATIO:-80}        # vm.dirty_ratio of "ratio" (a large limit: the kernel's default is 20)
DIRTY_BG_RATIO=${DIRTY_BG_RATIO:-5}   # vm.dirty_background_ratio of "ratio" (default 10)
DIRTY_BYTES_MB=${DIRTY_BYTES_MB:-32}  # vm.dirty_bytes of "bytes" (background: half)
MEMCG_RUNS=${MEMCG_RUNS:-1}           # runs in a cgroup v1 memory cgroup (no hog)
MEMCG_LIMIT_MB=${MEMCG_LIMIT_MB:-1024} # its memory.limit_in_bytes
# The loop device's write limit in the memcg runs, MiB/s (0: none).  Throttled,
# the memcg fills with pages under writeback that its reclaim then waits on
# (shrink_folio_list(), cgroup v1) and the run stalls for tens of seconds
MEMCG_THROTTLE_MBPS=${MEMCG_THROTTLE_MBPS:-0}
PRESSURE_LEAVE_MB=${PRESSURE_LEAVE_MB:-4608} # MemAvailable the mlocked hog leaves
# The floor is below LEAVE - ALLOCATORS * ALLOC_MB: a hog that gave memory
# back whenever the allocators run would take the pressure away
PRESSURE_FLOOR_MB=${PRESSURE_FLOOR_MB:-1024}
PRESSURE_FILE_MB=${PRESSURE_FILE_MB:-3072}   # per reader and writer: 9 GB of files for 4.6 GB
PRESSURE_RUNTIME=${PRESSURE_RUNTIME:-4}      # s of measured run (each file stays under 5 MB)
PRESSURE_READERS=${PRESSURE_READERS:-1}      # one reader keeps clean page cache coming
PRESSURE_READ_RATE=${PRESSURE_READ_RATE:-200} # MiB/s: its clean pages are what reclaim frees with a small dirty limit
PRESSURE_WRITERS=${PRESSURE_WRITERS:-2}
PRESSURE_ALLOCATORS=${PRESSURE_ALLOCATORS:-2}
PRESSURE_ALLOC_MB=${PRESSURE_ALLOC_MB:-1280}
# The memcg run: writers and one allocator, no reader (so that memcg reclaim
# meets dirty file pages the flushers have not queued: cgroup v1 reclaim
# then throttles, reason WRITEBACK, mm/vmscan.c shrink_inactive_list())
MEMCG_RUNTIME=${MEMCG_RUNTIME:-8}
MEMCG_READERS=${MEMCG_READERS:-0}
MEMCG_ALLOCATORS=${MEMCG_ALLOCATORS:-1}
MEMCG_ALLOC_MB=${MEMCG_ALLOC_MB:-512}
MEMCG_FILE_MB=${MEMCG_FILE_MB:-1024}
PRESSURE_WARMUP=${PRESSURE_WARMUP:-20}     # s of untraced warmup before each run
PRESSURE_PRE_TRACE=${PRESSURE_PRE_TRACE:-2} # s of it traced
PRESSURE_SWAPPINESS=${PRESSURE_SWAPPINESS-10} # vm.swappiness of the pressure set (empty: unchanged)
PRESSURE_DROP_CACHES=${PRESSURE_DROP_CACHES:-0} # 1: drop the clean page cache the file creation left
ZRAM_SIZE=${ZRAM_SIZE:-4G}
ZRAM_ALGO=${ZRAM_ALGO:-lz4}
THROTTLE_MBPS=${THROTTLE_MBPS:-4}     # blkio.throttle.write_bps_device of the loop device, MiB/s
LOOP_MB=${LOOP_MB:-10240}             # the loop device's backing file (sparse)
LOOP_IMAGE=${LOOP_IMAGE:-/var/tmp/vmscan-samples-loop.img}
LOOP_MNT=${LOOP_MNT:-/var/tmp/vmscan-samples-mnt}
BLKIO=${BLKIO:-/sys/fs/cgroup/blkio}
# The memory cgroup of the memcg run is made inside the one this script runs
# in (so the workload stays inside whatever limits its parent has)
MEMCG_ROOT=${MEMCG_ROOT:-/sys/fs/cgroup/memory$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup 2>/dev/null | sed 's|^/$||')}

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
RS_RECORD_PID=
RS_WORK=
RS_SNAPSHOT=
RS_MADE_DATA_DIR=    # DATA_DIR, when we made it (removed again once empty)

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

# stop_worker PID: SIGTERM to PID's process group if PID leads one (the
# workers are started with setsid), else to PID; SIGKILL after 60 s; returns
# once no process of the group is left.
stop_worker() {
	local pid=$1 target=$1 n=0
	[ -n "$pid" ] || return 0
	[ "$(ps -o pgid= -p "$pid" 2>/dev/null | tr -d ' ')" = "$pid" ] && target=-$pid
	kill -TERM -- "$target" 2>/dev/null
	while kill -0 -- "$target" 2>/dev/null; do
		n=$((n + 1))
		if [ "$n" = 600 ]; then
			echo "record-samples: $pid did not stop in 60 s: SIGKILL" >&2
			kill -KILL -- "$target" 2>/dev/null
		fi
		sleep 0.1
	done
	wait "$pid" 2>/dev/null
	return 0
}

restore_state() {
	local rc=$?
	trap - EXIT
	trap '' INT TERM HUP    # a second Ctrl-C must not cut the restore short
	# the recorder first (it stops its command), then the workers; lift the
	# write throttle in between so that writers blocked on it can finish
	stop_worker "$RS_RECORD_PID"
	RS_RECORD_PID=
	[ -n "$RS_WORKLOAD_PID" ] && kill -TERM -- "-$RS_WORKLOAD_PID" 2>/dev/null
	pressure_unthrottle
	stop_worker "$RS_WORKLOAD_PID"
	RS_WORKLOAD_PID=
	stop_worker "$RS_HOG_PID"
	RS_HOG_PID=
	pressure_restore
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
	[ -n "$RS_MADE_DATA_DIR" ] && rmdir "$RS_MADE_DATA_DIR" 2>/dev/null || :
	if [ "$RS_MOUNTED_TRACEFS" = 1 ]; then
		umount "$T" 2>/dev/null
	fi
	if [ -n "$RS_SNAPSHOT" ]; then
		if machine_snapshot | diff -u "$RS_SNAPSHOT" - >"$RS_SNAPSHOT.diff"; then
			echo "record-samples: checked: swaps, mounts, loop devices, blkio throttle, sysctls, zram0 and memory cgroups are as before" >&2
		else
			echo "record-samples: error: the machine is not as before (- before, + now):" >&2
			cat "$RS_SNAPSHOT.diff" >&2
			[ "$rc" = 0 ] && rc=1
		fi
		rm -f "$RS_SNAPSHOT" "$RS_SNAPSHOT.diff"
	fi
	[ -n "$RS_WORK" ] && rm -rf "$RS_WORK"
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
	if [ "${RS_CHECK_RESTORE:-0}" = 1 ]; then
		RS_SNAPSHOT=$(mktemp /tmp/record-samples-before.XXXXXX)
		machine_snapshot >"$RS_SNAPSHOT"
	fi
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

# check_own_group PID WHAT: PID must come to lead its own process group
# (started with setsid, which forks when it cannot call setsid() itself);
# waits up to 5 s for the child to get there
check_own_group() {
	local g n
	for n in $(seq 50); do
		g=$(ps -o pgid= -p "$1" 2>/dev/null | tr -d ' ')
		[ -z "$g" ] || [ "$g" = "$1" ] && return 0
		sleep 0.1
	done
	fail "$2 (pid $1) is not in a process group of its own (pgid $g)"
}

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
	# -H is only a cap: the hog grows until MemAvailable is down to LEAVE_MB.
	# setsid: the hog leads a process group of its own (stop_worker).
	local lock=
	[ "${HOG_MLOCK:-0}" = 1 ] && lock=--mlock
	setsid "$WORKLOAD" --hog-only -H "$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)" \
		-L "$LEAVE_MB" -F "$FLOOR_MB" -r 0 $lock 2>"$RS_WORK/hog.log" &
	RS_HOG_PID=$!
	check_own_group "$RS_HOG_PID" hog
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
		stop_worker "$RS_HOG_PID"
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
	if [ ! -d "$DATA_DIR" ]; then
		mkdir -p "$DATA_DIR" && RS_MADE_DATA_DIR=$DATA_DIR
	fi
	retarget_hog

	# create the data files before tracing starts; the run starts on SIGUSR1
	log "$name: workload: simoop-lite --wait-start -d $DATA_DIR -r $RUNTIME -i $INTERVAL -R $READERS -W $WRITERS -A $ALLOCATORS -f $file_mb -a $ALLOC_MB -c $ALLOC_CHUNK_KB -p $ALLOC_PAUSE_MS -t $READ_RATE -T $WRITE_RATE $EXTRA_WORKLOAD_ARGS $*"
	# RS_WORKLOAD_CGROUP: a cgroup.procs file the workload enters before it
	# starts (through sh, which execs it: the pid stays the same)
	local pre=()
	[ -n "${RS_WORKLOAD_CGROUP:-}" ] &&
		pre=(sh -c 'echo $$ >"$0" && exec "$@"' "$RS_WORKLOAD_CGROUP")
	setsid "${pre[@]}" "$WORKLOAD" --wait-start -d "$DATA_DIR" -r "$RUNTIME" -i "$INTERVAL" \
		-R "$READERS" -W "$WRITERS" -A "$ALLOCATORS" -f "$file_mb" \
		-a "$ALLOC_MB" -c "$ALLOC_CHUNK_KB" -p "$ALLOC_PAUSE_MS" -t "$READ_RATE" -T "$WRITE_RATE" \
		$EXTRA_WORKLOAD_ARGS "$@" \
		>"$OUT_DIR/$name.latency.txt" 2>"$wlog" &
	RS_WORKLOAD_PID=$!
	check_own_group "$RS_WORKLOAD_PID" workload
	while ! grep -q "setup complete" "$wlog"; do
		kill -0 "$RS_WORKLOAD_PID" 2>/dev/null ||
			fail "workload exited during setup: $(cat "$wlog")"
		sleep 0.2
	done
	sync
	sleep 1
	# RS_BEFORE_RECORD: a function run now, with the workload's pid (the
	# pressure set throttles writes and moves the workload into a memcg)
	[ -n "${RS_BEFORE_RECORD:-}" ] && "$RS_BEFORE_RECORD" "$RS_WORKLOAD_PID"

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
	local kick_args=("$RS_WORKLOAD_PID" "$OUT_DIR/$name.vmstat-before" "$OUT_DIR/$name.vmstat-after")
	local kick_shown="sh WORKLOAD_PID $name.vmstat-before $name.vmstat-after"
	if [ "${RS_WARMUP:-0}" -gt 0 ]; then
		# Warmup (the pressure set): the workload is started now and runs
		# RS_WARMUP s (-w: not in its statistics), so that the page cache
		# reaches its steady state of dirty pages and pages under
		# writeback; tracing starts RS_PRE_TRACE s before the warmup ends.
		# The snapshots are taken as before, right after tracing started
		# and right after the workload exited, so they cover the traced
		# interval, which covers the measured run.
		kill -USR1 "$RS_WORKLOAD_PID"
		log "$name: started; warmup ${RS_WARMUP} s, untraced but the last ${RS_PRE_TRACE} s"
		local n
		for ((n = RS_PRE_TRACE; n < RS_WARMUP; n++)); do sleep 1; done
		# (no snapshot, and so a failure below, if the warmup had ended)
		kick='grep -q "^Warmup complete" "$4" && exit 3; cat /proc/vmstat >"$2" && while kill -0 "$1" 2>/dev/null; do sleep 0.05; done; cat /proc/vmstat >"$3"'
		rm -f "$OUT_DIR/$name.vmstat-before"
		kick_args+=("$OUT_DIR/$name.latency.txt")
		kick_shown+=" $name.latency.txt"
	fi
	log "$name: vmscan-report ${rec[*]/#$RS_WORK\//} -- sh -c '$kick' $kick_shown"
	# in the background, so that a signal's trap runs at once (bash runs
	# traps only between commands, and "wait" is one)
	"$VR" "${rec[@]}" -- sh -c "$kick" sh "${kick_args[@]}" >"$rlog" 2>&1 &
	RS_RECORD_PID=$!
	wait "$RS_RECORD_PID"
	local rrc=$?
	RS_RECORD_PID=
	# a failed recorder may not have started the workload: restore_state stops it
	[ "$rrc" = 0 ] || fail "$name: vmscan-report record failed (exit $rrc): $(cat "$rlog")"
	wait "$RS_WORKLOAD_PID"
	local wrc=$?
	RS_WORKLOAD_PID=
	[ "$wrc" = 0 ] || fail "workload failed (exit $wrc): $(cat "$wlog")"
	[ -s "$OUT_DIR/$name.vmstat-before" ] ||
		fail "$name: no vmstat snapshot: the warmup had ended before tracing started (raise PRESSURE_PRE_TRACE)"
	[ -n "${RS_AFTER_RECORD:-}" ] && "$RS_AFTER_RECORD"

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
	RS_LAST_LOST=$lost
	log "$name: format=$format size=$size bytes lost=$lost"
	[ "$lost" = 0 ] || log "$name: WARNING: $lost events lost (raise BUFFER_KB)"
	sed "s|$RS_WORK/||; s/^/    record: /" "$rlog" >>"$LOG"
	sed 's/^/    workload: /' "$wlog" >>"$LOG"
	count_events "$dat" | sed 's/^/    events: /' >>"$LOG"
}

# ------------------------------------------------------------------ pressure set
#
# Swap on zram, the workload's files on ext4 on a loop device whose writes
# are throttled (cgroup v1 blkio, root group), the hog mlocked: reclaim meets
# dirty pages and pages under writeback, and writes anonymous pages to swap.
# Everything set up here is recorded in RS_P_* and undone by pressure_restore
# (from restore_state: on exit, error and signal).

RS_P_SAVED_DIRTY=0
RS_P_ZRAM=0          # 1: disksize set by us, 2: and swapon done
RS_P_LOOP=           # /dev/loopN we attached
RS_P_MOUNTED=0
RS_P_THROTTLED=      # MAJ:MIN we throttled
RS_P_MEMCG=          # memory cgroup directory we made
RS_P_IMAGE=          # backing file we made

# machine_snapshot: what the pressure set changes, as text; compared before
# and after the run by restore_state (RS_CHECK_RESTORE=1).
machine_snapshot() {
	local s
	echo "== /proc/swaps"; cat /proc/swaps
	echo "== mounts"; awk '{ print $1, $2, $3 }' /proc/mounts | sort
	echo "== loop devices"; losetup -l -n -O NAME,BACK-FILE 2>/dev/null | sort
	echo "== $BLKIO/blkio.throttle.write_bps_device"; cat "$BLKIO/blkio.throttle.write_bps_device" 2>/dev/null
	echo "== sysctls"
	for s in dirty_ratio dirty_bytes dirty_background_ratio dirty_background_bytes \
		 watermark_scale_factor swappiness; do
		echo "vm.$s=$(cat /proc/sys/vm/$s)"
	done
	echo "== zram0"; cat /sys/block/zram0/disksize /sys/block/zram0/comp_algorithm 2>/dev/null
	echo "== memory cgroups"; find "$MEMCG_ROOT" -mindepth 1 -maxdepth 1 -type d 2>/dev/null | sort
}

save_dirty() {
	SAVED_DIRTY_RATIO=$(cat /proc/sys/vm/dirty_ratio)
	SAVED_DIRTY_BYTES=$(cat /proc/sys/vm/dirty_bytes)
	SAVED_DIRTY_BG_RATIO=$(cat /proc/sys/vm/dirty_background_ratio)
	SAVED_DIRTY_BG_BYTES=$(cat /proc/sys/vm/dirty_background_bytes)
	SAVED_SWAPPINESS=$(cat /proc/sys/vm/swappiness)
	RS_P_SAVED_DIRTY=1
	if [ -n "$PRESSURE_SWAPPINESS" ]; then
		echo "$PRESSURE_SWAPPINESS" >/proc/sys/vm/swappiness || fail "cannot set vm.swappiness"
		log "vm.swappiness=$PRESSURE_SWAPPINESS (was $SAVED_SWAPPINESS)"
	fi
}

# set_dirty ratio|bytes: the dirty limits of a setting (writing a *_bytes
# sysctl zeroes its *_ratio twin and the other way round)
set_dirty() {
	case $1 in
	ratio)
		echo "$DIRTY_RATIO" >/proc/sys/vm/dirty_ratio &&
		echo "$DIRTY_BG_RATIO" >/proc/sys/vm/dirty_background_ratio ;;
	bytes)
		echo $((DIRTY_BYTES_MB * 1048576)) >/proc/sys/vm/dirty_bytes &&
		echo $((DIRTY_BYTES_MB * 1048576 / 2)) >/proc/sys/vm/dirty_background_bytes ;;
	esac || fail "cannot set the dirty limits ($1)"
	log "dirty limits: $(for s in dirty_ratio dirty_bytes dirty_background_ratio dirty_background_bytes; do printf 'vm.%s=%s ' $s "$(cat /proc/sys/vm/$s)"; done)"
}

restore_dirty() {
	[ "$RS_P_SAVED_DIRTY" = 1 ] || return 0
	if [ "$SAVED_DIRTY_BYTES" != 0 ]; then
		echo "$SAVED_DIRTY_BYTES" >/proc/sys/vm/dirty_bytes
	else
		echo "$SAVED_DIRTY_RATIO" >/proc/sys/vm/dirty_ratio
	fi
	if [ "$SAVED_DIRTY_BG_BYTES" != 0 ]; then
		echo "$SAVED_DIRTY_BG_BYTES" >/proc/sys/vm/dirty_background_bytes
	else
		echo "$SAVED_DIRTY_BG_RATIO" >/proc/sys/vm/dirty_background_ratio
	fi
	echo "$SAVED_SWAPPINESS" >/proc/sys/vm/swappiness
	RS_P_SAVED_DIRTY=0
	echo "record-samples: restored the vm.dirty_* sysctls and vm.swappiness" >&2
}

# pressure_setup: zram swap, the loop device with ext4, mounted on LOOP_MNT
pressure_setup() {
	local z=/sys/block/zram0
	[ -e "$z/disksize" ] || fail "no zram0 (modprobe zram?)"
	[ "$(cat "$z/disksize")" = 0 ] || fail "zram0 is in use (disksize $(cat "$z/disksize"))"
	[ "$(awk 'NR > 1' /proc/swaps | wc -l)" = 0 ] || fail "swap is already on: $(cat /proc/swaps)"
	[ -w "$BLKIO/blkio.throttle.write_bps_device" ] || fail "no cgroup v1 blkio throttle at $BLKIO"
	[ ! -e "$LOOP_IMAGE" ] || fail "$LOOP_IMAGE exists (left by an earlier run?)"
	[ ! -e "$LOOP_MNT" ] || fail "$LOOP_MNT exists (left by an earlier run?)"
	save_dirty
	SAVED_ZRAM_ALGO=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$z/comp_algorithm")
	echo "$ZRAM_ALGO" >"$z/comp_algorithm" || fail "cannot set zram0 comp_algorithm $ZRAM_ALGO"
	RS_P_ZRAM=1
	echo "$ZRAM_SIZE" >"$z/disksize" || fail "cannot set zram0 disksize $ZRAM_SIZE"
	mkswap /dev/zram0 >"$RS_WORK/mkswap.log" 2>&1 || fail "mkswap /dev/zram0: $(cat "$RS_WORK/mkswap.log")"
	swapon /dev/zram0 || fail "swapon /dev/zram0"
	RS_P_ZRAM=2
	log "swap: /dev/zram0, $ZRAM_SIZE, $ZRAM_ALGO ($(awk '$1 == "/dev/zram0" { print $3 " kB" }' /proc/swaps))"

	RS_P_IMAGE=$LOOP_IMAGE
	truncate -s "${LOOP_MB}M" "$LOOP_IMAGE" || fail "cannot make $LOOP_IMAGE"
	# direct I/O: the loop device's writes do not go through the page cache
	# of the file system that holds the image (no second copy of each page)
	RS_P_LOOP=$(losetup --find --show --direct-io=on --sector-size 4096 "$LOOP_IMAGE") ||
		fail "losetup $LOOP_IMAGE failed"
	mkfs.ext4 -q -F "$RS_P_LOOP" >"$RS_WORK/mkfs.log" 2>&1 || fail "mkfs.ext4 $RS_P_LOOP: $(cat "$RS_WORK/mkfs.log")"
	mkdir "$LOOP_MNT" || fail "cannot make $LOOP_MNT"
	mount -t ext4 "$RS_P_LOOP" "$LOOP_MNT" || fail "cannot mount $RS_P_LOOP on $LOOP_MNT"
	RS_P_MOUNTED=1
	LOOP_DEVNUM=$(lsblk -dno MAJ:MIN "$RS_P_LOOP" | tr -d ' ')
	log "data: ext4 on $RS_P_LOOP ($LOOP_DEVNUM, ${LOOP_MB} MB image $LOOP_IMAGE, direct I/O $(cat /sys/block/"${RS_P_LOOP#/dev/}"/loop/dio)) mounted on $LOOP_MNT; writes throttled to $THROTTLE_MBPS MiB/s while recording"
}

# pressure_throttle PID: before each recording, throttle the loop device's
# writes (the workload's files were written at full speed)
pressure_throttle() {
	if [ "$THROTTLE_MBPS" = 0 ]; then
		log "writes to $LOOP_DEVNUM not throttled (THROTTLE_MBPS=0)"
		return 0
	fi
	echo "$LOOP_DEVNUM $((THROTTLE_MBPS * 1048576))" >"$BLKIO/blkio.throttle.write_bps_device" ||
		fail "cannot throttle $LOOP_DEVNUM"
	RS_P_THROTTLED=$LOOP_DEVNUM
	log "throttled: $(cat "$BLKIO/blkio.throttle.write_bps_device" | tr '\n' ' ')"
	if [ "$PRESSURE_DROP_CACHES" = 1 ]; then
		echo 1 >/proc/sys/vm/drop_caches || fail "cannot drop the page cache"
		log "dropped the page cache: MemFree $(awk '/^MemFree:/ { print int($2 / 1024) }' /proc/meminfo) MB"
	fi
}

pressure_unthrottle() {
	[ -n "$RS_P_THROTTLED" ] || return 0
	echo "$RS_P_THROTTLED 0" >"$BLKIO/blkio.throttle.write_bps_device"
	RS_P_THROTTLED=
}

# pressure_after: after each recording, lift the throttle, write back and
# remove the workload's files (it keeps them: --keep-files)
pressure_after() {
	pressure_unthrottle
	sync -f "$LOOP_MNT"/. 2>/dev/null || sync
	rm -f "$LOOP_MNT"/simoop-lite.*
}

memcg_setup() {
	[ -d "$MEMCG_ROOT" ] || fail "no cgroup v1 memory controller at $MEMCG_ROOT"
	RS_P_MEMCG=$MEMCG_ROOT/vmscan-samples-$$
	mkdir "$RS_P_MEMCG" || fail "cannot make $RS_P_MEMCG"
	echo $((MEMCG_LIMIT_MB * 1048576)) >"$RS_P_MEMCG/memory.limit_in_bytes" ||
		fail "cannot set $RS_P_MEMCG/memory.limit_in_bytes"
}

memcg_restore() {
	[ -n "$RS_P_MEMCG" ] || return 0
	local n=0
	# the workers are gone; their tasks leave the group as they exit
	while [ -s "$RS_P_MEMCG/cgroup.procs" ] && [ "$n" -lt 100 ]; do sleep 0.1; n=$((n + 1)); done
	rmdir "$RS_P_MEMCG" || echo "record-samples: error: cannot remove $RS_P_MEMCG" >&2
	RS_P_MEMCG=
}

# pressure_restore: undo pressure_setup and memcg_setup, in reverse order
# (the workers and the hog are stopped already)
pressure_restore() {
	pressure_unthrottle
	memcg_restore
	if [ "$RS_P_MOUNTED" = 1 ]; then
		rm -f "$LOOP_MNT"/simoop-lite.*
		umount "$LOOP_MNT" || echo "record-samples: error: cannot umount $LOOP_MNT" >&2
		RS_P_MOUNTED=0
	fi
	[ -d "$LOOP_MNT" ] && [ -n "$RS_P_IMAGE" ] && rmdir "$LOOP_MNT"
	if [ -n "$RS_P_LOOP" ]; then
		losetup -d "$RS_P_LOOP" || echo "record-samples: error: cannot detach $RS_P_LOOP" >&2
		RS_P_LOOP=
	fi
	if [ -n "$RS_P_IMAGE" ]; then
		rm -f "$RS_P_IMAGE"
		RS_P_IMAGE=
	fi
	if [ "$RS_P_ZRAM" = 2 ]; then
		swapoff /dev/zram0 || echo "record-samples: error: swapoff /dev/zram0 failed" >&2
	fi
	if [ "$RS_P_ZRAM" != 0 ]; then
		echo 1 >/sys/block/zram0/reset
		echo "$SAVED_ZRAM_ALGO" >/sys/block/zram0/comp_algorithm
		RS_P_ZRAM=0
		echo "record-samples: swapoff, zram0 reset" >&2
	fi
	restore_dirty
}

# pressure_run NAME: one recording of the pressure set; a run that lost
# events is recorded again with twice the buffer (at most twice); one that
# came out MAX_FILE_BYTES or larger (reclaim under this pressure varies by a
# third from run to run) is recorded again once, as the log says
pressure_run() {
	local name=$1 try size big=0
	for try in 1 2 3 4; do
		record_run "$name" v7 --keep-files
		size=$(stat -c %s "$OUT_DIR/$name.dat")
		if [ "$RS_LAST_LOST" != 0 ]; then
			[ "$try" -ge 3 ] && fail "$name: $RS_LAST_LOST events lost with BUFFER_KB=$BUFFER_KB"
			BUFFER_KB=$((BUFFER_KB * 2))
			log "$name: $RS_LAST_LOST events lost: again with BUFFER_KB=$BUFFER_KB"
		elif [ "$size" -ge "$MAX_FILE_BYTES" ]; then
			[ "$big" = 1 ] && fail "$name.dat has $size bytes (>= $MAX_FILE_BYTES) twice: lower PRESSURE_RUNTIME"
			big=1
			log "$name: discarded: $size bytes (>= $MAX_FILE_BYTES); recorded again"
		else
			return 0
		fi
	done
	fail "$name: no recording without lost events under $MAX_FILE_BYTES bytes"
}

# pressure_main: the pressure set: PRESSURE_SETTINGS (dirty limits) times
# PRESSURE_ITERATIONS under global pressure (mlocked hog), then MEMCG_RUNS
# runs in a memory cgroup (no hog: memcg reclaim only)
pressure_main() {
	local LEAVE_MB=$PRESSURE_LEAVE_MB FLOOR_MB=$PRESSURE_FLOOR_MB FILE_MB=$PRESSURE_FILE_MB
	local RUNTIME=$PRESSURE_RUNTIME READERS=$PRESSURE_READERS READ_RATE=$PRESSURE_READ_RATE
	local WRITERS=$PRESSURE_WRITERS ALLOCATORS=$PRESSURE_ALLOCATORS ALLOC_MB=$PRESSURE_ALLOC_MB
	local DATA_DIR=$LOOP_MNT HOG_MLOCK=1 RS_AFTER_RECORD=pressure_after
	local RS_WARMUP=$PRESSURE_WARMUP RS_PRE_TRACE=$PRESSURE_PRE_TRACE
	local EXTRA_WORKLOAD_ARGS="$EXTRA_WORKLOAD_ARGS -w $PRESSURE_WARMUP"
	local RS_BEFORE_RECORD=pressure_throttle
	local setting i name
	log "settings: RUNTIME=${RUNTIME}s WARMUP=${RS_WARMUP}s (traced: the last ${RS_PRE_TRACE}s) BUFFER_KB=$BUFFER_KB/cpu EVENTS=$RECORD_EVENTS clock=mono READERS=$READERS WRITERS=$WRITERS ALLOCATORS=$ALLOCATORS ALLOC_MB=$ALLOC_MB ALLOC_CHUNK_KB=$ALLOC_CHUNK_KB ALLOC_PAUSE_MS=$ALLOC_PAUSE_MS READ_RATE=$READ_RATE WRITE_RATE=$WRITE_RATE extra='$EXTRA_WORKLOAD_ARGS'"
	log "pressure set: swap on zram0 ($ZRAM_SIZE, $ZRAM_ALGO), ext4 on a loop device throttled to $THROTTLE_MBPS MiB/s (cgroup v1 blkio, root), mlocked hog leaving $LEAVE_MB MB (floor $FLOOR_MB MB), files of $FILE_MB MB, settings '$PRESSURE_SETTINGS' x $PRESSURE_ITERATIONS, memcg runs $MEMCG_RUNS (limit $MEMCG_LIMIT_MB MB)"
	pressure_setup
	start_hog
	for setting in $PRESSURE_SETTINGS; do
		set_dirty "$setting"
		for i in $(seq 1 "$PRESSURE_ITERATIONS"); do
			name=$(pressure_name "$setting")-$i
			log "=== $name: MemAvailable $(mem_available_mb) MB, $(grep -E '^(Dirty|Writeback):' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"
			pressure_run "$name"
		done
	done
	stop_hog
	if [ "$MEMCG_RUNS" -gt 0 ]; then
		set_dirty ratio
		memcg_setup
		# the workload runs in the memory cgroup from its start, so that
		# the page cache of its files is charged to it
		local RS_WORKLOAD_CGROUP=$RS_P_MEMCG/cgroup.procs
		local THROTTLE_MBPS=$MEMCG_THROTTLE_MBPS RUNTIME=$MEMCG_RUNTIME READERS=$MEMCG_READERS
		local ALLOCATORS=$MEMCG_ALLOCATORS ALLOC_MB=$MEMCG_ALLOC_MB FILE_MB=$MEMCG_FILE_MB
		log "memcg runs: RUNTIME=${RUNTIME}s READERS=$READERS WRITERS=$WRITERS ALLOCATORS=$ALLOCATORS ALLOC_MB=$ALLOC_MB FILE_MB=$FILE_MB, loop device write limit $THROTTLE_MBPS MiB/s (0: none)"
		for i in $(seq 1 "$MEMCG_RUNS"); do
			name=zram-memcg${MEMCG_LIMIT_MB}m-$i
			log "=== $name: memory cgroup $RS_P_MEMCG, limit $MEMCG_LIMIT_MB MB, MemAvailable $(mem_available_mb) MB"
			pressure_run "$name"
			log "$name: memory.failcnt $(cat "$RS_P_MEMCG/memory.failcnt"), memory.max_usage_in_bytes $(cat "$RS_P_MEMCG/memory.max_usage_in_bytes")"
		done
		memcg_restore
	fi
	pressure_restore
}

# pressure_name ratio|bytes: the file name of a setting
pressure_name() {
	case $1 in
	ratio) echo "zram-dirtyratio$DIRTY_RATIO" ;;
	bytes) echo "zram-dirtybytes${DIRTY_BYTES_MB}m" ;;
	*) fail "unknown pressure setting '$1' (ratio or bytes)" ;;
	esac
}

# ------------------------------------------------------------------ main

# log_header: the machine and the settings, at the top of a set's log
log_header() {
	log "recorded on $(uname -r) $(uname -m), $(nproc) CPUs, $(awk '/MemTotal/ { print int($2/1024) " MB" }' /proc/meminfo), no swap: $(awk 'NR>1' /proc/swaps | wc -l | awk '{ print ($1 == 0) ? "yes" : "no" }')"
	log "recorder: $("$VR" --version) ($VR); $(trace-cmd version 2>/dev/null | grep -m1 version || true) (counts events only)"
	log "kallsyms for version 6 files: $(stat -c %s "$RS_WORK/kallsyms") of $(wc -c </proc/kallsyms) bytes"
}

# wsf_main: the watermark_scale_factor set (wsf<factor>-<iteration>)
wsf_main() {
	log "settings: RUNTIME=${RUNTIME}s BUFFER_KB=$BUFFER_KB/cpu EVENTS=$RECORD_EVENTS clock=mono (record's default) LEAVE_MB=$LEAVE_MB FLOOR_MB=$FLOOR_MB READERS=$READERS WRITERS=$WRITERS ALLOCATORS=$ALLOCATORS ALLOC_MB=$ALLOC_MB ALLOC_CHUNK_KB=$ALLOC_CHUNK_KB ALLOC_PAUSE_MS=$ALLOC_PAUSE_MS READ_RATE=$READ_RATE WRITE_RATE=$WRITE_RATE FILE_MB=${FILE_MB:-$((LEAVE_MB / 2))} extra='$EXTRA_WORKLOAD_ARGS'"
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

main() {
	local set
	for set in $SAMPLE_SETS; do
		case $set in
		wsf|pressure) ;;
		*) fail "SAMPLE_SETS: unknown set '$set' (wsf, pressure)" ;;
		esac
	done
	mkdir -p "$OUT_DIR"
	RS_CHECK_RESTORE=1
	LOG=
	setup_record
	build_workload
	trim_kallsyms
	for set in $SAMPLE_SETS; do
		case $set in
		wsf) LOG=$WSF_LOG ;;
		pressure) LOG=$PRESSURE_LOG ;;
		esac
		: >"$LOG"
		log_header
		"${set}_main"
	done
}

if [ "${RS_LIBRARY_ONLY:-0}" != 1 ]; then
	main "$@"
fi
