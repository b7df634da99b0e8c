#!/bin/sh
# Terminal control characters from input never reach the screen raw: an ESC in a rank table's
# server_id, a node's doctor report or a rank's flight record (once: cleared the screen and
# printed a green "valid") is shown as \x1b. No byte below 0x20 but newline and tab, and no
# DEL, in any human-readable output.
. "$(dirname "$0")/lib.sh"
D=tests/data

# 0 when neither stdout nor stderr of the last run holds a control byte (newline, tab aside)
no_ctl() {
	cat "$TMP/out" "$TMP/err" | tr -d '\n\t' | LC_ALL=C grep -q '[[:cntrl:]]'
	[ $? -ne 0 ]
	_report $? "$1" "$(cat "$TMP/out" "$TMP/err" | od -c | grep -m3 '033')"
}
ESC='\u001b[2J\u001b[H\u001b[32mvalid\u001b[0m'   # as JSON writes it
SED_ESC='\\u001b[2J\\u001b[H\\u001b[32mvalid\\u001b[0m' # the same in a sed replacement
SHOWN='\x1b[2J\x1b[H\x1b[32mvalid\x1b[0m'                 # as hcclctl shows it

sed "s|\"10.0.0.2\"|\"10.0.0.2$SED_ESC\"|" $D/gen/2srv_2dev_host_ip.json >"$TMP/esc.json"
run hcclctl ranktable validate "$TMP/esc.json"
check_rc 1 "ranktable validate: an ESC in server_id is a warning (exit 1)"
no_ctl "  and validate prints no control byte"
check_out_has "$TMP/esc.json:23:26: warning: server_id \"10.0.0.2$SHOWN\" contains byte 0x1b; hcclctl refuses to connect to it (run --ssh, doctor, probe net) [server-id-unsafe]" \
	"  the escape shown as \\x1b"
run hcclctl ranktable show "$TMP/esc.json"
no_ctl "ranktable show prints no control byte"
check_out_has "2      10.0.0.2$SHOWN 0      192.168.2.8 -" "  the server escaped in its column"
run hcclctl ranktable diff $D/gen/2srv_2dev_host_ip.json "$TMP/esc.json"
no_ctl "ranktable diff prints no control byte"

# a node's report (doctor --merge), in the message and the node name
printf '{"schema":"hcclctl-doctor-node/1","hostname":"n1\\u001b[2J","checks":[{"code":"npu.health","status":"FAIL","message":"%s\\u0007\\u009b31m\\u007f","fix":"%s"}]}\n' \
	"$ESC" "$ESC" >"$TMP/node.json"
run hcclctl doctor --merge "$TMP/node.json"
check_rc 2 "doctor --merge: the node's FAIL stands (exit 2)"
no_ctl "  and the report prints no control byte"
check_out_has "FAIL  npu.health      n1\\x1b[2J              $SHOWN\\x07\\xc2\\x9b31m\\x7f" "  the node name and message escaped"
check_out_has "most likely cause: npu.health on n1\\x1b[2J: $SHOWN\\x07\\xc2\\x9b31m\\x7f" \
	"  the cause too: ESC, BEL, C1 CSI and DEL"
check_out_has "fix: $SHOWN" "  and its fix"

# a rank's flight record (analyze): names with control bytes are refused by its reader, its
# error kept with them replaced
mkdir "$TMP/fl"
for r in 0 1 2 3; do
	sed "s|\"reason\": \"exit\", \"error\": null|\"reason\": \"exit\", \"error\": \"boom$SED_ESC\"|" \
		$D/flight/ok/rank$r.json >"$TMP/fl/rank$r.json"
done
run hcclctl -v analyze "$TMP"/fl/rank*.json
check_rc 0 "analyze: the ranks agree (exit 0)"
no_ctl "  and analyze prints no control byte"
check_out_has "  error: boom?[2J?[H?[32mvalid?[0m" "  the rank's error shown without its escapes"

# a message on stderr quotes a file name: escaped too
run hcclctl ranktable validate "$TMP/$(printf 'no\033[2Jsuch').json"
check_rc 3 "a missing file: exit 3"
no_ctl "  its name escaped on stderr"

done_testing
