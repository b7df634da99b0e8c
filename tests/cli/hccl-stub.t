#!/bin/sh
# The test stand-ins for CANN (tests/stub/): exports, stream and event semantics, every
# argument check, exact results of every collective, type and op with 1-4 ranks over root
# info and over a rank table, and each fault knob. Runs their own driver, not hcclctl.
# harness: once (it runs the stand-ins' own driver, never $HCCLCTL: cli-asan would repeat it)
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"
STUB=${STUB_DIR:-build/tests/stub}
D=$STUB/hccl_stub_driver
if [ ! -x "$D" ] || [ ! -f "$STUB/libhccl.so" ]; then
	_report 1 "the stand-ins are built ($STUB; make tests builds them)"
	done_testing
	exit
fi
unset HCCL_IF_IP HCCL_IF_BASE_PORT HCCL_CONNECT_TIMEOUT HCCL_EXEC_TIMEOUT HCCL_STUB_LOG \
	HCCL_STUB_INIT_FAIL_RANK HCCL_STUB_INIT_CODE HCCL_STUB_ERROR_RANK HCCL_STUB_ERROR_CODE \
	HCCL_STUB_ERROR_ASYNC HCCL_STUB_HANG_RANK HCCL_STUB_HANG HCCL_STUB_AT \
	HCCL_STUB_CORRUPT_RANK HCCL_STUB_CORRUPT_INDEX HCCL_STUB_DEVICE_COUNT HCCL_STUB_NO_PHYID \
	ASCEND_RT_VISIBLE_DEVICES ASCEND_VISIBLE_DEVICES

# Lines "rank 0: ok" .. "rank N-1: ok".
all_ok() {
	r=0
	while [ "$r" -lt "$1" ]; do
		echo "rank $r: ok"
		r=$((r + 1))
	done
}

# ---- exports: the CANN names only ----
run sh -c "nm -D --defined-only '$STUB/libascendcl.so' | awk '{print \$3}' | sort"
check_out "aclFinalize
aclGetRecentErrMsg
aclInit
aclStubPhyDevId
aclStubTaskFail
aclrtCreateEvent
aclrtCreateStream
aclrtDestroyEvent
aclrtDestroyStream
aclrtEventElapsedTime
aclrtFree
aclrtGetDevice
aclrtGetDeviceCount
aclrtGetPhyDevIdByLogicDevId
aclrtGetVersion
aclrtLaunchCallback
aclrtMalloc
aclrtMemGetAddressRange
aclrtMemcpy
aclrtMemset
aclrtPointerGetAttributes
aclrtQueryEventStatus
aclrtRecordEvent
aclrtResetDevice
aclrtSetDevice
aclrtSynchronizeEvent
aclrtSynchronizeStream
aclrtSynchronizeStreamWithTimeout" "libascendcl.so exports the acl names and nothing else"
run sh -c "nm -D --defined-only '$STUB/libhccl.so' | awk '{print \$3}' | sort"
check_out "HcclAllGather
HcclAllReduce
HcclAlltoAll
HcclBarrier
HcclBroadcast
HcclCommDestroy
HcclCommInitClusterInfo
HcclCommInitRootInfo
HcclGetCommAsyncError
HcclGetErrorString
HcclGetRankId
HcclGetRankSize
HcclGetRootInfo
HcclRecv
HcclReduceScatter
HcclSend" "libhccl.so exports the Hccl names and nothing else (its rank-table parser stays local)"
run sh -c "nm -D --undefined-only '$STUB/libhccl.so' | grep -c ' rt_\| comm_'"
check_out "0" "libhccl.so needs no hcclctl symbol from outside"

# ---- the fake install ----
run cat "$STUB/ascend/version.info"
check_out "Version=1.0.0
version_dir=hcclctl-test-stub" "ascend/version.info gives the stand-in's version"
ok "cmp '$STUB/libhccl.so' '$STUB/ascend/lib64/libhccl.so' && cmp '$STUB/libascendcl.so' '$STUB/ascend/lib64/libascendcl.so'" \
	"ascend/lib64 holds the same two libraries"
ok "cmp '$STUB/version.info' '$STUB/ascend/version.info'" "version.info beside the libraries too"

# ---- streams and events ----
run "$D" stream
check_rc 0 "stream: exit 0"
check_out "aclrtGetVersion(&maj, &min, &pat) = 0
version 1.0.0
aclrtGetDeviceCount(&count) = 0
devices 8
aclInit(NULL) = 0
aclrtSetDevice(3) = 0
aclrtCreateStream(&st) = 0
aclrtCreateEvent(&a) = 0
aclrtCreateEvent(&b) = 0
aclrtCreateEvent(&never) = 0
aclrtEventElapsedTime(&ms, a, b) = 107006
aclrtRecordEvent(a, st) = 0
aclrtLaunchCallback(nap, (void *)(intptr_t)300, ACL_CALLBACK_BLOCK, st) = 0
aclrtRecordEvent(b, st) = 0
aclrtQueryEventStatus(b, &s) = 0
end event before sync: not ready
aclrtEventElapsedTime(&ms, a, b) = 507006
aclrtSynchronizeStreamWithTimeout(st, 50) = 507046
aclrtSynchronizeEvent(b) = 0
aclrtQueryEventStatus(b, &s) = 0
end event after sync: complete
aclrtEventElapsedTime(&ms, a, b) = 0
elapsed 300 ms nap: in [299, 1500)
aclrtEventElapsedTime(&ms, b, a) = 107007
aclrtEventElapsedTime(&ms, a, never) = 107006
aclrtSynchronizeStream(st) = 0
order 1 2 3 4 5 (5 tasks)
aclrtLaunchCallback(fail_task, NULL, ACL_CALLBACK_BLOCK, st) = 0
aclrtLaunchCallback(note, (void *)(intptr_t)6, ACL_CALLBACK_BLOCK, st) = 0
aclrtRecordEvent(a, st) = 0
aclrtSynchronizeStream(st) = 507018
aclrtSynchronizeStream(st) = 507018
aclrtSynchronizeEvent(a) = 507018
tasks after the failure ran: 0
aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, st) = 100000
aclrtLaunchCallback(note, NULL, (aclrtCallbackBlockType)5, st) = 100000
aclrtDestroyEvent(a) = 0
aclrtDestroyEvent(a) = 100000
aclrtDestroyEvent(b) = 0
aclrtDestroyEvent(never) = 0
aclrtDestroyStream(st) = 0
aclrtResetDevice(3) = 0
aclFinalize() = 0" "stream: asynchronous, in order, timed by events, poisoned by a failed task"
check_err "" "stream: nothing on stderr"

run env HCCL_STUB_DEVICE_COUNT=0 "$D" run -n 1 -c barrier -d int8
check_out "rank 0: aclrtSetDevice(me) = 207004" "HCCL_STUB_DEVICE_COUNT=0: no device"

# ---- every argument check ----
run "$D" args
check_rc 0 "args: exit 0"
check_out "aclFinalize() = 100001
aclInit(NULL) = 0
aclInit(NULL) = 100002
aclrtGetDevice(&dev) = 107002
aclrtCreateStream(&st) = 107002
aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST) = 107002
aclrtSetDevice(8) = 107001
aclrtSetDevice(-1) = 107001
aclrtSetDevice(0) = 0
aclrtMalloc(&d, 0, ACL_MEM_MALLOC_HUGE_FIRST) = 100000
aclrtMalloc(NULL, 64, ACL_MEM_MALLOC_HUGE_FIRST) = 100000
aclrtMalloc(&d, 64, (aclrtMemMallocPolicy)9) = 100000
aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST) = 0
aclrtMalloc(&d2, 64, ACL_MEM_MALLOC_NORMAL_ONLY) = 0
aclrtMemcpy(d, 64, host, 64, ACL_MEMCPY_DEVICE_TO_HOST) = 107000
aclrtMemcpy(host, 64, d, 64, ACL_MEMCPY_HOST_TO_DEVICE) = 107000
aclrtMemcpy(d, 64, host, 65, ACL_MEMCPY_HOST_TO_DEVICE) = 100000
aclrtMemcpy(d, 128, host, 65, ACL_MEMCPY_HOST_TO_DEVICE) = 100000
aclrtMemcpy(d, 64, host, 64, (aclrtMemcpyKind)7) = 100000
aclrtMemcpy(d, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE) = 0
aclrtMemcpy(d2, 64, d, 64, ACL_MEMCPY_DEVICE_TO_DEVICE) = 0
aclrtMemcpy(host, 64, d2, 64, ACL_MEMCPY_DEFAULT) = 0
aclrtMemset(d, 64, 0, 65) = 100000
aclrtMemset(d, 64, 0, 64) = 0
aclrtMemGetAddressRange((char *)d + 10, &base, &size) = 0
range base ok 1 size 64
aclrtMemGetAddressRange(host, &base, &size) = 107000
aclrtFree((char *)d2 + 1) = 100000
aclrtFree(d2) = 0
aclrtFree(d2) = 100000
aclrtCreateStream(NULL) = 100000
aclrtCreateStream(&st) = 0
aclrtSynchronizeStreamWithTimeout(st, -2) = 100000
aclrtSynchronizeStreamWithTimeout(st, 0) = 0
aclrtSynchronizeStream(NULL) = 0
aclStubTaskFail(ACL_ERROR_RT_AICPU_EXCEPTION) = 107000
recent error: aclStubTaskFail: not on a stream
recent error again: (none)
HcclGetRootInfo(NULL) = 2
HcclCommInitRootInfo(1, NULL, 0, &comm) = 2
HcclCommInitRootInfo(1, &junk, 0, &comm) = 1
HcclGetRootInfo(&ri) = 0
HcclCommInitRootInfo(1, &ri, 1, &comm) = 1
HcclCommInitRootInfo(0, &ri, 0, &comm) = 1
HcclCommInitRootInfo(1, &ri, 0, NULL) = 2
HcclCommInitClusterInfo(NULL, 0, &comm) = 2
HcclCommInitClusterInfo(\"/nonexistent/rank_table.json\", 0, &comm) = 10
HcclCommInitRootInfo(1, &ri, 0, &comm) = 0
HcclGetRankSize(comm, &v) = 0
rank size 1
HcclGetRankId(comm, NULL) = 2
HcclGetRankSize(NULL, &v) = 2
HcclGetRankSize((HcclComm)host, &v) = 2
HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, NULL) = 2
HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, NULL, st) = 2
HcclAllReduce(NULL, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, st) = 2
HcclAllReduce(host, d, 4, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, st) = 2
HcclAllReduce(d, d, 17, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, st) = 1
HcclAllReduce(d, d, 4, (HcclDataType)99, HCCL_REDUCE_SUM, comm, st) = 1
HcclAllReduce(d, d, 4, (HcclDataType)-1, HCCL_REDUCE_SUM, comm, st) = 1
HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_FP32, (HcclReduceOp)4, comm, st) = 1
HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_FP64, HCCL_REDUCE_SUM, comm, st) = 0
HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_UINT32, HCCL_REDUCE_SUM, comm, st) = 0
HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_PROD, comm, st) = 5
HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_INT16, HCCL_REDUCE_PROD, comm, st) = 5
HcclAllReduce(d, d, 4, HCCL_DATA_TYPE_INT128, HCCL_REDUCE_MAX, comm, st) = 5
HcclAllReduce(d, d, 0, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, st) = 0
HcclAllReduce(d, d, 16, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, comm, st) = 0
HcclReduceScatter(d, d, 8, HCCL_DATA_TYPE_FP64, HCCL_REDUCE_MIN, comm, st) = 0
HcclAllGather(d, d, 8, HCCL_DATA_TYPE_FP64, comm, st) = 0
HcclAllGather(d, d, 9, HCCL_DATA_TYPE_FP64, comm, st) = 1
HcclAllGather(d, d, 4, HCCL_DATA_TYPE_INT128, comm, st) = 5
HcclBroadcast(d, 8, HCCL_DATA_TYPE_FP64, 1, comm, st) = 1
HcclBroadcast(d, 8, HCCL_DATA_TYPE_FP64, 0, comm, st) = 0
HcclAlltoAll(d, 4, HCCL_DATA_TYPE_INT32, d, 4, HCCL_DATA_TYPE_INT32, comm, st) = 1
HcclAlltoAll(d, 4, HCCL_DATA_TYPE_INT32, (char *)d + 16, 4, HCCL_DATA_TYPE_INT64, comm, st) = 1
HcclAlltoAll(d, 4, HCCL_DATA_TYPE_INT32, (char *)d + 16, 4, HCCL_DATA_TYPE_INT32, comm, st) = 0
HcclSend(d, 4, HCCL_DATA_TYPE_INT32, 0, comm, st) = 1
HcclRecv(d, 4, HCCL_DATA_TYPE_INT32, 1, comm, st) = 1
HcclBarrier(comm, st) = 0
HcclBarrier(NULL, st) = 2
aclrtSynchronizeStream(st) = 0
HcclGetCommAsyncError(comm, &ae) = 0
async error 0
HcclGetErrorString(-1) = unknown error
HcclGetErrorString(0) = success
HcclGetErrorString(7) = resource unavailable
HcclGetErrorString(9) = timeout
HcclGetErrorString(22) = error communicator suspending
HcclGetErrorString(23) = unknown error
HcclCommDestroy(comm) = 0
HcclCommDestroy(comm) = 2
aclrtDestroyStream(st) = 0
aclrtDestroyStream(st) = 100000
aclrtFree(d) = 0
aclFinalize() = 0
aclFinalize() = 100037" "args: each check gives the documented code (1 PARA, 2 PTR, 5 NOT_SUPPORT, 10 OPEN_FILE)"

# ---- exact results: every collective, type and op, 1 to 4 ranks, over root info ----
# HCCL's parameter check (Atlas A2) takes every type for a reduction but prod on int16 and bf16.
for n in 1 2 3 4; do
	for d in int8 int32 int64 fp16 bf16 fp32 fp64; do
		for op in sum prod max min; do
			for c in allreduce reducescatter; do
				run "$D" run -n "$n" -c "$c" -d "$d" -o "$op" -k 13
				case $d/$op in
				bf16/prod)
					want=$(r=0; while [ $r -lt "$n" ]; do
						echo "rank $r: call 1: $c = 5 (not support feature)"; r=$((r + 1)); done)
					check_out "$want" "$n ranks $c $d $op: HCCL_E_NOT_SUPPORT on every rank" ;;
				*) check_out "$(all_ok "$n")" "$n ranks $c $d $op: exact on every rank" ;;
				esac
			done
		done
		for c in allgather broadcast alltoall sendrecv; do
			[ "$n" -eq 1 ] && [ "$c" = sendrecv ] && continue
			run "$D" run -n "$n" -c "$c" -d "$d" -k 13 -r $((n - 1))
			check_out "$(all_ok "$n")" "$n ranks $c $d (root $((n - 1))): exact on every rank"
		done
	done
	run "$D" run -n "$n" -c barrier -d int8
	check_out "$(all_ok "$n")" "$n ranks barrier"
done
run "$D" run -n 1 -c sendrecv -d fp32
check_out "rank 0: call 1: sendrecv = 1 (parameter error)" "a world of one cannot send to itself"
for c in allreduce allgather reducescatter alltoall sendrecv; do
	run "$D" run -n 3 -c "$c" -d fp32 -o sum -k 300000
	check_out "$(all_ok 3)" "3 ranks $c of 300000 fp32 (more than a socket buffer): exact"
	run "$D" run -n 4 -c "$c" -d int8 -o max -k 1
	check_out "$(all_ok 4)" "4 ranks $c of 1 int8: exact"
done
run "$D" run -n 4 -c allreduce -d fp16 -o sum -k 1000 -i 5
check_out "$(all_ok 4)" "5 calls in a row on one communicator and stream: exact each time"

# ---- init from a rank table ----
cat >"$TMP/rt.json" <<'JSON'
{"version": "1.0", "server_count": "1", "status": "completed",
 "server_list": [{"server_id": "127.0.0.1", "device": [
  {"device_id": "0", "device_ip": "192.168.100.101", "rank_id": "0"},
  {"device_id": "1", "device_ip": "192.168.101.101", "rank_id": "1"},
  {"device_id": "2", "device_ip": "192.168.102.101", "rank_id": "2"},
  {"device_id": "3", "device_ip": "192.168.103.101", "rank_id": "3"}]}]}
JSON
for c in allreduce alltoall sendrecv broadcast; do
	run env HCCL_IF_BASE_PORT="$(free_port)" "$D" run -n 4 -c "$c" -d bf16 -o max -r 2 -t "$TMP/rt.json"
	check_out "$(all_ok 4)" "rank table: 4 ranks $c bf16 over HcclCommInitClusterInfo"
done
sed 's/"device_id": "1"/"device_id": "5"/' "$TMP/rt.json" >"$TMP/rt-dev.json"
run env HCCL_IF_BASE_PORT="$(free_port)" HCCL_CONNECT_TIMEOUT=2 "$D" run -n 2 -c allreduce -d fp32 -t "$TMP/rt-dev.json"
check_out_has "rank 1: init = 1 (parameter error)" "rank table: a rank on another device than its entry is HCCL_E_PARA"
check_out_has "rank 0: init = 9 (timeout)" "and rank 0 gives up after HCCL_CONNECT_TIMEOUT with HCCL_E_TIMEOUT"
printf '{"version": "1.0", "server_list": [' >"$TMP/rt-bad.json"
run "$D" run -n 1 -c allreduce -d fp32 -t "$TMP/rt-bad.json"
check_out "rank 0: init = 1 (parameter error)" "rank table: a table that is not JSON is HCCL_E_PARA"
run env HCCL_STUB_LOG=1 "$D" run -n 1 -c allreduce -d fp32 -t "$TMP/rt-bad.json"
check_out "rank 0: init = 1 (parameter error)" "HCCL_STUB_LOG leaves stdout alone"
ok "grep -q 'HcclCommInitClusterInfo = 1: $TMP/rt-bad.json:1:' '$TMP/err'" "and says on stderr where the table is bad"

sed 's/"device_ip": "192.168.103.101"/"device_ip": "192.168.103.102"/' "$TMP/rt.json" >"$TMP/rt-copy.json"
run env HCCL_IF_BASE_PORT="$(free_port)" HCCL_CONNECT_TIMEOUT=10 "$D" run -n 4 -c allreduce -d fp32 -t "$TMP/rt.json" -T "$TMP/rt-copy.json"
check_out "rank 0: init = 1 (parameter error)
rank 1: init = 1 (parameter error)
rank 2: init = 1 (parameter error)
rank 3: init = 1 (parameter error)" "rank table: ranks holding different copies all fail init with HCCL_E_PARA"

# ---- root info on HCCL_IF_IP ----
run env HCCL_IF_IP=127.0.0.2 HCCL_STUB_LOG=1 "$D" run -n 2 -c allreduce -d int32 -o sum
check_out "$(all_ok 2)" "HCCL_IF_IP=127.0.0.2: ranks meet there"
ok "grep -q 'HcclGetRootInfo() = 0 (hccl-stub-root/1 127.0.0.2 ' '$TMP/err'" "and the root info names 127.0.0.2"

# ---- ranks that call different operations ----
for c in allreduce allgather alltoall; do
	run "$D" run -n 4 -c "$c" -d fp32 -o sum -k 100000 -m
	check_out "rank 0: call 1: stream sync = 507018, async error 1 (parameter error)
rank 1: call 1: stream sync = 507018, async error 1 (parameter error)
rank 2: call 1: stream sync = 507018, async error 1 (parameter error)
rank 3: call 1: stream sync = 507018, async error 1 (parameter error)" \
		"$c where rank 3 has one element more: HCCL_E_PARA on every rank's stream, no hang"
done
run env HCCL_STUB_LOG=1 "$D" run -n 2 -c broadcast -d int8 -m
check_out "rank 0: ok
rank 1: call 1: stream sync = 507018, async error 1 (parameter error)" "broadcast where the receiver has one element more: the receiver fails"
ok "grep -q 'rank 1 called HcclBroadcast #0 count 6 int8 op 0 root 0, rank 0 called HcclBroadcast #0 count 5 int8 op 0 root 0' '$TMP/err'" \
	"a receiver names both calls in the trace (the root of a broadcast only sends: it cannot tell)"

# ---- devices: logical ids, physical ids, and what a container sees ----
run "$D" devices
check_out "aclrtGetDeviceCount(&n) = 0
count 8
logical 0: physical 0
logical 1: physical 1
logical 2: physical 2
logical 3: physical 3
logical 4: physical 4
logical 5: physical 5
logical 6: physical 6
logical 7: physical 7
aclrtGetPhyDevIdByLogicDevId((int32_t)n, &p) = 107001
aclrtGetPhyDevIdByLogicDevId(0, NULL) = 100000
aclrtSetDevice((int32_t)n) = 107001" "no visible-devices variable: logical i is physical i"
run env ASCEND_VISIBLE_DEVICES=4,5,6,7 "$D" devices
check_out_has "count 4
logical 0: physical 4
logical 1: physical 5
logical 2: physical 6
logical 3: physical 7
aclrtGetPhyDevIdByLogicDevId((int32_t)n, &p) = 107001" "ASCEND_VISIBLE_DEVICES=4,5,6,7: four logical devices, 0-3 being 4-7"
run env ASCEND_VISIBLE_DEVICES=4,5,6,7 ASCEND_RT_VISIBLE_DEVICES=6,2 "$D" devices
check_out_has "count 2
logical 0: physical 6
logical 1: physical 2
" "ASCEND_RT_VISIBLE_DEVICES comes first, in its own order"
run env ASCEND_VISIBLE_DEVICES=2-3,6 "$D" devices
check_out_has "count 3
logical 0: physical 2
logical 1: physical 3
logical 2: physical 6
" "ranges as device plugins write them: 2-3,6"
run env ASCEND_RT_VISIBLE_DEVICES=3,9,1 "$D" devices
check_out_has "count 1
logical 0: physical 3
" "the list ends at an id the machine does not have"
run env ASCEND_RT_VISIBLE_DEVICES=5 HCCL_STUB_NO_PHYID=1 "$D" devices
check_out_has "count 1
logical 0: aclrtGetPhyDevIdByLogicDevId = 207000" "HCCL_STUB_NO_PHYID=1: the runtime refuses the lookup"
sed 's/"device_id": "0"/"device_id": "4"/; s/"device_id": "1"/"device_id": "5"/; s/"device_id": "2"/"device_id": "6"/; s/"device_id": "3"/"device_id": "7"/' \
	"$TMP/rt.json" >"$TMP/rt-47.json"
run env ASCEND_VISIBLE_DEVICES=4,5,6,7 HCCL_STUB_NO_PHYID=1 HCCL_IF_BASE_PORT="$(free_port)" "$D" run -n 4 -c allreduce -d fp32 -t "$TMP/rt-47.json"
check_out "$(all_ok 4)" "a container seeing NPUs 4-7: logical 0-3 pass HCCL's check against the table's 4-7"
run env ASCEND_VISIBLE_DEVICES=4,5,6,7 HCCL_IF_BASE_PORT="$(free_port)" HCCL_CONNECT_TIMEOUT=2 "$D" run -n 2 -c allreduce -d fp32 -t "$TMP/rt.json"
check_out_has "rank 0: init = 1 (parameter error)" "and a table of 0-3 there is HCCL_E_PARA: HCCL compares physical ids"

# ---- fault knobs ----
run env HCCL_CONNECT_TIMEOUT=2 HCCL_STUB_INIT_FAIL_RANK=1 HCCL_STUB_INIT_CODE=7 "$D" run -n 3 -c allreduce -d fp32 -o sum
check_out "rank 0: init = 9 (timeout)
rank 1: init = 7 (resource unavailable)
rank 2: init = 9 (timeout)" "HCCL_STUB_INIT_FAIL_RANK=1 CODE=7: rank 1's init gives 7, the others time out"
run env HCCL_CONNECT_TIMEOUT=2 HCCL_STUB_INIT_FAIL_RANK=0 "$D" run -n 1 -c allreduce -d fp32 -o sum
check_out "rank 0: init = 4 (internal error)" "HCCL_STUB_INIT_CODE defaults to HCCL_E_INTERNAL"

run env HCCL_EXEC_TIMEOUT=5 HCCL_STUB_ERROR_RANK=2 HCCL_STUB_ERROR_CODE=9 HCCL_STUB_AT=2 "$D" run -n 3 -c allreduce -d fp32 -o sum -i 3
check_out_has "rank 2: call 2: allreduce = 9 (timeout)" "HCCL_STUB_ERROR_RANK=2 AT=2: rank 2's second call returns the code"
ok "[ \$(grep -c '^rank [01]: call 2: stream sync = 507018, async error 13 (tcp transfer fail)\$' '$TMP/out') -eq 2 ]" \
	"and its peers' second call fails on the stream once rank 2 is gone"

run env HCCL_EXEC_TIMEOUT=5 HCCL_STUB_ERROR_RANK=1 HCCL_STUB_ERROR_ASYNC=1 HCCL_STUB_ERROR_CODE=21 "$D" run -n 3 -c allgather -d int8
check_out_has "rank 1: call 1: stream sync = 507018, async error 21 (error cqe)" \
	"HCCL_STUB_ERROR_ASYNC=1: the call succeeds, sync gives 507018 and HcclGetCommAsyncError the code"

run env HCCL_STUB_HANG_RANK=1 "$D" run -n 3 -c allreduce -d fp16 -o max -s 1000
check_out "rank 0: ok
rank 1: call 1: stream sync = 507046, async error 0 (success)
rank 2: ok" "HCCL_STUB_HANG=after (default): the peers complete, rank 1's stream never does"
run env HCCL_EXEC_TIMEOUT=2 HCCL_STUB_HANG_RANK=0 HCCL_STUB_HANG=before "$D" run -n 3 -c broadcast -d fp16 -s 5000
check_out "rank 0: call 1: stream sync = 507046, async error 0 (success)
rank 1: call 1: stream sync = 507048, async error 0 (success)
rank 2: call 1: stream sync = 507048, async error 0 (success)" \
	"HCCL_STUB_HANG=before: every peer stalls until HCCL_EXEC_TIMEOUT, then its stream gives 507048 (no async error)"
run env HCCL_STUB_HANG_RANK=2 HCCL_STUB_AT=3 "$D" run -n 3 -c alltoall -d int32 -i 3 -s 1000
check_out "rank 0: ok
rank 1: ok
rank 2: call 3: stream sync = 507046, async error 0 (success)" "HCCL_STUB_AT=3: the hang is in the third call"

run env HCCL_STUB_CORRUPT_RANK=2 HCCL_STUB_AT=2 HCCL_STUB_CORRUPT_INDEX=3 "$D" run -n 3 -c allreduce -d bf16 -o sum -i 2
check_out "rank 0: ok
rank 1: ok
rank 2: call 2: 1 wrong, first at 3: got 13 want 6" "HCCL_STUB_CORRUPT_RANK=2 AT=2 INDEX=3: one element of rank 2's second result"
run env HCCL_STUB_CORRUPT_RANK=0 "$D" run -n 2 -c allgather -d int8 -k 4
check_out "rank 0: call 1: 1 wrong, first at 0: got 2 want 1
rank 1: ok" "HCCL_STUB_CORRUPT_INDEX defaults to 0; integers change by one"
run env HCCL_STUB_CORRUPT_RANK=1 HCCL_STUB_CORRUPT_INDEX=99 "$D" run -n 2 -c reducescatter -d fp64 -o max -k 4
check_out "rank 0: ok
rank 1: call 1: 1 wrong, first at 3: got 7 want 3" "fp64 reducescatter passes HCCL's check; the knob corrupts it"
run env HCCL_STUB_CORRUPT_RANK=1 HCCL_STUB_CORRUPT_INDEX=99 "$D" run -n 2 -c broadcast -d fp64 -k 4
check_out "rank 0: ok
rank 1: call 1: 1 wrong, first at 3: got 9 want 4" "an index past the result is the last element"

run env HCCL_STUB_AT=x "$D" run -n 1 -c allreduce -d fp32 -o sum
check_out "rank 0: init = 1 (parameter error)" "a knob that is not a number fails init with HCCL_E_PARA"
run env HCCL_STUB_HANG=sideways "$D" run -n 1 -c allreduce -d fp32 -o sum
check_out "rank 0: init = 1 (parameter error)" "HCCL_STUB_HANG takes after or before"

done_testing
