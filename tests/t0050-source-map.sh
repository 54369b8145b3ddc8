#!/usr/bin/env bash
# README.md's source map names every source file: each src/**/*.c and
# src/**/*.h and each include/*.h appears, as `NAME` in backquotes, in the
# section "## Source map" (the lines up to the next "## " heading), and the
# map names no file that is not there.  The file list comes from the tree
# (find), not from the Makefile.
. "$(dirname "$0")/lib.sh"

readme=${VR_README:-$TOP/README.md}
tree=${VR_TREE:-$TOP}

# map: the backquoted names ending in .c or .h of README's source map
map() {
	awk '/^## / { on = ($0 == "## Source map") } on' "$readme" |
		grep -o '`[^`]*\.[ch]`' | tr -d '`' | sed 's,.*/,,' | sort -u
}

test_expect_success 'README has a source map' '
	map >names &&
	test $(wc -l <names) -ge 50
'
test_expect_success 'every file of src/ and include/ is in the source map' '
	map >names &&
	(cd "$tree" && find src include -name "*.[ch]") | sort >files &&
	test -s files &&
	st=0 &&
	while read -r f; do
		grep -qxF "${f##*/}" names || { echo "README.md source map: no $f"; st=1; }
	done <files &&
	exit $st
'
test_expect_success 'the source map names no file the tree lacks' '
	map >names &&
	(cd "$tree" && find src include -name "*.[ch]") | sed "s,.*/,," | sort -u >files &&
	comm -23 names files >extra &&
	if [ -s extra ]; then echo "README.md source map names files not in src/ or include/:"; cat extra; exit 1; fi
'
test_done
