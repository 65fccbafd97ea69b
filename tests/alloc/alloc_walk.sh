#!/bin/bash
# alloc_walk.sh: allocation-failure injection (docs/testing.md).  Needs the
# DSE_FAILALLOC build (make asan: ASan, UBSan, tests/alloc/failalloc.c);
# skips (77) with any other.  walk.lua loads every arch and memory preset
# and every zoo workload, runs a level-2 simulation, a sweep into a store
# and the HTML report of it.  A first run records each allocation's call
# site (its three callers); then, for the first allocation at each site
# (ALLOC_WALK=all: for every N), the script runs again with that
# allocation failing, and:
#  - the run ends with exit 0 (the failure was absorbed, e.g. by a cache)
#    or exit 1 with "out of memory" (DSE_ERR_NOMEM): never 2, a crash or a
#    sanitizer's report (a leak is one: LeakSanitizer runs at exit);
#  - no partial file: what the run wrote is what the uninterrupted run
#    wrote (the report directory whole or absent, no temporary file left);
#  - the store, when there is one, passes SQLite's integrity check, and
#    running the script again without a failure completes it to the same
#    results as the uninterrupted run's (dse export, byte for byte).
set -u
. "$SRC/tests/cli/lib.sh"
if [ "${DSE_FAILALLOC:-0}" != 1 ]; then
  echo "skipped: needs the DSE_FAILALLOC build (make asan)"
  exit 77
fi
command -v sqlite3 >/dev/null || { echo "skipped: needs sqlite3"; exit 77; }
W=$SRC/tests/alloc/walk.lua
export ASAN_OPTIONS=detect_leaks=1:exitcode=99 UBSAN_OPTIONS=exitcode=98:print_stacktrace=1
export DSE_DATA_DIR=${DSE_DATA_DIR:-$SRC}
cd "$TMP" || exit 1

# the uninterrupted run, its sites and its outputs
mkdir ref
DSE_FAIL_ALLOC=0 DSE_FAIL_ALLOC_SITES=$TMP/sites DSE_FAIL_ALLOC_REPORT=$TMP/count \
  "$DSE" run "$W" ref >/dev/null 2>ref.err || { cat ref.err; echo "FAIL: the uninterrupted run"; exit 1; }
read -r total _ < count
"$DSE" export ref/sweep.db > ref.csv
(cd ref && find . -type f ! -name 'sweep.db*' | sort) > ref.files
if [ "${ALLOC_WALK:-sites}" = all ]; then
  seq 1 "$total" > walk.n
else
  awk '!seen[$2]++ { print $1 }' sites > walk.n
fi
echo "$total allocations, $(sort -u -k2,2 sites | wc -l) sites; walking $(wc -l < walk.n) of them"

absorbed=0 nomem=0
while read -r n; do
  rm -rf out && mkdir out
  DSE_FAIL_ALLOC=$n DSE_FAIL_ALLOC_REPORT=$TMP/r "$DSE" run "$W" out >/dev/null 2>err
  CODE=$?
  read -r _ fired < r 2>/dev/null || fired=?
  what="allocation $n of $total (site $(awk -v n="$n" '$1 == n { print $2 }' sites))"
  if grep -qE "Sanitizer|runtime error" err; then
    bad "$what: $(grep -m3 -E 'ERROR|SUMMARY|runtime error' err | tr '\n' ' ')"
    continue
  fi
  case $CODE in
    0) absorbed=$((absorbed + 1)); ok ;;
    1) if grep -q "out of memory" err; then nomem=$((nomem + 1)); ok
       else bad "$what: exit 1 without 'out of memory': $(head -3 err)"; fi ;;
    *) bad "$what: exit $CODE (fired: $fired): $(head -3 err)"; continue ;;
  esac
  # what was written is whole: files the reference has, report whole or absent
  (cd out && find . -type f ! -name 'sweep.db*' | sort) > out.files
  extra=$(comm -13 ref.files out.files)
  [ -z "$extra" ] || bad "$what: left $extra"
  if [ -d out/report ]; then
    cmp -s out/report/data.csv ref/report/data.csv &&
      [ "$(tail -c 8 out/report/index.html)" = "</html>" ] || bad "$what: a partial report"
  fi
  [ $CODE -ne 0 ] || cmp -s <("$DSE" export out/sweep.db) ref.csv || bad "$what: exit 0 with other results"
  if [ -f out/sweep.db ]; then
    chk=$(sqlite3 out/sweep.db 'PRAGMA integrity_check;' 2>&1)
    [ "$chk" = ok ] || bad "$what: store integrity: $chk"
    if [ $CODE -ne 0 ]; then
      "$DSE" run "$W" out >/dev/null 2>err2 || bad "$what: resume failed: $(head -3 err2)"
      cmp -s <("$DSE" export out/sweep.db) ref.csv || bad "$what: resumed store differs"
    fi
  fi
done < walk.n
echo "absorbed $absorbed, out of memory $nomem"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
