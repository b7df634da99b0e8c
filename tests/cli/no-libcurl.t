#!/bin/sh
# hcclctl on a node without libcurl: it opens libcurl only to read a URL (cmd/cli/curlapi.c),
# so --version and every local command work, and a URL fails like any fetch, naming the
# library and the package to install. The library is hidden from this test's commands alone:
# a private mount namespace (unshare -rm) with /dev/null bound over the file, which the
# dynamic loader then refuses ("file too short"), as it would a missing or broken install.
. "$(dirname "$0")/lib.sh"
GOOD=$FIXTURES/hccl_doc_v1.0_atlas910_2srv_2dev.json

lib=$(ldconfig -p 2>/dev/null | awk '$1 == "libcurl.so.4" && /x86-64|AArch64|64bit/ {print $NF; exit}')
[ -n "$lib" ] || lib=$(ldconfig -p 2>/dev/null | awk '$1 == "libcurl.so.4" {print $NF; exit}')
if [ -z "$lib" ] || ! unshare -rm true 2>/dev/null; then
	skip "needs libcurl.so.4 in the loader's cache and unshare -rm (user namespaces)"
	done_testing
	exit
fi
# nocurl CMD...: CMD where libcurl.so.4 cannot be loaded (from $lib, the cache's path)
nocurl() { unshare -rm sh -c 'mount --bind /dev/null "$1" && shift && exec "$@"' sh "$(readlink -f "$lib")" "$@"; }

run nocurl "$HCCLCTL" ranktable validate "$GOOD"
check_rc 0 "a local rank table: exit 0, as with libcurl"
check_out "$GOOD: valid: 0 errors, 0 warnings (format 1.0, 2 servers, 4 ranks)" "  the same summary"

run nocurl "$HCCLCTL" --version
check_rc 0 "--version: exit 0"
check_out_has "hcclctl $(sed -n 's/^VERSION := //p' Makefile)" "  the version"
run nocurl "$HCCLCTL" --version -v
check_rc 0 "--version -v: exit 0"
printf '%s\n' "$OUT" >"$TMP/vv"
ok "grep -q '^libraries cJSON [0-9.]*, libcurl not available, libssh2 [0-9.]*, OpenSSL ' '$TMP/vv'" \
	"  libcurl is not available, in place of its version"
run nocurl "$HCCLCTL" --json -v --version
printf '%s' "$OUT" >"$TMP/v.json"
ok "python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
assert d[\"libraries\"][\"libcurl\"] is None and d[\"libraries\"][\"cjson\"], d
' '$TMP/v.json'" "  --json: libcurl null"

# no server: the library is missing before any connection is tried
U=http://127.0.0.1:9/hccl.json
run nocurl "$HCCLCTL" ranktable validate "$U"
check_rc 3 "a URL: exit 3, as any fetch that fails"
check_err "hcclctl: ranktable validate: $U: cannot load libcurl.so.4, the library hcclctl reads URLs with ($lib: file too short): install libcurl4 (libcurl4t64 on Debian 13, Ubuntu 24.04)" \
	"  naming the library, the loader's reason and the package"
run "$HCCLCTL" ranktable validate "$U"
check_rc 3 "with libcurl the same URL gets as far as the connection"
ok "! grep -q 'cannot load' '$TMP/err'" "  and no word of loading"

done_testing
