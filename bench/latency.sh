#!/bin/sh
# The 8-byte allreduce latency against the alpha * ceil(log2 p) bound, p = 2, 4, 8 (BENCH_N),
# on links shaped to BENCH_RATE (default 1gbit). alpha is measured on those links: the
# median one-way time of an 8-byte TCP ping-pong between two nodes. The issue asks for a
# link delay of 100 us (BENCH_DELAY); it is added with netem where the kernel has netem, else
# by bench/delayline, a switch in user space that holds every frame that long, in place of
# the cluster's bridge (this kernel has no netem). Each N is measured twice: on the bare
# links and with the delay. Ours and Open MPI's MPI_Allreduce, both the mean over
# BENCH_LAT_ITERS (default 2000) calls of the slowest rank, launched BENCH_LAT_REPEATS times
# each (default 5, interleaved); the table shows the median launch and the range. On the
# bare links each launch sweeps 8 B to 4 KiB (BENCH_LAT_MAX) x4, so the same runs also give
# the small-size table of allreduce, allgather and reduce-scatter (BENCH_COLLS) against Open
# MPI; with the delay, 8-byte allreduce only. BENCH_LAT_BUSY=1 runs a busy loop on every CPU
# throughout, as on a machine busy with other work.
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
REPEATS=${BENCH_LAT_REPEATS:-5}
BUSY=${BENCH_LAT_BUSY:-0}
BENCH_PIN=${BENCH_PIN:-1} # one core per rank where there are enough (bench_pin, lib.sh)
LAT_MAX=${BENCH_LAT_MAX:-4096}
COLLS=${BENCH_COLLS:-allreduce allgather reducescatter}
SIZES=$(python3 -c 'import sys
b, hi, out = 8, int(sys.argv[1]), []
while b < hi:
    out.append(b)
    b *= 4
print(",".join(map(str, out + [hi])))' "$LAT_MAX") || exit 64
[ "${BENCH_QUICK:-0}" != 0 ] && REPEATS=${BENCH_LAT_REPEATS:-3}

bench_prelude latency ./hcclctl build/bench/netprobe build/bench/mpi_coll

BENCH_NETEM=0
BENCH_DELAYLINE=0
delay_note="no link delay requested"
if [ -n "$BENCH_DELAY" ]; then
	if bench_netem_ok; then
		BENCH_NETEM=1
		delay_note="link delay $BENCH_DELAY added with netem on every node's egress"
	elif bench_delayline_ok; then
		BENCH_DELAYLINE=1
		delay_note="link delay $BENCH_DELAY added by bench/delayline in place of the bridge (no netem here): every frame waits $BENCH_DELAY plus the delay line's wake-up; alpha is measured through it"
	else
		delay_note="link delay $BENCH_DELAY NOT added: this kernel has no netem (no delay qdisc) and bench/delayline is not built; alpha is the bare link latency"
	fi
fi
printf '{"benchmark": "allreduce-8B-latency", "started": "%s", "cpus": %s, "loadavg": "%s", "rate": "%s", "delay_requested": "%s", "delay_added": %s, "note": "%s", "iters": %s, "runs": []}\n' \
	"$(date -Iseconds)" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$RATE" "$BENCH_DELAY" \
	"$([ "$BENCH_NETEM$BENCH_DELAYLINE" != 00 ] && echo true || echo false)" "$delay_note" "$ITERS" >"$RES"

echo "# 8-byte allreduce latency vs alpha*ceil(log2 p); links $RATE; $delay_note$([ "$BUSY" = 1 ] && echo "; a busy loop on every CPU")"
echo "# alpha: median one-way of an 8-byte TCP ping-pong (mean alongside); ours and MPI: mean of $ITERS calls, median (and range) of $REPEATS launches"
printf '%-3s %-8s %-6s %9s %9s %5s %10s %9s %9s %10s %9s %5s %13s %13s\n' p rate delay "alpha us" \
	"mean us" log2p "bound us" "ours us" "MPI us" ours/bound MPI/bound algo "ours range" "MPI range"
delays=none
[ "$BENCH_NETEM$BENCH_DELAYLINE" != 00 ] && delays="none $BENCH_DELAY"
status=0
for n in $NODES; do
	# bare links: the 8 B-4 KiB sweep of every collective; with the delay: 8-byte allreduce
	for delay in $delays; do
		d=$TMP/p$n-$delay
		mkdir -p "$d"
		if [ "$delay" = none ]; then
			bench_up "$n" "$RATE" ""
			colls=$COLLS max=$LAT_MAX sizes=$SIZES
		else
			bench_up "$n" "$RATE" "$delay"
			colls=allreduce max=8 sizes=8
		fi || { echo "bench latency: cannot build a cluster of $n nodes" >&2; status=3; continue; }
		[ "$BUSY" = 1 ] && bench_busy_start
		bench_pingpong "$d/pingpong" 8 20000 || echo '{}' >"$d/pingpong"
		k=0
		while [ "$k" -lt "$REPEATS" ]; do
			for coll in $colls; do
				bench_ours "$coll" "$n" "$d/ours-$coll-$k.json" -b 8 -e "$max" -f 4 -w 100 \
					-n "$ITERS" -c 0 -d fp32 --algo "$ALGO" || status=2
				bench_mpi "$coll" "$n" "$d/mpi-$coll-$k.jsonl" "$sizes" 100 "$ITERS" || status=2
			done
			k=$((k + 1))
		done
		bench_busy_stop
		printf '{"nodes": %s, "rate": "%s", "delay": "%s", "busy": %s, "repeats": %s, "colls": %s, "pingpong": %s}\n' \
			"$n" "$RATE" "$delay" "$([ "$BUSY" = 1 ] && echo true || echo false)" "$REPEATS" \
			"$(python3 -c 'import json,sys; print(json.dumps(sys.argv[1].split()))' "$colls")" \
			"$(cat "$d/pingpong")" >"$d/meta.json"
		python3 bench/collreport.py latency "$RES" "$d"
		bench_show_errs "$d"
		bench_delay_stop
		cluster_down
	done
done
python3 bench/collreport.py latency-sweep "$RES"
echo "results: $RES"
exit $status
