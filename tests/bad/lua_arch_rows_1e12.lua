-- bad-input corpus (cli_bad_corpus.sh): rows of 1e12 in a table arch
local dse = require "dse"
dse.arch { name = "x", clock = "1 GHz",
  pe_array = { rows = 1e12, cols = 8, dataflow = "weight_stationary", precision = "int8" },
  dram = { bandwidth = "10 GB/s", energy = "10 pJ/bit", capacity = "1 GiB" } }
