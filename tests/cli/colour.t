#!/bin/sh
# Colour on a terminal: a status word that is coloured is followed by one reset, and one that
# is not (SKIP) by none, so no lone reset reaches a log that a terminal session was saved to.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/onterm.py" <<'PY'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
out = b""
while True:
    try:
        b = os.read(fd, 65536)
    except OSError:
        break
    if not b:
        break
    out += b
os.waitpid(pid, 0)
sys.stdout.write(out.decode("utf-8", "replace").replace("\r", ""))
PY
unset NO_COLOR
OUT=$(python3 "$TMP/onterm.py" "$HCCLCTL" doctor --local --checks ranktable,host 2>&1)
printf '%s\n' "$OUT" | grep -q '^SKIP'
_report $? "doctor on a terminal prints SKIP rows" "$OUT"
printf '%s\n' "$OUT" | grep '^SKIP' | grep -q "$(printf '\033')"
[ $? -ne 0 ]
_report $? "  a SKIP row carries no escape sequence (no lone reset)" "$OUT"
printf '%s\n' "$OUT" | grep -q "^$(printf '\033')\[[0-9;]*m\(PASS\|WARN\|FAIL\)$(printf '\033')\[0m "
_report $? "  a coloured status is followed by its reset" "$OUT"

done_testing
