-- test_monotone.lua: more hardware never gives a worse result (issue 12,
-- "Monotone"), as a ratchet.  Each of three presets (edge-npu, npu-hbm2e,
-- tpu-v1) x four workloads (resnet50, mobilenet_v2, bert_base, gpt2 decode
-- at seq 1024) is simulated at level 2, then again with one resource
-- doubled: DRAM bandwidth, clock, each buffer's size and bandwidth, PE rows,
-- PE columns.  That is 26 variants x 512 layers = 13,312 layer results.
--   * non-PE doublings: a layer result is worse when its latency_s grows
--     (a fused activation and its producer judged together, by the pair's
--     time: the activation runs on the producer's output stream); at most
--     NONPE_MAX of them may be.  Today 2: edge-npu's ResNet-50
--     res3a_branch2c after doubling its 1 MiB SRAM, 50,352 -> 50,413 (the
--     smaller machine's best found at the SRAM's half rung of the 1/16 rung
--     of the capacity ladder, docs/engine.md section 5, "Monotone", which
--     the doubled machine's ladder does not contain: it would need a
--     quarter rung there); at twice the accumulators' bandwidth
--     MobileNet-v2's block1_dw and its fused ReLU6, 112,991 -> 112,992.
--     History: 86 with the 0.1% tie rule (docs/design/mapper-plan.md 2.4 a),
--     61 with the strict objective, 13 with partial sums at 32 bits (plan
--     S11), 39 with edge-npu's accumulators (1,024 new results), 36 with
--     exact strided windows (S12), 35 with SCALE-Sim's canonical mapping as
--     a candidate (S5), 23 since fused pairs are judged together (npu-hbm2e's
--     12 BERT FFN activations, whose time followed the GEMM's, went), 24
--     with groups across the array (S13: edge-npu's block1_dw and its
--     fused ReLU6, 112,991 -> 112,992 cycles, at twice the accumulators'
--     bandwidth), 4 with each buffer's half rungs in the capacity ladder
--     (the 23 of edge-npu's accumulators x2 went: the doubled machine
--     regrows the smaller one's plans of the uniform rungs), 2 with each
--     buffer's quarter rung of the full rung (res3a_branch2a and
--     res3a_branch1 after doubling the accumulators, 25,313 -> 25,325 and
--     100,729 -> 100,747 cycles, the smaller machine's best at its half
--     rung of the full rung, went; quarter rungs of every uniform rung but
--     the last leave 1, for 12-25% more of the mapper's instructions: not
--     landed);
--   * PE doublings: a MAC layer is worse when its cycles grow by more
--     than the smaller array's mapping would physically pay on the larger
--     one (docs/engine.md section 5, "Monotone"): every fill/drain it pays
--     (fill_drain_cycles / (rows + cols - 2): one a fold, or one when the
--     PEs double-buffer) lasts delta rows + delta cols longer, and each of
--     its folds (and the first load) delta rows longer to shift a
--     stationary tile through the taller array, i.e. by at most
--     fills x (dr + dc) + (folds + 1) x dr cycles.  At most PE_MAX may be.
--     Vector layers whose fusion changes with the array are left out.
--     Today 1: edge-npu's MobileNet-v2 block2_dw after doubling its
--     columns, 84,848 -> 84,934 cycles (allowance 32): the smaller machine
--     is faster by a plan of a half rung of its capacity ladder (84,902
--     before), the larger unchanged.  History: 115 judged net of fill/drain
--     and preload before partial sums moved at 32 bits, 53 once edge-npu's
--     partial sums stayed in its accumulators, 3 once the mapper searched
--     bypass, 15 with groups across the array (S13), 16 with the half rungs;
--     1 since the judgement is the allowance above: tpu-v1's BERT qk (+2
--     cycles) and MobileNet-v2 block15-17_expand (+7) after doubling its
--     columns are within their 256 cycles (their fill/drain, 256 cycles
--     longer, is half hidden by the DRAM-bound tile pipeline, so the net
--     of fill/drain grew while the time grew by 2 and 7 cycles only).  The
--     smaller array's factors as an extra split of the search (half the
--     rows, half the columns) was tried: 2.4x the mapper's time, the
--     ceilings unchanged: not landed;
-- Both ceilings only go down (issue 12's later steps make them 0).  The
-- mapper minimizes latency here (objective "latency"; the default is EDP).
package.path = "./?.lua;" .. package.path
local H = require "harness"
local dse = require "dse"

local LAT = { objective = "latency" }
local NONPE_MAX = 2
local PE_MAX = 1

-- the presets' buffer sizes and bandwidths (arch/*.yaml); true: the same
-- again as separate read and write ports (the accumulators)
local presets = {
  { "edge-npu", { { "64 KiB", 128, true }, { "1 MiB", 128 } } },
  { "npu-hbm2e", { { "2 MiB", 512, true }, { "16 MiB", 2048 } } },
  { "tpu-v1", { { "256 KiB", 256 }, { "4 MiB", 1024, true }, { "24 MiB", 512 } } },
}
local function twice(size)
  local n, unit = size:match("^(%d+) (%a+)$")
  return (2 * tonumber(n)) .. " " .. unit
end
-- the cycles the smaller array's mapping of layer l would add on an array
-- dr rows and dc columns larger (docs/engine.md section 5, "Monotone")
local function allowance(l, a, dr, dc)
  local fills = l.fill_drain_cycles / (a.pe_rows + a.pe_cols - 2)
  return fills * (dr + dc) + (l.folds + 1) * dr
end
local workloads = { dse.workload("resnet50"), dse.workload("mobilenet_v2"),
                    dse.workload("bert_base"), dse.workload("gpt2", { phase = "decode", seq = 1024 }) }

-- The issue's example: ResNet-50's res3a_branch1 on a 32x32 weight-
-- stationary array with a 2 MiB buffer (edge-npu with its SRAM doubled;
-- npu-hbm2e cut to 32x32, whose accumulators are 2 MiB), DRAM 50 -> 100
-- GB/s.  At batch 8 it was slower by 235 and 46 cycles (806,024 ->
-- 806,259; 814,862 -> 814,908) while the 0.1% tie rule let the mapper
-- take a slower mapping of less energy; now it is not slower.  npu-hbm2e
-- at batch 1 was a known miss once partial sums moved at 32 bits (plan
-- S11: 101,295 -> 101,624 cycles, the greedy search splitting C at DRAM)
-- until the counts took what the stride-2 window touches (S12: 100,758 ->
-- 100,677).
for _, a in ipairs { dse.arch("edge-npu"):with { ["buffers.2.size"] = "2 MiB" },
                     dse.arch("npu-hbm2e"):with { ["pe_array.rows"] = 32, ["pe_array.cols"] = 32 } } do
  for _, batch in ipairs { 1, 8 } do
    local w = dse.workload("resnet50", { batch = batch })
    local function layer(bw)
      for _, l in ipairs(dse.simulate(a:with { ["dram.bandwidth"] = bw }, w, LAT).layers) do
        if l.name == "res3a_branch1" then return l end
      end
    end
    local slow, fast = layer("50 GB/s"), layer("100 GB/s")
    print(string.format("  %s batch %d res3a_branch1: %d cycles at 50 GB/s, %d at 100 GB/s",
                        a.name, batch, slow.cycles, fast.cycles))
    -- (npu-hbm2e at batch 1 was a known miss, 101,295 -> 101,624, once
    -- partial sums moved at 32 bits, plan S11, until the canonical
    -- candidate of plan S5)
    H.check(fast.latency_s <= slow.latency_s,
            string.format("%s batch %d: res3a_branch1 slower at 100 GB/s", a.name, batch))
  end
end

local results, nonpe, pe, per, worst = 0, 0, 0, {}, {}
for _, pr in ipairs(presets) do
  local name, bufs = pr[1], pr[2]
  local base = dse.arch(name)
  local variants = {
    { "dram.bandwidth", base:with { ["dram.bandwidth"] =
        string.format("%.6g GB/s", 2 * base.dram_bandwidth_bytes_per_s / 1e9) } },
    { "clock", base:with { clock = string.format("%.6g MHz", 2 * base.clock_hz / 1e6) } },
  }
  for i, b in ipairs(bufs) do
    variants[#variants + 1] = { "buffers." .. i .. ".size",
                                base:with { ["buffers." .. i .. ".size"] = twice(b[1]) } }
    local bw, pre = (2 * b[2]) .. " B/cycle", "buffers." .. i
    local ch = { [pre .. ".bandwidth"] = bw }
    if b[3] then ch[pre .. ".read_bandwidth"], ch[pre .. ".write_bandwidth"] = bw, bw end
    variants[#variants + 1] = { pre .. ".bandwidth", base:with(ch) }
  end
  variants[#variants + 1] = { "pe_array.rows", base:with { ["pe_array.rows"] = 2 * base.pe_rows }, true }
  variants[#variants + 1] = { "pe_array.cols", base:with { ["pe_array.cols"] = 2 * base.pe_cols }, true }
  for _, w in ipairs(workloads) do
    local r0 = dse.simulate(base, w, LAT)
    for _, v in ipairs(variants) do
      local what, is_pe = name .. " " .. v[1] .. " x2", v[3]
      local r1 = dse.simulate(v[2], w, LAT)
      H.eq(#r1.layers, #r0.layers, what .. " " .. w.name .. ": layers")
      -- a fused activation runs on its producer's output stream: its own
      -- latency is what it adds beyond the producer's, so it is judged
      -- with its producer, the pair's time (docs/model.md section 4)
      local function fused(k) return r0.layers[k] and (r0.layers[k].fused or r1.layers[k].fused) end
      for i, l0 in ipairs(r0.layers) do
        local l1 = r1.layers[i]
        results = results + 1
        local t0, t1, c0, c1 = l0.latency_s, l1.latency_s, l0.cycles, l1.cycles
        if fused(i) and i > 1 then
          t0, t1 = t0 + r0.layers[i - 1].latency_s, t1 + r1.layers[i - 1].latency_s
          c0, c1 = c0 + r0.layers[i - 1].cycles, c1 + r1.layers[i - 1].cycles
        end
        local bad = t1 > t0 * (1 + 1e-12)
        -- a producer whose activation is fused is judged in that pair
        if not is_pe and fused(i + 1) then bad = false end
        if is_pe then
          local dr, dc = v[2].pe_rows - base.pe_rows, v[2].pe_cols - base.pe_cols
          bad = bad and l0.macs > 0 and c1 > c0 + allowance(l0, base, dr, dc)
          if bad then pe = pe + 1 end
        elseif bad then
          nonpe = nonpe + 1
        end
        if bad then
          per[what] = (per[what] or 0) + 1
          worst[#worst + 1] = { c1 / c0, what, w.name, l0.name, c0, c1 }
        end
      end
    end
  end
end
H.eq(results, 13312, "layer results")
local keys = {}
for k in pairs(per) do keys[#keys + 1] = k end
table.sort(keys)
for _, k in ipairs(keys) do print(string.format("  %-32s %4d worse", k, per[k])) end
table.sort(worst, function(x, y)
  if x[1] ~= y[1] then return x[1] > y[1] end
  return x[2] .. x[3] .. x[4] < y[2] .. y[3] .. y[4]
end)
for i = 1, math.min(8, #worst) do
  local x = worst[i]
  print(string.format("  x%.4f %s %s %s: %d -> %d cycles", x[1], x[2], x[3], x[4], x[5], x[6]))
end
print(string.format("%d layer results; worse: %d on non-PE doublings (at most %d), " ..
                    "%d MAC layers on PE doublings beyond the fill/drain and preload they add (at most %d)",
                    results, nonpe, NONPE_MAX, pe, PE_MAX))
H.check(nonpe <= NONPE_MAX, string.format("%d worse on non-PE doublings, at most %d", nonpe, NONPE_MAX))
H.check(pe <= PE_MAX, string.format("%d worse on PE doublings, at most %d", pe, PE_MAX))
H.finish()
