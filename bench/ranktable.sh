#!/bin/sh
# Rank-table scale: validate tables of up to 4096 servers x 16 devices (65536 ranks);
# time is the best of 5 runs, memory the peak RSS, to show it stays linear in the table.
set -eu
cd "$(dirname "$0")/.." || exit 3
mkdir -p bench/results
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hcclctl-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
RES=bench/results/ranktable-scale.json

echo "# rank-table validate scale"
printf '%-8s %-8s %-10s %-10s %-12s %-12s\n' servers ranks bytes "best(s)" "maxrss(KiB)" "KiB/rank"
echo '{"benchmark": "ranktable-validate-scale", "runs": [' >"$RES.tmp"
first=1
for servers in 256 1024 2048 4096; do
	f=$TMP/rt_$servers.json
	python3 bench/mk_ranktable.py "$servers" 16 >"$f"
	bytes=$(wc -c <"$f")
	best=999 rss=0
	for i in 1 2 3 4 5; do
		/usr/bin/time -f '%e %M' -o "$TMP/t" ./hcclctl -q ranktable validate "$f" >/dev/null
		read -r t m <"$TMP/t"
		best=$(python3 -c "print(min($best, $t))")
		[ "$m" -gt "$rss" ] && rss=$m
	done
	ranks=$((servers * 16))
	per=$(python3 -c "print('%.2f' % ($rss / $ranks))")
	printf '%-8s %-8s %-10s %-10s %-12s %-12s\n' "$servers" "$ranks" "$bytes" "$best" "$rss" "$per"
	[ $first -eq 1 ] || echo ',' >>"$RES.tmp"
	first=0
	printf '{"servers": %s, "ranks": %s, "bytes": %s, "best_s": %s, "maxrss_kib": %s}' \
		"$servers" "$ranks" "$bytes" "$best" "$rss" >>"$RES.tmp"
done
echo ']}' >>"$RES.tmp"
mv "$RES.tmp" "$RES"
echo "results: $RES"
