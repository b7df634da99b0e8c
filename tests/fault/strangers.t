# Strangers at the ranks' ports (tests/fault/silent-clients.py): connections that connect and
# say nothing. A rank used to read each one's handshake blocking, inside the step that saw it,
# for up to 2 s: one after another they stalled the job (exit 0, wrong bandwidth), a hundred
# made it blame an innocent rank. Now the job's time must stay close to its time alone, the
# run must end without a verdict, and -v must count the strangers on every rank.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

ATTACK=$(cd "$(dirname "$0")" && pwd)/silent-clients.py
N=3
ITERS=30000 # about 4 s of 8-byte allreduce on this machine alone

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

# one_run NAME MODE: the job (with the strangers of MODE, or none); sets MS and RC_RUN
one_run() {
	if [ "$2" != none ]; then
		mkfifo "$TMP/$1.fifo"
		python3 "$ATTACK" "$2" <"$TMP/$1.fifo" >"$TMP/$1.att" 2>&1 &
		_ap=$!
		exec 7>"$TMP/$1.fifo" # returns once the attacker is up and reading
	fi
	_t0=$(now_ms)
	bg_run "$1" "$HCCLCTL" -v run allreduce --local $N -b 8 -e 8 -n $ITERS -w 0 --timeout 30
	_l=$BG
	if [ "$2" != none ]; then
		echo "$_l $(rank_ports "$_l")" >&7
		exec 7>&-
	fi
	wait "$_l"
	RC_RUN=$?
	MS=$(($(now_ms) - _t0))
	[ "$2" != none ] && wait "$_ap"
}

opened() { sed -n 's/^opened //p' "$TMP/$1.att"; }
# every rank's -v line counting what it dropped
all_counted() {
	_r=0
	while [ $_r -lt $N ]; do
		grep -q "^hcclctl: run allreduce: rank $_r: dropped [0-9]* connections\? from strangers to its port (silent, closed early, or not of this job)$" "$TMP/$1.err" || return 1
		_r=$((_r + 1))
	done
}

one_run base none
base=$MS
[ $RC_RUN -eq 0 ]
_report $? "alone: $N ranks, $ITERS allreduces, exit 0 ($base ms)" "$(cat "$TMP/base.err")"

# attack_case MODE MIN_OPENED SLACK_MS WHAT: the job under MODE's strangers against its time
# alone (at most twice it plus SLACK_MS: a loaded 2-core machine is noisy; a rank that read
# each handshake blocking took minutes, or a verdict)
attack_case() {
	one_run "$1" "$1"
	_o=$(opened "$1")
	if [ "${_o:-0}" -lt "$2" ]; then
		skip "$4: the attacker opened ${_o:-no} connections (too slow to start?)"
		return
	fi
	[ $RC_RUN -eq 0 ] && ! grep -q "verdict" "$TMP/$1.err" && [ $MS -le $((2 * base + $3)) ]
	_report $? "$4 ($_o connections): exit 0, no verdict (no stuck-rank), $MS ms against $base alone" \
		"exit $RC_RUN" "$(cat "$TMP/$1.err")"
	all_counted "$1"
	_report $? "  ... -v counts the strangers on every rank" "$(cat "$TMP/$1.err")"
	echo "# $4: $MS ms, alone $base ms"
}
# one silent connection to every rank every 0.3 s, each held 2.5 s
attack_case drip 3 2000 "silent clients one after another"
# 100 silent connections held at every rank's port (more than its handshake slots)
attack_case flood 100 3000 "a flood of silent clients"

done_testing
