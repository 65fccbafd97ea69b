#!/bin/bash
# cli_groups.sh: pinned mappings with flattened groups (docs/engine.md,
# "Pinned mappings"): `spatial: {P*Q: 32, K: 32}` folds a layer's flattened
# pixels over the rows as SCALE-Sim does, and the tiles name the group.
. "$(dirname "$0")/lib.sh"
arch() { # arch NAME DATAFLOW: 32 x 32, one 1 MiB buffer, DRAM that never limits
  printf '%s\n' "name: $1" 'clock: 1 GHz' \
    "pe_array: {rows: 32, cols: 32, dataflow: $2, precision: int8}" \
    'buffers:' '  - {name: buf, size: 1 MiB, bandwidth: 1024 B/cycle}' \
    'dram: {bandwidth: 1 PB/s, energy: 20 pJ/bit, capacity: 16 GiB}' >"$TMP/$1.yaml"
}
arch os32 output_stationary
arch is32 input_stationary
layer() { # layer FIELD: conv3's FIELD in $OUT (JSON)
  python3 -c "import json,sys; print([l for l in json.load(sys.stdin)['layers'] if l['name'] == 'conv3'][0]['$1'])" <<<"$OUT"
}
is() { # is WHAT FIELD=VALUE...: conv3's fields in $OUT
  local what=$1 kv
  shift
  for kv in "$@"; do
    [ "$(layer "${kv%%=*}")" = "${kv#*=}" ] && ok || bad "$what: ${kv%%=*} $(layer "${kv%%=*}"), want ${kv#*=}"
  done
}

# AlexNet conv3 (13 x 13 outputs, C*R*S = 256 x 3 x 3 = 2,304, K = 384) on
# 32 x 32 output stationary, P*Q on the rows: 169 pixels in 6 folds (5 of 32
# and one of 9), K in 12, 72 folds; each streams the 2,304 window elements
# the buffer's tiles leave in the PEs and costs T + R + C - 2 = 2,304 + 32 +
# 32 - 2 = 2,366 cycles (docs/engine.md section 7): 170,352.  Spatial
# utilization 169 x 384 / (6 x 32 x 12 x 32) = 88.0%.
printf '%s\n' 'mappings:' '  conv3:' '    spatial: {P*Q: 32, K: 32}' \
  '    levels:' '      buf: {tiles: {C: 256, R: 3, S: 3}}' >"$TMP/os.yaml"
run "$DSE" sim "$TMP/os32.yaml" alexnet --mappings "$TMP/os.yaml" --format json
expect_code 0 "os pinned group"
is "os" folds=72 stream_cycles=165888 compute_cycles=170352 \
  spatial_utilization=0.8802083333333334 mappings_evaluated=1
run "$DSE" sim "$TMP/os32.yaml" alexnet --mappings "$TMP/os.yaml" --mapping
expect_out "    for P*Q in [0, 169) step 32" "the row folds over the flattened pixels"
expect_out "      parallel-for P*Q in [0, 32) step 1" "32 pixels on the rows"
# Input stationary, both sides flattened: C*R*S on the rows (72 folds), P*Q
# on the columns (6), K = 384 streamed: 432 folds of 2R + C + T - 2 = 64 +
# 32 + 384 - 2 = 478 cycles, 206,496.
printf '%s\n' 'mappings:' '  conv3:' '    spatial: {C*R*S: 32, P*Q: 32}' \
  '    levels:' '      buf: {tiles: {K: 384}}' >"$TMP/is.yaml"
run "$DSE" sim "$TMP/is32.yaml" alexnet --mappings "$TMP/is.yaml" --format json
expect_code 0 "is pinned groups"
is "is" folds=432 compute_cycles=206496

# Bad groups: at their place, exit 2, nothing written.
while IFS='|' read -r spatial tiles want; do
  {
    printf '%s\n' 'mappings:' '  conv3:' "    spatial: $spatial"
    [ -n "$tiles" ] && printf '%s\n' '    levels:' "      buf: {tiles: $tiles}"
  } >"$TMP/bad.yaml"
  run "$DSE" sim "$TMP/os32.yaml" alexnet --mappings "$TMP/bad.yaml" -o "$TMP/x.json"
  expect_code 2 "$spatial $tiles"
  first=$(printf '%s\n' "$ERR" | head -1)
  [ "$first" = "$TMP/bad.yaml:$want" ] && ok || bad "$spatial $tiles: got '$first', want '$want'"
  expect_no_file "$TMP/x.json" "$spatial $tiles"
done <<'LIST'
{C*R*S: 32, K: 32}||3:14: error: mappings.conv3: spatial: C*R*S cannot be flattened over a output_stationary array: rows take N, P, Q, columns K (a group is some of one side's)
{P*X: 32}||3:15: error: mappings.conv3.spatial.P*X: unknown member 'X' of 'P*X': a group joins some of N, P, Q or of C, R, S with '*'
{P*P: 32}||3:15: error: mappings.conv3.spatial.P*P: 'P*P' names P twice
{P*Q: 32, Q: 2}||3:24: error: mappings.conv3.spatial.Q: 'Q' names dimension Q again (M is K; or in a group)
{Q*P: 32}||3:15: error: mappings.conv3.spatial.Q*P: 'Q*P': write a group's members in the order N, P, Q or C, R, S
{P*C: 32}||3:15: error: mappings.conv3.spatial.P*C: 'P*C' mixes N, P, Q (the output pixels) with C, R, S (a window): a group is some of one of them
{P*Q: 200}||3:14: error: mappings.conv3: spatial: P*Q = 200 exceeds the layer's P*Q = 169
{P*Q: 32}|{P: 13}|5:21: error: mappings.conv3.levels.buf.tiles.P: P is flattened into P*Q by the spatial factors: give P*Q's tile
{K: 32}|{P*Q: 13}|5:21: error: mappings.conv3.levels.buf.tiles.P*Q: P*Q is not flattened by the spatial factors (spatial: {P*Q: ...} flattens it)
LIST
# Over a `levels:` tree (examples/levels/tpu-v1.yaml, 256 x 256 systolic
# weight stationary, not double-buffered: SCALE-Sim's fold timing): C*R*S =
# 2,304 in 9 runs of 256 on Y, K = 384 in 2 of 192 on X, the 13 x 13 pixels
# streamed: 18 folds of 169 + (256 + 256 - 2) + 256 = 935 cycles, 16,830;
# spatial utilization 192 / 256 = 75%.
printf '%s\n' 'mappings:' '  conv3:' '    levels:' '      DRAM: {factors: {K: 2, C*R*S: 9}}' \
  '      pe_array: {spatial: {y: {C*R*S: 256}, x: {K: 192}}}' \
  '      registers: {factors: {P: 13, Q: 13}}' >"$TMP/tree.yaml"
run "$DSE" sim "$SRC/examples/levels/tpu-v1.yaml" alexnet --mappings "$TMP/tree.yaml" --format json
expect_code 0 "tree group"
is "tree" folds=18 compute_cycles=16830 spatial_utilization=0.75
while IFS='|' read -r dram pe want; do
  printf '%s\n' 'mappings:' '  conv3:' '    levels:' "      DRAM: {factors: $dram}" \
    "      pe_array: {spatial: $pe}" '      registers: {factors: {P: 13, Q: 13}}' >"$TMP/tree.yaml"
  run "$DSE" sim "$SRC/examples/levels/tpu-v1.yaml" alexnet --mappings "$TMP/tree.yaml" -o "$TMP/x.json"
  expect_code 2 "tree: $dram $pe"
  [ "$ERR" = "$TMP/tree.yaml:$want" ] && ok || bad "tree: $dram $pe: got '$ERR', want '$want'"
  expect_no_file "$TMP/x.json" "tree: $dram $pe"
done <<'LIST'
{K: 2, C*R*S: 9}|{x: {C*R*S: 256}, y: {K: 192}}|5:39: error: mappings.conv3.levels.pe_array.spatial.x: C*R*S cannot be flattened along X of the systolic 'pe_array' (weight_stationary): it takes K there
{K: 2, C: 9}|{y: {C*R*S: 256}, x: {K: 192}}|4:33: error: mappings.conv3.levels: C is flattened into C*R*S in this mapping: give C*R*S its factors
{K: 2, C*R*S: 8}|{y: {C*R*S: 256}, x: {K: 192}}|4:37: error: mappings.conv3.levels: the factors of C*R*S multiply to 2048 (DRAM 8 x pe_array 256), not the layer's C*R*S = 2304
LIST
finish
