#!/usr/bin/env bash
# Run every test: the cmocka unit binaries in BUILD/unit and the end-to-end
# scripts tests/t[0-9]*.sh (each counts its own checks through tests/lib.sh).
# Prints one closing line "N passed, N failed" and exits non-zero on failure.
set -u
build=${1:-build}
top=$(cd "$(dirname "$0")/.." && pwd)
export VR="${VR:-$top/vmscan-report}" TOP="$top" BUILD="$top/$build"
export LC_ALL=C
# fontconfig (under pango, for the charts) keeps its cache until exit by design
export LSAN_OPTIONS="suppressions=$top/tests/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
pass=0 fail=0
results=$(mktemp)
trap 'rm -f "$results"' EXIT

for t in "$top/$build"/unit/test-*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	out=$("$t" 2>&1); rc=$?
	n=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	pass=$((pass + ${n:-0})); fail=$((fail + ${f:-0}))
	if [ $rc -ne 0 ] && [ -z "$f" ]; then fail=$((fail + 1)); fi
	if [ $rc -ne 0 ]; then printf '%s\n' "$out"; echo "FAIL: $name"; else echo "ok: $name (${n:-0} tests)"; fi
done

for t in "$top"/tests/t[0-9]*.sh; do
	[ -f "$t" ] || continue
	VR_RESULTS="$results" bash "$t"; rc=$?
	if [ $rc -ne 0 ] && ! grep -q "^$(basename "$t") " "$results"; then
		echo "FAIL: $(basename "$t") exited $rc"; fail=$((fail + 1))
	fi
done
while read -r _ p f; do pass=$((pass + p)); fail=$((fail + f)); done < "$results"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
