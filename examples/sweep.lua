-- sweep.lua: PE rows x global-buffer size on the datacenter NPU for
-- ResNet-50 (batch 8): the Pareto front over latency, energy and die area,
-- printed and written to out/front.csv.
local dse = require "dse"
local results = dse.sweep {
  arch = "npu-hbm2e",
  workload = dse.workload("resnet50", { batch = 8 }),
  grid = { ["pe_array.rows"] = { 64, 128, 256 }, ["buffers.2.size"] = { "4 MiB", "16 MiB" } },
}
local front = dse.pareto(results, { "latency_s", "energy_j", "area_mm2" })
print(#front .. " of " .. #results .. " points on the front")
for _, r in ipairs(front) do
  print(string.format("%3d rows, %-6s  %.3f ms  %5.2f mJ  %3.0f mm^2", r.arch.pe_rows,
    r.point["buffers.2.size"], r.total.latency_s * 1e3, r.total.energy_j * 1e3, r.total.area_mm2))
end
dse.mkdir("out")
dse.write_csv("out/front.csv", front)
