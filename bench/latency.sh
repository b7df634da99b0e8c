#!/bin/sh
# The 8-byte allreduce latency against the alpha * ceil(log2 p) bound, p = 2, 4, 8 (BENCH_N),
# on links shaped to BENCH_RATE (default 1gbit). alpha is measured on those links: the
# median one-way time of an 8-byte TCP ping-pong between two nodes. The issue asks for a
# link delay of 100 us (BENCH_DELAY); it is added with netem where the kernel has netem,
# and this kernel has not, so alpha is the bare veth+htb latency. Ours and Open MPI's
# MPI_Allreduce, both the mean over BENCH_LAT_ITERS (default 2000) calls of the slowest rank.
# Writes bench/results/latency-DATE.json.
set -u
cd "$(dirname "$0")/.." || exit 3
. tests/cluster/netns.sh
. bench/lib.sh

NODES=${BENCH_N:-2 4 8}
RATE=${BENCH_RATE:-1gbit}
BENCH_DELAY=${BENCH_DELAY-100us}
ITERS=${BENCH_LAT_ITERS:-2000}
[ "${BENCH_QUICK:-0}" != 0 ] && ITERS=${BENCH_LAT_ITERS:-300}
ALGO=${BENCH_ALGO:-auto}

bench_prelude latency ./hcclctl build/bench/netprobe build/bench/mpi_coll

BENCH_NETEM=0
delay_note="no link delay requested"
if [ -n "$BENCH_DELAY" ]; then
	if bench_netem_ok; then
		BENCH_NETEM=1
		delay_note="link delay $BENCH_DELAY added with netem on every node's egress"
	else
		delay_note="link delay $BENCH_DELAY NOT added: this kernel has no netem (no delay qdisc); alpha is the bare link latency"
	fi
fi
printf '{"benchmark": "allreduce-8B-latency", "started": "%s", "cpus": %s, "loadavg": "%s", "rate": "%s", "delay_requested": "%s", "delay_added": %s, "note": "%s", "iters": %s, "runs": []}\n' \
	"$(date -Iseconds)" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$RATE" "$BENCH_DELAY" \
	"$([ "$BENCH_NETEM" = 1 ] && echo true || echo false)" "$delay_note" "$ITERS" >"$RES"

echo "# 8-byte allreduce latency vs alpha*ceil(log2 p); links $RATE; $delay_note"
echo "# alpha: median one-way of an 8-byte TCP ping-pong (mean alongside); ours and MPI: mean of $ITERS calls"
printf '%-3s %-8s %9s %9s %5s %10s %9s %9s %10s %9s %5s\n' p rate "alpha us" "mean us" log2p \
	"bound us" "ours us" "MPI us" ours/bound MPI/bound algo
status=0
for n in $NODES; do
	d=$TMP/p$n
	mkdir -p "$d"
	bench_up "$n" "$RATE" || { echo "bench latency: cannot build a cluster of $n nodes" >&2; status=3; continue; }
	bench_pingpong "$d/pingpong" 8 20000 || echo '{}' >"$d/pingpong"
	bench_ours allreduce "$n" "$d/ours-allreduce-0.json" -b 8 -e 8 -w 100 -n "$ITERS" -c 0 \
		-d fp32 --algo "$ALGO" || status=2
	bench_mpi allreduce "$n" "$d/mpi-allreduce-0.jsonl" 8 100 "$ITERS" || status=2
	printf '{"nodes": %s, "rate": "%s", "pingpong": %s}\n' "$n" "$RATE" "$(cat "$d/pingpong")" \
		>"$d/meta.json"
	python3 bench/collreport.py latency "$RES" "$d"
	bench_show_errs "$d"
	cluster_down
done
echo "results: $RES"
exit $status
