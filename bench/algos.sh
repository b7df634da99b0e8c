#!/bin/sh
# Auto selection and non-power-of-two worlds: our allreduce, allgather and reducescatter with
# --algo auto and each fixed algorithm (ring, rhd, mesh), fp32 sum, on namespace clusters of
# N nodes whose links tc htb shapes to BENCH_RATE, N = 2..8. Reports, per N, collective and
# size, auto's busbw over the best fixed algorithm's (target >= 0.90), and for N = 3, 5, 6, 7
# auto's busbw over auto's at the next power of two (target >= 0.90). No Open MPI here
# (bench/coll.sh compares with it). Writes bench/results/algos-DATE.json.
#
# Options (environment): BENCH_N="2 3 4 5 6 7 8"  BENCH_RATE=1gbit  BENCH_MIN=8
#   BENCH_MAX=64M  BENCH_FACTOR=8  BENCH_COLLS="allreduce allgather reducescatter"
#   BENCH_ALGOS="auto ring rhd mesh"  BENCH_QUICK=1 (N 2 3 4, sizes to 4M)
set -u
cd "$(dirname "$0")/.." || exit 3
. tests/cluster/netns.sh
. bench/lib.sh

bench_scope "2 3 4" 4M "2 3 4 5 6 7 8" 64M 8
ALGOS=${BENCH_ALGOS:-auto ring rhd mesh}

bench_prelude algos ./hcclctl build/bench/netprobe
CHUNKS=$TMP/chunks
python3 bench/collreport.py chunks "$MIN" "$MAX" "$FACTOR" "$QUICK" >"$CHUNKS" || exit 64

echo "# auto selection and non-power-of-two N: fp32 sum, sizes $MIN..$MAX x$FACTOR, N in {$NODES}, link $RATE, algos {$ALGOS}"
echo "# $(nproc) CPUs shared by every rank of a run (load now: $(cut -d' ' -f1-3 /proc/loadavg))"
status=0
for n in $NODES; do
	d=$TMP/n$n
	mkdir -p "$d"
	if ! bench_up "$n" "$RATE"; then
		echo "bench algos: cannot build a cluster of $n nodes" >&2
		status=3
		continue
	fi
	t0=$(date +%s)
	bench_link "$d/link" || echo '{}' >"$d/link"
	for coll in $COLLS; do
		k=0
		while read -r first last w it csv; do
			k=$((k + 1))
			# the algorithms of one size run back to back, so they see the same machine
			for algo in $ALGOS; do
				BENCH_TIMEOUT=900
				bench_ours "$coll" "$n" "$d/$algo-$coll-$k.json" -b "$first" -e "$last" \
					-f "$FACTOR" -w "$w" -n "$it" -c 0 -d fp32 --algo "$algo" || status=2
			done
		done <"$CHUNKS"
	done
	printf '{"nodes": %s, "rate": "%s", "link": %s, "loadavg_end": "%s", "elapsed_s": %s}\n' \
		"$n" "$RATE" "$(cat "$d/link")" "$(cut -d' ' -f1-3 /proc/loadavg)" \
		$(($(date +%s) - t0)) >"$d/meta.json"
	python3 bench/algoreport.py add "$RES" "$d" "$ALGOS"
	bench_show_errs "$d"
	cluster_down
done
python3 bench/algoreport.py summary "$RES"
echo "results: $RES"
exit $status
