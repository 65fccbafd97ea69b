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

# requests smaller than a burst: the figures count the bytes asked for
# (1 MiB of 1 B reads), the bus ones whole 32 B HBM3 bursts (32x as many)
run "$DSE" mem hbm3-6400 --pattern random --size 1 --bytes 1MiB --format json; expect_code 0 "1 B requests"
expect_out '"bytes": 1048576, "bus_bytes": 33554432, "request_bytes": 1, "burst_bytes": 32, "reads": 1048576,' "asked vs bus bytes"
echo "$OUT" | python3 -c '
import json, sys
r = json.load(sys.stdin)
t = r["time_s"]
assert abs(r["achieved_bandwidth_bytes_per_s"] - 1048576 / t) < 1e-9 * r["achieved_bandwidth_bytes_per_s"]
assert abs(r["bus_bandwidth_bytes_per_s"] - 33554432 / t) < 1e-9 * r["bus_bandwidth_bytes_per_s"]
assert abs(r["efficiency"] - r["achieved_bandwidth_bytes_per_s"] / r["peak_bandwidth_bytes_per_s"]) < 1e-12
# random 32 B bursts: FR-FCFS keeps the banks busy, tFAW bounds it (about
# 230 GB/s on the bus; Ramulator 2.1 reaches 219 on 64 B requests)
assert 6e9 < r["achieved_bandwidth_bytes_per_s"] < 8e9, r["achieved_bandwidth_bytes_per_s"]
assert 200e9 < r["bus_bandwidth_bytes_per_s"] < 250e9, r["bus_bandwidth_bytes_per_s"]
' && ok || bad "1 B requests: bandwidths"
run "$DSE" mem hbm3-6400 --pattern random --size 1 --bytes 1MiB
expect_out "
  bytes                                   1048576 B (1 MiB)
  bus_bytes                              33554432 B (32 MiB)
  request_bytes                                 1 B
  burst_bytes                                  32 B
  reads                                   1048576
" "exact byte and command counts in the table"
expect_out "(the bus moved 32x the bytes asked for, in whole 32 B bursts: achieved bandwidth and energy per bit count the bytes asked for)" "table says which is shown"
case "$OUT" in *e+*) bad "a count in e-notation: $OUT" ;; *) ok ;; esac
# whole bursts: asked = bus
run "$DSE" mem hbm3-6400 --pattern random --format json
expect_out '"bytes": 16777216, "bus_bytes": 16777216, "request_bytes": 64,' "64 B requests fill bursts"
case "$OUT" in *'"bus_bandwidth_bytes_per_s"'*) ok ;; *) bad "no bus bandwidth" ;; esac
run "$DSE" mem hbm3-6400 --pattern random; case "$OUT" in *"the bus moved"*) bad "note without cause" ;; *) ok ;; esac
# seq walks whole 4 KiB requests: --bytes rounds down to them, and less than one is an error
run "$DSE" mem hbm3-6400 --bytes 5000 --format json; expect_out '"bytes": 4096, "bus_bytes": 4096, "request_bytes": 4096,' "seq rounds down"
run "$DSE" mem hbm3-6400 --bytes 100; expect_code 2 "seq less than one request"
expect_err "dse: error: --bytes 100 B is less than one request (seq walks 4 KiB requests)" "seq less than one request"

# the Ramulator validation metrics: always in JSON (steady figures null
# unless --steady), in the table and CSV only with --steady
run "$DSE" mem ddr4-3200 --format json
expect_out '"refreshes": 88, "steady_bandwidth_bytes_per_s": null, "steady_efficiency": null, "steady_t10_s": null, "steady_t90_s": null, "read_latency_avg_s": ' "new JSON fields last"
run "$DSE" mem ddr4-3200; case "$OUT" in *steady*|*row_misses*) bad "table without --steady: $OUT" ;; *) ok ;; esac
run "$DSE" mem ddr4-3200 --format csv; case "$OUT" in *steady*) bad "csv without --steady" ;; *) ok ;; esac
run "$DSE" mem hbm3-6400 --pattern strided --stride 64 --size 64 --read-ratio 0.5 --region 1GiB --steady --format json
expect_code 0 "steady json"
echo "$OUT" | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert r["row_hits"] + r["row_misses"] + r["row_conflicts"] == r["reads"] + r["writes"], r
assert 0 < r["steady_t10_s"] < r["steady_t90_s"] < r["time_s"], r
assert abs(r["steady_efficiency"] - r["steady_bandwidth_bytes_per_s"] / r["peak_bandwidth_bytes_per_s"]) < 1e-12
# the middle 80% of a long stream runs at about its whole-run rate
assert abs(r["steady_bandwidth_bytes_per_s"] / r["bus_bandwidth_bytes_per_s"] - 1) < 0.05, r
assert r["read_latency_avg_s"] > r["idle_read_latency_s"], r
' && ok || bad "steady json figures"
run "$DSE" mem ddr4-3200 --steady --format csv
expect_out ",refreshes,steady_bandwidth_bytes_per_s,steady_efficiency,steady_t10_s,steady_t90_s,read_latency_avg_s,row_hits,row_misses,row_conflicts" "steady csv header"
run "$DSE" mem ddr4-3200 --steady; expect_out "  row_conflicts " "steady table"
# --region: 16 MiB of random 64 B reads all at address 0 (region 64 B) open
# one row, again after each of the 176 refreshes: 177 misses, no conflict
run "$DSE" mem ddr4-3200 --pattern random --region 64 --format json
expect_out '"activates": 177, "precharges": 176, "refreshes": 176,' "region 64 B: one row"
expect_out '"row_hits": 261967, "row_misses": 177, "row_conflicts": 0}' "region 64 B: split"
# the whole capacity is the default
run "$DSE" mem ddr4-3200 --pattern random --format csv; a="$OUT"
run "$DSE" mem ddr4-3200 --pattern random --region 8GiB --format csv
[ "$a" = "$OUT" ] && ok || bad "--region at the capacity changes the result"
# bad --region and --steady: exit 2, the option named
for v in "0:--region '0' is under the minimum of 1 B" "1.5:--region '1.5' is not a whole number of bytes" \
         "32:--region 32 B is less than one request (--size 64 B)" \
         "1TiB:--region '1TiB' is larger than the memory (ddr4-3200 x 1: 8 GiB)" \
         "-1:--region '-1' is under the minimum of 1 B"; do
  run "$DSE" mem ddr4-3200 --pattern random --region "${v%%:*}" -o "$TMP/r.json"
  expect_code 2 "bad --region ${v%%:*}"; expect_err "dse: error: ${v#*:}" "bad --region ${v%%:*}"
  expect_no_file "$TMP/r.json"
done
run "$DSE" mem ddr4-3200 --region 1GiB; expect_code 2 "--region with seq"
expect_err "dse: error: --region applies to --pattern random or strided" "--region with seq"
run "$DSE" mem ddr4-3200 --pattern random --region; expect_code 2 "--region without value"
expect_err "dse: error: --region needs a value" "--region without value"
run "$DSE" mem ddr4-3200 --steady yes; expect_code 2 "--steady takes no value"
expect_err "dse: error: unexpected argument 'yes'" "--steady takes no value"

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
# address maps: a Ramulator name works; a bad map is FILE:LINE:COL, exit 2, nothing written
sed 's/^name: ddr4-3200/name: ddr4-mop\naddress_map: MOP4CLXOR/' "$SRC/arch/memory/ddr4-3200.yaml" > "$TMP/mop.yaml"
run "$DSE" mem "$TMP/mop.yaml" --bytes 1MiB --format csv; expect_code 0 "MOP4CLXOR map"
sed 's/^name: ddr4-3200/name: ddr4-bad\naddress_map: {fields: [Co, Bg, Ba, Co, Ro]}/' "$SRC/arch/memory/ddr4-3200.yaml" > "$TMP/badmap.yaml"
run "$DSE" mem "$TMP/badmap.yaml" -o "$TMP/badmap.json"; expect_code 2 "overlapping map"
expect_err "badmap.yaml:16:36: error: address_map: Co is listed twice without a width" "map error location"
expect_no_file "$TMP/badmap.json" "bad map wrote output"
sed 's/^name: ddr4-3200/name: ddr4-bad\naddress_map: MOP4CLXR/' "$SRC/arch/memory/ddr4-3200.yaml" > "$TMP/badname.yaml"
run "$DSE" mem "$TMP/badname.yaml"; expect_code 2 "unknown map name"
expect_err "did you mean 'MOP4CLXOR'?" "map name suggestion"

# the closed loop: one request outstanding gives unloaded latency.  DDR4
# random reads in 1 GiB mostly find another row open: tRP + tRCD + CL + BL
# + the tick between admission and the first command = 71 tCK = 44.375 ns,
# a little more where a refresh closed the bank or holds it
run "$DSE" mem ddr4-3200 --pattern random --region 1GiB --bytes 1280000 --outstanding 1 --steady --format json
expect_code 0 "closed loop"
echo "$OUT" | python3 -c '
import json, sys
r = json.load(sys.stdin)
assert 44.375e-9 <= r["read_latency_avg_s"] < 46e-9, r["read_latency_avg_s"]
assert r["row_conflicts"] > 0.9 * r["reads"], r
' && ok || bad "closed loop: unloaded random latency"
run "$DSE" mem ddr4-3200 --pattern random --region 1GiB --bytes 1280000 --steady --format json
echo "$OUT" | python3 -c '
import json, sys
assert json.load(sys.stdin)["read_latency_avg_s"] > 150e-9
' && ok || bad "open loop: queueing in the latency"
# --window N is --read-queue N --write-queue N; a smaller queue changes the result
run "$DSE" mem ddr4-3200 --pattern random --read-ratio 0.5 --window 8 --format csv; a="$OUT"
run "$DSE" mem ddr4-3200 --pattern random --read-ratio 0.5 --read-queue 8 --write-queue 8 --format csv
[ "$a" = "$OUT" ] && ok || bad "--window 8 differs from --read-queue 8 --write-queue 8"
run "$DSE" mem ddr4-3200 --pattern random --read-ratio 0.5 --format csv
[ "$a" != "$OUT" ] && ok || bad "--window 8 changes nothing"
# each channel fed on its own: runs, and equals the program-order feed on a
# one-channel part
run "$DSE" mem gddr7-28000 --frontend per-channel --format csv; expect_code 0 "per-channel frontend"
run "$DSE" mem ddr4-3200 --pattern random --frontend per-channel --format csv; a="$OUT"
run "$DSE" mem ddr4-3200 --pattern random --frontend inorder --format csv
[ "$a" = "$OUT" ] && ok || bad "one channel: per-channel and inorder differ"
finish
