#!/bin/sh
# Rank-table scale: validate tables of up to 4096 servers x 16 devices (65536 ranks), written
# pretty (bench/mk_ranktable.py) and compact (the same table without whitespace), against
# Python's json.load merely parsing the same file in the same run (issue 33: at most 0.5
# times). Time is the best of 5 runs each, taken in turns so load on the machine hits both
# alike; memory the peak RSS, also over the file's size, to show it stays linear.
set -eu
cd "$(dirname "$0")/.." || exit 3
mkdir -p bench/results
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hcclctl-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
RES=bench/results/ranktable-scale.json

echo "# rank-table validate scale, against python3 json.load of the same file"
printf '%-8s %-8s %-8s %-10s %-9s %-9s %-7s %-11s %-8s %-8s\n' servers ranks form bytes \
	"best(s)" "py(s)" ratio "maxrss(KiB)" "rss/file" "py rss"
echo '{"benchmark": "ranktable-validate-scale", "peer": "python3 json.load", "runs": [' >"$RES.tmp"
first=1
for servers in 256 1024 2048 4096; do
	python3 bench/mk_ranktable.py "$servers" 16 >"$TMP/pretty.json"
	python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1])), open(sys.argv[2], "w"), separators=(",", ":"))' \
		"$TMP/pretty.json" "$TMP/compact.json"
	for form in pretty compact; do
		f=$TMP/$form.json
		# best seconds and peak RSS of each, in turns: "t rss pt prss"
		python3 - ./hcclctl "$f" >"$TMP/t" <<'PY'
import os, subprocess, sys, time
def once(cmd):
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, st, ru = os.wait4(p.pid, 0)
    if st:
        sys.exit("%s: exit status %d" % (cmd[0], st))
    return time.perf_counter() - t0, ru.ru_maxrss
hccl = [sys.argv[1], "-q", "ranktable", "validate", sys.argv[2]]
py = ["python3", "-c", "import json, sys; json.load(open(sys.argv[1]))", sys.argv[2]]
best = {0: (1e9, 0), 1: (1e9, 0)}
for _ in range(5):
    for k, cmd in enumerate((hccl, py)):
        t, m = once(cmd)
        best[k] = (min(best[k][0], t), max(best[k][1], m))
print("%.3f %d %.3f %d" % (best[0][0], best[0][1], best[1][0], best[1][1]))
PY
		read -r t rss pt prss <"$TMP/t"
		bytes=$(wc -c <"$f")
		ratio=$(python3 -c "print('%.2f' % ($t / $pt))")
		per=$(python3 -c "print('%.1f' % ($rss * 1024 / $bytes))")
		printf '%-8s %-8s %-8s %-10s %-9s %-9s %-7s %-11s %-8s %-8s\n' "$servers" \
			$((servers * 16)) "$form" "$bytes" "$t" "$pt" "${ratio}x" "$rss" "$per" "$prss"
		[ $first -eq 1 ] || echo ',' >>"$RES.tmp"
		first=0
		printf '{"servers": %s, "ranks": %s, "form": "%s", "bytes": %s, "best_s": %s, "python_best_s": %s, "ratio": %s, "maxrss_kib": %s, "python_maxrss_kib": %s}' \
			"$servers" $((servers * 16)) "$form" "$bytes" "$t" "$pt" "$ratio" "$rss" \
			"$prss" >>"$RES.tmp"
	done
done
echo ']}' >>"$RES.tmp"
mv "$RES.tmp" "$RES"
echo "results: $RES"
