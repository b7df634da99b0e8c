# hcclctl run --engine hccl --ranktable FILE --ssh across network namespaces, against the
# test stand-ins for CANN (tests/stub): every rank joins HCCL's communicator with
# HcclCommInitClusterInfo(table, rank) on the device of its entry; results exact; an HCCL
# error and a rank stuck inside HCCL are named with their node and device, in seconds; doctor
# --deep runs its allreduce on HCCL where the libraries load. Run as root; skips elsewhere.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/netns.sh"

STUB=$(pwd)/build/tests/stub
err_has() { printf '%s\n' "$ERR" | grep -qF -- "$1"; }

if [ ! -f "$STUB/libhccl.so" ]; then
	skip "the test libraries are not built ($STUB): run make tests"
	done_testing
	exit 0
fi
cluster_require
cluster_up_or_end 3

mkdir -p "$TMP/hccn"
for i in 1 2 3; do
	printf 'address_0=192.168.10.%d\naddress_1=192.168.11.%d\n' "$i" "$i" >"$TMP/hccn/10.77.0.$i"
done
hcclctl ranktable gen --servers "$(cluster_hosts)" --devices 0-1 --hccn-conf-dir "$TMP/hccn" \
	-o "$TMP/rt.json" 2>/dev/null
RT=$TMP/rt.json

# What a node's login shell would get from CANN's set_env.sh: the libraries on the loader's
# path. The wrapper is the remote hcclctl; the stand-ins' knobs come from $TMP/knobs.
: >"$TMP/knobs"
cat >"$TMP/hcclctl-env" <<EOF
#!/bin/sh
export LD_LIBRARY_PATH="$STUB"
export ASCEND_PROCESS_LOG_PATH="$TMP/plog-\$HCCLCTL_NODE"
export HCCL_IF_BASE_PORT=61000
. "$TMP/knobs"
exec "$HCCLCTL" "\$@"
EOF
chmod +x "$TMP/hcclctl-env"
knobs() { printf 'export %s\n' "$@" >"$TMP/knobs"; }

rx() {
	cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" run "$@" --ssh --ssh-user root \
		--ssh-key "$CL_KEY" --ssh-known-hosts "$CL_KNOWN_HOSTS" --remote-hcclctl "$TMP/hcclctl-env"
}
rows_ok() { # every row has #wrong 0, and there are $1 of them
	printf '%s\n' "$OUT" | awk -v want="$1" '/^ +[0-9]/ {n++; if ($9 != "0") bad++} END {exit !(n == want && !bad)}'
}

run rx allreduce --engine hccl --ranktable "$RT" -b 8 -e 1M -n 2 -w 1
check_rc 0 "run allreduce --engine hccl --ssh, 6 ranks on 3 nodes: exit 0"
printf '%s\n' "$OUT" | head -1 | grep -qxF '# hcclctl run allreduce: 6 ranks (ssh), fp32 sum, algo auto, iters 2, warmup 1, check on, engine hccl'
_report $? "  rank 0's header: 6 ranks over ssh, engine hccl" "$OUT"
rows_ok 18
_report $? "  18 rows, #wrong 0 on every one" "$OUT"
cluster_none_left
_report $? "  no hcclctl left on any node" "$(cluster_procs)"

for c in allgather reducescatter broadcast alltoall sendrecv; do
	run rx $c --engine hccl --ranktable "$RT" -b 64 -e 64K -f 8 -n 1 -w 1 -r 5 -d bf16
	check_rc 0 "$c --engine hccl across the nodes, bf16: exit 0"
	rows_ok 5
	_report $? "  5 rows, every element right" "$OUT"
done

run rx reducescatter --json --engine hccl --ranktable "$RT" -b 96 -e 6K -d int32 -o min
check_rc 0 "--json: exit 0"
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["world_size"] == 6 and d["launch"] == "ssh" and d["engine"] == "hccl", d
assert len(d["results"]) == 7 and all(r["wrong"] == 0 for r in d["results"]), d
'
_report $? "  rank 0's document, engine hccl" "$OUT"

# ---- an HCCL error on node 2's second device ----
knobs HCCL_STUB_ERROR_RANK=3 HCCL_STUB_ERROR_CODE=12 HCCL_STUB_AT=2
run rx allreduce --engine hccl --ranktable "$RT" -b 8 -e 64 -n 1 -w 1
check_rc 2 "rank 3's HcclAllReduce returns HCCL_E_ROCE_CONNECT: exit 2"
err_has "hccl-error: rank 3 (server 10.77.0.2, device 1): HcclAllReduce returned HCCL_E_ROCE_CONNECT (12): roce connect fail; its plog: $TMP/plog-n2"
_report $? "  named with its server, device, the code and its node's plog directory" "$ERR"
cluster_none_left
_report $? "  no hcclctl left on any node" "$(cluster_procs)"

# ---- a rank stuck in HCCL on node 3 ----
knobs HCCL_STUB_HANG_RANK=4 HCCL_STUB_AT=3 HCCLCTL_HCCL_STALL=2
t0=$(date +%s%N)
run rx allreduce --engine hccl --ranktable "$RT" -b 8 -e 64 -n 2 -w 1
ms=$((($(date +%s%N) - t0) / 1000000))
check_rc 2 "rank 4 hangs inside its third HcclAllReduce: exit 2"
err_has "stuck-rank: rank 4 (server 10.77.0.3, device 0) stuck in HcclAllReduce: no progress for 2."
_report $? "  the verdict names rank 4, its server and device" "$ERR"
err_has "its plog: $TMP/plog-n3"
_report $? "  and its plog directory on its node" "$ERR"
printf '%s\n' "$ERR" | tail -1 | grep -q '^hcclctl: verdict: stuck-rank: rank 4 (server 10.77.0.3, device 0) stuck in HcclAllReduce'
_report $? "  the launcher's own verdict line is the ranks' verdict" "$ERR"
ok "[ $ms -lt 15000 ]" "  within seconds ($ms ms, stall limit 2 s), not at HCCL's timeout"
echo "# stuck rank over ssh, 6 ranks on 3 nodes: run ended after $ms ms"
printf '%s\n' "$ERR" | sed 's/^/#   /' | head -12
cluster_none_left
_report $? "  no hcclctl left on any node, the stuck one included" "$(cluster_procs)"

# ---- doctor --deep: its allreduce on HCCL where every rank loads it ----
# (a stall limit above what one 16 MiB call of the stand-in takes on a loaded 2-core machine,
# several seconds: this case is about the engine chosen and the verdict, not about stalls)
knobs HCCLCTL_HCCL_STALL=30
run cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" doctor --ranktable "$RT" --deep --checks run \
	--ssh-user root --ssh-key "$CL_KEY" --ssh-known-hosts "$CL_KNOWN_HOSTS" \
	--remote-hcclctl "$TMP/hcclctl-env"
printf '%s\n' "$OUT" | grep -q '^PASS  run.allreduce .*over the rank table on HCCL, exact'
_report $? "doctor --deep: run.allreduce ran on HCCL (--engine auto) and passed" "$OUT" "$ERR"
run cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" doctor --ranktable "$RT" --deep --checks run \
	--ssh-user root --ssh-key "$CL_KEY" --ssh-known-hosts "$CL_KNOWN_HOSTS" \
	--remote-hcclctl "$HCCLCTL"
# PASS, or a WARN naming a slow rank (libcomm's judgement; these nodes share two cores)
printf '%s\n' "$OUT" | grep -Eq '^(PASS  run.allreduce .*over the rank table on libcomm over host TCP, exact|WARN  run.allreduce .*allreduce on libcomm over host TCP [0-9.]+ GB/s busbw, )'
_report $? "  without the libraries on the nodes: on libcomm, and says so" "$OUT" "$ERR"

done_testing
