#!/usr/bin/env bash
# Every command README.md shows as an example runs on the shipped samples.
# The examples are the "$ " lines of README's ```console blocks
# (tests/readme-commands.py states the convention); they run in README's
# order in one directory holding samples/ (a link to the tree's) and
# ./vmscan-report (the binary under test, also first on PATH as
# vmscan-report), so that later examples use what earlier ones made, as a
# reader following README would.  Each must exit 0 (bash -o pipefail), and
# each output line README shows under it must be in what it printed on
# stdout (blanks collapsed; a line "..." stands for lines left out, a
# trailing " ..." for the rest of a line).  Not run, counted as skips:
#   $ make ...   builds the tree, which make test has done (make reports
#                rewrites reports/, make lab needs root and QEMU);
#   $ sudo ...   recording needs root and tracefs (t1900 tests record).
. "$(dirname "$0")/lib.sh"

readme=${VR_README:-$TOP/README.md}
work=$test_root/readme
ex=$test_root/examples
mkdir -p "$work/bin" "$ex"
ln -s "$TOP/samples" "$work/samples"
ln -s "$VR" "$work/vmscan-report"
ln -s "$VR" "$work/bin/vmscan-report"

test_expect_success 'README shows its examples in ```console blocks' '
	n=$(python3 "$TOP/tests/readme-commands.py" "$readme" "$ex") &&
	echo "$n commands" &&
	test "$n" -ge 20 &&
	cat "$ex"/*.cmd | grep -q "^\./vmscan-report load .*samples/"
'

# normal FILE: blanks collapsed to one space, the ends trimmed, one line
normal() { tr -s " \t\n" "   " <"$1" | sed "s/^ //; s/ \$//"; }

# check_example N: run example N in $work; its output lines must be in
# what it printed
check_example() {
	local n=$1 cmd line got
	cmd=$(cat "$ex/$n.cmd")
	case $cmd in
	make|make\ *) test_skip_because "make: builds the tree (done by make test), not run here" ;;
	sudo\ *) test_skip_because "sudo: recording needs root and tracefs (t1900 tests record)" ;;
	esac
	(cd "$work" && PATH=$work/bin:$PATH bash -o pipefail -c "$cmd") >out 2>err ||
		{ echo "README.md:$(cat "$ex/$n.line"): failed: $cmd"; cat err; exit 1; }
	got=$(normal out)
	while IFS= read -r line; do
		line=${line% ...}
		line=$(printf "%s\n" "$line" | tr -s " \t" "  " | sed "s/^ //; s/ \$//")
		[ -z "$line" ] || [ "$line" = ... ] && continue
		case " $got " in
		*" $line "*) ;;
		*) echo "README.md:$(cat "$ex/$n.line"): $cmd"
		   echo "shows a line it did not print: $line"; echo "it printed:"; cat out; exit 1 ;;
		esac
	done <"$ex/$n.out"
}

n=1
while [ -f "$ex/$n.cmd" ]; do
	test_expect_success "README.md:$(cat "$ex/$n.line"): $(cut -c1-70 "$ex/$n.cmd")" "check_example $n"
	n=$((n + 1))
done

test_done
