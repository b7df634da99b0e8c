#!/bin/sh
# doctor --logs on the multi-node bundles of MindCluster's fault diagnosis system tests
# (tests/data/ascend-fd-st, README there): the root worker and device its own test asserts,
# and the chain of waits that leads there, in --json and in text.
. tests/cli/lib.sh

ST=tests/data/ascend-fd-st

# prints "root=A, B|chain=X -> Y|node=N|devices=D|exit" from a --json document on stdin
cat >"$TMP/root.py" <<'EOF'
import json, sys
try:
    doc = json.loads(sys.stdin.read())
except ValueError as e:
    print("not JSON: %s" % e)
    sys.exit(0)
c = doc.get('cause') or {}
root = ', '.join(h['name'] for h in c.get('root') or [])
chain = ' -> '.join(h['name'] for h in c.get('chain') or [])
devs = ','.join(str(d) for d in c.get('devices') or [])
print("root=%s|chain=%s|node=%s|devices=%s|kind=%s" %
      (root, chain, c.get('node'), devs, c.get('kind')))
EOF

# SCRIPT DIR EXPECTED NAME: the verdict on DIR, as SCRIPT prints it from --json, and exit 2
check_with() {
	run hcclctl --json doctor --logs "$2"
	got=$(printf '%s' "$OUT" | python3 "$TMP/$1")
	[ "$got" = "$3" ] && [ "$RC" -eq 2 ]
	_report $? "$4: $3" "got $got, exit $RC"
}

# bundle  expected (root|chain|node|devices|kind)
check_bundle() { check_with root.py "$ST/$1" "$2" "$1"; }

# worker-0 device-2 -> worker-1 device-2 (socket) -> worker-1 device-0 (socket) -> worker-1
# device-1 (P2P): every device of worker-1 waits for device 1, whose log waits for no one
check_bundle st_transport_timeout_testcase \
	"root=worker-1 dev 1|chain=worker-0 dev 2 -> worker-1 dev 2 -> worker-1 dev 0 -> worker-1 dev 1|node=worker-1|devices=1|kind=rank-stuck"
# the AI CPU's NOTIFY WAIT on worker-1 device 3 waits for rank 0 of its group: device 11 of
# worker-0 (hcclCommInitInfo of that group), where an SDMA task failed
check_bundle st_aicpu_notify_testcase \
	"root=worker-0 dev 11|chain=worker-1 dev 3 -> worker-0 dev 11|node=worker-0|devices=11|kind=rank-stuck"
# rank 0 and rank 1 wait on each other; rank 2's row names a rank 3 a job of 3 ranks has not
check_bundle st_event_timeout_testcase \
	"root=worker-1 dev 0, worker-0 dev 0|chain=worker-1 dev 0 -> worker-0 dev 0 -> worker-1 dev 0|node=worker-1|devices=0|kind=op-mismatch"
# one worker alone: its device 0 waits for 124.0.0.21, whose log is not here
check_bundle st_event_timeout_testcase/worker-1 \
	"root=124.0.0.21|chain=worker-1 dev 0 -> 124.0.0.21|node=None|devices=|kind=rank-stuck"
# transport init: worker-2 device 2 waits for server 2.2.2.2 device 1 (worker-1), which waits
# for 1.1.1.1 device 0 (worker-0); the file names' pids tie the debug plogs to the run plogs
check_bundle st_transport_init_testcase \
	"root=worker-0 dev 0|chain=worker-2 dev 2 -> worker-1 dev 1 -> worker-0 dev 0|node=worker-0|devices=0|kind=rank-stuck"
# a wait for a server without a device id: the root is that server, device unknown
check_bundle st_transport_init_testcase/worker-3 \
	"root=2.2.2.2|chain=worker-3 dev 2 -> 2.2.2.2|node=None|devices=|kind=rank-stuck"
# ModelArts' layout: the job folder is the worker its environment check names; ascend-fd
# asserts only the worker. The runtime's "sdma error" names no kind, so the heartbeat's error
# CQE (status 12) a line before it is the cause
check_bundle st_testcase "root=|chain=|node=worker-0|devices=|kind=link-down"

# the text report shows the chain and the root
run hcclctl doctor --logs "$ST/st_transport_timeout_testcase"
check_out_has "waits: worker-0 dev 2 -> worker-1 dev 2 -> worker-1 dev 0 -> worker-1 dev 1" \
	"text: the chain"
check_out_has "root: worker-1 dev 1" "text: the root"
run hcclctl doctor --logs "$ST/st_event_timeout_testcase"
check_out_has "root: worker-1 dev 0 worker-0 dev 0" "text: both members of a cycle"
run hcclctl doctor --logs "$ST/st_event_timeout_testcase/worker-1"
check_out_has "root: 124.0.0.21 (no log)" "text: a root whose log is absent says so"

# a rank whose own log is here (it states its device and rank, not the one it waits for) is
# never called absent
run hcclctl doctor --logs "$ST/st_transport_timeout_testcase"
check_out_lacks "never started" "transport timeout: no rank 'never started'"


# the task exception handler's reports of one collective (rc_diag, a worker's plogs), in the
# release that writes "Task run failed, base information is ..., taskType[Notify Wait],
# tag[...], index[N]", "... para information is ... remote rank:[N]" and "... groupRank
# information is group:[G], rankSize[4], rankId[N]": compared across the ranks before their
# waits are followed
RC_DIAG=$ST/st_module_testcase/rc_diag
# prints "kind|detail|rank|device" from a --json document on stdin
cat >"$TMP/kind.py" <<'EOF2'
import json, sys
c = json.loads(sys.stdin.read()).get('cause') or {}
print("%s|%s|%s|%s" % (c.get('kind'), c.get('detail'), c.get('rank'), c.get('device')))
EOF2
check_task() { check_with kind.py "$RC_DIAG/$1" "$2" "$1"; }
# rank 1 (device 1) reports index[2] where ranks 0, 2 and 3 report index[3]: it fell behind
check_task rc_122 "rank-stuck|behind|1|1"
# rank 1 reports AllRing where ranks 0, 2 and 3 report AllReduce, at one index: the odd one
# out, named with the device its communicator's set-up line gives
check_task rc_123 "op-mismatch|different-ops|1|1"
run hcclctl doctor --logs "$RC_DIAG/rc_122"
check_out_contains "rank 1 of group 10.136.181.175%enp179s0f0_60000_0_1712529353144 (node w_1) was at task 2 of Alleduce when it timed out, while the other ranks had got to task 3 of AllReduce" \
	"text: the task the rank behind was at, and the others'"
# rank 0 waits on rank 1, rank 1 on rank 2, and rank 2 on its own stream ("remote
# rank:[local]"): the waits end at rank 2
check_task rc_remote_local "rank-stuck|root-device|2|2"

done_testing
