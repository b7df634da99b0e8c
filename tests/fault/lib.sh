# Helpers for the fault-injection tests (sourced after tests/cli/lib.sh).
#   bg_run NAME CMD...        runs CMD in the background, stdout/stderr in $TMP/NAME.out/.err;
#                             $BG is its pid
#   child_rank L R            the pid of rank R among the forked ranks of launcher L
#                             (they are named hcclctl-rR)
#   wait_for FILE TEXT MS     waits until FILE has a line containing TEXT; prints the ms it took
#                             (or MS+1 when it never came)
#   wait_gone PID MS          waits until PID has exited; 0 if it did
#   now_ms                    a monotonic-enough clock in ms
#   pick_ranks L R N, none_left PID...   (below)
now_ms() { echo $(($(date +%s%N) / 1000000)); }

bg_run() {
	_name=$1
	shift
	"$@" >"$TMP/$_name.out" 2>"$TMP/$_name.err" &
	BG=$!
}

child_rank() {
	for _p in $(pgrep -P "$1"); do
		[ "$(cat "/proc/$_p/comm" 2>/dev/null)" = "hcclctl-r$2" ] && echo "$_p" && return 0
	done
	return 1
}

wait_for() {
	_t0=$(now_ms)
	while ! grep -qF -- "$2" "$1" 2>/dev/null; do
		if [ $(($(now_ms) - _t0)) -gt "$3" ]; then
			echo $(($3 + 1))
			return 1
		fi
		sleep 0.02
	done
	echo $(($(now_ms) - _t0))
}

wait_gone() {
	_t0=$(now_ms)
	while kill -0 "$1" 2>/dev/null; do
		[ $(($(now_ms) - _t0)) -gt "$2" ] && return 1
		sleep 0.02
	done
	return 0
}

# all_gone MS PID...: whether every one of them ends within MS ms of the wait for it
all_gone() {
	_ms=$1
	shift
	_left=0
	for _p in "$@"; do wait_gone "$_p" "$_ms" || _left=1; done
	return $_left
}

# The JSON verdict of a --json run's stdout, as "kind rank link_from link_to collective".
json_verdict() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = d["verdict"]
l = v["link"] or {"from": "-", "to": "-"}
print(v["kind"], v["rank"] if v["rank"] is not None else "-", l["from"], l["to"],
      v["collective"] or "-")' "$1"
}

# pick_ranks L R N: VICTIM is the pid of rank R among launcher L's N ranks, OTHERS the pids
# of the rest; fails when rank R is not found.
pick_ranks() {
	VICTIM=$(child_rank "$1" "$2")
	_ok=$?
	OTHERS=
	_r=0
	while [ "$_r" -lt "$3" ]; do
		[ "$_r" -ne "$2" ] && OTHERS="$OTHERS $(child_rank "$1" "$_r")"
		_r=$((_r + 1))
	done
	return $_ok
}

# none_left PID...: whether none of them is still running
none_left() {
	for _p in "$@"; do kill -0 "$_p" 2>/dev/null && return 1; done
	return 0
}

# faulted NAME R N CMD...: CMD (a --local run of N ranks) in the background as NAME, once its
# table has begun: L its launcher, VICTIM rank R's pid, OTHERS the rest; 1 when rank R is not
# found
faulted() {
	_fn=$1 _fr=$2 _fc=$3
	shift 3
	bg_run "$_fn" "$@"
	L=$BG
	wait_for "$TMP/$_fn.out" "# hcclctl run allreduce" 10000 >/dev/null
	sleep 1
	pick_ranks "$L" "$_fr" "$_fc"
}

# survivors_name FILE R RANK...: whether each RANK's line in FILE names rank R
survivors_name() {
	_sf=$1 _sr=$2
	shift 2
	for _s in "$@"; do
		grep "^hcclctl: run allreduce: rank $_s (host " "$_sf" | grep -qF "rank $_sr (host " ||
			return 1
	done
	return 0
}

# fault_verdict SIG R KIND NAME WHERE [OK]: SIG to VICTIM, rank R of launcher L run as NAME
# (faulted or pick_ranks set them; OK: 0 when rank R was found); checks that NAME's stderr
# names rank R in a KIND verdict within BUDGET ms (MS: how long it took, also printed), then
# that the launcher ends and exits 2 (RC and ERR set as check_rc reads them)
fault_verdict() {
	_vs=$1 _vr=$2 _vk=$3 _vn=$4 _vw=$5 _vok=${6:-0}
	kill -"$_vs" "$VICTIM"
	MS=$(wait_for "$TMP/$_vn.err" "hcclctl: verdict: $_vk: rank $_vr (host " 8000)
	[ "$_vok" -eq 0 ] && [ "$MS" -le "$BUDGET" ]
	_report $? "SIG$_vs of rank $_vr $_vw: $_vk naming rank $_vr within ${BUDGET} ms" \
		"after $MS ms" "$(cat "$TMP/$_vn.err")"
	echo "# $_vk (SIG$_vs), $_vw: verdict after $MS ms"
	wait_gone "$L" 10000
	_report $? "  the launcher ends"
	wait "$L"
	RC=$?
	ERR=$(cat "$TMP/$_vn.err")
	check_rc 2 "  exit 2"
}
