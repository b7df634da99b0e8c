#!/bin/sh
# Faults over shared memory (ranks of one host link through memfd rings, the TCP socket
# kept for liveness): a rank killed in the middle of a large transfer is named dead within
# the heartbeat budget with the survivors' messages as over TCP (the bytes it had put in the
# ring are read, then its socket's end counts); a frozen rank is named stuck; a fingerprint
# mismatch is named; and no crash leaves anything in /dev/shm or a rank process behind. -v
# shows the links were shared memory.
# harness: alone (it compares the whole machine's /dev/shm before and after: Open MPI's segments
# beside it would count)
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
# ranks of another launcher share one secret (HCCLCTL_SECRET), as a real job must
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_SECRET

BUDGET=5000 # ms from the fault to the verdict line
shm_list() { ls -a /dev/shm 2>/dev/null; }

# long_run NAME R ENV...: a long 64 MiB allreduce on 4 local ranks (ring: 16 MiB blocks, 4 MiB
# rings), always inside a collective, rank R picked (faulted)
long_run() {
	_nm=$1 _lr=$2
	shift 2
	faulted "$_nm" "$_lr" 4 env "$@" "$HCCLCTL" -v run allreduce --local 4 -b 64M -e 64M \
		-n 1000000 -w 0 -c 0 --timeout 60
}

# kill_case NAME [TRANSPORT]: SIGKILL of rank 2; sets MS (to the verdict) and checks
kill_case() {
	shm_list >"$TMP/shm.before"
	long_run "$1" 2 HCCLCTL_TRANSPORT="${2:-auto}"
	fault_verdict KILL 2 dead-rank "$1" "mid-transfer ($1)" $?
	grep -qF "died: its process ended without closing the communicator" "$TMP/$1.err"
	_report $? "  the cause: its process ended" "$ERR"
	survivors_name "$TMP/$1.err" 2 0 1 3
	_report $? "  every surviving rank names rank 2" "$ERR"
	# shellcheck disable=SC2086
	none_left $OTHERS
	_report $? "  no rank process left" "$OTHERS"
	shm_list >"$TMP/shm.after"
	cmp -s "$TMP/shm.before" "$TMP/shm.after"
	_report $? "  /dev/shm holds nothing new" "$(diff "$TMP/shm.before" "$TMP/shm.after")"
}

kill_case kill-shm
for r in 0 1 3; do
	grep -qxF "hcclctl: run allreduce: rank $r: links: 3 shm, 0 tcp" "$TMP/kill-shm.err" ||
		echo "rank $r"
done >"$TMP/miss"
[ ! -s "$TMP/miss" ]
_report $? "  -v: the survivors' links were shared memory" "$(cat "$TMP/kill-shm.err")"
# a neighbour of rank 2 finds the link gone: a ring is read to its end before its socket's
# end counts, and a full one to a dead reader fails as a send to a closed socket, with the
# bytes as far as they came, worded as over TCP
grep "^hcclctl: run allreduce: rank [13] (host " "$TMP/kill-shm.err" | \
	grep -q "connection to rank 2 (host [^)]*) lost: it exited or closed the communicator; \(sent\|received\) [0-9]* of [0-9]* bytes$"
_report $? "  a neighbour: the lost connection to rank 2 with the bytes moved" "$(cat "$TMP/kill-shm.err")"
kill_case kill-tcp tcp
# the same lines but for the links: over either transport the verdict reads alike
v1=$(grep '^hcclctl: verdict:' "$TMP/kill-shm.err" | sed 's/after [0-9.]* s/after T s/g; s/[0-9][0-9]* bytes/N bytes/g; s/#[0-9]*/#S/g; s/step [0-9]*/step K/g')
v2=$(grep '^hcclctl: verdict:' "$TMP/kill-tcp.err" | sed 's/after [0-9.]* s/after T s/g; s/[0-9][0-9]* bytes/N bytes/g; s/#[0-9]*/#S/g; s/step [0-9]*/step K/g')
[ -n "$v1" ] && [ "$(printf '%s' "$v1" | cut -d: -f1-3)" = "$(printf '%s' "$v2" | cut -d: -f1-3)" ]
_report $? "  the verdict names the same kind and rank over shared memory as over TCP" "$v1" "$v2"

# ---- a rank frozen (SIGSTOP) mid-transfer ----
shm_list >"$TMP/shm.before"
long_run stop 1 HCCLCTL_TRANSPORT=shm
fault_verdict STOP 1 stuck-rank stop "mid-transfer over shared memory" $?
# shellcheck disable=SC2086
none_left "$VICTIM" $OTHERS
_report $? "  no rank process left, the frozen one included"
shm_list >"$TMP/shm.after"
cmp -s "$TMP/shm.before" "$TMP/shm.after"
_report $? "  /dev/shm holds nothing new" "$(diff "$TMP/shm.before" "$TMP/shm.after")"

# ---- a fingerprint mismatch between separate processes (--rank/--master) over shm ----
p=$(free_port)
for r in 0 1 2; do
	b=1K
	[ $r -eq 2 ] && b=2K
	env HCCLCTL_TRANSPORT=shm "$HCCLCTL" -v run allreduce -b $b -e $b --rank $r --world-size 3 \
		--master 127.0.0.1:"$p" --timeout 4 >"$TMP/m$r.out" 2>"$TMP/m$r.err" &
	eval "P$r=\$!"
done
RCS=
for r in 0 1 2; do
	eval "wait \$P$r"
	RCS="$RCS$? "
done
[ "$RCS" = "2 2 2 " ]
_report $? "count mismatch over shared memory: every rank exits 2" "$RCS" "$(cat "$TMP"/m*.err)"
for r in 0 1 2; do grep -q "^hcclctl: verdict: mismatch: .*count" "$TMP/m$r.err" || echo "rank $r"; done >"$TMP/miss"
[ ! -s "$TMP/miss" ] && grep -qF "256" "$TMP/m0.err" && grep -qF "512" "$TMP/m0.err"
_report $? "  each rank's verdict names the count, with both values" "$(cat "$TMP"/m*.err)"
grep -q "^hcclctl: run allreduce: rank 0: links: [1-9] shm, 0 tcp$" "$TMP/m0.err"
_report $? "  -v: rank 0's links were shared memory" "$(cat "$TMP/m0.err")"

# ---- a rank that waits on rings only sleeps on the rings' flags, and the rank that writes
# wakes it there. HCCLCTL_SPIN_US=0: a wait sleeps at once instead of polling first, so every
# reply not already there is a sleep and a wake (with the default 250 us of polling a sleep
# needs a reply to outlast it, which strace made likely, not certain) ----
if command -v strace >/dev/null 2>&1; then
	strace -f -qq -e trace=futex_waitv,futex -o "$TMP/futex.trace" \
		env HCCLCTL_TRANSPORT=shm HCCLCTL_SPIN_US=0 "$HCCLCTL" run allreduce --local 2 -b 8 \
		-e 8 -n 1000 -w 0 -c 1 --timeout 60 </dev/null >"$TMP/futex.out" 2>"$TMP/futex.err"
	RC=$?
	ERR=$(cat "$TMP/futex.err")
	check_rc 0 "8-byte allreduce over rings under strace, no polling: exit 0"
	# a flag some rank slept on (futex_waitv, shared: no FUTEX2_PRIVATE) ...
	grep -o 'futex_waitv(\[{val=0x2, uaddr=0x[0-9a-f]*' "$TMP/futex.trace" |
		sed 's/.*uaddr=//' | sort -u >"$TMP/slept"
	# ... and another woke it there
	grep 'futex(0x[0-9a-f]*, FUTEX_WAKE, 1' "$TMP/futex.trace" | sed 's/.*futex(\(0x[0-9a-f]*\),.*/\1/' |
		sort -u >"$TMP/woken"
	[ -s "$TMP/slept" ] && [ -n "$(comm -12 "$TMP/slept" "$TMP/woken")" ]
	_report $? "  a rank slept on a ring's flag and the other woke it there (FUTEX_WAKE)" \
		"$(grep -c futex_waitv "$TMP/futex.trace") waits" "$(head -5 "$TMP/futex.trace")"
else
	skip "strace is not installed: the exit under strace is not checked"
	skip "strace is not installed: the futex sleep and wake over rings are not checked"
fi

done_testing
