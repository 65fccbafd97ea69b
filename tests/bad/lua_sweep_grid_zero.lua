-- bad-input corpus (cli_bad_corpus.sh): a grid value out of range
local dse = require "dse"
dse.sweep { arch = "tpu-v1", workload = "alexnet", grid = { ["pe_array.rows"] = { 8, 0 } } }
