#!/bin/sh
# One situation, one kind and one exit status, whichever command meets it (cmd/cli/situation.c,
# hcclctl(1) SITUATIONS): a node nobody can reach over SSH is "unreachable", exit 2, in exec,
# run --ssh, doctor, probe net and probe roce --mesh alike; under run --ssh it is no link-down.
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"
# a loopback port nothing listens on: the connect is refused at once
P=$(free_port)
want=$(hcclctl --situations | awk '$1 == "unreachable" {print $2}')
ok "[ '$want' = 2 ]" "the table: unreachable exits 2"

run hcclctl exec --hosts 127.0.0.1 --ssh-port "$P" -- true
check_rc 2 "exec: an unreachable host: exit 2"
check_err_has "hcclctl: exec: 1 of 1 hosts could not run the command: 127.0.0.1" "exec: names the host"
# (the block's time is how long the refused connect took: not compared)
printf '%s\n' "$OUT" | grep -qE '^== 127\.0\.0\.1: unreachable \([0-9]+\.[0-9]{2} s\)$'
_report $? "exec: its block says unreachable" "$OUT"

mkdir -p "$TMP/hccn"
printf 'address_0=192.168.10.1\n' >"$TMP/hccn/127.0.0.1"
hcclctl ranktable gen --servers 127.0.0.1 --devices 0 --hccn-conf-dir "$TMP/hccn" -o "$TMP/rt.json" >/dev/null 2>&1
run hcclctl run allreduce --ranktable "$TMP/rt.json" --ssh --ssh-port "$P" -e 64
check_rc 2 "run --ssh: an unreachable server: exit 2"
check_err_has "hcclctl: verdict: unreachable: rank 0 on 127.0.0.1 could not start: 127.0.0.1 port $P: connect: Connection refused" \
	"run --ssh: the verdict is unreachable, not link-down"
run hcclctl --json run allreduce --ranktable "$TMP/rt.json" --ssh --ssh-port "$P" -e 64
check_rc 2 "run --ssh --json: exit 2"
printf '%s' "$OUT" >"$TMP/run.json"
ok "python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
assert d[\"verdict\"][\"kind\"] == \"unreachable\" and d[\"exit_code\"] == 2, d
' '$TMP/run.json'" "run --ssh --json: verdict kind unreachable, exit_code 2"

run hcclctl doctor --hosts 127.0.0.1 --ssh-port "$P" --checks node.reach
check_rc 2 "doctor: an unreachable node: exit 2"
check_out_has "most likely cause: node.reach on 127.0.0.1: unreachable: cannot reach the node: 127.0.0.1 port $P: connect: Connection refused" \
	"doctor: the same word"

# probe net and probe roce --mesh: a node never reached is the same situation, FAIL for its 2
run env HCCLCTL_CONNECT_TIMEOUT=2 "$HCCLCTL" probe net --hosts 127.0.0.1,127.0.0.2 --ssh-port "$P"
check_rc 2 "probe net: unreachable nodes: exit 2"
check_err_has "hcclctl: probe net: 127.0.0.2: not measured: unreachable: 127.0.0.2 port $P: connect: Connection refused" \
	"probe net: the same word on stderr"
check_out_has "node 127.0.0.1: FAIL: unreachable: 127.0.0.1 port $P: connect: Connection refused" \
	"probe net: the node FAILs"
run env HCCLCTL_CONNECT_TIMEOUT=2 "$HCCLCTL" --json probe net --hosts 127.0.0.1,127.0.0.2 --ssh-port "$P"
printf '%s' "$OUT" >"$TMP/net.json"
ok "python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
assert d[\"status\"] == \"FAIL\" and d[\"exit_code\"] == 2 and d[\"nodes\"][0][\"status\"] == \"FAIL\", d
' '$TMP/net.json'" "probe net --json: the node and the run FAIL, exit_code 2"
# the mesh: a server (0.0.0.0 is not this host's address, and a connect to it reaches loopback)
cat >"$TMP/mesh.json" <<'EOJ'
{"version": "1.0", "server_count": "2", "status": "completed", "server_list": [
 {"server_id": "127.0.0.1", "device": [{"device_id": "0", "device_ip": "10.0.0.1", "rank_id": "0"}]},
 {"server_id": "node-gone", "host_ip": "0.0.0.0", "device": [{"device_id": "0", "device_ip": "10.0.0.2", "rank_id": "1"}]}]}
EOJ
printf '* * 0 0.050\ndev 127.0.0.1 0 10.0.0.1\n' >"$TMP/mesh.topo"
run env HCCLCTL_HCCN_TOOL="$(pwd)/build/tests/stub/bin/hccn_tool" FAKE_HCCN_MESH="$TMP/mesh.topo" \
	HCCLCTL_CONNECT_TIMEOUT=2 "$HCCLCTL" -q probe roce --mesh --ranktable "$TMP/mesh.json" --ssh-port "$P"
check_rc 2 "probe roce --mesh: an unreachable server: exit 2"
check_out_has "FAIL    unreachable      server node-gone: unreachable: 0.0.0.0 port $P: connect: Connection refused, so what its 1 devices reach is not known" \
	"probe roce --mesh: the finding is unreachable, FAIL"
check_err_has "hcclctl: probe roce: server node-gone: unreachable: 0.0.0.0 port $P: connect: Connection refused" \
	"probe roce --mesh: the same word on stderr"

# ranks with different secrets: the rank refused and the rank 0 that waited for it name the
# same situation, config (not stuck-rank on rank 0)
M=$(free_port)
HCCLCTL_SECRET=00112233445566778899aabbccddeeff "$HCCLCTL" run allreduce --rank 1 --world-size 2 \
	--master 127.0.0.1:$M -e 64 --timeout 3 >/dev/null 2>"$TMP/r1.err" &
R1=$!
run env HCCLCTL_SECRET=ffeeddccbbaa99887766554433221100 "$HCCLCTL" run allreduce --rank 0 \
	--world-size 2 --master 127.0.0.1:$M -e 64 --timeout 3
wait $R1
rc1=$?
check_rc 2 "another secret: rank 0 exits 2"
ok "printf '%s\n' '$(printf '%s' "$ERR" | grep '^hcclctl: verdict: ' | cut -d: -f3)' | grep -qx ' config'" "another secret: rank 0's verdict is config"
ok "[ $rc1 = 2 ] && grep -q '^hcclctl: verdict: config: rank 1 ' '$TMP/r1.err'" "another secret: rank 1's verdict is config too, exit 2"
done_testing
