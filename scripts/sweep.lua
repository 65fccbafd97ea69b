-- sweep.lua: the default main job (`make run`).
--
-- "How big an array, how much SRAM, and HBM2E or GDDR6?"  Sweeps PE-array
-- size x global-buffer size x memory technology for the datacenter NPU on
-- ResNet-50 (batch 8) and GPT-2 decode (batch 8, 1024-token context), then
-- writes every point, the Pareto front and a report to out/ (or arg[1]).
local dse = require "dse"

local outdir = arg[1] or "out"
dse.mkdir(outdir)

-- The two memory systems, as whole `dram` sections: technology presets
-- simulated at burst level (banks, FR-FCFS, refresh; docs/memory.md).
-- 2 HBM2E stacks = 819.2 GB/s peak; 8 GDDR6 devices = 512 GB/s peak.
local hbm2e = { preset = "hbm2e-3200", stacks = 2 }
local gddr6 = { preset = "gddr6-16000", devices = 8 }

local workloads = {
  dse.workload("resnet50", { batch = 8 }),
  dse.workload("gpt2", { phase = "decode", seq = 1024, batch = 8 }),
}

local t0 = os.clock()
local results = dse.sweep {
  arch = "npu-hbm2e",
  workloads = workloads,
  grid = {
    ["pe_array.rows"] = { 32, 64, 128, 256 },
    ["pe_array.cols"] = { 32, 64, 128, 256 },
    ["buffers.2.size"] = { "4 MiB", "16 MiB", "64 MiB" },
    ["dram"] = { hbm2e, gddr6 },
  },
}
local elapsed = os.clock() - t0

-- Objectives: latency, energy, die area and unit cost (die + memory +
-- package, docs/cost.md); a leading "-" would maximize.
local objectives = { "latency_s", "energy_j", "area_mm2", "cost_usd" }

local front = {}
for _, w in ipairs(workloads) do
  local mine = {}
  for _, r in ipairs(results) do
    if r.workload.name == w.name then mine[#mine + 1] = r end
  end
  for _, r in ipairs(dse.pareto(mine, objectives)) do front[#front + 1] = r end
end

dse.write_csv(outdir .. "/sweep.csv", results)
dse.write_csv(outdir .. "/pareto.csv", front)
dse.report {
  path = outdir .. "/report.md",
  title = "Datacenter NPU: PE array x SRAM x HBM2E/GDDR6",
  results = results,
  objectives = objectives,
}

print(string.format("dse %s: %d design points (%d archs x %d workloads) in %.3f s",
  dse.version, #results, #results // #workloads, #workloads, elapsed))
-- The fastest point per workload; among equally fast ones, the lowest energy.
local function better(a, b)
  if a.total.latency_s ~= b.total.latency_s then return a.total.latency_s < b.total.latency_s end
  return a.total.energy_j < b.total.energy_j
end
for _, w in ipairs(workloads) do
  local best
  for _, r in ipairs(front) do
    if r.workload.name == w.name and (not best or better(r, best)) then best = r end
  end
  print(string.format("  %-8s fastest: %3dx%-3d PEs, %5.1f MiB SRAM, %-5s  %8.3f ms  %9.1f inf/s  %7.3f mJ/inf",
    w.name, best.arch.pe_rows, best.arch.pe_cols, best.arch.sram_bytes / 1048576,
    best.arch.dram_type, best.total.latency_s * 1e3, best.total.throughput_inf_per_s,
    best.total.energy_j * 1e3 / best.workload.batch))
end
print(string.format("wrote %s/sweep.csv, %s/pareto.csv (%d points), %s/report.md",
  outdir, outdir, #front, outdir))
