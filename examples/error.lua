-- error.lua: an arch override out of range; `dse run` prints the located
-- error and a traceback and exits 2.
local dse = require "dse"
local tpu = dse.arch("tpu-v1")
local bad = tpu:with { ["pe_array.rows"] = 0 }
print(bad)
