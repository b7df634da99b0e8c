#!/bin/sh
# hcclctl run --engine hccl: HCCL driven by hcclctl, against the test stand-ins for CANN's
# libascendcl.so and libhccl.so (tests/stub, built by `make tests`): exact results, the
# libraries found by each lookup, HCCL errors named with their codes, a stuck rank named
# within seconds, and exit 3 with the fix when the libraries are absent.
# harness: foreground (its deadlines are measured in wall-clock time)
. "$(dirname "$0")/lib.sh"
# ranks of another launcher share one secret (HCCLCTL_SECRET), as a real job must
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_SECRET

STUB=$(pwd)/build/tests/stub
HOST=$(hostname)
rows() { printf '%s\n' "$OUT" | grep -c '^ *[0-9]'; }
# every row of $OUT checked and right
no_wrong() {
	printf '%s\n' "$OUT" | awk '/^ *[0-9]/ { n++; if ($9 != 0) exit 1 } END { exit !n }'
	_report $? "$1" "$OUT"
}
nolib() { env -u LD_LIBRARY_PATH -u ASCEND_HOME_PATH -u ASCEND_TOOLKIT_HOME "$@"; }

# ---- without the libraries: hcclctl still runs, and says what to source ----
run nolib "$HCCLCTL" run allreduce --local 2 --engine hccl
check_rc 3 "no libascendcl.so anywhere: exit 3"
check_err "hcclctl: run allreduce: --engine hccl: cannot load libascendcl.so: not found; tried libascendcl.so on the loader's path (LD_LIBRARY_PATH unset), \$ASCEND_HOME_PATH unset, \$ASCEND_TOOLKIT_HOME unset
hint: source /usr/local/Ascend/ascend-toolkit/set_env.sh (or put CANN's lib64 on LD_LIBRARY_PATH)" \
	"  names the library, every place tried, and the environment to source"
check_out "" "  nothing on stdout"
run nolib env ASCEND_HOME_PATH="$TMP/none" ASCEND_TOOLKIT_HOME="$TMP/tk" "$HCCLCTL" run barrier --engine hccl
check_rc 3 "  also with ASCEND_HOME_PATH and ASCEND_TOOLKIT_HOME pointing nowhere"
check_err_has "hcclctl: run barrier: --engine hccl: cannot load libascendcl.so: not found; tried libascendcl.so on the loader's path (LD_LIBRARY_PATH unset), $TMP/none/lib64/libascendcl.so (\$ASCEND_HOME_PATH), $TMP/tk/lib64/libascendcl.so (\$ASCEND_TOOLKIT_HOME)" \
	"  the paths tried, in order"
run nolib "$HCCLCTL" --json run allreduce --local 2 --engine hccl
check_rc 3 "  --json: exit 3"
printf '%s' "$OUT" >"$TMP/doc.json"
ok "python3 -c '
import json,sys
d=json.load(open(\"$TMP/doc.json\"))
assert d[\"exit_code\"]==3 and \"cannot load libascendcl.so\" in d[\"error\"][\"message\"], d
'" "  --json: one document with the error"
run nolib "$HCCLCTL" -v run allreduce --local 2 --engine auto -b 8 -e 8 -n 1 -w 0
check_rc 0 "--engine auto without the libraries: runs on libcomm"
check_out_has "# hcclctl run allreduce: 2 ranks (local), fp32 sum, algo auto, iters 1, warmup 0, check on, engine libcomm" \
	"  the header says engine libcomm"
check_err_has "hcclctl: run allreduce: warning: --engine auto: libhccl.so does not load on every rank: running on libcomm" \
	"  -v says why"
run nolib "$HCCLCTL" run allreduce --local 2 --engine hccl --compress int8
check_rc 64 "--compress with --engine hccl: usage error"
check_err "hcclctl: run allreduce: --compress int8 is libcomm's: HCCL has no compressed allreduce
hint: --engine libcomm" "  says compression is libcomm's"

if [ ! -f "$STUB/libhccl.so" ] || [ ! -f "$STUB/libascendcl.so" ]; then
	skip "the test libraries are not built ($STUB): run make tests"
	done_testing
	exit
fi
export LD_LIBRARY_PATH="$STUB"
export ASCEND_PROCESS_LOG_PATH="$TMP/plog"
unset ASCEND_HOME_PATH ASCEND_TOOLKIT_HOME

# A symbol the engine needs, missing: a libhccl.so that has only HcclAllReduce.
mkdir -p "$TMP/partial"
cp "$STUB/libascendcl.so" "$TMP/partial/"
if printf 'int HcclAllReduce(void);\nint HcclAllReduce(void) { return 0; }\n' |
	cc -shared -fPIC -o "$TMP/partial/libhccl.so" -x c - 2>/dev/null; then
	run env LD_LIBRARY_PATH="$TMP/partial" "$HCCLCTL" run allreduce --local 2 --engine hccl
	check_rc 3 "a libhccl.so without HcclCommInitClusterInfo: exit 3"
	check_err "hcclctl: run allreduce: --engine hccl: libhccl.so has no symbol HcclCommInitClusterInfo (loaded from $TMP/partial/libhccl.so): not the CANN version hcclctl needs
hint: source /usr/local/Ascend/ascend-toolkit/set_env.sh (or put CANN's lib64 on LD_LIBRARY_PATH)" \
		"  names the symbol, the library file and the fix"
else
	skip "no C compiler to build a partial libhccl.so"
fi

# ---- results: every collective, checked element by element ----
run hcclctl run allreduce --local 4 --engine hccl -b 8 -e 64K -n 2 -w 1
check_rc 0 "allreduce on HCCL over 4 local ranks exits 0"
check_out_has "# hcclctl run allreduce: 4 ranks (local), fp32 sum, algo auto, iters 2, warmup 1, check on, engine hccl" \
	"  the header says engine hccl"
check_out_has "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong    algo" \
	"  the same columns as libcomm"
ok "printf '%s\n' \"$OUT\" | awk '/^ *[0-9]/ { if (\$10 != \"N/A\" || \$13 != \"N/A\") exit 1 }'" \
	"  in place N/A: HCCL's engine copies its own buffers"
ok "[ $(rows) -eq 14 ]" "  one row per size from 8 B to 64 KiB"
no_wrong "  no wrong element in any row"
ok "printf '%s\n' \"$OUT\" | awk '/^ *[0-9]/ && \$1 == 65536 { if (\$2 != 16384 || \$3 != \"fp32\" || \$4 != \"sum\" || \$NF != \"auto\") exit 1; bw = \$1 / (\$6 * 1000); if (\$7 < bw * 0.99 - 0.006 || \$7 > bw * 1.01 + 0.006) exit 1; f=1 } END { exit !f }'" \
	"  the 64 KiB row: count, type, op, algo auto, algbw = size / time"

for c in allgather reducescatter broadcast alltoall sendrecv barrier; do
	for n in 1 3 4; do
		run hcclctl run $c --local $n --engine hccl -b 1 -e 4K -n 2 -w 1 -r $((n - 1))
		check_rc 0 "$c on HCCL over $n rank(s): exit 0"
		no_wrong "  every element right"
	done
done
for d in int8 int32 int64 fp16 bf16 fp32; do
	for op in sum prod max min; do
		[ "$d$op" = bf16prod ] && continue
		run hcclctl run allreduce --local 3 --engine hccl -b 64 -e 1K -f 4 -n 1 -w 0 -d $d -o $op
		check_rc 0 "allreduce $d $op on HCCL over 3 ranks"
	done
done
run hcclctl run reducescatter --local 3 --engine hccl -b 96 -e 96 -n 1 -w 0 -d bf16 -o max
check_rc 0 "reducescatter bf16 max over 3 ranks"
# fp64 is not in the documented support table of the reductions, though HCCL's parameter
# check (and the stand-in's) lets it through: a usage error before any rank starts
run hcclctl run allreduce --local 2 --engine hccl -b 64 -e 64 -n 1 -w 0 -d fp64
check_rc 64 "allreduce fp64 on HCCL: usage error before launch, exit 64"
check_err "hcclctl: run allreduce: --engine hccl: HcclAllReduce takes no fp64: HCCL reduces int8, int16, int32, int64, fp16, fp32 and bf16
hint: --engine libcomm runs it on the host" "  says which types HCCL reduces, and the way out"
run hcclctl run reducescatter --local 2 --engine hccl -b 64 -e 64 -n 1 -w 0 -d bf16 -o prod
check_rc 64 "reducescatter bf16 prod on HCCL: usage error"
check_err_has "hcclctl: run reducescatter: --engine hccl: HcclReduceScatter takes no prod on bf16" "  names the pair"
run hcclctl -v run allreduce --local 2 --engine auto -b 64 -e 64 -n 1 -w 0 -d fp64
check_rc 0 "--engine auto with fp64 allreduce: runs on libcomm"
check_out_has "# hcclctl run allreduce: 2 ranks (local), fp64 sum, algo auto, iters 1, warmup 0, check on, engine libcomm" "  the header says libcomm"
check_err_has "hcclctl: run allreduce: warning: --engine auto: HcclAllReduce takes no fp64: HCCL reduces int8, int16, int32, int64, fp16, fp32 and bf16: running on libcomm" "  -v says why"
run hcclctl run allgather --local 2 --engine hccl -b 64 -e 64 -n 1 -w 0 -d fp64
check_rc 0 "allgather fp64 on HCCL: moved, not reduced: runs"

run hcclctl --json run allgather --local 2 --engine hccl -b 64 -e 128 -n 1 -w 0
check_rc 0 "--json on HCCL exits 0"
ok "printf '%s' '$OUT' | python3 -c '
import json,sys
d=json.load(sys.stdin)
assert d[\"collective\"]==\"allgather\" and d[\"world_size\"]==2 and d[\"engine\"]==\"hccl\", d
r=d[\"results\"]
assert [x[\"size_bytes\"] for x in r]==[64,128], r
assert set(r[0])=={\"size_bytes\",\"count\",\"dtype\",\"op\",\"root\",\"algo\",\"time_us\",\"algbw_GBps\",\"busbw_GBps\",\"wrong\",\"in_place\"}, r[0]
assert all(x[\"wrong\"]==0 and x[\"time_us\"]>0 and x[\"in_place\"] is None for x in r)
'" "  the same document as libcomm's, with engine hccl"

# ---- which libraries, found where ----
run hcclctl -v run barrier --local 2 --engine hccl -n 1 -w 0
check_rc 0 "-v on the loader's path"
check_err_has "hcclctl: run barrier: libascendcl.so: $STUB/libascendcl.so (aclrtGetVersion 1.0.0)" \
	"  -v: libascendcl.so's full path and ACL's version"
check_err_has "hcclctl: run barrier: libhccl.so: $STUB/libhccl.so (CANN 1.0.0)" \
	"  -v: libhccl.so's full path and the version.info beside it"
if [ -f "$STUB/ascend/lib64/libhccl.so" ]; then
	for v in ASCEND_HOME_PATH ASCEND_TOOLKIT_HOME; do
		run env -u LD_LIBRARY_PATH $v="$STUB/ascend" "$HCCLCTL" -v run allreduce --local 2 --engine hccl -b 8 -e 8 -n 1 -w 0
		check_rc 0 "found through \$$v/lib64"
		check_err_has "hcclctl: run allreduce: libhccl.so: $STUB/ascend/lib64/libhccl.so (CANN 1.0.0)" \
			"  -v: the library in \$$v/lib64, the version.info of that install"
		no_wrong "  and the results are right"
	done
else
	skip "no fake install $STUB/ascend"
fi
mkdir -p "$TMP/inst/lib64"
cp "$STUB/libascendcl.so" "$STUB/libhccl.so" "$TMP/inst/lib64/"
printf 'Version=8.0;x\n' >"$TMP/inst/version.info"
run env -u LD_LIBRARY_PATH ASCEND_HOME_PATH="$TMP/inst" "$HCCLCTL" -v run barrier --local 2 --engine hccl -n 1 -w 0
check_rc 0 "an install whose version.info is not one still runs"
check_err_has "hcclctl: run barrier: libhccl.so: $TMP/inst/lib64/libhccl.so ($TMP/inst/version.info:1:12: byte 0x3b in the version)" \
	"  -v says where its version.info is wrong"
# the toolkit's own layout: 8.0.RC3/x86_64-linux/lib64, the install info in x86_64-linux,
# version.cfg at the top, latest/ a link to it; no version.info anywhere
TK=$TMP/Ascend/ascend-toolkit
mkdir -p "$TK/8.0.RC3/x86_64-linux/lib64"
cp "$STUB/libascendcl.so" "$STUB/libhccl.so" "$TK/8.0.RC3/x86_64-linux/lib64/"
ln -s x86_64-linux/lib64 "$TK/8.0.RC3/lib64"
ln -s 8.0.RC3 "$TK/latest"
printf '# version: 1.0\nruntime_running_version=[7.5.0.1.129:8.0.RC3]\nhccl_running_version=[7.5.0.1.129:8.0.RC3]\n' \
	>"$TK/8.0.RC3/version.cfg"
run env -u LD_LIBRARY_PATH ASCEND_HOME_PATH="$TK/latest" "$HCCLCTL" -v run barrier --local 2 --engine hccl -n 1 -w 0
check_rc 0 "CANN's layout, only version.cfg: runs"
check_err_has "hcclctl: run barrier: libhccl.so: $TK/8.0.RC3/x86_64-linux/lib64/libhccl.so (CANN 8.0.RC3)" \
	"  -v: the version after the colon of version.cfg's hccl_running_version"
printf 'package_name=Ascend-cann-toolkit\nversion=8.0.RC3.1\ninnerversion=V100R001C19SPC001B124\narch=x86_64\n' \
	>"$TK/8.0.RC3/x86_64-linux/ascend_toolkit_install.info"
run env -u LD_LIBRARY_PATH ASCEND_HOME_PATH="$TK/latest" "$HCCLCTL" -v run barrier --local 2 --engine hccl -n 1 -w 0
check_err_has "hcclctl: run barrier: libhccl.so: $TK/8.0.RC3/x86_64-linux/lib64/libhccl.so (CANN 8.0.RC3.1)" \
	"  with ascend_toolkit_install.info beside lib64: its version, the nearer file"
rm "$TK/8.0.RC3/x86_64-linux/ascend_toolkit_install.info" "$TK/8.0.RC3/version.cfg"
run env -u LD_LIBRARY_PATH ASCEND_HOME_PATH="$TK/latest" "$HCCLCTL" -v run barrier --local 2 --engine hccl -n 1 -w 0
check_err_has "hcclctl: run barrier: libhccl.so: $TK/8.0.RC3/x86_64-linux/lib64/libhccl.so (no version.info, ascend_toolkit_install.info or version.cfg)" \
	"  none of the three: -v names all it looked for"

# ---- HCCL's failures, named with HCCL's codes ----
run env HCCL_STUB_ERROR_RANK=1 HCCL_STUB_ERROR_CODE=9 HCCL_STUB_AT=3 \
	"$HCCLCTL" run allreduce --local 3 --engine hccl -b 8 -e 64 -n 2 -w 1
check_rc 2 "rank 1's third HcclAllReduce returns HCCL_E_TIMEOUT: exit 2"
check_err_has "hcclctl: verdict: hccl-error: rank 1 (server $HOST, device 1): HcclAllReduce returned HCCL_E_TIMEOUT (9): timeout; its plog: $TMP/plog" \
	"  the verdict names the rank, the call and the code"
ok "[ $(printf '%s\n' "$ERR" | grep -c '^hcclctl: verdict:') -eq 1 ]" "  one verdict line"

run env HCCL_STUB_ERROR_RANK=2 HCCL_STUB_ERROR_CODE=21 HCCL_STUB_ERROR_ASYNC=1 HCCL_STUB_AT=2 \
	"$HCCLCTL" run allreduce --local 3 --engine hccl -b 8 -e 64 -n 2 -w 1
check_rc 2 "rank 2's stream fails under its second HcclAllReduce: exit 2"
check_err_has "hcclctl: verdict: hccl-error: rank 2 (server $HOST, device 2): HcclAllReduce failed on the device: the stream wait returned 507018 (ACL_ERROR_RT_AICPU_EXCEPTION); HcclGetCommAsyncError: HCCL_E_REMOTE (21): error cqe; its plog: $TMP/plog" \
	"  the stream's ACL code and HcclGetCommAsyncError's HCCL code"
printf '%s\n' "$ERR" | grep -q "^hcclctl: run allreduce: rank 2 (server $HOST, device 2): HcclAllReduce: ."
_report $? "  rank 2's own line adds aclGetRecentErrMsg" "$ERR"

run env HCCL_STUB_INIT_FAIL_RANK=1 "$HCCLCTL" run allreduce --local 3 --engine hccl -b 8 -e 8 -n 1 -w 0
check_rc 2 "HcclCommInitRootInfo fails on rank 1: exit 2"
check_err_has "hcclctl: verdict: hccl-error: rank 1 (server $HOST, device 1): HcclCommInitRootInfo returned HCCL_E_INTERNAL (4): internal error; its plog: $TMP/plog" \
	"  named, with HCCL_E_INTERNAL by default"
run env HCCL_STUB_INIT_FAIL_RANK=0 HCCL_STUB_INIT_CODE=7 "$HCCLCTL" run allreduce --local 2 --engine hccl -b 8 -e 8 -n 1 -w 0
check_rc 2 "HcclCommInitRootInfo fails on rank 0 with HCCL_E_UNAVAIL"
# rank 1's init may fail too, as a consequence, before the verdict: then it is listed after
printf '%s\n' "$ERR" | grep -Eqx "hcclctl: verdict: hccl-error: rank 0 \(server $HOST, device 0\): HcclCommInitRootInfo returned HCCL_E_UNAVAIL \(7\): resource unavailable(; also failed: rank 1)?; its plog: $TMP/plog"
_report $? "  the given code, named, rank 0 first" "$ERR"

run env HCCL_STUB_CORRUPT_RANK=1 HCCL_STUB_AT=2 HCCL_STUB_CORRUPT_INDEX=1 \
	"$HCCLCTL" run allreduce --local 3 --engine hccl -b 8 -e 16 -n 1 -w 1
check_rc 2 "rank 1's checked result has one element changed: exit 2"
check_err_has "hcclctl: run allreduce: rank 1: 1 wrong of 2 at size 8: first at element 1: expected -2, got 1" \
	"  the first wrong element: rank, size, offset, expected, got"
ok "printf '%s\n' \"$OUT\" | awk '/^ *8 / { if (\$9 != 1) exit 1; f=1 } END { exit !f }'" "  #wrong counts it"

# ---- a rank stuck in HCCL: named in seconds, not at HCCL's 1836 s ----
t0=$(date +%s%N)
run env HCCL_STUB_HANG_RANK=2 HCCL_STUB_AT=4 HCCLCTL_HCCL_STALL=2 \
	"$HCCLCTL" run allreduce --local 3 --engine hccl -b 8 -e 64 -n 3 -w 1
ms=$((($(date +%s%N) - t0) / 1000000))
check_rc 2 "rank 2 hangs after its fourth HcclAllReduce: exit 2"
# how long: rank 2's own idle time, which began a little before the others' (2.0 s and up)
printf '%s\n' "$ERR" | grep -Eqx "hcclctl: verdict: stuck-rank: rank 2 \(server $HOST, device 2\) stuck in HcclAllReduce: no progress for 2\.[0-9] s while the other ranks got further and wait on it; its plog: $TMP/plog"
_report $? "  the verdict names rank 2, its server, device, the call, how long, its plog" "$ERR"
ok "[ $ms -lt 8000 ]" "  the run ends within seconds of the stall limit ($ms ms)"
echo "# stuck rank (hang after), local: run ended after $ms ms, stall limit 2 s"

run env HCCL_STUB_HANG_RANK=0 HCCL_STUB_AT=3 HCCLCTL_HCCL_STALL=1 \
	"$HCCLCTL" --json run broadcast --local 4 --engine hccl -b 8 -e 8 -n 1 -w 1
check_rc 2 "rank 0 hangs after its last broadcast, the others finished: exit 2"
ok "printf '%s' '$OUT' | python3 -c '
import json,sys
d=json.load(sys.stdin)
v=d[\"verdict\"]
assert v[\"kind\"]==\"stuck-rank\" and v[\"rank\"]==0 and v[\"collective\"]==\"broadcast\", v
assert \"while the other ranks finished the call\" in v[\"message\"], v
assert d[\"exit_code\"]==2
'" "  --json: the verdict object names rank 0 in broadcast"

run env HCCL_STUB_HANG_RANK=1 HCCL_STUB_HANG=before HCCL_STUB_AT=4 HCCLCTL_HCCL_STALL=2 \
	"$HCCLCTL" run allreduce --local 3 --engine hccl -b 8 -e 64 -n 3 -w 1
check_rc 2 "rank 1 stalls before contributing, so every rank stalls: exit 2"
printf '%s\n' "$ERR" | grep -Eqx "hcclctl: verdict: stuck-rank: every rank is stuck in HcclAllReduce, none behind the others, no progress for 2\.[0-9] s: HCCL waits on something below its calls \(a device, a link, a peer's NIC\); its plogs name it \(rank 0: $TMP/plog\)"
_report $? "  says that no rank is behind and where the plogs are, instead of guessing" "$ERR"

# HCCL's own execution timeout below the stall limit: the healthy ranks' streams fail first
# (507048, no async error); the rank still in HCCL is the one they waited on
t0=$(date +%s%N)
run env HCCL_EXEC_TIMEOUT=2 HCCLCTL_HCCL_STALL=10 HCCL_STUB_HANG_RANK=1 HCCL_STUB_HANG=before HCCL_STUB_AT=2 \
	"$HCCLCTL" run allreduce --local 3 --engine hccl -b 8 -e 64 -n 3 -w 1
ms=$((($(date +%s%N) - t0) / 1000000))
check_rc 2 "HCCL_EXEC_TIMEOUT=2 under a stall limit of 10 s, rank 1 hung: exit 2"
check_err_has "hcclctl: run allreduce: warning: HCCL_EXEC_TIMEOUT=2 s is below the stall limit (HCCLCTL_HCCL_STALL, 10.0 s): a stalled rank's peers fail with HCCL's timeout first, and the verdict names the rank they waited on from that" \
	"  warns that HCCL's timeout acts before the stall limit"
printf '%s\n' "$ERR" | grep -Eqx "hcclctl: verdict: stuck-rank: rank 1 \(server $HOST, device 1\) stuck in HcclAllReduce: no progress for [2-9]\.[0-9] s while 2 other ranks gave up waiting on it \(rank 0: ACL_ERROR_RT_FFTS_PLUS_TIMEOUT 507048\); its plog: $TMP/plog"
_report $? "  the verdict names hung rank 1, not the healthy ranks whose streams timed out" "$ERR"
ok "! printf '%s' \"\$ERR\" | grep -q HCCL_SUCCESS" "  an async error of success is shown nowhere"
ok "[ $ms -lt 8000 ]" "  named at HCCL's timeout, before the stall limit ($ms ms)"
echo "# HCCL_EXEC_TIMEOUT=2 below the stall limit: run ended after $ms ms"

# ---- a rank table: HcclCommInitClusterInfo, the device from the table ----
# two ranks started by hand, -v: pair ENV-OF-RANK-0 ENV-OF-RANK-1 COLL ARGS...; their exit
# codes in rc0 rc1, their output in $TMP/p0.out ...
pair() {
	e0=$1 e1=$2
	shift 2
	P=$(free_port)
	HP=$(free_port)
	for r in 1 0; do
		eval "er=\$e$r"
		env HCCL_IF_BASE_PORT="$HP" $er "$HCCLCTL" -v run "$@" --rank $r --world-size 2 \
			--master 127.0.0.1:"$P" --engine hccl -n 1 -w 1 \
			>"$TMP/p$r.out" 2>"$TMP/p$r.err" &
		eval "pid$r=\$!"
	done
	wait "$pid0"
	rc0=$?
	wait "$pid1"
	rc1=$?
}
P=$(free_port)
HP=$(free_port)
cat >"$TMP/rt.json" <<EOF
{"version": "1.0", "server_count": "1", "status": "completed",
 "server_list": [{"server_id": "127.0.0.1", "device": [
   {"device_id": "4", "device_ip": "192.168.100.4", "rank_id": "0"},
   {"device_id": "5", "device_ip": "192.168.100.5", "rank_id": "1"}]}]}
EOF
pair "HCCL_STUB_ERROR_RANK=1 HCCL_STUB_ERROR_CODE=11 HCCL_STUB_AT=2" \
	"HCCL_STUB_ERROR_RANK=1 HCCL_STUB_ERROR_CODE=11 HCCL_STUB_AT=2" \
	allreduce --ranktable "$TMP/rt.json" -b 8 -e 8
ok "[ $rc0 -eq 2 ] && [ $rc1 -eq 2 ]" "--ranktable with --rank: an HCCL error on rank 1 fails both ranks with 2"
grep -qxF "hcclctl: verdict: hccl-error: rank 1 (server 127.0.0.1, device 5): HcclAllReduce returned HCCL_E_TCP_CONNECT (11): tcp connect fail; its plog: $TMP/plog" "$TMP/p0.err"
_report $? "  rank 0 names rank 1 with the server and device_id of its table entry" "$(cat "$TMP/p0.err")"
pair "" "" alltoall --ranktable "$TMP/rt.json" -b 8 -e 1K
OUT=$(cat "$TMP/p0.out")
ok "[ $rc0 -eq 0 ] && [ $rc1 -eq 0 ]" "--ranktable with --rank: HcclCommInitClusterInfo, alltoall right on both ranks"
check_out_has "# hcclctl run alltoall: 2 ranks (master), fp32, algo auto, iters 1, warmup 1, check on, engine hccl" \
	"  rank 0 prints the table, engine hccl"
no_wrong "  every element right"
run hcclctl run allreduce --rank 0 --world-size 2 --master 127.0.0.1:"$(free_port)" \
	--ranktable "$TMP/missing.json" --engine hccl -b 8 -e 8 -n 1 -w 0 --timeout 3
check_rc 3 "--ranktable that is not there: exit 3"

# ---- world size against the table ----
run hcclctl run allreduce --rank 0 --world-size 3 --master 127.0.0.1:"$(free_port)" \
	--ranktable "$TMP/rt.json" --engine hccl -b 8 -e 8 -n 1 -w 0 --timeout 3
check_rc 64 "--world-size 3 with a table of 2 ranks: usage error before launch"
check_err "hcclctl: run allreduce: --ranktable $TMP/rt.json has 2 ranks, the world size is 3
hint: start as many ranks as the table has, or use its rank count as the world size" "  says both numbers"
run env RANK=0 WORLD_SIZE=1 MASTER_ADDR=127.0.0.1 MASTER_PORT="$(free_port)" \
	"$HCCLCTL" run allreduce --ranktable "$TMP/rt.json" --engine hccl -b 8 -e 8 -n 1 -w 0
check_rc 64 "  and the launcher's WORLD_SIZE=1 too"
check_err_has "hcclctl: run allreduce: --ranktable $TMP/rt.json has 2 ranks, the world size is 1" "  naming the launcher's number"

# ---- devices: a container's physical ids, launchers' local ranks ----
# NPUs 4-7 of the machine as logical 0-3, the table's device_id 4 and 5 (physical)
pair ASCEND_VISIBLE_DEVICES=4,5,6,7 ASCEND_VISIBLE_DEVICES=4,5,6,7 allreduce --ranktable "$TMP/rt.json" -b 8 -e 64
ok "[ $rc0 -eq 0 ] && [ $rc1 -eq 0 ]" "a container seeing NPUs 4-7, the table's devices 4 and 5: both ranks run"
grep -qxF "hcclctl: run allreduce: rank 1: the rank table's device 5 is logical device 1 (aclrtGetPhyDevIdByLogicDevId)" "$TMP/p1.err"
_report $? "  -v: rank 1's physical 5 is logical 1, asked of the runtime" "$(cat "$TMP/p1.err")"
OUT=$(cat "$TMP/p0.out")
no_wrong "  every element right"
pair "ASCEND_VISIBLE_DEVICES=4,5,6,7 HCCL_STUB_NO_PHYID=1" "ASCEND_VISIBLE_DEVICES=4-7 HCCL_STUB_NO_PHYID=1" allreduce --ranktable "$TMP/rt.json" -b 8 -e 64
ok "[ $rc0 -eq 0 ] && [ $rc1 -eq 0 ]" "a runtime without the lookup: the place in the visible-devices list"
grep -qxF "hcclctl: run allreduce: rank 0: the rank table's device 4 is logical device 0 (its place in ASCEND_VISIBLE_DEVICES=4,5,6,7)" "$TMP/p0.err"
_report $? "  -v: rank 0's 4 is the first of ASCEND_VISIBLE_DEVICES" "$(cat "$TMP/p0.err")"
grep -qxF "hcclctl: run allreduce: rank 1: the rank table's device 5 is logical device 1 (its place in ASCEND_VISIBLE_DEVICES=4-7)" "$TMP/p1.err"
_report $? "  a range 4-7 reads the same" "$(cat "$TMP/p1.err")"
pair ASCEND_RT_VISIBLE_DEVICES=6,7 ASCEND_RT_VISIBLE_DEVICES=6,7 allreduce --ranktable "$TMP/rt.json" -b 8 -e 64 --timeout 5
ok "[ $rc0 -ne 0 ] && [ $rc1 -ne 0 ]" "a table's device the process cannot see: both ranks fail"
grep -qF "rank 0 (server 127.0.0.1, device 4): aclrtSetDevice: the rank table's device 4 is none of the 2 NPUs this process sees (aclrtGetPhyDevIdByLogicDevId); ASCEND_RT_VISIBLE_DEVICES or the container's ASCEND_VISIBLE_DEVICES leave it out" "$TMP/p0.err"
_report $? "  rank 0 says its device is not among those it sees, and why" "$(cat "$TMP/p0.err")"
# a launcher's local rank, not the global rank: one NPU per node, rank 1 the first of its node
pair "HCCL_STUB_DEVICE_COUNT=1 SLURM_LOCALID=0" "HCCL_STUB_DEVICE_COUNT=1 SLURM_LOCALID=0" allreduce -b 8 -e 64
ok "[ $rc0 -eq 0 ] && [ $rc1 -eq 0 ]" "SLURM_LOCALID=0 on rank 1 of a node with one NPU: device 0, not the global rank"
grep -qxF "hcclctl: run allreduce: rank 1: device 0 (SLURM_LOCALID)" "$TMP/p1.err"
_report $? "  -v names the variable" "$(cat "$TMP/p1.err")"
for v in OMPI_COMM_WORLD_LOCAL_RANK MPI_LOCALRANKID PMI_LOCAL_RANK LOCAL_RANK; do
	pair "HCCL_STUB_DEVICE_COUNT=1 $v=0" "HCCL_STUB_DEVICE_COUNT=1 $v=0" allreduce -b 8 -e 8
	ok "[ $rc0 -eq 0 ] && [ $rc1 -eq 0 ] && grep -qxF 'hcclctl: run allreduce: rank 1: device 0 ($v)' '$TMP/p1.err'" "  $v=0 the same"
done
pair "LOCAL_RANK=3 SLURM_LOCALID=0" "LOCAL_RANK=2 SLURM_LOCALID=0" allreduce -b 8 -e 8
ok "[ $rc0 -eq 0 ] && grep -qxF 'hcclctl: run allreduce: rank 1: device 2 (LOCAL_RANK)' '$TMP/p1.err'" \
	"  torchrun inside srun: LOCAL_RANK, the innermost launcher's, wins over SLURM_LOCALID"
pair "" "" allreduce -b 8 -e 8
ok "[ $rc0 -eq 0 ] && [ $rc1 -eq 0 ]" "no launcher's local rank: both ranks run"
grep -qxF "hcclctl: run allreduce: rank 1: device 1 (no launcher's local rank: 1 rank before it on $HOST)" "$TMP/p1.err"
_report $? "  -v: the ranks before it on its host" "$(cat "$TMP/p1.err")"

# ---- CANN's runtime only in the ranks: the --local launcher never loads it ----
run env HCCL_STUB_LOG=1 sh -c 'echo "launcher $$" >&2; exec "$0" run barrier --local 2 --engine hccl -n 1 -w 0' "$HCCLCTL"
check_rc 0 "--local 2 with the stand-ins' log on: exit 0"
LPID=$(printf '%s\n' "$ERR" | sed -n 's/^launcher //p')
ok "[ -n '$LPID' ] && ! printf '%s\n' \"\$ERR\" | grep -q '^hccl-stub\[$LPID\]'" \
	"  the launcher neither loads libascendcl.so nor calls it"
NINIT=$(printf '%s\n' "$ERR" | grep 'aclInit(NULL) = 0' | sed 's/].*//' | sort -u | wc -l)
ok "[ $NINIT -eq 2 ]" "  each of the two ranks initialises it in its own process"

done_testing
