-- bad-input corpus (cli_bad_corpus.sh): a layer of m = 0/0
local dse = require "dse"
dse.workload { name = "w", layers = { { name = "fc", type = "gemm", m = 0/0, n = 8, k = 8 } } }
