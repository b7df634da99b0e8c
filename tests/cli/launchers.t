# One JSON document under every launcher: the ranks share one stdout, rank 0 prints the
# job's document (a failure of any rank folded into its verdict), the others nothing.
# torchrun: python3 here has no torch, so a small launcher sets what torchrun gives each
# worker (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR,
# MASTER_PORT, TORCHELASTIC_RUN_ID) and starts 4 workers on one stdout. mpirun: Open MPI's,
# 4 processes on this machine. (srun: tests/cluster/slurm.t.)
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"
# ranks of another launcher share one secret (HCCLCTL_SECRET), as a real job must
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_SECRET

cat >"$TMP/torchrun.sh" <<'EOS'
#!/bin/sh
# torchrun --nproc-per-node 4 CMD..., as its workers see it
n=4
port=$1
shift
i=0
pids=
while [ $i -lt $n ]; do
	RANK=$i WORLD_SIZE=$n LOCAL_RANK=$i LOCAL_WORLD_SIZE=$n GROUP_RANK=0 ROLE_RANK=$i \
	MASTER_ADDR=127.0.0.1 MASTER_PORT=$port TORCHELASTIC_RUN_ID=test "$@" &
	pids="$pids $!"
	i=$((i + 1))
done
rc=0
for p in $pids; do wait "$p" || rc=$?; done
exit $rc
EOS

one_doc() { # $1: file; python condition on d
	python3 -c '
import json, sys
d = json.loads(open(sys.argv[1]).read())
assert eval(sys.argv[2]), d
' "$1" "$2"
}

run sh "$TMP/torchrun.sh" "$(free_port)" "$HCCLCTL" --json run allreduce -b 8 -e 1K -f 4 -n 1 -w 0
check_rc 0 "torchrun-style launch of 4 ranks: exit 0"
printf '%s' "$OUT" >"$TMP/t.json"
one_doc "$TMP/t.json" 'd["launch"] == "torchrun" and d["world_size"] == 4 and [r["size_bytes"] for r in d["results"]] == [8, 32, 128, 512, 1024] and all(r["wrong"] == 0 for r in d["results"])'
_report $? "  stdout is one document (rank 0's): 5 sizes (8 B .. 1 KiB), 0 wrong" "$OUT"

cat >"$TMP/odd.sh" <<EOS
#!/bin/sh
if [ "\$RANK" = 2 ]; then exec $HCCLCTL "\$@" -b 2K -e 2K; fi
exec $HCCLCTL "\$@" -b 1K -e 1K
EOS
run sh "$TMP/torchrun.sh" "$(free_port)" sh "$TMP/odd.sh" --json run allreduce -n 1 -w 0 --timeout 20 \
	--prometheus "$TMP/odd.prom"
check_rc 2 "rank 2 with another count under torchrun: exit 2"
printf '%s' "$OUT" >"$TMP/t2.json"
one_doc "$TMP/t2.json" 'd["verdict"]["kind"] == "mismatch" and d["exit_code"] == 2'
_report $? "  one document, with the mismatch verdict" "$OUT"
printf '%s\n' "$ERR" | grep -q "^hcclctl: verdict: mismatch: .*count"
_report $? "  the verdict names the count on stderr" "$ERR"
[ "$(grep -c '^hcclctl_run_verdict.* 1$' "$TMP/odd.prom")" -eq 1 ] &&
	grep -qx 'hcclctl_run_verdict{collective="allreduce",kind="mismatch"} 1' "$TMP/odd.prom" &&
	grep -qx 'hcclctl_exit_code{command="run allreduce"} 2' "$TMP/odd.prom"
_report $? "  rank 0's --prometheus file has the verdict mismatch and exit code 2" "$(cat "$TMP/odd.prom" 2>&1)"

# the rank given on the command line from the launcher's variables, as `srun hcclctl run
# --rank $SLURM_PROCID` does: still one document
cat >"$TMP/explicit.sh" <<'EOS'
#!/bin/sh
exec "$HCCLCTL" --json run allreduce --rank "$RANK" --world-size "$WORLD_SIZE" \
	--master "$MASTER_ADDR:$MASTER_PORT" -b 8 -e 64 -n 1 -w 0
EOS
HCCLCTL=$HCCLCTL run sh "$TMP/torchrun.sh" "$(free_port)" sh "$TMP/explicit.sh"
check_rc 0 "--rank/--world-size/--master given by each of 4 workers: exit 0"
printf '%s' "$OUT" >"$TMP/t3.json"
one_doc "$TMP/t3.json" 'd["world_size"] == 4 and [r["size_bytes"] for r in d["results"]] == [8, 16, 32, 64] and all(r["wrong"] == 0 for r in d["results"])'
_report $? "  stdout is one document, rank 0's" "$OUT"

if command -v mpirun >/dev/null 2>&1; then
	run timeout -k 5 90 mpirun --allow-run-as-root --oversubscribe -x HCCLCTL_SECRET -np 4 --bind-to none \
		--mca btl self,tcp --mca btl_tcp_if_include lo --mca oob_tcp_if_include lo \
		"$HCCLCTL" --json run allreduce --master "127.0.0.1:$(free_port)" -b 8 -e 1K -f 4 \
		-n 1 -w 0 </dev/null
	check_rc 0 "mpirun -np 4 on this machine: exit 0"
	printf '%s' "$OUT" >"$TMP/m.json"
	one_doc "$TMP/m.json" 'd["launch"] == "openmpi" and d["world_size"] == 4 and all(r["wrong"] == 0 for r in d["results"]) and len(d["results"]) == 5'
	_report $? "  stdout is one document (rank 0's)" "$OUT"
else
	skip "mpirun: Open MPI (openmpi-bin) is not installed"
fi

done_testing
