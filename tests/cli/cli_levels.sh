#!/bin/bash
# cli_levels.sh: archs written as `levels:` (docs/arch.md, "The tree"):
# `dse check` prints the chain with instances; `dse sim` refuses them,
# naming the plan steps that are missing, and writes nothing.
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

for f in "$SRC/tests/data/tree/ispass01.yaml" "$L/simba-like.yaml"; do
  run "$DSE" sim "$f" resnet50 --format json -o "$TMP/out.json"
  expect_code 2 "sim $(basename "$f")"
  case "$ERR" in
    "$f:"*": error: levels: arch '"*"' cannot be simulated yet: level 1 over a 'levels' arch is plan step S10 and its mappings S8/S9 (docs/design/arch-tree-plan.md); 'dse check' validates it") ok ;;
    *) bad "sim $(basename "$f"): got '$ERR'" ;;
  esac
  expect_no_file "$TMP/out.json" "sim $(basename "$f")"
done
finish
