#!/bin/sh
# Scale on loopback: `hcclctl run --local N` for N = 64 .. 1024 (BENCH_SCALE_N), three jobs
# (a barrier, an 8-byte and a 1 MiB allreduce, each -n 1 -w 0; the 1 MiB one with -c 0: its
# check computes every rank's expected sum from all N ranks' data, N^2 x 256K additions over
# the job, 10 s of the 11 s it took at N=64), with lazy links (the default)
# and with today's full mesh before them (HCCLCTL_CONNECT=full), in the same run. For each:
# the wall time from start to exit, comm_init at rank 0, peer connections per rank (max and
# mean) and peak RSS per rank (max and mean), from the ranks' -v lines. Results as JSON in
# bench/results/scale-DATE.json. Targets on a 2-core machine: 256 ranks <= 2 s, 1024 <= 10 s.
#
#   BENCH_SCALE_N         world sizes (default "64 128 256 512 1024"; BENCH_QUICK=1: "64 256")
#   BENCH_SCALE_FULL_MAX  the largest N run with the full mesh (default 512): at 1024 it is
#                         523776 connections, about a million sockets, minutes of setup
#   BENCH_SCALE_JOBS      which jobs (default "barrier ar8 ar1m")
#   BENCH_SCALE_REPS      runs of each (default 1; the table shows the median wall)
# The heartbeat monitor keeps its default (5 s): a job that fails because a starved rank
# looked stuck is shown as failed, as a user would see it.
set -u
cd "$(dirname "$0")/.." || exit 3
HCCLCTL=${HCCLCTL:-./hcclctl}
[ -x "$HCCLCTL" ] || { echo "bench: scale: $HCCLCTL is not built" >&2; exit 3; }
QUICK=${BENCH_QUICK:-0}
[ "$QUICK" = 0 ] && QUICK=
if [ -n "$QUICK" ]; then NS=${BENCH_SCALE_N:-64 256}; else NS=${BENCH_SCALE_N:-64 128 256 512 1024}; fi
FULL_MAX=${BENCH_SCALE_FULL_MAX:-512}
JOBS=${BENCH_SCALE_JOBS:-barrier ar8 ar1m}
REPS=${BENCH_SCALE_REPS:-1}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/hcclctl-scale.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
# a full mesh of N ranks holds N-1 sockets per rank, and the rendezvous one per rank
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
mkdir -p bench/results
RES=bench/results/scale-$(date +%Y%m%d-%H%M%S).json

job_args() {
	case $1 in
	barrier) echo "barrier -b 8 -e 8" ;;
	ar8) echo "allreduce -b 8 -e 8" ;;
	ar1m) echo "allreduce -b 1M -e 1M -c 0" ;;
	esac
}

now_ms() { date +%s%3N; }

# one JOB N MODE REP: a line "job n mode rep rc wall_ms init_ms conn_max conn_mean rss_max rss_mean"
one() {
	_err=$TMP/$1-$2-$3-$4.err
	t0=$(now_ms)
	# shellcheck disable=SC2046
	HCCLCTL_CONNECT=$3 "$HCCLCTL" -v run $(job_args "$1") --local "$2" -n 1 -w 0 \
		--timeout 600 >"$TMP/out" 2>"$_err"
	rc=$?
	t1=$(now_ms)
	init=$(sed -n 's/.*rank 0: communicator of .* up in \([0-9]*\) ms$/\1/p' "$_err")
	sed -n 's/.*rank [0-9]*: \([0-9]*\) peer connections of [0-9]* ranks, peak RSS \([0-9]*\) KiB$/\1 \2/p' \
		"$_err" | awk -v j="$1" -v n="$2" -v m="$3" -v k="$4" -v rc=$rc -v w=$((t1 - t0)) \
		-v init="${init:--1}" '
		{ c += $1; r += $2; if ($1 > cm) cm = $1; if ($2 > rm) rm = $2; cnt++ }
		END { if (!cnt) { cnt = 1; cm = -1; rm = -1 }
		      printf "%s %d %s %d %d %d %d %d %.1f %d %d\n", j, n, m, k, rc, w, init, cm, c / cnt, rm, r / cnt }'
	if [ $rc -ne 0 ]; then
		echo "# $1 N=$2 $3: exit $rc:" >&2
		grep -v ' ms$\| KiB$' "$_err" | head -3 >&2
	fi
}

echo "# scale on loopback ($(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)): run --local N -n 1 -w 0"
echo "# lazy: links made when a collective first needs them; full: HCCLCTL_CONNECT=full (every link in init)"
printf '# %-8s %5s %5s %9s %9s %10s %10s %12s %12s\n' job N mode "wall(ms)" "init(ms)" "conn-max" \
	"conn-mean" "RSSmax(KiB)" "RSSmean(KiB)"
: >"$TMP/rows"
for n in $NS; do
	for j in $JOBS; do
		for mode in lazy full; do
			if [ "$mode" = full ] && [ "$n" -gt "$FULL_MAX" ]; then
				echo "$j $n $mode 0 -2 -1 -1 -1 -1 -1 -1" >>"$TMP/rows"
				printf '  %-8s %5d %5s %9s\n' "$j" "$n" "$mode" "not run (N > BENCH_SCALE_FULL_MAX=$FULL_MAX)"
				continue
			fi
			k=1
			while [ $k -le "$REPS" ]; do
				line=$(one "$j" "$n" "$mode" "$k")
				echo "$line" >>"$TMP/rows"
				set -- $line
				printf '  %-8s %5d %5s %9s %9s %10s %10s %12s %12s%s\n' "$1" "$2" "$3" "$6" "$7" \
					"$8" "$9" "${10}" "${11}" "$([ "$5" -ne 0 ] && echo "  (exit $5)")"
				k=$((k + 1))
			done
		done
	done
done

python3 - "$TMP/rows" "$RES" "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'EOF'
import json, statistics, sys, time
rows, res, cpus, load = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
runs = []
for line in open(rows):
    j, n, m, k, rc, w, init, cm, cmean, rm, rmean = line.split()
    runs.append({"job": j, "n": int(n), "mode": m, "rep": int(k), "exit": int(rc),
                 "ran": int(rc) != -2, "wall_ms": int(w), "init_ms_rank0": int(init),
                 "conn_max": int(cm), "conn_mean": float(cmean),
                 "rss_max_kib": int(rm), "rss_mean_kib": int(rmean)})
summary = []
for key in sorted({(r["job"], r["n"]) for r in runs}, key=lambda x: (x[1], x[0])):
    row = {"job": key[0], "n": key[1]}
    for m in ("lazy", "full"):
        ok = [r for r in runs if (r["job"], r["n"], r["mode"]) == (*key, m) and r["exit"] == 0]
        if ok:
            row[m] = {"wall_ms": statistics.median(r["wall_ms"] for r in ok),
                      "init_ms_rank0": statistics.median(r["init_ms_rank0"] for r in ok),
                      "conn_max": max(r["conn_max"] for r in ok),
                      "rss_max_kib": max(r["rss_max_kib"] for r in ok)}
        else:
            row[m] = None
    summary.append(row)
targets = []
for n, limit in ((256, 2000), (1024, 10000)):
    for s in summary:
        if s["n"] == n and s["job"] == "barrier":
            lz = s["lazy"]
            targets.append({"n": n, "job": "barrier", "limit_ms": limit,
                            "wall_ms": lz["wall_ms"] if lz else None,
                            "met": bool(lz and lz["wall_ms"] <= limit)})
doc = {"benchmark": "scale", "started": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "cpus": cpus,
       "loadavg": load, "runs": runs, "summary": summary, "targets": targets,
       "note": "run --local N -n 1 -w 0 on loopback; lazy links (default) against "
               "HCCLCTL_CONNECT=full; connections and peak RSS from every rank's -v line"}
json.dump(doc, open(res, "w"), indent=1)
for t in targets:
    print("# target: barrier at N=%d <= %.1f s: %s (%s)" % (
        t["n"], t["limit_ms"] / 1000, "met" if t["met"] else "NOT met",
        "%.2f s" % (t["wall_ms"] / 1000) if t["wall_ms"] is not None else "failed"))
print("# results: %s" % res)
EOF
bad=$(awk '$5 > 0' "$TMP/rows" | wc -l)
[ "$bad" -eq 0 ] || exit 2
exit 0
