-- test_memo.lua: the memo across design points (docs/engine.md,
-- "Memoization"): a layer whose hierarchy, shape and options a search has
-- seen before in this run takes that search's mapping (map_cached), with
-- every number as a first search gives; a point that differs in anything
-- the mapper reads searches again.
package.path = "./?.lua;" .. package.path
local H = require "harness"
local dse = require "dse"

-- Four GEMMs on edge-npu: fc1 reads its input from DRAM and keeps its
-- output on chip; fc2 and fc3 both read theirs from chip and keep their
-- outputs there, so they are one problem with one chaining; fc4 is
-- narrower.  Within one point only fc3 is mapped from the memo.
local wl = dse.workload { name = "w", layers = {
  { name = "fc1", type = "gemm", m = 64, n = 256, k = 256 },
  { name = "fc2", type = "gemm", m = 64, n = 256, k = 256 },
  { name = "fc3", type = "gemm", m = 64, n = 256, k = 256 },
  { name = "fc4", type = "gemm", m = 64, n = 128, k = 256 } } }

local function cached(r)
  local s = {}
  for i, l in ipairs(r.layers) do s[i] = l.map_cached and "hit" or "miss" end
  return table.concat(s, " ")
end

-- every number and string of two results but the memo's two fields
local function same(a, b, what)
  local n = 0
  for k, v in pairs(a.total) do
    if k ~= "map_cache_hits" and type(v) ~= "table" then
      H.eq(b.total[k], v, what .. ": total." .. k)
      n = n + 1
    end
  end
  for i, l in ipairs(a.layers) do
    for k, v in pairs(l) do
      if k ~= "map_cached" and type(v) ~= "table" then
        H.eq(b.layers[i][k], v, what .. ": " .. l.name .. "." .. k)
        n = n + 1
      end
    end
    for v, x in ipairs(l.accesses or {}) do
      H.eq(b.layers[i].accesses[v].bytes, x.bytes, what .. ": " .. l.name .. " level bytes")
      H.eq(b.layers[i].accesses[v].energy_j, x.energy_j, what .. ": " .. l.name .. " level energy")
    end
  end
  H.check(n > 100, what .. ": compared " .. n .. " values")
end

local edge = dse.arch("edge-npu")
local first = dse.simulate(edge, wl)
H.eq(cached(first), "miss miss hit miss", "first point: fc3 repeats fc2")
H.eq(first.total.map_cache_hits, 1, "first point: one hit")
H.eq(first.layers[1].input_on_chip, false, "fc1 reads DRAM")
H.eq(first.layers[2].input_on_chip and first.layers[3].input_on_chip, true, "fc2, fc3 chained")

-- the same point again: every MAC layer from the memo, the same numbers
local second = dse.simulate(edge, wl)
H.eq(cached(second), "hit hit hit hit", "second point: all from the memo")
H.eq(second.total.map_cache_hits, 4, "second point: four hits")
same(first, second, "repeated point")
H.eq(second.layers[3].mappings_evaluated, first.layers[3].mappings_evaluated,
  "a hit reports its search's evaluations")
H.eq(second.layers[1].mapping, first.layers[1].mapping, "the same loop nest")

-- forgotten: as the first time
dse.clear_memo()
local third = dse.simulate(edge, wl)
H.eq(cached(third), "miss miss hit miss", "after clear_memo: as a first point")
same(first, third, "after clear_memo")

-- a loaded copy of the same preset, and a renamed buffer: the same
-- hierarchy by content (names and pointers are not in the key)
H.eq(dse.simulate(dse.arch("edge-npu"), wl).total.map_cache_hits, 4, "another load of the preset")
local renamed = dse.simulate(edge:with { ["buffers.2.name"] = "glb" }, wl)
H.eq(renamed.total.map_cache_hits, 4, "a renamed buffer: the same hierarchy")
H.eq(renamed.total.cycles, first.total.cycles, "renamed: the same cycles")

-- anything the mapper reads makes another hierarchy: a buffer's size (the
-- numbers here happen to stay: the GEMMs fit either way), the DRAM's
-- bandwidth (its level's bandwidth, and the time the objective weighs), the
-- objective, the budget
local function hits(arch, opts)
  return cached(dse.simulate(arch, wl, opts))
end
local big = edge:with { ["buffers.2.size"] = "2 MiB" }
H.eq(hits(big), "miss miss hit miss", "a bigger buffer: searched again")
H.eq(hits(big), "hit hit hit hit", "... and that point remembered in turn")
local fast = edge:with { ["dram.bandwidth"] = "51.2 GB/s" }
H.eq(hits(fast), "miss miss hit miss", "twice the DRAM bandwidth: searched again")
H.eq(hits(edge, { objective = "latency" }), "miss miss hit miss", "another objective")
H.eq(hits(edge, { map_budget = 3 }), "miss miss hit miss", "another budget")
H.eq(hits(edge, { objective = "latency" }), "hit hit hit hit", "the latency searches remembered")
H.eq(hits(edge), "hit hit hit hit", "the edp ones still there")
-- level 1 does not map
H.eq(hits(edge, { fidelity = "analytic" }), "miss miss miss miss", "level 1: no mapping")

-- the DRAM bandwidth: the mapper reads it (the objective weighs the
-- DRAM's time), so a hit would be wrong.  Today 8 of ResNet-50's MAC
-- layers (batch 8) on edge-npu take another mapping at 51.2 GB/s, e.g.
-- res3a_branch2c 4,145,152 -> 4,079,616 DRAM bytes
local rn = dse.workload("resnet50", { batch = 8 })
local slow_r, fast_r = dse.simulate(edge, rn), dse.simulate(fast, rn)
local differ, searched = 0, 0
for i, l in ipairs(fast_r.layers) do
  if l.mapping then
    if l.mapping ~= slow_r.layers[i].mapping then differ = differ + 1 end
    if not l.map_cached and slow_r.layers[i].map_cached == false then searched = searched + 1 end
  end
end
H.check(differ > 0, "ResNet-50 at 51.2 GB/s: some layer maps otherwise (" .. differ .. ")")
H.eq(fast_r.total.map_cache_hits, slow_r.total.map_cache_hits,
  "ResNet-50 at 51.2 GB/s: only its own repeated layers hit")
H.eq(searched, 54 - fast_r.total.map_cache_hits, "ResNet-50: each first occurrence searched")

-- a memory technology: the DRAM profiles are kept per technology's content
local hbm = dse.arch("npu-hbm2e-dram")
local m1 = dse.simulate(hbm, wl)
local m2 = dse.simulate(dse.arch("npu-hbm2e-dram"), wl)
H.eq(m2.total.map_cache_hits, 4, "npu-hbm2e-dram again: all from the memo")
same(m1, m2, "npu-hbm2e-dram repeated")
H.check(m1.total.dram_burst_modelled and m1.total.dram_row_hit_rate > 0, "burst model ran")

-- a sweep repeats a point's searches for its repeated values
local sw = dse.sweep { arch = edge, workload = wl, grid = { ["pe_array.rows"] = { 16, 16 } } }
H.eq(cached(sw[1]), "miss miss hit miss", "sweep: the first 16-row point")
H.eq(cached(sw[2]), "hit hit hit hit", "sweep: its repeat")
same(sw[1], sw[2], "sweep repeat")

H.finish()
