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
cluster_up_or_end 4
REPO=$(pwd)
for i in 1 2 3 4; do echo "$(cluster_addr "$i") slots=1"; done >"$TMP/hosts"
PORT=$((20000 + $$ % 20000))

# the job's layout: $HOSTS and $MAP (by default one rank on each of 4 nodes)
HOSTS=$TMP/hosts MAP=node
mpi() {
	cluster_head timeout -k 5 90 mpirun --allow-run-as-root -x HCCLCTL_SECRET -np 4 --hostfile "$HOSTS" \
		--map-by "$MAP" --bind-to none \
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
printf '%s\n' "$OUT" | awk '/^ +[0-9]/ {n++; if ($9 != "0" || ($13 != "0" && $13 != "N/A")) bad++} END {exit !(n == 6 && !bad)}'
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

# ---- HCCL through the test stand-ins: 2 nodes x 2 NPUs, as on a real cluster ----
STUB=$REPO/build/tests/stub
if [ ! -f "$STUB/libhccl.so" ]; then
	skip "the test libraries are not built ($STUB): run make tests"
	done_testing
	exit 0
fi
for i in 1 2; do echo "$(cluster_addr "$i") slots=2"; done >"$TMP/hosts2"
# each rank's HCCL listens on its own node's address; the knobs come from the job's -x
cat >"$TMP/hccl.sh" <<EOS
#!/bin/sh
export LD_LIBRARY_PATH=$STUB ASCEND_PROCESS_LOG_PATH=$TMP/plog
export HCCL_IF_IP=\$(ip -o -4 addr show | awk '\$4 ~ /^$CL_NET\\./ { sub("/.*", "", \$4); print \$4; exit }')
exec $HCCLCTL "\$@"
EOS
HOSTS=$TMP/hosts2 MAP=slot
# two NPUs a node: the device is the node's local rank, not the global rank (2 and 3 on node 2)
run mpi -x HCCL_STUB_DEVICE_COUNT=2 sh "$TMP/hccl.sh" -v run allreduce --engine hccl \
	--master "$(cluster_addr 1):$((PORT + 2))" -b 8 -e 64K -f 8 -n 2 -w 1
check_rc 0 "mpirun -np 4 on 2 nodes of 2 NPUs, --engine hccl: exit 0"
printf '%s\n' "$OUT" | grep -q '^# hcclctl run allreduce: 4 ranks (openmpi), fp32 sum, .*engine hccl'
_report $? "  rank 0's header: 4 ranks under Open MPI, engine hccl" "$OUT"
printf '%s\n' "$OUT" | awk '/^ +[0-9]/ {n++; if ($9 != "0" || ($13 != "0" && $13 != "N/A")) bad++} END {exit !(n == 6 && !bad)}'
_report $? "  6 rows, #wrong 0 on each" "$OUT"
printf '%s\n' "$ERR" | grep -qx "hcclctl: run allreduce: rank 3: device 1 (OMPI_COMM_WORLD_LOCAL_RANK)"
_report $? "  -v: rank 3, the second of node 2, is on device 1 from OMPI_COMM_WORLD_LOCAL_RANK" "$ERR"

# a container on each node seeing NPUs 4-7 as 0-3, the table's device_id 4 and 5 (physical)
cat >"$TMP/rt47.json" <<EOJ
{"version": "1.0", "server_count": "2", "status": "completed", "server_list": [
 {"server_id": "$(cluster_addr 1)", "device": [
  {"device_id": "4", "device_ip": "192.168.1.4", "rank_id": "0"},
  {"device_id": "5", "device_ip": "192.168.1.5", "rank_id": "1"}]},
 {"server_id": "$(cluster_addr 2)", "device": [
  {"device_id": "4", "device_ip": "192.168.2.4", "rank_id": "2"},
  {"device_id": "5", "device_ip": "192.168.2.5", "rank_id": "3"}]}]}
EOJ
run mpi -x ASCEND_VISIBLE_DEVICES=4,5,6,7 -x HCCL_IF_BASE_PORT=$((PORT + 3)) sh "$TMP/hccl.sh" \
	-v run allreduce --engine hccl --ranktable "$TMP/rt47.json" \
	--master "$(cluster_addr 1):$((PORT + 4))" -b 8 -e 4K -f 8 -n 2 -w 1
check_rc 0 "mpirun, containers seeing NPUs 4-7, a table of physical ids 4 and 5: exit 0"
printf '%s\n' "$OUT" | awk '/^ +[0-9]/ {n++; if ($9 != "0" || ($13 != "0" && $13 != "N/A")) bad++} END {exit !(n == 4 && !bad)}'
_report $? "  4 rows over HcclCommInitClusterInfo, #wrong 0 on each" "$OUT"
printf '%s\n' "$ERR" | grep -qx "hcclctl: run allreduce: rank 2: the rank table's device 4 is logical device 0 (aclrtGetPhyDevIdByLogicDevId)"
_report $? "  -v: rank 2's physical 4 is its logical 0" "$ERR"

done_testing
