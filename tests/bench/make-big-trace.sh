#!/bin/bash
# make-big-trace.sh - make (or reuse) a large vmscan recording for the
# benchmark: at least MIN_EVENTS (3 million) events, trace.dat file version 7
# compressed with zstd, stored outside git.
#
#   tests/bench/make-big-trace.sh          # prints the path of the trace
#   BIG_TRACE=/elsewhere/big.dat tests/bench/make-big-trace.sh
#   FORCE=1 tests/bench/make-big-trace.sh  # record again even if it exists
#
# Recording needs root and takes about 5 minutes (filling memory with the
# anonymous hog takes ~90 s, then ~2 minutes of pressure, then extraction).
# It uses the same method as samples/record-samples.sh (whose functions it
# sources): events enabled through tracefs, simoop-lite under memory pressure,
# "trace-cmd extract".  trace-cmd extract only snapshots the ring buffer, so
# the per-CPU buffer is made big enough for the whole recording and the
# workload is stopped as soon as MIN_EVENTS are in the buffer or a CPU's
# buffer is STOP_FILL_PCT full; the run fails if any event was lost.
#
# Next to the trace: big.latency.txt (workload latencies), big.vmstat-before,
# big.vmstat-after and big.log (settings, ring-buffer statistics, counts).

set -u

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIG_TRACE=${BIG_TRACE:-/var/tmp/vmscan-report-bench/big.dat}
MIN_EVENTS=${MIN_EVENTS:-3000000}
MAX_RUNTIME=${MAX_RUNTIME:-300}     # seconds of workload at most
STOP_FILL_PCT=${STOP_FILL_PCT:-85}  # stop when a CPU's buffer is this full
FORCE=${FORCE:-0}

if [ -s "$BIG_TRACE" ] && [ "$FORCE" != 1 ]; then
	echo "make-big-trace: reusing $BIG_TRACE ($(stat -c %s "$BIG_TRACE") bytes; FORCE=1 to record again)" >&2
	echo "$BIG_TRACE"
	exit 0
fi

BENCH_DIR=$(dirname "$BIG_TRACE")
BASE=${BIG_TRACE%.dat}
mkdir -p "$BENCH_DIR" || exit 1

# Settings for samples/record-samples.sh's functions.  The per-CPU buffer is
# sized from MemAvailable: a quarter of it, at most 512 MiB per CPU.
NCPU=$(nproc)
AVAIL_MB=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
DEFAULT_BUF_MB=$((AVAIL_MB / 4 / NCPU))
[ "$DEFAULT_BUF_MB" -gt 512 ] && DEFAULT_BUF_MB=512
export BUFFER_KB=${BUFFER_KB:-$((DEFAULT_BUF_MB * 1024))}
export OUT_DIR=$BENCH_DIR
export LOG=$BASE.log
export READ_RATE=${READ_RATE:-0}    # full speed: as many events per second as possible
export WRITE_RATE=${WRITE_RATE:-0}
export ALLOC_MB=${ALLOC_MB:-64}
export ALLOC_PAUSE_MS=${ALLOC_PAUSE_MS:-100}
export INTERVAL=${INTERVAL:-10}
export RS_LIBRARY_ONLY=1
# shellcheck source=../../samples/record-samples.sh
. "$TOP/samples/record-samples.sh"

# max "bytes" over the per-CPU buffers, in percent of the buffer size
max_fill_pct() {
	local f max=0 v
	for f in "$T"/per_cpu/cpu*/stats; do
		v=$(awk '/^bytes:/ { print $2 }' "$f")
		v=$((v * 100 / (BUFFER_KB * 1024)))
		[ "$v" -gt "$max" ] && max=$v
	done
	echo "$max"
}

entries_now() {
	local s
	s=$(buffer_stats)
	s=${s#entries=}
	echo "${s%% *}"
}

big_main() {
	: >"$LOG"
	setup_tracefs
	build_workload
	log "big trace on $(uname -r), $NCPU CPUs, MemAvailable $AVAIL_MB MB: buffer ${BUFFER_KB} KB per CPU, MIN_EVENTS=$MIN_EVENTS MAX_RUNTIME=${MAX_RUNTIME}s LEAVE_MB=$LEAVE_MB FLOOR_MB=$FLOOR_MB READ_RATE=$READ_RATE WRITE_RATE=$WRITE_RATE ALLOC_MB=$ALLOC_MB ALLOC_PAUSE_MS=$ALLOC_PAUSE_MS vm.watermark_scale_factor=$(cat /proc/sys/vm/watermark_scale_factor)"
	enable_events
	start_hog

	local file_mb=${FILE_MB:-$((LEAVE_MB / 2))} tmp=$BASE.tmp.dat
	rm -f "$DATA_DIR"/simoop-lite.*
	mkdir -p "$DATA_DIR"
	enable_events
	log "workload: simoop-lite --wait-start -d $DATA_DIR -r $MAX_RUNTIME -i $INTERVAL -R $READERS -W $WRITERS -A $ALLOCATORS -f $file_mb -a $ALLOC_MB -c $ALLOC_CHUNK_KB -p $ALLOC_PAUSE_MS -t $READ_RATE -T $WRITE_RATE"
	"$WORKLOAD" --wait-start -d "$DATA_DIR" -r "$MAX_RUNTIME" -i "$INTERVAL" \
		-R "$READERS" -W "$WRITERS" -A "$ALLOCATORS" -f "$file_mb" \
		-a "$ALLOC_MB" -c "$ALLOC_CHUNK_KB" -p "$ALLOC_PAUSE_MS" -t "$READ_RATE" -T "$WRITE_RATE" \
		>"$BASE.latency.txt" 2>"$RS_WORK/big.workload.log" &
	RS_WORKLOAD_PID=$!
	while ! grep -q "setup complete" "$RS_WORK/big.workload.log"; do
		kill -0 "$RS_WORKLOAD_PID" 2>/dev/null ||
			fail "workload exited during setup: $(cat "$RS_WORK/big.workload.log")"
		sleep 0.5
	done
	sync
	sleep 1

	cat /proc/vmstat >"$BASE.vmstat-before"
	tset tracing_on 1
	kill -USR1 "$RS_WORKLOAD_PID"
	local start=$SECONDS n fill
	while kill -0 "$RS_WORKLOAD_PID" 2>/dev/null; do
		sleep 2
		n=$(entries_now)
		fill=$(max_fill_pct)
		if [ "$n" -ge "$MIN_EVENTS" ] || [ "$fill" -ge "$STOP_FILL_PCT" ]; then
			log "after $((SECONDS - start)) s: $n events, fullest CPU buffer ${fill}%: stopping the workload"
			kill -TERM "$RS_WORKLOAD_PID" 2>/dev/null
			break
		fi
	done
	wait "$RS_WORKLOAD_PID"
	local wrc=$?
	tset tracing_on 0
	local traced=$((SECONDS - start))
	cat /proc/vmstat >"$BASE.vmstat-after"
	RS_WORKLOAD_PID=
	[ "$wrc" = 0 ] || fail "workload failed (exit $wrc): $(cat "$RS_WORK/big.workload.log")"
	sed 's/^/    workload: /' "$RS_WORK/big.workload.log" >>"$LOG"
	stop_hog

	local stats
	stats=$(buffer_stats)
	log "traced for about $traced s, ring buffer: $stats"
	case $stats in
	*" overrun=0 commit_overrun=0 dropped=0") ;;
	*) fail "events were lost ($stats): raise BUFFER_KB or lower STOP_FILL_PCT" ;;
	esac
	n=$(entries_now)
	[ "$n" -ge "$MIN_EVENTS" ] ||
		fail "only $n events after ${MAX_RUNTIME}s (need $MIN_EVENTS): raise MAX_RUNTIME"

	extract_v7 "$tmp"
	mv "$tmp" "$BIG_TRACE"
	log "$BIG_TRACE: $(stat -c %s "$BIG_TRACE") bytes, file version 7, zstd"
	count_events "$BIG_TRACE" | sed 's/^/    events: /' >>"$LOG"
	grep "events: TOTAL" "$LOG" >&2
	echo "$BIG_TRACE"
}

big_main
