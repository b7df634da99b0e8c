# --prometheus FILE on doctor, the probes and run: the Prometheus text format that
# `promtool check metrics` accepts, values that agree with the command's own output,
# written atomically (a rename; nothing half-written left), and every metric in the man pages.
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"
BIN=$(pwd)/build/tests/stub/bin
NS=$(pwd)/tests/data/npu-smi
H=$(pwd)/tests/data/hccn_tool
S=$(pwd)/tests/data/sysfs
export FAKE_NPU_SMI_DIR=$NS/a2 FAKE_HCCN_DIR=$H/a2
export HCCLCTL_NPU_SMI=$BIN/npu-smi HCCLCTL_HCCN_TOOL=$BIN/hccn_tool
unset SLURM_PROCID SLURMD_NODENAME OMPI_COMM_WORLD_RANK RANK WORLD_SIZE
mkdir "$TMP/tf"

promcheck() { # $1 file, $2 what
	if command -v promtool >/dev/null 2>&1; then
		out=$(promtool check metrics <"$1" 2>&1)
		rc=$?
		[ $rc -eq 0 ] && [ -z "$out" ]
		_report $? "  promtool check metrics accepts the $2 file, with no lint" "$out" "$(cat "$1")"
	else
		skip "promtool: Debian's prometheus package is not installed"
	fi
}
samples() { grep -v '^#' "$1" | grep -v '^hcclctl_last_run_timestamp_seconds'; }

# doctor
FAKE_NPU_SMI_DIR=$NS/a2-down:$NS/a2 run hcclctl doctor --local --node-name n1 --checks link.hccs,npu.health \
	--prometheus "$TMP/tf/doctor.prom"
check_rc 2 "doctor --prometheus with a down HCCS link: exit 2 as without"
promcheck "$TMP/tf/doctor.prom" doctor
run samples "$TMP/tf/doctor.prom"
check_out 'hcclctl_doctor_check_status{node="n1",check="link.hccs",status="pass"} 0
hcclctl_doctor_check_status{node="n1",check="link.hccs",status="skip"} 0
hcclctl_doctor_check_status{node="n1",check="link.hccs",status="warn"} 0
hcclctl_doctor_check_status{node="n1",check="link.hccs",status="fail"} 1
hcclctl_doctor_check_status{node="n1",check="npu.health",status="pass"} 0
hcclctl_doctor_check_status{node="n1",check="npu.health",status="skip"} 0
hcclctl_doctor_check_status{node="n1",check="npu.health",status="warn"} 0
hcclctl_doctor_check_status{node="n1",check="npu.health",status="fail"} 1
hcclctl_doctor_checks{status="pass"} 0
hcclctl_doctor_checks{status="skip"} 0
hcclctl_doctor_checks{status="warn"} 0
hcclctl_doctor_checks{status="fail"} 2
hcclctl_exit_code{command="doctor"} 2' "  one series per check and status, the counts, the exit code"
ts=$(awk '/^hcclctl_last_run_timestamp_seconds/{print int($2)}' "$TMP/tf/doctor.prom")
now=$(date +%s)
[ -n "$ts" ] && [ $((now - ts)) -ge 0 ] && [ $((now - ts)) -lt 60 ]
_report $? "  hcclctl_last_run_timestamp_seconds is now ($ts, $now)"
ino1=$(stat -c %i "$TMP/tf/doctor.prom")
run hcclctl doctor --local --node-name n1 --checks link.hccs --prometheus "$TMP/tf/doctor.prom"
check_rc 0 "doctor again, healthy: exit 0"
ino2=$(stat -c %i "$TMP/tf/doctor.prom")
[ "$ino1" != "$ino2" ] && [ "$(ls -A "$TMP/tf")" = "doctor.prom" ]
_report $? "  the file is replaced by a rename (new inode), no temporary file left" "$(ls -A "$TMP/tf")"
grep -qx 'hcclctl_doctor_check_status{node="n1",check="link.hccs",status="pass"} 1' "$TMP/tf/doctor.prom"
_report $? "  and now says link.hccs passes"
run hcclctl doctor --local --checks link.hccs --prometheus "$TMP/none/x.prom"
check_rc 3 "an unwritable --prometheus path: exit 3, though the check passes"
check_err_has "hcclctl: doctor: --prometheus: cannot write the metrics: cannot create a temporary file in '$TMP/none': No such file or directory" \
	"  said, with the path"
check_out_has "$(printf 'PASS  link.hccs       %-22s every HCCS link up' "$(hostname)")" "  the report still printed"
run hcclctl doctor --local --checks link.hccs --prometheus "$TMP/tf"
check_rc 3 "--prometheus naming a directory: exit 3"
check_err_has "hcclctl: doctor: --prometheus: cannot write the metrics: '$TMP/tf' is a directory, not a file" "  named as a directory"
check_err_has "hint: give a FILE in a directory that exists and you can write (node_exporter's textfile directory)" "  with the fix"
[ -z "$(ls -A "$TMP/tf" | grep -v '\.prom$')" ]; _report $? "  no temporary file left" "$(ls -A "$TMP/tf")"
FAKE_NPU_SMI_DIR=$NS/a2-down:$NS/a2 run hcclctl doctor --local --checks link.hccs --prometheus "$TMP/none/x.prom"
check_rc 2 "an unwritable --prometheus path when a check fails: the failure's exit 2 stands"

# probe hccs: 56 links, one down
FAKE_NPU_SMI_DIR=$NS/a2-down:$NS/a2 run hcclctl probe hccs --prometheus "$TMP/tf/hccs.prom"
check_rc 2 "probe hccs --prometheus, one link down: exit 2"
promcheck "$TMP/tf/hccs.prom" "probe hccs"
[ "$(grep -c '^hcclctl_hccs_link_up{.*} 1$' "$TMP/tf/hccs.prom")" -eq 55 ] &&
	[ "$(grep '^hcclctl_hccs_link_up{.*} 0$' "$TMP/tf/hccs.prom")" = 'hcclctl_hccs_link_up{npu="3",chip="0",link="2"} 0' ]
_report $? "  55 links up, NPU 3 chip 0 link 2 down (as the table says)" "$(grep -v '} 1$' "$TMP/tf/hccs.prom")"
grep -qx 'hcclctl_probe_status{probe="hccs",status="fail"} 1' "$TMP/tf/hccs.prom" &&
	grep -qx 'hcclctl_exit_code{command="probe hccs"} 2' "$TMP/tf/hccs.prom"
_report $? "  the probe's status fail, exit code 2"
run hcclctl --json probe hccs --prometheus "$TMP/tf/hccs2.prom"
check_rc 0 "probe hccs --json --prometheus: exit 0"
printf '%s' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["status"] == "PASS"'
_report $? "  stdout still holds the one JSON document"
# the probes too: metrics asked for and not written are exit 3, unless the probe failed
run hcclctl probe hccs --prometheus "$TMP/none/hccs.prom"
check_rc 3 "probe hccs with an unwritable --prometheus path: exit 3"
check_err_has "hcclctl: probe: --prometheus: cannot write the metrics: cannot create a temporary file in '$TMP/none': No such file or directory" \
	"  said, with the path"
run hcclctl --json probe hccs --prometheus "$TMP/tf"
check_rc 3 "probe hccs --json with --prometheus naming a directory: exit 3"
printf '%s' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["exit_code"] == 3, d["exit_code"]'
_report $? "  the one JSON document's exit_code says 3 too" "$OUT"
FAKE_NPU_SMI_DIR=$NS/a2-down:$NS/a2 run hcclctl probe hccs --prometheus "$TMP/none/hccs.prom"
check_rc 2 "probe hccs failing with an unwritable --prometheus path: the failure's exit 2 stands"

# probe rdma: one port down
run hcclctl probe rdma --sysfs-root "$S/port-down" --prometheus "$TMP/tf/rdma.prom"
check_rc 2 "probe rdma --prometheus, a port down: exit 2"
promcheck "$TMP/tf/rdma.prom" "probe rdma"
run sh -c "grep '^hcclctl_rdma' '$TMP/tf/rdma.prom'"
check_out 'hcclctl_rdma_port_up{device="mlx5_0",port="1"} 1
hcclctl_rdma_port_up{device="mlx5_1",port="1"} 0
hcclctl_rdma_port_rate_bytes_per_second{device="mlx5_0",port="1"} 12500000000
hcclctl_rdma_port_rate_bytes_per_second{device="mlx5_1",port="1"} 1250000000' \
	"  each port's state and rate (100 and 10 Gb/s in sysfs)"

# probe roce: NPU 3's NIC down
FAKE_HCCN_DIR=$H/a2-down:$H/a2 run hcclctl -q probe roce --prometheus "$TMP/tf/roce.prom"
check_rc 2 "probe roce --prometheus, a NIC down: exit 2"
promcheck "$TMP/tf/roce.prom" "probe roce"
[ "$(grep -c '^hcclctl_roce_link_up' "$TMP/tf/roce.prom")" -eq 8 ] &&
	[ "$(grep '^hcclctl_roce_link_up.* 0$' "$TMP/tf/roce.prom")" = 'hcclctl_roce_link_up{device="3"} 0' ]
_report $? "  8 NICs, device 3 down" "$(cat "$TMP/tf/roce.prom")"

# run: the metrics are the JSON's numbers in base units
run hcclctl --json run allreduce --local 3 -b 8 -e 4K -f 8 -n 2 -w 1 --prometheus "$TMP/tf/run.prom"
check_rc 0 "run allreduce --local 3 --prometheus: exit 0"
promcheck "$TMP/tf/run.prom" run
printf '%s' "$OUT" >"$TMP/run.json"
python3 - "$TMP/run.json" "$TMP/tf/run.prom" <<'EOP'
import json, re, sys
doc = json.load(open(sys.argv[1]))
m = {}
for line in open(sys.argv[2]):
    if line.startswith("#"):
        continue
    k, v = line.rsplit(" ", 1)
    m[k] = float(v)
for r in doc["results"]:
    lab = '{collective="allreduce",dtype="fp32",op="sum",size_bytes="%d"}' % r["size_bytes"]
    for name, val in (("busbw_bytes_per_second", r["busbw_GBps"] * 1e9),
                      ("algbw_bytes_per_second", r["algbw_GBps"] * 1e9),
                      ("time_seconds", r["time_us"] / 1e6),
                      ("wrong_elements", r["wrong"])):
        got = m["hcclctl_run_" + name + lab]
        assert abs(got - val) <= 1e-12 * max(1.0, abs(val)), (name, got, val)
assert len([k for k in m if k.startswith("hcclctl_run_busbw")]) == len(doc["results"]) == 4
assert m['hcclctl_run_verdict{collective="allreduce",kind="none"}'] == 1
assert sum(v for k, v in m.items() if k.startswith("hcclctl_run_verdict")) == 1
assert m['hcclctl_exit_code{command="run allreduce"}'] == 0
EOP
_report $? "  busbw, algbw, time and wrong per size equal the JSON's (in bytes/s and s), verdict none" "$(cat "$TMP/tf/run.prom")"
HCCLCTL_FAULT_CORRUPT=1 run hcclctl run allreduce --local 2 -b 1K -e 1K -n 1 -w 0 -d int32 --prometheus "$TMP/tf/bad.prom"
check_rc 2 "a corrupted result: exit 2"
grep -qx 'hcclctl_run_wrong_elements{collective="allreduce",dtype="int32",op="sum",size_bytes="1024"} 1' "$TMP/tf/bad.prom" &&
	grep -qx 'hcclctl_exit_code{command="run allreduce"} 2' "$TMP/tf/bad.prom"
_report $? "  the metrics count the wrong element and exit code 2" "$(cat "$TMP/tf/bad.prom")"
# run's metrics that cannot be written are exit 3 too, unless the run failed; a path under a
# regular file cannot be created, by root either
: >"$TMP/file"
run hcclctl run allreduce --local 2 -b 8 -e 8 -n 1 -w 0 --prometheus "$TMP/file/run.prom"
check_rc 3 "run --prometheus under a regular file: exit 3, though the run passed"
check_err "hcclctl: run allreduce: --prometheus: cannot write the metrics: cannot create a temporary file in '$TMP/file': Not a directory
hint: give a FILE in a directory that exists and you can write (node_exporter's textfile directory)" \
	"  said once, with the file and why"
printf '%s\n' "$OUT" | grep -q '^# Avg bus bandwidth    : [0-9.e+-]*$'
_report $? "  the table still printed, to its footer" "$OUT"
run hcclctl --json run allreduce --local 2 -b 8 -e 8 -n 1 -w 0 --prometheus "$TMP/file/run.prom"
check_rc 3 "run --json with that --prometheus: exit 3"
printf '%s' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["exit_code"] == 3 and len(d["results"]) == 1, d'
_report $? "  the one JSON document's exit_code says 3 too, with the results" "$OUT"
run hcclctl --json run allreduce --local 2 -b 8 -e 8 -n 1 -w 0
printf '%s' "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["exit_code"] == 0, d'
_report $? "  and 0 without --prometheus" "$OUT"
HCCLCTL_FAULT_CORRUPT=1 run hcclctl run allreduce --local 2 -b 1K -e 1K -n 1 -w 0 -d int32 --prometheus "$TMP/file/run.prom"
check_rc 2 "a corrupted result with that --prometheus: the failure's exit 2 stands"
check_err_has "hcclctl: run allreduce: --prometheus: cannot write the metrics: cannot create a temporary file in '$TMP/file': Not a directory" \
	"  and the file is still named"

# probe net: two agents on loopback; the link metrics equal the JSON's
od -An -N16 -tx1 /dev/urandom | tr -d ' \n' >"$TMP/secret"
start_agent a1 "$TMP/secret" && p1=$AGENT_PORT && a1=$AGENT_PID &&
	start_agent a2 "$TMP/secret" && p2=$AGENT_PORT && a2=$AGENT_PID
_report $? "two probe net agents started"
run hcclctl --json probe net --agents "127.0.0.1:$p1,127.0.0.2:$p2" --secret-file "$TMP/secret" \
	--duration 50 --pings 3 --prometheus "$TMP/tf/net.prom"
ok "[ $RC -eq 0 ] || [ $RC -eq 1 ]" "probe net --json --prometheus between two agents (exit $RC)"
promcheck "$TMP/tf/net.prom" "probe net"
printf '%s\n' "$OUT" >"$TMP/net.json"
python3 - "$TMP/net.json" "$TMP/tf/net.prom" <<'EOP'
import json, sys
doc = json.load(open(sys.argv[1]))
m = {}
for line in open(sys.argv[2]):
    if line.startswith("#") or not line.strip():
        continue
    k, v = line.rsplit(" ", 1)
    m[k] = float(v)
assert len(doc["links"]) == 2, doc["links"]
for l in doc["links"]:
    lab = '{from="%s",to="%s"}' % (l["from"], l["to"])
    assert m["hcclctl_net_link_up" + lab] == 1, lab
    assert m["hcclctl_net_link_slow" + lab] == (1 if l["slow"] else 0), lab
    bw = m["hcclctl_net_link_bandwidth_bytes_per_second" + lab]
    assert abs(bw - l["bandwidth_bps"] / 8) <= 1e-9 * bw, (bw, l["bandwidth_bps"])
    rtt = m["hcclctl_net_link_rtt_seconds" + lab]
    assert abs(rtt - l["rtt_us"] / 1e6) <= 1e-12, (rtt, l["rtt_us"])
st = doc["status"].lower()
assert m['hcclctl_probe_status{probe="net",status="%s"}' % st] == 1
assert sum(v for k, v in m.items() if k.startswith("hcclctl_probe_status")) == 1
assert m['hcclctl_exit_code{command="probe net"}'] == doc["exit_code"]
assert len([k for k in m if k.startswith("hcclctl_net_link_up")]) == 2
assert m['hcclctl_net_node_reached{node="127.0.0.1"}'] == 1
assert m['hcclctl_net_node_reached{node="127.0.0.2"}'] == 1
EOP
_report $? "  both nodes reached; per link: up, slow, bandwidth (bytes/s) and rtt (s) equal the JSON's; status and exit code" "$(cat "$TMP/tf/net.prom")"
kill "$a1" "$a2" 2>/dev/null
wait "$a1" "$a2" 2>/dev/null
# a node whose agent is not there: no paths are measured, and the node's own series says 0
start_agent a3 "$TMP/secret" && p3=$AGENT_PORT && a3=$AGENT_PID
run hcclctl probe net --agents "127.0.0.1:$p3,127.0.0.2:1" --secret-file "$TMP/secret" \
	--duration 50 --pings 3 --prometheus "$TMP/tf/net-down.prom"
check_rc 2 "probe net with one agent unreachable: exit 2 (the situation table's unreachable)"
promcheck "$TMP/tf/net-down.prom" "probe net (a node down)"
run samples "$TMP/tf/net-down.prom"
check_out 'hcclctl_net_node_reached{node="127.0.0.1"} 1
hcclctl_net_node_reached{node="127.0.0.2"} 0
hcclctl_probe_status{probe="net",status="pass"} 0
hcclctl_probe_status{probe="net",status="warn"} 0
hcclctl_probe_status{probe="net",status="fail"} 1
hcclctl_probe_status{probe="net",status="skip"} 0
hcclctl_probe_status{probe="net",status="unknown"} 0
hcclctl_exit_code{command="probe net"} 2' "  the node not reached is 0 (it has no paths), status fail, exit code 2"
kill "$a3" 2>/dev/null
wait "$a3" 2>/dev/null
run hcclctl probe net --agent --prometheus "$TMP/tf/x.prom"
check_rc 64 "--prometheus on the agent: usage error"

# every metric's name and help text are in the man pages
missing=""
for n in $(cat "$TMP"/tf/*.prom | sed -n 's/^# HELP \([a-z_]*\) .*/\1/p' | sort -u); do
	grep -q "^\.B $n\$" man/*.1 || missing="$missing $n"
done
[ -z "$missing" ]
_report $? "the man pages list every metric written" "missing:$missing"

done_testing
