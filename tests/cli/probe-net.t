# hcclctl probe net without a cluster: usage errors, the agent's secret and idle timeout, and a
# whole measurement between agents on loopback addresses (--agents), with a wrong secret
# refused and an unreachable node named. The namespace cluster test is tests/cluster/probe-net.t.
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"

err_has() { printf '%s\n' "$ERR" | grep -qF -- "$1"; }

# ---- usage ----
run hcclctl probe net
check_rc 64 "no nodes: usage error"
check_err "hcclctl: probe net: give exactly one of --hosts, --hostfile, --ranktable and --agents
hint: see 'hcclctl probe net --help'" "  it says what to give"
run hcclctl probe net --hosts a,b --hostfile f
check_rc 64 "two sources of nodes: usage error"
run hcclctl probe net --hosts a
check_rc 64 "one node: usage error"
check_err "hcclctl: probe net: need at least 2 nodes to measure between, got 1" "  it says so"
run hcclctl probe net --hosts 'a,b;touch /tmp/x'
check_rc 64 "a host with shell metacharacters is refused"
run hcclctl probe net --agents 127.0.0.1:1,127.0.0.2
check_rc 64 "--agents needs HOST:PORT"
run hcclctl probe net --agents 127.0.0.1:1,127.0.0.2 --secret-file /dev/null
check_rc 64 "--agents entry without a port: usage error"
check_err_has 'hcclctl: probe net: --agents: "127.0.0.2" is not HOST:PORT' "  naming the entry"
run hcclctl probe net --agents 127.0.0.1:1,127.0.0.2:1 --ssh-user root --secret-file /dev/null
check_rc 64 "--agents with --ssh-user: usage error"
run hcclctl probe net --hosts a,b --secret-file /dev/null
check_rc 64 "--secret-file over SSH: usage error"
run hcclctl probe net --hosts a,b --listen 5000
check_rc 64 "--listen without --agent: usage error"
run hcclctl probe net --agent --hosts a,b
check_rc 64 "--agent with nodes: usage error"
run hcclctl probe net --hosts a,b --bytes 12Q
check_rc 64 "a bad --bytes: usage error"
check_err_has "hcclctl: probe net: invalid --bytes '12Q'" "  naming it"
run hcclctl probe net --hosts a,b --duration 0
check_rc 64 "--duration 0: usage error"
run hcclctl probe net --hosts a,b --pings x
check_rc 64 "--pings x: usage error"

# ---- the agent ----
run sh -c "echo not-hex | '$HCCLCTL' probe net --agent"
check_rc 64 "an agent given a bad secret on stdin refuses to start"
err_has "hcclctl: probe net: agent: the secret must be 32 hex digits, got 7 characters (from stdin)"
_report $? "  saying what is wrong with it" "$ERR"
od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$TMP/secret"
od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$TMP/other"
t0=$(date +%s)
run sh -c "'$HCCLCTL' probe net --agent --timeout 1 <'$TMP/secret'"
check_rc 3 "an agent no launcher connects to leaves after --timeout: exit 3"
check_out_has "$(printf '%s' "$OUT" | grep '^hcclnet1 ready port=[0-9]*$')" "  it printed its port first"
err_has "agent: no launcher connected within 1 s"
_report $? "  and says why it left" "$ERR"
ok "[ $(($(date +%s) - t0)) -le 3 ]" "  within the timeout"

# Waits up to 5 s for a pid to end; 0 when it did.
gone() {
	for _t in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 \
		31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50; do
		kill -0 "$1" 2>/dev/null || return 0
		sleep 0.1
	done
	return 1
}

# ---- a measurement between three agents on loopback ----
start_agent a1 "$TMP/secret" && p1=$AGENT_PORT && a1=$AGENT_PID &&
	start_agent a2 "$TMP/secret" && p2=$AGENT_PORT && a2=$AGENT_PID &&
	start_agent a3 "$TMP/secret" && p3=$AGENT_PORT && a3=$AGENT_PID
_report $? "three agents started and printed their ports"
AGENTS=127.0.0.1:$p1,127.0.0.2:$p2,127.0.0.3:$p3
run hcclctl --json probe net --agents "$AGENTS" --secret-file "$TMP/secret" --duration 50 --pings 5
# loopback shares one CPU among all links, so a link may come out slow: 0 or 1
ok "[ $RC -eq 0 ] || [ $RC -eq 1 ]" "three agents on loopback: measured (exit $RC)"
printf '%s\n' "$OUT" >"$TMP/net.json"
python3 - "$TMP/net.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert [x["name"] for x in d["nodes"]] == ["127.0.0.1", "127.0.0.2", "127.0.0.3"]
assert d["rounds"] == 3 and d["links_measured"] == 6 and d["links_failed"] == 0, d
assert d["duration_ms"] == 50 and d["bytes"] is None and d["pings"] == 5
bw = d["bandwidth_bps"]
assert [bw[i][i] for i in range(3)] == [None] * 3
assert all(bw[i][j] > 0 for i in range(3) for j in range(3) if i != j)
assert d["median_bps"] > 0 and abs(d["threshold_bps"] - 0.8 * d["median_bps"]) <= 1
assert d["exit_code"] in (0, 1) and d["status"] in ("PASS", "WARN")
assert d["links_slow"] == sum(1 for l in d["links"] if l["slow"])
for l in d["links"]:
    assert l["bytes"] > 0 and l["rtt_us"] > 0 and l["measurements"] in (1, 2), l
EOF
_report $? "  the JSON: 3 nodes, 6 links in 3 rounds, the matrix and the median" "$OUT"
gone "$a1" && gone "$a2" && gone "$a3"
_report $? "  the agents left when the launcher was done"

# the same, as text, with a byte count instead of a time
start_agent b1 "$TMP/secret" && b1=$AGENT_PID && q1=$AGENT_PORT &&
	start_agent b2 "$TMP/secret" && b2=$AGENT_PID && q2=$AGENT_PORT
run hcclctl probe net --agents "127.0.0.1:$q1,127.0.0.2:$q2" --secret-file "$TMP/secret" --bytes 1M
ok "[ $RC -eq 0 ] || [ $RC -eq 1 ]" "--bytes 1M between two agents (exit $RC)"
printf '%s\n' "$OUT" | grep -qE '^bandwidth \([MG]bit/s\), from the row.s node to the column.s:$' &&
	printf '%s\n' "$OUT" | grep -qE '^127\.0\.0\.1 +- +[0-9.]+$' &&
	printf '%s\n' "$OUT" | tail -1 | grep -qE '^net: (PASS|WARN): 2 nodes, 2 links measured, median [0-9.]+ [MG]bit/s, [01] slow \(below [0-9.]+\), 0 failed; 1 rounds \+ [01] to confirm in [0-9.]+ s$'
_report $? "  the matrix and the summary line" "$OUT"
gone "$b1" && gone "$b2"
_report $? "  the agents left"

# ---- a wrong secret is refused; an agent that is not there is named ----
start_agent c1 "$TMP/secret" && c1=$AGENT_PID && r1=$AGENT_PORT
run hcclctl probe net --agents "127.0.0.1:$r1,127.0.0.2:1" --secret-file "$TMP/other"
check_rc 2 "a wrong secret and a port nobody listens on: exit 2 (an unreachable node, as in doctor)"
check_err_has "hcclctl: probe net: 127.0.0.1: not measured: cannot reach its agent: 127.0.0.1 port $r1: refused: the secret differs" \
	"  the refused node is named"
check_err_has "hcclctl: probe net: 127.0.0.2: not measured: unreachable: cannot reach its agent: cannot connect to 127.0.0.2 port 1: Connection refused" \
	"  the unreachable one too, by the situation's word"
printf '%s\n' "$OUT" | grep -qxF "node 127.0.0.1: UNKNOWN: cannot reach its agent: 127.0.0.1 port $r1: refused: the secret differs" &&
	printf '%s\n' "$OUT" | grep -qxF "node 127.0.0.2: FAIL: unreachable: cannot reach its agent: cannot connect to 127.0.0.2 port 1: Connection refused"
_report $? "  the unreachable one FAILs; the refused one, reached, stays UNKNOWN" "$OUT"
# the time it took to find that out is the machine's (0.1 s under AddressSanitizer and load)
printf '%s\n' "$OUT" | grep -qx 'net: FAIL: 2 nodes, no link measured, 0 failed; 0 rounds in [0-9]*\.[0-9] s'
_report $? "  the summary says nothing was measured" "$OUT"
grep -q "agent: refused a connection from 127.0.0.1: wrong secret" "$TMP/c1.err"
_report $? "  the agent logged the refusal" "$(cat "$TMP/c1.err")"
kill "$c1" 2>/dev/null
wait "$c1" 2>/dev/null

# ---- over SSH, nodes that cannot be reached: named, exit 2 (the situation table's), one JSON document ----
run env HCCLCTL_CONNECT_TIMEOUT=2 "$HCCLCTL" --json probe net --hosts 127.0.0.1,127.0.0.2 \
	--ssh-port 1 --ssh-insecure
check_rc 2 "no sshd at the nodes: exit 2, unreachable as in doctor and exec"
err_has "hcclctl: probe net: 127.0.0.1: not measured: unreachable: " && err_has "hcclctl: probe net: 127.0.0.2: not measured: unreachable: "
_report $? "  both nodes are named" "$ERR"
printf '%s\n' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["exit_code"] == 2 and d["status"] == "FAIL" and d["links_measured"] == 0
assert all(n["status"] == "FAIL" and "127.0.0" in n["reason"] for n in d["nodes"]), d["nodes"]'
_report $? "  the JSON document names them FAIL with the reason" "$OUT"

run hcclctl probe net --ranktable "$TMP/nonexistent.json"
check_rc 3 "a rank table that cannot be read: exit 3"

done_testing
