#!/bin/sh
# Rendezvous at scale on loopback: N ranks (default 256) of `hcclctl run barrier`, each its own
# process started by hand (--rank R --world-size N), meeting through the TCP store (rank 0
# hosts it at --master) and through etcd (--rendezvous etcd://..., a real etcd started here).
# Prints the wall time from the first start to the last exit, and memory per rank (the peak
# RSS of each rank process, from GNU time). Not part of `make check`.
#
#   sh bench/rendezvous.sh [N] [REPEATS]
set -eu
N=${1:-256}
REPS=${2:-3}
HCCLCTL=${HCCLCTL:-./hcclctl}
case $HCCLCTL in /*) ;; *) HCCLCTL=$(pwd)/$HCCLCTL ;; esac
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hcclctl-bench.XXXXXX")
ETCD=
cleanup() {
	[ -n "$ETCD" ] && kill "$ETCD" 2>/dev/null && wait "$ETCD" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
ulimit -n 65536 2>/dev/null || true
# Hundreds of ranks on a few CPUs starve one another: the heartbeat monitor would take a rank
# descheduled for seconds for a down link. The meeting, not the monitor, is measured here.
export HCCLCTL_HEARTBEAT_TIMEOUT=${HCCLCTL_HEARTBEAT_TIMEOUT:-120}
# the ranks of --master share one secret, as a real job's must
HCCLCTL_SECRET=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
export HCCLCTL_SECRET

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
now_ms() { date +%s%3N; }

# one_run MODE: starts N ranks, waits for all; prints "ms maxrss_kb avgrss_kb" or fails
one_run() {
	mode=$1
	rm -f "$TMP"/rss.*
	if [ "$mode" = tcp ]; then
		where="--master 127.0.0.1:$(free_port)"
	else
		where="--rendezvous etcd://127.0.0.1:$EP/bench/$(date +%s%N)"
	fi
	t0=$(now_ms)
	pids=
	r=$((N - 1))
	while [ $r -ge 0 ]; do # rank 0 last: the others must wait for it
		/usr/bin/time -f %M -o "$TMP/rss.$r" "$HCCLCTL" -v run barrier --rank $r --world-size $N \
			$where -n 1 -w 0 --timeout 120 --flight-dir "$TMP" >/dev/null 2>"$TMP/err.$r" &
		pids="$pids $!"
		r=$((r - 1))
	done
	bad=0
	for p in $pids; do wait "$p" || bad=$((bad + 1)); done
	t1=$(now_ms)
	if [ $bad -ne 0 ]; then
		echo "bench: $mode: $bad of $N ranks failed after the meeting; rank 0 said:" >&2
		grep -v ' in [0-9]* ms$' "$TMP/err.0" | head -3 >&2
	fi
	# rank 0's own phases: the etcd meeting (etcd only), then the communicator (hello,
	# address book, connections)
	meet=$(sed -n 's/.*met .* through etcd in \([0-9]*\) ms$/\1/p' "$TMP/err.0")
	init=$(sed -n 's/.*communicator of .* up in \([0-9]*\) ms$/\1/p' "$TMP/err.0")
	cat "$TMP"/rss.* | awk -v ms=$((t1 - t0)) -v meet="${meet:--}" -v init="${init:--}" \
		'{ s += $1; if ($1 > m) m = $1 } END { printf "%d %s %s %d %d\n", ms, meet, init, m, s / NR }'
}

if ! command -v etcd >/dev/null 2>&1; then
	echo "bench: etcd is not installed (apt-get install etcd-server); TCP store only" >&2
else
	EP=$(free_port)
	PP=$(free_port)
	etcd --name b --data-dir "$TMP/etcd" --listen-client-urls "http://127.0.0.1:$EP" \
		--advertise-client-urls "http://127.0.0.1:$EP" --listen-peer-urls "http://127.0.0.1:$PP" \
		--initial-advertise-peer-urls "http://127.0.0.1:$PP" \
		--initial-cluster "b=http://127.0.0.1:$PP" >"$TMP/etcd.log" 2>&1 &
	ETCD=$!
	i=0
	until curl -s "http://127.0.0.1:$EP/health" 2>/dev/null | grep -q '"health":"true"'; do
		i=$((i + 1))
		[ $i -gt 100 ] && { echo "bench: etcd did not start" >&2; exit 3; }
		sleep 0.1
	done
fi

echo "# rendezvous of $N ranks on loopback ($(nproc) CPUs): run barrier -n 1 -w 0, each rank a process"
echo "# wall: first start to last exit; meet: rank 0's etcd phase; init: rank 0's comm_init"
echo "# store  run  wall(ms)  meet(ms)  init(ms)  peak-RSS-max(KiB)  peak-RSS-mean(KiB)"
for mode in tcp ${ETCD:+etcd}; do
	k=1
	while [ $k -le "$REPS" ]; do
		res=$(one_run $mode) || res="failed - - - -"
		set -- $res
		printf '%-6s %4d %9s %9s %9s %18s %19s\n' "$mode" "$k" "$1" "$2" "$3" "$4" "$5"
		k=$((k + 1))
	done
done
