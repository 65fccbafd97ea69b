-- bad-input corpus (cli_bad_corpus.sh): pinned mappings from the file named by arg[1]
local dse = require "dse"
dse.simulate("tpu-v1", "alexnet", { mappings = arg[1] })
