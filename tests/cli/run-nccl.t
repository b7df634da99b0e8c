#!/bin/sh
# hcclctl run for scripts and hands used to nccl-tests and hccl_test (issue 32, items 1-2):
# their flags with their meaning, and nccl-tests' table, which a parser of nccl-tests' output
# (tests/cli/nccl-parse.py, proven first on real nccl-tests output) reads with numbers that
# agree with --json.
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"
PARSE="python3 tests/cli/nccl-parse.py"
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_SECRET

# the deterministic columns of the rows, one line per row
cols() { printf '%s\n' "$OUT" | awk '/^ *[0-9]/ { print $1, $2, $3, $4, $5, $9, $13, $NF }'; }
# field N of every row, on one line
field() { printf '%s\n' "$OUT" | awk -v f="$1" '/^ *[0-9]/ { printf "%s ", $f }'; }
# same GOT WANT DESC: a condition on what this shell computed (ok's sh -c has no functions)
same() {
	[ "$1" = "$2" ]
	_report $? "$3" "got:  $1" "want: $2" "$OUT"
}

# ---- the parser, on real nccl-tests output first ----
run $PARSE tests/data/real-logs/healthy-nccl-tests-h100-16-ranks/node0/stdout.txt
check_rc 0 "the parser reads a real all_reduce_perf (16 H100s)"
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
r = d["rows"]
assert len(r) == 31, len(r)
assert r[0] == {"size": 8, "count": 2, "type": "float", "redop": "sum", "root": -1, "time": 135.8,
                "algbw": 0.0, "busbw": 0.0, "#wrong": 0, "ip_time": 123.5, "ip_algbw": 0.0,
                "ip_busbw": 0.0, "ip_#wrong": 0}, r[0]
assert r[-1]["size"] == 8589934592 and r[-1]["busbw"] == 338.82 and r[-1]["ip_busbw"] == 337.35, r[-1]
assert d["out_of_bounds"] == 0 and d["avg_busbw"] == 70.742, d
'
_report $? "  31 rows, both groups of the first and last, 0 out of bounds, average 70.742" "$OUT"
run $PARSE tests/data/real-logs-new/batch14/nccl-tests-287-alltoall-5090-healthy/node0/stdout.txt
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert len(d["rows"]) == 1 and d["rows"][0]["redop"] == "none" and d["rows"][0]["ip_#wrong"] is None, d
'
_report $? "  and a real alltoall_perf: redop none, in-place #wrong N/A" "$OUT"

# ---- the same parser on hcclctl's table; its numbers against --json ----
# Times differ between two runs: the columns that do not are compared exactly, the measured
# ones by how nccl-tests derives them (algbw = size / time, busbw = algbw x factor) in both.
agree() { # $1 text output, $2 JSON output, $3 bus factor
	printf '%s' "$1" >"$TMP/t.out"
	printf '%s' "$2" >"$TMP/j.out"
	$PARSE "$TMP/t.out" >"$TMP/t.json" || return 1
	python3 - "$TMP/t.json" "$TMP/j.out" "$3" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
j = json.load(open(sys.argv[2]))
f = float(sys.argv[3])
rows, res = t["rows"], j["results"]
assert len(rows) == len(res), (len(rows), len(res))
for a, b in zip(rows, res):
    for k, v in (("size", "size_bytes"), ("count", "count"), ("type", "dtype"), ("redop", "op"),
                 ("#wrong", "wrong"), ("algo", "algo")):
        assert a[k] == b[v], (k, a, b)
    assert a["root"] == (-1 if b["root"] is None else b["root"]), (a, b)
    ip = b["in_place"]
    assert (a["ip_time"] is None) == (ip is None), (a, b)
    assert a["ip_#wrong"] == (ip["wrong"] if ip else None), (a, b)
    for doc in (dict(time=a["time"], algbw=a["algbw"], busbw=a["busbw"]),
                dict(time=b["time_us"], algbw=b["algbw_GBps"], busbw=b["busbw_GBps"])):
        # the text rounds to 2 decimals (0.005) and times to 3 digits or more
        bw = a["size"] / (doc["time"] * 1e3)
        assert abs(doc["algbw"] - bw) <= 0.006 + bw * 0.01, (doc, bw)
        assert abs(doc["busbw"] - doc["algbw"] * f) <= 0.011, (doc, f)
assert t["out_of_bounds"] == j["out_of_bounds"] == 0, (t, j)
groups = [a["busbw"] for a in rows] + [a["ip_busbw"] for a in rows if a["ip_busbw"] is not None]
assert abs(t["avg_busbw"] - sum(groups) / len(groups)) <= 0.0051, (t["avg_busbw"], groups)
PY
}
for spec in "allreduce 3 1.3333333 --algo ring" "alltoall 4 0.75" "allgather 3 0.6666667" \
	"reducescatter 4 0.75 -o max -d int32" "broadcast 3 1 -r 2" "sendrecv 3 1"; do
	set -- $spec
	c=$1 n=$2 f=$3
	shift 3
	run hcclctl run $c --local $n -b 96 -e 96K -f 8 -n 2 -w 1 "$@"
	text=$OUT rc_text=$RC
	run hcclctl --json run $c --local $n -b 96 -e 96K -f 8 -n 2 -w 1 "$@"
	[ "$rc_text" -eq 0 ] && [ "$RC" -eq 0 ] && agree "$text" "$OUT" "$f"
	_report $? "$c over $n ranks: nccl-tests' parser reads the table, which agrees with --json (busbw factor $f)" "$text" "$OUT"
done
run hcclctl run allreduce --local 3 -b 96 -e 96 -n 1 -w 0 --algo ring
check_out_has "#                                                              out-of-place                       in-place" "nccl-tests' group line"
check_out_has "#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong    algo" "  its column names, then hcclctl's algo"
check_out_has "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)" "  its units"
same "$(cols)" '96 24 fp32 sum -1 0 0 ring' "  the row: size count type redop root, #wrong of each group, algo"
check_out_has "# Out of bounds values : 0 OK" "  nccl-tests' closing lines"
ok "printf '%s\n' \"$OUT\" | grep -q '^# Avg bus bandwidth    : [0-9.e+-]*$'" "  the average without a unit, as nccl-tests prints it"

# root: broadcast's, -1 for the others; the header names dtype and op only for reductions
run hcclctl run broadcast --local 3 -b 8 -e 8 -n 1 -w 0 -r 1
check_out_has "# hcclctl run broadcast: 3 ranks (local), fp32, algo auto, iters 1, warmup 0, check on, engine libcomm" "broadcast: the header names no op"
same "$(field 5)$(field 4)" '1 none ' "  the root column says 1, redop none"
# sendrecv: no in place (libcomm's send and recv are blocking: an odd rank receives first)
run hcclctl run sendrecv --local 3 -b 8 -e 8 -n 1 -w 0
same "$(cols)" '8 2 fp32 none -1 0 N/A p2p' "sendrecv: in place N/A, the algo column says p2p (libcomm's send/recv)"
# barrier: latency, no bandwidth
run hcclctl run barrier --local 3 -n 2 -w 1
check_rc 0 "barrier: exit 0"
check_out_has "# hcclctl run barrier: 3 ranks (local), no data, algo auto, iters 2, warmup 1, check on, engine libcomm" "  the header names no dtype or op"
same "$(field 7)$(field 8)$(field 10)" 'N/A N/A N/A ' "  algbw, busbw and the in-place group N/A, not 0.000 GB/s"
check_out_has "# Avg bus bandwidth    : N/A (a barrier moves no data)" "  no average bandwidth"
ok "printf '%s\n' \"$OUT\" | grep -q '^# Avg latency          : [0-9]*\\.[0-9][0-9] us$'" "  its latency instead" "$OUT"

# in place is really in place, and checked: a flipped bit is counted in its own group
run env HCCLCTL_FAULT_CORRUPT=1 "$HCCLCTL" run allgather --local 3 -b 24 -e 24 -n 1 -w 0
check_rc 2 "a wrong result in both groups: exit 2"
same "$(field 9)$(field 13)" '1 1 ' "  #wrong 1 out of place and 1 in place"
check_out_has "# Out of bounds values : 2 FAILED" "  2 out of bounds"

# ---- -d: hcclctl's names, nccl-tests' (float half bfloat16 double), all ----
for pair in float:fp32 half:fp16 bfloat16:bf16 double:fp64 bfp16:bf16; do
	run hcclctl -q run allreduce --local 2 -b 64 -e 64 -n 1 -w 0 -d ${pair%%:*}
	same "$RC $(field 3)" "0 ${pair#*:} " "-d ${pair%%:*} is ${pair#*:}"
done
for d in int16 uint8 uint32 uint64; do
	for op in sum prod max min; do
		run hcclctl -q run allreduce --local 3 -b 64 -e 1K -f 4 -n 1 -w 0 -d $d -o $op
		check_rc 0 "allreduce $d $op over 3 ranks: every element right"
	done
	run hcclctl -q run reducescatter --local 3 -b 96 -e 96 -n 1 -w 0 -d $d -o max
	check_rc 0 "reducescatter $d max over 3 ranks"
done
run hcclctl run allgather --local 2 -b 64 -e 64 -n 1 -w 0 -d all
check_rc 0 "-d all: exit 0"
check_out_has "# hcclctl run allgather: 2 ranks (local), all dtypes, algo auto, iters 1, warmup 0, check on, engine libcomm" "  the header says all dtypes"
same "$(field 3)" 'int8 int32 int64 fp16 bf16 fp32 fp64 int16 uint8 uint32 uint64 ' "  a row of each dtype in turn"
run hcclctl run allreduce --local 2 -d uint16
check_rc 64 "-d uint16: exit 64"
check_err "hcclctl: run allreduce: datatype 'uint16' is not supported: libcomm has no uint16 (hccl_test's): use int16 or uint32
hint: int8 int16 int32 int64 uint8 uint32 uint64 fp16 bf16 fp32 fp64 all" "  named as not supported"
run hcclctl run allreduce --local 2 -d f8e4m3
check_rc 64 "-d f8e4m3: exit 64"
check_err "hcclctl: run allreduce: datatype 'f8e4m3' is not supported: libcomm has no 8-bit floats (nccl-tests' f8e4m3)
hint: int8 int16 int32 int64 uint8 uint32 uint64 fp16 bf16 fp32 fp64 all" "  named as not supported"

# ---- -o: all, and avg said plainly ----
run hcclctl run allreduce --local 2 -b 64 -e 64 -n 1 -w 0 -d int8 -o all
check_rc 0 "-o all: exit 0"
check_out_has "# hcclctl run allreduce: 2 ranks (local), int8 all ops, algo auto, iters 1, warmup 0, check on, engine libcomm" "  the header says all ops"
same "$(field 4)" 'sum prod max min ' "  a row of each op in turn"
run hcclctl run allreduce --local 2 -b 64 -e 64 -n 1 -w 0 -d all -o all
same "$RC $(field 4 | wc -w)" '0 44' "-d all -o all: 11 dtypes x 4 ops, 44 rows"
run hcclctl run allgather --local 2 -b 64 -e 64 -n 1 -w 0 -o all
same "$RC $(field 4)" '0 none ' "-o all on allgather, which has no op: one row"
run hcclctl run allreduce --local 2 -o avg
check_rc 64 "-o avg: exit 64"
check_err "hcclctl: run allreduce: op 'avg' is not supported: libcomm has no average; it is the sum divided by the world size, as -o sum measures it
hint: sum prod max min all" "  says plainly that libcomm has none"

# ---- -a: whose time a row reports ----
for a in 0:", time of rank 0" 1:", time mean of ranks" 2:", time min of ranks" 3:""; do
	run hcclctl run allreduce --local 3 -b 64 -e 64 -n 2 -w 0 -a ${a%%:*}
	check_out_has "# hcclctl run allreduce: 3 ranks (local), fp32 sum, algo auto, iters 2, warmup 0, check on${a#*:}, engine libcomm" "-a ${a%%:*}: exit $RC, the header says whose time"
done
run hcclctl run allreduce --local 2 -a 4
check_rc 64 "-a 4: exit 64"
check_err "hcclctl: run allreduce: invalid value '4' for --average
hint: a whole number from 0 to 3" "  with the range"

# ---- -N: the sweep again, 0 until Ctrl-C ----
run hcclctl run allreduce --local 2 -b 8 -e 32 -n 1 -w 0 -N 3
check_rc 0 "-N 3: exit 0"
check_out_has "# hcclctl run allreduce: 2 ranks (local), fp32 sum, algo auto, iters 1, warmup 0, check on, cycles 3, engine libcomm" "  the header says cycles 3"
same "$(field 1)" '8 16 32 8 16 32 8 16 32 ' "  the sizes three times"
run hcclctl --json run allreduce --local 2 -b 8 -e 32 -n 1 -w 0 -N 2
ok "printf '%s' '$OUT' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert [r[\"size_bytes\"] for r in d[\"results\"]] == [8,16,32,8,16,32], d'" "  --json: the rows of both cycles"
run python3 tests/cli/run-interrupt.py group 30 "$TMP/n.out" "$TMP/n.err" -- "$HCCLCTL" run allreduce --local 2 -b 8 -e 64 -n 1 -w 0 -N 0
check_out "rc=130 left=[]" "-N 0: runs until Ctrl-C, which ends it with exit 130 and every rank reaped"
ok "grep -q 'cycles until Ctrl-C' '$TMP/n.out' && grep -q '^ *8 ' '$TMP/n.out'" "  the header says until Ctrl-C; the rows so far are printed" "$(cat "$TMP/n.out")"
ok "grep -q '^# Interrupted          : after [0-9]* sizes\\?$' '$TMP/n.out' && grep -q '^# Out of bounds values : 0 OK$' '$TMP/n.out' && grep -q '^# Avg bus bandwidth' '$TMP/n.out'" "  then the closing lines" "$(cat "$TMP/n.out")"
same "$(cat "$TMP/n.err")" 'hcclctl: run allreduce: interrupted' "  and says interrupted"

# ---- -i: an additive step (nccl-tests' and hccl_test's) ----
run hcclctl run allreduce --local 2 -b 1K -e 4K -i 1K -n 1 -w 0
same "$RC $(field 1)" '0 1024 2048 3072 4096 ' "-i 1K: 1 KiB, 2, 3, 4"
run hcclctl run allreduce --local 2 -b 1K -e 4K -i 1K -f 4 -n 1 -w 0
same "$RC $(field 1)" '0 1024 4096 ' "-i with -f: the factor wins, as in nccl-tests"
run hcclctl run allreduce --local 2 -b 1K -e 4K -i 0 -n 1 -w 0
same "$RC $(field 1)" '0 1024 ' "-i 0: -b alone, as in hccl_test"
run hcclctl run allreduce --local 2 -i 1X
check_rc 64 "-i 1X: exit 64"
check_err "hcclctl: run allreduce: invalid value '1X' for --stepbytes
hint: bytes with K, M or G, e.g. -i 1M" "  says which value"

# ---- -T: nccl-tests' deadline, hcclctl's --timeout ----
P=$(free_port)
run hcclctl run allreduce --rank 0 --world-size 2 --master 127.0.0.1:$P -T 1 -e 8 -n 1 -w 0
check_rc 2 "-T 1: a rank that never comes: exit 2"
msg="rank 0 (host $(hostname)): bootstrap: rendezvous at 127.0.0.1:$P timed out after 1.0 s: 1 of 2 ranks never said hello: rank 1"
check_err "hcclctl: run allreduce: $msg
hcclctl: verdict: stuck-rank: $msg" "  named after -T's 1 s"

# ---- -m: accepted, and what it does here said ----
run hcclctl run allreduce --local 2 -b 8 -e 8 -n 1 -w 0 -m 4
check_rc 0 "-m 4: exit 0"
check_err "hcclctl: run allreduce: warning: -m 4: libcomm has no groups of collectives: each iteration runs one, as -m 1" "  says each iteration runs one collective"
run hcclctl run allreduce --local 2 -b 8 -e 8 -n 1 -w 0 -m 1
same "$RC $ERR" '0 ' "-m 1: silent"

# ---- -g, -t (nccl-tests) and -p (hccl_test): how hcclctl places ranks ----
run hcclctl run allreduce -g 2 -b 8 -e 8 -n 1 -w 0
check_rc 0 "-g 2 alone: exit 0"
check_err "hcclctl: run allreduce: warning: -g 2: hcclctl runs one rank per process: 2 ranks on this host, as --local 2" "  says how it places them"
check_out_has "# hcclctl run allreduce: 2 ranks (local), fp32 sum, algo auto, iters 1, warmup 0, check on, engine libcomm" "  and runs 2 ranks"
run hcclctl -q run allreduce -g 2 -t 2 -b 8 -e 8 -n 1 -w 0
same "$RC $ERR$(field 1)" '0 8 ' "-g 2 -t 2 -q: quietly"
run hcclctl --json run allreduce -g 2 -t 2 -b 8 -e 8 -n 1 -w 0
same "$RC $(printf '%s' "$OUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["world_size"])')" '0 4' "-g 2 -t 2: G x T = 4 ranks"
run hcclctl run allreduce -t 3 --local 3
check_rc 64 "-t 3 with --local: exit 64"
check_err "hcclctl: run allreduce: -t 3: hcclctl runs one rank per process: beside --local, -p or a launcher's ranks it cannot add any
hint: start the ranks per node with the launcher, or give --local N alone" "  says why"
run env RANK=0 WORLD_SIZE=2 "$HCCLCTL" run allreduce -g 8
check_rc 64 "-g 8 under torchrun's environment: exit 64, not a job of the wrong size"
run hcclctl run allreduce -p 3 -b 8 -e 8 -n 1 -w 0
check_out_has "# hcclctl run allreduce: 3 ranks (local), fp32 sum, algo auto, iters 1, warmup 0, check on, engine libcomm" "-p 3 alone: --local 3 (exit $RC)"
run hcclctl run allreduce -p 2 --local 2
check_rc 64 "-p with --local: exit 64"
check_err "hcclctl: run allreduce: -p is --local: give one of them" "  says they are one"
P=$(free_port)
run hcclctl run allreduce -p 8 --rank 0 --world-size 1 --master 127.0.0.1:$P -b 8 -e 8 -n 1 -w 0
check_out_has "# hcclctl run allreduce: 1 rank (master), fp32 sum, algo auto, iters 1, warmup 0, check on, engine libcomm" "-p 8 under a launcher: its ranks per node, the job as the launcher made it (exit $RC)"

done_testing
