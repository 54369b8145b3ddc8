#!/usr/bin/env bash
# The files of `chart -o` and `report -o DIR`: never written through a
# symbolic link, never replacing or deleting a file vmscan-report did not
# write (DIR/MANIFEST's SHA-256 decides), never left half-written on a full
# disk (a small tmpfs; those tests are skipped when mount is not permitted).
# The fixture database is tests/unit/test-chart.c's --fixture.
. "$(dirname "$0")/lib.sh"

FIXTURE="$BUILD/unit/test-chart"

# names MANIFEST lists, sorted
listed() { sed -n 's/^[0-9a-f]\{64\}  //p' "$1" | sort; }

# the hash-less MANIFEST an older report wrote for the bundle in $1
old_manifest() { { sed -n 's/^[0-9a-f]\{64\}  //p' "$1/MANIFEST"; echo MANIFEST; } >"$1/M" &&
	mv "$1/M" "$1/MANIFEST"; }

test_expect_success 'MANIFEST records the SHA-256 of every file; sha256sum -c checks them' '
	"$FIXTURE" --fixture f.db &&
	"$VR" report -d f.db -o out &&
	head -1 out/MANIFEST | grep -q "^# vmscan-report" &&
	(cd out && sha256sum --strict -c MANIFEST >../check) &&
	test $(grep -c ": OK$" check) = $(ls out | grep -vc "^MANIFEST$") &&
	ls out | grep -v "^MANIFEST$" | sort >files && listed out/MANIFEST >names &&
	test_cmp files names
'
test_expect_success 'a file listed in MANIFEST but changed since is kept, with a warning' '
	"$FIXTURE" --fixture f.db &&
	"$VR" report -d f.db -o out &&
	echo mine >out/latency-Gone.png &&
	echo "$(echo theirs | sha256sum | cut -c1-64)  latency-Gone.png" >>out/MANIFEST &&
	"$VR" report -d f.db -o out 2>err &&
	echo mine >expect && test_cmp expect out/latency-Gone.png &&
	grep -q "warning: out/latency-Gone.png: changed since vmscan-report wrote it" err &&
	! grep -q latency-Gone out/MANIFEST
'
test_expect_success 'a file removed from the bundle is deleted only while it is what report wrote' '
	"$FIXTURE" --fixture f.db &&
	"$VR" report -d f.db -o out &&
	cp out/counters.png stale.png &&
	cp stale.png out/latency-Gone.png &&
	echo "$(sha256sum <stale.png | cut -c1-64)  latency-Gone.png" >>out/MANIFEST &&
	"$VR" report -d f.db -o out 2>err &&
	test ! -e out/latency-Gone.png && ! grep -q Gone err
'
test_expect_success 'a user file at one of report'"'"'s names: exit 1 naming it, nothing written' '
	"$FIXTURE" --fixture f.db &&
	mkdir out && echo "my notes" >out/index.md &&
	test_expect_code 1 "$VR" report -d f.db -o out 2>err &&
	grep -q "^vmscan-report: out/index.md: not written by vmscan-report (not in its MANIFEST): not replaced" err &&
	echo "my notes" >expect && test_cmp expect out/index.md &&
	ls -A out >files && echo index.md >expect && test_cmp expect files
'
test_expect_success 'a symbolic link at a name is not followed: exit 1, its target unchanged' '
	"$FIXTURE" --fixture f.db &&
	echo outside >outside.txt &&
	mkdir out && ln -s ../outside.txt out/compare.txt &&
	test_expect_code 1 "$VR" report -d f.db -o out 2>err &&
	grep -q "out/compare.txt: is a symbolic link: not followed" err &&
	echo outside >expect && test_cmp expect outside.txt &&
	test -L out/compare.txt && ls -A out >files && echo compare.txt >expect &&
	test_cmp expect files
'
test_expect_success 'a symbolic link replacing a file of an earlier bundle is not followed either' '
	"$FIXTURE" --fixture f.db &&
	"$VR" report -d f.db -o out &&
	echo outside >outside.txt && cp -a out before &&
	ln -sf ../outside.txt out/summary.txt &&
	test_expect_code 1 "$VR" report -d f.db -o out 2>err &&
	echo outside >expect && test_cmp expect outside.txt &&
	rm out/summary.txt before/summary.txt && diff -r before out
'
test_expect_success 'a directory at a chart name: exit 1 naming it, nothing written' '
	"$FIXTURE" --fixture f.db &&
	mkdir -p out/counters.svg &&
	test_expect_code 1 "$VR" report -d f.db -o out 2>err &&
	grep -q "out/counters.svg: is a directory: not replaced" err &&
	ls -A out >files && echo counters.svg >expect && test_cmp expect files
'
test_expect_success 'a MANIFEST that is not report'"'"'s: exit 1, nothing written or deleted' '
	"$FIXTURE" --fixture f.db &&
	mkdir out && printf "lib/Foo.pm\nMakefile.PL\n" >out/MANIFEST &&
	echo keep >out/compare.txt &&
	test_expect_code 1 "$VR" report -d f.db -o out 2>err &&
	grep -q "^vmscan-report: out/MANIFEST: not written by vmscan-report" err &&
	printf "lib/Foo.pm\nMakefile.PL\n" >expect && test_cmp expect out/MANIFEST &&
	echo keep >expect && test_cmp expect out/compare.txt && test $(ls -A out | wc -l) = 2
'
test_expect_success 'a MANIFEST line naming a path outside DIR: exit 1, nothing deleted' '
	"$FIXTURE" --fixture f.db &&
	"$VR" report -d f.db -o out &&
	echo keep >victim &&
	echo "$(sha256sum <victim | cut -c1-64)  ../victim" >>out/MANIFEST &&
	test_expect_code 1 "$VR" report -d f.db -o out 2>err &&
	grep -q "out/MANIFEST:[0-9]*: not a line vmscan-report writes" err &&
	echo keep >expect && test_cmp expect victim
'
# reports/MANIFEST as committed before hashes: plain names, the last MANIFEST.
test_expect_success 'an older MANIFEST without hashes: its files of report'"'"'s names are replaced' '
	"$FIXTURE" --fixture f.db &&
	"$VR" report -d f.db -o out && old_manifest out &&
	echo stale >out/timeline-run-9.png && echo mine >out/notes.txt &&
	sed -i "1i timeline-run-9.png\nnotes.txt" out/MANIFEST &&
	echo changed >out/compare.txt &&
	"$VR" report -d f.db -o out 2>err &&
	test ! -e out/timeline-run-9.png &&
	echo mine >expect && test_cmp expect out/notes.txt &&
	grep -q "out/MANIFEST lists notes.txt, a name vmscan-report never writes there: left alone" err &&
	grep -q "p50-DirectReclaim" out/compare.txt &&
	head -1 out/MANIFEST | grep -q "^# vmscan-report" && (cd out && sha256sum --quiet -c MANIFEST)
'
test_expect_success 'an older MANIFEST not ending in MANIFEST is not trusted' '
	"$FIXTURE" --fixture f.db &&
	mkdir out && echo compare.txt >out/MANIFEST && echo mine >out/compare.txt &&
	test_expect_code 1 "$VR" report -d f.db -o out 2>err &&
	grep -q "out/MANIFEST: not written by vmscan-report" err &&
	echo mine >expect && test_cmp expect out/compare.txt
'
test_expect_success 'temporaries of a report that died are removed, a live one'"'"'s are not' '
	"$FIXTURE" --fixture f.db &&
	mkdir out && { sleep 30 & } && live=$! &&
	pid=$(sh -c "echo \$\$") &&
	echo dead >out/.vmscan-report-$pid.index.md &&
	echo live >out/.vmscan-report-$live.index.md &&
	rc=0 && { "$VR" report -d f.db -o out || rc=$?; } && kill $live && test $rc = 0 &&
	test ! -e out/.vmscan-report-$pid.index.md && test -e out/.vmscan-report-$live.index.md &&
	test $(ls -A out | grep -c "^\.") = 1
'
test_expect_success 'report dying of a memory limit inside pango/fontconfig: exit 1, said, no temporaries, DIR as it was' '
	if ldd "$VR" | grep -q libasan; then test_skip_because "ASan needs the address space"; fi
	"$FIXTURE" --fixture f.db && "$VR" report -q -d f.db -o out && mkdir tmp &&
	(cd out && sha256sum * | sort) >before &&
	# under these limits glib aborts (SIGTRAP, no thread for pango) or
	# fontconfig crashes (SIGSEGV) on this machine; a limit under which
	# report writes the bundle after all (exit 0) must leave it the same
	failed=0 &&
	for l in 40000 60000 80000 100000; do
		rc=0 && (ulimit -v $l && TMPDIR=$PWD/tmp exec "$VR" report -q -d f.db -o out) 2>err || rc=$?
		case $rc in
		0) ;;
		1) failed=$((failed + 1)) && grep -q "^vmscan-report: out: " err ;;
		*) echo "limit $l: exit $rc"; cat err; exit 1 ;;
		esac &&
		(cd out && sha256sum * | sort) >after && test_cmp before after &&
		test -z "$(ls -A tmp)" && ! ls -A out | grep -q "^\.vmscan-report" || exit 1
	done &&
	# a directory it was to make is not left behind
	rc=0 && (ulimit -v 80000 && TMPDIR=$PWD/tmp exec "$VR" report -q -d f.db -o new) 2>err || rc=$?
	if [ $rc = 1 ]; then test ! -e new && test -z "$(ls -A tmp)"; else test $rc = 0; fi &&
	if [ $failed = 0 ]; then echo "no limit made report fail on this machine"; fi
'
test_expect_success 'chart -o: a symbolic link is not followed; a regular file is replaced' '
	"$FIXTURE" --fixture f.db &&
	echo outside >outside.png && ln -s outside.png link.png &&
	test_expect_code 1 "$VR" chart -d f.db -T counters -o link.png 2>err &&
	grep -q "^vmscan-report: link.png: is a symbolic link: not followed, not replaced$" err &&
	echo outside >expect && test_cmp expect outside.png && test -L link.png &&
	echo old >c.png && "$VR" chart -d f.db -T counters -o c.png &&
	head -c 4 c.png | grep -q PNG && test $(ls -A | grep -c vmscan-report-) = 0
'

# ---- full disks: a tmpfs of a few KiB ----------------------------------
can_mount() {
	mkdir -p "$test_root/probe" &&
	mount -t tmpfs -o size=16k vr-test "$test_root/probe" 2>/dev/null &&
	umount "$test_root/probe"
}
# small_disk DIR KIB: a tmpfs of KIB KiB at DIR, unmounted when the test's
# subshell exits, however it exits.
small_disk() {
	mkdir -p "$1" && mount -t tmpfs -o "size=${2}k,mode=0755" vr-test "$1" &&
	trap "umount '$PWD/$1'" EXIT
}

if can_mount; then
test_expect_success 'chart on a full disk: exit 1 naming the file and the reason, nothing left' '
	"$FIXTURE" --fixture f.db &&
	small_disk mnt 12 &&
	for ext in png svg pdf; do
		test_expect_code 1 "$VR" chart -d f.db -T counters -o mnt/c.$ext 2>err &&
		grep -q "^vmscan-report: mnt/c.$ext: cannot write: No space left on device$" err &&
		test $(ls -A mnt | wc -l) = 0 || exit 1
	done
'
test_expect_success 'chart on a full disk keeps the chart that was there' '
	"$FIXTURE" --fixture f.db &&
	small_disk mnt 12 &&
	echo "the old chart" >mnt/c.pdf &&
	test_expect_code 1 "$VR" chart -d f.db -T timeline -r 1 -o mnt/c.pdf 2>err &&
	grep -q "No space left on device" err &&
	echo "the old chart" >expect && test_cmp expect mnt/c.pdf && test $(ls -A mnt | wc -l) = 1
'
test_expect_success 'report on a full disk: exit 1, no file written, no MANIFEST; a directory it made is gone again' '
	"$FIXTURE" --fixture f.db &&
	small_disk mnt 100 &&
	test_expect_code 1 "$VR" report -d f.db -o mnt/out 2>err &&
	grep -q "^vmscan-report: mnt/out/[a-zA-Z-]*\.[a-z]*: cannot write: No space left on device$" err &&
	grep -q "^vmscan-report: mnt/out: nothing replaced, the directory is as it was$" err &&
	test ! -e mnt/out && test $(ls -A mnt | wc -l) = 0 &&
	: a directory that was there, empty, stays &&
	mkdir mnt/out2 &&
	test_expect_code 1 "$VR" report -d f.db -o mnt/out2 2>err &&
	test -d mnt/out2 && test $(ls -A mnt/out2 | wc -l) = 0
'
# The second report needs room for the old bundle and the new one.
test_expect_success 'report that does not fit a second time: the first bundle stays whole' '
	"$FIXTURE" --fixture f.db &&
	"$VR" report -d f.db -o ref && kib=$(du -sk ref | cut -f1) &&
	small_disk mnt $((kib + kib / 2)) &&
	"$VR" report -d f.db -o mnt/out &&
	cp -a mnt/out before &&
	test_expect_code 1 "$VR" report -d f.db -o mnt/out 2>err &&
	grep -q "No space left on device" err &&
	diff -r before mnt/out && (cd mnt/out && sha256sum --quiet -c MANIFEST)
'
# A load that fills the disk in the middle (its rows spill out of SQLite's
# page cache before the commit): the rollback leaves the database as it was,
# its size and no journal, and read-only commands read it (SQLite's pager
# left the rollback to the next read: the file stayed 8 MB, its journal hot)
test_expect_success 'load filling the disk mid-way: the database as it was, no journal, readable' '
	"$VR" load -q -d base.db "$TOP/samples/wsf200-1.dat" 2>/dev/null &&
	python3 "$TOP/tests/bench/make-scaled-trace.py" "$TOP/samples/wsf200-2.dat" 30 s30.dat \
		>/dev/null &&
	small_disk mnt 8192 &&
	cp base.db mnt/x.db && sqlite3 base.db .dump >before &&
	test_expect_code 1 "$VR" load -q -d mnt/x.db s30.dat 2>err &&
	grep -q "^vmscan-report: mnt/x.db: cannot insert .*: database or disk is full$" err &&
	test ! -e mnt/x.db-journal && test $(stat -c %s mnt/x.db) = $(stat -c %s base.db) &&
	"$VR" runs -d mnt/x.db >/dev/null &&
	sqlite3 mnt/x.db .dump >after && test_cmp before after
'
# The same for a schema upgrade that fills the disk: a version 6 database
# (tests/data-model/schema-v6-comm.sql) whose sched_switch, a table then,
# holds 480,012 rows, which the upgrade to 7 copies into sched_switch_ids
# (21 MB: SQLite's 16 MB cache spills) on a disk with 4 MiB to spare
test_expect_success 'a schema upgrade filling the disk: the database as it was, no journal, readable' '
	sqlite3 v6.db <"$TOP/tests/data-model/schema-v6-comm.sql" &&
	sqlite3 v6.db "INSERT INTO sched_switch SELECT run_id, ts_ns + value, cpu, pid, prev_comm,
		prev_pid, prev_prio, prev_state, next_comm, next_pid, next_prio, extra FROM sched_switch,
		generate_series(1, 40000)" &&
	test "$(sqlite3 v6.db "SELECT count(*) FROM sched_switch")" = 480012 &&
	python3 "$TOP/tests/mkdat.py" "$TOP/tests/data-model/two-nodes-6.18.spec" o.dat &&
	small_disk mnt $(( $(stat -c %s v6.db) / 1024 + 4096 )) &&
	cp v6.db mnt/x.db && sqlite3 v6.db .dump >before &&
	test_expect_code 1 "$VR" load -q -d mnt/x.db o.dat 2>err &&
	grep -q "^vmscan-report: mnt/x.db: cannot upgrade schema version 6: database or disk is full$" err &&
	grep -q "^vmscan-report: o.dat: not loaded; the database is unchanged$" err &&
	test ! -e mnt/x.db-journal && test $(stat -c %s mnt/x.db) = $(stat -c %s v6.db) &&
	"$VR" runs -d mnt/x.db >/dev/null &&
	sqlite3 mnt/x.db .dump >after && test_cmp before after
'
else
	echo "# skipped the full-disk tests: mount -t tmpfs is not permitted here"
fi
test_done
