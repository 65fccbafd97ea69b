#!/bin/bash
# compare.sh: level-2 ResNet-50 design points on every arch preset, this
# build against another revision's, both timed in the same run
# (docs/bench.md, "Comparing two builds").
#   bench/compare.sh BASE [ROUNDS]    BASE: a git revision, built in a
#                                     temporary worktree (Release)
#   BASE_DSE=path/to/dse bench/compare.sh - [ROUNDS]   an existing build
# NEW_DSE (default build/dse) is the build compared; TARGET (default 1.10)
# the largest ratio new / base that passes; POINT_RUNS (3) and POINT_MIN
# (0.2 s) are bench/points.lua's runs and their least CPU time; OBJECTIVE
# (default: the simulation's, EDP) the mapper's.  The rounds alternate the two
# builds (best of each, bench/points.lua's best of 3 inside), so a change in
# the machine's load hits both.  Exit status 0 (a benchmark), 2 bad usage.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
base=${1:-}
rounds=${2:-3}
target=${TARGET:-1.10}
new_dse=${NEW_DSE:-$here/build/dse}
if [ -z "$base" ] || ! [[ "$rounds" =~ ^[1-9][0-9]?$ ]]; then
  echo "usage: bench/compare.sh BASE [ROUNDS 1-99] (BASE_DSE=path/to/dse with BASE '-')" >&2
  exit 2
fi
[ -x "$new_dse" ] || { echo "compare.sh: error: no build at $new_dse (run make build)" >&2; exit 2; }
tmp=$(mktemp -d)
cleanup() {
  if [ -d "$tmp/src" ]; then git -C "$here" worktree remove --force "$tmp/src" 2>/dev/null; fi
  rm -rf "$tmp"
}
trap cleanup EXIT
base_dse=${BASE_DSE:-}
if [ -z "$base_dse" ]; then
  rev=$(git -C "$here" rev-parse --verify --quiet "$base^{commit}") ||
    { echo "compare.sh: error: '$base' is not a revision of $here" >&2; exit 2; }
  echo "building $base ($rev) in $tmp/src ..."
  git -C "$here" worktree add --detach --quiet "$tmp/src" "$rev" || exit 1
  cmake -S "$tmp/src" -B "$tmp/build" -DCMAKE_BUILD_TYPE=Release > "$tmp/build.log" 2>&1 &&
    cmake --build "$tmp/build" -j "${JOBS:-2}" --target dse >> "$tmp/build.log" 2>&1 ||
    { tail -20 "$tmp/build.log" >&2; echo "compare.sh: error: $base does not build" >&2; exit 1; }
  base_dse=$tmp/build/dse
fi
[ -x "$base_dse" ] || { echo "compare.sh: error: no build at $base_dse" >&2; exit 2; }
# each build reads its own presets (its compiled-in data directory)
runs=${POINT_RUNS:-3}
min=${POINT_MIN:-0.2}
obj=${OBJECTIVE:+objective=$OBJECTIVE}
points() { env -u DSE_DATA_DIR "$1" run "$here/bench/points.lua" "$runs" "$min" $obj > "$2" || exit 1; }
for r in $(seq "$rounds"); do
  points "$base_dse" "$tmp/base.$r"
  points "$new_dse" "$tmp/new.$r"
done
echo "ResNet-50 at level 2, CPU time per design point, best of $rounds rounds x $runs runs"
cat "$tmp"/base.* | sort > "$tmp/base"
cat "$tmp"/new.* | sort > "$tmp/new"
awk -F'\t' -v target="$target" '
  FNR == NR { if (!($1 in b) || $2 < b[$1]) b[$1] = $2; next }
  { if (!($1 in n) || $2 < n[$1]) n[$1] = $2 }
  END {
    printf "%-16s %12s %12s %8s  %s\n", "preset", "base", "new", "ratio", "target"
    pass = 0; fail = 0
    cnt = 0
    for (p in n) if (p in b) names[++cnt] = p
    for (i = 2; i <= cnt; i++) for (j = i; j > 1 && names[j] < names[j-1]; j--) {
      t = names[j]; names[j] = names[j-1]; names[j-1] = t }
    for (i = 1; i <= cnt; i++) {
      p = names[i]; r = n[p] / b[p]
      v = r <= target ? "PASS" : "FAIL"
      if (v == "PASS") pass++; else fail++
      printf "%-16s %9.2f ms %9.2f ms %8.3f  <= %s %s\n", p, b[p] * 1e3, n[p] * 1e3, r, target, v
    }
    printf "%d passed, %d failed\n", pass, fail
  }' "$tmp/base" "$tmp/new"
