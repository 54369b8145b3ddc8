#!/usr/bin/env bash
# The conventions users know from trace-cmd, perf and git: a manual page per
# command made from its option table, make install/uninstall, bash
# completion, one meaning per option letter, the default database, the
# version, the nearest command for a typo, a usage error's one line.
. "$(dirname "$0")/lib.sh"

"$BUILD/cmd-doc" options >"$test_root/options" || exit 1
"$BUILD/cmd-doc" commands | cut -f1 >"$test_root/commands" || exit 1

test_expect_success 'every command has its man page, naming every option of its table' '
	test -s "$BUILD/man/vmscan-report.1" &&
	while read -r cmd; do
		test -s "$BUILD/man/vmscan-report-$cmd.1" || { echo "no page for $cmd"; exit 1; }
		grep -qF "vmscan\\-report\\-$cmd\\fR(1)" "$BUILD/man/vmscan-report.1" ||
			{ echo "vmscan-report(1) does not list $cmd"; exit 1; }
	done <"$test_root/commands" &&
	while IFS="	" read -r cmd key name arg; do
		# the option lines of the page, roff escapes and fonts taken out
		grep -A1 "^\.TP" "$BUILD/man/vmscan-report-$cmd.1" |
			sed "s/\\\\-/-/g; s/\\\\f[BIR]//g" >plain
		label=$name; [ "$key" = - ] || label="$key, $name"
		[ "$arg" = - ] || label="$label $arg"
		grep -qxF -e "$label" plain || { echo "$cmd: no \"$label\" in its page"; exit 1; }
	done <"$test_root/options"
'
test_expect_success 'man -l renders every page without a warning' '
	for page in "$BUILD"/man/*.1; do
		MANWIDTH=80 man -l "$page" 2>&1 >/dev/null | tee warn >&2
		test ! -s warn || { echo "$page: warnings"; exit 1; }
		MANWIDTH=80 man -l "$page" >text && grep -q "^NAME" text || exit 1
	done
'
test_expect_success 'a rendered page says what -h says about an option' '
	MANWIDTH=80 man -l "$BUILD/man/vmscan-report-compare.1" >text &&
	grep -q "^       -s, --stats LIST" text &&
	grep -q "Min, Amean, Hmean, Stddev, CoeffVar, Max, BAmean-NN" text
'
test_expect_success 'help CMD shows the man page; with no man, the -h text' '
	"$VR" help load >out && grep -q "vmscan-report-load - load" out &&
	mkdir nobin && ln -s "$(command -v env)" nobin/env &&
	PATH=$PWD/nobin "$VR" help load >out && "$VR" load -h >expect && test_cmp expect out &&
	test_expect_code 2 "$VR" help lod 2>err && grep -q "not a command" err
'
if [ "$VR" = "$TOP/vmscan-report" ]; then
test_expect_success 'make install DESTDIR= installs binary, pages, completion; uninstall removes them' '
	make -s -C "$TOP" O="$BUILD" install DESTDIR="$PWD/inst" PREFIX=/usr >/dev/null &&
	(cd inst && find . -type f | sort) >installed &&
	{ echo ./usr/bin/vmscan-report
	  echo ./usr/share/bash-completion/completions/vmscan-report
	  sed "s|.*|./usr/share/man/man1/vmscan-report-&.1|" "$test_root/commands"
	  echo ./usr/share/man/man1/vmscan-report.1; } | sort >expect &&
	test_cmp expect installed &&
	cmp inst/usr/bin/vmscan-report "$TOP/vmscan-report" &&
	make -s -C "$TOP" O="$BUILD" uninstall DESTDIR="$PWD/inst" PREFIX=/usr >/dev/null &&
	test -z "$(cd inst && find . -type f)"
'
fi
comp() {	# comp WORD...: what completion offers for the last word
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		 _vmscan_report; printf "%s\n" "${COMPREPLY[@]}"' comp \
		"$BUILD/vmscan-report.bash" vmscan-report "$@" | sort
}
test_expect_success 'completion: registered; commands, options and their values' '
	bash -c "source \"$BUILD/vmscan-report.bash\"; complete -p vmscan-report" >out &&
	grep -q "complete .*-F _vmscan_report vmscan-report" out &&
	test "$(comp lo)" = load &&
	test "$(comp help re)" = "$(printf "record\nreport")" &&
	test "$(comp chart --ki)" = --kind &&
	test "$(comp chart --kind "")" = "$(printf "cdf\ncounters\nlatency\ntimeline\nwindows")" &&
	test "$(comp compare -f c)" = csv &&
	test "$(comp compare --stats Min,A)" = Min,Amean &&
	comp chart --metric Dir | grep -qx DirectReclaim
'
test_expect_success 'completion: kernels and run ids from the database on the line' '
	sqlite3 c.db "CREATE TABLE run (id INTEGER PRIMARY KEY, kernel TEXT);
		INSERT INTO run VALUES (1, '\''v6.1'\''), (2, '\''v6.9'\''), (5, '\''v6.9'\'');
		CREATE TABLE app_latency (operation TEXT); INSERT INTO app_latency VALUES ('\''final-Read'\'')" &&
	test "$(comp compare -d c.db --kernels v6.1,v)" = "$(printf "v6.1,v6.1\nv6.1,v6.9")" &&
	test "$(comp chart -d c.db -r "")" = "$(printf "1\n2\n5")" &&
	test "$(comp compare -d c.db --metrics fin)" = final-Read &&
	test "$(VMSCAN_REPORT_DB=c.db comp import-latency -k v6.)" = "$(printf "v6.1\nv6.9")"
'
test_expect_success 'no option letter has two meanings across the commands' '
	# --kernel/--kernels and --metric/--metrics are one meaning
	awk -F "\t" "\$2 != \"-\" { n = \$3; sub(/s\$/, \"\", n); print \$2, n }" \
		"$test_root/options" | sort -u >letters &&
	cut -d" " -f1 letters | uniq -d >twice &&
	{ test ! -s twice || { grep -Ff twice letters; exit 1; }; }
'
test_expect_success 'the planted check fails on a letter with two meanings' '
	printf "a\t-k\t--kernel\tN\nb\t-k\t--kind\tK\n" |
	awk -F "\t" "\$2 != \"-\" { n = \$3; sub(/s\$/, \"\", n); print \$2, n }" |
	sort -u | cut -d" " -f1 | uniq -d | grep -qx -- -k
'
test_expect_success 'the database is vmscan.db unless -d or VMSCAN_REPORT_DB; its creation is said' '
	mkdir def && cd def &&
	"$VR" import-latency -k k "$TOP/samples/wsf10-1.latency.txt" 2>err &&
	grep -qx "vmscan-report: import-latency: creating database vmscan.db (no -d given)" err &&
	test "$(sqlite3 vmscan.db "SELECT kernel FROM run")" = k &&
	"$VR" import-latency -k k2 "$TOP/samples/wsf10-2.latency.txt" 2>err &&
	! grep -q creating err &&
	VMSCAN_REPORT_DB=other.db "$VR" import-latency -k k3 "$TOP/samples/wsf10-1.latency.txt" 2>err &&
	grep -q "creating database other.db" err &&
	test "$(sqlite3 other.db "SELECT kernel FROM run")" = k3 &&
	"$VR" import-latency -d given.db -k k4 "$TOP/samples/wsf10-1.latency.txt" 2>err &&
	! grep -q creating err && test -s given.db &&
	"$VR" compare -f csv >out && grep -q "k2" out
'
test_expect_success 'a usage error is one line and where the help is' '
	test_expect_code 2 "$VR" chart --no-such 2>err &&
	test $(wc -l <err) = 2 && tail -n1 err | grep -qx "see '\''vmscan-report chart -h'\''" &&
	test_expect_code 2 "$VR" compare -d x.db --format yaml 2>err &&
	grep -q "unknown format .yaml. (valid: text, markdown, csv, json)" err &&
	test $(wc -l <err) = 2
'
test_expect_success 'a typo names the nearest command; -v, -V, version print the version' '
	test_expect_code 2 "$VR" lod 2>err && grep -q "did you mean .load.?" err &&
	test_expect_code 2 "$VR" reprot 2>err && grep -q "did you mean .report.?" err &&
	test_expect_code 2 "$VR" zzzzzz 2>err && ! grep -q "did you mean" err &&
	for v in -v -V --version version; do
		"$VR" $v >out && grep -qx "vmscan-report [0-9][0-9.]*" out || exit 1
	done
'
test_expect_success 'a recording without events says so when loaded' '
	printf "era 6.18\ncpus 2\nuname Linux box 6.18.0-test #1 SMP x86_64\n" >empty.spec &&
	python3 "$TOP/tests/mkdat.py" empty.spec empty.dat &&
	test_expect_code 1 "$VR" load -d e.db empty.dat 2>err &&
	grep -q "^vmscan-report: empty.dat: no vmscan event in the recording (it has no events; the vmscan tracepoints were recorded and none fired)" err &&
	"$VR" load -d e.db --empty-run empty.dat 2>err &&
	grep -qx "vmscan-report: warning: empty.dat holds no events: run 1 is empty" err &&
	python3 "$TOP/tests/mkdat.py" "$TOP/tests/data-model/two-nodes-6.18.spec" full.dat &&
	"$VR" load -d e.db full.dat 2>err && ! grep -q "no events" err
'
test_expect_success 'each test script has a number of its own (tNNNN-NAME.sh, as git'"'"'s t/ has)' '
	ls "$TOP"/tests/t[0-9][0-9][0-9][0-9]-*.sh | sed "s#.*/\(t[0-9]*\)-.*#\1#" | sort | uniq -d >twice &&
	test ! -s twice || { echo "numbers used twice: $(cat twice)"; exit 1; }
'
test_done
