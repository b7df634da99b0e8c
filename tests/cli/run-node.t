# hcclctl run-node, the remote parent of one server's ranks under run --ssh, run here with
# no SSH: it forks a rank per --ranks entry, relays their lines tagged with the rank and
# then each rank's end, and stops its ranks when its stdin ends (the session is gone).
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"
# ranks of another launcher share one secret (HCCLCTL_SECRET), as a real job must
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_SECRET

run hcclctl run-node -- run barrier
check_rc 64 "no --ranks: usage error"
check_err "hcclctl: run-node: invalid --ranks ''" "  says so"
run hcclctl run-node --ranks 0,x -- run barrier
check_rc 64 "--ranks 0,x: usage error"
run hcclctl run-node --ranks 0 -- ls -l
check_rc 64 "words that are not 'run ...': usage error"
check_err "hcclctl: run-node: give the rank's words: -- run COLL ..." "  says so"
run hcclctl help
! printf '%s\n' "$OUT$ERR" | grep -q run-node
_report $? "hidden from help" "$OUT"
! hcclctl --completion-words | grep -qx run-node
_report $? "and from completion"

# Two ranks that cannot meet (nothing listens on port 1): each ends with exit 2, told as a
# tagged line after its own tagged stderr. stdin stays open (a fifo a sleep holds).
mkfifo "$TMP/in"
sleep 30 >"$TMP/in" &
sp=$!
HCCLCTL_CONNECT_TIMEOUT=1 "$HCCLCTL" run-node --ranks 3,5 -- run barrier --world-size 8 \
	--master 127.0.0.1:1 --timeout 1 <"$TMP/in" >"$TMP/out" 2>"$TMP/err"
RC=$?
kill "$sp"
wait "$sp" 2>/dev/null
check_rc 2 "two ranks that fail: run-node exits 2 (their worst)"
tag=$(printf '\037')
[ "$(sort "$TMP/out")" = "$(printf '%s3=exit 2\n%s5=exit 2' "$tag" "$tag")" ]
_report $? "  stdout: each rank's end, tagged" "$(od -c "$TMP/out" | head)"
awk -v t="$tag" 'index($0, t "3 ") != 1 && index($0, t "5 ") != 1 {bad++} END {exit bad || !NR}' "$TMP/err"
_report $? "  stderr: only the ranks' lines, each tagged with its rank" "$(cat "$TMP/err")"
grep -q "^${tag}3 hcclctl: run barrier: .*no rendezvous at 127.0.0.1:1" "$TMP/err"
_report $? "  rank 3's own error, as it wrote it" "$(cat "$TMP/err")"

# stdin at its end from the start: the session is gone, so the ranks (which would wait 30 s
# for the rendezvous) are stopped at once
t0=$(date +%s%N)
HCCLCTL_CONNECT_TIMEOUT=30 "$HCCLCTL" run-node --ranks 0,1 -- run barrier --world-size 2 \
	--master 127.0.0.1:1 --timeout 30 </dev/null >"$TMP/out" 2>"$TMP/err"
RC=$?
ms=$((($(date +%s%N) - t0) / 1000000))
check_rc 143 "stdin ended: run-node stops its ranks (TERM) and exits 143"
[ "$ms" -lt 5000 ]
_report $? "  within 5 s, not the ranks' 30 s ($ms ms)"
[ ! -s "$TMP/out" ]
_report $? "  and tells nobody (nothing on stdout)" "$(cat "$TMP/out")"

# Ctrl-C of `run --ssh` reaches run-node as the line "interrupt" on its stdin (libssh2 cannot
# send a signal): its ranks stop together at the next row, rank 0's rows so far and its
# footer are relayed, each rank ends with 130, run-node too, and no rank is left behind.
# A row must end well within run-node's grace of 3 s (RUN_INTERRUPT_GRACE_MS) before it
# stops them with TERM: 4000 iterations of each size take under a second even built with
# ASan beside other tests (20000 took 3.1 s for the first row of one clean-clone run, which
# then ended in TERM).
mkfifo "$TMP/in2"
sleep 120 >"$TMP/in2" &
sp=$!
"$HCCLCTL" run-node --ranks 0,1 -- run allreduce --world-size 2 \
	--master "127.0.0.1:$(free_port)" -b 8 -e 8K -n 4000 -w 1 <"$TMP/in2" >"$TMP/out" 2>"$TMP/err" &
np=$!
wait_line "$TMP/out" "^${tag}0  *[0-9]" 600 || true
ranks=$(pgrep -P "$np" | tr '\n' ' ')
echo interrupt >"$TMP/in2"
wait "$np"
RC=$?
kill "$sp"
wait "$sp" 2>/dev/null
check_rc 130 "the line 'interrupt' on stdin: run-node exits 130"
[ "$(grep -c "^${tag}[01]=" "$TMP/out")" = 2 ] && grep -q "^${tag}0=exit 130$" "$TMP/out" &&
	grep -q "^${tag}1=exit 130$" "$TMP/out"
_report $? "  each rank ended with 130 (interrupted), not by a signal" "$(cat "$TMP/out" "$TMP/err")"
grep -q "^${tag}0  *8 " "$TMP/out"
_report $? "  rank 0's rows so far are relayed" "$(cat "$TMP/out")"
grep -q "^${tag}0 # Interrupted          : after [0-9]* sizes\?$" "$TMP/out"
_report $? "  rank 0's footer says after how many sizes" "$(cat "$TMP/out")"
[ "$(echo $ranks | wc -w)" = 2 ]
_report $? "  (its two ranks were pids $ranks)"
left=
for p in $ranks; do
	kill -0 "$p" 2>/dev/null && left="$left $p"
done
[ -z "$left" ]
_report $? "  no rank left behind" "$left"

done_testing
