#!/bin/sh
# doctor's table of checks: --list-checks (text and JSON), the names --checks and --skip
# take (a misspelt one is a usage error naming the closest), their completion, and the node
# running each of its steps once, only when one of the step's checks is wanted.
. "$(dirname "$0")/lib.sh"

BIN=$(pwd)/build/tests/stub/bin
export FAKE_NPU_SMI_DIR=$(pwd)/tests/data/npu-smi/a2 FAKE_HCCN_DIR=$(pwd)/tests/data/hccn_tool/a2
export HCCLCTL_NPU_SMI=$BIN/npu-smi HCCLCTL_HCCN_TOOL=$BIN/hccn_tool

# ---- --list-checks ----
run hcclctl doctor --list-checks
check_rc 0 "--list-checks: exit 0, without nodes"
[ -z "$ERR" ]; _report $? "  nothing on stderr" "$ERR"
printf '%s\n' "$OUT" >"$TMP/list"
check_out_has "node.reach       node       the node answers over SSH and its doctor --node reports" "  the first row: code, group, summary"
check_out_has "npu.ecc          npu        no DDR or HBM ECC errors, none growing during the check" "  a node check"
check_out_has "host.kernel-log  host       no hardware, PCIe AER or NPU driver errors in the kernel log" "  the longest code keeps the columns"
[ "$(tail -n 1 "$TMP/list")" = "logs.cause       logs       the most likely cause in a failed job's logs (--logs)" ]
_report $? "  the last row: the logs' cause" "$(tail -n 1 "$TMP/list")"
[ "$(sed -n 2p "$TMP/list" | cut -c1-15)" = ranktable.valid ]
_report $? "  in the report's order: the table right after the node"
# every line: a code, its group (the part before the dot) in the second column, a summary
bad=$(awk '{ split($1, p, "."); if (NF < 3 || p[1] != $2 || p[2] == "" || length($1) > 16) print }' "$TMP/list")
[ -z "$bad" ]; _report $? "  every line: code, its group, a summary" "$bad"
[ -z "$(awk '{print $1}' "$TMP/list" | sort | uniq -d)" ]; _report $? "  no code twice"
n=$(wc -l <"$TMP/list")
[ "$n" -ge 30 ]; _report $? "  every check ($n)"

run hcclctl doctor --list-checks nodes.txt
check_rc 64 "--list-checks with an argument: exit 64"

run hcclctl --json doctor --list-checks
check_rc 0 "--json --list-checks: exit 0"
printf '%s\n' "$OUT" >"$TMP/list.json"
python3 - "$TMP/list.json" "$TMP/list" >"$TMP/py" 2>&1 <<'EOF'
import json, sys
doc = json.load(open(sys.argv[1]))
text = [l.split(None, 2) for l in open(sys.argv[2]).read().splitlines()]
assert doc["schema"] == "hcclctl-doctor-checks/1", doc["schema"]
assert set(doc) == {"schema", "checks", "exit_code", "hcclctl", "command", "started", "parameters"}, sorted(doc)
assert doc["exit_code"] == 0, doc["exit_code"]
rows = doc["checks"]
assert [(r["code"], r["group"], r["summary"]) for r in rows] == [tuple(t) for t in text], "text and JSON differ"
for r in rows:
    assert set(r) == {"code", "group", "side", "summary"}, r
    assert r["side"] in ("launcher", "node", "both"), r
side = {r["code"]: r["side"] for r in rows}
assert side["node.reach"] == "launcher" and side["logs.cause"] == "launcher", side
assert side["npu.ecc"] == "node" and side["net.ports"] == "node", side
assert side["nic.tls"] == "both" and side["env.hccl"] == "both" and side["host.time"] == "both", side
print("ok")
EOF
[ "$(cat "$TMP/py")" = ok ]
_report $? "  one document: the same rows as the text, each with its side" "$(cat "$TMP/py")"

codes=$(awk '{print $1}' "$TMP/list" | paste -sd, - | sed 's/,/, /g')
groups=$(awk '{print $2}' "$TMP/list" | awk '!s[$0]++' | paste -sd, - | sed 's/,/, /g')

# ---- unknown names ----
run hcclctl doctor --local --checks nosuch
check_rc 64 "--checks nosuch: exit 64"
check_err "hcclctl: doctor: --checks: no check or group 'nosuch'; the checks are: $codes; the groups: $groups
hint: hcclctl doctor --list-checks says what each checks" "  naming every check and group"
[ -z "$OUT" ]; _report $? "  and running nothing" "$OUT"
run hcclctl doctor --local --skip nic.iq
check_rc 64 "--skip nic.iq: exit 64"
check_err_has "hcclctl: doctor: --skip: no check or group 'nic.iq'; did you mean 'nic.ip'? the checks are: $codes; the groups: $groups" "  the closest check named"
run hcclctl doctor --local --checks npu.smi,hots
check_rc 64 "a misspelt group after a good code: exit 64"
check_err_has "hcclctl: doctor: --checks: no check or group 'hots'; did you mean 'host'? the checks are: $codes; the groups: $groups" "  the closest group named"
run hcclctl doctor --local --checks npu,
check_rc 64 "an empty name in the list: exit 64"
check_err_has "hcclctl: doctor: --checks: no check or group ''; the checks are: $codes; the groups: $groups" "  named as empty"
run hcclctl doctor --local --checks 'npu.ecc.x'
check_rc 64 "a code with more after it: exit 64"
run hcclctl doctor --node --checks nosuch
check_rc 64 "--node checks the names too"
long=$(printf '%0200d' 0)
run hcclctl doctor --local --checks "x$long"
check_rc 64 "a 201-letter name: exit 64"
[ "$(printf '%s\n' "$ERR" | head -n 1 | wc -c)" -lt 1024 ]; _report $? "  the message stays bounded"
run hcclctl doctor --local --checks "$(printf 'npu\033[31m')"
check_rc 64 "a name with an escape: exit 64"
! printf '%s' "$ERR" | grep -q "$(printf '\033')"; _report $? "  the escape is not printed as is" "$ERR"

# a group, and a code of every group, are still names
run hcclctl doctor --local --checks host --skip host.hugepages,host.time
[ "$RC" != 64 ] && [ -z "$(printf '%s\n' "$ERR" | grep -v 'checking 1 node')" ]
_report $? "--checks host --skip host.hugepages,host.time: accepted" "rc $RC" "$ERR"
printf '%s\n' "$OUT" | grep -q '^[A-Z]*  host\.shm '; _report $? "  the group's checks run" "$OUT"
! printf '%s\n' "$OUT" | grep -q 'host\.hugepages\|host\.time'; _report $? "  but not the ones skipped" "$OUT"
run hcclctl doctor --local --checks "$(awk '{print $1}' "$TMP/list" | paste -sd, -)" --skip "$(awk '{print $2}' "$TMP/list" | awk '!s[$0]++' | paste -sd, -)"
check_rc 3 "every code in --checks and every group in --skip: accepted, nothing left to run (exit 3)"

# ---- completion ----
run hcclctl --completion-words doctor --checks
printf '%s\n' "$OUT" >"$TMP/words"
{ awk '{print $2}' "$TMP/list" | awk '!s[$0]++'; awk '{print $1}' "$TMP/list"; } >"$TMP/want"
cmp -s "$TMP/want" "$TMP/words"
_report $? "completion after --checks: every group, then every check" "$(diff "$TMP/want" "$TMP/words")"
run hcclctl --completion-words doctor --local --skip
[ "$OUT" = "$(cat "$TMP/want")" ]; _report $? "completion after --skip: the same" "$OUT"
# the bash completion file as bash runs it: the names after --checks, and a list's last item
bashcomp() { # the words typed after hcclctl, the last one being completed
	bash -c '. completions/hcclctl.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _hcclctl
		printf "%s\n" "${COMPREPLY[@]}"' bashcomp "$HCCLCTL" "$@"
}
got=$(bashcomp doctor --checks npu.e)
[ "$got" = npu.ecc ]; _report $? "bash: --checks npu.e completes to npu.ecc" "$got"
got=$(bashcomp doctor --local --skip host.m)
[ "$got" = "$(printf 'host.memlock\nhost.memory')" ]; _report $? "bash: --skip host.m offers host.memlock and host.memory" "$got"
got=$(bashcomp doctor --checks npu,link.r)
[ "$got" = "$(printf 'npu,link.roce\nnpu,link.rdma')" ]; _report $? "bash: the last item of a list" "$got"

# ---- the node runs each step once, and only for the checks wanted ----
mkdir "$TMP/probe" "$TMP/three" "$TMP/count"
FAKE_STATE=$TMP/probe run hcclctl --json probe hccs
FAKE_STATE=$TMP/three run hcclctl doctor --local --checks npu.smi,link.hccs,npu.health
check_rc 0 "the three checks of npu-smi's HCCS step"
[ -s "$TMP/probe/npu-smi.hccs-0-0" ] && cmp -s "$TMP/three/npu-smi.hccs-0-0" "$TMP/probe/npu-smi.hccs-0-0"
_report $? "  read npu-smi's HCCS links as often as one probe hccs does" "doctor: $(cat "$TMP/three/npu-smi.hccs-0-0" 2>&1), probe: $(cat "$TMP/probe/npu-smi.hccs-0-0" 2>&1)"
FAKE_STATE=$TMP/count run hcclctl doctor --local --checks npu.count
[ ! -e "$TMP/count/npu-smi.hccs-0-0" ]; _report $? "--checks npu.count does not run the HCCS step"

done_testing
