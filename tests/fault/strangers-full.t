# Strangers at the ranks' ports while a full mesh is built (HCCLCTL_CONNECT=full: every link in
# init). A rank read each accepted connection's handshake blocking, up to 2 s, in the order
# they came: five silent connections waiting ahead of a rank's own held its init 10 s, and
# the rank connecting to it with it. Now the job's init must take about what it takes
# unharmed, every rank exit 0 without a verdict, and -v count the strangers.
# harness: foreground (the attacked job's init is held against a healthy one's time)
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

ATTACK=$(cd "$(dirname "$0")" && pwd)/silent-clients.py
HCCLCTL_CONNECT=full
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_CONNECT HCCLCTL_SECRET

# port_of PID: the loopback port PID listens on other than $MASTER, once it does
port_of() {
	_t=0
	while [ $_t -lt 400 ]; do
		_p=$(ss -Hltnp | sed -n "s/.*127\.0\.0\.1:\([0-9]*\) .*pid=$1,.*/\1/p" |
			grep -vx "$MASTER" | head -1)
		[ -n "$_p" ] && echo "$_p" && return 0
		sleep 0.05
		_t=$((_t + 1))
	done
	return 1
}

# job NAME K: ranks 0 and 1 of 3 start and listen; the attacker holds K (0: none) silent
# connections at rank 1's port (queued ahead of rank 0's, which comes once all three have
# met); then rank 2 starts. Sets MS (rank 2's start to the last exit), RCS (the ranks'
# exit codes) and OPENED.
job() {
	MASTER=$(free_port)
	set -- "$1" "$2" --world-size 3 --master 127.0.0.1:$MASTER -b 8 -e 8 -n 5 -w 0 --timeout 60
	_nm=$1
	_att=$2
	shift 2
	if [ "$_att" -gt 0 ]; then
		mkfifo "$TMP/$_nm.fifo"
		python3 "$ATTACK" hold "$_att" <"$TMP/$_nm.fifo" >"$TMP/$_nm.att" 2>&1 &
		_ap=$!
		exec 7>"$TMP/$_nm.fifo" # returns once the attacker is up and reading
	fi
	bg_run "$_nm-r0" "$HCCLCTL" -v run allreduce --rank 0 "$@"
	_r0=$BG
	bg_run "$_nm-r1" "$HCCLCTL" -v run allreduce --rank 1 "$@"
	_r1=$BG
	_port=$(port_of $_r1)
	OPENED=0
	if [ "$_att" -gt 0 ]; then
		echo "$_r1 $_port" >&7
		exec 7>&-
		wait_for "$TMP/$_nm.att" started 60000 >/dev/null
		OPENED=$(sed -n 's/^started //p' "$TMP/$_nm.att")
	fi
	_t0=$(now_ms)
	bg_run "$_nm-r2" "$HCCLCTL" -v run allreduce --rank 2 "$@"
	_r2=$BG
	RCS=
	for _p in $_r0 $_r1 $_r2; do
		wait $_p
		RCS="$RCS$?"
	done
	MS=$(($(now_ms) - _t0))
	[ "$_att" -gt 0 ] && wait $_ap
}

job base 0
BASE=$MS
RC_BASE=$RCS
# attack_case NAME K WHAT
attack_case() {
	job "$1" "$2"
	if [ "${OPENED:-0}" -lt "$2" ]; then
		skip "$3: the attacker opened ${OPENED:-no} connections of $2"
		return
	fi
	[ "$RC_BASE" = 000 ] && [ "$RCS" = 000 ] && ! grep -q verdict "$TMP/$1"-r?.err &&
		[ $MS -le $((BASE * 3 / 2 + 2000)) ]
	_report $? "$3: all 3 exit 0, no verdict, $MS ms against $BASE unharmed" \
		"exit codes $RCS (unharmed $RC_BASE)" "$(cat "$TMP/$1"-r?.err)"
	grep -qx "hcclctl: run allreduce: rank 1: dropped $2 connections from strangers to its port (silent, closed early, or not of this job)" \
		"$TMP/$1-r1.err" && ! grep -q "dropped" "$TMP/$1-r0.err" "$TMP/$1-r2.err"
	_report $? "  ... -v on rank 1 counts the $2, and no other rank drops any" \
		"$(cat "$TMP/$1"-r?.err)"
	echo "# $3: $MS ms from the last rank's start, $BASE ms unharmed"
}
attack_case few 5 "full mesh, 5 silent strangers at rank 1's port"
# more than its 16 handshake slots: the longest silent give way to rank 0's connection
attack_case many 40 "full mesh, 40 silent strangers at rank 1's port"

done_testing
