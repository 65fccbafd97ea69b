-- memo.lua: what the memo across design points (docs/engine.md,
-- "Memoization") saves: CPU time per level-2 ResNet-50 point on npu-hbm2e,
-- best of RUNS (default 3), for
--   a point simulated again (every mapping from the memo) against a first one;
--   a sweep of 8 DRAM bandwidths, where the mapper sees each bandwidth
--   (nothing shared but a point's own repeated layers), with the memo kept
--   and with it emptied before every point.
-- Docs/bench.md, "The memo across design points", has the figures.
--   dse run bench/memo.lua [RUNS]
local dse = require "dse"

local runs = tonumber(arg[1] or "") or 3
local wl = dse.workload("resnet50")
local arch = dse.arch("npu-hbm2e")

local function best(fn)
  local b = math.huge
  for _ = 1, runs do
    local t0 = os.clock()
    fn()
    b = math.min(b, os.clock() - t0)
  end
  return b
end

local hits
local first = best(function()
  dse.clear_memo()
  hits = dse.simulate(arch, wl, { fidelity = "cycle" }).total.map_cache_hits
end)
print(string.format("first point            %8.2f ms  %d of 54 MAC layers from the memo", first * 1e3, hits))
local again = best(function()
  hits = dse.simulate(arch, wl, { fidelity = "cycle" }).total.map_cache_hits
end)
print(string.format("the same point again   %8.2f ms  %d of 54, %.1fx faster", again * 1e3, hits,
  first / again))

local bws = { "102.4 GB/s", "204.8 GB/s", "307.2 GB/s", "409.6 GB/s", "512 GB/s", "614.4 GB/s",
  "716.8 GB/s", "819.2 GB/s" }
local function sweep(clear)
  local h = 0
  for _, bw in ipairs(bws) do
    if clear then dse.clear_memo() end
    h = h + dse.simulate(arch:with { ["dram.bandwidth"] = bw }, wl, { fidelity = "cycle" }).total
      .map_cache_hits
  end
  return h
end
local cold = best(function() hits = sweep(true) end)
print(string.format("8 DRAM bandwidths, memo emptied per point  %8.2f ms  %d hits", cold * 1e3, hits))
local kept = best(function() dse.clear_memo(); hits = sweep(false) end)
print(string.format("8 DRAM bandwidths, memo kept               %8.2f ms  %d hits, %.3fx",
  kept * 1e3, hits, kept / cold))
local warm = best(function() hits = sweep(false) end)
print(string.format("the same sweep again                       %8.2f ms  %d hits, %.1fx faster",
  warm * 1e3, hits, cold / warm))
