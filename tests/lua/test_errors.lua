-- test_errors.lua: bad input through the Lua API raises clear errors that
-- name the script line or the YAML location, and never crashes.
package.path = "./?.lua;" .. package.path
local H = require "harness"
local dse = require "dse"

local function arch_with_rows(rows)
  return dse.arch {
    name = "bad", clock = "1 GHz",
    pe_array = { rows = rows, cols = 8, dataflow = "weight_stationary", precision = "int8" },
    dram = { bandwidth = "10 GB/s", energy = "10 pJ/bit", capacity = "1 GiB" },
  }
end

-- table configs: same validator, location = this script and line
H.raises(function() arch_with_rows(0) end, "test_errors.lua:8:1: error: pe_array.rows: must be between 1 and 65536 (got 0)", "rows 0")
H.raises(function() arch_with_rows("16") end, "pe_array.rows: expected an integer, got a string '16'", "rows as string")
H.raises(function() arch_with_rows(2.5) end, "pe_array.rows: must be an integer (got 2.5)", "rows 2.5")
H.raises(function()
  dse.arch { name = "x", clock = 1e9, pe_array = {}, dram = {} }
end, "clock: missing unit in '1000000000'; expected a frequency", "clock without unit")
H.raises(function() dse.arch { name = "x", clokc = "1 GHz" } end, "unknown key 'clokc'; did you mean 'clock'?", "typo key")
H.raises(function() dse.arch { name = "x", clock = print } end, "clock: cannot use a function as a configuration value", "function value")

-- wrong types to the API
H.raises(function() dse.arch(42) end, "bad argument #1 to 'arch'", "arch(42)")
H.raises(function() dse.simulate("tpu-v1") end, "bad argument #2 to 'simulate'", "simulate one arg")
H.raises(function() dse.simulate("tpu-v1", 7) end, "bad argument #2 to 'simulate' (expected one workload (a zoo name, path, table or dse.Workload), got number)", "simulate(arch, 7)")
H.raises(function() dse.simulate("tpu-v1", "resnet50", { fidelity = "cycles" }) end, "dse.simulate: unknown fidelity 'cycles'; did you mean 'cycle'?", "fidelity")
H.raises(function() dse.simulate("tpu-v1", "resnet50", { objective = "speed" }) end,
  "dse.simulate: unknown objective 'speed'; expected one of: latency, energy, edp, dram", "objective")
H.raises(function() dse.simulate("npu-hbm3", "resnet50", { dram_model = "ful" }) end, "unknown dram_model 'ful'", "dram_model")
H.raises(function() dse.simulate("tpu-v1", "resnet50", { map_budget = 0 }) end, "map_budget must be an integer from 1 to 100000", "map_budget")
H.raises(function() dse.simulate("tpu-v1", "resnet50", { fidelty = "analytic" }) end, "unknown option 'fidelty'", "sim option")
H.raises(function() dse.pareto({}, {}) end, "expected 1 to 16 objective names", "pareto no objectives")
H.raises(function() dse.pareto({ { total = { x = 1 } } }, { "y" }) end, "objective 'y' not found in results[1]", "pareto field")
H.raises(function() dse.write_json("/nonexistent-dir/x.json", {}) end, "cannot write '/nonexistent-dir/x.json'", "unwritable json")
H.raises(function() dse.write_json("/tmp/x.json", { f = print }) end, "cannot encode a function", "json function")

-- unknown names list what exists
H.raises(function() dse.arch("tpu") end, "unknown arch preset 'tpu'", "unknown preset")
H.raises(function() dse.workload("resnet") end, "unknown workload 'resnet'", "unknown workload")
H.raises(function() dse.workload("gpt2", { phase = "decoder" }) end, "did you mean 'decode'?", "bad phase")
H.raises(function() dse.workload("gpt2", { phase = {} }) end, "expected a number or string, got table", "param type")
H.raises(function() dse.workload("gpt2", { seq = 0 }) end, "params.seq: must be between 1 and", "seq 0")
H.raises(function() dse.workload("resnet50", { batch = 1.5 }) end, "params.batch: must be an integer (got 1.5)", "batch 1.5")

H.raises(function() dse.workload({ name = "t", layers = {} }, { batch = 2 }) end,
  "bad argument #2 to 'workload' (parameters apply to a workload name or path", "table workload with params")
H.raises(function() dse.mkdir("/dev/null/x") end, "cannot create directory '/dev/null'", "mkdir over a file")

-- variants
local tpu = dse.arch("tpu-v1")
H.eq(tpu.dram_type, "ddr3", "arch dram_type")
H.eq(tpu.vector_lanes, 256, "arch vector_lanes")
-- a vector section without lanes keeps the default (= cols)
H.eq(tpu:with { vector = { fuse_activations = false } }.vector_lanes, 256, "vector lanes default")
H.raises(function() tpu:with { ["pe_array.nope.x"] = 1 } end, "no key 'nope' to descend into", "with bad path")
local here = debug.getinfo(1, "l").currentline + 1 -- the error names the next line
H.raises(function() tpu:with { ["pe_array.rows"] = 0 } end, "test_errors.lua:" .. here .. ":1: error: pe_array.rows: must be between 1 and 65536 (got 0)", "with rows 0")
H.raises(function() tpu:with { ["buffers.9.size"] = "1 MiB" } end, "index 9 out of range (list has 3 items)", "with index")

-- DRAM capacity is an error for simulate, a result for sweep
H.raises(function() dse.simulate("edge-npu", "llama2_7b") end, "error: dram.capacity: workload 'llama2_7b'", "capacity")
local rs = dse.sweep { arch = "edge-npu", workload = "llama2_7b", grid = { ["dram.capacity"] = { "4 GiB", "16 GiB" } } }
H.eq(#rs, 2, "sweep with infeasible point")
H.eq(rs[1].feasible, false, "4 GiB infeasible")
H.check(rs[1].reason:find("short by", 1, true), "infeasible reason")
H.eq(rs[1].point["dram.capacity"], "4 GiB", "infeasible point recorded")
H.eq(rs[2].feasible, true, "16 GiB feasible")
-- a buffer too small for the smallest tile is bypassed at level 2 (the
-- outputs go to the global buffer); alexnet's latency does not depend on
-- the accumulators here
local small = dse.sweep { arch = "npu-hbm2e", workload = "alexnet", fidelity = "cycle",
  grid = { ["buffers.1.size"] = { "1 B", "64 B", "2 MiB" } } }
for i = 1, 3 do H.eq(small[i].feasible, true, "accumulators " .. i .. " feasible") end
H.eq(small[1].total.latency_s, small[3].total.latency_s, "1 B accumulators bypassed")
H.eq(small[2].total.latency_s, small[3].total.latency_s, "64 B accumulators")
-- a die over the reticle: an infeasible point with the reason; yields and
-- energies out of range are errors at the path
local big = dse.sweep { arch = "tpu-v1", workload = "alexnet", fidelity = "analytic",
  grid = { ["pe_array.rows"] = { 256, 1024 }, ["pe_array.cols"] = { 1024 } } }
H.eq(big[1].feasible, true, "256 x 1024 fits the reticle")
H.eq(big[2].feasible, false, "1024 x 1024 at 28 nm does not")
H.check(big[2].reason:find("beyond the 858 mm^2 reticle", 1, true), "reticle reason")
H.raises(function() tpu:with { cost = { yield = 1.5 } } end, "cost.yield: a yield is a fraction in (0, 1] (got '1.5')", "yield > 1")
H.raises(function() tpu:with { ["buffers.1.update_energy"] = "-2 pJ" } end, "buffers[1].update_energy: must be positive", "negative update energy")
local vol = tpu:with { cost = { volume = 100000 } }
local rv = dse.simulate(vol, "alexnet", { fidelity = "analytic" })
H.near(rv.total.cost_nre_usd, 1.2e6 / 100000, 1e-12, "28 nm mask set over 100k units")
H.near(rv.total.cost_breakdown_usd.nre, 12, 1e-12, "nre in the cost breakdown")
-- a yield that leaves no good die: an error for a fixed yield, an infeasible
-- point for a model (Poisson at 100 defects/cm^2)
H.raises(function() tpu:with { cost = { yield = 1e-5 } } end, "below 1e-4", "yield too small")
local dead = dse.sweep { arch = tpu, workload = "alexnet", fidelity = "analytic",
  grid = { cost = { { yield_model = "poisson", defect_density = 100 }, { yield_model = "murphy" } } } }
H.eq(dead[1].feasible, false, "no good die: infeasible")
H.check(dead[1].reason:find("good dies per wafer", 1, true), "no good die: reason")
H.eq(dead[2].feasible, true, "murphy at the node's D0")
-- output-stationary NoC energy does not depend on the order buffers are listed in
local os1 = tpu:with { ["pe_array.dataflow"] = "output_stationary" }
local os2 = os1:with { buffers = {
  { name = "accumulators", size = "4 MiB", bandwidth = "1024 B/cycle", holds = { "output" } },
  { name = "weight_fifo", size = "256 KiB", bandwidth = "256 B/cycle", holds = { "weight" } },
  { name = "unified_buffer", size = "24 MiB", bandwidth = "512 B/cycle", holds = { "input", "output" } } } }
H.near(dse.simulate(os1, "alexnet").total.noc_energy_j, dse.simulate(os2, "alexnet").total.noc_energy_j,
  1e-12, "OS NoC energy independent of buffer order")
-- hop_energy: "x pJ" is per element hop, "x pJ/bit" per bit (int8: 8x)
local e_el = dse.simulate(tpu:with { ["pe_array.hop_energy"] = "1 pJ" }, "alexnet", { fidelity = "analytic" })
local e_bit = dse.simulate(tpu:with { ["pe_array.hop_energy"] = "1 pJ/bit" }, "alexnet", { fidelity = "analytic" })
H.near(e_bit.total.noc_energy_j, 8 * e_el.total.noc_energy_j, 1e-12, "hop energy per element vs per bit")
-- a report mixing archs with and without a node renders over objectives
-- both model (the chart falls back to die area and skips the node-less
-- point); their energies do not compare (no leakage or clock without a
-- node), and the node-less arch has no die area
local mini = dse.arch { name = "mini", clock = "1 GHz",
  pe_array = { rows = 64, cols = 64, dataflow = "weight_stationary", precision = "int8" },
  buffers = { { name = "sram", size = "4 MiB", bandwidth = "256 B/cycle" } },
  dram = { bandwidth = "100 GB/s", energy = "1 pJ/bit", capacity = "8 GiB" } }
local mixed = { dse.simulate(tpu, "alexnet", { fidelity = "analytic" }),
                dse.simulate(mini, "alexnet", { fidelity = "analytic" }) }
local rdir = H.tmpname("") .. ".d"
dse.mkdir(rdir)
H.fails(function() dse.report { path = rdir .. "/report.md", results = mixed } end,
  "dse.report: objective 'energy_j' does not compare: results[2] (arch 'mini') leaves leakage and clock out "
  .. "(the arch names no technology.node: static_modelled false) and results[1] (arch 'tpu-v1') counts them; "
  .. "give every arch a technology.node or none", "mixed energies")
H.fails(function() dse.pareto(mixed, { "latency_s", "area_mm2" }) end,
  "dse.pareto: objective 'area_mm2' is not modelled for results[2] (arch 'mini'): the arch names no "
  .. "technology.node (area_modelled false); model it or leave 'area_mm2' out of the objectives", "no area")
H.check(io.open(rdir .. "/report.md") == nil, "nothing written on a refused objective")
dse.report { path = rdir .. "/report.md", results = mixed, objectives = { "latency_s", "-throughput_inf_per_s" } }
local rep = H.read(rdir .. "/report.md")
H.check(rep:find("tradeoff-", 1, true) ~= nil, "mixed report has its chart")
for _, f in ipairs { "report.md", "tradeoff-alexnet.svg", "roofline-alexnet.svg" } do os.remove(rdir .. "/" .. f) end
os.remove(rdir)
-- a CSV whose first row is infeasible still has the result layout
local csv = H.tmpname(".csv")
dse.write_csv(csv, rs)
local text = H.read(csv)
H.check(text:find("^arch,workload,phase,seq,feasible,dram.capacity,macs,"), "infeasible-first csv header")
H.check(text:find("\nedge%-npu,llama2_7b,decode,2048,false,4 GiB,,"), "infeasible row")
H.check(text:find("short by", 1, true), "infeasible reason column")
os.remove(csv)

-- sweep misuse
H.raises(function() dse.sweep { arch = "tpu-v1" } end, "missing 'workload' or 'workloads'", "sweep no workload")
H.raises(function() dse.sweep { arhc = "tpu-v1" } end, "unknown key 'arhc'; did you mean 'arch'?", "sweep typo")
H.raises(function() dse.sweep { arch = "tpu-v1", workload = "alexnet", grid = { ["pe_array.rows"] = {} } } end,
  "dse.sweep: grid['pe_array.rows']: expected a non-empty list of values, got an empty table", "sweep empty grid list")
H.raises(function() dse.sweep { arch = "tpu-v1", workload = "alexnet", grid = { ["pe_array.rows"] = { 0 } } } end,
  "pe_array.rows: must be between 1 and 65536 (got 0)", "sweep bad value")

H.finish()
