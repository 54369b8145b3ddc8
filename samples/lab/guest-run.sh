#!/bin/sh
# guest-run.sh - one lab recording inside the guest (see lab.sh): settings
# from /lab/settings and the kernel command line (lab.name=, lab.lru_gen=).
# zram swap, the ext4 data disk (its writes throttled by io.max), two mlocked hogs (one per node, pinned to
# that node's CPU), simoop-lite (readers, writers, allocators), and
# trace-cmd recording vmscan, compaction and kswapd's sched events while
# guest-phase.sh stamps the snapshots and runs the measured part.
set -u
. /lab/settings
for w in $(cat /proc/cmdline); do
	case $w in
	lab.name=*) NAME=${w#lab.name=} ;;
	lab.lru_gen=*) LRU_GEN=${w#lab.lru_gen=} ;;
	esac
done
echo "lab: run $NAME on $(uname -r) ($(uname -v)), lru_gen=$LRU_GEN"
echo "lab: nodes: $(ls -d /sys/devices/system/node/node* | tr '\n' ' ')"
for n in /sys/devices/system/node/node*; do
	echo "lab: $(basename $n): cpus $(cat $n/cpulist), $(grep MemTotal $n/meminfo)"
done
if [ -e /sys/kernel/mm/lru_gen/enabled ]; then
	echo "$LRU_GEN" > /sys/kernel/mm/lru_gen/enabled
	echo "lab: lru_gen/enabled = $(cat /sys/kernel/mm/lru_gen/enabled)"
fi
# The disk's writes are throttled in the guest, on its own clock (QEMU's
# -icount): cgroup v2's io.max wbps for a group holding this script and
# every process it starts; with the memory controller on, writeback is
# charged to the group that dirtied the pages (CONFIG_CGROUP_WRITEBACK), so
# the flusher's writes of the workload's files are throttled too and
# pages wait under writeback meanwhile. No memory limit: reclaim is global.
mkdir -p /sys/fs/cgroup && mount -t cgroup2 cgroup2 /sys/fs/cgroup || exit 1
echo "+io +memory" > /sys/fs/cgroup/cgroup.subtree_control || exit 1
mkdir /sys/fs/cgroup/lab && echo $$ > /sys/fs/cgroup/lab/cgroup.procs || exit 1
echo "$(cat /sys/block/vda/dev) wbps=$((DISK_WRITE_KBPS * 1024))" > /sys/fs/cgroup/lab/io.max || exit 1
echo "lab: cgroup lab: io.max $(cat /sys/fs/cgroup/lab/io.max)"
echo "$ZRAM_SIZE" > /sys/block/zram0/disksize || exit 1
mkswap /dev/zram0 > /dev/null && swapon /dev/zram0 || exit 1
mount -t ext4 -o noatime /dev/vda /data || exit 1
sysctl -w vm.swappiness="$SWAPPINESS" vm.dirty_bytes="$DIRTY_BYTES" \
	vm.dirty_background_bytes="$DIRTY_BG_BYTES" > /dev/null || exit 1
echo "lab: sysctl vm.swappiness=$SWAPPINESS vm.dirty_bytes=$DIRTY_BYTES vm.dirty_background_bytes=$DIRTY_BG_BYTES"

# the guest is small (the nodes run short by themselves); HOG_MB > 0 adds
# one mlocked hog per node
for cpu in 0 1; do
	[ "$HOG_MB" -gt 0 ] || break
	taskset -c $cpu /lab/simoop-lite --hog-only -H "$HOG_MB" -L 0 -F 16 --mlock -r 0 \
		> /dev/null 2> /tmp/hog$cpu.err &
	HOGS="${HOGS:-} $!"
done
# the hogs go when this script ends (their output would hold the console's
# pipe open)
trap 'kill ${HOGS:-} 2>/dev/null' EXIT
for i in $(seq 600); do
	[ "$HOG_MB" -gt 0 ] || break
	[ "$(cat /tmp/hog0.err /tmp/hog1.err | grep -c 'hog ready')" = 2 ] && break
	sleep 0.2
done
[ "$HOG_MB" -gt 0 ] && cat /tmp/hog0.err /tmp/hog1.err

/lab/simoop-lite --wait-start --use-files -d /data -r "$RUNTIME" -w "$WARMUP" -i "$INTERVAL" \
	-R "$READERS" -W "$WRITERS" -A "$ALLOCATORS" -f "$FILE_MB" -a "$ALLOC_MB" \
	-c "$ALLOC_CHUNK_KB" -p "$ALLOC_PAUSE_MS" -t "$READ_RATE" -T "$WRITE_RATE" \
	> "/out/$NAME.latency.txt" 2> /tmp/workload.err &
WPID=$!
for i in $(seq 3000); do
	grep -q 'setup complete' /tmp/workload.err && break
	kill -0 $WPID 2>/dev/null || { cat /tmp/workload.err; exit 1; }
	sleep 0.2
done
# the last DIRTY_PREFILL_MB of each writer's file dirtied (not synced)
# first, then the page cache filled with the readers' files (the first
# READERS): the measured part starts at the watermarks with the dirty pages
# and pages under writeback (the disk writes at DISK_WRITE_MBPS) the oldest
# on the inactive file LRU, where reclaim meets them first; the writers
# start at offset 0, so these pages are written once and not activated
if [ "$DIRTY_PREFILL_MB" -gt 0 ]; then
	for n in $(seq "$READERS" $((READERS + WRITERS - 1))); do
		dd if=/dev/zero of=/data/simoop-lite.data.$n bs=1M count="$DIRTY_PREFILL_MB" \
			seek=$((FILE_MB - DIRTY_PREFILL_MB)) conv=notrunc 2> /dev/null
	done
fi
if [ "$PREFILL" = 1 ]; then
	for n in $(seq 0 $((READERS - 1))); do
		cat /data/simoop-lite.data.$n > /dev/null
	done
fi
grep -E '^(Dirty|Writeback):' /proc/meminfo
free -m
mkdir -p "/out/$NAME.dat.snap"
/lab/trace-cmd record -q -C "$TRACE_CLOCK" -b "$BUFFER_KB" --compression zstd \
	-o "/out/$NAME.dat" \
	-e vmscan \
	-e compaction:mm_compaction_begin -e compaction:mm_compaction_end \
	-e sched:sched_switch -f 'prev_comm ~ "kswapd*" || next_comm ~ "kswapd*"' \
	-e sched:sched_wakeup -f 'comm ~ "kswapd*"' \
	sh /lab/guest-phase.sh "$WPID" "/out/$NAME.dat.snap"
rc=$?
cat /tmp/workload.err
echo "lab: trace-cmd exit $rc"
ls -l /out "/out/$NAME.dat.snap"
exit $rc
