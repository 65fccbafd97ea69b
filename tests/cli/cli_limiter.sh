#!/bin/bash
# cli_limiter.sh: every face of `dse sim` names a layer's bound (its side of
# the ridge) and its limiter (what set its time; docs/engine.md, 4c):
# Llama-2-7B decode's QKV projection on npu-hbm3 is left of the ridge (1.0
# against 12.0 ops/B) and waits for weight loads at level 2; level 1, which
# does not time them, has it limited by DRAM (the weights may stream past
# the global buffer, which would take longer to fill and read them).
. "$(dirname "$0")/lib.sh"

row() { # row NAME: the table row of layer NAME
  echo "$OUT" | grep -E "^$1 "
}

run "$DSE" sim npu-hbm3 llama2_7b; expect_code 0 "table"
expect_out "bound   limit" "table header"
row blk0.qkv | grep -Eq '^blk0\.qkv +gemm +50331648 .* 1\.0 +0\.8% memory +array-load +[0-9.]+ mJ$' && ok ||
  bad "table row: $(row blk0.qkv)"
row blk0.ln1 | grep -Eq ' compute +vector +[0-9.]+ uJ$' && ok || bad "vector row: $(row blk0.ln1)"
# the table reads alone: both ridges in its first line (the vector unit's,
# 128 lanes x 1.5 GHz over 4.1 TB/s on npu-hbm3), a legend under the rows,
# and the totals split by layer kind (every MAC layer is memory-bound; the
# 225 vector layers are right of their ridge)
expect_out "DRAM 4.1 TB/s, ridge 12.0 ops/B, vector ridge 0.0469 ops/B
" "both ridges"
expect_out "
(bound: memory when ops/B < ridge, vector layers vector ops/B < vector ridge, else compute; ops/B -: no DRAM traffic; limit: what set the latency, docs/engine.md 4c)
" "legend"
expect_out "; MAC layers 0 compute-bound, 225 memory-bound; vector layers 225 compute-bound, 0 memory-bound
" "bound counts by layer kind"
run "$DSE" sim npu-hbm3 llama2_7b --format json; expect_code 0 json
expect_out '"vector_ridge_ops_per_byte": 0.046875,' "vector ridge in json"
expect_out '"mac_compute_bound_layers": 0,
    "mac_memory_bound_layers": 225,
    "vector_compute_bound_layers": 225,
    "vector_memory_bound_layers": 0,' "json counts"

# no DRAM traffic: intensity '-' in the table (0 in JSON and CSV, documented),
# compute-bound; ResNet-50's conv1_relu and pool1 stay on chip on tpu-v1
run "$DSE" sim tpu-v1 resnet50; expect_code 0 "tpu-v1 table"
row conv1_relu | grep -Eq '^conv1_relu +activation +0 +0 s +0 B +- +0\.0% compute +fused ' && ok ||
  bad "no-traffic row: $(row conv1_relu)"
# conv1_relu runs fused with conv1: its limit says so, and a legend line
expect_out "
(limit fused: an activation run on the previous layer's output stream; its latency is only the time it adds to that layer's, 0 s when none; JSON and CSV give \"fused\" and the limiter of its own work)
" "fused legend"
row pool1 | grep -Eq ' 0 B +- +0\.0% compute ' && ok || bad "no-traffic row: $(row pool1)"
[ -z "$(echo "$OUT" | grep -E ' 0 B +0\.0 ')" ] && ok || bad "a 0 B row shows ops/B 0.0"
run "$DSE" sim tpu-v1 resnet50 --format json; expect_code 0 "tpu-v1 json"
echo "$OUT" | python3 -c '
import json, sys
r = json.load(sys.stdin)
for l in r["layers"]:
    if l["dram_bytes"] == 0:
        assert l["intensity_ops_per_byte"] == 0 and l["bound"] == "compute", l["name"]
assert r["layers"][1]["name"] == "conv1_relu" and r["layers"][1]["dram_bytes"] == 0
' && ok || bad "json: a layer without DRAM traffic"

run "$DSE" sim npu-hbm3 llama2_7b --fidelity analytic; expect_code 0 "table, level 1"
row blk0.qkv | grep -Eq ' memory +dram +[0-9.]+ mJ$' && ok || bad "level-1 row: $(row blk0.qkv)"

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
run "$DSE" sim "$TMP/far.yaml" "$TMP/g.yaml"; expect_code 0 "far DRAM table"
[ -z "$(echo "$OUT" | grep -E 'fused')" ] && ok || bad "no fused legend without fused layers"
finish
