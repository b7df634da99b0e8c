#!/bin/sh
# A mixed job: four ranks, two in each of two network namespaces of this machine. A pair in
# one namespace links through shared memory, a pair across namespaces through TCP (another
# network namespace stands for another host: the cluster tests and the shaped-link benches
# run one rank per namespace), and -v says which and why. Run as root (`ip netns`); skips
# elsewhere.
. "$(dirname "$0")/../cli/lib.sh"
# ranks of another launcher share one secret (HCCLCTL_SECRET), as a real job must
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_SECRET
. "$(dirname "$0")/netns.sh"

cluster_require
cluster_up_or_end 2

PORT=29611
# ranks 0 and 1 on node 1 (rank 0 hosts the rendezvous), ranks 2 and 3 on node 2
start() {
	for r in 0 1 2 3; do
		node=$((r / 2 + 1))
		cluster_exec $node env "$@" "$HCCLCTL" -v run allreduce --rank $r --world-size 4 \
			--master "$(cluster_addr 1):$PORT" -b 1K -e 8M -f 32 -n 2 -w 1 --timeout 30 \
			>"$TMP/r$r.out" 2>"$TMP/r$r.err" &
		eval "P$r=\$!"
	done
	RCS=
	for r in 0 1 2 3; do
		eval "wait \$P$r"
		RCS="$RCS$? "
	done
}

start HCCLCTL_TRANSPORT=auto
[ "$RCS" = "0 0 0 0 " ]
_report $? "4 ranks in 2 namespaces: allreduce 1 KiB .. 8 MiB, every rank exits 0" "$RCS" \
	"$(cat "$TMP"/r*.err)"
[ "$(awk '/^ +[0-9]/ && $9 != 0' "$TMP/r0.out" | wc -l)" -eq 0 ] &&
	[ "$(grep -c '^ \+[0-9]' "$TMP/r0.out")" -eq 4 ]
_report $? "  4 sizes, 0 wrong" "$(cat "$TMP/r0.out")"
# two hosts (namespaces) of one machine are not one host: 1 KiB by rhd, not in one step
[ "$(awk '/^ +[0-9]/ && $1 == 1024 { print $NF }' "$TMP/r0.out")" = rhd ]
_report $? "  1 KiB across two namespaces: rhd" "$(cat "$TMP/r0.out")"
for r in 0 1 2 3; do
	mate=$((r ^ 1))
	if [ $r -lt 2 ]; then far="2 3"; else far="0 1"; fi
	grep -qxF "hcclctl: run allreduce: rank $r: links: 1 shm, 2 tcp (to ranks $far: another network namespace)" \
		"$TMP/r$r.err"
	_report $? "  rank $r: shared memory to rank $mate, TCP to ranks $far (another namespace)" \
		"$(cat "$TMP/r$r.err")"
done

# demanding shared memory does not make other namespaces an error: they are other hosts
start HCCLCTL_TRANSPORT=shm
[ "$RCS" = "0 0 0 0 " ] &&
	grep -qxF "hcclctl: run allreduce: rank 2: links: 1 shm, 2 tcp (to ranks 0 1: another network namespace)" \
		"$TMP/r2.err"
_report $? "HCCLCTL_TRANSPORT=shm: the same links, exit 0" "$RCS" "$(cat "$TMP"/r*.err)"

done_testing
