#!/bin/sh
# hcclctl run: counts that mean nothing are refused; a closed stdout and Ctrl-C end the run
# the way a shell expects.
# harness: foreground (its deadlines are measured in wall-clock time)
. "$(dirname "$0")/lib.sh"

# -n 0 measured nothing and printed a bandwidth from a time of zero
for a in "-n 0:0:iters:1 to 1000000" "-n -1:-1:iters:1 to 1000000" \
	"--iters 99999999999999999999:99999999999999999999:iters:1 to 1000000" \
	"-w -1:-1:warmup-iters:0 to 1000000" "-f 1:1:stepfactor:2 to 1024" \
	"--local 0:0:local:1 to 4096" "--timeout 0:0:timeout:1 to 86400"; do
	opt=${a%%:*}; rest=${a#*:}; val=${rest%%:*}; rest=${rest#*:}; name=${rest%%:*}; range=${rest#*:}
	run hcclctl run allreduce --local 2 -e 64 $opt
	check_rc 64 "run $opt: usage error"
	check_err "hcclctl: run allreduce: invalid value '$val' for --$name
hint: a whole number from $range" "run $opt: the message names --$name"
	check_out "" "run $opt: no row"
done
for a in "-b -5:minbytes" "-e 99999999999999999999G:maxbytes" "-e 1X:maxbytes"; do
	opt=${a%%:*}; name=${a#*:}; val=${opt#* }
	run hcclctl run allreduce --local 2 $opt
	check_rc 64 "run $opt: usage error"
	check_err "hcclctl: run allreduce: invalid value '$val' for --$name
hint: sizes are bytes with K, M or G, e.g. -b 8 -e 64M" "run $opt: the message names --$name"
done
run hcclctl run allreduce --local 2 -b 8 -e 64 -n 1 -w 0
check_rc 0 "-n 1 -w 0 still runs"

# A closed stdout (`run ... | head -2`) ends the run as `seq | head` ends: no verdict, no
# flight recorder, nothing on stderr, and the exit status of a write to a closed pipe (the
# shell's 141 = 128 + SIGPIPE, by the signal itself).
mkdir "$TMP/fl"
{ "$HCCLCTL" run allreduce --local 4 -b 8 -e 64K -n 2 -w 1 --flight-dir "$TMP/fl" 2>"$TMP/pipe.err"
  echo $? >"$TMP/pipe.rc"; } | head -2 >"$TMP/pipe.out"
ok "[ \"\$(cat '$TMP/pipe.rc')\" = 141 ]" "closed stdout: exit 141, as a shell sees seq | head (got $(cat "$TMP/pipe.rc"))"
ERR=$(cat "$TMP/pipe.err")
check_err "" "closed stdout: nothing on stderr (no dead rank)"
ok "[ -z \"\$(ls -A '$TMP/fl')\" ]" "closed stdout: no flight recorder written"
OUT=$(cat "$TMP/pipe.out")
check_out "# hcclctl run allreduce: 4 ranks (local), fp32 sum, algo auto, iters 2, warmup 1, check on, engine libcomm
#" "what head asked for"
cat >"$TMP/exit.py" <<'PY'
import subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
p.stdout.close()  # before the document is written
print(p.wait())
PY
run python3 "$TMP/exit.py" "$HCCLCTL" --json run allreduce --local 2 -b 8 -e 64K -n 2 -w 1
check_out "-13" "closed stdout under --json: ended by SIGPIPE itself"

# Ctrl-C: "interrupted", the rows so far and the average over them, every rank reaped, 130
IR="python3 tests/cli/run-interrupt.py"
run $IR group 30 "$TMP/i.out" "$TMP/i.err" -- "$HCCLCTL" run allreduce --local 3 -b 1K -e 1M -n 300 -w 1 --flight-dir "$TMP/fl"
check_out "rc=130 left=[]" "Ctrl-C: exit 130 and no rank left to a subreaper"
ERR=$(cat "$TMP/i.err")
check_err "hcclctl: run allreduce: interrupted" "Ctrl-C: says interrupted, no verdict"
ok "grep -q '^ *1024 ' '$TMP/i.out'" "Ctrl-C: the rows measured are printed"
ok "grep -q '^# Interrupted          : after [0-9]* sizes\\?$' '$TMP/i.out'" "Ctrl-C: the footer says after how many sizes"
ok "grep -q '^# Avg bus bandwidth' '$TMP/i.out'" "Ctrl-C: and the average of those"
ok "[ -z \"\$(ls -A '$TMP/fl')\" ]" "Ctrl-C: no flight recorder written"

# (--json writes its rows at the end, so the signal goes after 2 s: rows of 2000 iterations
# end within that and within the launcher's grace of 3 s whether built with ASan or not, and
# -N 0 sweeps until the signal, so the run is still going when it comes; 30000 iterations and
# one sweep left none of the rows done at 1.5 s under ASan beside other tests in one
# clean-clone run)
run $IR launcher 2 "$TMP/k.out" "$TMP/k.err" -- "$HCCLCTL" --json run allreduce --local 3 -b 8 -e 8K -n 2000 -w 1 -N 0
check_out "rc=130 left=[]" "kill -INT of the launcher alone: passed on to the ranks, 130, all reaped"
ok "python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
assert d[\"interrupted\"] is True and len(d[\"results\"]) > 0, d
' '$TMP/k.out'" "--json: one document with the rows so far and interrupted: true"

# rank 0 killed in a row (SIGKILL, no document of its own): the rows it measured before are in
# the launcher's document, left in its shared page as each was measured
run $IR rank0 2 "$TMP/r0.out" "$TMP/r0.err" -- "$HCCLCTL" --json run allreduce --local 2 -b 8 -e 8 -n 2000 -w 1 -N 0 --flight-dir "$TMP/fl0"
check_out "rc=2 left=[]" "rank 0 killed by SIGKILL: a failed job (exit 2), every rank reaped"
ok "grep -q '^hcclctl: run allreduce: rank 0 (pid [0-9]*) was killed by signal 9 (Killed)$' '$TMP/r0.err'" "  rank 0 named as killed"
ok "python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
assert len(d[\"results\"]) > 0 and d[\"results\"][0][\"size_bytes\"] == 8, d
' '$TMP/r0.out'" "  --json: the launcher's document keeps the rows rank 0 measured before it was killed"

# a row that does not end: the ranks are killed after the grace, and reaped
run $IR launcher 1.5 "$TMP/g.out" "$TMP/g.err" -- "$HCCLCTL" run allreduce --local 2 -b 4M -e 4M -n 1000000 -w 0
check_out "rc=130 left=[]" "Ctrl-C in a long row: 130, all reaped"
ERR=$(cat "$TMP/g.err")
check_err "hcclctl: run allreduce: interrupted: 2 ranks did not stop within 3 s and were killed" "and says that they were killed"
done_testing
