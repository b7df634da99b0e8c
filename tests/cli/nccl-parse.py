#!/usr/bin/env python3
# A parser of nccl-tests' output written as a user's script would be: keyed to nccl-tests'
# column header ("#       size         count      type   redop    root     time   algbw
# busbw #wrong     time ...") and its closing lines, knowing nothing of hcclctl. The first
# time/algbw/busbw/#wrong are the out-of-place group, the second the in-place one; a column
# the header names beyond them is kept by its name. Lines that are not rows (NCCL INFO, the
# device list) are skipped.
# Usage: nccl-parse.py FILE   prints {"rows": [...], "out_of_bounds": N|null,
#                                     "avg_busbw": X|null} as JSON; exit 1 when it finds no row.
import json
import re
import sys

GROUP = ("time", "algbw", "busbw", "#wrong")


def number(s):
    if s == "N/A":
        return None
    try:
        return int(s)
    except ValueError:
        return float(s)


def parse(lines):
    names, rows, oob, avg = None, [], None, None
    for line in lines:
        words = line.split()
        if words[:1] == ["#"] and words[1:4] == ["size", "count", "type"]:
            names, seen = [], set()
            for w in words[1:]:
                if w in GROUP:  # the second group repeats the names: in place
                    names.append(("ip_" if w in seen else "") + w)
                    seen.add(w)
                else:
                    names.append(w)
            continue
        m = re.match(r"# Out of bounds values : (\d+) (OK|FAILED)", line)
        if m:
            oob = int(m.group(1))
            continue
        m = re.match(r"# Avg bus bandwidth\s*: ([0-9.eE+-]+)", line)
        if m:
            avg = float(m.group(1))
            continue
        if names and words and re.fullmatch(r"\d+", words[0]) and len(words) >= len(names):
            row = {}
            for n, w in zip(names, words):
                row[n] = w if n in ("type", "redop", "algo") else number(w)
            rows.append(row)
    return {"rows": rows, "out_of_bounds": oob, "avg_busbw": avg}


if __name__ == "__main__":
    with open(sys.argv[1], errors="replace") as f:
        doc = parse(f)
    print(json.dumps(doc))
    sys.exit(0 if doc["rows"] else 1)
