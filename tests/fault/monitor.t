# The monitor (the rendezvous's hang detection, in its own process under --local) killed while
# the job runs: every rank must say at once that detection is off, the job goes on, and a
# later verdict (a rank frozen, found by the deadline) says that nobody was watching.
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/lib.sh"

# the launcher's child of that name
child_named() {
	for _p in $(pgrep -P "$1"); do
		[ "$(cat "/proc/$_p/comm" 2>/dev/null)" = "$2" ] && echo "$_p" && return 0
	done
	return 1
}

W="hcclctl: run allreduce: warning"
mkdir -p "$TMP/fl"
bg_run mon "$HCCLCTL" run allreduce --local 3 -b 8 -e 8 -n 1000000 -w 0 --timeout 3 \
	--flight-dir "$TMP/fl"
L=$BG
wait_for "$TMP/mon.out" "# hcclctl run allreduce" 15000 >/dev/null
sleep 0.3
rdv=$(child_named "$L" hcclctl-rdv)
ok_rdv=$?
pick_ranks "$L" 1 3
ok_ranks=$?
[ "$ok_rdv" -eq 0 ] && [ "$ok_ranks" -eq 0 ] && kill -KILL "$rdv"
_report $? "the monitor's process (hcclctl-rdv, pid ${rdv:-?}) found among the launcher's and killed" \
	"launcher $L: $(pgrep -P "$L" | tr '\n' ' ')"
worst=0
for r in 0 1 2; do
	ms=$(wait_for "$TMP/mon.err" "$W: rank $r: the job's monitor is gone (its connection closed without a goodbye): hang detection is off, a stuck rank is found only at the deadline (--timeout)" 3000)
	[ "$ms" -gt "$worst" ] && worst=$ms
done
[ "$worst" -le 3000 ] && [ "$(grep -c "the job's monitor is gone" "$TMP/mon.err")" -eq 3 ]
_report $? "every rank warns once that the monitor is gone, within 3 s (last after $worst ms)" \
	"$(cat "$TMP/mon.err")"
echo "# monitor killed: the last rank's warning after $worst ms"
sleep 1
kill -0 "$VICTIM" 2>/dev/null && kill -0 $OTHERS 2>/dev/null && kill -0 "$L" 2>/dev/null
_report $? "  ... and the job goes on without it (the ranks and the launcher still run 1 s later)" \
	"$(cat "$TMP/mon.err")"

# rank 1 frozen now: no monitor to name it, the deadline does, and the verdict says so
kill -STOP "$VICTIM"
ms=$(wait_for "$TMP/mon.err" "hcclctl: verdict: stuck-rank: " 10000)
line=$(grep "^hcclctl: verdict: " "$TMP/mon.err")
case $line in
*"waiting for rank 1 (host "*"(hang detection was off: the job's monitor had gone "*" s before)") r=0 ;;
*) r=1 ;;
esac
_report $r "a rank frozen afterwards: verdict stuck-rank naming rank 1, saying detection was off" \
	"after $ms ms: $line" "$(cat "$TMP/mon.err")"
wait_gone "$L" 10000
wait "$L"
RC=$?
ERR=$(cat "$TMP/mon.err")
check_rc 2 "  ... exit 2"
none_left "$VICTIM" $OTHERS "$rdv"
_report $? "  ... no rank left running" "$(ps -o pid,stat,comm -p "$VICTIM" $OTHERS 2>/dev/null)"
kill -CONT "$VICTIM" 2>/dev/null

done_testing
