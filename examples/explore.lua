-- explore.lua: PE-array shape x buffer size on the edge NPU, for ResNet-50
-- (batch 4) and GPT-2 decode; writes CSV, JSON and a Markdown report.
local dse = require "dse"

local outdir = arg[1] or "out/explore"
dse.mkdir(outdir)

local base = dse.arch("edge-npu")
print(base, base.peak_ops_per_s / 1e12 .. " TOPS")

local workloads = {
  dse.workload("resnet50", { batch = 4 }),
  dse.workload("gpt2", { phase = "decode", seq = 512 }),
}
local results = dse.sweep {
  arch = base,
  workloads = workloads,
  grid = {
    ["pe_array.rows"] = { 16, 32, 64 },
    ["pe_array.cols"] = { 16, 32, 64 },
    ["buffers.2.size"] = { "512 KiB", "2 MiB" },
  },
}
print(#results .. " results")

-- A third objective, PEs spent; then the Pareto front of each workload.
for _, r in ipairs(results) do
  if r.feasible then r.total.pes = r.arch.pe_rows * r.arch.pe_cols end
end
local objectives = { "latency_s", "energy_j", "pes" }
for _, w in ipairs(workloads) do
  local mine = {}
  for _, r in ipairs(results) do
    if r.workload.name == w.name then mine[#mine + 1] = r end
  end
  local front = dse.pareto(mine, objectives)
  local best = front[1]
  for _, r in ipairs(front) do
    if r.total.latency_s < best.total.latency_s then best = r end
  end
  print(string.format("%-8s %2d of %d on the front; fastest %dx%d, %s: %.3f ms, %.2f mJ",
    w.name, #front, #mine, best.arch.pe_rows, best.arch.pe_cols,
    best.point["buffers.2.size"], best.total.latency_s * 1e3, best.total.energy_j * 1e3))
end

dse.write_csv(outdir .. "/all.csv", results)
dse.write_csv(outdir .. "/short.csv", results,
  { "workload", "pe_array.rows", "pe_array.cols", "buffers.2.size", "latency_s", "energy_j", "pes" })
dse.write_json(outdir .. "/first.json", results[1])
dse.report {
  path = outdir .. "/report.md",
  title = "Edge NPU: array shape x SRAM size",
  results = results,
  objectives = objectives,
}
