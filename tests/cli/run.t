#!/bin/sh
# hcclctl run: real collectives over loopback, every result checked, failures named.
# harness: foreground (its deadlines are measured in wall-clock time)
. "$(dirname "$0")/lib.sh"
# ranks of another launcher share one secret (HCCLCTL_SECRET), as a real job must
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_SECRET

rows() { printf '%s\n' "$OUT" | grep -c '^ *[0-9]'; }

run hcclctl run allreduce --local 4 -b 8 -e 64K -n 2 -w 1
check_rc 0 "allreduce over 4 local ranks exits 0"
check_out_has "# hcclctl run allreduce: 4 ranks (local), fp32 sum, algo auto, iters 2, warmup 1, check on, engine libcomm" "the header says what ran"
check_out_has "#                                                              out-of-place                       in-place" "nccl-tests' groups"
check_out_has "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong    algo" "nccl-tests' columns, then hcclctl's algo"
check_out_has "# Out of bounds values : 0 OK" "nccl-tests' closing lines: no wrong element"
ok "[ $(rows) -eq 14 ]" "one row per size from 8 B to 64 KiB"
ok "printf '%s\n' \"$OUT\" | awk '/^ *[0-9]/ { if (\$9 != 0 || \$13 != 0 || \$5 != -1) exit 1 }'" "no wrong element out of place or in place; no root"
ok "printf '%s\n' \"$OUT\" | awk '/^ *[0-9]/ && \$1 == 65536 { if (\$2 != 16384 || \$3 != \"fp32\" || \$4 != \"sum\") exit 1; f=1 } END { exit !f }'" "size, count, type and op of the 64 KiB row"
# nccl-tests' 2 decimals: algbw and busbw within 0.005 of size/time and algbw x 2(n-1)/n
ok "printf '%s\n' \"$OUT\" | awk '/^ *[0-9]/ && \$1 == 65536 { for (g = 6; g <= 10; g += 4) { bw = \$1 / (\$g * 1000); if (\$(g+1) < bw * 0.99 - 0.006 || \$(g+1) > bw * 1.01 + 0.006) exit 1; if (\$(g+2) < bw * 1.5 * 0.99 - 0.011 || \$(g+2) > bw * 1.5 * 1.01 + 0.011) exit 1 } f = 1 } END { exit !f }'" "algbw = size/time and busbw = algbw * 2(n-1)/n, in both groups"
# The rows are rounded to 2 decimals, the average is of the exact values: within 0.005.
printf '%s\n' "$OUT" | awk '/^ *[0-9]/ { s += $8 + $12; n += 2 } /^# Avg bus bandwidth/ { avg = $6; f = 1 } END { d = s / n - avg; exit !(f && d <= 0.0051 && d >= -0.0051) }'
_report $? "the average bus bandwidth is the mean of both groups of every row (nccl-tests')" "$OUT"

for c in allgather reducescatter broadcast alltoall sendrecv barrier; do
	run hcclctl -q run $c --local 3 -b 1 -e 4K -n 1 -w 1 -r 2
	check_rc 0 "$c over 3 ranks: every result right"
done
for d in int8 int32 int64 fp16 bf16 fp32 fp64; do
	for op in sum prod max min; do
		run hcclctl -q run allreduce --local 3 -b 64 -e 1K -f 4 -n 1 -w 0 -d $d -o $op
		check_rc 0 "allreduce $d $op over 3 ranks"
	done
done
for a in ring rhd mesh; do
	run hcclctl -q run allreduce --local 5 -b 4 -e 256K -f 8 -n 1 -w 0 --algo $a
	check_rc 0 "allreduce --algo $a over 5 ranks (not a power of two)"
	ok "printf '%s\n' \"$OUT\" | awk '/^ *[0-9]/ { if (\$NF != \"$a\") exit 1 }'" "every row ran $a"
done

# Every rank on this host: a tiny allreduce goes in one step (mesh) up to 8 ranks, whatever
# the transport; above 4 KiB, or from 9 ranks on, the choice across hosts (rhd).
algos() { printf '%s\n' "$OUT" | awk '/^ *[0-9]/ { printf "%s:%s:%s ", $1, $NF, $9 }'; }
run hcclctl run allreduce --local 4 -b 1K -e 8K -n 1 -w 0
check_rc 0 "allreduce 1-8 KiB over 4 local ranks"
ok "[ '$(algos)' = '1024:mesh:0 2048:mesh:0 4096:mesh:0 8192:rhd:0 ' ]" "  one host: mesh to 4 KiB, then rhd; 0 wrong"
run env HCCLCTL_TRANSPORT=tcp "$HCCLCTL" run allreduce --local 8 -b 8 -e 8 -n 2 -w 1
check_rc 0 "allreduce 8 B over 8 local ranks, TCP"
ok "[ '$(algos)' = '8:mesh:0 ' ]" "  one host over TCP too: mesh, 0 wrong"
run hcclctl run allreduce --local 9 -b 8 -e 8 -n 1 -w 0
check_rc 0 "allreduce 8 B over 9 local ranks"
ok "[ '$(algos)' = '8:rhd:0 ' ]" "  more than 8 ranks: rhd, 0 wrong"

run hcclctl run allreduce --local 2 -b 8 -e 8 -n 1 -w 0 -c 0
# the time and the rates are measured (8 B in 12 us rounds to 0.001 GB/s): taken from the row
row=$(printf '%s\n' "$OUT" | awk '/^ *8 /')
check_out_has "           8             2      fp32     sum      -1  $(printf '%s\n' "$row" | awk '{printf "%7s  %6s  %6s", $6, $7, $8}')    N/A  $(printf '%s\n' "$row" | awk '{printf "%7s  %6s  %6s", $10, $11, $12}')    N/A    mesh" "-c 0: #wrong is N/A in both groups"
check_out_has "# Out of bounds values : N/A (not checked: -c 0)" "  and the closing line says so"

# A wrong element is counted, located and fails the run.
run env HCCLCTL_FAULT_CORRUPT=2 "$HCCLCTL" run allreduce --local 3 -b 8 -e 16 -n 1 -w 0
check_rc 2 "a wrong result exits 2"
ok "printf '%s\n' \"$OUT\" | awk '/^ *[0-9]/ { if (\$9 != 1 || \$13 != 1) exit 1 }'" "#wrong counts it in every row, out of place and in place"
check_out_has "# Out of bounds values : 4 FAILED" "  and the closing line adds them up"
check_err "hcclctl: run allreduce: rank 2: 1 wrong of 2 at size 8: first at element 1: expected -2, got -8" "the first wrong element: rank, size, offset, expected, got"

# --json: one document, in the shape every command's --json has.
run hcclctl --json run allgather --local 2 -b 64 -e 128 -n 1 -w 0
check_rc 0 "--json run exits 0"
ok "printf '%s' '$OUT' | python3 -c '
import json,sys
d=json.load(sys.stdin)
assert d[\"collective\"]==\"allgather\" and d[\"world_size\"]==2 and d[\"algo\"]==\"auto\"
r=d[\"results\"]
assert [x[\"size_bytes\"] for x in r]==[64,128], r
assert set(r[0])=={\"size_bytes\",\"count\",\"dtype\",\"op\",\"root\",\"algo\",\"time_us\",\"algbw_GBps\",\"busbw_GBps\",\"wrong\",\"in_place\"}, r[0]
assert set(r[0][\"in_place\"])=={\"time_us\",\"algbw_GBps\",\"busbw_GBps\",\"wrong\"} and r[0][\"root\"] is None, r[0]
assert d[\"out_of_bounds\"]==0, d
assert all(x[\"wrong\"]==0 for x in r) and \"avg_busbw_GBps\" in d
'" "--json has collective, world_size, algo, results and avg_busbw_GBps"

# Ranks started one by one (launch mode 2) and by torchrun's environment (mode 3).
P=$(free_port)
"$HCCLCTL" run allreduce --rank 1 --world-size 2 --master 127.0.0.1:$P -b 8 -e 1K -n 1 -w 0 >"$TMP/r1.out" 2>"$TMP/r1.err" &
R1=$!
run hcclctl run allreduce --rank 0 --world-size 2 --master 127.0.0.1:$P -b 8 -e 1K -n 1 -w 0
wait $R1
r1=$?
check_rc 0 "rank 0 of 2 started by hand"
ok "[ $r1 -eq 0 ] && [ ! -s '$TMP/r1.out' ]" "rank 1 exits 0 and prints nothing"
check_out_has "# hcclctl run allreduce: 2 ranks (master), fp32 sum, algo auto, iters 1, warmup 0, check on, engine libcomm" "rank 0 prints the table"

P=$(free_port)
RANK=1 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$P "$HCCLCTL" run broadcast -b 8 -e 64 -n 1 -w 0 -r 1 >/dev/null 2>&1 &
R1=$!
run env RANK=0 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$P "$HCCLCTL" run broadcast -b 8 -e 64 -n 1 -w 0 -r 1
wait $R1
check_rc 0 "torchrun-style environment"
check_out_has "# hcclctl run broadcast: 2 ranks (torchrun), fp32, algo auto, iters 1, warmup 0, check on, engine libcomm" "the launcher is named"

P=$(free_port)
SLURM_PROCID=1 SLURM_NTASKS=2 "$HCCLCTL" run reducescatter --master 127.0.0.1:$P -b 64 -e 64 -n 1 -w 0 >/dev/null 2>&1 &
R1=$!
run env SLURM_PROCID=0 SLURM_NTASKS=2 "$HCCLCTL" run reducescatter --master 127.0.0.1:$P -b 64 -e 64 -n 1 -w 0
wait $R1
check_rc 0 "Slurm-style environment with --master"
check_out_has "# hcclctl run reducescatter: 2 ranks (slurm), fp32 sum, algo auto, iters 1, warmup 0, check on, engine libcomm" "slurm named"

# Unchanged under Open MPI's mpirun (Debian's openmpi-bin, installed by scripts/deps.sh).
P=$(free_port)
run mpirun --allow-run-as-root --oversubscribe -x HCCLCTL_SECRET -np 3 --mca btl self,tcp --mca btl_tcp_if_include lo \
	"$HCCLCTL" run allreduce --master 127.0.0.1:$P -b 8 -e 1K -n 1 -w 0
check_rc 0 "mpirun -np 3 hcclctl run allreduce --master ..."
check_out_has "# hcclctl run allreduce: 3 ranks (openmpi), fp32 sum, algo auto, iters 1, warmup 0, check on, engine libcomm" "Open MPI's ranks are found"
ok "[ $(rows) -eq 8 ] && printf '%s\n' \"$OUT\" | awk '/^ *[0-9]/ { if (\$9 != 0 || \$13 != 0) exit 1 }'" "every row right under mpirun"

# Failures are named within the deadline, never a silent wait.
P=$(free_port)
run hcclctl run allreduce --rank 0 --world-size 3 --master 127.0.0.1:$P --timeout 2 -e 8 -n 1 -w 0
check_rc 2 "a rank that never comes: exit 2"
msg="rank 0 (host $(hostname)): bootstrap: rendezvous at 127.0.0.1:$P timed out after 2.0 s: 2 of 3 ranks never said hello: ranks 1-2"
check_err "hcclctl: run allreduce: $msg
hcclctl: verdict: stuck-rank: $msg" "the missing ranks are named, and the verdict says so"

P=$(free_port)
"$HCCLCTL" run allreduce --rank 1 --world-size 2 --master 127.0.0.1:$P -b 16 -e 16 -n 1 -w 0 --timeout 5 >/dev/null 2>"$TMP/m1.err" &
R1=$!
run hcclctl run allreduce --rank 0 --world-size 2 --master 127.0.0.1:$P -b 8 -e 8 -n 1 -w 0 --timeout 5
wait $R1
r1=$?
check_rc 2 "a count mismatch: exit 2"
ok "printf '%s\n' \"$ERR\" | grep -q '^hcclctl: run allreduce: rank 0 (host $(hostname)): allreduce #1: .*rank 0 has count 2 but rank 1 has count 4$'" "the mismatch names both ranks and the field"
ok "[ $r1 -eq 2 ] && grep -q 'rank 0 has count 2 but rank 1 has count 4' '$TMP/m1.err'" "the other rank reports the same"

P=$(free_port)
"$HCCLCTL" run allreduce --rank 1 --world-size 2 --master 127.0.0.1:$P -b 64M -e 64M -n 1000 -w 0 -c 0 --timeout 10 >/dev/null 2>&1 &
R1=$!
"$HCCLCTL" run allreduce --rank 0 --world-size 2 --master 127.0.0.1:$P -b 64M -e 64M -n 1000 -w 0 -c 0 --timeout 10 >/dev/null 2>"$TMP/k0.err" &
R0=$!
sleep 2
kill -9 $R1
t0=$(date +%s)
wait $R0
r0=$?
t1=$(date +%s)
ok "[ $r0 -eq 2 ]" "the survivor of a SIGKILLed peer exits 2"
ok "grep -q 'rank 1 (host $(hostname)) died: its process ended without closing the communicator' '$TMP/k0.err'" "and names the dead rank" 
ok "[ $((t1 - t0)) -le 10 ]" "within the deadline ($((t1 - t0)) s)"

# Usage errors.
run hcclctl run allreduce --local 2 -d fp8
check_rc 64 "an unknown datatype is a usage error"
check_err "hcclctl: run allreduce: unknown datatype 'fp8'
hint: int8 int16 int32 int64 uint8 uint32 uint64 fp16 bf16 fp32 fp64 all" "with the choices"
run hcclctl run allreduce --local 2 -b 1M -e 1K
check_rc 64 "-b larger than -e is a usage error"
run hcclctl run allreduce --rank 0 --world-size 2
check_rc 64 "--rank without --master is a usage error"

# --profile: one Chrome trace, a process per rank, every step's transfers with peer and bytes.
run hcclctl run allreduce --local 3 -b 1M -e 1M -n 3 -w 1 -c 0 --algo ring --profile "$TMP/prof.json"
check_rc 0 "--profile: exit 0"
check_out_has "# profile: $TMP/prof.json (a Chrome trace: open it in https://ui.perfetto.dev)" "  says where the trace is"
python3 - "$TMP/prof.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
assert d["otherData"]["ranks"] == 3, d["otherData"]
assert {e["pid"] for e in ev} == {0, 1, 2}, "a process per rank"
for r in range(3):
    cats = {e.get("cat") for e in ev if e["pid"] == r and e["ph"] == "X"}
    # the allreduces' fingerprints travel with their data; the barriers' are awaited
    assert {"coll", "step", "send", "recv", "compute", "fingerprint"} <= cats, (r, cats)
    colls = [e for e in ev if e["pid"] == r and e.get("cat") == "coll" and e["name"].startswith("allreduce") and e["args"].get("bytes") == 1 << 20]
    assert len(colls) == 7, (r, len(colls))  # 1 warmup + 3 timed out of place + 3 in place
big = {e["args"]["seq"] for e in ev if e.get("cat") == "coll" and e["args"].get("bytes") == 1 << 20}
# the ring moves 2(n-1)/n of the buffer per rank: 2(n-1) x 1 MiB over all ranks, per allreduce
sent = sum(e["args"]["bytes"] for e in ev if e.get("cat") == "send" and e["args"]["seq"] in big)
assert sent == 7 * 2 * 2 * 1048576, sent
for e in ev:
    if e.get("cat") in ("send", "recv"):
        assert e["args"]["peer"] != e["pid"] and e["dur"] >= 0 and e["tid"] in (1000 + e["args"]["peer"], 2000 + e["args"]["peer"]), e
PY
_report $? "  3 ranks; coll/step/send/recv/compute/fingerprint events; 4 allreduces; ring bytes exact"
run env HCCLCTL_PROFILE="$TMP/prof2.json" "$HCCLCTL" run barrier --local 2 -n 1 -w 0
check_rc 0 "HCCLCTL_PROFILE=FILE does the same"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); ev=d["traceEvents"]; assert {e["pid"] for e in ev} == {0, 1}; assert {e["pid"] for e in ev if e.get("cat") == "fingerprint"} == {0, 1}' "$TMP/prof2.json"
_report $? "  a trace with both ranks, each with the barrier's wait for every fingerprint"

# --compress int8: block-quantised allreduce; the error against the exact sum is measured
# (N(0,1) data) and printed, and a row fails above 1 %.
run hcclctl run allreduce --local 3 --compress int8 -b 1M -e 4M -n 2 -w 1
check_rc 0 "--compress int8 over 3 ranks: exit 0"
check_out_has "# hcclctl run allreduce: 3 ranks (local), fp32 sum, algo auto, compress int8, iters 2, warmup 1, check on, engine libcomm" "  the header says compress int8"
check_out_has "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong  nrmse(%)    algo" "  an nrmse(%) column before the algo"
ok "[ $(rows) -eq 3 ]" "  one row per size from 1 MiB to 4 MiB"
ok "printf '%s\n' \"$OUT\" | awk '/^ *[0-9]/ { n++; if (\$15 != \"mesh\" || \$9 != 0 || \$13 != 0 || \$14 !~ /^[0-9]+\.[0-9]+\$/ || \$14 <= 0.1 || \$14 >= 1) exit 1 } END { exit n != 3 }'" "  every row: no wrong element, an error above 0.1 % and below 1 %"
check_out_has "# Max error (nrmse)    : $(printf '%s\n' "$OUT" | awk '/^ *[0-9]/ { if ($14 > m) m = $14 } END { printf "%.4f", m }') % of the exact sum's RMS (limit 1 %)" "  the footer gives the largest error"
run hcclctl -q run allreduce --local 2 --compress int8 -b 64K -e 64K -n 1 -w 0 -d bf16 --algo ring
check_rc 0 "--compress int8 -d bf16 --algo ring: exit 0"
ok "printf '%s\n' \"$OUT\" | awk '/^ *[0-9]/ { n++; if (\$3 != \"bf16\" || \$15 != \"ring\" || \$9 != 0 || \$13 != 0 || \$14 >= 1) exit 1 } END { exit n != 1 }'" "  a bf16 row around the ring, error below 1 %"
run hcclctl --json run allreduce --local 2 --compress int8 -b 256K -e 512K -n 1 -w 0 -d fp16
check_rc 0 "--json --compress int8: exit 0"
printf '%s\n' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["compress"] == "int8", d
assert len(d["results"]) == 2, d["results"]
for r in d["results"]:
    assert r["dtype"] == "fp16" and r["wrong"] == 0, r
    assert 0.001 < r["nrmse"] < 0.01, r
assert d["max_nrmse"] == max(r["nrmse"] for r in d["results"]), d
'
_report $? "  compress, nrmse per row (a fraction) and max_nrmse in the JSON"
run hcclctl --json run allreduce --local 2 -b 8 -e 8 -n 1 -w 0
printf '%s\n' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert "compress" not in d and "max_nrmse" not in d and "nrmse" not in d["results"][0], d'
_report $? "  without --compress the JSON is as before"
run hcclctl run allreduce --local 3 --compress int8 -d int32
check_rc 64 "--compress int8 -d int32 is a usage error"
check_err "hcclctl: run allreduce: --compress int8 takes -d fp32, fp16 or bf16, not int32
hint: fp32 fp16 bf16" "  naming the dtypes it takes"
run hcclctl run allreduce --local 2 --compress int8 -o max
check_rc 64 "--compress int8 -o max is a usage error"
run hcclctl run allgather --local 2 --compress int8
check_rc 64 "--compress on allgather is a usage error"
run hcclctl run allreduce --local 2 --compress int4
check_rc 64 "an unknown compression is a usage error"
run env HCCLCTL_FAULT_CORRUPT=1 "$HCCLCTL" run allreduce --local 3 --compress int8 -b 4K -e 4K -n 1 -w 0
check_rc 2 "--compress: a result that differs between ranks fails the run"
check_err_has "hcclctl: run allreduce: rank 0: int8 compression: the ranks' results differ at size 4096" "  and says so"

P=$(free_port)
"$HCCLCTL" run allreduce --rank 1 --world-size 2 --master 127.0.0.1:$P -b 4K -e 4K -n 1 -w 0 --timeout 10 >/dev/null 2>"$TMP/z1.err" &
Z1=$!
run hcclctl run allreduce --rank 0 --world-size 2 --master 127.0.0.1:$P -b 4K -e 4K -n 1 -w 0 --timeout 10 --compress int8
wait $Z1
z1=$?
check_rc 2 "one rank compresses and the other does not: exit 2"
ok "printf '%s\n' \"$ERR\" | grep -q 'rank 0 has compression int8 but rank 1 has compression none'" "  the mismatch names the compression"
ok "[ $z1 -eq 2 ] && grep -q 'rank 0 has compression int8 but rank 1 has compression none' '$TMP/z1.err'" "  on the other rank too"

done_testing
