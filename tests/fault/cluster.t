# Faults across network namespaces, ranks started over SSH (run --ranktable --ssh), the
# launcher in the head namespace: a remote rank killed or frozen, a node's link set down, all
# packets of one directed link dropped, 5 % loss everywhere (must still complete, exactly), a
# node where hcclctl cannot start. Each ends in one verdict naming the culprit within the
# heartbeat budget (5 s), exit 2, and nothing left on any node. There is no netem on this
# kernel: delay and jitter cannot be added, so the 10 ms jitter case runs as loss only.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cluster/netns.sh"
. "$(dirname "$0")/lib.sh"

cluster_require
cluster_up_or_end 4
BUDGET=5000
mkdir -p "$TMP/hccn"
for i in 1 2 3 4; do printf 'address_0=192.168.10.%d\n' "$i" >"$TMP/hccn/10.77.0.$i"; done
"$HCCLCTL" ranktable gen --servers "$(cluster_hosts)" --devices 0 --hccn-conf-dir "$TMP/hccn" \
	-o "$TMP/rt.json" 2>/dev/null
RT=$TMP/rt.json

rx() {
	cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" -v run "$@" --ssh --ssh-user root \
		--ssh-key "$CL_KEY" --ssh-known-hosts "$CL_KNOWN_HOSTS" --remote-hcclctl "$HCCLCTL"
}
node_procs() { cluster_procs; }
none_left() { cluster_none_left; }
rank_pid() { cluster_procs_named hcclctl | grep "^$1:" | head -1 | cut -d: -f2; }
err_has() { grep -qF -- "$2" "$TMP/$1.err"; }
# A long ring allreduce across the 4 nodes, one rank per node (rank r on node r+1).
long_run() {
	_nm=$1
	shift
	bg_run "$_nm" rx allreduce --ranktable "$RT" -b 4M -e 4M -n 1000000 -w 0 -c 0 --algo ring \
		--timeout 60 "$@"
	wait_for "$TMP/$_nm.out" "# hcclctl run allreduce" 15000 >/dev/null
	sleep 0.5
}
# Survivors' own verdict lines, relayed by -v as "[rank R HOST] hcclctl: verdict: ...".
survivors_agree() { # NAME KIND TEXT RANKS...
	_f=$TMP/$1.err
	_k=$2
	_t=$3
	shift 3
	for _r in "$@"; do
		grep "^\[rank $_r " "$_f" | grep -F "hcclctl: verdict: $_k: " | grep -qF -- "$_t" || return 1
	done
}
finish() { # NAME [MS]: waits for the launcher (20 s), sets RC and ERR
	wait_gone "$BG" "${2:-20000}" || kill "$BG"
	wait "$BG"
	RC=$?
	ERR=$(cat "$TMP/$1.err")
}

# ---- a remote rank killed ----
long_run kill
victim=$(rank_pid 3)
kill -KILL "$victim"
ms=$(wait_for "$TMP/kill.err" "hcclctl: verdict: dead-rank: rank 2 (host 10.77.0.3) died" 8000)
[ "$ms" -le $BUDGET ]
_report $? "SIGKILL of rank 2 on node 3: dead-rank verdict within ${BUDGET} ms" "after $ms ms" "$(cat "$TMP/kill.err")"
echo "# dead-rank (SIGKILL), 4 namespaces over SSH: verdict after $ms ms"
finish kill
check_rc 2 "  exit 2"
survivors_agree kill dead-rank "rank 2 (host 10.77.0.3) died" 0 1 3
_report $? "  ranks 0, 1 and 3 each print the same verdict" "$ERR"
none_left
_report $? "  nothing left on any node" "$(node_procs)"

# ---- a remote rank frozen ----
long_run stop
victim=$(rank_pid 2)
kill -STOP "$victim"
ms=$(wait_for "$TMP/stop.err" "hcclctl: verdict: stuck-rank: rank 1 (host 10.77.0.2) is stuck" 8000)
[ "$ms" -le $BUDGET ]
_report $? "SIGSTOP of rank 1 on node 2: stuck-rank verdict within ${BUDGET} ms" "after $ms ms" "$(cat "$TMP/stop.err")"
echo "# stuck-rank (SIGSTOP), 4 namespaces over SSH: verdict after $ms ms"
finish stop
check_rc 2 "  exit 2"
survivors_agree stop stuck-rank "rank 1 (host 10.77.0.2) is stuck" 0 2 3
_report $? "  ranks 0, 2 and 3 each print the same verdict" "$ERR"
none_left
_report $? "  nothing left on any node, the frozen rank included" "$(node_procs)"

# ---- a node's link set down ----
long_run down
cluster_link 4 down
ms=$(wait_for "$TMP/down.err" "hcclctl: verdict: link-down: host 10.77.0.4 of rank 3 is cut off" 8000)
[ "$ms" -le $BUDGET ]
_report $? "node 4's link down: link-down verdict naming its host within ${BUDGET} ms" "after $ms ms" "$(cat "$TMP/down.err")"
echo "# link-down (node link set down), over SSH: verdict after $ms ms"
finish down
check_rc 2 "  exit 2"
survivors_agree down link-down "host 10.77.0.4 of rank 3 is cut off" 0 1 2
_report $? "  ranks 0, 1 and 2 each print the same verdict" "$ERR"
t0=$(now_ms)
none_left
_report $? "  the cut-off rank ends by itself too: nothing left on any node" "$(node_procs)"
cluster_link 4 up

# ---- every packet from node 1 to node 2 dropped (ring: rank 0 -> rank 1) ----
long_run drop
cluster_drop 1 2 100
ms=$(wait_for "$TMP/drop.err" "hcclctl: verdict: link-down: link rank 0 (host 10.77.0.1) -> rank 1 (host 10.77.0.2) is down" 8000)
[ "$ms" -le $BUDGET ]
_report $? "100 % loss on node 1 -> node 2: the directed link named within ${BUDGET} ms" "after $ms ms" "$(cat "$TMP/drop.err")"
echo "# link-down (100 % loss on one directed link): verdict after $ms ms"
finish drop
cluster_undrop 2
check_rc 2 "  exit 2"
none_left
_report $? "  nothing left on any node" "$(node_procs)"

# ---- 5 % loss on every link: slower, but complete and exact ----
for i in 1 2 3 4; do cluster_drop all "$i" 5; done
t0=$(now_ms)
bg_run loss rx allreduce --ranktable "$RT" -b 64K -e 4M -f 4 -n 5 -w 1 -c 1
# 5-15 s here, as retransmission timeouts fall (200 ms each, doubling): time to finish
finish loss 60000
for i in 1 2 3 4; do cluster_undrop "$i"; done
check_rc 0 "5 % loss on every link: the run completes (exit 0)"
awk '/^ +[0-9]/ {n++; if ($9 != "0" || ($13 != "0" && $13 != "N/A")) bad++} END {exit !(n == 4 && !bad)}' "$TMP/loss.out"
_report $? "  4 rows, #wrong 0 on each" "$(cat "$TMP/loss.out")"
echo "# 5 % loss: 4 sizes x 6 allreduces in $(($(now_ms) - t0)) ms"

# ---- a node where hcclctl cannot start ----
cat >"$TMP/hc" <<EOS
#!/bin/sh
[ "\$HCCLCTL_NODE" = n2 ] && { echo "sh: hcclctl: not found" >&2; exit 127; }
exec "$HCCLCTL" "\$@"
EOS
chmod +x "$TMP/hc"
# launch_1k NAME REMOTE: a 1K allreduce over SSH with REMOTE as the nodes' hcclctl; sets MS,
# RC and ERR. The SSH launch itself takes seconds on a loaded machine: the budget is counted
# on top of a healthy launch of the same size, timed just before.
launch_1k() {
	_t0=$(now_ms)
	bg_run "$1" cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" run allreduce --ranktable "$RT" \
		--ssh --ssh-user root --ssh-key "$CL_KEY" --ssh-known-hosts "$CL_KNOWN_HOSTS" \
		--remote-hcclctl "$2" -b 1K -e 1K
	finish "$1"
	MS=$(($(now_ms) - _t0))
}
launch_1k healthy "$HCCLCTL"
base=$MS
check_rc 0 "the same launch, healthy: exit 0"
launch_1k nostart "$TMP/hc"
ms=$MS
check_rc 3 "a rank that cannot start (hcclctl missing on node 2): exit 3"
err_has nostart "hcclctl: verdict: config: rank 1 on 10.77.0.2 could not start: hcclctl not found there (exit 127)"
_report $? "  the verdict names the rank, the node and the fix" "$ERR"
[ "$ms" -le $((base + BUDGET)) ]
_report $? "  within ${BUDGET} ms of a healthy launch" "$ms ms, healthy $base ms"
echo "# a rank that cannot start: named after $ms ms (a healthy launch: $base ms)"
none_left
_report $? "  nothing left on any node" "$(node_procs)"

done_testing
