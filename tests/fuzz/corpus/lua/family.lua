{name = "gpt2ish", family = "transformer",
 model = {kind = "decoder", layers = 2, d_model = 256, heads = 4, d_ff = 1024, vocab = 1000, ffn = "mlp", activation = "gelu"},
 params = {phase = "decode", seq = 128, batch = 1}}
