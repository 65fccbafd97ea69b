#!/bin/bash
# cli_report.sh: `dse report SOURCE -o DIR` (docs/report.md).  A small
# level-1 sweep into a store (layers kept) is reported: the directory holds
# index.html (the data inlined, nothing fetched from the network),
# summary.md and data.csv; the fronts, hypervolumes and knees it states are
# the ones `dse pareto` finds; the same results read from the store, from
# `dse export`'s CSV and from its JSON give the same data.csv; the report
# is the same bytes when made again.  Every bad input exits 2 with a line
# naming what is wrong, and writes nothing.  (The page itself is tested in
# a browser by tests/report/browser.sh.)
. "$(dirname "$0")/lib.sh"

cat >"$TMP/s.lua" <<'LUA'
local db = ...
local dse = require "dse"
dse.sweep {
  arch = "npu-hbm2e", fidelity = "analytic", store = db, layers = true, name = "small",
  workloads = { dse.workload("resnet50", { batch = 4 }), dse.workload("gpt2", { phase = "decode", seq = 256 }) },
  space = { ["pe_array.rows"] = { 32, 64, 128 }, ["pe_array.cols"] = { 32, 128 },
            ["buffers.2.size"] = { "4 MiB", "16 MiB" },
            ["dram"] = { { preset = "hbm3-6400", stacks = 1 }, { preset = "gddr6-16000", devices = 8 } } },
  objectives = { "latency_s", "energy_j", "area_mm2" },
}
LUA
run "$DSE" run "$TMP/s.lua" "$TMP/a.db"; expect_code 0 "the sweep"

run "$DSE" report "$TMP/a.db" -o "$TMP/rep"; expect_code 0 "report"
expect_out "wrote $TMP/rep/index.html (48 results, 48 simulated, 8 on 2 fronts, 8 designs' layers;" "report: what it wrote"
for f in index.html summary.md data.csv; do [ -s "$TMP/rep/$f" ] && ok || bad "report: no $f"; done
ls -A "$TMP" | grep -q '^\.rep\.' && bad "report: a temporary directory was left: $(ls -A "$TMP")" || ok
# data.csv: a line per result
[ "$(wc -l <"$TMP/rep/data.csv")" = 49 ] && ok || bad "data.csv: $(wc -l <"$TMP/rep/data.csv") lines, want 49"
# the page: self-contained (no address it would fetch), its data parses
grep -Eq '(src|href)="(https?:)?//' "$TMP/rep/index.html" && bad "index.html fetches from the network" || ok
python3 - "$TMP/rep/index.html" <<'PY' && ok || bad "index.html's data"
import json, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
m = re.search(r'<script type="application/json" id="dse-data">(.*?)</script>', t, re.S)
d = json.loads(m.group(1))
assert d["rows"]["n"] == 48 and d["counts"]["ok"] == 48, d["counts"]
assert [d["metrics"][o["metric"]]["name"] for o in d["objectives"]] == ["latency_s", "energy_j", "area_mm2"]
assert [p["name"] for p in d["params"]] == ["buffers.2.size", "memory", "pe_array.cols", "pe_array.rows"]
assert d["params"][1]["values"] == ["1 x hbm3-6400", "8 x gddr6-16000"], d["params"][1]
assert d["params"][0]["num"] == [4194304, 16777216]
assert [w["title"] for w in d["workloads"]] == ["resnet50 (batch 4)", "gpt2 (decode, seq 256, batch 1)"]
# the knee's layers: resnet50 has 122 layers, gpt2 at seq 256 146
assert [l["designs"][0]["n"] for l in d["layers"]] == [122, 146], [l["designs"][0]["n"] for l in d["layers"]]
for w in d["workloads"]:  # the knee is on its front, at the knee's compute with its own memory
    k = w["knee"]
    assert d["rows"]["front"][k] == 1 and k in w["front_rows"] and k in w["compare"]
PY
# the figures are dse pareto's: hypervolume, reference point and front size per workload
run "$DSE" pareto "$TMP/a.db" --stats --format csv; expect_code 0 "pareto --stats"
echo "$OUT" | tail -n +2 | sort >"$TMP/stats"
python3 - "$TMP/rep/summary.md" "$TMP/stats" <<'PY' && ok || bad "summary.md's fronts are not dse pareto's"
import re, sys
md = open(sys.argv[1]).read()
got = {}
for title, front, hv, ref in re.findall(r"^## (\S+) .*?\n\n\d+ results, \d+ simulated, \d+ within the budgets; (\d+) on the front \(\d+ ranks\)\.  Hypervolume (\S+) \(exact\), reference point \(([^)]*)\)", md, re.M | re.S):
    got[title] = (int(front), float(hv), [float(x) for x in ref.split(", ")])
assert len(got) == 2, got
for line in open(sys.argv[2]):
    f = line.strip().split(",")
    front, hv, ref = int(f[5]), float(f[6]), [float(x) for x in f[9:]]
    g = got[f[0]]
    assert g[0] == front and abs(g[1] - hv) <= 1e-5 * hv, (g, front, hv)
    assert all(abs(a - b) <= 1e-5 * abs(b) for a, b in zip(g[2], ref)), (g[2], ref)
PY
# the knees are dse pareto --knee's
run "$DSE" pareto "$TMP/a.db" --knee --format csv; expect_code 0 "pareto --knee"
python3 - "$TMP/rep/data.csv" "$TMP/out" <<'PY' && ok || bad "data.csv's knees are not dse pareto --knee's"
import csv, sys
mine = [(r["workload"], r["pe_array.rows"], r["pe_array.cols"], r["buffers.2.size"], r["memory"])
        for r in csv.DictReader(open(sys.argv[1])) if r["knee"] == "true"]
theirs = []
for r in csv.DictReader(open(sys.argv[2])):
    mem = r["dram.stacks"] + " x " + r["dram.preset"] if r["dram.stacks"] else r["dram.devices"] + " x " + r["dram.preset"]
    theirs.append((r["workload"], r["pe_array.rows"], r["pe_array.cols"], r["buffers.2.size"], mem))
assert sorted(mine) == sorted(theirs), (mine, theirs)
PY
# the same report again: the same bytes; the earlier report replaced
cp -r "$TMP/rep" "$TMP/rep1"
run "$DSE" report "$TMP/a.db" -o "$TMP/rep"; expect_code 0 "report again"
for f in index.html summary.md data.csv; do cmp -s "$TMP/rep/$f" "$TMP/rep1/$f" && ok || bad "report again: $f differs"; done
# from dse export's CSV and JSON: the same results (the objectives given)
run "$DSE" export "$TMP/a.db" -o "$TMP/a.csv"; expect_code 0 "export csv"
run "$DSE" export "$TMP/a.db" --format json -o "$TMP/a.json"; expect_code 0 "export json"
for src in a.csv a.json; do
  run "$DSE" report "$TMP/$src" -o "$TMP/rep-$src" --objectives latency_s,energy_j,area_mm2; expect_code 0 "report $src"
  cmp -s "$TMP/rep-$src/data.csv" "$TMP/rep/data.csv" && ok || bad "report $src: data.csv differs from the store's"
done
# --layers 0: the knee's layers only, one design a workload
run "$DSE" report "$TMP/a.db" -o "$TMP/rep-k" --layers 0; expect_code 0 "--layers 0"
expect_out "8 on 2 fronts, 2 designs' layers;" "--layers 0"
# budgets and a maximized objective
run "$DSE" report "$TMP/a.db" -o "$TMP/rep-b" --objectives energy_j,-throughput_inf_per_s --constraints 'area_mm2<=60'
expect_code 0 "report with a budget"
python3 - "$TMP/rep-b/data.csv" <<'PY' && ok || bad "a budget: a result over it is on a front"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert any(float(r["area_mm2"]) > 60 for r in rows)
assert all(float(r["area_mm2"]) <= 60 for r in rows if r["on_front"] == "true")
assert all(r["rank"] == "" for r in rows if float(r["area_mm2"]) > 60)
PY

# budgets that leave no front: a warning a workload, the page says so
run "$DSE" report "$TMP/a.db" -o "$TMP/rep-none" --constraints 'cost_usd<=1'; expect_code 0 "no front"
expect_err "dse: warning: $TMP/a.db: resnet50 (batch 4): none of its 24 simulated results is within the budgets: no front" "no front: warned"
grep -q '^> \*\*Warning:\*\* gpt2 (decode, seq 256, batch 1): none of its 24 simulated results is within the budgets: no front.$' \
  "$TMP/rep-none/summary.md" && ok || bad "no front: summary.md lacks the warning"
grep -q '^24 results, 24 simulated, 0 within the budgets; no front.$' "$TMP/rep-none/summary.md" && ok || bad "no front: summary.md"
# the space's key for the memory is the memory's colour
run "$DSE" report "$TMP/a.db" -o "$TMP/rep-c" --color dram; expect_code 0 "--color dram"
grep -q '"color":1,' "$TMP/rep-c/index.html" && ok || bad "--color dram: not the memory"

# bad input: exit 2, a line naming the problem, nothing written
bad_case() { # bad_case DESCRIPTION WANT ARGS...: exit 2, stderr has WANT, no $TMP/out-dir
  local what=$1 want=$2
  shift 2
  run "$DSE" report "$@"; expect_code 2 "$what"
  expect_err "$want" "$what"
  expect_no_file "$TMP/out-dir" "$what"
  ls -A "$TMP" | grep -q '^\.out-dir\.' && bad "$what: a temporary directory was left" || ok
}
bad_case "missing source" "$TMP/missing.db: error: no such file" "$TMP/missing.db" -o "$TMP/out-dir"
mkdir "$TMP/adir"
bad_case "a directory as the source" "$TMP/adir: error: is a directory, not a file" "$TMP/adir" -o "$TMP/out-dir"
printf 'hello, world\n1, 2\n' >"$TMP/text.txt"
bad_case "a text file" "$TMP/text.txt:1:1: error: not a dse store, CSV or JSON of results" "$TMP/text.txt" -o "$TMP/out-dir"
head -c 4096 /dev/urandom >"$TMP/random.bin"; printf '\0' >>"$TMP/random.bin"
bad_case "random bytes" "error: not a dse store, CSV or JSON of results" "$TMP/random.bin" -o "$TMP/out-dir"
printf '{"results": []}\n' >"$TMP/obj.json"
bad_case "a JSON object" "not a dse store, CSV or JSON of results: a JSON file dse writes is an array of results" "$TMP/obj.json" -o "$TMP/out-dir"
printf '[]\n' >"$TMP/empty.json"
bad_case "an empty JSON array" "$TMP/empty.json: error: no results to report" "$TMP/empty.json" -o "$TMP/out-dir"
head -c 300 "$TMP/a.json" >"$TMP/cut.json"
bad_case "a truncated JSON file" "$TMP/cut.json:" "$TMP/cut.json" -o "$TMP/out-dir"
: >"$TMP/empty.csv"
bad_case "an empty file" "$TMP/empty.csv: error: an empty file: no results" "$TMP/empty.csv" -o "$TMP/out-dir"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("create table t(x)"); c.commit()' "$TMP/other.db"
bad_case "an SQLite file not a store" "$TMP/other.db: error: not a dse store" "$TMP/other.db" -o "$TMP/out-dir"
cp "$TMP/a.db" "$TMP/newer.db"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("update dse_meta set value = 99 where key = ?", ("schema",)); c.commit()' "$TMP/newer.db"
bad_case "a newer store" "$TMP/newer.db: error:" "$TMP/newer.db" -o "$TMP/out-dir"
expect_err "newer" "a newer store: says so"
cp "$TMP/a.db" "$TMP/emptied.db"
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("delete from results"); c.commit()' "$TMP/emptied.db"
bad_case "an empty sweep" "$TMP/emptied.db: error: no results to report (sweep 'small' is empty)" "$TMP/emptied.db" -o "$TMP/out-dir"
bad_case "no such sweep" "$TMP/a.db: error: no sweep named 'nope' (the store holds 'small')" "$TMP/a.db" --sweep nope -o "$TMP/out-dir"
bad_case "--sweep of a file" "error: a sweep name picks a sweep of a store; this is a file of results" "$TMP/a.csv" --sweep small -o "$TMP/out-dir"
bad_case "an unknown objective" "error: objective 'latncy_s' is not a total field; did you mean 'latency_s'?" "$TMP/a.db" --objectives latncy_s,energy_j -o "$TMP/out-dir"
bad_case "an objective without data" "error: objective 'dram_row_hit_rate': the results have no values of it (they have macs, ops," "$TMP/a.db" --objectives latency_s,dram_row_hit_rate -o "$TMP/out-dir"
bad_case "an unknown colour" "error: colour parameter 'mem': the sweep has no such parameter (it has buffers.2.size, memory, pe_array.cols, pe_array.rows)" "$TMP/a.db" --color mem -o "$TMP/out-dir"
bad_case "a bad budget" "--constraints: expected a comparison" "$TMP/a.db" --constraints 'area_mm2 400' -o "$TMP/out-dir"
bad_case "no -o" "expected -o DIR" "$TMP/a.db"
bad_case "a bad --layers" "--layers: expected a number from 0 to 10000" "$TMP/a.db" --layers -1 -o "$TMP/out-dir"
: >"$TMP/afile"
run "$DSE" report "$TMP/a.db" -o "$TMP/afile"; expect_code 2 "-o a file"
expect_err "$TMP/afile: error: exists and is not a directory" "-o a file"
[ -f "$TMP/afile" ] && [ ! -s "$TMP/afile" ] && ok || bad "-o a file: the file changed"
run "$DSE" report "$TMP/a.db" -o "$TMP/afile/rep"; expect_code 2 "-o under a file"
expect_err "$TMP/afile/rep: error: cannot create the directory '$TMP/afile'" "-o under a file"
cp -r "$TMP/rep1" "$TMP/rep-old" && mkdir -p "$TMP/rep-old/charts/drafts" && echo "my chart" >"$TMP/rep-old/charts/drafts/fig.tex"
run "$DSE" report "$TMP/a.db" -o "$TMP/rep-old"; expect_code 2 "-o a report with other files in charts/"
expect_err "$TMP/rep-old: error: holds 'charts/drafts', which a report does not write" "-o a report with other files in charts/"
[ "$(cat "$TMP/rep-old/charts/drafts/fig.tex")" = "my chart" ] && ok || bad "-o a report with other files in charts/: they changed"
ln -s "$TMP/rep1" "$TMP/link"
run "$DSE" report "$TMP/a.db" -o "$TMP/link"; expect_code 2 "-o a symbolic link"
expect_err "$TMP/link: error: is a symbolic link: name the directory itself" "-o a symbolic link"
printf 'name: "x"\nrows: 4\n' >"$TMP/arch.yaml"
bad_case "a YAML file" "$TMP/arch.yaml:1:1: error: not a dse store, CSV or JSON of results" "$TMP/arch.yaml" -o "$TMP/out-dir"
mkdir "$TMP/mine"; echo "my notes" >"$TMP/mine/notes.txt"
run "$DSE" report "$TMP/a.db" -o "$TMP/mine"; expect_code 2 "-o a directory of other files"
expect_err "$TMP/mine: error: holds 'notes.txt', which a report does not write: a report replaces only an earlier report; name another directory" "-o a directory of other files"
[ "$(ls -A "$TMP/mine")" = notes.txt ] && [ "$(cat "$TMP/mine/notes.txt")" = "my notes" ] && ok || bad "-o a directory of other files: it changed"
ls -A "$TMP" | grep -q '^\.mine\.' && bad "-o a directory of other files: a temporary directory was left" || ok
finish
