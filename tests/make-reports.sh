#!/usr/bin/env bash
# make reports: load samples/ into a fresh reports/vmscan.db and write the
# evidence bundle into reports/ with `vmscan-report report`.
#
# Samples are named NAME-ITERATION.dat (e.g. wsf10-2.dat: the setting
# vm.watermark_scale_factor=10, iteration 2, see samples/record-samples.sh),
# optionally with NAME-ITERATION.latency.txt, the workload's latency report.
# NAME becomes the "kernel" label of the run, so the comparison table has
# one column per setting.  The database is not committed (*.db is ignored;
# it is large and rebuilt by this script); the bundle is.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
VR=${VR:-$top/vmscan-report}
# relative paths from the top of the tree, so that the committed files do
# not name the directory of whoever ran it
cd "$top"
samples=${SAMPLES:-samples}
out=${REPORTS:-reports}
db=$out/vmscan.db
export LC_ALL=C

shopt -s nullglob
dats=("$samples"/*.dat)
if [ ${#dats[@]} -eq 0 ]; then
	echo "make-reports: no samples/*.dat to load" >&2
	exit 1
fi
mkdir -p "$out"
rm -f "$db" "$db-journal"

# Sort by name then iteration number so that the first setting is the baseline.
mapfile -t dats < <(printf '%s\n' "${dats[@]}" |
	sed -E 's/^(.*)-([0-9]+)\.dat$/\1 \2 &/' | sort -k1,1 -k2,2n | cut -d" " -f3-)
for dat in "${dats[@]}"; do
	base=$(basename "$dat" .dat)
	name=${base%-*} iter=${base##*-}
	case $iter in
	''|*[!0-9]*) name=$base iter= ;;
	esac
	echo "make-reports: loading $base as kernel '$name'${iter:+ iteration $iter}" >&2
	"$VR" load -q -d "$db" --kernel "$name" ${iter:+--iteration "$iter"} "$dat"
	lat=$samples/$base.latency.txt
	if [ -s "$lat" ] && "$VR" help | grep -q '^  import-latency '; then
		"$VR" import-latency -q -d "$db" --kernel "$name" ${iter:+--iteration "$iter"} "$lat"
	fi
done
if ! "$VR" report -d "$db" -o "$out"; then
	echo "make-reports: $out is as it was; a file named above as changed since" \
	     "vmscan-report wrote it may come from a git merge mixing two runs' bundles:" \
	     "check out one side's $out whole, or delete the files named" >&2
	exit 1
fi
echo "make-reports: wrote $out (index.md)" >&2
