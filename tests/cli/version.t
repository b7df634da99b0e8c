#!/bin/sh
# hcclctl --version: the version, the commit, the build date, the build id and the features,
# in text and as one JSON document; the build id is the program's own (what deploy compares).
. "$(dirname "$0")/lib.sh"
VERSION=$(sed -n 's/^VERSION := //p' Makefile)

run hcclctl --version
check_rc 0 "--version exits 0"
printf '%s\n' "$OUT" >"$TMP/v"
ok "[ \"\$(sed -n 1p '$TMP/v')\" = 'hcclctl $VERSION' ]" "the first line is the version, as before"
ok "[ \"\$(cut -d' ' -f1 '$TMP/v' | tr '\n' ' ')\" = 'hcclctl commit build-date build-id features ' ]" "then commit, build-date, build-id, features: one a line"
ok "grep -Eqx 'commit ([0-9a-f]{12}(-dirty)?|unknown)' '$TMP/v'" "the commit: 12 hex digits (-dirty) or unknown"
ok "grep -Eqx 'build-date [0-9]{4}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-5][0-9]' '$TMP/v'" "the build date, ISO 8601"
id=$(sed -n 's/^build-id //p' "$TMP/v")
ok "printf '%s' '$id' | grep -Eqx '[0-9a-f]{16,64}'" "the build id: hex"
if command -v readelf >/dev/null 2>&1; then
	note=$(readelf -n "$HCCLCTL" | sed -n 's/.*Build ID: //p')
	ok "[ -n '$note' ] && [ '$id' = '$note' ]" "the build id is the binary's GNU build-id note ($note)"
else
	skip "readelf is not installed (binutils)"
fi
if ldd "$HCCLCTL" 2>/dev/null | grep -q libibverbs; then verbs=ibverbs; else verbs=no-ibverbs; fi
ok "grep -qx 'features $verbs cann-engine' '$TMP/v'" "features: $verbs (as linked) and cann-engine"
if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd)" ]; then
	c=$(git rev-parse --short=12 HEAD)
	ok "grep -Eqx 'commit $c(-dirty)?' '$TMP/v'" "in git: this checkout's commit"
fi

run hcclctl --version -v
check_rc 0 "-v --version exits 0"
check_out_has "  cann-engine: run --engine hccl: CANN's libascendcl.so and libhccl.so, loaded at run time" "-v says what each feature is"
printf '%s\n' "$OUT" >"$TMP/vv"
ok "grep -q '^compiler gcc \\|^compiler clang ' '$TMP/vv'" "-v names the compiler"
ok "grep -q '^libraries cJSON [0-9.]*, libcurl [0-9.]*, libssh2 [0-9.]*, OpenSSL ' '$TMP/vv'" "-v names the libraries' versions"

for a in "--json --version" "--version --json"; do
	run hcclctl $a
	check_rc 0 "$a exits 0"
	printf '%s' "$OUT" >"$TMP/doc.json"
	ok "python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
env = {\"schema\",\"hcclctl\",\"command\",\"started\",\"parameters\",\"exit_code\"}
assert sorted(set(d) - env) == [\"build_date\",\"build_id\",\"commit\",\"features\",\"name\",\"version\"], sorted(d)
assert d[\"name\"] == \"hcclctl\" and d[\"version\"] == \"$VERSION\" and d[\"build_id\"] == \"$id\", d
assert d[\"features\"] == {\"ibverbs\": \"$verbs\" == \"ibverbs\", \"cann_engine\": True}, d
' '$TMP/doc.json'" "$a: one document with the same fields"
done
run hcclctl --json -v --version
printf '%s' "$OUT" >"$TMP/docv.json"
ok "python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
assert set(d[\"libraries\"]) == {\"cjson\",\"libcurl\",\"libssh2\",\"openssl\"} and d[\"compiler\"], d
' '$TMP/docv.json'" "--json -v: the libraries and the compiler too"

# outside git (a tarball) the commit is unknown: the Makefile's own answer, from a copy
mkdir -p "$TMP/src"
cp Makefile "$TMP/src/" && cp -r mk "$TMP/src/"
ok "[ \"\$(make -s -C '$TMP/src' -pn hcclctl 2>/dev/null | sed -n 's/^COMMIT := //p')\" = unknown ]" "a build outside git names the commit unknown"
done_testing
