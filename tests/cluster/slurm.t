# hcclctl under a real Slurm on this machine (tests/cluster/slurm.sh): srun jobs of run
# allreduce (exact results, one JSON document for the whole job, the rendezvous from Slurm's
# environment without --master), a rank killed under srun, a count mismatch; doctor --local
# on every task folded by doctor --merge; and doctor as the node's health check draining the
# node through the real slurmctld (and undoing only its own drain).
. "$(dirname "$0")/../cli/lib.sh"
# ranks of another launcher share one secret (HCCLCTL_SECRET), as a real job must
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_SECRET
. "$(dirname "$0")/slurm.sh"

if ! slurm_supported; then
	skip "slurm: $SLURM_SKIP"
	done_testing
	exit 0
fi
BIN=$(pwd)/build/tests/stub/bin
NS=$(pwd)/tests/data/npu-smi
export HCCLCTL_NPU_SMI=$BIN/npu-smi FAKE_NPU_SMI_DIR=$NS/a2
unset SLURMD_NODENAME SLURM_PROCID SLURM_NTASKS SLURM_JOB_ID
# slurmd runs the health check as a script with its own environment: this one tells it
# which fake npu-smi to use, and does nothing until the test switches it on
cat >"$TMP/healthcheck.sh" <<EOS
#!/bin/sh
[ -f "$TMP/hc.on" ] || exit 0
export HCCLCTL_NPU_SMI=$BIN/npu-smi FAKE_NPU_SMI_DIR=$NS/a2-down:$NS/a2 SLURM_CONF=$TMP/slurm/slurm.conf
exec $HCCLCTL doctor --local --checks link.hccs --on-fail drain --on-pass resume
EOS
chmod +x "$TMP/healthcheck.sh"
t0=$(date +%s)
if ! slurm_up "HealthCheckProgram=$TMP/healthcheck.sh" "HealthCheckInterval=2" \
	"HealthCheckNodeState=ANY"; then
	_report 1 "slurm_up: munged, slurmctld and slurmd on 127.0.0.1" \
		"$(tail -5 "$SL_DIR"/*.out "$SL_DIR"/*.log 2>/dev/null)"
	done_testing
	exit 1
fi
_report 0 "slurm_up: munged, slurmctld and slurmd on 127.0.0.1, node $SL_NODE idle"

lap() { echo "# $(($(date +%s) - t0)) s: $1"; }
sr() { timeout -k 5 90 srun --overcommit "$@" </dev/null; }

# --- run allreduce: exact, one document, no --master ---
MASTER_PORT=$(free_port) run sr -n 4 "$HCCLCTL" --json run allreduce -b 8 -e 4K -f 8 -n 2 -w 1
check_rc 0 "srun -n 4 run allreduce (rendezvous from SLURM_* and MASTER_PORT, no --master): exit 0"
printf '%s' "$OUT" >"$TMP/one.json"
python3 - "$TMP/one.json" <<'EOP'
import json, sys
doc = json.load(open(sys.argv[1]))  # the whole of stdout: exactly one document
assert doc["world_size"] == 4 and doc["launch"] == "slurm", doc
assert [r["size_bytes"] for r in doc["results"]] == [8, 64, 512, 4096], doc["results"]
assert all(r["wrong"] == 0 for r in doc["results"]), doc["results"]
# busbw is algbw times 2(n-1)/n for allreduce
for r in doc["results"]:
    assert abs(r["busbw_GBps"] - r["algbw_GBps"] * 1.5) <= 1e-9 * max(1, r["busbw_GBps"]), r
EOP
_report $? "  stdout is one JSON document: 4 ranks launched by slurm, 4 sizes, 0 wrong, busbw = 1.5 algbw" "$OUT"

MASTER_PORT=$(free_port) run sr -n 3 "$HCCLCTL" run allreduce -b 1K -e 1K -d int32 -n 1 -w 0
check_rc 0 "srun -n 3 text output: exit 0"
[ "$(printf '%s\n' "$OUT" | grep -c '^# hcclctl run allreduce: 3 ranks (slurm), int32 sum')" -eq 1 ] &&
	[ "$(printf '%s\n' "$OUT" | awk '/^ +1024 /{print $9}')" = 0 ]
_report $? "  one header (rank 0's), the 1 KiB row with #wrong 0" "$OUT"

# --- --engine hccl through the test stand-ins: the device from SLURM_LOCALID, and a
# container's physical ids (one node here: local and global ranks agree; mpirun.t shows a
# second node) ---
STUB=$(pwd)/build/tests/stub
if [ -f "$STUB/libhccl.so" ]; then
	HP=$(free_port)
	MASTER_PORT=$(free_port) run sr -n 2 env LD_LIBRARY_PATH="$STUB" HCCL_IF_BASE_PORT="$HP" \
		ASCEND_PROCESS_LOG_PATH="$TMP/plog" "$HCCLCTL" -v run allreduce --engine hccl -b 8 -e 4K -f 8 -n 2 -w 1
	check_rc 0 "srun -n 2 --engine hccl: exit 0"
	printf '%s\n' "$OUT" | awk '/^ +[0-9]/ {n++; if ($9 != "0" || ($13 != "0" && $13 != "N/A")) bad++} END {exit !(n == 4 && !bad)}'
	_report $? "  4 rows, #wrong 0 on each" "$OUT"
	printf '%s\n' "$ERR" | grep -qx "hcclctl: run allreduce: rank 1: device 1 (SLURM_LOCALID)"
	_report $? "  -v: rank 1's device from SLURM_LOCALID" "$ERR"
	cat >"$TMP/rt47.json" <<EOJ
{"version": "1.0", "server_count": "1", "status": "completed",
 "server_list": [{"server_id": "127.0.0.1", "device": [
   {"device_id": "4", "device_ip": "192.168.100.4", "rank_id": "0"},
   {"device_id": "5", "device_ip": "192.168.100.5", "rank_id": "1"}]}]}
EOJ
	MASTER_PORT=$(free_port) run sr -n 2 env LD_LIBRARY_PATH="$STUB" HCCL_IF_BASE_PORT="$HP" \
		ASCEND_VISIBLE_DEVICES=4,5,6,7 HCCL_STUB_NO_PHYID=1 ASCEND_PROCESS_LOG_PATH="$TMP/plog" \
		"$HCCLCTL" -v run allreduce --engine hccl --ranktable "$TMP/rt47.json" -b 8 -e 4K -f 8 -n 2 -w 1
	check_rc 0 "srun -n 2, a container seeing NPUs 4-7, the table's devices 4 and 5: exit 0"
	printf '%s\n' "$OUT" | awk '/^ +[0-9]/ {n++; if ($9 != "0" || ($13 != "0" && $13 != "N/A")) bad++} END {exit !(n == 4 && !bad)}'
	_report $? "  4 rows over HcclCommInitClusterInfo, #wrong 0 on each" "$OUT"
	printf '%s\n' "$ERR" | grep -qx "hcclctl: run allreduce: rank 1: the rank table's device 5 is logical device 1 (its place in ASCEND_VISIBLE_DEVICES=4,5,6,7)"
	_report $? "  -v: a runtime without the lookup: the place in ASCEND_VISIBLE_DEVICES" "$ERR"
	MASTER_PORT=$(free_port) run sr -n 3 env LD_LIBRARY_PATH="$STUB" "$HCCLCTL" run allreduce \
		--engine hccl --ranktable "$TMP/rt47.json" -b 8 -e 8 -n 1 -w 0
	check_rc 64 "srun -n 3 with a table of 2 ranks: usage error before launch"
	printf '%s\n' "$ERR" | grep -qx "hcclctl: run allreduce: --ranktable $TMP/rt47.json has 2 ranks, the world size is 3"
	_report $? "  every task says both numbers" "$ERR"
else
	skip "the test libraries are not built ($STUB): run make tests"
fi

lap "a rank killed under srun"
# --- a rank killed under srun ---
cat >"$TMP/kill2.sh" <<EOS
#!/bin/sh
if [ "\$SLURM_PROCID" = 2 ]; then (sleep 2; kill -9 \$\$) & fi
exec $HCCLCTL "\$@"
EOS
chmod +x "$TMP/kill2.sh"
s0=$(date +%s)
MASTER_PORT=$(free_port) HCCLCTL_HEARTBEAT_TIMEOUT=2 run sr -n 4 "$TMP/kill2.sh" --json run allreduce \
	-b 64K -e 64K -n 200000 -w 0 --timeout 20
s1=$(date +%s)
[ "$RC" -ne 0 ] && [ $((s1 - s0)) -lt 40 ]
_report $? "rank 2 killed with SIGKILL: srun's step ends, non-zero ($RC), in $((s1 - s0)) s" "$ERR"
printf '%s\n' "$ERR" | grep -q "^hcclctl: verdict: dead-rank: .*rank 2"
_report $? "  the verdict names rank 2 as dead" "$ERR"
printf '%s' "$OUT" >"$TMP/dead.json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = d["verdict"]
assert v["kind"] == "dead-rank" and v["rank"] == 2, v
' "$TMP/dead.json"
_report $? "  one JSON document, rank 0's, with the verdict: dead-rank, rank 2" "$OUT"

lap "a count mismatch"
# --- a count mismatch ---
cat >"$TMP/odd.sh" <<EOS
#!/bin/sh
if [ "\$SLURM_PROCID" = 3 ]; then exec $HCCLCTL "\$@" -b 2K -e 2K; fi
exec $HCCLCTL "\$@" -b 1K -e 1K
EOS
chmod +x "$TMP/odd.sh"
MASTER_PORT=$(free_port) run sr -n 4 "$TMP/odd.sh" --json run allreduce -n 1 -w 0 --timeout 20
[ "$RC" -eq 2 ] && printf '%s\n' "$ERR" | grep -q "^hcclctl: verdict: mismatch: .*count"
_report $? "rank 3 with 2 KiB, the others 1 KiB: exit 2, the verdict names the count" "$RC" "$ERR"
printf '%s' "$OUT" >"$TMP/mm.json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"]["kind"] == "mismatch" and d["exit_code"] == 2, d
' "$TMP/mm.json"
_report $? "  one JSON document with the mismatch verdict" "$OUT"

lap "doctor on every task, merged"
# --- doctor on every task, merged ---
cat >"$TMP/doc.sh" <<EOS
#!/bin/sh
# task 1 has the down HCCS link
if [ "\$SLURM_PROCID" = 1 ]; then export FAKE_NPU_SMI_DIR=$NS/a2-down:$NS/a2; fi
exec $HCCLCTL --json doctor --local --node-name "node\$SLURM_PROCID" --checks link.hccs,npu.health
EOS
chmod +x "$TMP/doc.sh"
run sr -n 3 "$TMP/doc.sh"
[ "$(printf '%s\n' "$OUT" | grep -c '"schema":"hcclctl-doctor/1"')" -eq 3 ]
_report $? "srun -n 3 doctor --local --json: three one-line documents on srun's stdout" "$OUT"
printf '%s\n' "$OUT" >"$TMP/nodes.json"
run hcclctl doctor --merge - --checks link.hccs,npu.health --html "$TMP/merged.html" <"$TMP/nodes.json"
check_rc 2 "doctor --merge - of the three: exit 2"
check_out "PASS  link.hccs       node[0,2]              every HCCS link up
FAIL  link.hccs       node1                  NPU 3 chip 0 link 2 lane mode 0
PASS  npu.health      node[0,2]              all 8 chips healthy
FAIL  npu.health      node1                  health not OK: NPU 3 chip 0: NOK

4 passed, 0 warnings, 2 failed, 0 skipped on 3 nodes
most likely cause: link.hccs on node1: NPU 3 chip 0 link 2 lane mode 0
fix: npu-smi info -t hccs -i N -c C; reseat or replace the board, or isolate the NPU" \
	"  folded across nodes, the cause on node1, as the SSH fan-out reports it"
grep -q '<th>node0</th>' "$TMP/merged.html" && grep -q '<th>node2</th>' "$TMP/merged.html" ||
	grep -q 'node1' "$TMP/merged.html"
_report $? "  --html writes the page of every node" "$(head -c 400 "$TMP/merged.html")"

lap "the health check that acts"
# --- the health check that acts ---
FAKE_NPU_SMI_DIR=$NS/a2-down:$NS/a2 run hcclctl doctor --local --checks link.hccs --on-fail drain
check_rc 2 "doctor --local --on-fail drain with a down HCCS link: exit 2"
check_err "hcclctl: doctor: checking 1 node...
hcclctl: doctor: drained node $SL_NODE: hcclctl: link.hccs on $(hostname): NPU 3 chip 0 link 2 lane mode 0" \
	"  says it drained the node and why"
run sinfo -h -R -o '%E|%n'
check_out "hcclctl: link.hccs on $(hostname): NPU 3 chip 0 link 2 lane mode 0|$SL_NODE" \
	"  sinfo -R shows the node with hcclctl's reason"
run hcclctl doctor --local --checks link.hccs --on-pass resume
check_rc 0 "the link back up, --on-pass resume: exit 0"
check_err_has "hcclctl: doctor: resumed node $SL_NODE (drained by hcclctl: link.hccs on $(hostname): NPU 3 chip 0 link 2 lane mode 0)" \
	"  says it resumed the node"
run sinfo -h -R -o '%E|%n'
check_out "" "  sinfo -R is empty again"

scontrol update nodename="$SL_NODE" state=drain reason="maintenance by the operator"
run hcclctl doctor --local --checks link.hccs --on-pass resume
check_rc 0 "an operator's drain, a passing check with --on-pass resume: exit 0"
run sinfo -h -R -o '%E'
check_out "maintenance by the operator" "  the operator's drain stays"
FAKE_NPU_SMI_DIR=$NS/a2-down:$NS/a2 run hcclctl doctor --local --checks link.hccs --on-fail drain
check_err_has "hcclctl: doctor: left node $SL_NODE drained by another reason: maintenance by the operator" \
	"  a failing check leaves the operator's reason"
run sinfo -h -R -o '%E'
check_out "maintenance by the operator" "  and sinfo -R still shows it"
scontrol update nodename="$SL_NODE" state=resume

# with --json the document says what was done
FAKE_NPU_SMI_DIR=$NS/a2-down:$NS/a2 run hcclctl --json doctor --local --checks link.hccs --on-fail drain
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["action"].startswith("drained node " + sys.argv[1] + ": hcclctl: link.hccs on "), d["action"]
assert d["exit_code"] == 2
' "$SL_NODE"
_report $? "--json --on-fail drain: the document's action says the node was drained" "$OUT"
run hcclctl --json doctor --local --checks link.hccs --on-pass resume
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["action"].startswith("resumed node " + sys.argv[1]), d["action"]
' "$SL_NODE"
_report $? "  and --on-pass resume the resume" "$OUT"

# the node's name from --node-name where slurmd does not set SLURMD_NODENAME
FAKE_NPU_SMI_DIR=$NS/a2-down:$NS/a2 run hcclctl doctor --local --checks link.hccs --on-fail drain \
	--node-name no-such-node
check_rc 2 "--node-name of a node Slurm does not know: the check's exit 2 stands"
printf '%s\n' "$ERR" | grep -q "^hcclctl: doctor: warning: --on-fail: scontrol -o show node no-such-node: exit 1"
_report $? "  and it warns that scontrol could not find the node" "$ERR"

lap "slurmd itself runs"
# slurmd itself runs the health check (SLURMD_NODENAME set by slurmd)
touch "$TMP/hc.on"
_slurm_wait 20 sh -c 'sinfo -h -R -o %E | grep -q "^hcclctl: link.hccs on "'
_report $? "slurmd's HealthCheckProgram (doctor --local --on-fail drain) drains the node" \
	"$(sinfo -R)" "$(tail -5 "$SL_DIR/slurmd.log")"
rm -f "$TMP/hc.on"

t1=$(date +%s)
echo "# the Slurm tier took $((t1 - t0)) s"
slurm_down
done_testing
