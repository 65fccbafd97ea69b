#!/usr/bin/python3
"""Write tiny_detector.onnx, the small ONNX model the README and
docs/onnx.md use: a YOLO-like detector with symbolic input dims
(images: N x 3 x H x W), built node by node with python3-onnx as an
exporter would write it: Conv without bias + BatchNormalization + SiLU
(Sigmoid, Mul), a max pool, a stride-2 stage, a nearest 2x Resize and a
Concat (a small FPN), a Shape -> Gather -> Concat chain in front of a
Reshape, a Transpose and a Softmax head.  Weights are zeros (dse reads
their dims only).  Usage: make_tiny_detector.py [OUT.onnx]
"""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

nodes, inits = [], []


def weight(name, shape):
    inits.append(numpy_helper.from_array(np.zeros(shape, np.float32), name))
    return name


def const(name, values):
    inits.append(numpy_helper.from_array(np.array(values, np.int64), name))
    return name


def conv_bn_silu(x, name, cin, cout, k, stride=1):
    w = weight(name + ".w", [cout, cin, k, k])
    nodes.append(helper.make_node("Conv", [x, w], [name], name=name, kernel_shape=[k, k],
                                  strides=[stride, stride], pads=[k // 2] * 4))
    bn = [weight(name + ".bn." + p, [cout]) for p in ("scale", "bias", "mean", "var")]
    nodes.append(helper.make_node("BatchNormalization", [name] + bn, [name + "_bn"],
                                  name=name + "_bn"))
    nodes.append(helper.make_node("Sigmoid", [name + "_bn"], [name + "_sig"], name=name + "_sig"))
    nodes.append(helper.make_node("Mul", [name + "_bn", name + "_sig"], [name + "_silu"],
                                  name=name + "_silu"))
    return name + "_silu"


x = conv_bn_silu("images", "stem", 3, 16, 3, 2)
x = helper.make_node("MaxPool", [x], ["pool"], name="pool", kernel_shape=[2, 2], strides=[2, 2])
nodes.append(x)
c3 = conv_bn_silu("pool", "c3", 16, 32, 3)
c4 = conv_bn_silu(c3, "c4", 32, 64, 3, 2)
nodes.append(helper.make_node("Resize", [c4, "", const_scales := "up.scales"], ["up"],
                              name="up", mode="nearest"))
inits.append(numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), const_scales))
nodes.append(helper.make_node("Concat", ["up", c3], ["fpn"], name="fpn", axis=1))
h = conv_bn_silu("fpn", "head", 96, 32, 1)
# the head's boxes: [N, 32, H/4, W/4] -> [N, 32, H*W/16] -> [N, H*W/16, 32]
nodes.append(helper.make_node("Shape", [h], ["h.shape"], name="h.shape"))
nodes.append(helper.make_node("Gather", ["h.shape", const("i0", [0])], ["h.n"], name="h.n", axis=0))
nodes.append(helper.make_node("Concat", ["h.n", const("c32", [32]), const("m1", [-1])],
                              ["h.dims"], name="h.dims", axis=0))
nodes.append(helper.make_node("Reshape", [h, "h.dims"], ["flat"], name="flat"))
nodes.append(helper.make_node("Transpose", ["flat"], ["boxes"], name="boxes", perm=[0, 2, 1]))
nodes.append(helper.make_node("Softmax", ["boxes"], ["scores"], name="scores", axis=-1))

graph = helper.make_graph(
    nodes, "tiny_detector",
    [helper.make_tensor_value_info("images", TensorProto.FLOAT, ["N", 3, "H", "W"])],
    [helper.make_tensor_value_info("scores", TensorProto.FLOAT, ["N", None, 32])],
    initializer=inits)
model = helper.make_model(graph, producer_name="dse examples", opset_imports=[
    helper.make_opsetid("", 13)])
model.ir_version = 8
onnx.checker.check_model(model, full_check=True)
onnx.save(model, sys.argv[1] if len(sys.argv) > 1 else "tiny_detector.onnx")
