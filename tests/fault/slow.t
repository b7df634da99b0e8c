# One link at half the rate of the others (tc htb, 400 Mbit/s everywhere, node 2 -> node 3 at
# 200 Mbit/s): the run completes, exactly, and names that link — and no other — as the
# slowest in its footer and JSON. Across network namespaces, ranks over SSH.
# harness: foreground (the slowest link is measured: a neighbour's load would slow others too)
. "$(dirname "$0")/../cli/lib.sh"
. "$(dirname "$0")/../cluster/netns.sh"
. "$(dirname "$0")/lib.sh"

cluster_require
if ! cluster_up 4 --rate 400mbit || ! cluster_shape_link 2 3 200mbit; then
	_report 1 "cluster_up 4 --rate 400mbit, node 2 -> node 3 at 200mbit"
	done_testing
	exit 1
fi
mkdir -p "$TMP/hccn"
for i in 1 2 3 4; do printf 'address_0=192.168.10.%d\n' "$i" >"$TMP/hccn/10.77.0.$i"; done
"$HCCLCTL" ranktable gen --servers "$(cluster_hosts)" --devices 0 --hccn-conf-dir "$TMP/hccn" \
	-o "$TMP/rt.json" 2>/dev/null
rx() {
	cluster_head env -u SSH_AUTH_SOCK "$HCCLCTL" run "$@" --ssh --ssh-user root \
		--ssh-key "$CL_KEY" --ssh-known-hosts "$CL_KNOWN_HOSTS" --remote-hcclctl "$HCCLCTL"
}

t0=$(now_ms)
run rx allreduce --ranktable "$TMP/rt.json" -b 4M -e 4M -n 8 -w 1 --algo ring
echo "# ring allreduce of 4 MiB x 9 over 400 Mbit/s links, one at 200: $(($(now_ms) - t0)) ms"
check_rc 0 "one link at half rate: the run completes (exit 0)"
printf '%s\n' "$OUT" | awk '/^ +[0-9]/ {n++; if ($9 != "0" || ($13 != "0" && $13 != "N/A")) bad++} END {exit !(n == 1 && !bad)}'
_report $? "  its row has #wrong 0" "$OUT"
printf '%s\n' "$OUT" | grep -q '^# Slowest link         : rank 1 (host 10.77.0.2) -> rank 2 (host 10.77.0.3): '
_report $? "  the footer names rank 1 (10.77.0.2) -> rank 2 (10.77.0.3)" "$OUT"
[ "$(printf '%s\n' "$OUT" | grep -c '^# Slowest')" -eq 1 ]
_report $? "  and nothing else" "$OUT"

run rx allreduce --json --ranktable "$TMP/rt.json" -b 4M -e 4M -n 8 -w 1 --algo ring
check_rc 0 "--json: exit 0"
printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
s = d["slowest"]
l = s["link"]
assert l["from"] == 1 and l["to"] == 2, s
assert l["from_host"] == "10.77.0.2" and l["to_host"] == "10.77.0.3", s
assert l["GBps"] < 0.7 * l["median_GBps"], s
assert s["rank"] is None and s["links_judged"] == 4, s
print("# slow link %.1f Mbit/s, median %.1f Mbit/s (%.0f %%)" % (l["GBps"] * 8e3, l["median_GBps"] * 8e3, 100 * l["GBps"] / l["median_GBps"]))
'
_report $? "  JSON slowest.link: 1 -> 2, under 70 % of the median, no slowest rank" "$OUT"

# The same links unshaped: nothing is named.
tc -n "$(cluster_ns 2)" filter del dev eth0 parent 1: protocol ip prio 1 2>/dev/null
run rx allreduce --json --ranktable "$TMP/rt.json" -b 4M -e 4M -n 8 -w 1 --algo ring
printf '%s' "$OUT" | python3 -c '
import json, sys
s = json.load(sys.stdin)["slowest"]
assert s["link"] is None and s["rank"] is None, s'
_report $? "with every link at 400 Mbit/s no link or rank is named" "$OUT"

done_testing
