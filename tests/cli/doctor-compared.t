#!/bin/sh
# A PASS means something was compared. This node is found in a rank table one way by every
# command (doctor's checks and probe roce agree); a check with nothing to compare (no server
# for this node, no NIC data, no table, no other clock, no RDMA device) is a SKIP with the
# reason; and a walk over every check of --list-checks with its inputs missing finds no PASS,
# so a check added later is walked too. node-problem-detector's exit codes and the Slurm drain
# act on the same results.
. "$(dirname "$0")/lib.sh"

BIN=$(pwd)/build/tests/stub/bin
export FAKE_NPU_SMI_DIR=$(pwd)/tests/data/npu-smi/a2 FAKE_HCCN_DIR=$(pwd)/tests/data/hccn_tool/a2
export HCCLCTL_NPU_SMI=$BIN/npu-smi HCCLCTL_HCCN_TOOL=$BIN/hccn_tool
H=$(hostname)

# table SERVER... : one device (0) per server, device_ip 10.9.9.N, unlike the NICs' 192.168.100.x
table() {
	printf '{"version": "1.0", "status": "completed", "server_count": "%d", "server_list": [' $#
	n=0
	for s in "$@"; do
		[ $n = 0 ] || printf ', '
		printf '{"server_id": "%s", "device": [{"device_id": "0", "device_ip": "10.9.9.%d", "rank_id": "%d"}]}' "$s" $((n + 1)) $n
		n=$((n + 1))
	done
	printf ']}\n'
}
line() { printf '%-4s  %-15s %-22s %s' "$1" "$2" "$H" "$3"; }

# ---- this node in the rank table, the one way ----
# one server, 127.0.0.1: in a table of one server a loopback address is this node
table 127.0.0.1 >"$TMP/one.json"
run hcclctl doctor --local --ranktable "$TMP/one.json" --checks ranktable,nic.ip,npu.count
check_rc 2 "a one-server loopback table whose device_ip is not the NIC's: exit 2"
check_out_has "$(line PASS ranktable.node "this node is server 127.0.0.1 of the rank table")" "  ranktable.node finds this node"
check_out_has "$(line FAIL nic.ip "device 0 has 192.168.100.101, the rank table says 10.9.9.1")" "  and nic.ip compares, and fails"
check_out_has "$(line SKIP ranktable.same "the launcher is this node: no other copy to compare with")" "  ranktable.same under --local: the file against itself is no comparison"
check_out_has "$(line PASS npu.count "8 NPU chips: the rank table and npu-smi agree (the job uses fewer than the server has)")" "  npu.count compares with the table"
run hcclctl probe roce --ranktable "$TMP/one.json"
check_rc 2 "probe roce on the same table: exit 2"
check_out_has "ranktable: FAIL: device 0 has IP 192.168.100.101, its device_ip is 10.9.9.1" "  the same answer, naming both IPs"

# two servers, one of them 127.0.0.1: a loopback address names no one in a table of several
table 10.77.0.1 127.0.0.1 >"$TMP/two.json"
run hcclctl doctor --local --ranktable "$TMP/two.json" --checks ranktable,nic,npu.count
check_rc 2 "a table with no server for this node: exit 2"
check_out_has "$(line FAIL ranktable.node "no server of the rank table (10.77.0.1 127.0.0.1) is this node (by address and host name)")" "  ranktable.node FAIL"
check_out_has "$(line SKIP nic.ip "nothing to compare: this host is not a server of $TMP/two.json (matched by address and hostname); its servers: 10.77.0.1 127.0.0.1")" "  nic.ip SKIP with probe roce's reason, not PASS"
check_out_has "$(line SKIP npu.count "only npu-smi's list to go by (no server of the rank table is this node)")" "  npu.count SKIP, without asking for the --ranktable it was given"
printf '%s\n' "$OUT" | grep -q "^PASS  nic.ip"
[ $? -ne 0 ]; _report $? "  no PASS for nic.ip" "$OUT"
run hcclctl probe roce --ranktable "$TMP/two.json"
check_rc 3 "probe roce on the same table: exit 3"
check_out_has "ranktable: UNKNOWN: this host is not a server of $TMP/two.json (matched by address and hostname); its servers: 10.77.0.1 127.0.0.1" "  the same answer"

# by host name, among others
table 10.77.0.1 "$H" >"$TMP/byname.json"
run hcclctl doctor --local --ranktable "$TMP/byname.json" --checks ranktable.node,nic.ip
check_out_has "$(line PASS ranktable.node "this node is server $H of the rank table")" "found by host name"
check_out_has "$(line FAIL nic.ip "device 0 has 192.168.100.101, the rank table says 10.9.9.2")" "  and its own server's device compared"
run hcclctl probe roce --ranktable "$TMP/byname.json"
check_out_has "ranktable: FAIL: device 0 has IP 192.168.100.101, its device_ip is 10.9.9.2" "  probe roce finds the same server"

# ---- the other checks with nothing to compare ----
mkdir -p "$TMP/nosys"
run hcclctl doctor --local --checks host.time,host.memlock --sysfs-root "$TMP/nosys"
check_rc 3 "host.time and host.memlock with no other clock and no RDMA device: exit 3"
check_out "$(line SKIP host.time "--local: the launcher is this node, no other clock to compare with")
$(line SKIP host.memlock "nothing registers memory here, so its limit does not matter (no RDMA device: $TMP/nosys is empty)")

0 passed, 0 warnings, 0 failed, 2 skipped on 1 node" "  both SKIP with the reason"
: >"$TMP/empty.env"
: >"$TMP/empty.log"
run hcclctl doctor --local --checks env.hccl,host.kernel-log --env-file "$TMP/empty.env" --kernel-log "$TMP/empty.log"
check_rc 3 "an empty env file and an empty kernel log: exit 3"
check_out_has "$(line SKIP host.kernel-log "nothing to judge: $TMP/empty.log has no line of text")" "  the kernel log SKIPs, not no error in 0 lines"
check_out_has "$(line SKIP env.hccl "nothing to judge: $TMP/empty.env sets no variable")" "  the env file SKIPs, not HCCL's defaults"
printf 'export HCCL_BUFSIZE=400\nHCCL_CONNECT_TIMEOUT=600\n' >"$TMP/typo.env"
run hcclctl doctor --local --checks env.hccl --env-file "$TMP/typo.env"
check_rc 1 "a misspelt HCCL variable: exit 1"
check_out_has "$(line WARN env.hccl "HCCL_BUFSIZE is not a variable HCCL reads: did you mean HCCL_BUFFSIZE?")" "  named with the closest known one"

# ---- the walk: every check with its inputs missing, none PASSes ----
# the inputs: no npu-smi or hccn_tool, an empty /sys, no env file, kernel log, logs or CANN,
# no peers; then those files empty; then a rank table that has no server for this node. The host's
# own memory and /dev/shm cannot be taken away: those checks are named here, and must exist.
own="host.shm host.memory host.hugepages"
run hcclctl --json doctor --list-checks
printf '%s' "$OUT" | python3 -c 'import json,sys; print("\n".join(c["code"] for c in json.load(sys.stdin)["checks"]))' >"$TMP/codes"
n=$(wc -l <"$TMP/codes")
[ "$n" -ge 30 ]; _report $? "the walk takes its checks from --list-checks ($n)"
for c in $own; do
	grep -qx "$c" "$TMP/codes"; _report $? "  $c, left out of the walk, is a check"
done
missing="--env-file $TMP/none.env --kernel-log $TMP/none.log --logs $TMP/nologs"
empty="--env-file $TMP/empty.env --kernel-log $TMP/empty.log --logs $TMP/empty.log"
walk() { # $1: options; prints "CODE STATUS message" of every PASS not in $own or $2
	rm -rf "$TMP/walk" && mkdir "$TMP/walk"
	while read -r code; do
		# shellcheck disable=SC2086
		HCCLCTL_NPU_SMI=/nonexistent/npu-smi HCCLCTL_HCCN_TOOL=/nonexistent/hccn_tool \
			ASCEND_HOME_PATH=$TMP/nocann "$HCCLCTL" --json doctor --local --checks "$code" \
			--sysfs-root "$TMP/nosys" $1 >"$TMP/walk/$code.json" 2>/dev/null
	done <"$TMP/codes"
	# one interpreter reads every report (each start of one costs more than the run it checks)
	python3 -c '
import json, os, sys
own = sys.argv[1].split()
d = sys.argv[2]
for f in sorted(os.listdir(d)):
    try:
        checks = json.load(open(os.path.join(d, f)))["checks"]
    except ValueError:
        print(f[:-5], "no JSON document")
        continue
    for c in checks:
        if c["status"] == "PASS" and c["code"] not in own:
            print(c["code"], c["status"], c["message"])' "$own ${2-}" "$TMP/walk"
}
got=$(walk "$missing")
[ -z "$got" ]; _report $? "with every input missing, no check PASSes" "$got"
got=$(walk "$empty")
[ -z "$got" ]; _report $? "with the files given empty, no check PASSes" "$got"
got=$(walk "$missing --ranktable $TMP/two.json" ranktable.valid)
[ -z "$got" ]; _report $? "with a table that has no server for this node, none but ranktable.valid PASSes" "$got"

# ---- node-problem-detector and the Slurm drain act on the same results ----
run hcclctl doctor --local --ranktable "$TMP/one.json" --checks nic.ip --exit-codes npd --node-name n7
check_rc 1 "npd: nic.ip's failure is a problem (exit 1)"
check_out "FAIL: nic.ip on n7: device 0 has 192.168.100.101, the rank table says 10.9.9.1" "  its line"
run hcclctl doctor --local --ranktable "$TMP/two.json" --checks nic.ip --exit-codes npd
check_rc 2 "npd: nic.ip with no server for this node is unknown (exit 2), not OK"
check_out "UNKNOWN: nothing could be checked" "  its line"
run hcclctl doctor --local --checks host.time,host.memlock --sysfs-root "$TMP/nosys" --exit-codes npd
check_rc 2 "npd: host.time and host.memlock with nothing to compare: unknown (exit 2)"
run hcclctl doctor --local --checks host.shm --prometheus "$TMP" --exit-codes npd
check_rc 2 "npd: a passing check whose --prometheus cannot be written: unknown (exit 2)"
check_out "$(printf "UNKNOWN: --prometheus: cannot write the metrics: '%s' is a directory, not a file" "$TMP" | cut -c1-80)" "  the line says why, in 80 bytes"
: >"$TMP/empty.plog"
run hcclctl doctor --logs "$TMP/empty.plog" --exit-codes npd
check_rc 2 "npd: an empty log: unknown (exit 2)"

# scontrol, as the drain calls it: shows the node idle and records every update
cat >"$TMP/scontrol" <<EOF
#!/bin/sh
echo "\$*" >>"$TMP/scontrol.log"
case "\$*" in
"-o show node "*) echo "NodeName=\$5 Arch=x86_64 State=IDLE ThreadsPerCore=1" ;;
esac
EOF
chmod +x "$TMP/scontrol"
export HCCLCTL_SCONTROL=$TMP/scontrol
: >"$TMP/scontrol.log"
run hcclctl doctor --local --ranktable "$TMP/one.json" --checks nic.ip --on-fail drain --node-name n7
check_rc 2 "--on-fail drain on nic.ip's failure: exit 2"
grep -qxF "update nodename=n7 state=drain reason=hcclctl: nic.ip on n7: device 0 has 192.168.100.101, the rank table says 10.9.9.1" "$TMP/scontrol.log"
_report $? "  the node drained, the failure as the reason" "$(cat "$TMP/scontrol.log")"
: >"$TMP/scontrol.log"
run hcclctl doctor --local --ranktable "$TMP/two.json" --checks nic.ip,npu.count --on-fail drain --on-pass resume --node-name n7
check_rc 3 "--on-fail drain --on-pass resume with nothing compared: exit 3"
[ ! -s "$TMP/scontrol.log" ]; _report $? "  neither drained nor resumed: scontrol not called" "$(cat "$TMP/scontrol.log")"
: >"$TMP/scontrol.log"
run hcclctl doctor --local --checks host.shm --prometheus "$TMP" --on-fail drain --node-name n7
check_rc 3 "--on-fail drain, a passing check, --prometheus unwritable: exit 3"
[ ! -s "$TMP/scontrol.log" ]; _report $? "  a node is not drained for an output it could not write" "$(cat "$TMP/scontrol.log")"

done_testing
