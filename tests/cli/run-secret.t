#!/bin/sh
# The secret of ranks another launcher starts (--master, torchrun, mpirun, srun): without
# HCCLCTL_SECRET a job of several ranks used to run on a key derived from its address, and a
# stranger who computed it (tests/cli/join-attack.py, run as another user where we can) passed
# the rendezvous's challenge. Such a job now refuses to start unless --insecure says so, on
# every rank; HCCLCTL_SECRET_FILE must be the user's own, closed to group and others.
# harness: timed (it runs ranks or tools against wall-clock deadlines: never a filler)
. "$(dirname "$0")/lib.sh"

# the attacker as another user when we are root (nobody, with a copy it can read), else as
# ourselves
ATTACK=$(cd "$(dirname "$0")" && pwd)/join-attack.py
PY=$(command -v python3)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 && [ -x /usr/bin/python3 ]; then
	mkdir "$TMP/nobody" && cp "$ATTACK" "$TMP/nobody/" && chmod 755 "$TMP" "$TMP/nobody" &&
		chmod 644 "$TMP/nobody/join-attack.py"
	ATTACK=$TMP/nobody/join-attack.py
	PY=/usr/bin/python3
	stranger() { setpriv --reuid=65534 --regid=65534 --clear-groups "$PY" "$ATTACK" "$@"; }
else
	stranger() { "$PY" "$ATTACK" "$@"; }
fi
unset HCCLCTL_SECRET HCCLCTL_SECRET_FILE
W=run\ allreduce

# --- the attack: rank 0 of 2 with no secret, a stranger with the derived key ---
P=$(free_port)
"$HCCLCTL" run allreduce --rank 0 --world-size 2 --master 127.0.0.1:$P -b 8 -e 8 -n 1 -w 0 \
	--timeout 5 >"$TMP/a0.out" 2>"$TMP/a0.err" &
A0=$!
run stranger 127.0.0.1 $P 2 4000 $A0
wait $A0
a0=$?
[ "$RC" -eq 2 ] && [ "${OUT#unreachable: }" != "$OUT" ]
_report $? "a stranger with the key derived from 127.0.0.1:$P cannot join a job without a secret" \
	"attacker: $RC $OUT $ERR" "rank 0: $a0 $(cat "$TMP/a0.err")"
[ $a0 -eq 64 ] && [ "$(cat "$TMP/a0.err")" = "hcclctl: $W: rank 0 of 2: no HCCLCTL_SECRET: the job's key would be derived from 127.0.0.1:$P, and anyone who can reach it could compute it and join
hint: export HCCLCTL_SECRET=\$(openssl rand -hex 16) (or HCCLCTL_SECRET_FILE=FILE, mode 0600) on every rank, or pass --insecure" ] && [ ! -s "$TMP/a0.out" ]
_report $? "  ... rank 0 refuses to start: exit 64, the reason and the way out" \
	"rank 0: $a0 $(cat "$TMP/a0.err")"

# every rank refuses, under each launcher's variables too
run env RANK=1 WORLD_SIZE=2 MASTER_ADDR=127.0.0.1 MASTER_PORT=$P "$HCCLCTL" run allreduce
check_rc 64 "torchrun's rank 1 without a secret: exit 64"
check_err_has "hcclctl: $W: rank 1 of 2: no HCCLCTL_SECRET: the job's key would be derived from 127.0.0.1:$P, and anyone who can reach it could compute it and join" "  ... names its rank and the address"
run env SLURM_PROCID=2 SLURM_NTASKS=3 "$HCCLCTL" run allreduce --master 127.0.0.1:$P
check_rc 64 "srun's task 2 of 3 without a secret: exit 64"
run env OMPI_COMM_WORLD_RANK=0 OMPI_COMM_WORLD_SIZE=1 "$HCCLCTL" -q run allreduce \
	--master 127.0.0.1:$(free_port) -b 8 -e 8 -n 1 -w 0 --timeout 5
check_rc 0 "a job of one rank needs no secret (nobody else can take part): exit 0"

# --- with a secret, the same stranger is refused while the job runs ---
HCCLCTL_SECRET=$(new_secret)
export HCCLCTL_SECRET
P=$(free_port)
"$HCCLCTL" run allreduce --rank 0 --world-size 2 --master 127.0.0.1:$P -b 8 -e 1K -n 1 -w 0 \
	--timeout 10 >"$TMP/s0.out" 2>"$TMP/s0.err" &
S0=$!
run stranger 127.0.0.1 $P 2 4000 $S0
"$HCCLCTL" run allreduce --rank 1 --world-size 2 --master 127.0.0.1:$P -b 8 -e 1K -n 1 -w 0 \
	--timeout 10 >"$TMP/s1.out" 2>"$TMP/s1.err"
s1=$?
wait $S0
s0=$?
check_out "refused: the proof did not verify" "HCCLCTL_SECRET set: the stranger's proof is refused"
[ $s0 -eq 0 ] && [ $s1 -eq 0 ] && [ "$(grep -c '^ \+[0-9]' "$TMP/s0.out")" -eq 8 ]
_report $? "  ... and the job runs: both ranks exit 0, 8 sizes" "rank 0: $s0 $(cat "$TMP/s0.err")" \
	"rank 1: $s1 $(cat "$TMP/s1.err")"
unset HCCLCTL_SECRET

# --- HCCLCTL_SECRET_FILE: the user's own file, mode 0600 ---
new_secret >"$TMP/secret"
echo >>"$TMP/secret"
chmod 600 "$TMP/secret"
P=$(free_port)
HCCLCTL_SECRET_FILE=$TMP/secret "$HCCLCTL" run allreduce --rank 1 --world-size 2 \
	--master 127.0.0.1:$P -b 8 -e 64 -n 1 -w 0 --timeout 10 >/dev/null 2>"$TMP/f1.err" &
F1=$!
run env HCCLCTL_SECRET_FILE="$TMP/secret" "$HCCLCTL" run allreduce --rank 0 --world-size 2 \
	--master 127.0.0.1:$P -b 8 -e 64 -n 1 -w 0 --timeout 10
wait $F1
f1=$?
[ $RC -eq 0 ] && [ $f1 -eq 0 ] && [ -z "$ERR" ]
_report $? "HCCLCTL_SECRET_FILE of mode 0600 on both ranks: exit 0, no warning" "rank 0: $RC $ERR" \
	"rank 1: $f1 $(cat "$TMP/f1.err")"
chmod 640 "$TMP/secret"
run env HCCLCTL_SECRET_FILE="$TMP/secret" "$HCCLCTL" run allreduce --rank 0 --world-size 2 \
	--master 127.0.0.1:$P
check_rc 64 "a secret file group can read: exit 64"
check_err_has "hcclctl: $W: rank 0: HCCLCTL_SECRET_FILE '$TMP/secret' is open to group or others (mode 0640): chmod 600 it" "  ... names the file, its mode and the fix"
chmod 600 "$TMP/secret"
if [ "$(id -u)" -eq 0 ]; then
	chown 65534 "$TMP/secret"
	run env HCCLCTL_SECRET_FILE="$TMP/secret" "$HCCLCTL" run allreduce --rank 0 --world-size 2 \
		--master 127.0.0.1:$P
	check_err_has "hcclctl: $W: rank 0: HCCLCTL_SECRET_FILE '$TMP/secret' belongs to uid 65534, not to this user (uid 0)" "another user's secret file is refused (exit $RC)"
	chown 0 "$TMP/secret"
else
	skip "another user's secret file: needs root to give it away"
fi
run env HCCLCTL_SECRET_FILE="$TMP/secret" HCCLCTL_SECRET=0123456789abcdef0123456789abcdef \
	"$HCCLCTL" run allreduce --rank 0 --world-size 2 --master 127.0.0.1:$P
check_err_has "hcclctl: $W: rank 0: HCCLCTL_SECRET and HCCLCTL_SECRET_FILE are both set: give one" "both set: exit $RC, refused"
run env HCCLCTL_SECRET_FILE="$TMP/none" "$HCCLCTL" run allreduce --rank 0 --world-size 2 \
	--master 127.0.0.1:$P
check_err_has "hcclctl: $W: rank 0: HCCLCTL_SECRET_FILE '$TMP/none': No such file or directory" "a missing secret file: exit $RC, named"
run env HCCLCTL_SECRET=0123 "$HCCLCTL" run allreduce --rank 0 --world-size 2 --master 127.0.0.1:$P
check_err_has "hcclctl: $W: rank 0: HCCLCTL_SECRET: the secret must be 32 hex digits, got 4 characters" "a short HCCLCTL_SECRET: exit $RC, named"

# --- --insecure: the derived key on purpose, and every rank says so ---
P=$(free_port)
"$HCCLCTL" run allreduce --insecure --rank 1 --world-size 2 --master 127.0.0.1:$P -b 8 -e 64 \
	-n 1 -w 0 --timeout 10 >/dev/null 2>"$TMP/i1.err" &
I1=$!
run hcclctl run allreduce --insecure --rank 0 --world-size 2 --master 127.0.0.1:$P -b 8 -e 64 \
	-n 1 -w 0 --timeout 10
wait $I1
i1=$?
[ $RC -eq 0 ] && [ $i1 -eq 0 ]
_report $? "--insecure: the job runs, exit 0 on both ranks" "rank 0: $RC $ERR" "rank 1: $i1"
check_err "hcclctl: $W: warning: rank 0: --insecure: no HCCLCTL_SECRET, the job's key is derived from 127.0.0.1:$P: anyone who can reach it can join this job" "  ... rank 0 warns, without -v"
ok "[ \"\$(cat '$TMP/i1.err')\" = 'hcclctl: $W: warning: rank 1: --insecure: no HCCLCTL_SECRET, the job'\"'\"'s key is derived from 127.0.0.1:$P: anyone who can reach it can join this job' ]" "  ... and so does rank 1"
run hcclctl run allreduce --insecure --local 2
check_rc 64 "--insecure with --local (which makes a fresh secret): exit 64"

done_testing
