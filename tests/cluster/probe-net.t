# hcclctl probe net across 4 network namespaces: every link shaped to 80mbit with htb (low enough that a busy CPU is never the limit), the
# one from node 1 to node 2 to 40mbit; that link and no other is named, in text and JSON.
# Then a node without sshd is named with exit 3 while the others are still measured, and no
# agent is left running anywhere. Run as root (`ip netns`); skips elsewhere.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/netns.sh"

# ---- usage, no cluster needed ----
run hcclctl probe net
check_rc 64 "probe net without nodes is a usage error"
run hcclctl probe net --hosts 10.77.0.1
check_rc 64 "one node is a usage error"
check_err "hcclctl: probe net: need at least 2 nodes to measure between, got 1" "  and says so"

cluster_require

t0=$(date +%s%N)
cluster_up_or_end 4 --rate 80mbit
cluster_shape_link 1 2 40mbit
_report $? "cluster_shape_link 1 2 40mbit"
echo "# cluster_up 4: $((($(date +%s%N) - t0) / 1000000)) ms"
HOSTS=$(cluster_hosts)

px() {
	cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" "$@" --ssh-user root --ssh-key "$CL_KEY" \
		--ssh-known-hosts "$CL_KNOWN_HOSTS" --remote-hcclctl "$HCCLCTL"
}

# No agent outlives the launcher: every process left in a node's namespace is its sshd.
no_agents() {
	_left=
	for _i in 1 2 3 4; do
		for _p in $(ip netns pids "$(cluster_ns "$_i")" 2>/dev/null); do
			tr '\0' ' ' <"/proc/$_p/cmdline" 2>/dev/null | grep -q -- '--agent' && _left="$_left $_p"
		done
	done
	[ -z "$_left" ]
}

# ---- text: the matrix, the slow link named, exit 1 ----
t0=$(date +%s%N)
run px probe net --hosts "$HOSTS"
ms=$((($(date +%s%N) - t0) / 1000))
echo "# probe net over 4 nodes (3 rounds, 400 ms each way): $((ms / 1000)) ms"
check_rc 1 "one slow link: exit 1 (WARN)"
printf '%s\n' "$OUT" | grep -q '^bandwidth (Mbit/s), from the row.s node to the column.s:$'
_report $? "the bandwidth matrix is printed" "$OUT"
[ "$(printf '%s\n' "$OUT" | grep -c '^link ')" -eq 1 ] &&
	printf '%s\n' "$OUT" | grep -qE '^link 10\.77\.0\.1 -> 10\.77\.0\.2: WARN: slow: [0-9.]+ Mbit/s, [0-9]+ % of the median$'
_report $? "the shaped link 10.77.0.1 -> 10.77.0.2, and no other, is named" "$OUT"
! printf '%s\n' "$OUT" | grep -q '^node '
_report $? "no node is named (one slow link of six is not most)" "$OUT"
printf '%s\n' "$OUT" | tail -1 | grep -qE '^net: WARN: 4 nodes, 12 links measured, median [0-9.]+ Mbit/s, 1 slow \(below [0-9.]+\), 0 failed; 3 rounds \+ 1 to confirm in [0-9.]+ s$'
_report $? "a summary line: 12 links in 3 rounds" "$OUT"
check_err "" "nothing on stderr"
no_agents
_report $? "no agent is left on any node" "left:$_left"

# ---- JSON: the matrix, per-link numbers, median and verdicts ----
run px --json probe net --hosts "$HOSTS" --duration 300 --pings 20
check_rc 1 "--json: exit 1"
printf '%s\n' "$OUT" >"$TMP/net.json"
python3 - "$TMP/net.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
n = [x["name"] for x in d["nodes"]]
assert n == ["10.77.0.%d" % i for i in (1, 2, 3, 4)], n
assert d["exit_code"] == 1 and d["status"] == "WARN", d["status"]
assert d["rounds"] == 3 and d["links_measured"] == 12 and d["links_slow"] == 1, d
assert d["confirm_rounds"] == 1, d["confirm_rounds"]
assert d["links_failed"] == 0 and d["duration_ms"] == 300 and d["pings"] == 20
bw = d["bandwidth_bps"]
assert len(bw) == 4 and all(len(r) == 4 for r in bw)
assert all(bw[i][i] is None for i in range(4))
slow = [l for l in d["links"] if l["slow"]]
assert len(slow) == 1 and slow[0]["from"] == "10.77.0.1" and slow[0]["to"] == "10.77.0.2", slow
assert slow[0]["status"] == "WARN" and slow[0]["ratio"] < 0.8 and slow[0]["measurements"] == 2
assert 28e6 < slow[0]["bandwidth_bps"] < 48e6, slow[0]["bandwidth_bps"]
assert 60e6 < d["median_bps"] < 86e6, d["median_bps"]
assert d["threshold_bps"] == round(d["median_bps"] * 0.8) or abs(d["threshold_bps"] - d["median_bps"] * 0.8) < 2
for l in d["links"]:
    assert l["rtt_us"] > 0 and l["rtt_p99_us"] >= l["rtt_us"] and l["bytes"] > 0, l
    if not l["slow"]:
        assert l["status"] == "PASS" and l["bandwidth_bps"] >= d["threshold_bps"], l
assert all(x["status"] == "PASS" and x["links"] == 6 for x in d["nodes"]), d["nodes"]
print("# median %.1f Mbit/s, slow link %.1f Mbit/s" % (d["median_bps"] / 1e6, slow[0]["bandwidth_bps"] / 1e6))
EOF
_report $? "the JSON has the 4x4 matrix, 12 links, the median and the one slow link" "$OUT"

# ---- a node without sshd: unreachable, exit 2 (as in doctor), the others still measured ----
cluster_stop_sshd 4
run px --json probe net --hosts "$HOSTS" --duration 200 --pings 10
check_rc 2 "a node that cannot be reached: exit 2 (FAIL: the situation unreachable)"
printf '%s\n' "$ERR" | grep -q '^hcclctl: probe net: 10\.77\.0\.4: not measured: unreachable: .*10\.77\.0\.4'
_report $? "  it is named on stderr" "$ERR"
printf '%s\n' "$OUT" >"$TMP/down.json"
python3 - "$TMP/down.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
st = {x["name"]: x["status"] for x in d["nodes"]}
assert st["10.77.0.4"] == "FAIL" and d["nodes"][3]["reason"], d["nodes"]
assert d["exit_code"] == 2 and d["links_measured"] == 6 and d["rounds"] == 3, d
assert all(l["from"] != "10.77.0.4" and l["to"] != "10.77.0.4" for l in d["links"])
assert [(l["from"], l["to"]) for l in d["links"] if l["slow"]] == [("10.77.0.1", "10.77.0.2")]
EOF
_report $? "  the JSON marks it FAIL and still has the other 3 nodes' 6 links" "$OUT"
no_agents
_report $? "no agent is left on any node" "left:$_left"

# ---- a stray connection with the wrong secret is refused by an agent ----
od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$TMP/secret"
od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$TMP/other"
cluster_exec 3 "$HCCLCTL" probe net --agent --listen 7701 --secret-file "$TMP/secret" \
	>"$TMP/agent1.out" 2>"$TMP/agent1.err" &
a1=$!
cluster_exec 2 "$HCCLCTL" probe net --agent --listen 7701 --secret-file "$TMP/secret" \
	>"$TMP/agent2.out" 2>"$TMP/agent2.err" &
a2=$!
for _t in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	[ -s "$TMP/agent1.out" ] && [ -s "$TMP/agent2.out" ] && break
	sleep 0.1
done
run cluster_head "$HCCLCTL" probe net --agents 10.77.0.3:7701,10.77.0.2:7701 --secret-file "$TMP/other"
check_rc 3 "--agents with the wrong secret: nothing measured, exit 3"
grep -q "refused a connection from 10.77.0.254: wrong secret" "$TMP/agent1.err"
_report $? "  the agent refused it and said why" "$(cat "$TMP/agent1.err")"
run cluster_head "$HCCLCTL" probe net --agents 10.77.0.3:7701,10.77.0.2:7701 --secret-file "$TMP/secret" \
	--duration 200
check_rc 0 "--agents with the right secret: exit 0"
printf '%s\n' "$OUT" | tail -1 | grep -qE '^net: PASS: 2 nodes, 2 links measured, .* 1 rounds \+ 0 to confirm in '
_report $? "  2 links measured" "$OUT"
kill "$a1" "$a2" 2>/dev/null
wait "$a1" "$a2" 2>/dev/null

done_testing
