# doctor --logs with the fault knowledge base: built in (from ascend-fd's kg-config.json), and a
# user's own file with --knowledge, which then lends the causes its names and suggestions; bad
# files refused with the entity named.
. "$(dirname "$0")/lib.sh"
KG=tests/data/kg/kg-config-22bb3d98.json

# Lines no rule of hcclctl's knows: a GE graph failure, then the runtime's failed allocation
# that caused it (the base's edge says so), on one node.
mkdir -p "$TMP/job/node3"
printf '%s\n' \
	'[ERROR] GE(1234,python):2025-03-01-10:00:01.000.000 [graph.cc:10] Run graph async failed, graph id 3' \
	'[ERROR] RUNTIME(1234,python):2025-03-01-10:00:02.000.000 [mem.cc:100] DevMemAllocHugePageManaged failed: size 1073741824' \
	>"$TMP/job/node3/plog-1234.log"

run hcclctl doctor --logs "$TMP/job"
check_rc 2 "built-in base: a cause, exit 2"
check_out_has "FAIL  logs.cause      node3                  unresolved (cann-runtime): a CANN runtime failure (device, stream or task) (fault AISW_CANN_Runtime_054, a CANN_Plog line) on node node3; it explains AISW_CANN_GE_033" \
	"  the cause is the entity that causes the other, with its family"
check_out_has "  node3/plog-1234.log:2: [ERROR] RUNTIME(1234,python):2025-03-01-10:00:02.000.000 [mem.cc:100] DevMemAllocHugePageManaged failed: size 1073741824" \
	"  its line is the first evidence"

run hcclctl --json doctor --logs "$TMP/job"
check_rc 2 "  --json: exit 2"
printf '%s' "$OUT" >"$TMP/doc.json"
run python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d["cause"]
print(c["kind"], c["detail"], c["knowledge_entity"], c["signature"]); print(d["logs"]["knowledge_base"])' "$TMP/doc.json"
check_out "unresolved cann-runtime AISW_CANN_Runtime_054 knowledge-base
MindCluster ascend-fd kg-config.json 22bb3d98 (2026-08-21)" "  --json: kind, family, the entity's code and which base was used"

run hcclctl doctor --logs "$TMP/job" --knowledge "$KG"
check_rc 2 "--knowledge with the same file: exit 2"
check_out_has "FAIL  logs.cause      node3                  unresolved (cann-runtime): Runtime failed to allocate memory (AISW_CANN_Runtime_054) on node node3; it explains AISW_CANN_GE_033" \
	"  the file's own fault name"
ok "printf '%s\n' '$(printf '%s' "$OUT" | tr -d "'")' | grep -q '^fix: 1\\. '" "  and its own suggestion as the fix"

printf '{"knowledge-repository": {"X1": {"regex": {"in": ["ok", ""]}}}}' >"$TMP/bad.json"
run hcclctl doctor --logs "$TMP/job" --knowledge "$TMP/bad.json"
check_rc 3 "an empty keyword: refused, exit 3"
check_err_has "hcclctl: doctor: cannot use --knowledge: $TMP/bad.json: entity \"X1\": regex.in: a keyword must be a non-empty string of at most 1024 bytes" \
	"  naming the entity and the field"

printf '[1,2' >"$TMP/notjson.json"
run hcclctl doctor --logs "$TMP/job" --knowledge "$TMP/notjson.json"
check_rc 3 "not JSON: exit 3"
check_err_has "hcclctl: doctor: cannot use --knowledge: $TMP/notjson.json: not JSON" "  said so"

run hcclctl doctor --logs "$TMP/job" --knowledge "$TMP/none.json"
check_rc 3 "a missing file: exit 3"

run hcclctl doctor --knowledge "$KG" --hosts a
check_rc 64 "--knowledge without --logs: usage error"
check_err_has "hcclctl: doctor: --knowledge is read with --logs" "  said so"

done_testing
