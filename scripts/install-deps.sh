#!/bin/sh
# install-deps.sh: install what dse needs to build on Debian/Ubuntu, only
# the missing pieces (apt-get; sudo when not root).  Safe to run repeatedly.
# `install-deps.sh test` adds what the tests need besides: a headless
# Chromium for the report page's browser test (and dse report --static),
# python3 for the tests' checks, python3-onnx and libonnx-testdata for the
# ONNX import's, valgrind and sqlite3; `install-deps.sh fuzz` clang and its
# libFuzzer and analyzer.
set -eu

need=""
have_cmd() { command -v "$1" >/dev/null 2>&1; }
have_pc() { have_cmd pkg-config && pkg-config --exists "$1"; }

have_cmd cc || need="$need gcc libc6-dev"
have_cmd cmake || need="$need cmake"
have_cmd pkg-config || need="$need pkg-config"
have_pc yaml-0.1 || need="$need libyaml-dev"
have_pc gsl || need="$need libgsl-dev"
have_pc lua5.4 || need="$need liblua5.4-dev"
have_pc sqlite3 || need="$need libsqlite3-dev"
# ONNX import: protobuf-c decodes models with the code protoc-c generates
# from Debian's onnx.proto (docs/onnx.md)
have_pc libprotobuf-c || need="$need libprotobuf-c-dev"
have_cmd protoc-c || need="$need protobuf-c-compiler"
[ -f /usr/include/onnx/onnx.proto ] || need="$need libonnx-dev"
# Vega 5, inlined into the report page (docs/report.md)
[ -f /usr/share/javascript/vega/vega-view.min.js ] || need="$need libjs-vega"
# MPI: optional to build, installed so that sweeps can run over mpirun's
# ranks (docs/cluster.md)
have_cmd mpirun || need="$need openmpi-bin"
have_pc ompi-c || need="$need libopenmpi-dev"

if [ "${1:-}" = test ]; then
  have_cmd chromium || have_cmd chromium-browser || need="$need chromium"
  have_cmd python3 || need="$need python3"
  # the ONNX tests: models built with python3-onnx, ONNX's operator tests,
  # real exports fetched over https from the npm registry
  /usr/bin/python3 -c 'import onnx' 2>/dev/null || need="$need python3-onnx"
  [ -d /usr/share/libonnx-testdata/data/node ] || need="$need libonnx-testdata"
  have_cmd curl || need="$need curl ca-certificates"
  have_cmd openssl || need="$need openssl"
  # valgrind.smoke; sqlite3 for the store checks (alloc.walk, cli_store_crash)
  have_cmd valgrind || need="$need valgrind"
  have_cmd sqlite3 || need="$need sqlite3"
fi
# `install-deps.sh fuzz`: clang, its libFuzzer and sanitizer runtimes and
# its static analyzer (make fuzz, make analyze; docs/testing.md)
if [ "${1:-}" = fuzz ]; then
  have_cmd clang || need="$need clang"
  have_cmd scan-build || need="$need clang-tools"
  ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1 ||
    need="$need libclang-rt-dev"
fi

[ -z "$need" ] && exit 0

echo "dse: installing missing packages:$need"
if [ "$(id -u)" -eq 0 ]; then
  SUDO=""
elif have_cmd sudo; then
  SUDO="sudo"
else
  echo "dse: error: need root or sudo to install:$need" >&2
  exit 1
fi
if ! have_cmd apt-get; then
  echo "dse: error: no apt-get; install these packages by hand:$need" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $need
