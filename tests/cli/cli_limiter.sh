#!/bin/bash
# cli_limiter.sh: every face of `dse sim` names a layer's bound (its side of
# the ridge) and its limiter (what set its time; docs/engine.md, 4c):
# Llama-2-7B decode's QKV projection on npu-hbm3 is left of the ridge (1.0
# against 12.0 ops/B) and waits for weight loads at level 2; level 1, which
# does not time them, has it limited by the global buffer.
. "$(dirname "$0")/lib.sh"

row() { # row NAME: the table row of layer NAME
  echo "$OUT" | grep -E "^$1 "
}

run "$DSE" sim npu-hbm3 llama2_7b; expect_code 0 "table"
expect_out "bound   limit" "table header"
row blk0.qkv | grep -Eq '^blk0\.qkv +gemm +50331648 .* 1\.0 +0\.8% memory +array-load +[0-9.]+ mJ$' && ok ||
  bad "table row: $(row blk0.qkv)"
row blk0.ln1 | grep -Eq ' compute +vector +[0-9.]+ uJ$' && ok || bad "vector row: $(row blk0.ln1)"

run "$DSE" sim npu-hbm3 llama2_7b --fidelity analytic; expect_code 0 "table, level 1"
row blk0.qkv | grep -Eq ' memory +sram +[0-9.]+ mJ$' && ok || bad "level-1 row: $(row blk0.qkv)"

run "$DSE" sim npu-hbm3 llama2_7b --format csv; expect_code 0 csv
expect_out "blk0.qkv,gemm,bf16,memory,array-load," "csv row"

run "$DSE" sim npu-hbm3 llama2_7b --format json; expect_code 0 json
expect_out '"name": "blk0.qkv",
      "type": "gemm",
      "shape": "m1 n12288 k4096",
      "precision": "bf16",
      "dataflow": "weight_stationary",
      "bound": "memory",
      "limiter": "array-load",' "json layer"

# a far DRAM: the pipeline waits out its latency tile after tile
cat >"$TMP/far.yaml" <<'YAML'
name: far
clock: 1 GHz
pe_array: {rows: 16, cols: 16, dataflow: weight_stationary, precision: int8}
buffers:
  - {name: buf, size: 1 MiB, bandwidth: 1024 B/cycle}
dram: {bandwidth: 1000 GB/s, energy: 10 pJ/bit, capacity: 1 GiB, latency: 100 us}
YAML
cat >"$TMP/g.yaml" <<'YAML'
name: g
layers:
  - {name: g, type: gemm, m: 256, n: 16, k: 16}
YAML
run "$DSE" sim "$TMP/far.yaml" "$TMP/g.yaml" --format csv; expect_code 0 "far DRAM"
expect_out "g,gemm,int8,compute,latency," "far DRAM: right of the ridge, limited by latency"
finish
