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
ip netns add "$NS"
ip -n "$NS" link set lo up
mkdir -p /run/sshd
ssh-keygen -q -t ed25519 -N '' -f "$DIR/key"
ssh-keygen -q -t ed25519 -N '' -f "$DIR/host"
cp "$DIR/key.pub" "$DIR/authorized_keys"
hosts=
i=1
while [ "$i" -le "$N" ]; do
	printf '127.0.0.%d %s\n' "$i" "$(cut -d' ' -f1,2 "$DIR/host.pub")" >>"$DIR/known_hosts"
	hosts="$hosts${hosts:+,}127.0.0.$i"
	i=$((i + 1))
done
cat >"$DIR/sshd_config" <<EOC
ListenAddress 0.0.0.0:22
HostKey $DIR/host
PidFile $DIR/sshd.pid
AuthorizedKeysFile $DIR/authorized_keys
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
PasswordAuthentication no
MaxStartups 300
MaxSessions 300
LogLevel ERROR
EOC
ip netns exec "$NS" /usr/sbin/sshd -f "$DIR/sshd_config"
sleep 0.3
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
