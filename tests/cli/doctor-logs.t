#!/bin/sh
# doctor --logs on real failed jobs: every case under tests/data/real-logs (logs users posted
# in public threads, README there) must give the kind and culprit its CASE.expect names; then
# the inputs (a directory, one file, stdin, gzip), what was read, and the exit codes.
. tests/cli/lib.sh

REAL=tests/data/real-logs

# Compares each case's verdict with its expect file, all in one run (a Python start per case
# was a second of CPU per ten cases): reads the --each document (EACH-JSON) and
# "N<TAB>CASE<TAB>EXPECT" lines, job N of the document being CASE's, and prints
# "N<TAB>CASE<TAB>EXIT<TAB>mismatches" (joined by "; ", empty when none), one line per case.
cat >"$TMP/cmp.py" <<'EOF2'
import json, sys
try:
    jobs = json.load(open(sys.argv[1]))['jobs']
except (ValueError, KeyError) as e:
    jobs = []
    print("0\t-\t3\tstdout is not one --each document: %s" % e)
for row in sys.stdin:
    n, case, expf = row.rstrip('\n').split('\t')
    exp = {}
    for line in open(expf):
        if ':' in line:
            k, v = line.split(':', 1)
            exp[k.strip()] = v.strip()
    if int(n) > len(jobs):
        print("%s\t%s\t3\tno report for it in the document" % (n, case))
        continue
    doc = jobs[int(n) - 1]
    miss = []
    if not doc['logs']['path'].rstrip('/').endswith('/' + case):
        miss.append("the report is of %s" % doc['logs']['path'])
    c = doc.get('cause') or {}
    devs = [str(d) for d in c.get('devices') or []]
    for k, v in exp.items():
        if k == 'todo':
            continue
        if k == 'devices':
            got = ','.join(devs)
        elif k == 'device':  # a device named by its PCI address or RDMA name: pci, nic
            got = v if v in devs or v in (c.get('pci'), c.get('nic')) else c.get('device')
        elif k == 'kind' and v == 'none':
            got = c.get(k) or 'none'  # a pass names no cause
        else:
            got = c.get(k)
        if str(got) != v:
            miss.append("%s: expected %s, got %s" % (k, v, got))
    print("%s\t%s\t%s\t%s" % (n, case, doc['exit_code'], '; '.join(miss)))
EOF2

# every case in one process: --each judges each directory alone, as a run of its own would
mkdir "$TMP/cases"
k=0
set --
for dir in "$REAL"/*/; do
	case=$(basename "$dir")
	exp=$REAL/$case.expect
	[ -f "$exp" ] || continue
	k=$((k + 1))
	set -- "$@" "$dir"
	printf '%s\t%s\t%s\n' "$k" "$case" "$exp" >>"$TMP/cases/list"
done
run hcclctl --json doctor --each --logs "$@"
printf '%s' "$OUT" >"$TMP/cases/each.json"
python3 "$TMP/cmp.py" "$TMP/cases/each.json" <"$TMP/cases/list" >"$TMP/cases/miss"
while IFS='	' read -r i case RC miss; do
	exp=$REAL/$case.expect
	want=$(sed -n 's/^kind: //p' "$exp")
	todo=$(sed -n 's/^todo: //p' "$exp")
	# a cause the rules know fails the job; only lines no rule explains are a warning; a
	# healthy run (kind none) passes
	wrc=2
	[ "$want" = none ] && wrc=0
	# a cause the log does not show: error lines no rule explains are a warning
	# ("unclassified"), and a failure no rule names (a crash, an exception) fails
	[ "$want" = unresolved ] && [ "$RC" -eq 1 ] && wrc=1
	[ "$RC" -eq "$wrc" ] || miss="$miss${miss:+; }exit $RC, expected $wrc"
	_n=$((_n + 1))
	if [ -z "$miss" ]; then
		echo "ok $_n - $case: $want${todo:+ # TODO $todo}"
	elif [ -n "$todo" ]; then
		echo "not ok $_n - $case: $want # TODO $todo"
		printf '%s\n' "$miss" | tr ';' '\n' | sed 's/^ //; s/^/# /'
	else
		echo "not ok $_n - $case: $want"
		printf '%s\n' "$miss" | tr ';' '\n' | sed 's/^ //; s/^/# /'
		_failed=$((_failed + 1))
	fi
done <"$TMP/cases/miss"
[ "$k" -gt 100 ] && [ "$(grep -c '' "$TMP/cases/miss")" -eq "$k" ]
_report $? "every case was compared ($k)" "$(head -3 "$TMP/cases/miss")"

# the whole text report of one case: the check line, what was read, evidence, findings, fix
run hcclctl doctor --logs "$REAL/vllm-ascend-405-ej0003-port-60000-bound"
check_rc 2 "EJ0003 port clash: exit 2"
check_out "FAIL  logs.cause      node0                  config (port-bound): port 60000 (node node0, host side) cannot be listened on: another process holds it

0 passed, 0 warnings, 1 failed, 0 skipped on 1 node
read 1 file, 5 lines, 4 error lines
evidence:
  node0/stdout.txt:3: [rank0]: EJ0003: [PID: 159] 2025-03-26-17:01:02.816.428 Failed to bind the IP port. Reason: The IP address and port have been bound already.
  node0/stdout.txt:5: [rank0]:         host nic listen start failed, port[60000], return[11][FUNC:StartListenSocket][FILE:network_manager.cc][LINE:1163]
other findings:
  network-unreachable on node0: call-failed in HcclGetRootInfo, result 11 (HCCL_E_TCP_CONNECT), node0/stdout.txt:1
  unresolved on node0: call-failed ERR02200, node0/stdout.txt:2
most likely cause: logs.cause on node0: config (port-bound): port 60000 (node node0, host side) cannot be listened on: another process holds it
fix: find the holder (ss -ltnp | grep :PORT): a leftover job, or two jobs or processes on the same NPUs; stop it, or give each job its own ports with HCCL_IF_BASE_PORT (host side, 16 ports from it) and HCCL_NPU_SOCKET_PORT_RANGE (NPU side), and keep the kernel from handing them out (sysctl net.ipv4.ip_local_reserved_ports)" "  the report: cause, evidence lines verbatim, findings, fix"

# one file, standard input and gzip give the same verdict
f=$REAL/vllm-ascend-3413-rl-ei0002-remote-rank-24/node0/stdout.txt
want='FAIL  logs.cause      node0                  rank-stuck (timeout-elsewhere): rank 24 of group group_name_1654 (32 ranks) is the rank the others wait for: its rank 25 (job rank 101) on node node0 timed out waiting for it in AllReduce'
run hcclctl doctor --logs "$f"
check_rc 2 "one file: exit 2"
check_out_has "$want" "  rank 24 of its group, not job rank 24"
check_out_has "  stdout.txt:2: $(sed -n 2p "$f" | cut -c1-200)$(sed -n 2p "$f" | cut -c201-383)" "  the evidence named by the file's own name"
run sh -c "'$HCCLCTL' doctor --logs - <'$f'"
check_rc 2 "standard input: exit 2"
check_out_has "$want" "  the same cause"
printf '%s\n' "$OUT" | grep -q '^  stdin:2: EI0002: '
_report $? "  evidence named stdin" "$OUT"
mkdir -p "$TMP/gz/node7"
gzip -c "$f" >"$TMP/gz/node7/stdout.txt.1.gz"
run hcclctl doctor --logs "$TMP/gz"
check_rc 2 "a gzip file below DIR/NODE: exit 2"
check_out_has "$(printf '%s' "$want" | sed 's/node0  /node7  /; s/on node node0/on node node7/')" "  inflated, and named by its folder"

# what is not read is counted, and a directory with nothing to read is no pass
mkdir -p "$TMP/mixed/n1"
cp "$f" "$TMP/mixed/n1/screen.log"
printf 'ELF\001\000\002binary' >"$TMP/mixed/n1/core.bin"
printf '\037\213\010\000garbage' >"$TMP/mixed/n1/cut.gz"
ln -s /etc/passwd "$TMP/mixed/n1/link"
run hcclctl doctor --logs "$TMP/mixed"
check_rc 2 "a job directory with a binary, a bad gzip and a symlink: exit 2"
check_out_has "read 1 file, 3 lines, 2 error lines; skipped 3 (1 binary, 1 not a regular file, 1 bad gzip)" "  each skipped file counted by reason"
mkdir -p "$TMP/empty"
run hcclctl doctor --logs "$TMP/empty"
check_rc 3 "an empty directory: exit 3 (could not check)"
check_out_has "SKIP  logs.cause      cluster                nothing to read in $TMP/empty (0 files skipped)" "  nothing to read"
run hcclctl doctor --logs "$TMP/nonexistent"
check_rc 3 "a path that is not there: exit 3"
check_out_has "SKIP  logs.cause      cluster                nothing to read: cannot read '$TMP/nonexistent': No such file or directory" "  named"

# errors no rule knows, of no family, are a warning that quotes the first, never a pass
printf 'loading model\nERROR the frobnicator sneezed\nERROR second\n' >"$TMP/odd.txt"
run hcclctl doctor --logs "$TMP/odd.txt"
check_rc 1 "unknown errors: exit 1 (a warning)"
check_out_has "WARN  logs.cause      node0                  unresolved (unclassified): unclassified error line at odd.txt:2: ERROR the frobnicator sneezed" "  the first quoted, with its file and line"
run hcclctl --json doctor --logs "$TMP/odd.txt"
printf '%s' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); c=d["cause"]; e=d["evidence"][0]; sys.exit(not (c["kind"]=="unresolved" and c["status"]=="WARN" and d["logs"]["unexplained"]==2 and e["file"]=="odd.txt" and e["line"]==2))'
_report $? "  --json: kind unresolved, WARN, 2 unexplained, evidence odd.txt:2" "$OUT"
# an exception's own line says a process raised: a failure of unknown cause (exit 2)
printf 'loading model\nRuntimeError: the frobnicator sneezed\nValueError: second\n' >"$TMP/odd2.txt"
run hcclctl doctor --logs "$TMP/odd2.txt"
check_rc 2 "an exception's line of no other family: exit 2"
check_out_has "FAIL  logs.cause      node0                  unresolved (words:exception): a process raised an exception on node node0 (read from the words of odd2.txt:2, a line no rule knows): RuntimeError: the frobnicator sneezed" "  the first quoted"
printf '[INFO] HCCL(1,python):2026-01-06-15:38:29.881.877 [x.cc:1] [1]HCCL_CONNECT_TIMEOUT set by default to [120]s\nstep 10 loss 1.25\n' >"$TMP/fine.txt"
run hcclctl doctor --logs "$TMP/fine.txt"
check_rc 0 "a log without errors: exit 0"
check_out_has "PASS  logs.cause      cluster                no error in 2 lines of 1 file" "  PASS"

# a line is an error by its words, whatever its format: real lines in formats no prefix rule
# reads (MPICH's fatal error, from https://github.com/SmileiPIC/Smilei/issues/819; Gloo's
# refused connect, https://github.com/pytorch/gloo/issues/33; an NCCL WARN with an InfiniBand
# completion status and the INFO trace after it, https://github.com/NVIDIA/nccl/issues/1814)
# never pass: the catalogs of those stacks read each; MPI that could not start is the phase
# that failed, not why, so the InfiniBand completion error is the cause, quoted with its file
# and line
cat >"$TMP/stack.log" <<'EOF'
step 100 loss 1.25
Abort(1090959) on node 0 (rank 0 in comm 0): Fatal error in PMPI_Init: Other MPI error, error stack:
  what():  [enforce fail at /home/sayantan/gloo_GIT/gloo/gloo/transport/tcp/pair.cc:498] optval == 0. 111 vs 0. SO_ERROR: Connection refused
hostname-test:984:1357 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 172.36.143.59<44206> with status=12 opcode=129 len=65536 vendor err 129 (Recv) localGid ::ffff:29.87.88.182 remoteGids::ffff:29.87.4.221
hostname-test:984:1357 [4] NCCL INFO transport/net.cc:1298 -> 6
EOF
run hcclctl --json doctor --logs "$TMP/stack.log"
check_rc 2 "errors in formats no prefix rule knows: a cause, exit 2, not a pass"
printf '%s' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); l=d["logs"]; e=d["evidence"][0]; sys.exit(not (d["cause"]["kind"]=="link-down" and d["cause"]["detail"]=="ib-retry-exceeded" and l["error_lines"]==3 and e["file"]=="stack.log" and e["line"]==4))'
_report $? "  3 error lines (the INFO trace is not one), the completion error the cause: stack.log:4" "$OUT"
run hcclctl doctor --logs "$TMP/stack.log"
check_out_has "  stack.log:4: hostname-test:984:1357 [4] ib_plugin.c:1615 NCCL WARN NET/IB : Got completion from peer 172.36.143.59<44206> with status=12 opcode=129 len=65536 vendor err 129 (Recv) localGid ::ffff:29.87.88.182 remoteGids::ffff:29.87.4.221" "  its line quoted with file and line"

# only what can be read to its end is read: given by name, a device, a FIFO and a symbolic
# link to either are refused (exit 3), not read forever or waited on
mkfifo "$TMP/fifo"
ln -s /dev/zero "$TMP/zero-link"
ln -s "$TMP/fifo" "$TMP/fifo-link"
for p in "/dev/zero:a character device" "$TMP/fifo:a FIFO" \
	"$TMP/zero-link:a symbolic link to a character device" "$TMP/fifo-link:a symbolic link to a FIFO"; do
	path=${p%%:*}
	run timeout 20 "$HCCLCTL" doctor --logs "$path"
	check_rc 3 "$(basename "$path"): exit 3"
	check_out_has "SKIP  logs.cause      cluster                nothing to read: '$path' is ${p#*:}, not a log file" "  named what it is"
done
# inside a directory they are skipped and counted, and the rest is read
mkdir -p "$TMP/withfifo/n1"
cp "$REAL/vllm-ascend-405-ej0003-port-60000-bound/node0/stdout.txt" "$TMP/withfifo/n1/"
mkfifo "$TMP/withfifo/n1/pipe"
run timeout 20 "$HCCLCTL" doctor --logs "$TMP/withfifo"
check_rc 2 "a FIFO in a job directory: skipped, the log read (exit 2)"
check_out_has "read 1 file, 5 lines, 4 error lines; skipped 1 (1 not a regular file)" "  counted as not a regular file"

# a gzip file that inflates past 16 MiB at over 250:1 is a bomb: named, not inflated
mkdir -p "$TMP/bomb"
yes "step 1 loss 0.5" | head -c 40000000 | gzip -c >"$TMP/bomb/train.log.gz"
run timeout 60 "$HCCLCTL" doctor --logs "$TMP/bomb"
check_rc 3 "a gzip bomb alone: nothing to read, exit 3"
check_out_has "SKIP  logs.cause      cluster                nothing to read in $TMP/bomb (1 file skipped: 1 gzip bomb)" "  named a gzip bomb"
# counted over its members: two members of 10 MB each are one 20 MB bomb
rm -f "$TMP/bomb/train.log.gz"
for i in 1 2; do yes "step 1 loss 0.5" | head -c 10000000 | gzip -c; done >"$TMP/bomb/rotated.log.gz"
run timeout 60 "$HCCLCTL" doctor --logs "$TMP/bomb"
check_rc 3 "a gzip bomb in two members: exit 3"
check_out_has "SKIP  logs.cause      cluster                nothing to read in $TMP/bomb (1 file skipped: 1 gzip bomb)" "  named a gzip bomb"

# the last HCCLCTL_LOG_WINDOW bytes (64 MiB unless set; 4 MiB here, for the sanitizer's
# sake) of a stream are kept in a ring: a failure whose line falls across the ring's end is
# read whole (port 60000, not 60), and the start is counted as read in part
cat >"$TMP/mkring.py" <<'EOF'
import sys
cap = 4 << 20
t = open(sys.argv[1], 'rb').read()
at = t.index(b'port[60000]') + 7
sys.stdout.buffer.write(b'\n' * (cap - at))
sys.stdout.buffer.write(t)
EOF
python3 "$TMP/mkring.py" "$REAL/vllm-ascend-405-ej0003-port-60000-bound/node0/stdout.txt" >"$TMP/ring.txt"
run sh -c "cat '$TMP/ring.txt' | HCCLCTL_LOG_WINDOW=4M '$HCCLCTL' doctor --logs -"
check_rc 2 "a 4 MiB window over a longer stream: exit 2"
check_out_has "FAIL  logs.cause      node0                  config (port-bound): port 60000 (node node0, host side) cannot be listened on: another process holds it" "  the line across the ring's end read whole"
check_out_has "read 1 file, 4193723 lines, 4 error lines; 1 read in part" "  read in part"
# a regular file that large is read from its last window, not from its start
run env HCCLCTL_LOG_WINDOW=4M "$HCCLCTL" doctor --logs "$TMP/ring.txt"
check_rc 2 "the same as a file: exit 2"
check_out_has "read 1 file, 4193723 lines, 4 error lines; 1 read in part" "  only its last 4 MiB"
# the default window is 64 MiB: the 4 MiB file is read whole (its two halves on two threads
# where there are two cores: every line, and the one across the halves, counted once)
run hcclctl doctor --logs "$TMP/ring.txt"
check_out_has "read 1 file, 4193801 lines, 4 error lines" "  by default, whole"
rm -f "$TMP/ring.txt"
run env HCCLCTL_LOG_WINDOW=12 "$HCCLCTL" doctor --logs "$TMP/ring.txt"
check_rc 3 "a window that is not a size: exit 3"
check_out_has "SKIP  logs.cause      cluster                HCCLCTL_LOG_WINDOW=12 is not a size from 64K to 4G (like 64M)" "  named, with the range"
# a stream is read up to HCCLCTL_LOG_STREAM_MAX (1 GiB unless set): one that never ends is
# not read forever
run sh -c "yes '' | HCCLCTL_LOG_WINDOW=1M HCCLCTL_LOG_STREAM_MAX=16M timeout 120 '$HCCLCTL' doctor --logs -"
check_rc 3 "an endless stream of blank lines: stops at its limit, nothing to judge (exit 3)"
check_out_has "SKIP  logs.cause      cluster                nothing to judge in -: 1 file without a log line" "  nothing to judge"

# nothing to judge is no pass: an empty log, blank lines, a directory of empty files
: >"$TMP/empty.log"
run hcclctl doctor --logs "$TMP/empty.log"
check_rc 3 "an empty log: exit 3"
check_out_has "SKIP  logs.cause      cluster                nothing to judge in $TMP/empty.log: 1 file without a log line" "  SKIP, not no error in 0 lines"
printf '\n \n\t\n' >"$TMP/blank.log"
run hcclctl doctor --logs "$TMP/blank.log"
check_rc 3 "a log of blank lines: exit 3"
mkdir -p "$TMP/emptyjob/n1" "$TMP/emptyjob/n2"
: >"$TMP/emptyjob/n1/stdout.txt"
printf '\n' >"$TMP/emptyjob/n2/plog.log"
run hcclctl doctor --logs "$TMP/emptyjob"
check_rc 3 "a job directory whose files have no log line: exit 3"
check_out_has "SKIP  logs.cause      cluster                nothing to judge in $TMP/emptyjob: 2 files without a log line" "  SKIP"

# --each: each PATH a job of its own, judged as a run of its own would judge it; the exit
# code the worst (a failure, else a job not judged, else a warning)
A=$REAL/vllm-ascend-405-ej0003-port-60000-bound
printf 'step 1 done\n' >"$TMP/fine.log"
printf '[ ERROR    ] Child 0 reports failure\n' >"$TMP/warn.log"
run hcclctl doctor --each --logs "$A" "$TMP/fine.log" "$TMP/nothere"
check_rc 2 "--each, a failed job, a fine one and a path not there: exit 2"
check_out_has "==> $A <==" "  a heading for the first job"
case "$OUT" in
*"$NL$NL==> $TMP/fine.log <==${NL}PASS  logs.cause      cluster                no error in 1 line of 1 file$NL"*) true ;;
*) false ;;
esac
_report $? "  the next one after a blank line, with its own report" "$OUT"
check_out_has "SKIP  logs.cause      cluster                nothing to read: cannot read '$TMP/nothere': No such file or directory" "  the path not there is a job not judged"
[ "$(printf '%s\n' "$OUT" | tail -n 1)" = "3 jobs: 1 OK, 0 WARN, 1 FAIL, 1 UNKNOWN" ]
_report $? "  the last line counts the jobs by verdict" "$OUT"
for c in "0 $TMP/fine.log $TMP/fine.log" "1 $TMP/fine.log $TMP/warn.log" "3 $TMP/warn.log $TMP/nothere" \
	"2 $TMP/nothere $A"; do
	set -- $c
	run hcclctl doctor --each --logs "$2" "$3"
	check_rc "$1" "--each of ${2##*/} and ${3##*/}: exit $1"
done
run hcclctl --json doctor --each --logs "$A" "$TMP/fine.log" "$TMP/nothere"
check_rc 2 "--each --json: exit 2"
printf '%s' "$OUT" >"$TMP/each.json"
run hcclctl --json doctor --logs "$A"
printf '%s' "$OUT" >"$TMP/one.json"
ok "python3 - '$TMP/each.json' '$TMP/one.json' '$A' '$TMP/fine.log' '$TMP/nothere' <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
one = json.load(open(sys.argv[2]))
assert d['schema'] == 'hcclctl-doctor-each/1', d['schema']
assert d['exit_code'] == 2 and d['summary'] == {'OK': 1, 'WARN': 0, 'FAIL': 1, 'UNKNOWN': 1}, d['summary']
assert [j['logs']['path'] for j in d['jobs']] == sys.argv[3:], d['jobs']
assert [j['exit_code'] for j in d['jobs']] == [2, 0, 3]
env = ('schema', 'hcclctl', 'command', 'started', 'parameters')
assert {k: v for k, v in d['jobs'][0].items() if k not in env} == {k: v for k, v in one.items() if k not in env}
EOF" "  one document: a report per job in order, the first the same as its own run's, the counts"
for bad in "--each" "--each --logs $TMP/fine.log --hosts a,b" "--each --logs - -" \
	"--each --logs $TMP/fine.log --exit-codes npd"; do
	# shellcheck disable=SC2086
	run hcclctl doctor $bad
	check_rc 64 "doctor $bad: a usage error (64)"
	check_err_has "hcclctl: doctor: --each judges logs only, each PATH of --logs PATH [PATH...] alone: no --ranktable, --hosts, --hostfile, --local, --merge, --html, --prometheus or --exit-codes npd, and - (standard input) at most once" "  says what --each takes"
done
run hcclctl doctor --logs "$TMP/fine.log" "$TMP/warn.log"
check_rc 64 "two paths without --each: a usage error (64)"
check_err_has "hcclctl: doctor: unexpected argument '$TMP/warn.log'" "  the second path named"
check_err_has "hint: --each --logs PATH... judges each PATH as a job of its own" "  and --each offered"

done_testing
