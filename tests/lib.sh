# Shell test helpers, in the spirit of git's t/test-lib.sh.  Source it from
# tests/tNNNN-*.sh, call test_expect_success / test_expect_code, then
# test_done.  Each test runs in its own fresh directory under a temp root.
set -u
: "${VR:?run through tests/run-tests.sh (make test)}"
# the top of the tree and the build directory (run-tests.sh exports them;
# a script run by hand finds them from its own path)
export TOP="${TOP:-$(cd "$(dirname "$0")/.." && pwd)}"
export BUILD="${BUILD:-$TOP/build}"

# A script that sets VR_PRIVATE_TMP=want before sourcing this file runs
# with a /tmp of its own (a user and mount namespace, unshare -rm, a bind
# mount of a fresh directory): its files named like trace-cmd convert's
# scratch files are then neither seen nor taken by loads running
# elsewhere on the machine (older builds delete such files by name), and
# it sees none of theirs.  Without unshare it runs as it is.  The results
# file is passed on as a descriptor (its path is under the hidden /tmp).
# A tree that is itself under /tmp (a clone made there) would be hidden
# too: then the script runs as it is.
_vr_under_tmp() {
	local p
	for p in "$@"; do
		case $(readlink -f "$p" 2>/dev/null || echo "$p") in /tmp/*) return 0 ;; esac
	done
	return 1
}
if [ "${VR_PRIVATE_TMP:-}" = want ] && [ -z "${VR_PRIVATE_TMP_DIR:-}" ] &&
   ! _vr_under_tmp "$0" "$VR" "${TOP:-.}" "${BUILD:-.}" &&
   unshare -rm true 2>/dev/null; then
	_priv=$(mktemp -d /tmp/vr-ptmp.XXXXXX)
	if [ -n "${VR_RESULTS:-}" ]; then exec 9>>"$VR_RESULTS"; fi
	VR_PRIVATE_TMP_DIR=$_priv VR_RESULTS=${VR_RESULTS:+/proc/self/fd/9} \
		unshare -rm bash -c 'mount --bind "$VR_PRIVATE_TMP_DIR" /tmp && exec bash "$0" "$@"' \
		"$0" "$@"
	_rc=$?
	rm -rf "$_priv"
	exit $_rc
fi
test_name=$(basename "$0")
test_root=$(mktemp -d "/tmp/vr-test.XXXXXX")
trap 'rm -rf "$test_root"' EXIT
test_pass=0 test_fail=0 test_skip=0 test_count=0

# test_expect_success DESCRIPTION 'commands'
# The commands end with `exit 77` (test_skip_because) to be counted as a
# skip, with the reason they printed, as automake and TAP count them.
test_expect_success() {
	test_count=$((test_count + 1))
	local dir="$test_root/$test_count" rc
	mkdir -p "$dir"
	# in an if, as before: set -e stays off for commands whose status is
	# tested (test_expect_code), as bash ignores it in a condition
	if (cd "$dir" && set -e && eval "$2") >"$test_root/out" 2>&1; then rc=0; else rc=$?; fi
	if [ $rc -eq 0 ]; then
		test_pass=$((test_pass + 1)); echo "ok $test_count - $test_name: $1"
	elif [ $rc -eq 77 ]; then
		test_skip=$((test_skip + 1))
		echo "ok $test_count - $test_name: $1 # SKIP $(tail -n 1 "$test_root/out")"
	else
		test_fail=$((test_fail + 1)); echo "not ok $test_count - $test_name: $1"
		sed 's/^/#   /' "$test_root/out"
	fi
}

# test_skip_because REASON: inside a test's commands, end it as a skip.
test_skip_because() { echo "$*"; exit 77; }

# test_must_fail CODE COMMAND...: COMMAND must exit with CODE (not crash).
test_expect_code() {
	local want=$1; shift
	"$@"; local rc=$?
	if [ "$rc" -ne "$want" ]; then echo "exit $rc, wanted $want: $*" >&2; return 1; fi
}

# test_cmp EXPECTED ACTUAL: files equal, else show the diff.
test_cmp() { diff -u "$1" "$2"; }

# dump_rows DB: every table of DB in rowid order, the run without its load
# time: two loads of the same trace compare equal.
dump_rows() {
	for t in $(sqlite3 "$1" "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"); do
		echo "== $t"
		if [ "$t" = run ]; then
			sqlite3 "$1" "SELECT id, kernel, iteration, source_path, source_format,
				content_sha256, file_version, compression, event_count, lost_events,
				first_ts_ns, last_ts_ns FROM run"
		else
			sqlite3 "$1" "SELECT * FROM \"$t\" ORDER BY rowid"
		fi
	done
}

# test_skip_script REASON: the whole script cannot run here (counted as
# one skip), then exit.
test_skip_script() {
	echo "ok - $test_name # SKIP $*"; test_skip=$((test_skip + 1)); test_done; exit
}

test_done() {
	[ -n "${VR_RESULTS:-}" ] && echo "$test_name $test_pass $test_fail $test_skip" >> "$VR_RESULTS"
	[ "$test_fail" -eq 0 ]
}
