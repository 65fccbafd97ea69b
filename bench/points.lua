-- points.lua: CPU seconds per level-2 ResNet-50 design point on each arch
-- preset (best of RUNS runs of at least MIN seconds each), one line per
-- preset: "PRESET<TAB>SECONDS".  bench/compare.sh runs it with two dse
-- builds to compare them (docs/bench.md, "Comparing two builds").
--   dse run bench/points.lua [RUNS [MIN [PRESET ...]]]
local dse = require "dse"

local runs = tonumber(arg[1] or "") or 3
local min = tonumber(arg[2] or "") or 0.2
local presets = {}
for i = 3, #arg do presets[#presets + 1] = arg[i] end
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
        dse.simulate(arch, wl, { fidelity = "cycle" })
        n = n + 1
      until os.clock() - t0 >= min
      best = math.min(best, (os.clock() - t0) / n)
    end
    print(string.format("%s\t%.6e", name, best))
  end
end
