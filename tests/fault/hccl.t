# Faults under `run --engine hccl`, on the test stand-ins for CANN (tests/stub): a rank killed
# or frozen while its HCCL collective is outstanding is named by the side channel's
# heartbeats within the budget (5 s), with the device and plog directory of the culprit in the
# survivors' lines; a rank stuck in HCCL is named within HCCLCTL_HCCL_STALL; and no process is
# left. Times to the verdict are printed as comments for the notes.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

STUB=$(pwd)/build/tests/stub
BUDGET=5000
if [ ! -f "$STUB/libhccl.so" ]; then
	skip "the test libraries are not built ($STUB): run make tests"
	done_testing
	exit 0
fi
export LD_LIBRARY_PATH="$STUB"
export ASCEND_PROCESS_LOG_PATH="$TMP/plog"
err_has() { grep -qF -- "$2" "$TMP/$1.err"; }

# Rank 2 hangs inside its third collective for good; the stall limit is far away, so what
# ends the job is the fault injected below, not the stall judgement.
hung_run() {
	_nm=$1
	shift
	bg_run "$_nm" env HCCL_STUB_HANG_RANK=2 HCCL_STUB_AT=3 HCCLCTL_HCCL_STALL=600 \
		"$HCCLCTL" run allreduce --local 4 --engine hccl -b 64K -e 64K -n 4 -w 1 --timeout 60 "$@"
}

# ---- kill -9 of the rank stuck in HCCL ----
hung_run kill
L=$BG
wait_for "$TMP/kill.out" "# hcclctl run allreduce" 10000 >/dev/null
sleep 1
victim=$(child_rank "$L" 2)
ok_victim=$?
others=$(for r in 0 1 3; do child_rank "$L" $r; done)
kill -KILL "$victim"
ms=$(wait_for "$TMP/kill.err" "hcclctl: verdict: dead-rank: rank 2 (host " 8000)
[ "$ok_victim" -eq 0 ] && [ "$ms" -le $BUDGET ]
_report $? "SIGKILL of rank 2 inside HCCL: verdict dead-rank naming rank 2 within ${BUDGET} ms" \
	"after $ms ms" "$(cat "$TMP/kill.err")"
echo "# dead-rank (SIGKILL) under --engine hccl: verdict after $ms ms"
wait_gone "$L" 10000
_report $? "  the launcher ends"
wait "$L"
RC=$?
ERR=$(cat "$TMP/kill.err")
check_rc 2 "  exit 2"
err_has kill "; rank 2 was on device 2 of $(hostname), in HcclAllReduce; its plog: $TMP/plog"
_report $? "  a survivor's line says where rank 2's device and plogs are" "$ERR"
# shellcheck disable=SC2086
all_gone 3000 $others
_report $? "  no rank process left, though their HCCL threads were waiting on rank 2" "$others"

# ---- SIGSTOP of a rank whose peers wait in HCCL ----
hung_run stop --json
L=$BG
sleep 1.5
victim=$(child_rank "$L" 1)
others=$(for r in 0 2 3; do child_rank "$L" $r; done)
kill -STOP "$victim"
ms=$(wait_for "$TMP/stop.err" "hcclctl: verdict: stuck-rank: rank 1 (host " 8000)
[ "$ms" -le $BUDGET ]
_report $? "SIGSTOP of rank 1: stuck-rank naming rank 1 within ${BUDGET} ms" "after $ms ms" \
	"$(cat "$TMP/stop.err")"
echo "# stuck-rank (SIGSTOP) under --engine hccl: verdict after $ms ms"
wait_gone "$L" 10000
_report $? "  the launcher ends (it kills the frozen rank)"
wait "$L"
RC=$?
check_rc 2 "  exit 2"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["verdict"]["kind"] == "stuck-rank" and d["verdict"]["rank"] == 1, d
assert d["exit_code"] == 2, d' "$TMP/stop.out"
_report $? "  --json: one document, the verdict names rank 1" "$(cat "$TMP/stop.out")"
kill -CONT "$victim" 2>/dev/null
# shellcheck disable=SC2086
all_gone 3000 $others $victim
_report $? "  no rank process left" "$others $victim"

# ---- nothing injected but the hang: the stall judgement names rank 2 ----
t0=$(now_ms)
run env HCCL_STUB_HANG_RANK=2 HCCL_STUB_AT=3 HCCLCTL_HCCL_STALL=3 \
	"$HCCLCTL" run allreduce --local 4 --engine hccl -b 64K -e 64K -n 4 -w 1 --timeout 60
ms=$(($(now_ms) - t0))
check_rc 2 "rank 2 stuck in HCCL, the others further on: exit 2"
printf '%s\n' "$ERR" | grep -Eqx "hcclctl: verdict: stuck-rank: rank 2 \(server $(hostname), device 2\) stuck in HcclAllReduce: no progress for 3\.[0-9] s while the other ranks got further and wait on it; its plog: $TMP/plog"
_report $? "  the verdict names rank 2, its device, the call and how long" "$ERR"
[ "$ms" -le 6000 ]
_report $? "  the run ends within 3 s of the stall limit (after $ms ms)"
echo "# stuck in HCCL (stall limit 3 s): the run ended after $ms ms"

done_testing
