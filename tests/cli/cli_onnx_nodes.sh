#!/bin/bash
# cli_onnx_nodes.sh: ONNX's own operator tests (Debian's libonnx-testdata,
# 900-odd node tests) through `dse import onnx --shapes`: every test dse
# imports must give its outputs the dims of the test's reference outputs,
# and every refusal of an op the docs list as supported must have a
# documented reason (tests/onnx/node_tests.py; docs/onnx.md, "Validation").
# Skips (77) without python3-onnx or the test data.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
DATA=${DSE_ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
if ! "$PY" -c 'import onnx' 2>/dev/null || [ ! -d "$DATA/node" ]; then
  echo "skipped: needs python3-onnx and libonnx-testdata ($DATA)"
  exit 77
fi
# under a sanitizer (DSE_SANITIZED) every third test: the same checks of
# each, without the counts' ratchet
if [ "${DSE_SANITIZED:-0}" = 1 ]; then export DSE_NODE_EVERY=3; fi
run "$PY" -B "$SRC/tests/onnx/node_tests.py" "$DSE" "$DATA" "$TMP/node"
echo "$OUT" | tail -3
expect_code 0 "node tests: no mismatch, crash or unexplained refusal"
if [ "${DSE_NODE_EVERY:-1}" != 1 ]; then finish; exit; fi
# a ratchet: today's counts may grow, not shrink
n=$(echo "$OUT" | sed -n 's/^node tests: \([0-9]*\) match.*/\1/p')
if [ "${n:-0}" -ge 591 ]; then ok; else bad "only ${n:-0} node tests match (591 did)"; fi
s=$(echo "$OUT" | sed -n 's/^supported ops with a matching test: \([0-9]*\) of.*/\1/p')
if [ "${s:-0}" -ge 34 ]; then ok; else bad "only ${s:-0} supported ops have a matching test (34 did)"; fi
finish
