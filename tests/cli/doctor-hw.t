# hcclctl doctor --local: the hardware-health checks (npu.count, npu.faults, npu.ecc,
# npu.pcie, npu.thermal), the kernel log (host.kernel-log) and the HCCL environment
# (env.hccl), with the fake npu-smi over the captures in tests/data/npu-smi/hw-*, fake sysfs
# trees, real kernel logs and env files: healthy and faulty nodes, exact lines and exit codes.
. "$(dirname "$0")/lib.sh"

BIN=$(pwd)/build/tests/stub/bin
NS=$(pwd)/tests/data/npu-smi
SYS=tests/data/sysfs
KLOG=tests/data/klog
export HCCLCTL_NPU_SMI=$BIN/npu-smi
HW=npu.count,npu.faults,npu.ecc,npu.pcie,npu.thermal
HN=$(hostname)
line() { printf '%-4s  %-15s %-22s %s' "$1" "$2" "$HN" "$3"; }
fakes() { # the fixture directories, most specific first
	d=""
	for x in "$@"; do d="$d${d:+:}$NS/$x"; done
	echo "$d"
}
unset HCCL_CONNECT_TIMEOUT HCCL_EXEC_TIMEOUT HCCL_BUFFSIZE HCCL_EVENT_TIMEOUT

cat >"$TMP/good.env" <<'EOF'
# the job's launch script
source /usr/local/Ascend/ascend-toolkit/set_env.sh
export HCCL_CONNECT_TIMEOUT=1200
export HCCL_EXEC_TIMEOUT=1768
export HCCL_BUFFSIZE=400
export HCCL_IF_IP=10.0.0.1
EOF
cat >"$TMP/bad.env" <<'EOF'
export HCCL_CONNECT_TIMEOUT=60
export HCCL_BUFFSIZE="200MB"
export HCCL_EXEC_TIMEOUT=600
export HCCL_EVENT_TIMEOUT=500
export HCCL_RDMA_TC=130
EOF
cat >"$TMP/rt8.json" <<'EOJ'
{"version": "1.0", "status": "completed", "server_count": "1",
 "server_list": [{"server_id": "127.0.0.1", "device": [
   {"device_id": "0", "device_ip": "192.168.100.100", "rank_id": "0"},
   {"device_id": "1", "device_ip": "192.168.100.101", "rank_id": "1"},
   {"device_id": "2", "device_ip": "192.168.100.102", "rank_id": "2"},
   {"device_id": "3", "device_ip": "192.168.100.103", "rank_id": "3"},
   {"device_id": "4", "device_ip": "192.168.100.104", "rank_id": "4"},
   {"device_id": "5", "device_ip": "192.168.100.105", "rank_id": "5"},
   {"device_id": "6", "device_ip": "192.168.100.106", "rank_id": "6"},
   {"device_id": "7", "device_ip": "192.168.100.107", "rank_id": "7"}]}]}
EOJ

# ---- a healthy 910A node ----
FAKE_NPU_SMI_DIR=$(fakes hw-910a 910a) run hcclctl doctor --local --checks $HW,host.kernel-log,env.hccl \
	--sysfs-root $SYS/npu-910a --kernel-log $KLOG/ascend-samples-16.txt --env-file "$TMP/good.env"
check_rc 0 "a healthy 910A node: exit 0"
check_out "$(line PASS npu.count "8 NPU chips: npu-smi and the PCIe bus agree")
$(line PASS npu.faults "no fault code on 8 chips")
$(line PASS npu.ecc "no ECC error on 8 chips")
$(line PASS npu.pcie "8 links at x16 16.0 GT/s, as the boards and slots can")
$(line PASS npu.thermal "8 chips, 41 C, 71.7 W, AI cores at their rated clock or idle")
$(line PASS host.kernel-log "no NPU driver, PCIe AER or machine-check error in 8 lines of $KLOG/ascend-samples-16.txt")
$(line PASS env.hccl "4 HCCL variables in $TMP/good.env, within HCCL's ranges and coherent")

7 passed, 0 warnings, 0 failed, 0 skipped on 1 node" "  every hardware check passes, with what it saw"

FAKE_NPU_SMI_DIR=$(fakes hw-910a 910a) run hcclctl --json doctor --local --checks npu,host.kernel-log,env.hccl \
	--sysfs-root $SYS/npu-910a --kernel-log $KLOG/ascend-samples-16.txt --env-file "$TMP/good.env"
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
st = {c["code"]: c["status"] for c in d["checks"]}
for c in ("npu.count", "npu.faults", "npu.ecc", "npu.pcie", "npu.thermal", "host.kernel-log", "env.hccl"):
    assert st.get(c) == "PASS", (c, st)
assert all(set(c) == {"code", "node", "status", "message", "fix"} for c in d["checks"])'
_report $? "--json carries the new checks" "$OUT"

FAKE_NPU_SMI_DIR=$(fakes hw-910b1 a2) run hcclctl doctor --local --checks npu.thermal,npu.ecc,npu.faults,npu.pcie \
	--sysfs-root $SYS/npu-gen3-slot
check_rc 0 "910B1 captures: idle below the rated clock is not throttling; a slot's limit is not a fault"
check_out_has "$(line PASS npu.thermal "8 chips, 46 C, 93.4 W, AI cores at their rated clock or idle")" "  npu.thermal PASS at 800 of 1800 MHz idle"
check_out_has "$(line PASS npu.faults "no fault code on 8 chips")" "  the card-level health form (Health : OK)"
check_out_has "$(line PASS npu.pcie "1 link at x16 8.0 GT/s, as the boards and slots can; 0000:3d:00.0: the slot limits it to 8.0 GT/s")" "  npu.pcie PASS, naming the slot's limit"

# ---- npu.faults: the codes and their handling class ----
FAKE_NPU_SMI_DIR=$(fakes hw-alarm hw-910a 910a) run hcclctl doctor --local --checks npu.faults
check_rc 2 "NPU 0 in Alarm with a RestartNPU code: exit 2"
check_out_has "$(line FAIL npu.faults "NPU 0: RestartNPU (A4025021 NotHandle, 8C03A000 RestartNPU, 8C084E00 FreeRestartNPU); classes from the MindCluster device plugin's faultCode.json of 2026-06-29 (22bb3d98)")" "  every code with its class, the most severe first, and the table"
check_out_has "fix: the NPU is unusable until reset: stop its jobs, npu-smi set -t reset -i N -c C (or reboot the node), then check again" "  the fix of RestartNPU"

FAKE_NPU_SMI_DIR=$(fakes hw-950 hw-910a 910a) run hcclctl doctor --local --checks npu.faults
check_rc 2 "a current fault event 0x81AF8000: exit 2"
check_out_has "$(line FAIL npu.faults "NPU 0 fault events: RestartNPU (81AF8000 RestartNPU); classes from the MindCluster device plugin's faultCode.json of 2026-06-29 (22bb3d98)")" "  0x stripped, RestartNPU in the built-in table"
FAKE_NPU_SMI_DIR=$(fakes hw-950 hw-910a 910a) run hcclctl doctor --local --checks npu.faults \
	--fault-codes tests/data/faultcode/faultCode-d894bbca.json
check_rc 1 "the same event with the 2024-10 table, which lacks it: exit 1"
check_out_has "$(line WARN npu.faults "NPU 0 fault events: 81AF8000 unknown; classes from tests/data/faultcode/faultCode-d894bbca.json")" "  unknown, never healthy, and which table said so"
check_out_has "fix: look the code up in the NPU's fault documentation (npu-smi info -t health -i N -c C shows its text); a newer faultCode.json (--fault-codes) may class it" "  with what to do about an unknown code"
FAKE_NPU_SMI_DIR=$(fakes hw-alarm hw-910a 910a) run hcclctl doctor --local --checks npu.faults --fault-codes "$TMP/none.json"
check_rc 2 "an unreadable --fault-codes: the built-in table still classes the codes"
check_out_has "$(line FAIL npu.faults "cannot use --fault-codes: cannot open '$TMP/none.json': No such file or directory; NPU 0: RestartNPU (A4025021 NotHandle, 8C03A000 RestartNPU, 8C084E00 FreeRestartNPU); classes from the MindCluster device plugin's faultCode.json of 2026-06-29 (22bb3d98)")" "  saying so"

FAKE_NPU_SMI_DIR=$(fakes hw-910a 910a) run hcclctl doctor --local --checks npu.faults --fault-codes README.md
check_rc 1 "a --fault-codes that is not JSON, and no fault: exit 1"
check_out_has "$(line WARN npu.faults "cannot use --fault-codes: README.md: not JSON; no fault code on 8 chips; classes from the MindCluster device plugin's faultCode.json of 2026-06-29 (22bb3d98)")" "  a warning, and the chips still checked"

# ---- npu.ecc ----
mkdir -p "$TMP/state"
FAKE_STATE=$TMP/state FAKE_NPU_SMI_DIR=$(fakes hw-ecc hw-910a 910a) run hcclctl doctor --local --checks npu.ecc
check_rc 2 "a multi-bit error and isolated page on NPU 5: exit 2"
check_out_has "$(line FAIL npu.ecc "NPU 2: HBM single-bit errors 7 (+4 during the check); NPU 3: HBM single-bit errors 12 (40 in total); NPU 5: HBM multi-bit errors 1, HBM pages isolated for multi-bit errors 1")" "  each chip's counters, the growth between two readings"
mkdir -p "$TMP/sbe"
cp "$NS/hw-ecc/ecc-3-.txt" "$TMP/sbe/"
FAKE_NPU_SMI_DIR=$TMP/sbe:$(fakes hw-910a 910a) run hcclctl doctor --local --checks npu.ecc
check_rc 1 "single-bit errors only: exit 1"
check_out_has "$(line WARN npu.ecc "NPU 3: HBM single-bit errors 12 (40 in total)")" "  a warning"
check_out_has "fix: corrected (single-bit) errors: watch whether they grow (npu-smi info -t ecc -i N); many of them come before uncorrectable ones" "  with the fix"
FAKE_NPU_SMI_DIR=$(fakes hw-unsupported hw-910a 910a) run hcclctl doctor --local --checks npu.ecc
check_rc 3 "a board without the ECC query: SKIP, exit 3"
check_out_has "$(line SKIP npu.ecc "this board does not support querying ECC counters")" "  saying so"

# ---- npu.thermal ----
FAKE_NPU_SMI_DIR=$(fakes hw-hot hw-910a 910a) run hcclctl doctor --local --checks npu.thermal
check_rc 2 "NPU 6 at 101 C: exit 2"
check_out_has "$(line FAIL npu.thermal "NPU 4: 88 C (85 C or more), AI cores at 600 of 900 MHz while 97 % busy: throttled; NPU 6: 101 C (the limit is 100 C)")" "  hot, throttled and over the limit, by chip"

# ---- npu.pcie ----
FAKE_NPU_SMI_DIR=$(fakes hw-910a 910a) run hcclctl doctor --local --checks npu.pcie --sysfs-root $SYS/npu-910a-degraded
check_rc 2 "a board at x8 of x16: exit 2"
check_out_has "$(line FAIL npu.pcie "0000:b1:00.0: x8 of x16 lanes; 0000:da:00.0: 8.0 of 16.0 GT/s")" "  the lanes and the speed, by address"
check_out_has "fix: reseat the board (or its riser) at that address; fewer lanes cut the host-device bandwidth" "  with the fix"
# an A3's npu-smi info (a real 8 x 2-die table, "Chip Phy-ID" rows): the link is named by its
# NPU and die, which needs the chip rows read under their two-id first cell
FAKE_NPU_SMI_DIR=$(fakes hw-a3 a3) run hcclctl doctor --local --checks npu.pcie --sysfs-root $SYS/npu-a3-chip-x8
check_rc 2 "an A3 die at x8 of x16: exit 2"
check_out_has "$(line FAIL npu.pcie "NPU 0 chip 1 (0000:9f:00.0): x8 of x16 lanes")" "  named by NPU and die from the A3 table"
FAKE_NPU_SMI_DIR=$(fakes hw-910a 910a) run hcclctl doctor --local --checks npu.pcie --sysfs-root $SYS/none
check_rc 3 "no sysfs: SKIP"
check_out_has "$(line SKIP npu.pcie "cannot read $SYS/none/bus/pci/devices: No such file or directory")" "  saying why"

# ---- npu.count ----
FAKE_NPU_SMI_DIR=$(fakes hw-lost hw-910a 910a) run hcclctl doctor --local --ranktable "$TMP/rt8.json" --checks npu.count --sysfs-root $SYS/npu-910a-lost
check_rc 2 "an NPU that dropped off the bus (7 of the table's 8): exit 2"
check_out_has "$(line FAIL npu.count "the rank table puts 8 devices on this server, npu-smi lists 7 (no device 0); the rank table puts 8 devices on this server, the PCIe bus has 7 NPUs")" "  named against the table, npu-smi and the bus"
FAKE_NPU_SMI_DIR=$(fakes hw-910a 910a) run hcclctl doctor --local --ranktable "$TMP/rt8.json" --checks npu.count --sysfs-root $SYS/npu-910a
check_rc 0 "the table's 8, npu-smi's 8, the bus's 8: exit 0"
check_out_has "$(line PASS npu.count "8 NPU chips: the rank table, npu-smi and the PCIe bus agree")" "  npu.count PASS"
FAKE_NPU_SMI_DIR=$(fakes hw-lost hw-910a 910a) run hcclctl doctor --local --checks npu.count --sysfs-root $SYS/npu-910a
check_rc 1 "8 NPUs on the bus, 7 in npu-smi, no table: exit 1"
check_out_has "$(line WARN npu.count "the PCIe bus has 8 NPUs, npu-smi lists 7: the driver lost one, or this is a container given only some of them")" "  a warning (a container may see only its NPUs)"

# ---- host.kernel-log ----
run hcclctl doctor --local --checks host.kernel-log --kernel-log $KLOG/atlas800i-device-abnormal.txt
check_rc 2 "the NPU driver says a device is abnormal: exit 2"
check_out_has "$(line FAIL host.kernel-log "NPU device abnormal or lost: 1 line of $KLOG/atlas800i-device-abnormal.txt, the first (line 7): \"[  456.343559] [ascend] [drv_pcie] [devdrv_sync_non_trans_msg_send 1239] <kworker/u385:0:15232:15232> Device is abnormal. (dev_id=5; msg_type=3; common_type=5)\"; NPU driver errors: 1 line of $KLOG/atlas800i-device-abnormal.txt, the first (line 8): \"[  456.365571] [ascend] [devdrv] [devdrv_refresh_aicore_info_work 322] <kworker/u385:0:15232> devdrv_manager_send_msg unsuccessful. (ret=-19; dev_id=5)\"")" "  each kind with its count and the first line quoted"
run hcclctl doctor --local --checks host.kernel-log --kernel-log $KLOG/aer-uncorrectable-journal.txt
check_rc 2 "PCIe AER uncorrectable errors: exit 2"
check_out_has "fix: reseat or replace the board at that PCIe address and check its riser and slot; reboot the node" "  with the fix"
run hcclctl doctor --local --checks host.kernel-log --kernel-log $KLOG/mce-corrected-journal.txt
check_rc 1 "corrected machine checks: exit 1"
check_out_has "$(line WARN host.kernel-log "corrected machine checks or memory errors: 4 lines of $KLOG/mce-corrected-journal.txt, the first (line 2): \"Sep 16 19:51:15 kernel: [    0.064261] mce: [Hardware Error]: Machine check events logged\"")" "  a warning, quoted"
run hcclctl doctor --local --checks host.kernel-log --kernel-log "$TMP/none.log"
check_rc 3 "a kernel log that cannot be read: SKIP, exit 3"
check_out_has "$(line SKIP host.kernel-log "cannot read the kernel log: cannot open '$TMP/none.log': No such file or directory")" "  saying why"

# ---- env.hccl ----
run hcclctl doctor --local --checks env.hccl --env-file "$TMP/bad.env"
check_rc 2 "HCCL variables out of range: exit 2"
check_out_has "$(line FAIL env.hccl "HCCL_CONNECT_TIMEOUT=60 is outside 120..7200; HCCL_BUFFSIZE=200MB is not an integer: HCCL rejects it; HCCL_RDMA_TC=130 is not a multiple of 4; HCCL_EVENT_TIMEOUT=500 is not above HCCL_EXEC_TIMEOUT=600: torch_npu gives up before HCCL can say which rank or link hung; note: HCCL_EXEC_TIMEOUT=600 is not a multiple of 68: Atlas training (910) boards round it down to 544 s")" "  every finding, the rounding of HCCL_EXEC_TIMEOUT as a note"
HCCL_EXEC_TIMEOUT=7200 HCCL_BUFFSIZE=400 run hcclctl doctor --local --checks env.hccl
check_rc 1 "this node's own environment: HCCL_EXEC_TIMEOUT above torch_npu's default event timeout: exit 1"
check_out_has "$(line WARN env.hccl "HCCL_EVENT_TIMEOUT=1868 (torch_npu's default) is not above HCCL_EXEC_TIMEOUT=7200: torch_npu gives up before HCCL can say which rank or link hung; note: HCCL_EXEC_TIMEOUT=7200 is not a multiple of 68: Atlas training (910) boards round it down to 7140 s")" "  the framework's timeout against HCCL's"
run hcclctl doctor --local --checks env.hccl
check_rc 0 "no HCCL variable: HCCL's defaults, exit 0"
check_out_has "$(line PASS env.hccl "no HCCL_* variable in this node's environment: HCCL's defaults")" "  saying so"
run hcclctl doctor --local --checks env.hccl --env-file "$TMP/none.env"
check_rc 3 "an env file that cannot be read: SKIP, exit 3"

# ---- missing tools: SKIP with the reason, never FAIL, never UNKNOWN for the node ----
HCCLCTL_NPU_SMI=/nonexistent/npu-smi run hcclctl doctor --local --checks $HW --sysfs-root $SYS/none
check_rc 3 "no npu-smi and no sysfs: exit 3 (nothing checked)"
check_out "$(line SKIP npu.count "no NPU list: no npu-smi, no accelerator on the PCIe bus")
$(line SKIP npu.faults "no npu-smi")
$(line SKIP npu.ecc "no npu-smi")
$(line SKIP npu.pcie "cannot read $SYS/none/bus/pci/devices: No such file or directory")
$(line SKIP npu.thermal "no npu-smi")

0 passed, 0 warnings, 0 failed, 5 skipped on 1 node" "  every check SKIP with its reason"
FAKE_NPU_SMI_DIR=$NS/a2 run hcclctl doctor --local --checks npu.faults,npu.thermal
check_rc 3 "an npu-smi that answers none of the queries: SKIP"
check_out_has "$(line SKIP npu.thermal "no temperature could be read: NPU 0: npu-smi info -t common -i 0 (exit 1): Error: this command is not recorded (common -i 0) (and 7 more)")" "  the first failure and how many more"

# ---- --html carries them ----
FAKE_NPU_SMI_DIR=$(fakes hw-alarm hw-910a 910a) run hcclctl doctor --local --checks npu.faults,env.hccl --html "$TMP/hw.html"
grep -q '<th>npu.faults</th>' "$TMP/hw.html" && grep -q '<th>env.hccl</th>' "$TMP/hw.html"
_report $? "--html: a column per new check" "$(cat "$TMP/hw.html")"

done_testing
