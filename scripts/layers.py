#!/usr/bin/env python3
"""The layers and their rules, checked from the sources and the objects.

  ranktable/base (the one base every layer may use) < libcomm < ranktable < probes < cmd, and inside cmd: cli < lib < a command's folder
  (doctor/, probe/, run/) < the files at cmd/'s top (main and the one-file commands).

A file may include and call only its own layer or a lower one; a command's folder never
includes or calls another command's; no object file is part of a cycle of calls anywhere.
Calls through function pointers are not seen (that is how a lower file hands work up).

  layers.py [--src DIR] [--obj DIR]   prints one line per violation, exit 1 when there is one,
                                      2 when it cannot read the tree
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from objcycles import cycles, symbols_of  # noqa: E402

TOPS = ("libcomm", "ranktable", "probes", "cmd")
COMMANDS = ("doctor", "probe", "run")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer(path):
    """(rank, command) of a path relative to the tree, or None outside the layers."""
    parts = path.split("/")
    if parts[0] not in TOPS:
        return None
    if parts[:2] == ["ranktable", "base"]:
        return -1, None
    rank = TOPS.index(parts[0]) * 10
    if parts[0] != "cmd":
        return rank, None
    if len(parts) == 2:
        return rank + 4, None
    if parts[1] == "cli":
        return rank + 1, None
    if parts[1] == "lib":
        return rank + 2, None
    return rank + 3, parts[1]


def upward(a, b):
    """Why a (a file) may not reach b, or None."""
    la, lb = layer(a), layer(b)
    if la is None or lb is None:
        return None
    if lb[0] > la[0]:
        return "reaches up"
    if la[1] and lb[1] and la[1] != lb[1]:
        return "one command reaches into another"
    return None


def check_includes(src, out):
    for top in TOPS:
        for d, _, files in os.walk(os.path.join(src, top)):
            for f in sorted(files):
                if not f.endswith((".c", ".h")):
                    continue
                path = os.path.relpath(os.path.join(d, f), src)
                try:
                    text = open(os.path.join(d, f), encoding="utf-8", errors="replace").read()
                except OSError as e:
                    sys.stderr.write("layers: %s: %s\n" % (path, e.strerror))
                    sys.exit(2)
                for m in INCLUDE.finditer(text):
                    inc = m.group(1)
                    line = text.count("\n", 0, m.start()) + 1
                    if "/" not in inc:
                        out.append("%s:%d: includes \"%s\" without its folder" % (path, line, inc))
                        continue
                    why = upward(path, inc)
                    if why:
                        out.append("%s:%d: %s: includes %s" % (path, line, why, inc))


def check_objects(src, obj, out):
    names, paths = [], {}
    for top in TOPS:
        for d, _, files in os.walk(os.path.join(obj, top)):
            for f in sorted(files):
                if f.endswith(".o"):
                    p = os.path.join(d, f)
                    n = os.path.relpath(p, obj)[:-2]
                    # an object left from a source that moved or went is not the tree's
                    if not os.path.exists(os.path.join(src, n + ".c")):
                        continue
                    names.append(n)
                    paths[n] = p
    got = symbols_of([paths[n] for n in names])
    syms = {n: got[paths[n]] for n in names}
    if not names:
        sys.stderr.write("layers: no object under %s (build first)\n" % obj)
        sys.exit(2)
    owner = {}
    for n in names:
        for s in syms[n][0]:
            owner.setdefault(s, n)
    edges = {n: {} for n in names}
    for n in names:
        for s in syms[n][1]:
            o = owner.get(s)
            if o and o != n:
                edges[n].setdefault(o, []).append(s)
    for a in sorted(edges):
        for b in sorted(edges[a]):
            why = upward(a + ".c", b + ".c")
            if why:
                out.append("%s.o: %s: calls %s (%s)" % (a, why, b, ",".join(sorted(edges[a][b]))))
    for comp in cycles(edges):
        out.append("cycle: " + " ".join(comp))
        for a in comp:
            for b in sorted(edges[a]):
                if b in comp:
                    out.append("  %s -> %s: %s" % (a, b, ",".join(sorted(edges[a][b]))))


def main(argv):
    src, obj = ".", "build"
    while argv:
        if argv[0] in ("--src", "--obj") and len(argv) > 1:
            if argv[0] == "--src":
                src = argv[1]
            else:
                obj = argv[1]
            argv = argv[2:]
        else:
            sys.stderr.write("usage: layers.py [--src DIR] [--obj DIR]\n")
            return 2
    out = []
    check_includes(src, out)
    check_objects(src, obj, out)
    for line in out:
        print(line)
    return 1 if out else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
