#!/bin/sh
# The command table: dispatch, help, usage errors, exit codes, --version, --json errors.
. "$(dirname "$0")/lib.sh"

run hcclctl --version
check_rc 0 "--version exits 0"
printf '%s\n' "$OUT" >"$TMP/version"
ok "[ \"\$(head -n 1 '$TMP/version')\" = 'hcclctl 0.1.0' ]" "--version prints the version first"

run hcclctl
check_rc 64 "no command is a usage error"
check_err_has "usage: hcclctl [--json] [--no-color] [-q|-v] [--strict] COMMAND ..." "usage on stderr"

run hcclctl help
check_rc 0 "help exits 0"
check_out_has "  ranktable    generate, validate, show and compare HCCL rank tables" "help lists ranktable"

run hcclctl frobnicate
check_rc 64 "unknown command exits 64"
check_err "hcclctl: usage: unknown command 'frobnicate'
hint: see 'hcclctl --help'" "unknown command names the word"

run hcclctl ranktable valid
check_rc 64 "no prefix matching of subcommands"
check_err "hcclctl: ranktable: unknown subcommand 'valid'
hint: see 'hcclctl ranktable --help'" "unknown subcommand names the word and the help"

run hcclctl ranktable
check_rc 64 "a group without subcommand is a usage error"
check_err_has "usage: hcclctl ranktable COMMAND [ARGS]" "group usage on stderr"

run hcclctl ranktable show --bogus x
check_rc 64 "unknown option exits 64"
check_err "hcclctl: ranktable show: unknown option '--bogus'
hint: see 'hcclctl ranktable show --help'" "unknown option is named"

run hcclctl ranktable show
check_rc 64 "missing argument exits 64"
check_err "hcclctl: ranktable show: missing argument
hint: see 'hcclctl ranktable show --help'" "missing argument is said"

run hcclctl ranktable diff a b c
check_rc 64 "extra argument exits 64"
check_err "hcclctl: ranktable diff: unexpected argument 'c'
hint: see 'hcclctl ranktable diff --help'" "the extra argument is named"

run hcclctl ranktable gen --super-pod x --servers a
check_rc 64 "a bad number exits 64"
check_err "hcclctl: ranktable gen: invalid value 'x' for --super-pod
hint: a whole number from 1 to 4096" "the range is given"

run hcclctl ranktable gen --help
check_rc 0 "--help after a command exits 0"
check_out_has "usage: hcclctl ranktable gen [--servers IP[,IP...]] [--hostfile FILE]" "gen usage from the option table"
check_out_has "                             [--devices LIST] [--format 1.0|1.2]" \
	"  wrapped at 80 columns, under the first option"
long=$(printf '%s\n' "$OUT" | awk '/^usage:/,/^$/' | awk 'length($0) > 79' | head -n 1)
ok "[ -z '$long' ]" "  no line of the usage is wider than 79 columns"
run hcclctl run allreduce --help
long=$(printf '%s\n' "$OUT" | awk '/^usage:/,/^$/' | awk 'length($0) > 79' | head -n 1)
ok "[ -z '$long' ]" "run allreduce's usage (36 options) fits 79 columns"
run hcclctl run --help
check_out_has "  reducescatter every rank gets its block of the reduction" "  the longest name sets the column"
check_out_has "  allreduce     every rank gets the reduction of all ranks' buffers" "  the others line up with it"
run hcclctl --synopsis
check_out_has "hcclctl ranktable gen [--servers IP[,IP...]] [--hostfile FILE] [--devices LIST] [--format 1.0|1.2] [--super-pod N] [--hccn-conf FILE] [--hccn-conf-dir DIR] [-o FILE]" \
	"--synopsis keeps one line per command (scripts read it)"

run hcclctl help ranktable validate
check_rc 0 "help COMMAND exits 0"
check_out_has "usage: hcclctl ranktable validate [--cacert FILE] [--url-timeout SEC]" "help COMMAND prints its usage"
check_out_has "                                  [--wait SEC] [FILE|URL|-]..." "  its arguments last"

run hcclctl help nosuch
check_rc 64 "help of an unknown command exits 64"

run hcclctl --json ranktable show /nonexistent/rt.json
check_rc 3 "an unreadable file is UNKNOWN (3)"
ok "printf '%s' '$OUT' | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d[\"exit_code\"]==3 and \"/nonexistent/rt.json\" in d[\"error\"][\"message\"]'" "--json failure is one JSON document with the error"

run hcclctl ranktable show --json /nonexistent/rt.json
check_rc 3 "global flags are accepted after the command"

done_testing
