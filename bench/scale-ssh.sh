#!/bin/sh
# run allreduce --ranktable --ssh over many servers: SERVERS loopback addresses 127.0.0.1..S,
# all served by one sshd, inside a network namespace of its own (nothing outside it is
# touched), RANKS ranks each. For each way of starting the ranks, in the same run:
#   server   one SSH session per server, its ranks forked by hcclctl run-node (the default)
#   rank     one SSH session per rank (HCCLCTL_SSH_SESSIONS=rank, as before issue 19)
#   copy     one session per server with nothing on the "nodes": hcclctl is copied into an
#            empty cache first (every server shares this host's disk, so all S copy at once)
# it measures launch to every rank running (all S x R rank processes exist: the SSH part
# alone), launch to first result (rank 0's first row on the launcher's stdout, which also
# holds libcomm's start of that many ranks), launch to exit, and the most SSH connections
# sshd held at once. One 8-byte allreduce (-n 1 -w 0). Each shape SxR of BENCH_SSH_SHAPES in
# turn. Kept in bench/results/scale-ssh-DATE.json. As root.
#
#   BENCH_SSH_SHAPES ("64x8 64x2"), BENCH_SSH_REPS (1: launches per way and shape, the
#   median is reported), BENCH_SSH_MODES ("server rank copy"), BENCH_SSH_CONNECT_TIMEOUT
#   (s, 30: the launcher's HCCLCTL_CONNECT_TIMEOUT; 512 handshakes on 2 CPUs take longer
#   than the default 10); BENCH_QUICK=1: the shape 8x4.
set -u
cd "$(dirname "$0")/.." || exit 3
if [ "$(id -u)" -ne 0 ]; then
	echo "bench scale-ssh: skipped: network namespaces need root (uid $(id -u))"
	exit 3
fi
for t in ip ssh-keygen python3; do
	command -v "$t" >/dev/null 2>&1 || { echo "bench scale-ssh: skipped: '$t' is not installed"; exit 3; }
done
[ -x /usr/sbin/sshd ] || { echo "bench scale-ssh: skipped: no /usr/sbin/sshd (openssh-server)"; exit 3; }
[ -x hcclctl ] || { echo "bench scale-ssh: build hcclctl first (make)"; exit 3; }
SHAPES=${BENCH_SSH_SHAPES:-64x8 64x2}
[ "${BENCH_QUICK:-0}" != 0 ] && SHAPES=${BENCH_SSH_SHAPES:-8x4}
MAXS=0
for shape in $SHAPES; do
	case $shape in
	*[!0-9x]* | *x*x*) echo "bench scale-ssh: bad shape '$shape' (SxR)" >&2; exit 64 ;;
	[1-9]*x[1-9]*) ;;
	*) echo "bench scale-ssh: bad shape '$shape' (SxR)" >&2; exit 64 ;;
	esac
	[ "${shape%x*}" -gt "$MAXS" ] && MAXS=${shape%x*}
done
[ "$MAXS" -le 250 ] || { echo "bench scale-ssh: at most 250 servers (127.0.0.1-250)" >&2; exit 64; }
CTMO=${BENCH_SSH_CONNECT_TIMEOUT:-30}
REPS=${BENCH_SSH_REPS:-1}
MODES=${BENCH_SSH_MODES:-server rank copy}
NS=hcs$$
DIR=$(mktemp -d "${TMPDIR:-/tmp}/hcclctl-scale-ssh.XXXXXX") || exit 3
chmod 755 "$DIR"
LPID=
cleanup() {
	[ -n "$LPID" ] && kill "$LPID" 2>/dev/null
	[ -f "$DIR/sshd.pid" ] && kill "$(cat "$DIR/sshd.pid")" 2>/dev/null
	ip netns del "$NS" 2>/dev/null
	rm -rf "$DIR"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# the sessions' cache is the bench's: "copy" starts from an empty one
. bench/sshd.sh
bench_loopback_sshd "$NS" "$DIR" "$MAXS" 2000 32 "Subsystem sftp internal-sftp" \
	"SetEnv XDG_CACHE_HOME=$DIR/cache PATH=/usr/bin:/bin" || exit 3
SSHD=$(cat "$DIR/sshd.pid")
NSNET=$(readlink "/proc/$SSHD/ns/net")

mk_table() {
	python3 - "$1" "$2" >"$DIR/rt.json" <<'EOF'
import json, sys
s, r = int(sys.argv[1]), int(sys.argv[2])
servers = [{"server_id": "127.0.0.%d" % (i + 1),
            "device": [{"device_id": str(d), "device_ip": "10.%d.%d.%d" % (i // 256, i % 256, d + 1),
                        "rank_id": str(i * r + d)} for d in range(r)]} for i in range(s)]
json.dump({"version": "1.0", "server_count": str(s), "server_list": servers,
           "status": "completed"}, sys.stdout)
EOF
}

# Watches one launch from a single process (a shell loop that forks per sample would steal
# the CPUs it measures): every 50 ms, the SSH connections sshd holds (its children), the
# hcclctl processes in the namespace (the ranks, and the launcher: run-node's name is
# hcclctl-node) and rank 0's first row on the launcher's stdout. Until the launcher ends,
# then "up_ms first_ms peak_sessions" (ms from t0; null: never).
watch_launch() {
	python3 - "$@" <<'EOF'
import os, sys, time
ns, sshd, out, want, pid, t0 = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
up = first = None
peak = 0
def ms():
    return (time.time_ns() - t0) // 1000000
def alive():
    # the launcher is the bench shell's child: once it ends it is a zombie until waited for
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
while alive():
    sessions = ranks = 0
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % p) as f:
                st = f.read()
            comm = st[st.index("(") + 1:st.rindex(")")]
            ppid = int(st[st.rindex(")") + 2:].split()[1])
            if ppid == sshd:
                sessions += 1
            if comm == "hcclctl" and os.readlink("/proc/%s/ns/net" % p) == ns:
                ranks += 1
        except (OSError, ValueError):
            pass
    peak = max(peak, sessions)
    if up is None and ranks > want:
        up = ms()
    if first is None:
        try:
            with open(out) as f:
                if any(l.lstrip() and l.lstrip()[0].isdigit() for l in f):
                    first = ms()
        except OSError:
            pass
    time.sleep(0.05)
print(up if up is not None else "null", first if first is not None else "null", peak)
EOF
}

# one launch of S x R ranks: "up_ms first_ms end_ms rc peak_sessions" on stdout
launch() {
	mode=$1
	sessions=server
	remote="--remote-hcclctl $(pwd)/hcclctl"
	case $mode in
	rank) sessions=rank ;;
	copy) remote= ; rm -rf "$DIR/cache" ;;
	esac
	: >"$DIR/out"
	t0=$(date +%s%N)
	# shellcheck disable=SC2086
	ip netns exec "$NS" env -u SSH_AUTH_SOCK HCCLCTL_SSH_SESSIONS=$sessions \
		HCCLCTL_CONNECT_TIMEOUT="$CTMO" ./hcclctl run allreduce --ranktable "$DIR/rt.json" \
		--ssh --ssh-user root --ssh-key "$DIR/key" --ssh-known-hosts "$DIR/known_hosts" \
		--parallel 64 $remote -b 8 -e 8 -n 1 -w 0 --timeout 300 >"$DIR/out" 2>"$DIR/err" &
	LPID=$!
	# shellcheck disable=SC2046
	set -- $(watch_launch "$NSNET" "$SSHD" "$DIR/out" "$((S * R))" "$LPID" "$t0")
	up=$1
	first=$2
	peak=$3
	wait "$LPID"
	rc=$?
	LPID=
	end=$((($(date +%s%N) - t0) / 1000000))
	[ "$first" = null ] && grep -q '^ *[0-9]' "$DIR/out" && first=$end
	if [ "$rc" -ne 0 ]; then
		echo "bench scale-ssh: $mode, $S x $R: exit $rc:" >&2
		grep -v ' also ' "$DIR/err" | tail -4 >&2
	fi
	echo "$up $first $end $rc $peak"
}

# the median of the numbers on stdin, "null" for none (a launch that never got there)
median() { grep -v null | sort -n | awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]; else print "null"}'; }

RES=bench/results/scale-ssh-$(date +%Y%m%d-%H%M%S).json
mkdir -p bench/results
json=
worst=0
for shape in $SHAPES; do
	S=${shape%x*}
	R=${shape#*x}
	mk_table "$S" "$R"
	echo "# bench scale-ssh: run allreduce 8 B over $S loopback servers x $R ranks ($((S * R)) ranks), one sshd, $(nproc) CPUs"
	printf '%-8s %10s %10s %10s %6s %14s\n' way all_up_ms first_ms exit_ms rc peak_sessions
	for mode in $MODES; do
		: >"$DIR/ups"
		: >"$DIR/firsts"
		: >"$DIR/ends"
		for rep in $(seq 1 "$REPS"); do
			# shellcheck disable=SC2046
			set -- $(launch "$mode")
			echo "$1" >>"$DIR/ups"
			echo "$2" >>"$DIR/firsts"
			echo "$3" >>"$DIR/ends"
			rc=$4
			peak=$5
			[ "$rc" -ne 0 ] && worst=2
			printf '%-8s %10s %10s %10s %6s %14s\n' "$mode" "$1" "$2" "$3" "$rc" "$peak"
		done
		u=$(median <"$DIR/ups")
		f=$(median <"$DIR/firsts")
		e=$(median <"$DIR/ends")
		json="$json${json:+, }{\"servers\": $S, \"ranks_per_server\": $R, \"way\": \"$mode\", \"all_ranks_up_ms\": $u, \"first_result_ms\": $f, \"exit_ms\": $e, \"exit_code\": $rc, \"peak_ssh_sessions\": $peak, \"launches\": $REPS}"
	done
done
printf '{"benchmark": "scale-ssh", "cpus": %d, "connect_timeout_s": %d, "results": [%s]}\n' \
	"$(nproc)" "$CTMO" "$json" >"$RES"
echo "# kept in $RES"
exit $worst
