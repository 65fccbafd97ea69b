-- bad-input corpus (cli_bad_corpus.sh): an override down a path that does not exist
local dse = require "dse"
dse.arch("tpu-v1"):with { ["pe_array.nope.x"] = 1 }
