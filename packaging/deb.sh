#!/bin/sh
# Cuts the Debian packages out of a staged install (make install DESTDIR=STAGE PREFIX=/usr),
# as `make deb` does. The table says which staged file goes into which package, and every
# staged file must go into exactly one, so a file that install gains is never lost or
# shipped twice. A package's runtime dependencies are what dpkg-shlibdeps finds its ELF
# files load, and for the hcclctl package those of DLOPENED, a program that links what
# hcclctl opens at run time (libcurl); its fixed ones are in packaging/PACKAGE.control.
# Usage: sh packaging/deb.sh STAGE OUTDIR VERSION ARCH [DLOPENED]
set -eu
umask 022 # the packaged directories are 0755 whatever the caller's umask

die() {
	echo "deb.sh: $*" >&2
	exit 1
}
[ $# -eq 4 ] || [ $# -eq 5 ] || die "usage: deb.sh STAGE OUTDIR VERSION ARCH [DLOPENED]"
version=$3 arch=$4 dlopened=${5:-}
[ -z "$dlopened" ] || [ -f "$dlopened" ] || die "$dlopened: no such program"
here=$(cd "$(dirname "$0")" && pwd)
[ -d "$1" ] || die "$1: no staged install"
stage=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)

# package      files of the staged install (shell patterns)
TABLE='
hcclctl        usr/bin/hcclctl
hcclctl        usr/lib/*/libcomm.so.*
hcclctl        usr/share/man/man1/*.1
hcclctl        usr/share/bash-completion/completions/hcclctl
hcclctl        usr/share/zsh/vendor-completions/_hcclctl
hcclctl        usr/share/fish/vendor_completions.d/hcclctl.fish
libcomm-dev    usr/include/libcomm.h
libcomm-dev    usr/lib/*/libcomm.so
libcomm-dev    usr/lib/*/libcomm.a
libcomm-dev    usr/lib/*/pkgconfig/libcomm.pc
'

work=$out/work
rm -rf "$work"
mkdir -p "$work/debian"
# dpkg-shlibdeps wants to run in a source tree; an empty control is all it reads
: >"$work/debian/control"

printf '%s\n' "$TABLE" | while read -r pkg pat; do
	[ -n "$pkg" ] || continue
	(
		cd "$stage"
		for f in $pat; do
			[ -e "$f" ] || [ -L "$f" ] || die "$stage: nothing matches '$pat' (package $pkg)"
			echo "$pkg $f"
		done
	)
done >"$work/claimed"

(cd "$stage" && find . \( -type f -o -type l \) | sed 's|^\./||' | sort) >"$work/staged"
awk '{print $2}' "$work/claimed" | sort >"$work/taken"
twice=$(uniq -d "$work/taken" | head -1)
[ -z "$twice" ] || die "$stage/$twice: in two packages"
stray=$(comm -23 "$work/staged" "$work/taken" | head -1)
[ -z "$stray" ] || die "$stage/$stray: in no package (add it to the table in packaging/deb.sh)"

while read -r pkg f; do
	mkdir -p "$work/debian/$pkg/$(dirname "$f")"
	cp -P "$stage/$f" "$work/debian/$pkg/$f"
done <"$work/claimed"

is_elf() { [ ! -L "$1" ] && [ "$(head -c 4 "$1" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; }

for pkg in $(awk '{print $1}' "$work/claimed" | uniq); do
	root=$work/debian/$pkg
	mkdir -p "$root/DEBIAN"
	# what dh_installman and dh_strip would do: compressed man pages, no debug sections
	find "$root/usr/share/man" -type f -name '*.[0-9]' -exec gzip -9n {} + 2>/dev/null || true
	elves=""
	for f in $(cd "$root" && find usr -type f | sort); do
		case $f in
		*.a) strip --strip-debug "$root/$f" ;;
		*)
			is_elf "$root/$f" || continue
			strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/$f"
			elves="$elves debian/$pkg/$f"
			;;
		esac
	done

	# inside the package's directory, as dpkg-shlibdeps wants, only while it runs
	if [ "$pkg" = hcclctl ] && [ -n "$dlopened" ]; then
		cp "$dlopened" "$root/dlopened"
		elves="$elves debian/$pkg/dlopened"
	fi
	shlibs=""
	if [ -n "$elves" ]; then
		# shellcheck disable=SC2086
		shlibs=$(cd "$work" && dpkg-shlibdeps -O $elves 2>"$work/shlibdeps.err") ||
			die "dpkg-shlibdeps failed: $(cat "$work/shlibdeps.err")"
		rm -f "$root/dlopened"
		cat "$work/shlibdeps.err" >&2 # its warnings (a library no package holds ...)
		shlibs=${shlibs#shlibs:Depends=}
	fi
	# a shared library: tell dpkg-shlibdeps of other packages what to depend on, and
	# refresh the loader's cache when it is installed
	for lib in $(cd "$root" && find usr/lib -type f -name 'lib*.so.*' 2>/dev/null); do
		soname=$(objdump -p "$root/$lib" | awk '$1 == "SONAME" {print $2}')
		echo "${soname%%.so.*} ${soname##*.so.} $pkg (>= $version)" >>"$root/DEBIAN/shlibs"
		echo "activate-noawait ldconfig" >"$root/DEBIAN/triggers"
	done

	(cd "$root" && find usr -type f | sort | xargs md5sum) >"$root/DEBIAN/md5sums"
	size=$(du -sk --exclude=DEBIAN "$root" | awk '{print $1}')
	sed -e "s|@VERSION@|$version|g" -e "s|@ARCH@|$arch|g" -e "s|@SIZE@|$size|g" \
		-e "s|@SHLIBS@|$shlibs|g" "$here/$pkg.control" >"$root/DEBIAN/control"
	dpkg-deb --root-owner-group --build "$root" "$out/${pkg}_${version}_$arch.deb" >/dev/null
	echo "$out/${pkg}_${version}_$arch.deb"
done
