-- bad-input corpus (cli_bad_corpus.sh): an arch preset that does not exist
local dse = require "dse"
dse.arch("tpu-v9")
