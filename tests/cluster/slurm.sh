# A one-machine Slurm for tests/cluster/slurm.t, sourced after lib.sh (POSIX sh, as root):
# munged, slurmctld and slurmd on 127.0.0.1, each in the foreground (-F/-D) so its PID is the
# test's, with a throwaway munge key, config and state under $SL_DIR, and ports the kernel
# picked so parallel runs do not clash.
#
#   slurm_supported      0 when the daemons are installed and run as root; else $SLURM_SKIP
#   slurm_up [CONF...]   starts them (extra slurm.conf lines as arguments) and waits until the
#                        node is idle; exports SLURM_CONF for srun, sinfo and scontrol.
#                        Arranges slurm_down on EXIT.
#   slurm_down           stops the three daemons by PID; safe to call twice
#
# After slurm_up: SL_DIR, SL_NODE (the node's name: the short host name, as slurmd finds it).

SL_DIR= SL_NODE= SLURM_SKIP= SL_PIDS=

slurm_supported() {
	for t in munged slurmctld slurmd srun sinfo scontrol; do
		command -v "$t" >/dev/null 2>&1 || {
			SLURM_SKIP="$t is not installed (slurm-wlm, munge)"
			return 1
		}
	done
	[ "$(id -u)" -eq 0 ] || { SLURM_SKIP="slurmd needs root here"; return 1; }
	return 0
}

slurm_down() {
	for p in $SL_PIDS; do kill "$p" 2>/dev/null; done
	for p in $SL_PIDS; do
		i=0
		while kill -0 "$p" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
		kill -9 "$p" 2>/dev/null
	done
	SL_PIDS=
}

_slurm_wait() { # $1 = seconds, rest: a condition
	t=$(($1 * 10))
	shift
	while [ "$t" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		t=$((t - 1))
	done
	return 1
}

slurm_up() {
	SL_DIR=$TMP/slurm
	mkdir -p "$SL_DIR/state" "$SL_DIR/spool"
	# munged refuses a socket in a directory others cannot search, and a key others can read
	chmod 755 "$TMP" "$SL_DIR"
	dd if=/dev/urandom of="$SL_DIR/munge.key" bs=1024 count=1 2>/dev/null
	chmod 400 "$SL_DIR/munge.key"
	munged -F --key-file="$SL_DIR/munge.key" --socket="$SL_DIR/munge.sock" \
		--pid-file="$SL_DIR/munged.pid" --log-file="$SL_DIR/munged.log" \
		--seed-file="$SL_DIR/munge.seed" >"$SL_DIR/munged.out" 2>&1 &
	SL_PIDS="$!"
	trap 'slurm_down; rm -rf "$TMP"' EXIT
	trap 'slurm_down; rm -rf "$TMP"; exit 1' INT TERM
	_slurm_wait 10 test -S "$SL_DIR/munge.sock" || return 1
	SL_NODE=$(hostname -s)
	ctld=$(free_port)
	slurmd_port=$(free_port)
	while [ "$slurmd_port" = "$ctld" ]; do slurmd_port=$(free_port); done
	{
		cat <<EOC
ClusterName=hcclctltest
SlurmctldHost=$SL_NODE(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld
SlurmdPort=$slurmd_port
AuthType=auth/munge
AuthInfo=socket=$SL_DIR/munge.sock
CredType=cred/munge
StateSaveLocation=$SL_DIR/state
SlurmdSpoolDir=$SL_DIR/spool
SlurmctldPidFile=$SL_DIR/slurmctld.pid
SlurmdPidFile=$SL_DIR/slurmd.pid
SlurmctldLogFile=$SL_DIR/slurmctld.log
SlurmdLogFile=$SL_DIR/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmdParameters=config_overrides
EOC
		for l in "$@"; do echo "$l"; done
		echo "NodeName=$SL_NODE NodeAddr=127.0.0.1 CPUs=8 State=UNKNOWN"
		echo "PartitionName=t Nodes=$SL_NODE Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE"
	} >"$SL_DIR/slurm.conf"
	export SLURM_CONF=$SL_DIR/slurm.conf
	slurmctld -D -i -f "$SLURM_CONF" >"$SL_DIR/slurmctld.out" 2>&1 &
	SL_PIDS="$SL_PIDS $!"
	slurmd -D -f "$SLURM_CONF" >"$SL_DIR/slurmd.out" 2>&1 &
	SL_PIDS="$SL_PIDS $!"
	_slurm_wait 30 sh -c 'sinfo -h -o %T | grep -qx idle'
}
