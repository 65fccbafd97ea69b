-- hbm_vs_gddr.lua: "HBM3, GDDR7 or LPDDR5X for this NPU?"
--
-- The datacenter NPU (128x128 bf16 at 1.5 GHz, 16 MiB SRAM) with three
-- memory systems, each simulated at burst level (banks, FR-FCFS, refresh):
--   5 stacks of HBM3 (4.1 TB/s), 12 GDDR7 devices (1.3 TB/s), 8 LPDDR5X
--   packages (273 GB/s).
-- Workloads: ResNet-50 (batch 1 and 8) and GPT-2 / Llama-2-7B decode at
-- batch 1, 8 and 32.  Writes out/hbm_vs_gddr.csv and out/hbm_vs_gddr.md
-- (or under arg[1]).
local dse = require "dse"

local outdir = arg[1] or "out"
dse.mkdir(outdir)

local mems = {
  { name = "HBM3 x5", arch = "npu-hbm3" },
  { name = "GDDR7 x12", arch = "npu-gddr7" },
  { name = "LPDDR5X x8", arch = "npu-lpddr5x" },
}
local workloads = {
  { "resnet50", { batch = 1 } },
  { "resnet50", { batch = 8 } },
  { "gpt2", { phase = "decode", seq = 1024, batch = 1 } },
  { "gpt2", { phase = "decode", seq = 1024, batch = 8 } },
  { "gpt2", { phase = "decode", seq = 1024, batch = 32 } },
  { "llama2_7b", { phase = "decode", seq = 2048, batch = 1 } },
  { "llama2_7b", { phase = "decode", seq = 2048, batch = 8 } },
}

local rows = {}
for _, w in ipairs(workloads) do
  local wl = dse.workload(w[1], w[2])
  for _, m in ipairs(mems) do
    local arch = dse.arch(m.arch)
    local ok, r = pcall(dse.simulate, arch, wl)
    local row = { memory = m.name, workload = w[1], batch = w[2].batch,
                  phase = w[2].phase or "inference" }
    if ok then
      local t = r.total
      row.latency_ms = t.latency_s * 1e3
      row.throughput_inf_per_s = t.throughput_inf_per_s
      row.energy_mj_per_inf = t.energy_j / w[2].batch * 1e3
      row.dram_energy_mj_per_inf = t.dram_energy_j / w[2].batch * 1e3
      row.dram_row_hit_rate = t.dram_row_hit_rate
      row.peak_bandwidth_gb_s = r.arch.dram_bandwidth_bytes_per_s / 1e9
      row.achieved_bandwidth_gb_s = t.dram_bytes / t.latency_s / 1e9
      row.capacity_gib = t.memory_capacity_bytes / 2^30
      row.memory_cost_usd = t.memory_cost_usd
      row.area_mm2 = t.area_mm2
      row.unit_cost_usd = t.cost_usd
      row.usd_per_inf_per_s = t.usd_per_inf_per_s
    else
      row.infeasible = tostring(r):gsub("\n.*", "")
    end
    rows[#rows + 1] = row
  end
end

local cols = { "workload", "phase", "batch", "memory", "latency_ms", "throughput_inf_per_s",
               "energy_mj_per_inf", "dram_energy_mj_per_inf", "dram_row_hit_rate",
               "peak_bandwidth_gb_s", "achieved_bandwidth_gb_s", "capacity_gib",
               "memory_cost_usd", "area_mm2", "unit_cost_usd", "usd_per_inf_per_s", "infeasible" }
dse.write_csv(outdir .. "/hbm_vs_gddr.csv", rows, cols)

local md = { "# HBM3 vs GDDR7 vs LPDDR5X on the datacenter NPU\n",
  "Burst-level DRAM model (docs/memory.md); presets in arch/memory/.\n",
  "| workload | batch | memory | latency ms | inf/s | mJ/inf | DRAM mJ/inf | row hits | GB/s peak | GB/s achieved | GiB | memory $ | die mm^2 | unit $ | $ per inf/s |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|" }
for _, r in ipairs(rows) do
  if r.infeasible then
    md[#md + 1] = string.format("| %s %s | %d | %s | infeasible: %s ||||||||||||", r.workload,
      r.phase, r.batch, r.memory, r.infeasible)
  else
    md[#md + 1] = string.format("| %s %s | %d | %s | %.3f | %.1f | %.2f | %.2f | %.2f | %.0f | %.0f | %.0f | %.0f | %.1f | %.0f | %.3g |",
      r.workload, r.phase, r.batch, r.memory, r.latency_ms, r.throughput_inf_per_s,
      r.energy_mj_per_inf, r.dram_energy_mj_per_inf, r.dram_row_hit_rate,
      r.peak_bandwidth_gb_s, r.achieved_bandwidth_gb_s, r.capacity_gib, r.memory_cost_usd,
      r.area_mm2, r.unit_cost_usd, r.usd_per_inf_per_s)
  end
end
dse.write_text(outdir .. "/hbm_vs_gddr.md", table.concat(md, "\n") .. "\n")
print(string.format("wrote %s/hbm_vs_gddr.csv and %s/hbm_vs_gddr.md (%d rows)", outdir, outdir, #rows))
