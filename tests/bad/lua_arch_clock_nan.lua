-- bad-input corpus (cli_bad_corpus.sh): a clock of 0/0 (NaN)
local dse = require "dse"
dse.arch { name = "x", clock = 0/0, pe_array = {}, dram = {} }
