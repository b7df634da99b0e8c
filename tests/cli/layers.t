#!/bin/sh
# The layers (ranktable/base < libcomm < ranktable < probes < cmd; in cmd: cli < lib < a
# command's folder < cmd's top): scripts/layers.py reads every include of the sources and every
# call between the objects (nm), and finds what reaches up, one command reaching into another
# and any cycle of calls. It proves itself on a planted tree first, then checks the real one.
# harness: once (it reads the build's objects and scripts, never $HCCLCTL: cli-asan would repeat it)
. "$(dirname "$0")/lib.sh"

OBJ=${LAYERS_OBJ:-build}
if ! command -v nm >/dev/null 2>&1 || ! command -v cc >/dev/null 2>&1; then
	echo "1..0 # SKIP nm or cc is not installed (binutils, gcc)"
	exit 0
fi
if [ ! -f "$OBJ/cmd/hcclctl.o" ]; then
	echo "1..0 # SKIP $OBJ/cmd/*.o are not built (run make first)"
	exit 0
fi

# A planted tree: a clean one passes, then each violation is planted and named.
P="$TMP/tree"
mkdir -p "$P/libcomm" "$P/ranktable/base" "$P/probes/npu" "$P/cmd/cli" "$P/cmd/lib" \
	"$P/cmd/doctor" "$P/cmd/run" "$P/build"
plant() { # path, text: the source and its object under build/
	printf '%s\n' "$2" >"$P/$1"
	case $1 in *.c)
		mkdir -p "$P/build/$(dirname "$1")"
		cc -c -I"$P" -o "$P/build/${1%.c}.o" "$P/$1" ;;
	esac
}
plant ranktable/base/hex.h 'int hex_val(int c);'
plant ranktable/base/hex.c 'int hex_val(int c) { return c - 48; }'
plant libcomm/link.c '#include "ranktable/base/hex.h"
int link_up(void) { return hex_val(49); }'
plant probes/npu/smi.c 'int link_up(void);
int smi_read(void) { return link_up(); }'
plant cmd/run/run.h 'int run_main(void);'
plant cmd/run/run.c 'int smi_read(void);
int run_main(void) { return smi_read(); }'
plant cmd/doctor/doctor.c 'int smi_read(void);
int doctor_main(void) { return smi_read(); }'
run python3 scripts/layers.py --src "$P" --obj "$P/build"
check_rc 0 "a planted tree that keeps the layers: exit 0"
check_out "" "  and nothing printed"

plant libcomm/up.c '#include "cmd/run/run.h"
int up_call(void) { return run_main(); }'
run python3 scripts/layers.py --src "$P" --obj "$P/build"
check_rc 1 "libcomm including and calling cmd: exit 1"
check_out "libcomm/up.c:1: reaches up: includes cmd/run/run.h
libcomm/up.o: reaches up: calls cmd/run/run (run_main)" "  the include named by file and line, the call by object and symbol"
rm "$P/libcomm/up.c" "$P/build/libcomm/up.o"

plant cmd/doctor/peek.c '#include "cmd/run/run.h"
int peek(void) { return run_main(); }'
run python3 scripts/layers.py --src "$P" --obj "$P/build"
check_rc 1 "doctor reaching into run: exit 1"
check_out "cmd/doctor/peek.c:1: one command reaches into another: includes cmd/run/run.h
cmd/doctor/peek.o: one command reaches into another: calls cmd/run/run (run_main)" "  named as one command reaching into another"
rm "$P/cmd/doctor/peek.c" "$P/build/cmd/doctor/peek.o"

plant cmd/lib/a.c 'int b1(int);
int a1(int x) { return x ? b1(x - 1) : 0; }'
plant cmd/lib/b.c 'int a1(int);
int b1(int x) { return a1(x); }'
run python3 scripts/layers.py --src "$P" --obj "$P/build"
check_rc 1 "two lib files calling each other: exit 1"
check_out "cycle: cmd/lib/a cmd/lib/b
  cmd/lib/a -> cmd/lib/b: b1
  cmd/lib/b -> cmd/lib/a: a1" "  the cycle and the symbol of each edge"
rm "$P/cmd/lib/a.c" "$P/cmd/lib/b.c" "$P/build/cmd/lib/a.o" "$P/build/cmd/lib/b.o"

plant cmd/cli/bare.h '#include "cli.h"'
run python3 scripts/layers.py --src "$P" --obj "$P/build"
check_rc 1 "an include without its folder: exit 1"
check_out 'cmd/cli/bare.h:1: includes "cli.h" without its folder' "  named"
rm "$P/cmd/cli/bare.h"

run python3 scripts/layers.py --src "$P" --obj "$TMP/none"
check_rc 2 "no objects: exit 2, not a pass"

# The real tree.
run python3 scripts/layers.py --obj "$OBJ"
check_rc 0 "the sources and objects of this tree keep the layers, with no cycle"
check_out "" "  nothing printed"

done_testing
