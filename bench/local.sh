#!/bin/sh
# All ranks on this host: fp32 sum allreduce, allgather and reducescatter at N = 2, 4, 8, ours
# against what a user of each peer gets on one machine, in the same run:
#   ours      hcclctl --json run COLL --local N, the default transport (HCCLCTL_TRANSPORT unset)
#   ours tcp  the same with HCCLCTL_TRANSPORT=tcp (loopback TCP between every pair)
#   vader     Open MPI, mpirun -np N --oversubscribe --mca pml ob1 --mca btl self,vader (its
#             shared-memory BTL: what an MPI user gets on one host)
#   mpi tcp   Open MPI with --mca btl self,tcp on the loopback interface, for reference
#   gloo      bench/gloo_coll over Gloo's TCP transport on 127.0.0.1, FileStore rendezvous
#             (allreduce: the options API's default and AllreduceRingChunked)
# Per N and collective the peers take turns per size range (bench/collreport.py chunks: the
# same sizes, warm-up and iterations for every peer, few where one call takes long), so a
# change of load on the machine falls on all of them. Then the 8-byte allreduce latency of
# each, BENCH_LOCAL_LAT_ITERS calls (default 1000) after 100 warm-up, BENCH_LOCAL_LAT_REPEATS
# launches each (default 3, interleaved; the table shows the median launch).
# Tables per N and collective with busbw, ours/vader and ours/gloo and the issue-21 targets
# marked per row (allreduce 16-256 MiB: >= 1.5x vader and >= 2x the better Gloo; allgather
# and reducescatter 16-256 MiB: >= 1.2x vader; 8-byte allreduce: ours <= vader). Writes
# bench/results/local-DATE.json.
#
# Fair to every peer: none is pinned and every one runs as its users run it. Open MPI's
# mpirun binds each rank to a core when N <= cores and busy-polls; with more ranks than
# cores (--oversubscribe) it binds none and turns on mpi_yield_when_idle by itself (read back
# through MPI_T after MPI_Init on this machine: off at N=2, on at N=4), so its polling does not
# starve the other ranks. Gloo's TCP transport sleeps in epoll; ours in poll. Every peer checks
# one call per size before it is timed (hcclctl with -c 0 times unchecked calls, as
# bench/coll.sh runs it; the checked runs are its tests).
# On this 2-core machine the default run (sizes 8 B .. 256 MiB x4, N = 2 4 8) took 12 min
# (733 s: N=2 102 s, N=4 212 s, N=8 417 s); BENCH_QUICK=1 with N = 2 4 about 30 s.
#
# Options (environment; `make bench BENCH=local BENCH_N="2 4" ...` passes them):
#   BENCH_N="2 4 8"  BENCH_MIN=8  BENCH_MAX=256M  BENCH_FACTOR=4
#   BENCH_COLLS="allreduce allgather reducescatter"
#   BENCH_QUICK=1    N 2 and 4, sizes to 16M, fewer iterations, one latency launch
#   BENCH_GLOO=0     without Gloo;  BENCH_LOCAL_TCP=0  without "ours tcp" and "mpi tcp"
set -u
cd "$(dirname "$0")/.." || exit 3
. bench/lib.sh

bench_scope "2 4" 16M "2 4 8" 256M 4
GLOO=${BENCH_GLOO:-1}
TCP=${BENCH_LOCAL_TCP:-1}
LAT_ITERS=${BENCH_LOCAL_LAT_ITERS:-$([ -n "$QUICK" ] && echo 300 || echo 1000)}
LAT_REPEATS=${BENCH_LOCAL_LAT_REPEATS:-$([ -n "$QUICK" ] && echo 1 || echo 3)}
BENCH_GLOO_LOCAL=1

for f in ./hcclctl build/bench/mpi_coll $([ "$GLOO" = 1 ] && echo build/bench/gloo_coll); do
	[ -x "$f" ] || { echo "bench local: $f is not built; hint: make bench-bin" >&2; exit 3; }
done
command -v mpirun >/dev/null 2>&1 || { echo "bench local: mpirun is not installed; hint: sh scripts/deps.sh" >&2; exit 3; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hcclctl-bench.XXXXXX")
trap 'bench_kill; rm -rf "$TMP"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
mkdir -p bench/results
RES=bench/results/local-$(date +%Y%m%d-%H%M%S).json
CHUNKS=$TMP/chunks
python3 bench/collreport.py chunks "$MIN" "$MAX" "$FACTOR" "$QUICK" >"$CHUNKS" || exit 64

PEERS="ours vader"
[ "$TCP" = 1 ] && PEERS="ours ourstcp vader mpitcp"

# local_ours KIND COLL N OUT ARGS...: KIND ours (default transport) or ourstcp
local_ours() {
	_kind=$1 _coll=$2 _n=$3 _out=$4
	shift 4
	_env="-u HCCLCTL_TRANSPORT"
	[ "$_kind" = ourstcp ] && _env=HCCLCTL_TRANSPORT=tcp
	# shellcheck disable=SC2086
	env $_env timeout -k 5 "$BENCH_TIMEOUT" ./hcclctl --json run "$_coll" --local "$_n" "$@" \
		</dev/null >"$_out" 2>"$_out.err" &
	BENCH_PIDS="$BENCH_PIDS $!"
	_bench_wait
}

# local_mpi BTL COLL N OUT SIZES WARMUP ITERS: mpirun with the ob1 PML and BTL self,BTL;
# tried once more on failure as bench_mpi does.
local_mpi() {
	: >"$4.err"
	_local_mpi_once "$@" && return 0
	echo "bench: mpirun $2 ($1) on $3 ranks failed (status $?); once more" >>"$4.err"
	_local_mpi_once "$@"
}

_local_mpi_once() {
	timeout -k 5 "$BENCH_TIMEOUT" mpirun --allow-run-as-root --oversubscribe -np "$3" \
		--mca pml ob1 --mca btl "self,$1" --mca btl_tcp_if_include lo \
		"$BENCH_ROOT/build/bench/mpi_coll" "$2" "$5" "$6" "$7" </dev/null >"$4" 2>>"$4.err" &
	BENCH_PIDS="$BENCH_PIDS $!"
	_bench_wait
}

# one PEER COLL N OUT FIRST LAST SIZES WARMUP ITERS: one launch of PEER; OUT without suffix
one() {
	_p=$1 _c=$2 _nn=$3 _o=$4 _first=$5 _last=$6 _csv=$7 _w=$8 _it=$9
	case $_p in
	ours | ourstcp)
		local_ours "$_p" "$_c" "$_nn" "$_o.json" -b "$_first" -e "$_last" -f "$FACTOR" \
			-w "$_w" -n "$_it" -c 0 -d fp32
		;;
	vader) local_mpi vader "$_c" "$_nn" "$_o.jsonl" "$_csv" "$_w" "$_it" ;;
	mpitcp) local_mpi tcp "$_c" "$_nn" "$_o.jsonl" "$_csv" "$_w" "$_it" ;;
	esac
}

printf '{"benchmark": "local-collectives", "started": "%s", "cpus": %s, "loadavg": "%s", "dtype": "fp32", "op": "sum", "min": "%s", "max": "%s", "factor": %s, "quick": %s, "mpi": "%s", "gloo": "%s", "lat_iters": %s, "lat_repeats": %s, "note": "busbw with the nccl-tests factors; every rank on this one machine; ours = the default transport, ours tcp = HCCLCTL_TRANSPORT=tcp; vader = Open MPI shared memory, mpi tcp = Open MPI loopback TCP; gloo = Gloo TCP on 127.0.0.1", "configs": []}\n' \
	"$(date -Iseconds)" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" "$MIN" "$MAX" "$FACTOR" \
	"$([ -n "$QUICK" ] && echo true || echo false)" "$(mpirun --version 2>/dev/null | head -1)" \
	"$([ "$GLOO" = 1 ] && dpkg-query -W -f='libgloo ${Version}' libgloo0 2>/dev/null)" \
	"$LAT_ITERS" "$LAT_REPEATS" >"$RES"

echo "# one host, $(nproc) CPUs: ours (default transport$([ "$TCP" = 1 ] && echo ', and tcp')) vs Open MPI vader$([ "$TCP" = 1 ] && echo ' and tcp')$([ "$GLOO" = 1 ] && echo ' and Gloo'): fp32 sum, sizes $MIN..$MAX x$FACTOR, N in {$NODES}"
echo "# load now: $(cut -d' ' -f1-3 /proc/loadavg)"
# the two ways a shared-memory link could move bytes (libcomm/shm.c chose the ring), first,
# on the same machine as the rest; kept beside the JSON
if [ -x build/bench/shmcopy ]; then
	build/bench/shmcopy 1 256 5 | tee "bench/results/shmcopy-$(date +%Y%m%d-%H%M%S).txt"
fi
status=0
for n in $NODES; do
	d=$TMP/n$n
	mkdir -p "$d"
	t0=$(date +%s)
	for coll in $COLLS; do
		k=0
		while read -r first last w it csv; do
			k=$((k + 1))
			for p in $PEERS; do
				one "$p" "$coll" "$n" "$d/$p-$coll-$k" "$first" "$last" "$csv" "$w" "$it" ||
					status=2
			done
			bench_gloo_each "$coll" "$n" "$d" "$k" "$csv" "$w" "$it" || status=2
		done <"$CHUNKS"
	done
	r=0
	while [ "$r" -lt "$LAT_REPEATS" ]; do
		for p in $PEERS; do
			one "$p" allreduce "$n" "$d/lat-$p-$r" 8 8 8 100 "$LAT_ITERS" || status=2
		done
		if [ "$GLOO" = 1 ]; then
			bench_gloo allreduce default "$n" "$d/lat-gloo-$r.jsonl" 8 100 "$LAT_ITERS" ||
				status=2
		fi
		r=$((r + 1))
	done
	printf '{"nodes": %s, "peers": "%s", "gloo": %s, "lat_repeats": %s, "loadavg_end": "%s", "elapsed_s": %s}\n' \
		"$n" "$PEERS" "$([ "$GLOO" = 1 ] && echo true || echo false)" "$LAT_REPEATS" \
		"$(cut -d' ' -f1-3 /proc/loadavg)" $(($(date +%s) - t0)) >"$d/meta.json"
	python3 bench/localreport.py add "$RES" "$d"
	bench_show_errs "$d"
done
python3 bench/localreport.py summary "$RES"
echo "results: $RES"
exit $status
