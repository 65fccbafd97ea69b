#!/usr/bin/python3
"""Replay ONNX's own operator tests (Debian's libonnx-testdata) through
`dse import onnx --shapes`: every node test whose model dse imports must
give its outputs the dims of the test's reference outputs.

Usage: node_tests.py DSE DATA_DIR WORK_DIR

Each test (DATA_DIR/node/test_*/model.onnx with test_data_set_0/) feeds its
inputs at run time.  A real export feeds only the data: shape operands,
weights, pads and scales are constants.  So the script makes every input
after the first, and every integer input, an initializer holding the test's
own input values, then asks dse for the shapes.

Outcomes per test:
  match     dse's dims of every graph output equal the reference's
  approx    dse imported it with an op it cannot model (simulated as eltwise)
  refused   exit 2 with a diagnostic; for an op the issue lists as supported
            the reason must be one dse documents (3-D, empty tensors, ...)
  FAIL      a mismatch, a crash, an exit other than 0 or 2, no diagnostic,
            or an unexpected refusal of a supported op
Exit status 1 when any FAIL, else 0; a summary on stdout.
"""
import glob
import os
import subprocess
import sys

import onnx
from onnx import numpy_helper

# The ops issue 15 names; for these a refusal needs a documented reason.
SUPPORTED = set("""Conv ConvTranspose Gemm MatMul MaxPool AveragePool GlobalAveragePool
Add Mul Sub Div Relu Clip Sigmoid HardSigmoid HardSwish Gelu Tanh Softmax
LayerNormalization BatchNormalization Concat Split Slice Reshape Flatten Transpose
Squeeze Unsqueeze Resize Pad Shape Gather Cast Constant""".split())

# Refusals dse documents (docs/onnx.md, "What dse refuses").
DOCUMENTED = [
    "-D convolution", "-D transposed convolution", "-D pool",  # 3-D and beyond
    "an empty tensor", "an empty slice", "leave axis",  # zero-sized tensors
    "dse cannot model op",  # an op outside the table (under --strict only)
    "the file does not state the shape",  # an unsupported op feeding others
    "no node that computes",  # a graph of constants only
    "elements; dse takes at most",
]


def load_tensor(path):
    t = onnx.TensorProto()
    with open(path, "rb") as f:
        t.ParseFromString(f.read())
    return t


def prepare(test_dir, out_path):
    """The test's model with its parameter inputs made initializers;
    returns the reference output dims by output name, or None."""
    model = onnx.load(os.path.join(test_dir, "model.onnx"))
    data = os.path.join(test_dir, "test_data_set_0")
    if not os.path.isdir(data):
        return None
    g = model.graph
    inits = {i.name for i in g.initializer}
    feeds = [i for i in g.input if i.name not in inits]
    keep = []
    for k, vi in enumerate(feeds):
        path = os.path.join(data, "input_%d.pb" % k)
        if not os.path.exists(path):
            keep.append(vi)
            continue
        elem = vi.type.tensor_type.elem_type
        is_int = elem in (onnx.TensorProto.INT64, onnx.TensorProto.INT32)
        if k >= 1 or is_int:
            t = load_tensor(path)
            t.name = vi.name
            g.initializer.append(t)
        else:
            keep.append(vi)
            # the test's own dims for the data input
            arr = numpy_helper.to_array(load_tensor(path))
            dims = vi.type.tensor_type.shape.dim
            del dims[:]
            for d in arr.shape:
                dims.add().dim_value = int(d)
    del g.input[:]
    g.input.extend(keep)
    # a Relu on every output, so that a test of a view (Reshape, Squeeze)
    # has a layer to simulate; the outputs keep their names
    for vo in g.output:
        g.node.append(onnx.helper.make_node("Relu", [vo.name], [vo.name + ".dse_relu"]))
    ref = {}
    for k, vo in enumerate(g.output):
        path = os.path.join(data, "output_%d.pb" % k)
        if not os.path.exists(path):
            return None
        t = load_tensor(path)
        ref[vo.name] = "x".join(str(d) for d in t.dims) if len(t.dims) else "scalar"
    onnx.save(model, out_path)
    return ref


def main():
    dse, data_dir, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    counts = {"match": 0, "approx": 0, "refused": 0, "FAIL": 0, "skipped": 0}
    matched_ops = set()
    fails = []
    # DSE_NODE_EVERY=K: every K-th test only (a sanitizer's build, K times faster)
    every = max(1, int(os.environ.get("DSE_NODE_EVERY", "1")))
    for i, test_dir in enumerate(sorted(glob.glob(os.path.join(data_dir, "node", "test_*")))):
        if i % every:
            continue
        name = os.path.basename(test_dir)
        try:
            model = onnx.load(os.path.join(test_dir, "model.onnx"))
        except Exception:
            counts["skipped"] += 1
            continue
        ops = {n.op_type for n in model.graph.node}
        if any(n.op_type in ("If", "Loop", "Scan", "SequenceConstruct") for n in model.graph.node):
            counts["skipped"] += 1  # subgraphs and sequences: not tensors dse follows
            continue
        tmp = os.path.join(work, name + ".onnx")
        try:
            ref = prepare(test_dir, tmp)
        except Exception:
            ref = None
        if ref is None:
            counts["skipped"] += 1
            continue
        p = subprocess.run([dse, "import", "onnx", tmp, "--shapes"], capture_output=True,
                           text=True, timeout=60)
        supported = ops <= SUPPORTED
        if p.returncode == 2:
            msg = p.stderr.strip()
            ok = "error:" in msg and (not supported or any(r in msg for r in DOCUMENTED))
            counts["refused" if ok else "FAIL"] += 1
            if not ok:
                fails.append("%s: refused a supported op: %s" % (name, msg[:300]))
            continue
        if p.returncode != 0:
            counts["FAIL"] += 1
            fails.append("%s: exit %d: %s" % (name, p.returncode, p.stderr[:300]))
            continue
        got = dict(line.split("\t") for line in p.stdout.splitlines() if "\t" in line)
        bad = [(o, dims, got.get(o)) for o, dims in ref.items() if got.get(o) != dims]
        if bad:
            counts["FAIL"] += 1
            fails.append("%s: output dims differ: %s" % (name, "; ".join(
                "%s reference %s, dse %s" % b for b in bad)))
        elif "dse cannot model" in p.stderr:
            counts["approx"] += 1
        else:
            counts["match"] += 1
            matched_ops |= ops
    for f in fails:
        print("FAIL:", f)
    print("node tests: %(match)d match, %(approx)d imported with ops simulated as eltwise, "
          "%(refused)d refused with a documented reason, %(skipped)d skipped, %(FAIL)d failed"
          % counts)
    print("supported ops with a matching test: %d of %d; without: %s" % (
        len(SUPPORTED & matched_ops), len(SUPPORTED),
        " ".join(sorted(SUPPORTED - matched_ops)) or "none"))
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
