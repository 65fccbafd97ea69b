-- bad-input corpus (cli_bad_corpus.sh): a sweep stored in the file named by arg[1]
local dse = require "dse"
dse.sweep { arch = "tpu-v1", workload = "alexnet", fidelity = "analytic", store = arg[1] }
