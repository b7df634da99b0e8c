#!/usr/bin/env python3
"""Tables and JSON of bench/local.sh (every rank on one host).

  localreport.py add RESULT DIR    merge DIR's raw outputs (meta.json; ours-, ourstcp-*.json;
                                   vader-, mpitcp-*.jsonl; gloo-*.jsonl; lat-* the same) into
                                   RESULT, print the tables of that N
  localreport.py summary RESULT    the issue-21 one-host targets against every N in RESULT

The drivers' lines are read as bench/collreport.py reads them: a bad one is named on stderr
and counts as a failure of its launch.
"""
import os
import statistics
import sys

from collreport import (COLLS, GLOO_ALGOS, add_config, best, dispatch, fmt, human,
                        load_json, load_results, ratio, read_lines, read_ours, show_failures)

# column, file prefix, reader, label
PEERS = (("ours", "ours", read_ours, "ours"), ("ourstcp", "ourstcp", read_ours, "ours tcp"),
         ("vader", "vader", read_lines, "vader"), ("mpitcp", "mpitcp", read_lines, "mpi tcp"))

# Issue 21, one host, 16-256 MiB: ours over vader and over the better Gloo algorithm.
BIG_FROM, BIG_TO = 16 << 20, 256 << 20
NEED = {"allreduce": (1.5, 2.0), "allgather": (1.2, None), "reducescatter": (1.2, None)}


def target(coll, b, over_vader, over_gloo):
    """(ok|MISS|None, what missed) for one row."""
    if not BIG_FROM <= b <= BIG_TO:
        return None, []
    need_v, need_g = NEED[coll]
    miss = []
    if over_vader is None or over_vader < need_v:
        miss.append("vader<%.1fx" % need_v)
    if need_g is not None and (over_gloo is None or over_gloo < need_g):
        miss.append("gloo<%.1fx" % need_g)
    return ("MISS" if miss else "ok"), miss


def suffix(reader):
    return ".json" if reader is read_ours else ".jsonl"


def rows_of(d, meta, coll, failures):
    """The rows of one collective: size -> every peer's busbw and time, ratios, target."""
    ran = (meta.get("peers") or "").split()
    got = {key: reader(d, "%s-%s-*%s" % (pre, coll, suffix(reader)), failures,
                       "%s %s" % (label, coll))
           for key, pre, reader, label in PEERS if key in ran}
    gloo = {a: read_lines(d, "gloo-%s-%s-*.jsonl" % (coll, a), failures,
                          "Gloo %s %s" % (coll, a))
            for a in (GLOO_ALGOS[coll] if meta.get("gloo") else ())}
    sizes = set()
    for v in list(got.values()) + list(gloo.values()):
        sizes |= set(v)
    rows = []
    for b in sorted(sizes - {0}):
        row = {"collective": coll, "size_bytes": b}
        for key, _, _, _ in PEERS:
            r = got.get(key, {}).get(b)
            row[key + "_busbw_GBps"] = r["busbw_GBps"] if r else None
            row[key + "_time_us"] = r["time_us"] if r else None
            row[key + "_wrong"] = r["wrong"] if r else None
        for a in GLOO_ALGOS[coll]:
            r = gloo.get(a, {}).get(b)
            col = "gloo" if a == GLOO_ALGOS[coll][0] else "gloo_" + a
            row[col + "_busbw_GBps"] = r["busbw_GBps"] if r else None
            row[col + "_time_us"] = r["time_us"] if r else None
            row[col + "_wrong"] = r["wrong"] if r else None
        row["gloo_algo"] = GLOO_ALGOS[coll][0]
        ob = row["ours_busbw_GBps"]
        row["ours_over_vader"] = ratio(ob, row["vader_busbw_GBps"])
        row["ours_over_gloo"] = ratio(ob, best(row["gloo_busbw_GBps"],
                                               row.get("gloo_ring_chunked_busbw_GBps")))
        row["ours_over_ourstcp"] = ratio(ob, row["ourstcp_busbw_GBps"])
        row["target"], row["target_missed"] = target(coll, b, row["ours_over_vader"],
                                                     row["ours_over_gloo"])
        rows.append(row)
    return rows


def latency(d, meta, failures):
    """Median of the launches' 8-byte allreduce time per peer, and every launch's."""
    out = {}
    ran = (meta.get("peers") or "").split() + (["gloo"] if meta.get("gloo") else [])
    peers = [(k, pre, reader) for k, pre, reader, _ in PEERS] + [("gloo", "gloo", read_lines)]
    for key, pre, reader in peers:
        if key not in ran:
            continue
        runs = []
        for r in range(meta.get("lat_repeats") or 1):
            name = "lat-%s-%d%s" % (pre, r, suffix(reader))
            got = reader(d, name, failures, "latency %s" % key)
            if 8 in got:
                runs.append(got[8]["time_us"])
        if runs:
            out[key] = {"median_us": statistics.median(runs), "runs_us": runs}
    return out


def cols(*v):
    return "%-6s %10s %10s %10s %10s %10s %10s %8s %8s %8s  %s" % v


def add(result, d):
    meta = load_json(os.path.join(d, "meta.json")) or {}
    failures = []
    rows = []
    for coll in COLLS:
        rows += rows_of(d, meta, coll, failures)
    lat = latency(d, meta, failures)
    cfg = dict(meta)
    cfg["latency_8B"] = lat
    ov = lat.get("ours", {}).get("median_us")
    vv = lat.get("vader", {}).get("median_us")
    cfg["latency_target"] = None if ov is None or vv is None else ("ok" if ov <= vv else "MISS")
    add_config(result, cfg, rows, failures)

    n = meta.get("nodes")
    print("\n## N=%s on one host, %ss" % (n, meta.get("elapsed_s", "?")))
    for coll in COLLS:
        cr = [r for r in rows if r["collective"] == coll]
        if not cr:
            continue
        need_v, need_g = NEED[coll]
        print("\n# %s, busbw GB/s; target 16M-256M: ours >= %.1fx vader%s" % (
            coll, need_v, "" if need_g is None else
            " and >= %.1fx the better Gloo column" % need_g))
        print(cols("size", "ours", "ours tcp", "vader", "mpi tcp", "gloo",
                   "gloo-rc" if coll == "allreduce" else "", "ours/vad", "ours/glo", "ours/tcp",
                   "target"))
        for r in cr:
            mark = "-" if r["target"] is None else r["target"] + (
                " " + ",".join(r["target_missed"]) if r["target_missed"] else "")
            print(cols(human(r["size_bytes"]), fmt(r["ours_busbw_GBps"]),
                       fmt(r["ourstcp_busbw_GBps"]), fmt(r["vader_busbw_GBps"]),
                       fmt(r["mpitcp_busbw_GBps"]), fmt(r["gloo_busbw_GBps"]),
                       fmt(r.get("gloo_ring_chunked_busbw_GBps")) if coll == "allreduce" else "",
                       fmt(r["ours_over_vader"], "%.2f"), fmt(r["ours_over_gloo"], "%.2f"),
                       fmt(r["ours_over_ourstcp"], "%.2f"), mark))
    print("\n# 8-byte allreduce, us per call: median of %s launches (range)" % (
        meta.get("lat_repeats") or 1))
    print("%-9s %10s %17s" % ("peer", "median us", "range"))
    for key, _, _, label in PEERS + (("gloo", None, None, "gloo"),):
        v = lat.get(key)
        if v:
            print("%-9s %10.1f %17s" % (label, v["median_us"], "%.1f-%.1f" % (
                min(v["runs_us"]), max(v["runs_us"]))))
    print("target ours <= vader: %s" % {"ok": "ok", "MISS": "MISS", None: "-"}[
        cfg["latency_target"]])
    wrong = ["%s %s %s: %s wrong" % (k[:-len("_wrong")], r["collective"],
                                      human(r["size_bytes"]), v)
             for r in rows for k, v in sorted(r.items()) if k.endswith("_wrong") and v]
    for w in wrong:
        print("WRONG RESULTS: " + w)
    show_failures(failures)


def summary(result):
    doc = load_results(result)
    if not doc:
        return
    print("\n## issue-21 targets on one host (ratios in the same run)")
    for cfg in doc.get("configs", []):
        rows = [r for r in cfg.get("results", []) if r.get("target")]
        miss = ["%s %s %s" % (r["collective"][:6], human(r["size_bytes"]),
                              "/".join(r["target_missed"])) for r in rows
                if r["target"] == "MISS"]
        print("- N=%s: %d of %d rows at 16M-256M met%s" % (
            cfg.get("nodes"), len(rows) - len(miss), len(rows),
            "" if not miss else "; MISS: " + ", ".join(miss)))
        lat = cfg.get("latency_8B") or {}
        ours, vader = lat.get("ours", {}), lat.get("vader", {})
        print("    8-byte allreduce ours %s us, vader %s us, gloo %s us: %s" % (
            fmt(ours.get("median_us"), "%.1f"), fmt(vader.get("median_us"), "%.1f"),
            fmt((lat.get("gloo") or {}).get("median_us"), "%.1f"),
            {"ok": "ours <= vader ok", "MISS": "ours <= vader MISS", None: "-"}[
                cfg.get("latency_target")]))


def main(argv):
    return dispatch(argv, {"add": (2, add), "summary": (1, summary)}, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
