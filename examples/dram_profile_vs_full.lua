-- dram_profile_vs_full.lua: how far the memoized DRAM profile that level 2
-- times each layer with is from simulating the layer's whole DMA stream
-- (docs/memory.md, "In the engine").  Per layer with DRAM traffic: bytes,
-- the DRAM time and row-hit rate under each model, and the error.
--   build/dse run examples/dram_profile_vs_full.lua [ARCH] [WORKLOAD]
local dse = require "dse"

local arch = dse.arch(arg[1] or "npu-hbm3")
local wl = dse.workload(arg[2] or "resnet50")
local prof = dse.simulate(arch, wl, { fidelity = "cycle" })
local full = dse.simulate(arch, wl, { fidelity = "cycle", dram_model = "full" })

print(string.format("%s on %s, level 2: DRAM time per layer, profile vs full stream", wl.name,
  arch.name))
print("| layer (and its repeats) | DRAM MB | profile GB/s | full GB/s | error | row hits profile / full |")
print("|---|---:|---:|---:|---:|---|")
-- layers with the same numbers (ResNet's repeated blocks) share a line
local rows, order = {}, {}
local n, within5, worst, worst_name = 0, 0, 0, ""
for i, p in ipairs(prof.layers) do
  local f = full.layers[i]
  if p.dram_bytes > 0 and p.dram_cycles > 0 then
    local clock = arch.clock_hz
    local bp = p.dram_bytes / p.dram_cycles * clock / 1e9
    local bf = f.dram_bytes / f.dram_cycles * clock / 1e9
    local err = bp / bf - 1
    n = n + 1
    if math.abs(err) <= 0.05 then within5 = within5 + 1 end
    if math.abs(err) > math.abs(worst) then worst, worst_name = err, p.name end
    local line = string.format("| %.2f | %.1f | %.1f | %+.1f%% | %.3f / %.3f |",
      p.dram_bytes / 1e6, bp, bf, 100 * err, p.dram_row_hit_rate, f.dram_row_hit_rate)
    if rows[line] then
      rows[line].count = rows[line].count + 1
    else
      rows[line] = { name = p.name, count = 1 }
      order[#order + 1] = line
    end
  end
end
for _, line in ipairs(order) do
  local r = rows[line]
  print(string.format("| %s%s %s", r.name, r.count > 1 and (" (x" .. r.count .. ")") or "", line))
end
print(string.format("%d layers with DRAM traffic: %d within 5%%, worst %s %+.1f%%; "
  .. "DRAM cycles in all: profile %.0f, full %.0f (%+.1f%%)", n, within5, worst_name,
  100 * worst, prof.total.dram_cycles, full.total.dram_cycles,
  100 * (prof.total.dram_cycles / full.total.dram_cycles - 1)))
print(string.format("network latency: profile %.4g s, full %.4g s", prof.total.latency_s,
  full.total.latency_s))
