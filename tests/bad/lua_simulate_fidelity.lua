-- bad-input corpus (cli_bad_corpus.sh): an unknown fidelity
local dse = require "dse"
dse.simulate("tpu-v1", "alexnet", { fidelity = "cycles" })
