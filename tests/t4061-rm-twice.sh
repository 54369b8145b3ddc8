#!/usr/bin/env bash
# rm: a run named twice is a usage error (exit 2), the database unchanged.
# Before, "rm 1 1" removed run 1 and then, not finding it, said "no run 1"
# (a run that was there) and rolled back: exit 1 with a false reason.
. "$(dirname "$0")/lib.sh"

# a one-event text trace; $1 makes the contents differ
trace() {
	printf "     kswapd0-%d    [000] .....     1.000000: mm_vmscan_kswapd_wake: nid=0 order=0\n" "$1"
}

test_expect_success 'rm 1 1: named twice, exit 2, nothing removed; rm 1 01 alike' '
	trace 51 >a.txt && trace 52 >b.txt &&
	"$VR" load -q -d db a.txt b.txt &&
	sqlite3 db .dump >before &&
	test_expect_code 2 "$VR" rm -d db 1 1 2>err &&
	grep -q "run 1 is named twice" err && ! grep -q "no run" err &&
	test_expect_code 2 "$VR" rm -d db 2 1 02 2>err &&
	grep -q "run 2 is named twice" err &&
	sqlite3 db .dump >after && test_cmp before after &&
	"$VR" rm -d db 1 2 >out &&
	printf "%s\n" "removed run 1" "removed run 2" >want && test_cmp want out
'

test_done
