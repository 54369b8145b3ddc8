#!/usr/bin/env bash
# make bench: build the bare reader, make or reuse the big recording
# (tests/bench/make-big-trace.sh, >= 3 million events, not committed), its
# uncompressed copy and its 3x and 10x versions (make-scaled-trace.py), and
# print bench.py's table (load against trace-cmd and the bare reader,
# several small files, 1x/3x/10x, database size, the commands after load).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
big=${VR_BENCH_TRACE:-/var/tmp/vmscan-report-bench/big.dat}
base=${big%.dat}
mkdir -p "$top/build/bench"
cc -O2 -Wall -Wextra -Werror $(pkg-config --cflags libtracecmd) -o "$top/build/bench/bare-read" \
	"$top/tests/bench/bare-read.c" $(pkg-config --libs libtracecmd)
if [ ! -s "$big" ]; then
	echo "bench: making $big (needs root and tracefs; takes minutes)"
	BIG_TRACE="$big" "$top/tests/bench/make-big-trace.sh"
fi
if [ ! -s "$base.v6.dat" ]; then
	trace-cmd convert -i "$big" -o "$base.v6.dat.part" --file-version 6 --compression none \
		>/dev/null 2>&1
	mv "$base.v6.dat.part" "$base.v6.dat"
fi
for n in 3 10; do
	python3 "$top/tests/bench/make-scaled-trace.py" "$big" "$n" "$base-x$n.dat" >/dev/null
done
# six recordings of a few MB: the wsf sets
small=$(ls "$top"/samples/wsf10-?.dat "$top"/samples/wsf200-?.dat)
python3 "$top/tests/bench/bench.py" "$top/vmscan-report" "$top/build/bench/bare-read" "$big" \
	"$base.v6.dat" "$base-x3.dat" "$base-x10.dat" $small
