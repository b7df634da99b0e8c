#!/bin/sh
# ranktable validate: verdicts on the real fixtures, located findings, JSON, inputs.
. "$(dirname "$0")/lib.sh"
BAD=tests/data/ranktables/bad

# Every HCCL documentation example gets the verdict HCCL would give it.
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

# Real tables from public repositories, docs and issues (tests/data/ranktables/real/README.md):
# each gets its README's verdict. The exact findings are in tests/unit/test_validate.c.
REAL=tests/data/ranktables/real
verdict() { # FILE RC SUMMARY DESC
	run hcclctl ranktable validate "$REAL/$1"
	check_rc "$2" "$1: exit $2"
	check_out_has "$REAL/$1: $3" "  $4"
}
verdict ascend_pd_tdm_pd_disagg_v1.2_2dev.json 0 \
	"valid: 0 errors, 0 warnings, 1 note (format vllm-ascend-pd, 1 server, 2 ranks)" \
	"vllm-ascend's disaggregated-prefill table is valid as what it is"
check_out_has "$REAL/ascend_pd_tdm_pd_disagg_v1.2_2dev.json:1:1: note: this is vllm-ascend's disaggregated-prefill rank table (prefill_device_list, decode_device_list), read by vllm-ascend through DISAGGREGATED_PREFILL_RANK_TABLE_PATH, not by HCCL; it is checked for what vllm-ascend needs [vllm-pd-table]" "  and named for what it is"
printf '%s\n' "$OUT" | grep -q "missing \"server_list\"\|HCCL EI"
[ $? -ne 0 ]
_report $? "  no \"missing server_list\", no HCCL error code" "$OUT"
verdict mindspore_st_msrun_rank_table_4p_wrong_host_ip.json 1 \
	"valid: 0 errors, 5 warnings (format 1.0, 1 server, 4 ranks)" \
	"one server with placeholders: warnings, not errors"
check_out_has "$REAL/mindspore_st_msrun_rank_table_4p_wrong_host_ip.json:1:71: warning: server_id \"10.*.*.*\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it [server-id-placeholder]" "  the server_id is a placeholder hcclctl cannot connect to"
check_out_has "$REAL/mindspore_st_msrun_rank_table_4p_wrong_host_ip.json:1:126: warning: device_ip \"192.1.*.6\" of rank \"3\" (server \"10.*.*.*\" device 0) is a placeholder, not an address; with one server no traffic uses it, but fill it in before the table grows [device-ip-placeholder]" "  a placeholder device IP of a single server is a warning"
verdict hccl_en_doc_v1.2_a3_superpod_4srv_backup_device_ip.json 0 \
	"valid: 0 errors, 0 warnings (format 1.2, 4 servers, 16 ranks)" "backup_device_ip, host_port: valid"
verdict mindformers_gpt2_doc_v1.0_2srv_16dev_xx_server_id_dup_device_ip.json 2 \
	"invalid: 5 errors, 2 warnings (format 1.0, 2 servers, 16 ranks)" \
	"two servers both \"xx.xx.xx.xx\", device IPs repeated: invalid"
check_out_has "$REAL/mindformers_gpt2_doc_v1.0_2srv_16dev_xx_server_id_dup_device_ip.json:36:26: error: server_id \"xx.xx.xx.xx\" is used twice: server_list[0] and server_list[1] (HCCL EI0014) [server-id-duplicate]" "  the duplicate server_id"
check_out_has "$REAL/mindformers_gpt2_doc_v1.0_2srv_16dev_xx_server_id_dup_device_ip.json:39:52: error: device_ip \"192.168.0.1\" is used twice: server \"xx.xx.xx.xx\" device 4 and server \"xx.xx.xx.xx\" device 0 (HCCL EI0014) [device-ip-duplicate]" "  a duplicate device IP"
check_out_has "$REAL/mindformers_gpt2_doc_v1.0_2srv_16dev_xx_server_id_dup_device_ip.json:6:26: warning: server_id \"xx.xx.xx.xx\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it [server-id-placeholder]" "  \"xx.xx.xx.xx\" named as a placeholder"
verdict mindcluster_doc_global_ranktable_a2_server_group_list_template.json 2 \
	"invalid: 4 errors, 2 warnings, 1 note (format mindcluster-global, 1 server, 1 rank)" \
	"ClusterD's global rank table: its group checked, the template's x values named"
check_out_has "$REAL/mindcluster_doc_global_ranktable_a2_server_group_list_template.json:1:1: note: this is MindCluster ClusterD's global rank table (server_group_list) for a MindIE deployment, not a table HCCL reads; each group's servers and devices are checked as the instance's hccl.json [global-ranktable]" "  named for what it is"
check_out_has "$REAL/mindcluster_doc_global_ranktable_a2_server_group_list_template.json:1:175: error: device_id \"x\" of rank \"x\" (server \"xx.xx.xx.xx\" device[0]) is not a decimal number [device-id-invalid]" "  a device of the group is checked"
printf '%s\n' "$OUT" | grep -q "missing \"server_list\""
[ $? -ne 0 ]
_report $? "  no \"missing server_list\"" "$OUT"
verdict hcomm_st_ranktable_builder_v2.0_RankTable2p_detour_control_plane.json 1 \
	"valid: 0 errors, 2 warnings, 2 notes (format 2.0, 1 server, 2 ranks)" \
	"HCCL's own 2.0 test table: valid, CLOS on layer 0 warned"
printf '%s\n' "$OUT" | grep -q "unknown-key"
[ $? -ne 0 ]
_report $? "  detour, replaced_local_id and control_plane are known keys" "$OUT"
verdict checkpoint_engine_ascend_v1.0_1srv_4dev_device_port.json 0 \
	"valid: 0 errors, 0 warnings (format 1.0, 1 server, 4 ranks)" "server_id node_0, device_port: valid"
verdict issue_vllm_ascend_2498_llmdatadist_link_table_from_log_v1.2.json 0 \
	"valid: 0 errors, 0 warnings, 1 note (format 1.2, 2 servers, 2 ranks)" \
	"1.2 without super_pod_list: valid, a note"
check_out_has "$REAL/issue_vllm_ascend_2498_llmdatadist_link_table_from_log_v1.2.json:1:1: note: version \"1.2\" table has no super_pod_list [super-pod-list-missing]" "  the note"
run hcclctl --strict ranktable validate "$REAL/issue_vllm_ascend_2498_llmdatadist_link_table_from_log_v1.2.json"
check_rc 0 "--strict: a note is not a warning"
verdict ascend_tools_aisbench_rank_table_16p_64_66_v1.0_2srv.json 0 \
	"valid: 0 errors, 0 warnings (format 1.0, 2 servers, 16 ranks)" \
	"a benchmark's two real servers with host_nic_ip \"reserve\": valid"
verdict mindocr_doc_hccl_tools_8p_127.0.0.1_v1.0_1srv.json 0 \
	"valid: 0 errors, 0 warnings (format 1.0, 1 server, 8 ranks)" \
	"hccl_tools' one-server table (server_id 127.0.0.1): valid"
verdict mindcluster_doc_faultdiag_log_hccl_json_mindie_ep_v1.2_a3_16dev.json 0 \
	"valid: 0 errors, 0 warnings (format 1.2, 1 server, 16 ranks)" \
	"the hccl.json a MindIE EP job logged (IsMindIEEPJob, container_ip): valid"
verdict paddle_test_ascend_group_v1.0_1srv_4dev_status_twice.json 0 \
	"valid: 0 errors, 0 warnings, 1 note (format 1.0, 1 server, 4 ranks)" \
	"\"status\" written twice with one value: a note, not a warning"
check_out_has "$REAL/paddle_test_ascend_group_v1.0_1srv_4dev_status_twice.json:33:5: note: duplicate key \"status\" (first at line 2, column 5) with the same value; harmless, whichever one a parser keeps [duplicate-key-same]" "  the repeated key is named"
run hcclctl --strict ranktable validate "$REAL/paddle_test_ascend_group_v1.0_1srv_4dev_status_twice.json"
check_rc 0 "  --strict: still valid"
run hcclctl ranktable validate $BAD/duplicate_key.json
check_out_has "$BAD/duplicate_key.json:6:110: warning: duplicate key \"rank_id\" (first at line 6, column 94) with another value; parsers differ in which one they keep [duplicate-key]" "a key twice with two values is a warning"
verdict dvt_mindspore_configs_rank_table_8p_legacy_group_list_board_id.json 1 \
	"valid: 0 errors, 1 warning (format legacy, 1 server, 8 ranks)" \
	"the first Atlas 910 group_list format (board_id, rank_id per instance): a warning only"
check_out_has "$REAL/dvt_mindspore_configs_rank_table_8p_legacy_group_list_board_id.json:1:1: warning: this is the legacy group_list format of the first Atlas 910 tables (no version, a rank_id per instance); HCCL still reads it, but its guide no longer documents it and newer tools may not read it [legacy-format]" "  named for what it is"
printf '%s\n' "$OUT" | grep -q "unknown-key\|pod_name"
[ $? -ne 0 ]
_report $? "  board_id, para_plane_nic_*, device_num and rank_id are its keys; no pod_name needed" "$OUT"
run hcclctl ranktable validate $BAD/legacy_910_bad.json
check_rc 2 "that format's mistakes fail"
check_out_has "$BAD/legacy_910_bad.json:14:89: error: rank_id \"0\" is used twice: group_list[0].instance_list[0] and group_list[0].instance_list[1] (HCCL EI0014) [rank-id-duplicate]" "  a rank_id used twice"
check_out_has "$BAD/legacy_910_bad.json:9:27: error: server_num \"1\" of group_list[0] does not match the 2 servers its instances name (HCCL EI0014) [server-count-mismatch]" "  server_num against the servers named"
check_out_has "$BAD/legacy_910_bad.json:17:17: error: missing \"rank_id\" in group_list[0].instance_list[4] (HCCL EI0017) [key-missing]" "  an instance without rank_id"
verdict ge_doc_cluster_config_v1.2_RankTable_wrapper_no_device_ip.json 0 \
	"valid: 0 errors, 0 warnings, 2 notes (format ge-cluster-config, 2 servers, 2 ranks)" \
	"GE's cluster_config.json: its RankTable checked, no device_ip needed"
check_out_has "$REAL/ge_doc_cluster_config_v1.2_RankTable_wrapper_no_device_ip.json:1:1: note: this is GE's cluster_config.json (RankTable, HcclCommConfig) for compiling a graph offline, not a table HCCL reads at run time; its RankTable is checked as a 1.x table that needs no device_ip [ge-cluster-config]" "  named for what it is"
run hcclctl ranktable validate $BAD/ge_cluster_bad.json
check_rc 2 "a bad cluster_config fails"
check_out_has "$BAD/ge_cluster_bad.json:8:78: error: rank_id \"0\" is used twice: server \"node_0\" device 0 and server \"node_1\" device 0 [rank-id-duplicate]" "  the inner table's ranks are checked, without HCCL codes"
check_out_has "  at \$.RankTable.server_list[1].device[0].rank_id" "  at their path inside RankTable"
check_out_has "$BAD/ge_cluster_bad.json:11:23: error: missing \"hcclCommName\" in HcclCommConfig [key-missing]" "  HcclCommConfig needs hcclCommName"
run hcclctl probe net --ranktable "$REAL/ge_doc_cluster_config_v1.2_RankTable_wrapper_no_device_ip.json"
check_rc 2 "probe net refuses a cluster_config (exit 2)"
check_err "hcclctl: probe net: $REAL/ge_doc_cluster_config_v1.2_RankTable_wrapper_no_device_ip.json is a ge-cluster-config table, which HCCL does not read; nothing was measured
hint: give the HCCL rank table of the job (server_list or rank_list)" "  named, with the fix"
verdict mindspore_docs_resilience_4pcs_v1.0_1srv_placeholder_server_id.json 1 \
	"valid: 0 errors, 1 warning (format 1.0, 1 server, 4 ranks)" \
	"one server named \"10.*.*.*\": a warning"
verdict mindspore_tutorial_rank_table_2pcs_v1.0_1srv_host_nic_ip.json 1 \
	"valid: 0 errors, 3 warnings (format 1.0, 1 server, 2 ranks)" \
	"the tutorial's one-server template: warnings for its placeholders"
verdict mindspore_docs_adasum_16pcs_v1.0_2srv_same_server_id.json 2 \
	"invalid: 1 error, 2 warnings (format 1.0, 2 servers, 16 ranks)" \
	"two servers both \"10.*.*.*\": invalid"
check_out_has "$REAL/mindspore_docs_adasum_16pcs_v1.0_2srv_same_server_id.json:19:20: error: server_id \"10.*.*.*\" is used twice: server_list[0] and server_list[1] (HCCL EI0014) [server-id-duplicate]" "  the duplicate server_id"
verdict mindspore_docs_startup_16pcs_v1.0_2srv_placeholders.json 2 \
	"invalid: 17 errors, 2 warnings (format 1.0, 2 servers, 16 ranks)" \
	"a two-server template: its placeholder device IPs are errors"
verdict mindspore_docs_startup_cross_cluster_16pcs_v1.0_cluster_list.json 2 \
	"invalid: 16 errors, 2 warnings (format 1.0, 2 servers, 16 ranks)" \
	"the cross-cluster template: cluster_list known, its placeholders named"
check_out_has "$REAL/mindspore_docs_startup_cross_cluster_16pcs_v1.0_cluster_list.json:6:20: warning: server_id \"server_0_10.*.*.*\" is a placeholder, not a server's address; HCCL only compares it, but hcclctl cannot connect to it [server-id-placeholder]" "  a server_id that embeds a masked address is a placeholder"
printf '%s\n' "$OUT" | grep -q "unknown-key"
[ $? -ne 0 ]
_report $? "  cluster_list, server_ip, pod_ip, dpu_ip and numa_id are known keys" "$OUT"
verdict mindcluster_doc_hccl_json_a2_commented_elided.json 2 \
	"invalid: 1 error, 0 warnings (format unknown, 0 servers, 0 ranks)" \
	"the operator guide's annotated hccl.json is not JSON"
check_out_has "$REAL/mindcluster_doc_hccl_json_a2_commented_elided.json:2:29: error: comments are not allowed in JSON (HCCL EI0004) [json-syntax]" "  located at the first comment"
verdict mindocr_doc_custom_dataset_v1.0_1srv_copy_prefix_rank_2_3.json 2 \
	"invalid: 1 error, 0 warnings (format unknown, 0 servers, 0 ranks)" \
	"a table pasted with the page's \"Copy\" button text is not JSON"
check_out_has "$REAL/mindocr_doc_custom_dataset_v1.0_1srv_copy_prefix_rank_2_3.json:1:1: error: invalid literal 'Copy' (strings need double quotes) (HCCL EI0004) [json-syntax]" "  located at the pasted word"
sed 1s/^Copy// "$REAL/mindocr_doc_custom_dataset_v1.0_1srv_copy_prefix_rank_2_3.json" >"$TMP/nocopy.json"
run hcclctl ranktable validate "$TMP/nocopy.json"
check_rc 2 "  without it, ranks 2 and 3 of a two-rank table fail"
check_out_has "$TMP/nocopy.json:8:72: error: rank_id \"2\" of server \"10.155.111.140\" device 2 is out of range: 2 ranks need ids 0..1 (HCCL EI0014) [rank-id-range]" "  named with the range they need"
run hcclctl --json ranktable validate "$REAL/ascend_pd_tdm_pd_disagg_v1.2_2dev.json"
ok "printf '%s' '$(printf '%s' "$OUT" | sed "s/'/'\\\\''/g")' | python3 -c '
import json,sys
d=json.load(sys.stdin)
f=d[\"files\"][0]
assert d[\"notes\"]==1 and d[\"errors\"]==0 and d[\"exit_code\"]==0, d
assert f[\"format\"]==\"vllm-ascend-pd\" and f[\"verdict\"]==\"valid\" and f[\"notes\"]==1, f
assert f[\"findings\"][0][\"severity\"]==\"note\", f
'" "--json: the note's severity, the notes count, the format"

# The new rules of the formats: the older 2.0 layout is named as such.
run hcclctl -q ranktable validate $BAD/v2_old_layout.json
check_rc 2 "the older 2.0 layout is an error"
check_out_has "$BAD/v2_old_layout.json:6:15: error: level_list[0] of rank_list[0] is in the older 2.0 layout (level, id, fabric_type, rank_addr_type, rank_addrs, replace_list) of HCCL's early tests; HCCL now reads net_layer, net_instance_id, net_type and rank_addr_list, and a backup rank as local_id 64 with replaced_local_id (2 ranks use it) [v2-old-layout]" "  named once, with what HCCL reads now"
run hcclctl ranktable rules
for code in vllm-pd-table global-ranktable ge-cluster-config duplicate-key-same server-id-placeholder net-type-layer0 v2-old-layout \
	control-plane-misplaced pd-list-empty pd-server-id-not-ip cluster-id-invalid \
	cluster-id-duplicate group-id-invalid group-id-duplicate; do
	printf '%s\n' "$OUT" | grep -q "^$code "
	_report $? "ranktable rules lists $code"
done
check_out_has "server-id-unsafe             warning -      server_id has whitespace, shell metacharacters or a leading '-'; an error where hcclctl connects (run --ssh, doctor, probe net)" "server-id-unsafe is a warning in validate, an error where hcclctl connects"
check_out_has "super-pod-list-missing       note    -      version 1.2 table without super_pod_list (optional: AI-server mode)" "a 1.2 table without super_pod_list is a note"

# An escaped NUL in a string: cJSON would end the string there and the rest would pass
# unseen ("10.0.0.1" validated, ";touch /tmp/x" never checked).
sed 's|"10.0.0.2"|"10.0.0.2\\u0000;touch /tmp/x"|' tests/data/gen/2srv_2dev_host_ip.json >"$TMP/nul.json"
run hcclctl ranktable validate "$TMP/nul.json"
check_rc 2 "a \\u0000 inside server_id makes the table invalid (exit 2)"
check_out "$TMP/nul.json:23:35: error: NUL (\\u0000) in string: everything after it would be cut off (HCCL EI0004) [json-syntax]
  at \$
  hint: fix the JSON syntax first; 'python3 -m json.tool FILE' shows the same place
$TMP/nul.json: invalid: 1 error, 0 warnings (format unknown, 0 servers, 0 ranks)" "located at the escape, line and column"

# The size cap: 65536 ranks take 14.7 MB; a table past 64 MiB is refused before it is read
# (it was accepted up to 1 GiB, and parsing costs several times the file)
truncate -s 67108865 "$TMP/huge.json"
run hcclctl ranktable validate "$TMP/huge.json"
check_rc 3 "a rank table past 64 MiB is refused (exit 3)"
check_err "hcclctl: ranktable validate: $TMP/huge.json: larger than 67108864 bytes, the most a rank table may be (65536 ranks take about 15 MB)
hint: if this is a real rank table, raise the limit: HCCLCTL_RANKTABLE_MAX=256M" "  the limit named, with the variable that raises it"
run env HCCLCTL_RANKTABLE_MAX=1K "$HCCLCTL" ranktable validate tests/data/gen/2srv_2dev_host_ip.json
check_rc 3 "HCCLCTL_RANKTABLE_MAX=1K refuses a 1 KiB table"
check_err_has "hcclctl: ranktable validate: tests/data/gen/2srv_2dev_host_ip.json: larger than 1024 bytes, the most a rank table may be (65536 ranks take about 15 MB)" "  at the limit it sets"
run sh -c "cat tests/data/gen/2srv_2dev_host_ip.json | HCCLCTL_RANKTABLE_MAX=1K '$HCCLCTL' ranktable validate -"
check_rc 3 "  a pipe too, which has no size to check first"
run env HCCLCTL_RANKTABLE_MAX=2K "$HCCLCTL" ranktable validate tests/data/gen/2srv_2dev_host_ip.json
check_rc 0 "HCCLCTL_RANKTABLE_MAX=2K reads it"

# Scale: 65536 ranks validate (timing is measured in make bench, not here).
python3 bench/mk_ranktable.py 4096 16 >"$TMP/big.json"
run hcclctl ranktable validate "$TMP/big.json"
check_rc 0 "a 4096x16 table is valid"
check_out "$TMP/big.json: valid: 0 errors, 0 warnings (format 1.0, 4096 servers, 65536 ranks)" "all 65536 ranks are read"

done_testing
