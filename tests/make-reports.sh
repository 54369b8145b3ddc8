#!/usr/bin/env bash
# make reports: load the samples into fresh databases and write an evidence
# bundle per sample set with `vmscan-report report`:
#   reports/           every sample but the pressure set's: the wsf set
#                      (samples/wsf*.dat: vm.watermark_scale_factor 10 and
#                      200, no swap)
#   reports/pressure/  the pressure set (samples/zram-*.dat: swap on zram,
#                      throttled writeback, vm.dirty_ratio=80 against
#                      vm.dirty_bytes=32M, and one memcg-limited run)
#   reports/lab/       the lab (make lab, samples/lab/): Linux 6.1 unpatched
#                      (vanilla-N) against patched (patched-N), two NUMA nodes
#   reports/lab-mglru/ the lab: Debian's 6.1 with the classic LRU
#                      (classic-N) against the multi-gen LRU (mglru-N)
# (see samples/README.md and samples/record-samples.sh).
#
# Samples are named NAME-ITERATION.dat (e.g. wsf10-2.dat: the setting
# vm.watermark_scale_factor=10, iteration 2), optionally with
# NAME-ITERATION.latency.txt, the workload's latency report.  NAME becomes
# the "kernel" label of the run, so the comparison table has one column per
# setting.  The databases (DIR/vmscan.db) are not committed (*.db is
# ignored; they are large and rebuilt by this script); the bundles are.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
VR=${VR:-$top/vmscan-report}
# relative paths from the top of the tree, so that the committed files do
# not name the directory of whoever ran it
cd "$top"
samples=${SAMPLES:-samples}
out=${REPORTS:-reports}
export LC_ALL=C
shopt -s nullglob

# bundle DIR DAT...: load DAT... (in the order given: the first setting is
# compare's baseline) into a fresh DIR/vmscan.db and write the bundle to DIR;
# flag_clear (an array of LABEL=RULE, may be unset): the runs labelled LABEL
# are loaded with --flag-clear LABEL=RULE
bundle() {
	local dir=$1 dat base name iter lat fc rule
	shift
	local db=$dir/vmscan.db
	mkdir -p "$dir"
	rm -f "$db" "$db-journal"
	for dat in "$@"; do
		base=$(basename "$dat" .dat)
		name=${base%-*} iter=${base##*-}
		case $iter in
		''|*[!0-9]*) name=$base iter= ;;
		esac
		echo "make-reports: loading $base as kernel '$name'${iter:+ iteration $iter} into $db" >&2
		rule=()
		for fc in ${flag_clear[@]+"${flag_clear[@]}"}; do
			[ "${fc%%=*}" = "$name" ] && rule=(--flag-clear "$fc")
		done
		"$VR" load -q -d "$db" --kernel "$name" ${iter:+--iteration "$iter"} \
			${rule[@]+"${rule[@]}"} "$dat"
		lat=${dat%.dat}.latency.txt
		if [ -s "$lat" ] && "$VR" help | grep -q '^  import-latency '; then
			"$VR" import-latency -q -d "$db" --kernel "$name" ${iter:+--iteration "$iter"} "$lat"
		fi
	done
	if ! "$VR" report -d "$db" -o "$dir"; then
		echo "make-reports: $dir is as it was; a file named above as changed since" \
		     "vmscan-report wrote it may come from a git merge mixing two runs' bundles:" \
		     "check out one side's $dir whole, or delete the files named" >&2
		exit 1
	fi
	echo "make-reports: wrote $dir (index.md)" >&2
}

# by_name DAT...: sorted by name, then iteration number
by_name() {
	printf '%s\n' "$@" | sed -E 's/^(.*)-([0-9]+)\.dat$/\1 \2 &/' |
		sort -k1,1 -k2,2n | cut -d" " -f3-
}

# every sample but the pressure set's (LAB_ONLY=1: only the lab's bundles,
# after a make lab)
main=()
if [ "${LAB_ONLY:-0}" != 1 ]; then
	for dat in "$samples"/*.dat; do
		case $(basename "$dat") in zram-*) ;; *) main+=("$dat") ;; esac
	done
	if [ ${#main[@]} -eq 0 ]; then
		echo "make-reports: no $samples/*.dat to load" >&2
		exit 1
	fi
	mapfile -t main < <(by_name "${main[@]}")
	bundle "$out" "${main[@]}"
fi

# the pressure set: the large dirty limit first (the baseline), then the
# small vm.dirty_bytes, then the memcg run(s)
pressure=()
for g in 'zram-dirtyratio*' 'zram-dirtybytes*' 'zram-memcg*'; do
	set -- "$samples"/$g.dat
	[ $# -gt 0 ] && mapfile -t -O ${#pressure[@]} pressure < <(by_name "$@")
done
if [ ${#pressure[@]} -gt 0 ] && [ "${LAB_ONLY:-0}" != 1 ]; then
	bundle "$out/pressure" "${pressure[@]}"
fi

# the lab's recordings (samples/lab/, made by make lab): the unpatched
# kernel first (the baseline), then the patched one; the classic LRU first,
# then the multi-gen LRU. The lab's patch clears PGDAT_WRITEBACK between two
# kswapd passes (samples/lab/0001-lab-only-*.patch): its runs follow the
# rule balanced-check, not their release's kswapd-sleep
lab_set() {
	local dir=$1 g list=()
	shift
	for g in "$@"; do
		set -- "$samples"/lab/$g-*.dat
		[ $# -gt 0 ] && mapfile -t -O ${#list[@]} list < <(by_name "$@")
	done
	if [ ${#list[@]} -gt 0 ]; then
		bundle "$dir" "${list[@]}"
	fi
}
# (LAB_BUNDLES=0: not these; t4030 needs only the first bundle)
if [ "${LAB_BUNDLES:-1}" != 0 ]; then
	flag_clear=(patched=balanced-check)
	lab_set "$out/lab" vanilla patched
	flag_clear=()
	lab_set "$out/lab-mglru" classic mglru
fi
