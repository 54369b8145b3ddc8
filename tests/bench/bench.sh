#!/usr/bin/env bash
# make bench: build the bare reader, make or reuse the big recording
# (tests/bench/make-big-trace.sh, >= 3 million events, not committed), and
# compare `vmscan-report load` with trace-cmd on it.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
big=${VR_BENCH_TRACE:-/var/tmp/vmscan-report-bench/big.dat}
mkdir -p "$top/build/bench"
cc -O2 -Wall -Wextra -Werror $(pkg-config --cflags libtracecmd) -o "$top/build/bench/bare-read" \
	"$top/tests/bench/bare-read.c" $(pkg-config --libs libtracecmd)
if [ ! -s "$big" ]; then
	echo "bench: making $big (needs root and tracefs; takes minutes)"
	VR_BENCH_TRACE="$big" "$top/tests/bench/make-big-trace.sh"
fi
small=$(ls "$top"/samples/*.dat 2>/dev/null | head -1 || true)
python3 "$top/tests/bench/bench.py" "$top/vmscan-report" "$top/build/bench/bare-read" "$big" $small
