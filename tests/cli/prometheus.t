# --prometheus FILE on doctor, the probes and run: the Prometheus text format that
# `promtool check metrics` accepts, values that agree with the command's own output,
# written atomically (a rename; nothing half-written left), and every metric in the man pages.
. "$(dirname "$0")/lib.sh"
BIN=$(pwd)/tests/data/bin
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
check_rc 0 "an unwritable --prometheus path: the check's exit 0 stands"
check_err_has "hcclctl: doctor: warning: cannot write the metrics: $TMP/none/.x.prom.$(echo "$ERR" | sed -n 's/.*\.x\.prom\.\([0-9]*\)\.tmp.*/\1/p' | head -1).tmp: No such file or directory" \
	"  warned, with the path"

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

# every metric's name and help text are in the man pages
missing=""
for n in $(cat "$TMP"/tf/*.prom | sed -n 's/^# HELP \([a-z_]*\) .*/\1/p' | sort -u); do
	grep -q "^\.B $n\$" man/*.1 || missing="$missing $n"
done
[ -z "$missing" ]
_report $? "the man pages list every metric written" "missing:$missing"

done_testing
