#!/bin/sh
# make install and make uninstall in a DESTDIR: exactly the files, where each tool looks for
# them, under the directories the variables name; libcomm as a shared library that exports
# only the comm_ API and a static one that hides its internals too; and the example, built
# outside the tree against the installed library by pkg-config alone, run with 3 ranks.
# It installs the release build (./hcclctl and build/lib) in either CLI tier.
# harness: alone (it runs make in this tree, which must not relink what other tests run)
# harness: once (it runs the ./hcclctl it builds, never $HCCLCTL: cli-asan would repeat it)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/libcomm.sh"

# ---- every variable moved away from its default ----
D=$TMP/dest
P=/opt/hcc
VARS="PREFIX=$P BINDIR=$P/sbin LIBDIR=$P/lib64 INCLUDEDIR=$P/inc MANDIR=$P/man"
# shellcheck disable=SC2086
run make -s install DESTDIR="$D" $VARS
check_rc 0 "make install DESTDIR=... $VARS"
check_err "" "and quiet"

{
	echo "$P/inc/libcomm.h"
	echo "$P/lib64/libcomm.a"
	echo "$P/lib64/libcomm.so"
	echo "$P/lib64/libcomm.so.$MAJOR"
	echo "$P/lib64/libcomm.so.$VERSION"
	echo "$P/lib64/pkgconfig/libcomm.pc"
	for m in man/*.1; do echo "$P/man/man1/${m#man/}"; done
	echo "$P/sbin/hcclctl"
	echo "$P/share/bash-completion/completions/hcclctl"
	echo "$P/share/fish/vendor_completions.d/hcclctl.fish"
	echo "$P/share/zsh/site-functions/_hcclctl"
} | LC_ALL=C sort >"$TMP/want"
(cd "$D" && find . \( -type f -o -type l \) | sed 's|^\.||' | LC_ALL=C sort) >"$TMP/got"
cmp -s "$TMP/want" "$TMP/got"
_report $? "installs exactly the tool, the libraries, the header, the .pc, man pages, completions" \
	"$(diff "$TMP/want" "$TMP/got")"

L=$D$P/lib64
ok "cmp -s ./hcclctl '$D$P/sbin/hcclctl' && [ -x '$D$P/sbin/hcclctl' ]" "the installed hcclctl is the built one"
run "$D$P/sbin/hcclctl" --version
check_out_has "hcclctl $VERSION" "the installed hcclctl runs: --version"
ok "cmp -s man/hcclctl-run.1 '$D$P/man/man1/hcclctl-run.1'" "man pages go to MANDIR/man1"

run readlink "$L/libcomm.so"
check_out "libcomm.so.$MAJOR" "libcomm.so -> libcomm.so.$MAJOR (the link programs are built with)"
run readlink "$L/libcomm.so.$MAJOR"
check_out "libcomm.so.$VERSION" "libcomm.so.$MAJOR -> libcomm.so.$VERSION (the one they load)"
run sh -c "readelf -d '$L/libcomm.so.$VERSION' | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p'"
check_out "libcomm.so.$MAJOR" "its SONAME is libcomm.so.$MAJOR"
run sh -c "readelf -d '$L/libcomm.so.$VERSION' | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p' | sort"
printf '%s\n' "$OUT" | grep -qx 'libcrypto\.so\.[0-9.]*' &&
	! printf '%s\n' "$OUT" | grep -vx 'libc\.so\.6' | grep -qvx 'libcrypto\.so\.[0-9.]*'
_report $? "libcomm loads only libc and libcrypto (none of hcclctl's other libraries)" "NEEDED: $OUT"

check_exports "$L/libcomm.so.$VERSION" libcomm/libcomm.h
nm "$L/libcomm.so.$VERSION" | grep -q ' t comm__'
_report $? "the comm__ internals are in the library, as local symbols"

# The static library: one object with only the comm_ names global, so a program may define
# a name libcomm uses inside without a clash.
nm -g --defined-only "$L/libcomm.a" | awk 'NF == 3 {print $3}' | sort >"$TMP/static"
cmp -s "$TMP/static" "$TMP/exported"
_report $? "libcomm.a defines the same comm_ names as libcomm.so, nothing else global" \
	"$(diff "$TMP/exported" "$TMP/static")"

# ---- the .pc: relative to the prefix ----
run sed -n -e '1,3p' -e '/^Version:/p' -e '/^Cflags:/p' -e '/^Libs:/p' "$L/pkgconfig/libcomm.pc"
check_out "prefix=$P
libdir=\${prefix}/lib64
includedir=\${prefix}/inc
Version: $VERSION
Cflags: -I\${includedir}
Libs: -L\${libdir} -lcomm" "libcomm.pc names the directories of the install, under \${prefix}"

run env PKG_CONFIG_PATH="$L/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$D" pkg-config --modversion libcomm
check_out "$VERSION" "pkg-config finds libcomm $VERSION in the DESTDIR"

# ---- the example, outside the tree, with pkg-config alone ----
E=$TMP/example
run example_build "$E" "$L/pkgconfig" "$D"
check_rc 0 "the example builds outside the tree with pkg-config --cflags --libs libcomm"
check_err "" "without a warning"
ok "readelf -d '$E/allreduce' | grep -qF '[libcomm.so.$MAJOR]'" "it links libcomm.so.$MAJOR"
run env LD_LIBRARY_PATH="$L" ldd "$E/allreduce"
printf '%s\n' "$OUT" | grep -qF "libcomm.so.$MAJOR => $L/libcomm.so.$MAJOR "
_report $? "it loads the installed libcomm, not one of the tree" "$OUT"
example_check "$E/allreduce" "$L" "the example on the installed libcomm.so"

run env LD_LIBRARY_PATH="$L" "$E/allreduce" 0
check_rc 64 "the example refuses 0 ranks: exit 64"
check_err "usage: allreduce [NRANKS (1-64) [COUNT (0-67108864)]]" "with its usage"

# Statically, with a function of its own named like one of libcomm's internals.
inner=$(nm "$L/libcomm.a" | awk '$2 ~ /^[tT]$/ && $3 ~ /^comm__/ {print $3; exit}')
printf 'int %s(void);\nint %s(void) { return 0; }\n' "$inner" "$inner" >"$TMP/clash.c"
run example_build "$E/static" "$L/pkgconfig" "$D" allreduce-static EXTRA_SRC="$TMP/clash.c"
check_rc 0 "the example links libcomm.a with pkg-config --static, beside its own $inner()"
ok "! readelf -d '$E/static/allreduce-static' | grep -qF libcomm" "that one needs no libcomm.so"
example_check "$E/static/allreduce-static" /nonexistent "the example on libcomm.a"

# ---- the completion bash loads, asking the installed hcclctl ----
run bash -c '. "$1"; complete -p hcclctl; COMP_WORDS=("$2" ranktable ""); COMP_CWORD=2; _hcclctl; printf "%s\n" "${COMPREPLY[@]}"' \
	sh "$D$P/share/bash-completion/completions/hcclctl" "$D$P/sbin/hcclctl"
check_out "complete -F _hcclctl hcclctl
$("$D$P/sbin/hcclctl" --completion-words ranktable)" "the installed bash completion completes from the installed hcclctl"

# ---- uninstall: exactly what install put, nothing of anyone else's ----
touch "$D$P/sbin/other" "$D$P/lib64/pkgconfig/other.pc"
# shellcheck disable=SC2086
run make -s uninstall DESTDIR="$D" $VARS
check_rc 0 "make uninstall with the same variables"
(cd "$D" && find . \( -type f -o -type l \) | sed 's|^\.||' | LC_ALL=C sort) >"$TMP/left"
printf '%s\n' "$P/lib64/pkgconfig/other.pc" "$P/sbin/other" >"$TMP/want"
cmp -s "$TMP/want" "$TMP/left"
_report $? "removes every file install put and no other" "$(diff "$TMP/want" "$TMP/left")"

# ---- the defaults ----
D2=$TMP/dest2
run make -s install DESTDIR="$D2"
check_rc 0 "make install DESTDIR=... with the default directories"
for f in bin/hcclctl lib/libcomm.so.$MAJOR lib/libcomm.a include/libcomm.h lib/pkgconfig/libcomm.pc \
	share/man/man1/hcclctl.1 share/bash-completion/completions/hcclctl \
	share/zsh/site-functions/_hcclctl share/fish/vendor_completions.d/hcclctl.fish; do
	[ -e "$D2/usr/local/$f" ]
	_report $? "PREFIX=/usr/local: $f"
done
run sed -n '1,3p' "$D2/usr/local/lib/pkgconfig/libcomm.pc"
check_out "prefix=/usr/local
libdir=\${prefix}/lib
includedir=\${prefix}/include" "libcomm.pc of the default install"

done_testing
