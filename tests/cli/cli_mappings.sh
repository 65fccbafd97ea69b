#!/bin/bash
# cli_mappings.sh: pinned mappings (dse sim --fidelity cycle --mappings).
. "$(dirname "$0")/lib.sh"
D="$SRC/tests/data/mappings"

# A pinned layer is evaluated exactly as given; the others are searched.
run "$DSE" sim tpu-v1 alexnet --mappings "$D/tpu_alexnet.yaml" --mapping
expect_code 0 "pinned"
expect_out "conv1 (c3 227x227 k96 11x11/4, 6050 folds" "pinned conv1 as written"
expect_out "1 mappings evaluated" "pinned: one evaluation"
expect_out "parallel-for S in [0, 7) step 1" "pinned spatial factor"
# G across the array's diagonal (2 groups x 96 rows, 2 x 128 columns)
run "$DSE" sim tpu-v1 alexnet --mappings "$D/tpu_alexnet_groups.yaml" --mapping
expect_code 0 "pinned groups"
expect_out "parallel-for-diagonal G in [0, 2) step 1" "pinned groups across the diagonal"
run "$DSE" sim tpu-v1 alexnet --fidelity analytic --mappings "$D/tpu_alexnet.yaml"
expect_code 2 "mappings need level 2"; expect_err "--mappings needs --fidelity cycle" "mappings need level 2"

# A buffer the arch says may not be bypassed (bypass: false) keeps its
# operands in every mapping: tpu-v1's search bypasses its weight FIFO on 8
# of AlexNet's layers, the same arch with `bypass: false` on none; a pinned
# mapping that bypasses it is refused at its level, and a buffer too small
# for what it must keep fails the layer at its size
run "$DSE" sim tpu-v1 alexnet --mapping
[ "$(printf '%s\n' "$OUT" | grep -c 'bypass:.*weight_fifo')" -eq 8 ] && ok || bad "tpu-v1 bypasses its FIFO on 8 layers"
run "$DSE" sim "$D/tpu_fifo.yaml" alexnet --mapping
expect_code 0 "bypass: false"
[ "$(printf '%s\n' "$OUT" | grep -c 'bypass:.*weight_fifo')" -eq 0 ] && ok || bad "bypass: false keeps the FIFO"
run "$DSE" sim "$D/tpu_fifo.yaml" alexnet --mappings "$D/bad_fixed.yaml" -o "$TMP/x.json"
expect_code 2 "pinned bypass of a fixed buffer"
expect_err "$D/bad_fixed.yaml:5:20: error: mappings.conv1: 'weight_fifo' may not bypass its weight (the arch says bypass: false)" "pinned bypass of a fixed buffer"
expect_no_file "$TMP/x.json" "pinned bypass of a fixed buffer"
run "$DSE" sim "$D/tpu_tiny_fifo.yaml" alexnet -o "$TMP/x.json"
expect_code 2 "fixed buffer too small"
expect_err "$D/tpu_tiny_fifo.yaml:24:11: error: layer 'conv1' of workload 'alexnet' cannot be mapped onto arch 'tpu-v1-tiny-fifo': buffer 'weight_fifo' may not bypass what it holds (bypass: false), and its smallest tiles need 1 B, more than half of its 1 B" "fixed buffer too small"
expect_no_file "$TMP/x.json" "fixed buffer too small"

while read -r file want; do
  run "$DSE" sim tpu-v1 alexnet --fidelity cycle --mappings "$D/$file" -o "$TMP/x.json"
  expect_code 2 "$file"
  first=$(printf '%s\n' "$ERR" | head -1)
  [ "$first" = "$D/$file:$want" ] && ok || bad "$file: got '$first', want '$D/$file:$want'"
  expect_no_file "$TMP/x.json" "$file"
done <<'LIST'
bad_array.yaml 3:14: error: mappings.fc6: spatial: 512 x 256 PEs do not fit the 256 x 256 array
bad_capacity.yaml 5:20: error: mappings.fc6: tiles at 'weight_fifo' need 2359296 B, more than half of its 262144 B (the other half double-buffers): over by 2228224 B
bad_dim.yaml 4:29: error: mappings.conv1.levels.weight_fifo.tiles.X: unknown dimension 'X'; expected one of G, N, K, C, P, Q, R, S
bad_exceeds.yaml 4:23: error: mappings.conv1: tile P = 56 at 'unified_buffer' exceeds the layer's P = 55
bad_layer.yaml 2:3: error: mappings.conv6: no layer 'conv6' in workload 'alexnet'; did you mean 'conv1'?
bad_level.yaml 4:7: error: mappings.conv1.levels.weight_fif0: unknown level; did you mean 'weight_fifo'? (levels above the registers: weight_fifo, accumulators, unified_buffer, DRAM)
bad_small.yaml 5:20: error: mappings.conv1: tile S = 3 at 'weight_fifo' is smaller than the 7 below it
bad_spatial.yaml 3:14: error: mappings.conv1: spatial: dimension P cannot be spread over a weight_stationary array (rows take C, R, S; columns K)
bad_order.yaml 4:35: error: mappings.conv1.levels.weight_fifo.order: 'S' is listed twice
bad_dram.yaml 4:21: error: mappings.conv1.levels.DRAM: DRAM holds every operand whole: only 'order' applies there
bad_groups.yaml 3:14: error: mappings.conv2: spatial: 288 x 256 PEs do not fit the 256 x 256 array (G = 2 across the diagonal takes rows and columns)
bad_vector.yaml 2:3: error: mappings.relu1: layer 'relu1' (activation) runs on the vector unit and has no mapping
LIST
finish
