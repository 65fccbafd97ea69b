#!/bin/bash
# cli_store.sh: a sweep with a store (docs/store.md) killed with SIGKILL at
# 20 random moments (within the time an uninterrupted run took) and resumed
# each time ends with the very results of an uninterrupted run, every
# result stored once; a run after that reads all of them back.  Ctrl-C
# halfway keeps every finished result.  dse export writes the stored sweep
# as dse.write_csv did, dse pareto its fronts as dse.pareto found them.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/sweep.lua" <<'LUA'
local db, csv = ...
local dse = require "dse"
local r = dse.sweep {
  arch = "edge-npu", fidelity = "analytic", store = db,
  workloads = { "alexnet", "resnet50", "mobilenet_v2", dse.workload("gpt2", { phase = "decode", seq = 512 }) },
  grid = { ["pe_array.rows"] = { 8, 16, 32, 64, 128 }, ["pe_array.cols"] = { 8, 16, 32, 64, 128 },
           ["buffers.2.size"] = { "128 KiB", "256 KiB", "512 KiB", "1 MiB", "2 MiB", "4 MiB", "8 MiB", "16 MiB" },
           ["dram.capacity"] = { "8 GiB", "12 GiB", "16 GiB", "20 GiB", "24 GiB", "28 GiB", "32 GiB", "40 GiB",
                                 "48 GiB", "64 GiB" } },
}
dse.write_csv(csv, r)
LUA
t0=$(date +%s%N)
run "$DSE" run "$TMP/sweep.lua" "$TMP/a.db" "$TMP/a.csv"; expect_code 0 "uninterrupted"
took=$((($(date +%s%N) - t0) / 1000000)) # ms: the kills fall within such a run
expect_err "dse.sweep: 2000 design points x 4 workloads = 8000 results in" "uninterrupted summary"
RANDOM=13
killed=0
# 5 kills under a sanitizer (DSE_SANITIZED): cli_store_crash kills 20 there
nk=20
[ "${DSE_SANITIZED:-0}" = 1 ] && nk=5
for i in $(seq $nk); do
  ms=$((took * (2 + RANDOM % 96) / 100))
  timeout -s KILL "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))" "$DSE" run --quiet "$TMP/sweep.lua" "$TMP/b.db" "$TMP/b.csv" \
    >/dev/null 2>&1
  [ $? -eq 137 ] && killed=$((killed + 1))
done
echo "killed $killed of $nk runs"
least=$((nk * 3 / 20)) # (the first run, into a new store, is always killed)
[ "$killed" -ge $((least > 0 ? least : 1)) ] && ok || bad "only $killed of $nk runs were killed"
rm -f "$TMP/b.csv"
run "$DSE" run "$TMP/sweep.lua" "$TMP/b.db" "$TMP/b.csv"; expect_code 0 "resumed"
expect_err "from the store" "resumed: results read back"
cmp -s "$TMP/a.csv" "$TMP/b.csv" && ok || bad "resumed results differ from the uninterrupted run's"
run "$DSE" run "$TMP/sweep.lua" "$TMP/b.db" "$TMP/c.csv"; expect_code 0 "again"
expect_err "= 8000 results in" "again: 8000 results"
expect_err "8000 from the store" "again: every one from the store"
cmp -s "$TMP/a.csv" "$TMP/c.csv" && ok || bad "results read back differ"

# dse export: the stored sweep as dse.write_csv wrote it, and as JSON
run "$DSE" export "$TMP/b.db"; expect_code 0 "export"
[ "$OUT" = "$(cat "$TMP/a.csv")" ] && ok || bad "export: not the CSV dse.write_csv wrote"
run "$DSE" export "$TMP/b.db" --format json -o "$TMP/b.json"; expect_code 0 "export json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert len(d) == 8000, len(d); \
  assert d[3]["point"] == {"buffers.2.size": "128 KiB", "dram.capacity": "8 GiB", "pe_array.cols": 8, "pe_array.rows": 8}, d[3]["point"]; \
  assert d[3]["workload"]["name"] == "gpt2" and d[3]["feasible"] and d[4]["point"]["pe_array.rows"] == 16' "$TMP/b.json" && ok || bad "export json"
# its errors: exit 2, a line that names the file
cp "$TMP/a.csv" "$TMP/not.db"
for case in "missing.db|no such file" "not.db|not a dse store: not an SQLite database (file is not a database)"; do
  run "$DSE" export "$TMP/${case%%|*}"; expect_code 2 "export ${case%%|*}"
  [ "$ERR" = "$TMP/${case%%|*}: error: ${case#*|}" ] && ok || bad "export ${case%%|*}: $ERR"
done
cmp -s "$TMP/a.csv" "$TMP/not.db" && ok || bad "export: the refused file changed"
cat >"$TMP/two.lua" <<'LUA'
local dse = require "dse"
for _, n in ipairs { "first", "second" } do
  dse.sweep { arch = "tpu-v1", workload = "alexnet", fidelity = "analytic", store = ..., name = n }
end
LUA
run "$DSE" run --quiet "$TMP/two.lua" "$TMP/two.db"; expect_code 0 "two sweeps"
run "$DSE" export "$TMP/two.db"; expect_code 2 "export of two sweeps"
[ "$ERR" = "$TMP/two.db: error: the store holds 2 sweeps ('first', 'second'): name one with --sweep" ] &&
  ok || bad "export of two sweeps: $ERR"
run "$DSE" export "$TMP/two.db" --sweep third; expect_code 2 "export --sweep third"
[ "$ERR" = "$TMP/two.db: error: no sweep named 'third' (the store holds 'first', 'second')" ] &&
  ok || bad "export --sweep third: $ERR"
run "$DSE" export "$TMP/two.db" --sweep second; expect_code 0 "export --sweep second"
[ "$(printf '%s\n' "$OUT" | wc -l)" -eq 2 ] && ok || bad "export --sweep second: $OUT"
# one workload at two batches: a batch column, in the export as in write_csv
cat >"$TMP/batch.lua" <<'LUA'
local dse = require "dse"
local db, out = ...
dse.write_csv(out, dse.sweep { arch = "tpu-v1", fidelity = "analytic", store = db,
  workloads = { "alexnet", dse.workload("alexnet", { batch = 8 }) } })
LUA
run "$DSE" run --quiet "$TMP/batch.lua" "$TMP/batch.db" "$TMP/batch.csv"; expect_code 0 "batch sweep"
run "$DSE" export "$TMP/batch.db"; expect_code 0 "export batches"
[ "$OUT" = "$(cat "$TMP/batch.csv")" ] && ok || bad "export batches: not write_csv's"
case "$OUT" in "arch,workload,batch,feasible,"*) ok ;; *) bad "export batches: $(printf '%s' "$OUT" | head -c 60)" ;; esac
# a reader who cannot write the store's folder (WAL's -shm goes there):
# read as an immutable file, nothing left beside it (as root, with setpriv,
# when this tree is open to others)
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$DSE" 2>/dev/null &&
   setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$TMP/batch.db" 2>/dev/null; then
  chmod 755 "$TMP"
  out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$DSE" export "$TMP/batch.db")
  [ "$out" = "$(cat "$TMP/batch.csv")" ] && ok || bad "export by a reader who cannot write"
  ls "$TMP"/batch.db-* >/dev/null 2>&1 && bad "export by a reader: files left" || ok
else
  echo "skipped: the reader without write access (not root, or no setpriv, or this tree is private)"
fi

# two sweeps of one script under the default name: "NAME" and "NAME-2",
# each resumed on its own
cat >"$TMP/both.lua" <<'LUA'
local dse = require "dse"
for _, rows in ipairs { { 8, 16 }, { 32 } } do
  dse.sweep { arch = "tpu-v1", workload = "alexnet", fidelity = "analytic", store = ...,
              grid = { ["pe_array.rows"] = rows } }
end
LUA
run "$DSE" run "$TMP/both.lua" "$TMP/both.db"; expect_code 0 "two default names"
run "$DSE" run "$TMP/both.lua" "$TMP/both.db"; expect_code 0 "two default names again"
[ "$(printf '%s\n' "$ERR" | grep -c 'from the store')" -eq 2 ] && ok || bad "two default names: $ERR"
run "$DSE" export "$TMP/both.db" --sweep both-2; expect_code 0 "export both-2"
[ "$(printf '%s\n' "$OUT" | wc -l)" -eq 2 ] && ok || bad "export both-2: $OUT"
# a sweep stopped before its end: export says so on stderr
run "$DSE" pareto "$TMP/f.db" --objectives latency_s,,energy_j; expect_code 2 "pareto empty objective"
expect_err "--objectives: an empty name in 'latency_s,,energy_j'" "pareto empty objective"
run "$DSE" export "$TMP/two.db" --format xml; expect_code 2 "export --format xml"
expect_err "unknown format 'xml'; expected csv or json" "export --format xml"

# dse pareto: the front dse.pareto finds (a front per workload), as dse
# export writes rows; --by all: one front; its errors
cat >"$TMP/front.lua" <<'LUA'
local dse = require "dse"
local db, out = ...
local r = dse.sweep { arch = "edge-npu", workloads = { "alexnet", "resnet50" }, fidelity = "analytic",
  store = db, grid = { ["pe_array.rows"] = { 8, 16, 32, 64 }, ["pe_array.cols"] = { 8, 16, 32, 64 },
                       ["buffers.2.size"] = { "256 KiB", "1 MiB", "4 MiB" } } }
dse.write_csv(out, dse.pareto(r, { "latency_s", "energy_j", "-tops_per_w" }))
dse.write_csv(out .. ".one", dse.pareto(r, { "latency_s", "energy_j" }, { by = false }))
-- budgets: the front of the rows within them
local within = {}
for _, x in ipairs(r) do
  if x.total and x.total.area_mm2 <= 10 and x.total.power_w < 0.8 then within[#within + 1] = x end
end
local bf = dse.pareto(r, { "latency_s", "energy_j" }, { constraints = { area_mm2 = "<= 10", power_w = "< 0.8 W" } })
dse.write_csv(out .. ".budget", bf)
local over = 0 -- (the budgets leave out rows of the front without them)
for _, x in ipairs(dse.pareto(r, { "latency_s", "energy_j" })) do
  if not (x.total.area_mm2 <= 10 and x.total.power_w < 0.8) then over = over + 1 end
end
assert(#bf > 0 and over > 0, "a budget cuts the front: " .. #bf .. ", " .. over)
local want = dse.pareto(within, { "latency_s", "energy_j" })
assert(#bf == #want, #bf .. " vs " .. #want)
local function id(x) return string.format("%s %.17g %.17g", x.workload.name, x.total.latency_s, x.total.energy_j) end
for i = 1, #bf do assert(id(bf[i]) == id(want[i]), "row " .. i .. ": " .. id(bf[i]) .. " vs " .. id(want[i])) end
LUA
run "$DSE" run --quiet "$TMP/front.lua" "$TMP/f.db" "$TMP/f.csv"; expect_code 0 "front sweep"
run "$DSE" pareto "$TMP/f.db" --objectives latency_s,energy_j,-tops_per_w; expect_code 0 "pareto"
[ "$OUT" = "$(cat "$TMP/f.csv")" ] && ok || bad "pareto: not dse.pareto's front"
[ "$(printf '%s\n' "$OUT" | wc -l)" -gt 3 ] && ok || bad "pareto: a front of $(printf '%s\n' "$OUT" | wc -l) lines"
run "$DSE" pareto "$TMP/f.db" --objectives latency_s,energy_j --by all; expect_code 0 "pareto --by all"
[ "$OUT" = "$(cat "$TMP/f.csv.one")" ] && ok || bad "pareto --by all: not dse.pareto's by = false front"
run "$DSE" pareto "$TMP/f.db" --objectives latency_s,energy_j --constraints 'area_mm2<=10, power_w<0.8 W'
expect_code 0 "pareto --constraints"
[ "$OUT" = "$(cat "$TMP/f.csv.budget")" ] && ok || bad "pareto --constraints: not dse.pareto's budgeted front"
# --stats: each front's figures (dse.analysis's); --knee: a row a front
run "$DSE" pareto "$TMP/f.db" --objectives latency_s,energy_j,-tops_per_w --stats; expect_code 0 "pareto --stats"
[ "$(printf '%s\n' "$OUT" | head -1)" = "workload,batch,phase,seq,results,front,hypervolume,hypervolume_error,hypervolume_exact,reference.latency_s,reference.energy_j,reference.tops_per_w" ] \
  && ok || bad "pareto --stats: header: $(printf '%s\n' "$OUT" | head -1)"
fronts=$(printf '%s\n' "$OUT" | awk -F, 'NR > 1 { s += $6 } END { print s }')
[ "$fronts" -eq $(($(wc -l <"$TMP/f.csv") - 1)) ] && ok || bad "pareto --stats: fronts of $fronts rows, not the front's"
printf '%s\n' "$OUT" | grep -q '^alexnet,1,,,48,[0-9]*,[0-9.e+-]*,0,true,' && ok || bad "pareto --stats: alexnet's line: $OUT"
run "$DSE" pareto "$TMP/f.db" --objectives latency_s,energy_j --knee; expect_code 0 "pareto --knee"
[ "$(printf '%s\n' "$OUT" | wc -l)" -eq 3 ] && ok || bad "pareto --knee: a row a workload: $OUT"
run "$DSE" pareto "$TMP/f.db" --objectives latency_s --knee --stats; expect_code 2 "pareto --knee --stats"
expect_err "dse: error: --knee and --stats: one of the two" "pareto --knee --stats"
run "$DSE" pareto "$TMP/f.db" --objectives latency_s --constraints 'area<=4'; expect_code 2 "pareto --constraints area"
expect_err "dse: error: --constraints: 'area' is not a total field; did you mean 'area_mm2'?" "pareto --constraints area"
run "$DSE" pareto "$TMP/f.db" --objectives latency_s --constraints 'area_mm2<=4 ms'; expect_code 2 "pareto --constraints ms"
expect_err 'dse: error: --constraints: "<=4 ms" is a time, but area_mm2 is an area' "pareto --constraints ms"
run "$DSE" pareto "$TMP/f.db" --objectives latency_s,energy_jj; expect_code 2 "pareto energy_jj"
expect_err "dse: error: --objectives: 'energy_jj' is not a total field; did you mean 'energy_j'?" "pareto energy_jj"
run "$DSE" pareto "$TMP/f.db"; expect_code 2 "pareto without objectives"
expect_err "keeps no objectives (it ran without them, or with an older dse); give --objectives" \
  "pareto without objectives"

# Ctrl-C (SIGINT) halfway: exit 130, every finished result kept
rm -f "$TMP/d.db" "$TMP/d.csv"
"$DSE" run --quiet "$TMP/sweep.lua" "$TMP/d.db" "$TMP/d.csv" >/dev/null 2>"$TMP/int.err" &
pid=$!
sleep "$(printf '%d.%03d' $((took / 2000)) $((took / 2 % 1000)))"
kill -INT "$pid"
for _ in $(seq 600); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
wait "$pid"
CODE=$?
echo "SIGINT: exit $CODE"
if [ "$CODE" -eq 130 ]; then
  grep -q 'interrupted!' "$TMP/int.err" && ok || bad "SIGINT: message: $(head -1 "$TMP/int.err")"
  run "$DSE" export "$TMP/d.db"; expect_code 0 "export after SIGINT"
  # (the signal may come after the sweep, while the CSV is written: then
  # the sweep is whole and finished)
  if case "$ERR" in *"has not finished"*) true ;; *) false ;; esac; then
    expect_err "dse: warning: $TMP/d.db: sweep 'sweep' has not finished" "export of an unfinished sweep"
  fi
  run "$DSE" run "$TMP/sweep.lua" "$TMP/d.db" "$TMP/d.csv"; expect_code 0 "after SIGINT"
  expect_err "from the store" "after SIGINT: results kept"
  cmp -s "$TMP/a.csv" "$TMP/d.csv" && ok || bad "after SIGINT: results differ"
else
  # the sweep ended before the signal came (a fast machine): it is whole
  [ "$CODE" -eq 0 ] && cmp -s "$TMP/a.csv" "$TMP/d.csv" && ok || bad "SIGINT: exit $CODE"
fi

# workers (-j 2): a worker killed mid-sweep costs the point it was on (stored
# as failed, with why) and the sweep goes on; run again, the failed points
# run and the store is what an uninterrupted run leaves.  (The kill may
# land while the worker waits between points: then nothing fails.)
cat >"$TMP/slow.lua" <<'LUA'
local db = ...
local dse = require "dse"
dse.sweep { arch = "edge-npu", store = db, workloads = { "resnet50", "mobilenet_v2" },
  grid = { ["pe_array.rows"] = { 8, 16, 32, 64, 128 }, ["pe_array.cols"] = { 8, 16, 32, 64 },
           ["buffers.2.size"] = { "256 KiB", "512 KiB", "1 MiB", "2 MiB", "4 MiB", "8 MiB" } } }
LUA
rm -f "$TMP/w.db" "$TMP/v.db"
run "$DSE" run -j 1 "$TMP/slow.lua" "$TMP/v.db"; expect_code 0 "workers: a run with one"
"$DSE" run -j 2 "$TMP/slow.lua" "$TMP/w.db" >/dev/null 2>"$TMP/w.err" &
pid=$!
victim=""
for _ in $(seq 200); do
  victim=$(pgrep -P "$pid" | head -1)
  [ -n "$victim" ] && break
  sleep 0.01
done
sleep 0.3
[ -n "$victim" ] && kill -KILL "$victim" 2>/dev/null
wait "$pid"
CODE=$?
[ "$CODE" -eq 0 ] && ok || bad "workers: a killed worker stops the sweep (exit $CODE): $(cat "$TMP/w.err")"
grep -q "= 240 results in" "$TMP/w.err" && ok || bad "workers: summary: $(cat "$TMP/w.err")"
query() { python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$@"; }
failed=$(query "$TMP/w.db" "SELECT count(*) FROM results WHERE status = 'failed';" 2>/dev/null || echo "?")
echo "workers: $failed results failed with the killed worker"
case "$failed" in
  0) ok ;;
  1 | 2) grep -q ", $failed failed" "$TMP/w.err" && ok || bad "workers: summary lacks '$failed failed': $(cat "$TMP/w.err")"
     why=$(query "$TMP/w.db" "SELECT reason FROM results WHERE status = 'failed' LIMIT 1;")
     case "$why" in *"was killed by signal 9"*) ok ;; *) bad "workers: failed reason: $why" ;; esac ;;
  *) bad "workers: $failed results failed (one point has 2)" ;;
esac
run "$DSE" run -j 2 "$TMP/slow.lua" "$TMP/w.db"; expect_code 0 "workers: again"
"$DSE" export "$TMP/v.db" >"$TMP/v.csv"
"$DSE" export "$TMP/w.db" >"$TMP/w.csv"
cmp -s "$TMP/v.csv" "$TMP/w.csv" && ok || bad "workers: after the failed points ran again, the store differs from -j 1's"
run "$DSE" run -j 0 "$TMP/slow.lua" "$TMP/w.db"; expect_code 2 "-j 0"
expect_err "dse: error: -j: expected a number of workers from 1 to 64, got '0'" "-j 0"

# a pruned level-2 sweep (docs/lua.md, "prune") killed at 10 random moments
# with two workers and resumed ends as one uninterrupted run with one
# worker: the same results, the same results pruned for the same reasons;
# run again, every result (pruned ones too) comes from the store
cat >"$TMP/pruned.lua" <<'LUA'
local db = ...
local dse = require "dse"
dse.sweep { arch = "edge-npu", store = db, workloads = { "alexnet", "mobilenet_v2" },
  objectives = { "latency_s", "energy_j" },
  space = { ["pe_array.rows"] = { 8, 16, 32, 64 }, ["pe_array.cols"] = { 8, 16, 32 },
            ["buffers.2.size"] = { "256 KiB", "512 KiB", "1 MiB", "2 MiB" } } }
LUA
rm -f "$TMP/p1.db" "$TMP/p2.db" "$TMP/p3.db"
run "$DSE" run -j 1 "$TMP/pruned.lua" "$TMP/p1.db"; expect_code 0 "pruned: uninterrupted"
expect_err " pruned by their level-1 floors" "pruned: the summary counts them"
t0=$(date +%s%N)
"$DSE" run -j 2 --quiet "$TMP/pruned.lua" "$TMP/p3.db" >/dev/null 2>&1
took=$((($(date +%s%N) - t0) / 1000000)) # ms: the kills fall within the first half of such a run
killed=0
for i in $(seq 10); do
  ms=$((took * (5 + RANDOM % 45) / 100))
  timeout -s KILL "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))" "$DSE" run -j 2 --quiet "$TMP/pruned.lua" \
    "$TMP/p2.db" >/dev/null 2>&1
  [ $? -eq 137 ] && killed=$((killed + 1))
done
echo "pruned: killed $killed of 10 runs"
[ "$killed" -ge 2 ] && ok || bad "pruned: only $killed of 10 runs were killed"
run "$DSE" run -j 2 "$TMP/pruned.lua" "$TMP/p2.db"; expect_code 0 "pruned: resumed"
"$DSE" export "$TMP/p1.db" --format json >"$TMP/p1.json"
"$DSE" export "$TMP/p2.db" --format json >"$TMP/p2.json"
cmp -s "$TMP/p1.json" "$TMP/p2.json" && ok || bad "pruned: the resumed store differs from the uninterrupted one's"
grep -q '"status": "pruned"' "$TMP/p1.json" && grep -q '"floor": {' "$TMP/p1.json" && ok ||
  bad "pruned: no pruned rows with their floors in the export"
run "$DSE" run -j 2 "$TMP/pruned.lua" "$TMP/p2.db"; expect_code 0 "pruned: again"
expect_err "= 96 results in" "pruned: again, 96 results"
expect_err "96 from the store" "pruned: again, every one from the store"
# a sweep with objectives keeps them: dse pareto without --objectives uses them
run "$DSE" pareto "$TMP/p1.db"; expect_code 0 "pareto with the sweep's objectives"
[ "$OUT" = "$("$DSE" pareto "$TMP/p1.db" --objectives latency_s,energy_j)" ] && ok ||
  bad "pareto: the sweep's objectives are not latency_s,energy_j's front"

finish
