-- bad-input corpus (cli_bad_corpus.sh): dse.arch(42)
local dse = require "dse"
dse.arch(42)
