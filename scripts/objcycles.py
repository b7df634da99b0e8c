#!/usr/bin/env python3
"""Which object files call each other in a circle.

From `nm` of each object: the symbols it defines and the ones it leaves undefined. An
undefined symbol defined by another object of the set is an edge from the first to the
second; a strongly connected group of more than one object is a cycle. Calls through
function pointers are not edges (that is how a lower file hands work up without knowing
who does it).

  objcycles.py [--edges] OBJ...   prints "cycle: a b c" per cycle (with the symbols behind
                                  each edge inside it), or with --edges every edge
                                  "a -> b: sym,..."; exit 1 when there is a cycle, 2 when nm
                                  fails
"""
import os
import subprocess
import sys


def symbols_of(objs):
    """{object: (defined, undefined)} of many objects, with one nm per 200 of them (a
    process per object costs more than reading them: a process start takes ~10 ms here)."""
    got = {o: (set(), set()) for o in objs}
    for i in range(0, len(objs), 200):
        part = objs[i:i + 200]
        out = subprocess.run(["nm", "-A"] + part, capture_output=True, text=True)
        if out.returncode:
            sys.stderr.write("objcycles: nm: %s" % out.stderr)
            sys.exit(2)
        for line in out.stdout.splitlines():
            # "path.o:0000000000000000 T name" / "path.o:                 U name"
            at = line.find(".o:")
            obj, rest = line[:at + 2], line[at + 3:]
            if at < 0 or obj not in got:
                continue
            f = rest.split()
            if len(f) == 3 and f[1] in "TDBRCG":
                got[obj][0].add(f[2])
            elif len(f) == 2 and f[0] == "U":
                got[obj][1].add(f[1])
    return got


def cycles(edges):
    """Tarjan's strongly connected components of more than one node, each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(out)


def main(argv):
    show_edges = "--edges" in argv
    objs = [a for a in argv if a != "--edges"]
    names, syms = [], {}
    got = symbols_of(objs)
    for o in objs:
        n = os.path.basename(o)
        n = n[:-2] if n.endswith(".o") else n
        names.append(n)
        syms[n] = got[o]
    owner = {s: n for n in names for s in syms[n][0]}
    edges = {n: {} for n in names}
    for n in names:
        for s in syms[n][1]:
            o = owner.get(s)
            if o and o != n:
                edges[n].setdefault(o, []).append(s)
    if show_edges:
        for a in sorted(edges):
            for b in sorted(edges[a]):
                print("%s -> %s: %s" % (a, b, ",".join(sorted(edges[a][b]))))
    found = cycles(edges)
    for comp in found:
        print("cycle: " + " ".join(comp))
        for a in comp:
            for b in sorted(edges[a]):
                if b in comp:
                    print("  %s -> %s: %s" % (a, b, ",".join(sorted(edges[a][b]))))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
