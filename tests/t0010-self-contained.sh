#!/usr/bin/env bash
# The repository is self-contained: no file of it cites the design notes
# that live outside it (the "shared" folder next to the checkout, and its
# DESIGN, kernel-vmscan, peers and STYLE notes).  A person who clones the
# repository cannot follow such a citation; a rule's source is the kernel
# (file, function, release, commit) or a section of README.md.
. "$(dirname "$0")/lib.sh"

# The patterns are put together from pieces so that this file, which is
# checked like every other, does not match itself.
sh=shar; sh=${sh}ed md=.md
outside="(\\.\\./|/work/)$sh"
notes="(DESIGN|kernel-vmscan|peers|STYLE)\\.md"

# cites_outside DIR: print FILE:LINE: TEXT of every citation in DIR's
# src/, include/, tests/, samples/, README.md and Makefile (text files
# only: a binary trace may hold any bytes).  Status 0: some found, 1: none,
# 2: grep failed (or none of those paths exists).
cites_outside() {
	local p paths=()
	for p in src include tests samples README.md Makefile; do
		[ -e "$1/$p" ] && paths+=("$p")
	done
	[ ${#paths[@]} -gt 0 ] || return 2
	(cd "$1" && grep -rnIE "$outside|$notes" -- "${paths[@]}")
}

test_expect_success 'the checker finds a planted citation of each kind' '
	for c in "../$sh/x" "/work/$sh/seeds" "DESIGN$md" "kernel-vmscan$md" \
		 "peers$md" "STYLE$md"; do
		rm -rf repo && mkdir -p repo/src repo/tests &&
		printf "ok\n" >repo/README.md &&
		printf "/* see %s */\n" "$c" >repo/src/a.c &&
		cites_outside repo >out || { echo "not found: $c"; exit 1; }
		grep -q "^src/a.c:1:" out || { cat out; exit 1; }
	done &&
	rm -rf repo && mkdir -p repo/src && printf "/* mm/vmscan.c, README.md \"Schema\" */\n" >repo/src/a.c &&
	test_expect_code 1 cites_outside repo
'
test_expect_success 'no file of the repository cites notes outside it' '
	rc=0; cites_outside "$TOP" >out || rc=$?
	if [ $rc -ne 1 ]; then
		echo "cite the kernel source or a README.md section instead (grep status $rc):"
		cat out; exit 1
	fi
'
test_done
