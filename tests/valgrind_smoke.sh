#!/bin/bash
# valgrind_smoke.sh: a few commands of each kind under valgrind's memcheck
# (docs/testing.md): an arch and a workload loaded and a level-2
# simulation, an ONNX import, a stored sweep with its report, a Timeloop
# import and SCALE-Sim inputs.  Any invalid read or write, use of an
# uninitialised value or leak ("definitely" or "indirectly" lost) fails it.
# It runs the Release build (the sanitizers' builds skip it, 77, as does a
# machine without valgrind): what ASan cannot see, uninitialised reads, and
# an optimised binary's own code.
set -u
. "$SRC/tests/cli/lib.sh"
if [ "${DSE_SANITIZED:-0}" = 1 ]; then echo "skipped: a sanitizer build"; exit 77; fi
command -v valgrind >/dev/null || { echo "skipped: needs valgrind"; exit 77; }
export DSE_DATA_DIR=${DSE_DATA_DIR:-$SRC}
VG=(valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
    --show-leak-kinds=definite,indirect --track-origins=yes)
cd "$TMP" || exit 1
vg() { # vg [-2] DESCRIPTION CMD...: the command exits 0 (-2: 2) and valgrind finds nothing
  local want=0
  if [ "$1" = -2 ]; then want=2; shift; fi
  local what=$1
  shift
  run "${VG[@]}" "$@"
  if [ "$CODE" -eq "$want" ]; then ok; else bad "$what: exit $CODE: $(echo "$ERR" | head -20)"; fi
}
cat > sweep.lua <<'LUA'
local dse = require "dse"
local r = dse.sweep { arch = "edge-npu", workload = "alexnet_conv", map_budget = 2,
  grid = { ["pe_array.rows"] = { 8, 16 } }, store = "s.db", layers = true, jobs = 1 }
dse.report { out = "report", results = r }
LUA
vg "level-2 sim" "$DSE" sim edge-npu alexnet_conv --map-budget 4
vg "analytic sim of a zoo transformer" "$DSE" sim npu-hbm3 gpt2 --fidelity analytic
vg "onnx import" "$DSE" import onnx "$SRC/examples/onnx/tiny_detector.onnx" --input images=1x3x64x64 -o det.yaml
vg "scalesim inputs" "$DSE" sim "$SRC/examples/scalesim/ws_32x32.cfg" "$SRC/examples/scalesim/small_cnn.csv" --fidelity analytic
vg "dram characterisation" "$DSE" mem hbm3-6400
vg "stored sweep and report" "$DSE" run sweep.lua
vg "export" "$DSE" export s.db -o s.csv
vg -2 "bad arch" "$DSE" check "$SRC/tests/bad/arch_unknown_key.yaml"
vg -2 "bad onnx" "$DSE" check "$SRC/tests/data/onnx_negative_dim.onnx"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
