#!/bin/bash
# cli_bad_input.sh: every arch_*.yaml and wl_*.yaml in tests/bad/ starts with
#   # expect: LINE:COL: error: MESSAGE
# and must produce exactly that as the first line on stderr, exit 2, and
# write no output file, both through `dse sim` and `dse check`.  Then
# inputs too big to keep in tests/bad, and directories named as files.
. "$(dirname "$0")/lib.sh"

for f in "$SRC"/tests/bad/*.yaml; do
  name=$(basename "$f")
  # an arch or a mapping of Timeloop's needs its companions (cli_timeloop.sh);
  # the other kinds (units_*, mem_*, map_*, tl_*) are cli_bad_corpus.sh's
  case "$name" in arch_* | wl_*) ;; *) continue ;; esac
  want=$(head -1 "$f" | sed -n 's/^# expect: //p')
  [ -n "$want" ] || { bad "$f: no '# expect:' line"; continue; }
  case "$name" in
    wl_*) run "$DSE" sim tpu-v1 "$f" --format json -o "$TMP/out.json" ;;
    *) run "$DSE" sim "$f" resnet50 --format json -o "$TMP/out.json" ;;
  esac
  expect_code 2 "$name"
  first=$(printf '%s\n' "$ERR" | head -1)
  [ "$first" = "$f:$want" ] && ok || bad "$name: got '$first', want '$f:$want'"
  expect_no_file "$TMP/out.json" "$name"
  run "$DSE" check "$f"
  expect_code 2 "check $name"
  expect_err "$f:" "check $name location"
done

# A million levels of flow nesting: the parse stops at the 65th level
# (column 8 + 63), without reading the rest (it used to take ~52 s).
deep="$TMP/deep.yaml"
{ printf 'name: x\nclock: '; head -c 1000000 /dev/zero | tr '\0' '['
  head -c 1000000 /dev/zero | tr '\0' ']'; echo; } >"$deep"
for cmd in check sim; do
  if [ $cmd = sim ]; then run "$DSE" sim "$deep" resnet50 -o "$TMP/out.json"; else run "$DSE" check "$deep"; fi
  expect_code 2 "deep $cmd"
  [ "$ERR" = "$deep:2:71: error: document nested too deeply (limit 64)" ] && ok || bad "deep $cmd: got '$ERR'"
  expect_no_file "$TMP/out.json" "deep $cmd"
done

# 200,000 errors: the first 50 are shown, then how many more there were.
many="$TMP/many.yaml"
awk 'BEGIN { print "mappings: {}"; for (i = 0; i < 200000; i++) print "k" i ": 1" }' >"$many"
run "$DSE" sim tpu-v1 alexnet --mappings "$many" -o "$TMP/out.json"
expect_code 2 "200k errors"
[ "$(printf '%s\n' "$ERR" | wc -l)" -eq 51 ] && ok || bad "200k errors: $(printf '%s\n' "$ERR" | wc -l) lines, want 51"
[ "$(printf '%s\n' "$ERR" | sed -n 50p)" = "$many:51:1: error: k49: unknown key 'k49'; expected one of: arch, workload, description, mappings, dimensions" ] &&
  ok || bad "200k errors: line 50 '$(printf '%s\n' "$ERR" | sed -n 50p)'"
[ "$(printf '%s\n' "$ERR" | tail -1)" = "$many: error: ... and 199950 more errors" ] && ok ||
  bad "200k errors: last line '$(printf '%s\n' "$ERR" | tail -1)'"
expect_no_file "$TMP/out.json" "200k errors"
# a million plain keys: too large, and no alias to blame
awk 'BEGIN { for (i = 0; i <= 1000000; i++) print "k" i ": 1" }' >"$many"
run "$DSE" check "$many"
expect_code 2 "1M keys"
[ "$ERR" = "$many:1000000:10: error: document too large (more than 1,000,000 nodes)" ] && ok || bad "1M keys: got '$ERR'"

# Counts past 2^59 (they used to wrap around 2^64): the parameter that
# makes a generated workload too large is named as the argument.
expect_first() { # expect_first WANT description: exit 2, first stderr line, no output
  expect_code 2 "$2"
  [ "$(printf '%s\n' "$ERR" | head -1)" = "$1" ] && ok || bad "$2: got '$ERR', want '$1'"
  expect_no_file "$TMP/out.json" "$2"
}
run "$DSE" sim tpu-v1 llama2_7b --param phase=prefill --param seq=10000000 -o "$TMP/out.json"
expect_first "dse: error: --param seq=10000000: the workload's total up to generated layer 'blk1.qk', 6.17e+17 MACs, exceeds the limit of 2^59 (5.76e+17) per workload" "--param seq too large"
run "$DSE" sim tpu-v1 gpt2 --batch 1000000 --param phase=prefill --param seq=10000 -o "$TMP/out.json"
expect_first "dse: error: --batch 1000000: the workload's total at batch 1000000 up to generated layer 'blk3.ffn2', 5.9e+17 MACs, exceeds the limit of 2^59 (5.76e+17) per workload" "--batch too large"
# the same in SCALE-Sim topologies, and a depthwise filter count past 64 bits
hdr='Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,'
printf 'Layer Name, M, N, K,\ng1, 100000000, 100000000, 100000000,\n' >"$TMP/g.csv"
run "$DSE" sim tpu-v1 "$TMP/g.csv" -o "$TMP/out.json"
expect_first "$TMP/g.csv:2:1: error: layers[1] 'g1': more than 1.8e+19 MACs exceeds the limit of 2^59 (5.76e+17) per layer" "topology MACs"
printf '%s\nC_DP, 19, 19, 3, 3, 4294967296, 4294967296, 1,\n' "$hdr" >"$TMP/dw.csv"
run "$DSE" sim tpu-v1 "$TMP/dw.csv" -o "$TMP/out.json"
expect_first "$TMP/dw.csv:2:33: error: depthwise layer 'C_DP': 4294967296 filters per channel x 4294967296 channels do not fit in 64 bits" "topology depthwise"

# SCALE-Sim configs: a header without its ']' still opens its section (no
# cascade of keys "unknown in [general]; did you mean" themselves), a key in
# the wrong section is told where it belongs, an unknown section is reported
# once.
cfg="$SRC/examples/scalesim/ws_32x32.cfg"
while IFS='|' read -r expr want; do
  sed "$expr" "$cfg" >"$TMP/s.cfg"
  run "$DSE" sim "$TMP/s.cfg" resnet50 -o "$TMP/out.json"
  [ "$ERR" = "$TMP/s.cfg:$want" ] && ok || bad "cfg '$expr': got '$ERR', want '$TMP/s.cfg:$want'"
  expect_code 2 "cfg '$expr'"
  expect_no_file "$TMP/out.json" "cfg '$expr'"
done <<'LIST'
s/^\[architecture_presets\]/[architecture_presets/|4:1: error: malformed section header '[architecture_presets': no closing ']'
s/^\[architecture_presets\]/[architecture_presets] x/|4:1: error: malformed section header '[architecture_presets] x': text after ']'
s/^\[architecture_presets\]/[arch]/|4:2: error: unknown section [arch]; expected [general], [architecture_presets] or [run_presets]
s/^InterfaceBandwidth: USER/ArrayHeight: 4/|18:1: error: key 'ArrayHeight' belongs in [architecture_presets], not [run_presets]
s/^run_name = ws_32x32/ArrayHeigt = 4/|2:1: error: unknown key 'ArrayHeigt' in [general]; did you mean 'ArrayHeight' (in [architecture_presets])?
1i ArrayHeight: 3|1:1: error: key 'ArrayHeight' comes before any section header; it belongs in [architecture_presets]
LIST

# A directory where a file is expected says so, whichever loader reads it.
dir="$TMP/adir"
mkdir "$dir"
expect_dir() { # expect_dir WANT_FIRST_LINE description
  expect_code 2 "$2"
  [ "$(printf '%s\n' "$ERR" | head -1)" = "$1" ] && ok || bad "$2: got '$ERR', want '$1'"
  expect_no_file "$TMP/out.json" "$2"
}
run "$DSE" check "$dir"; expect_dir "$dir: error: is a directory, not a file" "check DIR"
run "$DSE" check "$dir/"; expect_dir "$dir/: error: is a directory, not a file" "check DIR/"
run "$DSE" sim "$dir" alexnet -o "$TMP/out.json"; expect_dir "$dir: error: is a directory, not a file" "sim DIR"
run "$DSE" sim tpu-v1 "$dir/" -o "$TMP/out.json"; expect_dir "$dir/: error: is a directory, not a file" "sim ARCH DIR"
run "$DSE" sim tpu-v1 alexnet --mappings "$dir" -o "$TMP/out.json"
expect_dir "$dir: error: is a directory, not a file" "--mappings DIR"
mkdir "$TMP/topo.csv"
run "$DSE" sim tpu-v1 "$TMP/topo.csv" -o "$TMP/out.json"
expect_dir "$TMP/topo.csv: error: is a directory, not a file" "sim ARCH DIR.csv"
printf 'name: t\nclock: 1 GHz\npe_array: {rows: 8, cols: 8, dataflow: weight_stationary, precision: int8}\ndram: {preset: %s}\n' "$dir" >"$TMP/dp.yaml"
run "$DSE" sim "$TMP/dp.yaml" alexnet -o "$TMP/out.json"
expect_dir "$TMP/dp.yaml:4:16: error: dram.preset: memory preset '$dir' is a directory, not a file" "dram.preset DIR"
# a bare name is a preset, unless only a directory of that name exists
cd "$TMP" || exit 1
run "$DSE" sim adir alexnet -o "$TMP/out.json"
expect_dir "adir: error: is a directory, not a file (nor a known arch preset)" "sim NAME(dir)"
run "$DSE" sim tpu-v1 adir -o "$TMP/out.json"
expect_dir "adir: error: is a directory, not a file (nor a known workload)" "sim ARCH NAME(dir)"
cd - >/dev/null || exit 1
finish
