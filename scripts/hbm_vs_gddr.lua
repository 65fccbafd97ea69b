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
  { name = "5 x hbm3-6400", arch = "npu-hbm3" },
  { name = "12 x gddr7-28000", arch = "npu-gddr7" },
  { name = "8 x lpddr5x-8533", arch = "npu-lpddr5x" },
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
    local row = { arch = m.arch, memory = m.name, workload = wl.name, title = dse.workload_title(wl),
                  phase = wl.phase or "inference", seq = wl.seq, batch = wl.batch }
    if ok then
      local t = r.total
      row.latency_ms = t.latency_s * 1e3
      row.throughput_inf_per_s = t.throughput_inf_per_s
      row.energy_mj_per_inf = t.energy_j / wl.batch * 1e3
      row.dram_energy_mj_per_inf = t.dram_energy_j / wl.batch * 1e3
      row.dram_row_hit_rate = t.dram_row_hit_rate
      row.peak_bandwidth_gb_s = r.arch.dram_bandwidth_bytes_per_s / 1e9
      row.average_bandwidth_gb_s = t.dram_bytes / t.latency_s / 1e9
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

local cols = { "workload", "phase", "seq", "batch", "arch", "memory", "latency_ms",
               "throughput_inf_per_s", "energy_mj_per_inf", "dram_energy_mj_per_inf",
               "dram_row_hit_rate", "peak_bandwidth_gb_s", "average_bandwidth_gb_s",
               "capacity_gib", "memory_cost_usd", "area_mm2", "unit_cost_usd",
               "usd_per_inf_per_s", "infeasible" }
dse.write_csv(outdir .. "/hbm_vs_gddr.csv", rows, cols)

-- Three significant digits, trailing zeros kept; from 1000 up, whole
-- numbers (as dse.report prints them).
local function sig3(v)
  if math.abs(v) >= 999.5 then return string.format("%.0f", v) end
  return (string.format("%#.3g", v):gsub("%.$", ""))
end

-- The table's columns: header, meaning, cell.
local columns = {
  { "latency ms", "the time to run one batch", function(r) return sig3(r.latency_ms) end },
  { "inf/s", "inferences per second, batch / latency (an inference is one image, or one new token of one sequence)",
    function(r) return sig3(r.throughput_inf_per_s) end },
  { "mJ/inf", "energy per inference, everything included (chip and DRAM)", function(r) return sig3(r.energy_mj_per_inf) end },
  { "DRAM mJ/inf", "the DRAM's part of it", function(r) return sig3(r.dram_energy_mj_per_inf) end },
  { "row hits", "DRAM bursts that hit an open row", function(r) return string.format("%.1f%%", 100 * r.dram_row_hit_rate) end },
  { "peak GB/s", "the memory system's peak bandwidth", function(r) return sig3(r.peak_bandwidth_gb_s) end },
  { "average GB/s", "DRAM bytes read and written / latency: the bandwidth used on average over the batch",
    function(r) return sig3(r.average_bandwidth_gb_s) end },
  { "capacity GiB", "the memory system's capacity", function(r) return sig3(r.capacity_gib) end },
  { "memory $", "its price: capacity x the technology's $/GB (docs/cost.md)", function(r) return string.format("$%.0f", r.memory_cost_usd) end },
  { "die mm^2", "the die area; the PHYs and memory controllers differ per memory", function(r) return sig3(r.area_mm2) end },
  { "unit $", "unit cost: good die + memory + package (with a silicon interposer for HBM) + NRE share (docs/cost.md)", function(r) return string.format("$%.0f", r.unit_cost_usd) end },
  { "$ per inf/s", "unit cost / throughput: what one inference per second costs in hardware", function(r) return sig3(r.usd_per_inf_per_s) end },
}

local npu = dse.arch(mems[1].arch)
local md = { "# HBM3 vs GDDR7 vs LPDDR5X on the datacenter NPU\n",
  string.format("The same NPU (%dx%d %s %s at %.1f GHz, %.0f MiB SRAM; arch/%s.yaml and the others named below) " ..
    "with three memory systems, each simulated at burst level (docs/memory.md; presets in arch/memory/). " ..
    "Rows: per workload (with its parameters), the memories in the order HBM3, GDDR7, LPDDR5X.\n",
    npu.pe_rows, npu.pe_cols, npu.dataflow, npu.precision, npu.clock_hz / 1e9, npu.sram_bytes / 2^20, mems[1].arch) }
local h = { "workload", "arch", "memory" }
for _, c in ipairs(columns) do h[#h + 1] = c[1] end
md[#md + 1] = "| " .. table.concat(h, " | ") .. " |"
md[#md + 1] = "|" .. string.rep(" --- |", 3) .. string.rep(" ---: |", #columns)
for _, r in ipairs(rows) do
  local cells = { r.title, r.arch, r.memory }
  if r.infeasible then
    cells[#cells + 1] = "infeasible: " .. r.infeasible
    for _ = 2, #columns do cells[#cells + 1] = "" end
  else
    for _, c in ipairs(columns) do cells[#cells + 1] = c[3](r) end
  end
  md[#md + 1] = "| " .. table.concat(cells, " | ") .. " |"
end
md[#md + 1] = ""
md[#md + 1] = "- *workload*: the zoo workload with its parameters (phase, context length `seq` in tokens, batch)."
md[#md + 1] = "- *arch*: the arch preset (arch/NAME.yaml): the same NPU with its own memory."
md[#md + 1] = "- *memory*: `N x PRESET`, N units (stacks or devices) of a memory preset."
for _, c in ipairs(columns) do md[#md + 1] = "- *" .. c[1] .. "*: " .. c[2] .. "." end
dse.write_text(outdir .. "/hbm_vs_gddr.md", table.concat(md, "\n") .. "\n")
print(string.format("wrote %s/hbm_vs_gddr.csv and %s/hbm_vs_gddr.md (%d rows)", outdir, outdir, #rows))
