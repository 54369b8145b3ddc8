#!/usr/bin/env bash
# load: a seeded mutation test (tests/mutants.py, which judges by trace-cmd
# report of the intact file alone): every corrupted copy of a compressed
# sample is either refused (exit 1, database content unchanged) or loaded
# whole (exit 0, as many events of each type as the intact file).  `make
# torture` runs it at length, with kills and concurrent loads.
. "$(dirname "$0")/lib.sh"
sdir=${VR_SAMPLES_DIR:-$TOP/samples}

test_expect_success '32 seeded mutants of a zstd sample: refused unchanged or loaded whole' '
	python3 "$TOP/tests/mutants.py" "$VR" "$sdir/wsf200-1.dat" "$sdir/wsf200-3.dat" \
		--seed 2 --count 32 >out 2>&1; rc=$?; cat out; test $rc = 0 &&
	grep -q "^mutants: 32 (seed 2), .*; failures: 0$" out
'
test_done
