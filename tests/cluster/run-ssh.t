# hcclctl run --ranktable FILE --ssh across network namespaces: one rank per rank-table
# entry on its server, rows streamed back, failures named (a node down, a rank killed, a
# server's parent killed, an unknown host key, a wrong key, no hcclctl there) with nothing
# left running on any node, one SSH session per server, and rank-table fields never reaching
# a shell. What a stop must do in time is run.t. Run as root (`ip netns`); skips elsewhere.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/netns.sh"
. "$(dirname "$0")/runlib.sh"

# ---- usage and the rank side, no cluster needed ----
run hcclctl run allreduce --ssh
check_rc 64 "--ssh without --ranktable is a usage error"
run hcclctl run allreduce --ssh-user root --ranktable x.json
check_rc 64 "--ssh-user without --ssh is a usage error"
run hcclctl run allreduce --ranktable x.json --local 2
check_rc 64 "--ranktable with --local is a usage error"
run hcclctl run allreduce --ranktable x.json --ssh --local 2
check_rc 64 "--ssh with --local is a usage error"

# A table whose server_id would be shell code: HCCL only compares server_ids, so validate
# warns; run --ssh (below) refuses it before any SSH.
pwn=$TMP/pwned
cat >"$TMP/unsafe.json" <<EOF
{"version": "1.0", "status": "completed", "server_count": "2", "server_list": [
 {"server_id": "10.77.0.1;touch $pwn", "device": [{"device_id": "0", "device_ip": "192.168.10.1", "rank_id": "0"}]},
 {"server_id": "10.77.0.2", "device": [{"device_id": "0", "device_ip": "192.168.10.2", "rank_id": "1"}]}]}
EOF
run hcclctl ranktable validate "$TMP/unsafe.json"
check_rc 1 "ranktable validate: a server_id with ';' is a warning"
out_has "[server-id-unsafe]"
_report $? "  named by the server-id-unsafe rule" "$OUT"

# The rank side: its node's copy of the table must have the launcher's digest.
# (one rank, as many as are started: a table of more is refused before its digest is read)
cat >"$TMP/two.json" <<EOF
{"version": "1.0", "status": "completed", "server_count": "1", "server_list": [
 {"server_id": "10.77.0.9", "device": [{"device_id": "0", "device_ip": "192.168.10.9", "rank_id": "0"}]}]}
EOF
run env HCCLCTL_DIGEST=0123456789abcdef HCCLCTL_HOST=n7 "$HCCLCTL" run barrier --rank 0 \
	--world-size 1 --master 127.0.0.1:1 --ranktable "$TMP/two.json"
check_rc 2 "a rank whose copy of the table differs from the launcher's refuses to start"
digest=$(hcclctl --json ranktable validate "$TMP/two.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["files"][0]["digest"])')
err_has "rank 0 (host n7): the rank table $TMP/two.json here differs from the launcher's: digest $digest, the launcher's 0123456789abcdef"
_report $? "  naming the node and both digests" "$ERR"
run env HCCLCTL_DIGEST=$digest HCCLCTL_LAUNCH=ssh HCCLCTL_CONNECT_TIMEOUT=1 "$HCCLCTL" run barrier --rank 0 \
	--world-size 1 --master 127.0.0.1:1 --ranktable "$TMP/two.json" --timeout 1
check_rc 2 "with the launcher's digest it goes on to the rendezvous (here: none, so it times out)"
err_has "bootstrap: no rendezvous at 127.0.0.1:1"
_report $? "  and says so" "$ERR"

run_cluster_up

# ---- collectives across the 4 nodes ----
run rxk allreduce --ranktable "$RT" -b 8 -e 1M
check_rc 0 "run allreduce --ssh on 4 nodes: exit 0"
printf '%s\n' "$OUT" | head -1 | grep -q '^# hcclctl run allreduce: 4 ranks (ssh), fp32 sum'
_report $? "  rank 0's header streams back: 4 ranks, launched over ssh" "$OUT"
rows_ok 18
_report $? "  18 rows, #wrong 0 on every one" "$OUT"
out_has "# Avg bus bandwidth"
_report $? "  and the footer" "$OUT"
check_err "" "  nothing on stderr"
none_left
_report $? "  no hcclctl left on any node" "$(node_procs)"

run rxk allgather --ranktable "$TMP/rt2.json" -b 1K -e 256K -d bf16
check_rc 0 "run allgather --ssh, 8 ranks (2 per node): exit 0"
printf '%s\n' "$OUT" | head -1 | grep -q '^# hcclctl run allgather: 8 ranks (ssh), bf16'
_report $? "  8 ranks" "$OUT"
rows_ok 9
_report $? "  9 rows, #wrong 0 on every one" "$OUT"

run rxk reducescatter --json --ranktable "$RT" -b 64 -e 4K -d int32 -o max
check_rc 0 "--json: exit 0"
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["world_size"] == 4 and d["launch"] == "ssh" and d["collective"] == "reducescatter", d
assert len(d["results"]) == 7 and all(r["wrong"] == 0 for r in d["results"]), d
'
_report $? "  rank 0's JSON document, relayed whole" "$OUT"

# ---- launch + rendezvous time, 4 and 16 ranks ----
for d in 1 4; do
	t0=$(date +%s%N)
	run rxk barrier --ranktable "$TMP/rt$d.json" -n 1 -w 0
	ms=$((($(date +%s%N) - t0) / 1000000))
	check_rc 0 "barrier, $((d * 4)) ranks: exit 0"
	echo "# launch + rendezvous + 1 barrier, $((d * 4)) ranks on 4 nodes: $ms ms"
done

# ---- a remote rank killed mid-run ----
long_run kill "$RT"
settle 100 ranks_up 4 || true
procs=$(rank_procs)
[ "$(printf '%s\n' "$procs" | cut -d: -f1 | sort -u | tr '\n' ' ')" = "1 2 3 4 " ] &&
	[ "$(printf '%s\n' "$procs" | wc -l)" = 4 ]
_report $? "mid-run: one hcclctl rank in each node's namespace" "$(node_tree)"
[ "$(parent_procs | cut -d: -f1 | tr '\n' ' ')" = "1 2 3 4 " ]
_report $? "  under one hcclctl-node parent per node" "$(node_tree)"
victim=$(printf '%s\n' "$procs" | grep '^3:' | cut -d: -f2)
sleep 0.3
t0=$(date +%s%N)
kill -KILL "$victim"
await_launcher 300
echo "# launcher ended $((($(date +%s%N) - t0) / 1000000)) ms after the kill"
check_rc 2 "a rank killed mid-run: exit 2"
err_has "hcclctl: run allreduce: rank 2 on 10.77.0.3 was killed by signal KILL"
_report $? "  the killed rank is named with its host" "$ERR"
# The survivors are stopped, unless they saw the lost peer and ended first (then they are
# listed after the cause, as consequences).
err_has "hcclctl: run allreduce: stopped the other" || err_has "also exited 2"
_report $? "  the others were stopped or had ended" "$ERR"
none_left
_report $? "  no hcclctl left on any node" "$(node_procs)"

# ---- rank 0 killed mid-run under --json: the rows it measured stay ----
# Rank 0 streams each row to the launcher as it measures it (-v shows them on stderr), so a
# rank 0 killed in a later row, with no document of its own, leaves its rows in the
# launcher's document.
_lr=j0
cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" -v --json run allreduce --ranktable "$RT" --ssh \
	--ssh-user root --ssh-key "$CL_KEY" --ssh-known-hosts "$CL_KNOWN_HOSTS" \
	--remote-hcclctl "$HCCLCTL" -b 8 -e 8 -n 200 -w 1 -N 0 --timeout 30 \
	>"$TMP/j0.out" 2>"$TMP/j0.err" &
lpid=$!
wait_line "$TMP/j0.err" '^\[rank 0 [^]]*\] row {' 600 "$lpid"
_report $? "--json, mid-run: rank 0's rows stream to the launcher as they are measured (-v)" "$(cat "$TMP/j0.err")"
victim=$(rank_procs | grep '^1:' | cut -d: -f2)
ok "[ -n '$victim' ]" "  rank 0 is pid $victim on node 1"
kill -KILL "$victim"
await_launcher 300
check_rc 2 "  rank 0 killed: exit 2"
err_has "hcclctl: run allreduce: rank 0 on 10.77.0.1 was killed by signal KILL"
_report $? "  the killed rank 0 is named with its host" "$ERR"
ok "python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
assert len(d[\"results\"]) > 0 and all(r[\"size_bytes\"] == 8 for r in d[\"results\"]), d
assert d[\"error\"][\"rank\"] == 0 and d[\"exit_code\"] == 2, d
' '$TMP/j0.out'" "  one document that keeps the rows rank 0 measured before it was killed"
ok "! grep -q 'hcclctl-row' '$TMP/j0.out'" "  and no streamed row line leaks onto stdout"
none_left
_report $? "  no hcclctl left on any node" "$(node_procs)"

# ---- one SSH session per server, against one per rank ----
RT4=$TMP/rt4.json
for mode in server rank; do
	long_run s "$RT4" HCCLCTL_SSH_SESSIONS=$mode
	want=1
	[ $mode = rank ] && want=4
	settle 100 ranks_up 16 || true
	got="$(sessions_of 1) $(sessions_of 2) $(sessions_of 3) $(sessions_of 4)"
	ok "[ '$got' = '$want $want $want $want' ]" "16 ranks on 4 nodes, HCCLCTL_SSH_SESSIONS=$mode: $want SSH session(s) per node (got $got)"
	[ "$(rank_procs | wc -l)" = 16 ]
	_report $? "  16 ranks running" "$(node_tree)"
	want=4
	[ $mode = rank ] && want=0
	[ "$(parent_procs | wc -l)" = $want ]
	_report $? "  $want hcclctl-node parents" "$(node_tree)"
	kill -TERM "$launcher"
	await_launcher 100
	check_rc 143 "  terminated: exit 143"
	none_left
	_report $? "  no hcclctl left on any node" "$(node_tree)"
done

# A server's parent killed: the server is named with all its ranks, the rest stopped.
long_run p "$RT4"
settle 100 ranks_up 16 || true
victim=$(parent_procs | grep '^2:' | cut -d: -f2)
ok "[ -n '$victim' ]" "mid-run: node 2's hcclctl-node is pid $victim"
kill -KILL "$victim"
await_launcher 300
check_rc 2 "a server's parent killed mid-run: exit 2"
err_has "hcclctl: run allreduce: ranks 4-7 on 10.77.0.2 lost: their parent (hcclctl run-node) was killed by signal KILL"
_report $? "  the server is named with all of its ranks" "$ERR"
none_left
_report $? "  no hcclctl left on any node (its ranks died with it)" "$(node_tree)"

# The launcher killed outright (no chance to cancel): every session closes, and each
# run-node stops its ranks when its stdin ends.
long_run k "$RT4"
settle 100 ranks_up 16 || true
[ "$(rank_procs | wc -l)" = 16 ]
_report $? "mid-run: 16 ranks running before the launcher is killed" "$(node_tree)"
t0=$(date +%s%N)
kill -KILL "$launcher"
wait "$lpid"
none_left
_report $? "the launcher killed with SIGKILL: no hcclctl left on any node" "$(node_tree)"
echo "# ranks gone $((($(date +%s%N) - t0) / 1000000)) ms after the launcher's SIGKILL"

# ---- a node whose sshd is down ----
cluster_stop_sshd 3
t0=$(date +%s%N)
run rxk allreduce --ranktable "$RT"
echo "# sshd down: $((($(date +%s%N) - t0) / 1000000)) ms"
check_rc 2 "a node whose sshd is down: exit 2 (unreachable)"
err_has "hcclctl: run allreduce: rank 2 on 10.77.0.3 could not start: 10.77.0.3 port 22: connect: Connection refused"
_report $? "  the node and its rank are named, with the reason" "$ERR"
err_has "hcclctl: run allreduce: stopped the other 3 ranks (0, 1, 3) and their processes"
_report $? "  the other ranks were stopped" "$ERR"
none_left
_report $? "  no hcclctl left on any node" "$(node_procs)"
cluster_start_sshd 3
_cl_wait_sshd 3

# ---- host keys and user keys ----
grep -v '^10\.77\.0\.2 ' "$CL_KNOWN_HOSTS" >"$TMP/kh_missing"
run rx allreduce --ranktable "$RT" --ssh-known-hosts "$TMP/kh_missing"
check_rc 2 "an unknown host key: exit 2 (unreachable)"
err_has "hcclctl: run allreduce: rank 1 on 10.77.0.2 could not start: 10.77.0.2: host key not known (not in $TMP/kh_missing): ED25519 key fingerprint"
_report $? "  refused, naming the host and its fingerprint" "$ERR"
none_left
_report $? "  no hcclctl left on any node" "$(node_procs)"

ssh-keygen -q -t ed25519 -N '' -f "$TMP/otherkey"
run cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" run allreduce --ranktable "$RT" --ssh \
	--ssh-user root --ssh-key "$TMP/otherkey" --ssh-known-hosts "$CL_KNOWN_HOSTS" \
	--remote-hcclctl "$HCCLCTL"
check_rc 2 "a wrong user key: exit 2 (unreachable)"
err_has "could not start: root@10.77.0."
_report $? "  named" "$ERR"
err_has "permission denied: no key was accepted"
_report $? "  with the reason" "$ERR"

run cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" run allreduce --ranktable "$RT" --ssh \
	--ssh-user root --ssh-key "$CL_KEY" --ssh-known-hosts "$CL_KNOWN_HOSTS" \
	--remote-hcclctl /nonexistent/hcclctl
check_rc 3 "no hcclctl at --remote-hcclctl: exit 3"
err_has "could not start: hcclctl not found there (exit 127); fix --remote-hcclctl PATH, or leave it out to copy this hcclctl there"
_report $? "  says so, with the fix" "$ERR"

# ---- rank-table fields never reach a shell ----
cat >"$TMP/unsafe.json" <<EOF
{"version": "1.0", "status": "completed", "server_count": "2", "server_list": [
 {"server_id": "10.77.0.1;touch $pwn", "device": [{"device_id": "0", "device_ip": "192.168.10.1", "rank_id": "0"}]},
 {"server_id": "10.77.0.2 \$(touch $pwn)", "device": [{"device_id": "0", "device_ip": "192.168.10.2", "rank_id": "1"}]}]}
EOF
: >"$TMP/sshd-before"
for i in 1 2; do wc -c <"$CL_DIR/n$i/sshd.log" >>"$TMP/sshd-before"; done
run rxk allreduce --ranktable "$TMP/unsafe.json"
check_rc 2 "a table with a server_id that is shell code: refused (exit 2)"
err_has "[server-id-unsafe]"
_report $? "  with the validator's finding" "$ERR"
err_has "nothing was started"
_report $? "  and nothing was started" "$ERR"
ok "[ ! -e '$pwn' ]" "  the server_id was never executed, locally or remotely"

# host_ip is where to connect when the table has it; server_id names the rank
python3 - "$RT" "$TMP/named.json" <<'EOF'
import json, sys
t = json.load(open(sys.argv[1]))
for i, s in enumerate(t["server_list"]):
    s["host_ip"] = s["server_id"]
    s["server_id"] = "node-%d" % (i + 1)
json.dump(t, open(sys.argv[2], "w"), indent=1)
EOF
cluster_stop_sshd 4
run rxk allreduce --ranktable "$TMP/named.json" -e 64
check_rc 2 "servers named by server_id, reached at host_ip: a node down is exit 2 (unreachable)"
err_has "hcclctl: run allreduce: rank 3 on node-4 (10.77.0.4) could not start"
_report $? "  named by server_id and address" "$ERR"
cluster_start_sshd 4
_cl_wait_sshd 4
run rxk allreduce --ranktable "$TMP/named.json" -e 64
check_rc 0 "and with every node up: exit 0"

done_testing
