# hcclctl doctor on this machine (--local): usage, the node checks with fake npu-smi and
# hccn_tool, --checks/--skip, the JSON schema and exit codes. The cluster cases are in
# tests/cluster/doctor.t.
. "$(dirname "$0")/lib.sh"

BIN=$(pwd)/build/tests/stub/bin
export FAKE_NPU_SMI_DIR=$(pwd)/tests/data/npu-smi/a2 FAKE_HCCN_DIR=$(pwd)/tests/data/hccn_tool/a2
export HCCLCTL_NPU_SMI=$BIN/npu-smi HCCLCTL_HCCN_TOOL=$BIN/hccn_tool

run hcclctl doctor
check_rc 64 "doctor without nodes is a usage error"
check_err_has "hcclctl: doctor: give one of --ranktable, --hosts, --hostfile (or --local)" "  saying what to give"
run hcclctl doctor --local --hosts a,b
check_rc 64 "--local with --hosts is a usage error"
run hcclctl doctor --local --ports 70000
check_rc 64 "a port out of range is a usage error"
check_err_has "hcclctl: doctor: invalid --ports '70000'" "  naming it"

run hcclctl doctor --local --checks npu.smi,npu.health,link.hccs --skip npu.smi
check_rc 0 "--local with fake tools, npu.health and link.hccs only: exit 0"
check_out "$(printf 'PASS  link.hccs       %-22s every HCCS link up\nPASS  npu.health      %-22s all 8 chips healthy\n\n2 passed, 0 warnings, 0 failed, 0 skipped on 1 node' "$(hostname)" "$(hostname)")" "  exactly those checks, in order, and the summary"

FAKE_NPU_SMI_DIR=$(pwd)/tests/data/npu-smi/a2-down:$FAKE_NPU_SMI_DIR run hcclctl doctor --local --checks link.hccs
check_rc 2 "an HCCS link down: exit 2"
check_out_has "most likely cause: link.hccs on $(hostname): NPU 3 chip 0 link 2 lane mode 0" "  the link is the cause"
check_out_has "fix: npu-smi info -t hccs -i N -c C; reseat or replace the board, or isolate the NPU" "  with the fix"

# nic.counters: probe roce's -stat -g findings (tests/data/hccn_tool/README)
run hcclctl doctor --local --checks nic.counters
check_rc 0 "nic.counters, traffic and no error counter: exit 0"
check_out "$(printf 'PASS  nic.counters    %-22s no error counter above 0 on 8 NPU NICs\n\n1 passed, 0 warnings, 0 failed, 0 skipped on 1 node' "$(hostname)")" "  a PASS over every NIC read"
FAKE_HCCN_DIR=$(pwd)/tests/data/hccn_tool/a2-counters:$FAKE_HCCN_DIR run hcclctl doctor --local --checks nic.counters
check_rc 1 "RoCE error packets on device 6: exit 1"
check_out_has "$(printf 'WARN  nic.counters    %-22s error counters since they were last cleared: device 6: roce_rx_err_pkt_num 13, roce_tx_err_pkt_num 77' "$(hostname)")" "  the device and its counters, as totals since the last clear"
check_out_has "fix: read them again (hccn_tool -i N -stat -g): counters that grow mean a live fault; check the fibre, optics (-optical -g) and the switch port" "  with what to do next"

# --html: the same results as one page
FAKE_NPU_SMI_DIR=$(pwd)/tests/data/npu-smi/a2-down:$FAKE_NPU_SMI_DIR run hcclctl doctor --local --checks link.hccs,npu.health --html "$TMP/d.html"
check_rc 2 "--html with an HCCS link down: exit 2"
check_err_has "hcclctl: doctor: wrote $TMP/d.html" "  says where the page is"
python3 - "$TMP/d.html" "$(hostname)" <<'PY'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.rows = []; s.row = None; s.cell = None; s.stack = []; s.grid = False
    def handle_starttag(s, t, a):
        if t not in ("meta", "col", "wbr"):  # void elements
            s.stack.append(t)
        if t == "table": s.grid = "grid" in (dict(a).get("class") or "").split()
        if t == "tr": s.row = []
        if t in ("td", "th"): s.cell = [dict(a).get("class"), dict(a).get("title"), ""]
    def handle_endtag(s, t):
        assert s.stack and s.stack[-1] == t, (s.stack, t)
        s.stack.pop()
        if t in ("td", "th"): s.row.append(s.cell); s.cell = None
        if t == "tr" and s.grid: s.rows.append(s.row)
    def handle_data(s, d):
        if s.cell is not None: s.cell[2] += d
p = P(); p.feed(open(sys.argv[1]).read()); p.close()
assert not p.stack, p.stack
head = [c[2] for c in p.rows[0]]
assert head == ["node", "link.hccs", "npu.health"], head
row = p.rows[1]
assert row[0][2] == sys.argv[2], row
assert row[1][0] == "f" and row[1][2] == "FAIL" and "NPU 3 chip 0 link 2" in row[1][1], row[1]
assert row[2][0] == "f" and "fix:" in row[2][1], row[2]
PY
_report $? "  well-formed; node x check table; the failing cells red with message and fix" "$(cat "$TMP/d.html")"
run hcclctl doctor --local --checks link.hccs --html /nonexistent/d.html
check_rc 3 "--html that cannot be written: exit 3, though the check passes"
check_err_has "hcclctl: doctor: --html: cannot write the page: cannot create a temporary file in '/nonexistent': No such file or directory" "  named, with why"
check_err_has "hint: give a FILE in a directory that exists and you can write" "  and the fix"
check_out_has "$(printf 'PASS  link.hccs       %-22s every HCCS link up' "$(hostname)")" "  the report still printed"
run hcclctl --json doctor --local --checks link.hccs --html "$TMP"
check_rc 3 "--json, --html naming a directory: exit 3"
printf '%s' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["exit_code"] == 3 and d["summary"]["PASS"] == 1, d'
_report $? "  the one document says exit 3, and what the checks found" "$OUT"

HCCLCTL_NPU_SMI=/nonexistent/npu-smi HCCLCTL_HCCN_TOOL=/nonexistent/hccn_tool run hcclctl doctor --local --checks npu,link,nic
check_rc 3 "no npu-smi, no hccn_tool: every check SKIP, never a false FAIL (exit 3: nothing checked)"
check_out_has "$(printf 'SKIP  npu.smi         %-22s npu-smi not found: not an Ascend node, or the driver is not installed' "$(hostname)")" "  npu.smi SKIP with the reason"

run hcclctl doctor --local --ranktable "$FIXTURES/hccl_doc_v1.0_atlas910_2srv_2dev.json" --checks ranktable
check_rc 2 "a rank table whose servers are not this node: exit 2"
check_out_has "$(printf 'PASS  ranktable.valid cluster                %s: 4 ranks on 2 servers, 0 warnings' "$FIXTURES/hccl_doc_v1.0_atlas910_2srv_2dev.json")" "  the table itself is valid"
check_out_has "most likely cause: ranktable.node on $(hostname): no server of the rank table (node_0 node_1) is this node (by address and host name)" "  ranktable.node names the servers"

run hcclctl doctor --local --ranktable tests/data/ranktables/bad/$(ls tests/data/ranktables/bad | head -1) --checks ranktable.valid
check_rc 2 "an invalid rank table: exit 2"
printf '%s\n' "$OUT" | grep -q "^FAIL  ranktable.valid cluster "
_report $? "  ranktable.valid FAIL" "$OUT"

run hcclctl --json doctor --local --checks host,npu --kernel-log tests/data/klog/ascend-samples-16.txt --sysfs-root tests/data/sysfs/roce
check_rc 1 "--json, host and npu checks on a node with an RDMA device: exit 1 here (memlock is limited)"
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["schema"] == "hcclctl-doctor/1" and d["exit_code"] == 1, d
codes = {c["code"] for c in d["checks"]}
assert codes <= {"node.reach", "host.memlock", "host.shm", "host.memory", "host.hugepages", "host.time", "host.kernel-log", "npu.smi", "npu.health", "npu.driver", "link.hccs", "npu.count", "npu.faults", "npu.ecc", "npu.pcie", "npu.thermal"}, codes
assert "host.time" in codes and "npu.health" in codes, codes
assert all(set(c) == {"code", "node", "status", "message", "fix"} for c in d["checks"])
assert d["summary"]["FAIL"] == 0 and d["cause"]["code"] == "host.memlock", d["cause"]
assert d["cause"]["fix"].startswith("ulimit -l unlimited"), d["cause"]'
_report $? "  one document: schema, checks with code/node/status/message/fix, summary, cause" "$OUT"

# A 1.2 table on this node (server 127.0.0.1): super_device_id against npu-smi's SDID
cat >"$TMP/t12.json" <<'EOJ'
{"version": "1.2", "status": "completed", "server_count": "1",
 "server_list": [{"server_id": "127.0.0.1", "device": [
   {"device_id": "0", "device_ip": "192.168.100.101", "super_device_id": "100", "rank_id": "0"},
   {"device_id": "1", "device_ip": "192.168.100.102", "super_device_id": "101", "rank_id": "1"}]}],
 "super_pod_list": [{"super_pod_id": "0", "server_list": [{"server_id": "127.0.0.1"}]}]}
EOJ
mkdir -p "$TMP/spod"
printf '\tSDID                           : 100\n\tSuper Pod Size                 : 16\n' >"$TMP/spod/spod-info-0-0.txt"
printf '\tSDID                           : 101\n' >"$TMP/spod/spod-info-1-0.txt"
FAKE_NPU_SMI_DIR=$TMP/spod:$FAKE_NPU_SMI_DIR run hcclctl doctor --local --ranktable "$TMP/t12.json" --checks ranktable
check_rc 0 "a 1.2 table whose super_device_ids are npu-smi's SDIDs: exit 0"
check_out_has "$(printf 'PASS  ranktable.spod  %-22s super_device_id of 2 devices equals npu-smi'"'"'s SDID' "$(hostname)")" "  ranktable.spod PASS"
printf '\tSDID                           : 777\n' >"$TMP/spod/spod-info-1-0.txt"
FAKE_NPU_SMI_DIR=$TMP/spod:$FAKE_NPU_SMI_DIR run hcclctl doctor --local --ranktable "$TMP/t12.json" --checks ranktable
check_rc 2 "device 1's SDID differs: exit 2"
check_out_has "most likely cause: ranktable.spod on $(hostname): device 1: super_device_id 101 in the table, SDID 777 from npu-smi" "  named with both values"

# tables HCCL does not read are not a job's nodes
run hcclctl doctor --ranktable tests/data/ranktables/real/ascend_pd_tdm_pd_disagg_v1.2_2dev.json --local
check_rc 2 "a vllm-ascend prefill/decode table: exit 2"
check_err "hcclctl: doctor: tests/data/ranktables/real/ascend_pd_tdm_pd_disagg_v1.2_2dev.json is a vllm-ascend-pd table, which HCCL does not read
hint: give the job's HCCL rank table (server_list or rank_list)" "  named for what it is, with the fix"
ge=tests/data/ranktables/real/ge_doc_cluster_config_v1.2_RankTable_wrapper_no_device_ip.json
run hcclctl doctor --ranktable $ge --local
check_rc 2 "GE's cluster_config.json: exit 2"
check_err "hcclctl: doctor: $ge is a ge-cluster-config table, which HCCL does not read
hint: give the job's HCCL rank table (server_list or rank_list)" "  named for what it is, with the fix"

# --logs: HCCL plogs from every node, the root cause with its fix (real logs: doctor-logs.t)
run hcclctl doctor --logs tests/data/plog/ei0006
check_rc 2 "--logs with an EI0006 timeout chain: exit 2"
printf '%s\n' "$OUT" | grep -q '^most likely cause: logs.cause on n4: rank-stuck (timeout-elsewhere): rank 3 (node n4, 192.168.10.4) is the rank the others wait for: it started late.*consequences$'
_report $? "  the root cause: rank 3 on node n4, the timeouts its consequences" "$OUT"
printf '%s\n' "$OUT" | grep -q '^fix: read that rank.s log and when it started'
_report $? "  with the fix" "$OUT"
run hcclctl doctor --logs tests/data/plog/clean
check_rc 0 "--logs of a clean job: exit 0"
check_out_has "PASS  logs.cause      cluster                no error in 14 lines of 2 files" "  logs.cause PASS"
run hcclctl doctor --logs "$TMP/nonexistent"
check_rc 3 "--logs of a directory that is not there: exit 3, named"
check_out_has "SKIP  logs.cause      cluster                nothing to read: cannot read '$TMP/nonexistent': No such file or directory" "  cannot read it"

done_testing
