#!/usr/bin/env bash
# Replay the committed fuzz corpus and every input that once crashed a fuzz
# target (tests/fuzz/crashes/TARGET-*) through the replay builds of the
# targets (tests/fuzz/fuzz-*.c, built by `make test`): none may crash.
. "$(dirname "$0")/lib.sh"

for target in text dat; do
	test_expect_success "fuzz-$target: corpus and past crashes replay without a crash" '
		bin="$BUILD/fuzz/replay-'$target'" &&
		test -x "$bin" &&
		set -- "$TOP"/tests/fuzz/corpus-'$target'/* &&
		for f in "$TOP"/tests/fuzz/crashes/'$target'-*; do
			if [ -e "$f" ]; then set -- "$@" "$f"; fi
		done &&
		test $# -ge 3 &&
		# under make asan: a huge allocation fails as malloc() does; the
		# dat path skips leak checks (libtraceevent 1.7.1 leaks a few bytes
		# in tep_parse_event() on malformed formats, not ours to fix)
		opts=allocator_may_return_null=1 &&
		if [ '$target' = dat ]; then opts=$opts:detect_leaks=0; fi &&
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}$opts" \
			"$bin" "$@" >out 2>/dev/null &&
		grep -q "^replayed $# input(s)" out
	'
done
test_done
