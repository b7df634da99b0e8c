#!/bin/sh
# A quick doctor over 64 hosts on loopback addresses (127.0.0.1-64, all served by one sshd)
# inside a network namespace of its own, so nothing outside it is touched. Prints the wall
# time and keeps it in bench/results/doctor64.json. As root; `sh bench/doctor64.sh [N]`.
set -eu
cd "$(dirname "$0")/.."
N=${1:-64}
NS=hcd$$
DIR=$(mktemp -d "${TMPDIR:-/tmp}/hcclctl-doctor64.XXXXXX")
chmod 755 "$DIR"
cleanup() {
	[ -f "$DIR/sshd.pid" ] && kill "$(cat "$DIR/sshd.pid")" 2>/dev/null || true
	ip netns del "$NS" 2>/dev/null || true
	rm -rf "$DIR"
}
trap cleanup EXIT INT TERM
. bench/sshd.sh
bench_loopback_sshd "$NS" "$DIR" "$N" 300 300
hosts=
i=1
while [ "$i" -le "$N" ]; do
	hosts="$hosts${hosts:+,}127.0.0.$i"
	i=$((i + 1))
done
t0=$(date +%s%N)
rc=0
ip netns exec "$NS" env -u SSH_AUTH_SOCK ./hcclctl -q doctor --hosts "$hosts" --ssh-user root \
	--ssh-key "$DIR/key" --ssh-known-hosts "$DIR/known_hosts" --remote-hcclctl "$(pwd)/hcclctl" \
	--parallel 64 >"$DIR/out" 2>&1 || rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
tail -3 "$DIR/out"
echo "quick doctor over $N loopback hosts (one sshd): $ms ms, exit $rc"
mkdir -p bench/results
printf '{"benchmark": "doctor-quick-loopback", "hosts": %d, "wall_ms": %d, "exit_code": %d}\n' \
	"$N" "$ms" "$rc" >bench/results/doctor64.json
