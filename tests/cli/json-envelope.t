#!/bin/sh
# Every --json document, whatever the command and whether it failed, says what made it: its
# schema, hcclctl's version, commit and build id, the command line, the start time, the
# value of every option, and the exit code the process ended with; a failure's reason is in
# the document, not only on stderr.
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"
VERSION=$(sed -n 's/^VERSION := //p' Makefile)
L=tests/data/real-logs/amica-11-mpich-gethostbyname-failed

# envelope NAME SCHEMA: checks the document in $OUT against the run just made ($RC, argv in
# $TMP/argv, one word a line) and the time window around it
envelope() {
	printf '%s' "$OUT" >"$TMP/doc.json"
	ok "python3 - '$TMP/doc.json' '$TMP/argv' '$2' '$RC' '$VERSION' '$T0' '$T1' <<'EOF'
import json, sys
doc, argv, schema, rc, version, t0, t1 = sys.argv[1:]
d = json.load(open(doc))
assert d['schema'] == schema, d['schema']
assert d['hcclctl']['version'] == version, d['hcclctl']
assert d['hcclctl']['build_id'] and d['hcclctl']['commit'], d['hcclctl']
want = open(argv).read().split('\n')[:-1]
assert d['command'][1:] == want, (d['command'], want)
assert t0 <= d['started'] <= t1, (t0, d['started'], t1)
assert isinstance(d['parameters'], dict), d['parameters']
assert d['exit_code'] == int(rc), (d['exit_code'], rc)
EOF" "$1: schema $2, version, command line, start time, parameters, exit code $RC"
}

# jrun WORD...: runs hcclctl --json WORD... between two UTC timestamps
jrun() {
	printf '%s\n' --json "$@" >"$TMP/argv"
	T0=$(date -u +%Y-%m-%dT%H:%M:%S.000Z)
	run hcclctl --json "$@"
	T1=$(date -u +%Y-%m-%dT%H:%M:%S.999Z)
}

jrun --version
envelope "--version" hcclctl-version/1

jrun ranktable validate tests/data/gen/2srv_2dev_host_ip.json
envelope "validate, valid" hcclctl-ranktable-validate/1

jrun ranktable validate "$TMP/nosuch.json"
check_rc 3 "validate of a missing file exits 3"
envelope "validate, missing file" hcclctl-ranktable-validate/1
ok "python3 -c '
import json,sys
e=json.load(open(sys.argv[1]))[\"error\"]
assert e[\"where\"] == \"ranktable validate\" and \"cannot open\" in e[\"message\"] and \"nosuch.json\" in e[\"message\"], e
' '$TMP/doc.json'" "validate, missing file: the reason is in the document too"

jrun ranktable validate --wait nonsense x.json
check_rc 64 "a bad option value exits 64"
envelope "a bad option value" hcclctl-ranktable-validate/1

jrun ranktable nosuch
check_rc 64 "an unknown subcommand exits 64"
envelope "an unknown subcommand" hcclctl/1

jrun doctor --logs "$L"
envelope "doctor --logs" hcclctl-doctor/1
ok "python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
assert d[\"parameters\"][\"logs\"] == \"$L\", d[\"parameters\"]
assert d[\"nodes\"] == [\"node0\"], d[\"nodes\"]
' '$TMP/doc.json'" "doctor --logs: the option's value, and the node whose logs were read"
run hcclctl doctor --logs "$L"
check_out_has "0 passed, 0 warnings, 1 failed, 0 skipped on 1 node" "the text says the same one node"

jrun analyze tests/data/flight/ok/rank0.json tests/data/flight/ok/rank1.json tests/data/flight/ok/rank2.json tests/data/flight/ok/rank3.json
envelope "analyze" hcclctl-analyze/1

jrun run allreduce --local 2 -b 8 -e 8 -n 1 -w 0
check_rc 0 "run --local 2 exits 0"
envelope "run" hcclctl-run-allreduce/1
ok "python3 -c '
import json,sys
p=json.load(open(sys.argv[1]))[\"parameters\"]
assert p[\"local\"] == 2 and p[\"iters\"] == 1 and p[\"warmup-iters\"] == 0, p
' '$TMP/doc.json'" "run: the iterations, warmup and ranks it ran with"
# a run that fails keeps in its document the rows measured before the failure, as the text does:
# rank 1's third HcclAllReduce fails (the test libraries of tests/stub), after the first size
export LD_LIBRARY_PATH="$(pwd)/build/tests/stub" HCCL_STUB_ERROR_RANK=1 HCCL_STUB_ERROR_CODE=9 HCCL_STUB_AT=3
run "$HCCLCTL" run allreduce --local 3 --engine hccl -b 8 -e 64 -n 1 -w 0
check_rc 2 "a run whose rank fails: exit 2"
text_rows=$(printf '%s\n' "$OUT" | grep -c '^ *[0-9]')
jrun run allreduce --local 3 --engine hccl -b 8 -e 64 -n 1 -w 0
envelope "a failed run" hcclctl-run-allreduce/1
ok "[ $text_rows -ge 1 ] && python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
assert [r[\"size_bytes\"] for r in d[\"results\"]] == [8 * 2 ** i for i in range(int(sys.argv[2]))], d[\"results\"]
assert d[\"verdict\"][\"kind\"] == \"hccl-error\", d[\"verdict\"]
' '$TMP/doc.json' $text_rows" "  its document keeps the $text_rows row(s) the text printed before the failure"
done_testing
