-- bad-input corpus (cli_bad_corpus.sh): dse.open of the file named by arg[1] (the test passes a FIFO, a directory, random bytes)
local dse = require "dse"
dse.open(arg[1])
