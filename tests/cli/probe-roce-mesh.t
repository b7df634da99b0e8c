#!/bin/sh
# probe roce --mesh on one machine: a rank table of 4 "servers" (127.0.0.1-4, all this host,
# so every server's side runs here without SSH) with 2 NPUs each, whose hccn_tool answers come
# from the fake (tests/stub/fake_tools.c, its mesh part tests/stub/fake_mesh.c) and a topology file saying which device IPs reach
# which (FAKE_HCCN_MESH; tests/data/hccn_tool/README). Every finding with its exact text and
# exit code, the matrix, --json, the node side --ping-list on real captures, usage errors and
# doctor's link.npu-mesh. The same over SSH: tests/cluster/probe-roce-mesh.t.
. "$(dirname "$0")/lib.sh"
H=$(pwd)/tests/data/hccn_tool
export HCCLCTL_HCCN_TOOL=$(pwd)/build/tests/stub/bin/hccn_tool HCCLCTL_NPU_SMI=$(pwd)/build/tests/stub/bin/npu-smi
export FAKE_NPU_SMI_DIR=$(pwd)/tests/data/npu-smi/a2 FAKE_HCCN_DIR=$H/a2

# the job: device d of server s (127.0.0.s) is 10.0.d.s; rail 0 on switch ...:a0, rail 1 on
# ...:b0, server s on port 400GE1/1/s:1 of each
RT=$TMP/rt.json
{
	printf '{"version": "1.0", "server_count": "4", "status": "completed", "server_list": ['
	for s in 1 2 3 4; do
		[ $s = 1 ] || printf ', '
		printf '{"server_id": "127.0.0.%d", "device": [' $s
		printf '{"device_id": "0", "device_ip": "10.0.0.%d", "rank_id": "%d"}, ' $s $((2 * s - 2))
		printf '{"device_id": "1", "device_ip": "10.0.1.%d", "rank_id": "%d"}' $s $((2 * s - 1))
		printf '], "host_nic_ip": "reserve"}'
	done
	printf ']}\n'
} >"$RT"
BASE=$TMP/base.topo
for s in 1 2 3 4; do
	printf 'dev 127.0.0.%d 0 10.0.0.%d\ndev 127.0.0.%d 1 10.0.1.%d\n' $s $s $s $s
	printf 'lldp 127.0.0.%d 0 0c:00:00:00:00:a0 400GE1/1/%d:1\n' $s $s
	printf 'lldp 127.0.0.%d 1 0c:00:00:00:00:b0 400GE1/1/%d:1\n' $s $s
done >"$BASE"
printf '* * 0 0.050\n' >"$TMP/ok.topo"
mesh() { # $1 the scenario's topology lines (before the base); the rest: more options
	printf '%s\n' "$1" >"$TMP/sc.topo"
	shift
	FAKE_HCCN_MESH=$TMP/sc.topo:$BASE run hcclctl probe roce --mesh --ranktable "$RT" "$@"
}
SUM_OK="npu-mesh: PASS: 8 devices on 4 servers, 56 links: 56 reply, 0 no reply, 0 lossy, 0 slow, 0 not known; 0 findings; 7 rounds"

mesh '* * 0 0.050'
check_rc 0 "every device IP reaches every other: exit 0"
check_out "servers: s0 127.0.0.1 (here), s1 127.0.0.2 (here), s2 127.0.0.3 (here), s3 127.0.0.4 (here)

from\\to s0d0 s0d1 s1d0 s1d1 s2d0 s2d1 s3d0 s3d1
s0d0   -    .    .    .    .    .    .    .    10.0.0.1
s0d1   .    -    .    .    .    .    .    .    10.0.1.1
s1d0   .    .    -    .    .    .    .    .    10.0.0.2
s1d1   .    .    .    -    .    .    .    .    10.0.1.2
s2d0   .    .    .    .    -    .    .    .    10.0.0.3
s2d1   .    .    .    .    .    -    .    .    10.0.1.3
s3d0   .    .    .    .    .    .    -    .    10.0.0.4
s3d1   .    .    .    .    .    .    .    -    10.0.1.4
. replies  X no reply  L loss  R slow  ? not known

rail 0: 4 devices, 12 of 12 links within the rail reply, median 0.050 ms
rail 1: 4 devices, 12 of 12 links within the rail reply, median 0.050 ms
within servers: 8 of 8 links reply, median 0.050 ms
within rails: 24 of 24 links reply, median 0.050 ms
across rails: 24 of 24 links reply, median 0.050 ms
lldp: 8 of 8 NICs report their switch port, on 2 known switches

$SUM_OK" "  the matrix (row pings column), per rail and per kind of link, LLDP, the summary"

mesh '10.0.1.2 * 100 -
* 10.0.1.2 100 -
* * 0 0.050' -q
check_rc 2 "one device reaching no one: exit 2"
check_out "FAIL    device-isolated  server 127.0.0.2 device 1 (10.0.1.2) reaches none of its 7 peers and none of 7 reaches it
        fix: check that NIC on its server: hccn_tool -i 1 -link -g, -net_health -g and -optical -g (hcclctl probe roce), its cable and its switch port
npu-mesh: FAIL: 8 devices on 4 servers, 56 links: 42 reply, 14 no reply, 0 lossy, 0 slow, 0 not known; 1 finding; 7 rounds" "  named once with server, device and IP; its 14 dead links are not repeated"


mesh '10.0.0.1 10.0.1.3 100 -
* * 0 0.050' -q
check_rc 2 "one directed pair fails: exit 2"
check_out "FAIL    pair-down        server 127.0.0.1 device 0 (10.0.0.1) -> server 127.0.0.3 device 1 (10.0.1.3): no reply (0 of 3), though the other way replies
        fix: ping it by hand on the sending server (hccn_tool -i 0 -ping -g address 10.0.1.3) and check the routes and ACLs on that path
npu-mesh: FAIL: 8 devices on 4 servers, 56 links: 55 reply, 1 no reply, 0 lossy, 0 slow, 0 not known; 1 finding; 7 rounds" "  the direction, both ends and the command to try"

mesh '10.0.1.* * 100 -
* 10.0.1.* 100 -
* * 0 0.050'
check_rc 2 "a cut rail: exit 2"
check_out_has "rail 1: 4 devices, 0 of 12 links within the rail reply" "  the rail's summary line"
check_out_has "s1d1   X    X    X    -    X    X    X    X    10.0.1.2" "  its row in the matrix"
check_out_has "FAIL    rail-down        rail 1: none of its 4 devices reaches another across servers (12 links), and 0 of their 16 links to other devices reply" "  one finding for the rail, not 4 isolated devices"
check_out_has "        fix: check that rail's switch and its cabling; hccn_tool -i 1 -lldp -g names the switch port each NIC is on" "  with the fix"
check_out_has "npu-mesh: FAIL: 8 devices on 4 servers, 56 links: 12 reply, 44 no reply, 0 lossy, 0 slow, 0 not known; 1 finding; 7 rounds" "  summary: only rail 0's links within the rail reply"

mesh '10.0.0.2 10.0.0.3 33.3 0.050
* * 0 0.050' -q
check_rc 1 "a lossy link: exit 1"
check_out "WARN    loss             server 127.0.0.2 device 0 (10.0.0.2) -> server 127.0.0.3 device 0 (10.0.0.3): 33.33 % loss (2 of 3 replied)
        fix: check the optics and switch ports on that path (hccn_tool -i 0 -stat -g on both ends)
npu-mesh: WARN: 8 devices on 4 servers, 56 links: 56 reply, 0 no reply, 1 lossy, 0 slow, 0 not known; 1 finding; 7 rounds" "  the link and its loss"

mesh '10.0.0.3 10.0.1.4 0 0.900
* * 0 0.050' -q
check_rc 1 "a slow link: exit 1"
check_out_has "WARN    rtt              server 127.0.0.3 device 0 (10.0.0.3) -> server 127.0.0.4 device 1 (10.0.1.4): 0.900 ms, 18.0 times the median 0.050 ms of links across rails" "  compared with the median of its kind of link (the first packet's 1 ms set-up does not count)"

# LLDP: the switch and port each NIC hears
mesh 'lldp 127.0.0.2 1 0c:00:00:00:00:a0 400GE1/1/2:1
* * 0 0.050' -q
check_rc 2 "two NPUs of one server on the same switch port: exit 2"
check_out_has "FAIL    lldp-same-port   server 127.0.0.2 device 0 (10.0.0.2) and server 127.0.0.2 device 1 (10.0.1.2) are both on switch 0c:00:00:00:00:a0 port 400GE1/1/2:1" "  both NICs, the switch and the port"
mesh 'lldp 127.0.0.4 1 0c:00:00:00:00:c0 400GE1/1/4:1
* * 0 0.050' -q
check_rc 1 "a rail split across a switch the others do not use: exit 1"
check_out "WARN    lldp-rail-split  rail 1 spans 2 switches where the other rails span 1: server 127.0.0.4 device 1 (10.0.1.4) on 0c:00:00:00:00:c0; 3 other devices of rail 1 on 0c:00:00:00:00:b0
        fix: check the cabling of the named NICs against the rail plan
npu-mesh: WARN: 8 devices on 4 servers, 56 links: 56 reply, 0 no reply, 0 lossy, 0 slow, 0 not known; 1 finding; 7 rounds" "  the odd NIC and the rail's own switch"

# --json: the same facts and findings
mesh '10.0.0.1 10.0.1.3 100 -
10.0.0.2 10.0.0.3 33.3 0.050
* * 0 0.050' --json
check_rc 2 "--json: exit 2"
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["exit_code"] == 2 and d["status"] == "FAIL" and d["rounds"] == 7, d
assert [s["server_id"] for s in d["servers"]] == ["127.0.0.%d" % i for i in (1, 2, 3, 4)]
assert all(s["local"] and s["ran"] for s in d["servers"])
assert len(d["devices"]) == 8 and d["devices"][5] == {"index": 5, "server_id": "127.0.0.3", "device": 1, "rank": 5, "device_ip": "10.0.1.3", "status": "FAIL", "lldp": {"switch": "0c:00:00:00:00:b0", "port": "400GE1/1/3:1"}}, d["devices"][5]
assert len(d["links"]) == 56 and {l["class"] for l in d["links"]} == {"server", "rail", "cross_rail"}
down = [l for l in d["links"] if l["status"] == "FAIL"]
assert down == [{"from": 0, "to": 5, "class": "cross_rail", "round": down[0]["round"], "status": "FAIL", "sent": 3, "received": 0, "loss_pct": 100, "rtt_ms": None, "error": None}], down
assert [(f["code"], f["status"], f["server_id"], f["device"], f["device_ip"], f["peer"]) for f in d["findings"]] == [
    ("pair-down", "FAIL", "127.0.0.1", 0, "10.0.0.1", {"server_id": "127.0.0.3", "device": 1, "device_ip": "10.0.1.3"}),
    ("loss", "WARN", "127.0.0.2", 0, "10.0.0.2", {"server_id": "127.0.0.3", "device": 0, "device_ip": "10.0.0.3"})], d["findings"]
assert d["findings"][0]["fix"].startswith("ping it by hand on the sending server (hccn_tool -i 0 -ping -g address 10.0.1.3)")
assert d["rails"] == [{"rail": 0, "devices": 4, "links": 12, "replied": 12, "median_rtt_ms": 0.05}, {"rail": 1, "devices": 4, "links": 12, "replied": 12, "median_rtt_ms": 0.05}], d["rails"]
assert d["summary"] == {"devices": 8, "servers": 4, "links": 56, "replied": 55, "no_reply": 1, "lossy": 1, "slow": 0, "not_known": 0}, d["summary"]
assert d["median_rtt_ms"] == {"server": 0.05, "rail": 0.05, "cross_rail": 0.05}'
_report $? "  servers, devices with LLDP, every link, findings with server/device/IP and peer, rails, summary" "$OUT"

mesh '* * 0 0.050' --json --hccs
check_rc 0 "--hccs: -hccs_ping (its layout from hccn_tool's source) read the same way: exit 0"
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["ping"] == "hccs_ping" and d["summary"]["replied"] == 56, d["summary"]'
_report $? "  56 links reply" "$OUT"

# could not check: no hccn_tool on any server
mesh '* * 0 0.050' -q --hccn-tool /nonexistent/hccn_tool
check_rc 3 "no hccn_tool: exit 3, never a failure"
check_out_has "UNKNOWN server-not-run   server 127.0.0.3: its pings did not run (hccn_tool /nonexistent/hccn_tool cannot be run: No such file or directory), so what its 2 devices reach is not known" "  each server named with why"
check_err_has "hcclctl: probe roce: server 127.0.0.1: its pings did not run: hccn_tool /nonexistent/hccn_tool cannot be run: No such file or directory" "  and on stderr"

# an odd number of devices: a bye in every round; a rank without device_ip
cat >"$TMP/rt3.json" <<'EOJ'
{"version": "1.0", "server_count": "3", "status": "completed", "server_list": [
 {"server_id": "127.0.0.1", "device": [{"device_id": "0", "device_ip": "10.0.0.1", "rank_id": "0"}]},
 {"server_id": "127.0.0.2", "device": [{"device_id": "0", "device_ip": "10.0.0.2", "rank_id": "1"}]},
 {"server_id": "127.0.0.3", "device": [{"device_id": "0", "device_ip": "10.0.0.3", "rank_id": "2"}]}]}
EOJ
FAKE_HCCN_MESH=$TMP/ok.topo:$BASE run hcclctl -q probe roce --mesh --ranktable "$TMP/rt3.json"
check_rc 0 "3 devices: 3 rounds, each with one device resting"
check_out "npu-mesh: PASS: 3 devices on 3 servers, 6 links: 6 reply, 0 no reply, 0 lossy, 0 slow, 0 not known; 0 findings; 3 rounds" "  every directed link once"

# the node side, on real captures (tests/data/hccn_tool/a2-ping: README)
FAKE_HCCN_DIR=$H/a2-ping run hcclctl probe roce --ping-list 3=29.1.137.205,0=10.10.100.10,1=10.10.100.10 --lldp --devices 3,1
check_rc 0 "--ping-list on real outputs: exit 0 (the verdict is the launcher's)"
check_out "DEV  TARGET           SENT RECV LOSS     RTT(ms)   ERROR
3    29.1.137.205     3    3    0.00%    0.040     -
0    10.10.100.10     3    2    33.33%   0.082     -
1    10.10.100.10     3    3    0.00%    0.049     -
lldp 3: switch unknown port 400GE1/1/20:2
lldp 1: no LLDP neighbour in the output" "  median round trips; a masked chassis is an unknown switch; 'grep Ifname' output is no answer"
FAKE_HCCN_DIR=$H/a2-ping run hcclctl --json probe roce --ping-list 3=29.1.137.205 --server-id 10.0.0.9 --hccs
check_rc 0 "--hccs where the product has none: still one answer"
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["schema"] == "hcclctl-npu-pings/1" and d["server_id"] == "10.0.0.9", d
assert d["pings"] == [{"device": 3, "target": "29.1.137.205", "error": "not supported on this product"}], d["pings"]'
_report $? "  the ping's error is hccn_tool's own sentence" "$OUT"

# usage
run hcclctl probe roce --mesh
check_rc 64 "--mesh without --ranktable: exit 64"
check_err "hcclctl: probe roce: --mesh needs --ranktable: its device IPs are what is pinged
hint: e.g. hcclctl probe roce --mesh --ranktable rank_table.json" "  saying why"
run hcclctl probe roce --mesh --ranktable "$RT" --devices 0-1
check_rc 64 "--mesh with --devices: exit 64"
run hcclctl probe roce --lldp
check_rc 64 "--lldp without --ping-list: exit 64"
run hcclctl probe roce --ping-list 0=not-an-ip
check_rc 64 "a bad --ping-list: exit 64"
check_err_has "hcclctl: probe roce: --ping-list: expected DEV=IP[,DEV=IP...] (device 0-1023, an IPv4 or IPv6 address), at most 256" "  naming the form"
run hcclctl probe roce --ping-list '0=10.0.0.1;reboot'
check_rc 64 "  what is not an address never reaches hccn_tool"
run hcclctl probe roce --ssh-user root
check_rc 64 "an --ssh-* option without --mesh: exit 64"

# doctor's link.npu-mesh
printf '* * 0 0.050\n' >"$TMP/sc.topo"
FAKE_HCCN_MESH=$TMP/sc.topo:$BASE run hcclctl doctor --local --ranktable "$RT" --checks link.npu-mesh
check_rc 0 "doctor --local, every server this host: link.npu-mesh PASS"
check_out_has "$(printf 'PASS  link.npu-mesh   %-22s every device IP of the job reaches every other (8 devices, 56 links)' "$(hostname)")" "  one line"
printf '10.0.1.2 * 100 -\n* 10.0.1.2 100 -\n* * 0 0.050\n' >"$TMP/sc.topo"
FAKE_HCCN_MESH=$TMP/sc.topo:$BASE run hcclctl --json doctor --local --ranktable "$RT" --checks link.npu-mesh
check_rc 2 "doctor, a device reaching no one: exit 2"
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
c = d["cause"]
assert c["code"] == "link.npu-mesh" and c["status"] == "FAIL", c
assert c["message"] == "device-isolated: server 127.0.0.2 device 1 (10.0.1.2) reaches none of its 7 peers and none of 7 reaches it", c
assert c["fix"].startswith("check that NIC on its server: hccn_tool -i 1 -link -g"), c'
_report $? "  the most likely cause, with the fix" "$OUT"
FAKE_HCCN_MESH=$TMP/sc.topo:$BASE run hcclctl doctor --local --ranktable "$RT" --skip npu,host,nic,net,cann,ranktable,env,link.hccs,link.roce,link.rdma,link.mtu
check_out_has "SKIP  link.npu-mesh   cluster                not run: add --deep (or --checks link.npu-mesh) to ping every device IP from every other device's NIC" "doctor without --deep or --checks: link.npu-mesh is a SKIP saying how to run it"
run hcclctl doctor --local --ranktable "$FIXTURES/hccl_doc_v1.0_atlas910_2srv_2dev.json" --checks link.npu-mesh
check_rc 3 "doctor --local, servers elsewhere: SKIP (exit 3), never a failure"
check_out_has "$(printf 'SKIP  link.npu-mesh   %-22s --local: server node_0 of the table is not this host, and the mesh needs every server'"'"'s NICs; run doctor without --local' "$(hostname)")" "  saying why and what to do"

done_testing
