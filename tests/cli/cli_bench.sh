#!/bin/bash
# cli_bench.sh: dse_bench's options and the shape of its report (never its
# times: a benchmark's figures are not asserted).  Needs DSE_BENCH.
. "$(dirname "$0")/lib.sh"

run "$DSE_BENCH" --help; expect_code 0 "--help"
[ "$(printf '%s\n' "$OUT" | head -1)" = "usage: dse_bench [options]" ] && ok || bad "--help: $OUT"
expect_out "--only GROUP" "--help lists --only"
case "$OUT" in *benchmark:*) bad "--help ran the benchmark" ;; *) ok ;; esac
[ -z "$ERR" ] && ok || bad "--help wrote to stderr: $ERR"

# rejects MESSAGE ARGS...: exit 2, "dse_bench: error: MESSAGE" first, then the usage
rejects() {
  local want="dse_bench: error: $1"
  shift
  run "$DSE_BENCH" "$@"
  expect_code 2 "dse_bench $*"
  [ "$(printf '%s\n' "$ERR" | head -1)" = "$want" ] && ok || bad "dse_bench $*: $ERR"
  expect_err "usage: dse_bench" "dse_bench $* prints the usage"
  [ -z "$OUT" ] && ok || bad "dse_bench $*: ran: $OUT"
}
rejects "unknown option '--bogus'" --bogus
rejects "unknown option '1.0'" 1.0
rejects "--runs expects an integer from 1 to 100, got '0'" --runs 0
rejects "--runs expects an integer from 1 to 100, got 'many'" -n many
rejects "--runs expects an integer from 1 to 100, got '101'" -n 101
rejects "-n needs a value" -n
rejects "--min-time expects seconds from 0 to 60, got '-1'" -t -1
rejects "--min-time expects seconds from 0 to 60, got 'soon'" --min-time soon
rejects "--only expects groups among l1, l2, dram, mem, sweep, big, pareto, report, onnx (comma-separated), got 'gpu'" --only gpu

# one quick pass over the burst model: every targeted row says PASS or FAIL,
# and the summary counts them
run "$DSE_BENCH" --runs 1 --min-time 0 --only dram; expect_code 0 "dram pass"
expect_out "best of 1 run of at least 0 s" "header"
expect_out "reference: one iteration of the reference loop (ref) takes" "reference line"
# (sequential bursts against 15 ref, random ones against 19; a slow build,
# ASan, prints k bursts/s)
rows=$(printf '%s\n' "$OUT" | grep -cE '^sequential burst, [a-z0-9-]+ .* <= 15 ref (PASS|FAIL)  [0-9.]+ [kM] bursts/s')
[ "$rows" -eq 4 ] && ok || bad "sequential dram rows with a verdict: $rows, want 4"
rows=$(printf '%s\n' "$OUT" | grep -cE '^random burst, [a-z0-9-]+ .* <= 19 ref (PASS|FAIL)  [0-9.]+ [kM] bursts/s')
[ "$rows" -eq 4 ] && ok || bad "random dram rows with a verdict: $rows, want 4"
last=$(printf '%s\n' "$OUT" | tail -1)
p=$(echo "$last" | sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1/p')
f=$(echo "$last" | sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\2/p')
[ -n "$p" ] && [ $((p + f)) -eq 8 ] && ok || bad "summary: '$last'"
case "$OUT" in *"level 1"*|*"level 2"*) bad "--only dram ran other groups" ;; *) ok ;; esac

# the level-2 group: each design point with its mappings per MAC layer,
# evaluated and pruned;
# SCALE-Sim's gemm_small rows skipped, naming the config, without the
# validation folder
run env DSE_SCALESIM_VALIDATION="$TMP/none" "$DSE_BENCH" --runs 1 --min-time 0 --only l2
expect_code 0 "l2 pass"
rows=$(printf '%s\n' "$OUT" | grep -cE '^design point, [a-z0-9-]+ [a-z0-9]+ .* [0-9.]+ mappings/layer, [0-9.]+ pruned$')
[ "$rows" -eq 3 ] && ok || bad "level-2 point rows with mappings per layer: $rows, want 3"
# ... and each again, its mappings from the memo (docs/engine.md, "Memoization")
rows=$(printf '%s\n' "$OUT" | grep -cE '^design point again, [a-z0-9-]+ [a-z0-9]+ .* every mapping from the memo: [0-9.]+x faster$')
[ "$rows" -eq 3 ] && ok || bad "level-2 repeated point rows: $rows, want 3"
expect_out "SCALE-Sim gemm_small, 32x32 OS                skipped  (no $TMP/none/a32x32_os_s64-64-64_calc.cfg)" \
  "gemm_small skipped"

# bench/compare.sh (make bench-compare): usage errors, and one quick round
# of this build against itself: a row per preset with its verdict
CMP="$SRC/bench/compare.sh"
run "$CMP"; expect_code 2 "compare.sh without BASE"
expect_err "usage: bench/compare.sh BASE" "compare.sh usage"
run env NEW_DSE="$DSE" "$CMP" no-such-revision-x 1; expect_code 2 "compare.sh bad revision"
expect_err "compare.sh: error: 'no-such-revision-x' is not a revision of" "bad revision message"
run env NEW_DSE="$DSE" BASE_DSE="$DSE" "$CMP" - 0; expect_code 2 "compare.sh 0 rounds"
run env NEW_DSE="$DSE" BASE_DSE="$DSE" POINT_RUNS=1 POINT_MIN=0 "$CMP" - 1
expect_code 0 "compare.sh against itself"
expect_out "ResNet-50 at level 2, CPU time per design point, best of 1 rounds x 1 runs" "compare header"
rows=$(printf '%s\n' "$OUT" | grep -cE '^[a-z0-9-]+ +[0-9.]+ ms +[0-9.]+ ms +[0-9.]+  <= 1.10 (PASS|FAIL)$')
[ "$rows" -eq 9 ] && ok || bad "compare rows with a verdict: $rows, want 9: $OUT"
printf '%s\n' "$OUT" | tail -1 | grep -qE '^[0-9]+ passed, [0-9]+ failed$' && ok || bad "compare summary"
finish
