#!/bin/bash
# fuzz.sh: run every libFuzzer harness of build-fuzz (make fuzz) for
# FUZZ_TIME seconds each (default 60), from its seed corpus
# (tests/fuzz/corpus/NAME) and its kept regressions, with its dictionary.
# What each run grows is kept in build-fuzz/corpus/NAME, so the next run goes
# on from there; a crash, leak, hang or sanitizer report is written to
# build-fuzz/found/NAME/ and fails the run.  A hang is an input over 3 s: a
# second of the Release build, which the fuzz build (ASan, UBSan, coverage)
# runs about three times slower, on a machine that may be busy.
# FUZZ_ONLY="onnx store" picks harnesses; FUZZ_SEED=N fixes libFuzzer's
# random seed (default: a new one each run).  At the end, a table:
# executions, executions per second, coverage (edges) and features per
# harness.
set -uo pipefail
cd "$(dirname "$0")/.."
B=${FUZZ_BUILD:-build-fuzz}
T=${FUZZ_TIME:-60}
S=tests/fuzz
names=${FUZZ_ONLY:-$(sed -n 's/^set(DSE_FUZZ_HARNESSES \(.*\))$/\1/p' $S/CMakeLists.txt)}
mkdir -p "$B/logs"
fail=0
sum="$B/logs/summary${FUZZ_TAG:+-$FUZZ_TAG}" # (FUZZ_TAG: runs side by side)
printf '%-10s %10s %8s %8s %8s %7s  %s\n' harness execs exec/s cov ft corpus result > "$sum"
for h in $names; do
  bin="$B/fuzz_$h"
  [ -x "$bin" ] || bin="$B/tests/fuzz_$h"
  if [ ! -x "$bin" ]; then echo "fuzz: no $bin (make fuzz builds it)" >&2; exit 2; fi
  mkdir -p "$B/corpus/$h" "$B/found/$h"
  # its own dictionary, else the YAML one (the YAML loaders')
  dict=(-dict="$S/dict/yaml.dict")
  [ -f "$S/dict/$h.dict" ] && dict=(-dict="$S/dict/$h.dict")
  log="$B/logs/$h.log"
  echo "fuzz: $h for ${T}s"
  DSE_DATA_DIR=$PWD ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$bin" -max_total_time="$T" -timeout=3 ${FUZZ_SEED:+-seed=$FUZZ_SEED} -rss_limit_mb=2048 -max_len=262144 \
    -print_final_stats=1 -artifact_prefix="$B/found/$h/" "${dict[@]}" \
    "$B/corpus/$h" "$S/corpus/$h" "$S/regress/$h" > "$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
  ncorp=$(ls "$B/corpus/$h" | wc -l)
  if [ $rc -eq 0 ]; then res=ok; else res="FOUND (exit $rc): $(ls "$B/found/$h" | head -3 | tr '\n' ' ')"; fail=1; fi
  printf '%-10s %10s %8s %8s %8s %7s  %s\n' "$h" "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$ncorp" "$res" >> "$sum"
  if [ $rc -ne 0 ]; then grep -E "ERROR|runtime error|SUMMARY|Test unit written" "$log" | head -8 >&2; fi
done
cat "$sum"
exit $fail
