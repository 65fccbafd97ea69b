{name = "twelve-pes", clock = "1 GHz", precision = "int16",
 levels = {
  {name = "glb", read_energy = "0 pJ"},
  {name = "PE", spatial = {x = 16}},
  {name = "weight_reg", size = "2 B", read_energy = "0.144 pJ", fill_energy = "0 pJ",
   leakage = "0.001165 pJ", keeps = {"weight"}},
  {name = "mac", compute = {mac_energy = "0 pJ"}}}}
