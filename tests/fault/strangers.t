# Strangers at the ranks' ports (tests/fault/silent-clients.py): connections that connect and
# say nothing. A rank used to read each one's handshake blocking, inside the step that saw it,
# for up to 2 s: one after another they stalled the job (exit 0, wrong bandwidth), a hundred
# made it blame an innocent rank. Now the job's time must stay close to that of the same job
# run beside it unharmed, the run must end without a verdict, and -v must count the strangers
# on every rank.
# harness: foreground (the attacked job's time is held against a healthy job's: a neighbour's load
# falls on one more than the other)
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

ATTACK=$(cd "$(dirname "$0")" && pwd)/silent-clients.py
N=3
ITERS=100000 # 3 s of 8-byte allreduce on this machine when quiet, two such jobs at once

# rank_ports L: the loopback ports the N ranks of launcher L listen on, once all are up
rank_ports() {
	_t=0
	while [ $_t -lt 200 ]; do
		_ports=
		_r=0
		while [ $_r -lt $N ]; do
			_p=$(child_rank "$1" $_r) &&
				_ports="$_ports $(ss -Hltnp | sed -n "s/.*127\.0\.0\.1:\([0-9]*\) .*pid=$_p,.*/\1/p")"
			_r=$((_r + 1))
		done
		[ "$(echo $_ports | wc -w)" -eq $N ] && echo $_ports && return 0
		sleep 0.05
		_t=$((_t + 1))
	done
	return 1
}

# one_pair NAME MODE: two identical jobs at once, the strangers of MODE at the first's ranks
# only, so that both see the same load from the rest of the machine (timings on a busy 2-core
# machine vary threefold from one minute to the next); sets MS (attacked), BASE (the other),
# RC_RUN and RC_BASE
one_pair() {
	mkfifo "$TMP/$1.fifo"
	python3 "$ATTACK" "$2" <"$TMP/$1.fifo" >"$TMP/$1.att" 2>&1 &
	_ap=$!
	exec 7>"$TMP/$1.fifo" # returns once the attacker is up and reading
	_t0=$(now_ms)
	bg_run "$1" "$HCCLCTL" -v run allreduce --local $N -b 8 -e 8 -n $ITERS -w 0 --timeout 30
	_l=$BG
	bg_run "$1-base" "$HCCLCTL" -v run allreduce --local $N -b 8 -e 8 -n $ITERS -w 0 \
		--timeout 30
	_b=$BG
	echo "$_l $(rank_ports "$_l")" >&7
	exec 7>&-
	wait "$_l"
	RC_RUN=$?
	MS=$(($(now_ms) - _t0))
	wait "$_b"
	RC_BASE=$?
	BASE=$(($(now_ms) - _t0))
	wait "$_ap"
}

opened() { sed -n 's/^opened //p' "$TMP/$1.att"; }
# the -v lines counting what ranks dropped: how many ranks have one (a rank the attacker
# reached only as the job ended never accepted its stranger)
counted() {
	grep -c "^hcclctl: run allreduce: rank [0-9]*: dropped [0-9]* connections\? from strangers to its port (silent, closed early, or not of this job)$" "$TMP/$1.err"
}

# attack_case MODE MIN_OPENED WHAT: the attacked job's time against its twin's (at most
# 1.5 times it plus 2 s; a rank that read each handshake blocking took minutes, or a verdict)
attack_case() {
	one_pair "$1" "$1"
	_o=$(opened "$1")
	if [ "${_o:-0}" -lt "$2" ]; then
		skip "$3: the attacker opened ${_o:-no} connections (too slow to start?)"
		return
	fi
	[ $RC_RUN -eq 0 ] && [ $RC_BASE -eq 0 ] && ! grep -q "verdict" "$TMP/$1.err" &&
		[ $MS -le $((BASE * 3 / 2 + 2000)) ]
	_report $? "$3 ($_o connections): exit 0, no verdict (no stuck-rank), $MS ms against $BASE for the same job beside it" \
		"exit $RC_RUN (the other $RC_BASE)" "$(cat "$TMP/$1.err")"
	[ "$(counted "$1")" -ge 1 ]
	_report $? "  ... -v counts them ($(counted "$1") of $N ranks had a stranger to drop)" \
		"$(cat "$TMP/$1.err")"
	echo "# $3: $MS ms, the same job beside it $BASE ms"
}
# one silent connection to every rank every 0.3 s, each held 2.5 s
attack_case drip 6 "silent clients one after another"
# 100 silent connections held at every rank's port (more than its handshake slots)
attack_case flood 100 "a flood of silent clients"

# --- the rendezvous (rank 0's --master port) under a flood: 100 silent connections held, more
# than its handshake slots (one per rank and 64) ---
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_SECRET
# rdv_case NAME STARTED TIMEOUT: the flood is aimed at the port first (it connects as soon as
# rank 0 of 3 listens there, a guard process standing for the job), then ranks 1..STARTED-1
# come once it has got in
rdv_case() {
	_port=$(free_port)
	_nm=$1
	_started=$2
	sleep 600 &
	_guard=$!
	mkfifo "$TMP/$_nm.fifo"
	python3 "$ATTACK" flood <"$TMP/$_nm.fifo" >"$TMP/$_nm.att" 2>&1 &
	_ap=$!
	exec 7>"$TMP/$_nm.fifo"
	echo "$_guard $_port" >&7
	exec 7>&-
	wait_for "$TMP/$_nm.att" ready 60000 >/dev/null # rank 0's deadline starts after it
	set -- --world-size 3 --master 127.0.0.1:$_port -b 8 -e 8 -n 5 -w 0 --timeout "$3"
	bg_run "$_nm-r0" "$HCCLCTL" run allreduce --rank 0 "$@"
	_r0=$BG
	wait_for "$TMP/$_nm.att" started 30000 >/dev/null
	sleep 1 # the flood takes every slot, and the first of it is old enough to give way
	_pids=
	_r=1
	while [ $_r -lt "$_started" ]; do
		bg_run "$_nm-r$_r" "$HCCLCTL" run allreduce --rank $_r "$@"
		_pids="$_pids $BG"
		_r=$((_r + 1))
	done
	wait $_r0
	RC0=$?
	RCS=0
	for _p in $_pids; do wait $_p || RCS=$?; done
	kill $_guard
	wait $_guard $_ap 2>/dev/null
}
rdv_case rfull 3 30
[ $RC0 -eq 0 ] && [ $RCS -eq 0 ]
_report $? "ranks meeting through a flooded rendezvous ($(opened rfull) silent connections): all 3 exit 0" \
	"rank 0: $RC0 $(cat "$TMP/rfull-r0.err")" "others: $RCS $(cat "$TMP/rfull-r1.err" "$TMP/rfull-r2.err")"
rdv_case rshort 2 20
[ $RC0 -eq 2 ] && grep -q "^hcclctl: verdict: stuck-rank: .* ranks\? never said hello: .* (a flood of connections to its port: it refused [0-9]*, [0-9]* of them silent when every handshake slot was taken; the last: " "$TMP/rshort-r0.err"
_report $? "a rank missing from a flooded rendezvous: exit 2, and the verdict names the flood" \
	"rank 0: $RC0 $(cat "$TMP/rshort-r0.err")"

done_testing
