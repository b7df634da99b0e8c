#!/bin/sh
# The reduce kernels (comm__reduce, comm__reduce3: sum per dtype) against memcpy on this
# machine, 64 MiB buffers, best of 7 (BENCH_QUICK=1: 16 MiB, best of 3). Writes
# bench/results/kernels-DATE.json.
set -eu
cd "$(dirname "$0")/.." || exit 3
[ -x build/bench/kernels ] || { echo "bench kernels: build/bench/kernels is not built; hint: make bench-bin" >&2; exit 3; }
mkdir -p bench/results
RES=bench/results/kernels-$(date +%Y%m%d-%H%M%S).json
if [ "${BENCH_QUICK:-0}" != 0 ]; then
	bytes=16777216 runs=3
else
	bytes=67108864 runs=7
fi
echo "# reduce kernels vs memcpy: sum, $bytes-byte buffers, best of $runs (load now: $(cut -d' ' -f1-3 /proc/loadavg))"
build/bench/kernels "$bytes" "$runs" >"$RES.tmp" # the table is on stderr
mv "$RES.tmp" "$RES"
python3 - "$RES" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
slow = [k["dtype"] for k in d["kernels"] if k["dtype"] in ("fp32", "bf16", "fp16") and k["reduce_of_memcpy"] < 0.5]
print("target fp32/bf16/fp16 sum >= 0.50 of memcpy: %s" % ("met" if not slow else "NOT met for " + ", ".join(slow)))
PY
echo "results: $RES"
