#!/bin/sh
# run --local binds each rank to a CPU of its own while the ranks fit the CPUs the launcher
# may use (rank r on the r-th of them), as mpirun binds its ranks; more ranks than CPUs, or
# HCCLCTL_BIND=none, stay unbound; another value is refused before any rank starts.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../fault/lib.sh"

run env HCCLCTL_BIND=socket "$HCCLCTL" run allreduce --local 2 -b 8 -e 8 -n 10
check_rc 64 "HCCLCTL_BIND=socket: exit 64"
check_err_has "hcclctl: run allreduce: HCCLCTL_BIND='socket' is not one of core, none" \
	"  naming the variable, its value and the choices"

# the CPUs the launcher may use, as a list ("0-1" -> "0 1")
allowed=$(python3 -c 'import os; print(" ".join(str(c) for c in sorted(os.sched_getaffinity(0))))')
ncpu=$(printf '%s\n' "$allowed" | wc -w)

# cpus_of NAME N [ENV...]: a long run of N ranks, the allowed CPUs of each rank as
# "r0:LIST r1:LIST ..." in CPUS
cpus_of() {
	_nm=$1 _cn=$2
	shift 2
	bg_run "$_nm" env "$@" "$HCCLCTL" run allreduce --local "$_cn" -b 8 -e 8 -n 1000000 -w 0 \
		-c 0 --timeout 60
	_l=$BG
	wait_for "$TMP/$_nm.out" "# hcclctl run allreduce" 10000 >/dev/null
	CPUS=
	_r=0
	while [ "$_r" -lt "$_cn" ]; do
		_p=$(child_rank "$_l" "$_r")
		CPUS="$CPUS r$_r:$(python3 -c 'import os, sys; print(",".join(str(c) for c in sorted(os.sched_getaffinity(int(sys.argv[1])))))' "$_p" 2>/dev/null)"
		_r=$((_r + 1))
	done
	CPUS=${CPUS# }
	kill -TERM "$_l"
	wait "$_l" 2>/dev/null
}

if [ "$ncpu" -ge 2 ]; then
	first=$(printf '%s\n' "$allowed" | cut -d' ' -f1)
	second=$(printf '%s\n' "$allowed" | cut -d' ' -f2)
	cpus_of bound 2
	[ "$CPUS" = "r0:$first r1:$second" ]
	_report $? "2 ranks on $ncpu CPUs: rank 0 on CPU $first, rank 1 on CPU $second" "$CPUS"
	all=$(printf '%s\n' "$allowed" | tr ' ' ',')
	cpus_of unbound 2 HCCLCTL_BIND=none
	[ "$CPUS" = "r0:$all r1:$all" ]
	_report $? "  HCCLCTL_BIND=none: both on every CPU ($all)" "$CPUS"
	more=$((ncpu + 1))
	cpus_of over "$more"
	printf '%s\n' "$CPUS" | tr ' ' '\n' | grep -qv ":$all\$"
	[ $? -ne 0 ]
	_report $? "  $more ranks on $ncpu CPUs: none bound" "$CPUS"
else
	skip "this machine lets the launcher use $ncpu CPU: two ranks cannot have one each"
	skip "this machine lets the launcher use $ncpu CPU: HCCLCTL_BIND=none is not told apart"
	skip "this machine lets the launcher use $ncpu CPU: more ranks than CPUs is not told apart"
fi

done_testing
