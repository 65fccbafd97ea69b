-- test_api.lua: the dse Lua module, happy paths with checkable numbers.
package.path = "./?.lua;" .. package.path
local H = require "harness"
local dse = require "dse"

H.eq(dse.version, "0.1.0", "version")

-- presets: TPU v1 peak 91.75 TOPS, ridge ~1350 MACs/B
local tpu = dse.arch("tpu-v1")
H.eq(tpu.name, "tpu-v1", "arch name")
H.eq(tpu.peak_ops_per_s, 91750400000000.0, "tpu peak")
H.near(tpu.ridge_ops_per_byte / 2, 1350, 1e-3, "tpu ridge MACs/B")
H.eq(tpu.pe_rows, 256, "rows")
H.check(tostring(tpu):find("dse.Arch 'tpu-v1'", 1, true), "tostring arch")

-- a Lua-table arch goes through the same validator
local mini = dse.arch {
  name = "mini", clock = "1 GHz",
  pe_array = { rows = 8, cols = 8, dataflow = "output_stationary", precision = "int8" },
  buffers = { { name = "sram", size = "256 KiB", bandwidth = "64 B/cycle" } },
  dram = { bandwidth = "10 GB/s", energy = "10 pJ/bit", capacity = "1 GiB" },
}
H.eq(mini.peak_ops_per_s, 2 * 64 * 1e9, "table arch peak")
H.eq(mini.dataflow, "output_stationary", "table arch dataflow")

-- variants leave the base untouched
local wide = tpu:with { ["pe_array.cols"] = 128, ["buffers.3.size"] = "8 MiB" }
H.eq(wide.pe_cols, 128, "with cols")
H.eq(wide.sram_bytes, 256 * 1024 + 4 * 1048576 + 8 * 1048576, "with buffer size")
H.eq(tpu.pe_cols, 256, "base unchanged")

-- workloads
local rn = dse.workload("resnet50", { batch = 4 })
H.eq(rn.batch, 4, "batch param")
H.eq(#rn:layers(), 122, "resnet50 layers")
H.eq(rn:layers()[1].macs, 4 * 118013952, "conv1 MACs x batch")
local g = dse.workload { name = "g", layers = { { name = "fc", type = "gemm", m = 1, n = 4096, k = 4096 } } }
H.eq(g.nlayers, 1, "table workload")

-- simulate returns a table shaped like the result JSON
local r = dse.simulate(tpu, rn)
H.eq(r.total.macs, 4 * 3857973248, "total MACs")
H.eq(r.total.ops, 2 * r.total.macs, "ops = 2 x MACs")
H.eq(#r.layers, 122, "result layers")
H.eq(r.layers[1].name, "conv1", "first layer")
H.eq(r.arch.name, "tpu-v1", "result arch")
H.eq(r.workload.batch, 4, "result batch")
local eb = r.total.energy_breakdown_j
H.near(eb.mac + eb.register + eb.noc + eb.vector + eb.sram + eb.dram + eb.static + eb.clock, r.total.energy_j, 1e-12,
       "energy breakdown sums")
local sb = 0
for _, v in pairs(eb.buffers) do sb = sb + v end
H.near(sb, eb.sram, 1e-12, "buffer energies sum to the SRAM part")
H.check(eb.buffers.unified_buffer > 0 and eb.buffers.accumulators > 0, "energy per buffer")
local eo = r.total.energy_by_operand_j
H.near(eo.weight + eo.input + eo.output + eo.compute + eo.static, r.total.energy_j, 1e-12,
       "energy by operand sums")
H.check(eb.noc > 0 and eb.static > 0, "NoC and static energy counted")
-- static energy is the leakage power over the latency, the clock's likewise
H.near(eb.static, r.total.static_power_w * r.total.latency_s, 1e-9, "static = power x latency")
H.near(eb.clock, r.total.clock_power_w * r.total.latency_s, 1e-9, "clock = power x latency")
-- TPU v1's DDR3 is a plain channel with no price: no PHY, controller or
-- memory part, no unit cost (nil, not 0); the parts modelled still sum
local ab = r.total.area_breakdown_mm2
H.check(ab.phy == nil and ab.controller == nil, "tpu-v1 PHY and controller not modelled")
H.near(ab.pe + ab.sram + ab.vector + ab.other, r.total.area_mm2, 1e-12, "area breakdown sums")
local cb = r.total.cost_breakdown_usd
H.check(cb.memory == nil and r.total.cost_usd == nil and r.total.cost_modelled == false,
        "tpu-v1 unit cost not modelled")
H.check(cb.die > 0 and cb.package == 21, "die and package priced")
local full = dse.simulate("npu-hbm2e", rn, { fidelity = "analytic" }).total
local fa, fc = full.area_breakdown_mm2, full.cost_breakdown_usd
H.near(fa.pe + fa.sram + fa.vector + fa.phy + fa.controller + fa.other, full.area_mm2, 1e-12, "area breakdown sums")
H.near(fc.die + fc.memory + fc.package + fc.nre, full.cost_usd, 1e-12, "cost breakdown sums")
H.near(r.total.throughput_inf_per_s, 4 / r.total.latency_s, 1e-12, "throughput = batch / latency")
for _, l in ipairs(r.layers) do
  H.check(l.bound == "compute" or l.bound == "memory", "bound value")
end
-- by hand (level 1): the 4096x4096 int8 FC on TPU v1 streams 16 MiB + 8 KiB
local fc = dse.simulate("tpu-v1", g, { fidelity = "analytic" }).layers[1]
H.eq(fc.dram_bytes, 16777216 + 8192, "fc DRAM bytes")
H.eq(fc.limiter, "dram", "fc limiter")
-- level 2 (the default) moves at least that, and is as DRAM-bound
local fc2 = dse.simulate("tpu-v1", g).layers[1]
H.check(fc2.dram_bytes >= 16777216 + 8192, "fc DRAM bytes, level 2")
H.eq(fc2.limiter, "dram", "fc limiter, level 2")
H.eq(dse.simulate("edge-npu", "alexnet").total.macs, 724406816, "alexnet by name")

-- level 2: mapped, with exact accesses per level
local c = dse.simulate("npu-hbm2e", "alexnet", { fidelity = "cycle", objective = "energy" })
H.eq(c.fidelity, "cycle", "cycle fidelity")
H.eq(c.total.macs, 724406816, "cycle MACs")
local conv1 = c.layers[1]
H.check(conv1.mapping:find("parallel-for", 1, true), "mapping text")
H.eq(conv1.accesses[1].level, "registers", "innermost level")
H.eq(conv1.accesses[#conv1.accesses].level, "DRAM", "outermost level")
-- the whole-layer DRAM stream: the same bytes, each layer's own DRAM time
local prof = dse.simulate("npu-hbm3", "resnet50")
local full = dse.simulate("npu-hbm3", "resnet50", { dram_model = "full" })
H.eq(full.total.dram_bytes, prof.total.dram_bytes, "dram_model full: same bytes")
local differ = false
for i, l in ipairs(full.layers) do differ = differ or l.dram_cycles ~= prof.layers[i].dram_cycles end
H.check(differ, "dram_model full: own DRAM time")
-- totals of the cycle terms are the layers' sums under either model (a
-- missing total.dram_cycles once read nil under both, hence "equal")
for _, r in ipairs { prof, full } do
  for _, k in ipairs { "compute_cycles", "dram_cycles", "sram_cycles" } do
    local s = 0
    for _, l in ipairs(r.layers) do s = s + l[k] end
    H.eq(r.total[k], s, "total." .. k .. " = sum over the layers")
  end
end
H.check(full.total.dram_cycles ~= prof.total.dram_cycles, "dram_model full: own total DRAM time")
H.eq(conv1.accesses[1].weight.reads, conv1.macs, "every MAC reads a stationary weight")
H.eq(conv1.cycles, conv1.compute_cycles + conv1.stall_cycles, "cycles = compute + stalls")
local sw = dse.sweep { arch = "edge-npu", workload = "alexnet", fidelity = "cycle",
                       grid = { ["buffers.2.size"] = { "256 KiB", "2 MiB" } } }
H.eq(sw[1].fidelity, "cycle", "sweep at level 2")

-- pinned mappings: evaluated exactly as written
local src = os.getenv("DSE_DATA_DIR") or "../.."
local pin = dse.simulate("tpu-v1", "alexnet", { fidelity = "cycle",
  mappings = src .. "/tests/data/mappings/tpu_alexnet.yaml" })
H.eq(pin.layers[1].folds, 6050, "pinned conv1 folds")
H.eq(pin.layers[1].mappings_evaluated, 1, "pinned: one evaluation")
H.eq(pin.layers[1].map_cached, false, "pinned: evaluated, never from the memo")

-- a `levels:` arch as a Lua table, through the same validator, with the
-- twelve-PE case's pinned mapping (tests/cli/cli_levels.sh works it out)
local tree = dse.arch {
  name = "twelve-pes", clock = "1 GHz", precision = "int16",
  levels = {
    { name = "glb", read_energy = "0 pJ" },
    { name = "PE", spatial = { x = 16 } },
    { name = "weight_reg", size = "2 B", read_energy = "0.144 pJ", fill_energy = "0 pJ",
      leakage = "0.001165 pJ", keeps = { "weight" } },
    { name = "mac", compute = { mac_energy = "0 pJ" } },
  },
}
H.eq(tree.peak_macs_per_cycle, 16, "tree arch: 16 MACs")
H.eq(tree.sram_bytes, 16 * 2, "tree arch: 16 registers of 2 B")
local t12 = dse.simulate(tree, src .. "/tests/data/tree/twelve-pes-workload.yaml",
  { fidelity = "cycle", mappings = src .. "/tests/data/tree/twelve-pes-map.yaml" })
local reg = t12.layers[1].accesses[1]
H.eq(reg.level, "weight_reg", "tree: innermost level first")
H.eq(reg.instances, 16, "tree: instances")
H.eq(reg.weight.utilized_instances, 12, "tree: utilized")
H.eq(reg.weight.reads_per_instance, 903168, "tree: reads per instance")
H.near(reg.weight.energy_j, 1560674.304e-12, 1e-12, "tree: weight register energy")
H.eq(t12.total.cycles, 903168, "tree: cycles")

-- determinism
local r2 = dse.simulate(tpu, rn)
H.eq(r2.total.latency_s, r.total.latency_s, "deterministic latency")
H.eq(r2.total.energy_j, r.total.energy_j, "deterministic energy")

-- pareto: minimize a and b; (3,3) is dominated by (2,2)
local pts = {
  { total = { a = 1, b = 3 } }, { total = { a = 2, b = 2 } },
  { total = { a = 3, b = 1 } }, { total = { a = 3, b = 3 } },
}
local front = dse.pareto(pts, { "a", "b" })
H.eq(#front, 3, "pareto size")
H.eq(front[3], pts[3], "pareto keeps input order")
-- maximize b: (1,3) beats everything
local front2 = dse.pareto(pts, { "a", "-b" })
H.eq(#front2, 1, "pareto maximize")
H.eq(front2[1], pts[1], "pareto maximize point")
-- infeasible points never make the front
local front3 = dse.pareto({ { feasible = false, reason = "x" }, pts[2] }, { "a" })
H.eq(#front3, 1, "pareto skips infeasible")

-- analysis, by hand: (1,4) (2,2) (4,1) on the front, (3,3) behind, the
-- second (2,2) equal to the first; the knee (2,2) (scaled sums 1, 2/3, 1);
-- the reference 4 + 3/10 in each; the volume 3.3 x 0.3 + 2.3 x 2 + 0.3 x 1
local function pt(a, b, w) return { workload = { name = w or "w" }, total = { latency_s = a, energy_j = b } } end
local ap = { pt(1, 4), pt(2, 2), pt(4, 1), pt(3, 3), pt(2, 2), pt(9, 9, "v") }
-- budgets: energy_j <= 2.5 leaves (2,2) and (4,1) of w's front
H.eq(#dse.pareto(ap, { "latency_s", "energy_j" }, { constraints = { energy_j = "<= 2.5" } }), 2, "pareto budget")
local an = dse.analysis(ap, { "latency_s", "energy_j" })
H.eq(#an, 2, "analysis: a group a workload")
H.eq(an[1].workload.name, "w", "analysis: its workload")
H.eq(an[1].results, 5, "analysis: its results")
H.eq(#an[1].front, 3, "analysis: the front, equal points once")
H.eq(an[1].front[2], ap[2], "analysis: the front's rows, the first of equal ones")
H.eq(an[1].knee, ap[2], "analysis: the knee")
H.near(an[1].reference.latency_s, 4.3, 1e-12, "analysis: the reference point")
H.near(an[1].hypervolume, 5.89, 1e-12, "analysis: the hypervolume")
H.eq(an[1].hypervolume_exact, true, "analysis: exact in 2-D")
H.eq(an[1].hypervolume_error, 0, "analysis: no error")
-- one point: the reference a tenth above it
H.near(an[2].hypervolume, 0.81, 1e-12, "analysis: one point's volume")
-- a maximized objective's reference in its own sign: a bound below
-- (over all six: energy from 1 to 9, the bound 1 - 0.8)
local amax = dse.analysis(ap, { "latency_s", "-energy_j" }, { by = false })
H.near(amax[1].reference.energy_j, 0.2, 1e-12, "analysis: maximized energy's reference")
H.eq(#amax[1].front, 2, "analysis: maximize energy: (1,4) and (9,9)")
H.fails(function() dse.analysis(ap, { "latency_s" }, { samples = 0 }) end,
  "dse.analysis: samples: expected an integer of at least 1, got 0", "analysis samples 0")
H.fails(function() dse.analysis(ap, { "latency_s" }, { rank = true }) end,
  "dse.analysis: unknown option 'rank'; expected one of: by, constraints, samples, seed",
  "analysis unknown option")

-- writers
local csv = H.tmpname(".csv")
dse.write_csv(csv, { { x = 1, y = "a,b" }, { x = 2.5, y = "c" } })
H.eq(H.read(csv), 'x,y\n1,"a,b"\n2.5,c\n', "write_csv plain rows")
dse.write_csv(csv, { r }, { "arch", "workload", "macs", "latency_s" })
H.check(H.read(csv):find("^arch,workload,macs,latency_s\ntpu%-v1,resnet50,15431892992,"), "write_csv results")
-- a generated workload's phase and seq get columns (the name alone does
-- not tell seq 64 from 128); a layer list leaves them empty
local gen = dse.sweep { arch = "npu-hbm2e", fidelity = "analytic",
  workloads = { dse.workload("gpt2", { seq = 64 }), dse.workload("gpt2", { phase = "prefill", seq = 128 }), "alexnet" } }
dse.write_csv(csv, gen)
local lines = {}
for l in H.read(csv):gmatch("[^\n]+") do lines[#lines + 1] = l:match("^[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*") end
H.eq(table.concat(lines, "|"), "arch,workload,phase,seq,feasible,macs|npu-hbm2e,gpt2,decode,64,true,124711680|" ..
  "npu-hbm2e,gpt2,prefill,128,true,15964274688|npu-hbm2e,alexnet,,,true,724406816", "write_csv phase and seq")
dse.write_csv(csv, gen, { "workload", "batch", "seq" })
H.eq(H.read(csv), "workload,batch,seq\ngpt2,1,64\ngpt2,1,128\nalexnet,1,\n", "write_csv named workload columns")
local js = H.tmpname(".json")
dse.write_json(js, { b = { 1, 2, 3 }, a = "x\"y", c = true })
H.eq(H.read(js), '{\n  "a": "x\\"y",\n  "b": [\n    1,\n    2,\n    3\n  ],\n  "c": true\n}\n', "write_json")
os.remove(csv)
os.remove(js)

-- a Timeloop arch and problem load as dse.arch/dse.workload do (the
-- importer's documents; no ERT here: dse's technology models), and run with the
-- imported mapping: the counts and cycles of `dse sim` on the same files
-- (tests/cli/cli_timeloop.sh: 328 cycles, 136 input fills at the Buffer)
do
  local T = "../data/timeloop/"
  local a = dse.arch(T .. "conv1d.arch.yaml")
  H.eq(a.name, "conv1d.arch", "Timeloop arch name")
  local r = dse.simulate(a, dse.workload(T .. "conv1d.prob.yaml"),
    { mappings = T .. "golden/conv1d/mappings.yaml" })
  H.eq(r.total.cycles, 328, "Timeloop arch cycles")
  H.eq(string.format("%.6g", r.total.energy_j), "2.40358e-08",
    "Timeloop arch without an ERT: dse's energies")
  H.eq(r.layers[1].accesses[1].level, "Buffer", "Timeloop arch level")
  H.eq(r.layers[1].accesses[1].input.fills, 136, "Timeloop arch input fills")
end

H.finish()
