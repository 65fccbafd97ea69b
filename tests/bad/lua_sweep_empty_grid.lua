-- bad-input corpus (cli_bad_corpus.sh): a grid axis without values
local dse = require "dse"
dse.sweep { arch = "tpu-v1", workload = "alexnet", grid = { ["pe_array.rows"] = {} } }
