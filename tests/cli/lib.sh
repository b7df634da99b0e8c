# A small TAP library for CLI tests, in the spirit of git's t/test-lib.sh.
# run CMD...          runs it, keeping $OUT (stdout), $ERR (stderr) and $RC
# check_rc N DESC     the exit code
# check_out TEXT DESC / check_err TEXT DESC   exact stdout / stderr
# check_out_has TEXT DESC / check_err_has TEXT DESC   a line equal to TEXT is present
# ok COND_CMD DESC    any shell condition
set -u
HCCLCTL=${HCCLCTL:-./hcclctl}
case $HCCLCTL in /*) ;; *) HCCLCTL=$(pwd)/$HCCLCTL ;; esac
FIXTURES=${FIXTURES:-tests/data/fixtures}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hcclctl-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
export NO_COLOR=1
unset RANK_TABLE_FILE
_n=0
_failed=0

hcclctl() { "$HCCLCTL" "$@"; }

NL='
'

# slurp FILE VAR: FILE's text into VAR as $(cat FILE) gives it (its trailing newlines
# dropped), read by the shell itself: a command substitution forks and execs cat, 5 ms of a
# two-core machine's time each, twice in every run below, thousands of runs a tier. The
# shell's read takes a byte a call, so past 4 KiB cat is the cheaper and reads it all.
slurp() {
	_s= _sep= _l=
	while IFS= read -r _l || [ -n "$_l" ]; do
		_s=$_s$_sep$_l
		_sep=$NL
		_l=
		if [ ${#_s} -gt 4096 ]; then
			_s=$(cat "$1")
			break
		fi
	done <"$1"
	while :; do
		case $_s in *"$NL") _s=${_s%"$NL"} ;; *) break ;; esac
	done
	eval "$2=\$_s"
}

run() {
	"$@" >"$TMP/out" 2>"$TMP/err"
	RC=$?
	slurp "$TMP/out" OUT
	slurp "$TMP/err" ERR
}

# A fresh job secret (32 hex digits), as `openssl rand -hex 16` gives one: ranks started by
# another launcher (--master, torchrun, mpirun, srun) refuse to run without one.
new_secret() { od -An -tx1 -N16 /dev/urandom | tr -d ' \n'; }

# A loopback port nothing listens on now (the kernel's choice, so never one in use).
# A port free on 127.0.0.1 for a server the test starts next. Below the kernel's range of
# ephemeral ports: a port of that range, free when checked, may become the local port of any
# process's outgoing connection before the server binds it (EADDRINUSE under load); one below
# it is taken only by a bind that names it.
free_port() {
	python3 -c 'import random, socket
lo = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
for _ in range(500):
    p = random.randrange(10000, lo) if lo > 11000 else 0
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", p))
        print(s.getsockname()[1])
        break
    except OSError:
        pass
    finally:
        s.close()'
}

_report() { # $1 = 0 pass, else fail; $2 desc; rest: diagnostics
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_n - $2"
	else
		echo "not ok $_n - $2"
		_failed=$((_failed + 1))
		shift 2
		for l in "$@"; do printf '%s\n' "$l" | sed 's/^/# /'; done
	fi
}

check_rc() {
	[ "$RC" -eq "$1" ]
	_report $? "$2" "expected exit $1, got $RC" "stderr: $ERR"
}

check_out() {
	[ "$OUT" = "$1" ]
	_report $? "$2" "expected stdout:" "$1" "got:" "$OUT"
}

check_err() {
	[ "$ERR" = "$1" ]
	_report $? "$2" "expected stderr:" "$1" "got:" "$ERR"
}

# has_line TEXT HAYSTACK: a line of HAYSTACK is TEXT; has TEXT HAYSTACK: TEXT is in one of its
# lines. As grep -qxF / grep -qF would say, by the shell's own match (no fork); a TEXT of
# several lines is several patterns to grep, any one enough, and goes to grep.
has_line() {
	case $1 in *"$NL"*) printf '%s\n' "$2" | grep -qxF -- "$1" ;; *) case "$NL$2$NL" in *"$NL$1$NL"*) ;; *) false ;; esac ;; esac
}
has() {
	case $1 in *"$NL"*) printf '%s\n' "$2" | grep -qF -- "$1" ;; *) case $2 in *"$1"*) ;; *) false ;; esac ;; esac
}

check_out_has() {
	has_line "$1" "$OUT"
	_report $? "$2" "expected a stdout line:" "$1" "got:" "$OUT"
}

# the text anywhere in stdout, or nowhere
check_out_contains() {
	has "$1" "$OUT"
	_report $? "$2" "expected in stdout:" "$1" "got:" "$OUT"
}

check_out_lacks() {
	! has "$1" "$OUT"
	_report $? "$2" "expected nowhere in stdout:" "$1" "got:" "$OUT"
}

check_err_has() {
	has_line "$1" "$ERR"
	_report $? "$2" "expected a stderr line:" "$1" "got:" "$ERR"
}

ok() {
	desc=$2
	sh -c "$1" >/dev/null 2>&1
	_report $? "$desc" "condition failed: $1"
}

# wait_line FILE PATTERN TENTHS [PID]: until a line of FILE matches PATTERN (grep), at most
# TENTHS tenths of a second, or until PID (when given) has ended. 0 when the line came.
wait_line() {
	_wl=0
	until grep -q -- "$2" "$1" 2>/dev/null; do
		[ "$_wl" -lt "$3" ] || return 1
		[ -z "${4:-}" ] || kill -0 "$4" 2>/dev/null || return 1
		sleep 0.1
		_wl=$((_wl + 1))
	done
}

skip() {
	_n=$((_n + 1))
	echo "ok $_n # SKIP $1"
}

done_testing() {
	echo "1..$_n"
	[ "$_failed" -eq 0 ]
}

# Starts a probe net agent on a free port in the background; sets $AGENT_PORT and $AGENT_PID.
start_agent() { # $1 = name, $2 = secret file
	: >"$TMP/$1.out"
	"$HCCLCTL" probe net --agent --timeout 20 --secret-file "$2" >"$TMP/$1.out" 2>"$TMP/$1.err" &
	AGENT_PID=$!
	AGENT_PORT=
	for _t in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
		AGENT_PORT=$(sed -n 's/^hcclnet1 ready port=\([0-9]*\)$/\1/p' "$TMP/$1.out")
		[ -n "$AGENT_PORT" ] && return 0
		sleep 0.1
	done
	return 1
}
