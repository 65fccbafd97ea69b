-- bad-input corpus (cli_bad_corpus.sh): a layer of m = 1e12
local dse = require "dse"
dse.workload { name = "w", layers = { { name = "fc", type = "gemm", m = 1e12, n = 8, k = 8 } } }
