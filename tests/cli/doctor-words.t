#!/bin/sh
# doctor --logs on lines of a format no rule knows: the family is read from the words of the
# line (a connection that timed out, a crash), the verdict says so and quotes the line, with
# the values the line names; a line of no family stays a warning that quotes it.
. "$(dirname "$0")/lib.sh"

# the fields of the --json verdict's cause in $OUT, space-separated, into $OUT: read by the
# tests' own JSON reader where it is built (make stub), else by Python, which prints the same
JFIELD=$(pwd)/build/tests/tools/jfield
cause() {
	if [ -x "$JFIELD" ]; then
		OUT=$("$JFIELD" cause "$@" <<EOF
$OUT
EOF
)
	else
		OUT=$(printf '%s' "$OUT" | python3 -c 'import json,sys; c=json.load(sys.stdin)["cause"]
print(" ".join(str(c.get(k)) for k in sys.argv[1:]))' "$@")
	fi
}

# the cause's FIELDS of the lines given are WANT: cause_is FIELDS WANT MESSAGE LINE...
# Each case is a job of its own, judged with the others in one run at the end (cause_flush:
# doctor --each reads each file alone, as one run for each would): a process a case was
# most of this test's time under ASan.
_cw=0
mkdir "$TMP/cw"
cause_is() {
	_cw=$((_cw + 1))
	printf '%s\t%s\n' "$_cw" "$1" >>"$TMP/cw/list"
	printf '%s' "$2" >"$TMP/cw/$_cw.want"
	printf '%s' "$3" >"$TMP/cw/$_cw.msg"
	shift 3
	CI_LOG=$TMP/cw/$_cw.log # the last case's file, for a check of its text report
	printf '%s\n' "$@" >"$CI_LOG"
}

# the exit code of FILE's verdict is RC: exit_is RC MESSAGE FILE; FILE is copied (the same
# name is often written again for the next case) and judged with the others at the end
exit_is() {
	_cw=$((_cw + 1))
	printf '%s\t@exit\n' "$_cw" >>"$TMP/cw/list"
	printf '%s' "$1" >"$TMP/cw/$_cw.want"
	printf '%s' "$2" >"$TMP/cw/$_cw.msg"
	cp "$3" "$TMP/cw/$_cw.log"
}

# the checks of every cause_is and exit_is, from one --each run: its jobs in the order of the list
cause_flush() {
	_i=0
	set --
	while [ "$_i" -lt "$_cw" ]; do
		_i=$((_i + 1))
		set -- "$@" "$TMP/cw/$_i.log"
	done
	run "$HCCLCTL" --json doctor --each --logs "$@"
	printf '%s' "$OUT" >"$TMP/cw/each.json"
	python3 -c 'import json, sys
jobs = json.load(open(sys.argv[1]))["jobs"]
for row in open(sys.argv[2]):
    n, fields = row.rstrip("\n").split("\t")
    j = jobs[int(n) - 1]
    c = j["cause"] or {}
    got = j["exit_code"] if fields == "@exit" else " ".join(str(c.get(k)) for k in fields.split())
    ok = j["logs"]["path"].endswith("/%s.log" % n)
    print("%s\t%s\t%s" % (n, fields, got if ok else "(the report of %s)" % j["logs"]["path"]))' \
		"$TMP/cw/each.json" "$TMP/cw/list" >"$TMP/cw/got" 2>"$TMP/cw/err"
	[ "$(grep -c '' "$TMP/cw/got")" -eq "$_cw" ]
	_report $? "every case judged, in one run ($_cw)" "$(cat "$TMP/cw/err")"
	while IFS='	' read -r _i _f OUT; do
		slurp "$TMP/cw/$_i.want" _w
		slurp "$TMP/cw/$_i.msg" _m
		if [ "$_f" = @exit ]; then
			[ "$OUT" = "$_w" ]
			_report $? "$_m" "expected exit $_w, got $OUT"
		else
			check_out "$_w" "$_m"
		fi
	done <"$TMP/cw/got"
}

printf '%s\n' '2031-01-05 10:00:00 [trainer] starting step 1' \
	'2031-01-05 10:00:01 [trainer] FATAL: rendezvous: connect to 10.9.0.4:7000 timed out' >"$TMP/a.log"
run "$HCCLCTL" --json doctor --logs "$TMP/a.log"
check_rc 2 "a connection that timed out, in a format no rule knows: exit 2"
cause kind detail ip port node
check_out "network-unreachable words:connect-timeout 10.9.0.4 7000 node0" \
	"  the network's family, read from its words, with the address and port the line points at"

printf '%s\n' 'job 7: rank 3: connection refused' 'worker 3: Segmentation fault (core dumped)' \
	'job 7: waiting for rank 3 timed out' >"$TMP/b.log"
run "$HCCLCTL" doctor --logs "$TMP/b.log"
check_rc 2 "a crash among the errors: exit 2"
printf '%s\n' "$OUT" | grep -q '^FAIL  logs.cause .*unresolved (words:crash): a process crashed on node node0 (read from the words of b.log:2'
_report $? "  the crash outranks the refused connection and the timeout it explains" "$OUT"

printf '%s\n' '[ ERROR    ] Child 0 reports failure' >"$TMP/c.log"
run "$HCCLCTL" doctor --logs "$TMP/c.log"
check_rc 1 "an error line of no family: a warning (exit 1), never a pass"
printf '%s\n' "$OUT" | grep -q 'unresolved (unclassified): unclassified error line at c.log:1'
_report $? "  it quotes the line as unclassified" "$OUT"

# words that say the process gave up (MPICH's lines, verbatim): the job failed, whatever the
# cause; a failure of unknown cause (exit 2), not a warning
for l in 'Fatal error in MPI_Init: Other MPI error, error stack:' \
	'Abort(204069007): Fatal error in internal_Init_thread: Other MPI error, error stack:'; do
	printf '%s\n' 'step 1' "$l" >"$TMP/c2.log"
	run "$HCCLCTL" doctor --logs "$TMP/c2.log"
	check_rc 2 "a fatal error line of no other family: exit 2 (${l%%:*})"
	printf '%s\n' "$OUT" | grep -q '^FAIL  logs.cause .*unresolved (words:fatal): a process stopped on a fatal error on node node0 (read from the words of c2.log:2'
	_report $? "  the fatal family, quoting the line" "$OUT"
done

# the address and port the line points at: the other end's where the line says which end is
# which, not its own socket's that comes first
printf '%s\n' 'worker: read from peer (local 10.0.0.1:4000, remote 10.0.0.7:5000) timed out' >"$TMP/d.log"
run "$HCCLCTL" --json doctor --logs "$TMP/d.log"
check_rc 2 "a read that timed out: exit 2"
cause detail ip port
check_out "words:timeout 10.0.0.7 5000" "  the remote end's address and port, not the local one's"

# a failure code nothing explains, and an error line under it whose words say why: the words
# decide, the code's line stays as evidence, its device is kept
printf '%s\n' 'RuntimeError: call aclnnFoo failed, error code is 561002' \
	'[ERROR] 2031-01-05-10:00:00 (PID:7, Device:2, RankID:-1) ERR00100 PTA call acl api failed.' \
	'EZ9999: Inner Error!' \
	'EZ9999[PID: 7] 2031-01-05-10:00:00.000.000 (EZ9999):  HCCL_BUFFSIZE is too SMALL, need 600 MB' >"$TMP/e.log"
run "$HCCLCTL" --json doctor --logs "$TMP/e.log"
check_rc 2 "a failure code with a setting's bound under it: exit 2"
printf '%s' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); c=d["cause"]
ev=[e["line"] for e in d["evidence"]]
print(c["kind"], c["detail"], c["device"], ev[0], all(n < 4 for n in ev[1:]) and len(ev) > 1)' >"$TMP/got"
OUT=$(cat "$TMP/got")
check_out "config words:setting 2 4 True" "  the setting's line decides; the code's line and device stay"

# a traceback frame its writer logged at an error level, without the traceback's heading or
# its exception (an excerpt): a process failed, never a pass
printf '%s\n' '(Worker pid=7) ERROR 07-08 18:17:44 [executor.py:527]   File "/w/runner.py", line 1459, in step' >"$TMP/f.log"
run "$HCCLCTL" doctor --logs "$TMP/f.log"
check_rc 2 "an error-level traceback frame alone: exit 2"
printf '%s\n' "$OUT" | grep -q '^FAIL  logs.cause .*unresolved (words:exception): a process raised an exception on node node0 (read from the words of f.log:1'
_report $? "  it says a process raised an exception and quotes the frame" "$OUT"

# a rank table printed into a job's log whose address field holds no address: config, the
# field and its value named; the same table with addresses (or an empty one) passes
printf '%s\n' 'INFO - Saved rank table:' '    "device": [' '        {' '            "device_id": "0",' \
	'            "device_ip": "n/a",' '            "rank_id": "0"' '        }' >"$TMP/g.log"
run "$HCCLCTL" doctor --logs "$TMP/g.log"
check_rc 2 "a rank table's device_ip that is no address: exit 2"
printf '%s\n' "$OUT" | grep -q '^FAIL  logs.cause .*config (device-ip): device_ip "n/a" in the rank table is not an IP address, on node node0'
_report $? "  the field and its value are named" "$OUT"
mkdir "$TMP/g2"
sed 's|"n/a"|"10.0.0.8"|' "$TMP/g.log" >"$TMP/g2/a.log"
sed 's|"n/a"|""|' "$TMP/g.log" >"$TMP/g2/b.log"
run "$HCCLCTL" doctor --logs "$TMP/g2"
check_rc 0 "  an address, and an empty field, are no finding: exit 0"

# a service answering with an HTTP error, at no level: a failure, never a pass
printf '%s\n' '[2031-01-05 10:00:00] [7] [server] [Response, uri is /v1/chat] [status code: 503]' >"$TMP/h.log"
run "$HCCLCTL" --json doctor --logs "$TMP/h.log"
check_rc 2 "HTTP 503 answers: exit 2"
printf '%s' "$OUT" | python3 -c 'import json,sys; c=json.load(sys.stdin)["cause"]; print(c["kind"], c["detail"])' >"$TMP/got"
OUT=$(cat "$TMP/got")
check_out "unresolved words:http-error" "  read as a failed request"

# an address whose host is empty (the variable that held it was not set): config, its port
printf '%s\n' 'E 10:00:00 client.cc:12] Failed to connect to the store at address :29400 within 5 seconds.' >"$TMP/i.log"
run "$HCCLCTL" --json doctor --logs "$TMP/i.log"
check_rc 2 "a connection to an address with no host: exit 2"
printf '%s' "$OUT" | python3 -c 'import json,sys; c=json.load(sys.stdin)["cause"]; print(c["kind"], c["detail"], c["port"])' >"$TMP/got"
OUT=$(cat "$TMP/got")
check_out "config words:empty-host 29400" "  config, with the port"

# a generic failure whose detail is printed right under it (NCCL's "Last error:"): the address
# and port it was about are the detail line's
printf '%s\n' 'torch.distributed.DistBackendError: NCCL error in: x.cpp:275, unhandled system error (run with NCCL_DEBUG=INFO for details), NCCL version 2.20.5' \
	'ncclSystemError: System call (e.g. socket, malloc) or external library call failed or device error.' \
	'Last error:' \
	'socketStartConnect: Connect to 10.1.2.3<41000> failed : Software caused connection abort' >"$TMP/g.log"
run "$HCCLCTL" --json doctor --logs "$TMP/g.log"
check_rc 2 "a generic NCCL failure with its detail under it: exit 2"
cause kind ip port
check_out "network-unreachable 10.1.2.3 41000" "  the address and port of the detail line under it"

# a runtime call that gave a timeout code: the echo of a peer that did not keep up
printf '%s\n' '(Worker pid=7) ERROR 06-12 09:47:56 [worker_base.py:620] RuntimeError: ACL stream synchronize failed, error code:507048' >"$TMP/h.log"
run "$HCCLCTL" --json doctor --logs "$TMP/h.log"
check_rc 2 "an ACL timeout code: exit 2"
cause kind
check_out "rank-stuck" "  a timeout code is a rank that fell behind, not an exception"

# a connection that went away, in words no rule knows
printf '%s\n' 'ORTE has lost communication with a remote daemon.' >"$TMP/i.log"
run "$HCCLCTL" --json doctor --logs "$TMP/i.log"
check_rc 2 "a lost connection: exit 2"
cause kind detail
check_out "network-unreachable words:connection-lost" "  the network's family, read from its words"

# a cause the knowledge base names on a Python exception, and the device in the header of the
# error code line under it, written by the same process
printf '%s\n' 'RuntimeError: Expected all tensors to be on the same device. Expected NPU tensor, please check whether the input tensor device is correct.' \
	'[ERROR] 2031-01-05-10:00:00 (PID:53741, Device:3, RankID:-1) ERR01002 OPS invalid type' >"$TMP/j.log"
run "$HCCLCTL" --json doctor --logs "$TMP/j.log"
check_rc 2 "a cause of the knowledge base: exit 2"
cause kind device
check_out "config 3" "  the device of the error code line it explains"

# a peer that closed its connection, named by address and port: the cause is the process there
printf '%s\n' '(Worker pid=459) ERROR 12-18 08:52:14 [executor.py:822] RuntimeError: [/pytorch/third_party/gloo/gloo/transport/tcp/pair.cc:544] Connection closed by peer [10.7.7.3]:39056' >"$TMP/k.log"
run "$HCCLCTL" --json doctor --logs "$TMP/k.log"
check_rc 2 "a peer that closed its connection: exit 2"
printf '%s' "$OUT" | python3 -c 'import json,sys; c=json.load(sys.stdin)["cause"]
print(c["kind"], c["ip"], c["port"], "the peer at 10.7.7.3 port 39056" in c["message"])' >"$TMP/got"
OUT=$(cat "$TMP/got")
check_out "rank-stuck 10.7.7.3 39056 True" "  the peer's address and port, named in the cause"

# the NPU NIC's health check, as hccn_tool prints it: a failure unless it says Success
printf '%s\n' 'net health status: Fault' >"$TMP/l.log"
exit_is 2 "hccn_tool's net health Fault: exit 2, never a pass" "$TMP/l.log"
printf '%s\n' 'net health status: Success' >"$TMP/m.log"
run "$HCCLCTL" doctor --logs "$TMP/m.log"
check_rc 0 "hccn_tool's net health Success: a pass"
check_out_has "PASS  logs.cause      cluster                no error in 1 line of 1 file" \
	"  one line, one file: counted in the singular"
check_out_has "read 1 file, 1 line, 0 error lines" "  and in the summary"

# one warning is "1 warning"
run "$HCCLCTL" doctor --logs "$TMP/c.log"
check_out_has "0 passed, 1 warning, 0 failed, 0 skipped on 1 node" "  one warning, in the singular"

# a line of a device's log, as grep prints it with its path: the device is the folder's
printf '%s\n' '/hisi_logs/device-2/2024/bbox/kbox.txt:2020[2454.830701] {6}[Hardware Error]  error_type: 3, multi-bit ECC' >"$TMP/n.log"
run "$HCCLCTL" --json doctor --logs "$TMP/n.log"
check_rc 2 "a hardware error in a device's log: exit 2"
cause kind device port
check_out "hardware 2 None" "  the device of its path; the file's line number is no port"

# a refused connection and, right under it, the rank it was for
printf '%s\n' '[1716594409.541480] [gpu1:1581047:0] sock.c:323 UCX ERROR connect(fd=87, dest_addr=10.8.0.1:47133) failed: Connection refused' \
	'[gpu1:1581048] pml_ucx.c:472 Error: Failed to resolve UCX endpoint for rank 9' >"$TMP/o.log"
run "$HCCLCTL" --json doctor --logs "$TMP/o.log"
cause kind ip port peer_rank
check_out "network-unreachable 10.8.0.1 47133 9" "  the peer's address, port and rank"

# Open MPI's help text for a connection it could not finish: a failure by its words
# ("unable"), never a pass
printf '%s\n' 'A process or daemon was unable to complete a TCP connection' 'to another process:' \
	'  Local host:    node-a' '  Remote host:   10.9.9.4' >"$TMP/p.log"
run "$HCCLCTL" --json doctor --logs "$TMP/p.log"
check_rc 2 "a connection that could not be completed: exit 2"
cause kind detail
check_out "network-unreachable words:connect-failed" "  the network's, read from its words"

# a host a launcher could not reach
printf '%s\n' 'RuntimeError: Using hostfile at /h/hostfile but host=gpu-0011 was not reachable via ssh.' >"$TMP/q.log"
run "$HCCLCTL" --json doctor --logs "$TMP/q.log"
check_rc 2 "a host not reachable: exit 2"
cause kind detail
check_out "network-unreachable words:unreachable" "  read from its words"

# Tables of a library's own names, end to end: a verbs async event by the name
# ibv_event_type_str gives it (NVIDIA/nccl#230), a UCX status string (openucx/ucx#1881), an ACL
# code of a task fault (vllm-project/vllm-ascend#1972): each FAILs with its kind, never a WARN
for c in "hardware ib-ev-device-fatal|2019-06-02T16:13:44.884Z: [1,12]<stdout>:container-e275-1553839402050-12124-01-000057:815:864 [0] transport/net_ib.cu:80 NCCL WARN NET/IB : Got async event : local catastrophic error" \
	"network-unreachable ucx-endpoint-timeout|Sun Oct  1 17:18:44 2017[1,0]<stdout>:[1506867524.637551] [clx-hercules-005:9708 :0]     ucp_worker.c:373  UCX  ERROR Error Endpoint timeout was not handled for ep 0xaa7fa0" \
	"config ray-unfulfillable|(autoscaler +13s) Error: No available node types can fulfill resource request {'node:111.6.168.225': 0.001, 'GPU': 1.0}. Add suitable node types to this cluster to resolve this issue."; do
	want=${c%%|*}
	printf '%s\n' "${c#*|}" >"$TMP/lib.log"
	run "$HCCLCTL" --json doctor --logs "$TMP/lib.log"
	check_rc 2 "${want#* }: exit 2"
	cause kind detail
	check_out "$want" "  ${want#* } is $( echo "$want" | cut -d' ' -f1)"
done
printf '%s\n' "ERROR 07-23 10:35:57 [core.py:586] RuntimeError: Worker failed with error 'ACL stream synchronize failed, error code:507034', please check the stack trace above for the root cause" >"$TMP/acl.log"
exit_is 2 "a vector core timeout code (507034): exit 2, not an unclassified warning" "$TMP/acl.log"

# An AI core's exception (vllm-project/vllm-ascend#16654): the operator's fault far more often than
# the chip's, so no kind is claimed, but the row still says what failed and on which device
head -n 1 tests/data/real-logs-new/batch7/vllm-ascend-16654-a3-decode-fftsplus-aicore-after-hours/node0/stdout.txt >"$TMP/aic.log"
run "$HCCLCTL" --json doctor --logs "$TMP/aic.log"
check_rc 2 "an AI core exception: exit 2"
cause kind detail device
check_out "unresolved aicore-error 5" "  unresolved, named by its row, with its device"

# EI0002's list of abnormal devices (CANN 8.1's HCCL guide): the silent device is named with its
# server, not called a rank that never started
cp tests/data/real-logs-new/batch24/hiascend-81rc1-zh-hcclug31-ei0002-heartbeat-lost-rank4/node0/stdout.txt "$TMP/hb.log"
run "$HCCLCTL" --json doctor --logs "$TMP/hb.log"
check_rc 2 "EI0002 with the heartbeat list: exit 2"
cause detail rank device ip
check_out "heartbeat-lost 4 4 192.168.100.111" "  the device whose heartbeat was lost, with its server's address"

# the runtime's own check of ASCEND_RT_VISIBLE_DEVICES (gpustack/gpustack#3352): config, with the
# device it refused
printf '%s\n' '[ERROR] RUNTIME(42,mindie_llm_backend_connector):2025-11-18-09:33:13.666.323 [runtime.cc:5632]58 GetVisibleDevices:[INIT][DEFAULT]set ASCEND_RT_VISIBLE_DEVICES:[4] error, input data rang[0-2)' >"$TMP/vis.log"
run "$HCCLCTL" --json doctor --logs "$TMP/vis.log"
check_rc 2 "a visible device out of the host's range: exit 2"
cause kind detail device
check_out "config visible-devices-range 4" "  config, with the device the runtime refused"

# a device named on a failing line of the block only as "device N" (a PTOAS validation board's
# EL0004, hw-native-sys/PTOAS#341): its own words say it failed, so the device counts
printf '%s\n' '[ERROR] RecentErrMsg: [PID: 1613532] 2026-03-24-12:14:45.885.234 Memory_Allocation_Failure(EL0004): Failed to allocate memory.' \
	'        open device 2 failed, runtime result = 507033.[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:148]' >"$TMP/opendev.log"
run "$HCCLCTL" --json doctor --logs "$TMP/opendev.log"
check_rc 2 "an allocation failure with the device's failing line under it: exit 2"
cause kind device
check_out "memory/resource 2" "  the device named by the failing line under it"

# the dynamic linker's and Python's words for a release that lacks what the code needs
# (Ascend/pytorch#35, gpustack#2799): errors by their words, at any level, of the version
# family; the warning above them says less
printf '%s\n' "05/22 09:09:35 - mmengine - WARNING - WARNING: command error: 'Failed to import transformers.optimization because of the following error (look up to see its traceback):" \
	"/home/ma-user/anaconda3/envs/PyTorch-2.1.0/lib/python3.9/site-packages/torch_npu/lib/libtorch_npu.so: undefined symbol: _ZN5torch10ValueErrorC1EPKcz'!" >"$TMP/sym.log"
run "$HCCLCTL" --json doctor --logs "$TMP/sym.log"
check_rc 2 "an undefined symbol: exit 2"
cause kind detail
check_out "version-mismatch words:version" "  versions that do not fit, from the linker's words"
printf '%s\n' "[2025-08-25 09:34:12.025+0800] [63670] [281459881996512] [batchscheduler] [ERROR] [model.py:61] : [Model]	>>> Exception:No module named 'atb_llm.models.qwen2_moe.flash_causal_qwen2_moe_v2'" >"$TMP/mod.log"
run "$HCCLCTL" --json doctor --logs "$TMP/mod.log"
check_rc 2 "a module the release lacks: exit 2"
cause kind detail
check_out "version-mismatch words:version" "  versions that do not fit, from Python's words"

# a traceback's frames with neither heading nor exception line (LLaMA-Factory#8306: the
# error itself was a screenshot) still say a process raised: never a pass
printf '%s\n' '[rank8]:     launch()' \
	'[rank8]:   File "/home/x/LLaMA-Factory-main/src/llamafactory/launcher.py", line 19, in launch' \
	'[rank8]:     run_exp()' \
	'[rank8]:   File "/home/x/LLaMA-Factory-main/src/llamafactory/train/tuner.py", line 110, in run_exp' >"$TMP/frames.log"
run "$HCCLCTL" --json doctor --logs "$TMP/frames.log"
check_rc 2 "frames alone: exit 2"
cause kind detail rank
check_out "unresolved words:exception 8" "  an exception, with the rank of the frames' prefix"
run "$HCCLCTL" doctor --logs "$TMP/frames.log"
printf '%s\n' "$OUT" | grep -q 'read from the words of frames.log:2, a line no rule knows'
_report $? "  it quotes the first frame" "$OUT"
# ...but where the exception's line is there, or another file has an error, that is the error
cp "$TMP/frames.log" "$TMP/framesx.log"
echo '[rank8]: AssertionError: local_world_size (16) must be less than or equal to the number of visible devices (8).' >>"$TMP/framesx.log"
run "$HCCLCTL" doctor --logs "$TMP/framesx.log"
printf '%s\n' "$OUT" | grep -q 'read from the words of framesx.log:5, a line no rule knows'
_report $? "frames and their exception: the exception's line is the one quoted" "$OUT"
mkdir -p "$TMP/two/node0" "$TMP/two/node1"
cp "$TMP/frames.log" "$TMP/two/node0/a.log"
echo 'rendezvous: connect to 10.9.0.4:7000 timed out' >"$TMP/two/node1/b.log"
run "$HCCLCTL" --json doctor --logs "$TMP/two"
cause detail node port
check_out "words:connect-timeout node1 7000" "lone frames on one node, an error on another: the error is the cause"

# a traceback's heading and frames, its exception's line cut off where the excerpt ends
# (real-logs-new batch923, NVIDIA-NeMo/Speech#14747, behind NeMo-Run's task label and torch
# elastic's role label): the process raised, and the heading is no line that says where
printf '%s\n' 'finetune/0 [default2]:[rank2]: Traceback (most recent call last):' \
	'finetune/0 [default2]:[rank2]:   File "/opt/NeMo/nemo/lightning/pytorch/strategies/megatron_strategy.py", line 1043, in load_checkpoint' \
	'finetune/0 [default2]:[rank2]:     checkpoint = self.checkpoint_io.load_checkpoint(' \
	'finetune/0 [default2]:[rank2]:   File "/opt/NeMo/nemo/lightning/io/pl.py", line 288, in load_checkpoint' >"$TMP/tbcut.log"
run "$HCCLCTL" --json doctor --logs "$TMP/tbcut.log"
check_rc 2 "a traceback cut before its exception: exit 2"
cause kind detail rank
check_out "unresolved words:exception 2" "  an exception, with the rank of the heading's prefix"
run "$HCCLCTL" doctor --logs "$TMP/tbcut.log"
printf '%s\n' "$OUT" | grep -q 'read from the words of tbcut.log:2, a line no rule knows'
_report $? "  it quotes the first frame under the heading" "$OUT"
# a heading alone, with nothing under it, is still a warning that names no cause
head -n 1 "$TMP/tbcut.log" >"$TMP/tbhead.log"
run "$HCCLCTL" --json doctor --logs "$TMP/tbhead.log"
check_rc 1 "a traceback's heading alone: a warning, exit 1"

# a results table's heading names its column of wrong values "errors" (real-logs-new batch716,
# all_reduce_perf without its "#"): a column's name, no error; a row that counts some is one
R=tests/data/real-logs-new/batch716/communication-libraries-image-perlmutter-podman-hpc-8node-cxi-allreduce-healthy
exit_is 0 "a table's heading with a column named errors: no error, exit 0" "$R/node0/stdout.txt"
sed 's/^\(4294967296 .* 68.96 \)0 /\13 /' "$R/node0/stdout.txt" >"$TMP/errcol.log"
run "$HCCLCTL" --json doctor --logs "$TMP/errcol.log"
check_rc 2 "  a row with 3 in that column: wrong results, exit 2"
cause detail
check_out "words:wrong-results" "  the wrong results, from the column"

# the Ascend device plugin's fault records (MindCluster's documentation: Volcano's
# vcjob-fault-npu-cm, real-logs-new batch933; the node's device-info ConfigMap with the
# records inside an escaped string, batch300): the record of the most severe level names the
# NPU (Ascend910-4 at SeparateNPU, not Ascend910-0 at PreSeparateNPU); a level that takes no
# chip out of service is no fault
for R in tests/data/real-logs-new/batch933/mindcluster-docs-730-volcano-vcjob-fault-npu-cm-node133-ascend910-4-card-unhealthy \
	tests/data/real-logs-new/batch300/mindcluster-docs-730-a3-deviceinfo-cm-ascend910-4-card-unhealthy-separatenpu-npu0-network-unhealthy; do
	run "$HCCLCTL" --json doctor --logs "$R"
	check_rc 2 "a fault record of the device plugin ($(basename "$R" | cut -c1-40)): exit 2"
	cause kind detail device
	check_out "hardware npu-fault-record 4" "  a hardware fault of the NPU the most severe record names"
done
# NodeD's record of a part of the node (a CPU at SeparateFault, real-logs-new batch445): the
# node's hardware, and no device named from the record's DeviceId, which is the CPU's
R=tests/data/real-logs-new/batch445/mind-cluster-docs-noded-configmap-cpu1-faultcode-00000011-separatefault-node-unhealthy
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "NodeD's fault record of a CPU: exit 2"
cause kind detail node device
check_out "hardware node-fault-record node0 None" "  the node's hardware, no device"
sed 's/"CPU"/"NPU"/' "$R/node0/stdout.txt" >"$TMP/npurec.log"
run "$HCCLCTL" --json doctor --logs "$TMP/npurec.log"
cause detail device
check_out "node-fault-record 1" "  the same record of an NPU names it by its DeviceId"
sed 's/"SeparateNPU"/"SubHealth"/g; s/"PreSeparateNPU"/"NotHandle"/g' \
	tests/data/real-logs-new/batch933/mindcluster-docs-730-volcano-vcjob-fault-npu-cm-node133-ascend910-4-card-unhealthy/node0/stdout.txt >"$TMP/subhealth.log"
grep -q '"fault_level":"SubHealth"' "$TMP/subhealth.log"
_report $? "  (the records' levels rewritten)" ""
run "$HCCLCTL" --json doctor --logs "$TMP/subhealth.log"
cause detail
check_out "" "  records that take no chip out of service: no device fault"

# a build that does not fit the node (real-logs-new batch498): a version mismatch; a
# program's notice of a feature it leaves out (batch490, DeepSpeed's op report) is none
cause_is "kind detail" "version-mismatch words:version" "  'sm_90 is not compatible with the current PyTorch installation': versions" \
	'NVIDIA H800 with CUDA capability sm_90 is not compatible with the current PyTorch installation.'
printf '%s\n' 'vm-07-05:  [WARNING]  sparse_attn is not compatible with ROCM' >"$TMP/notcompat.log"
exit_is 0 "  'sparse_attn is not compatible with ROCM': no error, exit 0" "$TMP/notcompat.log"
# a switch port its own error shut (real-logs-new batch720, Arista's port status table)
cause_is "kind detail" "link-down words:link-down" "  'Et23 errdisabled link-flap': a link down" \
	'Et23                                  errdisabled       link-flap'

# a container image a node cannot pull, in Kubernetes' events (real-logs-new batch944, a
# TFJob's workers): a setting of the job; the same pull failed by the network is the network's
cause_is "kind detail" "config words:image-pull" "  ErrImagePull, the image not found: the job's image" \
	'  Warning  ErrImagePull             9m31s (x7 over 10m)    tf-operator  Error pod tfjob-sample-worker-0 container tensorflow waiting message: rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/mesosphere/kubeflow:mnist-sdk-sample": failed to resolve reference "docker.io/mesosphere/kubeflow:mnist-sdk-sample": docker.io/mesosphere/kubeflow:mnist-sdk-sample: not found'
printf '%s\n' 'Error: failed to pull image "k8s.gcr.io/pause:3.1": dial tcp 64.233.189.82:443: i/o timeout' >"$TMP/pullnet.log"
run "$HCCLCTL" --json doctor --logs "$TMP/pullnet.log"
cause detail
check_out_lacks "image-pull" "  a pull that timed out on the network: not the image's name"

# two parts of the cluster that must agree and do not (real-logs-new batch950, HP-MPI's
# release note: IB ports on different subnets)
cause_is "kind detail" "config words:values-differ" "  'do not have the same subnet_prefix': a setting to make agree" \
	'pp.x: Rank 0:1: MPI_Init: The IB ports choosen for IB connection setup do not have the same subnet_prefix.'

# a process's end as a service or a Python launcher words it, "return code" (real-logs-new
# batch953, ModelArts' own log): 137 is SIGKILL's; 0 is no failure
cause_is "kind detail" "memory/resource words:killed" "  'Training end with return code: 137': killed" \
	'[Modelarts Service Log]Training end with return code: 137'
printf '%s\n' '[Modelarts Service Log]Training end with return code: 0' >"$TMP/rc0.log"
exit_is 0 "  'return code: 0': no error, exit 0" "$TMP/rc0.log"

# a native stack as a debugger prints it is frames too: a process someone stopped to look at
# (real lines: real-logs-new batch483, gdb on a Horovod rank hung in alltoall; lldb on one in
# cudaEventSynchronize), never a pass; its first frame is quoted. A "#" comment is no frame.
J=tests/data/real-logs-new/batch483/horovod-2601-nccl-alltoall-hang-rank1-gdb-waitforevents-fixed-nccl-2-8-4
run "$HCCLCTL" --json doctor --logs "$J"
check_rc 1 "gdb's backtrace alone: a warning, exit 1"
cause kind detail
check_out "unresolved unclassified" "  no line says why: unclassified"
run "$HCCLCTL" doctor --logs "$J"
printf '%s\n' "$OUT" | grep -q 'node0/stdout.txt:2: #0  0x00007fe08975c8e7 in sched_yield ()'
_report $? "  it quotes the first frame" "$OUT"
J=tests/data/real-logs-new/batch483/nccl-788-horovod-alltoallv-hang-nccl-2-12-lldb-cudaeventsynchronize
run "$HCCLCTL" doctor --logs "$J"
check_rc 1 "lldb's frames alone: a warning, exit 1"
printf '%s\n' '# nccl-tests version 2.17.9' '#  Rank  0 Group  0 Pid 206828 on   gpu-1-43 device  0' \
	'#1 step (of 3) done' >"$TMP/hash.log"
exit_is 0 "comment lines that start with '#': no frames, exit 0" "$TMP/hash.log"

# torch elastic's agent (kubeflow/trainer#1504): its settings name a timeout, which is no
# error; the rendezvous store it could not reach is a network failure
printf '%s\n' '  rdzv_endpoint    : v2-pytorch-1208202754389-worker-0:23456' \
	"  rdzv_configs     : {'timeout': 900}" \
	'[ERROR] 2021-12-08 12:28:26,423 error_handler: {' \
	'    "message": "RendezvousConnectionError: The connection to the C10d store has failed. See inner exception for details.",' >"$TMP/rdzv.log"
run "$HCCLCTL" --json doctor --logs "$TMP/rdzv.log"
check_rc 2 "the rendezvous store not reached: exit 2"
cause kind detail
check_out "network-unreachable words:rendezvous" "  a network failure, not the settings' timeout"

# a tool's port listing with no error word (ibstat, microsoft/mscclpp#493): a port whose state
# is Down fails the log as a host RDMA port down; the Active one beside it is no error
printf '%s\n' "CA 'mlx5_0'" '	Port 1:' '		State: Active' '		Physical state: LinkUp' \
	"CA 'mlx5_1'" '	Port 1:' '		State: Down' '		Physical state: Disabled' >"$TMP/ibstat.log"
run "$HCCLCTL" --json doctor --logs "$TMP/ibstat.log"
check_rc 2 "an ibstat port that is down: exit 2"
cause kind detail
check_out "link-down rdma-port-error" "  a host RDMA port down, read from the state's value"

# UCX's words for a completion error (openucx/ucx#5199) are the status they stand for
printf '%s\n' '[master:19546:0:19546] ib_mlx5_log.c:139  Transport retry count exceeded on mlx5_0:1/IB (synd 0x15 vend 0x81 hw_synd 0/0)' >"$TMP/ucx.log"
run "$HCCLCTL" --json doctor --logs "$TMP/ucx.log"
check_rc 2 "UCX's retry-exceeded completion: exit 2"
cause kind detail
check_out "link-down ib-retry-exceeded" "  the status the syndrome's words name"

# Open MPI's help message names the peer's address lines below its heading, inside its frame
# of dashes (jbornschein/mpi4py-examples#11): the verdict carries it
R=tests/data/real-logs-new/batch39/mpi4py-examples-11-4pi-hostfile-pi02-connect-169-254-140-13-1026-failed
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "Open MPI could not TCP-connect to a peer: exit 2"
cause kind detail ip port
check_out "network-unreachable mpi-tcp-connect 169.254.140.13 1026" "  the peer's address and port, 7 lines below, inside the frame"

# no error line at all, but one of four hosts runs another NCCL build (NVIDIA/nccl#1267): the
# odd host fails the log; the same nodes with one build pass
R=tests/data/real-logs-new/batch33/nccl-1267-4node-nccl-2.14.3-vs-2.19.3-version-mismatch
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "NCCL builds that differ across the nodes: exit 2"
cause kind detail node
check_out "version-mismatch differs-across-nodes node0" "  the odd host's node, with no error line"
mkdir -p "$TMP/same" && cp -r "$R/node1" "$R/node2" "$TMP/same/"
run "$HCCLCTL" doctor --logs "$TMP/same"
check_rc 0 "the same NCCL build on every node: a pass"

# a catalog row that names what failed but not why (an AI core task timed out, 507014) gives
# way to a line whose words name a kind: every rank of the step waited out its timeout
# (vllm-project/vllm-ascend#10861); the row's line stays as evidence
R=tests/data/real-logs-new/batch43/vllm-ascend-10861-dsv4-flash-2node-dp0-tp3-aicore-timeout-507014
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "an AI core timeout with the waits' words: exit 2"
J=$OUT
cause kind detail
check_out "rank-stuck words:timeout" "  the words that name a kind, over the row that does not"
printf '%s' "$J" | grep -q 'runtime result = 507'
_report $? "  the row's line is still quoted" "$J"
# a connection reset is the network's answer, as a refusal is (NVIDIA/nccl#1920)
R=tests/data/real-logs-new/batch33/nccl-1920-gpu-server320-bootstrap-send-connection-reset-by-peer
run "$HCCLCTL" --json doctor --logs "$R"
cause kind detail
check_out "network-unreachable errno-reset" "  ECONNRESET: the network kind, with its own detail"


# a log that ends while its process retries: the retried connect never came back (a
# Kubernetes pod's NCCL output, facebookresearch/fairseq#1096); with a later line of the same
# process after the retries (oneflow's NCCL log, Oneflow-Inc/oneflow#3586) the retry is benign
R=tests/data/real-logs-new/batch84/fairseq-1096-k8s-pytorch-fairseq-worker-0-nccl-call-to-connect-refused-retrying
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "a log that stops on 'retrying': exit 2"
cause kind detail node
check_out "network-unreachable words:refused node0" "  what it retried is the failure"
{
	grep -m1 retrying "$R/node0/stdout.txt"
	echo 'worker:101542:101934 [0] NCCL INFO Channel 00 : 1[18000] -> 0[18000] [send] via NET/Socket/1'
} >"$TMP/retried.log"
exit_is 0 "  a retry the log goes on after: a pass" "$TMP/retried.log"
# a limit of the host or the NIC, in a kernel log (University of Delaware's DARWIN docs: the
# mlx5 firmware out of memory keys) and in EMFILE's text
R=tests/data/real-logs-new/batch85/udel-darwin-ucx-mr-cache-mlx5-create-mkey-limits-exceeded-vasp-node3-of-4
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "a NIC's 'limits exceeded': exit 2"
cause kind detail
check_out "memory/resource words:limit" "  a resource that ran out, read from its words"
echo 'Socket.h(166):"too many open files"' >"$TMP/emfile.log"
run "$HCCLCTL" --json doctor --logs "$TMP/emfile.log"
check_rc 2 "EMFILE's text alone is an error (NVIDIA/nccl#127): exit 2"
cause kind detail
check_out "memory/resource words:limit" "  the open-files limit"

# a log that ends on failures logged at an informational level: glog's I lines of OneFlow's
# control client, retrying a peer whose name does not resolve (Oneflow-Inc/DLPerf#103)
R=tests/data/real-logs-new/batch86/oneflow-dlperf-103-ctrl-client-loadserver-gpu9-dns-resolution-failed-from-gpu11
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "a log that stops on a failure at level I: exit 2"
cause kind detail
check_out "network-unreachable words:name-resolution" "  the failure its last line names"
# ssh refusing a launcher's login, in paramiko's words (hpcaitech/ColossalAI#5213)
R=tests/data/real-logs-new/batch86/colossalai-5213-colossalai-run-ssh-not-a-valid-rsa-private-key-192-168-1-12-node-rank-1
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "ssh's key refused: exit 2"
cause kind detail
check_out "config words:permission" "  an access refused, a setting to mend"

# two ranks of one process group whose works went separate ways: rank 1 completed #122, in
# which rank 0 still waits (huggingface/accelerate#3250, FSDP after a checkpoint save)
R=tests/data/real-logs-new/batch93/accelerate-3250-fsdp-after-checkpoint-save-rank0-reduce-scatter-seq122-rank1-allgather-seq126
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "timeouts in different works of one group, one rank past the other's: exit 2"
cause kind detail rank peer_rank
check_out "op-mismatch collective-desync 0 1" "  a desync: the waiting rank and the one that went on"
# the same work in another collective, where a terminal wrapped the second report before its
# work (CarperAI/trlx#373): the wrapped report is read, its rank unknown
cause_is "kind detail peer_rank" "op-mismatch collective-desync 2" "ALLREDUCE on rank 2, ALLGATHER on a wrapped line, both #2059" \
	'[E ProcessGroupNCCL.cpp:737] [Rank 2] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2059, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800283 milliseconds before timing out.' \
	'WorkNCCL(SeqNum=2059, OpType=ALLGATHER, Timeout(ms)=1800000) ran for 1801398 ' \
	'milliseconds before timing out.'
# Horovod's stall inspector: under "Missing ranks:", rows naming different tensors are ranks
# each waiting in a call the other never makes (Lightning-AI/pytorch-lightning#5155); rows of
# the same tensors (horovod/horovod#2285's ranks 0-2) are ranks behind, the stall's hang
P=tests/data/real-logs-new/batch1238/pytorch-lightning-pr5155-horovod-test-stall-rank0-broadcast-bool-vs-rank1-allreduce/node0/stdout.txt
head -n 4 "$P" >"$TMP/stall.log"
exit_is 2 "rank 0 misses a broadcast, rank 1 allreduces: exit 2" "$TMP/stall.log"
cause_is "kind detail" "op-mismatch words:collective-mismatch" "  the ranks called different collectives" \
	"$(head -n 4 "$P")"
P=tests/data/real-logs-new/batch126/horovod-2285-elastic-tf-keras-scale-up-rank-8-allreduce-vs-ranks-0-7-broadcast-object-fn-sz-stalled/node0/stdout.txt
cause_is "kind detail" "rank-stuck words:hang" "  ranks 0-2 missing the same tensor: behind, no mismatch" \
	"$(sed -n '1,7p' "$P")"

# torch elastic's root-cause record names the rank its failure is (meta-pytorch/torchft#295):
# a line of it no rule knows is that rank's, as a recognised one is
P=tests/data/real-logs-new/batch1246/torchft-295-train-ddp-example-rank0-exitcode-1-unresolved/node0/stdout.txt
cause_is "kind rank" "unresolved 0" "the record's 'rank : 0 (local_rank: 0)'" "$(cat "$P")"
# HCCL's comparison of the two ends' arguments on a line of its own, without EI0005's code
# line (mindspore-ai/mindformers@7f3442dd: a receive whose two ends called different
# operations)
cause_is "kind detail" "op-mismatch arguments-differ" "'parameter cmdType, local end 4, remote end 5'" \
	'HcomRecv failed, ret:4' \
	'parameter cmdType, local end 4, remote end 5'
# a pod the kubelet evicted for memory, as kubectl describes it (kubeflow/trainer#301)
R=tests/data/real-logs-new/batch93/kubeflow-trainer-301-tfjob-master-pod-evicted-node-low-on-memory
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "an evicted pod: exit 2"
cause kind detail
check_out "memory/resource words:evicted" "  the node's resource ran short"

# the ranks' roll call, in logs with no error line: a rank announced from two hosts (a test
# built without MPI under mpirun -np 2, NVIDIA/nccl-tests#17), and a log that stops while the
# ranks gather (Lightning-AI/pytorch-lightning#8707, the second node never joined)
R=tests/data/real-logs-new/batch69/nccl-tests-17-two-ec2-m60-hosts-both-rank-0-avg-busbw-0-built-without-mpi
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "one rank announced on two hosts, no error line: exit 2, not a pass"
cause kind detail rank signature
check_out "config duplicate-rank 0 roll-call" "  two jobs of one rank each where one of two was meant"
R=tests/data/real-logs-new/batch101/lightning-8707-slurm-2-nodes-ddp-init-stops-at-4-of-8-members
run "$HCCLCTL" doctor --logs "$R"
check_rc 2 "a log that stops in the roll call, half the world announced: exit 2"
printf '%s\n' "$OUT" | grep -qF 'rank-stuck (world-incomplete): the log stops while the ranks gather: 4 of the 8 ranks of the world announced themselves, and ranks 4, 5, 6, 7 never did'
_report $? "  the ranks that never came are named" "$OUT"

# lines that other lines show to be errors: a message with a native stack trace under it
# (apache/mxnet#5297, dmlc's LOG(FATAL)), and a retry to connect a node's log ends on, aimed
# at a loopback address in a job of two nodes (PPASR#142, paddle.distributed.launch)
R=tests/data/real-logs-new/batch105/mxnet-5297-ssh-launcher-dist-sync-kvstore-not-compiled-use-dist-kvstore-hpc1
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "a message a stack trace follows, no error word in it: exit 2"
cause kind detail
check_out "config words:backend-missing" "  a build without the feature the job asks for"
R=tests/data/real-logs-new/batch105/ppasr-142-paddle-launch-master-resolves-loopback-127-0-1-1-port-63917
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "a node's log ends retrying a loopback address of a two-node job: exit 2"
cause kind detail ip port node
check_out "config loopback-peer 127.0.1.1 63917 node1" "  the address, its port, and the node that could not reach it"

# the rank at the other end of a connection a line names (pmodels/mpich#889's ch3:sock)
R=tests/data/real-logs-new/batch108/mpich-889-windows-ch3-sock-rank2-cannot-connect-rank3-och-cn01-192-168-30-51-port-49491
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "a rank that could not connect to another: exit 2"
cause kind rank peer_rank ip port
check_out "network-unreachable 2 3 192.168.30.51 49491" "  both ranks, the address and the port"

# a GPU the kernel names by its PCI address: the cause names it so (pci), and a line about
# another GPU just above it lends it no device (the Xid on 0000:07:00 under GPU 0000:0a:00.0's
# "device minor number 5", NVIDIA/gpu-operator#1146)
R=tests/data/real-logs-new/batch135/gpud-sxid-readme-xid79-gpu-0000-91-00-fallen-off-bus-nvswitch-sxid20034-ltssm-fault
run "$HCCLCTL" --json doctor --logs "$R"
check_rc 2 "Xid 79, a GPU off the bus: exit 2"
cause kind pci device
check_out "hardware 0000:91:00.0 None" "  the GPU by its PCI address (PCI:0000:91:00, function 0)"
R=tests/data/real-logs-new/batch44/gpu-operator-1146-k8s-worker4-xid-48-dbe-cuda-validator-crash
run "$HCCLCTL" --json doctor --logs "$R"
cause kind pci device
check_out "hardware 0000:07:00.0 None" "  the Xid's GPU, not the minor number of the GPU on the line above"
printf '%s\n' '[  +0.000001] NVRM: Xid (PCI:0000:3b:00): 48, pid=1, An uncorrectable double bit error (DBE) has been detected on GPU in the framebuffer at partition 0, subpartition 0.' \
	'[  +0.000002] pcieport 0000:3a:00.0: AER: Uncorrected (Fatal) error received: 0000:3b:00.0' \
	'dmesg: time 12:30:45.1 at 91:00.0' >"$TMP/pci.log"
run "$HCCLCTL" --json doctor --logs "$TMP/pci.log"
cause kind pci
check_out "hardware 0000:3b:00.0" "  the first address of the lines behind the cause"
run "$HCCLCTL" --json doctor --logs tests/data/real-logs/vllm-ascend-405-ej0003-port-60000-bound
cause kind pci
check_out "config None" "  no PCI address for a cause that is not a device's"


# an errno given by its number alone is read as its text: DGL's "errno=99" is EADDRNOTAVAIL
# (an address this host does not have), c10d's "[Errno 98]" a port another process holds; the
# port of a bind is this end's own, and an address its writer hid still has its port
printf '%s\n' '/opt/dgl/src/rpc/network/tcp_socket.cc:69: Failed bind on 16x.1xx.1xx.1xx:3026 ,errno=99' >"$TMP/en.log"
run "$HCCLCTL" --json doctor --logs "$TMP/en.log"
check_rc 2 "errno=99 alone: a failure (exit 2)"
cause kind detail port
check_out "config errno-addr-not-avail 3026" "  EADDRNOTAVAIL by its number, with the port of the bind behind a hidden address"
printf '%s\n' '[c10d] The server socket has failed to bind to 10.1.2.3:29500 (errno: 99 - Cannot assign requested address).' >"$TMP/en.log"
run "$HCCLCTL" --json doctor --logs "$TMP/en.log"
cause kind detail ip port
check_out "config errno-addr-not-avail 10.1.2.3 29500" "  the same by its text: the address and port it could not bind"
printf '%s\n' 'OSError: [Errno 98] bind failed on port 6000' >"$TMP/en.log"
run "$HCCLCTL" --json doctor --logs "$TMP/en.log"
cause kind detail
check_out "config port-bound" "  [Errno 98]: EADDRINUSE by its number, a port another process holds"
printf '%s\n' 'rpc: send failed, errno 7' 'job: errno=1234 is no errno' >"$TMP/en.log"
run "$HCCLCTL" --json doctor --logs "$TMP/en.log"
cause kind detail
check_out "unresolved unclassified" "  a number no row has (7, or four digits) is no errno row's"
# "<host>:pid:tid" (NCCL's and UCX's prefixes with the host hidden) names no port
printf '%s\n' '<cluster_name>:922:1158 [3] proxy.cc:1485 NCCL WARN [Service thread] Error encountered progressing operation=Connect, res=2, closing connection' >"$TMP/en.log"
run "$HCCLCTL" --json doctor --logs "$TMP/en.log"
cause port
check_out "None" "  a hidden host's pid and thread are no port"
printf '%s\n' 'Failed bind on <my_ip_addr>:34567 , error: Success' >"$TMP/en.log"
run "$HCCLCTL" --json doctor --logs "$TMP/en.log"
cause kind port
check_out "unresolved 34567" "  an unclassified line still gives the port it names (behind a placeholder)"

# bash refusing the launch script, a container the runtime could not start, an allocation
# that failed in a library's shortest words: each its family, read from its words
printf '%s\n' '/bin/bash: SSH_CONNECTION: readonly variable' \
	'Error: failed to run torchrun --nproc_per_node=2 on x.x.x.x, is localhost: True, exception: Encountered a bad command' >"$TMP/sh.log"
run "$HCCLCTL" --json doctor --logs "$TMP/sh.log"
check_rc 2 "bash's readonly variable before the launcher's failure: exit 2"
cause kind detail
check_out "config words:shell" "  the shell's refusal is the cause, not the failure it led to"
printf '%s\n' 'Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running prestart hook #0: exit status 255, stdout: , stderr: runc start prestart-hook' >"$TMP/oci.log"
run "$HCCLCTL" --json doctor --logs "$TMP/oci.log"
cause kind detail
check_out "config words:container-start" "  a container the runtime could not start: config, not the hook's exit status"
printf '%s\n' '[WARN][BKCL][/workspace/kmis/source/bkcl/src/kl2/kl2_init.cpp:108] param 0 data alloc failed' \
	'Allocate failed due to rpc error: code = Unknown desc = apply device-share for pod' >"$TMP/al.log"
run "$HCCLCTL" --json doctor --logs "$TMP/al.log"
cause kind detail
check_out "memory/resource words:memory" "  'alloc failed': memory could not be allocated"
printf '%s\n' 'Allocate failed due to rpc error: code = Unknown desc = apply device-share for pod' >"$TMP/al.log"
run "$HCCLCTL" --json doctor --logs "$TMP/al.log"
cause kind
check_out "unresolved" "  a device plugin's 'Allocate failed' RPC is no memory that ran out"

# lines with no time above a file's first timed line happened before it: NCCL's CUDA error
# names why the framework's timed "unhandled cuda error" below it happened
printf '%s\n' "gpu-st-p4d-24xlarge-25:15647:15647 [0] external/nccl_archive/src/init.cc:1075 NCCL WARN Cuda failure 'out of memory'" \
	'gpu-st-p4d-24xlarge-25:15647:15647 [0] NCCL INFO external/nccl_archive/src/init.cc:1106 -> 1' \
	'2022-10-13 04:16:09.849660: E external/xla/pjrt/pjrt_stream_executor_client.cc:2130] Execution of replica 0 failed: INTERNAL: nccl_utils.cc:266: NCCL operation ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled cuda error' >"$TMP/ord.log"
run "$HCCLCTL" --json doctor --logs "$TMP/ord.log"
cause kind detail
check_out "memory/resource oom" "  the untimed CUDA error above comes first: memory, not the result code below it"

# a count of failures at zero, before its noun, says nothing failed; any other count does
for c in '0/52 failures:0' '0 failures:0' '3/52 failures:1' '10 failures:1'; do
	printf '%s\n' "[FAIL]  ${c%:*}" >"$TMP/z.log"
	run "$HCCLCTL" doctor --logs "$TMP/z.log"
	check_rc "${c##*:}" "  '[FAIL]  ${c%:*}': exit ${c##*:}"
done

# the NIC a cause's line names by its RDMA device is the cause's nic; the kernel's driver
# name before a PCI address ("mlx5_core 0000:01:00.0") is none
cause_is "kind nic" "link-down mlx5_2" "  the port's RDMA device: mlx5_2" \
	'link mlx5_2/1 state DOWN physical_state POLLING netdev ens1f0np0'
cause_is "kind nic" "memory/resource None" "  a driver's name (mlx5_core) is no RDMA device" \
	'[Thu Oct 31 21:32:31 2024] mlx5_core 0000:01:00.0: mlx5_cmd_check:794:(pid 57074): CREATE_MKEY(0x200) op_mod(0x0) failed, status limits exceeded(0x8), syndrome (0x59c8a4)'

# a setting's name with its value ("timeout=...") is no wait that ran out; a table's count of
# failures at zero in the next cell is none
for c in '- timeout=datetime.timedelta(seconds=3600):0' 'rendezvous timeout=60 exceeded, timed out:2' \
	'|                 Failed |                     0( 0.0% ) |:0' '|   Failed |   3( 1.5% ) |:1'; do
	printf '%s\n' "${c%:*}" >"$TMP/st.log"
	run "$HCCLCTL" doctor --logs "$TMP/st.log"
	check_rc "${c##*:}" "  '${c%:*}': exit ${c##*:}"
done

# a message spread over lines names its NIC on the next one: the cause's nic
cause_is "kind nic" "memory/resource mlx4_0" "  the registration's NIC, from the line under the cause" \
	'[1648009459.439548] [wheeler004:32674:0]           ib_md.c:349  UCX  ERROR ibv_reg_mr(address=0x7fc7603eafe0, length=52848, access=0xf) failed: Resource temporarily unavailable' \
	'[1648009459.439628] [wheeler004:32674:0]          ucp_mm.c:164  UCX  ERROR failed to register address 0x7fc7603eafe0 mem_type bit 0x1 length 52848 on md[3]=mlx4_0: Input/output error (md reg_mem_types 0x1)'

# a registration refused for what it asked (EINVAL), not for want of locked memory (ENOMEM):
# the line does not settle why, so no memory cause is named; the fix still names both
cause_is "kind detail" "unresolved ib-reg-mr" "  a registration refused with Invalid argument: unresolved" \
	'[2025-10-13 10:12:54] iv-ydin754tmoxjd1twgixh:1458548:1480527 [0] misc/ibvwrap.cc:182 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Invalid argument'
cause_is "kind detail" "memory/resource ib-reg-mr" "  and with Cannot allocate memory: locked memory" \
	'Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory'

# counts at zero for each device, a heading that names the errors column or section,
# mkdir's answer for a directory already there, errors foretold ("could result in"): nothing
# failed; the same forms with a count that is not zero, or mkdir refused, are errors
for c in "50.0%  proc'd: 2261 (7150 Gflop/s) - 0 (0 Gflop/s)   errors: 0 - 0 - 0 - 0   temps: 38 C - 36 C:0" \
	"50.0%  proc'd: 2261 (7150 Gflop/s) - 0 (0 Gflop/s)   errors: 0 - 0 - 3 - 0   temps: 38 C - 36 C:1" \
	'Group     Comms     Nodes     Ranks     Ranks     Ranks    Status  Errors:0' \
	'Errors:0' \
	"mkdir: cannot create directory 'logs': File exists:0" \
	"mkdir: cannot create directory 'logs': Permission denied:2" \
	'[NeMo E 2025-06-20 10:18:28 nemo_logging:417] You are running multi-node training without SLURM handling the processes. Please note that this is not tested in NeMo and could result in errors.:0' \
	'step 7: the allreduce resulted in errors on rank 3:1' \
	'GPU-790:2857490:2857904 [2] proxy.cc:1458 NCCL WARN [Service thread] Accept failed Resource temporarily unavailable:0' \
	'[LOG_CAT_SBGP] libnuma.so: cannot open shared object file: No such file or directory:0' \
	'[LOG_CAT_SBGP] libfoo.so: cannot open shared object file: No such file or directory:2'; do
	printf '%s\n' "${c%:*}" >"$TMP/bz.log"
	run "$HCCLCTL" doctor --logs "$TMP/bz.log"
	check_rc "${c##*:}" "  '${c%:*}': exit ${c##*:}"
done

# a line in another encoding (a Windows path in GBK, as a real log holds it): --json stays
# one document of valid UTF-8, the bytes that are not UTF-8 written as \xNN, as the text
# report writes them
printf 'bash: line 0: cd: C:/Users/kaikai/Desktop/\320\302\275\250\316\304\274\376\274\320/tf1_kears: No such file or directory\n' >"$TMP/u8.log"
run "$HCCLCTL" --json doctor --logs "$TMP/u8.log"
check_rc 2 "a line with bytes that are not UTF-8: exit 2"
OUT=$(printf '%s' "$OUT" | python3 -c 'import json,sys; d=json.loads(sys.stdin.buffer.read().decode("utf-8")); t=d["evidence"][0]["text"]; print(d["cause"]["kind"], t.count(chr(92) + "x"), chr(92) + "xd0" + chr(189) + chr(92) + "xa8" in t)' 2>&1)
check_out 'config 6 True' "  --json is valid UTF-8, each of the 6 stray bytes written as \\xNN"

# a dump of native frames under UCX's heading, with or without the thread's id (real lines:
# real-logs-new batch936, openucx/ucx#3776; batch435): a crash, whatever the frames say
cause_is "kind detail" "unresolved words:crash" "  '==== backtrace ====' over frames: a crash" \
	'==== backtrace ====' '    0  libucs.so.0(+0x20b1c) [0x7f1a9b56fb1c]' \
	'    4  libuct_ib.so.0(uct_rc_mlx5_ep_am_short+0x25b) [0x7f1a9a4b7a7b]'
cause_is "kind detail" "unresolved words:crash" "  '==== backtrace (tid: 548615) ====': the same" \
	'==== backtrace (tid: 548615) ===='

# the Ascend driver's own error number names the kind where it is one of a kind: 6 is out
# of memory; 87 names none, and the line stays unclassified
cause_is "kind detail" "memory/resource drv-resource" "  drvRetCode=6: the driver ran out of memory" \
	'[ERROR] RUNTIME(10972,python):2023-09-23-05:41:40.256.365 [npu_driver.cc:1100]49835 DevMemAllocHugePageManaged:[INIT][DEFAULT][drv api] halMemAlloc failed:size=2097152(Byte), type=2, moduleId=7, drvFlag=18374686479671772161, drvRetCode=6, device_id=0!'
cause_is "kind detail" "unresolved unclassified" "  drvRetCode=87: no kind of its own" \
	'[ERROR] RUNTIME(278,python3):2025-08-26-03:01:17.587.916 [driver.cc:65]278 GetDeviceCount:Call drvGetDevNum, drvRetCode=87.'
# Open MPI's launcher for a program it cannot run on a node: not installed there
cause_is "kind detail" "config words:not-installed" "  mpirun unable to launch the specified application: not installed" \
	'mpirun was unable to launch the specified application as it could not access' \
	'or execute an executable:'
# a job id the scheduler does not know (a shell left from an ended allocation): a value refused
cause_is "kind detail" "config words:invalid" "  Slurm's 'Invalid job id specified': the invalid family" \
	'srun: error: Unable to confirm allocation for job 7241252: Invalid job id specified'
# a package the importing code says is not installed, in an ImportError
cause_is "kind detail" "config words:missing-package" "  ImportError: ... is not installed: a missing package" \
	'ImportError: DeepEP is not installed. Please install DeepEP package from https://github.com/deepseek-ai/deepep.'

# a switch's port that failed, in its alarm's words: a link, not a socket's port
cause_is "kind detail" "link-down words:link-down" "  a switch's port failed partially: link-down" \
	'Jul 31 2025 18:36:19+08:00 Z3_22R_99_30 %%01DEVM/1/hwPortFail_active(l):CID=0x80fc0101-alarmID=0x00f10509;The port failed partially. (EntPhysicalIndex=16863797, EntPhysicalName=400GHL1/1/2:1, EntityTrapFaultID=132338, Reason=Port real lanes are less than quarter of the configured lanes.)",'

# a warning whose failure matters only for an intent the run may not have: no error
printf '%s\n' 'vm-07-05: [2023-11-29 08:51:14,000] [WARNING] [engine.py:2699:load_checkpoint] Unable to find latest file at .//checkpoint/gpt_6.7B/latest, if trying to load latest checkpoint please ensure this file exists or pass an explicit checkpoint tag when loading a checkpoint.' >"$TMP/ck.log"
exit_is 0 "DeepSpeed's first-start checkpoint warning, 'if trying to': exit 0" "$TMP/ck.log"

# torch's store barrier is a roll call: a log that stops while it waits, 2 of 8 ranks in,
# waited for the other 6; one that goes on past "Completed store-based barrier" did not
printf '%s\n' 'I0510 07:28:04.417845 139863945226048 distributed_c10d.py:337] Waiting in store based barrier to initialize process group for rank: 2, key: store_based_barrier_key:2 (world_size=8, worker_count=7, timeout=0:30:00)' \
	'I0510 07:28:04.428285 140051304576832 distributed_c10d.py:337] Waiting in store based barrier to initialize process group for rank: 7, key: store_based_barrier_key:2 (world_size=8, worker_count=7, timeout=0:30:00)' >"$TMP/sb.log"
run "$HCCLCTL" --json doctor --logs "$TMP/sb.log"
check_rc 2 "a log that stops in the store barrier: exit 2"
cause kind detail
check_out "rank-stuck world-incomplete" "  the ranks that never reached the barrier"
printf '%s\n' 'I0510 07:28:04.517845 139863945226048 distributed_c10d.py:368] Rank 2: Completed store-based barrier for key:store_based_barrier_key:2 with 8 nodes.' 'step 1 loss 2.3' >>"$TMP/sb.log"
exit_is 0 "  the same barrier completed, the job going on: a pass" "$TMP/sb.log"

# a timeout set to a span of time is a setting, at an INFO level given by its initial ("[I]");
# one set "to" an address is not
for c in '[2025-09-11 14:09:46,956945][I][distributed/utils:298:set_pg_timeouts] Synchronizing and adjusting timeout for all ProcessGroups to 0:01:40:0' \
	'Synchronizing and adjusting timeout for all ProcessGroups to 0:01:40:0' \
	'Setting the NCCL timeout to 1800 seconds:0' 'connection timeout to 10.0.0.1 port 29500:2' \
	'[E][train.py:12] collective timeout:2'; do
	printf '%s\n' "${c%:*}" >"$TMP/st.log"
	run "$HCCLCTL" doctor --logs "$TMP/st.log"
	check_rc "${c##*:}" "  '${c%:*}': exit ${c##*:}"
done

# NCCL's INFO lines report what it set up: a plugin it could not load is no fault of the
# knowledge base's; an option's name echoed in a command ("--abort-signal 9") is no error
printf '%s\n' 'ip-10-0-139-244:1465:1465 [0] NCCL INFO NET/Plugin : Plugin load returned 17 : libnccl-net.so: cannot open shared object file: No such file or directory.' \
	'[mpiexec@mpi-test-launcher-0] Launch arguments: /usr/bin/ssh -q -x w0 hydra_pmi_proxy --usize -1 --auto-cleanup 1 --abort-signal 9' >"$TMP/info.log"
exit_is 0 "NCCL INFO plugin fallback and an echoed option: a pass" "$TMP/info.log"

# SIGKILL by its number is memory's most often; a kernel module built for another kernel is
# a version mismatch; nccl-tests' rank lines without their '#', as pages copy them, show one
# rank on two hosts; a traceback's heading alone still names the node whose process stopped
cause_is "kind detail rank" "memory/resource words:killed 16" "signal 9: killed, rank 16" \
	'[c557-203.stampede.tacc.utexas.edu:mpispawn_1][child_handler] MPI process (rank: 16, pid: 107546) terminated with signal 9 -> abort job'
cause_is "kind detail" "version-mismatch words:version" "a module's symbol versions" \
	'[76463.688316] nv_peer_mem: disagrees about version of symbol ib_register_peer_memory_client' \
	'[76463.688326] nv_peer_mem: Unknown symbol ib_register_peer_memory_client (err -22)'
cause_is "kind detail rank" "config duplicate-rank 0" "rank 0 on dgx01 and dgx02" \
	'Rank  0 Group  0 Pid 544816 on    dgx01 device  0 [0x1a] NVIDIA H100 80GB HBM3' \
	'Rank  0 Group  0 Pid 332597 on    dgx02 device  0 [0x1a] NVIDIA H100 80GB HBM3'
cause_is "kind node" "unresolved node0" "a heading alone: unresolved on node0" \
	'[rank0]: Traceback (most recent call last):' '[rank0]:   File "/x/grpo.py", line 263, in <module>'

# a failure said not to happen is none ("job will not be killed"); a host named with its port
# after the word host gives the port; a rank the writer states as its own elsewhere in its
# file is the cause's when the cause's lines name none
printf '%s\n' '└── Job started. Streaming logs... (Ctrl-C to exit log streaming; job will not be killed)' >"$TMP/nk.log"
exit_is 0 "a kill said not to happen: a pass" "$TMP/nk.log"
cause_is "kind detail port" "network-unreachable host-unresolved 29400" "the port after 'host NAME:'" \
	'TCP client failed to connect/validate to host slinky-0:29400 - Name or service not known'
cause_is "kind rank" "unresolved 0" "BKCL's myrank under its failure" \
	'[23:35:17][tjdm-p800-vd-xhl-node13.tjdm][4288][WARN][BKCL][bkcl.cpp:534] group_enqueue call failed, expected 0, error code=2' \
	'[23:35:17][tjdm-p800-vd-xhl-node13.tjdm][4288][DBG][BKCL][init.cpp:1394] myrank 0, recv 0 from 1, send 16777216 to 1'
cause_is "kind rank" "unresolved None" "two ranks stated as one's own: none" \
	'[23:35:17][tjdm-p800-vd-xhl-node13.tjdm][4288][WARN][BKCL][bkcl.cpp:534] group_enqueue call failed, expected 0, error code=2' \
	'myrank 0, recv 0 from 1' 'myrank 1, recv 0 from 0'

# a level among the bracketed fields that open a line ("[time][host][pid][ERR][BKCL]") is the
# line's: an error there never passes; an INFO there keeps a count's words from reading as one
printf '%s\n' '[23:35:17][n13.tjdm][4288][ERR][BKCL][init.cpp:1485] BKCL dont support send to one peer multi times in one group' >"$TMP/lv.log"
exit_is 1 "a line at [ERR] among its fields: a warning, never a pass" "$TMP/lv.log"

# ibdev2netdev's port Down names its RDMA device; ports Up are no failure
cause_is "kind detail nic" "link-down ibdev2netdev-down mlx5_18" "ibdev2netdev: mlx5_18 Down" \
	'mlx5_18 port 1 ==> net1 (Down)'
printf '%s\n' 'mlx5_0 port 1 ==> ens1f0 (Up)' 'mlx5_1 port 1 ==> ens2f0 (Up)' >"$TMP/up.log"
exit_is 0 "  ports Up: a pass" "$TMP/up.log"
# a write to a store whose other end had closed (EPIPE): the catalog's meaning and fix for it,
# not a generic "did not send in time"
w="WARNING:torch.distributed.elastic.rendezvous.dynamic_rendezvous:The node 'n4_1_0'"
printf '%s\n' "$w has failed to shutdown the rendezvous 'r1' due to an error of type RendezvousConnectionError." \
	'Traceback (most recent call last):' \
	'    return getattr(self._store, store_op)(*args, **kwargs)' \
	'RuntimeError: Broken pipe' >"$TMP/epipe.log"
run "$HCCLCTL" doctor --logs "$TMP/epipe.log"
check_out_contains "the peer had closed the connection when this end wrote to it (EPIPE)" \
	"a rendezvous store's broken pipe: the peer closed the connection"
check_out_contains "fix: read the log of the process at the other end for why it stopped" \
	"  and its fix"

# a process over the memory it was allowed: memory, whatever killed or restarted it
cause_is "kind detail" "memory/resource words:memory" "YARN: killed for exceeding memory limits" \
	'17/11/25 18:23:24 ERROR YarnClusterScheduler: Lost executor 9 on h1: Container killed by YARN for exceeding memory limits.'
cause_is "kind detail" "memory/resource words:memory" "Dask: over its memory budget" \
	'distributed.nanny - WARNING - Worker exceeded 95% memory budget. Restarting'
# notices of a run that went on: a metric named error, libfabric's optional backends that are
# not installed, Open MPI's count of one more rank with a help message already shown
printf '%s\n' '[0]	train-error:0.014433' \
	'libfabric:1465118:1726684546::core:core:ze_hmem_dl_init():474<warn> Failed to dlopen libze_loader.so' \
	'libfabric:1465118:1726684546::core:core:ofi_hmem_init():339<warn> Failed to initialize hmem iface FI_HMEM_ZE: No data available' \
	'[n001:2208242] 1 more process has sent help message help-mpi-btl-openib.txt / error in device init' \
	'[292KF14:2444590] PMIX ERROR: ERROR in file gds_ds12_lock_pthread.c at line 168' >"$TMP/notices.log"
exit_is 0 "a metric, optional backends missing, a help message counted, PMIx's store lock: a pass" "$TMP/notices.log"

# a connect refused and retried after a pause, the run going on: a pass; a node given up
# for dead: an error whatever the line's level; an object store that is full: the resource
printf '%s\n' 'W0403 16:58:58.419081   342 gen_comm_id_helper.cc:120] connect addr=10.0.0.4:6070 failed 4 times with reason: Connection refused retry after 2 seconds' \
	'I0403 16:59:02.923162   342 nccl_context.cc:74] init nccl context nranks: 4 local rank: 0 gpu id: 0 ring id: 0' >"$TMP/retry.log"
exit_is 0 "a connection retried after a pause, then the run goes on: a pass" "$TMP/retry.log"
cause_is "kind detail" "unresolved words:node-lost" "a node marked dead for missed heartbeats" \
	'2022-05-25 15:32:08,924	WARNING worker.py:1416 -- The node with node id: 46d2 and address: 10.0.0.7 has been marked dead because the detector has missed too many heartbeats from it.'
cause_is "kind detail" "memory/resource words:store-full" "an object store that is full" \
	'[2022-02-07 04:20:03,942 E 1225 1225] plasma_store_provider.cc:122: Failed to put object 641e in object store because it is full. Object size is 219375455268 bytes.'

# c10d trying one address of a name, then the next, and the run going on: a pass, whatever the
# errno; the connect that gave up on every address of a host of digits alone names the
# address the resolver made of it
printf '%s\n' '[W socket.cpp:558] [c10d] The client socket has failed to connect to [localhost]:18630 (errno: 99 - Cannot assign requested address).' \
	'[W ..\torch\csrc\distributed\c10d\socket.cpp:601] [c10d] The client socket has failed to connect to [AIBOT]:29500 (system error: 10049 - The requested address is not valid in its context.).' \
	"[W socket.cpp:558] [c10d] The IPv6 network addresses of (pytorch-workers-0-0.pytorch-workers, 3389) cannot be retrieved (gai error: -2 - Name or service not known)." \
	"[1759897476.656352] [xe9680l:333972:f]        vfs_sock.c:63   UCX  DIAG  failed to create directory '/run/user/0/ucx': No such file or directory" \
	'epoch 1 loss 0.5' >"$TMP/c10dtry.log"
exit_is 0 "c10d's tries of one address or address family each, UCX's DIAG level, then the run: a pass" "$TMP/c10dtry.log"
cause_is "kind ip port" "network-unreachable 0.104.99.143 47389" \
	"a host name of digits alone: the address it is read as" \
	'[W socket.cpp:697] [c10d] The client socket has failed to connect to 0.104.99.143:47389 (errno: 110 - Connection timed out).' \
	'[E socket.cpp:753] [c10d] The client socket has failed to connect to any network address of (6841231, 47389).'
run "$HCCLCTL" doctor --logs "$CI_LOG"
check_out_contains "peer 0.104.99.143 (no host has an address in 0.0.0.0/8: a host name of digits alone is read as one)" \
	"  and says why no host answers there"

# the kernel's OOM killer on one node, and the peer that lost its socket to it crashing: the
# memory, on the node it ran out on
mkdir -p "$TMP/oomk/node0" "$TMP/oomk/node1"
printf '%s\n' 'Killed' 'May 19 08:46:24 ubuntu kernel: [107061.602328] main invoked oom-killer: gfp_mask=0x1100dca(GFP_HIGHUSER_MOVABLE|__GFP_ZERO), order=0, oom_score_adj=0' >"$TMP/oomk/node0/stdout.txt"
printf '%s\n' 'Client connected' "terminate called after throwing an instance of 'ReadSocketException'" '  what():  std::exception' 'Aborted' >"$TMP/oomk/node1/stdout.txt"
run "$HCCLCTL" --json doctor --logs "$TMP/oomk"
cause kind detail node
check_out "memory/resource oom-killer-invoked node0" \
	"the OOM killer's report on one node outranks the crash of the peer it cut off"

# a library call that refused one of its arguments is the program's (a bug or parts that do
# not fit), not a value the job was given; a device index the job gave stays the setup's
cause_is "kind detail" "unresolved words:invalid-argument" "a library call refused an argument" \
	'flagcxInvalidArgument: Invalid value for an argument.'
cause_is "kind detail" "config words:invalid" "  but a device index the job gave is its setup" \
	"Cuda failure common.cu:891 'invalid device ordinal'"

# what a release says it does not do yet, with a word of time between: the setup's
cause_is "kind detail" "config words:unsupported" "a checkpoint of another world size: not currently supported" \
	"deepspeed.runtime.zero.utils.ZeRORuntimeException: The checkpoint being loaded used a DP world size of 32 but the current world size is 128. Automatic adjustment of ZeRO's optimizer state partitioning with a new world size is not currently supported."
# an operation with no kernel for the data type it was given (vllm-ascend 12907, verbatim)
cause_is "kind detail" "config words:unsupported" "an operation not implemented for the data type given" \
	'aclnnQuantMatmulWeightNz failed, error code is 161002' 'AclNN_Parameter_Error(EZ1001):' \
	'Tensor scale not implemented for DT_FLOAT16,' 'should be in dtype support list' \
	'[DT_UINT64, DT_BFLOAT16, DT_INT64, DT_FLOAT].'
# advice under a condition is not a failure: Ray's banner once its head node started
printf '%s\n' '--------------------' 'Ray runtime started.' '--------------------' \
	'  If connection to the dashboard fails, check your firewall settings and network configuration.' >"$TMP/ray.log"
exit_is 0 "a condition with advice under it (Ray's banner): a pass, exit 0" "$TMP/ray.log"

# ibstat and ibv_devinfo print a port's state indented under its device's heading: the
# heading names the NIC of the port that is down, not the first device listed
cause_is "kind detail nic" "link-down rdma-port-error mlx5_1" \
	"ibstat: State: Down under CA 'mlx5_1'" \
	"CA 'mlx5_0'" '	Port 1:' '		State: Active' "CA 'mlx5_1'" '	Port 1:' \
	'		State: Down' '		Physical state: Disabled'
run "$HCCLCTL" doctor --logs "$CI_LOG"
check_out_contains "an RDMA NIC port went down on node node0 (mlx5_1)" "  the text names it"
cause_is "kind nic" "link-down mlx5_2" "ibv_devinfo: PORT_DOWN under hca_id: mlx5_2" \
	'hca_id:	mlx5_2' '	transport:			InfiniBand (0)' '		port:	1' \
	'			state:			PORT_DOWN (1)'

# HPL's zero counts ("0 tests skipped because of illegal input values.") are no failure;
# a frame of MPICH's error stack is an error of its heading's rank, the deepest saying why; a
# path that is not there is the job's setup
printf '%s\n' '              1 tests completed and passed residual checks,' \
	'              0 tests completed and failed residual checks,' \
	'              0 tests skipped because of illegal input values.' >"$TMP/hpl.log"
exit_is 0 "HPL's summary of zero failed and skipped tests: a pass" "$TMP/hpl.log"
cause_is "kind detail rank" "config words:unsupported 0" "the deepest frame of an error stack" \
	'Abort(739379727) on node 0 (rank 0 in comm 0): Fatal error in internal_Open_port: Other MPI error, error stack:' \
	'internal_Open_port(86).......: MPI_Open_port(MPI_INFO_NULL, port_name=0x1612690) failed' \
	'MPID_Open_port(238)..........: ' \
	'MPIDI_UCX_get_local_upids(31): The function is currently not supported with ucx netmod'
cause_is "kind detail" "config words:missing-file" "a script not there on a worker" \
	"10.141.250.227: /usr/bin/python3: can't open file 'train_mpu.py': [Errno 2] No such file or directory"

# a version stated for this end and for the peer ("Local PRTE version", "Peer PRTE version")
# compares the two ends: different releases are a version mismatch, the same are none
cause_is "kind detail" "version-mismatch differs-across-nodes" "PRTE 3.0.7 here, 3.0.8 at the peer" \
	'Local PRTE version: 3.0.7' 'Peer PRTE version: 3.0.8'
printf '%s\n' 'Local PRTE version: 3.0.8' 'Peer PRTE version: 3.0.8' >"$TMP/pv.log"
exit_is 0 "  the same release at both ends: a pass" "$TMP/pv.log"

# Docker Compose's service prefix ("name  | ") comes off: traceback frames alone still say a
# process raised; a level word before '|' (loguru's "ERROR    | ...") is no service
cause_is "kind node" "unresolved node0" "a compose service's traceback frames" \
	'deepseek-v3_2-exp-w8a8 |  File "/usr/local/python3.11.13/lib/python3.11/site-packages/sglang/srt/managers/tp_worker.py", line 253, in __init__' \
	'deepseek-v3_2-exp-w8a8 |    self._model_runner = ModelRunner('
printf '%s\n' 'ERROR    | train:main:12 - rendezvous failed' >"$TMP/lg.log"
exit_is 1 "  loguru's level before '|': still an error line (a warning), never a pass" "$TMP/lg.log"

# a release's own default that its build lacks (PyTorch's Windows wheels asking for libuv) is a
# release that does not fit; a feature the job asked for that its build lacks is its setup
cause_is "kind detail" "version-mismatch words:version" "PyTorch built without libuv" \
	'torch.distributed.DistStoreError: use_libuv was requested but PyTorch was built without libuv support, run with USE_LIBUV=0 to disable it.'

# the source line Python quotes under a frame is code, not the failure ("timeout=timeout" is an
# argument); a raise there still says what was raised where the exception's line is missing
cause_is "kind rank" "rank-stuck 0" "the exception's line, not the code above it" \
	'Traceback (most recent call last):' \
	'  File "/usr/lib/python3.8/site-packages/composer/utils/ddp.py", line 205, in initialize_ddp' \
	'    dist.init_process_group(backend, timeout=timeout)' \
	'RuntimeError: Timed out initializing process group in store based barrier on rank: 0, for key: store_based_barrier_key:1 (world_size=8, worker_count=7, timeout=0:00:05)'
cause_is "kind" "rank-stuck" "  a raise ending an excerpt" \
	'(ApiServer_0 pid=559)   File "/vllm-workspace/vllm/vllm/v1/engine/core_client.py", line 496, in __init__' \
	'(ApiServer_0 pid=559)     raise TimeoutError("Timed out waiting for engines to send"'
cause_is "kind detail" "rank-stuck words:timeout" "a wait given up on: waiting for ..., bailing out" \
	'RuntimeError: Waiting for local rank 0, bailing out: 60.000 < 60.053 sec.'

# a tool's heading names the device of the lines indented under it: nvidia-smi nvlink -s
cause_is "kind detail device" "link-down nvlink-inactive 3" "an inactive NVLink link of GPU 3" \
	'GPU 3: Tesla V100-SXM2-32GB (UUID: GPU-0000)' '         Link 2: 25.781 GB/s' \
	'         Link 3: <inactive>'

# a level of logging as a setting's value is no error
printf '%s\n' '2024:12:04-08:29:37:(158466) |CCL_WARN| value of CCL_LOG_LEVEL changed to be error (default:warn)' >"$TMP/lv.log"
exit_is 0 "a log level changed to error: a pass" "$TMP/lv.log"
printf '%s\n' 'log level error: cannot open /etc/app.conf' >"$TMP/lv.log"
exit_is 1 "  but 'error' opening a clause that goes on is one" "$TMP/lv.log"

# a call's errno, not 0, makes a line an error in any words; EPERM's number is an access
# refused. Names that do not resolve and EPERM's text read as errors too
cause_is "kind detail" "config words:permission" "errno = 1 with no error word" \
	'[v4.radia.run:00192] Read -1, expected 10024, errno = 1'
printf '%s\n' 'connected, errno = 0' >"$TMP/en.log"
exit_is 0 "  errno = 0: a pass" "$TMP/en.log"
cause_is "kind detail" "config words:permission" "sshd's Operation not permitted" \
	'chroot("/run/sshd"): Operation not permitted [preauth]'
cause_is "kind detail" "network-unreachable words:name-resolution" "ping's unknown host" \
	'ping: unknown host lm-mpi-job-mpiworker-0.lm-mpi-job'

# a fallback said in its own clause is no failure; "instead of" (a wrong value) and advice to
# do otherwise are
printf '%s\n' '2020-08-26 21:46:26.895808: W tensorflow/core/common_runtime/eager/context.cc:566] Unable to destroy server_ object, so releasing instead. Servers don'"'"'t support clean shutdown.' >"$TMP/fb.log"
exit_is 0 "a failed step and the fallback taken: a pass" "$TMP/fb.log"
for l in 'ioctl failed: Returned "Error" (-1) instead of "Success" (0)' \
	'W0520 failed to get IP address of peer server, use IPv4 address instead'; do
	printf '%s\n' "$l" >"$TMP/fb.log"
	exit_is 1 "  '$l': an error line" "$TMP/fb.log"
done

# a peer address no host can have (0.0.0.0/8, multicast and above) is the job's setting
cause_is "kind detail ip port" "config unusable-peer-address 0.1.68.146 63314" "a connection to 0.1.68.146" \
	'I1127 21:38:31.255204 3935673 tcp_utils.cc:107] Retry to connect to 0.1.68.146:63314 while the server is not yet listening.'
cause_is "kind detail" "network-unreachable words:connect-failed" "  to 10.1.68.146: the network's" \
	'I1127 21:38:31.255204 3935673 tcp_utils.cc:107] Retry to connect to 10.1.68.146:63314 while the server is not yet listening.'

# NCCL's tree line names the writer's own rank: the failure below it is that rank's
cause_is "kind rank device" "memory/resource 0 3" "the rank of NCCL's Trees line" \
	'196d1db4e5fe:15374:15374 [3] NCCL INFO Trees [0] 1/-1/-1->0->-1 [1] 1/-1/-1->0->-1' \
	'196d1db4e5fe:15374:15374 [3] include/shm.h:48 NCCL WARN Error while creating shared memory segment nccl-shm-recv-a6fd15028d324d0c-0-3-0 (size 9637888)'

# "aborting job:" over its reason; a library a feature needs, not linked in, is the job's setup
cause_is "kind detail" "config words:library-missing" "Cray MPICH's GTL library not linked" \
	'aborting job:' 'MPIDI_CRAY_init: GPU_SUPPORT_ENABLED is requested, but GTL library is not linked'

# a status table's error field whose value is none is no error; one with a value is
printf '%s\n' 'Health Status                  : OK' 'Error Code                     : NA' 'Error Information              : NA' >"$TMP/na.log"
exit_is 0 "npu-smi's 'Error Code : NA': a pass" "$TMP/na.log"
printf '%s\n' 'Health Status                  : Alarm' 'Error Code                     : 0x80E01801' >"$TMP/na.log"
exit_is 1 "  'Error Code : 0x80E01801': an error line" "$TMP/na.log"

# the flight recorder's report of a collective scheduled but never started is a hang
cause_is "kind" "rank-stuck" "fr_trace: collective state: scheduled" \
	'Collective 39 at entry 38 errors' 'collective: nccl:all_reduce' 'world size: 128' \
	'collective state: scheduled'
# CUDA's "named symbol not found" inside NCCL: a build without this GPU's kernels
cause_is "kind" "version-mismatch" "NCCL's Cuda failure 'named symbol not found'" \
	"e54db9740f9d:228664:229081 [1] enqueue.cc:42 NCCL WARN Cuda failure 'named symbol not found'"

# a request over what there is, and a size too large, are errors in any words
cause_is "kind detail" "memory/resource words:memory" "Ray's object store over /dev/shm" \
	'[2026-03-25 05:44:29,435 W 39 39] (raylet) store_runner.cc:83: System memory request exceeds memory available in /dev/shm. The request is for 10200547328 bytes, and the amount available is 9663676416'
printf '%s\n' 'A received msg header indicates a size that is too large:' ' Requested size: 25836785' ' Size limit: 16777216' >"$TMP/tl.log"
exit_is 1 "PMIx's msg header too large: an error line, never a pass" "$TMP/tl.log"

# NCCL's collective calls compared across processes: the same place of one communicator with
# other arguments is a mismatch, named with both calls; a process with two communicators of
# one size is left out (their opCounts do not align), and send/receive are never compared
cause_is "kind detail node device" "op-mismatch call-arguments-differ learnfair062 0" "Broadcast count 25503912 on one rank, 53 on the others" \
	'LOG1.0.txt:learnfair062:32615:32615 [0] NCCL INFO Broadcast: opCount 0 sendbuff 0x7f88e4000000 recvbuff 0x7f88e4000000 count 25503912 datatype 6 op 0 root 0 comm 0x7f88e005a260 [nranks=8] stream 0x55f20d2f5db0' \
	'LOG1.1.txt:learnfair062:32617:32617 [1] NCCL INFO Broadcast: opCount 0 sendbuff 0x7f3bfe7f5400 recvbuff 0x7f3bfe7f5400 count 53 datatype 4 op 0 root 0 comm 0x7f3bf405a260 [nranks=8] stream 0x55d5ffb73' \
	'LOG1.2.txt:learnfair062:32619:32619 [2] NCCL INFO Broadcast: opCount 0 sendbuff 0x7fc1407f5400 recvbuff 0x7fc1407f5400 count 53 datatype 4 op 0 root 0 comm 0x7fc13805a260 [nranks=8] stream 0x55cefcc3b'
run "$HCCLCTL" doctor --logs "$CI_LOG"
printf '%s\n' "$OUT" | grep -qF "Broadcast count 25503912 datatype 6 op 0 root 0 on learnfair062:32615, but Broadcast count 53 datatype 4 op 0 root 0 on learnfair062:32617"
_report $? "  the odd call (one process's) first, then the others'" "$OUT"
# the odd process's GPU from NCCL's prefix (ROCm/rccl#429: device 2 gathered while the others
# reduced)
cause_is "kind device" "op-mismatch 2" "AllGather on the GPU [2], AllReduce on [0]" \
	'h03r3n06:45006:45006 [0] NCCL INFO AllReduce: opCount 28c sendbuff 0x7f5dd32b2100 recvbuff 0x7f5dd32b2100 count 9984512 datatype 7 op 0 root 0 comm 0x55bef0201370 [nranks=4] stream 0x55bef0208bd0' \
	'h03r3n06:45006:45006 [0] NCCL INFO AllReduce: opCount 28d sendbuff 0x7f5dd139b900 recvbuff 0x7f5dd139b900 count 8149504 datatype 7 op 0 root 0 comm 0x55bef0201370 [nranks=4] stream 0x55bef0208bd0' \
	'h03r3n06:45012:45012 [2] NCCL INFO AllGather: opCount 28c sendbuff 0x7f1fd894af00 recvbuff 0x7f1ed1c00100 count 59205120 datatype 0 op 0 root 0 comm 0x559c24b55610 [nranks=4] stream 0x559c248a3630' \
	'h03r3n06:45012:45012 [2] NCCL INFO AllGather: opCount 28d sendbuff 0x7f1fce20e500 recvbuff 0x7f2032532100 count 15360 datatype 0 op 0 root 0 comm 0x559c24b55610 [nranks=4] stream 0x559c248a3630'
for c in '0xa 0xc AllGather 8' '0xa 0xa AllReduce 1024' '0xa 0xc Send 8'; do
	set -- $c
	printf '%s\n' 'n1:100:100 [0] NCCL INFO AllReduce: opCount 5 sendbuff 0x1 recvbuff 0x1 count 1024 datatype 7 op 0 root 0 comm 0xa [nranks=2] stream 0x1' \
		"n2:200:200 [0] NCCL INFO AllReduce: opCount 5 sendbuff 0x1 recvbuff 0x1 count 1024 datatype 7 op 0 root 0 comm 0xb [nranks=2] stream 0x1" \
		"n1:100:100 [0] NCCL INFO $3: opCount 5 sendbuff 0x1 recvbuff 0x1 count $4 datatype 7 op 0 root 0 comm $2 [nranks=2] stream 0x1" >"$TMP/oc.log"
	exit_is 0 "  '$c': no mismatch to name (two communicators, the same call, or a send)" "$TMP/oc.log"
done

# Gloo's address families that differ, and SHARP on the subnet manager's port, are the job's
# setup
cause_is "kind detail rank" "config gloo-address-family 0" "Gloo: IPv4 at one end, IPv6 at the other" \
	'[rank0]: RuntimeError: [enforce fail at ../third_party/gloo/gloo/transport/tcp/device.cc:276] ss1.ss_family == ss2.ss_family. 2 vs 10'
cause_is "kind detail" "config sharp-port-sm" "SHARP on the port the subnet manager runs on" \
	'[C25L19:1:28576 unique id 1201360626793454896] ERROR collect_ports_data: device mlx5_0 port 1 is not valid (port is used by SM)'

# a sentence wrapped over two lines is read whole; ENOENT and a crash handler's heading are
# errors; the rmaps help text and a missing GPUDirect module are the job's setup
cause_is "kind detail" "config words:world-size" "a wrapped sentence: the two lines together name the world size" \
	'AssertionError: local_world_size (8) must be less than or equal to the number' \
	'of visible devices (0).'
cause_is "kind detail" "config words:invalid" "  not when the first line's sentence ended (its bound alone, no world size)" \
	'AssertionError: local_world_size (8) must be less than or equal to the number.' \
	'of visible devices (0).'
cause_is "kind detail" "config words:missing-file" "bash without the program it was to start" \
	'/bin/bash: line 1: /usr/sbin/sshd: No such file or directory'
cause_is "kind detail" "unresolved words:crash" "Open MPI's crash handler heading" \
	'[rtptest1621:405884] *** Process received signal ***'
cause_is "kind detail" "config mpi-not-enough-slots" "mpirun asked for more slots than the hosts have" \
	'Either request fewer slots for your application, or make more slots' 'available for use.'
cause_is "kind detail" "config gdr-module-missing" "NVSHMEM without nvidia_peermem" \
	'/sgl-workspace/nvshmem/src/modules/transport/ibrc/ibrc.cpp:nvshmemt_init:1851: neither nv_peer_mem, or nvidia_peermem detected. Skipping transport.' \
	'/sgl-workspace/nvshmem/src/host/topo/topo.cpp:469: [GPU 1] Peer GPU 0 is not accessible, exiting ...'

# a launcher stopped by a signal from outside, a queue used up, a maximum the job's setting
# puts
cause_is "kind detail" "config words:stopped-from-outside" "torch elastic's agent stopped from outside" \
	'WARNING:torch.distributed.elastic.agent.server.api:Received 1 death signal, shutting down workers' \
	'WARNING:torch.distributed.elastic.multiprocessing.api:Sending process 4193 closing signal SIGHUP'
cause_is "kind detail" "memory/resource words:limit" "MPICH's completion queue used up" \
	'PE 4: MPICH WARNING: OFI is failing to make progress on posting a receive. MPICH suspects a hang due to completion queue exhaustion. Setting environment variable FI_CXI_DEFAULT_CQ_SIZE to a higher number might circumvent this scenario. OFI retry continuing...'
cause_is "kind detail" "config words:setting" "more nodes than the rendezvous allows" \
	'ft_rendezvous_barrier.py:1458 [node-A...] Maximum number of nodes (4) exceeded. Active participant count would be 5 (joined=5, left=0). This is likely a configuration error - please check max_nodes setting.'

# a call's errno makes a line an error, but not after a word that calls it informational (a
# probe the program goes on from)
cause_is "kind detail" "config errno-no-device" "an errno at no level: an error" \
	'Call to mlx5dv_get_data_direct_sysfs_path failed with error No such device errno 19'
printf '%s\n' '0: host:1:2 [0] NCCL INFO Call to mlx5dv_query_device failed errno 95' \
	'0: host:1:2 [0] NCCL INFO Init COMPLETE' >"$TMP/einfo.log"
exit_is 0 "  at NCCL's INFO level: a probe, the log passes" "$TMP/einfo.log"

# a program refusing its command line; a kernel module not loaded; a failure the program says
# it ignored is none
cause_is "kind detail" "config words:arguments" "a start script refusing an option" \
	'Starting NVIDIA fabric manager daemon for NVLink5+...' \
	'Unknown option: /usr/share/nvidia/nvswitch/fabricmanager.cfg'
cause_is "kind detail" "config words:module-not-loaded" "a kernel module not loaded" \
	'Jul 20 16:15:36 edge-...:  Kernel module "ib_umad" has not been loaded, fabric manager cannot be started'
printf '%s\n' '[adroit-h11g1:04999] mca_base_component_repository_open: unable to open mca_btl_usnic: libfabric.so.1: cannot open shared object file: No such file or directory (ignored)' \
	'Hello from rank 0' >"$TMP/ign.log"
exit_is 0 "a failure the program says it ignored: the log passes" "$TMP/ign.log"

# Gloo's size check, and its question under it: the ranks' collectives differ
cause_is "kind detail" "op-mismatch words:collective-mismatch" "Gloo's collective mismatch" \
	'what(): [enforce fail at .../gloo/transport/tcp/pair.cc:456]' \
	'op.preamble.length <= op.nbytes. 8 vs 4.' \
	"Received data size doesn't match expected size." \
	'Is there a distributed collective mismatch in your code?'

# a plugin not found; a NIC the transport cannot open; an error line that ends in advice on a
# setting (not advice on debugging); Python's RuntimeWarning is a warning
cause_is "kind detail" "config words:plugin-missing" "Slurm without the MPI plugin asked for" \
	"srun: error: Couldn't find the specified plugin name for mpi/pmix looking at all files" \
	'srun: error: cannot find mpi plugin for mpi/pmix'
cause_is "kind detail" "config words:no-interface" "PSM3 on a NIC it cannot open" \
	'login1:rank0: PSM3 can'"'"'t open nic unit: 0 (err=23)'
cause_is "kind detail" "config words:advised-setting" "advice on a setting under the failure" \
	'[TensorRT-LLM][WARNING] CacheTransceiver getOrAllocateBuffers: bufferCoverTargetNum:0 < targetNum:1,' \
	'may use dynamic buffer which will fail with NIXL backend. It is recommended to set' \
	'cacheTransceiverConfig.MaxTokensInBuffer to a value greater than the maximum ISL of processed requests.'
cause_is "kind detail" "unresolved framework" "advice on debugging names no setting" \
	'(Worker pid=13) ERROR 05-26 02:27:07 [multiproc_executor.py:962] RuntimeError: operator failed' \
	'(Worker pid=13) ERROR 05-26 02:27:07 [multiproc_executor.py:962] Since the operator is called asynchronously, the stacktrace may be inaccurate. If you want to get the accurate stacktrace, please set the environment variable ASCEND_LAUNCH_BLOCKING=1.'
printf '%s\n' '/opt/venv/lib/python3.10/site-packages/numpy/core/_methods.py:129: RuntimeWarning: invalid value encountered in scalar divide' \
	' [2025-06-01 10:00:00] iteration       10/      10 | consumed samples: 640' >"$TMP/rtw.log"
exit_is 0 "Python's RuntimeWarning: the log passes" "$TMP/rtw.log"

# a help message framed by dashes that says the program went on without what failed is a
# notice (its words may wrap); Open MPI's count of the same help printed again is none; a
# failure outside the frame is still read
printf '%s\n' '> mpiexec -n 4 ./hello_world' '--------------------------------' \
	'[[32506,1],1]: A high-performance Open MPI point-to-point messaging module' \
	'was unable to find any relevant network interfaces:' '' 'Module: OpenFabrics (openib)' \
	'  Host: node7' '' 'Another transport will be used instead, although this may result in' \
	'lower performance.' '--------------------------------' 'Hello world!' \
	'[node7:36270] 3 more processes have sent help message help-mpi-btl-base.txt / btl:no-nics' \
	'[node7:36270] Set MCA parameter "orte_base_help_aggregate" to 0 to see all help / error messages' >"$TMP/fb.log"
exit_is 0 "a help message that states its fallback: the log passes" "$TMP/fb.log"
cause_is "kind detail" "link-down words:link-down" "the same frame with the words wrapped, then PSM2 on no active port" \
	'--------------------------------------------------------------------------' \
	'WARNING: There is at least non-excluded one OpenFabrics device found,' \
	'but there are no active ports detected (or Open MPI was unable to use' \
	'them).  The openib BTL will be' 'ignored for this job.' \
	'--------------------------------------------------------------------------' \
	'e001.53882PSM2 no hfi units are active (err=23)'
cause_is "kind detail" "unresolved words:fatal" "a frame without a fallback is read" \
	'--------------------------------------------------------------------------' \
	'It looks like MPI_INIT failed for some reason; your parallel process is' \
	'likely to abort.' \
	'--------------------------------------------------------------------------'
cause_is "kind detail" "link-down words:link-down" "an error number labelled err=, on an Omni-Path port not active" \
	'e001.53882PSM2 no hfi units are active (err=23)'
printf '%s\n' 'wifi_scan: 20 APs found (err=0)' >"$TMP/err0.log"
exit_is 0 "an error number of 0 is no error" "$TMP/err0.log"

# a deadlock named is a hang (one foretold is none); a call that does not fit the signature of
# the function it calls is a version mismatch; an error measured as a real number, and a
# solver arming its floating-point traps, are no failure
cause_is "kind detail" "rank-stuck words:hang" "a deadlock named" \
	'NCCL deadlock: rank0 sends 128 elements, rank1 expects 256'
cause_is "kind detail" "version-mismatch words:version" "a call that does not fit its callee" \
	'rogpt1: TypeError: DSElasticAgent._set_master_addr_port() takes 3 positional arguments but 4 were given'
printf '%s\n' 'sigFpe : Enabling floating point exception trapping (FOAM_SIGFPE).' \
	'time step continuity errors : sum local = 0.000341587, global = 4.9514e-06, cumulative = 4.9514e-06' \
	'End' >"$TMP/foam.log"
exit_is 0 "an error measured as a real number: the log passes" "$TMP/foam.log"
cause_is "kind detail" "unresolved unclassified" "an error whose value the sentence goes on about is read" \
	'max error: 0.5 is out of range'

# a step the program adjusts and says how is no failure; a logging level given as a setting's
# value is none whatever follows it; a job the scheduler ended at its time limit is a timeout
printf '%s\n' 'srun: warning: can'"'"'t run 1 processes on 8 nodes, setting nnodes to 1' \
	'root@eos0379:/work# env UCX_LOG_LEVEL=ERROR UCX_TLS=^gdr_copy mpirun --allow-run-as-root -np 2 --hostfile myhostfile launch.sh nixlbench' \
	'done' >"$TMP/adj.log"
exit_is 0 "srun adjusting its node count, and a logging level set: the log passes" "$TMP/adj.log"
cause_is "kind detail" "config words:setting" "a setting advised, not adjusted, is read" \
	'error: shared memory is too small, setting the -shm-size option is needed'
cause_is "kind detail" "rank-stuck words:timeout" "a job ended at its time limit" \
	' 0: slurmstepd: error: *** STEP 8384637.13 ON nid001044 CANCELLED AT 2023-05-02T03:58:46 DUE TO TIME LIMIT ***' \
	'srun: Job step aborted: Waiting up to 32 seconds for job step to finish.'

# NCCL probing a NIC's optional call at INFO, behind a launcher's rank label: no failure
printf '%s\n' ' 0: timsnt8:34204:35179 [0] NCCL INFO Call to mlx5dv_get_data_direct_sysfs_path failed with error No such device errno 19' \
	' 0: timsnt8:34204:35179 [0] NCCL INFO Init COMPLETE' >"$TMP/probe19.log"
exit_is 0 "an optional call NCCL probes at INFO, behind srun's label: the log passes" "$TMP/probe19.log"

# a port the failing line does not give is not named as -1
printf '%s\n' 'F0328 09:49:12.070510 19275 LightNetwork.cpp:190] Check failed: bind(socket_, (struct sockaddr *)&serv_addr, sizeof(serv_addr)) >= 0 ERROR on binding 10.73.29.43: Address already in use [98]' >"$TMP/bind.log"
run "$HCCLCTL" doctor --logs "$TMP/bind.log"
check_rc 2 "a bind refused without its port: exit 2"
printf '%s\n' "$OUT" | grep -q '^FAIL  logs.cause .* config (port-bound): a port on 10.73.29.43 (node node0) cannot be listened on: another process holds it$'
_report $? "  the address named, the port not made up" "$OUT"

# versions that do not match explain the argument refused after them; a link passing errors;
# a peer's address in a Python tuple, quoted, and its port
cause_is "kind detail" "version-mismatch words:version" "a version mismatch outranks the refused value it causes" \
	'Client and server program versions do not match!' 'cxi_write_bw: 1.3.0' \
	'Failed to exchange client/server config: Invalid argument'
cause_is "kind detail" "link-down words:link-errors" "a link with a non-zero error rate" \
	'x2510c7s6b0n0: Warning: encountered unexpected Link Mode NA for non-zero error rate 595424'
cause_is "kind ip port" "network-unreachable 192.168.21.50 8394" "Horovod's quoted address and port" \
	"horovod.runner.common.util.network.NoValidAddressesFound: Horovod was unable to connect to task service #1 on any of the following addresses: {'ens192': [('192.168.21.50', 8394)]}."

# a tally of counts at zero, label after label, is no failure; a job step asking for more
# than its allocation
printf '%s\n' 'Hosts = 4 Count = 8 Skipped = 0 Failed = 0 Missing = 0' >"$TMP/tally.log"
exit_is 0 "a tally of counts at zero: the log passes" "$TMP/tally.log"
cause_is "kind detail" "unresolved unclassified" "a count that is not zero in the tally is read" \
	'Hosts = 4 Count = 8 Skipped = 0 Failed = 2 Missing = 0'
cause_is "kind detail" "config words:allocation" "a step asking for more than its allocation" \
	'srun: error: Unable to create step for job 551: More processors requested than permitted'

# a value refused (numactl's CPUs, quoted whole) outranks the time limit it led to, and srun's
# label names the task; a resource found too small; a NIC's uncorrectable error, abbreviated
cause_is "kind detail rank" "config words:invalid 0" "a refused value before the time limit, srun's label its rank" \
	'0: libnuma: Warning: cpu argument 64-71 is out of range' '0: <0-7,64-71> is invalid' \
	'srun: error: 292KF14: task 0: Exited with exit code 1' \
	'0: slurmstepd: error: *** STEP 2545.7 ON 292KF14 CANCELLED AT 2024-04-19T14:08:52 DUE TO TIME LIMIT ***'
cause_is "kind detail" "memory/resource words:insufficient" "huge pages too few to start" \
	'cxi_write_bw: Insufficient 2M huge pages. Need 8 to run'
cause_is "kind detail nic" "hardware words:hardware cxi3" "a NIC's uncorrectable error, abbreviated, and its device" \
	'x4614c2s0b0n0 : TXC (0x4aaf2:0:0): Request dest_addr: 483 caddr.nic: 0X49AF0 caddr.pid: 1 rxc_id: 0  error: 0x84d1a20 (err: 5, UNDELIVERABLE)' \
	'[Thu Jul 13 01:57:31 2023] cxi_core 0000:c3:00.0: cxi3[hsn3]: C_EC_UNCOR_NS: C1_PCT error: tct_cam_ucor (42) (was first error at 1689213438:290566940)'

# NCCL's "unhandled system error" alone names no kind (a socket, shared memory, pinned
# memory); the line before it that says which does
cause_is "kind detail" "unresolved ncclSystemError" "an unhandled system error alone is no network fault" \
	'RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)'
cause_is "kind detail peer_ip" "network-unreachable errno-refused 10.148.3.247" "the refused connection before it names the kind" \
	'r11i6n2:1213:1320 [0] include/socket.h:403 NCCL WARN Connect to 10.148.3.247<56821> failed : Connection refused' \
	'RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)'

# a setting advised as its assignment; the step daemon's words through a task's stream name
# no task, srun's own line does
cause_is "kind detail" "config words:advised-setting" "an assignment the library asks for" \
	'RuntimeError: oneCCL: global.cpp:150 getenv_local_coord: EXCEPTION: to get local_idx/count from ATL, set CCL_ZE_IPC_EXCHANGE=sockets explicitly'
cause_is "kind detail rank" "memory/resource words:memory 2" "the OOM-killed task is srun's, not the relaying label's" \
	'0: slurmstepd: error: Detected 1 oom_kill event in StepId=17109804.0. Some of the step tasks have been OOM Killed.' \
	'srun: error: nid008576: task 2: Out Of Memory'

# nvidia-smi unable to open a GPU is the GPU's fault; a GPU named by its index in PyTorch's
# out-of-memory message; NVML handed a buffer too small is no resource the job lacks
cause_is "kind detail" "hardware words:hardware" "nvidia-smi unable to open a GPU" \
	'inst-ghz1n-nrt-4k-gpu-instance-pool: Unable to determine the device handle for GPU0000:0F:00.0: Unknown Error'
cause_is "kind device" "memory/resource 7" "the GPU of an out-of-memory message" \
	'7: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.16 GiB. GPU 7 has a total capacity of 139.80 GiB of which 1.28 GiB is free.'
cause_is "detail" "unclassified" "NVML's buffer too small is no job's resource" \
	'16: slurmstepd: error: NVML: Failed to get Compute running procs(7): Insufficient Size'

# a timeout's value stated right after it is a setting, not a wait that ran out; one that says
# the span ran out is
printf '%s\n' '[W1009 03:41:43.594398300 ProcessGroupHCCL.cpp:1294] Warning: The watchdog timeout 90000ms(which is set by init_process_group) is less than or equal to HCCL execution timeout 1836000ms! The plog may not be recorded. (function ProcessGroupHCCL)' >"$TMP/tmoset.log"
exit_is 0 "two timeouts' values compared: the log passes" "$TMP/tmoset.log"
cause_is "kind detail" "rank-stuck words:timeout" "a timeout whose span was exceeded is a wait that ran out" \
	'ERROR: rendezvous timeout 30s exceeded waiting for 4 workers'

# MPI_Abort names what ended the job, the rank's own error before it says why: two values of
# the job that do not fit (not a program's own assertion)
cause_is "kind detail" "config words:invalid" "the error before MPI_Abort is the cause" \
	' ERROR 2 (22->a0003): Number of processes (32) != nprow (8) * npcol (8)' \
	' at (src/grid.hpp:29)' \
	'MPI_ABORT was invoked on rank 19 in communicator MPI_COMM_WORLD' 'with errorcode 2.'

# a rank gone in the launcher's plain words never passes; the task that exited right after an
# error raised it
printf '%s\n' 'x3103c0s7b0n0.hsn.cm.polaris.alcf.anl.gov: rank 0 died from signal 15' >"$TMP/died.log"
exit_is 1 "a rank that died: no pass" "$TMP/died.log"
cause_is "kind detail rank" "memory/resource words:limit 7" "the task that exited just after the error" \
	'RuntimeError: Too many open files. Communication with the workers is no longer possible. Please increase the limit using `ulimit -n` in the shell' \
	'[b0004 r1] mode=dataloader iter=0 files=187015 bytes=21432352802 t=9.92s 2.012 GB/s' \
	'srun: error: b0010: task 7: Exited with exit code 1'

# NCCL's "unhandled cuda error" alone names no kind either; the CUDA error before it does
cause_is "kind detail" "unresolved ncclUnhandledCudaError" "an unhandled cuda error alone is no hardware fault" \
	'RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)'
cause_is "kind" "hardware" "the uncorrectable ECC error before it names the kind" \
	'node1:4242:4260 [1] enqueue.cc:1520 NCCL WARN Cuda failure '"'"'uncorrectable ECC error encountered'"'"'' \
	'RuntimeError: NCCL error: unhandled cuda error (run with NCCL_DEBUG=INFO for details)'

# a requirement on two values of the job, unmet
cause_is "kind detail" "config words:invalid" "a count that must match another" \
	'Assertion Failed: Number of MPI ranks must match decomposition, expected 12288 ranks'

# a log pasted into Markdown notes keeps its quote marks: the task is still read
cause_is "kind rank" "memory/resource 2" "quote marks of a pasted log are the page's" \
	'> 0: slurmstepd: error: Detected 1 oom_kill event in StepId=17109804.0. Some of the step tasks have been OOM Killed.' \
	'> srun: error: nid008576: task 2: Out Of Memory'

# NCCL's ncclRemoteError says a peer exited or the network failed, not which, nor that
# anything waited (real-logs-new batch329, NVIDIA/JAX-Toolbox#194)
cause_is "kind detail" "unresolved ncclRemoteError" "a lost peer, cause unknown" \
	'2023-08-25 11:06:39.330561: E external/xla/xla/service/gpu/nccl_utils.cc:191] Aborting communicator: 0x5555a108ff90 due to async NCCL error: remote process exited or there was a network error'

# the errno under NCCL's shared-memory failure says why it failed: refused access, not a
# /dev/shm too small (real-logs-new batch347, pytorch/pytorch#37004)
cause_is "kind detail" "config errno-access" "a shared-memory segment refused, not too small" \
	'node08:27106:27302 [0] include/shm.h:27 NCCL WARN Call to shm_open failed : Permission denied' \
	'node08:27106:27302 [0] NCCL INFO include/shm.h:41 -> 2' \
	'node08:27106:27302 [0] include/shm.h:48 NCCL WARN Error while creating shared memory segment nccl-shm-recv-b7948f403864987a-0-3-0 (size 4460544)'

# a help message's sentence wrapped before its error word: the line above is read with it
# (real-logs-new batch390, open-mpi/ompi#13570)
cause_is "kind detail" "config words:allocation" "a node outside the allocation, its words over two lines" \
	'--------------------------------------------------------------------------' \
	'The specified LSF affinity file contained a node (server1.example.com) that is not in your' \
	'allocation. We therefore cannot map a process rank to it. Please' \
	'check your allocation and affinity file to ensure the latter only'
# ... but not a traceback's frame over its exception, a line of its own
cause_is "kind detail" "unresolved words:exit" "an exception under its frame is not wrapped text" \
	'  File "/usr/lib/python3.9/subprocess.py", line 373, in check_call' \
	'subprocess.CalledProcessError: Command '"'"'[ssh, 192.168.3.100, hostname]'"'"' returned non-zero exit status 255.'
# a job record's failing exit status, no other word (real-logs-new batch390)
cause_is "kind detail" "unresolved words:exit" "Torque's exit status, not 0" \
	'Execution terminated' 'Exit_status=271' 'resources_used.walltime=20:19:30'
printf '%s\n' 'Execution terminated' 'Exit_status=0' 'resources_used.walltime=20:19:30' >"$TMP/x0.log"
exit_is 0 "an exit status of 0 is no failure: exit 0" "$TMP/x0.log"

# a stack dump with no exception under it that ends in a wait: the process was waiting
# there (real-logs-new batch420, pytorch/torchrec#189); one that ends elsewhere raised
cause_is "kind detail" "rank-stuck words:waiting-call" "a dump whose innermost frame waits" \
	'  File "/envs/lib/python3.9/site-packages/torchrec/distributed/embedding.py", line 325, in input_dist' \
	'    tensor_awaitable = tensor_awaitable.wait()  # finish lengths all2all' \
	'  File "/envs/lib/python3.9/site-packages/torchrec/distributed/types.py", line 117, in wait' \
	'    ret: W = self._wait_impl()'
cause_is "kind detail" "unresolved words:exception" "a dump that ends in another call" \
	'  File "/envs/lib/python3.9/site-packages/torchrec/distributed/embedding.py", line 325, in input_dist' \
	'    tensor_awaitable = tensor_awaitable.wait()  # finish lengths all2all' \
	'  File "/envs/lib/python3.9/site-packages/torchrec/distributed/types.py", line 117, in forward' \
	'    ret = self.compute(ctx, dist_input)'

# a py-spy dump whose main thread's innermost frames are a collective: that process was
# blocked there (huggingface/transformers#22363); another thread idle in a wait is not that
cause_is "kind detail" "rank-stuck words:waiting-call" "a py-spy dump blocked in broadcast" \
	'Thread 27321 (active): "MainThread"' \
	'    broadcast (torch/distributed/distributed_c10d.py:1555)' \
	'    wrapper (torch/distributed/distributed_c10d.py:1436)' \
	'    _broadcast_model (deepspeed/runtime/engine.py:1105)'
printf '%s\n' 'Thread 0x7F7D9CFF9640 (idle): "Thread-2"' '    wait (threading.py:324)' \
	'    run (tqdm/_monitor.py:60)' >"$TMP/spy0.log"
exit_is 0 "a helper thread idle in a wait is no hang: exit 0" "$TMP/spy0.log"

# a failure to connect that a later line of the same run says was made (SageMaker's MPI
# worker waiting for the master's ssh daemon, real-logs-new batch1170): no failure; without
# the line that says so, the address that could not be reached is the cause
printf '%s\n' '2021-05-11 19:59:14,961 sagemaker-training-toolkit INFO     Cannot connect to host algo-1' \
	'2021-05-11 19:59:14,961 sagemaker-training-toolkit INFO     Connection failed with exception: ' \
	' [Errno None] Unable to connect to port 22 on 10.0.97.76' \
	'2021-05-11 19:59:15,967 paramiko.transport INFO     Connected (version 2.0, client OpenSSH_7.6p1)' \
	'2021-05-11 19:59:16,062 paramiko.transport INFO     Authentication (publickey) successful!' \
	'2021-05-11 19:59:16,062 sagemaker-training-toolkit INFO     Can connect to host algo-1' >"$TMP/conn.log"
exit_is 0 "a connection made after it failed: exit 0" "$TMP/conn.log"
cause_is "kind port" "network-unreachable 22" "a connection that never came" \
	'2021-05-11 19:59:14,961 sagemaker-training-toolkit INFO     Cannot connect to host algo-1' \
	'2021-05-11 19:59:14,961 sagemaker-training-toolkit INFO     Connection failed with exception: ' \
	' [Errno None] Unable to connect to port 22 on 10.0.97.76' \
	'2021-05-11 19:59:16,062 sagemaker-training-toolkit INFO     Waiting for MPI process to finish.'

# a notice below error level that processes may hang is a wait so far: a pass when a step
# finishes after it (noonghunna/club-3090#142, a healthy vLLM start), a hang when the log ends
# in it (vllm-ascend#16754)
printf '%s\n' '(EngineCore pid=110) INFO 05-15 16:03:26 [shm_broadcast.py:681] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization).' \
	'(Worker_TP0 pid=119) INFO 05-15 16:03:34 [monitor.py:81] Initial profiling/warmup run took 56.94 s' >"$TMP/shmwait.log"
exit_is 0 "a hang notice a finished step outlives: exit 0" "$TMP/shmwait.log"
cause_is "kind detail" "rank-stuck words:hang" "a hang notice the log ends in" \
	'(EngineCore_DP0 pid=225319) INFO 09-15 10:01:57 [shm_broadcast.py:705] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization).' \
	'(EngineCore_DP0 pid=225319) INFO 09-15 10:02:57 [shm_broadcast.py:705] No available shared memory broadcast block found in 60 seconds. This typically happens when some processes are hanging or doing some time-consuming work (e.g. compilation, weight/kv cache quantization).'

# Kubernetes' event reasons carry the word inside their name (Project-HAMi/HAMi's scheduler
# event log doc): never a pass; a word that only starts with the letters is no reason
printf '%s\n' '  Warning  FailedScheduling  10s   hami-scheduler  0/1 nodes available: 1 node unregistered' \
	'  Warning  FilteringFailed   11s   hami-scheduler  no available node, all node scores do not meet' >"$TMP/k8sev.log"
exit_is 1 "a pod's FailedScheduling event: exit 1, never a pass" "$TMP/k8sev.log"
printf '%s\n' 'Failedover replicas: 0' 'step 10 done' >"$TMP/k8sev0.log"
exit_is 0 "  a word that only starts with Failed: exit 0" "$TMP/k8sev0.log"

# words of checks and launches no earlier row knew (real-logs-new batch427): a setting a tool
# cannot work under, a PCIe link under its bound, a program started on too few nodes (its
# own words outrank the launcher's summary under them), a communicator some rank left
cause_is "kind detail device" "config words:setting 0" "a setting the diagnostic cannot work under" \
	"print: GPU 0's MIG configuration is incompatible with the diagnostic because it prevents access to the entire GPU."
cause_is "kind detail" "hardware words:pcie" "a PCIe link that failed its check" \
	'[[ PCIEBW ]] Briefings completed. Continue with PCIe Bandwidth evaluation.' \
	'[[ PCIEBW ]] FAIL' 'Node Status: PCIE Failed'
cause_is "kind detail" "config words:world-size" "a program started on fewer nodes than it needs" \
	'ERROR: this application must be run on at least 2 nodes' \
	'Primary job  terminated normally, but 1 process returned' \
	'a non-zero exit code. Per user-direction, the job has been aborted.'
cause_is "kind detail" "rank-stuck words:hang" "a communicator some rank stopped reporting for" \
	'    0         1         2       7-8        16        15   RUNNING  INCOMPLETE'
# an API server's refusal, a certificate that does not name its peer, a script's own check
# of its arguments, and an error a message says may be ignored (batches 437-439)
cause_is "kind detail" "config words:permission" "a service account refused by the API server" \
	'E0110 11:10:03.455096       1 election.go:226] error retrieving resource lock default/tf-operator: endpoints "tf-operator" is forbidden: User "system:serviceaccount:default:tf-job-operator" cannot get endpoints in the namespace "default"'
cause_is "kind detail ip port" "config words:certificate 10.108.163.118 6379" "a peer certificate without the address" \
	'details = "failed to connect to all addresses; last error: UNKNOWN: ipv4:10.108.163.118:6379: Peer name 10.108.163.118 is not in peer certificate"'
cause_is "kind detail" "config words:arguments" "a job script without its argument" \
	'/var/spool/slurm/slurmd/job09770/slurm_script: line 13: 1: ERROR: global batch size must be passed as first argument to job.sh'
printf '%s\n' "(RayWorkerWrapper pid=631, ip=10.244.1.107) WARNING 04-20 16:47:18 [triton_decode_attention.py:44] The following error message 'operation scheduled before its operands' can be ignored. [repeated 14x across cluster]" >"$TMP/ign.log"
exit_is 0 "an error a message says may be ignored: exit 0" "$TMP/ign.log"
# a wait a row reads as caused elsewhere (the PMIx server lost a process of the job), and the
# words of another line that name what that was: they are the cause (real-logs-new batch440)
cause_is "kind detail" "config words:world-size" "a lost process whose words name the fault" \
	'[node1:1576906] PMIX ERROR: UNREACHABLE in file server/pmix_server.c at line 2198' \
	' ERROR 1 (0->node1): 4 devices detected but HPL MxP needs exactly 1 device per process at (src/driver.cpp:397)'
cause_is "kind detail" "rank-stuck timeout-elsewhere" "... but not words that name another wait" \
	'[node1:1576906] PMIX ERROR: UNREACHABLE in file server/pmix_server.c at line 2198' \
	' ERROR: rank 3 is still waiting for rank 5'
# a launcher refusing another MPI's option and one that cannot find the program on a node:
# their words, not the scheduler's exit code under them, are the cause (real-logs-new
# batch444)
cause_is "kind detail" "config words:arguments" "Hydra refusing an option of Open MPI's mpirun" \
	'[mpiexec@b03u14a] match_arg (../../../../../src/pm/i_hydra/libhydra/arg/hydra_arg.c:91): unrecognized argument x' \
	'[mpiexec@b03u14a] main (../../../../../src/pm/i_hydra/mpiexec/mpiexec.c:1783): error parsing parameters' \
	'Exited with exit code 255.'
cause_is "kind detail" "config words:not-installed" "a program mpirun cannot find on a node" \
	'mpirun was unable to find the specified executable file, and therefore' \
	'72 total processes failed to start' 'Exited with exit code 134.'
# a crash handler's dump with no other line (real-logs-new batch435)
cause_is "kind detail" "unresolved words:crash" "a dump of frames under UCX's heading" \
	'==== backtrace (tid: 548615) ====' ' 3  /lib64/libc.so.6(+0x3e6f0) [0x7f9a56e3e6f0]'
# a NIC the transport finds no port of, a registration refused, a library that would not
# load, processes that could not be bound (real-logs-new batches 430, 431, 126, 297)
cause_is "kind detail node" "link-down words:link-down node0" "a network device not available" \
	"[1725148412.663874] [cluster-256-hpc-140:19284:0]     ucp_context.c:1234 UCX  WARN  network device 'mlx5_ib0:1' is not available, please use one or more of: 'eth0'(tcp), 'lo'(tcp)"
cause_is "kind detail" "memory/resource words:limit" "a memory registration refused" \
	"Couldn't allocate MR" 'failed to create mr' 'Failed to create MR' " Couldn't create IB resources"
cause_is "kind detail" "config words:library-missing" "a library that would not load" \
	'Failed to start nvml with error:  could not load NVML library'
cause_is "kind detail" "config words:binding" "processes that could not be bound" \
	'Error message: hwloc_set_cpubind returned "Error" for bitmap "0"' '2 total processes failed to start'
# a launcher's option it does not know, a value not given, a library the loader or the linker
# cannot load, the loader's own room, a kernel OOM kill in its own words (real-logs-new
# batches 448-451)
cause_is "kind detail" "config words:arguments" "a mapping request with a modifier Open MPI does not know" \
	'The mapping request contains an unrecognized modifier:' '' '  Request: rankfile:file=rankfile.txt' \
	'  orte_rmaps_base_open failed' '  --> Returned value Bad parameter (-5) instead of ORTE_SUCCESS'
cause_is "kind detail" "config words:arguments" "a value the program needs, not provided" \
	'vtune: Error: MPI application analysis is not possible if a result directory name is not provided or contains @ characters.' \
	'Primary job  terminated normally, but 1 process returned' \
	'a non-zero exit code. Per user-direction, the job has been aborted.'
cause_is "kind detail" "config words:library-missing" "Slurm's MPI plugin that can not load its library" \
	'srun: error:  mpi/pmix_v5: init: (null) [0]: mpi_pmix.c:193: pmi/pmix: can not load PMIx library' \
	"srun: error: Invalid MPI type 'pmix', --mpi=list for acceptable types"
cause_is "kind detail" "config words:static-tls" "the loader's static TLS block, not memory" \
	'ImportError: /root/miniconda3/envs/wqh39/bin/../lib/libgomp.so.1: cannot allocate memory in static TLS block' \
	'Segmentation fault (core dumped)'
cause_is "kind detail node" "memory/resource words:memory node0" "the kernel's oom-kill record alone" \
	'Apr 30 13:17:48 ip-10-0-33-4 kernel: [266333.003777] oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/user.slice,task=python,pid=15850,uid=1000'
# an Ansible task's failure that names a setting to check or a password sudo wanted, a
# feature in the wrong state, the linker without a library (real-logs-new batches 452-455)
cause_is "kind detail ip" "config words:advised-setting 172.0.0.99" "a check of a setting advised on the failing line" \
	'fatal: [172.0.0.99]: FAILED! => {"changed": false, "msg": "login harbor failed, please check whether docker proxy is set"}'
cause_is "kind detail ip" "config words:permission 172.0.0.100" "sudo's password missing" \
	'fatal: [172.0.0.100]: FAILED! => {"msg": "Missing sudo password"}'
cause_is "kind detail" "config words:setting" "a kernel feature on where the tool needs it off" \
	'Error: NMI watchdog is enabled. NMI uses one Core HW PMC counter.' \
	'srun: error: cn061: task 0: Exited with exit code 255'
cause_is "kind detail" "config words:library-missing" "the linker without a library, under the traceback that ran it" \
	'[2026-03-05 10:24:01 TP1] Scheduler hit an exception: Traceback (most recent call last):' \
	'RuntimeError: ninja exited with status 1' '/usr/bin/ld: cannot find -lcudart' \
	'collect2: error: ld returned 1 exit status'
# perftest's client that could not connect, and the socket it then could not set up: the
# connection, not a file (real-logs-new batch458)
cause_is "kind detail ip port" "network-unreachable words:connect-failed 192.168.125.211 18515" "perftest's connect that failed" \
	'# ib_write_bw -d rocep133s0f0 192.168.125.211' "Couldn't connect to 192.168.125.211:18515" \
	'Unable to open file descriptor for socket connection Unable to init the socket connection'
# a path the job gave that CANN refuses, under the exception its refusal raised (real-logs-new
# batch460)
cause_is "kind detail" "config words:invalid" "a path refused, not the exception it caused" \
	'EK0001: Path [/ms_test/ci/user_scene/profiler_chinese_中文/resnet/scripts/train/data/profiler] for [profilerResultPath] is invalid or does not exist. The Path name can only contain A-Za-z0-9-_.' \
	'Traceback (most recent call last):' '  File "train.py", line 387, in <module>' \
	'RuntimeError: mindspore/ccsrc/profiler/device/ascend/ascend_profiling.cc:79 InitProfiling] Failed to call aclprofInit function.'
# a card a runner calls damaged, in Chinese, with its number; a NIC's send queue full
# (real-logs-new batches 464, 466)
cause_is "kind detail device" "hardware words:hardware 7" "NPU card 7 damaged, its number read" \
	'错误: NPU 卡 7 已损坏，无法使用（本机损坏卡: 7）' '请改用其他卡号，或使用 --device auto 自动分配空闲卡'
cause_is "kind detail" "memory/resource words:queue-full" "an RDMA send queue with no room" \
	'SQ full (batch): ep=0 depth=4351 requested=1 max=4351'
# Flux's broker on a network hint no interface has, and its overlay giving a broker up
# (real-logs-new batch471)
cause_is "kind detail" "config words:no-interface" "a network hint no interface of the node is on" \
	'0.075s: job.exception type=exec severity=0 PMI_Abort: fatal bootstrap error' \
	'flux-job: task(s) Killed' 'flux-broker: could not find address associated with 192.16.1.1/24'
cause_is "kind detail" "unresolved words:node-lost" "a broker with no heartbeat for minutes" \
	'Jun 04 13:52:36 tuolumne2150 flux[371635]: heartbeat.warning[1150]: heartbeat overdue' \
	'Jun 04 14:00:56 tuolumne2150 flux[371635]: overlay.crit[1150]: disconnecting: no heartbeat for 5.1m'
# torch's store barrier says its wait again every ten seconds: one process, not two holding
# one rank (real-logs-new batch468)
printf '%s\n' '2025-04-26T09:15:44Z INFO     Waiting in store based barrier to initialize process group for rank: 0, key: store_based_barrier_key:1 (world_size=2, worker_count=1, timeout=0:30:00)' \
	'2025-04-26T09:15:54Z INFO     Waiting in store based barrier to initialize process group for rank: 0, key: store_based_barrier_key:1 (world_size=2, worker_count=1, timeout=0:30:00)' \
	'2025-04-26T09:16:02Z INFO     Rank 0: Completed store-based barrier for key:store_based_barrier_key:1 with 2 nodes.' >"$TMP/barrier.log"
exit_is 0 "a barrier's wait said twice by one rank, then complete: exit 0" "$TMP/barrier.log"
# a line that says what a library does not support and that it goes on is no CANN fault,
# though a knowledge-base entity's plain keywords are in it; XLA's second registration of a
# plugin is no failure (real-logs-new batch475)
printf '%s\n' '2023-03-25 18:06:49,461 Node[4] DALI iterator does not support resetting while epoch is not finished.                              Ignoring...' \
	' 0: 2024-08-16 19:48:43.268323: E external/local_xla/xla/stream_executor/cuda/cuda_dnn.cc:8454] Unable to register cuDNN factory: Attempting to register factory for plugin cuDNN when one has already been registered' >"$TMP/dali.log"
exit_is 0 "DALI's notice and XLA's second registration: exit 0" "$TMP/dali.log"
# sizes that do not divide, under the exception their assertion raised (real-logs-new
# batches 482, 404)
cause_is "kind detail" "config words:divisible" "heads that do not divide by the shards" \
	'Traceback (most recent call last):' '  File "mlc_llm/model/llama/llama_model.py", line 90, in __init__' \
	'AssertionError: num_kv_heads(8) must be divisible by tensor_parallel_shards'
# MPICH's cpi stating its error, and a benchmark's share of invalid answers at zero
# (real-logs-new batches 480, 481)
printf '%s\n' 'pi is approximately 3.1415926544231274, Error is 0.0000000008333343' 'Accuracy: 0.945' 'Invalid: 0.000  ' >"$TMP/cpi.log"
exit_is 0 "an error measured and a zero share of invalid answers: exit 0" "$TMP/cpi.log"
printf '%s\n' 'Invalid: 0.250' >"$TMP/cpi2.log"
exit_is 1 "a share of invalid answers above zero is still an error line (exit 1)" "$TMP/cpi2.log"
# a data set's error measured, its numbers under it, is no failure; an error of the same name
# with more on its line still is (real-logs-new batch457)
printf '%s\n' 'loss: 2.177455  [ 7200/60000]' 'Test Error: ' ' Accuracy: 4.1%, Avg loss: 2.166388 ' >"$TMP/metric.log"
exit_is 0 "the tutorial's 'Test Error:' heading over its accuracy: exit 0" "$TMP/metric.log"
printf '%s\n' 'Test Error: dataset shard 3 could not be read' >"$TMP/metric2.log"
exit_is 1 "an error whose words follow on its line is still an error line (unclassified, exit 1)" "$TMP/metric2.log"
printf '%s\n' '[2025-12-18 20:32:02] [WARNING] [470] profiler.py: Invalid parameter export_type: None, reset it to text.' >"$TMP/reset.log"
exit_is 0 "a value the program put back itself is no failure: exit 0" "$TMP/reset.log"
printf '%s\n' 'Xid errors on instance: ip-26-0-146-100, Error: May 19 07:08:57 ip-26-0-146-100 kernel: [680111.646286] NVRM: Xid (PCI:0000:10:1c): 63, pid=1850, Row Remapper: New row marked for remapping, reset gpu to activate' >"$TMP/xid.log"
exit_is 2 "advice to reset a device is no value put back: the Xid still fails (exit 2)" "$TMP/xid.log"
printf '%s\n' '[1622510346.876958] [g0185:144167:0]    ucp_context.c:1437 UCX  WARN  UCP version is incompatible, required: 1.8, actual: 1.7 (release 0 /apps/centos7/ucx/1.7.0/gcc7.4.0_cuda11.2.2_gdrcopy2.0/lib/libucp.so.0)' >"$TMP/ucp.log"
exit_is 0 "UCX's own version check, which goes on: exit 0" "$TMP/ucp.log"
printf '%s\n' '`use_cache=True` is incompatible with gradient checkpointing. Setting `use_cache=False`.' >"$TMP/set.log"
exit_is 0 "a setting the program changed itself is no failure: exit 0" "$TMP/set.log"

# a run that states its own success lived through its error lines: a warning that says so,
# never a failed job; the same error with no such statement, or in another node's file that
# states none, still fails (real lines: real-logs-new batch516, MLPerf v5.1 on 4 nodes)
OKL=$(sed -n 21p "tests/data/real-logs-new/batch516/mlcommons-training-v5-1-nebius-4x-b200-flux1-32rank-worker1-tcpstore-broken-pipe-after-run-stop-success-healthy/node0/stdout.txt")
ERRL=$(sed -n 37p "tests/data/real-logs-new/batch516/mlcommons-training-v5-1-nebius-4x-b200-flux1-32rank-worker1-tcpstore-broken-pipe-after-run-stop-success-healthy/node0/stdout.txt")
mkdir -p "$TMP/ok/node0" "$TMP/ok/node1"
printf '%s\n' "$OKL" "$ERRL" >"$TMP/ok/node0/stdout.txt"
run "$HCCLCTL" doctor --logs "$TMP/ok"
check_rc 1 "an error after the run's own 'status': 'success': a warning (exit 1), not a failure"
printf '%s\n' "$OUT" | grep -q '^WARN  logs.cause .*; but the run reported success at node0/stdout.txt:1 (".*"status": "success"}}"), so these lines did not stop it'
_report $? "  it names the line that states the success" "$OUT"
run "$HCCLCTL" --json doctor --logs "$TMP/ok"
OUT=$(printf '%s' "$OUT" | python3 -c 'import json,sys; o=json.load(sys.stdin)["logs"]["run_success"]; print(o["file"], o["line"])')
check_out "node0/stdout.txt 1" "  --json: logs.run_success names the file and line"
printf '%s\n' "$ERRL" >"$TMP/ok/node1/stdout.txt"
run "$HCCLCTL" doctor --logs "$TMP/ok"
check_rc 2 "  the same error in another node's file that states no success: a failure (exit 2)"
printf '%s\n' "$ERRL" >"$TMP/ok1.log"
exit_is 2 "  the error alone: a failure (exit 2)" "$TMP/ok1.log"

# a device tool's command line names the device its output below is about, and a port state
# is "KEY : DOWN" whatever the blanks (real lines: hicann/driver's HCCN tool docs,
# real-logs-new batches 441 and 525)
cause_is "kind device" "link-down 0" "hccn_tool -i 0 over 'link status: DOWN': device 0" \
	'hccn_tool -g -link -i 0 -u 0 -p 4' 'link status: DOWN'
cause_is "kind device" "link-down 0" "  'port 5 : DOWN' under a command for device 0" \
	'hccn_tool -g -ub_connect -i 0' 'link status : PARTIAL LINK' 'port 4 : UP' 'port 5 : DOWN'
cause_is "kind device" "link-down None" "  a tool advised in a message is no command line" \
	'[ERROR] check the port with hccn_tool -i 3 -link -g' 'link status: DOWN'
printf '%s\n' 'port 4 : UP' 'power state: DOWNGRADED' >"$TMP/up.log"
exit_is 0 "  'UP', and a value that only begins with DOWN, are no port down: exit 0" "$TMP/up.log"

# a port down of a link layer no active port uses is another network's, not the node's fabric
# down; a port down of the layer the node runs on still is (ibv_devinfo's lines: real-logs-new
# batch287)
printf '%s\n' 'hca_id: mlx4_0' '        phys_port_cnt:                  2' \
	'                port:   1' '                        state:                  PORT_ACTIVE (4)' \
	'                        link_layer:             InfiniBand' '                port:   2' \
	'                        state:                  PORT_DOWN (1)' \
	'                        link_layer:             Ethernet' >"$TMP/ports.log"
exit_is 0 "an Ethernet port down beside the active InfiniBand one: exit 0" "$TMP/ports.log"
sed 's/Ethernet/InfiniBand/' "$TMP/ports.log" >"$TMP/ports2.log"
run "$HCCLCTL" --json doctor --logs "$TMP/ports2.log"
check_rc 2 "  an InfiniBand port down beside it: a failure (exit 2)"
cause kind
check_out "link-down" "  ... link-down"

# a count of failures in a table of box-drawing cells: at zero no error, above it one
# (aisbench's summary: real-logs-new batch536); a program the launcher cannot find in its
# search path, the sentence wrapped over two lines (Open MPI's Slurm starter: batch537)
B=$(printf '\342\224\202')
printf '%s\n' "$B Failed Requests          $B total    $B 0                  $B" \
	"$B Success Requests         $B total    $B 8                  $B" >"$TMP/box.log"
exit_is 0 "'Failed Requests | total | 0' in box-drawing cells: no error, exit 0" "$TMP/box.log"
sed 's/ 0   / 3   /' "$TMP/box.log" >"$TMP/box3.log"
exit_is 1 "  3 failed requests: an error line, never a pass (exit 1)" "$TMP/box3.log"
cause_is "kind detail" "config words:not-installed" \
	"'unable to locate a' / 'usable \"srun\" command in its path': a program not installed" \
	'The SLURM process starter for OpenMPI was unable to locate a' \
	'usable "srun" command in its path. Please check your path' 'and try again.'

# Open MPI finding no transport between two processes is the phase that failed; a transport
# that failed to start above it names why (real lines: real-logs-new batch541, job 602)
C=tests/data/real-logs-new/batch541/hpcac-job-results-602-hpcg-venus004-omp164-openib-memlock-65536-mpi-init-unreachable
run "$HCCLCTL" --json doctor --logs "$C"
cause kind detail
check_out "memory/resource words:limit" "openib's locked memory above 'unable to reach each other': the limit"
sed -n '21,$p' "$C/node0/stdout.txt" >"$TMP/notr.log" # from the frame after openib's
run "$HCCLCTL" --json doctor --logs "$TMP/notr.log"
cause kind detail
check_out "config mpi-no-transport" "  without it: no transport between the processes"

# an optical module not present, in the HCCN tool's optical query under its command line
# for device 0 (the line: MindCluster's fault diagnosis quick start, real-logs-new batch547)
cause_is "kind device" "link-down 0" "hccn_tool -i 0 -optical -g over 'present : not present': device 0" \
	'# hccn_tool -i 0 -optical -g' 'present              : not present'
printf '%s\n' '# hccn_tool -i 0 -optical -g' 'present              : present' >"$TMP/opt.log"
exit_is 0 "  'present : present': no error, exit 0" "$TMP/opt.log"

# an Xid read by its number in NVIDIA's catalog: a program's fault is no hardware verdict, a
# hardware Xid beside it still is (real lines: real-logs-new batches 211 and 327)
X13='[Fri Aug 30 11:43:09 2024] NVRM: Xid (PCI:0000:cb:00): 13, pid='"'"'<unknown>'"'"', name=<unknown>, Graphics SM Warp Exception on (GPC 7, TPC 7, SM 0): Illegal Instruction Parameter'
cause_is "kind detail" "unresolved nvidia-xid-program" "Xid 13 alone: a program's fault on the GPU, unresolved" "$X13"
cause_is "kind detail" "hardware nvidia-xid" "  Xid 13 and then Xid 79: hardware" "$X13" \
	'Mar 3 10:00:01 gpu9 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.'

# NCCL's return trace at INFO ("bootstrap.cc:90 -> 3") is the only news of a failed call in a
# file without the WARN line that says why: an error, never a pass; under a WARN it is that
# failure's trace (real lines: real-logs-new batch557, NVIDIA/nccl-tests#231)
T=tests/data/real-logs-new/batch557/nccl-tests-231-2node-h100-mbay-csp-bootstrap-socket-internal-error/node0/stdout.txt
sed -n '14,20p' "$T" >"$TMP/trace.log"
run "$HCCLCTL" doctor --logs "$TMP/trace.log"
check_rc 1 "NCCL return trace '-> 3' with no WARN line: an error line, exit 1"
printf '%s\n' "$OUT" | grep -q '^WARN  logs.cause .*unclassified error line at trace.log:3: mbay-csp3:11509:11565 \[5\] NCCL INFO group.cc:70 -> 3 \[Async thread\]'
_report $? "  it quotes the first trace line" "$OUT"
grep -v ' -> 3' "$T" >"$TMP/notrace.log"
exit_is 0 "  the same file without the trace: no error, exit 0" "$TMP/notrace.log"
{ printf '%s\n' 'mbay-csp3:11509:11566 [6] misc/socket.cc:47 NCCL WARN socketStartConnect: Connect to 10.0.0.2<41093> failed : Connection refused'; cat "$TMP/trace.log"; } >"$TMP/warned.log"
run "$HCCLCTL" --json doctor --logs "$TMP/warned.log"
cause kind
check_out "network-unreachable" "  under a WARN line, the WARN line gives the cause"
A=tests/data/real-logs-new/batch531/aicr-benchmarks-megatron-job16208-2node-16xb200-b0009-b0010-100-iters-done-abort-socket-destroy-warn-at-exit-healthy/node0/stdout.txt
grep -E 'Abort START|socket.cc:[0-9]+ -> 3' "$A" | head -4 >"$TMP/abort.log"
exit_is 0 "  under the program's own 'Abort START' of a communicator (teardown, batch531): no error, exit 0" "$TMP/abort.log"

# the kernel's bonding driver: a bond left with no member up is the node's link down (real
# line: real-logs-new batch563, coreos/bugs#2515)
cause_is "kind detail" "link-down bond-no-member" "'bond1: now running without any active interface!': link down" \
	'[ 1203.467563] bond1: now running without any active interface!'


# the body of an exception's message says what kind of failure its first line only announced
# (real lines: real-logs-new batch571, THUDM/GLM-130B's evaluation log of 2022-09-25): the
# family of the body, quoted from the message; an exception that names a family of its own
# keeps it, and torch's advice to build with device-side assertions names no missing backend
P=tests/data/real-logs-new/batch571/thudm-glm-130b-eval-log-tensorboardx-protobuf-descriptors-8rank-import-fail/node0/stdout.txt
sed -n '15,19p' "$P" >"$TMP/body.log"
run "$HCCLCTL" --json doctor --logs "$TMP/body.log"
check_rc 2 "an exception whose body says to downgrade a package: exit 2"
cause kind detail
check_out "version-mismatch words:version" "  versions, from the body of the message"
sed -n '15,16p' "$P" >"$TMP/body1.log"
run "$HCCLCTL" --json doctor --logs "$TMP/body1.log"
cause kind detail
check_out "version-mismatch words:code-check" "  without the line that names the package: only the guess a TypeError in a package's code gives"
cause_is "kind detail" "config words:invalid" "  an exception's own family outranks its body's advice" \
	'RuntimeError: CUDA error: invalid device ordinal' \
	'Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.'
cause_is "kind" "unresolved" "  'Compile with TORCH_USE_CUDA_DSA to enable device-side assertions' names no missing backend" \
	'RuntimeError: CUDA error: device-side assert triggered' \
	'Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.'
cause_is "kind" "unresolved" "  the body of a line that is no exception names no family" \
	'nvshmemi_transport_init:275: init failed for transport: IBGDA' \
	'Please downgrade the libfoo package to 1.2 or lower.'


# a port's state as one word in a state table (real lines: real-logs-new batch576, the Ascend
# 950 HCCN tool's adapt status in hicann/driver's manual): "link_fail" and "linkdown" are a
# link down; "linkdown_off" and a counter's name ("link_down_err: 0x302", batch547's healthy
# port) are names, no error
A=tests/data/real-logs-new/batch576/hicann-driver-hccn-tool-adapt-status-npu0-udie0-port4-link-fail-linkdown/node0/stdout.txt
run "$HCCLCTL" --json doctor --logs "$A"
check_rc 2 "an adapt status table whose newest state is link_fail: exit 2"
cause kind detail
check_out "link-down words:link-down" "  a link down, from the state's words"
grep -v 'link_fail\|L2:linkdown' "$A" >"$TMP/adapt.log"
exit_is 0 "  the table without those states: no error, exit 0" "$TMP/adapt.log"
run "$HCCLCTL" doctor --logs tests/data/real-logs-new/batch547/hicann-driver-hccn-tool-port-info-npu0-udie0-port4-link-active-healthy
check_rc 0 "  a port whose counter is named link_down_err: no error, exit 0"


# a traceback behind a host's label (DeepSpeed's pdsh runner tags each line "node2: "; real
# lines: real-logs-new batch588, huggingface/transformers#21373) never passes, its exception
# cut off or not
run "$HCCLCTL" doctor --logs tests/data/real-logs-new/batch588/transformers-21373-deepspeed-hostfile-2node-run-clm-node2-traceback-after-30min-init-hang-unresolved
check_rc 2 "'node2: Traceback (most recent call last):' and its frames alone: a process raised, exit 2"

# a log that ends while a process says it waits for another never passes: the wait never ended
# (real lines: real-logs-new batch589, Ray's placement group; batch369, text-generation-
# inference's shards); the same words in a log's middle are a wait that ended, or an error met
# while waiting (MPICH's Hydra), or follow an error that is what the wait is about
P=tests/data/real-logs-new/batch589/open-instruct-1431-single-node-rlvr-waiting-for-placement-group-unresolved
run "$HCCLCTL" --json doctor --logs "$P"
check_rc 2 "a log whose last line waits for a placement group: exit 2"
cause kind detail
check_out "rank-stuck words:waiting" "  a process waiting when its log ended"
cat "$P/node0/stdout.txt" >"$TMP/wait.log"
echo 'INFO placement group scheduled, starting 8 workers' >>"$TMP/wait.log"
exit_is 0 "  the same wait with a line after it: no error, exit 0" "$TMP/wait.log"
cause_is "kind detail" "unresolved unclassified" "  an error before the wait is the one quoted, not the wait" \
	'cma event RDMA_CM_EVENT_ADDR_ERROR, error -19' 'Waiting for placement group to be scheduled'
cause_is "kind detail" "unresolved unclassified" "  an error met while waiting is no wait that never ended" \
	'[mpiexec@h1] HYD_bstrap_setup (i_hydra_bstrap.c:650): error waiting for event'
run "$HCCLCTL" doctor --logs tests/data/real-logs-new/batch269/awsome-distributed-ddp-slurm-readme-2node-4proc-c10d-rdzv-workers-succeeded-healthy
check_rc 0 "  a log that ends 'Done waiting for other agents': no error, exit 0"


# a C macro's report of its own failed assertion, no other error word on the line (real line:
# real-logs-new batch383, ggml's "GGML_ASSERT: .../ggml-backend.c:226: offset + size <=
# ggml_nbytes(tensor) && ...") never passes; the macro named in prose or code is no error
run "$HCCLCTL" --json doctor --logs tests/data/real-logs-new/batch383/llama-cpp-7427-b2950-rpc-server-gtx1070-ggml-assert-tensor-write-out-of-bounds-regression
check_rc 1 "a GGML_ASSERT report: a warning that quotes it, never a pass"
cause kind detail
check_out "unresolved unclassified" "  no value of the job's is blamed for the program's own check"
printf '%s\n' 'note: use GGML_ASSERT(x) to check x' >"$TMP/assert.log"
exit_is 0 "  the macro named in prose: no error, exit 0" "$TMP/assert.log"

# nvidia-smi's "ERR!" for a field of a GPU it could not read (real table: real-logs-new
# batch616, NVIDIA/gpu-operator#559) never passes; the same table with the GPU's fields read
# ("N/A" where a field does not apply) is no error
G=tests/data/real-logs-new/batch616/gpu-operator-559-a40-node-a44-nvidia-smi-gpu0-err-bus-19-00/node0/stdout.txt
run "$HCCLCTL" --json doctor --logs "$G"
check_rc 1 "an nvidia-smi table with a GPU's fields at ERR!: a warning, never a pass"
cause kind detail
check_out "unresolved unclassified" "  quoted as an error no rule explains"
grep -v 'ERR!' "$G" >"$TMP/smi.log"
exit_is 0 "  the table without those rows: no error, exit 0" "$TMP/smi.log"

# the line above a program's advice to read its help is the command line it refused, whatever
# its words (real lines: real-logs-new batch626, HPL-MxP's CLI11 parser "--preset-gemm-kernel:
# 1 not in {0,80}" over "Run with --help for more information."); GNU getopt's "Try 'cp --help'
# for more information." the same
J=tests/data/real-logs-new/batch626/anuhpc2025-hpc-xenon-cluster-hpl-mxp-job872-preset-gemm-kernel-1-not-in-0-80-mpirun-exit-105
run "$HCCLCTL" --json doctor --logs "$J"
check_rc 2 "an option's value refused above 'Run with --help for more information.': exit 2"
cause kind detail
check_out "config words:arguments" "  the command line's family, quoting the refused option"
cause_is "kind detail" "config words:arguments" "  GNU getopt's advice names the line above it" \
	"cp: missing destination file operand after './boot/vmlinuz-6.1.173-rc1'" \
	"Try 'cp --help' for more information."
cause_is "kind detail" "config words:invalid" "  a line whose own words name a family keeps it" \
	"hostname: invalid option -- 'Z'" "Try 'hostname --help' for more information."

# TensorFlow's "Failed to find bogomips in /proc/cpuinfo; cannot determine CPU frequency" on an
# ARM host is a statistic it goes on without (real log: real-logs-new batch626, an Ascend
# training run to step 200000)
run "$HCCLCTL" doctor --logs tests/data/real-logs-new/batch626/ascend-huawei-avod-npu-1p-tf-train-pyramid-cars-mix-precision-to-step-200000-infershape-warnings-healthy
check_rc 0 "TensorFlow's bogomips warning in a run that trained: no error, exit 0"

# an environment variable's name said to be unset is a setting, whatever its prefix (real line:
# real-logs-new batch628, Azure's health check "HPCX_DIR is not set")
run "$HCCLCTL" --json doctor --logs tests/data/real-logs-new/batch628/azurehpc-health-checks-72-ndv4-check-all-reduce-dependencies-hpcx-dir-not-set
check_rc 2 "NHC's 'HPCX_DIR is not set': exit 2"
cause kind detail
check_out "config words:setting" "  a setting, read from the variable's name"

# a file system at full use in df's table is a full disk, though the row's words are numbers
# (real log: real-logs-new batch628, NHC's false failures on a node whose /tmp is full); a
# snap's image is always at full use and a row at 6% is none; the table ends at a line that is
# no row of it
J=tests/data/real-logs-new/batch628/nhc-pr152-tmp-full-100pct-false-cpuinfo-physmem-eth-failures
run "$HCCLCTL" --json doctor --logs "$J"
check_rc 2 "/tmp at 100% in df's table above NHC's failures: exit 2"
cause kind detail
check_out "memory/resource words:disk-full" "  the full disk, read from df's row, outranks the checks' failures"
printf '%s\n' 'Filesystem      Size  Used Avail Use% Mounted on' \
	'/dev/loop3       64M   64M     0 100% /snap/core20/2318' \
	'overlay         1.8T   96G  1.6T   6% /' \
	'step 100 loss 0.31 100% /data done' >"$TMP/df.log"
exit_is 0 "a snap image at 100%, a disk at 6%, a line after the table: no error, exit 0" "$TMP/df.log"
cause_is "kind detail" "memory/resource words:disk-full" "  a wrapped row's use counts from its end" \
	'Filesystem      Size  Used Avail Use% Mounted on' '/dev/mapper/vg-root' \
	'                  50G   50G     0 100% /'

# a timeout the kernel logs is a device's or the node's (a GPU ring's job, a firmware heartbeat),
# not a rank that waited for another (real line: real-logs-new batch719, amdgpu's "ring gfx_0.0.0
# timeout" on a desktop GPU): no family of waiting; the same words from a program are one
printf '%s\n' 'Dec 15 17:47:10 hawk kernel: [drm:amdgpu_job_timedout [amdgpu]] *ERROR* ring gfx_0.0.0 timeout, signaled seq=20268, emitted seq=20269' >"$TMP/kto.log"
run "$HCCLCTL" --json doctor --logs "$TMP/kto.log"
cause kind detail
check_out "unresolved unclassified" "a kernel's ring timeout: no rank waited, unclassified"
printf '%s\n' '[rank1]: RuntimeError: allreduce timeout, signaled seq=20268, emitted seq=20269' >"$TMP/kto.log"
run "$HCCLCTL" --json doctor --logs "$TMP/kto.log"
cause kind detail
check_out "rank-stuck words:timeout" "  the same words from a rank: a wait"

# C++'s exception for a refused allocation, alone on its line under the program's heading, is
# memory (real log: real-logs-new batch699, LightGBM on two machines, "Met Exceptions:" over
# "std::bad_alloc")
run "$HCCLCTL" --json doctor --logs tests/data/real-logs-new/batch699/lightgbm-2077-two-machines-143g-data-std-bad-alloc-after-linking-network
check_rc 2 "LightGBM's std::bad_alloc: exit 2"
cause kind detail
check_out "memory/resource words:memory" "  memory, read from the C++ exception's name"

# a step that failed and the fallback taken, said first in a clause of its own, is no error
# (real line: real-logs-new batch431, UCC's "Failed to dlopen libnuma.so. Fallback to
# GROUP_BY_SOCKET manual." in nccl-tests runs that passed); a fallback to the CPU leaves the
# job without its device (as JAX's "No GPU/TPU found, falling back to CPU.", here after a
# failure), nor is one foretold a fallback taken
printf '%s\n' '[LOG_CAT_SBGP] Failed to dlopen libnuma.so. Fallback to GROUP_BY_SOCKET manual.' >"$TMP/fb.log"
exit_is 0 "a failed step with its fallback named: no error, exit 0" "$TMP/fb.log"
printf '%s\n' 'cuInit failed: no CUDA-capable device is detected, falling back to CPU.' >"$TMP/fb.log"
exit_is 2 "no device found, falling back to the CPU: an error (no device), exit 2" "$TMP/fb.log"
printf '%s\n' 'Failed to create the channel; the communication will fall back to non-SHARP operators.' >"$TMP/fb.log"
exit_is 1 "a fallback foretold after a failure: still an error, exit 1" "$TMP/fb.log"

# a results table whose column of wrong values is not zero returned wrong data, though the row's
# words are numbers (real log: real-logs-new batch119, nccl-tests on Sigma2's GH200 nodes with
# "#wrong" at 18134 and more); rows at 0 and values below one (the rounding that nccl-tests
# before 2.10 prints in its "error" column) are none
J=tests/data/real-logs-new/batch119/sigma2-documentation-olivia-nccl-tests-4node-gh200-allreduce-wrong-ll128-corruption-env-unset
run "$HCCLCTL" --json doctor --logs "$J"
check_rc 2 "nccl-tests' #wrong above zero: exit 2"
cause kind detail
check_out "hardware words:wrong-results" "  wrong data, read from the table's column of wrong values"
printf '%s\n' '#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error' \
	'#        (B)    (elements)                     (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)' \
	'    33554432       8388608   float     sum    402.9   83.28  156.16  5e-07    401.6   83.55  156.65  5e-07' \
	'    4  1  2  3  4  5  6  7  8' \
	'    33554432       8388608   float     sum    402.9   83.28  156.16  2e+00    401.6   83.55  156.65  2e+00' >"$TMP/wrong.log"
exit_is 0 "rounding in the error column, then a row of another shape that ends the table: no error, exit 0" "$TMP/wrong.log"
cause_is "kind detail" "hardware words:wrong-results" "  nccl-tests before 2.10: an error of one or more" \
	'#       size         count    type   redop     time   algbw   busbw  error     time   algbw   busbw  error' \
	'    33554432       8388608   float     sum    402.9   83.28  156.16  9.28957e+06    401.6   83.55  156.65  9.28541e+06'

# a job's state as Slurm records it, whole (seff) or cut to sacct's column with '+' (real
# log: real-logs-new batch631, autosubmit's sacct table "OUT_OF_ME+")
run "$HCCLCTL" --json doctor --logs tests/data/real-logs-new/batch631/autosubmit-382-sacct-out-of-memory-0-125
check_rc 2 "sacct's state OUT_OF_ME+: exit 2"
cause kind detail
check_out "memory/resource words:memory" "  memory, read from the state cut to its column"
cause_is "kind detail" "memory/resource words:memory" "  seff's state OUT_OF_MEMORY" \
	'State: OUT_OF_MEMORY (exit code 0)'

# a refusal said to hold "right now" is a wait for it to change: no error where the log goes
# on, a wait never ended where the log ends on it (real lines: real-logs-new batch641,
# xgboost_ray's cluster test, Ray's task that cannot be scheduled right now); a refusal in
# another sentence is still one
J=tests/data/real-logs-new/batch641/xgboost-ray-36-elastic-restart-actors-4-node-cluster-healthy
run "$HCCLCTL" doctor --logs "$J"
check_rc 0 "Ray's 'cannot be scheduled right now', the actors created after: no error, exit 0"
head -2 "$J/node0/stdout.txt" >"$TMP/rn.log"
run "$HCCLCTL" --json doctor --logs "$TMP/rn.log"
check_rc 2 "the same line as the log's last: exit 2"
cause kind detail
check_out "rank-stuck words:waiting" "  a wait that never ended, read from the line the log ends on"
printf '%s\n' 'ERROR: cannot open /data/shard-7. We retry right now' 'step 2 done' >"$TMP/rn2.log"
exit_is 1 "a refusal in a sentence before 'right now': the line is still an error, exit 1" "$TMP/rn2.log"

# a peer said not to be ready, as the line a log ends on: a wait that never ended (Paddle's
# launcher, PaddlePaddle/Paddle#44966, verbatim); in the middle of a log the wait ended, and
# a status read out is no wait (nvidia-smi's IMEX line, real-logs-new batch357)
cause_is "kind detail ip port" "rank-stuck words:waiting 192.168.4.7 6070" "a peer not ready when the log ended" \
	"not ready endpoints:['192.168.4.7:6070', '192.168.4.7:6071']" 'server not ready, wait 3 sec to retry...' \
	"not ready endpoints:['192.168.4.7:6070']"
printf '%s\n' "not ready endpoints:['192.168.4.7:6070']" 'server not ready, wait 3 sec to retry...' \
	'I1205 10:00:01 trainer 0 started' >"$TMP/nr.log"
exit_is 0 "a peer not ready, then the log goes on: the wait ended, exit 0" "$TMP/nr.log"
printf '%s\n' '   GPU_UUID:GPU-bb3e1419-... IMEX daemon status is -3 (not READY)' >"$TMP/nr2.log"
exit_is 0 "a daemon's status read out as not ready: no wait, exit 0" "$TMP/nr2.log"
# a scheduler that cannot place the job's pods (Volcano's event, verbatim from KubeRay's
# docs); a node's flag at false is no failure (kubectl describe node, Kubernetes' docs)
cause_is "kind detail" "memory/resource words:capacity" "a gang of pods the scheduler cannot place" \
	'# Warning  FailedScheduling  4m5s  volcano  3/3 tasks in gang unschedulable: pod group is not ready, 3 Pending, 3 minAvailable; Pending: 3 Undetermined'
printf '%s\n' 'Taints:             <none>' 'Unschedulable:      false' 'Lease:' >"$TMP/us.log"
exit_is 0 "kubectl describe node's 'Unschedulable: false': no error, exit 0" "$TMP/us.log"
# a GPU's infoROM found corrupted (Azure's diagnostics test samples, verbatim): a hardware
# fault; one check among many failing in dcgmi diag's table is not (deepops' docs)
cause_is "kind detail" "hardware words:hardware" "nvidia-smi's warning that a GPU's infoROM is corrupted" \
	'WARNING: infoROM is corrupted at gpu 0008:00:00.0'
printf '%s\n' '| Persistence Mode          | Fail                                           |' \
	'| Inforom                   | Fail                                           |' >"$TMP/ir.log"
run "$HCCLCTL" --json doctor --logs "$TMP/ir.log"
cause kind
check_out "unresolved" "  dcgmi diag's 'Inforom | Fail' beside other checks that failed: no hardware fault named"

# ibstatus's port state, its number before its name, under a heading naming the RDMA device
# (real log: real-logs-new batch642, NVIDIA/nccl#1935); a tab in a quoted line shows as a blank
J=tests/data/real-logs-new/batch642/nccl-1935-ibstatus-mlx5-ports-down-disabled-cuda-999-unknown-error
run "$HCCLCTL" doctor --logs "$J"
check_rc 2 "ibstatus's 'state: 1: DOWN': exit 2"
check_out_contains "link-down (rdma-port-error): an RDMA NIC port went down on node node0 (mlx5_11): state:   1: DOWN" \
	"  the RDMA NIC the heading names, the state quoted with its tabs as blanks"
printf 'Infiniband device %s port 1 status:\n\tstate:\t\t 4: ACTIVE\n\tphys state:\t 5: LinkUp\n' \
	"'mlx5_0'" >"$TMP/ibs.log"
exit_is 0 "ibstatus's 'state: 4: ACTIVE': no error, exit 0" "$TMP/ibs.log"

# a count at zero with a reader's arrow pasted after it is still none (real log: real-logs-new
# batch649, vLLM's benchmark summary "Failed requests: 0 <<<<<<< New line"); at 3 it is one
J=tests/data/real-logs-new/batch649/vllm-26478-bench-serve-qwen3-0-6b-1000-requests-healthy
run "$HCCLCTL" doctor --logs "$J"
check_rc 0 "'Failed requests: 0' with an arrow after it: no error, exit 0"
printf '%s\n' 'Failed requests:                         3          <-- here' >"$TMP/arrow.log"
exit_is 1 "'Failed requests: 3' with an arrow after it: an error line, exit 1" "$TMP/arrow.log"

# a tally's label after its count at zero, among other counts, is none (real log: real-logs-new
# batch666, kubectl's "Pods Statuses:    0 Active / 3 Succeeded / 0 Failed"); one failed pod
# is one; a device's number before "failed" is no count
J=tests/data/real-logs-new/batch666/kueue-docs-run-job-sample-job-admitted-3-pods-succeeded-healthy
run "$HCCLCTL" doctor --logs "$J"
check_rc 0 "kubectl's '0 Active / 3 Succeeded / 0 Failed': no error, exit 0"
printf '%s\n' 'Pods Statuses:    0 Active / 2 Succeeded / 1 Failed' >"$TMP/tally.log"
exit_is 1 "'... / 1 Failed': an error line, exit 1" "$TMP/tally.log"
printf '%s\n' 'step 3: device 0 failed on command 7' >"$TMP/tally2.log"
exit_is 2 "'device 0 failed on command': a call that failed, exit 2" "$TMP/tally2.log"

# a process that reports another's death names the dead one on the line under it: the peer,
# not the reporter (real lines: real-logs-new batch728, JAX's fault-tolerance guide); on the
# same line it is read as well; no task named, no peer
J=tests/data/real-logs-new/batch728/jax-docs-fault-tolerance-4-gpu-vm-task3-killed-peers-terminate-stopped-heartbeats
run "$HCCLCTL" --json doctor --logs "$J"
cause kind detail rank peer_rank
check_out "rank-stuck words:peer-died None 3" "  JAX's task under 'stopped sending heartbeats):' is the peer"
cause_is "kind detail rank peer_rank" "rank-stuck words:peer-died None 5" \
	"  the task on the reporter's own line is the peer" \
	'F0926 17:26:32.075587  157988 client.h:77] Terminating process because another task died: /job:jax_worker/replica:0/task:5'
cause_is "kind detail rank peer_rank" "rank-stuck words:peer-died None None" \
	"  no task named: no peer" \
	'F0926 17:26:32.075587  157988 client.h:77] Terminating process because the JAX distributed service detected fatal errors. This most likely indicates that another task died'

# a request the hosts cannot meet, in Open MPI's help text, read from its closing advice
# (real lines: real-logs-new batch769, ComputationalRadiationPhysics/picongpu#3659); pip's
# conflicting dependencies are versions
J=tests/data/real-logs-new/batch769/picongpu-3659-mpirun-ppr-8-per-node-18-procs-more-gpus-than-available
run "$HCCLCTL" --json doctor --logs "$J"
cause kind detail
check_out "config words:conflict" "  'Please revise the conflict and try again.': conflicting settings"
cause_is "kind detail" "version-mismatch words:version" "  pip's resolver: versions" \
	'ERROR: Cannot install cowsay==5.0 and cowsay>=6.0 because these package versions have conflicting dependencies.'

# a section's title over its counters is no error, nor a failure field whose value is No
# (nvidia-smi -q's and dcgmi's output on a healthy H800 node, verbatim); the same field at Yes
# is one
printf '%s\n' '    ECC Errors' '            DRAM Uncorrectable            : N/A' \
	'+-----------------------------+------------------------------------------------+' \
	'| NVLINK Error Counts                                                          |' \
	'| -> CRC FLIT Error           | 0                                              |' \
	'        Remapping Failure Occurred        : No' >"$TMP/heading.log"
exit_is 0 "section titles over counters at zero and a failure field at No: a pass" "$TMP/heading.log"
printf '%s\n' '        Remapping Failure Occurred        : Yes' >"$TMP/heading.log"
exit_is 1 "  the failure field at Yes: an error line (a warning)" "$TMP/heading.log"
# and a few words that state errors are no title: a word of quantity or severity among them,
# a field whose value only starts with "No"
for l in 'Too Many Errors' 'Fatal Errors' 'Error : No such device'; do
	printf '%s\n' "$l" >"$TMP/heading.log"
	run "$HCCLCTL" doctor --logs "$TMP/heading.log"
	[ "$RC" -ne 0 ]
	_report $? "  '$l': an error line, not a title" "$OUT"
done

# a collective timeout under a second is the setting's fault, not a rank's (instructlab's CI
# with the timeout knob at 1 ms, verbatim); the same line at 10 minutes is a rank holding the
# others up
wd='  what():  [PG ID 0 PG GUID 0(default_pg) Rank 3] Process group watchdog thread terminated with exception: [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1) ran for 90 milliseconds before timing out.'
cause_is "kind detail rank" "config timeout-setting 3" "a watchdog timeout of 1 ms: the timeout setting" \
	"terminate called after throwing an instance of 'c10::DistBackendError'" "$wd"
run "$HCCLCTL" doctor --logs "$CI_LOG"
printf '%s\n' "$OUT" | grep -qF 'rank 3 timed out in ALLREDUCE #1 of process group 0 after 90 ms under a collective timeout of 1 ms'
_report $? "  it names the work, the time it ran and the timeout it had" "$OUT"
cause_is "kind detail" "rank-stuck timeout-elsewhere" "  the same work under 600000 ms: a rank held it up" \
	"terminate called after throwing an instance of 'c10::DistBackendError'" \
	"$(printf '%s' "$wd" | sed 's/Timeout(ms)=1)/Timeout(ms)=600000)/; s/90 milliseconds/600090 milliseconds/')"

# the ROCm runtime's GPU page fault, before it aborts the process (ROCm/aiter's SGLang run,
# verbatim): a crash, not a pass
cause_is "kind detail" "unresolved words:crash" "the ROCm runtime's 'Memory access fault by GPU'" \
	'[2026-02-17 23:52:12 TP6] [fused_moe] using 2stage default for (256, 1024, 6144, 256, 257, 9, '"'"'ActivationType.Silu'"'"', '"'"'torch.bfloat16'"'"', '"'"'torch.bfloat16'"'"', '"'"'torch.bfloat16'"'"', '"'"'QuantType.No'"'"', True, False) ' \
	'Memory access fault by GPU node-7 (Agent handle: 0x20916760) on address (nil). Reason: Unknown.'

# a NIC's link gone in systemd-networkd's words, flapping (Azure's health-check test data for
# its IB flap check, verbatim): a link down, on the node whose log it is
cause_is "kind detail node" "link-down words:link-down node0" "systemd-networkd's 'ib6: lost carrier'" \
	'Aug 17 06:17:01 jplc7eb7-vm-0 CRON[215327]: (root) CMD (   cd / && run-parts --report /etc/cron.hourly)' \
	'Aug 17 06:18:01 jplc7eb7-vm-0 systemd-networkd[5398]: ib6: lost carrier' \
	'Aug 17 06:18:06 jplc7eb7-vm-0 systemd-networkd[5398]: ib6: Gained carrier'

# a shared-memory object gone (ENOENT on shm_open or under /dev/shm): a name a process of the
# job made, not a path it names (UCX under Open MPI, performance-study's Azure run; NCCL's
# troubleshooting page, verbatim): RemoveIPC or split IPC namespaces, not a missing file
cause_is "kind detail" "config words:shm-gone" "UCX's shm_open of a peer's segment: No such file" \
	'[1725147573.949292] [cluster-256-hpc-1:13712:0]        mm_posix.c:238  UCX  ERROR shm_open(file_name=/ucx_shm_posix_2e841ba5 flags=0x0) failed: No such file or directory'
cause_is "kind detail" "config words:shm-gone" "NCCL unlinking a segment already removed" \
	'NCCL WARN unlink shared memory /dev/shm/nccl-d5rTd0 failed, error: No such file or directory'
run "$HCCLCTL" doctor --logs "$CI_LOG"
printf '%s\n' "$OUT" | grep -qF 'RemoveIPC=no'
_report $? "  the fix names logind's RemoveIPC, not the job's paths" "$OUT"
cause_is "kind detail" "config words:missing-file" "  a path under /tmp stays a missing file" \
	"/usr/bin/python3: can't open file '/tmp/train.py': [Errno 2] No such file or directory"

# "invalid" said of a runtime's own object or of a value found in memory is no job's setting
# (UCX over CUDA, a NERSC job's log; nvbandwidth's data check, its issue 34; verbatim)
cause_is "kind detail" "unresolved unclassified" "CUDA's invalid context: not the job's value" \
	'0: [1580334918.341459] [cgpu09:43722:2]    cuda_ipc_md.c:131  UCX  ERROR cuCtxGetDevice(&this_device) is failed. ret:invalid device context'
cause_is "kind detail" "unresolved unclassified" "a pattern check's invalid value at an address" \
	'Invalid value when checking the pattern at 0x70a640000000'
cause_is "kind detail" "config words:invalid" "  an invalid device ordinal stays the job's value" \
	'RuntimeError: CUDA error: invalid device ordinal'

# a GPU with pages waiting to be retired (nvidia-smi -q, Azure's health-check test data,
# verbatim): a hardware fault; "No" is none
cause_is "kind detail" "hardware words:hardware" "nvidia-smi -q's 'Pending Page Blacklist : Yes'" \
	'    Retired Pages' '        Single Bit ECC                    : 2' \
	'        Double Bit ECC                    : 61' \
	'        Pending Page Blacklist            : Yes'
printf '%s\n' '    Retired Pages' '        Pending Page Blacklist            : No' >"$TMP/pb.log"
exit_is 0 "  'Pending Page Blacklist : No': a pass" "$TMP/pb.log"

# a word continued by '_' is part of a name: DeepSpeed's launcher reports every rank's end
# from its sigkill_handler, so the end's code says whether it was killed (a tutorial's
# ZeRO-3 run; Qwen-VL's issue 79; verbatim)
cause_is "kind detail" "unresolved unclassified" "'sigkill_handler' with return code 1: no SIGKILL" \
	"[2025-07-13 21:50:41,692] [ERROR] [launch.py:325:sigkill_handler] ['/scratch/qualis/miniconda3/envs/large-scale-lm/bin/python3.12', '-u', 'zero_config.3.org.py', '--local_rank=3'] exits with return code = 1"
cause_is "kind detail" "memory/resource words:killed" "  with return code -9: killed" \
	'[ERROR] [launch.py:325:sigkill_handler] exits with return code = -9'

# a file system told as nearly full or with no space left (Ray's raylet, vLLM's issue 1953,
# verbatim): the disk's family; a buffer said to be full is not a disk
cause_is "kind detail" "memory/resource words:disk-full" "Ray's '/tmp/ray/... is over 95% full'" \
	'(raylet) [2023-12-07 03:27:39,873 E 101250 101275] (raylet) file_system_monitor.cc:111: /tmp/ray/session_2023-12-06_16-50-22_168114_101109 is over 95% full, available space: 0; capacity: 67108864. Object creation will fail if spilling is required.'
cause_is "kind detail" "unresolved unclassified" "  a send buffer 100% full: not the disk" \
	'ERROR: the send buffer is 100% full, dropping message'

# errno's text alone says the write failed (the Lustre wiki's full OST, verbatim): an error
# line, the disk's family, never a pass
cause_is "kind detail" "memory/resource words:disk-full" "dd's 'No space left on device'" \
	'filesystem summary: 11.8T     5.5T   5.7T    46%  /mnt/lustre' \
	"dd: writing \`/mnt/testfs/test_3': No space left on device" '98+0 records in'

# the device a tool's heading names, for a line under it that names none (gpud's issue 1085,
# nvidia-smi on a B200, verbatim): the cause names GPU 2; the same line alone names none
cause_is "kind detail device" "link-down words:link-down 2" "nvidia-smi's 'GPU 2: ...' over its NVML line" \
	'GPU 2: NVIDIA B200 (UUID: GPU-xxx)' \
	'NVML: Unable to retrieve NVLink information as all links are inActive'
cause_is "kind detail device" "link-down words:link-down None" "  the NVML line alone: no device" \
	'NVML: Unable to retrieve NVLink information as all links are inActive'

# a condition's sentence with advice in it, after other sentences of the line: DeepSpeed's
# warning under memory pressure (ssbandjl/nccl-tests' log of a run that went on) is no
# failure; the words before a condition are still read (a label "ERROR:")
printf '%s\n' '[2025-08-11 13:41:29,275] [WARNING] [stage3.py:2164:step] 2 pytorch allocator cache flushes since last step. this happens when there is high memory pressure and is detrimental to performance. if this is happening frequently consider adjusting settings to reduce memory consumption. If you are unable to make the cache flushes go away consider adding get_accelerator().empty_cache() calls in your training loop to ensure that all ranks flush their caches at the same time' >"$TMP/dsw.log"
exit_is 0 "DeepSpeed's advice under a condition in the middle of its line: a pass, exit 0" "$TMP/dsw.log"
printf '%s\n' 'ERROR: rank 3 failed. If you are unable to find out why, consider running with NCCL_DEBUG=INFO' >"$TMP/dsw2.log"
exit_is 1 "  a failure stated before the condition's sentence stays an error (exit 1)" "$TMP/dsw2.log"

# the MMU refusing a GPU's access (amdgpu, ROCm's legacy-rocm-build#2196, verbatim): a crash
# of the process it names; GNU time's count of page faults is no fault
cause_is "kind detail" "unresolved words:crash" "amdgpu's GPU page fault" \
	'[  111.406216] amdgpu 0000:83:00.0: amdgpu: [gfxhub] page fault (src_id:0 ring:24 vmid:10 pasid:32769, for process rocm-bandwidth- pid 3286 thread rocm-bandwidth- pid 3286)' \
	'[  111.406237] amdgpu 0000:83:00.0: amdgpu:   in page starting at address 0x00007f0000000000 from client 10'
printf '%s\n' '	Major (requiring I/O) page faults: 0' '	Minor (reclaiming a frame) page faults: 12345' >"$TMP/pf.log"
exit_is 0 "GNU time's 'page faults' counts: no error, exit 0" "$TMP/pf.log"

# a setting that asks for another, and two that exclude each other (vLLM on Neuron, from
# littlemex/zenn's articles; srun's, snakemake-executor-plugin-slurm#342): settings
cause_is "kind detail" "config words:advised-setting" "a setting that needs another set too" \
	'ValueError: When setting pa_num_blocks (512) in override_neuron_config,' \
	'you must also set --num-gpu-blocks-override to the same value'
cause_is "kind detail" "config words:conflict" "a variable that cannot be used with the mode the job runs in" \
	'RuntimeError: NEURON_RT_VISIBLE_CORES cannot be used with multi-processing execution on vLLM.' \
	'Set NEURON_VISIBLE_DEVICES to control device visibility.'
cause_is "kind detail" "config words:conflict" "  and srun's 'mutually exclusive'" \
	'srun: fatal: SLURM_TRES_PER_TASK is mutually exclusive with --ntasks-per-gpu and SLURM_NTASKS_PER_GPU'

# a step said to take longer than it should as the last line (JAX's, t5x#997): a wait that
# never ended; the same line with the run going on after it: the step ended
cause_is "kind detail" "rank-stuck words:waiting" "a step taking more than its time when the log ended" \
	'UserWarning: TPU backend initialization is taking more than 60.0 seconds. Did you run your code on all TPU hosts? See https://jax.readthedocs.io/en/latest/multi_process.html for more information.'
printf '%s\n' 'UserWarning: TPU backend initialization is taking more than 60.0 seconds. Did you run your code on all TPU hosts? See https://jax.readthedocs.io/en/latest/multi_process.html for more information.' \
	'I1205 10:00:01 trainer 0 started' >"$TMP/tk.log"
exit_is 0 "  the same line, then the run goes on: exit 0" "$TMP/tk.log"

# the firmware tools' error mark in a line logged at INFO by the operator that ran them
# (sriov-network-operator#317, verbatim): an error, whatever the level; a '-' in a word or
# an option is no mark
printf '%s\n' 'I0607 15:07:30.460717  124588 utils.go:706] RunCommand(): mstconfig, [-e -d 0000:18:00.0 q]' \
	'I0607 15:07:30.467921  124588 utils.go:708] RunCommand(): -E- Failed to open the device' >"$TMP/mft.log"
exit_is 1 "mstconfig's '-E- Failed to open the device' at INFO: an error, exit 1" "$TMP/mft.log"
printf '%s\n' 'I0607 15:07:30.460717  124588 utils.go:706] RunCommand(): mstconfig, [-e -d 0000:18:00.0 q]' \
	'I0607 15:07:31.000000  124588 utils.go:706] mode pre-E-series boards: none' >"$TMP/mft2.log"
exit_is 0 "  '-e' and 'pre-E-series' are no mark: exit 0" "$TMP/mft2.log"

# a launcher that checks its port first, in its own words (RAG-Retrieval#50, verbatim): the
# port held by another process, its value quoted
cause_is "kind detail port" "config port-bound 29500" "Accelerate: another process is utilizing the port" \
	'ConnectionError: Tried to launch distributed communication on port `29500`, but another process is utilizing it. Please specify a different port (such as using the `--main_process_port` flag or specifying a different `main_process_port` in your config file) and rerun your script. To automatically use the next open port (on a single node), you can set this to `0`.'
cause_is "kind detail port" "config port-bound 8265" "a port already in use, said of the port" \
	'ValueError: Failed to start the dashboard: port 8265 is already in use'
cause_is "kind detail" "unresolved unclassified" "  'transport ... in use by another' names no port: not a port another process holds" \
	'ERROR: the shm transport is already in use by another process'

# a container's version requirement the host does not meet (nvidia-docker#1442, Vitis-AI#103,
# verbatim): the versions, not only a container that did not start
cause_is "kind detail" "version-mismatch words:version" "nvidia-container-cli: cuda>=11.0, update the driver" \
	'docker: Error response from daemon: OCI runtime create failed: container_linux.go:370: starting container process caused: process_linux.go:459: container init caused: Running hook #0:: error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: requirement error: unsatisfied condition: cuda>=11.0, please update your driver to a newer version, or use an earlier cuda container: unknown.'
cause_is "kind detail" "version-mismatch words:version" "nvidia-container-cli: unsatisfied condition cuda>=10.0, no word version" \
	'docker: Error response from daemon: OCI runtime create failed: container_linux.go:345: starting container process caused "process_linux.go:430: container init caused \"process_linux.go:413: running prestart hook 0 caused \\\"error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: requirement error: unsatisfied condition: cuda>=10.0\\\\n\\\"\"": unknown.'
cause_is "kind detail" "config words:container-start" "  a hook that failed for another reason stays a container that did not start" \
	'docker: Error response from daemon: OCI runtime create failed: container_linux.go:345: starting container process caused "process_linux.go:430: container init caused \"process_linux.go:413: running prestart hook 0 caused \\\"error running hook: exit status 1, stdout: , stderr: nvidia-container-cli: initialization error: nvml error: driver not loaded\\\\n\\\"\"": unknown.'
# two values that disagree and the one the program goes on with, in a sentence of its own
# (Accelerate, verbatim in a run that trained on): no error; without that sentence, one
printf '%s\n' "Gradient accumulation steps mismatch: GradientAccumulationPlugin has 1, DeepSpeed config has 4. Using DeepSpeed's value." >"$TMP/ga.log"
exit_is 0 "a mismatch settled by the program ('Using DeepSpeed's value.'): exit 0" "$TMP/ga.log"
printf '%s\n' "Gradient accumulation steps mismatch: GradientAccumulationPlugin has 1, DeepSpeed config has 4." >"$TMP/ga.log"
exit_is 1 "  the mismatch alone: an error line, exit 1" "$TMP/ga.log"
printf '%s\n' "Gradient accumulation steps mismatch: GradientAccumulationPlugin has 1, DeepSpeed config has 4. Using DeepSpeed's value failed." >"$TMP/ga.log"
exit_is 1 "  'using the value' that does not end the sentence: still an error, exit 1" "$TMP/ga.log"
# a status table's timeout field at none (nvidia-smi -q, gpu-operator#2511): no error; the
# pod at Init:Error above it is one
printf '%s\n' '            Access Timeout Recovery                    : N/A' '            Route Unhealthy                            : N/A' >"$TMP/fab.log"
exit_is 0 "nvidia-smi's 'Access Timeout Recovery : N/A': exit 0" "$TMP/fab.log"

# a failure of unknown cause names the rank its launcher says ended (PaddleSeg#3494, verbatim):
# the line under the error names it
cause_is "kind detail rank" "unresolved unclassified 1" "Paddle's launcher: 'Container rank 1 status failed': rank 1" \
	'LAUNCH ERROR 2023-09-11 14:55:20,499 Container failed !!!' \
	"Container rank 1 status failed cmd ['/home/jh/.virtualenvs/ppaddle/bin/python3', '-u', 'tools/train.py'] code 1 log log/workerlog.1"
cause_is "kind detail rank" "unresolved unclassified None" "  a rank named without saying it ended: no rank" \
	'LAUNCH ERROR 2023-09-11 14:55:20,499 Container failed !!!' \
	'Container rank 1 status running'
# an allocation of a stated size refused (the Neuron runtime's device-memory page, verbatim)
cause_is "kind" "memory/resource" "'Failed to allocate 4.000GB ... on ND 0:NC 4': memory" \
	'2025-May-15 20:58:33.897479 224822:224822 ERROR  TDRV:log_dev_mem                             Failed to allocate 4.000GB (alignment: none, usage: tensors) on ND 0:NC 4'
# a gRPC/absl status heading a warning's message (tensorflow#7767, verbatim): an error
printf '%s\n' 'W tensorflow/core/framework/op_kernel.cc:993] Unavailable: {"created":"@1487751897.191020037","description":"EOF","file":"external/grpc/src/core/lib/iomgr/tcp_posix.c","file_line":' >"$TMP/st.log"
exit_is 1 "TensorFlow's 'W ...] Unavailable: {...}': an error line, exit 1" "$TMP/st.log"
# exceptions a reader may observe are foretold (Gaudi-tutorials' LocalGPT run, verbatim)
printf '%s\n' "This is a friendly reminder - the current text generation call will exceed the model's predefined maximum length (4096). Depending on the model, you may observe exceptions, performance degradation, or nothing at all." >"$TMP/fr.log"
exit_is 0 "'you may observe exceptions': foretold, exit 0" "$TMP/fr.log"

# a statistic the run could not work out, at NeMo's error level, and the reason under it
# (AI-Hypercomputer/gpu-recipes' A4 logs, verbatim): no error; a figure missed, one
printf '%s\n' '[NeMo E 2025-06-23 18:03:16 nemo_logging:417] Failed to calculate TFLOPs per sec per GPU.' \
	"'Failed to extract valid model name from or missing FLOPs calculations for qwen3_30b_32gpu_tp1_pp1_cp1_vp1_ep8_gbs256_mbs4'" >"$TMP/fl.log"
exit_is 0 "NeMo's 'Failed to calculate TFLOPs per sec per GPU.' and its reason: exit 0" "$TMP/fl.log"
printf '%s\n' 'ERROR: Failed to reach the expected throughput of 180 GB/s' >"$TMP/fl.log"
exit_is 1 "  'Failed to reach the expected throughput': a check that failed, exit 1" "$TMP/fl.log"

# a port clash on one node explains the resets its peers saw of the server that never
# listened (PaddlePaddle/Paddle#1503, verbatim): node1's bind, not node0's reset
mkdir -p "$TMP/pb/node0" "$TMP/pb/node1"
printf '%s\n' 'Wed Mar  1 14:51:06 2017[1,110]<stderr>:F0301 14:51:06.086540 14748 SocketChannel.cpp:56] Check failed: len >= 0  peer=10.75.76.44: Connection reset by peer [104]' >"$TMP/pb/node0/stdout.txt"
printf '%s\n' 'F0301 14:49:23.740551  6968 LightNetwork.cpp:186] Check failed: bind(socket_, (struct sockaddr *)&serv_addr, sizeof(serv_addr)) >= 0 ERROR on binding 10.75.76.44: Address already in use [98]' >"$TMP/pb/node1/stdout.txt"
run "$HCCLCTL" --json doctor --logs "$TMP/pb"
cause kind detail node
check_out "config port-bound node1" "a port clash on node1 outranks the connection reset it caused on node0"

# coloured output: the terminal's sequences go before the line is read (Ray's prefix in
# colour, GoogleCloudPlatform/ai-on-gke's KubeRay notebook, verbatim): TensorFlow's line says
# it is "(DEBUG INFO)" once its prefix is the one a terminal shows; a red ERROR stays one,
# quoted without its sequences
printf '\033[2m\033[36m(RayTrainWorker pid=1146)\033[0m %s\n' '2023-04-06 16:16:26.491021: I tensorflow/core/common_runtime/executor.cc:1197] [/device:CPU:0] (DEBUG INFO) Executor start aborting (this does not indicate an error and you can ignore this message): INVALID_ARGUMENT: You must feed a value for placeholder tensor' >"$TMP/ansi.log"
exit_is 0 "Ray's coloured prefix over TensorFlow's '(DEBUG INFO) ... does not indicate an error': exit 0" "$TMP/ansi.log"
printf '\033[1;31mERROR\033[0m %s\n' 'ibv_open_device failed: No such device' >"$TMP/ansi2.log"
run "$HCCLCTL" doctor --logs "$TMP/ansi2.log"
check_rc 2 "a red ERROR line: still an error (ENODEV, exit 2)"
check_out_contains "(ENODEV): ERROR ibv_open_device failed: No such device" "  quoted as a terminal shows it, without its escape sequences"

# a failure foretold with the words that name it between the verb and the word
# (mlcommons/training_results_v2.1, Dell's maskrcnn run, verbatim): no error; said as news, one
printf '%s\n' '  0: 2022-05-20 08:52:23,338 maskrcnn_benchmark.data.build WARNING: When using more than one image per GPU you may encounter an out-of-memory (OOM) error if your GPU does not have sufficient memory. If this happens, you can reduce SOLVER.IMS_PER_BATCH (for training) or TEST.IMS_PER_BATCH (for inference). For training, you must also adjust the learning rate and schedule length according to the linear scaling rule. See for example: https://github.com/facebookresearch/Detectron/blob/master/configs/getting_started/tutorial_1gpu_e2e_faster_rcnn_R-50-FPN.yaml#L14' >"$TMP/oom.log"
exit_is 0 "'you may encounter an out-of-memory (OOM) error': foretold, exit 0" "$TMP/oom.log"
printf '%s\n' 'WARNING: we encountered an out-of-memory (OOM) error on GPU 3' >"$TMP/oom2.log"
exit_is 2 "  'we encountered an out-of-memory (OOM) error': news of one, exit 2" "$TMP/oom2.log"

# a bound on a value the job gave, stated in words by the check that refused it
# (NVIDIA/DALI#510, verbatim): the job's shard settings, not the program
cause_is "kind detail" "config words:invalid" "'num_shards needs to be greater than shard_id': a bound the job's value missed" \
	'RuntimeError: Critical error in pipeline: [/opt/dali/dali/pipeline/operators/reader/loader/loader.h:57] Assert on "num_shards_ > shard_id_" failed: num_shards needs to be greater than shard_id'

# one process's announcement of its rank logged twice, once with a label more (the Ray
# docs' Vicuna fine-tuning run, verbatim): one process, no rank held twice; a second process
# with the same rank is still two
printf '%s\n' '(RayTrainWorker pid=4048, ip=10.0.130.188) INFO: initializing deepspeed distributed: GLOBAL_RANK: 5, MEMBER: 6/16' '(RayTrainWorker pid=4048, ip=10.0.130.188) initializing deepspeed distributed: GLOBAL_RANK: 5, MEMBER: 6/16' '(RayTrainWorker pid=4048, ip=10.0.130.188) 2025-10-15 15:51:10.359839: W tensorflow/compiler/tf2tensorrt/utils/py_utils.cc:38] TF-TRT Warning: Could not find TensorRT' >"$TMP/echo.log"
exit_is 0 "a rank announced twice by one logger, with and without 'INFO: ', and TF-TRT's probe: exit 0" "$TMP/echo.log"
printf '%s\n' '(RayTrainWorker pid=4048, ip=10.0.130.188) initializing deepspeed distributed: GLOBAL_RANK: 5, MEMBER: 6/16' '(RayTrainWorker pid=4049, ip=10.0.130.188) initializing deepspeed distributed: GLOBAL_RANK: 5, MEMBER: 7/16' >"$TMP/echo2.log"
exit_is 2 "  two processes that announce rank 5: still a duplicate, exit 2" "$TMP/echo2.log"

# a C macro's label with ERROR among its parts heads a message (open-mpi/ompi#714, verbatim):
# an error line, never a pass; the same label with a value is a setting
printf '%s\n' 'ORTE_ERROR_LOG: Not found in file base/plm_base_launch_support.c at line 99' >"$TMP/orte.log"
exit_is 1 "ORTE_ERROR_LOG heading a message: an error line no rule knows, exit 1" "$TMP/orte.log"
printf '%s\n' 'NCCL_ASYNC_ERROR_HANDLING: 1' 'NCCL_ASYNC_ERROR_HANDLING: True' >"$TMP/orte2.log"
exit_is 0 "  the same kind of name with a value: exit 0" "$TMP/orte2.log"

# a limit the job's setting put, and the program's advice to raise it (paboyle/Grid#438,
# verbatim): the job's setting
cause_is "kind detail" "config words:advised-setting" "'exceeded shared heap size -- try increasing with --shm': the setting it advises" \
	'ShmBufferMalloc exceeded shared heap size -- try increasing with --shm <MB> flag'

# what NCCL and RCCL say of an optional feature they go on without and of sockets shut as the
# ranks end (MLPerf Training results of Oracle's H200 and MangoBoost's MI300X runs, verbatim): no
# error; the same proxy thread failing to reach a rank mid-run is still one
printf '%s\n' 'ai3:155:942 [4] /longer_pathname_so_that_rpms_can_support_packaging_the_debug_info_for_all_os_profiles/src/out/ubuntu-22.04/22.04/build/rccl/hipify/src/init.cc:1954 NCCL WARN MSCCL++: Cannot enable MSCCL++; environment is not MSCCL compatible' '  6: GPU-719:3198547:3203306 [6] proxy.cc:1497 NCCL WARN [Service thread] Could not receive type from localRank 1, res=3, closed=0' >"$TMP/svc.log"
exit_is 0 "RCCL's MSCCL++ probe and the proxy thread's closed sockets at the end: exit 0" "$TMP/svc.log"
printf '%s\n' '  6: GPU-719:3198547:3203306 [6] proxy.cc:1497 NCCL WARN [Service thread] Could not connect to localRank 1, res=3' >"$TMP/svc2.log"
exit_is 2 "  a proxy thread that could not connect: an error, exit 2" "$TMP/svc2.log"

# what a program does upon failure, said as its policy (AI-Hypercomputer/gpu-recipes' NeMo
# runs, verbatim): no error; the failure said as news still is one
printf '%s\n' '[NeMo I 2025-06-12 04:47:03 nemo_logging:393] TFLOPs per sec per GPU will be calculated, conditioned on supported models. Defaults to -1 upon failure.' >"$TMP/upon.log"
exit_is 0 "'Defaults to -1 upon failure': a policy, exit 0" "$TMP/upon.log"
printf '%s\n' '[NeMo E 2025-06-12 04:47:03 nemo_logging:393] TFLOPs calculation failed upon failure of the model lookup' >"$TMP/upon2.log"
exit_is 1 "  'calculation failed upon failure of ...': still an error line" "$TMP/upon2.log"

# a retry whose launcher then ends every process was the job's last try (PaddlePaddle/Paddle
# #35054, verbatim): a failure, not a pass; a retry the log goes on after is none
printf '%s\n' 'W0823 10:09:43.540493  2451 gen_comm_id_helper.cc:120] connect addr=127.0.0.1:47731 failed 1 times with reason: Connection refused retry after 0.5 seconds' 'W0823 10:09:44.041168  2451 gen_comm_id_helper.cc:120] connect addr=127.0.0.1:47731 failed 2 times with reason: Connection refused retry after 1 seconds' 'INFO 2021-08-23 10:09:47,950 launch_utils.py:327] terminate all the procs' >"$TMP/term.log"
exit_is 2 "a refused connect retried, then 'terminate all the procs': exit 2" "$TMP/term.log"
printf '%s\n' 'W0823 10:09:43.540493  2451 gen_comm_id_helper.cc:120] connect addr=127.0.0.1:47731 failed 1 times with reason: Connection refused retry after 0.5 seconds' 'INFO 2021-08-23 10:09:47,950 launch_utils.py:327] all ranks connected' >"$TMP/term2.log"
exit_is 0 "  the same retry, then the job going on: exit 0" "$TMP/term2.log"

# a configuration file listing one entry twice (ComputeCanada/puppet-magic_castle#27,
# verbatim): the cluster's setting, not a fatal error of unknown cause
cause_is "kind detail" "config words:setting" "'gres.conf duplicate records for gpu': a configuration file" \
	'Feb 20 18:59:13 node2.int.rubberducky.calculquebec.cloud slurmd[57977]: fatal: gres.conf duplicate records for gpu'

# the job's own count of processes against the one it was started with (iat-cener/CFDWind#1,
# verbatim): the launch, not a fatal error of unknown cause
cause_is "kind detail" "config words:world-size" "'specifies 16 processors but job was started with 4': the launch" \
	'[0] --> FOAM FATAL ERROR: ' \
	'[0] "/home/exampleCases/GABLS3/system/decomposeParDict" specifies 16 processors but job was started with 4 processors.'

# a job step that asks for more nodes than the job holds (fsengi/hpdcExercise's Slurm error
# file, verbatim): the launch's size
cause_is "kind detail" "config words:world-size" "'Only allocated 4 nodes asked for 5': the launch" \
	'srun: error: Only allocated 4 nodes asked for 5'

# a bare AssertionError, its assert's statement printed above it by the traceback (with
# Python 3.11's carets between; KellerJordan/modded-nanogpt#115, verbatim): the job's
# process count against the one the program requires, not a defect of the code
cause_is "kind detail" "config words:size-check" "'AssertionError': the number of processes" \
	'Traceback (most recent call last):' \
	'  File "/data/coml-ecr/kebl8114/modded-nanogpt/train_gpt.py", line 574, in <module>' \
	'    assert world_size == 8 # this code is designed for 8xH100' \
	'           ^^^^^^^^^^^^^^^' \
	'AssertionError'

# and a check that a path is there (lambdal/deeplearning-benchmark's Transformer-XL log on
# 2x H100, verbatim): the job's data is missing, not a defect of the code
cause_is "kind detail" "config words:missing-file" "'assert os.path.exists(path)': a path the job names" \
	'[rank1]:   File "/workspace/benchmark/LanguageModeling/Transformer-XL/pytorch/utils/vocabulary.py", line 58, in count_file' \
	'[rank1]:     assert os.path.exists(path)' \
	'[rank1]: AssertionError'

# and the same statement three lines above the bare error is not its own
cause_is "kind detail" "version-mismatch words:code-check" "'AssertionError': a package's own code" \
	'    assert world_size == 8' \
	'           ^^^^^^^^^^^^^^^' \
	'  File "train.py", line 9, in check' \
	'AssertionError'

# a system call's failure told only by strerror's text (parthenon-hpc-lab/kharma#44, UCX's
# CMA transport on Delta, verbatim): an error line, never a pass
printf '%s\n' '[gpua097:94124:0:94124]      cma_ep.c:95   process_vm_readv(pid=94123 length=25800) returned -1: Bad address' >"$TMP/efault.log"
exit_is 1 "strerror's 'Bad address' alone: an unclassified warning (exit 1), not a pass" "$TMP/efault.log"

# a record that calls itself a warning and no error (MLPerf LoadGen's detail log of a valid
# AMD run in inference_results_v4.1, verbatim): a pass; its result record saying INVALID,
# which calls itself neither (a Krai run in v5.1), stays an error
printf '%s\n' ':::MLLOG {"key": "warning_generic_message", "value": "CAS failed.", "time_ms": 219.030011, "namespace": "mlperf::logging", "event_type": "POINT_IN_TIME", "metadata": {"is_error": false, "is_warning": true, "file": "logging.cc", "line_no": 1155, "pid": 3578, "tid": 5532}}' >"$TMP/cas.log"
exit_is 0 "LoadGen's warning record (is_error false, is_warning true): no error, exit 0" "$TMP/cas.log"
printf '%s\n' ':::MLLOG {"key": "result_validity", "value": "INVALID", "time_ms": 27201.058139, "namespace": "mlperf::logging", "event_type": "POINT_IN_TIME", "metadata": {"is_error": false, "is_warning": false, "file": "results.cc", "line_no": 674, "pid": 1560359, "tid": 1560359}}' >"$TMP/inv.log"
exit_is 2 "LoadGen's result record INVALID: an error, exit 2" "$TMP/inv.log"

cause_flush
done_testing
