#!/bin/sh
# doctor --logs on a 200 MB log shaped like real ones (bench/biglog.py: the healthy runs
# under tests/data/real-logs, then a real failed job's lines at the end): the wall and CPU
# time of the whole triage as a file (the last 64 MiB read), as a stream through standard
# input (the 64 MiB ring) and as gzip, and that each names the job's cause. Results in
# bench/results/logs.json. BENCH_LOGS_MB sets the size (200).
set -eu
cd "$(dirname "$0")/.." || exit 3
mkdir -p bench/results
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hcclctl-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
RES=bench/results/logs.json
MB=${BENCH_LOGS_MB:-200}
python3 bench/biglog.py "$TMP/big.log" "$MB"
gzip -1 -c "$TMP/big.log" >"$TMP/big.log.gz"
bytes=$(wc -c <"$TMP/big.log")
want='network-unreachable (port-bound): port 60000'
echo "# doctor --logs on a ${MB} MB log ($bytes bytes)"
printf '%-8s %-8s %-8s %-8s %s\n' input "wall(s)" "user(s)" "sys(s)" verdict
rc=0
first=1
echo '{"benchmark": "doctor-logs", "bytes": '"$bytes"', "runs": [' >"$RES.tmp"
for how in file stdin gzip; do
	case $how in
	file) cmd="./hcclctl doctor --logs '$TMP/big.log'" ;;
	stdin) cmd="cat '$TMP/big.log' | ./hcclctl doctor --logs -" ;;
	gzip) cmd="./hcclctl doctor --logs '$TMP/big.log.gz'" ;;
	esac
	/usr/bin/time -f '%e %U %S' -o "$TMP/t" sh -c "$cmd" >"$TMP/out" 2>&1 || true
	read -r wall user sys <<EOT
$(tail -n 1 "$TMP/t")
EOT
	ok=found
	grep -qF "$want" "$TMP/out" || { ok=missed; rc=1; }
	printf '%-8s %-8s %-8s %-8s %s\n' "$how" "$wall" "$user" "$sys" "$ok"
	[ $first -eq 1 ] || echo ',' >>"$RES.tmp"
	first=0
	printf '{"input": "%s", "wall_s": %s, "user_s": %s, "sys_s": %s, "cause": "%s"}' \
		"$how" "$wall" "$user" "$sys" "$ok" >>"$RES.tmp"
done
echo ']}' >>"$RES.tmp"
mv "$RES.tmp" "$RES"
echo "results: $RES"
exit $rc
