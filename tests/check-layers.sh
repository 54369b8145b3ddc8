#!/usr/bin/env bash
# tests/check-layers.sh BUILD LAYER... - each LAYER a space-separated list
# of module names (src/NAME.c, compiled to BUILD/NAME.o), lowest first: a
# module may call those of its own layer and the layers before it, never one
# of a later layer.  A call is a symbol the object file leaves undefined
# (nm) that a module of a later layer defines.  Prints each such call and
# exits 1.
set -eu
build=$1
shift
bad=0
defs() { # MODULE...: "SYMBOL MODULE" for what they define
	for m in "$@"; do nm "$build/$m.o" | awk -v m="$m" '$2 ~ /^[TDBR]$/ { print $3, m }'; done
}
while [ $# -gt 1 ]; do
	layer=$1
	shift
	later=$(defs $*)
	for m in $layer; do
		calls=$(nm "$build/$m.o" | awk '$1 == "U" { print $2 }')
		while read -r sym def; do
			[ -n "$sym" ] || continue
			echo "src/$m.c calls $sym() of src/$def.c, a later layer" >&2
			bad=1
		done < <(awk 'NR == FNR { u[$1] = 1; next } $1 in u' <(echo "$calls") <(echo "$later"))
	done
done
exit $bad
