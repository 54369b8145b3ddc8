#!/usr/bin/env bash
# Run every test: the cmocka unit binaries in BUILD/unit and the end-to-end
# scripts tests/t[0-9]*.sh (each counts its own checks through tests/lib.sh).
# They run side by side, VR_TEST_JOBS at a time (default: twice the cores,
# since most scripts wait on child processes more than they compute); each
# one's output is printed whole when it ends, so lines never interleave.
# Every test keeps its files under its own mktemp directory, so the order
# and the company they run in do not matter (VR_TEST_JOBS=1 runs them one
# after another, the slowest first as in parallel).
# Prints one closing line "N passed, N failed, N skipped" and exits non-zero
# on failure.
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
export VR="${VR:-$top/vmscan-report}" TOP="$top" BUILD="$top/$build"
export LC_ALL=C
# fontconfig (under pango, for the charts) keeps its cache until exit by design
export LSAN_OPTIONS="suppressions=$top/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
jobs=${VR_TEST_JOBS:-$(( $(nproc 2>/dev/null || echo 1) * 2 ))}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
pass=0 fail=0 skip=0
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

# run_unit BIN: one cmocka binary; its counts go to its result file.
run_unit() {
	local t=$1 name out rc n f
	name=$(basename "$t")
	out=$("$t" 2>&1); rc=$?
	n=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	f=${f:-0}
	if [ $rc -ne 0 ] && [ "$f" = 0 ]; then f=1; fi
	echo "$name ${n:-0} $f 0" >>"$work/$name.res"
	if [ $rc -ne 0 ]; then printf '%s\n' "$out"; echo "FAIL: $name"; else echo "ok: $name (${n:-0} tests)"; fi
}

# run_script FILE: one end-to-end script; lib.sh's test_done writes its counts.
run_script() {
	local t=$1 name rc
	name=$(basename "$t")
	VR_RESULTS="$work/$name.res" bash "$t"; rc=$?
	if [ $rc -ne 0 ] && ! grep -q "^$name " "$work/$name.res" 2>/dev/null; then
		echo "FAIL: $name exited $rc"; echo "$name 0 1 0" >>"$work/$name.res"
	fi
}

# The slowest first (by the last run's wall time, kept in BUILD), so that
# the pool does not end waiting on one long script started last.
times="$BUILD/test-times"
list=()
for t in "$BUILD"/unit/test-* "$top"/tests/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	case $t in *.sh) ;; *) [ -x "$t" ] || continue ;; esac
	list+=("$(awk -v n="$(basename "$t")" '$1 == n { s = $2 } END { print s + 0 }' \
		"$times" 2>/dev/null || echo 0) $t")
done
mapfile -t list < <(printf '%s\n' "${list[@]}" | sort -rn -k1,1 | cut -d' ' -f2-)

running=0
for t in "${list[@]}"; do
	while [ "$running" -ge "$jobs" ]; do wait -n; running=$((running - 1)); done
	name=$(basename "$t")
	(
		start=$(date +%s)
		case $t in
		*.sh) run_script "$t" ;;
		*) run_unit "$t" ;;
		esac >"$work/$name.out" 2>&1
		echo "$name $(( $(date +%s) - start ))" >"$work/$name.time"
		cat "$work/$name.out"
	) &
	running=$((running + 1))
done
wait

cat "$work"/*.time >"$times.new" 2>/dev/null && mv "$times.new" "$times"
for t in "${list[@]}"; do
	name=$(basename "$t")
	if [ ! -s "$work/$name.res" ]; then echo "FAIL: $name left no result"; fail=$((fail + 1)); continue; fi
	while read -r _ p f s; do
		pass=$((pass + p)); fail=$((fail + f)); skip=$((skip + ${s:-0}))
	done <"$work/$name.res"
done

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
