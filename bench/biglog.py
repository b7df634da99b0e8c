#!/usr/bin/env python3
"""Writes a large log shaped like real ones, for bench/logs.sh: the lines of the healthy
runs under tests/data/real-logs/healthy-*/ over and over (a long job that went well), then
the lines of one real failed job (a port held by another process, EJ0003) at the end, where
a job fails. `python3 bench/biglog.py OUT [MB]` (default 200 MB). Only real lines are used;
nothing is made up but the order."""
import glob
import os
import sys


def lines_of(pattern):
    out = []
    for path in sorted(glob.glob(pattern, recursive=True)):
        if os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as f:
                out.extend(line.rstrip("\n") for line in f if line.strip())
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: biglog.py OUT [MB]")
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                        "real-logs")
    body = lines_of(os.path.join(root, "healthy-*", "**", "*"))
    tail = lines_of(os.path.join(root, "vllm-ascend-405-ej0003-port-60000-bound", "**", "*"))
    if not body or not tail:
        sys.exit("biglog.py: no real lines under " + root)
    want = int(float(sys.argv[2]) * 1000000) if len(sys.argv) > 2 else 200000000
    block = ("\n".join(body) + "\n").encode()
    end = ("\n".join(tail) + "\n").encode()
    with open(sys.argv[1], "wb") as f:
        written = 0
        while written + len(block) + len(end) <= want:
            f.write(block)
            written += len(block)
        f.write(end)


if __name__ == "__main__":
    main()
