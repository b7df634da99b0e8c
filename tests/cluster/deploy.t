# Nothing to install on the nodes: run --ssh, exec --deploy and doctor find this hcclctl on a
# node (its own, when it says the same --version) or copy it into the login user's cache
# over SFTP, check its sha256 there and use it; --remote-hcclctl still wins; a copy that
# cannot start is named with the library and the package. Each node's PATH and cache are
# the test's (sshd's SetEnv); node 4's loader finds a broken libcjson.so.1 first
# (LD_LIBRARY_PATH), as a node whose library is missing or damaged would. Run as root.
# harness: alone (beside a neighbour, at load 15, a .run.* directory was left in node 2's cache:
# 2 failures; likely a session cancelled between its private copy's mktemp and its rm)
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/netns.sh"

err_has() { printf '%s\n' "$ERR" | grep -qF -- "$1"; }
out_has() { printf '%s\n' "$OUT" | grep -qF -- "$1"; }

# the loader's own words, which the report must carry: unit-tested in test_deploy.c too
mkdir -p "$TMP/badlib"
: >"$TMP/badlib/libcjson.so.1"
run env LD_LIBRARY_PATH="$TMP/badlib" "$HCCLCTL" --version
check_rc 127 "this host's loader refuses hcclctl with a broken libcjson.so.1 first on its path"
err_has "error while loading shared libraries: $TMP/badlib/libcjson.so.1: file too short"
_report $? "  and says which library" "$ERR"

cluster_require
if ! command -v sha256sum >/dev/null 2>&1; then
	skip "sha256sum is not installed (coreutils)"
	done_testing
	exit 0
fi
cluster_up_or_end 4

self=$(realpath "$HCCLCTL")
ver=$("$HCCLCTL" --version | head -n 1)
sha=$(sha256sum <"$self" | cut -c1-64)
dir="${ver#hcclctl }-$(printf '%s' "$sha" | cut -c1-16)"
# node 1: this hcclctl on its PATH; node 2: none; node 3: another build of this version;
# node 4: none, and (later) a loader that cannot load libcjson
mkdir -p "$TMP/bin1" "$TMP/bin3"
ln -s "$self" "$TMP/bin1/hcclctl"
printf '#!/bin/sh\nprintf "%s\\ncommit 000000000000\\nbuild-id 00112233\\n"\n' "$ver" >"$TMP/bin3/hcclctl"
chmod +x "$TMP/bin3/hcclctl"
for i in 1 2 3 4; do
	mkdir -p "$TMP/cache$i"
	cluster_node_env "$i" "PATH=$TMP/bin$i:/usr/bin:/bin" "XDG_CACHE_HOME=$TMP/cache$i"
done
copy_of() { echo "$TMP/cache$1/hcclctl/$dir/hcclctl"; }

mkdir -p "$TMP/hccn"
for i in 1 2 3 4; do
	printf 'address_0=192.168.10.%d\naddress_1=192.168.11.%d\n' "$i" "$i" >"$TMP/hccn/10.77.0.$i"
done
hcclctl ranktable gen --servers "$(cluster_hosts)" --devices 0-1 --hccn-conf-dir "$TMP/hccn" \
	-o "$TMP/rt.json" 2>/dev/null
RT=$TMP/rt.json

rx() {
	cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" "$@" --ssh-user root --ssh-key "$CL_KEY" \
		--ssh-known-hosts "$CL_KNOWN_HOSTS"
}
# exec's command comes last: the SSH options go before it
rxe() {
	cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" exec --ssh-user root --ssh-key "$CL_KEY" \
		--ssh-known-hosts "$CL_KNOWN_HOSTS" "$@"
}
rows_ok() {
	printf '%s\n' "$OUT" | awk -v want="$1" '/^ +[0-9]/ {n++; if ($9 != "0" || ($13 != "0" && $13 != "N/A")) bad++} END {exit !(n == want && !bad)}'
}

# ---- run --ssh without --remote-hcclctl ----
run rx -v run allreduce --ranktable "$RT" --ssh -b 8 -e 64K
check_rc 0 "run --ssh, 8 ranks on 4 nodes, no hcclctl given: exit 0"
rows_ok 14
_report $? "  14 rows, #wrong 0 on every one" "$OUT"
err_has "hcclctl: run allreduce: 10.77.0.1: its own hcclctl $TMP/bin1/hcclctl"
_report $? "  node 1 runs its own hcclctl (the same version)" "$ERR"
err_has "hcclctl: run allreduce: 10.77.0.2: copied this hcclctl $(copy_of 2) (it has none on PATH)"
_report $? "  node 2 (none on PATH) got a copy in its user's cache" "$ERR"
err_has "hcclctl: run allreduce: 10.77.0.3: copied this hcclctl $(copy_of 3) (its own $TMP/bin3/hcclctl says '$ver, build-id 00112233')"
_report $? "  node 3 (the same version, another build) got a copy too, naming what it had" "$ERR"
ok "[ ! -e '$TMP/cache1/hcclctl' ]" "  nothing was copied to node 1"
for i in 2 3 4; do
	[ "$(sha256sum <"$(copy_of $i)" | cut -c1-64)" = "$sha" ] && [ -x "$(copy_of $i)" ]
	_report $? "  node $i's copy is executable and has this binary's sha256" "$(ls -l "$TMP/cache$i/hcclctl/$dir" 2>&1)"
done
ok "[ -z \"\$(find '$TMP/cache2' -name '*.tmp*')\" ]" "  no temporary file is left beside a copy"

ino=$(stat -c %i "$(copy_of 2)")
run rx -v run allreduce --ranktable "$RT" --ssh -b 8 -e 8
check_rc 0 "a second run: exit 0"
err_has "hcclctl: run allreduce: 10.77.0.2: the cached hcclctl $(copy_of 2)"
_report $? "  uses the cached copy" "$ERR"
ok "[ '$(stat -c %i "$(copy_of 2)")' = '$ino' ]" "  without copying it again"

# a damaged copy fails its sha256 and is replaced
printf 'not hcclctl' >"$(copy_of 3)"
run rx -v run allreduce --ranktable "$RT" --ssh -b 8 -e 8
check_rc 0 "a copy whose sha256 is wrong: exit 0"
err_has "hcclctl: run allreduce: 10.77.0.3: copied this hcclctl $(copy_of 3)"
_report $? "  it is copied again" "$ERR"
[ "$(sha256sum <"$(copy_of 3)" | cut -c1-64)" = "$sha" ]
_report $? "  and has the right sha256 now"

# --remote-hcclctl still wins: nothing is looked at or copied
rm -rf "$TMP/cache2/hcclctl"
run rx -v run allreduce --ranktable "$RT" --ssh -b 8 -e 8 --remote-hcclctl "$self"
check_rc 0 "--remote-hcclctl PATH: exit 0"
ok "[ ! -e '$TMP/cache2/hcclctl' ]" "  nothing copied"
! err_has "copied this"
_report $? "  nor said to be" "$ERR"

# ---- a node where the copy cannot start ----
cluster_node_env 4 "PATH=$TMP/bin4:/usr/bin:/bin" "XDG_CACHE_HOME=$TMP/cache4" \
	"LD_LIBRARY_PATH=$TMP/badlib"
loader="10.77.0.4: hcclctl cannot start there: the loader cannot load libcjson.so.1 ($TMP/badlib/libcjson.so.1: file too short); install libcjson1 on the node"
run rx run allreduce --ranktable "$RT" --ssh -b 8 -e 8
check_rc 3 "run --ssh where the copy cannot start: exit 3"
err_has "hcclctl: run allreduce: ranks 6-7 on 10.77.0.4 could not start: $loader"
_report $? "  the server is named with its ranks, the library and the package" "$ERR"
err_has "hcclctl: verdict: config: "
_report $? "  a config verdict" "$ERR"
none_left=0
cluster_none_left || none_left=1
_report $none_left "  no hcclctl left on any node" "$(cluster_procs)"
rm -rf "$TMP/cache4/hcclctl"
run rx run allreduce --ranktable "$RT" --ssh -b 8 -e 8
check_rc 3 "  the same with no cached copy (copied, then it cannot start): exit 3"
err_has "$loader"
_report $? "  named the same way" "$ERR"

# ---- exec --deploy ----
run rxe --deploy --hosts 10.77.0.1,10.77.0.2,10.77.0.3 -- hcclctl --version
check_rc 0 "exec --deploy: exit 0"
[ "$(printf '%s\n' "$OUT" | grep -c "^$ver\$")" = 3 ]
_report $? "  'hcclctl' in the command is this version on every node" "$OUT"
run rxe --deploy --hosts 10.77.0.2 -- sh -c 'echo "$HCCLCTL"; cmp "$HCCLCTL" "$1" && echo same' sh "$(copy_of 2)"
check_rc 0 "  \$HCCLCTL is its path"
printf '%s\n' "$OUT" | grep -qx "$(copy_of 2 | sed 's|/hcclctl$||')/\.run\.[A-Za-z0-9]\{6\}/hcclctl" &&
	printf '%s\n' "$OUT" | grep -qx same
_report $? "  (a private copy, checked, of the cached one on node 2)" "$OUT"
ok "[ -z \"\$(find '$TMP/cache2' -name '.run.*')\" ]" "  removed when the command ends"
run rxe --hosts 10.77.0.2 -- hcclctl --version
check_rc 2 "exec without --deploy runs the node's own PATH: none on node 2, exit 2"
run rxe --deploy --hosts 10.77.0.4 -- hcclctl --version
check_rc 3 "exec --deploy where it cannot start: exit 3"
err_has "hcclctl: exec: $loader"
_report $? "  names the library and the package" "$ERR"
out_has "== 10.77.0.4: cannot-start"
_report $? "  and the host's status" "$OUT"

# ---- the cached copy swapped between its check and its run ----
# Node 2's sha256sum swaps the cached copy for another program right after the check that
# deploy.c makes when it looks (once): neither that look's --version nor the line that runs
# hcclctl may run the file itself; each runs a private copy it checked.
mkdir -p "$TMP/bin2"
cat >"$TMP/evil" <<EOF
#!/bin/sh
{ echo "ran \$*"; echo "secret=\$HCCLCTL_SECRET"; } >>"$TMP/pwned"
echo "$ver"
EOF
chmod 755 "$TMP/evil"
cat >"$TMP/bin2/sha256sum" <<EOF
#!/bin/sh
s=\$(/usr/bin/sha256sum "\$@") || exit
if [ -e "$TMP/armed" ]; then
	rm -f "$TMP/armed"
	cp "$TMP/evil" "$(copy_of 2).new" && mv "$(copy_of 2).new" "$(copy_of 2)"
fi
printf '%s\n' "\$s"
EOF
chmod 755 "$TMP/bin2/sha256sum"
swapped="$(copy_of 2) is not the hcclctl that was checked (its sha256 changed); nothing was run"

cluster_node_env 4 "PATH=$TMP/bin4:/usr/bin:/bin" "XDG_CACHE_HOME=$TMP/cache4"
rm -f "$TMP/pwned"
touch "$TMP/armed"
run rx -v run allreduce --ranktable "$RT" --ssh -b 8 -e 8
check_rc 3 "run --ssh with node 2's cached copy swapped after its check: exit 3"
err_has "hcclctl: run allreduce: 10.77.0.2: the cached hcclctl $(copy_of 2)"
_report $? "  the copy passed the first check (the swap came after it)" "$ERR"
ok "[ ! -e '$TMP/armed' ] && [ ! -e '$TMP/pwned' ]" "  the swapped-in program never ran, nor got the job's secret"
err_has "$swapped"
_report $? "  the rank's line says why" "$ERR"
none_left=0
cluster_none_left || none_left=1
_report $none_left "  no hcclctl left on any node" "$(cluster_procs)"

run rxe --deploy --hosts 10.77.0.2 -- true # the run above left the swapped file: copied again
rm -f "$TMP/pwned"
touch "$TMP/armed"
run rxe --deploy --hosts 10.77.0.2 -- hcclctl --version
ok "[ ! -e '$TMP/armed' ] && [ ! -e '$TMP/pwned' ]" "exec --deploy, the copy swapped after its check: the swapped-in program never ran"
out_has "$swapped"
_report $? "  the host's block says why" "$OUT"
ok "[ -z \"\$(find '$TMP/cache2' -name '.run.*')\" ]" "  no private copy is left behind"

run rxe --deploy --hosts 10.77.0.2 -- hcclctl --version
check_rc 0 "the next run finds the swapped copy wrong and copies this hcclctl again: exit 0"
[ "$(sha256sum <"$(copy_of 2)" | cut -c1-64)" = "$sha" ]
_report $? "  the cached copy is this hcclctl again"
cluster_node_env 4 "PATH=$TMP/bin4:/usr/bin:/bin" "XDG_CACHE_HOME=$TMP/cache4" \
	"LD_LIBRARY_PATH=$TMP/badlib"

# ---- doctor ----
run rx --json doctor --hosts 10.77.0.3,10.77.0.4 --checks node.reach,host.shm
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
reach = {c["node"]: c for c in d["checks"] if c["code"] == "node.reach"}
assert reach["10.77.0.3"]["status"] == "PASS", reach
assert reach["10.77.0.4"]["status"] == "FAIL", reach
assert "libcjson.so.1" in reach["10.77.0.4"]["message"] and "libcjson1" in reach["10.77.0.4"]["message"], reach
' 2>"$TMP/py.err"
_report $? "doctor: node 3 (another build) is reached with a copy; node 4 fails node.reach naming libcjson.so.1 and libcjson1" "$OUT" "$(cat "$TMP/py.err")"
check_rc 2 "  exit 2"

done_testing
