# hcclctl exec across 4 network namespaces with sshd: results per node, host keys refused,
# a wrong user key, a node down, a command that outlives its timeout, --ssh-insecure.
# Run as root (`ip netns`); elsewhere the cluster tests skip with the reason.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/netns.sh"

# ---- usage, no cluster needed ----
run hcclctl exec -- true
check_rc 64 "exec without hosts is a usage error"
check_err "hcclctl: exec: give exactly one of --hosts and --hostfile
hint: see 'hcclctl exec --help'" "it says to give --hosts or --hostfile"

run hcclctl exec --hosts 'a;touch /tmp/x' -- true
check_rc 64 "a host name with shell metacharacters is refused before anything runs"

run hcclctl exec --hosts 10.0.0.1
check_rc 64 "exec without a command is a usage error"

cluster_require

t0=$(date +%s%N)
cluster_up_or_end 4
t1=$(date +%s%N)
echo "# cluster_up 4: $(((t1 - t0) / 1000000)) ms"
HOSTS=$(cluster_hosts)

# hcclctl runs in the head namespace with the cluster's key and known_hosts, no agent.
hx() {
	cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" exec --ssh-user root --ssh-key "$CL_KEY" \
		--ssh-known-hosts "$CL_KNOWN_HOSTS" "$@"
}

# The output block of one host: from its "== HOST:" line to the next.
block() { printf '%s\n' "$OUT" | awk -v h="== $1:" 'index($0, h) == 1 {s = 1; print; next} /^== |^[0-9]+ hosts?: [0-9]+ ok, / {s = 0} s'; }

# ---- every node runs the command, each on its own node ----
run hx --hosts "$HOSTS" -- sh -c 'echo "node=$HCCLCTL_NODE"; ip -o -4 addr show dev eth0'
check_rc 0 "exec on 4 nodes: exit 0"
for i in 1 2 3 4; do
	b=$(block "10.77.0.$i")
	printf '%s\n' "$b" | head -1 | grep -qE "^== 10\.77\.0\.$i: ok \(exit 0, [0-9]+\.[0-9]{2} s\)$" &&
		printf '%s\n' "$b" | grep -qx "node=n$i" &&
		printf '%s\n' "$b" | grep -q "inet 10\.77\.0\.$i/24"
	_report $? "node $i ran it in its own namespace (marker n$i, address 10.77.0.$i)" "$b"
done
printf '%s\n' "$OUT" | tail -1 | grep -qE '^4 hosts: 4 ok, 0 failed, 0 unreachable, 0 timed out \([0-9.]+ s\)$'
_report $? "a summary line ends the report" "$OUT"
check_err "" "nothing on stderr when all is well (and no progress: stderr is not a terminal)"

# ---- arguments reach the remote command as they were given ----
pwn=$TMP/pwned
run hx --hosts 10.77.0.1 -- printf '[%s]\n' "a  b" "it's" "\$(touch $pwn)" ";touch $pwn" '`id`' '\'
[ "$(block 10.77.0.1 | sed 1d)" = "[a  b]
[it's]
[\$(touch $pwn)]
[;touch $pwn]
[\`id\`]
[\\]" ]
_report $? "quotes, \$(), ; and backquotes reach the command as words, not as shell code" "$OUT"
ok "[ ! -e '$pwn' ]" "no argument was run by the remote shell"

# ---- exit statuses and JSON ----
run hx --hosts "$HOSTS" -- sh -c 'echo oops >&2; exit $(( ${HCCLCTL_NODE#n} % 2 ))'
check_rc 2 "a command that fails on some nodes: exit 2"
check_err_has "hcclctl: exec: the command failed on 2 of 4 hosts: 10.77.0.1, 10.77.0.3" \
	"the failed nodes are named"
block 10.77.0.3 | head -1 | grep -qE '^== 10\.77\.0\.3: failed \(exit 1, '
_report $? "the failed node's block gives its exit status" "$OUT"
[ "$(block 10.77.0.3 | tail -2)" = "-- stderr:
oops" ]
_report $? "and its stderr" "$OUT"

run hx --json --hosts "$HOSTS" -- sh -c 'echo "$HCCLCTL_NODE"; exit $(( ${HCCLCTL_NODE#n} % 2 ))'
check_rc 2 "--json: the same exit code"
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
h = {x["host"]: x for x in d["hosts"]}
assert [x["host"] for x in d["hosts"]] == ["10.77.0.%d" % i for i in (1, 2, 3, 4)], d
for i in (1, 2, 3, 4):
    x = h["10.77.0.%d" % i]
    assert x["stdout"] == "n%d\n" % i, x
    assert x["exit_status"] == i % 2, x
    assert x["status"] == ("failed" if i % 2 else "ok"), x
    assert x["error"] is None and x["signal"] is None, x
s = d["summary"]
assert (s["hosts"], s["ok"], s["failed"], s["unreachable"], s["timeout"]) == (4, 2, 2, 0, 0), s
assert d["exit_code"] == 2 and d["command"].startswith("'"'"'sh'"'"' '"'"'-c'"'"'"), d
'
_report $? "--json: one document with every host's status, exit status and output" "$OUT"

# ---- a hostfile names the nodes; host_ip is where to connect ----
printf '# the test cluster\nn1 host_ip=10.77.0.1\nn2 host_ip=10.77.0.2\n' >"$TMP/hosts"
run hx --hostfile "$TMP/hosts" -- true
check_rc 0 "--hostfile"
printf '%s\n' "$OUT" | grep -c '^== n[12]: ok (exit 0, ' | grep -qx 2
_report $? "blocks are named by server, connected by host_ip" "$OUT"

# ---- host keys ----
grep -v '^10\.77\.0\.2 ' "$CL_KNOWN_HOSTS" >"$TMP/kh_missing"
rm -f "$CL_DIR"/ran-*
run hx --ssh-known-hosts "$TMP/kh_missing" --hosts "$HOSTS" -- sh -c 'touch "$0/ran-$HCCLCTL_NODE"' "$CL_DIR"
check_rc 2 "an unknown host key: exit 2 (unreachable)"
fp=$(ssh-keygen -lf "$CL_DIR/n2/host_ed25519.pub" | awk '{print $2}')
check_err_has "hcclctl: exec: 10.77.0.2: host key not known (not in $TMP/kh_missing): ED25519 key fingerprint $fp (ssh-ed25519); nothing was run. To trust it after checking the fingerprint: ssh-keyscan -p 22 10.77.0.2 >> $TMP/kh_missing, or pass --ssh-insecure to skip the check" \
	"it is refused with the host, key type, OpenSSH's SHA256 fingerprint and the fix"
ok "[ ! -e '$CL_DIR/ran-n2' ] && [ -e '$CL_DIR/ran-n1' ] && [ -e '$CL_DIR/ran-n3' ] && [ -e '$CL_DIR/ran-n4' ]" \
	"nothing ran on that node; the others ran"
block 10.77.0.2 | grep -qE '^== 10\.77\.0\.2: unreachable \('
_report $? "its block says unreachable" "$OUT"

# node 3 presents its key where known_hosts holds node 4's
k4=$(cut -d' ' -f1,2 "$CL_DIR/n4/host_ed25519.pub")
sed "s|^10\.77\.0\.3 .*|10.77.0.3 $k4|" "$CL_KNOWN_HOSTS" >"$TMP/kh_changed"
rm -f "$CL_DIR"/ran-*
run hx --ssh-known-hosts "$TMP/kh_changed" --hosts 10.77.0.3 -- sh -c 'touch "$0/ran-$HCCLCTL_NODE"' "$CL_DIR"
check_rc 2 "a changed host key: exit 2 (unreachable)"
fp3=$(ssh-keygen -lf "$CL_DIR/n3/host_ed25519.pub" | awk '{print $2}')
printf '%s\n' "$ERR" | grep -qF "hcclctl: exec: 10.77.0.3: HOST KEY CHANGED: the ED25519 key $fp3 does not match the key $TMP/kh_changed holds for 10.77.0.3;"
_report $? "it is refused loudly, with the new fingerprint" "$ERR"
printf '%s\n' "$ERR" | grep -qF "ssh-keygen -R '10.77.0.3' -f $TMP/kh_changed"
_report $? "and how to replace the key" "$ERR"
ok "[ ! -e '$CL_DIR/ran-n3' ]" "nothing ran on it"

: >"$TMP/kh_empty"
run hx --ssh-known-hosts "$TMP/kh_empty" --ssh-insecure --hosts "$HOSTS" -- true
check_rc 0 "--ssh-insecure connects to unknown hosts"
check_err "hcclctl: exec: warning: --ssh-insecure: host keys are not checked; anyone on the path can pose as these hosts and see what is sent" \
	"--ssh-insecure warns, once"

# another port: known_hosts files the key as [host]:port, and a plain entry does not count
sed 's/:22$/:2222/; s|^PidFile .*|PidFile '"$CL_DIR"'/n1/sshd2222.pid|' "$CL_DIR/n1/sshd_config" >"$CL_DIR/n1/sshd2222"
ip netns exec "$(cluster_ns 1)" /usr/sbin/sshd -f "$CL_DIR/n1/sshd2222" -D -e </dev/null >/dev/null 2>&1 &
sshd2222=$!
tries=0
until cluster_exec 1 ss -Hltn "sport = :2222" | grep -q . || [ $tries -gt 100 ]; do
	sleep 0.05
	tries=$((tries + 1))
done
run hx --ssh-port 2222 --hosts 10.77.0.1 -- true
check_rc 2 "--ssh-port: the key filed for port 22 is not taken for port 2222"
check_err_has "hcclctl: exec: [10.77.0.1]:2222: host key not known (not in $CL_KNOWN_HOSTS): ED25519 key fingerprint $(ssh-keygen -lf "$CL_DIR/n1/host_ed25519.pub" | awk '{print $2}') (ssh-ed25519); nothing was run. To trust it after checking the fingerprint: ssh-keyscan -p 2222 10.77.0.1 >> $CL_KNOWN_HOSTS, or pass --ssh-insecure to skip the check" \
	"the message names [host]:port and the ssh-keyscan -p fix"
sed 's/^10\.77\.0\.1 /[10.77.0.1]:2222 /' "$CL_KNOWN_HOSTS" >"$TMP/kh_port"
run hx --ssh-port 2222 --ssh-known-hosts "$TMP/kh_port" --hosts 10.77.0.1 -- true
check_rc 0 "--ssh-port with a [host]:port known_hosts entry"
kill "$sshd2222" && wait "$sshd2222"

# @revoked: refused whatever else the file says, even with a plain line for the same key
# before and after it (OpenSSH refuses too; we did take the plain line)
k2=$(cut -d' ' -f1,2 "$CL_DIR/n2/host_ed25519.pub")
{ cat "$CL_KNOWN_HOSTS"; echo "@cert-authority *.example ssh-ed25519 AAAA"; echo "@revoked * $k2"; echo "10.77.0.2 $k2"; } >"$TMP/kh_revoked"
rl=$(grep -n '^@revoked' "$TMP/kh_revoked" | cut -d: -f1)
rm -f "$CL_DIR"/ran-*
run hx --ssh-known-hosts "$TMP/kh_revoked" --hosts 10.77.0.1,10.77.0.2 -- sh -c 'touch "$0/ran-$HCCLCTL_NODE"' "$CL_DIR"
check_rc 2 "a host key marked @revoked: exit 2 (unreachable)"
fp2=$(ssh-keygen -lf "$CL_DIR/n2/host_ed25519.pub" | awk '{print $2}')
check_err_has "hcclctl: exec: 10.77.0.2: HOST KEY REVOKED: the ED25519 key $fp2 is marked @revoked in $TMP/kh_revoked line $rl; nothing was run. The host must get a new key" \
	"it is refused, naming the file and the line, though plain lines for the key match"
ok "[ ! -e '$CL_DIR/ran-n2' ] && [ -e '$CL_DIR/ran-n1' ]" "nothing ran on it; the other node (not revoked) ran"

# ---- user keys ----
ssh-keygen -q -t ed25519 -N '' -f "$TMP/wrong_key"
run hx --ssh-key "$TMP/wrong_key" --hosts 10.77.0.1,10.77.0.2 -- true
check_rc 2 "a key the nodes do not know: exit 2 (unreachable)"
check_err_has "hcclctl: exec: root@10.77.0.1: permission denied: no key was accepted (tried: $TMP/wrong_key; the server offers: publickey); is the public key in ~root/.ssh/authorized_keys on 10.77.0.1? Use --ssh-key FILE or --ssh-user USER" \
	"it says which user@host refused, which key was tried and what the server offers"

mkdir -p "$TMP/home/.ssh"
cp "$CL_KEY" "$TMP/home/.ssh/id_ed25519"
cp "$CL_KNOWN_HOSTS" "$TMP/home/.ssh/known_hosts"
run cluster_head env -u SSH_AUTH_SOCK HOME="$TMP/home" USER=root "$HCCLCTL" exec --hosts 10.77.0.4 -- true
check_rc 0 "without options: \$USER, ~/.ssh/id_ed25519 and ~/.ssh/known_hosts"

if command -v ssh-agent >/dev/null 2>&1; then
	# the agent lives as long as the command it runs, so nothing is left behind
	rm -f "$TMP/home/.ssh/id_ed25519"
	run cluster_head env HOME="$TMP/home" USER=root ssh-agent sh -c \
		'ssh-add -q "$1" 2>/dev/null && "$2" exec --hosts 10.77.0.2,10.77.0.3 -- true' sh "$CL_KEY" "$HCCLCTL"
	check_rc 0 "a key in ssh-agent is used when SSH_AUTH_SOCK is set"
else
	skip "ssh-agent is not installed"
fi

# ---- a node down, a node that does not answer, a command that hangs ----
cluster_stop_sshd 3
run hx --hosts "$HOSTS" -- sh -c 'echo "$HCCLCTL_NODE"'
check_rc 2 "a node whose sshd is down: exit 2 (unreachable)"
check_err_has "hcclctl: exec: 10.77.0.3 port 22: connect: Connection refused" "it is named, with the cause"
check_err_has "hcclctl: exec: 1 of 4 hosts could not run the command: 10.77.0.3" "the summary names it"
[ "$(block 10.77.0.1 | sed -n 2p)$(block 10.77.0.2 | sed -n 2p)$(block 10.77.0.4 | sed -n 2p)" = "n1n2n4" ]
_report $? "the other nodes' results are kept" "$OUT"
cluster_start_sshd 3
_cl_wait_sshd 3

run hx --connect-timeout 1 --hosts 10.77.0.1,10.77.0.200 -- true
check_rc 2 "an address where nothing answers: exit 2 (unreachable)"
block 10.77.0.200 | grep -qE '^== 10\.77\.0\.200: timeout \(connect, [12]\.[0-9]{2} s\)$'
_report $? "it times out after --connect-timeout" "$OUT"
check_err_has "hcclctl: exec: 10.77.0.200 port 22: connect timed out" "the host is named"

# 3 s: enough for the other nodes' commands to start and end on a busy machine
start=$(date +%s%N)
run hx --timeout 3 --hosts "$HOSTS" -- sh -c '[ "$HCCLCTL_NODE" = n2 ] && sleep 30; echo done'
took=$((($(date +%s%N) - start) / 1000000))
check_rc 3 "a command still running at --timeout: exit 3"
block 10.77.0.2 | head -1 | grep -qE '^== 10\.77\.0\.2: timeout \(command, [1-9]\.[0-9]{2} s\)$'
_report $? "the node is reported as a command timeout" "$OUT"
check_err_has "hcclctl: exec: 10.77.0.2: command still running at the deadline; killed it" "and named"
[ "$(block 10.77.0.4 | sed -n 2p)" = done ]
_report $? "the other nodes finished" "$OUT"
[ "$took" -lt 8000 ]
_report $? "the run ended soon after the deadline (${took} ms)"
# sshd is the only process the node should have left, once the kill has gone through
others() {
	for p in $(ip netns pids "$(cluster_ns 2)"); do
		[ "$p" = "$(cat "$CL_DIR/n2/pid")" ] || tr '\0' ' ' 2>/dev/null <"/proc/$p/cmdline"
	done
	return 0
}
tries=0
while left=$(others) && [ -n "$left" ] && [ $tries -lt 30 ]; do
	sleep 0.1
	tries=$((tries + 1))
done
[ -z "$left" ]
_report $? "the timed-out command was killed on its node" "left: $left"

# ---- progress, when stderr is a terminal ----
if command -v script >/dev/null 2>&1; then
	cluster_head env -u SSH_AUTH_SOCK script -qec "'$HCCLCTL' exec --ssh-user root --ssh-key '$CL_KEY' --ssh-known-hosts '$CL_KNOWN_HOSTS' --hosts $HOSTS -- true" /dev/null >"$TMP/tty" 2>&1
	grep -q '\[4/4\] ok 4, failed 0' "$TMP/tty"
	_report $? "progress '[4/4] ok 4, failed 0' on a terminal" "$(cat -v "$TMP/tty")"
else
	skip "script(1) is not installed"
fi

t0=$(date +%s%N)
cluster_down
t1=$(date +%s%N)
echo "# cluster_down 4: $(((t1 - t0) / 1000000)) ms"
ok "! ip netns list | grep -q '^$CL_ID'" "cluster_down leaves no namespace behind"
done_testing
