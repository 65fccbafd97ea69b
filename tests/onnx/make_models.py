#!/usr/bin/python3
"""Build the ONNX test models of the dse importer.

Usage:
    make_models.py OUTDIR [--bert-dtype float16|float32]

Every model is built node by node with onnx.helper (ir_version 8) and
checked with onnx.checker.check_model, except the intentionally broken
ones.  Weights have their real dims and are all zeros (the importer reads
dims only).  The output is deterministic.

Models (see README.md):
    resnet50.onnx               ResNet-50 v1 = workloads/resnet50.yaml
    bert_base.onnx              BERT-base, opset 17, LayerNormalization op
    bert_base_decomposed.onnx   BERT-base, opset 13, LayerNorm as PyTorch
                                decomposes it, Shape->Gather->Unsqueeze->
                                Concat chains in front of Reshape
    mobilenet_block.onnx        two MobileNet inverted-residual blocks
    decoder_kv.onnx             GPT-2 style decoder block with a KV cache,
                                symbolic batch and past length
    bad_*.onnx, unsupported*.onnx, dynamic.onnx   for error tests

BERT weights are float16 by default (the whole model, input included, is
float16, so that the types agree): a float16 zero is stored as one byte
(int32_data, varint), which keeps each BERT near 85 MB instead of 340 MB.
"""

import argparse
import math
import os
import sys
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

sys.dont_write_bytecode = True     # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_macs  # noqa: E402  (the independent counter next to this file)

IR_VERSION = 8
FLOAT = TensorProto.FLOAT
FLOAT16 = TensorProto.FLOAT16
INT64 = TensorProto.INT64

# Totals of the zoo workloads (workloads/*.yaml, docs/workloads.md).
RESNET50_MACS = 3857973248
RESNET50_WEIGHTS = 25502912
BERT_MACS = 11173625856
BERT_WEIGHTS = 12 * (4 * 768 ** 2 + 2 * 768 * 3072) + 12 * 2 * (2 * 768)

NP_TYPE = {FLOAT: np.float32, FLOAT16: np.float16, INT64: np.int64}


# --------------------------------------------------------------------------
# a small graph builder

class Graph:
    """Collects nodes, initializers, inputs and outputs of one graph."""

    _zero_cache = {}   # (type, dims) -> TensorProto of zeros, reused by copy

    def __init__(self, name, dtype=FLOAT):
        self.name = name
        self.dtype = dtype          # element type of activations and weights
        self.nodes, self.inits = [], []
        self.inputs, self.outputs, self.value_info = [], [], []
        self._init_names = set()

    # ---- tensors

    def input(self, name, dims, dtype=None):
        self.inputs.append(helper.make_tensor_value_info(
            name, dtype or self.dtype, dims))
        return name

    def output(self, name, dims=None, dtype=None):
        self.outputs.append(helper.make_tensor_value_info(
            name, dtype or self.dtype, dims))
        return name

    def shape_info(self, name, dims, dtype=None):
        """value_info giving a tensor's type and shape."""
        self.value_info.append(helper.make_tensor_value_info(
            name, dtype or self.dtype, dims))

    def array(self, name, value):
        """An initializer holding a numpy array (added once per name)."""
        if name not in self._init_names:
            self._init_names.add(name)
            self.inits.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def scalar(self, name, value):
        """A 0-d initializer of the graph's element type."""
        return self.array(name, np.array(value, NP_TYPE[self.dtype]))

    def ints(self, name, values):
        """A 1-d int64 initializer (shapes, axes, indices)."""
        return self.array(name, np.array(values, np.int64))

    def zeros(self, name, dims):
        """A weight of the graph's element type, real dims, all zeros."""
        assert name not in self._init_names, name
        self._init_names.add(name)
        tensor = TensorProto()
        tensor.CopyFrom(self._zero_tensor(self.dtype, tuple(dims)))
        tensor.name = name
        self.inits.append(tensor)
        return name

    @classmethod
    def _zero_tensor(cls, dtype, dims):
        key = (dtype, dims)
        if key not in cls._zero_cache:
            if dtype == FLOAT16:
                # float16 bits live in int32_data; a packed zero is 1 byte
                tensor = TensorProto()
                tensor.data_type = FLOAT16
                tensor.dims.extend(dims)
                tensor.int32_data.extend(np.zeros(int(np.prod(dims)), np.int32))
            else:
                tensor = numpy_helper.from_array(np.zeros(dims, NP_TYPE[dtype]))
            cls._zero_cache[key] = tensor
        return cls._zero_cache[key]

    # ---- nodes

    def node(self, op, inputs, name, outputs=None, domain=None, **attrs):
        """Add a node; returns its output name (or names if several)."""
        outputs = outputs or [name]
        self.nodes.append(helper.make_node(op, inputs, outputs, name=name,
                                           domain=domain, **attrs))
        return outputs[0] if len(outputs) == 1 else outputs

    # ---- model

    def model(self, opset, extra_opsets=()):
        graph = helper.make_graph(self.nodes, self.name, self.inputs,
                                  self.outputs, self.inits,
                                  value_info=self.value_info)
        opsets = [helper.make_opsetid("", opset)]
        opsets += [helper.make_opsetid(d, v) for d, v in extra_opsets]
        model = helper.make_model(graph, opset_imports=opsets,
                                  producer_name="dse tests/onnx/make_models.py")
        model.ir_version = IR_VERSION
        return model


# --------------------------------------------------------------------------
# ResNet-50 v1 (workloads/resnet50.yaml)

def conv_bn(g, x, name, c_in, c_out, kernel, stride=1, pad=0, relu=True):
    """Conv (no bias) -> BatchNormalization -> optional Relu.
    The Conv node carries the zoo layer name, the Relu name + '_relu'."""
    w = g.zeros(name + "_w", [c_out, c_in, kernel, kernel])
    y = g.node("Conv", [x, w], name, kernel_shape=[kernel, kernel],
               strides=[stride, stride], pads=[pad] * 4)
    bn = [g.zeros("%s_bn_%s" % (name, p), [c_out])
          for p in ("scale", "B", "mean", "var")]
    y = g.node("BatchNormalization", [y] + bn, name + "_bn", epsilon=1e-5)
    if relu:
        y = g.node("Relu", [y], name + "_relu")
    return y


def bottleneck(g, x, name, c_in, mid, stride, projection):
    """One ResNet v1 bottleneck; the stride sits in the first 1x1 conv."""
    y = conv_bn(g, x, name + "_branch2a", c_in, mid, 1, stride)
    y = conv_bn(g, y, name + "_branch2b", mid, mid, 3, 1, 1)
    y = conv_bn(g, y, name + "_branch2c", mid, 4 * mid, 1, relu=False)
    shortcut = x
    if projection:
        shortcut = conv_bn(g, x, name + "_branch1", c_in, 4 * mid, 1, stride,
                           relu=False)
    y = g.node("Add", [y, shortcut], name + "_add")
    return g.node("Relu", [y], name + "_relu")


def make_resnet50():
    g = Graph("resnet50")
    x = g.input("data", [1, 3, 224, 224])
    y = conv_bn(g, x, "conv1", 3, 64, 7, 2, 3)
    y = g.node("MaxPool", [y], "pool1", kernel_shape=[3, 3], strides=[2, 2],
               pads=[1, 1, 1, 1])
    c_in = 64
    stages = [(2, 3, 64, 1), (3, 4, 128, 2), (4, 6, 256, 2), (5, 3, 512, 2)]
    for stage, blocks, mid, stride in stages:
        for b in range(blocks):
            name = "res%d%s" % (stage, "abcdef"[b])
            y = bottleneck(g, y, name, c_in, mid, stride if b == 0 else 1,
                           projection=(b == 0))
            c_in = 4 * mid
    y = g.node("GlobalAveragePool", [y], "pool5")
    y = g.node("Flatten", [y], "flatten", axis=1)
    y = g.node("Gemm", [y, g.zeros("fc1000_w", [1000, 2048]),
                        g.zeros("fc1000_b", [1000])], "fc1000", transB=1)
    g.node("Softmax", [y], "prob", axis=1)
    g.output("prob", [1, 1000])
    return g.model(13)


# --------------------------------------------------------------------------
# transformer pieces (BERT-base and the decoder block)

D_MODEL, HEADS, D_HEAD, D_FF = 768, 12, 64, 3072
LN_EPS = 1e-5


def linear(g, x, name, k, n):
    """MatMul with a [k, n] weight, then the bias Add."""
    y = g.node("MatMul", [x, g.zeros(name + "_w", [k, n])], name)
    return g.node("Add", [y, g.zeros(name + "_b", [n])], name + "_bias")


def layernorm_op(g, x, name):
    """LayerNormalization (opset 17) over the last axis."""
    return g.node("LayerNormalization",
                  [x, g.zeros(name + "_gamma", [D_MODEL]),
                   g.zeros(name + "_beta", [D_MODEL])],
                  name, axis=-1, epsilon=LN_EPS)


def layernorm_decomposed(g, x, name):
    """LayerNorm as PyTorch exports it at opset < 17:
    ReduceMean -> Sub -> Pow 2 -> ReduceMean -> Add eps -> Sqrt -> Div
    -> Mul gamma -> Add beta."""
    mean = g.node("ReduceMean", [x], name + ".mean", axes=[-1], keepdims=1)
    d = g.node("Sub", [x, mean], name + ".sub")
    sq = g.node("Pow", [d, g.scalar("const_two", 2.0)], name + ".pow")
    var = g.node("ReduceMean", [sq], name + ".var", axes=[-1], keepdims=1)
    var = g.node("Add", [var, g.scalar("const_ln_eps", LN_EPS)], name + ".add_eps")
    std = g.node("Sqrt", [var], name + ".sqrt")
    y = g.node("Div", [d, std], name + ".div")
    y = g.node("Mul", [y, g.zeros(name + "_gamma", [D_MODEL])], name + ".mul_gamma")
    return g.node("Add", [y, g.zeros(name + "_beta", [D_MODEL])], name)


def gelu_erf(g, x, name):
    """GELU written out: x * 0.5 * (1 + Erf(x / sqrt(2)))."""
    y = g.node("Div", [x, g.scalar("const_sqrt2", math.sqrt(2.0))], name + ".div")
    y = g.node("Erf", [y], name + ".erf")
    y = g.node("Add", [y, g.scalar("const_one", 1.0)], name + ".add")
    y = g.node("Mul", [x, y], name + ".mul")
    return g.node("Mul", [y, g.scalar("const_half", 0.5)], name)


def dynamic_shape(g, x, name, leading, tail):
    """Shape(x) -> Gather(i) -> Unsqueeze for each i in `leading`, Concat with
    the constant `tail`: the shape chain a PyTorch export puts in front of
    Reshape.  Unsqueeze takes its axes as an input (opset >= 13)."""
    shape = g.node("Shape", [x], name + ".shape")
    parts = []
    for i in leading:
        d = g.node("Gather", [shape, g.array("const_index%d" % i, np.array(i, np.int64))],
                   "%s.gather%d" % (name, i), axis=0)
        parts.append(g.node("Unsqueeze", [d, g.ints("const_axes0", [0])],
                            "%s.unsqueeze%d" % (name, i)))
    tail = g.ints("const_tail_" + "_".join(str(t) for t in tail), tail)
    return g.node("Concat", parts + [tail], name + ".concat", axis=0)


def split_heads(g, x, shape, name, perm):
    """Reshape [.., T, d] -> [.., T, heads, dh], then Transpose by perm."""
    y = g.node("Reshape", [x, shape], name + ".reshape")
    return g.node("Transpose", [y], name + ".transpose", perm=perm)


def attention_core(g, q, k_t, v, name):
    """softmax(q k^T / sqrt(dh)) v, heads-major layout."""
    s = g.node("MatMul", [q, k_t], name + ".qk")
    s = g.node("Div", [s, g.scalar("const_sqrt_dh", math.sqrt(D_HEAD))], name + ".scale")
    p = g.node("Softmax", [s], name + ".softmax", axis=-1)
    return g.node("MatMul", [p, v], name + ".av")


def bert_block(g, x, i, decomposed):
    """One pre-norm encoder block (docs/workloads.md, the transformer family):
    ln1, q/k/v, qk, softmax, av, proj, add1, ln2, ffn1, gelu, ffn2, add2."""
    b = "blk%d" % i
    norm = layernorm_decomposed if decomposed else layernorm_op
    h = norm(g, x, b + ".ln1")
    q, k, v = (linear(g, h, "%s.%s" % (b, n), D_MODEL, D_MODEL) for n in "qkv")
    if decomposed:   # heads shape from the input, as PyTorch exports it
        heads = dynamic_shape(g, h, b + ".heads_shape", [0, 1], [HEADS, D_HEAD])
    else:
        heads = g.ints("const_shape_1_128_12_64", [1, 128, HEADS, D_HEAD])
    q = split_heads(g, q, heads, b + ".q", [0, 2, 1, 3])       # [1,12,128,64]
    k = split_heads(g, k, heads, b + ".k", [0, 2, 3, 1])       # [1,12,64,128]
    v = split_heads(g, v, heads, b + ".v", [0, 2, 1, 3])       # [1,12,128,64]
    o = attention_core(g, q, k, v, b)
    o = g.node("Transpose", [o], b + ".merge.transpose", perm=[0, 2, 1, 3])
    o = g.node("Reshape", [o, g.ints("const_shape_1_128_768", [1, 128, D_MODEL])],
               b + ".merge.reshape")
    o = linear(g, o, b + ".proj", D_MODEL, D_MODEL)
    x = g.node("Add", [x, o], b + ".add1")
    h = norm(g, x, b + ".ln2")
    h = linear(g, h, b + ".ffn1", D_MODEL, D_FF)
    h = gelu_erf(g, h, b + ".gelu")
    h = linear(g, h, b + ".ffn2", D_FF, D_MODEL)
    return g.node("Add", [x, h], b + ".add2")


def make_bert(decomposed, dtype):
    g = Graph("bert_base_decomposed" if decomposed else "bert_base", dtype)
    x = g.input("x", [1, 128, D_MODEL])
    for i in range(12):
        x = bert_block(g, x, i, decomposed)
    g.output(x, [1, 128, D_MODEL])         # "blk11.add2"
    return g.model(13 if decomposed else 17)


def make_decoder_kv():
    """A GPT-2 style block at decode time: one new token per sequence,
    the keys and values of the context come in as past_k / past_v."""
    g = Graph("decoder_kv")
    x = g.input("x", ["batch", 1, D_MODEL])
    past_k = g.input("past_k", ["batch", HEADS, "past", D_HEAD])
    past_v = g.input("past_v", ["batch", HEADS, "past", D_HEAD])
    h = layernorm_decomposed(g, x, "ln1")
    q, k, v = (linear(g, h, n, D_MODEL, D_MODEL) for n in "qkv")
    # q: constant shape with 0 (copy the batch dim); k, v: a Shape chain
    q = split_heads(g, q, g.ints("const_shape_0_1_12_64", [0, 1, HEADS, D_HEAD]),
                    "q", [0, 2, 1, 3])                          # [b,12,1,64]
    kv_shape = dynamic_shape(g, x, "kv_shape", [0], [1, HEADS, D_HEAD])
    k = split_heads(g, k, kv_shape, "k", [0, 2, 1, 3])          # [b,12,1,64]
    v = split_heads(g, v, kv_shape, "v", [0, 2, 1, 3])
    present_k = g.node("Concat", [past_k, k], "present_k", axis=2)  # [b,12,P+1,64]
    present_v = g.node("Concat", [past_v, v], "present_v", axis=2)
    k_t = g.node("Transpose", [present_k], "k_t", perm=[0, 1, 3, 2])
    o = attention_core(g, q, k_t, present_v, "attn")            # [b,12,1,64]
    o = g.node("Transpose", [o], "merge.transpose", perm=[0, 2, 1, 3])
    o = g.node("Reshape", [o, g.ints("const_shape_0_m1_768", [0, -1, D_MODEL])],
               "merge.reshape")
    o = linear(g, o, "proj", D_MODEL, D_MODEL)
    x = g.node("Add", [x, o], "add1")
    h = layernorm_decomposed(g, x, "ln2")
    h = linear(g, h, "ffn1", D_MODEL, D_FF)
    h = gelu_erf(g, h, "gelu")
    h = linear(g, h, "ffn2", D_FF, D_MODEL)
    g.node("Add", [x, h], "y")
    g.output("y", ["batch", 1, D_MODEL])
    g.output("present_k", ["batch", HEADS, "present", D_HEAD])
    g.output("present_v", ["batch", HEADS, "present", D_HEAD])
    return g.model(14)


# --------------------------------------------------------------------------
# MobileNet inverted residual blocks

def conv_bn_act(g, x, name, c_in, c_out, kernel, act, group=1, stride=1, **pad):
    """Conv (no bias) -> BatchNormalization -> activation ('relu6',
    'hardswish' or None).  pad: pads=... or auto_pad=..."""
    w = g.zeros(name + "_w", [c_out, c_in // group, kernel, kernel])
    y = g.node("Conv", [x, w], name, kernel_shape=[kernel, kernel],
               strides=[stride, stride], group=group, **pad)
    bn = [g.zeros("%s_bn_%s" % (name, p), [c_out])
          for p in ("scale", "B", "mean", "var")]
    y = g.node("BatchNormalization", [y] + bn, name + "_bn", epsilon=1e-5)
    if act == "relu6":     # Clip with min/max as inputs (opset >= 11)
        y = g.node("Clip", [y, g.scalar("const_zero", 0.0), g.scalar("const_six", 6.0)],
                   name + "_relu6")
    elif act == "hardswish":
        y = g.node("HardSwish", [y], name + "_hardswish")
    return y


def squeeze_excite(g, x, name, channels, reduced):
    """GlobalAveragePool -> 1x1 Conv (bias) -> Relu -> 1x1 Conv (bias)
    -> HardSigmoid -> Mul with the input."""
    s = g.node("GlobalAveragePool", [x], name + ".pool")
    s = g.node("Conv", [s, g.zeros(name + ".fc1_w", [reduced, channels, 1, 1]),
                        g.zeros(name + ".fc1_b", [reduced])], name + ".fc1",
               kernel_shape=[1, 1])
    s = g.node("Relu", [s], name + ".relu")
    s = g.node("Conv", [s, g.zeros(name + ".fc2_w", [channels, reduced, 1, 1]),
                        g.zeros(name + ".fc2_b", [channels])], name + ".fc2",
               kernel_shape=[1, 1])
    s = g.node("HardSigmoid", [s], name + ".hardsigmoid", alpha=1.0 / 6, beta=0.5)
    return g.node("Mul", [x, s], name + ".scale")


def make_mobilenet_block():
    g = Graph("mobilenet_block")
    x = g.input("x", [1, 32, 56, 56])
    # block 1: MobileNetV2, stride 1, residual
    y = conv_bn_act(g, x, "block1.expand", 32, 192, 1, "relu6", pads=[0] * 4)
    y = conv_bn_act(g, y, "block1.dw", 192, 192, 3, "relu6", group=192,
                    pads=[1] * 4)
    y = conv_bn_act(g, y, "block1.project", 192, 32, 1, None, pads=[0] * 4)
    x = g.node("Add", [x, y], "block1.add")                     # [1,32,56,56]
    # block 2: MobileNetV3 style, stride 2 with SAME_UPPER, hard-swish, SE
    y = conv_bn_act(g, x, "block2.expand", 32, 192, 1, "hardswish", pads=[0] * 4)
    y = conv_bn_act(g, y, "block2.dw", 192, 192, 3, "hardswish", group=192,
                    stride=2, auto_pad="SAME_UPPER")            # [1,192,28,28]
    y = squeeze_excite(g, y, "block2.se", 192, 48)
    y = conv_bn_act(g, y, "block2.project", 192, 64, 1, None, pads=[0] * 4)
    g.output(y, [1, 64, 28, 28])
    return g.model(14)


# --------------------------------------------------------------------------
# models for the error tests

def make_bad_cycle():
    """Two Relu nodes, each consuming the other's output."""
    g = Graph("bad_cycle")
    g.input("x", [1, 4])
    g.node("Relu", ["b"], "a")
    g.node("Relu", ["a"], "b")
    g.output("b", [1, 4])
    return g.model(13)


def make_bad_dangling():
    """The Add consumes 'ghost', which no node, input or initializer makes."""
    g = Graph("bad_dangling")
    x = g.input("x", [1, 4])
    y = g.node("Relu", [x], "relu")
    g.node("Add", [y, "ghost"], "add")
    g.output("add", [1, 4])
    return g.model(13)


def make_bad_opset():
    g = Graph("bad_opset")
    x = g.input("x", [1, 4])
    g.node("Relu", [x], "relu")
    g.output("relu", [1, 4])
    return g.model(99)


def make_bad_reshape():
    """Reshape to a shape that is a graph input: not computable from shapes."""
    g = Graph("bad_reshape")
    x = g.input("x", [1, 8, 4, 4])
    shape = g.input("shape", [4], INT64)
    y = g.node("Reshape", [x, shape], "reshape")
    g.node("Relu", [y], "relu")
    g.output("relu", [None] * 4)      # rank only: the checker wants a shape
    return g.model(13)


def conv_3_to_8(g, x):
    """Conv 3->8, 3x3, pad 1, with bias."""
    return g.node("Conv", [x, g.zeros("conv_w", [8, 3, 3, 3]), g.zeros("conv_b", [8])],
                  "conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1])


def make_unsupported():
    """Two custom-domain MyOp nodes whose shapes only value_info gives."""
    g = Graph("unsupported")
    x = g.input("x", [1, 3, 16, 16])
    y = conv_3_to_8(g, x)
    y = g.node("MyOp", [y], "my1", domain="com.example")
    g.shape_info(y, [1, 8, 16, 16])
    y = g.node("MyOp", [y], "my2", domain="com.example")
    g.shape_info(y, [1, 8, 16, 16])
    g.node("Relu", [y], "relu")
    g.output("relu", [1, 8, 16, 16])
    return g.model(13, [("com.example", 1)])


def make_unsupported_noshape():
    """A custom-domain Mystery node of unknown output shape, then Relu."""
    g = Graph("unsupported_noshape")
    x = g.input("x", [1, 3, 16, 16])
    y = conv_3_to_8(g, x)
    y = g.node("Mystery", [y], "mystery", domain="com.example")
    g.node("Relu", [y], "relu")
    g.output("relu", [None] * 4)      # rank only: the checker wants a shape
    return g.model(13, [("com.example", 1)])


def make_dynamic():
    """Conv 3->16 3x3 pad 1 on images [N,3,H,W], all three symbolic."""
    g = Graph("dynamic")
    x = g.input("images", ["N", 3, "H", "W"])
    g.node("Conv", [x, g.zeros("conv_w", [16, 3, 3, 3]), g.zeros("conv_b", [16])],
           "conv", kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    g.output("conv", ["N", 16, "H", "W"])
    return g.model(13)


# --------------------------------------------------------------------------
# driver

def model_list(bert_dtype):
    """(file name, builder, run the checker?, expected (MACs, weights) or None)."""
    bert = (BERT_MACS, BERT_WEIGHTS)
    return [
        ("resnet50.onnx", make_resnet50, True, (RESNET50_MACS, RESNET50_WEIGHTS)),
        ("bert_base.onnx", lambda: make_bert(False, bert_dtype), True, bert),
        ("bert_base_decomposed.onnx", lambda: make_bert(True, bert_dtype), True, bert),
        ("mobilenet_block.onnx", make_mobilenet_block, True, None),
        ("decoder_kv.onnx", make_decoder_kv, True, None),
        ("bad_cycle.onnx", make_bad_cycle, False, None),
        ("bad_dangling.onnx", make_bad_dangling, False, None),
        ("bad_opset.onnx", make_bad_opset, False, None),
        ("bad_reshape.onnx", make_bad_reshape, True, None),
        ("unsupported.onnx", make_unsupported, True, None),
        ("unsupported_noshape.onnx", make_unsupported_noshape, True, None),
        ("dynamic.onnx", make_dynamic, True, None),
    ]


def verify_totals(file_name, model, expected):
    """Assert MACs and weights with the independent counter."""
    result = onnx_macs.count_model(model)
    got = (result["macs"], result["weights"])
    assert got == expected, "%s: MACs, weights %s, expected %s" % (file_name, got, expected)
    return "MACs %d, weights %d (= zoo)" % got


def parse_args(argv):
    p = argparse.ArgumentParser(description="Write the ONNX test models.")
    p.add_argument("outdir", help="directory to write the models into")
    p.add_argument("--bert-dtype", choices=("float16", "float32"), default="float16",
                   help="element type of the BERT models (float32: ~340 MB each)")
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    bert_dtype = FLOAT16 if args.bert_dtype == "float16" else FLOAT
    os.makedirs(args.outdir, exist_ok=True)
    start, total = time.time(), 0
    for file_name, build, check, expected in model_list(bert_dtype):
        model = build()
        if check:
            onnx.checker.check_model(model, full_check=True)  # + strict inference
        note = verify_totals(file_name, model, expected) if expected else ""
        path = os.path.join(args.outdir, file_name)
        onnx.save(model, path)
        size = os.path.getsize(path)
        total += size
        print("%-28s %12d bytes  %s%s" % (file_name, size,
                                          "checked" if check else "not checked",
                                          "  " + note if note else ""))
    print("%-28s %12d bytes  in %.1f s" % ("total", total, time.time() - start))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
