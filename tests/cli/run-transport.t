#!/bin/sh
# run --local over shared memory: ranks of one host (same kernel, network and pid namespace)
# link through shared memory by default, HCCLCTL_TRANSPORT=tcp forces TCP, and -v and --json
# say which each link is. Each collective is checked by its own #wrong count (0) with the
# sizes crossing the ring's capacity (4 MiB: the ring wraps, sends run ahead); at 4 ranks the
# sweep's barrier (dissemination, r +- 1, r +- 2) links every rank to all three others.
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"
# ranks of another launcher share one secret (HCCLCTL_SECRET), as a real job must
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_SECRET

# "rank shm tcp" per rank from the -v lines
links() { printf '%s\n' "$ERR" | sed -n 's/^hcclctl: run [a-z]*: rank \([0-9]*\): links: \([0-9]*\) shm, \([0-9]*\) tcp.*$/\1 \2 \3/p' | sort -n; }
# the JSON's links, checked against the per-rank counts: "shm tcp" (each link once)
json_links() {
	printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
l = d["links"]
assert all(r["wrong"] == 0 for r in d["results"]), d["results"]
per = l["per_rank"]
assert [p["rank"] for p in per] == list(range(d["world_size"]))
assert sum(p["shm"] for p in per) == 2 * l["shm"] and sum(p["tcp"] for p in per) == 2 * l["tcp"]
print(l["shm"], l["tcp"])'
}

run hcclctl -v run allreduce --local 4 -b 8 -e 16M -f 16 -n 2 -w 1
check_rc 0 "allreduce over 4 local ranks, 8 B to 16 MiB, default transport"
[ "$(links)" = "0 3 0
1 3 0
2 3 0
3 3 0" ]
_report $? "  -v: every rank's 3 links are shared memory" "$(links)"
[ "$(printf '%s\n' "$OUT" | awk '/^ +[0-9]/ && $9 != 0' | wc -l)" -eq 0 ] && \
	[ "$(printf '%s\n' "$OUT" | grep -c '^ \+[0-9]')" -eq 7 ]
_report $? "  7 sizes (8 B .. 16 MiB), 0 wrong" "$OUT"

for coll in allgather reducescatter broadcast sendrecv alltoall; do
	run hcclctl --json run $coll --local 4 -b 1K -e 8M -f 64 -n 2 -w 1
	check_rc 0 "--json $coll over 4 local ranks"
	[ "$(json_links)" = "6 0" ]
	_report $? "  0 wrong; links: 6 shm, 0 tcp" "$(json_links 2>&1)" "$OUT"
done

run env HCCLCTL_TRANSPORT=tcp "$HCCLCTL" -v run allreduce --local 4 -b 8 -e 1M -f 128 -n 2 -w 1
check_rc 0 "HCCLCTL_TRANSPORT=tcp: the same job"
check_err_has "hcclctl: run allreduce: rank 0: links: 0 shm, 3 tcp (to ranks 1 2 3: HCCLCTL_TRANSPORT=tcp)" \
	"  -v says rank 0's links are TCP, and why"
check_err_has "hcclctl: run allreduce: rank 2: links: 0 shm, 3 tcp (to ranks 0 1 3: HCCLCTL_TRANSPORT=tcp)" \
	"  ... and rank 2's"
[ "$(printf '%s\n' "$OUT" | awk '/^ +[0-9]/ && $9 != 0' | wc -l)" -eq 0 ]
_report $? "  0 wrong" "$OUT"

run env HCCLCTL_TRANSPORT=tcp "$HCCLCTL" --json run allreduce --local 3 -b 4M -e 4M -n 1 -w 0
check_rc 0 "HCCLCTL_TRANSPORT=tcp --json"
[ "$(json_links)" = "0 3" ]
_report $? "  links: 0 shm, 3 tcp" "$(json_links 2>&1)"

run env HCCLCTL_TRANSPORT=shm "$HCCLCTL" --json run allreduce --local 3 -b 4M -e 4M -n 1 -w 0
check_rc 0 "HCCLCTL_TRANSPORT=shm: shared memory demanded, and had"
[ "$(json_links)" = "3 0" ]
_report $? "  links: 3 shm, 0 tcp" "$(json_links 2>&1)"

run env HCCLCTL_TRANSPORT=fast "$HCCLCTL" run barrier --local 2 -n 1 -w 0
check_rc 3 "HCCLCTL_TRANSPORT=fast: exit 3 (cannot run)"
check_err_has "hcclctl: run barrier: init: HCCLCTL_TRANSPORT='fast' is not one of auto, tcp, shm" \
	"  the variable and its three values named"

# the polling before a sleep: 0 sleeps at once (ranks that share their cores), the sums the
# same; a value that is not a whole number of microseconds in range fails init, named
run env HCCLCTL_TRANSPORT=shm HCCLCTL_SPIN_US=0 "$HCCLCTL" run allreduce --local 3 -b 8 -e 64K -f 8 -n 20 -w 2 -c 1
check_rc 0 "HCCLCTL_SPIN_US=0 over rings: every size checked, exit 0"
for v in -1 2.5 1000001 20us; do
	run env HCCLCTL_SPIN_US=$v "$HCCLCTL" run barrier --local 2 -n 1 -w 0
	check_rc 3 "HCCLCTL_SPIN_US=$v: exit 3 (cannot run)"
	check_err_has "hcclctl: run barrier: init: HCCLCTL_SPIN_US='$v' is not a whole number of microseconds from 0 to 1000000" \
		"  the variable, its value and the range named"
done

# Ranks of one host run by two users (containers often do): the accepting rank may not open
# the other's memfd, so that link stays TCP and -v says why on both sides; sums still right.
# The rank of nobody runs a copy, whatever the checkout's directories allow.
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1; then
	mkdir "$TMP/nobody" && cp "$HCCLCTL" "$TMP/nobody/hcclctl" &&
		chmod 755 "$TMP" "$TMP/nobody" "$TMP/nobody/hcclctl"
fi
if ! as_nobody "$TMP/nobody/hcclctl" --version >/dev/null 2>&1; then
	skip "ranks of two users: needs root, setpriv and a temporary directory nobody can reach"
	skip "  ... the reason named on both ranks"
	skip "HCCLCTL_TRANSPORT=shm, two users: needs root, setpriv and a temporary directory nobody can reach"
	skip "  ... no rank called dead or lost: needs the same"
else
	port=$(free_port)
	"$HCCLCTL" -v run allreduce --rank 0 --world-size 2 --master 127.0.0.1:$port -b 8 -e 1M -f 16 \
		-n 2 -w 1 >"$TMP/u0.out" 2>"$TMP/u0.err" &
	pid0=$!
	run as_nobody "$TMP/nobody/hcclctl" -v run allreduce \
		--rank 1 --world-size 2 --master 127.0.0.1:$port -b 8 -e 1M -f 16 -n 2 -w 1
	wait $pid0
	rc0=$?
	why="cannot map the other rank's shared memory segment: Permission denied"
	[ "$RC" -eq 0 ] && [ "$rc0" -eq 0 ] &&
		[ "$(awk '/^ +[0-9]/ && $9 != 0' "$TMP/u0.out" | wc -l)" -eq 0 ] &&
		[ "$(grep -c '^ \+[0-9]' "$TMP/u0.out")" -eq 6 ]
	_report $? "ranks of two users (root, nobody): both exit 0, 6 sizes (8 B .. 1 MiB), 0 wrong" \
		"rank 1: $RC $ERR" "rank 0: $rc0 $(cat "$TMP/u0.err")" "$(cat "$TMP/u0.out")"
	grep -qxF "hcclctl: run allreduce: rank 0: links: 0 shm, 1 tcp (to rank 1: $why)" \
		"$TMP/u0.err" &&
		printf '%s\n' "$ERR" |
		grep -qxF "hcclctl: run allreduce: rank 1: links: 0 shm, 1 tcp (to rank 0: $why)"
	_report $? "  the link is TCP, and both ranks say why" "rank 1: $ERR" \
		"rank 0: $(cat "$TMP/u0.err")"

	# the same with shared memory demanded: both fail at once naming it, neither the other
	port=$(free_port)
	HCCLCTL_TRANSPORT=shm "$HCCLCTL" run allreduce --rank 0 --world-size 2 \
		--master 127.0.0.1:$port -b 8 -e 8 -n 1 -w 0 >"$TMP/u0.out" 2>"$TMP/u0.err" &
	pid0=$!
	run as_nobody env HCCLCTL_TRANSPORT=shm "$TMP/nobody/hcclctl" run allreduce --rank 1 --world-size 2 \
		--master 127.0.0.1:$port -b 8 -e 8 -n 1 -w 0
	wait $pid0
	rc0=$?
	cause="HCCLCTL_TRANSPORT=shm but the link to rank 1 cannot be shared memory: $why"
	[ "$RC" -eq 3 ] && [ "$rc0" -eq 3 ] &&
		grep -qF "rank 0 (host $(hostname)): allreduce #1 step 0: connection to rank 1 (host $(hostname)) at 127.0.0.1:" "$TMP/u0.err" &&
		grep -qF "$cause" "$TMP/u0.err" &&
		printf '%s\n' "$ERR" | grep -qxF "hcclctl: run allreduce: rank 1 (host $(hostname)): allreduce #1 step 0: HCCLCTL_TRANSPORT=shm but the link to rank 0 cannot be shared memory: $why"
	_report $? "HCCLCTL_TRANSPORT=shm, two users: both exit 3, each naming the mapping that failed" \
		"rank 1: $RC $ERR" "rank 0: $rc0 $(cat "$TMP/u0.err")"
	! grep -q 'dead-rank\|lost before' "$TMP/u0.err" && ! printf '%s' "$ERR" | grep -q 'dead-rank\|lost before'
	_report $? "  no rank is called dead or lost" "rank 1: $ERR" "rank 0: $(cat "$TMP/u0.err")"
fi

# Nothing of a link is ever a name in /dev/shm (a memfd), so runs leave it as it was.
ls -a /dev/shm >"$TMP/shm0" 2>/dev/null
run hcclctl run allreduce --local 3 -b 1M -e 1M -n 1 -w 0
ls -a /dev/shm >"$TMP/shm1" 2>/dev/null
cmp -s "$TMP/shm0" "$TMP/shm1"
_report $? "/dev/shm holds nothing new after a run" "$(diff "$TMP/shm0" "$TMP/shm1")"

done_testing
