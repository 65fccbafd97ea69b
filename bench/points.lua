-- points.lua: CPU seconds per level-2 ResNet-50 design point on each arch
-- preset (best of RUNS runs of at least MIN seconds each), one line per
-- preset: "PRESET<TAB>SECONDS".  bench/compare.sh runs it with two dse
-- builds to compare them (docs/bench.md, "Comparing two builds").
--   dse run bench/points.lua [RUNS [MIN [PRESET ...] [objective=NAME]]]
-- (objective: the mapper's, default the simulation's own, EDP; make
-- bench's level-2 points minimize latency)
local dse = require "dse"

local runs = tonumber(arg[1] or "") or 3
local min = tonumber(arg[2] or "") or 0.2
local presets, opts = {}, { fidelity = "cycle" }
for i = 3, #arg do
  local obj = arg[i]:match("^objective=(.+)$")
  if obj then opts.objective = obj else presets[#presets + 1] = arg[i] end
end
if #presets == 0 then
  presets = { "edge-npu", "eyeriss", "npu-gddr6", "npu-gddr7", "npu-hbm2e", "npu-hbm2e-dram",
    "npu-hbm3", "npu-lpddr5x", "tpu-v1" }
end

local wl = dse.workload("resnet50")
for _, name in ipairs(presets) do
  local ok, arch = pcall(dse.arch, name)
  if ok then
    local best = math.huge
    for _ = 1, runs do
      local n, t0 = 0, os.clock()
      repeat
        -- each a first simulation: every layer searched (a build without
        -- the memo has no clear_memo)
        if dse.clear_memo then dse.clear_memo() end
        dse.simulate(arch, wl, opts)
        n = n + 1
      until os.clock() - t0 >= min
      best = math.min(best, (os.clock() - t0) / n)
    end
    print(string.format("%s\t%.6e", name, best))
  end
end
