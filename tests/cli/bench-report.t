#!/bin/sh
# bench/collreport.py and bench/localreport.py read what the drivers wrote (hcclctl --json,
# bench/mpi_coll, bench/gloo_coll): good rows make the tables, with the ratios and the issue-21
# target marks; a malformed line or row is named with its file and line on stderr, counted as
# a failure of its launch, and the report goes on (no traceback).
# harness: once (it runs the bench report scripts, never $HCCLCTL: cli-asan would repeat it)
. tests/cli/lib.sh

d=$TMP/coll
mkdir -p "$d"
cat >"$d/meta.json" <<'EOF'
{"nodes": 4, "rate": "1gbit", "algo": "auto", "link": {"stream_GBps": 0.1}, "ring": {}, "elapsed_s": 1}
EOF
cat >"$d/ours-allreduce-1.json" <<'EOF'
{"collective": "allreduce", "world_size": 4, "results": [
 {"size_bytes": 65536, "algo": "ring", "time_us": 1000.0, "busbw_GBps": 0.098, "wrong": null},
 {"size_bytes": 16777216, "algo": "ring", "time_us": 9.0, "busbw_GBps": 0.096, "wrong": 0},
 {"size_bytes": "4M", "time_us": 1, "busbw_GBps": 1, "wrong": 0}]}
EOF
printf '%s\n' \
	'{"size_bytes": 65536, "time_us": 1100.0, "busbw_GBps": 0.09, "wrong": 0}' \
	'mpirun: noise' \
	'{"size_bytes": 16777216, "time_us": 5.0, "wrong": 0}' \
	'{"size_bytes": 16777216, "time_us": 5.0, "busbw_GBps": 0.092, "wrong": 0}' \
	>"$d/mpi-allreduce-1.jsonl"
printf '%s\n' \
	'{"size_bytes": 65536, "time_us": 900.0, "busbw_GBps": 0.1, "wrong": 0}' \
	'{"size_bytes": 16777216, "time_us": 5.0, "busbw_GBps": -1, "wrong": 0}' \
	'[1, 2]' \
	'{"size_bytes": 16777216, "time_us": 5.0, "busbw_GBps": 0.09, "wrong": true}' \
	>"$d/gloo-allreduce-default-1.jsonl"
: >"$d/gloo-allreduce-ring_chunked-1.jsonl"

run python3 bench/collreport.py add "$TMP/coll.json" "$d"
check_rc 0 "collreport add: exit 0 with malformed lines"
check_out_has "allreduce        64K    0.0980    0.0900    0.1000         -     1.09      0.98     0.980     0.900    1000.0    1100.0  ring MISS <gloo" \
	"64K row: ratios to MPI, Gloo and the link; MISS because Gloo is faster"
check_out_has "allreduce        16M    0.0960    0.0920         -         -     1.04         -     0.960     0.920       9.0       5.0  ring ok" \
	"16M row: the bad Gloo lines leave it without Gloo; above MPI and 0.95 of the link: ok"
check_err_has "collreport: $d/ours-allreduce-1.json: results[2]: skipped: \"size_bytes\" is \"4M\", not a non-negative integer" \
	"a bad row of ours is named by its index"
check_err_has "collreport: $d/mpi-allreduce-1.jsonl:2: skipped: not JSON at column 1" \
	"a line that is not JSON is named by file and line"
check_err_has "collreport: $d/mpi-allreduce-1.jsonl:3: skipped: no \"busbw_GBps\"" \
	"a line without busbw_GBps"
check_err_has "collreport: $d/gloo-allreduce-default-1.jsonl:2: skipped: \"busbw_GBps\" is -1, not a non-negative number" \
	"a negative bandwidth"
check_err_has "collreport: $d/gloo-allreduce-default-1.jsonl:3: skipped: not a JSON object" \
	"a JSON line that is not an object"
check_err_has "collreport: $d/gloo-allreduce-default-1.jsonl:4: skipped: \"wrong\" is true, not a non-negative integer" \
	"a boolean is not a count"
check_out_has "FAILED: Gloo allreduce ring_chunked gloo-allreduce-ring_chunked-1.jsonl (see the .err files; the run went on)" \
	"an empty driver output is a failed launch"
ok "! grep -q Traceback '$TMP/err'" "no traceback"
run python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["configs"][0]
print(len(c["results"]), len(c["failures"]), [r["target"] for r in c["results"]],
      c["results"][0]["ours_over_gloo"])' "$TMP/coll.json"
check_out "2 7 ['MISS', 'ok'] 0.98" "the JSON keeps 2 rows, 7 failures and the marks"

run python3 bench/collreport.py summary "$TMP/coll.json"
check_out_has "    busbw >= Gloo (the better algorithm) at >=64K: NOT met at allred 64K 0.98" \
	"summary names the size behind Gloo"
check_out_has "    issue-21 rows (>=64K): 1 ok, 1 MISS" "summary counts the marks"

# one host: ours at 2.0 against vader 1.0 and Gloo 0.9 meets the 1.5x and 2x targets
l=$TMP/local
mkdir -p "$l"
echo '{"nodes": 2, "peers": "ours vader", "gloo": true, "lat_repeats": 1, "elapsed_s": 3}' >"$l/meta.json"
echo '{"results": [{"size_bytes": 16777216, "time_us": 10.0, "busbw_GBps": 2.0, "wrong": 0}]}' \
	>"$l/ours-allreduce-1.json"
printf '%s\n' '{"size_bytes": 16777216, "time_us": 20.0, "busbw_GBps": 1.0, "wrong": 3}' '{"size_bytes": 8' \
	>"$l/vader-allreduce-1.jsonl"
echo '{"size_bytes": 16777216, "time_us": 30.0, "busbw_GBps": 0.9, "wrong": 0}' \
	>"$l/gloo-allreduce-default-1.jsonl"
echo '{"size_bytes": 16777216, "time_us": 31.0, "busbw_GBps": 0.8, "wrong": 0}' \
	>"$l/gloo-allreduce-ring_chunked-1.jsonl"
echo '{"results": [{"size_bytes": 8, "time_us": 12.5, "busbw_GBps": 0.0, "wrong": 0}]}' >"$l/lat-ours-0.json"
echo '{"size_bytes": 8, "time_us": 2.5, "busbw_GBps": 0.0, "wrong": 0}' >"$l/lat-vader-0.jsonl"
echo '{"size_bytes": 8, "time_us": 150.0, "busbw_GBps": 0.0, "wrong": 0}' >"$l/lat-gloo-0.jsonl"
run python3 bench/localreport.py add "$TMP/local.json" "$l"
check_rc 0 "localreport add: exit 0"
check_out_has "16M        2.0000          -     1.0000          -     0.9000     0.8000     2.00     2.22        -  ok" \
	"one host: ratios to vader and the better Gloo, target ok"
check_out_has "WRONG RESULTS: vader allreduce 16M: 3 wrong" "a peer's wrong elements are shown"
check_out_has "target ours <= vader: MISS" "8-byte latency 12.5 us against vader's 2.5: MISS"
check_err_has "collreport: $l/vader-allreduce-1.jsonl:2: skipped: not JSON at column 17" \
	"a cut line of mpi_coll is named"
run python3 bench/localreport.py summary "$TMP/local.json"
check_out_has "- N=2: 1 of 1 rows at 16M-256M met" "summary of the one-host targets"
check_out_has "    8-byte allreduce ours 12.5 us, vader 2.5 us, gloo 150.0 us: ours <= vader MISS" \
	"summary of the latencies"

run python3 bench/collreport.py add "$TMP/coll.json"
check_rc 64 "collreport: a missing argument is a usage error"
run python3 bench/localreport.py bogus
check_rc 64 "localreport: an unknown command is a usage error"
done_testing
