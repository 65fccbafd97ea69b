-- bad-input corpus (cli_bad_corpus.sh): a grid key misspelt
local dse = require "dse"
dse.sweep { arch = "tpu-v1", workload = "alexnet", grid = { ["pe_array.rowz"] = { 8 } } }
