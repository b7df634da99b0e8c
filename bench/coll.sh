#!/bin/sh
# Our allreduce, allgather and reducescatter against Open MPI's MPI_Allreduce, MPI_Allgather
# and MPI_Reduce_scatter_block and against Gloo's (bench/gloo_coll: allreduce with the
# options API's default algorithm, as PyTorch's gloo backend calls it, and AllreduceRingChunked;
# allgather; ReduceScatterHalvingDoubling), fp32 sum, on a cluster of network namespaces (one
# rank per node, tests/cluster/netns.sh) whose links tc htb shapes to BENCH_RATE both ways,
# then on unshaped veth links. Ours, Open MPI's and Gloo's take turns per collective and size
# range on the same links, with the same sizes, warm-up and iterations. Gloo runs over its TCP
# transport, each rank's device bound to its node's address, with a FileStore rendezvous. The
# link rate divided by is measured on those links (single-stream TCP, bench/netprobe). Prints
# a table per N and rate with the issue-21 targets marked per row (ok / MISS: at or above both
# peers from 64 KiB, and 0.95 of the link from 16 MiB); writes bench/results/coll-DATE.json.
#
# Options (environment; `make bench BENCH=coll BENCH_N="2 4" ...` passes them):
#   BENCH_N="2 4 8"  BENCH_RATE=1gbit  BENCH_UNSHAPED=1  BENCH_MIN=8  BENCH_MAX=256M
#   BENCH_FACTOR=4  BENCH_COLLS="allreduce allgather reducescatter"  BENCH_ALGO=auto
#   BENCH_QUICK=1    N 2 and 4, sizes to 16M, fewer iterations, no unshaped run
#   BENCH_PIN=1      one core per rank where N <= CPUs (off: see bench_pin in lib.sh)
#   BENCH_GLOO=0     without Gloo
#   HCCLCTL_TRANSPORT is passed to our ranks as it is set
set -u
cd "$(dirname "$0")/.." || exit 3
. tests/cluster/netns.sh
. bench/lib.sh

bench_scope "2 4" 16M "2 4 8" 256M 4
UNSHAPED=${BENCH_UNSHAPED:-$([ -n "$QUICK" ] && echo 0 || echo 1)}
GLOO=${BENCH_GLOO:-1}
ALGO=${BENCH_ALGO:-auto}

bench_prelude coll ./hcclctl build/bench/netprobe build/bench/mpi_coll \
	$([ "$GLOO" = 1 ] && echo build/bench/gloo_coll)
CHUNKS=$TMP/chunks
python3 bench/collreport.py chunks "$MIN" "$MAX" "$FACTOR" "$QUICK" >"$CHUNKS" || exit 64

printf '{"benchmark": "collectives-vs-openmpi", "started": "%s", "cpus": %s, "loadavg": "%s", "dtype": "fp32", "op": "sum", "min": "%s", "max": "%s", "factor": %s, "quick": %s, "pinned": %s, "mpi": "%s", "gloo": "%s", "transport": "%s", "note": "busbw with the nccl-tests factors; link = single-stream TCP payload rate measured on the same links; one rank per network namespace on one machine, so all ranks share its CPUs", "configs": []}\n' \
	"$(date -Iseconds)" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$MIN" "$MAX" "$FACTOR" \
	"$([ -n "$QUICK" ] && echo true || echo false)" "$([ "${BENCH_PIN:-0}" = 1 ] && echo true || echo false)" \
	"$(mpirun --version 2>/dev/null | head -1)" \
	"$([ "$GLOO" = 1 ] && dpkg-query -W -f='libgloo ${Version}' libgloo0 2>/dev/null)" \
	"${HCCLCTL_TRANSPORT:-default}" >"$RES"

echo "# collectives vs Open MPI$([ "$GLOO" = 1 ] && echo ' and Gloo'): fp32 sum, sizes $MIN..$MAX x$FACTOR, N in {$NODES}, link $RATE$([ "$UNSHAPED" = 1 ] && echo ' and unshaped')"
echo "# $(nproc) CPUs shared by every rank of a run (load now: $(cut -d' ' -f1-3 /proc/loadavg))"

rates=$RATE
[ "$UNSHAPED" = 1 ] && rates="$rates none"
status=0
for rate in $rates; do
	for n in $NODES; do
		d=$TMP/n$n-$rate
		mkdir -p "$d"
		if ! bench_up "$n" "$rate"; then
			echo "bench coll: cannot build a cluster of $n nodes" >&2
			status=3
			continue
		fi
		t0=$(date +%s)
		bench_link "$d/link" || echo '{}' >"$d/link"
		bench_ring "$d/ring" "$n" || echo '{}' >"$d/ring"
		bench_pingpong "$d/pingpong" 8 5000 || echo '{}' >"$d/pingpong"
		link_gbps=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("stream_GBps", 0))' \
			"$d/link" 2>/dev/null) || link_gbps=0
		for coll in $COLLS; do
			k=0
			while read -r first last w it csv; do
				k=$((k + 1))
				# two minutes plus 10x what the chunk takes at the link rate
				BENCH_TIMEOUT=$(python3 -c 'import sys
w, it, csv, g = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], float(sys.argv[4])
b = sum(int(x) for x in csv.split(","))
print(int(120 + 10 * (w + it + 2) * 2 * b / (g * 1e9)) if g > 0 else 900)' "$w" "$it" "$csv" "$link_gbps")
				bench_ours "$coll" "$n" "$d/ours-$coll-$k.json" -b "$first" -e "$last" \
					-f "$FACTOR" -w "$w" -n "$it" -c 0 -d fp32 --algo "$ALGO" || status=2
				bench_mpi "$coll" "$n" "$d/mpi-$coll-$k.jsonl" "$csv" "$w" "$it" || status=2
				bench_gloo_each "$coll" "$n" "$d" "$k" "$csv" "$w" "$it" || status=2
			done <"$CHUNKS"
		done
		printf '{"nodes": %s, "rate": "%s", "algo": "%s", "link": %s, "ring": %s, "pingpong_8B": %s, "loadavg_end": "%s", "elapsed_s": %s}\n' \
			"$n" "$rate" "$ALGO" "$(cat "$d/link")" "$(cat "$d/ring")" "$(cat "$d/pingpong")" \
			"$(cut -d' ' -f1-3 /proc/loadavg)" $(($(date +%s) - t0)) >"$d/meta.json"
		python3 bench/collreport.py add "$RES" "$d"
		bench_show_errs "$d"
		cluster_down
	done
done
python3 bench/collreport.py summary "$RES"
echo "results: $RES"
exit $status
