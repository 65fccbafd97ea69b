-- bad-input corpus (cli_bad_corpus.sh): dse.simulate(nil, ...)
local dse = require "dse"
dse.simulate(nil, "alexnet")
