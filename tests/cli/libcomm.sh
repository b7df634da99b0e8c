# What install.t and deb.t check of an installed libcomm, wherever it was installed:
# check_exports SO HEADER          nm -D: exactly the functions HEADER declares, all comm_
# example_build DIR PCDIR SYSROOT  the example copied to DIR, outside the tree, and built
#                                  there by its own Makefile with pkg-config alone
# example_check BIN LIBDIR DESC    it runs with 3 ranks on LIBDIR's libcomm; exact sums
# Both need lib.sh first. The tests below make their own installs, so they call make
# themselves; the make that runs the tests must not hand them its job server.
unset MAKEFLAGS MAKELEVEL MFLAGS
VERSION=$(sed -n 's/^VERSION *:= *//p' Makefile)
# shellcheck disable=SC2034 # used by the tests that source this
MAJOR=${VERSION%%.*}
EX_RANKS=3
EX_COUNT=100003 # odd, and more than one ring chunk per rank

# The function names libcomm.h declares (comments removed, so a name a comment mentions
# does not count).
header_functions() {
	perl -0777 -ne 's{/\*.*?\*/}{}gs; print "$1\n" while /\b(comm_[a-z0-9_]+)\s*\(/g' "$1" |
		sort -u
}

check_exports() {
	nm -D --defined-only "$1" | awk '{print $3}' | sort >"$TMP/exported"
	header_functions "$2" >"$TMP/declared"
	[ "$(wc -l <"$TMP/declared")" -gt 40 ] && grep -qx comm_allreduce "$TMP/declared" &&
		cmp -s "$TMP/exported" "$TMP/declared"
	_report $? "nm -D $(basename "$1"): exactly the functions libcomm.h declares" \
		"$(diff "$TMP/declared" "$TMP/exported")"
	bad=$(grep -v '^comm_[a-z0-9]' "$TMP/exported")
	[ -z "$bad" ]
	_report $? "nm -D $(basename "$1"): only comm_ names, no comm__ internals" "$bad"
	# what it imports comes from the C library and OpenSSL, never from hcclctl's other
	# layers (-z defs would not have linked it otherwise; this says so of the result)
	bad=$(nm -D --undefined-only "$1" | awk '$1 == "U" && $2 !~ /@(GLIBC|OPENSSL)_/ {print $2}')
	[ -z "$bad" ]
	_report $? "nm -D $(basename "$1"): imports only from libc and libcrypto" "$bad"
}

example_build() { # DIR PCDIR SYSROOT [make arguments]
	dir=$1 pcdir=$2 sysroot=$3
	shift 3
	mkdir -p "$dir"
	cp examples/libcomm/allreduce.c examples/libcomm/Makefile "$dir/"
	# the project's warnings, so the example is held to the same standard
	(cd "$dir" && PKG_CONFIG_PATH=$pcdir PKG_CONFIG_SYSROOT_DIR=$sysroot \
		make -s CFLAGS="-O2 -g -std=c11 -pedantic -Wall -Wextra -Wshadow -Wformat=2 \
		-Wstrict-prototypes -Wmissing-prototypes -Wvla -Wwrite-strings -Werror" "$@")
}

# What every rank must print: element i sums r * COUNT + i over the ranks r.
example_expected() {
	n=$1 c=$2
	sum=$((c * c * n * (n - 1) / 2 + n * c * (c - 1) / 2))
	r=0
	while [ $r -lt "$n" ]; do
		echo "rank $r: checksum $sum, 0 wrong"
		r=$((r + 1))
	done
	echo "allreduce of $c int64 over $n ranks: correct"
}

example_check() { # BIN LIBDIR DESC
	run env LD_LIBRARY_PATH="$2" "$1" $EX_RANKS $EX_COUNT
	check_rc 0 "$3: $EX_RANKS ranks, exit 0"
	check_out "$(example_expected $EX_RANKS $EX_COUNT)" "$3: every rank has the right sums"
}
