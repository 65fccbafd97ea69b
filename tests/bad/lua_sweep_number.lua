-- bad-input corpus (cli_bad_corpus.sh): dse.sweep(42)
local dse = require "dse"
dse.sweep(42)
