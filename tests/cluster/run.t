# hcclctl run --ssh across network namespaces, what a stop must do in time: the launcher
# terminated, Ctrl-C (a request each run-node passes to its ranks, which stop together at
# the next row) and a second Ctrl-C, with nothing left running on any node. The rest of
# run --ssh is run-ssh.t. Run as root (`ip netns`); skips elsewhere.
# harness: alone (a Ctrl-C must stop each row within run-node's 3 s grace: beside a neighbour on
# a loaded machine the ranks took longer and were killed, 2 failures; it did so once more in the
# foreground with niced fillers beside it, in a clean-clone run of 2026-12-06)
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/netns.sh"
. "$(dirname "$0")/runlib.sh"

run_cluster_up

# ---- the launcher terminated (TERM): the remote ranks do not outlive it ----
long_run int "$RT"
[ "$(cat "/proc/$launcher/comm" 2>/dev/null)" = hcclctl ]
_report $? "mid-run: the launcher is pid $launcher" "$(ps -o pid,args -p "$launcher")"
kill -TERM "$launcher"
await_launcher 100
check_rc 143 "the launcher terminated mid-run: exit 143 (128 + TERM)"
err_has "hcclctl: run allreduce: interrupted by Terminated: stopped every rank"
_report $? "  says so" "$ERR"
none_left
_report $? "  no hcclctl left on any node" "$(node_procs)"

# ---- Ctrl-C: a request, not a cancel. Each run-node gets "interrupt" on its stdin and
# passes it to its ranks as SIGINT; they stop together at the next row, as under --local ----
# int_run NAME [ARGS...]: a sweep of short rows over $RT in the background (lpid and
# launcher as in long_run) until its 4 ranks run, and with text output until rank 0's first
# row is back (up to 60 s each); pids: the ranks' "I:PID". A row must end well within
# run-node's 3 s grace, or the stop arrives as a kill.
int_run() {
	_lr=$1
	shift
	cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" run allreduce --ranktable "$RT" --ssh \
		--ssh-user root --ssh-key "$CL_KEY" --ssh-known-hosts "$CL_KNOWN_HOSTS" \
		--remote-hcclctl "$HCCLCTL" -b 8 -e 64K -n 5000 -w 1 "$@" \
		>"$TMP/$_lr.out" 2>"$TMP/$_lr.err" &
	lpid=$!
	_t=0
	until [ "$(rank_procs | wc -l)" = 4 ] || [ $_t -ge 600 ]; do
		sleep 0.1
		_t=$((_t + 1))
	done
	_t=0
	until [ "${1:-}" = --json ] || grep -q '^ *[0-9]' "$TMP/$_lr.out" || [ $_t -ge 600 ]; do
		sleep 0.1
		_t=$((_t + 1))
	done
	# --json shows no row until the end: give the ranks the time of a few short rows
	[ "${1:-}" = --json ] && sleep 3
	pids=$(rank_procs)
	launcher=$(pgrep -P "$lpid")
}
# gone: none of $pids runs any more
gone() {
	for _e in $pids; do
		kill -0 "${_e#*:}" 2>/dev/null && return 1
	done
	return 0
}

int_run i
[ "$(printf '%s\n' "$pids" | wc -l)" = 4 ] && [ "$(cat "/proc/$launcher/comm" 2>/dev/null)" = hcclctl ]
_report $? "Ctrl-C: mid-run, 4 ranks and the launcher (pid $launcher)" "$(node_tree)"
kill -INT "$launcher"
await_launcher 300
OUT=$(cat "$TMP/i.out")
check_rc 130 "Ctrl-C of run --ssh: exit 130"
check_err "hcclctl: run allreduce: interrupted" "  says interrupted, as --local does, and nothing else"
out_has "# Interrupted          : after "
_report $? "  rank 0's footer says after how many sizes" "$OUT"
printf '%s\n' "$OUT" | grep -q '^ *8 '
_report $? "  with the rows measured before it" "$OUT"
gone
_report $? "  the 4 ranks ended ($(echo $pids))" "$(node_tree)"
none_left
_report $? "  no hcclctl left on any node" "$(node_tree)"

int_run j --json
kill -INT "$launcher"
await_launcher 300
check_rc 130 "Ctrl-C of run --ssh --json: exit 130"
check_err "hcclctl: run allreduce: interrupted" "  says interrupted"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["interrupted"] is True and len(d["results"]) > 0 and d["exit_code"] == 130, d
' "$TMP/j.out"
_report $? "  one JSON document: rank 0's rows so far and interrupted: true" "$(cat "$TMP/j.out")"
gone && none_left
_report $? "  no hcclctl left on any node" "$(node_tree)"

# ---- a rank killed after some rows, with --json: the document keeps what was measured ----
int_run jk --json
victim=$(printf '%s\n' "$pids" | grep '^3:' | cut -d: -f2)
kill -KILL "$victim"
await_launcher 300
check_rc 2 "a rank killed after some rows, --json: exit 2"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit_code"] == 2 and d["verdict"]["rank"] == 2, d
assert len(d["results"]) > 0 and all(r["wrong"] == 0 for r in d["results"]), d["results"]
' "$TMP/jk.out"
_report $? "  one JSON document: the verdict, and rank 0's rows measured before the kill" "$(cat "$TMP/jk.out")"
gone && none_left
_report $? "  no hcclctl left on any node" "$(node_tree)"

# A row that does not end (1000000 iterations): run-node stops its ranks 3 s after the
# request, and the launcher says so.
long_run g "$RT"
kill -INT "$launcher"
await_launcher 300
check_rc 130 "Ctrl-C in a row that does not end: exit 130"
err_has "hcclctl: run allreduce: interrupted: 4 ranks did not stop within 3 s and were killed"
_report $? "  says that they were killed" "$ERR"
none_left
_report $? "  no hcclctl left on any node" "$(node_tree)"

# A second Ctrl-C does not wait: the sessions are cancelled at once, as before.
long_run g2 "$RT"
kill -INT "$launcher"
sleep 0.5
kill -INT "$launcher"
await_launcher 300
check_rc 130 "a second Ctrl-C: exit 130"
err_has "hcclctl: run allreduce: interrupted by Interrupt: stopped every rank"
_report $? "  the sessions were cancelled" "$ERR"
none_left
_report $? "  no hcclctl left on any node" "$(node_tree)"

done_testing
