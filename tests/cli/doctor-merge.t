# doctor --merge: per-node documents of doctor --local --json folded into one cluster report
# (what srun -N ... doctor --local gives), with located errors for bad input; doctor
# --exit-codes npd for node-problem-detector.
. "$(dirname "$0")/lib.sh"
BIN=$(pwd)/build/tests/stub/bin
NS=$(pwd)/tests/data/npu-smi
export FAKE_NPU_SMI_DIR=$NS/a2 FAKE_HCCN_DIR=$(pwd)/tests/data/hccn_tool/a2
export HCCLCTL_NPU_SMI=$BIN/npu-smi HCCLCTL_HCCN_TOOL=$BIN/hccn_tool
unset SLURM_PROCID SLURMD_NODENAME OMPI_COMM_WORLD_RANK
CH=link.hccs,npu.health,npu.driver

for n in 1 2 3; do
	d=$NS/a2
	[ $n = 2 ] && d=$NS/a2-down:$NS/a2
	FAKE_NPU_SMI_DIR=$d hcclctl --json doctor --local --node-name "gpu$n" --checks $CH >"$TMP/n$n.json"
done
run hcclctl doctor --merge "$TMP/n1.json" "$TMP/n2.json" "$TMP/n3.json" --checks $CH
check_rc 2 "three nodes' reports, one with a down HCCS link: exit 2"
check_out "PASS  link.hccs       gpu[1,3]               every HCCS link up
FAIL  link.hccs       gpu2                   NPU 3 chip 0 link 2 lane mode 0
PASS  npu.health      gpu[1,3]               all 8 chips healthy
FAIL  npu.health      gpu2                   health not OK: NPU 3 chip 0: NOK
SKIP  npu.driver      gpu[1-3]               no NPU driver found

4 passed, 0 warnings, 2 failed, 3 skipped on 3 nodes
most likely cause: link.hccs on gpu2: NPU 3 chip 0 link 2 lane mode 0
fix: npu-smi info -t hccs -i N -c C; reseat or replace the board, or isolate the NPU" \
	"  folded across nodes with the cause, as the SSH fan-out's report"
check_err "" "  nothing on stderr"

# the tasks' documents arrive in any order (srun's merged stdout): the report is the same,
# the nodes in name order with numbers by value (gpu10 after gpu3)
FOLDED=$OUT
run hcclctl doctor --merge "$TMP/n2.json" "$TMP/n3.json" "$TMP/n1.json" --checks $CH
check_out "$FOLDED" "  the same reports, the failing node first: the same report"
hcclctl --json doctor --local --node-name gpu10 --checks $CH >"$TMP/n10.json"
run hcclctl --json doctor --merge "$TMP/n10.json" "$TMP/n3.json" "$TMP/n1.json" --checks $CH
printf '%s' "$OUT" | python3 -c 'import json, sys; n = json.load(sys.stdin)["nodes"]; assert n == ["gpu1", "gpu3", "gpu10"], n'
_report $? "  the nodes in order gpu1, gpu3, gpu10" "$OUT"

cat "$TMP/n1.json" "$TMP/n2.json" "$TMP/n3.json" >"$TMP/all.json"
run hcclctl --json doctor --merge - --checks $CH <"$TMP/all.json"
check_rc 2 "the same three documents on standard input, --json: exit 2"
printf '%s' "$OUT" >"$TMP/m.json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["nodes"] == ["gpu1", "gpu2", "gpu3"], d["nodes"]
assert d["cause"]["code"] == "link.hccs" and d["cause"]["node"] == "gpu2", d["cause"]
assert d["summary"] == {"PASS": 4, "SKIP": 3, "WARN": 0, "FAIL": 2}, d["summary"]
assert d["exit_code"] == 2
' "$TMP/m.json"
_report $? "  one document: 3 nodes, the cause on gpu2, the counts" "$OUT"

# facts travel with --local's document, so --merge compares versions across nodes
python3 - "$TMP" <<'EOP'
import json, sys
t = sys.argv[1]
for n, v in ((1, "23.0.3"), (2, "23.0.3"), (3, "24.1.0")):
    d = json.load(open(f"{t}/n1.json"))
    d["nodes"] = [f"gpu{n}"]
    for c in d["checks"]:
        c["node"] = f"gpu{n}"
    d["facts"] = {f"gpu{n}": {"driver": v}}
    json.dump(d, open(f"{t}/v{n}.json", "w"))
EOP
run hcclctl doctor --merge "$TMP/v1.json" "$TMP/v2.json" "$TMP/v3.json" --checks npu.driver
check_rc 2 "driver 23.0.3 on two nodes, 24.1.0 on one: exit 2"
check_out "PASS  npu.driver      gpu[1-2]               NPU driver 23.0.3
FAIL  npu.driver      gpu3                   NPU driver 24.1.0, but 2 nodes have 23.0.3

2 passed, 0 warnings, 1 failed, 0 skipped on 3 nodes
most likely cause: npu.driver on gpu3: NPU driver 24.1.0, but 2 nodes have 23.0.3
fix: install the same driver on every node (npu-smi info -t board -i 0)" \
	"  npu.driver compared across the merged nodes: the odd one named"
# node names whose numbers pass 2^63 fold as written, never clipped to the largest integer
# (n[9223372036854775807,...]); leading zeros stay
for n in 99999999999999999998 99999999999999999999 100000000000000000000 9223372036854775808 \
	00000000000000000007; do
	hcclctl --json doctor --local --node-name "n$n" --checks npu.health >"$TMP/big$n.json"
done
run hcclctl doctor --merge "$TMP"/big*.json --checks npu.health
check_out "PASS  npu.health      n[00000000000000000007,9223372036854775808,99999999999999999998-100000000000000000000] all 8 chips healthy

5 passed, 0 warnings, 0 failed, 0 skipped on 5 nodes" "20-digit suffixes folded as strings, runs across a carry, zeros kept"

# bad input: located, exit 3
printf '{"schema":"hcclctl-doctor/1",\n "nodes":["a"],\n "checks":[{"code":"x","status":"MAYBE","message":"m"}]}\n' >"$TMP/bad.json"
run hcclctl doctor --merge "$TMP/bad.json"
check_rc 3 "a check with an unknown status: exit 3"
check_err "hcclctl: doctor: --merge: $TMP/bad.json: line 3, column 12: check x: unknown status 'MAYBE'" \
	"  named with the file and where the check is"
# ten identical checks in one node's report: the fold once wrote one slot per identical
# result into room for one per node (free(): invalid next size, exit 134)
{
	printf '{"schema":"hcclctl-doctor-node/1","hostname":"n1","checks":[\n'
	for i in 1 2 3 4 5 6 7 8 9; do
		printf ' {"code":"npu.health","status":"PASS","message":"all 8 chips healthy"},\n'
	done
	printf ' {"code":"npu.health","status":"PASS","message":"all 8 chips healthy"}]}\n'
} >"$TMP/ten.json"
run hcclctl doctor --merge "$TMP/ten.json"
check_rc 3 "ten identical checks in one report: refused, exit 3 (no crash)"
check_err "hcclctl: doctor: --merge: $TMP/ten.json: line 3, column 2: check npu.health of node 'n1' again (first at line 2, column 2): one result per check and node" \
	"  the second one located, with the first"
# an unknown check code used to index past the end of the code table
printf '{"schema":"hcclctl-doctor-node/1","hostname":"n1",\n "checks":[{"code":"npu.health","status":"PASS","message":"ok"},\n  {"code":"zz.unknown","status":"FAIL","message":"m"}]}\n' >"$TMP/unknown.json"
run hcclctl doctor --merge "$TMP/unknown.json"
check_rc 3 "an unknown check code: refused, exit 3"
check_err "hcclctl: doctor: --merge: $TMP/unknown.json: line 3, column 3: unknown check 'zz.unknown' (from a newer hcclctl? hcclctl-doctor(1) lists the checks)" \
	"  located and named"
check_out "" "  and no report made from it"
printf '%s\n{"schema":"hcclctl-doctor/1", "nodes": [' "$(cat "$TMP/n1.json")" >"$TMP/cut.json"
run hcclctl doctor --merge - <"$TMP/cut.json"
check_rc 3 "a second document cut short on stdin: exit 3"
printf '%s\n' "$ERR" | grep -q "^hcclctl: doctor: --merge: <stdin>: line [0-9]*, column [0-9]*: not JSON"
_report $? "  not JSON, at its line and column" "$ERR"
run hcclctl doctor --merge "$TMP/n1.json" "$TMP/n1.json"
check_rc 3 "the same node twice: exit 3"
check_err "hcclctl: doctor: --merge: $TMP/n1.json: node 'gpu1' is also in $TMP/n1.json: one report per node" \
	"  names the node and both files"
: >"$TMP/empty.json"
run hcclctl doctor --merge "$TMP/empty.json"
check_rc 3 "an empty file: exit 3"
check_err "hcclctl: doctor: --merge: $TMP/empty.json: empty: no doctor report" "  says so"
run hcclctl doctor --merge
check_rc 64 "--merge without files: usage, exit 64"
check_err "hcclctl: doctor: --merge needs FILE... or - (the documents of doctor --local --json)
hint: e.g. srun -N4 hcclctl --json doctor --local | hcclctl doctor --merge -" "  with the usage"
run hcclctl doctor --local "$TMP/n1.json"
check_rc 64 "a file without --merge: exit 64"
check_err "hcclctl: doctor: unexpected argument '$TMP/n1.json'
hint: doctor --merge FILE... reads reports" "  named"
run hcclctl doctor --hosts a,b --on-fail drain
check_rc 64 "--on-fail without --local: exit 64"
check_err "hcclctl: doctor: --on-fail acts on this node: it needs --local
hint: add --local: a health check acts on its own node" "  named"

# node-problem-detector: 0 OK, 1 problem, 2 unknown, one line within 80 bytes
run hcclctl doctor --local --checks link.hccs --exit-codes npd
check_rc 0 "npd: a passing check: exit 0"
check_out "OK: every check passed" "  one line"
FAKE_NPU_SMI_DIR=$NS/a2-down:$NS/a2 run hcclctl doctor --local --checks link.hccs --exit-codes npd --node-name n7
check_rc 1 "npd: the down link: exit 1 (a problem)"
check_out "FAIL: link.hccs on n7: NPU 3 chip 0 link 2 lane mode 0" "  the cause in one line"
FAKE_NPU_SMI_DIR=$NS/a2-down:$NS/a2 run hcclctl --strict doctor --local --checks link.hccs,npu.health \
	--exit-codes npd --node-name a-node-with-a-rather-long-name-in-a-large-cluster-000123
check_rc 1 "npd with --strict: still 1"
[ "${#OUT}" -eq 80 ] && [ "$OUT" = "FAIL: link.hccs on a-node-with-a-rather-long-name-in-a-large-cluster-000123: NPU" ]
_report $? "  a long cause is cut to 80 bytes" "$OUT (${#OUT})"
HCCLCTL_NPU_SMI=/nonexistent/npu-smi run hcclctl doctor --local --checks link.hccs --exit-codes npd
check_rc 2 "npd: nothing could be checked: exit 2 (unknown)"
check_out "UNKNOWN: nothing could be checked" "  says so"
HCCLCTL_NPU_SMI=/nonexistent/npu-smi run hcclctl --json doctor --local --checks link.hccs --exit-codes npd
check_rc 2 "npd --json: exit 2"
printf '%s' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["exit_code"] == 2, d'
_report $? "  the document's exit_code is npd's too" "$OUT"

# the example plugin config runs what these tests run
args=$(python3 -c '
import json
c = json.load(open("examples/k8s/npd-hcclctl.json"))
assert c["plugin"] == "custom" and c["pluginConfig"]["max_output_length"] == 80
r = c["rules"][0]
assert r["type"] == "permanent" and r["condition"] == c["conditions"][0]["type"]
print(" ".join(r["args"]))
')
_report $? "examples/k8s/npd-hcclctl.json: a permanent rule of its condition, 80 bytes of output"
# shellcheck disable=SC2086
FAKE_NPU_SMI_DIR=$NS/a2-down:$NS/a2 run hcclctl $args --checks link.hccs --node-name n7
check_rc 1 "  its args ($args) with the down link: exit 1"
check_out "FAIL: link.hccs on n7: NPU 3 chip 0 link 2 lane mode 0" "  and the line NPD shows"

# the nodes expected (--hosts, in Slurm's notation too): a node whose task never printed is
# named, even when --checks leaves node.reach out; one nobody expected is a warning
run hcclctl doctor --merge "$TMP/n1.json" "$TMP/n3.json" --hosts 'gpu[1-3]' --checks link.hccs
check_rc 2 "--merge --hosts 'gpu[1-3]' with no report from gpu2: exit 2"
check_out "FAIL  node.reach      gpu2                   no report from this node
PASS  link.hccs       gpu[1,3]               every HCCS link up

2 passed, 0 warnings, 1 failed, 0 skipped on 3 nodes
most likely cause: node.reach on gpu2: no report from this node
fix: read the job's output for this node (its task did not start, or it ended before it printed), or run hcclctl doctor --local there" \
	"  gpu2 named though --checks has only link.hccs"
run hcclctl --json doctor --merge "$TMP/n1.json" "$TMP/n3.json" --hosts gpu1,gpu2 --checks node.reach,link.hccs
check_rc 2 "  --json: exit 2"
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
r = {c["node"]: (c["status"], c["message"]) for c in d["checks"] if c["code"] == "node.reach"}
assert r == {"gpu1": ("PASS", "report read"), "gpu2": ("FAIL", "no report from this node"),
             "gpu3": ("WARN", "a report from a node that --hosts does not name")}, r
assert d["nodes"] == ["gpu1", "gpu2", "gpu3"], d["nodes"]
'
_report $? "  node.reach per node: read, missing, not expected" "$OUT"
printf 'gpu1\ngpu3\n' >"$TMP/hosts"
run hcclctl doctor --merge "$TMP/n1.json" "$TMP/n3.json" --hostfile "$TMP/hosts" --checks link.hccs
check_rc 0 "--hostfile naming exactly the nodes that reported: exit 0"
run hcclctl doctor --merge "$TMP/n1.json" --hosts 'gpu[3-1]'
check_rc 64 "a reversed range in --hosts: usage, exit 64"
check_err "hcclctl: doctor: --hosts: host list: at offset 4: range runs backwards
hint: e.g. --hosts gpu1,gpu2 or --hosts 'gpu[01-16]'" "  named with its offset"
run hcclctl doctor --merge "$TMP/n1.json" --ranktable "$TMP/hosts"
check_rc 64 "--merge with --ranktable: usage, exit 64"

done_testing
