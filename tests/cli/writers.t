#!/bin/sh
# Every file hcclctl writes goes through one atomic writer (a mkstemp temporary beside the
# target, fsync, rename): another user who plants symlinks in a directory we write to, at the
# target or at the temporary names the old writers used (FILE.<pid>.tmp), must not make root
# overwrite what they point to. Flight dumps default to a private per-user directory, which
# is refused when someone else made it, and keeps the dumps of the last 8 jobs.
# Run as root with setpriv: the planting user is nobody (65534).
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"

as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null 2>&1 ||
	! { chmod 755 "$TMP" && as_nobody test -x "$TMP"; }; then
	skip "symlinks planted by another user: needs root, setpriv and a directory nobody can reach"
	done_testing
	exit 0
fi
export HCCLCTL_SECRET=0123456789abcdef0123456789abcdef
me=$(id -u)

# a group-shared directory anyone may write to, without the sticky bit (so no kernel
# protection against symlinks either), and /tmp's twin with it
mkdir "$TMP/shared" "$TMP/sticky"
chmod 0777 "$TMP/shared"
chmod 1777 "$TMP/sticky"
printf 'precious\n' >"$TMP/victim"
chmod 644 "$TMP/victim"
untouched() { [ "$(cat "$TMP/victim")" = precious ] && [ ! -L "$TMP/victim" ]; }
plant() { as_nobody ln -sf "$TMP/victim" "$1"; }
no_temps() { [ -z "$(find "$1" -name '.*' ! -name . -o -name '*.tmp' 2>/dev/null)" ]; }

# One rank alone, its pid known before it starts: sh writes $$ and execs hcclctl.
one_rank() {
	sh -c 'echo $$ >"$0"; exec "$@"' "$TMP/pid" "$HCCLCTL" run allreduce \
		--world-size 1 --rank 0 --master "127.0.0.1:$(free_port)" "$@"
}

# ---- --profile FILE ----
out=$TMP/shared/prof.json
cat >"$TMP/fns" <<EOF
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "\$@"; }
plant() { as_nobody ln -sf "$TMP/victim" "\$1"; }
EOF
run sh -c '. "$0"; plant "$2.$$.tmp" && plant "$2" && exec "$1" run allreduce --world-size 1 --rank 0 --master "127.0.0.1:$3" -b 8 -e 8 -n 1 -w 0 --profile "$2"' \
	"$TMP/fns" "$HCCLCTL" "$out" "$(free_port)"
check_rc 0 "--profile with symlinks planted at FILE and FILE.<pid>.tmp: exit 0"
untouched
_report $? "  the file they point to is untouched" "$(cat "$TMP/victim")"
[ -f "$out" ] && [ ! -L "$out" ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["otherData"]["ranks"] == 1' "$out"
_report $? "  the trace is at FILE, a file of its own, whole" "$(ls -l "$TMP/shared")"
[ "$(stat -c '%a %u' "$out")" = "644 $me" ]
_report $? "  mode 0644, ours" "$(stat -c '%a %u' "$out")"
rm -f "$TMP/shared"/*
no_temps "$TMP/shared"
_report $? "  no temporary left beside it" "$(ls -A "$TMP/shared")"

# ---- doctor --html FILE ----
out=$TMP/shared/d.html
run sh -c '. "$0"; plant "$2.$$.tmp" && plant "$2" && exec "$1" doctor --local --checks env.hccl --html "$2"' \
	"$TMP/fns" "$HCCLCTL" "$out"
check_err_has "hcclctl: doctor: wrote $out" "doctor --html with symlinks planted at FILE and FILE.<pid>.tmp: written"
untouched
_report $? "  the file they point to is untouched" "$(cat "$TMP/victim")"
[ -f "$out" ] && [ ! -L "$out" ] && grep -q '^<!DOCTYPE html>' "$out" && grep -q '</html>$' "$out"
_report $? "  the page is at FILE, whole" "$(ls -l "$TMP/shared")"
rm -f "$out" "$out".*.tmp
no_temps "$TMP/shared"
_report $? "  no temporary left beside it" "$(ls -A "$TMP/shared")"

# ---- ranktable gen -o FILE (the writer the others now share) ----
out=$TMP/shared/rt.json
plant "$out"
printf 'address_0=192.168.1.1\naddress_1=192.168.1.2\n' >"$TMP/hccn.conf"
run hcclctl ranktable gen --servers 10.0.0.1 --devices 0-1 --hccn-conf "$TMP/hccn.conf" -o "$out"
check_rc 0 "ranktable gen -o onto a planted symlink: exit 0"
untouched && [ -f "$out" ] && [ ! -L "$out" ] && [ "$(stat -c %a "$out")" = 644 ]
_report $? "  the table replaces the symlink; its target is untouched" "$(ls -l "$TMP/shared")" "$ERR"
rm -f "$out"

# ---- flight dumps: --flight-dir in a shared directory ----
# A running rank writes its dump on SIGUSR1. Once its name is known, nobody swaps the dump
# for a symlink and plants the old writer's temporary name; the next dump must not follow.
usr1_dump() { # $1: stderr file, $2: how many dumps (or refusals) before this one
	kill -USR1 "$(cat "$TMP/pid")"
	wi=0
	while [ "$(grep -c '^hcclctl: flight recorder: ' "$1")" -le "$2" ] && [ $wi -lt 100 ]; do
		sleep 0.1
		wi=$((wi + 1))
	done
}
start_long() { # $1: name, rest: options
	wname=$1
	shift
	one_rank -b 16M -e 16M -n 1000000 -w 0 -c 0 --timeout 120 "$@" >"$TMP/$wname.out" 2>"$TMP/$wname.err" &
	LONG=$!
	wait_line "$TMP/$wname.out" '^# hcclctl run allreduce' 101 "$LONG" || true
}
# $LONG is the subshell around one_rank; the rank is the pid it wrote, which sh exec'd
stop_long() {
	kill "$(cat "$TMP/pid")" "$LONG" 2>/dev/null
	wait "$LONG" 2>/dev/null
}

start_long fd --flight-dir "$TMP/shared"
usr1_dump "$TMP/fd.err" 0
dump=$(ls "$TMP"/shared/hcclctl-flight-*-r0.json 2>/dev/null)
[ -n "$dump" ]
_report $? "SIGUSR1 with --flight-dir: a dump" "$(cat "$TMP/fd.err")"
as_nobody rm -f "$dump"
plant "$dump"
plant "$dump.$(cat "$TMP/pid").tmp"
usr1_dump "$TMP/fd.err" 1
stop_long
untouched
_report $? "  a second dump with symlinks planted at its name and its old temporary name: the file they point to is untouched" "$(cat "$TMP/victim")"
[ -f "$dump" ] && [ ! -L "$dump" ] && [ "$(stat -c '%a %u' "$dump")" = "600 $me" ] &&
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["rank"] == 0 and d["reason"] == "signal"' "$dump"
_report $? "  the dump replaced the symlink: mode 0600, ours, whole" "$(ls -l "$TMP/shared")" "$(cat "$TMP/fd.err")"
rm -f "$TMP/shared"/*

# ---- flight dumps: the default directory, ${TMPDIR:-/tmp}/hcclctl-<uid> ----
export TMPDIR="$TMP/sticky"
priv=$TMP/sticky/hcclctl-$me
mkdir "$TMP/elsewhere"
as_nobody ln -s "$TMP/elsewhere" "$priv"
start_long sym
usr1_dump "$TMP/sym.err" 0
stop_long
grep -qxF "hcclctl: flight recorder: $priv is not a private directory of user $me (a symlink, owner 65534, mode 0777); nothing was written there: remove it, or give --flight-dir DIR" "$TMP/sym.err"
_report $? "a symlink planted at the default directory is refused, saying why and what to do" "$(cat "$TMP/sym.err")"
ok "[ -z \"\$(ls -A '$TMP/elsewhere')\" ]" "  nothing was written where it points"
rm -f "$priv"
as_nobody mkdir -m 0700 "$priv"
start_long dir
usr1_dump "$TMP/dir.err" 0
stop_long
grep -qxF "hcclctl: flight recorder: $priv is not a private directory of user $me (a directory, owner 65534, mode 0700); nothing was written there: remove it, or give --flight-dir DIR" "$TMP/dir.err"
_report $? "a directory another user made there is refused" "$(cat "$TMP/dir.err")"
rmdir "$priv"

# retention: ten older jobs there, a file of another kind, then a new job's dump
mkdir -m 0700 "$priv"
for j in 0 1 2 3 4 5 6 7 8 9; do
	for r in 0 1; do
		printf '{}\n' >"$priv/hcclctl-flight-00000000000000a$j-r$r.json"
		touch -d "2026-01-1$j 00:00:00" "$priv/hcclctl-flight-00000000000000a$j-r$r.json"
	done
done
touch -d "2020-01-01" "$priv/notes.txt"
start_long keep
usr1_dump "$TMP/keep.err" 0
stop_long
grep -q "^hcclctl: flight recorder: rank 0 wrote $priv/hcclctl-flight-[0-9a-f]*-r0.json (SIGUSR1)\$" "$TMP/keep.err"
_report $? "the default directory: the dump is written there" "$(cat "$TMP/keep.err")"
[ "$(stat -c '%a %u' "$priv")" = "700 $me" ]
_report $? "  the directory is ours, mode 0700" "$(stat -c '%a %u' "$priv")"
kept=$(ls "$priv" | sed -n 's/^hcclctl-flight-\(.*\)-r[0-9]*\.json$/\1/p' | sort -u | tr '\n' ' ')
new=$(ls "$priv" | grep -v '0000000000000a' | grep flight | sed 's/^hcclctl-flight-\(.*\)-r0\.json$/\1/')
want=$(printf '%s\n' 00000000000000a3 00000000000000a4 00000000000000a5 00000000000000a6 \
	00000000000000a7 00000000000000a8 00000000000000a9 "$new" | sort | tr '\n' ' ')
[ "$kept" = "$want" ] && [ "$(ls "$priv" | grep -c '0000000000000a')" = 14 ]
_report $? "  8 jobs are kept: this one and the 7 newest before it, every rank's file of each" "kept: $kept" "want: $want"
ok "[ -e '$priv/notes.txt' ]" "  a file that is not a dump is left alone"

done_testing
