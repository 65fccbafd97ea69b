-- test_sweep.lua: grid order, point bookkeeping, Pareto properties,
-- determinism, and the default main job (scripts/sweep.lua).
package.path = "./?.lua;" .. package.path
local H = require "harness"
local dse = require "dse"

local res = dse.sweep {
  arch = "edge-npu",
  workloads = { "alexnet", dse.workload("mobilenet_v2", { batch = 2 }) },
  grid = { ["pe_array.rows"] = { 16, 32 }, ["pe_array.cols"] = { 8, 16, 32 } },
}
H.eq(#res, 12, "2 x 3 archs x 2 workloads")
-- keys in alphabetical order, the last one fastest; workloads innermost
H.eq(res[1].point["pe_array.cols"], 8, "p1 cols")
H.eq(res[1].point["pe_array.rows"], 16, "p1 rows")
H.eq(res[1].workload.name, "alexnet", "p1 workload")
H.eq(res[2].workload.name, "mobilenet_v2", "p2 workload")
H.eq(res[2].workload.batch, 2, "p2 batch")
H.eq(res[3].point["pe_array.rows"], 32, "p3 rows")
H.eq(res[3].arch.pe_rows, 32, "p3 arch rows")
H.eq(res[12].arch.pe_cols, 32, "p12 cols")
for _, r in ipairs(res) do
  H.eq(r.arch.pe_rows, r.point["pe_array.rows"], "point matches arch rows")
  H.eq(r.arch.pe_cols, r.point["pe_array.cols"], "point matches arch cols")
end
-- more PEs never slow a compute-heavy CNN down in this model
H.check(res[11].total.latency_s <= res[1].total.latency_s, "32x32 beats 16x8 on alexnet")

-- Pareto: no front point is dominated by any point
local alex = {}
for _, r in ipairs(res) do if r.workload.name == "alexnet" then alex[#alex + 1] = r end end
local obj = { "latency_s", "energy_j" }
local front = dse.pareto(alex, obj)
H.check(#front >= 1 and #front <= #alex, "front size")
for _, f in ipairs(front) do
  for _, r in ipairs(alex) do
    local dominated = r.total.latency_s <= f.total.latency_s and r.total.energy_j <= f.total.energy_j
      and (r.total.latency_s < f.total.latency_s or r.total.energy_j < f.total.energy_j)
    H.check(not dominated, "front point dominated")
  end
end

-- identical inputs give identical files.  The same sweep again in this
-- run maps every MAC layer from the memo (docs/engine.md, "Memoization"):
-- the same numbers, but map_cache_hits counts them; after clear_memo it
-- runs as the first one did
local function again()
  return dse.sweep {
    arch = "edge-npu",
    workloads = { "alexnet", dse.workload("mobilenet_v2", { batch = 2 }) },
    grid = { ["pe_array.rows"] = { 16, 32 }, ["pe_array.cols"] = { 8, 16, 32 } },
  }
end
local warm = again()
for i, r in ipairs(warm) do
  local macs = 0
  for _, l in ipairs(r.layers) do if l.macs > 0 then macs = macs + 1 end end
  H.eq(r.total.map_cache_hits, macs, "sweep again: every MAC layer from the memo")
  H.eq(r.total.cycles, res[i].total.cycles, "sweep again: the same cycles")
  H.eq(r.total.energy_j, res[i].total.energy_j, "sweep again: the same energy")
end
local a, b = H.tmpname(".csv"), H.tmpname(".csv")
dse.write_csv(a, res)
dse.clear_memo()
dse.write_csv(b, again())
H.eq(H.read(a), H.read(b), "sweep CSV is deterministic")
local header = H.read(a):match("^[^\n]+")
H.check(header:find("^arch,workload,feasible,pe_array.cols,pe_array.rows,macs,ops,"), "csv header: " .. header)
os.remove(a)
os.remove(b)

-- the main job writes its three files
local src = os.getenv("DSE_DATA_DIR") or "../.."
local outdir = os.tmpname()
os.remove(outdir)
local saved = arg
arg = { [0] = src .. "/scripts/sweep.lua", outdir }
local chunk = assert(loadfile(src .. "/scripts/sweep.lua"))
chunk(outdir)
arg = saved
local report = H.read(outdir .. "/report.md")
H.check(report:find("## resnet50 (batch 8)", 1, true), "report resnet50 section")
H.check(report:find("## gpt2 (decode, seq 1024, batch 8)", 1, true), "report gpt2 section")
H.check(report:find("### Pareto front", 1, true), "report pareto")
H.check(report:find("Roofline position of each layer", 1, true), "report roofline")
H.check(report:find("![roofline of resnet50 (batch 8)](roofline-resnet50-batch-8.svg)", 1, true), "report chart link")
local svg = H.read(outdir .. "/roofline-resnet50-batch-8.svg")
H.check(svg:find("^<svg") and svg:find("</svg>%s*$"), "roofline svg")
H.check(select(2, svg:gsub("<circle", "")) > 40, "one point per MAC layer")
local sweep_csv = H.read(outdir .. "/sweep.csv")
local rows = select(2, sweep_csv:gsub("\n", ""))
H.eq(rows, 1 + 2 * 4 * 4 * 3 * 2, "sweep.csv rows")
H.check(#H.read(outdir .. "/pareto.csv") > 100, "pareto.csv")
for f in io.popen('ls "' .. outdir .. '"'):lines() do os.remove(outdir .. "/" .. f) end
os.remove(outdir)

H.finish()
