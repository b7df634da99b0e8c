#!/bin/sh
# run --local with lazy links: each rank connects to a peer the first time a collective needs
# it, and -v says how many peers each rank ended with; HCCLCTL_CONNECT=full is the mesh of
# every link in init. Counts are checked against the peers the algorithms name, computed
# here: the sweep's barrier (dissemination: r +- 2^k) and the allreduces (rhd at 16 ranks:
# r xor 2^k, a subset of those).
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"

# "rank count" per rank from the -v lines
conns() { printf '%s\n' "$ERR" | sed -n 's/^hcclctl: run [a-z]*: rank \([0-9]*\): \([0-9]*\) peer connections of \([0-9]*\) ranks, peak RSS [0-9]* KiB$/\1 \2 \3/p' | sort -n; }
# what dissemination's peers (r +- 2^k mod n, 2^k < n) come to for every rank
want_dissem() {
	python3 -c '
import sys
n = int(sys.argv[1])
for r in range(n):
    s = set()
    d = 1
    while d < n:
        s.add((r + d) % n); s.add((r - d) % n); d *= 2
    s.discard(r)
    print(r, len(s), n)' "$1"
}

run hcclctl -v run allreduce --local 16 -b 8 -e 8 -n 1 -w 0
check_rc 0 "allreduce over 16 local ranks, lazy links"
[ "$(conns)" = "$(want_dissem 16)" ]
_report $? "every rank holds the links its barrier and allreduces name (7 of 15)" "$(conns)"

run env HCCLCTL_CONNECT=full "$HCCLCTL" -v run allreduce --local 16 -b 8 -e 8 -n 1 -w 0
check_rc 0 "HCCLCTL_CONNECT=full: the same job"
[ "$(conns)" = "$(python3 -c 'print("\n".join("%d 15 16" % r for r in range(16)))')" ]
_report $? "  every rank holds all 15 links" "$(conns)"

run env HCCLCTL_CONNECT=lazy "$HCCLCTL" -v run allreduce --local 12 -b 1M -e 1M -n 1 -w 0 --algo ring
check_rc 0 "HCCLCTL_CONNECT=lazy, a 1 MiB ring allreduce over 12 ranks"
# dissemination at 12: r+-1, r+-2, r+-4 (r+-8 is r-+4): 6 of 11; the ring (r+-1) and the
# folded rhd of the results (r+-4 across the fold, r xor 1, 2, 4 inside) add none
[ "$(conns)" = "$(want_dissem 12)" ]
_report $? "  the links of its barrier, 6 per rank" "$(conns)"

# Every rank needs every other in its first collective: all connect at once, the lower of
# two always the one that connects.
run hcclctl -v run alltoall --local 16 -b 64 -e 64 -n 1 -w 0
check_rc 0 "alltoall over 16 ranks, every link made at once"
[ "$(conns)" = "$(python3 -c 'print("\n".join("%d 15 16" % r for r in range(16)))')" ]
_report $? "  every rank holds all 15 links" "$(conns)"

run env HCCLCTL_CONNECT=some "$HCCLCTL" run barrier --local 2 -n 1 -w 0
check_rc 3 "HCCLCTL_CONNECT=some: exit 3 (cannot run)"
check_err_has "hcclctl: run barrier: init: HCCLCTL_CONNECT='some' is not one of lazy, full" \
	"  the variable and its two values named"

run hcclctl run barrier --local 4097
check_rc 64 "--local above 4096: usage error"
check_err "hcclctl: run barrier: invalid value '4097' for --local
hint: a whole number from 1 to 4096" "  with the range"

# a rank behind its peers accepts a link made for a later collective while still in an
# earlier one (a broadcast's tree, then the barrier's links): the link does not count in
# the earlier one's check (before, 4 runs in 10 of this failed as a mismatch)
bad=0
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
	"$HCCLCTL" run broadcast --local 4 -b 8 -e 1M -f 2 -w 2 -n 2 >"$TMP/bc.out" 2>"$TMP/bc.err" || {
		bad=$((bad + 1))
		cp "$TMP/bc.err" "$TMP/bc.bad"
	}
done
[ "$bad" = 0 ]
_report $? "broadcast then barrier at 18 sizes, 4 ranks, 16 runs: no false mismatch" "$(cat "$TMP/bc.bad" 2>/dev/null)"

done_testing
