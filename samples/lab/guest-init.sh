#!/bin/busybox sh
# guest-init.sh - /init of the lab's initramfs (busybox; see lab.sh).
# Mounts what the guest needs, loads the modules listed in /lab/modules.list
# (Debian's kernel; the lab's own kernel has everything built in), runs
# /lab/guest-run.sh, writes everything under /out as a tar archive onto the
# second virtio disk (/dev/vdb, raw: the host reads it with tar) and powers
# the guest off.  Nothing here outlives the guest.
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing
mkdir -p /tmp /out /data
mount -t tmpfs tmpfs /tmp
if [ -f /lab/modules.list ]; then
	while read -r mod; do
		insmod "/lib/modules/$mod" || echo "lab: insmod $mod failed"
	done < /lab/modules.list
fi
# its log goes to the console too (the host's NAME.console.log)
{ sh /lab/guest-run.sh; echo "lab: guest-run.sh exit $?"; } 2>&1 | tee /out/guest-run.log
sync
# the archive goes onto the raw output disk; the host untars it
tar -cf /dev/vdb -C /out . && sync && echo "lab: results written"
poweroff -f
