#!/usr/bin/env python3
"""Tables and JSON of bench/coll.sh and bench/latency.sh.

  collreport.py chunks MIN MAX FACTOR QUICK   size chunks: "FIRST LAST WARMUP ITERS CSV" lines
  collreport.py add RESULT DIR                merge DIR's raw outputs (meta.json, ours-*.json,
                                              mpi-*.jsonl, gloo-*.jsonl) into RESULT, print
                                              the table
  collreport.py summary RESULT                the issue-6 and issue-21 targets against RESULT
  collreport.py latency RESULT DIR            as add, for the latency bench (one N, bare or
                                              delayed): medians of its launches
  collreport.py latency-sweep RESULT          the 8 B-4 KiB tables of every N in RESULT

A driver's line or a result row that is not what the drivers print (JSON with a whole
size_bytes, numeric time_us and busbw_GBps, and wrong a count or null) is skipped with
FILE:LINE and the reason on stderr, and counts as a failure of its launch.
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
    except (OSError, ValueError, UnicodeDecodeError):
        return None


# The fields every result row of every driver has, and the types they must have ("wrong" is
# null in ours where the run did not check, -c 0).
ROW_FIELDS = (("size_bytes", int, False), ("time_us", (int, float), False),
              ("busbw_GBps", (int, float), False), ("wrong", int, True))


def row_problem(r):
    """Why r is not a result row, or None."""
    if not isinstance(r, dict):
        return "not a JSON object"
    for key, types, nullable in ROW_FIELDS:
        if key not in r:
            return "no \"%s\"" % key
        v = r[key]
        if v is None and nullable:
            continue
        if isinstance(v, bool) or not isinstance(v, types) or v < 0:
            return "\"%s\" is %s, not a non-negative %s" % (
                key, json.dumps(v), "integer" if types is int else "number")
    return None


def complain(failures, where, why):
    msg = "%s: skipped: %s" % (where, why)
    sys.stderr.write("collreport: %s\n" % msg)
    if failures is not None:
        failures.append(msg)


def load_lines(path, failures=None):
    """The result rows of a driver's output, one JSON object a line; bad lines are named."""
    rows = []
    try:
        with open(path) as f:
            for n, line in enumerate(f, 1):
                line = line.strip()
                if not line:
                    continue
                try:
                    r = json.loads(line)
                except ValueError as e:
                    complain(failures, "%s:%d" % (path, n), "not JSON at column %s" % getattr(
                        e, "colno", "?"))
                    continue
                why = row_problem(r)
                if why:
                    complain(failures, "%s:%d" % (path, n), why)
                    continue
                rows.append(r)
    except (OSError, UnicodeDecodeError) as e:
        complain(failures, path, "cannot read (%s)" % e)
    return rows


def load_ours(path, failures):
    """The result rows of one `hcclctl --json run` document; bad rows are named."""
    doc = load_json(path)
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), list):
        return None
    rows = []
    for i, r in enumerate(doc["results"]):
        why = row_problem(r)
        if why:
            complain(failures, "%s: results[%d]" % (path, i), why)
        else:
            rows.append(r)
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


# Gloo's algorithms per collective (bench_gloo_algos in lib.sh): the first is its column
# "gloo", ring_chunked its column "gloo-rc".
GLOO_ALGOS = {"allreduce": ("default", "ring_chunked"), "allgather": ("default",),
              "reducescatter": ("halving_doubling",)}

# Issue 21 on shaped links: at or above both peers from 64 KiB, 0.95 of the link from 16 MiB.
PEER_FROM, LINK_FROM, LINK_NEED = 64 << 10, 16 << 20, 0.95


def read_ours(d, pattern, failures, label):
    """size -> our row, from every `hcclctl --json run` document matching pattern in d."""
    got = {}
    for p in sorted(glob.glob(os.path.join(d, pattern))):
        rows = load_ours(p, failures)
        if rows is None:
            failures.append("%s %s" % (label, os.path.basename(p)))
            continue
        for r in rows:
            got[r["size_bytes"]] = r
    return got


def read_lines(d, pattern, failures, label):
    """size -> row, from every driver output (one JSON line a size) matching pattern in d."""
    got = {}
    for p in sorted(glob.glob(os.path.join(d, pattern))):
        rows = load_lines(p, failures)
        if not rows:
            failures.append("%s %s" % (label, os.path.basename(p)))
        for r in rows:
            got[r["size_bytes"]] = r
    return got


def field(r, key):
    return r.get(key) if r else None


def best(*v):
    v = [x for x in v if x is not None]
    return max(v) if v else None


def coll_target(r, shaped):
    """ok / MISS (with what missed) for a row of a shaped run, None where no target applies."""
    b = r["size_bytes"]
    if not shaped or b < PEER_FROM or r["ours_busbw_GBps"] is None:
        return None, []
    miss = []
    if r["mpi_busbw_GBps"] is not None and r["ours_over_mpi"] < 1:
        miss.append("<MPI")
    if r["ours_over_gloo"] is not None and r["ours_over_gloo"] < 1:
        miss.append("<gloo")
    if b >= LINK_FROM and (r["ours_over_link"] is None or r["ours_over_link"] < LINK_NEED):
        miss.append("<%.2f link" % LINK_NEED)
    return ("MISS" if miss else "ok"), miss


def add(result, d):
    meta = load_json(os.path.join(d, "meta.json")) or {}
    link = (meta.get("link") or {}).get("stream_GBps")
    shaped = meta.get("rate") not in (None, "none")
    rows, failures = [], []
    for coll in COLLS:
        ours = read_ours(d, "ours-%s-*.json" % coll, failures, "ours %s" % coll)
        mpi = read_lines(d, "mpi-%s-*.jsonl" % coll, failures, "Open MPI %s" % coll)
        gloo = [read_lines(d, "gloo-%s-%s-*.jsonl" % (coll, a), failures,
                           "Gloo %s %s" % (coll, a)) for a in GLOO_ALGOS[coll]]
        gdef = gloo[0]
        grc = gloo[1] if len(gloo) > 1 else {}
        for b in sorted(set(ours) | set(mpi) | set(gdef) | set(grc)):
            if b == 0:
                continue
            o, m, g, gr = ours.get(b), mpi.get(b), gdef.get(b), grc.get(b)
            ob, mb = field(o, "busbw_GBps"), field(m, "busbw_GBps")
            gb, grb = field(g, "busbw_GBps"), field(gr, "busbw_GBps")
            row = {
                "collective": coll, "size_bytes": b,
                "ours_busbw_GBps": ob, "mpi_busbw_GBps": mb,
                "gloo_busbw_GBps": gb, "gloo_algo": GLOO_ALGOS[coll][0],
                "gloo_ring_chunked_busbw_GBps": grb,
                "ours_over_mpi": ratio(ob, mb),
                # against the better of Gloo's algorithms: both must be beaten
                "ours_over_gloo": ratio(ob, best(gb, grb)),
                "ours_over_link": ratio(ob, link),
                "mpi_over_link": ratio(mb, link), "gloo_over_link": ratio(best(gb, grb), link),
                "ours_time_us": field(o, "time_us"), "mpi_time_us": field(m, "time_us"),
                "gloo_time_us": field(g, "time_us"),
                "gloo_ring_chunked_time_us": field(gr, "time_us"),
                "ours_algo": field(o, "algo"),
                "ours_wrong": field(o, "wrong"), "mpi_wrong": field(m, "wrong"),
                "gloo_wrong": field(g, "wrong"), "gloo_ring_chunked_wrong": field(gr, "wrong"),
            }
            row["target"], row["target_missed"] = coll_target(row, shaped)
            rows.append(row)
    add_config(result, dict(meta), rows, failures)

    rate = meta.get("rate")
    ring = meta.get("ring") or {}
    print("\n## N=%s, link %s: measured single-stream TCP %s GB/s; all %s links at once "
          "(node i -> i+1) %s-%s GB/s; our algo %s; %ss" % (
              meta.get("nodes"), "unshaped (veth)" if rate == "none" else rate + " htb",
              fmt(link), meta.get("nodes"), fmt(ring.get("min_GBps")), fmt(ring.get("mean_GBps")),
              meta.get("algo", "auto"), meta.get("elapsed_s", "?")))
    if shaped:
        print("# target (issue 21, from 64K): ours >= MPI and >= the better Gloo column; from "
              "16M also ours/link >= %.2f" % LINK_NEED)
    cols = ("%-13s %6s %9s %9s %9s %9s %8s %9s %9s %9s %9s %9s %5s %s")
    print(cols % ("collective", "size", "ours GB/s", "MPI GB/s", "gloo GB/s", "gloo-rc",
                  "ours/MPI", "ours/gloo", "ours/link", "MPI/link", "ours us", "MPI us", "algo",
                  "target"))
    for r in rows:
        print(cols % (
            r["collective"], human(r["size_bytes"]), fmt(r["ours_busbw_GBps"]),
            fmt(r["mpi_busbw_GBps"]), fmt(r["gloo_busbw_GBps"]),
            fmt(r["gloo_ring_chunked_busbw_GBps"]), fmt(r["ours_over_mpi"], "%.2f"),
            fmt(r["ours_over_gloo"], "%.2f"), fmt(r["ours_over_link"], "%.3f"),
            fmt(r["mpi_over_link"], "%.3f"), fmt(r["ours_time_us"], "%.1f"),
            fmt(r["mpi_time_us"], "%.1f"), r["ours_algo"] or "-",
            target_mark(r["target"], r["target_missed"])))
    show_failures(failures)


def target_mark(mark, missed):
    if mark is None:
        return "-"
    return mark + (" " + ",".join(missed) if missed else "")


def summary(result):
    doc = load_results(result)
    if not doc:
        return
    print("\n## issue-6 and issue-21 targets (shaped runs; unshaped runs are CPU-bound and shown "
          "for reference)")
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
        vs_gloo = [r for r in rows if r["size_bytes"] >= 64 << 10
                   and r.get("ours_over_gloo") is not None]
        if vs_gloo:
            behind = ["%s %s %.2f" % (r["collective"][:6], human(r["size_bytes"]),
                                      r["ours_over_gloo"]) for r in vs_gloo
                      if r["ours_over_gloo"] < 1.0]
            notes.append("busbw >= Gloo (the better algorithm) at >=64K: %s" % (
                "met" if not behind else "NOT met at " + ", ".join(behind)))
        marks = [r.get("target") for r in rows if r.get("target")]
        if marks:
            notes.append("issue-21 rows (>=64K): %d ok, %d MISS" % (
                marks.count("ok"), marks.count("MISS")))
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


def dispatch(argv, commands, doc):
    """Runs commands[argv[1]] = (number of arguments, function) on argv[2:]; else the usage
    (doc) on stderr and 64."""
    cmd = commands.get(argv[1]) if len(argv) > 1 else None
    if not cmd or len(argv) - 2 != cmd[0]:
        sys.stderr.write(doc)
        return 64
    cmd[1](*argv[2:])
    return 0


def main(argv):
    return dispatch(argv, {
        "chunks": (4, lambda lo, hi, f, q: chunks(parse_size(lo), parse_size(hi), int(f),
                                                 q not in ("", "0"))),
        "add": (2, add), "summary": (1, summary), "latency": (2, latency),
        "latency-sweep": (1, latency_sweep)}, __doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
