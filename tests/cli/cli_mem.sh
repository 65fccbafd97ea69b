#!/bin/bash
# dse mem: characterization of DRAM technology presets; bad input.
. "$(dirname "$0")/lib.sh"

run "$DSE" list memories; expect_out "hbm3-6400" "list memories"
expect_out "gddr7-28000" "list memories has gddr7"

# peak = pin rate x width: HBM3 6.4 Gb/s x 1024 = 819.2 GB/s per stack
run "$DSE" mem hbm3-6400 --format json; expect_code 0 "mem json"
expect_out '"peak_bandwidth_bytes_per_s": 819200000000' "hbm3 peak"
run "$DSE" mem hbm3-6400 --count 4 --format csv; expect_out ",3276800000000," "4 stacks"
run "$DSE" mem gddr7-28000; expect_out "achieved_bandwidth_bytes_per_s" "table"
expect_out "gddr7-28000 x 1 device" "table header"
# random 64-byte reads reach far less than a sequential stream
run "$DSE" mem ddr4-3200 --format csv
seq=$(echo "$OUT" | tail -1 | cut -d, -f7)
run "$DSE" mem ddr4-3200 --pattern random --format csv
rnd=$(echo "$OUT" | tail -1 | cut -d, -f7)
awk -v s="$seq" -v r="$rnd" 'BEGIN { exit !(s > 0.85 && r < s / 2) }' && ok || bad "seq $seq random $rnd"
# writes mixed in cost turnarounds
run "$DSE" mem ddr4-3200 --read-ratio 0.5 --format csv
mix=$(echo "$OUT" | tail -1 | cut -d, -f7)
awk -v s="$seq" -v m="$mix" 'BEGIN { exit !(m < s) }' && ok || bad "mixed $mix vs seq $seq"
run "$DSE" mem hbm3-6400 --pattern strided --stride 8KiB -o "$TMP/m.json" --format json
expect_code 0 "strided to file"; [ -s "$TMP/m.json" ] && ok || bad "no m.json"
# deterministic
run "$DSE" mem lpddr5-6400 --pattern random --seed 7 --format csv; a="$OUT"
run "$DSE" mem lpddr5-6400 --pattern random --seed 7 --format csv
[ "$a" = "$OUT" ] && ok || bad "random not deterministic"

# bad input: exit 2, clear message, nothing written
run "$DSE" mem hbm9; expect_code 2 "unknown preset"
expect_err "unknown memory preset 'hbm9'" "unknown preset message"
expect_err "hbm3-6400" "lists known presets"
run "$DSE" mem hbm3-6400 --pattern zigzag; expect_code 2 "bad pattern"
run "$DSE" mem hbm3-6400 --read-ratio 1.5; expect_code 2 "bad ratio"
run "$DSE" mem hbm3-6400 --bytes 0; expect_code 2 "zero-length stream"
run "$DSE" mem hbm3-6400 --count 0; expect_code 2 "zero count"
run "$DSE" mem hbm3-6400 --bytes 1TB; expect_code 2 "too much traffic"
run "$DSE" mem gddr6-16000 --pattern random --size 4GiB --bytes 4GiB; expect_code 2 "request larger than the memory"
expect_err "dse: error: --size '4GiB' is larger than the memory (gddr6-16000 x 1: 2 GiB)" "request larger message"
run "$DSE" mem hbm3-6400 --pattern strided --stride 0; expect_code 2 "zero stride"
run "$DSE" mem hbm3-6400 --format xml -o "$TMP/x.json"; expect_code 2 "bad format"
expect_no_file "$TMP/x.json"
cat > "$TMP/bad.yaml" <<'YAML'
name: bad
standard: hbm3
unit: stack
organization: {channels: 16, pseudo_channels: 2, channel_width: 32, bank_groups: 4,
  banks_per_group: 4, rows: 32768, row_size: 1000 B, burst_length: 8}
data_rate: 6.4 Gb/s
capacity: 16 GiB
timing: {tCK: 0.625 ns, CL: 20, CWL: 8, tRCD: 31, tRP: 26, tRAS: 45, tRC: 60,
  tCCD_S: 2, tCCD_L: 4, tRRD_S: 4, tRRD_L: 5, tFAW: 24, tWR: 33, tWTR: 9,
  tRTP: 6, tRFC: 560, tREFI: 6240}
energy: {act_pre: 0.8 nJ, read: 1.6 pJ/bit, write: 2 pJ/bit, io: 0.3 pJ/bit,
  refresh: 30 nJ, background: 300 mW}
cost_per_gb: 15
phy: {area: 10 mm^2}
YAML
run "$DSE" check "$SRC/arch/memory/hbm3-6400.yaml"; expect_out "ok: memory preset 'hbm3-6400', hbm3, 819.2 GB/s and 16 GiB per stack" "check a memory preset"
run "$DSE" check "$TMP/bad.yaml"; expect_code 2 "check a bad memory preset"
expect_err "bad.yaml:5:46: error: organization.row_size" "check reports the location"
run "$DSE" mem "$TMP/bad.yaml"; expect_code 2 "bad preset file"
expect_err "bad.yaml:5:46: error: organization.row_size: row size 1000 B is not a multiple of the 32 B burst" "row size"
expect_err "bad.yaml:8:75: error: timing.tRC: tRC (60) < tRAS + tRP" "JEDEC tRC"

# an arch with a memory technology simulates and reports it
run "$DSE" sim npu-gddr7 resnet50 --format json; expect_code 0 "sim npu-gddr7"
expect_out '"dram_row_hit_rate"' "row hit rate in json"
expect_out '"memory_cost_usd"' "memory cost in json"
run "$DSE" sim npu-gddr7 alexnet; expect_out "memory: 12 x gddr7-28000 (gddr7), 24 GiB, \$120; row hits" "memory line in the table"
expect_out "silicon: " "silicon line in the table"
run "$DSE" sim tpu-v1 alexnet; expect_out "silicon: 317.0 mm^2 at 28 nm (PE array 79.4" "TPU v1 area in the table"

# a die over the reticle: exit 2, located at technology.node, nothing written
cat > "$TMP/big.yaml" <<'YAML'
name: big
clock: 1 GHz
pe_array: {rows: 1024, cols: 1024, dataflow: weight_stationary, precision: fp32}
dram: {bandwidth: 100 GB/s, energy: 5 pJ/bit, capacity: 8 GiB}
technology: {node: 28 nm}
YAML
run "$DSE" sim "$TMP/big.yaml" alexnet --format json -o "$TMP/big.json"; expect_code 2 "die over the reticle"
expect_err "big.yaml:5:20: error: technology.node: arch 'big' needs a" "reticle error located"
expect_err "beyond the 858 mm^2 reticle" "reticle reason"
expect_no_file "$TMP/big.json" "reticle: no output"
# cost keys: NRE and a fixed yield show in the table
run "$DSE" sim "$SRC/tests/data/cost-keys.yaml" alexnet; expect_code 0 "cost keys"
expect_out "yield 0.50;" "fixed yield in the table"
expect_out "masks \$" "NRE in the table"
finish
