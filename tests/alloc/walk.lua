-- walk.lua: what tests/alloc/alloc_walk.sh fails one allocation of, at every
-- N in turn: every arch preset, every memory preset (under a small arch), every zoo workload, a level-2 simulation, a sweep into a store
-- (its layers kept) and the HTML report of it.  The outputs go to the
-- folder given (arg[1]); the script prints nothing but the store's count.
local dse = require "dse"
local out = assert(arg[1], "usage: dse run walk.lua OUTDIR")
local src = os.getenv("DSE_DATA_DIR") or "."
for _, name in ipairs { "edge-npu", "eyeriss", "npu-gddr6", "npu-gddr7", "npu-hbm2e-dram",
  "npu-hbm2e", "npu-hbm3", "npu-lpddr5x", "tpu-v1" } do
  dse.arch(name)
end
for _, m in ipairs { "ddr3-1600", "ddr4-3200", "ddr5-4800", "ddr5-6400", "gddr6-14000",
  "gddr6-16000", "gddr6x-21000", "gddr7-28000", "gddr7-32000", "hbm2-2000", "hbm2-2400",
  "hbm2e-3200", "hbm3-6400", "hbm3e-9200", "lpddr5-6400", "lpddr5x-8533" } do
  local unit = m:match("^hbm") and "stacks" or m:match("^ddr") and "dimms" or "devices"
  dse.arch { name = m, clock = "1 GHz",
    pe_array = { rows = 8, cols = 8, dataflow = "output_stationary", precision = "int8" },
    buffers = { { name = "sram", size = "256 KiB", bandwidth = "64 B/cycle" } },
    dram = { preset = m, [unit] = 2 } }
end
for _, name in ipairs { "alexnet", "alexnet_conv", "bert_base", "gpt2", "llama2_7b",
  "mobilenet_v2", "resnet50", "vgg16" } do
  dse.workload(name)
end
dse.workload(src .. "/examples/onnx/tiny_detector.onnx", { inputs = { images = { 1, 3, 64, 64 } } })
dse.simulate(dse.arch("edge-npu"), "alexnet", { fidelity = "cycle", map_budget = 8 })
local results = dse.sweep {
  arch = "edge-npu", workloads = { "alexnet_conv" }, map_budget = 4,
  grid = { ["pe_array.rows"] = { 8, 16 }, ["buffers.2.size"] = { "256 KiB", "1 MiB" } },
  store = out .. "/sweep.db", layers = true, jobs = 1, progress = false,
}
dse.report { out = out .. "/report", results = results }
print(#results)
