{name = "mini", clock = "1 GHz",
 pe_array = {rows = 8, cols = 8, dataflow = "output_stationary", precision = "int8"},
 buffers = {{name = "sram", size = "256 KiB", bandwidth = "64 B/cycle"}},
 dram = {bandwidth = "10 GB/s", energy = "10 pJ/bit", capacity = "1 GiB"}}
