#!/bin/sh
# The smallest allreduces between the ranks of one host go by lines (one cache line per peer
# and direction in the shared-memory segment) once every rank said its links allow it. What
# the frames check, the lines must too: the results (checked, every placement), a rank killed
# or frozen while the others wait on its line, ranks whose calls differ while both take lines,
# and a rank that sends frames where the others wait for its line. And a waiting rank sleeps
# on the line's word, woken there by the rank that writes it.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_SECRET

BUDGET=5000 # ms from the fault to the verdict line

# ---- results: every size a line carries and the first it does not, out of place and in
# place (rank 2 and up copy their own vector aside first), 2, 3 and 4 ranks ----
for n in 2 3 4; do
	run "$HCCLCTL" run allreduce --local "$n" -b 4 -e 64 -f 2 -n 300 -w 5 -c 1 --timeout 60
	check_rc 0 "lines, $n ranks, 4..64 bytes checked: exit 0"
	rows=$(printf '%s\n' "$OUT" | grep -cE '^ +(4|8|16|32|64) +[0-9]+ +fp32 +sum +-1 +[0-9.]+ +[0-9.]+ +[0-9.]+ +0 +[0-9.]+ +[0-9.]+ +[0-9.]+ +0 +mesh$')
	[ "$rows" -eq 5 ]
	_report $? "  all 5 rows with 0 wrong elements out of place and in place" "$OUT"
done
run "$HCCLCTL" run allreduce --local 3 -b 8 -e 32 -f 2 -d bf16 -o max -n 200 -w 5 -c 1 --timeout 60
check_rc 0 "lines, 3 ranks, bf16 max checked: exit 0"

# ---- a rank killed while the others wait on its line ----
faulted kill 2 4 "$HCCLCTL" run allreduce --local 4 -b 8 -e 8 -n 1000000 -w 0 -c 0 --timeout 60
fault_verdict KILL 2 dead-rank kill "among 8-byte allreduces by lines" $?
survivors_name "$TMP/kill.err" 2 0 1 3
_report $? "  every surviving rank names rank 2" "$ERR"
# shellcheck disable=SC2086
none_left $OTHERS
_report $? "  no rank process left" "$OTHERS"

# ---- a rank frozen while the others wait on its line ----
faulted stop 1 4 "$HCCLCTL" run allreduce --local 4 -b 8 -e 8 -n 1000000 -w 0 -c 0 --timeout 60
fault_verdict STOP 1 stuck-rank stop "among allreduces by lines" $?
# shellcheck disable=SC2086
none_left "$VICTIM" $OTHERS
_report $? "  no rank process left, the frozen one included"

# three ranks of their own launchers (--rank/--master): ARGS0 ARGS1 ARGS2; RCS their exits,
# MS how long until all ended
three() {
	_p=$(free_port)
	_t0=$(now_ms)
	for _r in 0 1 2; do
		eval "_a=\$$((_r + 1))"
		# shellcheck disable=SC2086
		"$HCCLCTL" run $_a --rank $_r --world-size 3 --master 127.0.0.1:"$_p" --timeout 4 \
			>"$TMP/m$_r.out" 2>"$TMP/m$_r.err" &
		eval "P$_r=\$!"
	done
	RCS=
	for _r in 0 1 2; do
		eval "wait \$P$_r"
		RCS="$RCS$? "
	done
	MS=$(($(now_ms) - _t0))
}

# all_say PATTERN: whether each of the three ranks' stderr has a line matching PATTERN
all_say() {
	for _r in 0 1 2; do grep -q "$1" "$TMP/m$_r.err" || return 1; done
}

# ---- calls that differ after the first row, both by lines: 16 bytes against 32 ----
three "allreduce -b 8 -e 16 -f 2 -n 200" "allreduce -b 8 -e 16 -f 2 -n 200" \
	"allreduce -b 8 -e 32 -f 4 -n 200"
[ "$RCS" = "2 2 2 " ]
_report $? "count mismatch between allreduces by lines: every rank exits 2" "$RCS" "$(cat "$TMP"/m*.err)"
all_say "^hcclctl: verdict: mismatch: .*count 4 .*count 8\|^hcclctl: verdict: mismatch: .*count 8 .*count 4"
_report $? "  each rank's verdict names the count, with both values" "$(cat "$TMP"/m*.err)"

# ---- a rank that sends frames (a 1 KiB allreduce) where the others wait for its line ----
three "allreduce -b 8 -e 16 -f 2 -n 200" "allreduce -b 8 -e 16 -f 2 -n 200" \
	"allreduce -b 8 -e 1K -f 128 -n 200"
[ "$RCS" = "2 2 2 " ] && [ "$MS" -lt 3000 ]
_report $? "frames where lines were awaited: every rank exits 2 before the 4 s timeout" \
	"$RCS after $MS ms" "$(cat "$TMP"/m*.err)"
all_say "^hcclctl: verdict: mismatch: .*count 4 but rank 2 has count 256"
_report $? "  each rank's verdict names the counts: 4 by lines, 256 in frames" "$(cat "$TMP"/m*.err)"

# ---- a rank that waits on lines sleeps on the line's word and the writer wakes it there.
# HCCLCTL_SPIN_US=0: every wait sleeps at once ----
if command -v strace >/dev/null 2>&1; then
	strace -f -qq -e trace=futex_waitv,futex -o "$TMP/futex.trace" \
		env HCCLCTL_SPIN_US=0 "$HCCLCTL" run allreduce --local 2 -b 8 -e 8 -n 1000 -w 0 \
		-c 1 --timeout 60 </dev/null >"$TMP/futex.out" 2>"$TMP/futex.err"
	RC=$?
	ERR=$(cat "$TMP/futex.err")
	check_rc 0 "8-byte allreduce by lines under strace, no polling: exit 0"
	# a line's word holds seq << 1 with the sleeping bit: an odd value
	grep -o 'futex_waitv(\[{val=0x[0-9a-f]*[13579bdf], uaddr=0x[0-9a-f]*' "$TMP/futex.trace" |
		sed 's/.*uaddr=//' | sort -u >"$TMP/slept"
	grep 'futex(0x[0-9a-f]*, FUTEX_WAKE, 1' "$TMP/futex.trace" |
		sed 's/.*futex(\(0x[0-9a-f]*\),.*/\1/' | sort -u >"$TMP/woken"
	[ -s "$TMP/slept" ] && [ -n "$(comm -12 "$TMP/slept" "$TMP/woken")" ]
	_report $? "  a rank slept on a line's word and the other woke it there (FUTEX_WAKE)" \
		"$(wc -l <"$TMP/slept") words slept on" "$(head -5 "$TMP/futex.trace")"
else
	skip "strace is not installed: the exit under strace is not checked"
	skip "strace is not installed: the futex sleep and wake on lines are not checked"
fi

done_testing
