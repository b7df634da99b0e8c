# hcclctl doctor across 4 network namespaces, over SSH, with fake npu-smi and hccn_tool per
# node: a healthy cluster passes, then one fault at a time must be named as the most likely
# cause with the right node and the fix: an HCCS link down, a NIC link down, a TLS switch that
# differs, a device_ip that differs from the NIC's, a rank table that differs on one node, a
# closed port between two nodes, a node that is down, a CANN version that differs, a slow
# link (--deep). Times of a quick doctor over 4 namespaces are printed for the notes.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/netns.sh"

cluster_require
cluster_up_or_end 4
REPO=$(pwd)
FX=$TMP/fx
# Per node: NIC addresses of its own (192.168.1I.10D), a CANN install, fixture overlays.
for i in 1 2 3 4; do
	mkdir -p "$FX/n$i/hccn" "$FX/n$i/npu" "$FX/n$i/cann"
	for d in 0 1 2 3 4 5 6 7; do
		printf 'ipaddr:192.168.1%d.10%d\nnetmask:255.255.255.0\n' "$i" "$d" >"$FX/n$i/hccn/ip-$d.txt"
	done
	printf 'package_name=Ascend-cann-toolkit\nversion=8.0.RC2\n' >"$FX/n$i/cann/ascend_toolkit_install.info"
	# npu-smi info's banner (ascend.md 3.1), for the driver version
	printf '+----------+\n| npu-smi 24.1.rc1.b030            Version: 24.1.rc1.b030 |\n+----------+\n' >"$FX/n$i/npu/info.txt"
	# info -t board (ascend.md 3.4): driver and firmware
	printf '\tNPU ID                         : 0\n\tSoftware Version               : 24.1.rc1.b030\n\tFirmware Version               : 7.5.0.1.201\n' >"$FX/n$i/npu/board.txt"
	printf 'address_0=192.168.1%d.100\naddress_1=192.168.1%d.101\n' "$i" "$i" >"$TMP/hccn-10.77.0.$i"
	mkdir -p "$TMP/hccn"
	cp "$TMP/hccn-10.77.0.$i" "$TMP/hccn/10.77.0.$i"
done
"$HCCLCTL" ranktable gen --servers "$(cluster_hosts)" --devices 0-1 --hccn-conf-dir "$TMP/hccn" \
	-o "$TMP/rt.json" 2>/dev/null
cp "$TMP/rt.json" "$TMP/rt-other.json"
sed -i 's/"192.168.13.101"/"192.168.13.199"/' "$TMP/rt-other.json"

# The node side runs through this wrapper: each node's own fixtures, tools and CANN, and
# (when $FX/nI/table exists) a different rank table. host.memlock is skipped below: this
# container's hard memlock limit is 8 MiB and cannot be raised (no CAP_SYS_RESOURCE), so it
# would WARN on every node; the test of that warning is at the end.
cat >"$TMP/hc" <<EOS
#!/bin/sh
n=\${HCCLCTL_NODE:-n0}
export FAKE_NPU_SMI_DIR="$FX/\$n/npu:\$(cat $FX/\$n/npu-dirs 2>/dev/null)$REPO/tests/data/npu-smi/a2"
export FAKE_HCCN_DIR="$FX/\$n/hccn:\$(cat $FX/\$n/hccn-dirs 2>/dev/null)$REPO/tests/data/hccn_tool/a2"
export HCCLCTL_NPU_SMI=$REPO/build/tests/stub/bin/npu-smi HCCLCTL_HCCN_TOOL=$REPO/build/tests/stub/bin/hccn_tool
export ASCEND_HOME_PATH=$FX/\$n/cann
[ -f "$FX/\$n/hccl.env" ] && . "$FX/\$n/hccl.env"
if [ -f "$FX/\$n/table" ]; then
	alt=\$(cat "$FX/\$n/table")
	for a in "\$@"; do
		shift
		if [ "\$prev" = --ranktable ]; then set -- "\$@" "\$alt"; else set -- "\$@" "\$a"; fi
		prev=\$a
	done
fi
exec $HCCLCTL "\$@"
EOS
chmod +x "$TMP/hc"

doc() {
	cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" doctor --ranktable "$TMP/rt.json" --ssh-user root \
		--ssh-key "$CL_KEY" --ssh-known-hosts "$CL_KNOWN_HOSTS" --remote-hcclctl "$TMP/hc" \
		--ports 60000,16666 --skip host.memlock \
		--kernel-log "$REPO/tests/data/klog/ascend-samples-16.txt" "$@"
}
cause_is() { printf '%s\n' "$OUT" | grep -q "^most likely cause: $1"; }

t0=$(date +%s%N)
run doc
ms=$((($(date +%s%N) - t0) / 1000000))
echo "# quick doctor over 4 namespaces: $ms ms"
check_rc 0 "a healthy cluster: exit 0"
printf '%s\n' "$OUT" | grep -q '^PASS  npu.health      10.77.0.\[1-4\] '
_report $? "  identical results are folded: PASS npu.health 10.77.0.[1-4]" "$OUT"
! printf '%s\n' "$OUT" | grep -q '^FAIL\|^WARN'
_report $? "  no FAIL and no WARN" "$OUT"
for c in ranktable.valid ranktable.same ranktable.node npu.smi npu.health link.hccs link.roce nic.ip nic.tls net.ports npu.driver npu.firmware cann.version host.time host.shm; do
	printf '%s\n' "$OUT" | grep -q "^PASS  $c " || echo "$c"
done >"$TMP/missing"
[ ! -s "$TMP/missing" ]
_report $? "  every check of the rank table, NPUs, links, ports, versions and clock passes" "$(cat "$TMP/missing")" "$OUT"
check_out_has "$(printf '%s\n' "$OUT" | grep '^[0-9]* passed, 0 warnings, 0 failed')" "  a summary line"

run doc --json
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["schema"] == "hcclctl-doctor/1" and d["exit_code"] == 0 and d["cause"] is None, d["cause"]
assert d["nodes"] == ["10.77.0.1", "10.77.0.2", "10.77.0.3", "10.77.0.4"], d["nodes"]
c = [x for x in d["checks"] if x["code"] == "npu.health"]
assert len(c) == 4 and all(x["status"] == "PASS" for x in c), c
assert all(set(x) == {"code", "node", "status", "message", "fix"} for x in d["checks"])'
_report $? "--json: schema, nodes, one result per check and node" "$OUT"

# ---- one fault at a time (each run limited to the checks it is about, to keep it quick) ----
echo "$REPO/tests/data/npu-smi/a2-down:" >"$FX/n2/npu-dirs"
run doc --checks node,npu,link.hccs
rm -f "$FX/n2/npu-dirs"
check_rc 2 "an HCCS link down on node 2: exit 2"
cause_is "link.hccs on 10.77.0.2: NPU 3 chip 0 link"
_report $? "  named: link.hccs on 10.77.0.2, NPU 3" "$OUT"
printf '%s\n' "$OUT" | grep -q '^PASS  link.hccs       10.77.0.\[1,3-4\] '
_report $? "  the other nodes pass, folded" "$OUT"

echo "$REPO/tests/data/hccn_tool/a2-down:" >"$FX/n3/hccn-dirs"
run doc --checks node,link.roce
rm -f "$FX/n3/hccn-dirs"
check_rc 2 "a NIC link down on node 3: exit 2"
cause_is "link.roce on 10.77.0.3: device 3 link DOWN"
_report $? "  named: link.roce on 10.77.0.3, device 3" "$OUT"
printf '%s\n' "$OUT" | grep -q '^fix: hccn_tool -i N -link -g'
_report $? "  with the fix" "$OUT"

echo "$REPO/tests/data/hccn_tool/a2-tls:" >"$FX/n1/hccn-dirs"
run doc --checks node,nic
rm -f "$FX/n1/hccn-dirs"
check_rc 2 "a TLS switch that differs (node 1, device 1): exit 2"
cause_is "nic.tls on 10.77.0.1: "
_report $? "  named: nic.tls on 10.77.0.1" "$OUT"

printf 'ipaddr:192.168.14.250\nnetmask:255.255.255.0\n' >"$FX/n4/hccn/ip-1.txt"
run doc --checks node,nic.ip
printf 'ipaddr:192.168.14.101\nnetmask:255.255.255.0\n' >"$FX/n4/hccn/ip-1.txt"
check_rc 2 "a device_ip that differs from the NIC's IP (node 4, device 1): exit 2"
cause_is "nic.ip on 10.77.0.4: device 1 has 192.168.14.250, the rank table says 192.168.14.101"
_report $? "  named with both addresses" "$OUT"

echo "$TMP/rt-other.json" >"$FX/n3/table"
run doc --checks node,ranktable
rm -f "$FX/n3/table"
check_rc 2 "a rank table that differs on node 3: exit 2"
cause_is "ranktable.same on 10.77.0.3: this node's .* differs from the launcher's: digest "
_report $? "  named: ranktable.same on 10.77.0.3, both digests" "$OUT"

printf 'table inet hcdoc {\n chain in {\n  type filter hook input priority 0;\n  ip saddr 10.77.0.1 tcp dport 16666 reject with tcp reset\n }\n}\n' |
	cluster_exec 2 nft -f -
run doc --checks node,net.ports
cluster_exec 2 nft delete table inet hcdoc
check_rc 2 "port 16666 closed from node 1 to node 2: exit 2"
cause_is "net.ports on 10.77.0.1: cannot reach 10.77.0.2:16666 refused"
_report $? "  named: node 1 cannot reach 10.77.0.2:16666" "$OUT"

printf 'package_name=Ascend-cann-toolkit\nversion=8.0.RC1\n' >"$FX/n2/cann/ascend_toolkit_install.info"
run doc --checks node,cann
printf 'package_name=Ascend-cann-toolkit\nversion=8.0.RC2\n' >"$FX/n2/cann/ascend_toolkit_install.info"
check_rc 2 "a CANN version that differs on node 2: exit 2"
cause_is "cann.version on 10.77.0.2: CANN 8.0.RC1, but 3 nodes have 8.0.RC2"
_report $? "  named with both versions" "$OUT"

for i in 1 2 3 4; do
	printf 'export HCCL_BUFFSIZE=200\nexport HCCL_CONNECT_TIMEOUT=600\nexport HCCL_IF_IP=10.77.0.%d\n' "$i" >"$FX/n$i/hccl.env"
done
printf 'export HCCL_BUFFSIZE=100\nexport HCCL_CONNECT_TIMEOUT=600\n' >"$FX/n3/hccl.env"
run doc --checks node,env
check_rc 2 "HCCL_BUFFSIZE differs on node 3 (each node's own environment): exit 2"
cause_is "env.hccl on 10.77.0.3: HCCL_BUFFSIZE=100, but 3 nodes have HCCL_BUFFSIZE=200$"
_report $? "  named with both values; HCCL_IF_IP, which differs by nature, is not compared" "$OUT"
printf 'export HCCL_BUFFSIZE=200\nexport HCCL_CONNECT_TIMEOUT=600\n' >"$FX/n3/hccl.env"
run doc --checks node,env
rm -f "$FX"/n*/hccl.env
check_rc 0 "the same HCCL variables everywhere: exit 0"
check_out_has "$(printf 'PASS  env.hccl        %-22s the same 2 HCCL variables on all 4 nodes' cluster)" "  env.hccl PASS for the cluster"

printf '\tSoftware Version               : 24.1.rc1.b030\n\tFirmware Version               : 7.3.0.1.231\n' >"$FX/n3/npu/board-0-.txt"
run doc --checks npu
rm -f "$FX/n3/npu/board-0-.txt"
check_rc 2 "a firmware that differs on node 3: exit 2"
cause_is "npu.firmware on 10.77.0.3: NPU firmware 7.3.0.1.231, but 3 nodes have 7.5.0.1.201"
_report $? "  named with both versions" "$OUT"

cluster_stop_sshd 4
t0=$(date +%s%N)
run doc --checks node,host
ms=$((($(date +%s%N) - t0) / 1000000))
cluster_start_sshd 4
# listening again before the --deep run below connects to it (a start is not a listen: that
# run once found node 4 refusing)
_cl_wait_sshd 4
check_rc 2 "node 4 down (no sshd): exit 2"
cause_is "node.reach on 10.77.0.4: unreachable: cannot reach the node"
_report $? "  named: node.reach on 10.77.0.4" "$OUT"
[ "$ms" -lt 20000 ]
_report $? "  one FAIL, not a hang ($ms ms)"

# ---- --deep: a slow link ----
cluster_shape_link 1 2 100mbit
run doc --deep --checks node,net,run --html "$TMP/deep.html"
check_rc 1 "--deep with node 1 -> node 2 at 100 Mbit/s: exit 1 (a warning)"
printf '%s\n' "$OUT" | grep -q '^WARN  net.bandwidth   cluster .*10.77.0.1.*10.77.0.2'
_report $? "  net.bandwidth names the link 10.77.0.1 -> 10.77.0.2" "$OUT"
printf '%s\n' "$OUT" | grep -q '^WARN  run.allreduce   cluster .*slowed by the link rank 1 (10.77.0.1) -> rank 2 (10.77.0.2)'
_report $? "  run.allreduce over the table: slowed by rank 1 (10.77.0.1) -> rank 2 (10.77.0.2)" "$OUT"
grep -q '<h2>Links (probe net' "$TMP/deep.html" && [ "$(grep -o '<td style="background:rgb' "$TMP/deep.html" | wc -l)" -eq 12 ]
_report $? "  --html: the link heat map, 12 coloured links" "$(cat "$TMP/deep.html")"
run doc --checks node,net.bandwidth --html "$TMP/bw.html"
check_rc 1 "--checks net.bandwidth without --deep: probe net runs (exit 1, the slow link)"
grep -q '<h2>Links (probe net' "$TMP/bw.html" && [ "$(grep -o '<td style="background:rgb' "$TMP/bw.html" | wc -l)" -eq 12 ]
_report $? "  --html: the heat map without --deep, 12 coloured links" "$(cat "$TMP/bw.html")"

# ---- a node without hcclctl: the remote shell's error in one clean line ----
run cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" doctor --ranktable "$TMP/rt.json" --ssh-user root \
	--ssh-key "$CL_KEY" --ssh-known-hosts "$CL_KNOWN_HOSTS" --remote-hcclctl no-such-hcclctl \
	--checks node --json
check_rc 2 "no hcclctl on the nodes: exit 2"
printf '%s\n' "$OUT" >"$TMP/nohc.json"
ok "python3 -c '
import json, sys
d = json.load(open(\"$TMP/nohc.json\"))
c = [x for x in d[\"checks\"] if x[\"code\"] == \"node.reach\" and x[\"status\"] == \"FAIL\"]
assert len(c) == 4, c
for x in c:
    m = x[\"message\"]
    assert \"\\n\" not in m and \"\\r\" not in m and m.endswith(\"command not found\"), repr(m)
    assert m.startswith(\"hcclctl is not installed on the node (exit 127): \"), repr(m)
    assert \"no-such-hcclctl\" in m, m
    assert \"--remote-hcclctl PATH\" in x[\"fix\"], x
'" "  node.reach names the shell's error on one line, with the fix" "$OUT"

# ---- a host limit: memlock, as it is in this container, on nodes with an RDMA device (the
# sysfs fixture of a RoCE NIC, passed on to every node) ----
run doc --checks host.memlock --skip "" --sysfs-root "$REPO/tests/data/sysfs/roce"
check_rc 1 "host.memlock limited: exit 1 (a warning)"
cause_is "host.memlock on 10.77.0.\[1-4\]: locked memory limited to "
_report $? "  named on every node, folded, with the limit" "$OUT"
printf '%s\n' "$OUT" | grep -q '^fix: ulimit -l unlimited'
_report $? "  and the fix" "$OUT"
# without one, nothing registers memory: nothing to compare, never a warning
run doc --checks host.memlock --skip ""
check_rc 3 "host.memlock with no RDMA device on any node: exit 3 (nothing checked)"
printf '%s\n' "$OUT" | grep -q '^SKIP  host.memlock    10.77.0.\[1-4\] .*nothing registers memory here'
_report $? "  SKIP on every node, with the reason" "$OUT"

done_testing
