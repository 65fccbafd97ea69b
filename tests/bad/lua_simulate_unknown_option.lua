-- bad-input corpus (cli_bad_corpus.sh): an option dse.simulate does not take
local dse = require "dse"
dse.simulate("tpu-v1", "alexnet", { batch = 1e30 })
