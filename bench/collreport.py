#!/usr/bin/env python3
"""Tables and JSON of bench/coll.sh and bench/latency.sh.

  collreport.py chunks MIN MAX FACTOR QUICK   size chunks: "FIRST LAST WARMUP ITERS CSV" lines
  collreport.py add RESULT DIR                merge DIR's raw outputs (meta.json, ours-*.json,
                                              mpi-*.jsonl) into RESULT, print the table
  collreport.py summary RESULT                the issue-6 targets against RESULT
  collreport.py latency RESULT DIR            as add, for the latency bench (one N, bare or
                                              delayed): medians of its launches
  collreport.py latency-sweep RESULT          the 8 B-4 KiB tables of every N in RESULT
"""
import glob
import json
import math
import os
import statistics
import sys

COLLS = ("allreduce", "allgather", "reducescatter")


def parse_size(s):
    s = s.strip().upper()
    mult = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    if s and s[-1] in mult:
        return int(float(s[:-1]) * mult[s[-1]])
    return int(s)


def human(b):
    for unit, div in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if b >= div and b % div == 0:
            return "%d%s" % (b // div, unit)
    return str(b)


def sizes(lo, hi, factor):
    out, b = [], lo
    while True:
        out.append(b)
        if b >= hi:
            return out
        nb = b * factor
        b = hi if nb > hi or nb <= b else nb


def chunks(lo, hi, factor, quick):
    """Consecutive sizes that share a (warmup, iters): few iterations where one takes long."""
    def sched(b):
        if b <= 128 << 10:
            return (2, 20) if quick else (5, 50)
        if b <= 8 << 20:
            return (1, 5) if quick else (2, 10)
        if b <= 32 << 20:
            return (1, 2) if quick else (1, 3)
        # one loss-recovery stall of the shaped path costs 5-10 % of one 256 MiB call
        return (1, 2) if quick else (1, 4)

    out = []
    for b in sizes(lo, hi, factor):
        s = sched(b)
        if out and out[-1][0] == s:
            out[-1][1].append(b)
        else:
            out.append((s, [b]))
    for (w, n), bs in out:
        print(bs[0], bs[-1], w, n, ",".join(map(str, bs)))


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def load_lines(path):
    rows = []
    try:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line.startswith("{"):
                    try:
                        rows.append(json.loads(line))
                    except ValueError:
                        pass
    except OSError:
        pass
    return rows


def save(path, doc):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def add_config(result, cfg, rows, failures):
    """Appends one N/rate configuration with its rows to the result document."""
    cfg["results"] = rows
    cfg["failures"] = failures
    doc = load_json(result) or {}
    doc.setdefault("configs", []).append(cfg)
    save(result, doc)


def show_failures(failures):
    for f in failures:
        print("FAILED: %s (see the .err files; the run went on)" % f)
    sys.stdout.flush()


def load_results(result):
    """The result document, or None after saying there is none."""
    doc = load_json(result)
    if not doc:
        print("no results in %s" % result)
    return doc


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt(v, spec="%.4f"):
    return "-" if v is None else spec % v


def add(result, d):
    meta = load_json(os.path.join(d, "meta.json")) or {}
    link = (meta.get("link") or {}).get("stream_GBps")
    rows, failures = [], []
    for coll in COLLS:
        ours, mpi = {}, {}
        for p in sorted(glob.glob(os.path.join(d, "ours-%s-*.json" % coll))):
            doc = load_json(p)
            if not doc or "results" not in doc:
                failures.append("ours %s %s" % (coll, os.path.basename(p)))
                continue
            for r in doc["results"]:
                ours[r["size_bytes"]] = r
        for p in sorted(glob.glob(os.path.join(d, "mpi-%s-*.jsonl" % coll))):
            got = load_lines(p)
            if not got:
                failures.append("Open MPI %s %s" % (coll, os.path.basename(p)))
            for r in got:
                mpi[r["size_bytes"]] = r
        for b in sorted(set(ours) | set(mpi)):
            if b == 0:
                continue
            o, m = ours.get(b), mpi.get(b)
            ob = o["busbw_GBps"] if o else None
            mb = m["busbw_GBps"] if m else None
            rows.append({
                "collective": coll, "size_bytes": b,
                "ours_busbw_GBps": ob, "mpi_busbw_GBps": mb,
                "ours_over_mpi": ratio(ob, mb), "ours_over_link": ratio(ob, link),
                "mpi_over_link": ratio(mb, link),
                "ours_time_us": o["time_us"] if o else None,
                "mpi_time_us": m["time_us"] if m else None,
                "ours_algo": o.get("algo") if o else None,
                "ours_wrong": o.get("wrong") if o else None,
                "mpi_wrong": m.get("wrong") if m else None,
            })
    add_config(result, dict(meta), rows, failures)

    rate = meta.get("rate")
    ring = meta.get("ring") or {}
    print("\n## N=%s, link %s: measured single-stream TCP %s GB/s; all %s links at once "
          "(node i -> i+1) %s-%s GB/s; our algo %s; %ss" % (
              meta.get("nodes"), "unshaped (veth)" if rate == "none" else rate + " htb",
              fmt(link), meta.get("nodes"), fmt(ring.get("min_GBps")), fmt(ring.get("mean_GBps")),
              meta.get("algo", "auto"), meta.get("elapsed_s", "?")))
    print("%-13s %9s %11s %11s %8s %9s %9s %11s %11s %5s" % (
        "collective", "size", "ours GB/s", "MPI GB/s", "ours/MPI", "ours/link", "MPI/link",
        "ours us", "MPI us", "algo"))
    for r in rows:
        print("%-13s %9s %11s %11s %8s %9s %9s %11s %11s %5s" % (
            r["collective"], human(r["size_bytes"]), fmt(r["ours_busbw_GBps"]),
            fmt(r["mpi_busbw_GBps"]), fmt(r["ours_over_mpi"], "%.2f"),
            fmt(r["ours_over_link"], "%.3f"), fmt(r["mpi_over_link"], "%.3f"),
            fmt(r["ours_time_us"], "%.1f"), fmt(r["mpi_time_us"], "%.1f"),
            r["ours_algo"] or "-"))
    show_failures(failures)


def summary(result):
    doc = load_results(result)
    if not doc:
        return
    print("\n## issue-6 targets (shaped runs; unshaped runs are CPU-bound and shown for reference)")
    for cfg in doc.get("configs", []):
        shaped = cfg.get("rate") != "none"
        tag = "N=%s %s" % (cfg.get("nodes"), cfg.get("rate"))
        rows = cfg["results"]
        notes = []
        link = (cfg.get("link") or {}).get("stream_GBps")
        ring = (cfg.get("ring") or {}).get("mean_GBps")
        for coll, need in (("allreduce", 0.95), ("allgather", 0.93), ("reducescatter", 0.93)):
            big = [r["ours_over_link"] for r in rows
                   if r["collective"] == coll and r["size_bytes"] >= 16 << 20
                   and r["ours_over_link"] is not None]
            if big:
                worst = min(big)
                # the ring rate says what N links carry at once on these shared cores
                of_ring = " (%.3f of all links at once)" % (worst * link / ring) \
                    if link and ring else ""
                notes.append("%s >=16M min %.3f of link%s (target %.2f): %s" % (
                    coll, worst, of_ring, need, "met" if worst >= need else "NOT met"))
        slower = ["%s %s %.2f" % (r["collective"][:6], human(r["size_bytes"]), r["ours_over_mpi"])
                  for r in rows if r["size_bytes"] >= 64 << 10 and r["ours_over_mpi"] is not None
                  and r["ours_over_mpi"] < 1.0]
        notes.append("busbw >= MPI at >=64K: %s" % (
            "met" if not slower else "NOT met at " + ", ".join(slower)))
        lat = ["%s %s %.0f/%.0fus" % (r["collective"][:6], human(r["size_bytes"]), r["ours_time_us"],
                                      r["mpi_time_us"])
               for r in rows if r["size_bytes"] <= 4096 and r["ours_time_us"] is not None
               and r["mpi_time_us"] is not None and r["ours_time_us"] > r["mpi_time_us"]]
        notes.append("latency <= MPI at 8B-4K: %s" % (
            "met" if not lat else "NOT met (ours/MPI) at " + ", ".join(lat)))
        cliffs = []
        for coll in COLLS:
            cr = [r for r in rows if r["collective"] == coll and r["ours_busbw_GBps"]]
            for a, b in zip(cr, cr[1:]):
                if b["ours_busbw_GBps"] < 0.95 * a["ours_busbw_GBps"]:
                    cliffs.append("%s %s->%s %.0f%%" % (
                        coll[:6], human(a["size_bytes"]), human(b["size_bytes"]),
                        100 * (b["ours_busbw_GBps"] / a["ours_busbw_GBps"] - 1)))
        notes.append("no drop >5%% to the next size: %s" % (
            "met" if not cliffs else "NOT met: " + ", ".join(cliffs)))
        print("- %s%s" % (tag, "" if shaped else " (reference)"))
        for n in notes:
            print("    " + n)


def median(v):
    return statistics.median(v) if v else None


def span(v):
    return "%.1f-%.1f" % (min(v), max(v)) if v else "-"


def latency(result, d):
    meta = load_json(os.path.join(d, "meta.json")) or {}
    pp = meta.get("pingpong") or {}
    alpha = pp.get("oneway_us_median")
    p = meta.get("nodes")
    steps = math.ceil(math.log2(p)) if p and p > 1 else 0
    bound = alpha * steps if alpha is not None else None
    # each repeat is a fresh pair of launches, ours then Open MPI's: a process's latency
    # depends on where the scheduler put it, so one launch says little
    times, algos = {}, {}
    for coll in meta.get("colls") or ["allreduce"]:
        for k in range(meta.get("repeats") or 1):
            doc = load_json(os.path.join(d, "ours-%s-%d.json" % (coll, k))) or {}
            for r in doc.get("results") or []:
                times.setdefault((coll, r["size_bytes"]), ([], []))[0].append(r["time_us"])
                algos[(coll, r["size_bytes"])] = r.get("algo")
            for r in load_lines(os.path.join(d, "mpi-%s-%d.jsonl" % (coll, k))):
                times.setdefault((coll, r["size_bytes"]), ([], []))[1].append(r["time_us"])
    sweep = []
    for (coll, size), (ours, mpi) in times.items():
        if size:
            sweep.append({"collective": coll, "size_bytes": size, "ours_us": median(ours),
                          "mpi_us": median(mpi), "ours_runs_us": ours, "mpi_runs_us": mpi,
                          "ours_over_mpi": ratio(median(ours), median(mpi)),
                          "ours_algo": algos.get((coll, size))})
    sweep.sort(key=lambda r: (COLLS.index(r["collective"]) if r["collective"] in COLLS else 9,
                              r["size_bytes"]))
    first = next((r for r in sweep if r["collective"] == "allreduce" and r["size_bytes"] == 8),
                 {})
    row = dict(meta)
    row.update({
        "alpha_us": alpha, "log2p": steps, "bound_us": bound,
        "ours_us": first.get("ours_us"), "ours_runs_us": first.get("ours_runs_us", []),
        "ours_algo": first.get("ours_algo"),
        "mpi_us": first.get("mpi_us"), "mpi_runs_us": first.get("mpi_runs_us", []),
        "sweep": sweep,
    })
    row["ours_over_bound"] = ratio(row["ours_us"], bound)
    row["mpi_over_bound"] = ratio(row["mpi_us"], bound)
    doc = load_json(result) or {}
    doc.setdefault("runs", []).append(row)
    save(result, doc)
    print("%-3s %-8s %-6s %9s %9s %5s %10s %9s %9s %10s %9s %5s %13s %13s" % (
        p, meta.get("rate"), meta.get("delay") or "none", fmt(alpha, "%.1f"),
        fmt(pp.get("oneway_us_mean"), "%.1f"), steps, fmt(bound, "%.1f"), fmt(row["ours_us"], "%.1f"), fmt(row["mpi_us"], "%.1f"),
        fmt(row["ours_over_bound"], "%.2f"), fmt(row["mpi_over_bound"], "%.2f"),
        row["ours_algo"] or "-", span(row["ours_runs_us"]), span(row["mpi_runs_us"])))
    sys.stdout.flush()


def latency_sweep(result):
    """The small-size table of every N, after the 8-byte rows."""
    doc = load_results(result)
    if not doc:
        return
    for run in doc.get("runs", []):
        if len(run.get("sweep", [])) < 2:
            continue
        print("\n## N=%s, %s%s: time per call, median of %s launches (range)" % (
            run.get("nodes"), run.get("rate"),
            ", a busy loop on every CPU" if run.get("busy") else "", run.get("repeats")))
        print("%-13s %6s %9s %9s %8s %15s %15s %5s" % (
            "collective", "size", "ours us", "MPI us", "ours/MPI", "ours range", "MPI range",
            "algo"))
        behind = []
        for r in run.get("sweep", []):
            print("%-13s %6s %9s %9s %8s %15s %15s %5s" % (
                r["collective"], human(r["size_bytes"]), fmt(r["ours_us"], "%.1f"),
                fmt(r["mpi_us"], "%.1f"), fmt(r["ours_over_mpi"], "%.2f"),
                span(r["ours_runs_us"]), span(r["mpi_runs_us"]), r["ours_algo"] or "-"))
            if r["ours_over_mpi"] is not None and r["ours_over_mpi"] > 1:
                behind.append("%s %s %.2f" % (r["collective"][:6], human(r["size_bytes"]),
                                              r["ours_over_mpi"]))
        print("latency <= MPI (medians) at 8B-4K: %s" % (
            "met" if not behind else "NOT met (ours/MPI) at " + ", ".join(behind)))


def main(argv):
    if len(argv) == 6 and argv[1] == "chunks":
        chunks(parse_size(argv[2]), parse_size(argv[3]), int(argv[4]), argv[5] not in ("", "0"))
    elif len(argv) == 4 and argv[1] == "add":
        add(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == "summary":
        summary(argv[2])
    elif len(argv) == 4 and argv[1] == "latency":
        latency(argv[2], argv[3])
    elif len(argv) == 3 and argv[1] == "latency-sweep":
        latency_sweep(argv[2])
    else:
        sys.stderr.write(__doc__)
        return 64
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
