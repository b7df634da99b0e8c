# Helpers of the cluster benches (bench/coll.sh, bench/latency.sh), sourced after
# tests/cluster/netns.sh. POSIX sh, as root. Every process started here is remembered by pid
# and killed by pid on exit; the namespaces go with cluster_down (netns.sh's EXIT trap, which
# bench_trap wraps).
#
#   bench_prelude NAME FILE...  a cluster bench's start: exits 3 (saying why) when this host
#                               cannot build namespaces or a FILE is not built; sets TMP
#                               (removed on exit) and RES=bench/results/NAME-DATE.json
#   bench_show_errs DIR         the last lines of every non-empty DIR/*.err, on stderr
#   bench_trap                  after cluster_up: on EXIT/INT/TERM kill our processes, then
#                               netns.sh's cleanup (namespaces, its files, $TMP)
#   bench_up N RATE [DELAY]     cluster_up N [--rate RATE] (RATE "none": unshaped), then
#                               bench_trap; adds DELAY (default BENCH_DELAY) with netem
#                               (BENCH_NETEM=1) or bench/delayline (BENCH_DELAYLINE=1)
#   bench_link OUT              single-stream TCP node 1 -> node 2: its JSON line to OUT
#   bench_ring OUT N            every node i streams to node i+1 (mod N) at once, as a ring
#                               collective's links carry it: {"streams", "min_GBps",
#                               "mean_GBps"} to OUT (what the shared CPUs let N links carry)
#   bench_pingpong OUT BYTES N  ping-pong node 1 <-> node 2: its JSON line to OUT
#   bench_ours COLL N OUT ARGS  one hcclctl rank per node; rank 0's --json to OUT; 0 or rc
#   bench_mpi COLL N OUT SIZES WARMUP ITERS
#                               mpirun, one rank per node, TCP BTL on 10.77.0.0/24 only
#   bench_gloo COLL ALGO N OUT SIZES WARMUP ITERS
#                               bench/gloo_coll, one rank per node on its address (with
#                               BENCH_GLOO_LOCAL=1 all here on 127.0.0.1), FileStore
#                               rendezvous in a fresh directory under $TMP, removed after
#   bench_gloo_algos COLL       the Gloo algorithms the benches run for COLL
#   bench_gloo_each COLL N DIR K SIZES WARMUP ITERS
#                               bench_gloo for each of them: DIR/gloo-COLL-ALGO-K.jsonl;
#                               nothing with BENCH_GLOO=0
#   bench_netem_ok              0 when this kernel can add delay (netem)
#   bench_delayline_ok          0 when build/bench/delayline can stand in for netem
#
# bench_pin R N: with BENCH_PIN=1, "taskset -c CPU" for rank R of N when every rank can have
# a core of its own (N <= CPUs), else nothing. Ours and Open MPI's ranks are pinned alike:
# two ranks that the scheduler leaves on one core answer each other through a context switch
# (8-byte allreduce, N=2: 35-44 us on one core, 18-25 us on two), and which of the two a
# process gets is luck. The latency bench pins; the size sweeps do not: pinned, a rank
# cannot leave the core where its link's deferred packet work (ksoftirqd) runs, and 128 KiB
# allreduces at N=2 took 4.3-6.8 ms in 3 of 5 pinned runs, 1.3-1.9 ms in 4 unpinned ones.
#
# bench_pin R N: with BENCH_PIN=1 Gloo's ranks are pinned as ours are, by taskset.
#
# BENCH_TIMEOUT (s, default 900) bounds every launch; callers may lower it per launch.
# An mpirun that fails or times out is tried once more: now and then one of its orted
# daemons never reports back, and mpirun gives up on it after orte_startup_timeout.

BENCH_PIDS=
BENCH_PORT=${BENCH_PORT:-29500}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-900}
BENCH_ROOT=$(pwd)
HCCLCTL_SECRET=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
export HCCLCTL_SECRET

bench_kill() {
	for _p in $BENCH_PIDS; do
		kill "$_p" 2>/dev/null
	done
	BENCH_PIDS=
}

_bench_on_exit() {
	bench_kill
	bench_busy_stop
	bench_delay_stop
	_cl_on_exit
}

# bench_scope QUICK_N QUICK_MAX FULL_N FULL_MAX DEFAULT_FACTOR: the options every size sweep
# shares, from the environment: QUICK (empty unless BENCH_QUICK), NODES, MIN, MAX, FACTOR,
# RATE, COLLS. A quick run takes the first pair as defaults, a full one the second.
bench_scope() {
	QUICK=${BENCH_QUICK:-0}
	[ "$QUICK" = 0 ] && QUICK=
	if [ -n "$QUICK" ]; then
		NODES=${BENCH_N:-$1}
		MAX=${BENCH_MAX:-$2}
	else
		NODES=${BENCH_N:-$3}
		MAX=${BENCH_MAX:-$4}
	fi
	MIN=${BENCH_MIN:-8}
	FACTOR=${BENCH_FACTOR:-$5}
	RATE=${BENCH_RATE:-1gbit}
	COLLS=${BENCH_COLLS:-allreduce allgather reducescatter}
}

bench_prelude() {
	_name=$1
	shift
	if ! cluster_supported; then
		echo "bench $_name: skipped: $CLUSTER_SKIP" >&2
		exit 3
	fi
	for _f in "$@"; do
		[ -x "$_f" ] || { echo "bench $_name: $_f is not built; hint: make bench-bin" >&2; exit 3; }
	done
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/hcclctl-bench.XXXXXX")
	trap 'rm -rf "$TMP"' EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	mkdir -p bench/results
	RES=bench/results/$_name-$(date +%Y%m%d-%H%M%S).json
}

bench_show_errs() {
	for _e in "$1"/*.err; do
		grep -q '[^[:space:]]' "$_e" 2>/dev/null || continue
		echo "--- $(basename "$_e"):" >&2
		tail -5 "$_e" >&2
	done
}

bench_trap() {
	trap _bench_on_exit EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
}

# Waits for the pids in $BENCH_PIDS; returns the first non-zero status.
_bench_wait() {
	_rc=0
	for _p in $BENCH_PIDS; do
		wait "$_p"
		_s=$?
		[ "$_rc" -eq 0 ] && _rc=$_s
	done
	BENCH_PIDS=
	return "$_rc"
}

bench_netem_ok() {
	_probe=${CL_ID:-hc$$}netem
	ip netns add "$_probe" 2>/dev/null || return 1
	ip -n "$_probe" link set lo up
	tc -n "$_probe" qdisc add dev lo root netem delay 1ms >/dev/null 2>&1
	_ok=$?
	ip netns del "$_probe" 2>/dev/null
	return "$_ok"
}

bench_up() {
	if [ "$2" = none ]; then
		cluster_up "$1" || return 1
	else
		cluster_up "$1" --rate "$2" || return 1
	fi
	bench_trap
	_delay=${3-${BENCH_DELAY:-}}
	if [ -n "$_delay" ] && [ "${BENCH_NETEM:-0}" = 1 ]; then
		# one-way delay on what each node sends; below htb's class when shaped
		_i=1
		while [ "$_i" -le "$1" ]; do
			if [ "$2" = none ]; then
				tc -n "$(cluster_ns "$_i")" qdisc add dev eth0 root netem delay "$_delay"
			else
				tc -n "$(cluster_ns "$_i")" qdisc add dev eth0 parent 1:10 handle 10: \
					netem delay "$_delay" limit 100000
			fi || return 1
			_i=$((_i + 1))
		done
	elif [ -n "$_delay" ] && [ "${BENCH_DELAYLINE:-0}" = 1 ]; then
		bench_delay_start "$1" "$_delay" || return 1
	fi
	return 0
}

bench_delayline_ok() { [ -x build/bench/delayline ]; }

# bench_delay_start N DELAY: the bridge's ports go to build/bench/delayline, which holds each
# frame DELAY (e.g. 100us) before it forwards it; the bridge keeps the head's address and
# reaches the nodes through a veth pair that is one more port of the delay line.
bench_delay_start() {
	_us=${2%us}
	case $_us in '' | *[!0-9]*) echo "bench: delay '$2' is not N or Nus" >&2; return 1 ;; esac
	_br=$(_cl_br)
	_ports=
	_i=1
	while [ "$_i" -le "$1" ]; do
		ip -n "$_br" link set "v$_i" nomaster || return 1
		_ports="$_ports v$_i"
		_i=$((_i + 1))
	done
	ip -n "$_br" link add hb type veth peer name hq &&
		ip -n "$_br" link set hb master br0 up &&
		ip -n "$_br" link set hq up || return 1
	ip netns exec "$_br" build/bench/delayline "$_us" $_ports hq </dev/null >/dev/null &
	BENCH_DELAY_PID=$!
	sleep 0.2
	kill -0 "$BENCH_DELAY_PID" 2>/dev/null || { echo "bench: delayline did not start" >&2; return 1; }
}

# bench_busy_start: one busy loop on every CPU, as a machine busy with other work would be
# (BENCH_LAT_BUSY=1 in the latency bench); bench_busy_stop ends them.
bench_busy_start() {
	_c=0
	while [ "$_c" -lt "$(nproc)" ]; do
		taskset -c "$_c" sh -c 'while :; do :; done' &
		BENCH_BUSY_PIDS="${BENCH_BUSY_PIDS:-} $!"
		_c=$((_c + 1))
	done
}

bench_busy_stop() {
	for _p in ${BENCH_BUSY_PIDS:-}; do
		kill "$_p" 2>/dev/null
		wait "$_p" 2>/dev/null
	done
	BENCH_BUSY_PIDS=
}

bench_delay_stop() {
	[ -n "${BENCH_DELAY_PID:-}" ] || return 0
	kill "$BENCH_DELAY_PID" 2>/dev/null
	wait "$BENCH_DELAY_PID" 2>/dev/null
	BENCH_DELAY_PID=
}

# A fresh port for every launch (in this shell, not a subshell, so that it counts).
_bench_port() {
	BENCH_PORT=$((BENCH_PORT + 1))
	[ "$BENCH_PORT" -gt 60000 ] && BENCH_PORT=29501
	return 0
}

# _bench_probe OUT MODE ARGS: netprobe's server on node 2, MODE on node 1 against it.
# _bench_serve NODE: netprobe's server on NODE at a fresh port (BENCH_PORT), in the
# background; its clients retry their connect while it starts.
_bench_serve() {
	_bench_port
	cluster_exec "$1" timeout -k 5 120 build/bench/netprobe serve "$(cluster_addr "$1")" \
		"$BENCH_PORT" </dev/null >/dev/null &
	BENCH_PIDS="$BENCH_PIDS $!"
}

_bench_probe() {
	_bench_serve 2
	_out=$1 _mode=$2
	shift 2
	cluster_exec 1 timeout -k 5 120 build/bench/netprobe "$_mode" "$(cluster_addr 2)" \
		"$BENCH_PORT" "$@" </dev/null >"$_out"
	_s=$?
	_bench_wait
	return "$_s"
}

bench_link() { _bench_probe "$1" stream "${BENCH_LINK_SECONDS:-4}"; }

bench_ring() {
	_i=1
	while [ "$_i" -le "$2" ]; do
		_j=$((_i % $2 + 1))
		_bench_serve "$_j"
		cluster_exec "$_i" timeout -k 5 120 build/bench/netprobe stream "$(cluster_addr "$_j")" \
			"$BENCH_PORT" "${BENCH_LINK_SECONDS:-4}" </dev/null >"$TMP/ring.$_i" &
		BENCH_PIDS="$BENCH_PIDS $!"
		_i=$((_i + 1))
	done
	_bench_wait || return 1
	_i=1
	while [ "$_i" -le "$2" ]; do
		cat "$TMP/ring.$_i"
		_i=$((_i + 1))
	done | python3 -c 'import json, sys
r = [json.loads(l)["stream_GBps"] for l in sys.stdin if l.strip()]
if len(r) != int(sys.argv[1]):
    sys.exit("bench_ring: %d of %s streams reported" % (len(r), sys.argv[1]))
print(json.dumps({"streams": len(r), "min_GBps": min(r), "mean_GBps": sum(r) / len(r)}))' "$2" >"$1"
}

bench_pin() {
	[ "${BENCH_PIN:-0}" = 1 ] && [ "$2" -le "$(nproc)" ] && echo "taskset -c $(($1 % $(nproc)))"
	return 0
}
bench_pingpong() { _bench_probe "$1" pingpong "$2" "$3"; }

# bench_ours COLL N OUT ARGS...: rank 0's JSON goes to OUT, every rank's stderr to OUT.err.
bench_ours() {
	_coll=$1 _n=$2 _out=$3
	shift 3
	_bench_port
	_master=$(cluster_addr 1):$BENCH_PORT
	: >"$_out.err"
	_r=$((_n - 1))
	while [ "$_r" -ge 1 ]; do
		cluster_exec $((_r + 1)) $(bench_pin "$_r" "$_n") timeout -k 5 "$BENCH_TIMEOUT" ./hcclctl --json run "$_coll" \
			--rank "$_r" --world-size "$_n" --master "$_master" "$@" \
			</dev/null >/dev/null 2>>"$_out.err" &
		BENCH_PIDS="$BENCH_PIDS $!"
		_r=$((_r - 1))
	done
	cluster_exec 1 $(bench_pin 0 "$_n") timeout -k 5 "$BENCH_TIMEOUT" ./hcclctl --json run "$_coll" --rank 0 \
		--world-size "$_n" --master "$_master" "$@" </dev/null >"$_out" 2>>"$_out.err" &
	BENCH_PIDS="$BENCH_PIDS $!"
	_bench_wait
}

# bench_mpi COLL N OUT SIZES WARMUP ITERS: mpirun in the bridge namespace starts one orted
# per node through nsexec.sh (no ssh); MPI and ORTE traffic stay on 10.77.0.0/24. Every
# "node" shares this machine's cores, so ranks are not bound (Open MPI would bind each to
# core 0 of its node, i.e. all to one core) and yield when idle, as Open MPI does by itself
# when it knows a node is oversubscribed: its busy polling otherwise starves the other ranks.
bench_mpi() {
	: >"$3.err"
	_bench_mpi_once "$@" && return 0
	echo "bench: mpirun $1 on $2 nodes failed (status $?); once more" >>"$3.err"
	_bench_mpi_once "$@"
}

_bench_mpi_once() {
	_hosts=$CL_DIR/mpi_hosts
	: >"$_hosts"
	_i=1
	while [ "$_i" -le "$2" ]; do
		echo "$(cluster_addr "$_i") slots=1" >>"$_hosts"
		_i=$((_i + 1))
	done
	cluster_head timeout -k 5 "$BENCH_TIMEOUT" mpirun --allow-run-as-root -np "$2" \
		--hostfile "$_hosts" --map-by node --bind-to none \
		--mca plm_rsh_agent "sh $BENCH_ROOT/bench/nsexec.sh $CL_ID $CL_DIR" \
		--mca plm_rsh_no_tree_spawn 1 --mca orte_startup_timeout 30 \
		--mca pml ob1 --mca btl self,tcp --mca mpi_yield_when_idle 1 \
		--mca btl_tcp_if_include "$CL_NET.0/24" --mca oob_tcp_if_include "$CL_NET.0/24" \
		-x HCCLCTL_BENCH_PIN="$([ -n "$(bench_pin 0 "$2")" ] && echo 1 || echo 0)" \
		"$BENCH_ROOT/build/bench/mpi_coll" "$1" "$4" "$5" "$6" </dev/null >"$3" 2>>"$3.err" &
	BENCH_PIDS="$BENCH_PIDS $!"
	_bench_wait
}

bench_gloo_algos() {
	case $1 in
	allreduce) echo default ring_chunked ;;
	allgather) echo default ;;
	reducescatter) echo halving_doubling ;;
	esac
}

bench_gloo_each() {
	[ "${BENCH_GLOO:-1}" = 1 ] || return 0
	_ge=0
	for _ga in $(bench_gloo_algos "$1"); do
		bench_gloo "$1" "$_ga" "$2" "$3/gloo-$1-$_ga-$4.jsonl" "$5" "$6" "$7" || _ge=2
	done
	return "$_ge"
}

# bench_gloo COLL ALGO N OUT SIZES WARMUP ITERS: rank 0's lines to OUT, every rank's stderr
# to OUT.err. The ranks meet in a FileStore directory of this launch only, so that keys of an
# earlier launch (which Gloo never deletes) cannot be read by this one.
bench_gloo() {
	_coll=$1 _algo=$2 _n=$3 _out=$4 _sizes=$5 _w=$6 _it=$7
	_store=$(mktemp -d "$TMP/gloo.XXXXXX") || return 3
	: >"$_out.err"
	_r=$((_n - 1))
	while [ "$_r" -ge 0 ]; do
		_o=/dev/null
		[ "$_r" = 0 ] && _o=$_out
		if [ "${BENCH_GLOO_LOCAL:-0}" = 1 ]; then
			set -- 127.0.0.1
		else
			set -- "$(cluster_addr $((_r + 1)))" cluster_exec $((_r + 1))
		fi
		_addr=$1
		shift
		"$@" $(bench_pin "$_r" "$_n") timeout -k 5 "$BENCH_TIMEOUT" "$BENCH_ROOT/build/bench/gloo_coll" \
			"$_r" "$_n" "$_addr" "$_store" "$_coll" "$_algo" "$_sizes" "$_w" "$_it" \
			</dev/null >"$_o" 2>>"$_out.err" &
		BENCH_PIDS="$BENCH_PIDS $!"
		_r=$((_r - 1))
	done
	_bench_wait
	_s=$?
	rm -rf "$_store"
	return "$_s"
}
