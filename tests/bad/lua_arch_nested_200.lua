-- bad-input corpus (cli_bad_corpus.sh): a table nested 200 deep
local dse = require "dse"
local t = {}
for _ = 1, 200 do t = { t } end
dse.arch { name = "x", clock = "1 GHz", extra = t }
