#!/bin/bash
# lab.sh - `make lab`: record vmscan traces on real other kernels in QEMU
# guests with two NUMA nodes (samples/lab/, README "The lab").
#
# What it does (as root; never run by make test or make reports):
#   1. kernels, cached in LAB_CACHE (default /var/tmp/vmscan-report-lab):
#      - 6.1 built from Debian's linux-source-6.1 with a trimmed configuration
#        (tinyconfig + guest.config: everything built in, no modules), once
#        unpatched ("vanilla") and once with the lab-only patch
#        0001-lab-only-*.patch ("patched"): the same build tree, so the
#        second build recompiles mm/vmscan.c and relinks;
#      - for the mglru set: Debian's cloud 6.1 image (apt-get download
#        linux-image-6.1.0-NN-cloud-amd64-unsigned, the newest NN apt-cache
#        knows), with its modules zram, virtio_blk, ... (CONFIG_LRU_GEN=y,
#        off by default)
#   2. an initramfs: busybox (static), the host's trace-cmd with the
#      libraries ldd names, simoop-lite built static from samples/workload,
#      guest-init.sh, guest-run.sh, guest-phase.sh and the settings below;
#      the workload's files made on the host into a cached ext4 image;
#   3. for each run a guest: QEMU (TCG, one vCPU, -icount: the guest's
#      clocks count its instructions, so its timing does not follow the
#      host's load) with two NUMA nodes of GUEST_MB/2 each (node 0 with
#      the CPU, node 1 memory only); zram swap; a copy-on-write overlay
#      (qcow2) of the ext4 image as a virtio disk for the page cache (its
#      writes throttled to DISK_WRITE_KBPS in the guest by cgroup io.max,
#      in guest time); a raw virtio disk on
#      which the guest writes a tar archive of its results;
#   4. the results into OUT_DIR (default samples/lab/): NAME.dat (trace-cmd,
#      mono clock, zstd), NAME.dat.snap/ (start-/end- vmstat, nodeN-vmstat,
#      zoneinfo, pressure-memory, lru_gen-enabled), NAME.latency.txt (simoop-lite's
#      report, for import-latency), NAME.log (the guest's serial console:
#      kernel messages and guest-run.sh's log) and lab.log.
#
# Sets (LAB_SETS, default "patch mglru"): the patch set ITERATIONS (default
# 10) runs of each kernel, the mglru set MGLRU_ITERATIONS (default 3)
# (FIRST_ITERATION=11 ITERATIONS=13: only runs 11 to 13, added to a set),
# the runs of a set interleaved; with both sets the mglru set's guests run
# beside the patch set's kernel build and guests (Debian's kernel needs no
# build; each guest's clock counts its own instructions, so a busy host
# changes how long a run takes, not what it records):
#   patch   vanilla-N and patched-N: the lab's 6.1 unpatched and patched,
#           classic LRU
#   mglru   classic-N and mglru-N: Debian's cloud 6.1 with
#           /sys/kernel/mm/lru_gen/enabled n and y
#
# Nothing on the host changes but files in LAB_CACHE and OUT_DIR (and
# Debian packages apt-get installs when missing); the guest is thrown away.
# QEMU runs under nice and timeout; on error, Ctrl-C or SIGTERM the running
# guest is killed and no process outlives the script.
set -eu
set -o pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
TOP=${TOP:-$(cd "$SCRIPT_DIR/../.." && pwd)}
LAB_CACHE=${LAB_CACHE:-/var/tmp/vmscan-report-lab}
OUT_DIR=${OUT_DIR:-$SCRIPT_DIR}
LAB_SETS=${LAB_SETS:-"patch mglru"}
ITERATIONS=${ITERATIONS:-10}
MGLRU_ITERATIONS=${MGLRU_ITERATIONS:-3}
FIRST_ITERATION=${FIRST_ITERATION:-1} # the runs are NAME-FIRST_ITERATION .. NAME-ITERATIONS
JOBS=${JOBS:-2}                     # make -j of the kernel build
NICE=${NICE:-19}                    # the kernel build and QEMU run under nice -n NICE
RUN_TIMEOUT=${RUN_TIMEOUT:-1200}    # s: a guest still running then is killed
PATCH=${PATCH:-$SCRIPT_DIR/0001-lab-only-kswapd-forgets-PGDAT_WRITEBACK-after-throttling-on-it.patch}
CONFIG_FRAGMENT=$SCRIPT_DIR/guest.config
# The guest
GUEST_MB=${GUEST_MB:-384}           # two nodes of GUEST_MB/2 (the CPU on node 0)
DISK_MB=${DISK_MB:-4096}            # the ext4 data disk (sparse file)
DISK_WRITE_KBPS=${DISK_WRITE_KBPS:-1024} # its write limit in KiB/s of guest time (io.max wbps)
ICOUNT_SHIFT=${ICOUNT_SHIFT:-3}     # QEMU -icount shift: 2^N ns of guest time per instruction
# The workload (guest-run.sh; simoop-lite's options)
ZRAM_SIZE=${ZRAM_SIZE:-256M}
SWAPPINESS=${SWAPPINESS:-10}
DIRTY_BYTES=${DIRTY_BYTES:-$((96 << 20))}
DIRTY_BG_BYTES=${DIRTY_BG_BYTES:-$((8 << 20))}
HOG_MB=${HOG_MB:-0}                 # mlocked hog per node (0: none, the guest is small)
PREFILL=${PREFILL:-1}               # 1: read the readers' files once before the start
DIRTY_PREFILL_MB=${DIRTY_PREFILL_MB:-32} # MB of each writer's file dirtied before the start
RUNTIME=${RUNTIME:-120}             # s measured (traced); 30 s saw only the start of the writeback
WARMUP=${WARMUP:-5}                 # s of it not in the latency statistics
INTERVAL=${INTERVAL:-5}
READERS=${READERS:-1}
WRITERS=${WRITERS:-2}
ALLOCATORS=${ALLOCATORS:-2}
FILE_MB=${FILE_MB:-256}
ALLOC_MB=${ALLOC_MB:-64}
ALLOC_CHUNK_KB=${ALLOC_CHUNK_KB:-1024}
ALLOC_PAUSE_MS=${ALLOC_PAUSE_MS:-100}
READ_RATE=${READ_RATE:-0}
WRITE_RATE=${WRITE_RATE:-0}
BUFFER_KB=${BUFFER_KB:-8192}        # trace-cmd -b, per CPU
TRACE_CLOCK=${TRACE_CLOCK:-mono}

SRC_TAR=/usr/src/linux-source-6.1.tar.xz
SRC_DIR=$LAB_CACHE/linux-source-6.1
BUILD_DIR=$LAB_CACHE/build-6.1
KERNELS=$LAB_CACHE/kernels
LOG=${LOG:-$OUT_DIR/lab.log}
QEMU_PID=
SET_PID=                            # the mglru set's subshell, beside the patch set
WORK=

log() { echo "lab: $*" | tee -a "$LOG" >&2; }
die() { log "error: $*"; exit 1; }

# stop_guest: the running guest of this shell (timeout passes SIGTERM on
# to QEMU), waited for
stop_guest() {
	if [ -n "$QEMU_PID" ] && kill -0 "$QEMU_PID" 2>/dev/null; then
		log "stopping the guest (pid $QEMU_PID)"
		kill "$QEMU_PID" 2>/dev/null || true
		wait "$QEMU_PID" 2>/dev/null || true
	fi
	QEMU_PID=
}

cleanup() {
	local rc=$?
	trap - EXIT INT TERM
	stop_guest
	if [ -n "$SET_PID" ] && kill -0 "$SET_PID" 2>/dev/null; then
		kill "$SET_PID" 2>/dev/null || true
		wait "$SET_PID" 2>/dev/null || true
	fi
	if [ -n "$WORK" ]; then rm -rf "$WORK"; fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Debian packages the lab needs, installed when missing (as make deps does).
ensure_packages() {
	local need=() p
	for p in qemu-system-x86 qemu-utils busybox-static trace-cmd gcc make flex bison bc \
		 libelf-dev libssl-dev cpio e2fsprogs xz-utils kmod; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || need+=("$p")
	done
	case " $LAB_SETS " in *" patch "*)
		[ -f "$SRC_TAR" ] || need+=(linux-source-6.1) ;;
	esac
	[ ${#need[@]} = 0 ] && return 0
	log "installing Debian packages: ${need[*]}"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >&2
}

# build_kernel KIND (vanilla|patched): prints the cached bzImage's path.
# One build tree: the patched build is the vanilla tree with the patch
# applied (mm/vmscan.c recompiles), reverted again afterwards.
build_kernel() {
	local kind=$1 key out t0
	# the cache key: the source package's version, the configuration, the patch
	key=$( { dpkg-query -W -f='${Version}' linux-source-6.1; cat "$CONFIG_FRAGMENT"
		 if [ "$kind" = patched ]; then cat "$PATCH"; fi; } | sha256sum | cut -c1-12)
	out=$KERNELS/6.1-$kind-$key.bzImage
	if [ -f "$out" ]; then
		log "kernel 6.1 $kind: cached ($out)"
		echo "$out"
		return 0
	fi
	mkdir -p "$KERNELS"
	if [ ! -f "$SRC_DIR/Makefile" ]; then
		log "extracting $SRC_TAR"
		rm -rf "$SRC_DIR"
		tar -xf "$SRC_TAR" -C "$LAB_CACHE"
	fi
	# a patch left applied by an interrupted build goes first
	if patch -p1 -R --dry-run -s -d "$SRC_DIR" < "$PATCH" >/dev/null 2>&1; then
		patch -p1 -R -s -d "$SRC_DIR" < "$PATCH"
	fi
	mkdir -p "$BUILD_DIR"
	if ! cmp -s "$CONFIG_FRAGMENT" "$BUILD_DIR/guest.config"; then
		log "configuring 6.1 (tinyconfig + guest.config)"
		make -s -C "$SRC_DIR" O="$BUILD_DIR" tinyconfig >/dev/null
		"$SRC_DIR/scripts/kconfig/merge_config.sh" -m -O "$BUILD_DIR" \
			"$BUILD_DIR/.config" "$CONFIG_FRAGMENT" >/dev/null
		make -s -C "$SRC_DIR" O="$BUILD_DIR" olddefconfig >/dev/null
		cp "$CONFIG_FRAGMENT" "$BUILD_DIR/guest.config"
	fi
	if [ "$kind" = patched ]; then patch -p1 -s -d "$SRC_DIR" < "$PATCH"; fi
	t0=$(date +%s)
	log "building 6.1 $kind (make -j$JOBS bzImage under nice -n $NICE; log $BUILD_DIR/build-$kind.log)"
	if ! nice -n "$NICE" make -C "$SRC_DIR" O="$BUILD_DIR" -j"$JOBS" bzImage \
			> "$BUILD_DIR/build-$kind.log" 2>&1; then
		if [ "$kind" = patched ]; then patch -p1 -R -s -d "$SRC_DIR" < "$PATCH"; fi
		tail -20 "$BUILD_DIR/build-$kind.log" >&2
		die "kernel build failed"
	fi
	if [ "$kind" = patched ]; then patch -p1 -R -s -d "$SRC_DIR" < "$PATCH"; fi
	cp "$BUILD_DIR/arch/x86/boot/bzImage" "$out.tmp" && mv "$out.tmp" "$out"
	log "kernel 6.1 $kind built in $(( $(date +%s) - t0 )) s ($(grep -c '^  CC ' "$BUILD_DIR/build-$kind.log") objects compiled)"
	echo "$out"
}

# debian_kernel: prints the directory holding Debian's cloud 6.1 image
# (boot/vmlinuz-*, lib/modules/*), downloaded and extracted once.
debian_kernel() {
	local pkg dir
	pkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-cloud-amd64-unsigned$' \
		| awk '{ print $1 }' | sort -V | tail -1)
	[ -n "$pkg" ] || { apt-get update -qq; pkg=$(apt-cache search --names-only \
		'^linux-image-6\.1\.0-[0-9]+-cloud-amd64-unsigned$' | awk '{ print $1 }' | sort -V | tail -1); }
	[ -n "$pkg" ] || die "no linux-image-6.1.0-NN-cloud-amd64-unsigned in apt-cache"
	dir=$LAB_CACHE/debian/$pkg
	if [ ! -d "$dir/boot" ]; then
		log "downloading $pkg"
		mkdir -p "$LAB_CACHE/debian"
		(cd "$LAB_CACHE/debian" && apt-get download "$pkg" >&2)
		rm -rf "$dir.tmp" && mkdir -p "$dir.tmp"
		dpkg-deb -x "$LAB_CACHE/debian/${pkg}"_*.deb "$dir.tmp"
		depmod -b "$dir.tmp" "$(ls "$dir.tmp/lib/modules")"
		mv "$dir.tmp" "$dir"
	fi
	echo "$dir"
}

# modules_in_order DIR MOD...: the modules' paths (relative to
# lib/modules/VERSION), dependencies first, each once (modules.dep).
modules_in_order() {
	local dir=$1; shift
	local mdir dep m
	mdir=$(echo "$dir"/lib/modules/*)
	for m in "$@"; do
		dep=$(grep -E "/$m\.ko(\.[a-z]+)?:" "$mdir/modules.dep") || die "no module $m in $mdir"
		# modules.dep names the module, then its dependencies (the last
		# one loads first)
		echo "$dep" | tr -d ':' | tr ' ' '\n' | tac
	done | awk '!seen[$0]++'
}

simoop_static() {
	local out=$LAB_CACHE/simoop-lite
	if [ ! -x "$out" ] || [ "$TOP/samples/workload/simoop-lite.c" -nt "$out" ]; then
		gcc -O2 -static -pthread -Wall -Wextra -Werror -o "$out.tmp" \
			"$TOP/samples/workload/simoop-lite.c" && mv "$out.tmp" "$out"
	fi
	echo "$out"
}

# make_initramfs OUT [DEBIAN_DIR]: the guest's userland
make_initramfs() {
	local out=$1 debdir=${2:-} root lib
	root=$WORK/root-$(basename "$out")
	rm -rf "$root"
	mkdir -p "$root"/{bin,lab,proc,sys,dev,tmp,out,data,lib64,lib/x86_64-linux-gnu}
	cp /bin/busybox "$root/bin/busybox"
	cp "$SCRIPT_DIR/guest-init.sh" "$root/init"
	cp "$SCRIPT_DIR/guest-run.sh" "$SCRIPT_DIR/guest-phase.sh" "$root/lab/"
	chmod 755 "$root/init"
	cp "$(simoop_static)" "$root/lab/simoop-lite"
	cp "$(command -v trace-cmd)" "$root/lab/trace-cmd"
	for lib in $(ldd "$(command -v trace-cmd)" | awk '/=>/ { print $3 } /^\t\/lib64/ { print $1 }'); do
		case $lib in
		*/ld-linux*) cp -L "$lib" "$root/lib64/" ;;
		*) cp -L "$lib" "$root/lib/x86_64-linux-gnu/" ;;
		esac
	done
	cat > "$root/lab/settings" <<-EOF
	ZRAM_SIZE=$ZRAM_SIZE
	SWAPPINESS=$SWAPPINESS
	DIRTY_BYTES=$DIRTY_BYTES
	DIRTY_BG_BYTES=$DIRTY_BG_BYTES
	HOG_MB=$HOG_MB
	PREFILL=$PREFILL
	DIRTY_PREFILL_MB=$DIRTY_PREFILL_MB
	RUNTIME=$RUNTIME
	WARMUP=$WARMUP
	INTERVAL=$INTERVAL
	READERS=$READERS
	WRITERS=$WRITERS
	ALLOCATORS=$ALLOCATORS
	FILE_MB=$FILE_MB
	ALLOC_MB=$ALLOC_MB
	ALLOC_CHUNK_KB=$ALLOC_CHUNK_KB
	ALLOC_PAUSE_MS=$ALLOC_PAUSE_MS
	DISK_WRITE_KBPS=$DISK_WRITE_KBPS
	READ_RATE=$READ_RATE
	WRITE_RATE=$WRITE_RATE
	BUFFER_KB=$BUFFER_KB
	TRACE_CLOCK=$TRACE_CLOCK
	NAME=unnamed
	LRU_GEN=n
	EOF
	if [ -n "$debdir" ]; then
		local mdir m
		mdir=$(echo "$debdir"/lib/modules/*)
		modules_in_order "$debdir" virtio_pci virtio_blk zram lzo-rle > "$root/lab/modules.list"
		while read -r m; do
			mkdir -p "$root/lib/modules/$(dirname "$m")"
			cp "$mdir/$m" "$root/lib/modules/$m"
		done < "$root/lab/modules.list"
	fi
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$out"
}

# data_image: prints the path of the cached ext4 image holding the
# workload's files (simoop-lite.data.N, FILE_MB each, readers' first), made
# on the host once (mkfs.ext4 -d): a TCG guest writes them at a few MB/s.
data_image() {
	local key img dir n
	key=$DISK_MB-$READERS-$WRITERS-$FILE_MB
	img=$LAB_CACHE/data-$key.img
	if [ ! -f "$img" ]; then
		log "making the data disk image ($((READERS + WRITERS)) files of $FILE_MB MB)"
		dir=$WORK/datafiles
		mkdir -p "$dir"
		for n in $(seq 0 $((READERS + WRITERS - 1))); do
			# (yes ends on SIGPIPE when head has its bytes: not an error)
			(set +o pipefail; yes "simoop-lite data file $n" | head -c "$((FILE_MB << 20))") \
				> "$dir/simoop-lite.data.$n"
		done
		rm -f "$img.tmp"
		truncate -s "${DISK_MB}M" "$img.tmp"
		mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 -d "$dir" "$img.tmp"
		rm -rf "$dir"
		mv "$img.tmp" "$img"
	fi
	echo "$img"
}

# run_guest NAME KERNEL INITRD LRU_GEN(y|n): one recording into OUT_DIR;
# a guest that gave no trace (a boot that failed on a slow host) is booted
# once more
run_guest() {
	# (called as a condition, so set -e does not apply inside: each step
	# that can fail says so itself)
	if ! run_guest_once "$@"; then
		log "$1: booting it once more"
		run_guest_once "$@"
	fi
}

run_guest_once() {
	local name=$1 kernel=$2 initrd=$3 lru_gen=$4
	local w=$WORK/guest-$name
	local data=$w/data.qcow2 outimg=$w/out.img half=$((GUEST_MB / 2))
	local t0 rc
	rm -rf "$w" && mkdir -p "$w/res" || return 1
	t0=$(date +%s)
	# a copy-on-write overlay of the data disk: every run starts from the
	# same files, and the cached image is never written
	qemu-img create -q -f qcow2 -F raw -b "$(data_image)" "$data" || return 1
	truncate -s 256M "$outimg" || return 1
	log "$name: booting $(basename "$kernel"), lru_gen=$lru_gen"
	# -icount: the guest's clocks count its instructions (2^ICOUNT_SHIFT ns
	# each; sleep=off: an idle guest's time jumps to its next timer), so
	# what the guest does in a second of its time does not depend on how
	# busy the host is. One vCPU: with -icount (one TCG thread) QEMU 7.2's
	# second vCPU never came up (the guest hung at "x86: Booting SMP
	# configuration"); node 1 has memory and its own kswapd, no CPU
	timeout -k 10 "$RUN_TIMEOUT" nice -n "$NICE" qemu-system-x86_64 \
		-accel tcg,thread=single -icount shift="$ICOUNT_SHIFT",sleep=off -rtc clock=vm \
		-cpu max -smp 1 -m "$GUEST_MB" \
		-object memory-backend-ram,id=m0,size=${half}M \
		-object memory-backend-ram,id=m1,size=${half}M \
		-numa node,nodeid=0,cpus=0,memdev=m0 -numa node,nodeid=1,memdev=m1 \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 loglevel=4 no_timer_check lab.name=$name lab.lru_gen=$lru_gen" \
		-drive "file=$data,format=qcow2,if=virtio,cache=unsafe" \
		-drive "file=$outimg,format=raw,if=virtio" \
		-display none -serial "file:$w/console.log" -monitor none -no-reboot &
	QEMU_PID=$!
	rc=0
	wait "$QEMU_PID" || rc=$?
	QEMU_PID=
	if ! tar -xf "$outimg" -C "$w/res" 2>/dev/null || [ ! -s "$w/res/$name.dat" ]; then
		cp "$w/console.log" "$OUT_DIR/$name.failed.log" 2>/dev/null || true
		tail -40 "$w/console.log" >&2 || true
		log "$name: no trace from the guest after $(( $(date +%s) - t0 )) s (qemu exit $rc; console in $OUT_DIR/$name.failed.log)"
		return 1
	fi
	# a trace whose recorder never read the ring buffer (seen once: the
	# kernel's buffer overran, the file held no event) is a failed run,
	# however well the guest ended
	if ! trace_whole "$w/res/$name.dat"; then
		cp "$w/console.log" "$OUT_DIR/$name.failed.log" 2>/dev/null || true
		log "$name: the trace lost events or holds no vmscan event (trace-cmd report --stat:" \
		    "$(trace-cmd report --stat "$w/res/$name.dat" 2>/dev/null | grep -E 'overrun|read events' | tr -s ' \n' ' ')); console in $OUT_DIR/$name.failed.log"
		return 1
	fi
	rm -rf "$OUT_DIR/$name.dat" "$OUT_DIR/$name.dat.snap" "$OUT_DIR/$name.failed.log"
	cp "$w/res/$name.dat" "$OUT_DIR/" &&
	cp -r "$w/res/$name.dat.snap" "$OUT_DIR/" &&
	cp "$w/res/$name.latency.txt" "$OUT_DIR/" &&
	# the serial console: the kernel's messages and guest-run.sh's log
	cp "$w/console.log" "$OUT_DIR/$name.log" || die "$name: cannot copy the results into $OUT_DIR"
	log "$name: $(stat -c %s "$OUT_DIR/$name.dat") bytes in $(( $(date +%s) - t0 )) s (qemu exit $rc)"
	rm -rf "$w"
}

# trace_whole DAT: DAT lost no event (the ring buffer's overrun, as
# trace-cmd report --stat shows it per CPU, is 0 on every CPU) and holds a
# vmscan event
trace_whole() {
	local stat
	stat=$(trace-cmd report --stat "$1" 2>/dev/null) || return 1
	if echo "$stat" | grep -Eq '^overrun: *[1-9]'; then return 1; fi
	# (grep -c reads to the end: grep -q would end trace-cmd by SIGPIPE,
	# a failure under pipefail)
	[ "$(trace-cmd report "$1" 2>/dev/null | grep -c ' mm_vmscan_')" -gt 0 ]
}

# run_patch_set: the lab's 6.1 built unpatched and patched (built here
# when not cached), vanilla-N and patched-N interleaved
run_patch_set() {
	local vanilla patched initrd i
	vanilla=$(build_kernel vanilla)
	patched=$(build_kernel patched)
	initrd=$WORK/initramfs.cpio.gz
	make_initramfs "$initrd"
	for i in $(seq "$FIRST_ITERATION" "$ITERATIONS"); do
		run_guest "vanilla-$i" "$vanilla" "$initrd" n
		run_guest "patched-$i" "$patched" "$initrd" n
	done
}

# run_mglru_set: Debian's cloud 6.1, classic-N and mglru-N interleaved
run_mglru_set() {
	local debdir initrd i
	debdir=$(debian_kernel)
	initrd=$WORK/initramfs-debian.cpio.gz
	make_initramfs "$initrd" "$debdir"
	for i in $(seq "$FIRST_ITERATION" "$MGLRU_ITERATIONS"); do
		run_guest "classic-$i" "$(echo "$debdir"/boot/vmlinuz-*)" "$initrd" n
		run_guest "mglru-$i" "$(echo "$debdir"/boot/vmlinuz-*)" "$initrd" y
	done
}

main() {
	[ "$(id -u)" = 0 ] || die "run as root (make lab)"
	mkdir -p "$OUT_DIR" "$LAB_CACHE"
	: > "$LOG"
	local start patch=0 mglru=0 rc=0
	start=$(date +%s)
	case " $LAB_SETS " in *" patch "*) patch=1 ;; esac
	case " $LAB_SETS " in *" mglru "*) mglru=1 ;; esac
	log "$(date -u '+%F %T') UTC: LAB_SETS='$LAB_SETS' iterations $FIRST_ITERATION-$ITERATIONS (mglru $FIRST_ITERATION-$MGLRU_ITERATIONS) GUEST_MB=$GUEST_MB cache $LAB_CACHE"
	log "workload: guest $GUEST_MB MB in two nodes, hog ${HOG_MB} MB x 2 (mlocked), prefill $PREFILL, dirty prefill $DIRTY_PREFILL_MB MB per writer, simoop-lite -r $RUNTIME -w $WARMUP -R $READERS -W $WRITERS -A $ALLOCATORS -f $FILE_MB -a $ALLOC_MB -c $ALLOC_CHUNK_KB -p $ALLOC_PAUSE_MS -t $READ_RATE -T $WRITE_RATE; zram $ZRAM_SIZE, swappiness $SWAPPINESS, dirty_bytes $DIRTY_BYTES, dirty_background_bytes $DIRTY_BG_BYTES, disk writes $DISK_WRITE_KBPS KiB/s (io.max), icount shift $ICOUNT_SHIFT"
	ensure_packages
	WORK=$(mktemp -d /var/tmp/vmscan-report-lab-run.XXXXXX)
	data_image > /dev/null	# made once, before two sets could race to make it
	if [ $patch = 1 ] && [ $mglru = 1 ]; then
		# the mglru set beside the patch set: its own shell, which stops
		# its guest when it is stopped
		( trap 'stop_guest' EXIT; trap 'exit 143' TERM; trap 'exit 130' INT
		  run_mglru_set ) &
		SET_PID=$!
		run_patch_set
		wait "$SET_PID" || rc=$?
		SET_PID=
		[ $rc = 0 ] || die "the mglru set failed (exit $rc)"
	elif [ $patch = 1 ]; then
		run_patch_set
	elif [ $mglru = 1 ]; then
		run_mglru_set
	fi
	log "done in $(( $(date +%s) - start )) s"
}

# (one line: bash reads a script as it runs it; an edit of this file while
# it runs must not make it run more)
if [ "${LAB_LIBRARY_ONLY:-0}" != 1 ]; then main "$@"; exit $?; fi
