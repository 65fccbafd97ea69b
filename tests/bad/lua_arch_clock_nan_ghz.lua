-- bad-input corpus (cli_bad_corpus.sh): a clock of nan GHz
local dse = require "dse"
dse.arch { name = "x", clock = "nan GHz", pe_array = {}, dram = {} }
