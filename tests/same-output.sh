#!/usr/bin/env bash
# tests/same-output.sh [BASE] - a refactor must not change behaviour: build
# commit BASE (default: HEAD) in a temporary worktree, run the same commands
# on samples/ with its binary and with ./vmscan-report, and compare:
# every table of the database (rows in rowid order; run.loaded_at is the
# clock and is left out), runs, summary, timeline of every run, compare in
# every format, chart --dump-data of every kind, and the report bundle.
# Prints "same" or the differences; exit 0 when the same, 1 otherwise.
# Not run by `make test` (it builds a second tree); run it by hand.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-HEAD}
work=$(mktemp -d)
trap 'git -C "$top" worktree remove --force "$work/base" >/dev/null 2>&1; rm -rf "$work"' EXIT
export LC_ALL=C

git -C "$top" worktree add -q --detach "$work/base" "$base"
make -C "$work/base" -s -j2 vmscan-report >/dev/null

# tables DB OUT: every table and view of DB, rows in rowid order (run.loaded_at,
# the clock, left out), as OUT-NAME files, and its schema as OUT-schema
tables() {
	local db=$1 out=$2 t
	for t in $(sqlite3 "$db" "SELECT name FROM sqlite_schema WHERE type IN ('table','view')
			AND name NOT LIKE 'sqlite_%' ORDER BY name"); do
		if [ "$t" = run ]; then
			sqlite3 -header "$db" "SELECT * FROM run ORDER BY id" |
				sed 's/|[0-9T:-]*Z$//' >"$out-$t"
		else
			sqlite3 -header "$db" "SELECT * FROM \"$t\"" >"$out-$t"
		fi
	done
	sqlite3 "$db" '.schema' >"$out-schema"
}

# evidence DIR: the bundle's evidence.db holds run.loaded_at, so its bytes
# (and its MANIFEST checksum) differ from run to run: compared by its tables
evidence() {
	[ -f "$1/evidence.db" ] || return 0
	tables "$1/evidence.db" "$1/evidence"
	rm -f "$1/evidence.db"
	sed -i '/  evidence\.db$/d' "$1/MANIFEST"
}

# outputs VR DIR: everything a user can see, for the samples, into DIR
# (always into $work/out, then renamed: index.md names the directory);
# the commands run on each database make-reports wrote (reports/ and
# reports/pressure/, the pressure set, and the lab's reports/lab/ and
# reports/lab-mglru/)
outputs() {
	local vr=$1 out=$work/out d db id f m t
	mkdir -p "$out"
	(cd "$top" && SAMPLES=samples REPORTS=$out VR=$vr tests/make-reports.sh 2>/dev/null)
	for d in "$out" "$out/pressure" "$out/lab" "$out/lab-mglru"; do
		db=$d/vmscan.db
		[ -e "$db" ] || continue
		"$vr" runs -d "$db" >"$d/runs.out"
		"$vr" summary -d "$db" >"$d/summary.out"
		for id in $(sqlite3 "$db" 'SELECT id FROM run ORDER BY id'); do
			"$vr" timeline -d "$db" --run "$id" >"$d/timeline-$id.out"
			"$vr" chart -d "$db" --kind timeline --run "$id" --dump-data >"$d/chart-timeline-$id.out"
		done
		for f in text markdown csv json; do
			"$vr" compare -d "$db" --format $f >"$d/compare.$f"
		done
		"$vr" chart -d "$db" --kind counters --dump-data >"$d/chart-counters.out"
		for m in DirectReclaim KswapdAwake Read; do
			"$vr" chart -d "$db" --kind latency --metric $m --dump-data >"$d/chart-latency-$m.out"
			"$vr" chart -d "$db" --kind cdf --metric $m --dump-data >"$d/chart-cdf-$m.out" 2>&1 || true
		done
		tables "$db" "$d/table"
		mv "$d/table-schema" "$d/schema"
		rm -f "$db"
		evidence "$d"
	done
	mv "$out" "$2"
}

outputs "$work/base/vmscan-report" "$work/before"
outputs "$top/vmscan-report" "$work/after"
if diff -r "$work/before" "$work/after" >"$work/diff"; then
	echo "same: $(ls "$work/after" | wc -l) outputs as $base"
else
	head -100 "$work/diff"
	exit 1
fi
