#!/bin/bash
# cli_levels.sh: archs written as `levels:` (docs/arch.md, "The tree"):
# `dse check` prints the chain with instances; `dse sim` runs them with
# pinned mappings over the tree (their errors at their place) or the
# mapper's, at level 1 or 2.
. "$(dirname "$0")/lib.sh"

L="$SRC/examples/levels"
run "$DSE" check "$L/eyeriss-rs.yaml"
expect_code 0 "check eyeriss-rs"
want="$L/eyeriss-rs.yaml: ok: arch 'eyeriss-rs', 168 MACs, peak 0.0672 TOPS
  DRAM             x1      unbounded, keeps input, weight, output
  global_buffer    x1      108 KiB, block 4, keeps input, output
  PE_column        x1      fan-out 14 x 1, multicast
  PE               x14     fan-out 1 x 12, multicast
  ifmap_spad       x168    24 B, keeps input
  weights_spad     x168    448 B, keeps weight
  psum_spad        x168    48 B, keeps output
  mac              x168    compute"
[ "$OUT" = "$want" ] && ok || bad "eyeriss-rs chain: got '$OUT'"

# a preset and its twin print the same chain below their first line
for p in edge-npu eyeriss; do
  run "$DSE" check "$SRC/arch/$p.yaml"; a=$(printf '%s\n' "$OUT" | tail -n +2)
  run "$DSE" check "$L/$p.yaml"; b=$(printf '%s\n' "$OUT" | tail -n +2)
  [ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "$p: chains differ: '$a' vs '$b'"
done

T="$SRC/tests/data/tree"
# level 1 over the tree (plan S10): 48 MACs on one MAC, 48 cycles; DRAM
# each operand once (3 weights + 18 inputs + 16 outputs = 37 B) at the top
# level's read energy per bit (43.353054 pJ / 64 bits): 37 x 5.41913175 =
# 200.50787475 pJ, with 48 x 0.845 = 40.56 pJ of MACs 241.06787475 pJ
run "$DSE" sim "$T/ispass01.yaml" "$T/ispass01-workload.yaml" --fidelity analytic --format json
expect_code 0 "level 1 on a tree"
for want in '"cycles": 48,' '"dram_bytes": 37,' '"energy_j": 2.4106787475e-10,'; do
  expect_out "$want" "level 1 on a tree: $want"
done
# the mapper over the tree (plan S9) finds a mapping as good as the hand
# mapping of ispass01 (MainMemory S3 > Buffer Q16): its 48 cycles and
# 360.003864 pJ.  Of the mappings that tie on every key the first in nest
# order wins (map_better): both loops in the Buffer, the same counts.
run "$DSE" sim "$T/ispass01.yaml" "$T/ispass01-workload.yaml" --mapping
expect_code 0 "ispass01 mapped"
expect_out "MainMemory: factors none; keeps weight, input, output
Buffer: factors S3 Q16; keeps weight, input, output" "ispass01: the mapper's levels"
run "$DSE" sim "$T/ispass01.yaml" "$T/ispass01-workload.yaml" --format json
for want in '"cycles": 48,' '"energy_j": 3.600038639999999e-10,'; do
  expect_out "$want" "ispass01 mapped: $want"
done
# on pe8 it is no worse than the hand mapping below (64 cycles, 3.25 nJ):
# 64 cycles, 2.19 nJ, the global buffer bypassed, K over all 8 PEs, C at
# the register file keeping each PE's 4 weights and its output
run "$DSE" sim "$T/pe8.yaml" "$T/pe8-workload.yaml" --mapping
expect_code 0 "pe8 mapped"
expect_out "c1                       conv2d                512        64 ns        224 B        4.6   100.0% compute compute         2.19 nJ" "pe8 mapped row"
expect_out "DRAM: factors P4 Q4; keeps weight, input, output
glb: factors none; keeps nothing
PE (spatial 4 x 2): x K4 y K2
reg: factors C4; keeps weight, output" "pe8: the mapper's levels"

# a level too small for one element of each tensor it keeps (3 B): no
# mapping, the error at the level, nothing written
printf '%s\n' 'name: tiny' 'clock: 1 GHz' 'levels:' '  - {name: Top, read_energy: 2 pJ}' \
  '  - {name: Buffer, size: 2 B, read_energy: 1 pJ}' '  - {name: MACC, compute: {mac_energy: 1 pJ}}' >"$TMP/tiny.yaml"
run "$DSE" sim "$TMP/tiny.yaml" "$T/ispass01-workload.yaml" -o "$TMP/out.json"
expect_code 2 "tree: no mapping fits"
[ "$ERR" = "$TMP/tiny.yaml:5:5: error: levels: layer 'conv1d' of workload 'ispass01' cannot be mapped onto arch 'tiny': level 'Buffer' (2 B per instance) is too small for the smallest tile" ] && ok || bad "no mapping fits: got '$ERR'"
expect_no_file "$TMP/out.json" "tree: no mapping fits"

# ispass01 end to end, its mapping in Timeloop's letters (MainMemory[R3] >
# Buffer[P16], dse's S and Q): 48 cycles; MainMemory in blocks of 8 words:
# weights ceil(3/8) x 43.353054, inputs ceil(18/8) x 43.353054, outputs
# ceil(16/8) x 30.878292, leakage 0.007972 x 48 = 235.551456 pJ; Buffer
# (51 + 66 + 80) x 0.42564 + 0.000861 x 48 = 83.892408 pJ; 48 MACs x 0.845 =
# 40.56 pJ; in all 360.003864 pJ (tests/unit/test_tree.c builds the same in C)
run "$DSE" sim "$T/ispass01.yaml" "$T/ispass01-workload.yaml" --mappings "$T/ispass01-map.yaml" --format json -o "$TMP/i1.json"
expect_code 0 "ispass01 through the CLI"
sed -n '/"accesses": \[/,/"mapping"/p' "$TMP/i1.json" >"$TMP/acc.json"
diff -u "$T/ispass01-accesses.golden.json" "$TMP/acc.json" >&2 && ok || bad "ispass01: per-level accesses differ from the golden file"
total=$(sed -n '/"total"/,/"layers"/p' "$TMP/i1.json")
for want in '"cycles": 48,' '"energy_j": 3.600038639999999e-10,' '"dram_bytes": 37,' '"mac_energy_j": 4.056e-11,' \
    '"dram_energy_j": 2.3555145599999994e-10,' '"sram_energy_j": 8.389240799999999e-11,'; do
  case "$total" in *"$want"*) ok ;; *) bad "ispass01 total lacks $want" ;; esac
done

# a memory technology preset on top (tests/data/tree/ispass01-lpddr5.yaml:
# two lpddr5-6400 devices): the same counts (21 B read, 16 B written at
# MainMemory), the DRAM through the burst-level model as a `dram: {preset}`
# arch's, its energy the model's parts (activate + read/write + I/O +
# refresh + background over the layer's 48 ns)
run "$DSE" sim "$T/ispass01-lpddr5.yaml" "$T/ispass01-workload.yaml" --mappings "$T/ispass01-map.yaml" --format json -o "$TMP/i1p.json"
expect_code 0 "ispass01 on a memory preset"
total=$(sed -n '/"total"/,/"layers"/p' "$TMP/i1p.json")
for want in '"cycles": 48,' '"dram_read_bytes": 21,' '"dram_write_bytes": 16,' '"dram_burst_modelled": true,' \
    '"mac_energy_j": 4.056e-11,' '"sram_energy_j": 8.389240799999999e-11,'; do
  case "$total" in *"$want"*) ok ;; *) bad "ispass01 on lpddr5: total lacks $want" ;; esac
done
python3 - "$TMP/i1p.json" <<'PY' && ok || bad "ispass01 on lpddr5: the DRAM energy is not the burst model's parts"
import json, sys
t = json.load(open(sys.argv[1]))["total"]
parts = sum(t["dram_%s_energy_j" % k] for k in ("activate", "rw", "io", "refresh", "background"))
sys.exit(0 if t["dram_activate_energy_j"] > 0 and abs(parts - t["dram_energy_j"]) <= 1e-12 * parts else 1)
PY

# reuse: timeloop needs whole tiles: ispass01 with a padded input (the
# window's span (16 - 1) + (3 - 1) + 1 = 18 columns, no padding)
sed 's/^precision: int8$/precision: int8\nreuse: timeloop/' "$T/ispass01.yaml" >"$TMP/i1t.yaml"
printf '%s\n' 'name: padded' 'precision: int8' 'layers:' \
  '  - {name: conv1d, type: conv1d, c: 1, k: 1, s: 3, q: 16, pad: 1}' >"$TMP/padded.yaml"
run "$DSE" sim "$TMP/i1t.yaml" "$TMP/padded.yaml" --mappings "$T/ispass01-map.yaml" -o "$TMP/x.json"
expect_code 2 "reuse timeloop with padding"
[ "$ERR" = "$T/ispass01-map.yaml:7:7: error: mappings.conv1d.levels: Timeloop's reuse rule needs whole tiles: no padding and an input width of at least 18 (the arch's reuse: timeloop)" ] && ok || bad "reuse timeloop with padding: got '$ERR'"
expect_no_file "$TMP/x.json" "reuse timeloop with padding"
# Timeloop's per-tier spatial rule for the input (docs/engine.md section 3):
# three taps spread below the top, each child's input sliding by one; with
# Q walked at the top, the top reads 3 + 7 = 10 and two children of three
# take each new input over a link from their neighbour: 14 link transfers,
# read at 'mid' when it keeps the input (on top of the 24 it reads for
# 'reg'), dropped, as Timeloop does, when 'mid' bypasses it (the fan-out's
# child is then a bypassed level); walked at 'mid', which bypasses the
# input between the fan-out and 'reg', it is refused
sed 's/^      mid: {factors: {P: 8}}/      top: {factors: {P: 8}}/' "$T/halo-between-map.yaml" \
  >"$TMP/halo-map.yaml"
sed 's/^    keeps: \[weight, output\]/    keeps: [weight, input, output]/' "$T/halo-between.yaml" \
  >"$TMP/halo-keeps.yaml"
halo_counts() {
  printf '%s' "$OUT" | python3 -c '
import json, sys
d = json.load(sys.stdin)
print(" ".join("%s:%d/%d" % (a["level"], a["input"]["reads"], a["input"]["fills"])
               for a in d["layers"][0]["accesses"]))'
}
for arch in halo-keeps halo-between; do
  [ $arch = halo-keeps ] && A="$TMP/$arch.yaml" want="reg:24/24 mid:38/24 top:10/0" ||
    { A="$T/$arch.yaml"; want="reg:24/24 mid:0/0 top:10/0"; }
  run "$DSE" sim "$A" "$T/halo-workload.yaml" --mappings "$TMP/halo-map.yaml" --format json
  expect_code 0 "halo over links ($arch)"
  got=$(halo_counts)
  [ "$got" = "$want" ] && ok || bad "halo over links ($arch): got '$got', want '$want'"
done
run "$DSE" sim "$T/halo-between.yaml" "$T/halo-workload.yaml" \
  --mappings "$T/halo-between-map.yaml" -o "$TMP/x.json"
expect_code 2 "temporal loop between tiers"
[ "$ERR" = "$T/halo-between-map.yaml:8:7: error: mappings.conv1d.levels: loop 2 (Q) at level 1, which bypasses the input, walks between the input's holders at levels 2 and 0: Timeloop's spatial reuse rule over their fan-outs is modelled with no temporal loop there (the arch's reuse: timeloop)" ] && ok || bad "temporal loop between tiers: got '$ERR'"
expect_no_file "$TMP/x.json" "temporal loop between tiers"
# without padding the same arch gives ispass01's figures (nothing slides back)
run "$DSE" sim "$TMP/i1t.yaml" "$T/ispass01-workload.yaml" --mappings "$T/ispass01-map.yaml" --format json
expect_out '"energy_j": 3.600038639999999e-10,' "reuse timeloop: ispass01's energy"

# a bounded backing store (1 KiB above ispass01's Buffer) holds the whole
# layer (3 + 18 + 16 B): 48 cycles, its capacity the "DRAM"'s.
printf '%s\n' 'name: bounded' 'clock: 1 GHz' 'levels:' '  - {name: Top, size: 1 KiB, read_energy: 2 pJ}' \
  '  - {name: Buffer, size: 64 B, read_energy: 1 pJ}' '  - {name: MACC, compute: {mac_energy: 1 pJ}}' >"$TMP/two.yaml"
printf '%s\n' 'mappings:' '  conv1d: {levels: {Top: {factors: {S: 3}}, Buffer: {factors: {Q: 16}}}}' >"$TMP/two-map.yaml"
run "$DSE" sim "$TMP/two.yaml" "$T/ispass01-workload.yaml" --mappings "$TMP/two-map.yaml" --format json
expect_code 0 "bounded top"
expect_out '"cycles": 48,' "bounded top: 48 cycles"
expect_out '"dram_capacity_bytes": 1024,' "bounded top: its capacity"
printf '%s\n' 'name: one-level' 'clock: 1 GHz' 'levels:' '  - {name: Buffer, size: 64 B, read_energy: 1 pJ}' \
  '  - {name: MACC, compute: {mac_energy: 1 pJ}}' >"$TMP/one.yaml"
printf '%s\n' 'mappings:' '  conv1d: {levels: {Buffer: {factors: {S: 3, Q: 16}}}}' >"$TMP/one-map.yaml"
# one storage level (Timeloop's ispass00): the layer lives there, nothing
# is filled; 48 + 48 + 32 reads and 48 updates at 1 pJ, 48 MACs at 1 pJ
run "$DSE" sim "$TMP/one.yaml" "$T/ispass01-workload.yaml" --mappings "$TMP/one-map.yaml" --format json
expect_code 0 "one storage level"
expect_out '"fills": 0,' "one level: no fills"
expect_out '"energy_j": 2.24e-10,' "one level: 176 + 48 pJ"

# a fan-out: K 8 over 4 x 2 PEs, C 4 in DRAM, P and Q at glb: 4 x 16 = 64
# cycles, 512 MACs at 100%; DRAM moves each weight (32) and input (64) once
# and each output (128) once: 224 B
run "$DSE" sim "$T/pe8.yaml" "$T/pe8-workload.yaml" --mappings "$T/pe8-map.yaml" --mapping
expect_code 0 "pe8"
expect_out "c1                       conv2d                512        64 ns        224 B        4.6   100.0% compute compute         3.25 nJ" "pe8 row"
expect_out "DRAM: factors C4; keeps weight, input, output
glb: factors Q4 P4; keeps input, output
PE (spatial 4 x 2): x K4 y K2
reg: factors none; keeps weight, output
DRAM:" "pe8 levels above the loops"
expect_out "        parallel-for-x K in [0, 8) step 2
          parallel-for-y K in [0, 2) step 1" "pe8 spatial loops"

# the twelve-PE case (tests/unit/test_tree.c): K 12 over 12 of 16 PEs, each
# reading its weight register 903168 times at 0.144 pJ: 12 x 903168 x 0.144
# = 1560674.304 pJ, its 12 fills free; leakage 0.001165 pJ x 903168 cycles
# x 12 utilized registers = 12626.28864 pJ; utilization 12 / 16
run "$DSE" sim "$T/twelve-pes.yaml" "$T/twelve-pes-workload.yaml" --mappings "$T/twelve-pes-map.yaml" --format json -o "$TMP/t12.json"
expect_code 0 "twelve PEs"
acc=$(sed -n '/"accesses": \[/,/"input"/p' "$TMP/t12.json")
for want in '"instances": 16,' '"leakage_j": 1.2626288639999999e-08,' '"reads": 10838016,' '"fills": 12,' \
    '"utilized_instances": 12,' '"reads_per_instance": 903168,' '"energy_j": 1.560674304e-06'; do
  case "$acc" in *"$want"*) ok ;; *) bad "twelve PEs: weight_reg lacks $want" ;; esac
done
total=$(sed -n '/"total"/,/"layers"/p' "$TMP/t12.json")
for want in '"cycles": 903168,' '"utilization": 0.75,'; do
  case "$total" in *"$want"*) ok ;; *) bad "twelve PEs: total lacks $want" ;; esac
done

while read -r file want; do
  run "$DSE" sim "$T/pe8.yaml" "$T/pe8-workload.yaml" --mappings "$T/$file" -o "$TMP/x.json"
  expect_code 2 "$file"
  first=$(printf '%s\n' "$ERR" | head -1)
  [ "$first" = "$T/$file:$want" ] && ok || bad "$file: got '$first', want '$T/$file:$want'"
  expect_no_file "$TMP/x.json" "$file"
done <<'LIST'
bad-factors.yaml 4:27: error: mappings.c1.levels: the factors of C multiply to 2 (DRAM 2), not the layer's C = 4
bad-spatial.yaml 6:25: error: mappings.c1.levels.PE.spatial.x: the factors multiply to 8, more than the 4 instances of 'PE' along X
bad-order-unknown.yaml 4:42: error: mappings.c1.levels.DRAM.order: unknown dimension 'X'; expected G, N, K, C, P, Q, R or S
bad-order-repeated.yaml 5:50: error: mappings.c1.levels.glb.order: 'P' is listed twice
bad-keep.yaml 7:20: error: mappings.c1.levels.reg.keep: level 'reg' cannot keep input (the arch's keeps: weight, output)
bad-kept-nowhere.yaml 4:7: error: mappings.c1.levels: tensor 'weight' is kept at no level
bad-mixed.yaml 5:43: error: mappings.c1.levels.glb: mixes the two forms of a level: tiles/bypass (today's arrays) or factors/spatial/keep (a 'levels' arch), not both
bad-storage-spatial.yaml 5:45: error: mappings.c1.levels.glb.spatial: 'glb' is a storage level; spatial factors go on a spatial level (PE)
bad-level.yaml 6:7: error: mappings.c1.levels.PEs: unknown level; did you mean 'PE'? (the arch's levels: reg, PE, glb, DRAM)
bad-capacity.yaml 4:7: error: mappings.c1.levels: the tiles at 'reg' need 17 B per instance, more than its 16 B
LIST

# network hops over the tree (docs/energy.md): noc4, a 2 x 2 multicast,
# reducing fan-out at 1 pJ per 8-bit word and PE pitch, K 2 on X, C 2 on Y,
# K 2 in DRAM, P 2 and Q 2 at glb.  Weights: every PE its own (K and C index
# them): glb reads 8 for the registers' 8 fills, multicast 1, Timeloop's
# hops sqrt(4 x 1) + (2 - 1) / 2 - 2 + 1/2 = 1 each: 8 hops, 8 pJ.  Inputs
# (no register keeps them): per step the 2 of C, each to the 2 PEs of K:
# 2 x 4 (P Q) x 2 (K) = 16 transfers, multicast 2, each sqrt 8 + (2 - sqrt 2)
# / 2 - sqrt 2 + 1/2 = 3/2 + sqrt 2 / 2 hops: 16 x 2.2071068 = 35.3137085
# hops and pJ.  Outputs: the 2 PEs of C reduced into one update of glb:
# 16 updates, reduction 2, the same 35.3137085.  noc 78.627417 pJ; with reg
# 7.2 + glb 56 + DRAM 256 + MACs 16 pJ the layer takes 413.827417 pJ.
run "$DSE" sim "$T/noc4.yaml" "$T/noc4-workload.yaml" --mappings "$T/noc4-map.yaml" --format json -o "$TMP/noc.json"
expect_code 0 "noc4"
net=$(sed -n '/"network": \[/,/\]/p' "$TMP/noc.json" | tr -d ' \n')
want='"network":[{"name":"PE","tensor":"weight","transfers":8,"multicast":1,"hops":8,"energy_j":8e-12},'
want+='{"name":"PE","tensor":"input","transfers":16,"multicast":2,"hops":35.31370849898477,"energy_j":3.531370849898477e-11},'
want+='{"name":"PE","tensor":"output","transfers":16,"multicast":2,"hops":35.31370849898477,"energy_j":3.531370849898477e-11}],'
[ "$net" = "$want" ] && ok || bad "noc4: network entries: got '$net'"
total=$(sed -n '/"total"/,/"layers"/p' "$TMP/noc.json")
for want in '"energy_j": 4.1382741699796954e-10,' '"noc_energy_j": 7.862741699796954e-11,'; do
  case "$total" in *"$want"*) ok ;; *) bad "noc4: total lacks $want" ;; esac
done
# the same network in Lua
cat >"$TMP/noc.lua" <<LUA
local dse = require "dse"
local r = dse.simulate(dse.arch("$T/noc4.yaml"), dse.workload("$T/noc4-workload.yaml"),
                       {mappings = "$T/noc4-map.yaml"})
for _, x in ipairs(r.layers[1].network) do
  print(string.format("%s %s %g %g %.6f %.6f", x.name, x.tensor, x.transfers, x.multicast,
                      x.hops, x.energy_j * 1e12))
end
LUA
run "$DSE" run "$TMP/noc.lua"
expect_code 0 "noc4 in Lua"
[ "$OUT" = "PE weight 8 1 8.000000 8.000000
PE input 16 2 35.313708 35.313708
PE output 16 2 35.313708 35.313708" ] && ok || bad "noc4 in Lua: got '$OUT'"

# the tree form on an arch of today's keys
run "$DSE" sim tpu-v1 "$T/pe8-workload.yaml" --mappings "$T/pe8-map.yaml" -o "$TMP/x.json"
expect_code 2 "tree form on tpu-v1"
expect_err "factors, spatial and keep are for a 'levels' arch; an arch of today's keys takes tiles, order and bypass" "tree form on tpu-v1"
finish
