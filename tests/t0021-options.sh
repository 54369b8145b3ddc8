#!/usr/bin/env bash
# The option tables (build/cmd-doc options, from src/cmd/cmd.h's tables of
# every command) against what users read, in the spirit of git's t0450:
# each option has its line in the command's -h, and README.md's section of
# the command names it.
. "$(dirname "$0")/lib.sh"

"$BUILD/cmd-doc" options >"$test_root/options" || exit 1

# section CMD: README's "## " sections whose heading names `CMD`
section() {
	awk -v cmd="\`$1\`" '/^## / { on = index($0, cmd) > 0 } on' "$TOP/README.md"
}

test_expect_success 'the tables list options of every command' '
	test -s "$test_root/options" &&
	cut -f1 "$test_root/options" | sort -u >cmds && test $(wc -l <cmds) -ge 4
'
test_expect_success 'every option of a table has its line in the command -h' '
	while IFS="	" read -r cmd key name arg; do
		label=$name; [ "$arg" = - ] || label="$name $arg"
		if [ "$key" = - ]; then label="      $label"; else label="  $key, $label"; fi
		"$VR" $cmd -h >help || { echo "$cmd -h failed"; exit 1; }
		grep -qxF -e "$label" help || grep -qF -e "$label " help ||
			{ echo "$cmd: no line \"$label\" in -h"; exit 1; }
	done <"$test_root/options"
'
test_expect_success 'every option of a table is named in README.md, in its command section' '
	while IFS="	" read -r cmd key name arg; do
		[ "$name" = --help ] && continue
		section $cmd >sec
		test -s sec || { echo "README.md: no section for \`$cmd\`"; exit 1; }
		grep -qe "$name\\b" sec && continue
		[ "$key" != - ] && grep -qe "\\(^\\|[^a-z-]\\)$key\\b" sec && continue
		echo "README.md: $cmd $name not named"; exit 1
	done <"$test_root/options"
'
test_expect_success 'getopt takes each option as its table says (an argument or none)' '
	while IFS="	" read -r cmd key name arg; do
		[ "$name" = --help ] && continue
		if [ "$arg" != - ]; then
			for o in $name $key; do
				[ $o = - ] && continue
				test_expect_code 2 "$VR" $cmd $o 2>err &&
				grep -q "requires an argument" err ||
					{ echo "$cmd $o: not an option with an argument"; exit 1; }
			done
		fi
		[ "$key" = - ] && continue
		test_expect_code 2 "$VR" $cmd ${key}x,y,z=0 -d / -o / --bogus 2>err || exit 1
		! grep -q "invalid option -- '\''${key#-}'\''" err ||
			{ echo "$cmd $key: not a short option"; exit 1; }
	done <"$test_root/options"
'
test_expect_success 'a command with -d takes vmscan.db without it (no usage text), and -h wins over it' '
	mkdir empty &&
	for cmd in $(awk -F "\t" "\$3 == \"--database\" { print \$1 }" "$test_root/options"); do
		"$VR" $cmd -h >/dev/null || { echo "$cmd -h without -d failed"; exit 1; }
		(cd empty && "$VR" $cmd >/dev/null 2>../err); rc=$?
		test $rc = 1 -o $rc = 2 || { echo "$cmd: exit $rc"; exit 1; }
		! grep -q -e "-d DB is required" err && ! grep -q "^usage:" err &&
		{ grep -q "vmscan.db" err || grep -qx "see .vmscan-report $cmd -h." err; } &&
		test ! -e empty/vmscan.db || { echo "$cmd:"; cat err; exit 1; }
	done
'
# -d '' (a script's unset variable): SQLite opens "" as a temporary database
# deleted on close, so a load "succeeded" and kept nothing
test_expect_success 'every command with -d refuses an empty path: exit 2, nothing written' '
	mkdir e && cd e &&
	for cmd in $(awk -F "\t" "\$3 == \"--database\" { print \$1 }" "$test_root/options"); do
		test_expect_code 2 "$VR" $cmd -d "" "$TOP/samples/wsf200-1.dat" 2>../err || exit 1
		grep -q "^vmscan-report: -d: an empty path" ../err ||
			{ echo "$cmd:"; cat ../err; exit 1; }
	done &&
	test -z "$(ls -A)" || { ls -A; exit 1; }
'
test_done
