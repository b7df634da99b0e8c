# What tests/cluster/run.t and run-ssh.t share: the 4-node cluster with its rank tables
# (1, 2 and 4 devices a node) and the helpers that launch over it and look at its nodes.
# Sourced after tests/cli/lib.sh and netns.sh.

err_has() { printf '%s\n' "$ERR" | grep -qF -- "$1"; }
out_has() { printf '%s\n' "$OUT" | grep -qF -- "$1"; }

# run_cluster_up: the cluster of 4 nodes and $RT (one device a node), $TMP/rt{1,2,4}.json;
# skips the test where the host cannot make one, fails it where making one failed
run_cluster_up() {
	cluster_require

	t0=$(date +%s%N)
	cluster_up_or_end 4
	echo "# cluster_up 4: $((($(date +%s%N) - t0) / 1000000)) ms"

	# Device IPs are fake (the TCP collectives use the servers' addresses): hccn.conf per node.
	mkdir -p "$TMP/hccn"
	for i in 1 2 3 4; do
		printf 'address_0=192.168.10.%d\naddress_1=192.168.11.%d\naddress_2=192.168.12.%d\naddress_3=192.168.13.%d\n' \
			"$i" "$i" "$i" "$i" >"$TMP/hccn/10.77.0.$i"
	done
	for d in 1 2 4; do
		hcclctl ranktable gen --servers "$(cluster_hosts)" --devices "0-$((d - 1))" \
			--hccn-conf-dir "$TMP/hccn" -o "$TMP/rt$d.json" 2>/dev/null
	done
	RT=$TMP/rt1.json
}

# hcclctl runs in the head namespace with the cluster's key and known_hosts, no agent.
rx() {
	cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" run "$@" --ssh --ssh-user root \
		--ssh-key "$CL_KEY" --remote-hcclctl "$HCCLCTL"
}
rxk() { rx "$@" --ssh-known-hosts "$CL_KNOWN_HOSTS"; }

node_procs() { cluster_procs; }
# "I:PID" of the ranks and of their parents, and both with each one's parent pid, for
# messages
rank_procs() { cluster_procs_named hcclctl; }
parent_procs() { cluster_procs_named hcclctl-node; }
node_tree() {
	for _e in $(cluster_procs); do
		echo "$_e $(cat "/proc/${_e#*:}/comm" 2>/dev/null) ppid $(awk '{print $4}' "/proc/${_e#*:}/stat" 2>/dev/null)"
	done
}
# SSH connections node I's sshd holds now: each is a child of the listener
sessions_of() { pgrep -P "$(cat "$CL_DIR/n$1/pid")" | wc -l; }
# settle TENTHS CMD...: waits until CMD succeeds, TENTHS tenths of a second at most. Rank 0's
# header can reach the launcher before the last node's session and ranks are up, so a count
# taken at the header alone races with the start.
settle() {
	_st=0
	_sn=$1
	shift
	until "$@"; do
		[ "$_st" -lt "$_sn" ] || return 1
		sleep 0.1
		_st=$((_st + 1))
	done
}
# long_run NAME TABLE [VAR=VALUE...]: a long allreduce over TABLE in the background, its
# output in $TMP/NAME.out and .err; once rank 0's header is there (up to 10 s): lpid the
# subshell, launcher the hcclctl in it (`ip netns exec` execs env, which execs hcclctl)
long_run() {
	_lr=$1
	_lt=$2
	shift 2
	cluster_head env -u SSH_AUTH_SOCK "$@" "$HCCLCTL" run allreduce --ranktable "$_lt" --ssh \
		--ssh-user root --ssh-key "$CL_KEY" --ssh-known-hosts "$CL_KNOWN_HOSTS" \
		--remote-hcclctl "$HCCLCTL" -b 64K -e 64K -n 1000000 -w 0 --timeout 30 \
		>"$TMP/$_lr.out" 2>"$TMP/$_lr.err" &
	lpid=$!
	# up to 60 s: 16 ranks over SSH start in ~2 s here, but a loaded machine takes far longer
	wait_line "$TMP/$_lr.out" '^# hcclctl run' 600 || true
	launcher=$(pgrep -P "$lpid")
}
# await_launcher TENTHS: waits that long at most for it to end; RC its exit, ERR its stderr
await_launcher() {
	_t=0
	while kill -0 "$lpid" 2>/dev/null && [ $_t -lt "$1" ]; do
		sleep 0.1
		_t=$((_t + 1))
	done
	kill -0 "$lpid" 2>/dev/null && kill "$lpid"
	wait "$lpid"
	RC=$?
	ERR=$(cat "$TMP/$_lr.err")
}
none_left() { cluster_none_left; }
rows_ok() { # every result row has #wrong 0, and there are $1 of them
	printf '%s\n' "$OUT" | awk -v want="$1" '/^ +[0-9]/ {n++; if ($9 != "0" || ($13 != "0" && $13 != "N/A")) bad++} END {exit !(n == want && !bad)}'
}
