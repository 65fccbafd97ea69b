#!/usr/bin/python3
"""Build the ONNX models of the bad-input corpus (tests/cli/cli_bad_corpus.sh).

Usage:
    make_bad_corpus.py OUTDIR     (tests/bad: the models are kept there)

Each model is small and broken on purpose, in one node or input the
importer must name: a kernel larger than its input, inner dimensions that
disagree, dimensions beyond 2^40 and near 2^63, a stride of 0, a negative
pad, a reshape that changes the element count, a cycle, a dangling input,
opset 99, an op dse cannot model without a stated shape, no graph, an
unbound symbolic dimension.  Weights are zeros (the importer reads dims
only).  The output is deterministic.
"""
import sys
import numpy as np
from onnx import TensorProto as T, helper as h, numpy_helper as nh
out = sys.argv[1]
F = T.FLOAT
def vi(n, dims): return h.make_tensor_value_info(n, F, dims)
def save(name, nodes, inputs, outputs, inits=(), opset=14, ir=8):
    g = h.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    m = h.make_model(g, opset_imports=[h.make_opsetid("", opset)])
    m.ir_version = ir
    open("%s/onnx_%s.onnx" % (out, name), "wb").write(m.SerializeToString())
W = lambda n, shape: nh.from_array(np.zeros(shape, np.float32), n)
# a 5x5 kernel over a 3x3 image
save("kernel_too_big", [h.make_node("Conv", ["x", "w"], ["y"], name="conv")],
     [vi("x", [1, 4, 3, 3])], [vi("y", None)], [W("w", [8, 4, 5, 5])])
# Gemm's inner dims disagree
save("gemm_mismatch", [h.make_node("Relu", ["a"], ["r"], name="relu"),
                       h.make_node("Gemm", ["r", "b"], ["y"], name="fc")],
     [vi("a", [2, 8])], [vi("y", None)], [W("b", [7, 4])])
# MatMul's inner dims disagree
save("matmul_mismatch", [h.make_node("MatMul", ["a", "b"], ["y"], name="mm")],
     [vi("a", [2, 3, 8]), vi("b", [2, 9, 4])], [vi("y", None)])
# an input dimension of 2^50
save("huge_dim", [h.make_node("Relu", ["x"], ["y"], name="relu")],
     [vi("x", [1, 2**50])], [vi("y", None)])
# an input dimension of 2^62 (int64's range; sizes beyond 2^64 once multiplied)
save("dim_2e62", [h.make_node("MatMul", ["a", "b"], ["y"], name="mm")],
     [vi("a", [2**62, 2**62]), vi("b", [2**62, 2**62])], [vi("y", None)])
# stride 0
save("zero_stride", [h.make_node("Conv", ["x", "w"], ["y"], name="conv", strides=[0, 0])],
     [vi("x", [1, 4, 8, 8])], [vi("y", None)], [W("w", [8, 4, 3, 3])])
# Reshape to an element count that differs
save("reshape_count", [h.make_node("Reshape", ["x", "s"], ["y"], name="rs")],
     [vi("x", [2, 8])], [vi("y", None)], [nh.from_array(np.array([5, 3], np.int64), "s")])
# Concat of mismatched shapes
save("concat_mismatch", [h.make_node("Concat", ["a", "b"], ["y"], name="cat", axis=1)],
     [vi("a", [2, 8]), vi("b", [3, 8])], [vi("y", None)])
# a cycle
save("cycle", [h.make_node("Relu", ["b"], ["a"], name="r1"), h.make_node("Relu", ["a"], ["b"], name="r2"),
               h.make_node("Relu", ["a"], ["y"], name="r3")],
     [vi("x", [2, 8])], [vi("y", None)])
# a dangling input
save("dangling", [h.make_node("Relu", ["x"], ["r"], name="relu"),
                  h.make_node("Add", ["r", "ghost"], ["y"], name="add")],
     [vi("x", [2, 8])], [vi("y", None)])
# opset 99
save("opset99", [h.make_node("Relu", ["x"], ["y"], name="relu")], [vi("x", [2, 8])], [vi("y", None)], opset=99)
# an op dse cannot model without a shape
g = h.make_graph([h.make_node("Mystery", ["x"], ["y"], name="myst", domain="com.example")], "unknown_op",
                 [vi("x", [2, 8])], [vi("y", None)])
m = h.make_model(g, opset_imports=[h.make_opsetid("", 14), h.make_opsetid("com.example", 1)])
m.ir_version = 8
open("%s/onnx_unknown_op.onnx" % out, "wb").write(m.SerializeToString())
# a negative pad
save("negative_pad", [h.make_node("Conv", ["x", "w"], ["y"], name="conv", pads=[-9, -9, -9, -9])],
     [vi("x", [1, 4, 8, 8])], [vi("y", None)], [W("w", [8, 4, 3, 3])])
# a model without a graph
m = h.make_model(h.make_graph([], "g", [], []), opset_imports=[h.make_opsetid("", 14)])
m.ClearField("graph")
open("%s/onnx_no_graph.onnx" % out, "wb").write(m.SerializeToString())
# symbolic input without --input
save("symbolic", [h.make_node("Relu", ["x"], ["y"], name="relu")], [vi("x", ["N", 8])], [vi("y", None)])
# Conv weight channels disagree with the input's
save("conv_channels", [h.make_node("Conv", ["x", "w"], ["y"], name="conv")],
     [vi("x", [1, 4, 8, 8])], [vi("y", None)], [W("w", [8, 5, 3, 3])])
