#!/bin/sh
# run --rendezvous etcd://HOST:PORT/PREFIX: ranks meet through a real etcd (Debian's
# etcd-server), started here on 127.0.0.1 and stopped by its PID: the meeting, duplicate
# ranks, an earlier run's entries, a second rank 0, missing ranks, a world-size mismatch,
# an etcd that is not there and one that answers nonsense.
# harness: foreground (its deadlines are measured in wall-clock time)
. "$(dirname "$0")/lib.sh"
HTTPD="python3 $(cd "$(dirname "$0")" && pwd)/httpd.py"
PIDS=
stop_all() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	for p in $PIDS; do wait "$p" 2>/dev/null; done
	PIDS=
	rm -rf "$TMP"
}
trap stop_all EXIT INT TERM

if ! command -v etcd >/dev/null 2>&1; then
	skip "etcd is not installed (Debian's etcd-server; scripts/deps.sh installs it)"
	done_testing
	exit 0
fi
EP=$(free_port)
PP=$(free_port)
etcd --name t --data-dir "$TMP/etcd" --listen-client-urls "http://127.0.0.1:$EP" \
	--advertise-client-urls "http://127.0.0.1:$EP" --listen-peer-urls "http://127.0.0.1:$PP" \
	--initial-advertise-peer-urls "http://127.0.0.1:$PP" --initial-cluster "t=http://127.0.0.1:$PP" \
	>"$TMP/etcd.log" 2>&1 &
ETCD=$!
PIDS="$PIDS $ETCD"
i=0
until curl -s "http://127.0.0.1:$EP/health" 2>/dev/null | grep -q '"health":"true"'; do
	i=$((i + 1))
	if [ $i -gt 100 ]; then
		_report 1 "etcd starts" "$(tail -5 "$TMP/etcd.log")"
		done_testing
		exit 1
	fi
	sleep 0.1
done
E=etcd://127.0.0.1:$EP
api() { curl -s -X POST "http://127.0.0.1:$EP/v3/$1" -d "$2"; }
b64() { printf '%s' "$1" | base64 -w0; }
keys_under() { # the keys under $1, one a line
	api kv/range "{\"key\":\"$(b64 "$1")\",\"range_end\":\"$(b64 "${1%?}$(printf '%s' "${1#"${1%?}"}" | tr '/' '0')")\",\"keys_only\":true}" |
		python3 -c 'import json,sys,base64; [print(base64.b64decode(k["key"]).decode()) for k in json.load(sys.stdin).get("kvs",[])]'
}
json_field() { python3 -c "import json,sys; print(json.load(sys.stdin)$1)"; }
H=$(hostname)

# Four ranks started by hand meet with no address known in advance.
for r in 1 2 3; do
	"$HCCLCTL" run allreduce --rank $r --world-size 4 --rendezvous "$E/jobs/a" -b 8 -e 1K -n 1 -w 0 \
		>"$TMP/a$r.out" 2>"$TMP/a$r.err" &
	eval "A$r=\$!"
done
run hcclctl run allreduce --rank 0 --world-size 4 --rendezvous "$E/jobs/a" -b 8 -e 1K -n 1 -w 0
wait $A1; r1=$?; wait $A2; r2=$?; wait $A3; r3=$?
check_rc 0 "4 ranks meet through etcd: rank 0 exits 0"
ok "[ $r1$r2$r3 = 000 ]" "  so do ranks 1-3 ($r1 $r2 $r3)"
check_out_has "# hcclctl run allreduce: 4 ranks (etcd), fp32 sum, algo auto, iters 1, warmup 0, check on, engine libcomm" "  the launch is named etcd"
ok "printf '%s\n' \"$OUT\" | awk '/^ *[0-9]/ { n++; if (\$9 != 0) exit 1 } END { exit n != 8 }'" "  every row right"
ok "[ -z \"\$(cat '$TMP'/a*.out '$TMP'/a*.err)\" ]" "  the other ranks print nothing"
ok "[ -z \"$(keys_under /jobs/a/)\" ]" "  and no key is left under the prefix (the leases are revoked)"

# Under a launcher's environment (Open MPI's, Slurm's), HCCLCTL_RENDEZVOUS instead of a master.
for r in 1 2; do
	OMPI_COMM_WORLD_RANK=$r OMPI_COMM_WORLD_SIZE=3 HCCLCTL_RENDEZVOUS="$E/jobs/b" \
		"$HCCLCTL" run broadcast -b 64 -e 64 -n 1 -w 0 >/dev/null 2>&1 &
	eval "B$r=\$!"
done
run env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=3 HCCLCTL_RENDEZVOUS="$E/jobs/b" \
	"$HCCLCTL" run broadcast -b 64 -e 64 -n 1 -w 0
wait $B1; r1=$?; wait $B2; r2=$?
check_rc 0 "Open MPI's environment with HCCLCTL_RENDEZVOUS: exit 0"
ok "[ $r1$r2 = 00 ]" "  on every rank"
check_out_has "# hcclctl run broadcast: 3 ranks (openmpi), fp32, algo auto, iters 1, warmup 0, check on, engine libcomm" "  the launcher is named"
for r in 1 2; do
	SLURM_PROCID=$r SLURM_NTASKS=3 "$HCCLCTL" run barrier --rendezvous "$E/jobs/slurm" -n 1 -w 0 >/dev/null 2>&1 &
	eval "B$r=\$!"
done
run env SLURM_PROCID=0 SLURM_NTASKS=3 "$HCCLCTL" -q run barrier --rendezvous "$E/jobs/slurm" -n 1 -w 0
wait $B1; r1=$?; wait $B2; r2=$?
ok "[ $RC$r1$r2 = 000 ]" "Slurm's environment with --rendezvous: exit 0 on every rank"

# A duplicate rank is refused while the job meets, naming who holds the rank.
"$HCCLCTL" run barrier --rank 0 --world-size 3 --rendezvous "$E/jobs/dup" -n 1 -w 0 --timeout 20 >"$TMP/d0.out" 2>&1 &
D0=$!
"$HCCLCTL" run barrier --rank 1 --world-size 3 --rendezvous "$E/jobs/dup" -n 1 -w 0 --timeout 20 >/dev/null 2>&1 &
D1=$!
i=0
while [ -z "$(keys_under /jobs/dup/run/ | grep '/rank/1$')" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
run hcclctl run barrier --rank 1 --world-size 3 --rendezvous "$E/jobs/dup" -n 1 -w 0 --timeout 20
check_rc 2 "a second rank 1: exit 2"
ok "printf '%s\n' \"$ERR\" | grep -q '^hcclctl: run barrier: rank 1: etcd $E/jobs/dup: rank 1 is already registered for this run (host $H, pid $D1): a duplicate rank 1$'" "  names the host and pid that hold rank 1"
check_err_has "hcclctl: verdict: config: etcd $E/jobs/dup: rank 1 is already registered for this run (host $H, pid $D1): a duplicate rank 1" "  and the verdict is config"
run hcclctl run barrier --rank 2 --world-size 3 --rendezvous "$E/jobs/dup" -n 1 -w 0 --timeout 20
wait $D0; r0=$?; wait $D1; r1=$?
ok "[ $RC$r0$r1 = 000 ]" "  the job goes on with the first rank 1 ($RC $r0 $r1)"

# A world-size mismatch is named.
"$HCCLCTL" run barrier --rank 0 --world-size 2 --rendezvous "$E/jobs/ws" -n 1 -w 0 --timeout 3 >/dev/null 2>&1 &
W0=$!
sleep 0.3
run hcclctl run barrier --rank 1 --world-size 3 --rendezvous "$E/jobs/ws" -n 1 -w 0 --timeout 3
wait $W0
ok "printf '%s\n' \"$ERR\" | grep -q '^hcclctl: run barrier: rank 1: etcd $E/jobs/ws: world size mismatch: rank 0 (host $H, pid $W0) has 2 ranks, rank 1 has 3$'" "a world-size mismatch names both sizes and rank 0's host and pid"
check_rc 2 "  exit 2"

# Missing ranks: rank 0 names them within the deadline, and those of an earlier run.
LEASE=$(api lease/grant '{"TTL":"60"}' | json_field '["ID"]')
api kv/put "{\"key\":\"$(b64 /jobs/miss/run/1/rank/2)\",\"value\":\"$(b64 '{"rank":2,"host":"old","pid":1}')\",\"lease\":\"$LEASE\"}" >/dev/null
"$HCCLCTL" run barrier --rank 1 --world-size 4 --rendezvous "$E/jobs/miss" -n 1 -w 0 --timeout 2 >/dev/null 2>"$TMP/m1.err" &
M1=$!
t0=$(date +%s)
run hcclctl run barrier --rank 0 --world-size 4 --rendezvous "$E/jobs/miss" -n 1 -w 0 --timeout 2
t1=$(date +%s)
wait $M1
check_rc 2 "ranks that never come: exit 2"
ok "printf '%s\n' \"$ERR\" | grep -q '^hcclctl: run barrier: rank 0: etcd $E/jobs/miss: 2 of 4 ranks never registered within 2\.[0-9] s: ranks 2-3; registered under an earlier run only: 2$'" "  names the missing ranks, and rank 2's entry of an earlier run"
ok "printf '%s\n' \"$ERR\" | grep -q '^hcclctl: verdict: stuck-rank: '" "  the verdict is stuck-rank"
ok "[ $((t1 - t0)) -le 4 ]" "  within the deadline ($((t1 - t0)) s)"
ok "grep -q '^hcclctl: run barrier: rank 1: etcd $E/jobs/miss: rank 1: rank 0 did not see every rank within 3\.[0-9] s$' '$TMP/m1.err'" "  rank 1 times out too, and says why"
api lease/revoke "{\"ID\":\"$LEASE\"}" >/dev/null

# An earlier run of the same job died after it met: its root and "go" entries live on until
# their lease expires. Rank 1 must not join that run, and rank 0 waits the entry out.
LEASE=$(api lease/grant '{"TTL":"5"}' | json_field '["ID"]')
REV=$(api kv/put "{\"key\":\"$(b64 /jobs/stale/root)\",\"value\":\"$(b64 '{"token":"comm3:127.0.0.1:9:00000000000000000000000000000000","world_size":2,"host":"old-node","pid":4242}')\",\"lease\":\"$LEASE\"}" | json_field '["header"]["revision"]')
api kv/put "{\"key\":\"$(b64 "/jobs/stale/run/$REV/rank/1")\",\"value\":\"$(b64 '{"rank":1,"host":"old-node","pid":4243}')\",\"lease\":\"$LEASE\"}" >/dev/null
api kv/put "{\"key\":\"$(b64 "/jobs/stale/run/$REV/go")\",\"value\":\"$(b64 2)\",\"lease\":\"$LEASE\"}" >/dev/null
"$HCCLCTL" run allreduce --rank 1 --world-size 2 --rendezvous "$E/jobs/stale" -b 8 -e 8 -n 1 -w 0 --timeout 20 >/dev/null 2>"$TMP/s1.err" &
S1=$!
sleep 0.3
run env HCCLCTL_ETCD_TTL=5 "$HCCLCTL" run allreduce --rank 0 --world-size 2 --rendezvous "$E/jobs/stale" -b 8 -e 8 -n 1 -w 0 --timeout 20
wait $S1
s1=$?
check_rc 0 "after an earlier run's entries expire, the new run meets: exit 0"
ok "[ $s1 -eq 0 ]" "  rank 1 too"
check_err_has "hcclctl: run allreduce: rank 0: $E/jobs/stale holds an entry of rank 0 (host old-node, pid 4242), from an earlier run?: waiting up to 7 s for its lease to expire" "  rank 0 says what it waits for"
ok "grep -qxF 'hcclctl: run allreduce: rank 1: the rank 0 entry at $E/jobs/stale (host old-node, pid 4242) is of an earlier run that met already: waiting for this run'\"'\"'s' '$TMP/s1.err'" "  rank 1 does not join the earlier run"

# A second rank 0 that keeps its entry alive is a duplicate.
"$HCCLCTL" run barrier --rank 0 --world-size 2 --rendezvous "$E/jobs/two" -n 1 -w 0 --timeout 20 >/dev/null 2>&1 &
T0=$!
# the second starts once the first holds the root entry (a fixed wait lost that race on a
# loaded machine: the second became the root, the first the duplicate)
i=0
while [ $i -lt 100 ] && ! keys_under /jobs/two/ | grep -qx /jobs/two/root; do
	sleep 0.1
	i=$((i + 1))
done
printf '# the first rank 0 held the root entry after %d polls\n' "$i"
run env HCCLCTL_ETCD_TTL=2 "$HCCLCTL" run barrier --rank 0 --world-size 2 --rendezvous "$E/jobs/two" -n 1 -w 0 --timeout 20
check_rc 2 "a second live rank 0: exit 2"
ok "printf '%s\n' \"$ERR\" | grep -q '^hcclctl: run barrier: rank 0: etcd $E/jobs/two: rank 0 is already there (host $H, pid $T0) and keeps its entry alive: a second rank 0 of this job$'" "  named with host and pid"
run hcclctl run barrier --rank 1 --world-size 2 --rendezvous "$E/jobs/two" -n 1 -w 0 --timeout 20
wait $T0
ok "[ $RC$? = 00 ]" "  the first rank 0's job goes on"

# Usage and an etcd that is not there, or answers nonsense.
run hcclctl run barrier --rank 0 --world-size 2 --rendezvous "http://127.0.0.1:$EP/x"
check_rc 64 "a rendezvous URL that is not etcd://: usage error"
check_err "hcclctl: run barrier: --rendezvous 'http://127.0.0.1:$EP/x': expected etcd://HOST:PORT/PREFIX" "  says the form"
run hcclctl run barrier --rank 0 --world-size 2 --rendezvous "$E"
check_rc 64 "no job prefix: usage error"
run hcclctl run barrier --local 2 --rendezvous "$E/x"
check_rc 64 "--rendezvous with --local: usage error"
P=$(free_port)
run hcclctl run barrier --rank 1 --world-size 2 --rendezvous "etcd://127.0.0.1:$P/jobs/x"
check_rc 3 "etcd not running: exit 3"
ok "printf '%s\n' \"$ERR\" | grep -q '^hcclctl: run barrier: rank 1: etcd: http://127.0.0.1:$P/v3/lease/grant: Failed to connect to 127.0.0.1 port $P'" "  names the call and the address"
check_err_has "hint: is etcd running there? 'etcdctl endpoint health' checks it" "  with a hint"

bad() { # bad BODY: an "etcd" whose every answer is BODY
	printf '%s' "$1" >"$TMP/body"
	rm -f "$TMP/fake.port"
	$HTTPD answer "$TMP/body" "$TMP/fake.port" >/dev/null 2>&1 &
	FAKE=$!
	PIDS="$PIDS $FAKE"
	i=0
	while [ ! -s "$TMP/fake.port" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	run hcclctl run barrier --rank 1 --world-size 2 --rendezvous "etcd://127.0.0.1:$(cat "$TMP/fake.port")/j" --timeout 2
	kill $FAKE
	wait $FAKE 2>/dev/null
}
bad '<html>proxy login</html>'
check_rc 3 "an answer that is not JSON: exit 3"
ok "printf '%s\n' \"$ERR\" | grep -q 'lease/grant: the answer is not JSON (24 bytes): line 1, column 1: near .<html>proxy logi.$'" "  located"
bad '{"ID":"12x","TTL":"10"}'
check_rc 3 "a lease ID that is not an integer: exit 3"
ok "printf '%s\n' \"$ERR\" | grep -q 'rank 1: etcd: answer: \$\.ID: expected an integer, got 12x$'" "  names the JSON path"
bad '{"ID":"7","TTL":"10","responses":[{"response_range":{"kvs":[{"key":"@@@@","create_revision":"5"}]}}]}'
check_rc 3 "a key that is not base64: exit 3"
ok "printf '%s\n' \"$ERR\" | grep -q 'etcd: answer: \$\.responses\[0\]\.response_range\.kvs\[0\]\.key: not base64 at character 0$'" "  names the path and the character"
bad '{"ID":"7","responses":[{"response_range":{"kvs":"x"}}]}'
check_rc 3 "kvs that is not an array: exit 3"
ok "printf '%s\n' \"$ERR\" | grep -q 'answer: \$\.responses\[0\]\.response_range\.kvs: expected an array$'" "  named"
bad '{"ID":"7","responses":[{"response_range":{"kvs":[{"key":"L2ovcm9vdA==","value":"bm90IGpzb24=","create_revision":"5"}]}}]}'
check_rc 3 "a root whose value is not JSON: exit 3"
ok "printf '%s\n' \"$ERR\" | grep -q 'etcd: /j/root: not JSON: line 1, column 1: near .not json.$'" "  names the key, located"
bad '{"error":"etcdserver: requested lease not found","code":5,"message":"etcdserver: requested lease not found"}'
check_rc 3 "an etcd error answer: exit 3"
ok "printf '%s\n' \"$ERR\" | grep -q 'lease/grant: etcdserver: requested lease not found$'" "  carries etcd's message"

done_testing
