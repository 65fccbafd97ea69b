-- bad-input corpus (cli_bad_corpus.sh): map_budget of -1
local dse = require "dse"
dse.simulate("tpu-v1", "alexnet", { map_budget = -1 })
