#!/usr/bin/env python3
"""timeloop_replay.py: the 14 Timeloop reference runs replayed by dse.

Each run is simulated as it is (`dse sim ARCH PROBLEM --mappings MAP --ert ERT
--format json`) and compared with reference/per_level.csv and summary.csv:
reads, fills and updates per instance and in total, and utilized instances,
exactly; cycles exactly; energy per level (tensors + leakage) and in total
within 1%.  The blind runs (no reference) are checked against the figures
worked out by hand from their mappings.  A figure that differs is a failure
unless it is listed in EXPECTED with its reason.

  timeloop_replay.py DSE VALIDATION_DIR [--markdown FILE] [--no-ert FILE]

--markdown writes docs/validation.md's tables (the test compares them with
the page); --no-ert docs/timeloop.md's table of the runs with a reference
simulated without their ERT, on dse's technology models, against Timeloop's
total energy (not expected to match: it compares models, not arithmetic).  Prints one line per failure and exits 1 when there is any.
"""
import csv
import json
import os
import subprocess
import sys

# case, variant -> (arch, problem, mapping, ERT), relative to the case folder
RUNS = [
    ("ispass00_conv1d_1level", "default", "arch/1level.arch.yaml", "prob/conv1d.prob.yaml",
     "map/conv1d-1level.map.yaml", "ert/default.ERT.yaml"),
    ("ispass01_conv1d_2level", "ws", "arch/2level.arch.yaml", "prob/conv1d.prob.yaml",
     "map/conv1d-2level-ws.map.yaml", "ert/ws.ERT.yaml"),
    ("ispass01_conv1d_2level", "os", "arch/2level.arch.yaml", "prob/conv1d.prob.yaml",
     "map/conv1d-2level-os.map.yaml", "ert/os.ERT.yaml"),
    ("ispass02_conv1d_oc_2level", "no-tiling", "arch/2level.arch.yaml", "prob/conv1d+oc.prob.yaml",
     "map/conv1d+oc-2level-os.map.yaml", "ert/no-tiling.ERT.yaml"),
    ("ispass02_conv1d_oc_2level", "tiling", "arch/2level.arch.yaml", "prob/conv1d+oc.prob.yaml",
     "map/conv1d+oc-2level-os-tiled.map.yaml", "ert/tiling.ERT.yaml"),
    ("ispass03_conv1d_oc_3level_dram", "no-bypass", "arch/3level.arch.yaml",
     "prob/conv1d+oc.prob.yaml", "map/conv1d+oc-3level.map.yaml", "ert/no-bypass.ERT.yaml"),
    ("ispass03_conv1d_oc_3level_dram", "bypass", "arch/3level.arch.yaml",
     "prob/conv1d+oc.prob.yaml", "map/conv1d+oc-3level-bypass.map.yaml", "ert/bypass.ERT.yaml"),
    ("ispass04_conv1d_oc_ic_16pe", "cp", "arch/3levelspatial.arch.yaml",
     "prob/conv1d+oc+ic.prob.yaml", "map/conv1d+oc+ic-3levelspatial-cp-ws.map.yaml",
     "ert/cp.ERT.yaml"),
    ("ispass04_conv1d_oc_ic_16pe", "kp", "arch/3levelspatial.arch.yaml",
     "prob/conv1d+oc+ic.prob.yaml", "map/conv1d+oc+ic-3levelspatial-kp-ws.map.yaml",
     "ert/kp.ERT.yaml"),
    ("ed_simple_weight_stationary", "default_problem", "arch.yaml",
     "_shared/_include/default_problem.yaml", "mapping.yaml", "ert/default_problem.ERT.yaml"),
    ("ed_simple_output_stationary", "default_problem", "arch.yaml",
     "_shared/_include/default_problem.yaml", "mapping.yaml", "ert/default_problem.ERT.yaml"),
    ("ispass06_eyeriss_vgg02_layer5", "default", "arch/eyeriss_like.yaml",
     "prob/VGG02_layer5.yaml", "mapping.yaml", "ert/default.ERT.yaml"),
    ("ed_eyeriss_like", "default_problem", "arch.yaml", "_shared/_include/default_problem.yaml",
     "mapping.yaml", "ert/default_problem.ERT.yaml"),
    ("ed_simba_like", "default_problem", "arch.yaml", "_shared/_include/default_problem.yaml",
     "mapping.yaml", "ert/default_problem.ERT.yaml"),
]

# The blind runs: MACs (the product of the dims), utilized MACs of all, cycles
# (the product of the temporal factors), worked out by hand from the mappings.
BLIND = {
    "ispass06_eyeriss_vgg02_layer5": (924844032, 168, 168, 5505024),
    "ed_eyeriss_like": (10838016, 126, 168, 86016),
    "ed_simba_like": (10838016, 48, 256, 225792),
}

# (case, variant, level, tensor or "", field) -> the reason dse differs.
EXPECTED = {}

TENSORS = {"Weights": "weight", "Inputs": "input", "Outputs": "output"}
FIELDS = ("reads", "fills", "updates")
TOL = 0.01


def pj(x):
    """Energy in pJ to 7 significant digits (Timeloop prints 2 decimals)."""
    return "%.7g" % x


def simulate(dse, base, arch, prob, mapping, ert):
    cmd = [dse, "sim", os.path.join(base, arch), os.path.join(base, prob), "--mappings",
           os.path.join(base, mapping), "--format", "json"]
    if ert:
        cmd[-2:-2] = ["--ert", os.path.join(base, ert)]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        return None, p.stderr.strip()
    return json.loads(p.stdout), None


def no_ert_table(dse, vdir, summary, path):
    """docs/timeloop.md's table: each run with a reference simulated without
    its ERT (dse's technology models) against Timeloop's total energy."""
    rows = ["| run | Timeloop pJ (its ERT) | dse pJ, no ERT | dse / Timeloop |",
            "|---|---|---|---|"]
    fails = []
    for case, variant, arch, prob, mapping, _ in RUNS:
        if case in BLIND:
            continue
        res, err = simulate(dse, os.path.join(vdir, case), arch, prob, mapping, None)
        if res is None:
            fails.append("%s/%s without an ERT: dse sim failed: %s" % (case, variant, err))
            continue
        want = float(summary[(case, variant)]["energy_total_pJ"])
        got = res["total"]["energy_j"] * 1e12
        rows.append("| %s / %s | %s | %s | %.3f |" % (case, variant, pj(want), pj(got), got / want))
    with open(path, "w") as f:
        f.write("\n".join(rows) + "\n")
    return fails


def main():
    dse, vdir = sys.argv[1], sys.argv[2]
    opts = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    md_path = opts.get("--markdown")
    ref = os.path.join(vdir, "reference")
    levels = {}
    with open(os.path.join(ref, "per_level.csv")) as f:
        for r in csv.DictReader(f):
            levels.setdefault((r["case"], r["variant"]), []).append(r)
    summary = {}
    with open(os.path.join(ref, "summary.csv")) as f:
        for r in csv.DictReader(f):
            summary[(r["case"], r["variant"])] = r
    fails, seen, md = [], set(), []

    worst = [0.0, ""]  # the largest relative energy difference and where

    def check(run, level, tensor, field, want, got, exact):
        key = run + (level, tensor, field)
        if not exact and want and abs(got - want) / abs(want) > worst[0]:
            worst[0] = abs(got - want) / abs(want)
            worst[1] = "%s/%s %s" % (run[0], run[1], " ".join(x for x in (level, tensor) if x) or "total")
        if exact:
            same = want == got
        else:
            same = abs(got - want) <= TOL * abs(want) if want else abs(got) < 1e-9
        if same:
            return ""
        if key in EXPECTED:
            seen.add(key)
            return EXPECTED[key]
        fails.append("%s/%s %s %s %s: Timeloop %s, dse %s" % (run + (level, tensor, field, want, got)))
        return "**differs**"

    for case, variant, arch, prob, mapping, ert in RUNS:
        run = (case, variant)
        res, err = simulate(dse, os.path.join(vdir, case), arch, prob, mapping, ert)
        md.append("### %s / %s\n" % run)
        if res is None:
            fails.append("%s/%s: dse sim failed: %s" % (case, variant, err))
            md.append("dse sim failed.\n")
            continue
        tot, layer = res["total"], res["layers"][0]
        acc = {a["level"]: a for a in layer["accesses"]}
        if case in BLIND:
            macs, used, pes, cycles = BLIND[case]
            all_macs = res["arch"]["peak_macs_per_cycle"]
            mac_used = layer["spatial_utilization"] * all_macs
            check(run, "MAC", "", "macs", macs, tot["macs"], True)
            check(run, "MAC", "", "instances", pes, all_macs, True)
            check(run, "MAC", "", "utilized", used, round(mac_used), True)
            check(run, "", "", "cycles", cycles, tot["cycles"], True)
            md.append("No reference (blind): dse counts %d MACs on %d of %d MACs in %d cycles, "
                      "as worked out by hand from the mapping (%d, %d of %d, %d); %s pJ in "
                      "all.\n" % (tot["macs"], round(mac_used), pes, tot["cycles"], macs, used,
                                   pes, cycles, pj(tot["energy_j"] * 1e12)))
            md.append("| level | tensor | reads/fills/updates, dse | per instance | utilized | pJ |")
            md.append("|---|---|---|---|---|---|")
            for a in layer["accesses"]:
                for t in ("weight", "input", "output"):
                    d = a[t]
                    if d["utilized_instances"] == 0:
                        continue
                    md.append("| %s | %s | %s | %s | %d | %s |" %
                              (a["level"], t, "/".join(str(d[f]) for f in FIELDS),
                               "/".join(str(d[f + "_per_instance"]) for f in FIELDS),
                               d["utilized_instances"], pj(d["energy_j"] * 1e12)))
                md.append("| %s | all + leakage | | | | %s |" % (a["level"], pj(a["energy_j"] * 1e12)))
            md.append("")
            continue
        rows = levels[run]
        s = summary[run]
        md.append("| level | tensor | reads/fills/updates, Timeloop | dse | per instance, Timeloop "
                  "| dse | utilized | pJ, Timeloop | dse | differs |")
        md.append("|---|---|---|---|---|---|---|---|---|---|")
        order = []
        for r in rows:
            if r["level"] not in order:
                order.append(r["level"])
        for lv in order:
            mine = [r for r in rows if r["level"] == lv]
            if mine[0]["kind"] == "arithmetic":
                r = mine[0]
                e = check(run, lv, "", "energy", float(r["energy_total_pJ"]),
                          tot["mac_energy_j"] * 1e12, False)
                e += check(run, lv, "", "macs", int(r["computes"]), tot["macs"], True)
                md.append("| %s | MACs | %s | %d | | | %s | %s | %s | %s |" %
                          (lv, r["computes"], tot["macs"], r["utilized_instances"],
                           pj(float(r["energy_total_pJ"])), pj(tot["mac_energy_j"] * 1e12), e))
                continue
            a = acc.get(lv)
            if a is None:
                fails.append("%s/%s %s: no such level in dse's accesses" % (case, variant, lv))
                continue
            for r in mine:
                t = TENSORS[r["dataspace"]]
                d = a[t]
                notes = []
                for fld in FIELDS:
                    notes.append(check(run, lv, t, fld, int(r[fld + "_total"]), d[fld], True))
                    notes.append(check(run, lv, t, fld + "_per_instance",
                                       int(r[fld + "_per_inst"]), d[fld + "_per_instance"], True))
                notes.append(check(run, lv, t, "utilized", int(r["utilized_instances"]),
                                   d["utilized_instances"], True))
                notes.append(check(run, lv, t, "energy", float(r["energy_total_pJ"]),
                                   d["energy_j"] * 1e12, False))
                md.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" %
                          (lv, t, "/".join(r[f + "_total"] for f in FIELDS),
                           "/".join(str(d[f]) for f in FIELDS),
                           "/".join(r[f + "_per_inst"] for f in FIELDS),
                           "/".join(str(d[f + "_per_instance"]) for f in FIELDS),
                           "%s/%d" % (r["utilized_instances"], d["utilized_instances"]),
                           pj(float(r["energy_total_pJ"])), pj(d["energy_j"] * 1e12),
                           "; ".join(n for n in notes if n)))
            want = sum(float(x["energy_total_pJ"]) for x in mine) + float(mine[0]["level_leakage_pJ"])
            e = check(run, lv, "", "energy", want, a["energy_j"] * 1e12, False)
            md.append("| %s | all + leakage | | | | | | %s | %s | %s |" %
                      (lv, pj(want), pj(a["energy_j"] * 1e12), e))
        e = check(run, "", "", "cycles", int(s["cycles"]), tot["cycles"], True)
        md.append("| cycles | | | | | | | %s | %d | %s |" % (s["cycles"], tot["cycles"], e))
        e = check(run, "", "", "energy", float(s["energy_total_pJ"]), tot["energy_j"] * 1e12, False)
        md.append("| total pJ | | | | | | | %s | %s | %s |\n" %
                  (pj(float(s["energy_total_pJ"])), pj(tot["energy_j"] * 1e12), e))
    if "--no-ert" in opts:
        fails += no_ert_table(dse, vdir, summary, opts["--no-ert"])
    for key in sorted(set(EXPECTED) - seen):
        fails.append("expected deviation not seen (fixed? remove it): %s" % (key,))
    for f in fails:
        print("FAIL:", f)
    if md_path:
        head = ("The largest energy difference over the %d runs with a reference: %.4f%% (%s).\n" %
                (len(RUNS) - len(BLIND), worst[0] * 100, worst[1]))
        with open(md_path, "w") as f:
            f.write(head + "\n" + "\n".join(md) + "\n")
    print("%d runs, %d failures" % (len(RUNS), len(fails)))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
