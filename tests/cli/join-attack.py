#!/usr/bin/env python3
"""A stranger trying to join a job: computes the key a job without HCCLCTL_SECRET used to
run on (a hash of "hcclctl:HOST:PORT:N", public knowledge) and answers the rendezvous's HMAC
challenge with it.

  join-attack.py HOST PORT N WAIT_MS [PID]

Retries the connection for up to WAIT_MS (the rendezvous may not be up yet), and stops early
once PID (the rank hosting it) has exited. Prints one line and exits:
  joined                      0   the rendezvous accepted our proof
  refused: WHY                1   it did not (wrong key)
  unreachable: WHY            2   nothing listened there
"""
import hashlib
import hmac
import os
import socket
import struct
import sys
import time

M = (1 << 64) - 1


def derived_key(host, port, n):
    h1, h2 = 1469598103934665603, 1099511628211
    for b in ("hcclctl:%s:%d:%d" % (host, port, n)).encode():
        h1 = ((h1 ^ b) * 1099511628211) & M
        h2 = ((h2 ^ b) * 0x100000001B3 + 7) & M
    return struct.pack("<QQ", h1, h2)


def read_n(s, n):
    b = b""
    while len(b) < n:
        k = s.recv(n - len(b))
        if not k:
            raise ConnectionError("connection closed after %d bytes" % len(b))
        b += k
    return b


def main():
    host, port, n, wait_ms = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    pid = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    key = derived_key(host, port, n)
    end = time.monotonic() + wait_ms / 1000.0
    why = "no attempt"
    while True:
        try:
            s = socket.create_connection((host, port), timeout=5)
            break
        except OSError as e:
            why = str(e)
        if time.monotonic() > end or (pid and not os.path.exists("/proc/%d" % pid)):
            print("unreachable: %s" % why)
            return 2
        time.sleep(0.05)
    try:
        greet = read_n(s, 24)
        if greet[:4] != b"HCCM":
            print("refused: not a libcomm greeting")
            return 1
        ns, nc = greet[8:24], os.urandom(16)
        proof = hmac.new(key, b"libcomm client" + ns + nc, hashlib.sha256).digest()
        s.sendall(nc + proof)
        fin = read_n(s, 33)
    except (OSError, ConnectionError) as e:
        print("refused: %s" % e)
        return 1
    want = hmac.new(key, b"libcomm server" + ns + nc, hashlib.sha256).digest()
    if fin[0] == 1 and hmac.compare_digest(fin[1:], want):
        print("joined")
        return 0
    print("refused: the proof did not verify")
    return 1


sys.exit(main())
