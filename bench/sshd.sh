# Sourced by the SSH benches (bench/scale-ssh.sh, bench/doctor64.sh): their one sshd serving
# many loopback hosts. POSIX sh, as root.

# bench_loopback_sshd NS DIR N MAXSTARTUPS MAXSESSIONS [CONFIG_LINE...]: one sshd for the
# loopback hosts 127.0.0.1-N inside a new network namespace NS, its keys, known_hosts and
# config under DIR, started, and waited for (its pid in DIR/sshd.pid; the caller stops it and
# deletes NS). Extra sshd_config lines go at the end. 0, or 3 when it cannot start.
bench_loopback_sshd() {
	_ns=$1 _dir=$2 _n=$3 _starts=$4 _sessions=$5
	shift 5
	ip netns add "$_ns" || return 3
	ip -n "$_ns" link set lo up
	mkdir -p /run/sshd
	ssh-keygen -q -t ed25519 -N '' -f "$_dir/key" || return 3
	ssh-keygen -q -t ed25519 -N '' -f "$_dir/host" || return 3
	cp "$_dir/key.pub" "$_dir/authorized_keys"
	_i=1
	while [ "$_i" -le "$_n" ]; do
		printf '127.0.0.%d %s\n' "$_i" "$(cut -d' ' -f1,2 "$_dir/host.pub")" >>"$_dir/known_hosts"
		_i=$((_i + 1))
	done
	{
		printf 'ListenAddress 0.0.0.0:22\nHostKey %s/host\nPidFile %s/sshd.pid\n' "$_dir" "$_dir"
		printf 'AuthorizedKeysFile %s/authorized_keys\nUsePAM no\nStrictModes no\n' "$_dir"
		printf 'PermitRootLogin prohibit-password\nPasswordAuthentication no\n'
		printf 'MaxStartups %s\nMaxSessions %s\nLogLevel ERROR\n' "$_starts" "$_sessions"
		for _l in "$@"; do printf '%s\n' "$_l"; done
	} >"$_dir/sshd_config"
	ip netns exec "$_ns" /usr/sbin/sshd -f "$_dir/sshd_config" || return 3
	_i=0
	while [ ! -s "$_dir/sshd.pid" ] && [ "$_i" -lt 100 ]; do
		sleep 0.05
		_i=$((_i + 1))
	done
	[ -s "$_dir/sshd.pid" ] || return 3
}
