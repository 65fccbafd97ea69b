-- store.lua: a sweep whose results go to an SQLite store (docs/store.md).
-- Run it twice: the second run reads every result back instead of
-- simulating it.  `dse export out/store.db` writes them as CSV.
local dse = require "dse"
dse.mkdir("out")
local results = dse.sweep {
  arch = "edge-npu",
  workloads = { "alexnet", "mobilenet_v2" },
  grid = { ["pe_array.rows"] = { 16, 32 }, ["buffers.2.size"] = { "512 KiB", "1 MiB" } },
  store = "out/store.db",
}
local back = 0
for _, r in ipairs(results) do if r.stored then back = back + 1 end end
print(string.format("%d results, %d read back from out/store.db", #results, back))
