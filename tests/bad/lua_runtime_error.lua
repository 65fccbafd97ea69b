-- bad-input corpus (cli_bad_corpus.sh): an error the script raises
local dse = require "dse"
error("boom")
