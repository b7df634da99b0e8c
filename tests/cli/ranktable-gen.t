#!/bin/sh
# ranktable gen: hccl_tools layout byte for byte, determinism, atomic writes, refusals,
# and the gen -> validate -> show -> diff round trip.
. "$(dirname "$0")/lib.sh"
D=tests/data

run hcclctl ranktable gen --servers 10.0.0.1 --devices 0-3 --hccn-conf $D/hccn/10.0.0.1.conf
check_rc 0 "gen of one server exits 0"
printf '%s\n' "$OUT" >"$TMP/one.json"
cmp -s "$TMP/one.json" $D/gen/hccl_tools_1srv_4dev.json
_report $? "one server: byte for byte what hccl_tools.py writes (plus a newline)" "$(diff "$TMP/one.json" $D/gen/hccl_tools_1srv_4dev.json)"

mkdir -p "$TMP/hccn"
cp $D/hccn/10.0.0.1.conf "$TMP/hccn/10.0.0.1"
cp $D/hccn/10.0.0.2.conf "$TMP/hccn/10.0.0.2.conf"
run hcclctl ranktable gen --servers 10.0.0.1,10.0.0.2 --devices 0-1 --hccn-conf-dir "$TMP/hccn" -o "$TMP/two.json"
check_rc 0 "gen of two servers from a directory of hccn.conf files"
check_err "wrote $TMP/two.json: format 1.0, 2 servers, 4 ranks" "says what it wrote"
run hcclctl ranktable validate "$TMP/two.json"
check_rc 0 "what gen writes passes validate"
run hcclctl ranktable show "$TMP/two.json"
check_out "rank   server   device device_ip      super_pod
0      10.0.0.1 0      192.168.100.10 -
1      10.0.0.1 1      192.168.100.11 -
2      10.0.0.2 0      192.168.2.8    -
3      10.0.0.2 1      192.168.2.9    -
# $TMP/two.json: format 1.0, 2 servers, 4 ranks" "show: ranks contiguous in server then device order"
hcclctl ranktable gen --servers 10.0.0.1,10.0.0.2 --devices 0-1 --hccn-conf-dir "$TMP/hccn" -o "$TMP/two-again.json" 2>/dev/null
ok "cmp '$TMP/two.json' '$TMP/two-again.json'" "the same input gives the same bytes"
run hcclctl ranktable diff "$TMP/two.json" "$TMP/two-again.json"
check_rc 0 "diff of two identical generations exits 0"
check_out "$TMP/two.json and $TMP/two-again.json describe the same ranks" "and says so"

# Hostfile input, and 1.2 super pods.
printf '# rack 1\n10.0.0.1 host_ip=172.16.0.1 slots=8\n10.0.0.2 host_ip=172.16.0.2\n' >"$TMP/hosts"
run hcclctl ranktable gen --hostfile "$TMP/hosts" --devices 0-1 --format 1.2 --super-pod 1 --hccn-conf-dir "$TMP/hccn" -o "$TMP/pods.json"
check_rc 0 "gen --format 1.2 from a hostfile"
check_err_has "hcclctl: ranktable gen: warning: $TMP/hosts:2: server 10.0.0.1 has 8 slots, but every server gets the 2 devices of --devices 0-1 (1 server differ); hint: give --devices 0-7 to give each server 8" \
	"  a hostfile's slots=8 that --devices does not match is said, with where and how to use it"
printf '10.0.0.1 slots=2\n10.0.0.2:2\n' >"$TMP/hosts2"
run hcclctl ranktable gen --hostfile "$TMP/hosts2" --devices 0-1 --hccn-conf-dir "$TMP/hccn" -o "$TMP/h2.json"
check_rc 0 "slots that match --devices (Open MPI's and MPICH's forms)"
check_err "wrote $TMP/h2.json: format 1.0, 2 servers, 4 ranks" "  no warning, only what was written"
run hcclctl ranktable gen --servers 10.0.0.1,10.0.0.2,10.0.0.1 --devices 0-1
check_rc 64 "a server listed twice in --servers: exit 64"
check_err_has "hcclctl: ranktable gen: --servers: server \"10.0.0.1\" is already listed as entry 1" \
	"  named by its place in the list, not a line"
run hcclctl ranktable validate "$TMP/pods.json"
check_rc 0 "the 1.2 table passes validate"
run hcclctl --json ranktable show "$TMP/pods.json"
ok "printf '%s' '$OUT' | python3 -c '
import json,sys
d=json.load(sys.stdin)
assert d[\"format\"]==\"1.2\" and d[\"servers\"]==2
r=d[\"ranks\"]
assert [x[\"super_pod_id\"] for x in r]==[\"0\",\"0\",\"1\",\"1\"], r
assert [x[\"super_device_id\"] for x in r]==[0,1,0,1], r
assert [x[\"host_ip\"] for x in r]==[\"172.16.0.1\"]*2+[\"172.16.0.2\"]*2, r
'" "1.2: one pod per server, super_device_id by position in the pod, host_ip kept"

# Multi-digit device ranges (hccl_tools misreads [0,16) as one device).
{ i=0; while [ $i -lt 16 ]; do echo "address_$i=192.168.50.$((i + 1))"; i=$((i + 1)); done; } >"$TMP/a3.conf"
run hcclctl ranktable gen --servers 10.0.0.9 --devices 0-15 --hccn-conf "$TMP/a3.conf" -o "$TMP/a3.json"
check_rc 0 "gen --devices 0-15"
check_err "wrote $TMP/a3.json: format 1.0, 1 server, 16 ranks" "16 devices, not 1"

# Refusals: nothing broken is written.
run hcclctl ranktable gen --servers 10.0.0.3 --devices 0-7 --hccn-conf $D/hccn/10.0.0.3-missing-5.conf -o "$TMP/no.json"
check_rc 2 "a device without an IP is refused"
check_err_has "hcclctl: ranktable gen: no device IP for server \"10.0.0.3\" device 0: $D/hccn/10.0.0.3-missing-5.conf has no address_0 (set it with: hccn_tool -i 0 -ip -s address IP netmask MASK)" "names the server, device and fix"
ok "[ ! -e '$TMP/no.json' ]" "and writes no file"
cp "$TMP/hccn/10.0.0.1" "$TMP/hccn/10.0.0.5"
run hcclctl ranktable gen --servers 10.0.0.1,10.0.0.5 --devices 0-1 --hccn-conf-dir "$TMP/hccn"
check_rc 2 "the same hccn.conf for two servers is refused"
check_err_has "hcclctl: ranktable gen: device IP 192.168.100.10 is used twice: server \"10.0.0.1\" device 0 and server \"10.0.0.5\" device 0 (was the same hccn.conf given for both?)" "the duplicated IP is named"
run hcclctl ranktable gen --servers '1.2.3.4;touch /tmp/x' --hccn-conf $D/hccn/10.0.0.1.conf
check_rc 64 "a server name with shell metacharacters is refused"
check_err_has "hcclctl: ranktable gen: --servers: server \"1.2.3.4;touch\" contains ';'" "and the character is named"
run hcclctl ranktable gen --servers 10.0.0.1,10.0.0.2 --devices 0-1
check_rc 64 "two servers without hccn.conf files is a usage error"
check_err "hcclctl: ranktable gen: device IPs of 2 servers are needed
hint: collect each server's /etc/hccn.conf into a directory and pass --hccn-conf-dir DIR" "with the fix"
run hcclctl ranktable gen --servers 10.0.0.1 --devices 7-0 --hccn-conf $D/hccn/10.0.0.1.conf
check_rc 64 "a backwards device range is refused"
check_err "hcclctl: ranktable gen: --devices: bad device list \"7-0\": range 7-0 at position 1 runs backwards
hint: use a list like 0-7 or 0,1,4-7" "and explained"
run hcclctl ranktable gen --devices 0-1
check_rc 64 "no servers is a usage error"
run hcclctl ranktable gen --servers 10.0.0.1 --devices 0-3 --hccn-conf $D/hccn/10.0.0.1.conf -o /nonexistent-dir/rt.json
check_rc 3 "an unwritable output is UNKNOWN (3)"
ok "[ ! -e /nonexistent-dir ]" "and creates nothing"

# IPv4 and IPv6 device IPs mixed: the input is at fault, named by file and line.
mkdir -p "$TMP/mixed"
cp $D/hccn/10.0.0.1.conf "$TMP/mixed/10.0.0.1"
printf '# set with hccn_tool -ip -s ipv6address\naddress_0=fd00::20\nnetmask_0=64\naddress_1=fd00::21\n' >"$TMP/mixed/10.0.0.2"
run hcclctl ranktable gen --servers 10.0.0.1,10.0.0.2 --devices 0-1 --hccn-conf-dir "$TMP/mixed" -o "$TMP/mixed.json"
check_rc 2 "IPv4 and IPv6 device IPs mixed across servers are refused (exit 2)"
check_err "hcclctl: ranktable gen: $TMP/mixed/10.0.0.2:2: address_0=fd00::20 (server \"10.0.0.2\" device 0) is IPv6, but $TMP/mixed/10.0.0.1:$(grep -n '^address_0=' $D/hccn/10.0.0.1.conf | cut -d: -f1): address_0=192.168.100.10 (server \"10.0.0.1\" device 0) is IPv4; HCCL needs one address family for every device: configure all NPUs with IPv4 or all with IPv6 (hccn_tool -i N -ip -s ...)" "the hccn.conf lines are named; no \"bug in hcclctl\""
ok "[ ! -e '$TMP/mixed.json' ]" "and nothing is written"
printf 'address_0=192.168.1.10\naddress_1=fd00::11\n' >"$TMP/mixed1.conf"
run hcclctl ranktable gen --servers 10.0.0.1 --devices 0-1 --hccn-conf "$TMP/mixed1.conf"
check_rc 2 "mixed within one hccn.conf: refused too"
check_err "hcclctl: ranktable gen: $TMP/mixed1.conf:2: address_1=fd00::11 (server \"10.0.0.1\" device 1) is IPv6, but $TMP/mixed1.conf:1: address_0=192.168.1.10 (server \"10.0.0.1\" device 0) is IPv4; HCCL needs one address family for every device: configure all NPUs with IPv4 or all with IPv6 (hccn_tool -i N -ip -s ...)" "  with both lines"
{ i=0; while [ $i -lt 17 ]; do echo "address_$i=192.168.60.$((i + 1))"; i=$((i + 1)); done; } >"$TMP/17.conf"
run hcclctl ranktable gen --servers 10.0.0.9 --devices 0-16 --hccn-conf "$TMP/17.conf"
check_rc 2 "device 16 in a 1.x table is refused, not reported as a bug"
check_err "hcclctl: ranktable gen: device 16 is out of range 0..15: a version 1.x table holds at most 16 NPUs per server" "  and says why"

# An existing table is replaced whole, never half written.
echo "old contents" >"$TMP/replace.json"
hcclctl ranktable gen --servers 10.0.0.1 --devices 0-3 --hccn-conf $D/hccn/10.0.0.1.conf -o "$TMP/replace.json" 2>/dev/null
ok "cmp '$TMP/replace.json' $D/gen/hccl_tools_1srv_4dev.json" "-o replaces an existing file whole"
ok "[ -z \"\$(ls -A '$TMP' | grep '^\\.')\" ]" "no temporary file is left behind"

# --json: one document.
run hcclctl --json ranktable gen --servers 10.0.0.1 --devices 0-3 --hccn-conf $D/hccn/10.0.0.1.conf
ok "printf '%s' '$OUT' | python3 -c '
import json,sys
d=json.load(sys.stdin)
assert d[\"ranks\"]==4 and d[\"ranktable\"][\"server_list\"][0][\"device\"][3][\"device_ip\"]==\"192.168.100.13\"
'" "--json without -o embeds the table in one document"

done_testing
