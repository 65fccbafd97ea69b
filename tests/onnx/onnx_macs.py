#!/usr/bin/python3
"""Independent MAC and weight counter for ONNX models.

Usage:
    onnx_macs.py MODEL [NAME=DIMS ...] [--json] [--weights]

NAME=DIMS binds a graph input to concrete dims, e.g. x=1x128x768 (an
empty DIMS, "NAME=", binds a scalar).  Every symbolic dim (dim_param) of
the bound inputs takes the bound value everywhere in the graph.

Shapes come from onnx's own shape inference (onnx.shape_inference).
Because that inference (onnx 1.12) cannot see through the
Shape -> Gather -> Unsqueeze -> Concat chains that exporters put in front
of Reshape, this script folds such small constant sub-graphs with numpy
and re-runs inference until nothing more folds.

MACs per node:
    Conv           N*M*Ho*Wo*(C/group)*prod(kernel)  = prod(Y) * prod(W[1:])
    ConvTranspose  N*C_in*prod(X spatial)*(M/group)*prod(kernel)
                                                     = prod(X) * prod(W[1:])
    Gemm           M*N*K (after transA/transB)
    MatMul         broadcast batch * M*N*K, numpy rules for 1-D operands
    anything else  0

Weights (--weights): elements of the initializers (or Constant outputs)
that are input 1 of Conv/ConvTranspose/Gemm/MatMul, plus the scale and
bias of LayerNormalization and of the decomposed LayerNorm that PyTorch
exports (... Div(x - mean, Sqrt(var + eps)) -> Mul(gamma) -> Add(beta)).
A weight reached through Identity/Cast/Transpose/Reshape/Squeeze/
Unsqueeze/Flatten/DequantizeLinear still counts.  Each distinct tensor
counts once, biases and batch-norm parameters never.

Output: one line with the MAC total; with --weights one line with the
weight total instead; with --json one JSON object
    {"macs", "weights", "by_op", "ops", "nodes"}
Only top-level graph nodes are looked at (not If/Loop bodies).

Exit status: 0 ok, 2 usage or model error, 3 a shape needed for a MAC
count is unknown (the message names the node).
"""

import argparse
import json
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper, shape_inference

EXIT_USAGE = 2
EXIT_UNKNOWN_SHAPE = 3

# Constant sub-graphs are folded only while their tensors stay this small:
# shape arithmetic is tiny, weights are not to be touched.
MAX_FOLD_ELEMENTS = 1 << 16
MAX_FOLD_ROUNDS = 50

STANDARD_DOMAINS = ("", "ai.onnx", "ai.onnx.ml")
MAC_OPS = ("Conv", "ConvTranspose", "Gemm", "MatMul")
# Ops through which a weight may pass between its initializer and its use.
WEIGHT_PASS_THROUGH = ("Identity", "Cast", "Transpose", "Reshape", "Squeeze",
                       "Unsqueeze", "Flatten", "DequantizeLinear")


class CountError(Exception):
    """A problem with the model or the bindings (exit 2)."""


class UnknownShape(Exception):
    """A shape needed for a MAC count is unknown (exit 3)."""


# --------------------------------------------------------------------------
# small helpers

def prod(values):
    """Integer product of an iterable (1 for an empty one)."""
    result = 1
    for v in values:
        result *= int(v)
    return result


def node_label(node, index):
    """A name for messages: the node name, else op type and position."""
    if node.name:
        return "'%s' (%s)" % (node.name, node.op_type)
    return "#%d (%s, output '%s')" % (index, node.op_type,
                                       node.output[0] if node.output else "")


def attribute(node, name, default=None):
    """Value of a node attribute, or default when it is absent."""
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default


def np_dtype(onnx_type):
    """numpy dtype of a TensorProto data type."""
    if hasattr(helper, "tensor_dtype_to_np_dtype"):      # onnx >= 1.13
        return helper.tensor_dtype_to_np_dtype(onnx_type)
    return onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[onnx_type]


def dims_of(value_info):
    """Dims of a ValueInfoProto: per dim an int, a symbol (str) or None
    (unknown); None for the whole if the rank is unknown or the value is
    not a tensor."""
    t = value_info.type
    if t.WhichOneof("value") != "tensor_type":
        return None
    if not t.tensor_type.HasField("shape"):
        return None
    dims = []
    for d in t.tensor_type.shape.dim:
        kind = d.WhichOneof("value")
        dims.append(d.dim_value if kind == "dim_value"
                    else (d.dim_param or None) if kind == "dim_param" else None)
    return dims


def fully_known(dims):
    """True if the rank and every dim are known integers."""
    return dims is not None and all(isinstance(d, int) for d in dims)


def dims_text(dims):
    """'[batch, 1, 768]' ('?' for an unknown dim), 'unknown rank'."""
    if dims is None:
        return "unknown rank"
    return "[%s]" % ", ".join("?" if d is None else str(d) for d in dims)


# --------------------------------------------------------------------------
# binding symbolic inputs

def parse_binding(text):
    """'NAME=1x3x224x224' -> ('NAME', [1, 3, 224, 224])."""
    name, sep, dims = text.rpartition("=")
    if not sep or not name:
        raise CountError("bad binding '%s' (want NAME=DIMS, e.g. x=1x3x224x224)"
                         % text)
    if dims == "":
        return name, []
    try:
        values = [int(d) for d in dims.replace(",", "x").split("x")]
    except ValueError:
        raise CountError("bad dims in binding '%s'" % text)
    if any(v < 0 for v in values):
        raise CountError("negative dim in binding '%s'" % text)
    return name, values


def set_dims(value_info, dims):
    """Give a tensor ValueInfoProto exactly these concrete dims."""
    shape = value_info.type.tensor_type.shape
    shape.ClearField("dim")
    for v in dims:
        shape.dim.add().dim_value = v


def bind_inputs(graph, bindings):
    """Rewrite the bound graph inputs and substitute their symbols in every
    other input, output and value_info of the graph."""
    inputs = {vi.name: vi for vi in graph.input}
    symbols, seen = {}, set()
    for name, dims in bindings:
        if name in seen:
            raise CountError("input '%s' bound twice" % name)
        seen.add(name)
        if name not in inputs:
            raise CountError("no graph input named '%s' (inputs: %s)"
                             % (name, ", ".join(inputs)))
        vi = inputs[name]
        old = vi.type.tensor_type.shape.dim
        if vi.type.tensor_type.HasField("shape") and len(old) != len(dims):
            raise CountError("input '%s' has rank %d, binding gives %d dims"
                             % (name, len(old), len(dims)))
        for d, v in zip(old, dims):
            if d.WhichOneof("value") == "dim_param" and d.dim_param:
                if symbols.get(d.dim_param, v) != v:
                    raise CountError("symbol '%s' bound to both %d and %d"
                                     % (d.dim_param, symbols[d.dim_param], v))
                symbols[d.dim_param] = v
        set_dims(vi, dims)
    for vi in list(graph.input) + list(graph.output) + list(graph.value_info):
        if vi.type.WhichOneof("value") != "tensor_type":
            continue
        for d in vi.type.tensor_type.shape.dim:
            if d.WhichOneof("value") == "dim_param" and d.dim_param in symbols:
                d.dim_value = symbols[d.dim_param]


# --------------------------------------------------------------------------
# preparing a light copy of the model for inference

def is_standard(node):
    return node.domain in STANDARD_DOMAINS


def drop_stale_shapes(graph):
    """Forget the exporter's shapes of tensors that inference recomputes
    (they may contradict a new binding); keep those that only the exporter
    knows: outputs of ops in custom domains."""
    custom = set()
    for node in graph.node:
        if not is_standard(node):
            custom.update(node.output)
    keep = [vi for vi in graph.value_info if vi.name in custom]
    del graph.value_info[:]
    graph.value_info.extend(keep)
    for vi in graph.output:
        if vi.name not in custom and vi.type.WhichOneof("value") == "tensor_type":
            vi.type.tensor_type.ClearField("shape")


def strip_large_initializers(graph):
    """Replace initializers too big to fold by graph inputs with the same
    type and dims, so that inference does not copy the weights around."""
    input_names = {vi.name for vi in graph.input}
    keep = []
    for init in graph.initializer:
        if prod(init.dims) <= MAX_FOLD_ELEMENTS:
            keep.append(init)
            continue
        if init.name not in input_names:
            graph.input.append(helper.make_tensor_value_info(
                init.name, init.data_type, list(init.dims)))
    del graph.initializer[:]
    graph.initializer.extend(keep)


def light_copy(model, bindings):
    """A copy of the model ready for shape inference."""
    work = onnx.ModelProto()
    work.CopyFrom(model)
    bind_inputs(work.graph, bindings)
    drop_stale_shapes(work.graph)
    strip_large_initializers(work.graph)
    return work


def infer(model):
    """onnx shape inference; failures of single nodes are tolerated."""
    try:
        return shape_inference.infer_shapes(model, check_type=False,
                                            strict_mode=False, data_prop=True)
    except Exception as e:                      # inference raised anyway
        raise UnknownShape("onnx shape inference failed: %s" % e)


# --------------------------------------------------------------------------
# folding constant shape sub-graphs with numpy

def collect_shapes(graph):
    """Tensor name -> dims (list of int|None) or None, as far as known."""
    shapes = {}
    for vi in list(graph.input) + list(graph.value_info) + list(graph.output):
        dims = dims_of(vi)
        if dims is not None or vi.name not in shapes:
            shapes[vi.name] = dims
    for init in graph.initializer:
        shapes[init.name] = list(init.dims)
    return shapes


def constant_node_value(node):
    """numpy value of a Constant node, or None if it has none we read."""
    for a in node.attribute:
        if a.name == "value":
            return numpy_helper.to_array(a.t)
        if a.name == "value_float":
            return np.array(a.f, np.float32)
        if a.name == "value_floats":
            return np.array(list(a.floats), np.float32)
        if a.name == "value_int":
            return np.array(a.i, np.int64)
        if a.name == "value_ints":
            return np.array(list(a.ints), np.int64)
    return None


def collect_constants(graph):
    """Tensor name -> numpy value for small initializers and Constants."""
    consts = {}
    for init in graph.initializer:
        if init.data_location == onnx.TensorProto.EXTERNAL:
            continue                        # data not loaded (dims suffice)
        if prod(init.dims) <= MAX_FOLD_ELEMENTS:
            consts[init.name] = numpy_helper.to_array(init)
    for node in graph.node:
        if node.op_type == "Constant" and is_standard(node):
            value = constant_node_value(node)
            if value is not None and value.size <= MAX_FOLD_ELEMENTS:
                consts[node.output[0]] = value
    return consts


def normalize_axes(axes, rank):
    return sorted(a + rank if a < 0 else a for a in axes)


def axes_of(node, ins, position):
    """'axes' from the attribute (old opsets) or from input `position`."""
    axes = attribute(node, "axes")
    if axes is None and len(ins) > position and ins[position] is not None:
        axes = [int(a) for a in ins[position].reshape(-1)]
    return axes


def fold_unsqueeze(node, ins):
    data, axes = ins[0], axes_of(node, ins, 1)
    for a in normalize_axes(axes, data.ndim + len(axes)):
        data = np.expand_dims(data, a)
    return data


def fold_squeeze(node, ins):
    data, axes = ins[0], axes_of(node, ins, 1)
    if axes is None:
        return np.squeeze(data)
    return np.squeeze(data, axis=tuple(normalize_axes(axes, data.ndim)))


def fold_slice(node, ins):
    data = ins[0]
    if attribute(node, "starts") is not None:          # opset < 10
        starts, ends = attribute(node, "starts"), attribute(node, "ends")
        axes, steps = attribute(node, "axes"), None
    else:
        starts, ends = list(ins[1].reshape(-1)), list(ins[2].reshape(-1))
        axes = list(ins[3].reshape(-1)) if len(ins) > 3 and ins[3] is not None else None
        steps = list(ins[4].reshape(-1)) if len(ins) > 4 and ins[4] is not None else None
    axes = axes if axes is not None else list(range(len(starts)))
    steps = steps if steps is not None else [1] * len(starts)
    index = [slice(None)] * data.ndim
    for s, e, a, st in zip(starts, ends, axes, steps):
        a = int(a) + data.ndim if int(a) < 0 else int(a)
        index[a] = slice(int(s), int(e), int(st))
    return data[tuple(index)]


def fold_reshape(node, ins):
    data, target = ins[0], [int(v) for v in ins[1].reshape(-1)]
    if not attribute(node, "allowzero", 0):
        target = [data.shape[i] if v == 0 else v for i, v in enumerate(target)]
    return data.reshape(target)


def fold_shape(node, dims):
    rank = len(dims)
    start, end = attribute(node, "start", 0), attribute(node, "end", rank)
    return np.array(dims[slice(start, end)], np.int64)


def fold_div(a, b):
    if np.issubdtype(a.dtype, np.integer):
        return np.trunc(np.true_divide(a, b)).astype(a.dtype)
    return (a / b).astype(a.dtype)


def fold_constant_of_shape(node, ins):
    value = attribute(node, "value")
    fill = numpy_helper.to_array(value).reshape(-1) if value is not None \
        else np.zeros(1, np.float32)
    return np.full([int(v) for v in ins[0].reshape(-1)], fill[0], fill.dtype)


def fold_reduce_prod(node, ins):
    axes = axes_of(node, ins, 1)
    keep = bool(attribute(node, "keepdims", 1))
    axis = None if not axes else tuple(normalize_axes(axes, ins[0].ndim))
    return np.prod(ins[0], axis=axis, keepdims=keep).astype(ins[0].dtype)


def same_type(fn):
    """Wrap a numpy binary op so that the result keeps the first type."""
    return lambda node, ins: fn(ins[0], ins[1]).astype(ins[0].dtype)


# op type -> function(node, input values) -> output value
FOLDERS = {
    "Identity": lambda n, i: i[0],
    "Cast": lambda n, i: i[0].astype(np_dtype(attribute(n, "to"))),
    "Gather": lambda n, i: np.take(i[0], i[1].astype(np.int64),
                                   axis=attribute(n, "axis", 0)),
    "Unsqueeze": fold_unsqueeze,
    "Squeeze": fold_squeeze,
    "Concat": lambda n, i: np.concatenate(i, axis=attribute(n, "axis")),
    "Slice": fold_slice,
    "Reshape": fold_reshape,
    "Transpose": lambda n, i: np.transpose(i[0], attribute(n, "perm")),
    "Add": same_type(np.add),
    "Sub": same_type(np.subtract),
    "Mul": same_type(np.multiply),
    "Div": lambda n, i: fold_div(i[0], i[1]),
    "Min": lambda n, i: np.minimum.reduce(np.broadcast_arrays(*i)),
    "Max": lambda n, i: np.maximum.reduce(np.broadcast_arrays(*i)),
    "Neg": lambda n, i: -i[0],
    "Abs": lambda n, i: np.abs(i[0]),
    "Floor": lambda n, i: np.floor(i[0]),
    "Ceil": lambda n, i: np.ceil(i[0]),
    "Sqrt": lambda n, i: np.sqrt(i[0]),
    "Equal": lambda n, i: np.equal(i[0], i[1]),
    "Less": lambda n, i: np.less(i[0], i[1]),
    "Greater": lambda n, i: np.greater(i[0], i[1]),
    "Not": lambda n, i: np.logical_not(i[0]),
    "And": lambda n, i: np.logical_and(i[0], i[1]),
    "Or": lambda n, i: np.logical_or(i[0], i[1]),
    "Where": lambda n, i: np.where(i[0], i[1], i[2]),
    "Expand": lambda n, i: np.broadcast_to(
        i[0], np.broadcast_shapes(i[0].shape, tuple(int(v) for v in i[1]))).copy(),
    "ConstantOfShape": fold_constant_of_shape,
    "Range": lambda n, i: np.arange(i[0], i[1], i[2]).astype(i[0].dtype),
    "ReduceProd": fold_reduce_prod,
}


def fold_one(node, consts, shapes):
    """numpy value of the node's single output, or None if not foldable."""
    if not is_standard(node) or len(node.output) != 1:
        return None
    if node.op_type in ("Shape", "Size"):
        dims = shapes.get(node.input[0])
        if not fully_known(dims):
            return None
        if node.op_type == "Size":
            return np.array(prod(dims), np.int64)
        return fold_shape(node, dims)
    fn = FOLDERS.get(node.op_type)
    if fn is None:
        return None
    if any(name and name not in consts for name in node.input):
        return None
    ins = [consts[name] if name else None for name in node.input]
    try:
        value = np.asarray(fn(node, ins))
    except Exception:           # leave anything odd to shape inference
        return None
    return value if value.size <= MAX_FOLD_ELEMENTS else None


def fold_pass(graph):
    """Fold what can be folded now: {tensor name: numpy value}."""
    shapes = collect_shapes(graph)
    consts = collect_constants(graph)
    folded = {}
    for node in graph.node:
        if node.op_type == "Constant" or not node.output or node.output[0] in consts:
            continue
        value = fold_one(node, consts, shapes)
        if value is not None:
            consts[node.output[0]] = value
            folded[node.output[0]] = value
    return folded


def replace_by_initializers(graph, folded):
    """Drop the folded nodes and store their outputs as initializers."""
    keep = [n for n in graph.node if not (n.output and n.output[0] in folded)]
    del graph.node[:]
    graph.node.extend(keep)
    for name, value in folded.items():
        graph.initializer.append(numpy_helper.from_array(value, name))
    keep_vi = [vi for vi in graph.value_info if vi.name not in folded]
    del graph.value_info[:]
    graph.value_info.extend(keep_vi)


def resolve_shapes(model):
    """Alternate shape inference and folding until nothing more folds."""
    inferred = infer(model)
    for _ in range(MAX_FOLD_ROUNDS):
        folded = fold_pass(inferred.graph)
        if not folded:
            break
        replace_by_initializers(inferred.graph, folded)
        inferred = infer(inferred)
    return inferred


# --------------------------------------------------------------------------
# MAC counting

def known_dims(shapes, node, index, position):
    """Fully known dims of input/output `position`, else UnknownShape."""
    name = node.input[position] if position >= 0 else node.output[0]
    dims = shapes.get(name)
    if not fully_known(dims):
        raise UnknownShape(
            "node %s: shape of '%s' is not known after shape inference (%s); "
            "bind symbolic inputs with NAME=DIMS"
            % (node_label(node, index), name, dims_text(dims)))
    return dims


def broadcast_batch(a, b):
    """numpy broadcast of two batch-dim lists."""
    a, b = list(a), list(b)
    n = max(len(a), len(b))
    a, b = [1] * (n - len(a)) + a, [1] * (n - len(b)) + b
    return [max(x, y) if 1 in (x, y) else x for x, y in zip(a, b)]


def matmul_macs(a, b):
    """MACs of numpy.matmul on operands of dims a and b."""
    if not a or not b:
        raise CountError("MatMul on a scalar")
    a = [1] + list(a) if len(a) == 1 else list(a)
    b = list(b) + [1] if len(b) == 1 else list(b)
    m, k, n = a[-2], a[-1], b[-1]
    return prod(broadcast_batch(a[:-2], b[:-2])) * m * n * k


def gemm_macs(node, a, b):
    if attribute(node, "transA", 0):
        a = a[::-1]
    if attribute(node, "transB", 0):
        b = b[::-1]
    return a[0] * b[1] * a[1]


def node_macs(node, index, shapes):
    """MACs of one node (0 for non-MAC ops)."""
    if not is_standard(node) or node.op_type not in MAC_OPS:
        return 0
    a = known_dims(shapes, node, index, 0)
    b = known_dims(shapes, node, index, 1)
    if node.op_type == "Conv":
        return prod(known_dims(shapes, node, index, -1)) * prod(b[1:])
    if node.op_type == "ConvTranspose":
        return prod(a) * prod(b[1:])
    if node.op_type == "Gemm":
        return gemm_macs(node, a, b)
    return matmul_macs(a, b)


def count_macs(graph):
    """(total, {op type: MACs}) over the top-level nodes."""
    shapes = collect_shapes(graph)
    total, by_op = 0, {}
    for index, node in enumerate(graph.node):
        macs = node_macs(node, index, shapes)
        if node.op_type in MAC_OPS and is_standard(node):
            by_op[node.op_type] = by_op.get(node.op_type, 0) + macs
        total += macs
    return total, by_op


# --------------------------------------------------------------------------
# weight counting (on the original graph)

def constant_sizes(graph):
    """Tensor name -> element count for initializers and Constant outputs."""
    sizes = {init.name: prod(init.dims) for init in graph.initializer}
    for node in graph.node:
        if node.op_type == "Constant" and is_standard(node):
            value = constant_node_value(node)
            if value is not None:
                sizes[node.output[0]] = int(value.size)
    return sizes


def producers_and_consumers(graph):
    producer, consumers = {}, {}
    for node in graph.node:
        for name in node.output:
            producer[name] = node
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    return producer, consumers


def trace_constant(name, producer, sizes):
    """The constant a tensor comes from through pass-through ops, or None."""
    for _ in range(16):
        if name in sizes:
            return name
        node = producer.get(name)
        if node is None or node.op_type not in WEIGHT_PASS_THROUGH or not node.input:
            return None
        name = node.input[0]
    return None


def other_input(node, name):
    """The input of a binary node that is not `name` (or None)."""
    rest = [i for i in node.input if i != name]
    return rest[0] if len(rest) == 1 else None


def decomposed_layernorm_params(graph, producer, consumers):
    """gamma and beta tensor names of decomposed LayerNorms:
    Div(Sub(x, mean), Sqrt(...)) -> Mul(gamma) -> Add(beta)."""
    params = []
    for node in graph.node:
        if node.op_type != "Div" or len(node.input) != 2:
            continue
        num, den = producer.get(node.input[0]), producer.get(node.input[1])
        if num is None or den is None or num.op_type != "Sub" or den.op_type != "Sqrt":
            continue
        users = consumers.get(node.output[0], [])
        if len(users) != 1 or users[0].op_type != "Mul":
            continue
        mul = users[0]
        params.append(other_input(mul, node.output[0]))
        users = consumers.get(mul.output[0], [])
        if len(users) == 1 and users[0].op_type == "Add":
            params.append(other_input(users[0], mul.output[0]))
    return params


def count_weights(graph):
    """Elements of the distinct weight tensors (see the module doc)."""
    sizes = constant_sizes(graph)
    producer, consumers = producers_and_consumers(graph)
    candidates = []
    for node in graph.node:
        if not is_standard(node):
            continue
        if node.op_type in MAC_OPS and len(node.input) > 1:
            candidates.append(node.input[1])
        elif node.op_type == "LayerNormalization":
            candidates.extend(node.input[1:3])
    candidates.extend(decomposed_layernorm_params(graph, producer, consumers))
    found = {trace_constant(c, producer, sizes) for c in candidates if c}
    found.discard(None)
    return sum(sizes[name] for name in found)


# --------------------------------------------------------------------------
# entry points

def op_counts(graph):
    counts = {}
    for node in graph.node:
        counts[node.op_type] = counts.get(node.op_type, 0) + 1
    return counts


def count_model(model, bindings=()):
    """Count a loaded ModelProto.  bindings: [(input name, [dims])].
    Returns {"macs", "weights", "by_op", "ops", "nodes"}; raises
    CountError or UnknownShape."""
    inferred = resolve_shapes(light_copy(model, bindings))
    macs, by_op = count_macs(inferred.graph)
    return {"macs": macs, "weights": count_weights(model.graph),
            "by_op": by_op, "ops": op_counts(model.graph),
            "nodes": len(model.graph.node)}


def parse_args(argv):
    p = argparse.ArgumentParser(
        description="Count the MACs (or weights) of an ONNX model using "
                    "onnx shape inference.")
    p.add_argument("model", help="path of the .onnx file")
    p.add_argument("bindings", nargs="*", metavar="NAME=DIMS",
                   help="bind a graph input, e.g. x=1x128x768")
    p.add_argument("--json", action="store_true",
                   help="print a JSON object with macs, weights, by_op, ops, nodes")
    p.add_argument("--weights", action="store_true",
                   help="print the weight element count instead of the MACs")
    return p.parse_args(argv)


def main(argv):
    args = parse_args(argv)
    try:
        bindings = [parse_binding(b) for b in args.bindings]
        # only dims are needed: leave external weight files alone
        model = onnx.load(args.model, load_external_data=False)
        result = count_model(model, bindings)
    except UnknownShape as e:
        print("onnx_macs: %s" % e, file=sys.stderr)
        return EXIT_UNKNOWN_SHAPE
    except (CountError, OSError) as e:
        print("onnx_macs: %s" % e, file=sys.stderr)
        return EXIT_USAGE
    except Exception as e:      # e.g. a file that is not a model
        print("onnx_macs: cannot read %s: %s" % (args.model, e), file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        print(json.dumps(result, sort_keys=True))
    elif args.weights:
        print(result["weights"])
    else:
        print(result["macs"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
