#!/bin/sh
# The log triage's automata as the build made them (build/gen, linked into hcclctl): acmgen
# --check builds them again from the tables and finds the images the same; an image changed
# in one byte, or cut short, is found not to be one.
. tests/cli/lib.sh

G=$(dirname "$HCCLCTL")/gen
[ -d "$G" ] || G=$(pwd)/build/gen
# the build makes them with hcclctl: missing, they are a broken build, not a host's limit
if [ ! -x "$G/acmgen" ] || [ ! -f "$G/acm_kb.bin" ] || [ ! -f "$G/acm_line.bin" ]; then
	_report 1 "the automaton images are built beside hcclctl" "not in $G: run make"
	done_testing
	exit 1
fi

run "$G/acmgen" --check "$G/acm_kb.bin" "$G/acm_line.bin"
check_rc 0 "the images linked into hcclctl are the automata of its tables"
check_err "" "  and nothing is said"

# one byte of the knowledge base's rows changed (past the header and the nodes)
cp "$G/acm_kb.bin" "$TMP/kb.bin"
sz=$(wc -c <"$TMP/kb.bin")
printf '\377' | dd of="$TMP/kb.bin" bs=1 seek=$((sz - 100)) conv=notrunc 2>/dev/null
cmp -s "$G/acm_kb.bin" "$TMP/kb.bin"
[ $? -eq 1 ]
_report $? "  (the copy differs from the image in one byte)" ""
run "$G/acmgen" --check "$TMP/kb.bin" "$G/acm_line.bin"
check_rc 1 "an image changed in one byte: exit 1"
check_err "acmgen: $TMP/kb.bin: not the automaton of this build's tables" "  named, with the file"

head -c 1000 "$G/acm_line.bin" >"$TMP/line.bin"
run "$G/acmgen" --check "$G/acm_kb.bin" "$TMP/line.bin"
check_rc 1 "an image cut short: exit 1"
check_err "acmgen: $TMP/line.bin: not an automaton image of this build" "  named as no image"

run "$G/acmgen"
check_rc 2 "no files: a usage error"

done_testing
