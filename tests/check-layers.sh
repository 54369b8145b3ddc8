#!/usr/bin/env bash
# tests/check-layers.sh BUILD LAYER... - each LAYER a space-separated list
# of module names (src/NAME.c, compiled to BUILD/NAME.o; NAME may hold a
# folder, ingest/ingest-dat), lowest first: a module may call those of its
# own layer and the layers before it, never one of a later layer.  A call
# is a symbol the object file leaves undefined (nm) that a module of a
# later layer defines.  Prints each such call and exits 1.  A module of
# src/ missing from every layer is named too (exit 1): the list is the
# whole order.
set -eu
build=$1
shift
defs=$(mktemp)
trap 'rm -f "$defs"' EXIT
# "SYMBOL MODULE LAYER" for what every module defines
n=0
for layer in "$@"; do
	n=$((n + 1))
	for m in $layer; do
		[ -f "$build/$m.o" ] || { echo "check-layers: no $build/$m.o (src/$m.c in LAYERS)" >&2; exit 1; }
		nm "$build/$m.o" | awk -v m="$m" -v l="$n" '$2 ~ /^[TDBR]$/ { print $3, m, l }'
	done
done >"$defs"
bad=0
n=0
for layer in "$@"; do
	n=$((n + 1))
	for m in $layer; do
		while read -r sym def; do
			echo "src/$m.c calls $sym() of src/$def.c, a later layer" >&2
			bad=1
		done < <(nm "$build/$m.o" | awk -v l="$n" 'NR == FNR { if ($3 > l) d[$1] = $2; next }
			$1 == "U" && $2 in d { print $2, d[$2] }' "$defs" -)
	done
done
listed=" $* "
for f in $(cd "$(dirname "$0")/../src" && find . -name '*.c' | sed 's|^\./||; s|\.c$||' | sort); do
	case "$f" in cmd/main|cmd/cmd-doc) continue ;; esac
	case "$listed" in *" $f "*) ;; *)
		echo "src/$f.c is in no layer of the Makefile's LAYERS" >&2
		bad=1 ;;
	esac
done
exit $bad
