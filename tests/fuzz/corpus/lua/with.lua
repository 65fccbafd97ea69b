{["pe_array.rows"] = 64, ["pe_array.cols"] = 32, clock = "1.2 GHz", ["dram.bandwidth"] = "100 GB/s"}
