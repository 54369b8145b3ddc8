#!/usr/bin/env bash
# Basics: help, unknown commands, -h on every command, exit statuses.
. "$(dirname "$0")/lib.sh"

test_expect_success 'help lists every command' '
	"$VR" help >out &&
	grep -q "^  load " out && grep -q "^  runs " out
'
test_expect_success 'no command is a usage error (2)' '
	test_expect_code 2 "$VR" 2>err && grep -q usage err
'
test_expect_success 'unknown command is a usage error (2)' '
	test_expect_code 2 "$VR" frobnicate 2>err &&
	grep -q "vmscan-report: '\''frobnicate'\'' is not a command" err
'
test_expect_success 'every command answers -h with status 0' '
	for c in $("$VR" help | sed -n "s/^  \([a-z-]*\) .*/\1/p"); do
		"$VR" $c -h >out || { echo "$c -h failed"; exit 1; }
		grep -q "usage: vmscan-report $c" out || { echo "$c: no usage"; exit 1; }
	done
'
test_expect_success 'unknown option is a usage error (2)' '
	test_expect_code 2 "$VR" load --bogus -d x.db y.dat 2>err
'
test_expect_success 'writing to a full device fails (1)' '
	test_expect_code 1 "$VR" help >/dev/full
'
test_done
