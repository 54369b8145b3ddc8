# Shell test helpers, in the spirit of git's t/test-lib.sh.  Source it from
# tests/tNNNN-*.sh, call test_expect_success / test_expect_code, then
# test_done.  Each test runs in its own fresh directory under a temp root.
set -u
: "${VR:?run through tests/run-tests.sh (make test)}"

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
test_pass=0 test_fail=0 test_count=0

# test_expect_success DESCRIPTION 'commands'
test_expect_success() {
	test_count=$((test_count + 1))
	local dir="$test_root/$test_count"
	mkdir -p "$dir"
	if (cd "$dir" && set -e && eval "$2") >"$test_root/out" 2>&1; then
		test_pass=$((test_pass + 1)); echo "ok $test_count - $test_name: $1"
	else
		test_fail=$((test_fail + 1)); echo "not ok $test_count - $test_name: $1"
		sed 's/^/#   /' "$test_root/out"
	fi
}

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

test_done() {
	[ -n "${VR_RESULTS:-}" ] && echo "$test_name $test_pass $test_fail" >> "$VR_RESULTS"
	[ "$test_fail" -eq 0 ]
}
