#!/bin/sh
# make deb: the tool's package and libcomm's -dev package, with the project's version and
# the runtime packages of the libraries hcclctl loads as dependencies; unpacked into a
# scratch root (dpkg -x), the installed hcclctl runs and validates rank tables, and the
# example builds against the -dev package with pkg-config alone and runs with 3 ranks.
# harness: alone (it runs make in this tree, which must not relink what other tests run)
# harness: once (it runs the ./hcclctl it builds, never $HCCLCTL: cli-asan would repeat it)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/libcomm.sh"

if ! command -v dpkg-deb >/dev/null 2>&1 || ! command -v dpkg-shlibdeps >/dev/null 2>&1; then
	skip "needs dpkg-deb and dpkg-shlibdeps (dpkg-dev): not a Debian system"
	done_testing
	exit
fi
ARCH=$(dpkg --print-architecture)
MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || cc -print-multiarch)
OUTDIR=$(pwd)/build/deb
TOOL=$OUTDIR/hcclctl_${VERSION}_$ARCH.deb
DEV=$OUTDIR/libcomm-dev_${VERSION}_$ARCH.deb
rm -f "$TOOL" "$DEV"

run make -s deb
check_rc 0 "make deb"
check_out "$TOOL
$DEV" "builds hcclctl_${VERSION}_$ARCH.deb and libcomm-dev_${VERSION}_$ARCH.deb"
check_err "" "without a warning"

run dpkg-deb -f "$TOOL" Package Version Architecture
check_out "Package: hcclctl
Version: $VERSION
Architecture: $ARCH" "the tool's package: name, the Makefile's version, this architecture"
run dpkg-deb -f "$DEV" Package Version Depends
check_out "Package: libcomm-dev
Version: $VERSION
Depends: hcclctl (= $VERSION), libssl-dev" "the -dev package needs the library of the same version"

# Every library hcclctl loads comes from a package the .deb depends on: cJSON, libcurl,
# libssh2, libibverbs (when built with it), OpenSSL, zlib, libc. libcurl is opened at run
# time, so no NEEDED entry names it: Depends must have it all the same.
depends=$(dpkg-deb -f "$TOOL" Depends | tr ',' '\n' | sed 's/^ *//; s/ .*//')
missing=""
needed=$(readelf -d ./hcclctl | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
for so in $needed; do
	path=$(ldd ./hcclctl | awk -v so="$so" '$1 == so {print $3}')
	pkg=$( (dpkg -S "$path" || dpkg -S "$(realpath "$path")") 2>/dev/null | head -1 | cut -d: -f1)
	printf '%s\n' "$depends" | grep -qx "$pkg" || missing="$missing $so($pkg)"
done
[ -n "$needed" ] && [ -z "$missing" ]
_report $? "Depends names the package of every library hcclctl loads" "missing:$missing" "Depends: $depends"
for want in libcjson libcurl libssh2; do
	printf '%s\n' "$depends" | grep -q "^$want"
	_report $? "Depends has the runtime package of $want" "Depends: $depends"
done
if printf '%s\n' "$needed" | grep -q '^libibverbs'; then
	printf '%s\n' "$depends" | grep -q '^libibverbs'
	_report $? "Depends has the runtime package of libibverbs" "Depends: $depends"
else
	skip "hcclctl was built without libibverbs (no libibverbs-dev), so it does not depend on it"
fi

run dpkg-deb -I "$TOOL" shlibs
check_out "libcomm $MAJOR hcclctl (>= $VERSION)" "shlibs: programs built on libcomm.so.$MAJOR depend on hcclctl"
run dpkg-deb -I "$TOOL" triggers
check_out "activate-noawait ldconfig" "installing it refreshes the loader's cache"

# ---- what each package holds ----
listing() { (cd "$1" && find . \( -type f -o -type l \) | sed 's|^\./||' | LC_ALL=C sort); }
dpkg -x "$TOOL" "$TMP/tool"
dpkg -x "$DEV" "$TMP/dev"
{
	echo usr/bin/hcclctl
	echo "usr/lib/$MA/libcomm.so.$MAJOR"
	echo "usr/lib/$MA/libcomm.so.$VERSION"
	echo usr/share/bash-completion/completions/hcclctl
	echo usr/share/fish/vendor_completions.d/hcclctl.fish
	for m in man/*.1; do echo "usr/share/man/man1/${m#man/}.gz"; done
	echo usr/share/zsh/vendor-completions/_hcclctl
} | LC_ALL=C sort >"$TMP/want"
listing "$TMP/tool" >"$TMP/got"
cmp -s "$TMP/want" "$TMP/got"
_report $? "hcclctl holds the tool, libcomm.so, man pages and completions" "$(diff "$TMP/want" "$TMP/got")"
printf '%s\n' usr/include/libcomm.h "usr/lib/$MA/libcomm.a" "usr/lib/$MA/libcomm.so" \
	"usr/lib/$MA/pkgconfig/libcomm.pc" | LC_ALL=C sort >"$TMP/want"
listing "$TMP/dev" >"$TMP/got"
cmp -s "$TMP/want" "$TMP/got"
_report $? "libcomm-dev holds the header, libcomm.a, the link and the .pc" "$(diff "$TMP/want" "$TMP/got")"

dpkg-deb -e "$TOOL" "$TMP/tool/DEBIAN"
(cd "$TMP/tool" && md5sum -c --quiet DEBIAN/md5sums) >"$TMP/md5" 2>&1
_report $? "its md5sums match what it holds" "$(cat "$TMP/md5")"
gzip -dc "$TMP/tool/usr/share/man/man1/hcclctl.1.gz" | cmp -s - man/hcclctl.1
_report $? "the man pages are the tree's, compressed"
! readelf -S "$TMP/tool/usr/bin/hcclctl" | grep -q '\.debug_info'
_report $? "the packaged binary is stripped of debug sections"

# ---- unpacked into one scratch root, as on a node ----
R=$TMP/root
dpkg -x "$TOOL" "$R"
dpkg -x "$DEV" "$R"
run "$R/usr/bin/hcclctl" --version
check_rc 0 "the installed hcclctl --version: exit 0"
check_out_has "hcclctl $VERSION" "prints the package's version"

run "$R/usr/bin/hcclctl" ranktable validate "$FIXTURES/hccl_doc_v1.0_atlas910_2srv_2dev.json"
check_rc 0 "the installed hcclctl validates a good rank table: exit 0"
check_out "$FIXTURES/hccl_doc_v1.0_atlas910_2srv_2dev.json: valid: 0 errors, 0 warnings (format 1.0, 2 servers, 4 ranks)" \
	"with the summary line"
bad=tests/data/ranktables/bad/device_ip_duplicate.json
run "$R/usr/bin/hcclctl" ranktable validate "$bad"
check_rc 2 "and refuses a bad one: exit 2"
check_out_has "$bad:7:79: error: device_ip \"192.168.1.8\" is used twice: server \"node_0\" device 0 and server \"node_1\" device 0 (HCCL EI0014) [device-ip-duplicate]" \
	"naming the line, column and rule"

L=$R/usr/lib/$MA
check_exports "$L/libcomm.so.$VERSION" "$R/usr/include/libcomm.h"
E=$TMP/example
run example_build "$E" "$L/pkgconfig" "$R"
check_rc 0 "the example builds against libcomm-dev with pkg-config alone"
run env LD_LIBRARY_PATH="$L" ldd "$E/allreduce"
printf '%s\n' "$OUT" | grep -qF "libcomm.so.$MAJOR => $L/libcomm.so.$MAJOR "
_report $? "it loads the packaged libcomm" "$OUT"
example_check "$E/allreduce" "$L" "the example on the packaged libcomm"

done_testing
