#!/bin/sh
# make demo's script when its output is not a terminal (a CI log, a pipe): every step runs,
# and no escape sequence reaches the log.
# harness: once
. "$(dirname "$0")/lib.sh"

unset NO_COLOR
run sh scripts/demo.sh
check_rc 0 "the demo runs every step"
check_out_has "demo done" "  to the end"
printf '%s\n' "$OUT" | grep -q "$(printf '\033')"
[ $? -ne 0 ]
_report $? "  no escape sequence in its output to a pipe" "$OUT"

done_testing
