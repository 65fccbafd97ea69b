-- sweep.lua: the default main job (`make run`).
--
-- "Which memory, how big a PE array, how much SRAM?"  Sweeps PE rows x PE
-- columns x global-buffer size x six memory technologies (HBM2E, HBM3,
-- HBM3E, GDDR6, GDDR7, LPDDR5X, each simulated at burst level) for the
-- datacenter NPU on ResNet-50 (batch 8), GPT-2 prefill (1024 tokens) and
-- GPT-2 decode (batch 8, 1024-token context).  Every result goes to the
-- store out/sweep.db as it comes (a run stopped halfway resumes where it
-- stopped; a second run reads everything back), then the script writes
-- every result, the Pareto fronts and the reports to out/ (or arg[1]):
-- report.md, and report/index.html, the page to open in a browser.
-- arg[2] = "small" runs a corner of the space (the test suite's).
local dse = require "dse"

local outdir = arg[1] or "out"
local small = arg[2] == "small"
dse.mkdir(outdir)

-- The memory systems, as whole `dram` sections: a preset and how many
-- stacks or devices (docs/memory.md); peak bandwidth and capacity below.
local memories = {
  { preset = "hbm2e-3200", stacks = 2 },    -- 819 GB/s, 32 GiB, silicon interposer
  { preset = "hbm3-6400", stacks = 1 },     -- 819 GB/s, 16 GiB
  { preset = "hbm3e-9200", stacks = 1 },    -- 1178 GB/s, 24 GiB
  { preset = "gddr6-16000", devices = 8 },  -- 512 GB/s, 16 GiB, organic package
  { preset = "gddr7-32000", devices = 8 },  -- 1024 GB/s, 16 GiB
  { preset = "lpddr5x-8533", devices = 8 }, -- 273 GB/s, 32 GiB
}
local reference = memories[1]

local workloads = {
  dse.workload("resnet50", { batch = 8 }),
  dse.workload("gpt2", { phase = "prefill", seq = 1024 }),
  dse.workload("gpt2", { phase = "decode", seq = 1024, batch = 8 }),
}

local base = "npu-hbm2e"
local space = {
  ["pe_array.rows"] = small and { 64, 128 } or dse.range(16, 256, { log = true, steps = 5 }),
  ["pe_array.cols"] = small and { 64, 256 } or dse.range(16, 256, { log = true, steps = 5 }),
  ["buffers.2.size"] = small and { "4 MiB", "32 MiB" } or dse.range("2 MiB", "32 MiB", { log = true, steps = 5 }),
  ["dram"] = memories,
}
-- Objectives: latency, energy, die area and unit cost (die + memory +
-- package, docs/cost.md); a leading "-" would maximize.
local objectives = { "latency_s", "energy_j", "area_mm2", "cost_usd" }
local base_arch = dse.arch(base)
-- (dse.sweep prints its progress and, at the end, a summary on stderr)
local results = dse.sweep {
  arch = base_arch,
  workloads = workloads,
  space = space,
  objectives = objectives,
  store = outdir .. "/sweep.db",
  layers = true, -- each result's layers kept too: the report's roofline and per-layer views
  name = small and "npu-memory-small" or "npu-memory",
}

-- Results whose level-1 floors a simulated result already beat on every
-- objective were not simulated at level 2 (docs/lua.md, "prune").
local npruned = #results:filter { status = "pruned" }

local title = dse.workload_title -- "gpt2 (decode, seq 1024, batch 8)"
local function preset_of(m) return string.format("%d x %s", m.stacks or m.devices, m.preset) end

-- Each workload's results and front (a handle each: rows read as needed).
local mine, fronts, front_rows = {}, {}, {}
for w, wl in ipairs(workloads) do
  mine[w] = results:filter { workload = wl }
  fronts[w] = dse.pareto(mine[w], objectives)
  for r in fronts[w]:iter() do front_rows[#front_rows + 1] = r end
end

-- Each memory against HBM2E on the same array and SRAM: its latency and
-- energy over HBM2E's, and its unit cost less HBM2E's; the median over the
-- pairs, and how many of the workload's front points have it.
local function median(v)
  table.sort(v)
  local n = #v
  if n == 0 then return 0 / 0 end
  return n % 2 == 1 and v[(n + 1) // 2] or (v[n // 2] + v[n // 2 + 1]) / 2
end
local compare = {
  "| workload | memory | peak GB/s | pairs | latency vs " .. reference.preset .. " | energy vs " ..
    reference.preset .. " | unit cost vs " .. reference.preset .. " | on the front |",
  "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
}
local peak = {}
for w = 1, #workloads do
  local by = {}
  for r in mine[w]:iter() do
    if r.feasible then
      local p = r.point
      local k = string.format("%d %d %s", p["pe_array.rows"], p["pe_array.cols"], p["buffers.2.size"])
      by[k] = by[k] or {}
      by[k][preset_of(p.dram)] = r.total
      peak[preset_of(p.dram)] = peak[preset_of(p.dram)] or r.arch.dram_bandwidth_bytes_per_s / 1e9
    end
  end
  local on_front = {}
  for _, r in ipairs(front_rows) do
    if r.workload.name == workloads[w].name and r.workload.phase == workloads[w].phase then
      local m = preset_of(r.point.dram)
      on_front[m] = (on_front[m] or 0) + 1
    end
  end
  for _, m in ipairs(memories) do
    local lat, en, usd = {}, {}, {}
    for _, pr in pairs(by) do
      local t, h = pr[preset_of(m)], pr[preset_of(reference)]
      if t and h then
        lat[#lat + 1] = 100 * (t.latency_s / h.latency_s - 1)
        en[#en + 1] = 100 * (t.energy_j / h.energy_j - 1)
        usd[#usd + 1] = t.cost_usd - h.cost_usd
      end
    end
    compare[#compare + 1] = string.format("| %s | %s | %.0f | %d | %+.0f%% | %+.0f%% | %+.0f $ | %d |",
      title(workloads[w]), preset_of(m), peak[preset_of(m)] or 0, #lat, median(lat), median(en),
      median(usd), on_front[preset_of(m)] or 0)
  end
end

-- A space key's values in prose: "4 MiB, 16 MiB or 64 MiB".
local function values(k)
  local v = {}
  for i, x in ipairs(space[k]) do v[i] = type(x) == "table" and preset_of(x) or tostring(x) end
  return table.concat(v, ", ", 1, #v - 1) .. " or " .. v[#v]
end

dse.write_csv(outdir .. "/sweep.csv", results)
dse.write_csv(outdir .. "/pareto.csv", front_rows)
dse.report {
  path = outdir .. "/report.md",
  title = "Datacenter NPU: PE array x SRAM x six memory technologies",
  intro = table.concat({
    "Which memory, how big a PE array, how much SRAM?  The base arch is `" .. base ..
    string.format("` (%s %s at %.1f GHz; arch/%s.yaml).  Swept: ", base_arch.precision,
      base_arch.dataflow, base_arch.clock_hz / 1e9, base) ..
    "`pe_array.rows` " .. values("pe_array.rows") .. "; `pe_array.cols` " .. values("pe_array.cols") ..
    "; `buffers.2.size`, the global buffer (buffer 1, the accumulators, keeps its size), " ..
    values("buffers.2.size") .. "; `dram`, the whole memory system, " .. values("dram") ..
    ", each simulated at burst level (docs/memory.md).  Every result is in `sweep.db` " ..
    "(docs/store.md: `dse export`, `dse pareto`).",
    "",
    string.format("Of the %d results, %d results were pruned: their level-1 floors (latency, energy, " ..
      "area and cost no mapping beats) were already dominated by a simulated result, so they were not " ..
      "simulated at level 2 and cannot be on a front (docs/lua.md, \"prune\").", #results, npruned),
    "",
    "Each memory against " .. preset_of(reference) .. " with the same array and SRAM (the median over the " ..
    "pairs; latency and energy per batch relative to " .. reference.preset .. "'s):",
    "",
    table.concat(compare, "\n"),
    "",
    "- *workload*: with its parameters.",
    "- *memory*: how many stacks or devices of which preset (arch/memory/).",
    "- *peak GB/s*: the memory system's peak bandwidth.",
    "- *pairs*: array and SRAM sizes simulated at level 2 with both memories; pruning leaves few " ..
    "where a memory is dominated anyway (2 x HBM2E by 1 x HBM3: the same bandwidth at a higher cost).",
    "- *latency vs " .. reference.preset .. "*, *energy vs " .. reference.preset .. "*: the memory's " ..
    "latency or energy per batch over the reference's, less 1 (+16%: 16% longer).",
    "- *unit cost vs " .. reference.preset .. "*: the unit cost (die, memory, package, PHYs; " ..
    "docs/cost.md) less the reference's.",
    "- *on the front*: how many of the workload's Pareto points have that memory.",
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
  for r in fronts[w]:iter() do
    if not best or better(r, best) then best = r end
  end
  local p = best.point
  print(string.format("  %-33s fastest: %dx%d PEs, %s global buffer, %s: %.3f ms, %.0f inf/s, %.3f mJ/inf",
    title(workloads[w]), p["pe_array.rows"], p["pe_array.cols"], p["buffers.2.size"], preset_of(p.dram),
    best.total.latency_s * 1e3, best.total.throughput_inf_per_s,
    best.total.energy_j * 1e3 / best.workload.batch))
end
print(string.format("wrote %s/sweep.db (%d results, %d pruned), %s/sweep.csv, %s/pareto.csv (%d points), %s/report.md",
  outdir, #results, npruned, outdir, outdir, #front_rows, outdir))

-- The interactive report (docs/report.md): the fronts with the axes and
-- colours chosen on the page, each memory at equal compute, rooflines,
-- where energy, area and cost go; what `dse report out/sweep.db -o
-- out/report` writes.
local page = dse.report {
  results = results,
  out = outdir .. "/report",
  title = "Datacenter NPU: PE array x SRAM x six memory technologies",
}
print(string.format("report: %s (open it in a browser; %s/report/summary.md has its numbers)", page.index, outdir))
