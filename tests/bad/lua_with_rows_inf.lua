-- bad-input corpus (cli_bad_corpus.sh): an override of 1/0 (inf)
local dse = require "dse"
dse.arch("tpu-v1"):with { ["pe_array.rows"] = 1/0 }
