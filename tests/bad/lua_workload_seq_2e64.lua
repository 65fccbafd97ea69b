-- bad-input corpus (cli_bad_corpus.sh): a parameter of 2^64
local dse = require "dse"
dse.workload("gpt2", { seq = 2^64 })
