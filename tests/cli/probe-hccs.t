#!/bin/sh
# probe hccs through a fake npu-smi that prints recorded outputs (tests/data/npu-smi, in the
# formats of npu-smi's own printf calls; see its README): verdicts per link, exit codes, JSON,
# missing and hung tools.
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"
D=$(pwd)/tests/data/npu-smi
export HCCLCTL_NPU_SMI=$(pwd)/build/tests/stub/bin/npu-smi
HEAD="NPU  CHIP LINK STATUS  STATE       MODE LANES SPEED RETRY  ERRORS REASON"
healthy_row() { printf '%-4s %-4s %-4s PASS    up          4    1111  224   0      0      -' "$1" "$2" "$3"; }

FAKE_NPU_SMI_DIR=$D/a2 run hcclctl probe hccs --interval 0
check_rc 0 "A2, 8 x 910B3, all links up: exit 0"
check_out_has "$HEAD" "a header line"
check_out_has "$(healthy_row 0 0 0)" "one line per link: NPU 0 chip 0 link 0"
check_out_has "$(healthy_row 7 0 6)" "seven links per chip on A2 (the last is link 6)"
check_out_has "topology: PASS: 8 devices, HCCS full mesh in groups of 8" "the topology is a full HCCS mesh"
check_out_has "hccs: PASS: 8 chips, 56 links: 56 up, 0 down, 0 degraded, 0 slow, 0 with errors, 0 unused" "summary"
[ "$(printf '%s\n' "$OUT" | wc -l)" -eq 59 ]
_report $? "56 link lines, a header, topology and summary" "$OUT"

FAKE_NPU_SMI_DIR=$D/a2 run hcclctl -q probe hccs --interval 0
check_out "$HEAD
topology: PASS: 8 devices, HCCS full mesh in groups of 8
hccs: PASS: 8 chips, 56 links: 56 up, 0 down, 0 degraded, 0 slow, 0 with errors, 0 unused" "-q prints only problems"

FAKE_NPU_SMI_DIR=$D/a2-down:$D/a2 run hcclctl -q probe hccs --interval 0
check_rc 2 "one link down: exit 2"
check_out "$HEAD
3    0    -    FAIL    unhealthy   -    -     -     -      -      hccs health status NOK; first error lane 2
3    0    2    FAIL    down        0    0000  0     0      0      lane mode 0
topology: PASS: 8 devices, HCCS full mesh in groups of 8
hccs: FAIL: 8 chips, 56 links: 55 up, 1 down, 0 degraded, 0 slow, 0 with errors, 0 unused" "the down link and the unhealthy chip, with reasons"

FAKE_NPU_SMI_DIR=$D/a2-degraded:$D/a2 run hcclctl -q probe hccs --interval 0
check_rc 1 "degraded lanes: exit 1"
check_out_has "5    0    4    WARN    degraded    2    1100  112   0      0      lane mode 2, others 4; lane list 1100: 2 of 4 lanes active; speed 112, others 224" "lane mode, lane list and speed named"
FAKE_NPU_SMI_DIR=$D/a2-degraded:$D/a2 run hcclctl --strict probe hccs --interval 0
check_rc 2 "--strict: degraded is a failure"

mkdir -p "$TMP/state"
FAKE_STATE=$TMP/state FAKE_NPU_SMI_DIR=$D/a2-errors:$D/a2 run hcclctl -q probe hccs --interval 1
check_rc 2 "error count growing between two reads: exit 2"
check_out "$HEAD
1    0    0    WARN    errors      4    1111  224   17     0      retry count +5 in 1 s
1    0    1    FAIL    errors      4    1111  224   0      9      error count +6 in 1 s
topology: PASS: 8 devices, HCCS full mesh in groups of 8
hccs: FAIL: 8 chips, 56 links: 54 up, 0 down, 0 degraded, 0 slow, 2 with errors, 0 unused" "growing counters named; old counts on NPU 2 that do not grow are not"
ok "[ \"\$(cat '$TMP/state/npu-smi.hccs-1-0')\" = 2 ]" "each chip was read twice"
rm -f "$TMP"/state/*
FAKE_STATE=$TMP/state FAKE_NPU_SMI_DIR=$D/a2-errors:$D/a2 run hcclctl -q probe hccs --interval 0
check_rc 0 "--interval 0 reads once, so nothing can grow"

FAKE_NPU_SMI_DIR=$D/a2-isolated:$D/a2 run hcclctl -q probe hccs --interval 0
check_rc 2 "an NPU cut off the HCCS mesh: exit 2"
check_out_has "topology: FAIL: NPU0-NPU7 is SYS, expected HCCS (mesh groups of 8)" "the missing pairs are named"
check_out_has "hccs: FAIL: 8 chips, 56 links: 56 up, 0 down, 0 degraded, 0 slow, 0 with errors, 0 unused; 7 pairs not HCCS" "summary counts them"

FAKE_NPU_SMI_DIR=$D/a3 run hcclctl -q probe hccs --interval 0
check_rc 0 "A3: 8 NPUs x 2 dies, 6 ports each, SIO/HCCS_SW topology"
check_out "$HEAD
topology: PASS: 16 devices, HCCS full mesh in groups of 16
hccs: PASS: 16 chips, 96 links: 96 up, 0 down, 0 degraded, 0 slow, 0 with errors, 0 unused" "A3 layout"

FAKE_NPU_SMI_DIR=$D/compressed:$D/a2 run hcclctl -q probe hccs --interval 0
check_rc 0 "the real capture with only counters (no lane fields) passes"
check_out_has "hccs: PASS: 8 chips, 24 links: 0 up, 0 down, 0 degraded, 0 slow, 0 with errors, 0 unused" "three links per chip, state not claimed"

FAKE_NPU_SMI_DIR=$D/310p run hcclctl probe hccs
check_rc 3 "no chip supports querying hccs: exit 3"
check_out_has "0    0    -    SKIP    unsupported -    -     -     -      -      this device does not support querying hccs" "reported as unsupported, not failed"
check_err "hcclctl: probe hccs: no NPU here supports querying hccs (2 chips)" "and says why it could not check"

# A board that cannot answer info -t topo: SKIP, and every link up is still exit 0.
FAKE_NPU_SMI_DIR=$D/a2-topo-unsupported:$D/a2 run hcclctl -q probe hccs --interval 0
check_rc 0 "topo unsupported, every link up: exit 0, not 3"
check_out "$HEAD
topology: SKIP: this device does not support querying topo
hccs: PASS: 8 chips, 56 links: 56 up, 0 down, 0 degraded, 0 slow, 0 with errors, 0 unused" "the topology is SKIP with the reason"
check_err "" "and nothing on stderr"
FAKE_NPU_SMI_DIR=$D/a2-topo-unsupported:$D/a2 run hcclctl --json probe hccs --interval 0
check_rc 0 "--json: exit 0"
printf '%s\n' "$OUT" >"$TMP/topo.json"
ok "python3 -c 'import json,sys; d=json.load(open(\"$TMP/topo.json\")); t=d[\"topology\"]; sys.exit(not (d[\"status\"]==\"PASS\" and d[\"exit_code\"]==0 and t[\"status\"]==\"SKIP\" and t[\"reason\"]==\"this device does not support querying topo\"))'" "--json: topology SKIP with its reason, status PASS"
# the same answer on stderr with a non-zero exit, as some npu-smi versions give it
mkdir -p "$TMP/topo-err"
: >"$TMP/topo-err/topo.txt"
echo "This device does not support querying topo." >"$TMP/topo-err/topo.err"
echo 255 >"$TMP/topo-err/topo.rc"
FAKE_NPU_SMI_DIR=$TMP/topo-err:$D/a2 run hcclctl -q probe hccs --interval 0
check_rc 0 "the answer on stderr with exit 255: still SKIP"
check_out_has "topology: SKIP: this device does not support querying topo" "  named the same way"
# a link down on such a board is still a failure
FAKE_NPU_SMI_DIR=$D/a2-topo-unsupported:$D/a2-down:$D/a2 run hcclctl -q probe hccs --interval 0
check_rc 2 "topo unsupported and a link down: exit 2"
# output that is no matrix at all stays UNKNOWN
mkdir -p "$TMP/topo-garbage"
echo "npu-smi: internal error" >"$TMP/topo-garbage/topo.txt"
FAKE_NPU_SMI_DIR=$TMP/topo-garbage:$D/a2 run hcclctl -q probe hccs --interval 0
check_rc 3 "unreadable topo output: exit 3 (could not check)"
check_out_has "topology: UNKNOWN: npu-smi info -t topo (exit 0): no topology matrix in the output of info -t topo" "  with what was wrong"

FAKE_NPU_SMI_DIR=$D/910a run hcclctl -q probe hccs
check_out_has "topology: PASS: 8 devices, HCCS full mesh in groups of 4" "910A: two HCCS groups of four are healthy"

FAKE_NPU_SMI_DIR=$D/a2-down:$D/a2 run hcclctl --json probe hccs --interval 0
check_rc 2 "--json keeps the exit code"
printf '%s\n' "$OUT" >"$TMP/hccs.json"
ok "python3 -c 'import json,sys; d=json.load(open(\"$TMP/hccs.json\")); c=d[\"chips\"][3]; l=c[\"links\"][2]; sys.exit(not (d[\"status\"]==\"FAIL\" and d[\"exit_code\"]==2 and len(d[\"chips\"])==8 and c[\"health\"]==\"NOK\" and c[\"first_error_lane\"]==\"2\" and l[\"state\"]==\"down\" and l[\"lane_mode\"]==0 and l[\"lane_list\"]==\"0000\" and l[\"retry_delta\"] is None and d[\"topology\"][\"group_size\"]==8 and d[\"topology\"][\"not_hccs\"]==[]))'" "--json: chips, links, topology, status"

run hcclctl probe hccs --npu-smi "$TMP/no-such-npu-smi"
check_rc 3 "npu-smi missing: exit 3"
check_err "hcclctl: probe hccs: npu-smi: cannot run '$TMP/no-such-npu-smi': No such file or directory (missing)
hint: install it, or pass --npu-smi PATH (or set HCCLCTL_NPU_SMI)" "says it is missing and how to point at it"
run env HCCLCTL_NPU_SMI= PATH=/nonexistent "$HCCLCTL" --json probe hccs
check_rc 3 "not in PATH either: exit 3"
printf '%s\n' "$OUT" | grep -q '"message":.*"npu-smi: not found in \$PATH nor at /usr/local/sbin/npu-smi or /usr/local/bin/npu-smi (missing)"'
_report $? "the JSON error says where it looked" "$OUT"

t0=$(date +%s)
FAKE_HANG=hccs FAKE_NPU_SMI_DIR=$D/a2 run hcclctl probe hccs --timeout 1
t1=$(date +%s)
check_rc 3 "a hanging npu-smi: exit 3"
check_err "hcclctl: probe hccs: npu-smi info -t hccs -i 0 -c 0: no answer within 1 s (killed) (hung)
hint: the tool hangs: check the driver (dmesg), or raise --timeout" "names the call that hung"
[ $((t1 - t0)) -le 4 ]
_report $? "and returns within the timeout" "took $((t1 - t0)) s"

run env HCCLCTL_NPU_SMI= PATH="$(pwd)/build/tests/stub/bin:$PATH" FAKE_NPU_SMI_DIR=$D/a2 "$HCCLCTL" -q probe hccs --interval 0
check_rc 0 "npu-smi found in PATH"
run hcclctl probe hccs --interval -1
check_rc 64 "a negative interval is a usage error"

done_testing
