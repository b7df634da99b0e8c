#!/bin/sh
# probe roce --mesh over SSH: 3 servers in network namespaces (10.77.0.1-3), 2 NPUs each, every
# server's side started over SSH from the head, its hccn_tool the fake with one topology for
# the cluster (FAKE_HCCN_MESH; tests/data/hccn_tool/README). All reach; a pair that fails; a
# server whose sshd is down (its own pings unknown, the pings to its NICs still made). The
# findings themselves are tested on one machine in tests/cli/probe-roce-mesh.t.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/netns.sh"

cluster_require
cluster_up_or_end 3
REPO=$(pwd)
{
	printf '{"version": "1.0", "server_count": "3", "status": "completed", "server_list": ['
	for s in 1 2 3; do
		[ $s = 1 ] || printf ', '
		printf '{"server_id": "10.77.0.%d", "device": [' $s
		printf '{"device_id": "0", "device_ip": "192.168.10.%d", "rank_id": "%d"}, ' $s $((2 * s - 2))
		printf '{"device_id": "1", "device_ip": "192.168.11.%d", "rank_id": "%d"}' $s $((2 * s - 1))
		printf '], "host_nic_ip": "reserve"}'
	done
	printf ']}\n'
} >"$TMP/rt.json"
{
	for s in 1 2 3; do
		printf 'dev 10.77.0.%d 0 192.168.10.%d\ndev 10.77.0.%d 1 192.168.11.%d\n' $s $s $s $s
		printf 'lldp 10.77.0.%d 0 0c:00:00:00:00:a0 400GE1/1/%d:1\n' $s $s
		printf 'lldp 10.77.0.%d 1 0c:00:00:00:00:b0 400GE1/1/%d:1\n' $s $s
	done
} >"$TMP/base.topo"
# every server's side, over SSH, through this wrapper: the fake hccn_tool and the topology
cat >"$TMP/hc" <<EOS
#!/bin/sh
export HCCLCTL_HCCN_TOOL=$REPO/build/tests/stub/bin/hccn_tool FAKE_HCCN_MESH=$TMP/sc.topo:$TMP/base.topo
exec $HCCLCTL "\$@"
EOS
chmod +x "$TMP/hc"
mesh() {
	printf '%s\n' "$1" >"$TMP/sc.topo"
	shift
	run cluster_head env -u SSH_AUTH_SOCK HCCLCTL_CONNECT_TIMEOUT=3 "$HCCLCTL" -q probe roce --mesh \
		--ranktable "$TMP/rt.json" --ssh-user root --ssh-key "$CL_KEY" \
		--ssh-known-hosts "$CL_KNOWN_HOSTS" --remote-hcclctl "$TMP/hc" "$@"
}

t0=$(date +%s%N)
mesh '* * 0 0.050'
echo "# mesh of 6 devices on 3 namespaces over SSH: $((($(date +%s%N) - t0) / 1000000)) ms"
check_rc 0 "over SSH, every device IP reaches every other: exit 0"
check_out "npu-mesh: PASS: 6 devices on 3 servers, 30 links: 30 reply, 0 no reply, 0 lossy, 0 slow, 0 not known; 0 findings; 5 rounds" "  30 links in 5 rounds"

mesh '192.168.10.3 192.168.11.1 100 -
* * 0 0.050'
check_rc 2 "a pair that fails: exit 2"
check_out_has "FAIL    pair-down        server 10.77.0.3 device 0 (192.168.10.3) -> server 10.77.0.1 device 1 (192.168.11.1): no reply (0 of 3), though the other way replies" "  named from the server that sent it"

cluster_stop_sshd 2
mesh '* * 0 0.050'
check_rc 2 "a server that cannot be reached: exit 2 (the situation unreachable, as in doctor)"
printf '%s\n' "$OUT" | grep -q '^FAIL    unreachable      server 10.77.0.2: unreachable: .*, so what its 2 devices reach is not known$'
_report $? "  named once, with why" "$OUT"
check_out_has "npu-mesh: FAIL: 6 devices on 3 servers, 30 links: 20 reply, 0 no reply, 0 lossy, 0 slow, 10 not known; 1 finding; 5 rounds" "  the pings to its NICs are still made (20 of 30 links)"
cluster_start_sshd 2

done_testing
