#!/bin/bash
# cli_scalesim.sh: SCALE-Sim topology and config import.
. "$(dirname "$0")/lib.sh"
D="$SRC/tests/data/scalesim"

# Convolution topology: Conv1 (224, 11x11, stride 4, no padding: 55x55
# outputs) = 105,415,200 MACs; Block_DP is depthwise (groups = 8): 14*14*9*8
# = 14,112 MACs, the sum of SCALE-Sim's 8 per-channel layers; Point (9
# fields, equal strides) = 14*14*8*16 = 25,088.
run "$DSE" show workload "$D/convs.csv" --format json; expect_code 0 "load csv"
expect_out '"total_macs": 105454400' "csv MACs"
run "$DSE" import scalesim "$D/convs.csv"; expect_code 0 "import csv"
expect_out "- {name: Block_DP, type: conv2d, h: 16, w: 16, r: 3, s: 3, c: 8, k: 8, groups: 8, stride: 1}" "depthwise import"
echo "$OUT" > "$TMP/convs.yaml"
run "$DSE" show workload "$TMP/convs.yaml" --format json
expect_out '"total_macs": 105454400' "round trip"
# Strides of height and width (SCALE-Sim's 9th column): Rows2 has ceil((34
# - 3 + 2) / 2) = 17 rows and ceil((34 - 3 + 1) / 1) = 32 columns of outputs,
# 17 * 32 * 9 * 3 * 8 = 117,504 MACs; its input grows to 16 * 2 + 3 = 35 rows.
run "$DSE" import scalesim "$D/strides.csv"; expect_code 0 "import strides"
expect_out "- {name: Rows2, type: conv2d, h: 35, w: 34, r: 3, s: 3, c: 3, k: 8, stride: [2, 1]}" \
  "per-axis strides"
expect_out "- {name: Same, type: conv2d, h: 10, w: 10, r: 3, s: 3, c: 8, k: 8, stride: 1}" \
  "equal strides stay a number"
run "$DSE" show workload "$D/strides.csv" --format json
expect_out '"total_macs": 154368' "strides MACs: 117504 + 8 * 8 * 8 * 9 * 8"
run "$DSE" show workload "$D/gemms.csv" --format json
expect_out '"total_macs": 341072' "mnk MACs: 100*30*70 + 256*512"

# Config: array, dataflow, SRAM sizes in KiB, bandwidth in words/cycle.
run "$DSE" import scalesim "$D/tiny_ws_user.cfg" -o "$TMP/arch.yaml"; expect_code 0 "import cfg"
a=$(cat "$TMP/arch.yaml")
for want in "name: tiny_ws" "rows: 16" "cols: 8" "dataflow: weight_stationary" \
            "size: 64 KiB" "size: 32 KiB" "size: 16 KiB" "holds: [weight]" "bandwidth: 10 GB/s" \
            "reuse: scalesim"; do
  case "$a" in *"$want"*) ok ;; *) bad "imported cfg lacks '$want'" ;; esac
done
# SCALE-Sim never limits SRAM ports: the buffers get no bandwidth (reuse:
# scalesim, unlimited), only DRAM has one
[ "$(grep -c 'bandwidth' "$TMP/arch.yaml")" = 1 ] && ok || bad "imported buffers have a bandwidth"
run "$DSE" sim "$TMP/arch.yaml" "$D/gemms.csv" --format json
expect_code 0 "imported arch simulates"
expect_out '"peak_macs_per_cycle": 128' "imported peak"
run "$DSE" sim "$D/tiny_os_calc.cfg" "$D/gemms.csv" --format json
expect_code 0 "cfg loads directly"
expect_out '"dram_bandwidth_bytes_per_s": 1000000000000000' "CALC: DRAM never limits"
expect_out '"dataflow": "output_stationary"' "os"
# GEMM 100x30x70 on 16x8 output stationary: ceil(100/16)=7 x ceil(30/8)=4
# = 28 folds of SCALE-Sim's T + R + C - 2 = 70 + 16 + 8 - 2 = 92 cycles,
# 2,576, and SCALE-Sim's total is the 0-based cycle of the last: 2,575
case "$OUT" in *'"compute_cycles": 2575'*) ok ;; *) bad "os compute cycles" ;; esac
case "$OUT" in *'"cycles": 2575,'*) ok ;; *) bad "os cycles: the array's, no pipeline ends" ;; esac
# ... and SCALE-Sim's word counts (docs/scalesim.md, "SRAM and DRAM counts"):
# the array edge reads the 100 x 70 inputs once per column fold, 28,000,
# the 70 x 30 filters once per row fold, 14,700, and writes the 3,000
# outputs plus 16 + 8 per fold, 3,672; the inputs (7,000 words) and filters
# (2,100) fit the 64 and 32 KiB SRAMs' flush windows (32,750 and 16,350
# words): fetched once; 3,000 outputs, under half the 16 KiB ofmap SRAM, in
# one drain.  One byte a word: each operand's bytes are its words.
echo "$OUT" | python3 -c '
import json, sys
acc = {a["level"]: a for a in json.load(sys.stdin)["layers"][0]["accesses"]}
def words(level, opd):
    e = acc[level][opd]
    return [e["reads"], e["fills"], e["updates"], e["bytes"]]
print(words("ifmap_sram", "input"), words("filter_sram", "weight"), words("ofmap_sram", "output"),
      words("DRAM", "input"), words("DRAM", "weight"), words("DRAM", "output"))' >"$TMP/words"
[ "$(cat "$TMP/words")" = "[28000, 7000, 0, 35000] [14700, 2100, 0, 16800] [3000, 0, 3672, 6672] \
[7000, 0, 0, 7000] [2100, 0, 0, 2100] [0, 0, 3000, 3000]" ] && ok || bad "os SCALE-Sim counts: got $(cat "$TMP/words")"
run "$DSE" sim "$D/tiny_os_calc.cfg" "$D/gemms.csv" --format json --fidelity analytic
# level 1: the folds without fill and drain, 28 x 70
case "$OUT" in *'"compute_cycles": 1960'*) ok ;; *) bad "os compute cycles, level 1" ;; esac

# Bad input: located errors, exit 2, nothing written
while read -r file want; do
  run "$DSE" import scalesim "$D/$file" -o "$TMP/x.yaml"
  expect_code 2 "$file"
  first=$(printf '%s\n' "$ERR" | head -1)
  [ "$first" = "$D/$file:$want" ] && ok || bad "$file: got '$first', want '$D/$file:$want'"
  expect_no_file "$TMP/x.yaml" "$file"
done <<'LIST'
bad_value.csv 2:20: error: layers[1] 'c1'.k: expected an integer, got 'x4'
bad_fields.csv 3:8: error: expected 8 comma-separated fields (name, IFMAP height, IFMAP width, filter height, filter width, channels, filters, stride), got 3
bad_kernel.csv 2:1: error: layers[1] 'big': kernel 7x7 (dilation 1) is larger than the padded input 4x4
bad_key.cfg 6:1: error: unknown key 'ArrayWidht' in [architecture_presets]; did you mean 'ArrayWidth'?
bad_dataflow.cfg 14:12: error: Dataflow: unknown value 'xs'; expected ws, os or is
LIST
run "$DSE" import scalesim "$SRC/arch/tpu-v1.yaml"; expect_code 2 "import yaml"
expect_err "dse: error: '$SRC/arch/tpu-v1.yaml' is neither a SCALE-Sim topology (.csv) nor a config (.cfg)" "import yaml message"
# a directory or a missing file is that, whatever its name ends in
mkdir -p "$TMP/topo.csv"
for d in "$TMP" "$TMP/topo.csv"; do
  run "$DSE" import scalesim "$d" -o "$TMP/x.yaml"; expect_code 2 "import a directory"
  [ "$ERR" = "$d: error: is a directory, not a file" ] && ok || bad "import $d: $ERR"
  expect_no_file "$TMP/x.yaml" "import a directory"
done
run "$DSE" import scalesim "$TMP/none"; expect_code 2 "import a missing file"
[ "$ERR" = "$TMP/none: error: no such file" ] && ok || bad "import a missing file: $ERR"
run "$DSE" import timeloop x.yaml; expect_code 2 "import timeloop"

# The peer tool's own files, when shared/ is beside the checkout.
V="$SRC/../shared/validation/scalesim"
if [ -d "$V" ]; then
  # every config on gemm_small, ResNet-18 on one config per dataflow (an
  # input-stationary import counts two flattened groups fold by fold and PE
  # by PE: about 1 s for ResNet-18, which ASan makes minutes over 12 configs)
  for c in "$V"/*.cfg; do
    run "$DSE" sim "$c" "$V/gemm_small.csv" --format csv; expect_code 0 "$(basename "$c")"
  done
  for c in "$V"/a32x32_{os,ws,is}_s64-64-64_calc.cfg; do
    run "$DSE" sim "$c" "$V/Resnet18.csv" --format csv; expect_code 0 "$(basename "$c") Resnet18"
  done
  # Every topology there (reference.csv is SCALE-Sim's output, not a topology).
  for t in "$V"/*.csv; do
    [ "$(basename "$t")" = reference.csv ] && continue
    run "$DSE" check "$t"; expect_code 0 "shared topology $(basename "$t")"
  done
fi
finish
