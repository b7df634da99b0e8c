#!/bin/sh
# probe rdma over sysfs trees that mirror real hosts (tests/data/sysfs; the formats of the
# kernel's infiniband sysfs.c): port verdicts, RoCE v2 GID indexes, exit codes, JSON.
. "$(dirname "$0")/lib.sh"
S=tests/data/sysfs
HEAD="DEVICE         PORT STATUS  STATE    PHYS       LINK       RATE                   MTU          NETDEV             REASON"
SUM_TAIL="MTU from sysfs (the netdev MTU for RoCE; none for InfiniBand)"

run hcclctl probe rdma --sysfs-root $S/ib-ndr
check_rc 0 "ConnectX-7 NDR InfiniBand and a RoCE bond, all active: exit 0"
check_out "$HEAD
mlx5_0         1    PASS    ACTIVE   LinkUp     InfiniBand 400 Gb/sec (4X NDR)    -            ibp24s0(up)        -
mlx5_1         1    PASS    ACTIVE   LinkUp     InfiniBand 400 Gb/sec (4X NDR)    -            ibp40s0(up)        -
mlx5_bond_0    1    PASS    ACTIVE   LinkUp     Ethernet   200 Gb/sec (2X HDR)    4096(netdev) bond0(up)          -
  mlx5_bond_0/1 10.0.0.5: RoCE v2 GID index 3
rdma: PASS: 3 devices, 3 ports, 0 with problems; $SUM_TAIL" "state, phys state, link layer, rate, MTU source, netdev, the v2 GID of the bond's address"
run hcclctl probe rdma --sysfs-root $S/ib-ndr/class/infiniband
check_rc 0 "DIR may be a copy of /sys/class/infiniband itself"
run hcclctl probe rdma --sysfs-root $S/ib-ndr -d mlx5_1
check_out "$HEAD
mlx5_1         1    PASS    ACTIVE   LinkUp     InfiniBand 400 Gb/sec (4X NDR)    -            ibp40s0(up)        -
rdma: PASS: 1 device, 1 port, 0 with problems; $SUM_TAIL" "-d: one device"
run hcclctl probe rdma --sysfs-root $S/ib-ndr --device mlx5_9
check_rc 3 "an unknown device: exit 3"
check_err "hcclctl: probe rdma: no RDMA device 'mlx5_9'; there are: mlx5_0 mlx5_1 mlx5_bond_0" "lists the devices there are"

run hcclctl -q probe rdma --sysfs-root $S/ib-hdr-edr
check_rc 1 "HDR ports and one that trained at EDR: exit 1"
check_out "$HEAD
mlx5_2         1    WARN    ACTIVE   LinkUp     InfiniBand 100 Gb/sec (4X EDR)    -            -                  rate 100 Gb/s, below the 200 Gb/s of other ports
rdma: WARN: 3 devices, 3 ports, 1 with problems; $SUM_TAIL" "the slow port is named"

run hcclctl probe rdma --sysfs-root $S/roce
check_rc 2 "RoCE: an address with only a v1 GID: exit 2"
check_out "$HEAD
mlx5_0         1    PASS    ACTIVE   LinkUp     Ethernet   100 Gb/sec (4X EDR)    4096(netdev) ens1f0np0(up)      -
  mlx5_0/1 10.1.0.1: RoCE v2 GID index 3
mlx5_1         1    FAIL    ACTIVE   LinkUp     Ethernet   100 Gb/sec (4X EDR)    1024(netdev) ens1f1np1(up)      10.1.1.1 has a RoCE v1 GID (1) but no RoCE v2 GID; active MTU 1024, the other ports 4096
  mlx5_1/1 10.1.1.1: no RoCE v2 GID (RoCE v1 only)
rdma: FAIL: 2 devices, 2 ports, 1 with problems; $SUM_TAIL" "v1/v2 GIDs told apart; index 3 is the v2 GID; MTU 1500 on the netdev differs"
run hcclctl -v probe rdma --sysfs-root $S/roce -d mlx5_0
check_out_has "  mlx5_0/1 gid 0 fe80::1270:fdff:fe12:3450 IB/RoCE-v1 ens1f0np0" "-v lists the GID table: link-local v1"
check_out_has "  mlx5_0/1 gid 3 ::ffff:10.1.0.1 RoCE-v2 ens1f0np0" "and the IPv4-mapped v2 GID"

run hcclctl -q probe rdma --sysfs-root $S/port-down
check_rc 2 "a port down: exit 2"
check_out "$HEAD
mlx5_1         1    FAIL    DOWN     Polling    Ethernet   10 Gb/sec (1X QDR)     4096(netdev) ens2f1np1(down)    state DOWN; physical state Polling
rdma: FAIL: 2 devices, 2 ports, 1 with problems; $SUM_TAIL" "state and physical state named"

run hcclctl -q probe rdma --sysfs-root $S/flapping
check_rc 1 "a flapping port: exit 1"
check_out_has "mlx5_1         1    WARN    ACTIVE   LinkUp     InfiniBand 200 Gb/sec (4X HDR)    -            -                  link went down 7 times (link_downed): flapping" "link_downed counted"

# A RoCE port whose netdev is lo: getifaddrs gives 127.0.0.1, and the tree has no GID for it.
run hcclctl probe rdma --sysfs-root $S/roce-lo
check_rc 2 "an address of the netdev without a RoCE v2 GID: exit 2"
check_out_has "  rxe0/1 127.0.0.1: no RoCE v2 GID" "addresses come from the netdev too (getifaddrs)"

run hcclctl --json probe rdma --sysfs-root $S/roce
check_rc 2 "--json keeps the exit code"
printf '%s\n' "$OUT" >"$TMP/rdma.json"
ok "python3 -c 'import json,sys; d=json.load(open(\"$TMP/rdma.json\")); p=d[\"devices\"][0][\"ports\"][0]; q=d[\"devices\"][1][\"ports\"][0]; sys.exit(not (d[\"status\"]==\"FAIL\" and d[\"exit_code\"]==2 and d[\"mtu_from\"]==\"sysfs\" and p[\"state\"]==\"ACTIVE\" and p[\"state_num\"]==4 and p[\"phys_state\"]==\"LinkUp\" and p[\"rate_gbps\"]==100 and p[\"active_mtu\"]==4096 and p[\"mtu_source\"]==\"netdev\" and p[\"addresses\"]==[{\"address\":\"10.1.0.1\",\"roce_v2_gid_index\":3,\"roce_v1_gid_index\":2,\"on_netdev\":False}] and p[\"gids\"][3]=={\"index\":3,\"gid\":\"::ffff:10.1.0.1\",\"type\":\"RoCE v2\",\"ndev\":\"ens1f0np0\"} and p[\"counters\"][\"link_downed\"]==0 and q[\"status\"]==\"FAIL\" and q[\"addresses\"][0][\"roce_v2_gid_index\"] is None))'" "--json: ports, addresses, GIDs, counters"

mkdir -p "$TMP/sys/class/infiniband"
run hcclctl probe rdma --sysfs-root "$TMP/sys"
check_rc 3 "no RDMA device: exit 3"
check_err "hcclctl: probe rdma: no RDMA device: $TMP/sys/class/infiniband is empty
hint: no RDMA NIC or driver here (lsmod | grep -e mlx5_ib -e ib_core)" "and says so"
run hcclctl probe rdma --sysfs-root "$TMP/none"
check_rc 3 "no such directory: exit 3"
if [ -d /sys/class/infiniband ] && [ -n "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
	skip "this machine has RDMA devices"
else
	run hcclctl probe rdma
	check_rc 3 "this machine (no RDMA device): exit 3"
fi

done_testing
