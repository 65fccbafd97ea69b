#!/bin/bash
# cli_basic.sh: the dse command line, end to end.
. "$(dirname "$0")/lib.sh"

run "$DSE" --version; expect_code 0 version; expect_out "dse 0.1.0" version
run "$DSE" --help; expect_code 0 help; expect_out "usage: dse COMMAND" help
for c in sim run list show check import mem; do
  run "$DSE" $c --help; expect_code 0 "$c --help"; expect_out "usage: dse $c" "$c --help"
  long=$(printf '%s\n' "$OUT" | awk 'length > 80')
  [ -z "$long" ] && ok || bad "$c --help: lines over 80 columns: $long"
done
# sentences in the help are whole lines of prose, not broken mid-phrase
run "$DSE" check --help
[ "$OUT" = "usage: dse check FILE.yaml...

Validates arch, workload and memory-preset files (and SCALE-Sim .csv and
.cfg files, and ONNX models whose inputs' dims the file fixes).  Prints
FILE: ok: ... for each valid file, and FILE:LINE:COL: error: ... for each
problem; exits 2 if any file is invalid." ] && ok || bad "check --help: $OUT"
run "$DSE"; expect_code 2 "no command"
run "$DSE" simm; expect_code 2 "unknown command"; expect_err "did you mean 'sim'?" "unknown command"

# list
run "$DSE" list; expect_code 0 list; expect_out "tpu-v1" list; expect_out "resnet50" list
run "$DSE" list archs; expect_code 0 "list archs"
[ "$OUT" = "$(printf 'edge-npu\neyeriss\nnpu-gddr6\nnpu-gddr7\nnpu-hbm2e\nnpu-hbm2e-dram\nnpu-hbm3\nnpu-lpddr5x\ntpu-v1')" ] && ok || bad "list archs: $OUT"
run "$DSE" list workloads; expect_out "llama2_7b" "list workloads"
run "$DSE" list gpus; expect_code 2 "list gpus"

# show workload: published totals
run "$DSE" show workload alexnet; expect_code 0 show
expect_out "724406816" "alexnet MACs"; expect_out "60954656" "alexnet weights"
run "$DSE" show workload resnet50 --format json; expect_out '"total_macs": 3857973248' "resnet50 json"
run "$DSE" show workload gpt2 --param seq=128 --format json
expect_out '"total_macs": 125891328' "gpt2 decode seq 128: 123,532,032 + 18,432 x 128"
run "$DSE" show workload bert_base --param phase=decode; expect_code 2 "encoder decode"
expect_err "dse: error: --param phase=decode: an encoder has no decode phase" "encoder decode"
run "$DSE" show workload resnet51; expect_code 2 "unknown workload"
expect_err "unknown workload 'resnet51'; did you mean 'resnet50'?" "unknown workload"

# sim: formats, contract fields, determinism
run "$DSE" sim tpu-v1 resnet50 --format json -o "$TMP/r1.json"; expect_code 0 "sim json"
r=$(cat "$TMP/r1.json")
for key in '"peak_ops_per_s": 91750400000000' '"ridge_ops_per_byte": 2698.541176470588' \
           '"clock_hz": 700000000' '"dram_bandwidth_bytes_per_s": 34000000000' \
           '"macs": 3857973248' '"throughput_inf_per_s"' '"achieved_ops_per_s"' \
           '"utilization"' '"dram_bytes"' '"energy_j"' '"latency_s"' '"cycles"' \
           '"intensity_ops_per_byte"' '"bound": "compute"' '"weight_bytes"' \
           '"input_bytes"' '"output_bytes"' '"peak_macs_per_cycle": 65536'; do
  case "$r" in *"$key"*) ok ;; *) bad "result json lacks $key" ;; esac
done
run "$DSE" sim tpu-v1 resnet50 --format json -o "$TMP/r2.json"
cmp -s "$TMP/r1.json" "$TMP/r2.json" && ok || bad "sim json is not deterministic"
run "$DSE" sim edge-npu mobilenet_v2 --format csv; expect_code 0 "sim csv"
expect_out "layer,type,precision,bound,limiter,macs" "csv header"
[ "$(echo "$OUT" | wc -l)" -eq 101 ] && ok || bad "csv rows: $(echo "$OUT" | wc -l)"
run "$DSE" sim npu-hbm2e gpt2 --batch 4 --param seq=512; expect_code 0 "sim table"
expect_out "workload gpt2 (decode, seq 512): batch 4, 146 layers" "sim table"; expect_out "total:" "sim table"
# the parameters a generated workload was made with are in its result (two
# files for seq 1024 and 2048 read alike) and its JSON; a layer list has none
run "$DSE" sim npu-hbm2e gpt2 --batch 8 --param phase=decode --param seq=2048 --format json
expect_out $'"workload": {\n    "name": "gpt2",\n    "batch": 8,\n    "phase": "decode",\n    "seq": 2048,\n    "layers": 146\n  },' "sim json phase/seq"
run "$DSE" sim tpu-v1 alexnet --format json
expect_out $'"workload": {\n    "name": "alexnet",\n    "batch": 1,\n    "layers": 19\n  },' "sim json layer list"
run "$DSE" show workload bert_base --param seq=384 --format json
expect_out $'"batch": 1,\n  "phase": "prefill",\n  "seq": 384,\n  "layers": [' "show json phase/seq"
run "$DSE" show workload bert_base --param seq=384
expect_out "workload bert_base (prefill, seq 384): batch 1," "show table phase/seq"
run "$DSE" sim tpu-v1 "$SRC/workloads/vgg16.yaml" --fidelity analytic; expect_code 0 "sim path"

# sim: bad input, never a half-written file
echo old > "$TMP/keep.json"
run "$DSE" sim edge-npu llama2_7b -o "$TMP/keep.json"; expect_code 2 "DRAM capacity"
expect_err "edge-npu.yaml:" "capacity location"
expect_err "error: dram.capacity: workload 'llama2_7b' (batch 1) needs" "capacity message"
[ "$(cat "$TMP/keep.json")" = old ] && ok || bad "failed sim clobbered -o file"
run "$DSE" sim tpu resnet50 -o "$TMP/x.json"; expect_code 2 "unknown arch"
expect_err "unknown arch preset 'tpu'" "unknown arch"; expect_no_file "$TMP/x.json" "unknown arch"
run "$DSE" sim tpu-v1 resnet50 --format xml; expect_code 2 "bad format"
run "$DSE" sim tpu-v1 resnet50 --fidelity cycles; expect_code 2 "unknown fidelity"
expect_err "unknown --fidelity 'cycles'; expected analytic or cycle" "unknown fidelity"
run "$DSE" sim tpu-v1 resnet50 --objective speed; expect_code 2 "unknown objective"
# the default objective is EDP (--help says so, as Lua's default): on
# npu-gddr7's ResNet-50 it takes 312 us where latency's greedy pick takes 334
run "$DSE" sim npu-gddr7 resnet50 --format json; default_json=$OUT
run "$DSE" sim npu-gddr7 resnet50 --format json --objective edp
if [ "$OUT" = "$default_json" ]; then ok; else bad "default objective is not edp"; fi
run "$DSE" sim npu-gddr7 resnet50 --format json --objective latency
if [ "$OUT" != "$default_json" ]; then ok; else bad "edp and latency agree on npu-gddr7 resnet50"; fi
run "$DSE" sim npu-gddr7 resnet50; expect_out "latency 312 us" "npu-gddr7 resnet50 at edp"
run "$DSE" sim tpu-v1 resnet50 --map-budget 0; expect_code 2 "map budget 0"

# level 2: mapped loop nests and exact accesses
run "$DSE" sim npu-hbm2e resnet50 --fidelity cycle --format json -o "$TMP/c1.json"
expect_code 0 "cycle json"
c=$(cat "$TMP/c1.json")
for key in '"fidelity": "cycle"' '"accesses": [' '"level": "global_buffer"' '"mapping": "DRAM:' \
           '"fill_drain_cycles"' '"stall_cycles"' '"temporal_utilization"' \
           '"dram_achieved_bandwidth_bytes_per_s"'; do
  case "$c" in *"$key"*) ok ;; *) bad "cycle json lacks $key" ;; esac
done
run "$DSE" sim npu-hbm2e resnet50 --fidelity cycle --format json -o "$TMP/c2.json"
cmp -s "$TMP/c1.json" "$TMP/c2.json" && ok || bad "cycle json is not deterministic"
run "$DSE" sim tpu-v1 alexnet --fidelity cycle --mapping; expect_code 0 "mapping"
expect_out "conv1 (c3 227x227 k96 11x11/4" "mapping header"
expect_out "parallel-for" "mapping loops"
expect_out "level 2: mapped, exact accesses, systolic timing" "table fidelity"
run "$DSE" sim tpu-v1 alexnet --fidelity analytic --mapping; expect_code 2 "mapping at level 1"
# even one PE's output (2 B of bf16) needs more than half of a 1-byte buffer:
# the mapper sends the outputs past it, to the global buffer
sed 's/    size: 2 MiB/    size: 1 B/' "$SRC/arch/npu-hbm2e.yaml" > "$TMP/tiny.yaml"
run "$DSE" sim "$TMP/tiny.yaml" resnet50 --fidelity cycle --mapping
expect_code 0 "buffer too small"
expect_out "bypass: accumulators (output)" "buffer too small"
run "$DSE" sim tpu-v1 gpt2 --param phase=decoder; expect_code 2 "bad phase"
expect_err "did you mean 'decode'?" "bad phase"
run "$DSE" sim tpu-v1 resnet50 --param seq=5; expect_code 2 "param on plain workload"
expect_err "dse: error: --param seq=5: unknown parameter 'seq' of workload 'resnet50'; expected one of: batch" "param on plain workload"
run "$DSE" sim tpu-v1 resnet50 --batch 0; expect_code 2 "batch 0"
expect_err "dse: error: --batch 0: must be between 1 and 1000000 (got 0)" "batch 0"
run "$DSE" sim tpu-v1 resnet50 --batch two; expect_code 2 "batch two"
run "$DSE" sim tpu-v1 resnet50 --param novalue; expect_code 2 "param without ="
run "$DSE" sim tpu-v1 resnet50 -o "$TMP/no/such/dir/r.json"; expect_code 2 "unwritable -o"
expect_no_file "$TMP/no/such/dir/r.json" "unwritable -o"
ls "$TMP"/*.tmp.* >/dev/null 2>&1 && bad "temp files left behind" || ok

# check
run "$DSE" check "$SRC"/arch/*.yaml "$SRC"/workloads/*.yaml; expect_code 0 "check presets and zoo"
expect_out "tpu-v1.yaml: ok: arch 'tpu-v1', 256x256 weight_stationary, peak 91.75 TOPS" check
run "$DSE" check "$TMP/none.yaml"; expect_code 2 "check missing file"; expect_err "none.yaml: error: no such file" "check missing"

# run: script errors exit 2 with the script location
printf 'local x = \n' > "$TMP/syntax.lua"
run "$DSE" run "$TMP/syntax.lua"; expect_code 2 "lua syntax error"; expect_err "syntax.lua:2:" "lua syntax"
printf 'local dse = require "dse"\nerror("boom")\n' > "$TMP/boom.lua"
run "$DSE" run "$TMP/boom.lua"; expect_code 2 "lua error"; expect_err "boom.lua:2: boom" "lua error"
expect_err "stack traceback" "lua traceback"
run "$DSE" run "$TMP/missing.lua"; expect_code 2 "missing script"
printf 'print(arg[0] ~= nil, arg[1], arg[2], select("#", ...))\n' > "$TMP/args.lua"
run "$DSE" run "$TMP/args.lua" a b; expect_code 0 "script args"; expect_out "true	a	b	2" "script args"

finish
