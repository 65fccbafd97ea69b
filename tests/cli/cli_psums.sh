#!/bin/bash
# cli_psums.sh: partial sums move at the accumulator's width, final outputs
# at the element's (docs/engine.md, "Partial sums").  By hand: an int8 GEMM
# m4 n8 k8 (N 4, K 8, C 8) on a 4x4 weight-stationary array, C4 x K4 across
# it, the buffer holding C4 K4 N4 and DRAM looping C (2, outermost) over K
# (2): the reduction loop sits above the buffer, so each of the 32 outputs
# goes to DRAM twice.  Outputs in elements:
#   DRAM: 64 updates (32 partial sums of the first C half, 32 finals), 32
#     reads (the partial sums read back for the second half): partial
#     (32 + 32) x 4 B = 256 B, final 32 x 1 B = 32 B;
#   buf: 64 updates from the array (32 partial, 32 final), 32 fills from
#     DRAM and 32 reads back into the array: partial 96 x 4 B = 384 B,
#     final 32 B.
# DRAM bytes: weights 64 + inputs 32 (one byte each) + outputs 288 = 384
# (reads 64 + 32 + 32 x 4 = 224, writes 32 x 4 + 32 = 160), 24 cycles at
# 16 B/cycle, 384 x 80 pJ = 30.72 nJ.  buf energy: weights 64 x 1 + 64 x 2
# = 192 pJ, inputs 64 x 1 + 32 x 2 = 128 pJ, outputs 128 x 1 + 128 x 2 +
# (128 + 32) x 3 = 864 pJ: 1184 pJ; 640 B at 64 B/cycle = 10 cycles.  NoC:
# every MAC's input (8 bits) and partial sum (32 bits) hop once at 0.01
# pJ/bit, 256 x 0.4 = 102.4 pJ, and 64 weights shift (4 + 1) / 2 pitches,
# 64 x 2.5 x 0.08 = 12.8 pJ: 115.2 pJ.  accumulator_bits: 8 moves all at
# one byte: DRAM 192 B (32 + 32 + 32 outputs), buf 352 B, as before S11.
. "$(dirname "$0")/lib.sh"

cat >"$TMP/arch.yaml" <<'YAML'
name: psum4x4
clock: 1 GHz
pe_array: {rows: 4, cols: 4, dataflow: weight_stationary, precision: int8,
           mac_energy: 1 pJ, register_energy: 0.5 pJ, hop_energy: 0.01 pJ/bit}
buffers:
  - {name: buf, size: 64 KiB, bandwidth: 64 B/cycle,
     read_energy: 1 pJ/B, write_energy: 2 pJ/B, update_energy: 3 pJ/B}
dram: {bandwidth: 16 GB/s, energy: 10 pJ/bit, capacity: 1 GiB}
YAML
printf '%s\n' 'name: gemm' 'layers:' '  - {name: g, type: gemm, m: 4, n: 8, k: 8}' >"$TMP/wl.yaml"
printf '%s\n' 'mappings:' '  g:' '    spatial: {C: 4, K: 4}' '    levels:' \
  '      buf: {tiles: {C: 4, K: 4, N: 4}}' '      DRAM: {order: [C, K]}' >"$TMP/map.yaml"

summary() { # the layer's figures, one line per level and one for the layer
  python3 -c '
import json, sys
L = json.load(open(sys.argv[1]))["layers"][0]
for x in L["accesses"]:
    o = x["output"]
    print("%s bytes %g cycles %d energy %.4g pJ output r%d f%d u%d partial %g final %g" % (
        x["level"], x["bytes"], x["cycles"], x["energy_j"] * 1e12, o["reads"], o["fills"],
        o["updates"], o["partial_bytes"], o["final_bytes"]))
print("dram %d read %d write %d cycles %d energy %.4g nJ noc %.4g pJ sram r%d w%d" % (
    L["dram_bytes"], L["dram_read_bytes"], L["dram_write_bytes"], L["dram_cycles"],
    L["dram_energy_j"] * 1e9, L["noc_energy_j"] * 1e12, L["sram_read_bytes"],
    L["sram_write_bytes"]))' "$1"
}

run "$DSE" sim "$TMP/arch.yaml" "$TMP/wl.yaml" --mappings "$TMP/map.yaml" --format json -o "$TMP/r.json"
expect_code 0 "int8 GEMM, K above the buffer"
S=$(summary "$TMP/r.json")
want="buf bytes 640 cycles 10 energy 1184 pJ output r32 f32 u64 partial 384 final 32
DRAM bytes 384 cycles 24 energy 3.072e+04 pJ output r32 f0 u64 partial 256 final 32
dram 384 read 224 write 160 cycles 24 energy 30.72 nJ noc 115.2 pJ sram r256 w384"
case "$S" in *"$want"*) ok ;; *) bad "32-bit partial sums: got
$S" ;; esac

# accumulator_bits: 8, every output byte as before
sed 's|hop_energy: 0.01 pJ/bit}|hop_energy: 0.01 pJ/bit, accumulator_bits: 8}|' "$TMP/arch.yaml" >"$TMP/a8.yaml"
run "$DSE" sim "$TMP/a8.yaml" "$TMP/wl.yaml" --mappings "$TMP/map.yaml" --format json -o "$TMP/r8.json"
expect_code 0 "accumulator_bits: 8"
S=$(summary "$TMP/r8.json")
want="buf bytes 352 cycles 6 energy 608 pJ output r32 f32 u64 partial 96 final 32
DRAM bytes 192 cycles 12 energy 1.536e+04 pJ output r32 f0 u64 partial 64 final 32"
case "$S" in *"$want"*) ok ;; *) bad "8-bit partial sums: got
$S" ;; esac

# narrower than an element: located, exit 2, nothing written
sed 's|hop_energy: 0.01 pJ/bit}|hop_energy: 0.01 pJ/bit, accumulator_bits: 4}|' "$TMP/arch.yaml" >"$TMP/a4.yaml"
run "$DSE" sim "$TMP/a4.yaml" "$TMP/wl.yaml" -o "$TMP/r4.json"
expect_code 2 "accumulator_bits: 4"
expect_err "a4.yaml:4:98: error: pe_array.accumulator_bits: must be between 8 and 1024 (got 4)" "narrow accumulator"
expect_no_file "$TMP/r4.json" "narrow accumulator"

# a `levels:` level: accumulator_bits per level, its word's when not
# written (a Timeloop import's, which keeps its replay).  A lone level of
# 8-bit words holds the layer: every MAC updates an output there (256),
# all but the 32 first touches read one back (224); 32 of the updates are
# final.  Partial sums (224 + 256 - 32) x 1 B = 448 B, or x 4 B = 1792 B at
# accumulator_bits: 32; finals 32 B either way.  With the 256 weight and
# 256 input reads: 992 or 2336 B, at 8 pJ per one-word access 7936 or
# 18688 pJ.
for acc in "" ", accumulator_bits: 32"; do
  printf '%s\n' 'name: t' 'clock: 1 GHz' 'levels:' \
    "  - {name: Top, read_energy: 8 pJ$acc}" '  - {name: MACC, compute: {mac_energy: 1 pJ}}' >"$TMP/t.yaml"
  run "$DSE" sim "$TMP/t.yaml" "$TMP/wl.yaml" --format json -o "$TMP/t.json"
  expect_code 0 "tree${acc}"
  S=$(summary "$TMP/t.json" | head -1)
  want="Top bytes 992 cycles 0 energy 7936 pJ output r224 f0 u256 partial 448 final 32"
  [ -n "$acc" ] && want="Top bytes 2336 cycles 0 energy 1.869e+04 pJ output r224 f0 u256 partial 1792 final 32"
  [ "$S" = "$want" ] && ok || bad "tree${acc}: got '$S', want '$want'"
done
finish
