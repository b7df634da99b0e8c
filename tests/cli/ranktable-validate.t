#!/bin/sh
# ranktable validate: verdicts on the real fixtures, located findings, JSON, inputs.
. "$(dirname "$0")/lib.sh"
BAD=tests/data/ranktables/bad

# Every shared fixture gets the verdict HCCL would give it (ascend.md §1).
for f in hccl_doc_v1.0_300iduo_2srv_2dev hccl_doc_v1.0_a2_2srv_2dev_device_port \
	hccl_doc_v1.0_a3_aiserver_mode_host_ip_port hccl_doc_v1.0_atlas910_2srv_2dev \
	hccl_doc_v1.2_a3_superpod_2pods_4srv_4dev hccl_doc_v2.0_a5_eid_2rank \
	hccl_doc_v2.0_a5_ipv4_4rank; do
	run hcclctl ranktable validate "$FIXTURES/$f.json"
	check_rc 0 "$f is valid (exit 0)"
done
run hcclctl ranktable validate "$FIXTURES/hccl_doc_v1.2_a3_superpod_2pods_4srv_4dev.json"
check_out "$FIXTURES/hccl_doc_v1.2_a3_superpod_2pods_4srv_4dev.json: valid: 0 errors, 0 warnings (format 1.2, 4 servers, 16 ranks)" "the summary names format, servers and ranks"

run hcclctl ranktable validate "$FIXTURES/hccl_doc_legacy_group_list_template2_no_version.json"
check_rc 1 "the legacy group_list table is a warning (exit 1)"
check_out_has "$FIXTURES/hccl_doc_legacy_group_list_template2_no_version.json:1:1: warning: this is the legacy \"template 2\" group_list format (no version, no rank_id); HCCL still reads it, but ranks are implied by listing order [legacy-format]" "legacy format recognised and named"
run hcclctl --strict ranktable validate "$FIXTURES/hccl_doc_legacy_group_list_template2_no_version.json"
check_rc 2 "--strict turns the warning into a failure"

run hcclctl ranktable validate "$FIXTURES/hccl_doc_topofile_v2.0_a5_2npu.json"
check_rc 2 "a topology file is not a rank table (exit 2)"
check_out_has "$FIXTURES/hccl_doc_topofile_v2.0_a5_2npu.json:1:1: error: this is a version 2.0 topology file (peer_list, edge_list), not a rank table [topology-file]" "topology file recognised and named"

# Every problem, in line order, each located, with path and hint.
run hcclctl ranktable validate $BAD/many_problems.json
check_rc 2 "a table with many problems fails"
ok "[ \$(printf '%s\n' \"$OUT\" | grep -c ': error: ') -eq 11 ]" "all 11 errors are reported, not only the first"
check_out_has "$BAD/many_problems.json:16:76: error: rank_id \"1\" is used twice: server \"node_0\" device 0 and server \"node_0\" device 1 (HCCL EI0014) [rank-id-duplicate]" "duplicate rank id located at its line and column, with HCCL's code"
check_out_has "  at \$.server_list[1].device[0].rank_id" "the JSON path follows the finding"
check_out_has "$BAD/many_problems.json:17:50: error: device_ip \"worker-2\" of rank \"5\" (server \"node_0\" device 2) is a host name; HCCL needs the literal IP of the NPU's own NIC [device-ip-hostname]" "a hostname where an IP belongs is named"
check_out_has "  hint: use the NPU NIC IP of that device: 'hccn_tool -i N -ip -g' on the server, or address_N in /etc/hccn.conf" "with the fix"
check_out_has "$BAD/many_problems.json: invalid: 11 errors, 1 warning (format 1.0, 2 servers, 4 ranks)" "summary counts errors and warnings"
ok "printf '%s\n' \"$OUT\" | grep -o '^[^ ]*:[0-9]*:[0-9]*:' | awk -F: '{ if (\$2 < last) exit 1; last = \$2 }'" "findings come in line order"

run hcclctl -q ranktable validate $BAD/syntax_missing_comma.json
check_rc 2 "a JSON syntax error fails"
check_out "$BAD/syntax_missing_comma.json:3:5: error: expected ',' or '}' after object member (HCCL EI0004) [json-syntax]
$BAD/syntax_missing_comma.json: invalid: 1 error, 0 warnings (format unknown, 0 servers, 0 ranks)" "-q: the syntax error at its line and column, and the summary"

run hcclctl ranktable validate $BAD/merge_hccl_int_rank_ids.json
check_rc 2 "integer rank ids (merge_hccl.py) fail as HCCL would"
check_out_has "$BAD/merge_hccl_int_rank_ids.json:1:127: error: rank_id 0 of server \"10.0.0.1\" device 0 is a number, not a string; HCCL rejects it and misleadingly reports it as missing (HCCL EI0017) [value-not-string]" "the number is named with EI0017"

run hcclctl ranktable validate $BAD/placeholder_ips.json
check_out_has "$BAD/placeholder_ips.json:17:48: error: device_ip \"-.-.-.-\" of rank \"3\" (server \"10.155.111.141\" device 1) is a placeholder, not an address (generators write it when the NPU has no IP configured) [device-ip-placeholder]" "placeholder -.-.-.- named"

sed 's/"192.168.2.9"/"192.168.2.1O"/' "$FIXTURES/hccl_doc_v1.0_atlas910_2srv_2dev.json" >"$TMP/typo.json"
run hcclctl -q ranktable validate "$TMP/typo.json"
check_out_has "$TMP/typo.json:31:34: error: device_ip \"192.168.2.1O\" of rank \"3\" (server \"node_1\" device 1) is not an IPv4 or IPv6 address [device-ip-invalid]" "a typo in an IP is an invalid address, not a host name"

# Every bad file fails, every good one passes.
for f in $BAD/*.json; do
	hcclctl -q ranktable validate "$f" >/dev/null 2>&1
	rc=$?
	[ $rc -eq 2 ] || [ $rc -eq 1 ]
	_report $? "$(basename "$f") is rejected or warned (exit $rc)"
done
for f in tests/data/ranktables/good/*.json; do
	run hcclctl ranktable validate "$f"
	check_rc 0 "$(basename "$f") is valid"
done

# JSON output: one document with every finding.
run hcclctl --json ranktable validate $BAD/many_problems.json
check_rc 2 "--json keeps the exit code"
ok "printf '%s' '$(printf '%s' "$OUT" | sed "s/'/'\\\\''/g")' | python3 -c '
import json,sys
d=json.load(sys.stdin)
f=d[\"files\"][0]
assert d[\"errors\"]==11 and d[\"warnings\"]==1 and d[\"exit_code\"]==2, d
assert f[\"verdict\"]==\"invalid\" and f[\"format\"]==\"1.0\" and f[\"ranks\"]==4
x=[g for g in f[\"findings\"] if g[\"code\"]==\"rank-id-duplicate\"][0]
assert (x[\"line\"],x[\"col\"],x[\"path\"],x[\"severity\"])==(16,76,\"\$.server_list[1].device[0].rank_id\",\"error\"), x
'" "--json holds findings with line, col, path and severity"

# Inputs: stdin, RANK_TABLE_FILE, several files, a missing file.
run sh -c "'$HCCLCTL' ranktable validate - <'$FIXTURES/hccl_doc_v1.0_atlas910_2srv_2dev.json'"
check_rc 0 "'-' reads stdin"
check_out "<stdin>: valid: 0 errors, 0 warnings (format 1.0, 2 servers, 4 ranks)" "stdin is named <stdin>"
run env RANK_TABLE_FILE="$FIXTURES/hccl_doc_v2.0_a5_ipv4_4rank.json" "$HCCLCTL" ranktable validate
check_rc 0 "no argument reads \$RANK_TABLE_FILE"
check_out "$FIXTURES/hccl_doc_v2.0_a5_ipv4_4rank.json: valid: 0 errors, 0 warnings (format 2.0, 2 servers, 4 ranks)" "and names it"
run hcclctl ranktable validate
check_rc 64 "no argument and no RANK_TABLE_FILE is a usage error"
check_err "hcclctl: ranktable validate: no rank table given
hint: pass FILE, URL or '-', or set RANK_TABLE_FILE" "with the fix"
run hcclctl ranktable validate /nonexistent.json
check_rc 3 "a missing file is UNKNOWN (3)"
check_err "hcclctl: ranktable validate: cannot open '/nonexistent.json': No such file or directory" "the missing file is named"
run hcclctl -q ranktable validate "$FIXTURES/hccl_doc_v1.0_atlas910_2srv_2dev.json" $BAD/rank_id_gap.json
check_rc 2 "several files: the worst verdict wins"

# Scale: 65536 ranks validate (timing is measured in make bench, not here).
python3 bench/mk_ranktable.py 4096 16 >"$TMP/big.json"
run hcclctl ranktable validate "$TMP/big.json"
check_rc 0 "a 4096x16 table is valid"
check_out "$TMP/big.json: valid: 0 errors, 0 warnings (format 1.0, 4096 servers, 65536 ranks)" "all 65536 ranks are read"

done_testing
