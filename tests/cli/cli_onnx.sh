#!/bin/bash
# cli_onnx.sh: ONNX import (docs/onnx.md).  Models built with python3-onnx
# (tests/onnx/make_models.py): ResNet-50 and BERT-base equivalents of the
# zoo's must give exactly the zoo's MACs, weight bytes and more; every
# model's MACs equal an independent count from python3-onnx's own shape
# inference (tests/onnx/onnx_macs.py); a MobileNet block, a decoder with a
# KV cache and symbolic dims, ops dse cannot model; the faces (dse sim,
# show, import, Lua); bad input (exit 2, the node named, nothing written).
# Skips (77) without Debian's python3-onnx.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
if ! "$PY" -c 'import onnx' 2>/dev/null; then
  echo "skipped: $PY has no onnx module (apt-get install python3-onnx)"
  exit 77
fi
M=$TMP/models
mkdir -p "$M"
run "$PY" -B "$SRC/tests/onnx/make_models.py" "$M"
expect_code 0 "make_models.py"
macs() { "$DSE" show workload "$@" --format json | "$PY" -c 'import json,sys; d=json.load(sys.stdin); print(d["total_macs"], d["total_weight_bytes"])'; }
total_row() { "$DSE" show workload "$@" | grep '^total'; }

# --- the zoo's networks, node by node -------------------------------------
for pair in "resnet50 resnet50" "bert_base bert_base" "bert_base_decomposed bert_base"; do
  set -- $pair
  got=$(macs "$M/$1.onnx")
  want=$(macs "$2")
  if [ "$got" = "$want" ]; then ok; else bad "$1.onnx: MACs and weight bytes $got, zoo $2 $want"; fi
done
# ResNet-50's every total (MACs, vector ops, input, weight, output bytes) is the zoo's
got=$(total_row "$M/resnet50.onnx")
want=$(total_row resnet50)
if [ "$got" = "$want" ]; then ok; else bad "resnet50.onnx totals: $got; zoo: $want"; fi
# and so is every layer's name, type and shape
"$DSE" show workload "$M/resnet50.onnx" | awk 'NR > 3 { print $1, $2, $3, $4, $5, $6 }' >"$TMP/onnx.txt"
"$DSE" show workload resnet50 | awk 'NR > 3 { print $1, $2, $3, $4, $5, $6 }' >"$TMP/zoo.txt"
if diff -q "$TMP/onnx.txt" "$TMP/zoo.txt" >/dev/null; then ok; else
  bad "resnet50.onnx layers differ from the zoo's:"; diff "$TMP/onnx.txt" "$TMP/zoo.txt" | head >&2
fi
# batch norms folded (53), none left as layers
run "$DSE" import onnx "$M/resnet50.onnx" --report
expect_code 0 "import --report"
expect_out "BatchNormalization           53  batch norm folded into the layer before  1 'conv1_bn'" "53 batch norms folded"
expect_out "176 nodes, 122 layers, 0 nodes dse cannot model" "every node accounted for"
# the decomposed layer norm is fused into one layernorm (the zoo's weights)
run "$DSE" import onnx "$M/bert_base_decomposed.onnx" --report
expect_out "layernorm (fused pattern)" "decomposed layer norm fused"
expect_out "0 nodes dse cannot model" "BERT: every node accounted for"

# exporters' decomposed activations fused, biases and scales folded
run "$DSE" import onnx "$M/bert_base.onnx" --report
expect_out "Div                          12  gelu (fused pattern)" "GELU as Div, Erf, Add, Mul, Mul: one gelu"
expect_out "Add                          72  bias folded into the layer before" "Q, K, V, proj, FFN biases folded"
expect_out "Div                          12  scale folded into the layer before" "attention's 1/sqrt(d) folded"
expect_out "396 nodes, 216 layers" "BERT: 144 zoo layers, Q/K/V apart (+24), 4 transposes a block (+48)"
run "$DSE" show workload "$SRC/examples/onnx/tiny_detector.onnx" --input images=1x3x64x64
expect_out "stem_silu                activation silu 16384" "x * sigmoid(x) is one silu"
# the Gelu op (opset 20, or Microsoft's contrib domain, which onnx 1.12 builds)
"$PY" - "$TMP/gelu.onnx" <<'PYEOF'
import sys
from onnx import TensorProto, helper
g = helper.make_graph([helper.make_node("Gelu", ["x"], ["y"], name="g", domain="com.microsoft")],
                      "gelu", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])],
                      [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 8])])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17),
                                        helper.make_opsetid("com.microsoft", 1)])
open(sys.argv[1], "wb").write(m.SerializeToString())
PYEOF
run "$DSE" show workload "$TMP/gelu.onnx"
expect_out "g                        activation gelu 16" "Microsoft's Gelu op"

# --- what a new user's trial found (each a small model, built here) ---------
"$PY" - "$TMP" <<'PYEOF'
import sys
import numpy as np
from onnx import TensorProto as T, helper as h, numpy_helper as nh
out = sys.argv[1]
F = T.FLOAT
def const(name, v):  # a Constant node, as torch.onnx.export writes each scalar
    return h.make_node("Constant", [], [name], name=name, value=nh.from_array(np.array(v, np.float32)))
def save(nodes, name, inputs, outputs, inits=(), opset=14, vi=()):
    g = h.make_graph(nodes, name, inputs, outputs, initializer=list(inits), value_info=list(vi))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = 8
    open("%s/%s.onnx" % (out, name), "wb").write(m.SerializeToString())
x = h.make_tensor_value_info("x", F, ["N", 8, 16])
y = h.make_tensor_value_info("y", F, ["N", 8, 16])
# GELU with each scalar a Constant node just before its reader
save([const("c_sqrt2", 1.4142135), h.make_node("Div", ["x", "c_sqrt2"], ["d"], name="div"),
      h.make_node("Erf", ["d"], ["e"], name="erf"), const("c_one", 1.0),
      h.make_node("Add", ["e", "c_one"], ["a"], name="add"),
      h.make_node("Mul", ["x", "a"], ["m"], name="mul"), const("c_half", 0.5),
      h.make_node("Mul", ["m", "c_half"], ["y"], name="gelu")], "gelu_torch", [x], [y])
# MatMul with a batched constant B: 4 heads' own 16 x 24 weights
w = nh.from_array(np.zeros([4, 16, 24], np.float32), "w")
save([h.make_node("MatMul", ["xa", "w"], ["ya"], name="per_head")], "batched_b",
     [h.make_tensor_value_info("xa", F, [2, 4, 10, 16])],
     [h.make_tensor_value_info("ya", F, [2, 4, 10, 24])], [w])
# an op dse cannot model whose stated shape has the batch symbol
save([h.make_node("Relu", ["x"], ["r"], name="relu"),
      h.make_node("MyOp", ["r"], ["m"], name="my", domain="com.example"),
      h.make_node("Relu", ["m"], ["y"], name="relu2")], "custom_sym", [x], [y],
     vi=[h.make_tensor_value_info("m", F, ["N", 8, 16])])
# Resize (opset 18) with axes: scales for the spatial axes only
sc = nh.from_array(np.array([2, 2], np.float32), "sc")
save([h.make_node("Resize", ["xi", "", "sc"], ["yi"], name="up", axes=[2, 3], mode="nearest")],
     "resize_axes", [h.make_tensor_value_info("xi", F, [1, 3, 8, 8])],
     [h.make_tensor_value_info("yi", F, [1, 3, 16, 16])], [sc], opset=18)
PYEOF
run "$DSE" import onnx "$TMP/gelu_torch.onnx" --input x=1x8x16 --report
expect_out "Constant                      3  constant (no run-time work)" "torch-style Constant nodes"
expect_out "Div                           1  gelu (fused pattern)" "GELU fused though its scalars are Constant nodes between its nodes"
run "$DSE" show workload "$TMP/batched_b.onnx"
expect_out "per_head                 conv2d     c64 10x1 k96 1x1/1 grp                      30720            0         1280         1536         1920" "a batched constant B: a grouped 1x1 conv, weights 4 x 16 x 24"
run "$DSE" show workload "$TMP/custom_sym.onnx" --input x=2x8x16
expect_code 0 "an unmodelled op's stated shape with a bound symbol"
expect_out "my                       eltwise    128 x 2 inputs" "its shape from value_info, N bound (and the batch of 2 folded)"
run "$DSE" import onnx "$TMP/resize_axes.onnx" --shapes
expect_out "yi	1x3x16x16" "Resize 18 with axes"
# a dynamic batch is the workload's batch: the same result as --batch
"$DSE" sim npu-hbm3 "$SRC/examples/onnx/tiny_detector.onnx" --input images=4x3x64x64 --format json >"$TMP/b4.json"
"$DSE" sim npu-hbm3 "$SRC/examples/onnx/tiny_detector.onnx" --input images=1x3x64x64 --batch 4 --format json >"$TMP/b1x4.json"
if cmp -s "$TMP/b4.json" "$TMP/b1x4.json"; then ok; else bad "images=4x... differs from images=1x... --batch 4"; fi
grep -q '"batch": 4' "$TMP/b4.json" && ok || bad "a graph batch of 4 is the workload's batch"
run "$DSE" show workload "$SRC/examples/onnx/tiny_detector.onnx" --input images=2x3x64x64 --batch 3
expect_out "workload tiny_detector: batch 6," "--batch multiplies a folded graph batch"
# warnings in the JSON result; an upper-case extension; --strict on YAML
run "$DSE" sim npu-hbm3 "$M/unsupported.onnx" --format json --fidelity analytic
expect_out '"warnings": [' "dse sim's JSON lists an import's warnings"
cp "$M/dynamic.onnx" "$TMP/UPPER.ONNX"
run "$DSE" show workload "$TMP/UPPER.ONNX" --input images=1x3x8x8
expect_code 0 ".ONNX is a model too"
run "$DSE" sim npu-hbm3 resnet50 --strict
expect_code 2 "--strict on a zoo workload"
expect_err "dse: error: strict (--strict) is for an ONNX model; 'resnet50' is not one" "--strict on a zoo workload"

# --- every model's MACs against python3-onnx's own shape inference ---------
KV="x=1x1x768 past_k=1x12x127x64 past_v=1x12x127x64"
for spec in "resnet50" "bert_base" "bert_base_decomposed" "mobilenet_block" \
  "decoder_kv $KV" "dynamic images=2x3x320x240"; do
  set -- $spec
  f=$M/$1.onnx
  shift
  args=()
  for kv in "$@"; do args+=(--input "$kv"); done
  want=$("$PY" -B "$SRC/tests/onnx/onnx_macs.py" "$f" "$@")
  got=$(macs "$f" "${args[@]}" | cut -d' ' -f1)
  if [ -n "$want" ] && [ "$got" = "$want" ]; then ok; else bad "$(basename "$f") $*: dse $got MACs, onnx $want"; fi
done

# --- MobileNet: depthwise, SAME_UPPER at stride 2, ReLU6, HardSwish --------
run "$DSE" show workload "$M/mobilenet_block.onnx"
expect_code 0 "mobilenet"
expect_out "block1.dw                conv2d     c192 56x56 k192 3x3/1 dw" "depthwise conv, groups = c"
# SAME_UPPER, 3x3/2 on 56: pads 0 before, 1 after; output 28x28, exact MACs
expect_out "c192 57x57 k192 3x3/2 dw                  1354752" "SAME_UPPER: 28x28, 192*28*28*9 MACs"
expect_out "activation relu6 602112" "Clip(0, 6) is relu6"
expect_out "activation hardswish" "HardSwish"
expect_out "activation hardsigmoid 192" "HardSigmoid"
expect_out "pool       avg c192 28x28 28x28/1" "GlobalAveragePool"

# --- the decoder: symbolic dims bound, the KV cache ----------------------
run "$DSE" show workload "$M/decoder_kv.onnx" --input x=1x1x768 --input past_k=1x12x127x64 --input past_v=1x12x127x64
expect_code 0 "decoder with inputs"
expect_out "attn.qk                  matmul     b12 m1 n128 k64" "QK^T over the 127 cached + 1 new keys"
expect_out "attn.av                  matmul     b12 m1 n64 k128" "AV over 128 keys"
expect_out "present_k                copy       concat 98304" "the cache's concat moves 12 x 128 x 64"
run "$DSE" show workload "$M/decoder_kv.onnx"
expect_code 2 "decoder without inputs"
expect_err "decoder_kv.onnx: error: input 'x' (batch x 1 x 768): dimension 0 is symbolic ('batch') and not bound" "unbound symbol named"
run "$DSE" show workload "$M/decoder_kv.onnx" --input x=1x1x768 --input past_k=2x12x127x64 --input past_v=1x12x127x64
expect_code 2 "a symbol bound twice differently"
expect_err "dimension 0 is 'batch', which --input x bound to 1, not 2" "symbol conflict named"
# one input binds the symbols of another (past_v from past_k)
run "$DSE" show workload "$M/decoder_kv.onnx" --input x=1x1x768 --input past_k=1x12x63x64
expect_code 0 "symbols bound by another input"
expect_out "b12 m1 n64 k64" "past 63 + 1"
# batch: the dse batch multiplies the graph's work
b1=$(macs "$M/decoder_kv.onnx" --input x=1x1x768 --input past_k=1x12x127x64 | cut -d' ' -f1)
b4=$(macs "$M/decoder_kv.onnx" --input x=1x1x768 --input past_k=1x12x127x64 --batch 4 | cut -d' ' -f1)
if [ "$b4" = "$((4 * b1))" ]; then ok; else bad "--batch 4: $b4 MACs, want 4 x $b1"; fi
n4=$(macs "$M/decoder_kv.onnx" --input x=4x1x768 --input past_k=4x12x127x64 | cut -d' ' -f1)
if [ "$n4" = "$((4 * b1))" ]; then ok; else bad "a graph batch of 4: $n4 MACs, want 4 x $b1"; fi

# --- ops dse cannot model --------------------------------------------------
run "$DSE" show workload "$M/unsupported.onnx"
expect_code 0 "unsupported ops with shapes: imported"
expect_err "dse: warning: unsupported: node 1 'my1' (MyOp): dse cannot model op 'com.example.MyOp': simulated as an eltwise layer over its 2048 output elements" "warning names the node"
expect_out "my1                      eltwise    2048 x 2 inputs" "simulated as eltwise over its output"
run "$DSE" import onnx "$M/unsupported.onnx" --report
expect_out "MyOp                          2  UNSUPPORTED: eltwise over its output" "report: count and first node"
expect_out "1 'my1'" "report: the first node"
run "$DSE" show workload "$M/unsupported.onnx" --strict
expect_code 2 "--strict"
expect_err "node 1 'my1' (MyOp): dse cannot model op 'com.example.MyOp' (strict mode)" "--strict names the node"
run "$DSE" show workload "$M/unsupported_noshape.onnx"
expect_code 2 "unsupported op without a shape"
expect_err "(Mystery): dse cannot model op 'com.example.Mystery' and the file does not state the shape of its output" "no shape: error at the node"

# --- external data is never opened ----------------------------------------
# the MobileNet blocks with their tensors over 1 KiB in an external file,
# which is then deleted: the import needs only the dims
"$PY" -c '
import onnx, sys
m = onnx.load(sys.argv[1])
onnx.save_model(m, sys.argv[2], save_as_external_data=True, all_tensors_to_one_file=True,
                location="mb.weights", size_threshold=1024)' "$M/mobilenet_block.onnx" "$TMP/mb_ext.onnx"
[ -s "$TMP/mb.weights" ] && ok || bad "the external weights file was written"
rm -f "$TMP/mb.weights"
got=$(total_row "$TMP/mb_ext.onnx")
want=$(total_row "$M/mobilenet_block.onnx")
if [ "$got" = "$want" ]; then ok; else bad "external data: $got; embedded: $want"; fi

# --- the faces -------------------------------------------------------------
run "$DSE" check "$M/mobilenet_block.onnx"
expect_out "mobilenet_block.onnx: ok: ONNX model 'mobilenet_block', 17 layers" "dse check model.onnx"
run "$DSE" check "$M/dynamic.onnx"
expect_code 2 "dse check of a model with symbolic dims"
run "$DSE" import onnx "$M/mobilenet_block.onnx" -o "$TMP/mb.yaml"
expect_code 0 "import -o"
expect_out "" "import -o prints nothing"
got=$(total_row "$TMP/mb.yaml")
want=$(total_row "$M/mobilenet_block.onnx")
if [ "$got" = "$want" ]; then ok; else bad "imported YAML: $got; the model: $want"; fi
grep -q "^# Imported by dse .* from the ONNX model" "$TMP/mb.yaml" && ok || bad "YAML header comment"
grep -q "{name: block1.dw, type: conv2d, n: 1, c: 192, k: 192, r: 3, s: 3, h: 56, w: 56, stride: 1, pad: 1, dilation: 1, groups: 192}" "$TMP/mb.yaml" && ok || bad "the dw layer in the zoo schema: $(grep block1.dw, "$TMP/mb.yaml")"
run "$DSE" import onnx "$M/unsupported.onnx" -o "$TMP/u.yaml"
grep -q "^# Warnings:" "$TMP/u.yaml" && ok || bad "warnings kept in the YAML's header"
run "$DSE" sim npu-hbm3 "$M/dynamic.onnx" --input images=1x3x224x224 --format json
expect_code 0 "dse sim ARCH model.onnx --input"
expect_out '"macs": 21676032' "dse sim: the conv's MACs (16 x 224 x 224 x 27 x ... )"
run "$DSE" sim npu-hbm3 "$M/resnet50.onnx" --fidelity analytic --format csv
expect_code 0 "dse sim resnet50.onnx"
cat >"$TMP/onnx.lua" <<EOF
local dse = require "dse"
local wl = dse.workload("$M/decoder_kv.onnx",
  {inputs = {x = {1, 1, 768}, past_k = {1, 12, 127, 64}, past_v = {1, 12, 127, 64}}, batch = 2})
assert(wl.batch == 2 and #wl.warnings == 0, tostring(wl))
local r = dse.simulate(dse.arch("npu-hbm3"), wl, {fidelity = "analytic"})
print("macs", r.total.macs)
local u = dse.workload("$M/unsupported.onnx")
print("warnings", #u.warnings)
local ok, err = pcall(dse.workload, "$M/unsupported.onnx", {strict = true})
print("strict", ok, err)
ok, err = pcall(dse.workload, "$M/dynamic.onnx", {inputs = {images = {1, 3, 640}}})
print("rank", ok, err)
ok, err = pcall(dse.workload, "$M/dynamic.onnx", {inputs = {images = {1, 0, 2, 2}}})
print("zero", ok, err)
EOF
run "$DSE" run "$TMP/onnx.lua"
expect_code 0 "Lua dse.workload(model.onnx, {inputs, batch})"
expect_out "macs	$((2 * b1))" "Lua: the batch of 2 doubles the MACs"
expect_out "warnings	2" "Lua: wl.warnings lists both MyOps"
expect_out "strict	false	" "Lua strict = true is an error"
expect_out "(strict mode)" "Lua strict names the node"
expect_out "input images=1x3x640: 3 dims, but input 'images' has rank 4 (N x 3 x H x W)" "Lua: rank mismatch"
expect_out "dimension 2: expected an integer from 1 to 10^9, got 0" "Lua: a zero dim"

# --- bad input: exit 2, a clear error, nothing written ----------------------
badrun() { # badrun FILE MESSAGE description [ARGS...]
  local f=$1 msg=$2 what=$3
  shift 3
  rm -f "$TMP/never.yaml"
  run "$DSE" import onnx "$f" -o "$TMP/never.yaml" "$@"
  expect_code 2 "$what"
  expect_err "$msg" "$what"
  expect_no_file "$TMP/never.yaml" "$what: nothing written"
}
printf 'name: not a model\nlayers: []\n' >"$TMP/text.onnx"
badrun "$TMP/text.onnx" "text.onnx: error: not an ONNX model" "a text file"
head -c 3000 "$M/mobilenet_block.onnx" >"$TMP/trunc.onnx"
badrun "$TMP/trunc.onnx" "trunc.onnx: error: not an ONNX model" "a truncated model"
"$PY" -c 'import random; random.seed(7); open("'"$TMP"'/rand.onnx","wb").write(bytes(random.getrandbits(8) for _ in range(4096)))'
badrun "$TMP/rand.onnx" "rand.onnx: error: not an ONNX model" "random bytes"
: >"$TMP/empty.onnx"
badrun "$TMP/empty.onnx" "empty.onnx: error: empty file, not an ONNX model" "an empty file"
mkdir -p "$TMP/dir.onnx"
badrun "$TMP/dir.onnx" "is a directory, not a file" "a directory"
mkfifo "$TMP/fifo.onnx"
run timeout 10 "$DSE" import onnx "$TMP/fifo.onnx"
expect_code 2 "a FIFO does not block"
expect_err "not a regular file" "a FIFO"
badrun "$TMP/missing.onnx" "no such file" "a missing file"
# found by mutation fuzzing: a dimension of -2^31 was reported as out of memory (exit 1)
badrun "$SRC/tests/data/onnx_negative_dim.onnx" "onnx_negative_dim.onnx: error: initializer 'value1': a negative dimension" "a negative initializer dim"
# inputs mutation fuzzing found (tests/data/onnx_fuzz/): a huge pool pad and
# int64 constants that overflowed (UBSan), an empty string attribute
# (memcpy from NULL), a name that is not UTF-8 (the YAML emitter failed: exit
# 1), a node whose first output is unnamed (a NULL dereference), a PRelu of
# constants of ranks its output does not cover (read below a stack array);
# each must now exit 0 or 2 with a message, never 1 or a sanitizer's
for f in "$SRC"/tests/data/onnx_fuzz/*.onnx; do
  run "$DSE" import onnx "$f" --report
  case "$CODE:$ERR" in
    0:* | 2:*error:*) ok ;;
    *) bad "$(basename "$f"): exit $CODE: $ERR" ;;
  esac
done
run "$DSE" import onnx "$SRC/tests/data/onnx_fuzz/pool_pad_overflow.onnx"
expect_err "(MaxPool): a pad below 0 or beyond 2^31" "a pad beyond 2^31"
# messages nested 1,000 deep (protobuf-c recurses without a limit: 6,000
# levels overflowed the stack) are refused before decoding
run "$DSE" import onnx "$SRC/tests/data/onnx_fuzz/nested_1000_deep.onnx"
expect_code 2 "deeply nested messages"
expect_err "messages nested more than 64 deep" "deeply nested messages"
# a constant Tile feeding a Reshape's shape (Tile([2, 8], [2]) = [2, 8, 2, 8])
run "$DSE" import onnx "$SRC/tests/data/onnx_tile_shape.onnx" --shapes
expect_out "y	2x8x2x8" "a constant Tile evaluated"
badrun "$M/bad_cycle.onnx" "(Relu): is on a cycle: its input" "a cycle"
badrun "$M/bad_dangling.onnx" "is produced by no node and is neither a graph input nor an initializer (a dangling input)" "a dangling input"
badrun "$M/bad_opset.onnx" "error: opset 99 is newer than supported: dse reads ONNX opsets 1 to 21" "a newer opset"
badrun "$M/bad_reshape.onnx" "(Reshape): cannot infer the output shape: it needs the values, computed at run time, of 'shape'" "a shape that cannot be inferred"
badrun "$M/dynamic.onnx" "input images=1x3x224: 3 dims, but input 'images' has rank 4 (N x 3 x H x W)" "--input of the wrong rank" --input images=1x3x224
badrun "$M/dynamic.onnx" "input images=1x4x224x224: dimension 1 is 3 in the model (N x 3 x H x W), not 4" "--input contradicting a fixed dim" --input images=1x4x224x224
badrun "$M/dynamic.onnx" "the model has no input 'image'; its inputs: 'images'" "--input of an unknown name" --input image=1x3x8x8
badrun "$M/dynamic.onnx" "input images=1x3xHx8: expected the input's dims as 1x3x224x224" "--input dims not numbers" --input images=1x3xHx8
run "$DSE" import onnx "$M/dynamic.onnx" --input images
expect_code 2 "--input without dims"
expect_err "--input expects NAME=DIMS" "--input without ="
run "$DSE" show workload resnet50 --input x=1x3x8x8
expect_code 2 "--input on a YAML workload"
expect_err "are for an ONNX model; 'resnet50' is not one" "--input on a zoo workload"
finish
