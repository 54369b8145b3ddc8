#!/usr/bin/env bash
# report's bundle is one whole: it describes one state of the database
# while loads commit into it, and a signal or a kill at any moment leaves
# the directory either as it was or the new bundle, never a mix of both,
# with no temporary file left.
. "$(dirname "$0")/lib.sh"

# a small text trace: kswapd wakes, one direct stall of pid $1, kswapd sleeps
trace() {
	cat <<EOT
 kswapd0-52    [000]   100.000100: mm_vmscan_kswapd_wake: nid=0 order=0
     dd-$1  [001]   100.000200: mm_vmscan_direct_reclaim_begin: order=0 gfp_flags=GFP_KERNEL
     dd-$1  [001]   100.000300: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 nr_reclaimed=30 nr_dirty=0 nr_writeback=0 nr_congested=0 nr_immediate=0 nr_activate_anon=0 nr_activate_file=0 nr_ref_keep=0 nr_unmap_fail=0 priority=12 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC
     dd-$1  [001]   100.000900: mm_vmscan_direct_reclaim_end: nr_reclaimed=30
 kswapd0-52    [000]   100.002000: mm_vmscan_kswapd_sleep: nid=0
EOT
}

# agree DIR: every file of the bundle names the same runs: runs.txt's ids,
# evidence.db's, summary.txt's "run N:" lines, the timelines in MANIFEST,
# and one compare.txt kernel per run (each run has a kernel of its own;
# compare.txt fits 80 columns, so its kernels come in blocks, each after
# the baseline: the distinct names of the header lines count them)
agree() {
	(cd "$1" && sha256sum -c --quiet MANIFEST) || return 1
	awk 'NR > 1 { print $1 }' "$1/runs.txt" >"$1.runs"
	sqlite3 "$1/evidence.db" "SELECT id FROM run ORDER BY id" >"$1.ev"
	sed -n 's/^run \([0-9]*\): .*/\1/p' "$1/summary.txt" >"$1.sum"
	sed -n 's/.*  timeline-run-\([0-9]*\)\.png$/\1/p' "$1/MANIFEST" | sort -n >"$1.tl"
	test_cmp "$1.runs" "$1.ev" && test_cmp "$1.runs" "$1.sum" && test_cmp "$1.runs" "$1.tl" &&
	test "$(grep -E '^ +k[0-9]+( +k[0-9]+)* *$' "$1/compare.txt" | tr -s ' ' '\n' |
		grep . | sort -u | wc -l)" = "$(wc -l <"$1.runs")"
}

test_expect_success 'report while loads commit: each bundle describes one state, or says why none' '
	for i in $(seq 1 40); do trace $((1000 + i)) >t$i.txt; done &&
	"$VR" load -q -d a.db --kernel k1 t1.txt && "$VR" load -q -d a.db --kernel k2 t2.txt &&
	touch loading
	( i=3; while [ -e loading ] && [ $i -le 40 ]; do
		"$VR" load -q -d a.db --kernel k$i t$i.txt; i=$((i + 1)); done ) &
	loader=$!
	ok=0 &&
	for k in 1 2 3 4 5 6; do
		if "$VR" report -q -d a.db -o b$k 2>err$k; then
			agree b$k || { rm -f loading; wait $loader; echo "b$k mixes states"; exit 1; }
			ok=$((ok + 1))
		else
			grep -q "a.db: changed while the bundle was being written, 3 times" err$k ||
				{ rm -f loading; wait $loader; cat err$k; exit 1; }
			test ! -e b$k/MANIFEST
		fi
	done &&
	rm -f loading && wait $loader &&
	"$VR" report -q -d a.db -o b9 && agree b9 &&
	echo "$ok of 6 bundles while loading" &&
	test "$(wc -l <b9.runs)" -ge 3
'


# whole DIR: no temporary left, every file of MANIFEST as MANIFEST says,
# and no other file of report's
whole() {
	! ls -a "$1" | grep "^\.vmscan-report-" &&
	(cd "$1" && sha256sum -c --quiet MANIFEST) &&
	sed 1d "$1/MANIFEST" | cut -c67- | sort >"$1.listed" &&
	ls "$1" | grep -vx MANIFEST | sort >"$1.present" &&
	test_cmp "$1.listed" "$1.present"
}

test_expect_success 'a signal at each rename of the bundle (SIGINT, SIGTERM, SIGKILL): the old bundle or the new one, whole, and said' '
	cc -shared -fPIC -o crash.so "$TOP/tests/crash-preload.c" -ldl &&
	trace 1001 >t1.txt && trace 1002 >t2.txt &&
	"$VR" load -q -d a.db t1.txt && "$VR" report -q -d a.db -o old &&
	"$VR" load -q -d a.db t2.txt &&
	cp -a old new && "$VR" report -q -d a.db -o new && whole new &&
	n=$(( $(sed 1d new/MANIFEST | wc -l) + 2 )) &&
	for sig in 9 2 15; do
		case $sig in 9) ks=$(seq 1 $n) ;; 2) ks="1 2 $n" ;; 15) ks=3 ;; esac
		for k in $ks; do
			rm -rf d && cp -a old d &&
			rc=0 && VR_SIGNAL_RENAME=$k,$sig LD_PRELOAD=$PWD/crash.so \
				"$VR" report -q -d a.db -o d 2>err || rc=$? &&
			{ test $rc = 1 && whole d; } || { echo "signal $sig at rename $k: exit $rc"; cat err; exit 1; }
			if grep -q "timeline-run-2" d/MANIFEST; then
				grep -q "the bundle is the new one, whole" err
			else
				grep -q "nothing replaced, its temporary files removed, the directory is as it was" err &&
				test_cmp old/MANIFEST d/MANIFEST
			fi || { echo "signal $sig at rename $k:"; cat err; exit 1; }
			! grep -q "inside the libraries" err &&
			"$VR" report -q -d a.db -o d && whole d || exit 1
		done
	done
'
test_expect_success 'Ctrl-C while report draws: exit 1, said, no temporary file left (DIR or TMPDIR), DIR as it was' '
	trace 1001 >t1.txt && trace 1002 >t2.txt &&
	"$VR" load -q -d a.db t1.txt && "$VR" report -q -d a.db -o d &&
	cp d/MANIFEST manifest.before &&
	"$VR" load -q -d a.db t2.txt &&
	mkdir tmp
	TMPDIR=$PWD/tmp setsid "$VR" report -q -d a.db -o d 2>err &
	pid=$!
	for i in $(seq 1 1000); do
		ls -a d | grep -q "^\.vmscan-report-.*\.png" && break
		sleep 0.01
	done
	kill -INT -- -$pid
	rc=0; wait $pid || rc=$?
	test $rc = 1 && grep -q "d: interrupted (signal 2, SIGINT): nothing replaced" err &&
	! grep -q "inside the libraries" err &&
	whole d && test_cmp manifest.before d/MANIFEST &&
	test -z "$(ls -A tmp)"
'
test_expect_success 'a temporary whose writer is a zombie counts as abandoned' '
	trace 1001 >t1.txt && "$VR" load -q -d a.db t1.txt && "$VR" report -q -d a.db -o d &&
	python3 -c "
import os, subprocess, sys, time
child = subprocess.Popen([\"true\"])
time.sleep(0.3)     # exited, not reaped: a zombie
name = \"d/.vmscan-report-%d.compare.txt\" % child.pid
open(name, \"w\").write(\"half\")
assert open(\"/proc/%d/stat\" % child.pid).read().split(\")\")[1].split()[0] == \"Z\"
rc = subprocess.call([sys.argv[1], \"report\", \"-q\", \"-d\", \"a.db\", \"-o\", \"d\"])
left = os.path.exists(name)
child.wait()
sys.exit(1 if rc or left else 0)
" "$VR" &&
	whole d
'
test_done
