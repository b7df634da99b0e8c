# Faults on one machine (loopback): a rank killed or frozen mid-collective, mismatched
# collectives, a rank that never starts, rank tables that differ, a wrong secret. Each must end
# in one verdict naming the culprit, within the heartbeat budget (5 s), with exit 2 and no
# process left. Times to the verdict are printed as comments for the notes.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
# ranks of another launcher share one secret (HCCLCTL_SECRET), as a real job must
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_SECRET

err_has() { grep -qF -- "$2" "$TMP/$1.err"; }
BUDGET=5000 # ms from the fault to the verdict line

# A long allreduce on 4 local ranks, always inside a collective (no result checks).
long_run() {
	_nm=$1
	shift
	bg_run "$_nm" "$HCCLCTL" run allreduce --local 4 -b 16M -e 16M -n 1000000 -w 0 -c 0 \
		--timeout 60 "$@"
}

# ---- a rank killed (SIGKILL) mid-collective ----
mkdir -p "$TMP/fl"
long_run kill --flight-dir "$TMP/fl"
L=$BG
wait_for "$TMP/kill.out" "# hcclctl run allreduce" 10000 >/dev/null
sleep 0.5
pick_ranks "$L" 2 4
fault_verdict KILL 2 dead-rank kill "mid-collective" $?
err_has kill "died: its process ended without closing the communicator"
_report $? "  the cause, not the peers' closed sockets" "$(cat "$TMP/kill.err")"
err_has kill "in allreduce #" && err_has kill "waited on rank 2 with"
_report $? "  the collective, its sequence number and who waited on it" "$(cat "$TMP/kill.err")"
[ "$(grep -c '^hcclctl: verdict:' "$TMP/kill.err")" -eq 1 ]
_report $? "  one verdict line from the launcher" "$(cat "$TMP/kill.err")"
n=0
for r in 0 1 3; do grep -qF "hcclctl: run allreduce: rank $r (host " "$TMP/kill.err" &&
	grep "hcclctl: run allreduce: rank $r (host " "$TMP/kill.err" | grep -qF "rank 2 (host " && n=$((n + 1)); done
[ $n -eq 3 ]
_report $? "  every surviving rank reports the same culprit" "$(cat "$TMP/kill.err")"
# shellcheck disable=SC2086
none_left $OTHERS
_report $? "  no rank process left"
# The survivors' flight recorders, merged: rank 2 left none.
[ "$(ls "$TMP/fl" | wc -l)" -eq 3 ] && ls "$TMP/fl" | grep -q -- '-r0.json$' &&
	! ls "$TMP/fl" | grep -q -- '-r2.json$'
_report $? "  ranks 0, 1 and 3 wrote their flight recorders" "$(ls "$TMP/fl")"
grep -q "flight recorder: 3 ranks wrote $TMP/fl/hcclctl-flight-[0-9a-f]*-r\*.json; compare them with: hcclctl analyze" "$TMP/kill.err"
_report $? "  the launcher says where, and how to compare them" "$(cat "$TMP/kill.err")"
run hcclctl analyze "$TMP"/fl/*.json
check_rc 2 "  analyze of the dumps: exit 2"
check_out_has "ranks missing: 2" "  rank 2 is missing"
printf '%s\n' "$OUT" | grep -q "^verdict: dead-rank: rank 2 left no readable dump"
_report $? "  and named dead" "$OUT"

# ---- SIGUSR1: a running rank writes its flight recorder, and goes on ----
mkdir -p "$TMP/usr1"
long_run usr1 --flight-dir "$TMP/usr1"
L=$BG
wait_for "$TMP/usr1.out" "# hcclctl run allreduce" 10000 >/dev/null
sleep 0.5
r1=$(child_rank "$L" 1)
kill -USR1 "$r1"
ms=$(wait_for "$TMP/usr1.err" "hcclctl: flight recorder: rank 1 wrote $TMP/usr1/hcclctl-flight-" 5000)
[ "$ms" -le 5000 ] && kill -0 "$r1"
_report $? "SIGUSR1: rank 1 writes its flight recorder and keeps running" "$(cat "$TMP/usr1.err")"
f=$(ls "$TMP"/usr1/*-r1.json)
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "hcclctl-flight/1" and d["rank"] == 1 and d["world_size"] == 4, d
assert d["reason"] == "signal" and d["error"] is None, d
r = d["records"]
a = [x for x in r if x["coll"] != "barrier"]  # the sweep starts with a barrier
assert len(r) >= 1 and all(x["coll"] == "allreduce" and x["bytes"] == 16 << 20 for x in a), r
assert [x["seq"] for x in r] == list(range(r[0]["seq"], r[0]["seq"] + len(r))), r
assert all(x["state"] == "done" for x in r[:-1]), r' "$f"
_report $? "  the dump: schema, rank, reason signal, consecutive records (a barrier, then 16 MiB allreduces)" "$(cat "$f")"
run hcclctl analyze "$f"
check_rc 2 "  analyze of one rank's dump: exit 2 (ranks 0, 2, 3 missing)"
ranks=$(for r in 0 1 2 3; do child_rank "$L" $r; done)
kill "$L"
wait_gone "$L" 10000
_report $? "  the launcher stops on TERM"
wait "$L"
# shellcheck disable=SC2086
all_gone 3000 $ranks
_report $? "  and takes its ranks with it" "$ranks"

# ---- a rank frozen (SIGSTOP) mid-collective, with --json ----
long_run stop --json
L=$BG
sleep 1.5
pick_ranks "$L" 1 4
fault_verdict STOP 1 stuck-rank stop "mid-collective" $?
err_has stop "while its host still answers TCP (the process is stopped, frozen or starved)"
_report $? "  frozen, not cut off: its host still acknowledges TCP" "$(cat "$TMP/stop.err")"
[ "$(json_verdict "$TMP/stop.out")" = "stuck-rank 1 - - allreduce" ]
_report $? "  JSON verdict: kind stuck-rank, rank 1, allreduce" "$(cat "$TMP/stop.out")"
# shellcheck disable=SC2086
none_left "$VICTIM" $OTHERS
_report $? "  no rank process left, the frozen one included"

# ---- ranks started one by one (--rank/--master), with something differing ----
port() { free_port; } # one per job: call it once and keep the number
# ranks ARGS0 -- ARGS1 -- ARGS2: three ranks, rank 0 hosting the rendezvous
ranks() {
	_p=$1
	shift
	_r=0
	_a=
	for _x in "$@" --; do
		if [ "$_x" = -- ]; then
			# shellcheck disable=SC2086
			"$HCCLCTL" run $_a --rank $_r --world-size 3 --master 127.0.0.1:$_p \
				--timeout 4 >"$TMP/r$_r.out" 2>"$TMP/r$_r.err" &
			eval "P$_r=\$!"
			_r=$((_r + 1))
			_a=
		else
			_a="$_a $_x"
		fi
	done
}
wait_ranks() {
	RCS=
	for _r in 0 1 2; do
		eval "wait \$P$_r"
		RCS="$RCS$? "
	done
}

t0=$(now_ms)
ranks "$(port)" allreduce -b 1K -e 1K -- allreduce -b 1K -e 1K -- allreduce -b 2K -e 2K
wait_ranks
ms=$(($(now_ms) - t0))
[ "$RCS" = "2 2 2 " ]
_report $? "count mismatch: every rank exits 2" "$RCS" "$(cat "$TMP"/r*.err)"
echo "# mismatch (count): all ranks ended after $ms ms"
for r in 0 1 2; do grep -q "^hcclctl: verdict: mismatch: .*count" "$TMP/r$r.err" || echo "rank $r"; done >"$TMP/miss"
[ ! -s "$TMP/miss" ]
_report $? "  each rank prints the mismatch verdict naming the count" "$(cat "$TMP"/r*.err)"
grep -qF "256" "$TMP/r0.err" && grep -qF "512" "$TMP/r0.err"
_report $? "  with both values" "$(cat "$TMP/r0.err")"

ranks "$(port)" allreduce -d fp32 -b 1K -e 1K -- allreduce -d fp16 -b 512 -e 512 -- allreduce -d fp32 -b 1K -e 1K
wait_ranks
[ "$RCS" = "2 2 2 " ] && grep -q "^hcclctl: verdict: mismatch: .*dtype fp32.*dtype fp16\|^hcclctl: verdict: mismatch: .*dtype fp16.*dtype fp32" "$TMP/r0.err"
_report $? "dtype mismatch: exit 2, verdict names fp16 against fp32" "$RCS" "$(cat "$TMP"/r*.err)"

ranks "$(port)" allreduce -o sum -b 1K -e 1K -- allreduce -o max -b 1K -e 1K -- allreduce -o sum -b 1K -e 1K
wait_ranks
[ "$RCS" = "2 2 2 " ] && grep -q "^hcclctl: verdict: mismatch: .*op" "$TMP/r1.err"
_report $? "op mismatch: exit 2, verdict names the op" "$RCS" "$(cat "$TMP"/r*.err)"

ranks "$(port)" allreduce -b 1K -e 1K -- allgather -b 1K -e 1K -- allreduce -b 1K -e 1K
wait_ranks
[ "$RCS" = "2 2 2 " ] && grep -q "^hcclctl: verdict: mismatch: .*allgather" "$TMP/r0.err"
_report $? "collective mismatch (allgather among allreduce): exit 2, named" "$RCS" "$(cat "$TMP"/r*.err)"

# ---- rank tables that differ between nodes: refused at the rendezvous ----
# three ranks, as many as are started (the fixture's fourth device dropped)
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
del d["server_list"][1]["device"][1]
json.dump(d, open(sys.argv[2], "w"), indent=1)
d["server_list"][0]["device"][0]["device_ip"] = "192.168.99.99"
json.dump(d, open(sys.argv[3], "w"), indent=1)' "$FIXTURES/hccl_doc_v1.0_atlas910_2srv_2dev.json" "$TMP/a.json" "$TMP/b.json"
ranks "$(port)" barrier --ranktable "$TMP/a.json" -- barrier --ranktable "$TMP/a.json" -- barrier --ranktable "$TMP/b.json"
wait_ranks
[ "$RCS" = "2 2 2 " ] && grep -q "^hcclctl: verdict: config: .*rank-table digest mismatch: rank 2 (host " "$TMP/r0.err"
_report $? "rank tables that differ: config verdict naming rank 2's copy" "$RCS" "$(cat "$TMP"/r*.err)"

# ---- rank 0 frozen while it hosts the rendezvous (--rank/--master): the others still name it ----
p=$(port)
for r in 1 2; do
	"$HCCLCTL" run allreduce --rank $r --world-size 3 --master 127.0.0.1:"$p" -b 16M -e 16M \
		-n 1000000 -w 0 -c 0 --timeout 60 >"$TMP/f$r.out" 2>"$TMP/f$r.err" &
	eval "F$r=\$!"
done
"$HCCLCTL" run allreduce --rank 0 --world-size 3 --master 127.0.0.1:"$p" -b 16M -e 16M \
	-n 1000000 -w 0 -c 0 --timeout 60 >"$TMP/f0.out" 2>"$TMP/f0.err" &
F0=$!
sleep 2
kill -STOP "$F0"
ms=$(wait_for "$TMP/f1.err" "hcclctl: verdict: stuck-rank: the rendezvous stopped answering" 8000)
[ "$ms" -le $BUDGET ]
_report $? "rank 0 (hosting the rendezvous) frozen: the others name it, stuck-rank, within ${BUDGET} ms" "after $ms ms" "$(cat "$TMP/f1.err")"
echo "# stuck rendezvous host (SIGSTOP of rank 0 under --master): verdict after $ms ms"
wait_gone "$F1" 10000 && wait_gone "$F2" 10000
_report $? "  ranks 1 and 2 end by themselves"
kill -KILL "$F0"
wait "$F0" 2>/dev/null

# ---- a rank that never starts ----
t0=$(now_ms)
p=$(port)
"$HCCLCTL" run barrier --rank 0 --world-size 3 --master 127.0.0.1:"$p" --timeout 3 \
	>"$TMP/ns0.out" 2>"$TMP/ns0.err" &
P0=$!
"$HCCLCTL" run barrier --rank 1 --world-size 3 --master 127.0.0.1:"$p" --timeout 3 \
	>"$TMP/ns1.out" 2>"$TMP/ns1.err"
RC=$?
ERR=$(cat "$TMP/ns1.err")
wait "$P0"
ms=$(($(now_ms) - t0))
check_rc 2 "a rank that never starts: exit 2 at the rendezvous deadline"
grep -q "^hcclctl: verdict: stuck-rank: .*1 of 3 ranks never said hello: rank 2" "$TMP/ns1.err"
_report $? "  rank 2 named as never having said hello" "$(cat "$TMP/ns1.err")"
echo "# a rank that never starts: named after $ms ms (--timeout 3)"

# ---- a wrong secret: refused and logged, never mixed into the job ----
p=$(port)
HCCLCTL_SECRET=00112233445566778899aabbccddeeff "$HCCLCTL" run barrier --rank 0 --world-size 2 \
	--master 127.0.0.1:"$p" --timeout 3 >"$TMP/s0.out" 2>"$TMP/s0.err" &
P0=$!
sleep 0.3
HCCLCTL_SECRET=ffeeddccbbaa99887766554433221100 "$HCCLCTL" run barrier --rank 1 --world-size 2 \
	--master 127.0.0.1:"$p" --timeout 3 >"$TMP/s1.out" 2>"$TMP/s1.err"
RC=$?
ERR=$(cat "$TMP/s1.err")
wait "$P0"
RC0=$?
check_rc 2 "a rank with a wrong secret is refused: exit 2"
grep -q "^hcclctl: verdict: config: .*secret" "$TMP/s1.err"
_report $? "  its verdict: config, the secret" "$(cat "$TMP/s1.err")"
[ "$RC0" -eq 2 ] && grep -q "refused 1 connection" "$TMP/s0.err"
_report $? "  rank 0 times out and says it refused a connection" "$RC0" "$(cat "$TMP/s0.err")"

done_testing
