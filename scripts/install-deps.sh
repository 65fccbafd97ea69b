#!/bin/sh
# install-deps.sh: install what dse needs to build on Debian/Ubuntu, only
# the missing pieces (apt-get; sudo when not root).  Safe to run repeatedly.
# `install-deps.sh test` adds what the tests need besides: a headless
# Chromium for the report page's browser test (and dse report --static),
# python3 for the tests' checks.
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
# Vega 5, inlined into the report page (docs/report.md)
[ -f /usr/share/javascript/vega/vega-view.min.js ] || need="$need libjs-vega"
# MPI: optional to build, installed so that sweeps can run over mpirun's
# ranks (docs/cluster.md)
have_cmd mpirun || need="$need openmpi-bin"
have_pc ompi-c || need="$need libopenmpi-dev"

if [ "${1:-}" = test ]; then
  have_cmd chromium || have_cmd chromium-browser || need="$need chromium"
  have_cmd python3 || need="$need python3"
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
