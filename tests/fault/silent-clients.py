#!/usr/bin/env python3
"""Strangers at the ranks' ports: connections that never say a word.

  silent-clients.py MODE [N] <<< "PID PORT..."

Started ahead of the job (a loaded machine takes seconds to start Python), it reads one line
from stdin naming the job's launcher and the ranks' ports; then, until PID exits:
  drip   opens one silent connection to every port every 0.3 s, each held 2.5 s (longer
         than a rank's handshake time, so each one cost a blocking reader 2 s);
  flood  keeps 100 silent connections open to every port, each held 2.5 s and replaced;
  hold   keeps N (default 5) silent connections open to every port until PID exits.
Prints "ready" once it has the line, "started N" after its first round that reached a port, "opened N" at the end (the connections made), then "failed N: WHY" if any could not
be made."""
import os
import socket
import sys
import time


def main():
    mode = sys.argv[1]
    hold = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    words = sys.stdin.readline().split()
    pid, ports = int(words[0]), [int(p) for p in words[1:]]
    print("ready", flush=True)
    held, opened, failed, why, started = [], 0, 0, "", False
    while os.path.exists("/proc/%d" % pid):
        now = time.monotonic()
        for x in held:
            if x[1] <= now:
                x[0].close()
        held = [x for x in held if x[1] > now]
        for p in ports:
            k = {"drip": 1, "flood": 100, "hold": hold}[mode]
            if mode != "drip":
                k -= sum(1 for x in held if x[2] == p)
            for _ in range(k):
                try:
                    s = socket.create_connection(("127.0.0.1", p), timeout=1)
                except OSError as e:
                    failed, why = failed + 1, str(e)
                    continue
                opened += 1
                held.append((s, now + (1e9 if mode == "hold" else 2.5), p))
        if not started and opened:
            print("started", opened, flush=True)
            started = True
        time.sleep(0.3 if mode == "drip" else 0.2)
    print("opened", opened, flush=True)
    if failed:
        print("failed %d: %s" % (failed, why), flush=True)


main()
