#!/bin/sh
# ranktable show and diff of a file that is no rank table: could not check (exit 3) with the
# located reason, never "every rank removed" (exit 2) or an empty listing.
. "$(dirname "$0")/lib.sh"
A=$FIXTURES/hccl_doc_v1.0_atlas910_2srv_2dev.json

head -c 200 "$A" >"$TMP/cut.json"
run hcclctl ranktable diff "$A" "$TMP/cut.json"
check_rc 3 "diff with a cut-off table: could not check"
check_out "" "and no change is listed"
check_err "hcclctl: ranktable diff: $TMP/cut.json:10:17: cannot read it as a rank table: unexpected end of input (HCCL EI0004)
hint: fix the JSON syntax first; 'python3 -m json.tool FILE' shows the same place" "the reason, located"

run hcclctl ranktable diff "$TMP/cut.json" "$A"
check_rc 3 "the unreadable one first: the same"

run hcclctl ranktable show "$TMP/cut.json"
check_rc 3 "show of a cut-off table: could not check"
check_out "" "and no empty header"
check_err "hcclctl: ranktable show: $TMP/cut.json:10:17: cannot read it as a rank table: unexpected end of input (HCCL EI0004)
hint: fix the JSON syntax first; 'python3 -m json.tool FILE' shows the same place" "show names the place too"

run hcclctl --json ranktable show "$TMP/cut.json"
check_rc 3 "--json show: exit 3"
printf '%s' "$OUT" >"$TMP/doc.json"
ok "python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
assert d[\"exit_code\"] == 3, d
assert d[\"error\"][\"message\"].endswith(\"cut.json:10:17: cannot read it as a rank table: unexpected end of input (HCCL EI0004)\"), d
' $TMP/doc.json" "--json: one document with the located error"

echo '{"a": 1}' >"$TMP/other.json"
run hcclctl ranktable diff "$A" "$TMP/other.json"
check_rc 3 "JSON that is no rank table: could not check"
check_err "hcclctl: ranktable diff: $TMP/other.json:1:1: cannot read it as a rank table: no \"version\", \"server_list\", \"rank_list\" or \"group_list\": this is not a rank table
hint: a rank table has \"version\" and \"server_list\" (1.0, 1.2) or \"rank_list\" (2.0)" "and says what it is not"

: >"$TMP/empty.json"
run hcclctl ranktable show "$TMP/empty.json"
check_rc 3 "an empty file: could not check"

printf '[1]' >"$TMP/arr.json"
run hcclctl ranktable show - <"$TMP/arr.json"
check_rc 3 "stdin that is an array: could not check"
check_err "hcclctl: ranktable show: <stdin>:1:1: cannot read it as a rank table: the document is an array, not a rank table object
hint: a rank table is a JSON object with \"version\" and \"server_list\"" "stdin is named <stdin>"

# a table that reads but breaks a rule still compares: its ranks are there
run hcclctl ranktable show tests/data/ranktables/bad/rank_id_gap.json
check_rc 2 "a readable table with errors is still shown (exit 2)"
done_testing
