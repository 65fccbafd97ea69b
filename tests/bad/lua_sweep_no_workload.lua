-- bad-input corpus (cli_bad_corpus.sh): a sweep without a workload
local dse = require "dse"
dse.sweep { arch = "tpu-v1" }
