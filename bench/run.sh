#!/bin/sh
# make bench [BENCH="ranktable kernels coll local latency algos logs"]: the benchmarks, printed and kept as
# JSON under bench/results/. `sh bench/run.sh coll` (or BENCH=coll) runs one of them:
#   ranktable  rank-table validate scale, pretty and compact, against python3 json.load of
#              the same file (bench/ranktable.sh)
#   kernels    reduce kernels' GB/s per dtype against memcpy (bench/kernels.sh)
#   coll       our collectives against Open MPI and Gloo on shaped namespace links
#              (bench/coll.sh)
#   local      every rank on this host, N = 2, 4, 8: ours (default transport and TCP) against
#              Open MPI's shared memory (vader) and TCP and Gloo (bench/local.sh)
#   latency    8-byte allreduce latency against alpha*ceil(log2 p) (bench/latency.sh)
#   algos      auto selection against each fixed algorithm, N = 2..8 (bench/algos.sh)
#   logs       doctor --logs on 200 MB and 1 GB real-shaped logs: file, stream, gzip, whole;
#              MB/s against the build before issue 33 (bench/logs.sh)
#   scale      run --local N, N = 64..1024: lazy links against the full mesh (bench/scale.sh),
#              then scale-ssh (not by default)
#   scale-ssh  run --ssh over 64 loopback servers x 8 ranks: one session per server against
#              one per rank, and with hcclctl copied first (bench/scale-ssh.sh; not by default)
# The cluster benches need root; each script's header lists its BENCH_* options.
# BENCH_QUICK=1 is a short run for development. Exit: the worst status of the benches.
set -u
cd "$(dirname "$0")/.." || exit 3
benches=${*:-ranktable kernels coll local latency algos logs}
for b in $benches; do
	case $b in
	ranktable | kernels | coll | local | latency | algos | logs | scale | scale-ssh) ;;
	*)
		echo "bench/run.sh: unknown bench '$b'" >&2
		echo "usage: sh bench/run.sh [ranktable|kernels|coll|local|latency|algos|logs|scale|scale-ssh]..." >&2
		exit 64
		;;
	esac
done
# built by `make bench`; when run by hand, build what is missing
if [ ! -x build/bench/kernels ] || [ ! -x build/bench/netprobe ] || [ ! -x build/bench/mpi_coll ] ||
	[ ! -x build/bench/gloo_coll ] || [ ! -x hcclctl ]; then
	${MAKE:-make} -s bench-bin || exit 3
fi
worst=0
start=$(date +%s)
for b in $benches; do
	echo
	sh "bench/$b.sh"
	rc=$?
	if [ "$b" = scale ]; then # the issue's scale figures include the SSH launch
		echo
		sh bench/scale-ssh.sh
		r2=$?
		[ "$r2" -gt "$rc" ] && rc=$r2
	fi
	[ "$rc" -gt "$worst" ] && worst=$rc
done
echo
echo "# bench: $benches: $(($(date +%s) - start)) s, exit $worst"
exit $worst
