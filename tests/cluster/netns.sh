# A test cluster in network namespaces, sourced by tests/cluster/*.t (POSIX sh, as root).
#
#   cluster_supported            0 when namespaces can be made here; else $CLUSTER_SKIP says why
#   cluster_up N [--rate R] [--loss P]
#                                N nodes hc<pid>n1..N on a bridge that lives in its own
#                                namespace hc<pid>br, so the root namespace is never touched.
#                                Node i is 10.77.0.i/24 on its eth0 and runs sshd on port 22;
#                                the bridge namespace (the "head", 10.77.0.254) is where tests
#                                run hcclctl. --rate shapes each link both ways with tc htb
#                                (e.g. 1gbit, 100mbit); --loss drops P% of each node's
#                                outgoing packets with nftables. There is no netem on this
#                                kernel, so no delay or jitter can be added.
#   cluster_down                 stops everything and removes every namespace and file; safe
#                                to call twice. cluster_up arranges it on EXIT, INT and TERM.
#   cluster_head CMD...          runs CMD in the head namespace
#   cluster_exec I CMD...        runs CMD in node I's namespace
#   cluster_ns I, cluster_addr I the namespace name and the address of node I
#   cluster_hosts                "10.77.0.1,10.77.0.2,..."
#   cluster_stop_sshd I, cluster_start_sshd I
#   cluster_node_env I [VAR=VALUE...]
#                                the environment node I's sshd gives its sessions, besides
#                                HCCLCTL_NODE (e.g. PATH=..., XDG_CACHE_HOME=...); restarts
#                                that sshd. No arguments: back to HCCLCTL_NODE alone.
#   cluster_shape_link I J RATE  shapes what node I sends to node J (one direction only) to
#                                RATE with an htb class and a u32 filter on J's address on
#                                I's eth0; other traffic keeps cluster_up's --rate (or none).
#
# After cluster_up: CL_N (nodes), CL_DIR (keys and configs), CL_KEY (the user's private key,
# in every node's authorized_keys), CL_KNOWN_HOSTS (every node's host key), CL_HEAD
# (10.77.0.254). Each node's sshd sets HCCLCTL_NODE=nI in the sessions it starts, so a
# test can prove where a command ran.
#
# The addresses exist only inside these namespaces, so parallel runs can share the range;
# the names carry the shell's pid so that they do not collide.

CL_ID=hc$$
CL_NET=10.77.0
CL_HEAD=$CL_NET.254
CL_N=0
CL_DIR=
CL_UP=0
CLUSTER_SKIP=

cluster_ns() { echo "${CL_ID}n$1"; }
cluster_addr() { echo "$CL_NET.$1"; }
_cl_br() { echo "${CL_ID}br"; }

cluster_head() { ip netns exec "$(_cl_br)" "$@"; }
cluster_exec() {
	_i=$1
	shift
	ip netns exec "$(cluster_ns "$_i")" "$@"
}

cluster_hosts() {
	_i=1
	_l=
	while [ "$_i" -le "$CL_N" ]; do
		_l="$_l${_l:+,}$CL_NET.$_i"
		_i=$((_i + 1))
	done
	echo "$_l"
}

cluster_supported() {
	if [ "$(id -u)" -ne 0 ]; then
		CLUSTER_SKIP="network namespaces need root (uid $(id -u))"
		return 1
	fi
	for t in ip ssh-keygen ss; do
		command -v "$t" >/dev/null 2>&1 || { CLUSTER_SKIP="'$t' is not installed"; return 1; }
	done
	if [ ! -x /usr/sbin/sshd ]; then
		CLUSTER_SKIP="/usr/sbin/sshd is not installed (openssh-server)"
		return 1
	fi
	_probe=${CL_ID}probe
	if ! _why=$(ip netns add "$_probe" 2>&1); then
		CLUSTER_SKIP="'ip netns add' is not permitted here: $_why"
		return 1
	fi
	ip netns del "$_probe" 2>/dev/null
	return 0
}

# A test's start: on a host that cannot build namespaces, skip the whole file saying why
# (tests/cli/lib.sh's skip and done_testing) and exit.
cluster_require() {
	cluster_supported && return 0
	skip "cluster: $CLUSTER_SKIP"
	done_testing
	exit 0
}

# cluster_up_or_end ARGS...: cluster_up ARGS, or the test ends there, failed: the cluster it
# needs could not be made (where the host cannot make one at all, cluster_require skipped)
cluster_up_or_end() {
	cluster_up "$@" && return 0
	_report 1 "cluster_up $*"
	done_testing
	exit 1
}

_cl_fail() {
	echo "cluster_up: $*" >&2
	cluster_down
	return 1
}

_cl_on_exit() {
	cluster_down
	[ -n "${TMP:-}" ] && rm -rf "$TMP" # lib.sh's own EXIT trap, which ours replaces
}

cluster_start_sshd() {
	_d=$CL_DIR/n$1
	rm -f "$_d/sshd.pid"
	ip netns exec "$(cluster_ns "$1")" /usr/sbin/sshd -f "$_d/sshd_config" -D -e \
		</dev/null >>"$_d/sshd.log" 2>&1 &
	# `ip netns exec` execs sshd in place, so $! is sshd itself
	echo $! >"$_d/pid"
}

# A TERM that comes while the background shell of cluster_start_sshd has forked but not yet
# exec'd sshd is lost (that shell takes it for the test's own trap): sshd runs on, and a bare
# `wait` never returned (a test that ends right after cluster_start_sshd hung in cluster_down,
# 38 of 40 times when the kill follows the start at once). So: up to 5 s, then KILL.
cluster_stop_sshd() {
	_p=$(cat "$CL_DIR/n$1/pid" 2>/dev/null) || return 0
	kill "$_p" 2>/dev/null
	_t=0
	while kill -0 "$_p" 2>/dev/null && [ "$_t" -lt 100 ]; do
		sleep 0.05 # the shell reaps the ended sshd while it waits for this
		_t=$((_t + 1))
	done
	kill -9 "$_p" 2>/dev/null
	wait "$_p" 2>/dev/null
	rm -f "$CL_DIR/n$1/pid"
	return 0
}

cluster_node_env() {
	_ne_i=$1
	shift
	_ne_cfg=$CL_DIR/n$_ne_i/sshd_config
	grep -v '^SetEnv ' "$_ne_cfg" >"$_ne_cfg.new" || return 1
	echo "SetEnv HCCLCTL_NODE=n$_ne_i SHLVL=1 $*" >>"$_ne_cfg.new"
	mv "$_ne_cfg.new" "$_ne_cfg"
	cluster_stop_sshd "$_ne_i"
	cluster_start_sshd "$_ne_i"
	_cl_wait_sshd "$_ne_i"
}

# Waits until node $1's sshd listens, up to 10 s.
_cl_wait_sshd() {
	_t=0
	while ! ip netns exec "$(cluster_ns "$1")" ss -Hltn "sport = :22" 2>/dev/null | grep -q .; do
		_t=$((_t + 1))
		if [ "$_t" -gt 200 ]; then
			echo "cluster_up: sshd on node $1 did not start:" >&2
			cat "$CL_DIR/n$1/sshd.log" >&2
			return 1
		fi
		sleep 0.05
	done
}

cluster_up() {
	_cl_nn=$1
	shift
	_rate=
	_loss=
	while [ $# -gt 0 ]; do
		case $1 in
		--rate) _rate=$2; shift 2 ;;
		--loss) _loss=$2; shift 2 ;;
		*) echo "cluster_up: unknown option '$1'" >&2; return 1 ;;
		esac
	done
	case $_cl_nn in '' | *[!0-9]*) echo "cluster_up: N must be 1..250" >&2; return 1 ;; esac
	if [ "$_cl_nn" -lt 1 ] || [ "$_cl_nn" -gt 250 ]; then
		echo "cluster_up: N must be 1..250" >&2
		return 1
	fi
	trap _cl_on_exit EXIT
	trap 'exit 130' INT
	trap 'exit 143' TERM
	CL_DIR=$(mktemp -d "${TMPDIR:-/tmp}/hcclctl-cluster.XXXXXX") || return 1
	chmod 755 "$CL_DIR"
	CL_KEY=$CL_DIR/id_ed25519
	CL_KNOWN_HOSTS=$CL_DIR/known_hosts
	CL_UP=1
	mkdir -p /run/sshd # sshd's privilege separation directory, as the package makes it
	ssh-keygen -q -t ed25519 -N '' -C hcclctl-test -f "$CL_KEY" || { _cl_fail "ssh-keygen"; return 1; }
	cp "$CL_KEY.pub" "$CL_DIR/authorized_keys"
	: >"$CL_KNOWN_HOSTS"

	_br=$(_cl_br)
	ip netns add "$_br" || { _cl_fail "ip netns add $_br"; return 1; }
	ip -n "$_br" link set lo up &&
		ip -n "$_br" link add br0 type bridge &&
		ip -n "$_br" addr add "$CL_HEAD/24" dev br0 &&
		ip -n "$_br" link set br0 up || { _cl_fail "bridge"; return 1; }

	_i=1
	while [ "$_i" -le "$_cl_nn" ]; do
		_ns=$(cluster_ns "$_i")
		_d=$CL_DIR/n$_i
		mkdir -p "$_d"
		CL_N=$_i # so that cluster_down removes what exists so far
		ip netns add "$_ns" || { _cl_fail "ip netns add $_ns"; return 1; }
		ip -n "$_ns" link set lo up &&
			ip -n "$_ns" link add eth0 type veth peer name "v$_i" netns "$_br" &&
			ip -n "$_ns" addr add "$CL_NET.$_i/24" dev eth0 &&
			ip -n "$_ns" link set eth0 up &&
			ip -n "$_br" link set "v$_i" master br0 up || { _cl_fail "links of node $_i"; return 1; }
		if [ -n "$_rate" ]; then
			# htb on both ends: eth0 shapes what the node sends, v$_i what it receives
			for _end in "$_ns eth0" "$_br v$_i"; do
				set -- $_end
				tc -n "$1" qdisc add dev "$2" root handle 1: htb default 10 &&
					tc -n "$1" class add dev "$2" parent 1: classid 1:10 htb rate "$_rate" quantum 60000 ||
					{ _cl_fail "tc on $2 of $1"; return 1; }
			done
		fi
		if [ -n "$_loss" ]; then
			printf 'table inet hcclctl {\n chain out {\n  type filter hook output priority 0;\n  numgen random mod 100 < %s drop\n }\n}\n' \
				"$_loss" | ip netns exec "$_ns" nft -f - || { _cl_fail "nft loss on node $_i"; return 1; }
		fi
		ssh-keygen -q -t ed25519 -N '' -C "n$_i" -f "$_d/host_ed25519" ||
			{ _cl_fail "ssh-keygen"; return 1; }
		printf '%s %s\n' "$CL_NET.$_i" "$(cut -d' ' -f1,2 "$_d/host_ed25519.pub")" >>"$CL_KNOWN_HOSTS"
		# SHLVL=1: bash started by sshd reads the login user's ~/.bashrc unless it is a
		# nested shell; this machine's runs a version manager's init that takes a lock
		# (60 s when a killed session left it), so the nodes' shells are kept from it
		cat >"$_d/sshd_config" <<EOF
ListenAddress $CL_NET.$_i:22
HostKey $_d/host_ed25519
PidFile $_d/sshd.pid
AuthorizedKeysFile $CL_DIR/authorized_keys
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
PrintMotd no
MaxStartups 200
MaxSessions 32
SetEnv HCCLCTL_NODE=n$_i SHLVL=1
Subsystem sftp internal-sftp
LogLevel ERROR
EOF
		cluster_start_sshd "$_i"
		_i=$((_i + 1))
	done
	_i=1
	while [ "$_i" -le "$_cl_nn" ]; do
		_cl_wait_sshd "$_i" || { _cl_fail "sshd"; return 1; }
		_i=$((_i + 1))
	done
	return 0
}

# ---- cluster_shape_link I J RATE: one directed link slower (or faster) than the rest ----
cluster_shape_link() {
	_sl_ns=$(cluster_ns "$1")
	_sl_dst=$CL_NET.$2
	_sl_id=$((100 + $2))
	# without cluster_up --rate there is no htb yet: one whose default class does not shape
	if ! tc -n "$_sl_ns" qdisc show dev eth0 | grep -q '^qdisc htb 1:'; then
		tc -n "$_sl_ns" qdisc add dev eth0 root handle 1: htb default 10 &&
			tc -n "$_sl_ns" class add dev eth0 parent 1: classid 1:10 htb rate 100gbit quantum 60000 ||
			{ echo "cluster_shape_link: htb on node $1" >&2; return 1; }
	fi
	tc -n "$_sl_ns" class replace dev eth0 parent 1: classid "1:$_sl_id" htb rate "$3" quantum 60000 &&
		tc -n "$_sl_ns" filter replace dev eth0 parent 1: protocol ip prio 1 handle "800::$_sl_id" \
			u32 match ip dst "$_sl_dst/32" flowid "1:$_sl_id" ||
		{ echo "cluster_shape_link: $1 -> $2 at $3" >&2; return 1; }
}

cluster_down() {
	[ "$CL_UP" = 1 ] || return 0
	CL_UP=0
	_i=1
	while [ "$_i" -le "$CL_N" ]; do
		cluster_stop_sshd "$_i"
		_i=$((_i + 1))
	done
	# What tests started inside the nodes (a command that outlived its timeout) goes too:
	# every process in these namespaces was started by this run.
	_i=1
	while [ "$_i" -le "$CL_N" ]; do
		_ns=$(cluster_ns "$_i")
		for _p in $(ip netns pids "$_ns" 2>/dev/null); do
			kill -9 "$_p" 2>/dev/null
		done
		ip netns del "$_ns" 2>/dev/null
		_i=$((_i + 1))
	done
	ip netns del "$(_cl_br)" 2>/dev/null
	[ -n "$CL_DIR" ] && rm -rf "$CL_DIR"
	CL_N=0
	return 0
}

# What is left of hcclctl in the nodes:
#   cluster_procs          "I:PID" for every hcclctl process (any hcclctl* name) in node I
#   cluster_none_left      0 when there is none (after up to 3 s for the kernel to reap)
#   cluster_procs_named C  "I:PID" for the processes whose name is exactly C: the ranks are
#                          hcclctl, their parents under run --ssh hcclctl-node
cluster_procs_named() {
	for _e in $(cluster_procs); do
		[ "$(cat "/proc/${_e#*:}/comm" 2>/dev/null)" = "$1" ] && echo "$_e"
	done
}
cluster_procs() {
	for _i in $(seq 1 "$CL_N"); do
		for _p in $(ip netns pids "$(cluster_ns "$_i")" 2>/dev/null); do
			case "$(cat "/proc/$_p/comm" 2>/dev/null)" in hcclctl*) echo "$_i:$_p" ;; esac
		done
	done
}
cluster_none_left() {
	_t=0
	while [ -n "$(cluster_procs)" ] && [ $_t -lt 30 ]; do
		sleep 0.1
		_t=$((_t + 1))
	done
	[ -z "$(cluster_procs)" ]
}

# Faults between nodes, for tests/fault:
#   cluster_drop I J PCT   node J drops PCT% (1..100) of what arrives from node I, as if the
#                          wire lost it (nftables input hook; I = all: from every address);
#                          one rule set per node J, replaced each call
#   cluster_undrop J       removes node J's drop rules
#   cluster_link I up|down sets node I's interface up or down
cluster_drop() {
	_from="ip saddr $CL_NET.$1 "
	[ "$1" = all ] && _from=
	_rule="${_from}drop"
	[ "$3" -lt 100 ] && _rule="${_from}numgen random mod 100 < $3 drop"
	cluster_undrop "$2"
	printf 'table inet hcfault {\n chain in {\n  type filter hook input priority 0;\n  %s\n }\n}\n' \
		"$_rule" | cluster_exec "$2" nft -f -
}
cluster_undrop() { cluster_exec "$1" nft delete table inet hcfault 2>/dev/null; return 0; }
cluster_link() { ip -n "$(cluster_ns "$1")" link set eth0 "$2"; }
