#!/usr/bin/env python3
"""scalesim_replay.py: SCALE-Sim v2's reference runs replayed by dse.

Each (topology, run) of reference.csv is simulated as it is, `dse sim
RUN.cfg TOPOLOGY.csv --format json` (level 2, the default), and every
layer's `cycles` is compared with SCALE-Sim's `total_cycles`, and its six
word counts (COUNTS: the SRAM buffers' and DRAM's entries of `accesses`)
with SCALE-Sim's.  Prints the layers compared, how many are within 1% and
how many exact, the same per topology and per dataflow, and the worst
layers; then per count the layers within 1% and exact, and the layers not
exact; a layer dse does not report, or a run dse fails on, is a failure
(exit 1).  The numbers are what the test asserts (a floor, not a
pass/fail per layer).

  scalesim_replay.py DSE VALIDATION_DIR [--markdown FILE] [--counts FILE]

--markdown writes docs/scalesim.md's replay tables of the cycles, --counts
its table of the counts (the test compares them with the page).
"""
import collections
import csv
import json
import os
import subprocess
import sys

TOL = 0.01
WORST = 10  # worst layers printed
# SCALE-Sim's column, what it counts, and where dse's layer result has it:
# (level of `accesses`, operand, reads|updates)
COUNTS = [
    ("sram_ifmap_reads", "ifmap SRAM reads", ("ifmap_sram", "input", "reads")),
    ("sram_filter_reads", "filter SRAM reads", ("filter_sram", "weight", "reads")),
    ("sram_ofmap_writes", "ofmap SRAM writes", ("ofmap_sram", "output", "updates")),
    ("dram_ifmap_reads", "ifmap DRAM reads", ("DRAM", "input", "reads")),
    ("dram_filter_reads", "filter DRAM reads", ("DRAM", "weight", "reads")),
    ("dram_ofmap_writes", "ofmap DRAM writes", ("DRAM", "output", "updates")),
]


def within(ratio):
    return abs(ratio - 1) <= TOL


def main():
    dse, vdir = sys.argv[1], sys.argv[2]
    opts = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    runs = collections.OrderedDict()
    with open(os.path.join(vdir, "reference.csv")) as f:
        for r in csv.DictReader(f):
            runs.setdefault((r["topology"], r["run_name"]), []).append(r)
    rows, fails = [], []
    for (topo, run), layers in runs.items():
        p = subprocess.run([dse, "sim", os.path.join(vdir, run + ".cfg"),
                            os.path.join(vdir, topo + ".csv"), "--format", "json"],
                           capture_output=True, text=True)
        if p.returncode:
            fails.append("%s on %s: dse sim failed: %s" % (run, topo, p.stderr.strip()))
            continue
        got = {r["name"]: r for r in json.loads(p.stdout)["layers"]}
        for ref in layers:
            name = ref["layer_name"].strip()
            g = got.get(name)
            if g is None:
                fails.append("%s on %s: dse reports no layer '%s'" % (run, topo, name))
                continue
            want, have = int(ref["total_cycles"]), int(g["cycles"])
            acc = {a["level"]: a for a in g.get("accesses", [])}
            words = {}
            for col, _, (level, opd, kind) in COUNTS:
                if level in acc:
                    words[col] = (int(ref[col]), acc[level][opd][kind])
                else:
                    fails.append("%s on %s: layer '%s' has no level '%s'" % (run, topo, name, level))
            rows.append({"topo": topo, "run": run, "layer": name, "df": ref["dataflow"],
                         "ref": want, "dse": have, "ratio": have / want,
                         "limiter": g["limiter"],
                         "util": 100 * g["spatial_utilization"],
                         "ss_util": float(ref["mapping_efficiency_pct"]), "words": words})

    def counts(sel):
        return (len(sel), sum(1 for r in sel if within(r["ratio"])),
                sum(1 for r in sel if r["ref"] == r["dse"]))

    sets = [("all", rows)]
    sets += [(t, [r for r in rows if r["topo"] == t]) for t in sorted({r["topo"] for r in rows})]
    sets += [(d.upper(), [r for r in rows if r["df"] == d]) for d in ("os", "ws", "is")]
    n, ok, exact = counts(rows)
    print("%d layers: %d within 1%%, %d exact" % (n, ok, exact))
    for name, sel in sets[1:]:
        print("  %s: %d layers, %d within 1%%, %d exact" % ((name,) + counts(sel)))
    off = sorted((r for r in rows if not within(r["ratio"])),
                 key=lambda r: (-abs(r["ratio"] - 1), r["run"], r["layer"]))
    print("worst layers (dse / SCALE-Sim cycles):")
    for r in off[:WORST]:
        print("  %s %s %s: %d vs %d, x%.3f, limiter %s" %
              (r["topo"], r["run"], r["layer"], r["dse"], r["ref"], r["ratio"], r["limiter"]))
    if "--markdown" in opts:
        md = ["| set | layers | within 1% | exact |", "|---|---|---|---|"]
        md += ["| %s | %d | %d | %d |" % ((name,) + counts(sel)) for name, sel in sets]
        if not off:
            md += ["", "No layer is off by more than 1%%; %d of %d are exact." % (exact, n)]
        else:
            md += ["", "The %d layers off by more than 1%%, worst first (spatial utilization: "
                   "dse's `spatial_utilization` against SCALE-Sim's mapping efficiency):"
                   % len(off), "", "| topology | run | layer | SCALE-Sim cycles | dse cycles "
                   "| dse / SCALE-Sim | dse limiter | spatial utilization, dse / SCALE-Sim |",
                   "|---|---|---|---|---|---|---|---|"]
        md += ["| %s | %s | %s | %d | %d | %.3f | %s | %.1f%% / %.1f%% |" %
               (r["topo"], r["run"], r["layer"], r["ref"], r["dse"], r["ratio"], r["limiter"],
                r["util"], r["ss_util"]) for r in off]
        with open(opts["--markdown"], "w") as f:
            f.write("\n".join(md) + "\n")
    # the six counts: per count the layers within 1% and exact, then the
    # layers not exact
    def wcounts(col):
        sel = [r["words"][col] for r in rows if col in r["words"]]
        return (len(sel), sum(1 for w, h in sel if abs(h - w) <= TOL * w),
                sum(1 for w, h in sel if w == h))
    md = ["| SCALE-Sim's count | words of | layers | within 1% | exact |", "|---|---|---|---|---|"]
    for col, what, _ in COUNTS:
        print("count %s: %d layers, %d within 1%%, %d exact" % ((col,) + wcounts(col)))
        md.append("| `%s` | %s | %d | %d | %d |" % ((col, what) + wcounts(col)))
    inexact = [(r, col) for r in rows for col, _, _ in COUNTS
               if col in r["words"] and r["words"][col][0] != r["words"][col][1]]
    if inexact:
        md += ["", "The %d counts not exact:" % len(inexact), "",
               "| topology | run | layer | count | SCALE-Sim | dse | dse / SCALE-Sim |",
               "|---|---|---|---|---|---|---|"]
    for r, col in inexact:
        w, h = r["words"][col]
        print("  %s %s %s %s: %d vs %d" % (r["topo"], r["run"], r["layer"], col, h, w))
        md.append("| %s | %s | %s | `%s` | %d | %d | %.3f |" %
                  (r["topo"], r["run"], r["layer"], col, w, h, h / w if w else float("inf")))
    if "--counts" in opts:
        with open(opts["--counts"], "w") as f:
            f.write("\n".join(md) + "\n")
    for f in fails:
        print("FAIL:", f)
    print("%d runs, %d failures" % (len(runs), len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
