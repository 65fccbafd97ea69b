-- bad-input corpus (cli_bad_corpus.sh): dse.write_csv into a directory that does not exist
local dse = require "dse"
dse.write_csv("/nonexistent-dir/x.csv", {})
