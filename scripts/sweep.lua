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

local base = "npu-hbm2e"
local grid = {
  ["pe_array.rows"] = { 32, 64, 128, 256 },
  ["pe_array.cols"] = { 32, 64, 128, 256 },
  ["buffers.2.size"] = { "4 MiB", "16 MiB", "64 MiB" },
  ["dram"] = { hbm2e, gddr6 },
}
local base_arch = dse.arch(base)
-- (dse.sweep prints its progress and, at the end, a summary on stderr:
-- points, time, infeasible ones)
local results = dse.sweep {
  arch = base_arch,
  workloads = workloads,
  grid = grid,
}

-- Objectives: latency, energy, die area and unit cost (die + memory +
-- package, docs/cost.md); a leading "-" would maximize.
local objectives = { "latency_s", "energy_j", "area_mm2", "cost_usd" }

local title = dse.workload_title -- "gpt2 (decode, seq 1024, batch 8)"

-- Each workload's results: dse.sweep puts them in list order within each
-- design point.
local mine = {}
for i, r in ipairs(results) do
  local w = (i - 1) % #workloads + 1
  mine[w] = mine[w] or {}
  table.insert(mine[w], r)
end

local front = {}
local fronts = {}
for w = 1, #workloads do
  fronts[w] = dse.pareto(mine[w], objectives)
  for _, r in ipairs(fronts[w]) do front[#front + 1] = r end
end

-- HBM2E against GDDR6 on the same array and SRAM: GDDR6's latency and
-- energy over HBM2E's, and what HBM2E costs more per unit; the smallest,
-- median and largest over the pairs.
local function spread(v, fmt)
  table.sort(v)
  local n = #v
  local med = n % 2 == 1 and v[(n + 1) // 2] or (v[n // 2] + v[n // 2 + 1]) / 2
  return string.format(fmt, v[1]) .. " / " .. string.format(fmt, med) .. " / " .. string.format(fmt, v[n])
end
local compare = {
  "| workload | pairs | GDDR6 latency vs HBM2E | GDDR6 energy vs HBM2E | HBM2E unit cost over GDDR6 | on the front: HBM2E + GDDR6 |",
  "| --- | ---: | ---: | ---: | ---: | ---: |",
}
for w = 1, #workloads do
  local by = {}
  for _, r in ipairs(mine[w]) do
    if r.feasible then
      local p = r.point
      local k = string.format("%d %d %s", p["pe_array.rows"], p["pe_array.cols"], p["buffers.2.size"])
      by[k] = by[k] or {}
      by[k][p.dram] = r
    end
  end
  local lat, en, usd = {}, {}, {}
  for _, pr in pairs(by) do
    local h, g = pr[hbm2e], pr[gddr6]
    if h and g then
      lat[#lat + 1] = 100 * (g.total.latency_s / h.total.latency_s - 1)
      en[#en + 1] = 100 * (g.total.energy_j / h.total.energy_j - 1)
      usd[#usd + 1] = h.total.cost_usd - g.total.cost_usd
    end
  end
  local nh, ng = 0, 0
  for _, r in ipairs(fronts[w]) do
    if r.point.dram == hbm2e then nh = nh + 1 else ng = ng + 1 end
  end
  compare[#compare + 1] = string.format("| %s | %d | %s | %s | %s | %d + %d |", title(workloads[w]), #lat,
    spread(lat, "%+.0f%%"), spread(en, "%+.0f%%"), spread(usd, "$%.0f"), nh, ng)
end

-- A grid key's values in prose: "4 MiB, 16 MiB or 64 MiB".
local function values(k)
  local v = {}
  for i, x in ipairs(grid[k]) do v[i] = tostring(x) end
  return table.concat(v, ", ", 1, #v - 1) .. " or " .. v[#v]
end

-- A memory system as the results have it: "2 HBM2E-3200 stacks
-- (`2 x hbm2e-3200`: 819 GB/s peak, 32 GiB, ...)".
local function memory(m, what, package)
  for _, r in ipairs(results) do
    if r.point.dram == m then
      local n = m.stacks or m.devices
      return string.format("%d %s (`%d x %s`: %.0f GB/s peak, %.0f GiB, %s)", n, what, n, m.preset,
        r.arch.dram_bandwidth_bytes_per_s / 1e9, r.arch.dram_capacity_bytes / 2^30, package)
    end
  end
end

dse.write_csv(outdir .. "/sweep.csv", results)
dse.write_csv(outdir .. "/pareto.csv", front)
dse.report {
  path = outdir .. "/report.md",
  title = "Datacenter NPU: PE array x SRAM x HBM2E/GDDR6",
  intro = table.concat({
    "How big a PE array, how much SRAM, and HBM2E or GDDR6?  The base arch is `" .. base ..
    string.format("` (%s %s at %.1f GHz; arch/%s.yaml).  Swept: ", base_arch.precision,
      base_arch.dataflow, base_arch.clock_hz / 1e9, base) ..
    "`pe_array.rows` " .. values("pe_array.rows") .. "; `pe_array.cols` " .. values("pe_array.cols") ..
    "; `buffers.2.size`, the global buffer (buffer 1, the accumulators, keeps its size), " ..
    values("buffers.2.size") .. "; `dram`, the whole memory system, " ..
    memory(hbm2e, "HBM2E-3200 stacks", "on a silicon interposer") .. " or " ..
    memory(gddr6, "GDDR6-16000 devices", "on an organic package") ..
    ", each simulated at burst level (docs/memory.md).",
    "",
    "HBM2E against GDDR6 with the same array and SRAM (smallest / median / largest over the pairs; " ..
    "latency and energy per batch, GDDR6's relative to HBM2E's):",
    "",
    table.concat(compare, "\n"),
    "",
    "- *workload*: with its parameters.",
    "- *pairs*: array and SRAM sizes simulated with both memories.",
    "- *GDDR6 latency vs HBM2E*, *GDDR6 energy vs HBM2E*: GDDR6's latency or energy per batch over HBM2E's, " ..
    "less 1 (+16%: GDDR6 takes 16% longer).",
    "- *HBM2E unit cost over GDDR6*: HBM2E's unit cost less GDDR6's (memory, package, PHYs; docs/cost.md).",
    "- *on the front: HBM2E + GDDR6*: how many of the workload's Pareto points have each memory.",
  }, "\n"),
  results = results,
  objectives = objectives,
  columns = { "pe_array.rows", "pe_array.cols", "buffers.2.size", "dram" },
}

-- The fastest point per workload; among equally fast ones, the lowest energy.
local function better(a, b)
  if a.total.latency_s ~= b.total.latency_s then return a.total.latency_s < b.total.latency_s end
  return a.total.energy_j < b.total.energy_j
end
for w = 1, #workloads do
  local best
  for _, r in ipairs(fronts[w]) do
    if not best or better(r, best) then best = r end
  end
  local p = best.point
  print(string.format("  %-33s fastest: %dx%d PEs, %s global buffer, %s: %.3f ms, %.0f inf/s, %.3f mJ/inf",
    title(workloads[w]), best.arch.pe_rows, best.arch.pe_cols, p["buffers.2.size"],
    string.format("%d x %s", p.dram.stacks or p.dram.devices, p.dram.preset),
    best.total.latency_s * 1e3, best.total.throughput_inf_per_s,
    best.total.energy_j * 1e3 / best.workload.batch))
end
print(string.format("wrote %s/sweep.csv, %s/pareto.csv (%d points), %s/report.md",
  outdir, outdir, #front, outdir))
