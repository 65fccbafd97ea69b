{name = "tiny", precision = "int8", params = {batch = 2},
 layers = {
  {name = "conv1", type = "conv2d", c = 3, h = 32, w = 32, k = 16, r = 3, s = 3, stride = 2, pad = 1},
  {name = "relu1", type = "activation", c = 16, h = 16, w = 16, kind = "relu"},
  {name = "fc", type = "gemm", m = 1, n = 10, k = 4096},
  {name = "attn", type = "matmul", batch = 4, m = 8, n = 8, k = 16, causal = true},
  {name = "norm", type = "layernorm", rows = 8, cols = 64}}}
