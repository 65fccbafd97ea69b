#!/bin/bash
# cli_mpi.sh: `mpirun -np 3 dse run SCRIPT` (docs/cluster.md) on loopback:
# rank 0 stores, ranks 1 and 2 simulate; the store, the CSV, the report and
# what is printed are those of a run on one core: a pruned level-2 grid,
# an NSGA-II search and a sweep whose points a Lua build function makes; a
# sweep killed on one machine and finished under mpirun ends as an
# uninterrupted one.  Skips (77) when dse was built without MPI.
. "$(dirname "$0")/lib.sh"

if [ "${DSE_HAVE_MPI:-0}" != 1 ] || ! command -v "${MPIEXEC:-mpirun}" >/dev/null 2>&1; then
  echo "skipped: dse built without MPI (apt-get install libopenmpi-dev openmpi-bin)"
  exit 77
fi
# Open MPI: as root in CI, more ranks than cores, shared memory only; its
# own allocations are not dse's to answer for under AddressSanitizer
MPI=("${MPIEXEC:-mpirun}" --allow-run-as-root --oversubscribe --mca btl self,vader -np 3)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"

cat >"$TMP/sweeps.lua" <<'LUA'
local db, out = ...
local dse = require "dse"
local wls = { "alexnet", "mobilenet_v2" }
local grid = dse.sweep { arch = "edge-npu", store = db, name = "grid", workloads = wls,
  objectives = { "latency_s", "energy_j" },
  space = { ["pe_array.rows"] = { 8, 16, 32, 64 }, ["pe_array.cols"] = { 8, 32 },
            ["buffers.2.size"] = { "256 KiB", "1 MiB", "2 MiB" } } }
local search = dse.sweep { arch = "edge-npu", store = db, name = "search", workloads = { "alexnet" },
  fidelity = "analytic", method = "nsga2", samples = 120, seed = 3, objectives = { "latency_s", "energy_j" },
  space = { ["pe_array.rows"] = dse.range(4, 128, { step = 4 }), ["pe_array.cols"] = dse.range(4, 128, { step = 4 }),
            ["buffers.2.size"] = dse.range("64 KiB", "4 MiB", { log = true, steps = 7 }) } }
local built = dse.sweep { arch = "edge-npu", store = db, name = "built", workloads = { "alexnet" },
  fidelity = "analytic", space = { pes = { 256, 1024, 4096 }, aspect = { 1, 4 } },
  build = function(p)
    local rows = math.floor(math.sqrt(p.pes / p.aspect))
    return dse.arch("edge-npu"):with { ["pe_array.rows"] = rows, ["pe_array.cols"] = p.pes // rows }
  end }
dse.write_csv(out .. "/grid.csv", grid)
dse.write_csv(out .. "/front.csv", dse.pareto(search))
print(string.format("%d grid results (%d pruned), %d searched, %d built, front of %d", #grid,
  #grid:filter { status = "pruned" }, #search, #built, #dse.pareto(search)))
LUA
mkdir -p "$TMP/one" "$TMP/three"
t0=$(date +%s%N)
run "$DSE" run -j 1 "$TMP/sweeps.lua" "$TMP/one/s.db" "$TMP/one"; expect_code 0 "one core"
half=$((($(date +%s%N) - t0) / 2000000)) # ms
one_out=$OUT
run "${MPI[@]}" "$DSE" run "$TMP/sweeps.lua" "$TMP/three/s.db" "$TMP/three"; expect_code 0 "three ranks"
[ "$OUT" = "$one_out" ] && ok || bad "three ranks print other lines than one core: '$OUT' / '$one_out'"
case "$OUT" in *"48 grid results ("*" pruned), "*" searched, 6 built, front of "*) ok ;;
  *) bad "three ranks: $OUT" ;; esac
for f in grid.csv front.csv; do
  cmp -s "$TMP/one/$f" "$TMP/three/$f" && ok || bad "three ranks: $f differs from one core's"
done
for sw in grid search built; do
  "$DSE" export "$TMP/one/s.db" --sweep "$sw" --format json >"$TMP/one.json"
  "$DSE" export "$TMP/three/s.db" --sweep "$sw" --format json >"$TMP/three.json"
  cmp -s "$TMP/one.json" "$TMP/three.json" && ok || bad "three ranks: the store's sweep '$sw' differs"
done
# the progress and the summary come once, from rank 0
[ "$(grep -c "dse.sweep: 24 design points x 2 workloads" <<<"$ERR")" = 1 ] && [ "$(grep -c "nsga2 generation 1:" <<<"$ERR")" = 1 ] && ok ||
  bad "three ranks: summaries: $ERR"

# resume on a cluster: a sweep killed on one machine, finished by mpirun
rm -f "$TMP/k.db"
timeout -s KILL "$(printf '%d.%03d' $((half / 1000)) $((half % 1000)))" "$DSE" run -j 1 --quiet \
  "$TMP/sweeps.lua" "$TMP/k.db" "$TMP/three" >/dev/null 2>&1
[ $? -eq 137 ] && ok || bad "resume: the run on one machine was not killed halfway"
run "${MPI[@]}" "$DSE" run "$TMP/sweeps.lua" "$TMP/k.db" "$TMP/three"; expect_code 0 "resumed under mpirun"
[ "$OUT" = "$one_out" ] && ok || bad "resumed under mpirun: $OUT"
"$DSE" export "$TMP/one/s.db" --sweep grid --format json >"$TMP/one.json"
"$DSE" export "$TMP/k.db" --sweep grid --format json >"$TMP/k.json"
cmp -s "$TMP/one.json" "$TMP/k.json" && ok || bad "resumed under mpirun: the grid differs"

# a sweep without a store (a temporary one in the working folder, gone
# after), and a failed sweep caught by the script, then a good one: the
# ranks follow rank 0 through both
cat >"$TMP/nostore.lua" <<'LUA'
local dse = require "dse"
local r = dse.sweep { arch = "edge-npu", workload = "alexnet", fidelity = "analytic", progress = false,
  grid = { ["pe_array.rows"] = { 8, 16, 32 } } }
local ok = pcall(dse.sweep, { arch = "tpu-v1", workload = "alexnet", progress = false, store = arg[1],
  mappings = arg[2] .. "/tests/data/mappings/bad_array.yaml", grid = { ["pe_array.rows"] = { 256, 512 } } })
local s = dse.sweep { arch = "edge-npu", workload = "alexnet", fidelity = "analytic", progress = false,
  store = arg[1], name = "after", grid = { ["pe_array.cols"] = { 8, 16, 32, 64 } } }
print(#r, ok, #s)
LUA
mkdir -p "$TMP/ns" && cd "$TMP/ns"
run "${MPI[@]}" "$DSE" run "$TMP/nostore.lua" "$TMP/ns.db" "$SRC"; expect_code 0 "ranks: no store, a failed sweep"
[ "$OUT" = "3	false	4" ] && ok || bad "ranks: no store, a failed sweep: '$OUT' $ERR"
[ -z "$(ls -A "$TMP/ns")" ] && ok || bad "ranks: a temporary store left: $(ls -A "$TMP/ns")"
cd - >/dev/null

# dse.rank: each rank knows which it is
printf 'local dse = require "dse"\nlocal r, n = dse.rank()\nlocal f = io.open(arg[1] .. "/rank-" .. r, "w")\nf:write(n)\nf:close()\n' \
  >"$TMP/rank.lua"
run "${MPI[@]}" "$DSE" run "$TMP/rank.lua" "$TMP"; expect_code 0 "dse.rank"
[ "$(cat "$TMP/rank-0" "$TMP/rank-1" "$TMP/rank-2" 2>/dev/null)" = "333" ] && ok || bad "dse.rank: each rank's number"

# a script's error is every rank's: mpirun ends with it, no rank hangs
printf 'local dse = require "dse"\ndse.sweep { arch = "edge-npu", workload = "alexnet", space = { ["pe_array.rowz"] = { 8 } } }\n' \
  >"$TMP/bad.lua"
run timeout 120 "${MPI[@]}" "$DSE" run "$TMP/bad.lua"
[ "$CODE" -ne 0 ] && [ "$CODE" -ne 124 ] && ok || bad "a bad script under mpirun: exit $CODE"
expect_err "unknown key 'rowz'; did you mean 'rows'?" "a bad script under mpirun: its message"

finish
