#!/bin/sh
# probe roce through a fake hccn_tool and npu-smi printing recorded outputs (tests/data/hccn_tool,
# in hccn_tool's documented formats; see its README): per-device verdicts, TLS agreement, the rank
# table's device_ip, exit codes, JSON, missing and hung tools.
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"
H=$(pwd)/tests/data/hccn_tool
export HCCLCTL_NPU_SMI=$(pwd)/build/tests/stub/bin/npu-smi HCCLCTL_HCCN_TOOL=$(pwd)/build/tests/stub/bin/hccn_tool
export FAKE_NPU_SMI_DIR=$(pwd)/tests/data/npu-smi/a2
HEAD="DEV  STATUS  LINK  HEALTH          IP                 NETDETECT       GATEWAY         TLS  OPTICAL DOWNS REASON"

FAKE_HCCN_DIR=$H/a2 run hcclctl probe roce
check_rc 0 "A2, 8 healthy NPU NICs: exit 0"
check_out "$HEAD
0    PASS    UP    Success         192.168.100.101/24 192.168.100.1   192.168.100.1   off  present 1     -
1    PASS    UP    Success         192.168.100.102/24 192.168.100.1   192.168.100.1   off  present 1     -
2    PASS    UP    Success         192.168.100.103/24 192.168.100.1   192.168.100.1   off  present 1     -
3    PASS    UP    Success         192.168.100.104/24 192.168.100.1   192.168.100.1   off  present 1     -
4    PASS    UP    Success         192.168.100.105/24 192.168.100.1   192.168.100.1   off  present 1     -
5    PASS    UP    Success         192.168.100.106/24 192.168.100.1   192.168.100.1   off  present 1     -
6    PASS    UP    Success         192.168.100.107/24 192.168.100.1   192.168.100.1   off  present 1     -
7    PASS    UP    Success         192.168.100.108/24 192.168.100.1   192.168.100.1   off  present 1     -
tls: PASS: disabled on all 8 devices
roce: PASS: 8 devices, 0 with problems" "one line per device (npu-smi info -m lists them), TLS and summary"

FAKE_HCCN_DIR=$H/a2-down:$H/a2 run hcclctl -q probe roce
check_rc 2 "a link down: exit 2"
check_out "$HEAD
3    FAIL    DOWN  Receive timeout 192.168.100.104/24 192.168.100.1   192.168.100.1   off  present 3     link DOWN; net health Receive timeout; link flapped: down 2 times in the 24 h before its clock, last Tue Oct 28 21:39:58 2025
tls: PASS: disabled on all 8 devices
roce: FAIL: 8 devices, 1 with problems" "link, health and recent flaps named; old downs (Oct 5) are not flaps"

FAKE_HCCN_DIR=$H/a2-tls:$H/a2 run hcclctl -q probe roce
check_rc 2 "TLS on one NPU only: exit 2"
check_out_has "tls: FAIL: the TLS switch differs: enabled on 1, disabled on 0,2-7 (HCCL needs one setting on every NPU)" "the devices on each side are named"

FAKE_HCCN_DIR=$H/a2-noip:$H/a2 run hcclctl -q probe roce
check_rc 2 "no IP on a device: exit 2"
check_out "$HEAD
4    WARN    UP    Init            192.168.100.105/24 192.168.100.1   -               off  present 1     net health Init: no netdetect address set
5    FAIL    UP    Success         -                  192.168.100.1   192.168.100.1   off  present 1     ip: no IP configured
tls: PASS: disabled on all 8 devices
roce: FAIL: 8 devices, 2 with problems" "hccn_tool's 'no ip was preset' on stderr is 'no IP configured'; Init is a warning"

FAKE_HCCN_DIR=$H/a2-optics:$H/a2 run hcclctl -q probe roce
check_rc 1 "optical module missing: exit 1"
check_out_has "2    WARN    UP    Success         192.168.100.103/24 192.168.100.1   192.168.100.1   off  absent  1     hccn_tool says the optical module is not present, yet it reports its readings; optical Tx power 4.4035 mW (lane 0) above the module's high threshold 3.5481 mW; optical Rx loss of signal (Rx Los Flag 0xff)" "optics: 'not present' next to readings is not taken alone; Tx over the module's own threshold"

# real outputs (tests/data/hccn_tool/README, a2-real): device 6 answers with a 910A's
# four-lane optical module, the "netdetect address:" spelling and the TLS layout with a CRL
FAKE_HCCN_DIR=$H/a2-real:$H/a2 run hcclctl -q probe roce
check_rc 1 "real four-lane optics and netdetect address: exit 1"
check_out "$HEAD
6    WARN    UP    Success         192.168.100.107/24 11.12.165.1     192.168.100.1   off  absent  1     netdetect 11.12.165.1 is outside the device's subnet (255.255.255.0); hccn_tool says the optical module is not present, yet it reports its readings; optical Rx power 0.0054 mW (lane 1) below the module's low threshold 0.1445 mW; optical Tx power 4.4035 mW (lane 0) above the module's high threshold 3.5481 mW; optical Rx loss of signal (Rx Los Flag 0xff)
tls: PASS: disabled on all 8 devices
roce: WARN: 8 devices, 1 with problems" "the weakest lane named, netdetect read from 'netdetect address:'"
FAKE_HCCN_DIR=$H/a2-real:$H/a2 run hcclctl -q probe roce --json
check_rc 1 "--json, the same run: exit 1"
ok "python3 -c 'import json,sys; d=json.load(sys.stdin); x=d[\"devices\"][6]; sys.exit(not (x[\"tls\"][\"certificates\"]==3 and x[\"tls\"][\"first_expiry\"]==\"Wed Jun 18 03:10:27 2053 GMT\" and x[\"optical\"][\"rx_power_mw\"]==0.0054 and x[\"optical\"][\"tx_power_mw\"]==4.4035))' <\"$TMP/out\"" "--json: the CRL's next update is not a certificate expiry; the lowest Rx lane"

# -stat -g, the port's counters (tests/data/hccn_tool/README): a2/stat.txt is MindCluster's
# doc sample (traffic, no errors); a2-counters/stat-6 the real capture of a job that left
# RoCE error packets; a2-counters-made/ constructed cases (other families, CRLF, a bad value)
FAKE_HCCN_DIR=$H/a2 run hcclctl -q probe roce --json
check_rc 0 "counters: traffic and zero error counters pass: exit 0"
ok "python3 -c 'import json,sys; d=json.load(sys.stdin); c=d[\"devices\"][0][\"counters\"]; sys.exit(not (c[\"status\"]==\"PASS\" and c[\"findings\"]==[] and c[\"values\"][\"nic_rx_all_pkg_num\"]==6414803 and c[\"values\"][\"roce_qp_status_err_num\"]==0 and len(c[\"values\"])==8))' <\"$TMP/out\"" "--json: the 8 counters of the elided sample, no finding"
FAKE_HCCN_DIR=$H/a2-counters:$H/a2 run hcclctl -q probe roce
check_rc 1 "RoCE error packets on one port: exit 1"
check_out "$HEAD
6    WARN    UP    Success         192.168.100.107/24 192.168.100.1   192.168.100.1   off  present 1     error counters since they were last cleared: roce_rx_err_pkt_num 13, roce_tx_err_pkt_num 77 (RoCE packets in error)
tls: PASS: disabled on all 8 devices
roce: WARN: 8 devices, 1 with problems" "named with their values, as totals since the last clear"
FAKE_HCCN_DIR=$H/a2-counters:$H/a2 run hcclctl -q --strict probe roce
check_rc 2 "--strict: the counter warning fails"
FAKE_HCCN_DIR=$H/a2-counters:$H/a2 run hcclctl -q probe roce --json
ok "python3 -c 'import json,sys; d=json.load(sys.stdin); c=d[\"devices\"][6][\"counters\"]; f=c[\"findings\"]; sys.exit(not (c[\"status\"]==\"WARN\" and c[\"since_last_clear\"] is True and [(x[\"counter\"],x[\"value\"],x[\"status\"]) for x in f]==[(\"roce_rx_err_pkt_num\",13,\"WARN\"),(\"roce_tx_err_pkt_num\",77,\"WARN\")] and d[\"devices\"][5][\"counters\"][\"findings\"]==[]))' <\"$TMP/out\"" "--json: the findings of device 6, none on device 5"
FAKE_HCCN_DIR=$H/a2-counters-made:$H/a2 run hcclctl -q probe roce
check_rc 3 "a counter that is not a number: exit 3"
check_out "$HEAD
2    WARN    UP    Success         192.168.100.103/24 192.168.100.1   192.168.100.1   off  present 1     error counters since they were last cleared: roce_new_pkt_rty_num 310 (RoCE retransmissions), mac_rx_fcs_err_pkt_num 4 (frames with a bad FCS), roce_future_err_num 2 (other error counters)
3    UNKNOWN UP    Success         192.168.100.104/24 192.168.100.1   192.168.100.1   off  present 1     counters: line 2: counter roce_rx_err_pkt_num has a value that is not a count: \"N/A\"
tls: PASS: disabled on all 8 devices
roce: UNKNOWN: 8 devices, 2 with problems" "PFC, ECN, unexpected ACKs and traffic are not findings; an unknown *_err_* counter is; the bad line is named"

FAKE_HCCN_DIR=$H/a2-old:$H/a2 run hcclctl -q probe roce
check_rc 1 "older hccn_tool output: tls without preconfigured, [device N] link_stat, ip on one line"
check_out_has "0    WARN    UP    Success         192.168.100.101/24 192.168.100.1   192.168.100.1   off  present 1     link flapped: down 1 time in the 24 h before its clock, last Tue Jun  6 16:32:10 2023" "read the same way"

FAKE_NPU_SMI_DIR=$(pwd)/tests/data/npu-smi/a3 FAKE_HCCN_DIR=$H/a3:$H/a2 run hcclctl -q probe roce
check_rc 0 "A3: 16 devices by Chip Phy-ID"
check_out "$HEAD
tls: PASS: disabled on all 16 devices
roce: PASS: 16 devices, 0 with problems" "A3 layout"

FAKE_HCCN_DIR=$H/a2 run hcclctl -q probe roce --devices 0,2
check_out "$HEAD
tls: PASS: disabled on all 2 devices
roce: PASS: 2 devices, 0 with problems" "--devices instead of npu-smi"
FAKE_HCCN_DIR=$H/a2 run env HCCLCTL_NPU_SMI=/nonexistent "$HCCLCTL" probe roce --devices 0-1
check_rc 0 "--devices needs no npu-smi"
run hcclctl probe roce --devices 0-x
check_rc 64 "a bad --devices is a usage error"

# the rank table: this host found by --server-id, by hostname, or not at all
rt() { # $1 server_id, $2 the device_ip of device 6
	printf '{"version": "1.0", "server_count": "1", "status": "completed", "server_list": [{"server_id": "%s", "device": [' "$1"
	for i in 0 1 2 3 4 5 6 7; do
		ip=192.168.100.$((101 + i))
		[ $i = 6 ] && ip=$2
		printf '{"device_id": "%d", "device_ip": "%s", "rank_id": "%d"}' $i "$ip" $i
		[ $i = 7 ] || printf ', '
	done
	printf '], "host_nic_ip": "reserve"}]}\n'
}
rt node-a 192.168.100.107 >"$TMP/good.json"
rt node-a 192.168.100.77 >"$TMP/bad.json"
rt "$(hostname)" 192.168.100.107 >"$TMP/mine.json"
FAKE_HCCN_DIR=$H/a2 run hcclctl -q probe roce --ranktable "$TMP/good.json" --server-id node-a
check_rc 0 "device IPs agree with the rank table"
check_out_has "ranktable: PASS: server node-a: 8 of 8 device_ip agree" "and says so"
FAKE_HCCN_DIR=$H/a2 run hcclctl -q probe roce --ranktable "$TMP/bad.json" --server-id node-a
check_rc 2 "a device IP that is not the rank table's: exit 2"
check_out_has "6    FAIL    UP    Success         192.168.100.107/24 192.168.100.1   192.168.100.1   off  present 1     IP 192.168.100.107 differs from the rank table's device_ip 192.168.100.77 (HCCL: EI0014)" "names the device and both IPs"
check_out_has "ranktable: FAIL: device 6 has IP 192.168.100.107, its device_ip is 192.168.100.77" "the rank table check fails, naming the device and both IPs"
FAKE_HCCN_DIR=$H/a2 run hcclctl -q probe roce --ranktable "$TMP/mine.json"
check_out_has "ranktable: PASS: server $(hostname): 8 of 8 device_ip agree" "this host found by its hostname"
FAKE_HCCN_DIR=$H/a2 run hcclctl -q probe roce --ranktable "$TMP/good.json"
check_rc 3 "this host not in the table: exit 3"
check_out_has "ranktable: UNKNOWN: this host is not a server of $TMP/good.json (matched by address and hostname); its servers: node-a" "says so and lists the servers"
FAKE_HCCN_DIR=$H/a2 run hcclctl -q probe roce --devices 0-5 --ranktable "$TMP/good.json" --server-id node-a
check_rc 2 "ranks on devices that were not probed: exit 2"
check_out_has "ranktable: FAIL: rank 6 is on device 6, which was not probed here; rank 7 is on device 7, which was not probed here" "named"

FAKE_HCCN_DIR=$H/a2-down:$H/a2 run hcclctl --json probe roce
check_rc 2 "--json keeps the exit code"
printf '%s\n' "$OUT" >"$TMP/roce.json"
ok "python3 -c 'import json,sys; d=json.load(open(\"$TMP/roce.json\")); x=d[\"devices\"][3]; y=d[\"devices\"][0]; sys.exit(not (d[\"status\"]==\"FAIL\" and d[\"exit_code\"]==2 and len(d[\"devices\"])==8 and x[\"link\"]==\"DOWN\" and x[\"net_health\"]==\"Receive timeout\" and x[\"link_stat\"][\"down_count\"]==3 and x[\"link_stat\"][\"downs_24h\"]==2 and y[\"ipaddr\"]==\"192.168.100.101\" and y[\"netmask\"]==\"255.255.255.0\" and y[\"tls\"][\"enabled\"] is False and y[\"tls\"][\"preconfigured\"] is True and y[\"optical\"][\"present\"] is True and d[\"tls\"][\"status\"]==\"PASS\"))'" "--json: devices, link_stat, tls, optical"

FAKE_HCCN_DIR=$H/a2 run hcclctl probe roce --hccn-tool "$TMP/none"
check_rc 3 "hccn_tool missing: exit 3"
check_err "hcclctl: probe roce: hccn_tool: cannot run '$TMP/none': No such file or directory (missing)
hint: install it, or pass --hccn-tool PATH (or set HCCLCTL_HCCN_TOOL)" "says so"
t0=$(date +%s)
FAKE_HANG=tls FAKE_HCCN_DIR=$H/a2 run hcclctl probe roce --timeout 1
t1=$(date +%s)
check_rc 3 "a hanging hccn_tool: exit 3"
check_err "hcclctl: probe roce: hccn_tool -i 0 -tls -g: no answer within 1 s (killed) (hung)
hint: the tool hangs: check the driver (dmesg), or raise --timeout" "names the call"
[ $((t1 - t0)) -le 4 ]
_report $? "and returns within the timeout" "took $((t1 - t0)) s"

done_testing
