# hcclctl under Open MPI's mpirun across 4 network namespaces: mpirun (in the head namespace)
# starts one orted per node through bench/nsexec.sh (ip netns exec, no ssh), each starts one
# `hcclctl run allreduce --master 10.77.0.1:PORT`, which finds its rank in
# OMPI_COMM_WORLD_RANK/SIZE; rank 0 hosts the rendezvous. The collectives must be exact.
. "$(dirname "$0")/../cli/lib.sh"
# ranks of another launcher share one secret (HCCLCTL_SECRET), as a real job must
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_SECRET
. "$(dirname "$0")/netns.sh"

cluster_require
if ! command -v mpirun >/dev/null 2>&1; then
	skip "mpirun: Open MPI (openmpi-bin) is not installed"
	done_testing
	exit 0
fi
if ! cluster_up 4; then
	_report 1 "cluster_up 4"
	done_testing
	exit 1
fi
REPO=$(pwd)
for i in 1 2 3 4; do echo "$(cluster_addr "$i") slots=1"; done >"$TMP/hosts"
PORT=$((20000 + $$ % 20000))

mpi() {
	cluster_head timeout -k 5 90 mpirun --allow-run-as-root -x HCCLCTL_SECRET -np 4 --hostfile "$TMP/hosts" \
		--map-by node --bind-to none \
		--mca plm_rsh_agent "sh $REPO/bench/nsexec.sh $CL_ID $TMP" \
		--mca plm_rsh_no_tree_spawn 1 --mca orte_startup_timeout 30 \
		--mca btl self,tcp --mca btl_tcp_if_include "$CL_NET.0/24" \
		--mca oob_tcp_if_include "$CL_NET.0/24" \
		-x HCCLCTL_SECRET=00112233445566778899aabbccddeeff "$@" </dev/null
}

run mpi "$HCCLCTL" run allreduce --master "$(cluster_addr 1):$PORT" -b 1K -e 1M -f 4 -n 3 -w 1
if [ "$RC" -ne 0 ] && printf '%s\n' "$ERR" | grep -q "orted\|ORTE"; then
	# an orted that never reports back is Open MPI's, now and then: once more
	run mpi "$HCCLCTL" run allreduce --master "$(cluster_addr 1):$PORT" -b 1K -e 1M -f 4 -n 3 -w 1
fi
check_rc 0 "mpirun -np 4 across 4 namespaces: exit 0"
printf '%s\n' "$OUT" | grep -q '^# hcclctl run allreduce: 4 ranks (openmpi), fp32 sum'
_report $? "  rank 0's header: 4 ranks, launched by Open MPI" "$OUT"
printf '%s\n' "$OUT" | awk '/^ +[0-9]/ {n++; if ($NF != "0") bad++} END {exit !(n == 6 && !bad)}'
_report $? "  6 rows (1 KiB .. 1 MiB), #wrong 0 on each" "$OUT"

# mismatched arguments under mpirun are named too (rank 3 with another size)
cat >"$TMP/odd.sh" <<EOS
#!/bin/sh
if [ "\$OMPI_COMM_WORLD_RANK" = 3 ]; then exec $HCCLCTL "\$@" -b 2K -e 2K; fi
exec $HCCLCTL "\$@" -b 1K -e 1K
EOS
chmod +x "$TMP/odd.sh"
run mpi "$TMP/odd.sh" run allreduce --master "$(cluster_addr 1):$((PORT + 1))" -n 1 -w 0
[ "$RC" -ne 0 ] && printf '%s\n' "$ERR" | grep -q "hcclctl: verdict: mismatch: .*count"
_report $? "a count mismatch under mpirun: non-zero exit, the verdict names the count" "$RC" "$ERR"

done_testing
