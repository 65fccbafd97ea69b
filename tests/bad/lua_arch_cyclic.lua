-- bad-input corpus (cli_bad_corpus.sh): a table that contains itself
local dse = require "dse"
local t = {}
t.self = t
dse.arch { name = "x", clock = "1 GHz", pe_array = t }
