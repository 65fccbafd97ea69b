-- memo.lua: what the memo across design points (docs/engine.md,
-- "Memoization") saves: CPU time per level-2 ResNet-50 point on npu-hbm2e,
-- best of RUNS (default 3), for
--   a point simulated again (every mapping from the memo) against a first one;
--   a sweep of 8 DRAM bandwidths, where the mapper sees each bandwidth
--   (nothing shared but a point's own repeated layers), with the memo kept
--   and with it emptied before every point;
--   npu-hbm2e-dram at 8 global buffer sizes: searched again, but the HBM2E
--   profiles of the traffic shapes they share simulated once.
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

-- the points of arch a with path set to each value, the memo emptied
-- before each when clear; returns the MAC layers mapped from the memo
local function points(a, path, values, clear)
  local h = 0
  for _, v in ipairs(values) do
    if clear then dse.clear_memo() end
    h = h + dse.simulate(a:with { [path] = v }, wl, { fidelity = "cycle" }).total.map_cache_hits
  end
  return h
end

-- the sweep emptied before every point, then kept from an empty memo
local function sweep(what, a, path, values)
  local cold = best(function() hits = points(a, path, values, true) end)
  print(string.format("%s, memo emptied per point  %8.2f ms  %d hits", what, cold * 1e3, hits))
  local kept = best(function() dse.clear_memo(); hits = points(a, path, values, false) end)
  print(string.format("%s, memo kept               %8.2f ms  %d hits, %.3fx", what, kept * 1e3,
    hits, kept / cold))
  return cold
end

local bws = { "102.4 GB/s", "204.8 GB/s", "307.2 GB/s", "409.6 GB/s", "512 GB/s", "614.4 GB/s",
  "716.8 GB/s", "819.2 GB/s" }
local cold = sweep("8 DRAM bandwidths", arch, "dram.bandwidth", bws)
local warm = best(function() hits = points(arch, "dram.bandwidth", bws, false) end)
print(string.format("8 DRAM bandwidths again                    %8.2f ms  %d hits, %.1fx faster",
  warm * 1e3, hits, cold / warm))
sweep("npu-hbm2e-dram, 8 buffer sizes", dse.arch("npu-hbm2e-dram"), "buffers.2.size",
  { "16 MiB", "18 MiB", "20 MiB", "22 MiB", "24 MiB", "26 MiB", "28 MiB", "30 MiB" })
