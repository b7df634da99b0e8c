# doctor --html: the page stands alone. 17 nodes' reports of 31 checks (one node named with
# markup in it) merged into one page, read as HTML, then rendered in headless Chromium at
# 1400 px: no sideways overflow, the findings in the rendered text, nodes' markup as text.
# Chromium is Debian's (scripts/deps.sh); without it the rendering cases SKIP saying so.
. "$(dirname "$0")/lib.sh"

python3 - "$TMP" <<'EOP'
import json, sys
codes = ("node.reach ranktable.valid ranktable.same ranktable.node ranktable.spod npu.smi "
         "npu.count link.hccs npu.health npu.faults npu.ecc npu.pcie npu.thermal host.kernel-log "
         "link.roce link.npu-mesh nic.ip nic.tls nic.counters link.rdma link.mtu net.ports env.hccl "
         "npu.driver npu.firmware cann.version host.time host.memlock host.shm host.memory "
         "host.hugepages").split()
names = ["node%02d" % i for i in range(1, 17)] + ["evil<script>alert(1)</script>"]
with open(sys.argv[1] + "/nodes.json", "w") as out:
    for n in names:
        checks = []
        for c in codes:
            st, msg, fix = "PASS", c + " as expected", None
            if c == "host.hugepages":
                st, msg = "SKIP", "no hugepages configured"
            if n == "node03" and c == "npu.health":
                st, msg, fix = ("FAIL", "health not OK: NPU 3 chip 0: NOK",
                                "npu-smi info -t health -i 3; reseat or replace the board")
            if n == "node07" and c == "nic.counters":
                st, msg, fix = ("WARN", "device 6: roce_rx_err_pkt_num 13",
                                "read them again (hccn_tool -i 6 -stat -g)")
            if n.startswith("evil") and c == "link.roce":
                st, msg, fix = "FAIL", "port down <img src=x onerror=alert(2)> & out", "check the cable"
            checks.append({"code": c, "status": st, "message": msg, "fix": fix})
        out.write(json.dumps({"schema": "hcclctl-doctor-node/1", "hostname": n,
                              "checks": checks}) + "\n")
EOP
mkdir "$TMP/www"
run hcclctl doctor --merge "$TMP/nodes.json" --html "$TMP/www/report.html"
check_rc 2 "17 nodes of 31 checks, two failures: exit 2"
check_err "hcclctl: doctor: wrote $TMP/www/report.html" "  the page written"

# ---- the page as HTML ----
# Each of the page's tables as rows of cells [class, title, text]; the text before the first.
cat >"$TMP/tables.py" <<'EOP'
import sys
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s):
        super().__init__(); s.tables = []; s.cell = None; s.before = ""; s.heads = []; s.h = None
    def handle_starttag(s, t, a):
        a = dict(a)
        if t == "table": s.tables.append({"class": a.get("class", ""), "rows": [],
                                          "head": s.heads[-1] if s.heads else ""})
        if t == "tr": s.tables[-1]["rows"].append([])
        if t in ("td", "th"): s.cell = [a.get("class"), a.get("title"), ""]
        if t == "h2": s.h = ""
    def handle_endtag(s, t):
        if t in ("td", "th"): s.tables[-1]["rows"][-1].append(s.cell); s.cell = None
        if t == "h2": s.heads.append(s.h); s.h = None
    def handle_data(s, d):
        if s.cell is not None: s.cell[2] += d
        if s.h is not None: s.h += d
        if not s.tables: s.before += d
def tables(path):
    p = P(); p.feed(open(path).read()); p.close()
    return p
EOP
page_py() { PYTHONPATH=$TMP python3 - "$TMP/www/report.html" "$@"; }

page_py <<'EOP'
import sys, tables
p = tables.tables(sys.argv[1])
meta = {r[0][2]: r[1][2] for r in p.tables[0]["rows"]}
assert p.tables[0]["class"] == "meta", p.tables[0]
assert set(meta) == {"time", "command", "rank table", "hcclctl"}, meta
assert "doctor --merge " in meta["command"] and "--html" in meta["command"], meta
assert meta["hcclctl"].startswith("0.") and "build-id " in meta["hcclctl"], meta
EOP
_report $? "  where it came from: time, command line, rank table, hcclctl version and build" "$(head -c 3000 "$TMP/www/report.html")"

page_py <<'EOP'
import sys, tables
p = tables.tables(sys.argv[1])
find = [t for t in p.tables if t["head"] == "Findings"]
grid = [i for i, t in enumerate(p.tables) if t["head"] == "Checks"]
assert find and grid and p.tables.index(find[0]) < grid[0], [t["head"] for t in p.tables]
rows = [[c[2] for c in r] for r in find[0]["rows"]]
assert rows[0] == ["status", "check", "node", "message", "fix"], rows[0]
assert ["FAIL", "npu.health", "node03", "health not OK: NPU 3 chip 0: NOK",
        "npu-smi info -t health -i 3; reseat or replace the board"] in rows, rows
assert ["WARN", "nic.counters", "node07", "device 6: roce_rx_err_pkt_num 13",
        "read them again (hccn_tool -i 6 -stat -g)"] in rows, rows
assert ["FAIL", "link.roce", "evil<script>alert(1)</script>",
        "port down <img src=x onerror=alert(2)> & out", "check the cable"] in rows, rows
st = [r[0] for r in rows[1:]]
assert st == sorted(st, key=["FAIL", "WARN", "SKIP"].index), st
EOP
_report $? "  the findings above the grid in plain text: status, check, node, message, fix" "$(head -c 3000 "$TMP/www/report.html")"

page_py <<'EOP'
import sys, tables
p = tables.tables(sys.argv[1])
grid = [t for t in p.tables if t["head"] == "Checks"][0]
head = [c[2] for c in grid["rows"][0]]
assert head[:4] == ["node", "npu.health", "link.roce", "nic.counters"], head
assert "npu.* (8)" in head and "host.* (6)" in head and len(head) < 16, head
assert "fit" in grid["class"].split(), grid["class"]
n03 = [r for r in grid["rows"] if r[0][2] == "node03"][0]
assert n03[1][0] == "f" and n03[1][2] == "FAIL", n03
EOP
_report $? "  the grid: failing checks first, the passing ones folded by group, fitted to the page" "$(head -c 3000 "$TMP/www/report.html")"

grep -q '<script\|<img' "$TMP/www/report.html"
[ $? -eq 1 ] && grep -q 'evil&lt;script&gt;alert(1)&lt;/script&gt;' "$TMP/www/report.html" &&
	grep -q '@media print' "$TMP/www/report.html" &&
	grep -q '<h2>Links</h2>' "$TMP/www/report.html" &&
	grep -q 'No link heat map: --merge reads each node' "$TMP/www/report.html"
_report $? "  no markup from the nodes, a print stylesheet, why there is no heat map" "$(cat "$TMP/www/report.html")"

# ---- the page in Chromium ----
# The page carries no script of the test's: a wrapper page served beside it on 127.0.0.1 loads
# it in a 1400 px frame and writes what the frame laid out into its own DOM (--dump-dom).
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
chrome() { # the flags this closed network needs, a profile of its own, removed after
	prof=$(mktemp -d "$TMP/chrome.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--hide-scrollbars --user-data-dir="$prof" "$@" 2>>"$TMP/chrome.err"
	crc=$?
	rm -rf "$prof"
	return $crc
}
if [ -z "$CHROMIUM" ]; then
	for w in "overflow" "findings" "markup" "screenshot"; do
		skip "chromium is not installed (scripts/deps.sh installs Debian's as root): $w not rendered"
	done
	done_testing
	exit
fi

cat >"$TMP/www/wrap.html" <<'EOH'
<!DOCTYPE html><html><body style="margin:0">
<iframe id=f src="report.html" style="width:1400px;height:900px;border:0"></iframe>
<pre id=out></pre>
<script>
window.addEventListener("load", function () {
	var d = document.getElementById("f").contentDocument, e = d.documentElement;
	document.getElementById("out").textContent = JSON.stringify({
		scrollWidth: e.scrollWidth, clientWidth: e.clientWidth,
		scripts: d.getElementsByTagName("script").length,
		imgs: d.getElementsByTagName("img").length, text: d.body.innerText });
});
</script></body></html>
EOH
python3 -u -m http.server 0 --bind 127.0.0.1 --directory "$TMP/www" >"$TMP/http.out" 2>"$TMP/http.err" &
HTTP_PID=$!
trap 'kill $HTTP_PID 2>/dev/null; rm -rf "$TMP"' EXIT INT TERM
PORT=
for _t in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30; do
	PORT=$(sed -n 's/^Serving HTTP on 127.0.0.1 port \([0-9]*\) .*/\1/p' "$TMP/http.out")
	[ -n "$PORT" ] && break
	sleep 0.2
done

chrome --window-size=1500,1000 --dump-dom "http://127.0.0.1:$PORT/wrap.html" >"$TMP/dom.html"
PYTHONPATH=$TMP python3 - "$TMP/dom.html" >"$TMP/laid.json" <<'EOP'
import sys, json
from html.parser import HTMLParser
class P(HTMLParser):
    def __init__(s): super().__init__(); s.on = False; s.out = ""
    def handle_starttag(s, t, a): s.on = s.on or dict(a).get("id") == "out"
    def handle_endtag(s, t): s.on = s.on and t != "pre"
    def handle_data(s, d): s.out += d if s.on else ""
p = P(); p.feed(open(sys.argv[1]).read())
print(p.out)
EOP
laid() { python3 -c "import json, sys; d = json.load(open('$TMP/laid.json')); $1" 2>&1; }
ok_laid() { # $1 python asserting on d, $2 desc
	why=$(laid "$1")
	_report $? "$2" "$why" "$(head -c 2000 "$TMP/laid.json")" "$(tail -5 "$TMP/chrome.err")"
}
ok_laid 'assert 1300 <= d["clientWidth"] <= 1400 and d["scrollWidth"] <= d["clientWidth"], (d["scrollWidth"], d["clientWidth"])' \
	"Chromium at 1400 px: the page is no wider than the window (no sideways scrolling)"
ok_laid 't = d["text"]; assert "health not OK: NPU 3 chip 0: NOK" in t and "npu-smi info -t health -i 3; reseat or replace the board" in t and "read them again (hccn_tool -i 6 -stat -g)" in t, t' \
	"  the findings' messages and fixes are in the rendered text, not only in tooltips"
ok_laid 't = d["text"]; assert d["scripts"] == 0 and d["imgs"] == 0 and "evil<script>alert(1)</script>" in t and "port down <img src=x onerror=alert(2)> & out" in t, (d["scripts"], d["imgs"], t)' \
	"  a node's <script> and <img> are shown as text, never run or drawn"

# The screenshot: 1400 px wide, and its right margin blank all the way down (a page wider
# than the window runs its grid to the edge).
chrome --window-size=1400,1400 --screenshot="$TMP/shot.png" "http://127.0.0.1:$PORT/report.html" >/dev/null
python3 - "$TMP/shot.png" <<'EOP'
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(b):
    n, kind = struct.unpack(">I4s", b[pos:pos + 8])
    data = b[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype, _, _, lace = struct.unpack(">IIBBBBB", data)
    if kind == b"IDAT":
        idat += data
    pos += 12 + n
assert w == 1400 and depth == 8 and ctype in (2, 6) and not lace, (w, depth, ctype, lace)
bpp = 3 if ctype == 2 else 4
raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        c = prev[i - bpp] if i >= bpp else 0
        up = prev[i]
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + up) & 255
        elif f == 3: line[i] = (line[i] + (a + up) // 2) & 255
        elif f == 4:
            p = a + up - c
            pa, pb, pc = abs(p - a), abs(p - up), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else up if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
inked = [y for y in range(h) if any(rows[y][x * bpp:x * bpp + 3] != b"\xff\xff\xff"
                                    for x in range(w - 12, w))]
assert not inked, "the right margin is drawn on at %d rows, from y=%d" % (len(inked), inked[0])
assert any(rows[y][:stride] != bytearray(b"\xff" * stride) for y in range(h)), "a blank shot"
EOP
_report $? "  the screenshot at 1400 px: the page drawn, its right margin blank (nothing runs off)" "$(tail -5 "$TMP/chrome.err")"

kill "$HTTP_PID"
wait "$HTTP_PID" 2>/dev/null
done_testing
