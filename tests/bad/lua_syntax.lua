-- bad-input corpus (cli_bad_corpus.sh): a syntax error
local dse = require "dse"
local x = = 1
