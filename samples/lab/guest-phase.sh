#!/bin/sh
# guest-phase.sh WPID SNAPDIR - the command trace-cmd records (guest side of
# lab.sh): the start snapshot, the workload's measured part (SIGUSR1 starts
# it; this waits until it exits), the end snapshot.  At each snapshot a
# line "vmscan-report: snapshot start|end" goes to trace_marker first, so the
# trace stamps the moment on its own clock.
WPID=$1
SNAP=$2
snapshot() {
	echo "vmscan-report: snapshot $1" > /sys/kernel/tracing/trace_marker
	cat /proc/vmstat > "$SNAP/$1-vmstat"
	# each node's counters (zone and node items, no events): nodeN-vmstat
	for n in /sys/devices/system/node/node[0-9]*; do
		cat "$n/vmstat" > "$SNAP/$1-${n##*/}-vmstat"
	done
	cat /proc/zoneinfo > "$SNAP/$1-zoneinfo"
	cat /proc/pressure/memory > "$SNAP/$1-pressure-memory"
	if [ -e /sys/kernel/mm/lru_gen/enabled ]; then
		cat /sys/kernel/mm/lru_gen/enabled > "$SNAP/$1-lru_gen-enabled"
	fi
}
sleep 1
snapshot start
kill -USR1 "$WPID"
# the workload is guest-run.sh's child: once it exits it stays a zombie
# until that shell waits for it, so look at its state, not only at kill -0
while [ -e "/proc/$WPID" ] && ! grep -q '^State:.*Z' "/proc/$WPID/status" 2>/dev/null; do
	sleep 0.1
done
snapshot end
sleep 0.5
