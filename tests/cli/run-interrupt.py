# Ctrl-C to `hcclctl run`, as a terminal sends it (SIGINT to the whole process group) or as
# `kill -INT PID` does (the launcher alone), from a subreaper: a rank the run leaves behind
# becomes this process's child, so "no child left" proves that every rank was reaped.
# Usage: run-interrupt.py group|launcher|rank0 SEC OUT ERR -- hcclctl ARGS...
# (rank0: no Ctrl-C; --local's rank 0, the launcher's child named hcclctl-r0, is killed by
# SIGKILL instead)
# The signal goes after the first row of the table, or after SEC seconds (--json prints its
# rows at the end; a row may be long), whichever comes first.
# Prints "rc=N left=[...]"; OUT and ERR get the run's stdout and stderr.
import ctypes, os, select, signal, subprocess, sys, time

mode, sec, out_path, err_path = sys.argv[1:5]
argv = sys.argv[6:]
libc = ctypes.CDLL(None, use_errno=True)
PR_SET_CHILD_SUBREAPER = 36
if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
    sys.exit("prctl(PR_SET_CHILD_SUBREAPER) failed")
with open(err_path, "wb") as err:
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=err, start_new_session=True)
    got, deadline = b"", time.monotonic() + float(sec)
    while time.monotonic() < deadline:
        r, _, _ = select.select([p.stdout], [], [], deadline - time.monotonic())
        chunk = os.read(p.stdout.fileno(), 65536) if r else b""
        got += chunk
        if not chunk or any(l.strip()[:1].isdigit() for l in got.split(b"\n")):  # a row
            break
    if mode == "group":
        os.killpg(p.pid, signal.SIGINT)
    elif mode == "rank0":
        for d in os.listdir("/proc"):
            try:
                if (d.isdigit() and open("/proc/%s/stat" % d).read().split()[3] == str(p.pid)
                        and open("/proc/%s/comm" % d).read().strip() == "hcclctl-r0"):
                    os.kill(int(d), signal.SIGKILL)
            except OSError:
                pass
    else:
        p.send_signal(signal.SIGINT)
    try:
        rest, _ = p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        rest, _ = p.communicate()
with open(out_path, "wb") as f:
    f.write(got + rest)
time.sleep(0.3)
left = []
while True:
    try:
        pid, st = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        break
    if pid == 0:  # alive: name it, then end it
        for d in os.listdir("/proc"):
            try:
                if d.isdigit() and open("/proc/%s/stat" % d).read().split()[3] == str(os.getpid()):
                    left.append(open("/proc/%s/comm" % d).read().strip())
                    os.kill(int(d), signal.SIGKILL)
            except OSError:
                pass
        time.sleep(0.2)
        continue
    left.append(pid)
print("rc=%d left=%s" % (p.returncode, left))
