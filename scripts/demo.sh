#!/bin/sh
# make demo: the main jobs of hcclctl on this one machine.
set -eu
cd "$(dirname "$0")/.."
H=./hcclctl
OUT=$(mktemp -d "${TMPDIR:-/tmp}/hcclctl-demo.XXXXXX")
trap 'rm -rf "$OUT"' EXIT

# bold commands on a terminal only: a log or a pipe gets plain text (NO_COLOR too)
if [ -t 1 ] && [ -z "${NO_COLOR:-}" ]; then B=$(printf '\033[1m') N=$(printf '\033[0m'); else B= N=; fi
step() { printf '\n%s$ %s%s\n' "$B" "$*" "$N"; "$@"; }

echo "== rank tables: generate for two servers of 8 NPUs, validate, show, compare"
step $H ranktable gen --servers 10.0.0.1,10.0.0.2 --devices 0-7 \
	--hccn-conf-dir examples/hccn -o "$OUT/rank_table.json"
step $H ranktable validate "$OUT/rank_table.json"
step $H ranktable show "$OUT/rank_table.json"
# A hand edit that HCCL would reject: a duplicated rank id and a device IP typo.
sed -e '0,/"rank_id": "3"/s//"rank_id": "2"/' -e 's/192.168.102.17/192.168.102.1O/' \
	"$OUT/rank_table.json" >"$OUT/edited.json"
printf "\n# an edited copy with a duplicated rank id and a typo in an IP:\n"
step $H ranktable validate "$OUT/edited.json" || echo "(exit $? = FAIL, as expected)"
step $H ranktable diff "$OUT/rank_table.json" "$OUT/edited.json" || echo "(exit $? = they differ)"
printf "\n== collectives: a real 4-rank allreduce on libcomm over loopback, every result checked\n"
step $H run allreduce --local 4 -b 8 -e 16M -n 10 -w 2
printf "\n== triage: the logs of a real failed job (two A3 nodes, posted in a public issue)\n"
step $H doctor --logs examples/logs/vllm-ascend-9447-a3-2node-socket-timeout ||
	echo "(exit $? = FAIL: the cause is named)"
printf "\ndemo done\n"
