#!/bin/sh
# No two of libcomm's files call each other in a circle (directly or around a longer loop):
# scripts/objcycles.py reads the defined and undefined symbols of every object with nm. The
# engine's lower files reach the upper ones only through what those register (control frame
# handlers, the fingerprint check's ops, the failure and wake hooks), and fail through
# fail.c, which calls none of them.
# harness: once (it reads the build's objects and scripts, never $HCCLCTL: cli-asan would repeat it)
. "$(dirname "$0")/lib.sh"

OBJ=${LIBCOMM_OBJ:-build/libcomm}
if ! command -v nm >/dev/null 2>&1 || ! command -v cc >/dev/null 2>&1; then
	echo "1..0 # SKIP nm or cc is not installed (binutils, gcc)"
	exit 0
fi
if [ ! -f "$OBJ/progress.o" ]; then
	echo "1..0 # SKIP $OBJ/*.o are not built (run make first)"
	exit 0
fi

# The checker finds a cycle where there is one: a.c and b.c call each other, c.c calls a.c.
cat >"$TMP/a.c" <<'EOF'
int b1(int);
int a1(int x) { return x ? b1(x - 1) : 0; }
EOF
cat >"$TMP/b.c" <<'EOF'
int a1(int);
int b1(int x) { return a1(x); }
EOF
cat >"$TMP/c.c" <<'EOF'
int a1(int);
int c1(void) { return a1(3); }
EOF
for f in a b c; do cc -c -o "$TMP/$f.o" "$TMP/$f.c"; done
run python3 scripts/objcycles.py "$TMP/a.o" "$TMP/b.o" "$TMP/c.o"
check_rc 1 "a cycle of two objects: exit 1"
check_out "cycle: a b
  a -> b: b1
  b -> a: a1" "it names the objects and the symbols of each edge, not the caller outside it"

run python3 scripts/objcycles.py "$TMP/a.o" "$TMP/c.o"
check_rc 0 "no cycle: exit 0"
check_out "" "  and nothing printed"

# libcomm itself
run python3 scripts/objcycles.py "$OBJ"/*.o
check_rc 0 "no two libcomm files call each other in a circle"
check_out "" "  no cycle printed"

run python3 scripts/objcycles.py --edges "$OBJ"/*.o
for e in "progress -> fail: " "agree -> fail: " "fp -> fail: " "watch -> fail: " \
	"agree -> fp: comm__fp_differ,comm__fp_same" "coll -> agree: "; do
	printf '%s\n' "$OUT" | grep -q "^$e"
	_report $? "the edges are read: $e..." "$OUT"
done
for e in "fail -> progress" "fail -> agree" "fail -> fp" "fail -> watch" "progress -> agree" \
	"progress -> watch" "progress -> fp" "fp -> progress" "watch -> progress" "connect -> progress"; do
	! printf '%s\n' "$OUT" | grep -q "^$e:"
	_report $? "no edge $e" "$OUT"
done

done_testing
