# What validating a big rank table costs in memory, against the size of the file: the peak
# RSS of `ranktable validate` less that of validating a two-server table (the binary, its
# libraries and buffers), over the file's size. A 23 MB table used to cost 7 times itself
# written pretty and 15 times compact (a cJSON node and string each in its own malloc block,
# a pointer hash beside the positions, and a first whole tree, parsed to read "status" and
# freed in pieces that stayed in the heap under the second); then 4.2 and 9.5 times; then,
# read in one pass into blocks of its own with one copy of each key, 3.8 and 8.3 times (a
# 64-byte cJSON node a value); now, with a tree of 12-byte records that keep their strings
# beside them (ranktable/jtree.h), 2.1 and 4.2 times. What is left of the compact 4.2: the
# file itself (1), the tree (about 1), the model's rt_rank array (1), the checks' per-device
# arrays (0.9). The bounds leave 15% for a machine whose allocator rounds otherwise.
. "$(dirname "$0")/lib.sh"

# table SERVERS pretty|compact: a valid 1.0 table of SERVERS servers of 8 devices
table() {
	python3 - "$1" "$2" <<'PY'
import json, sys
n, pretty = int(sys.argv[1]), sys.argv[2] == "pretty"
servers = []
for s in range(n):
    sid = "10.%d.%d.%d" % (s >> 16 & 255, s >> 8 & 255, s & 255)
    servers.append({"server_id": sid, "host_ip": sid, "device": [
        {"device_id": str(d), "device_ip": "192.%d.%d.%d" % (d, s >> 8 & 255, s & 255),
         "rank_id": str(8 * s + d)} for d in range(8)]})
t = {"version": "1.0", "server_count": str(n), "server_list": servers, "status": "completed"}
print(json.dumps(t, indent=4) if pretty else json.dumps(t, separators=(",", ":")))
PY
}

# peak FILE: validates FILE; its stdout in $TMP/out, exit code in $RC, peak RSS in $KIB
peak() {
	python3 -c '
import resource, subprocess, sys
with open(sys.argv[3], "w") as out:
    rc = subprocess.call([sys.argv[1], "ranktable", "validate", sys.argv[2]], stdout=out)
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$HCCLCTL" "$1" "$TMP/out" >"$TMP/peak"
	read -r RC KIB <"$TMP/peak"
}

ASAN=
grep -q __asan_init "$HCCLCTL" && ASAN=1

table 2 pretty >"$TMP/small.json"
peak "$TMP/small.json"
BASE=$KIB
[ "$RC" -eq 0 ]
_report $? "a two-server table validates (the baseline: $BASE KiB)" "exit $RC" "$(cat "$TMP/out")"

# case NAME SERVERS FORM MAX_TENTHS: the peak over the file at most MAX_TENTHS/10 times it
case_() {
	table "$2" "$3" >"$TMP/$1.json"
	_size=$(wc -c <"$TMP/$1.json")
	peak "$TMP/$1.json"
	grep -qx "$TMP/$1.json: valid: 0 errors, 0 warnings (format 1.0, $2 servers, $(($2 * 8)) ranks)" "$TMP/out"
	_report $? "$1: $_size bytes, $(($2 * 8)) ranks: valid" "exit $RC" "$(cat "$TMP/out")"
	_x10=$(((KIB - BASE) * 1024 * 10 / _size))
	if [ -n "$ASAN" ]; then
		skip "$1: peak RSS not checked under AddressSanitizer (its shadow memory is not the parser's)"
		return
	fi
	[ "$_x10" -le "$4" ]
	_report $? "$1: peak RSS $KIB KiB, $BASE KiB more than nothing heavy: $((_x10 / 10)).$((_x10 % 10)) times the file (at most $(($4 / 10)).$(($4 % 10)))"
}
case_ pretty 16000 pretty 24
case_ compact 40000 compact 48

done_testing
